"""The territory of a map group as the engine keeps it (DESIGN §9): its hexes
indexed once (:class:`MapGroupData`), the Control of its Locations at one
moment (:class:`ControlState`) and the Setup-Area answer's shape.

No rule lives here. A ruleset's ``Rules.setup_areas`` turns a map group and its
Control into Setup Areas by its own rules (8.605-8.6057, 9.605-9.6055),
using the graph operations of :class:`Grid`. Everything here is linear in the
hexes of the map group: a map group of 1,200 hexes is indexed once per CG
definition and reused by every read.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from cgledger.domain.hexes import NEIGHBOURS

__all__ = [
    "BLOCK_KEY",
    "MARKERS",
    "NML",
    "UNCONTROLLED",
    "ControlState",
    "Grid",
    "MapGroupData",
    "area_ids",
    "map_group_data",
]

#: How a book of Control keys a Block (no hex id starts with "#").
BLOCK_KEY: Final = "#block:"
#: A hex's status that is not a side (DESIGN §9).
NML: Final = "nml"
UNCONTROLLED: Final = "uncontrolled"
#: MARKING THE MAP (after 8.6057): what makes a Location Strategic during
#: the CG: an Entrenchment, a Fortification, a functioning Gun, a manned
#: Immobile vehicle with functioning MA of >= 20mm (or functioning FT MA).
MARKERS: Final = {
    "E": "Entrenchment",
    "F": "Fortification",
    "G": "functioning Gun",
    "V": "manned, Immobile vehicle with functioning MA >= 20mm or FT MA",
}


@dataclass(frozen=True, eq=False)
class Grid:
    """The hexes of a map group by index, with their neighbours on the map."""

    ids: tuple[str, ...]
    coords: tuple[tuple[int, int], ...]
    index: Mapping[str, int]
    #: The hex at each coordinate.
    at: Mapping[tuple[int, int], int]
    #: Each hex's neighbours that are on the map.
    adjacent: tuple[tuple[int, ...], ...]
    #: Whether a hex has a neighbour off the map (it touches the map's edge).
    on_edge: tuple[bool, ...]

    @classmethod
    def build(cls, hexes: Iterable[tuple[str, int, int]]) -> Grid:
        ids: list[str] = []
        coords: list[tuple[int, int]] = []
        for hex_id, q, r in hexes:
            ids.append(hex_id)
            coords.append((q, r))
        at = {c: i for i, c in enumerate(coords)}
        adjacent: list[tuple[int, ...]] = []
        on_edge: list[bool] = []
        for q, r in coords:
            found = [at.get((q + dq, r + dr)) for dq, dr in NEIGHBOURS]
            adjacent.append(tuple(j for j in found if j is not None))
            on_edge.append(len(adjacent[-1]) < len(NEIGHBOURS))
        return cls(
            ids=tuple(ids),
            coords=tuple(coords),
            index={h: i for i, h in enumerate(ids)},
            at=at,
            adjacent=tuple(adjacent),
            on_edge=tuple(on_edge),
        )

    def __len__(self) -> int:
        return len(self.ids)

    def within(self, i: int, radius: int) -> list[int]:
        """The hexes on the map within ``radius`` hexes of hex ``i`` (itself
        included): DESIGN §9's "within two hexes" is distance <= 2, whatever
        lies between."""
        q, r = self.coords[i]
        at = self.at
        seen = []
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
                j = at.get((q + dq, r + dr))
                if j is not None:
                    seen.append(j)
        return sorted(seen)

    def components(self, members: Sequence[bool]) -> list[list[int]]:
        """The connected groups of the hexes where ``members`` is true, each in
        index order, the groups in the order of their first hex."""
        seen = bytearray(len(self.ids))
        groups: list[list[int]] = []
        for start, member in enumerate(members):
            if not member or seen[start]:
                continue
            seen[start] = 1
            group = [start]
            stack = [start]
            while stack:
                j = stack.pop()
                for k in self.adjacent[j]:
                    if members[k] and not seen[k]:
                        seen[k] = 1
                        group.append(k)
                        stack.append(k)
            group.sort()
            groups.append(group)
        return groups

    def reach(self, starts: Iterable[int], passable: Sequence[bool]) -> bytearray:
        """The hexes joined to any of ``starts`` by a path of contiguous
        ``passable`` hexes (a start that is not passable starts nothing)."""
        reached = bytearray(len(self.ids))
        queue: deque[int] = deque()
        for s in starts:
            if passable[s] and not reached[s]:
                reached[s] = 1
                queue.append(s)
        while queue:
            j = queue.popleft()
            for k in self.adjacent[j]:
                if passable[k] and not reached[k]:
                    reached[k] = 1
                    queue.append(k)
        return reached


@dataclass(frozen=True, eq=False)
class MapGroupData:
    """A map group of a CG definition (DESIGN §9), indexed: what its hexes are,
    by hex index."""

    id: str
    title: str
    grid: Grid
    strategic: tuple[bool, ...]
    lvp: tuple[int, ...]
    levels: tuple[tuple[int, ...], ...]
    enterable: tuple[bool, ...]
    block: tuple[str | None, ...]
    building: tuple[str | None, ...]
    #: Each side's Eligible Entry Area hexes (8.6052, 9.6053), and its HQ.
    entry: Mapping[str, frozenset[int]]
    #: Each Eligible Entry Area: its side, the CG Date it is Eligible from (SSR
    #: CG6c: the date on its arrow; ``None``: always) and its hexes.
    entry_areas: tuple[tuple[str, str | None, frozenset[int]], ...]
    hq: Mapping[str, int]
    initial_control: Mapping[str, str]

    def ground(self, i: int) -> int:
        """The level of hex ``i``'s ground Location (0, or its lowest level)."""
        levels = self.levels[i]
        return 0 if 0 in levels else min(levels)


def map_group_data(group: Mapping[str, Any]) -> MapGroupData:
    """Index a map group of a (validated) CG definition."""
    hexes = list(group["hexes"])
    grid = Grid.build((h["hex"], h["q"], h["r"]) for h in hexes)
    entry: dict[str, set[int]] = {}
    areas = []
    for area in group.get("entry_areas") or ():
        found = frozenset(grid.index[h] for h in area["hexes"] if h in grid.index)
        entry.setdefault(area["side"], set()).update(found)
        areas.append((area["side"], area.get("from_date"), found))
    return MapGroupData(
        id=group["id"],
        title=group.get("title") or "",
        grid=grid,
        strategic=tuple(bool(h.get("strategic")) for h in hexes),
        lvp=tuple(int(h.get("lvp") or 0) for h in hexes),
        levels=tuple(tuple(h.get("levels") or (0,)) for h in hexes),
        enterable=tuple(h.get("enterable", True) is not False for h in hexes),
        block=tuple(h.get("block") for h in hexes),
        building=tuple(h.get("building") for h in hexes),
        entry={side: frozenset(found) for side, found in entry.items()},
        entry_areas=tuple(areas),
        hq={
            side: grid.index[hx] for side, hx in (group.get("hq") or {}).items() if hx in grid.index
        },
        initial_control=dict(group.get("initial_control") or {}),
    )


@lru_cache(maxsize=64)
def _cached(definition_hash: str, group_id: str, holder: _Doc) -> MapGroupData:
    del definition_hash
    for group in holder.doc.get("map_groups") or ():
        if group["id"] == group_id:
            return map_group_data(group)
    raise KeyError(group_id)


@dataclass(frozen=True, eq=False)
class _Doc:
    """A definition document passed through the cache without being hashed."""

    doc: Mapping[str, Any]

    def __hash__(self) -> int:
        return 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Doc)


def cached_group(definition_hash: str, doc: Mapping[str, Any], group_id: str) -> MapGroupData:
    """:func:`map_group_data` of a definition's map group, indexed once per
    definition (keyed by its hash, DESIGN §7)."""
    return _cached(definition_hash, group_id, _Doc(doc))


@dataclass
class ControlState:
    """The Control of one map group's Locations at one moment: the definition's
    ``initial_control`` overlaid by the Control recorded since (DESIGN §9).

    ``sides``: by Location ``(hex, level)``, the side that Controls it (absent
    or ``None``: uncontrolled). ``markers``: the Locations made Strategic during
    the CG (MARKING THE MAP: E, F, G, V). ``blazing``: Blazing Locations (8.6057).
    ``blocks``: the Control of Blocks (9.605-9.6051)."""

    sides: dict[tuple[str, int], str | None] = field(default_factory=dict)
    markers: dict[tuple[str, int], str] = field(default_factory=dict)
    blazing: set[tuple[str, int]] = field(default_factory=set)
    blocks: dict[str, str | None] = field(default_factory=dict)

    def copy(self) -> ControlState:
        """An independent copy (its entries are immutable values)."""
        return ControlState(
            sides=dict(self.sides),
            markers=dict(self.markers),
            blazing=set(self.blazing),
            blocks=dict(self.blocks),
        )

    @classmethod
    def of(cls, data: MapGroupData, recorded: Mapping[str, Mapping[str, Any]]) -> ControlState:
        """From the definition's ``initial_control`` (each hex's ground
        Location) and the aggregate's recorded Control of the map group
        (``"hex/level"`` -> ``{"side", "marker", "blazing", ...}``; ``BLOCK_KEY + "X"``
        -> ``{"side"}``)."""
        state = cls()
        for hx, side in data.initial_control.items():
            i = data.grid.index.get(hx)
            if i is not None:
                state.sides[(hx, data.ground(i))] = side
        for key, entry in recorded.items():
            if key.startswith(BLOCK_KEY):
                state.blocks[key[len(BLOCK_KEY) :]] = entry["side"]
                continue
            hx, _, level = key.rpartition("/")
            loc = (hx, int(level))
            state.sides[loc] = entry["side"]
            marker = entry.get("marker")
            if marker:
                state.markers[loc] = marker
            if entry.get("blazing"):
                state.blazing.add(loc)
        return state


def area_ids(count: int) -> list[str]:
    """The ids of a side's Setup Areas in order: A, B, ... Z, AA, BB, ... (as
    the players label them on the reduced-size map, MARKING THE MAP)."""
    out = []
    for n in range(count):
        repeat, letter = divmod(n, 26)
        out.append(chr(ord("A") + letter) * (repeat + 1))
    return out
