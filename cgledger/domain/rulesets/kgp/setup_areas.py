"""KGP Setup Area Determination (8.605-8.6057), with the readings DESIGN §9
fixes where the text leaves room. One function, :func:`setup_areas`, linear in
the hexes of the map group.

- 8.6051 NO MAN'S LAND: "A non-Strategic Location within two hexes of both
  friendly- and enemy-Controlled Strategic Locations is a No-Man's-Land hex ...
  A Strategic Location can never be No Man's Land (though it can be Isolated)."
  A Strategic Location counts as Controlled by every side that Controls one of
  its Locations: the 8.605 EX puts the St. Hubert church's hex J19 "within each
  side's Setup Area A" because "both sides Control >= one Location" in it.
- MARKING THE MAP: "each side draws its Setup-Area boundaries, enclosing all
  non-Strategic Locations within two hexes of each friendly-Controlled Strategic
  Location (excluding No Man's Land)"; a Strategic Location a side Controls (at
  ground level) is in its Setup Area. Locations made Strategic during the CG
  (E, F, G, V) count as Strategic.
- 8.6053 UNCONTROLLED TERRITORY: "all hexes that are neither No-Man's-Land nor
  part of either side's Setup Area (i.e., >= three hexes from all Strategic
  Locations)"; an uncontrolled Strategic Location is Uncontrolled Territory.
- 8.6054 SURROUNDED HEXES: "Each Uncontrolled-Territory, and each unoccupied
  strategic, Location that is currently completely enclosed within a Setup Area
  of only one side becomes part of that Setup Area": a connected group of
  Uncontrolled-Territory hexes whose every neighbour outside it is on the map
  and in one and the same side's Setup Area.
- 8.6052 ISOLATED UNIT: a friendly Setup Area is Isolated when none of its hexes
  can "trace a path of contiguous, Enterable, Uncontrolled-Territory/
  friendly-Setup-Area Locations to an Eligible Entry Area" (any hex of one of
  the side's, itself on the path); a side with an HQ on the map group ("Lg":
  "LgN25", Peiper's HQ) traces to it instead. An HQ that the enemy Controls
  leaves the side's areas Isolated until the side records another (8.6052 EXC).
- 8.6057 UPPER-LEVEL ISOLATION: a side's upper-level building Location "is not
  Isolated if a path (of >= one contiguous, Enterable, friendly-Controlled
  building Location) exists to a friendly-Controlled, non-Blazing, non-Isolated
  ground-level building Location", and is in the Setup Area that path reaches.
  Building Locations are contiguous one level apart in a hex, and at one level
  in adjacent hexes of the same ``building``.
- 8.605: "If a side Controls no non-Isolated Strategic Location on the Map
  Group, all of its currently on-map Personnel/Mobile-vehicle units in
  Uncontrolled Territory ... must be Retained into a Holding Box": each side's
  summary says so.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cgledger.domain.rulesets.kgp.record import date_key
from cgledger.domain.territory import (
    NML,
    UNCONTROLLED,
    ControlState,
    MapGroupData,
    area_ids,
)

__all__ = ["setup_areas"]

RULE = "8.605"
#: 8.6051/MARKING THE MAP: "within two hexes".
REACH = 2


def setup_areas(
    data: MapGroupData, control: ControlState, sides: Sequence[str], cg_date: str = ""
) -> dict[str, Any]:
    """Each hex's status and each side's Setup Areas (8.605-8.6057)."""
    locations = _locations(data, control)
    status = _statuses(data, locations)
    surrounded = _surround(data, status, sides)
    grid = data.grid
    ids = grid.ids
    n = len(grid)
    # Setup Areas: connected groups of one side's hexes; 8.6052 Isolation.
    area_of: list[str | None] = [None] * n
    isolated_hex: list[bool | None] = [None] * n
    areas: list[dict[str, Any]] = []
    paths: dict[str, str] = {}
    for side in sides:
        groups = grid.components([s == side for s in status])
        reached, paths[side] = _traced(data, status, side, locations.ground, cg_date)
        for area_id, group in zip(area_ids(len(groups)), groups, strict=True):
            isolated = None if reached is None else not any(reached[j] for j in group)
            for j in group:
                area_of[j] = area_id
                isolated_hex[j] = isolated
            areas.append(
                {
                    "id": area_id,
                    "side": side,
                    "hexes": [ids[j] for j in group],
                    "isolated": isolated,
                }
            )
    levels = _upper_levels(data, control, locations.upper, status, area_of, isolated_hex)
    hexes = [
        {
            "hex": ids[i],
            "status": status[i],
            "area": area_of[i],
            "strategic": locations.strategic[i],
            "marker": locations.marker[i],
            "controlled_by": locations.ground[i],
            "isolated": isolated_hex[i],
            "surrounded": surrounded[i],
            "enterable": data.enterable[i],
            "levels": levels[i],
        }
        for i in range(n)
    ]
    return {"hexes": hexes, "areas": areas, "sides": _summary(sides, hexes, areas, paths)}


@dataclass
class _Locations:
    """Per hex: the side Controlling its ground Location, its Controlled upper
    Locations, whether it is Strategic (by the definition or a marker), its
    marker, and every side that Controls one of its Locations."""

    ground: list[str | None]
    upper: list[dict[int, str]]
    strategic: list[bool]
    marker: list[str | None]
    holders: list[set[str]]


def _locations(data: MapGroupData, control: ControlState) -> _Locations:
    n = len(data.grid)
    found = _Locations(
        ground=[None] * n,
        upper=[{} for _ in range(n)],
        strategic=list(data.strategic),
        marker=[None] * n,
        holders=[set() for _ in range(n)],
    )
    for i, hx in enumerate(data.grid.ids):
        ground = data.ground(i)
        for level in data.levels[i]:
            marker = control.markers.get((hx, level))
            if marker is not None:
                found.strategic[i] = True
                if found.marker[i] is None or level == ground:
                    found.marker[i] = marker
            side = control.sides.get((hx, level))
            if side is None:
                continue
            found.holders[i].add(side)
            if level == ground:
                found.ground[i] = side
            elif level > ground:
                found.upper[i][level] = side
    return found


def _statuses(data: MapGroupData, loc: _Locations) -> list[str]:
    """8.6051, 8.6053 and MARKING THE MAP: each hex a side's, No Man's Land or
    Uncontrolled Territory, before 8.6054."""
    grid = data.grid
    n = len(grid)
    near: list[set[str]] = [set() for _ in range(n)]
    for i in range(n):
        if loc.strategic[i] and loc.holders[i]:
            for j in grid.within(i, REACH):
                near[j].update(loc.holders[i])
    status: list[str] = [UNCONTROLLED] * n
    for i in range(n):
        if loc.strategic[i]:
            side = loc.ground[i]
            above = set(loc.upper[i].values())
            if side is None and len(above) == 1:
                side = next(iter(above))
            status[i] = side if side is not None else UNCONTROLLED
        elif len(near[i]) > 1:
            status[i] = NML
        elif near[i]:
            status[i] = next(iter(near[i]))
    return status


def _surround(data: MapGroupData, status: list[str], sides: Sequence[str]) -> list[bool]:
    """8.6054: each connected group of Uncontrolled Territory completely
    enclosed by one side's Setup Area joins it (``status`` is updated)."""
    grid = data.grid
    surrounded = [False] * len(grid)
    for group in grid.components([s == UNCONTROLLED for s in status]):
        around: set[str] = set()
        for j in group:
            if grid.on_edge[j]:
                around.add("")  # the map's edge encloses nothing
                break
            around.update(status[k] for k in grid.adjacent[j] if status[k] != UNCONTROLLED)
        if len(around) == 1 and next(iter(around)) in sides:
            side = next(iter(around))
            for j in group:
                status[j] = side
                surrounded[j] = True
    return surrounded


def _traced(
    data: MapGroupData, status: list[str], side: str, ground: list[str | None], cg_date: str
) -> tuple[bytearray | None, str]:
    """8.6052: the hexes from which ``side`` traces its path, or ``None`` where
    it has no Eligible Entry Area (nor HQ) on the map group to trace to. An
    Entry Area is Eligible from the CG Date on its arrow (SSR CG6c,
    ``from_date``). With an HQ the path ends on it; an HQ the enemy Controls
    ends none until the side records another (8.6052 EXC)."""
    grid = data.grid
    passable = [data.enterable[i] and status[i] in (UNCONTROLLED, side) for i in range(len(grid))]
    if side in data.hq:
        hq = data.hq[side]
        holder = ground[hq]
        if holder is not None and holder != side:
            return bytearray(len(grid)), (
                f"8.6052 EXC: its HQ {grid.ids[hq]} is {holder}-Controlled: every area is "
                "Isolated until another HQ is recorded"
            )
        passable[hq] = data.enterable[hq]  # the path ends on the HQ Location itself
        return grid.reach([hq], passable), f"8.6052 EXC: to its HQ {grid.ids[hq]}"
    now = date_key(cg_date) if cg_date else None
    targets: set[int] = set()
    for owner, since, found in data.entry_areas:
        then = date_key(since) if since else None
        if owner == side and (now is None or then is None or then <= now):
            targets |= found
    if not targets:
        return None, (
            f"8.6052: no Eligible Entry Area on this map group on {cg_date or 'this date'}; "
            "Isolation is not decided"
        )
    return grid.reach(sorted(targets), passable), "8.6052: to an Eligible Entry Area"


def _upper_levels(
    data: MapGroupData,
    control: ControlState,
    upper: list[dict[int, str]],
    status: list[str],
    area_of: list[str | None],
    isolated_hex: list[bool | None],
) -> list[list[dict[str, Any]]]:
    """8.6057: each Controlled upper-level building Location, Isolated or not,
    and the Setup Area its path reaches."""
    grid = data.grid
    out: list[list[dict[str, Any]]] = [[] for _ in range(len(grid))]
    for i in range(len(grid)):
        for level, side in sorted(upper[i].items()):
            k = _upper_path(data, control, i, level, side, status, isolated_hex)
            out[i].append(
                {
                    "level": level,
                    "controlled_by": side,
                    "isolated": True if k is None else isolated_hex[k],
                    "area": None if k is None else area_of[k],
                }
            )
    return out


def _upper_path(
    data: MapGroupData,
    control: ControlState,
    start: int,
    level: int,
    side: str,
    status: list[str],
    isolated_hex: list[bool | None],
) -> int | None:
    """The hex whose ground-level building Location a path of contiguous,
    Enterable, ``side``-Controlled building Locations reaches from ``(start,
    level)``: ``side``-Controlled, non-Blazing and not Isolated (8.6057; its
    area's Isolation may be undecided); ``None``: Isolated."""
    grid = data.grid
    ids = grid.ids
    seen = {(start, level)}
    queue: deque[tuple[int, int]] = deque([(start, level)])
    while queue:
        i, lv = queue.popleft()
        steps: list[tuple[int, int]] = [(i, lv - 1), (i, lv + 1)]
        building = data.building[i]
        if building is not None:
            steps += [(k, lv) for k in grid.adjacent[i] if data.building[k] == building]
        for k, lk in steps:
            if (k, lk) in seen or lk not in data.levels[k] or not data.enterable[k]:
                continue
            if control.sides.get((ids[k], lk)) != side:
                continue
            seen.add((k, lk))
            if lk == data.ground(k):
                if (
                    (ids[k], lk) not in control.blazing
                    and status[k] == side
                    and isolated_hex[k] is not True
                ):
                    return k
                continue  # a ground Location ends the path, reached or not
            queue.append((k, lk))
    return None


def _summary(
    sides: Sequence[str],
    hexes: list[dict[str, Any]],
    areas: list[dict[str, Any]],
    paths: dict[str, str],
) -> dict[str, Any]:
    """Per side: its areas, hexes and non-Isolated Strategic Locations, and
    8.605's Holding Box rule where it has none."""
    out: dict[str, Any] = {}
    for side in sides:
        free = 0
        undecided = False
        for h in hexes:
            if not h["strategic"]:
                continue
            held = [h["isolated"]] if h["status"] == side and h["controlled_by"] == side else []
            held += [lv["isolated"] for lv in h["levels"] if lv["controlled_by"] == side]
            free += sum(1 for isolated in held if isolated is False)
            undecided = undecided or None in held
        mine = [a for a in areas if a["side"] == side]
        note = None
        if free == 0 and not undecided:
            note = (
                f"8.605: {side} Controls no non-Isolated Strategic Location on the Map Group: "
                "its on-map units in Uncontrolled Territory are Retained into a Holding Box, "
                "those in enemy Setup-Area hexes must attempt Escape"
            )
        out[side] = {
            "areas": len(mine),
            "hexes": sum(len(a["hexes"]) for a in mine),
            # null: some of its Strategic Locations' Isolation is not decided.
            "non_isolated_strategic": None if undecided and free == 0 else free,
            "isolation": paths[side],
            "note": note,
        }
    return out
