"""A map group from a VASL board archive (DESIGN §15).

A board archive is a zip holding ``BoardMetadata.xml`` (the grid:
:mod:`cgledger.domain.vasl_grid`) and, for the boards that have one,
``LOSData`` (each pixel's ground level and terrain code:
:mod:`cgledger.domain.vasl_losdata`). The answer is a map group of §9 with
every hex of the board, its ``levels`` where the archive gives a building's
levels, and ``enterable: false`` where a hex's terrain is a Water Obstacle (B21);
beside it, each hex's ``readings`` (ground level, terrain, stairway, the
building the metadata names), the ``board`` read and ``notes`` saying what
was not read and what is left to the players.

LOSData names terrain by codes that index VASL's terrain types, which are not
in a board archive but in VASL's module (``SharedBoardMetadata.xml``, its
``terrainTypes``). The terrain is named, buildings sized from it and water
marked only when that file comes along (in the archive, or given apart); this
module carries no copy of VASL's table, whose codes are VASL's to change.

A hex's terrain is read where VASL reads it (``Hex.resetTerrain``): at its
centre's pixel; when that is not a building, at the six points just inside
its hexsides' midpoints, then at the four 5 pixels from the centre (the
last building found there). Its ground level is the centre's elevation.
Its levels (8.6057's multi-level detail) are the building's: ground level 0
and each upper level up to the terrain type's height, as VASL's LOS model
has them, except for single-storey buildings and for a factory without a
stairway (ground level only). Rooftops and cellars are not levels here.
``BoardMetadata.xml``'s ``buildingTypes``, which the board's author sets per
hex where VASL cannot tell a building's kind from its colours, win over
``LOSData``'s where both name one.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cgledger.domain import vasl_losdata
from cgledger.domain.definition_types import ID_PATTERN, MAX_LEVEL, MIN_LEVEL
from cgledger.domain.errors import InvalidInput
from cgledger.domain.vasl_grid import (
    BoardMetadata,
    Grid,
    GridHex,
    hexes_of,
    layout_of,
    parse_metadata,
    xml_root,
)

__all__ = ["MAX_PIXELS", "TerrainType", "building_levels", "import_board", "terrain_types"]

METADATA: Final = "BoardMetadata.xml"
LOS_DATA: Final = "LOSData"
SHARED: Final = "SharedBoardMetadata.xml"
#: The most pixels an ``LOSData`` terrain grid may have (two bytes each once
#: decompressed): a large HASL map has about 7 million.
MAX_PIXELS: Final = 20_000_000
MAX_XML: Final = 8 * 1024 * 1024
#: How many hex ids a note lists before it says how many there are in all.
SHOWN: Final = 12
BUILDINGS: Final = frozenset({"BUILDING", "FACTORY", "MARKETPLACE"})
#: VASL's building types with no upper level (``Hex``: no levels added).
SINGLE_STOREY: Final = frozenset({"Stone Building", "Wooden Building", "Huts", "MultipleWooden"})
_STOREYS = re.compile(r"^(?:Stone|Wooden) Building, ([1-9]) Level$")
_COS30: Final = math.cos(math.radians(30))
LEFT_TO_PLAYERS: Final = (
    "left to the players: Strategic Locations and their LVP, which hexes form one building "
    "('building'), Entry Areas, the HQ, initial Control and Blocks (docs/authoring.md)"
)


@dataclass(frozen=True)
class TerrainType:
    """A terrain type of VASL's ``SharedBoardMetadata.xml``."""

    code: int
    name: str
    height: int
    category: str

    @property
    def building(self) -> bool:
        return self.category in BUILDINGS

    @property
    def water(self) -> bool:
        """One of B21's Water Obstacles: VASL's water terrain but its
        shallow kinds (a bridge or a ford is terrain of its own in VASL)."""
        return self.category == "WATER" and not self.name.startswith("Shallow")


def _bad(where: str, why: str) -> InvalidInput:
    return InvalidInput(f"{where}: {why}", field=where)


def _shown(items: Sequence[str]) -> str:
    more = f" ({len(items)} in all)" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def terrain_types(data: bytes, where: str) -> dict[int, TerrainType]:
    """The ``terrainType`` elements of ``SharedBoardMetadata.xml``, by code;
    or of a zip holding it (VASL's module, a ``.vmod``)."""
    if data.startswith(b"PK"):
        with _opened(data, where) as module:
            if SHARED not in module.NameToInfo:
                raise _bad(where, f"the zip holds no {SHARED} (VASL's module has it at its root)")
            data = _read(module, module.getinfo(SHARED), f"{where}.{SHARED}", MAX_XML)
    found: dict[int, TerrainType] = {}
    for element in xml_root(data, where).iter("terrainType"):
        code, name = element.get("typeCode", "").strip(), element.get("name", "").strip()
        height, category = element.get("height", "0").strip(), element.get("LOSCategory", "")
        if not (
            re.fullmatch(r"[0-9]{1,3}", code)
            and int(code) <= 255
            and name
            and re.fullmatch(r"-?[0-9]{1,3}", height)
        ):
            raise _bad(where, f"terrainType {name[:40]!r} has no typeCode 0-255, or no height")
        if int(code) in found:
            raise _bad(
                where, f"typeCode {code} is given twice ({found[int(code)].name!r}, {name!r})"
            )
        found[int(code)] = TerrainType(int(code), name, int(height), category.strip().upper())
    if not found:
        raise _bad(where, "it holds no terrainType: VASL's SharedBoardMetadata.xml has them")
    return found


def building_levels(name: str, kind: TerrainType | None, stairway: bool) -> list[int] | None:
    """The levels of a hex whose building is ``name`` (its terrain type
    ``kind`` when known); ``None``: not a building, or one this tool cannot
    size without its terrain type."""
    if name in SINGLE_STOREY:
        return [0]
    if kind is not None:
        if not kind.building:
            return None
        return [0] if kind.category == "FACTORY" and not stairway else list(range(kind.height + 1))
    storeys = _STOREYS.match(name)
    return list(range(int(storeys[1]) + 1)) if storeys else None


# ------------------------------------------------------------------ the zip


# zipfile raises what it will on a malformed archive (BadZipFile, but also
# EOFError, struct.error, UnicodeDecodeError, ...): each is the archive's fault.


def _opened(data: bytes, where: str) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except Exception as exc:
        raise _bad(where, f"not a zip archive ({exc})") from None


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: str, cap: int) -> bytes:
    if info.file_size > cap:
        raise _bad(where, f"{info.file_size:,} bytes: over the {cap:,} this tool reads")
    try:
        with archive.open(info) as entry:
            return entry.read(cap + 1)
    except Exception as exc:  # damaged, encrypted, an unknown compression method, ...
        raise _bad(where, f"the archive's entry cannot be read ({exc})") from None


def _folder(archive: zipfile.ZipFile, where: str) -> str:
    """Where the board's files lie in the zip: at its root (as VASL has
    them), or in its one folder holding ``BoardMetadata.xml``."""
    names = [i.filename for i in archive.infolist() if not i.filename.endswith("/")]
    if METADATA in names:
        return ""
    found = sorted(n for n in names if n.endswith("/" + METADATA))
    if len(found) > 1:
        raise _bad(where, f"it holds several {METADATA}: {_shown(found)}; send one board")
    if not found:
        legacy = " (a VASL 5 board, with only 'data', is not read)" if "data" in names else ""
        raise _bad(where, f"the archive holds no {METADATA}, as every VASL 6 board has{legacy}")
    return found[0][: -len(METADATA)]


# ---------------------------------------------------------------- the hexes


class _Reader:
    """Each hex's reading of ``LOSData`` (with the terrain types, if any)."""

    def __init__(self, los: vasl_losdata.LosData, grid: Grid, kinds: dict[int, TerrainType]):
        self.los, self.kinds = los, kinds
        v = grid.hex_height / 2
        h = _COS30 * v
        # Just inside each hexside's midpoint, clockwise from the top (Hex's hexside points).
        self.sides: tuple[tuple[float, float], ...] = (
            (0, 1 - v),
            (h - 1, 1 - v / 2),
            (h - 1, v / 2 - 1),
            (0, v - 1),
            (1 - h, v / 2 - 1),
            (1 - h, 1 - v / 2),
        )
        self.unknown: set[int] = set()

    def _code(self, x: float, y: float) -> int | None:
        px, py = int(x), int(y)
        if 0 <= px < self.los.grid_width and 0 <= py < self.los.grid_height:
            return self.los.pixel(px, py)[1]
        return None

    def _building(self, code: int | None) -> bool:
        kind = None if code is None else self.kinds.get(code)
        return kind is not None and kind.building

    def read(self, h: GridHex, number: int) -> tuple[dict[str, Any], TerrainType | None]:
        los = self.los
        x = min(max(int(h.x), 0), los.grid_width - 1)
        y = min(max(int(h.y), 0), los.grid_height - 1)
        ground, code = los.pixel(x, y)
        stairway = los.stairway(number)
        if self.kinds and not self._building(code):
            sides = [self._code(h.x + dx, h.y + dy) for dx, dy in self.sides]
            probes = [self._code(h.x + d, h.y) for d in (5, -5)]
            probes += [self._code(h.x, h.y + d) for d in (5, -5)]
            # The first hexside's building, else the last probe's (as VASL does).
            found = [c for c in sides if c is not None and self._building(c)]
            found += [c for c in reversed(probes) if c is not None and self._building(c)]
            code = found[0] if found else code
        reading: dict[str, Any] = {"ground_level": ground, "terrain_code": code}
        kind = self.kinds.get(code)
        if kind is not None:
            reading["terrain"] = kind.name
        elif self.kinds:
            self.unknown.add(code)
        reading["stairway"] = stairway
        return reading, kind


def _map_id(meta: BoardMetadata, map_id: str | None) -> str:
    if map_id is not None:
        if not re.fullmatch(ID_PATTERN, map_id) or len(map_id) > 20:
            raise InvalidInput(f"id: {map_id[:40]!r} is not a map group id", field="id")
        return map_id
    plain = re.sub(r"[^A-Za-z0-9_.:/+-]", "-", meta.name or "").lstrip("_.:/+-")
    return plain[:20] or "vasl"


def _los_data(
    archive: zipfile.ZipFile, folder: str, meta: BoardMetadata, grid: Grid, where: str
) -> vasl_losdata.LosData | None:
    name = folder + LOS_DATA
    if name not in archive.NameToInfo:
        return None
    at = f"{where}.{LOS_DATA}"
    gz = _read(archive, archive.getinfo(name), at, MAX_PIXELS * 2)
    equal = grid.layout == "equal_rows"
    return vasl_losdata.decode(
        gz,
        where=at,
        stairway_bytes=lambda w, h: vasl_losdata.stairways(w, h, equal),
        max_pixels=MAX_PIXELS,
        expect=(meta.width, meta.height),
    )


def _kinds(
    archive: zipfile.ZipFile, folder: str, given: bytes | None, where: str, given_where: str
) -> dict[int, TerrainType]:
    if given is not None:
        return terrain_types(given, given_where)
    for name in (folder + SHARED, SHARED):
        if name in archive.NameToInfo:
            at = f"{where}.{SHARED}"
            return terrain_types(_read(archive, archive.getinfo(name), at, MAX_XML), at)
    return {}


def import_board(
    archive: bytes,
    *,
    where: str = "zip",
    terrain: bytes | None = None,
    terrain_where: str = "terrain_types",
    map_id: str | None = None,
    title: str | None = None,
) -> dict[str, Any]:
    """The answer of ``POST /v1/definition-tools/vasl-board`` for a board
    archive (``where`` names it in a refusal), with VASL's terrain types
    ``terrain`` if given apart (else from the archive, if it holds them):
    a map group of §9 (DESIGN §15: its hexes with their ``levels``,
    ``enterable``, ``ground_level`` and ``terrain`` where the archive gives
    them) and, beside its fields, the import's report: ``board``, each hex's
    ``readings`` and the ``notes`` (:data:`REPORT`; :func:`map_group_of`
    leaves them out)."""
    with _opened(archive, where) as zipped:
        folder = _folder(zipped, where)
        at = f"{where}.{METADATA}"
        meta = parse_metadata(_read(zipped, zipped.getinfo(folder + METADATA), at, MAX_XML), at)
        grid = layout_of(meta, at)
        group_id = _map_id(meta, map_id)
        kinds = _kinds(zipped, folder, terrain, where, terrain_where)
        los = None if grid.layout == "alternate" else _los_data(zipped, folder, meta, grid, where)
        held = folder + LOS_DATA in zipped.NameToInfo
    notes = [LEFT_TO_PLAYERS]
    if not held:
        notes.append(
            "the archive holds no LOSData: no ground level or terrain is read; levels come "
            "from BoardMetadata.xml's buildingTypes alone"
        )
    elif los is None:
        notes.append(
            "LOSData is not read: VASL's LOS code does not lay out the alternate hex grain "
            "(altHexGrain), so its pixels cannot be put in hexes"
        )
    elif not kinds:
        notes.append(
            f"no terrain types ({SHARED}, at the root of VASL's module): terrain is given by "
            "its code only, buildings only where BoardMetadata.xml names them, and no hex is "
            "marked not enterable"
        )
    hexes, readings = _hexes(grid, meta, los, kinds, notes)
    board = {
        "name": meta.name,
        "version": meta.version,
        "width": meta.width,
        "height": meta.height,
        "layout": grid.layout,
        "hex_size": [grid.hex_width, grid.hex_height],
        "a1_center": [grid.a1_x, grid.a1_y],
        "los_data": None if los is None else {"grid": [los.grid_width, los.grid_height]},
        "terrain_types": len(kinds),
    }
    map_group = {
        "id": group_id,
        "title": title if title is not None else f"VASL board {meta.name or group_id}"[:200],
        "hexes": hexes,
        "entry_areas": [],
        "hq": {},
        "initial_control": {},
    }
    return {**map_group, "board": board, "readings": readings, "notes": notes}


#: The fields of the answer that report on the import, beside the map group's.
REPORT = ("board", "readings", "notes")


def map_group_of(answer: dict[str, Any]) -> dict[str, Any]:
    """The map group of an import's answer, without its report (:data:`REPORT`):
    what a CG definition's ``map_groups`` takes."""
    return {k: v for k, v in answer.items() if k not in REPORT}


def _hexes(
    grid: Grid,
    meta: BoardMetadata,
    los: vasl_losdata.LosData | None,
    kinds: dict[int, TerrainType],
    notes: list[str],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each hex of the map group and its reading; ``notes`` gets what a
    reader should check."""
    reader = None if los is None else _Reader(los, grid, kinds)
    by_name = {k.name: k for k in kinds.values()}
    hexes: list[dict[str, Any]] = []
    readings: list[dict[str, Any]] = []
    unsized: list[str] = []
    differ: list[str] = []
    unfit: list[str] = []
    steep: list[str] = []
    ids: set[str] = set()
    for number, h in enumerate(hexes_of(grid)):
        ids.add(h.hex)
        entry: dict[str, Any] = {"hex": h.hex, "q": h.q, "r": h.r}
        reading: dict[str, Any] = {"hex": h.hex}
        levels: list[int] | None = None
        kind = None
        if reader is not None:
            seen, kind = reader.read(h, number)
            reading.update(seen)
            if kind is not None:
                levels = building_levels(kind.name, kind, seen["stairway"])
                if kind.water:
                    entry["enterable"] = False
        named = meta.building_types.get(h.hex)
        if named is not None:
            reading["building_type"] = named
            stairway = bool(reading.get("stairway"))
            sized = building_levels(named, by_name.get(named), stairway)
            if sized is None:
                unsized.append(f"{h.hex} ({named[:40]})")
            else:
                levels = sized
            if kind is not None and kind.name != named:
                differ.append(f"{h.hex} ({kind.name[:40]})")
        _put(entry, levels, reading.get("ground_level"), unfit, steep)
        if reading.get("terrain") is not None:
            entry["terrain"] = reading["terrain"][:60]
        hexes.append(entry)
        if len(reading) > 1:
            readings.append(reading)
    _note(notes, reader, unsized, differ, sorted(set(meta.building_types) - ids))
    if unfit:
        notes.append(
            f"levels a map group cannot hold ({MIN_LEVEL} to {MAX_LEVEL}, at most 20, at least "
            f"one): {_shown(unfit)}; give their levels from the map"
        )
    if steep:
        notes.append(
            f"ground levels out of a hex's range ({GROUND[0]} to {GROUND[1]}): {_shown(steep)}; "
            "not given (they stay in readings)"
        )
    return hexes, readings


#: The ground levels a hex of a map group takes (``definition_maps.Hex``).
GROUND = (-10, 100)


def _put(
    entry: dict[str, Any],
    levels: list[int] | None,
    ground: int | None,
    unfit: list[str],
    steep: list[str],
) -> None:
    """A hex's levels and ground level, where a map group's hex takes them
    (else listed in ``unfit``, ``steep`` for the notes: never a guess)."""
    if levels is not None and not _fits(levels):
        shown = f"{levels[0]}..{levels[-1]}" if levels else "none"
        unfit.append(f"{entry['hex']} ({shown})")
    elif levels is not None and levels != [0]:
        entry["levels"] = levels
    if ground is not None and GROUND[0] <= ground <= GROUND[1]:
        entry["ground_level"] = ground
    elif ground is not None:
        steep.append(f"{entry['hex']} ({ground})")


def _fits(levels: list[int]) -> bool:
    """Whether building levels are ones a map group's hex takes."""
    return 1 <= len(levels) <= 20 and all(MIN_LEVEL <= x <= MAX_LEVEL for x in levels)


def _note(
    notes: list[str],
    reader: _Reader | None,
    unsized: list[str],
    differ: list[str],
    off: Iterable[str],
) -> None:
    if reader is not None and reader.unknown:
        codes = ", ".join(str(c) for c in sorted(reader.unknown))
        notes.append(
            f"terrain codes {codes} are not among the terrain types given (another VASL "
            "version's?): the terrain of their hexes is not named"
        )
    if unsized:
        notes.append(
            f"buildingTypes this tool cannot give levels to: {_shown(unsized)}; give their "
            "levels from the map"
        )
    if differ:
        notes.append(
            f"LOSData's terrain is not the building BoardMetadata.xml names in {_shown(differ)}: "
            "the levels follow BoardMetadata.xml, whose author sets them per hex"
        )
    off = list(off)
    if off:
        notes.append(f"buildingTypes names hexes the board does not have: {_shown(off)}")
