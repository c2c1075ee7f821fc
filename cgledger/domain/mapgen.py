"""A SYNTHETIC map group (DESIGN §9) of any size, made by a seeded generator:
the rulesets' samples use one the size of a real Map Group (1,200 hexes, 60
Strategic Locations), and the benchmarks make larger ones. It is invented
data, not any real map.

What it draws, on a rectangle of ``columns`` x ``rows`` hexes named as on an
ASL map (``A1`` ... ``NN30``; axial coordinates by
:func:`cgledger.domain.hexes.to_axial`, every second column half a hex lower):

* buildings of two to four contiguous hexes, each with a ``building`` id and
  the levels ``[0, 1]`` or ``[0, 1, 2]`` in every one of its hexes (8.6057:
  the contiguous upper-level Locations of one building);
* small ponds: hexes that are not ``enterable`` (8.6052: a path runs through
  Enterable Locations);
* optional Blocks (9.605: Setup Areas by city blocks): a grid of rectangular
  blocks lettered ``blocks[0]``, ``blocks[1]``, ... from the west, column by
  column, north before south, with road hexes (``block`` null) between them;
* Strategic Locations with LVP (8.6033), inside the Blocks where there are
  Blocks, about half of them in buildings;
* two Eligible Entry Areas per side, nine hexes wide (SSR CG6), the first
  side's on the west edge and the second side's on the east edge (8.6052);
* ``initial_control``: each side Controls the Strategic Locations on its half
  of the map (with Blocks, the halves follow the Block columns, so that no
  Block is split).

It names no ruleset and no side: the sides are parameters, and the keys a
ruleset's definition adds to an Entry Area (an arrow hex, a date) are for
the caller to add. A hex lists only the fields that differ from their
defaults (DESIGN §9).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from cgledger.domain.hexes import NEIGHBOURS, column_letters, from_axial, parse, to_axial

__all__ = ["BASE_COLUMNS", "BASE_ROWS", "BASE_STRATEGIC", "ENTRY_WIDTH", "synthetic_map_group"]

#: The 1x map: 40 x 30 = 1,200 hexes and 60 Strategic Locations.
BASE_COLUMNS, BASE_ROWS, BASE_STRATEGIC = 40, 30, 60
#: SSR CG6: "the center hex of each nine-hex-wide Entry Area".
ENTRY_WIDTH = 9
#: Buildings and ponds of the 1x map.
_BASE_BUILDINGS, _BASE_PONDS = 45, 8


def synthetic_map_group(
    map_id: str,
    sides: Sequence[str],
    *,
    title: str = "",
    scale: int = 1,
    columns: int | None = None,
    rows: int | None = None,
    strategic: int | None = None,
    buildings: int | None = None,
    ponds: int | None = None,
    blocks: Sequence[str] = (),
    seed: int = 1,
) -> dict[str, Any]:
    """A map group dict in the DESIGN §9 shape for the two ``sides`` (west,
    east). ``scale`` multiplies the 1x map's hexes, Strategic Locations,
    buildings and ponds (4: 80 x 60 hexes); an explicit count overrides it.
    The same arguments give the same map."""
    if len(sides) != 2 or sides[0] == sides[1]:
        raise ValueError(f"two distinct sides, west then east: {sides!r}")
    if scale < 1:
        raise ValueError(f"scale must be >= 1: {scale}")
    factor = math.sqrt(scale)
    cols = columns if columns is not None else round(BASE_COLUMNS * factor)
    nrows = rows if rows is not None else round(BASE_ROWS * factor)
    if cols < 8 or nrows < ENTRY_WIDTH * 2:
        raise ValueError(f"a map of at least 8 x {ENTRY_WIDTH * 2} hexes: {cols} x {nrows}")
    rng = random.Random(seed)  # noqa: S311 - synthetic data, not secrets
    gen = _Generator(cols, nrows, list(blocks), rng)
    gen.lay_blocks()
    gen.lay_buildings(buildings if buildings is not None else _BASE_BUILDINGS * scale)
    gen.lay_ponds(ponds if ponds is not None else _BASE_PONDS * scale)
    gen.lay_strategic(strategic if strategic is not None else BASE_STRATEGIC * scale)
    return gen.group(map_id, title, (sides[0], sides[1]))


Cell = tuple[int, int]  # (column index, row number), rows 1..rows


class _Generator:
    def __init__(self, columns: int, rows: int, blocks: list[str], rng: random.Random) -> None:
        self.columns, self.rows, self.letters, self.rng = columns, rows, blocks, rng
        self.cells: list[Cell] = [(c, row) for c in range(columns) for row in range(1, rows + 1)]
        self.block: dict[Cell, str] = {}
        self.building: dict[Cell, str] = {}
        self.levels: dict[Cell, list[int]] = {}
        self.pond: set[Cell] = set()
        self.lvp: dict[Cell, int] = {}
        #: The first column of the east half.
        self.middle = columns // 2
        self.entry = self._entry_areas()
        entry_cells = {cell for _, cells in self.entry for cell in cells}
        #: Off the edges and the Entry Areas: where buildings, ponds and
        #: Strategic Locations may go.
        self.inner = [
            (c, row)
            for c, row in self.cells
            if 0 < c < columns - 1 and 1 < row < rows and (c, row) not in entry_cells
        ]
        self.inner_set = set(self.inner)

    # ------------------------------------------------------------ geometry

    @staticmethod
    def _id(cell: Cell) -> str:
        return f"{column_letters(cell[0])}{cell[1]}"

    def _adjacent(self, cell: Cell) -> list[Cell]:
        q, r = to_axial(self._id(cell))
        out = []
        for dq, dr in NEIGHBOURS:
            if not 0 <= q + dq < self.columns:
                continue
            _, column, row = parse(from_axial(q + dq, r + dr))
            if 1 <= row <= self.rows:
                out.append((column, row))
        return out

    def _entry_areas(self) -> list[tuple[int, list[Cell]]]:
        """Two nine-hex Entry Areas per side: the first side's on column A, the
        second's on the last column, centred a quarter of the way from each end."""
        out: list[tuple[int, list[Cell]]] = []
        for side, column in ((0, 0), (1, self.columns - 1)):
            for centre in (self.rows // 4 + 1, self.rows - self.rows // 4):
                first = max(1, min(centre - ENTRY_WIDTH // 2, self.rows - ENTRY_WIDTH + 1))
                out.append((side, [(column, row) for row in range(first, first + ENTRY_WIDTH)]))
        return out

    # ------------------------------------------------------------ layers

    def lay_blocks(self) -> None:
        """9.605 city blocks: a grid of rectangles in the middle of the map, a
        road (no Block) along the first column and row of each."""
        count = len(self.letters)
        if not count:
            return
        if len(set(self.letters)) != count:
            raise ValueError(f"Block letters must be distinct: {self.letters!r}")
        bands = 2 if count >= 4 and count % 2 == 0 else 1
        slices = -(-count // bands)
        margin_c, margin_r = max(2, self.columns // 6), max(2, self.rows // 8)
        width = (self.columns - 2 * margin_c) // slices
        height = (self.rows - 2 * margin_r) // bands
        if width < 3 or height < 3:
            raise ValueError(f"no room for {count} Blocks on {self.columns} x {self.rows} hexes")
        x0 = (self.columns - width * slices) // 2
        y0 = (self.rows - height * bands) // 2 + 1
        for n, letter in enumerate(self.letters):
            k, j = divmod(n, bands)
            for c in range(x0 + k * width + 1, x0 + (k + 1) * width):
                for row in range(y0 + j * height + 1, y0 + (j + 1) * height):
                    self.block[(c, row)] = letter
        # The halves follow the Block columns: no Block is split between them.
        self.middle = x0 + (slices // 2) * width

    def lay_buildings(self, count: int) -> None:
        """8.6057: buildings of 2-4 contiguous hexes with upper levels, mostly
        in the Blocks where there are Blocks."""
        in_blocks = [cell for cell in self.inner if cell in self.block]
        for n in range(count):
            pool = in_blocks if in_blocks and self.rng.random() < 0.8 else self.inner
            start = self._free(pool, lambda cell: cell not in self.building)
            if start is None:
                return
            levels = [0, 1] if self.rng.random() < 0.6 else [0, 1, 2]
            name = f"b{n + 1}"
            hexes = [start]
            block = self.block.get(start)
            for _ in range(self.rng.randint(1, 3)):
                around = [
                    k
                    for h in hexes
                    for k in self._adjacent(h)
                    if k not in self.building
                    and k not in hexes
                    and self.block.get(k) == block
                    and k in self.inner_set
                ]
                if not around:
                    break
                hexes.append(self.rng.choice(sorted(around)))
            for cell in hexes:
                self.building[cell] = name
                self.levels[cell] = levels

    def lay_ponds(self, count: int) -> None:
        """Ponds of one to three hexes that no path enters (8.6052:
        Enterable), outside the Blocks and the buildings."""

        def free(cell: Cell) -> bool:
            return cell not in self.block and cell not in self.building and cell not in self.pond

        for _ in range(count):
            start = self._free(self.inner, free)
            if start is None:
                return
            self.pond.add(start)
            for _ in range(self.rng.randint(0, 2)):
                around = sorted(k for k in self._adjacent(start) if k in self.inner_set and free(k))
                if around:
                    self.pond.add(self.rng.choice(around))

    def lay_strategic(self, count: int) -> None:
        """Strategic Locations with 1-4 LVP (8.6033), shared out evenly between
        the Blocks where there are Blocks (else between the two halves of the
        map, a fifth of each half's near the middle, where the sides' Setup
        Areas meet in No Man's Land, 8.6051), about half of them in buildings."""
        groups: list[list[Cell]]
        fronts: list[list[Cell]]
        if self.letters:
            groups = [[c for c in self.inner if self.block.get(c) == x] for x in self.letters]
            fronts = [[] for _ in groups]
        else:
            west = [c for c in self.inner if c[0] < self.middle]
            east = [c for c in self.inner if c[0] >= self.middle]
            groups = [west, east]
            fronts = [
                [c for c in west if c[0] >= self.middle - 2],
                [c for c in east if c[0] <= self.middle + 1],
            ]
        for n, (pool, front) in enumerate(zip(groups, fronts, strict=True)):
            share = count // len(groups) + (1 if n < count % len(groups) else 0)
            open_pool = [c for c in pool if c not in self.pond]
            housed = [c for c in open_pool if c in self.building]
            near = [c for c in front if c not in self.pond]
            if share > len(open_pool):
                raise ValueError(
                    f"no room for {share} Strategic Locations ({len(open_pool)} hexes)"
                )
            for m in range(share):
                use = (
                    near if near and m % 5 == 4 else housed if housed and m % 2 == 0 else open_pool
                )
                cell = self._free(use, lambda c: c not in self.lvp)
                if cell is None:
                    cell = self._free(open_pool, lambda c: c not in self.lvp)
                assert cell is not None
                self.lvp[cell] = self.rng.randint(1, 4)

    def _free(self, pool: Sequence[Cell], ok: Callable[[Cell], bool]) -> Cell | None:
        """A random cell of ``pool`` that ``ok`` accepts (``None``: none is)."""
        for _ in range(64):
            cell = pool[self.rng.randrange(len(pool))]
            if ok(cell):
                return cell
        left = [c for c in pool if ok(c)]
        return self.rng.choice(left) if left else None

    # ------------------------------------------------------------ output

    def group(self, map_id: str, title: str, sides: tuple[str, str]) -> dict[str, Any]:
        hexes: list[dict[str, Any]] = []
        control: dict[str, str] = {}
        for cell in self.cells:
            hex_id = self._id(cell)
            q, r = to_axial(hex_id)
            entry: dict[str, Any] = {"hex": hex_id, "q": q, "r": r}
            if cell in self.lvp:
                entry["strategic"] = True
                entry["lvp"] = self.lvp[cell]
                control[hex_id] = sides[0] if cell[0] < self.middle else sides[1]
            if cell in self.levels:
                entry["levels"] = list(self.levels[cell])
            if cell in self.pond:
                entry["enterable"] = False
            if cell in self.block:
                entry["block"] = self.block[cell]
            if cell in self.building:
                entry["building"] = self.building[cell]
            hexes.append(entry)
        areas = []
        count = {0: 0, 1: 0}
        for side, cells in self.entry:
            count[side] += 1
            edge = "W" if side == 0 else "E"
            areas.append(
                {
                    "id": f"{_slug(sides[side])}-{edge}{count[side]}",
                    "side": sides[side],
                    "hexes": [self._id(cell) for cell in cells],
                }
            )
        return {
            "id": map_id,
            "title": title,
            "hexes": hexes,
            "entry_areas": areas,
            "hq": {},
            "initial_control": control,
        }


def _slug(side: str) -> str:
    """A side as an id part: "U.S. Army" -> "USArmy" (at most 16 characters)."""
    return re.sub(r"[^A-Za-z0-9]", "", side)[:16] or "side"
