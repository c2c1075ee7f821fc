"""Setup Areas by property (issue 14; DESIGN §9): the pure functions
``REGISTRY["kgp"].rules.setup_areas`` (8.605-8.6057) and
``REGISTRY["abtf"].rules.setup_areas`` (9.605-9.6053) on random small map
groups: rectangular or ragged (gaps between columns too), 1-150 hexes, with
random Strategic and non-Enterable hexes, building levels, Entry Areas (or
none), an HQ now and then, and random Control, markers (E, F, G, V) and Blazing
Locations.

The checks recompute what they need from the map and the Control themselves
(axial neighbours and distance as DESIGN §9 defines them, a Location made
Strategic by a marker) rather than reading it back from the answer.
"""

from __future__ import annotations

import copy
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgledger.domain.hexes import column_letters
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.territory import BLOCK_KEY, NML, UNCONTROLLED, ControlState, map_group_data

KGP_SIDES = ("US", "German")
ABTF_SIDES = ("British", "German")
#: DESIGN §9: the neighbours of (q, r).
AXIAL = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
MAX_HEXES = 150
LEVELS = ([0], [0], [0], [0], [0, 1], [0, 1, 2], [-1, 0], [1, 2])
MARKERS = (None,) * 9 + ("E", "F", "G", "V")
SETTINGS = settings(
    max_examples=examples(150),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# ------------------------------------------------------------------ the worlds


@dataclass
class World:
    """A map group (as a CG definition lists it) and its Control."""

    group: dict[str, Any]
    control: ControlState
    sides: tuple[str, str]

    @property
    def hexes(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = self.group["hexes"]
        return out

    def answer(self, ruleset: str) -> dict[str, Any]:
        data = map_group_data(self.group)
        found: dict[str, Any] = REGISTRY[ruleset].rules.setup_areas(data, self.control, self.sides)
        return found

    def coords(self) -> dict[str, tuple[int, int]]:
        return {h["hex"]: (h["q"], h["r"]) for h in self.hexes}

    def levels(self, h: dict[str, Any]) -> list[int]:
        found: list[int] = h.get("levels") or [0]
        return found

    def strategic(self, h: dict[str, Any]) -> bool:
        """Strategic by the definition or made so during the CG by a marker on
        one of its Locations (MARKING THE MAP)."""
        return bool(h.get("strategic")) or any(
            (h["hex"], lv) in self.control.markers for lv in self.levels(h)
        )

    def holders(self, h: dict[str, Any]) -> set[str]:
        """The sides that Control one of the hex's Locations."""
        found = {self.control.sides.get((h["hex"], lv)) for lv in self.levels(h)}
        return {s for s in found if s is not None}


def _columns(draw: st.DrawFn) -> list[tuple[int, int]]:
    """``(column, row)`` cells: a rectangle, or ragged columns (some missing)."""
    cells: list[tuple[int, int]] = []
    if draw(st.booleans()):
        width = draw(st.integers(1, 15))
        height = draw(st.integers(1, MAX_HEXES // width))
        return [(c, row) for c in range(width) for row in range(1, height + 1)]
    width = draw(st.integers(1, 15))
    for c in range(width):
        if c and draw(st.integers(0, 7)) == 0:
            continue  # a gap: the map falls apart in pieces
        start = draw(st.integers(0, 5))
        length = draw(st.integers(1, 14))
        for row in range(start, start + length):
            if len(cells) < MAX_HEXES:
                cells.append((c, row))
    return cells


class Digits:
    """One drawn integer read digit by digit: a hex's attributes from one draw
    (much faster than a draw each; 0 reads as a plain hex)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def take(self, base: int) -> int:
        self.value, digit = divmod(self.value, base)
        return digit


@st.composite
def kgp_worlds(draw: st.DrawFn, sides: tuple[str, str] = KGP_SIDES) -> World:
    cells = _columns(draw)
    n = len(cells)
    strategic_pct = draw(st.sampled_from([3, 10, 20, 40, 70]))
    blocked_pct = draw(st.sampled_from([0, 5, 15]))
    controlled_pct = draw(st.sampled_from([30, 70, 100]))
    side_of = st.sampled_from([sides[0], sides[1]])
    whom = (sides[0], sides[1], None)
    attributes = draw(st.lists(st.integers(0, 2**48), min_size=n, max_size=n))
    hexes: list[dict[str, Any]] = []
    control = ControlState()
    for (c, row), value in zip(cells, attributes, strict=True):
        d = Digits(value)
        hx = f"{column_letters(c)}{row}"
        levels = LEVELS[d.take(len(LEVELS))]
        h: dict[str, Any] = {"hex": hx, "q": c, "r": row - (c - c % 2) // 2}
        if d.take(100) >= 100 - strategic_pct:
            h["strategic"] = True
        if d.take(100) >= 100 - blocked_pct:
            h["enterable"] = False
        if levels != [0]:
            h["levels"] = list(levels)
            h["building"] = "ab"[d.take(2)]
        hexes.append(h)
        for lv in levels:
            controlled = d.take(100) >= 100 - controlled_pct
            side = whom[d.take(3)]
            if controlled:
                control.sides[(hx, lv)] = side
        marker = MARKERS[d.take(len(MARKERS))]
        on = levels[d.take(len(levels))]
        if marker is not None:
            control.markers[(hx, on)] = marker
        if d.take(20) == 19:
            control.blazing.add((hx, min(levels)))
    ids = [h["hex"] for h in hexes]
    entry_areas = []
    for side in sides:
        kind = draw(st.integers(0, 3))
        if kind == 0:
            continue  # no Eligible Entry Area: Isolation undecided
        if kind == 1:  # a map edge
            column = cells[0][0] if side == sides[0] else cells[-1][0]
            chosen = sorted({ids[i] for i, (c, _) in enumerate(cells) if c == column})
        else:
            chosen = sorted(set(draw(st.lists(st.sampled_from(ids), min_size=1, max_size=6))))
        entry_areas.append({"id": f"E-{side}", "side": side, "hexes": chosen})
    group: dict[str, Any] = {
        "id": "P",
        "title": "random",
        "hexes": hexes,
        "entry_areas": entry_areas,
        "initial_control": {},
    }
    if n > 1 and draw(st.integers(0, 5)) == 0:
        group["hq"] = {draw(side_of): draw(st.sampled_from(ids))}
    return World(group, control, sides)


def swapped(world: World) -> World:
    """The same map with the sides' roles exchanged: Control, Entry Areas and
    HQ (markers belong to no side)."""
    a, b = world.sides
    other = {a: b, b: a}
    group = copy.deepcopy(world.group)
    for area in group["entry_areas"]:
        area["side"] = other[area["side"]]
    if "hq" in group:
        group["hq"] = {other[s]: hx for s, hx in group["hq"].items()}
    control = ControlState(
        sides={loc: (None if s is None else other[s]) for loc, s in world.control.sides.items()},
        markers=dict(world.control.markers),
        blazing=set(world.control.blazing),
    )
    return World(group, control, world.sides)


# ------------------------------------------------------------------ helpers


def by_hex(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["hex"]: h for h in answer["hexes"]}


def components(members: Iterable[str], coords: dict[str, tuple[int, int]]) -> list[set[str]]:
    """Connected groups of ``members`` by the axial neighbours of DESIGN §9."""
    left = set(members)
    at = {coords[hx]: hx for hx in left}
    groups = []
    while left:
        start = left.pop()
        group = {start}
        queue = deque([start])
        while queue:
            q, r = coords[queue.popleft()]
            for dq, dr in AXIAL:
                k = at.get((q + dq, r + dr))
                if k is not None and k in left:
                    left.discard(k)
                    group.add(k)
                    queue.append(k)
        groups.append(group)
    return groups


def check_partition(world: World, answer: dict[str, Any]) -> None:
    """Each side's areas partition its hexes; a hex's ``area`` and
    ``isolated`` are its area's; a hex of no side is in no area."""
    shown = by_hex(answer)
    for side in world.sides:
        mine = {hx for hx, h in shown.items() if h["status"] == side}
        areas = [a for a in answer["areas"] if a["side"] == side]
        ids = [a["id"] for a in areas]
        assert len(ids) == len(set(ids)), ids
        seen: list[str] = [hx for a in areas for hx in a["hexes"]]
        assert len(seen) == len(set(seen)), f"{side}: a hex in two areas"
        assert set(seen) == mine, side
        for a in areas:
            assert a["hexes"], a
            for hx in a["hexes"]:
                assert shown[hx]["area"] == a["id"], (hx, a["id"])
                assert shown[hx]["isolated"] == a["isolated"], hx
    for hx, h in shown.items():
        if h["status"] not in world.sides:
            assert h["area"] is None, hx
            assert h["isolated"] is None, hx


def check_connected_and_maximal(world: World, answer: dict[str, Any]) -> None:
    """An area is connected; two neighbouring hexes of one side share an area
    (no two areas of a side touch)."""
    coords = world.coords()
    for a in answer["areas"]:
        parts = components(a["hexes"], coords)
        assert len(parts) == 1, f"{a['side']} area {a['id']} falls apart: {parts}"
    shown = by_hex(answer)
    at = {xy: hx for hx, xy in coords.items()}
    for hx, h in shown.items():
        if h["status"] not in world.sides:
            continue
        q, r = coords[hx]
        for dq, dr in AXIAL:
            k = at.get((q + dq, r + dr))
            if k is not None and shown[k]["status"] == h["status"]:
                assert shown[k]["area"] == h["area"], (
                    f"{hx} ({h['area']}) and {k} ({shown[k]['area']}) are neighbours of "
                    f"{h['status']} in two areas"
                )


# ------------------------------------------------------------------ KGP


@SETTINGS
@given(kgp_worlds())
def test_every_hex_once_with_exactly_one_status(world: World) -> None:
    """Every hex of the map group is listed once, with one status: a side,
    No Man's Land or Uncontrolled Territory (8.6051, 8.6053)."""
    answer = world.answer("kgp")
    listed = [h["hex"] for h in answer["hexes"]]
    assert sorted(listed) == sorted(h["hex"] for h in world.hexes)
    assert len(listed) == len(set(listed))
    for h in answer["hexes"]:
        assert h["status"] in (*world.sides, NML, UNCONTROLLED), h


@SETTINGS
@given(kgp_worlds())
def test_areas_partition_each_sides_hexes(world: World) -> None:
    check_partition(world, world.answer("kgp"))


@SETTINGS
@given(kgp_worlds())
def test_no_mans_land_is_never_strategic(world: World) -> None:
    """8.6051: "A Strategic Location can never be No Man's Land"; a No Man's
    Land hex is within two hexes of both sides' Strategic Locations. The answer
    marks Strategic every hex the definition or a marker makes Strategic."""
    answer = world.answer("kgp")
    coords = world.coords()
    shown = by_hex(answer)
    held = [
        (coords[h["hex"]], world.holders(h))
        for h in world.hexes
        if world.strategic(h) and world.holders(h)
    ]
    for h in world.hexes:
        found = shown[h["hex"]]
        assert found["strategic"] == world.strategic(h), h
        if found["status"] != NML:
            continue
        assert not world.strategic(h), h
        near = set().union(*(s for xy, s in held if distance(xy, coords[h["hex"]]) <= 2))
        assert set(world.sides) <= near, (h["hex"], near)


@SETTINGS
@given(kgp_worlds())
def test_a_setup_area_hex_is_near_a_strategic_location_of_its_side(world: World) -> None:
    """MARKING THE MAP: a side's Setup Area encloses the Locations within two
    hexes of a Strategic Location it Controls (the Location itself included);
    8.6054 adds the enclosed ones (``surrounded``, never on the map's edge),
    and nothing else."""
    answer = world.answer("kgp")
    coords = world.coords()
    shown = by_hex(answer)
    strategic = [h for h in world.hexes if world.strategic(h)]
    on_map = set(coords.values())
    for h in world.hexes:
        found = shown[h["hex"]]
        side = found["status"]
        if found["surrounded"]:
            # 8.6054 as DESIGN §9 reads it: an enclosed hex is not on the map's edge.
            q, r = coords[h["hex"]]
            assert side in world.sides, h
            assert all((q + dq, r + dr) in on_map for dq, dr in AXIAL), h
            continue
        if side not in world.sides:
            continue
        assert any(
            side in world.holders(s) and distance(coords[s["hex"]], coords[h["hex"]]) <= 2
            for s in strategic
        ), f"{h['hex']} is {side}'s but no Strategic Location of {side} is within two hexes"


@SETTINGS
@given(kgp_worlds())
def test_swapping_the_sides_swaps_the_answer(world: World) -> None:
    """No side is favoured: the same map with Control, Entry Areas and HQ
    exchanged gives every hex the other side's status, with the same area,
    Isolation and enclosure."""
    a, b = world.sides
    other = {a: b, b: a, NML: NML, UNCONTROLLED: UNCONTROLLED, None: None}
    first = by_hex(world.answer("kgp"))
    second = by_hex(swapped(world).answer("kgp"))
    for hx, h in first.items():
        s = second[hx]
        assert s["status"] == other[h["status"]], hx
        assert s["controlled_by"] == other[h["controlled_by"]], hx
        for key in ("area", "isolated", "surrounded", "strategic"):
            assert s[key] == h[key], (hx, key)
        assert [(x["level"], other[x["controlled_by"]], x["isolated"], x["area"])
                for x in h["levels"]] == [
            (x["level"], x["controlled_by"], x["isolated"], x["area"]) for x in s["levels"]
        ], hx  # fmt: skip


def with_friendly_strategic(world: World, hx: str, side: str, marker: str | None) -> World:
    """``world`` with hex ``hx`` made Strategic (by the definition, or by
    ``marker`` on its ground Location) and each of its Locations that is
    Controlled, its ground Location included, Controlled by ``side``."""
    grown = World(copy.deepcopy(world.group), copy.deepcopy(world.control), world.sides)
    (target,) = (x for x in grown.hexes if x["hex"] == hx)
    levels = grown.levels(target)
    ground = 0 if 0 in levels else min(levels)
    if marker is None:
        target["strategic"] = True
    else:
        grown.control.markers[(hx, ground)] = marker
    for lv in levels:
        if lv == ground or grown.control.sides.get((hx, lv)) is not None:
            grown.control.sides[(hx, lv)] = side
    return grown


@settings(SETTINGS, max_examples=examples(300))
@given(kgp_worlds(), st.data())
def test_a_friendly_strategic_location_never_hurts(world: World, data: st.DataObject) -> None:
    """A non-Strategic hex made Strategic (by the definition or a marker) and
    Controlled by side S, at every Location of it: every hex of S's Setup Area
    stays S's, and none of a non-Isolated S area becomes Isolated (8.6051 can
    only turn enemy hexes into No Man's Land; 8.6052's path only gains hexes).
    Up to four such hexes are added one after the other, each step checked."""
    before = by_hex(world.answer("kgp"))
    for _ in range(4):
        plain = [h["hex"] for h in world.hexes if not world.strategic(h)]
        if not plain:
            return
        # Half the time an Uncontrolled hex: the kind an Isolation path runs through.
        open_ = [hx for hx in plain if before[hx]["status"] == UNCONTROLLED]
        prefer_open = data.draw(st.booleans())
        hx = data.draw(st.sampled_from(open_ if open_ and prefer_open else plain))
        side = data.draw(st.sampled_from(world.sides))
        marker = data.draw(st.sampled_from([None, "E", "F", "G", "V"]))
        world = with_friendly_strategic(world, hx, side, marker)
        after = by_hex(world.answer("kgp"))
        assert after[hx]["status"] == side
        for other, was in before.items():
            if was["status"] != side:
                continue
            now = after[other]
            assert now["status"] == side, f"{other} left {side}'s Setup Area ({now['status']})"
            if was["isolated"] is False:
                assert now["isolated"] is False, f"{other} became Isolated"
        before = after


@SETTINGS
@given(kgp_worlds())
def test_areas_are_connected_and_maximal(world: World) -> None:
    check_connected_and_maximal(world, world.answer("kgp"))


# ------------------------------------------------------------------ ABtF

BLOCKS = "ABCDH"


@st.composite
def abtf_worlds(draw: st.DrawFn) -> tuple[World, dict[str, str | None]]:
    """A map with Blocks; the Control of a Block is recorded (9.6051, or a
    switch the ledger recorded) or follows ``initial_control`` (the side
    holding all its Strategic Locations). Returns the world and each Block's
    expected Controlling side."""
    sides = ABTF_SIDES
    cells = _columns(draw)
    count = draw(st.integers(0, len(BLOCKS)))
    names = BLOCKS[:count]
    whom = (sides[0], sides[1], None)
    side_of = st.sampled_from([sides[0], sides[1]])
    attributes = draw(st.lists(st.integers(0, 2**40), min_size=len(cells), max_size=len(cells)))
    hexes: list[dict[str, Any]] = []
    initial: dict[str, str] = {}
    recorded: dict[str, dict[str, Any]] = {}
    for (c, row), value in zip(cells, attributes, strict=True):
        d = Digits(value)
        hx = f"{column_letters(c)}{row}"
        h: dict[str, Any] = {"hex": hx, "q": c, "r": row - (c - c % 2) // 2}
        block = d.take(count + 1) if names else 0
        if block:
            h["block"] = names[block - 1]
        if d.take(4) == 3:
            h["strategic"] = True
        if d.take(10) == 9:
            h["enterable"] = False
        if d.take(6) == 5:
            h["levels"] = [0, 1]
            upper = whom[d.take(3)]
            if upper is not None:
                recorded[f"{hx}/1"] = {"side": upper}
        hexes.append(h)
        first = whom[d.take(3)]
        if first is not None:
            initial[hx] = first
        if d.take(6) == 5:
            recorded[f"{hx}/0"] = {"side": whom[d.take(3)]}
        if d.take(12) == 11:
            recorded[f"{hx}/0"] = {**recorded.get(f"{hx}/0", {"side": None}), "marker": "G"}
    for block in [*names, "Z"]:  # Z: recorded, but on no hex of this map
        if draw(st.integers(0, 3)) == 0:
            recorded[f"{BLOCK_KEY}{block}"] = {"side": draw(st.one_of(side_of, st.none()))}
    ids = [h["hex"] for h in hexes]
    entry_areas = []
    for side in sides:
        if draw(st.booleans()):
            chosen = sorted(set(draw(st.lists(st.sampled_from(ids), min_size=1, max_size=6))))
            entry_areas.append({"id": f"E-{side}", "side": side, "hexes": chosen})
    group = {
        "id": "B",
        "title": "random blocks",
        "hexes": hexes,
        "entry_areas": entry_areas,
        "initial_control": initial,
    }
    expected: dict[str, str | None] = {}
    for block in sorted({h["block"] for h in hexes if "block" in h}):
        if f"{BLOCK_KEY}{block}" in recorded:
            expected[block] = recorded[f"{BLOCK_KEY}{block}"]["side"]
            continue
        held = {
            initial.get(h["hex"]) for h in hexes if h.get("block") == block and h.get("strategic")
        }
        expected[block] = held.pop() if len(held) == 1 else None
    control = ControlState.of(map_group_data(group), recorded)
    return World(group, control, sides), expected


@SETTINGS
@given(abtf_worlds())
def test_abtf_a_block_is_its_controllers_setup_area(found: tuple[World, dict[str, Any]]) -> None:
    """9.605: every hex of a Block a side Controls is that side's; 9.6052: a
    hex in no Block, or in a Block no side Controls, is Uncontrolled
    Territory; ABtF has no No Man's Land."""
    world, expected = found
    answer = world.answer("abtf")
    shown = by_hex(answer)
    assert sorted(shown) == sorted(h["hex"] for h in world.hexes)
    for h in world.hexes:
        status = shown[h["hex"]]["status"]
        assert status != NML, h
        block = h.get("block")
        if block is None:
            assert status == UNCONTROLLED, h
        else:
            want = expected[block]
            assert status == (UNCONTROLLED if want is None else want), (h, want)
    assert answer["blocks"] == expected


@SETTINGS
@given(abtf_worlds())
def test_abtf_areas_partition_and_are_connected(found: tuple[World, dict[str, Any]]) -> None:
    world, _ = found
    answer = world.answer("abtf")
    check_partition(world, answer)
    check_connected_and_maximal(world, answer)
