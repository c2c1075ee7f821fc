"""The 8.605 EX (St. Hubert church, Stoumont) rebuilt on a hand-made map:
each claim of the EX is a separate test (issue 14).

The map: columns F to N, rows 14 to 24 (99 hexes). The church is J19 (levels
0, 1, 2: the Steeple) and I20 (levels 0, 1), one building. H19 is a pond
(not Enterable), so that the church's only way west runs through H20. K19 and
L19 are U.S. houses (Strategic) joining the church to the U.S. side (every
other hex within two hexes of the church is No Man's Land, the church being
both sides'); J23 is a German house south of J21. The German enters on
column F, the U.S. on column N.

Control at the end of the CG scenario, as the EX gives it: J19 ground and
Steeple U.S., its first level German; I20 German; an Immobilized German
vehicle with functioning MA >= 20mm in H20 ("V"); the U.S.-Controlled J21; a
U.S. Gun in L21 ("G").
"""

from __future__ import annotations

from typing import Any

import pytest

from cgledger.domain.definitions import hex_entry
from cgledger.domain.hexes import from_axial, to_axial
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.territory import NML, ControlState, map_group_data

SIDES = ("US", "German")
COLUMNS = "FGHIJKLMN"
ROWS = range(14, 25)
SPECIAL: dict[str, dict[str, Any]] = {
    "J19": {"strategic": True, "lvp": 2, "levels": [0, 1, 2], "building": "church"},
    "I20": {"strategic": True, "lvp": 1, "levels": [0, 1], "building": "church"},
    "H19": {"enterable": False},
    "K19": {"strategic": True, "lvp": 1},
    "L19": {"strategic": True, "lvp": 1},
    "J21": {"strategic": True, "lvp": 1},
    "J23": {"strategic": True, "lvp": 1},
}


def group() -> dict[str, Any]:
    hexes = [hex_entry(f"{c}{r}", **SPECIAL.get(f"{c}{r}", {})) for c in COLUMNS for r in ROWS]
    return {
        "id": "St",
        "title": "Stoumont (hand-made, after the 8.605 EX)",
        "hexes": hexes,
        "entry_areas": [
            {"id": "G-W", "side": "German", "hexes": [f"F{r}" for r in ROWS]},
            {"id": "US-E", "side": "US", "hexes": [f"N{r}" for r in ROWS]},
        ],
        "initial_control": {},
    }


def control(*, vehicle: bool = True) -> ControlState:
    state = ControlState()
    state.sides.update(
        {
            ("J19", 0): "US",
            ("J19", 1): "German",
            ("J19", 2): "US",
            ("I20", 0): "German",
            ("I20", 1): "German",
            ("K19", 0): "US",
            ("L19", 0): "US",
            ("J21", 0): "US",
            ("J23", 0): "German",
            ("L21", 0): "US",
        }
    )
    state.markers[("L21", 0)] = "G"
    if vehicle:
        state.sides[("H20", 0)] = "German"
        state.markers[("H20", 0)] = "V"
    return state


def answer(*, vehicle: bool = True) -> dict[str, Any]:
    data = map_group_data(group())
    found: dict[str, Any] = REGISTRY["kgp"].rules.setup_areas(data, control(vehicle=vehicle), SIDES)
    return found


def hexes(found: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {h["hex"]: h for h in found["hexes"]}


def level(found: dict[str, Any], hx: str, lv: int) -> dict[str, Any]:
    (item,) = (x for x in hexes(found)[hx]["levels"] if x["level"] == lv)
    return item


def area_of(found: dict[str, Any], side: str, hx: str) -> dict[str, Any]:
    (area,) = (a for a in found["areas"] if a["side"] == side and hx in a["hexes"])
    return area


def test_j19_is_within_each_sides_setup_area_a() -> None:
    """ "both sides Control >= one Location in hex J19 ..., putting that hex
    within each side's Setup Area A"."""
    found = answer()
    j19 = hexes(found)["J19"]
    assert j19["status"] == "US"
    assert j19["area"] == "A"
    assert level(found, "J19", 1)["controlled_by"] == "German"
    assert level(found, "J19", 1)["area"] == "A"
    assert area_of(found, "German", "I20")["id"] == "A"


def test_the_ground_level_and_the_steeple_are_in_the_us_setup_area() -> None:
    found = answer()
    assert hexes(found)["J19"]["controlled_by"] == "US"
    assert hexes(found)["J19"]["isolated"] is False
    assert level(found, "J19", 2)["controlled_by"] == "US"


def test_the_us_unit_in_the_steeple_is_isolated() -> None:
    """8.6057: "it lacks the required path to a friendly-Controlled,
    non-Isolated, non-Blazing, ground-level building Location"."""
    steeple = level(answer(), "J19", 2)
    assert steeple["isolated"] is True
    assert steeple["area"] is None


def test_the_german_first_level_is_not_isolated_through_i20() -> None:
    """ "it can trace such a path (through I20's first level, thence to ground
    level in that hex)"."""
    found = answer()
    first = level(found, "J19", 1)
    assert first["isolated"] is False
    assert first["area"] == hexes(found)["I20"]["area"]
    assert area_of(found, "German", "I20")["isolated"] is False


def test_the_path_needs_i20s_first_level() -> None:
    """The same map with I20's first level not German: no path."""
    data = map_group_data(group())
    state = control()
    state.sides[("I20", 1)] = None
    found = REGISTRY["kgp"].rules.setup_areas(data, state, SIDES)
    assert level(found, "J19", 1)["isolated"] is True


def test_a_blazing_ground_location_ends_no_path() -> None:
    data = map_group_data(group())
    state = control()
    state.blazing.add(("I20", 0))
    found = REGISTRY["kgp"].rules.setup_areas(data, state, SIDES)
    assert level(found, "J19", 1)["isolated"] is True


def test_h20_with_the_german_vehicle_is_a_german_strategic_location() -> None:
    h20 = hexes(answer())["H20"]
    assert h20["strategic"] is True
    assert h20["marker"] == "V"
    assert h20["status"] == "German"


def test_without_the_vehicle_h20_is_no_mans_land() -> None:
    """ "H20 would then be a No-Man's-Land hex (since it would be a
    non-Strategic Location within two hexes of both German- and U.S.-Controlled
    Strategic Locations)"."""
    h20 = hexes(answer(vehicle=False))["H20"]
    assert h20["strategic"] is False
    assert h20["status"] == NML


def test_without_the_vehicle_all_german_church_locations_are_isolated() -> None:
    found = answer(vehicle=False)
    assert hexes(found)["I20"]["isolated"] is True
    assert level(found, "I20", 1)["isolated"] is True
    assert level(found, "J19", 1)["isolated"] is True


def test_j21_is_isolated_surrounded_by_nml_or_german_strategic_locations() -> None:
    """ "The U.S.-Controlled J21 Strategic Location is Isolated since it is
    surrounded by hexes that are either No-Man's-Land or German-Controlled
    Strategic Locations"."""
    found = answer()
    shown = hexes(found)
    j21 = shown["J21"]
    assert j21["status"] == "US"
    assert j21["isolated"] is True
    q, r = to_axial("J21")
    for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
        other = shown[from_axial(q + dq, r + dr)]
        assert other["status"] == NML or (other["strategic"] and other["status"] == "German")
    assert area_of(found, "US", "J21")["hexes"] == ["J21"]


def test_the_us_gun_in_l21_is_not_isolated() -> None:
    l21 = hexes(answer())["L21"]
    assert l21["strategic"] is True
    assert l21["marker"] == "G"
    assert l21["status"] == "US"
    assert l21["isolated"] is False


@pytest.mark.parametrize("hx", ["I19", "J20", "I21", "K21", "K22", "J22"])
def test_the_hexes_between_the_church_and_j21_are_no_mans_land(hx: str) -> None:
    """8.6051: non-Strategic, within two hexes of both sides' Strategic
    Locations; "A No-Man's-Land hex can never be part of a Setup Area"."""
    shown = hexes(answer())[hx]
    assert shown["status"] == NML
    assert shown["area"] is None


def test_hexes_three_or_more_from_every_strategic_location_are_uncontrolled() -> None:
    """8.6053: "(i.e., >= three hexes from all Strategic Locations)"."""
    found = answer()
    shown = hexes(found)
    strategic = [to_axial(h["hex"]) for h in found["hexes"] if h["strategic"]]
    for hx, item in shown.items():
        far = all(_distance(to_axial(hx), s) >= 3 for s in strategic)
        if far and not item["surrounded"]:
            assert item["status"] == "uncontrolled", hx


def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def test_an_entry_area_counts_from_the_cg_date_on_its_arrow() -> None:
    """8.6052 traces to an *Eligible* Entry Area; SSR CG6c makes one Eligible
    from the CG Date on its arrow (``from_date``). Before it, the U.S. has no
    Eligible Entry Area here: its Isolation is not decided (nor any Holding
    Box note given); from it, L21 is not Isolated."""
    found = group()
    found["entry_areas"][1]["from_date"] = "21 AM"
    data = map_group_data(found)
    rules = REGISTRY["kgp"].rules
    early = rules.setup_areas(data, control(), SIDES, "20 PM")
    assert hexes(early)["L21"]["isolated"] is None
    assert early["sides"]["US"]["non_isolated_strategic"] is None
    assert early["sides"]["US"]["note"] is None
    assert "not decided" in early["sides"]["US"]["isolation"]
    on_time = rules.setup_areas(data, control(), SIDES, "21 AM")
    assert hexes(on_time)["L21"]["isolated"] is False


def test_an_hq_the_enemy_controls_isolates_every_area() -> None:
    """8.6052 EXC: the German path ends at its HQ; once that Location is
    U.S.-Controlled, every German area is Isolated until another is recorded."""
    found = group()
    found["hq"] = {"German": "G20"}
    data = map_group_data(found)
    rules = REGISTRY["kgp"].rules
    held = rules.setup_areas(data, control(), SIDES)
    assert area_of(held, "German", "I20")["isolated"] is False
    lost = control()
    lost.sides[("G20", 0)] = "US"
    taken = rules.setup_areas(data, lost, SIDES)
    assert all(a["isolated"] is True for a in taken["areas"] if a["side"] == "German")
    assert "US-Controlled" in taken["sides"]["German"]["isolation"]
