"""Issue 26 item 5: the SAN (and SSR CG 17's Ammunition Shortage Level) as a
value the campaign keeps (``cgledger.domain.rulesets.kept``): set at the CG's
start from its definition, changed by the SAN Adjustment drs (8.6122,
9.6122), by 9.6152's schedule from the start of the scenario it is in force
for, and raised to 2 at each new CG Date (8.6122, 9.6122). Pure functions."""

from __future__ import annotations

from typing import Any

import pytest

from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.facts import ScheduledChange
from cgledger.domain.rulesets.kept import DEFINITION, Calendar, kept_entry, kept_values

DATES = ("17 N", "18 AM", "18 PM", "18 EVE", "18 N")
RAISE = (2, "9.6122")


def _up(date: str, change: int = 2) -> ScheduledChange:
    """9.6152 "SAN +2" with note 4, "SAN 7 maximum"."""
    return ScheduledChange("san", "British", date, change, "9.6152", "9.615", maximum=7)


def _down(date: str, change: int = -1) -> ScheduledChange:
    """9.6152 "SAN -1" with note 5, "SAN 2 minimum"."""
    return ScheduledChange("san", "British", date, change, "9.6152", "9.615", minimum=2)


def _calendar(upto: str, started: tuple[str, ...]) -> Calendar:
    return Calendar(DATES[: DATES.index(upto) + 1], started, 1)


def _roll(value: int, cg_date: str, seq: int = 40) -> dict[str, Any]:
    return {"value": value, "known": True, "cg_date": cg_date, "seq": seq, "rule": "9.61221",
            "before": None}  # fmt: skip


@pytest.mark.parametrize(
    ("start", "change", "now"),
    [
        (3, _up("18 AM"), 5),
        (6, _up("18 AM"), 7),  # note 4: a rise stops at 7
        (7, _up("18 AM"), 7),
        (8, _up("18 AM"), 8),  # a SAN already above 7 is not lowered
        (4, _down("18 AM"), 3),
        (3, _down("18 AM"), 2),  # note 5: a fall stops at 2
        (2, _down("18 AM"), 2),
        (2, _down("18 AM", -3), 2),
    ],
)
def test_a_scheduled_change_within_its_bounds(
    start: int, change: ScheduledChange, now: int
) -> None:
    calendar = _calendar("18 AM", ("18 AM",))
    found = kept_entry(None, start, [(change, False)], None, "9.6122", calendar)
    assert found is not None
    assert (found["value"], found["known"], found["source"]) == (now, True, DEFINITION)


@pytest.mark.parametrize(
    ("upto", "started", "expected"),
    [
        ("18 AM", (), 3),  # received in 9.615, the scenario has not started
        ("18 AM", ("18 AM",), 5),  # "effective at start of scenario"
        ("18 PM", (), 3),  # 18 AM was Idle, 18 PM's scenario has not started
        ("18 PM", ("18 PM",), 5),  # in force from the next scenario's start
    ],
)
def test_in_force_from_the_start_of_the_first_scenario_on_or_after_its_date(
    upto: str, started: tuple[str, ...], expected: int
) -> None:
    found = kept_entry(None, 3, [(_up("18 AM"), False)], None, "9.6122", _calendar(upto, started))
    assert found is not None
    assert found["value"] == expected


def test_nothing_is_received_on_the_initial_scenarios_date_but_by_a_dagger_step() -> None:
    calendar = _calendar("18 PM", ("17 N", "18 AM"))
    not_dagger = kept_entry(None, 3, [(_up("17 N"), False)], None, "9.6122", calendar)
    dagger = kept_entry(None, 3, [(_up("17 N"), True)], None, "9.6122", calendar)
    assert not_dagger is not None
    assert dagger is not None
    assert (not_dagger["value"], dagger["value"]) == (3, 5)


@pytest.mark.parametrize(
    ("roll_date", "started", "expected"),
    [
        # The 18 PM dr was made with the 18 AM change in force: not added again.
        ("18 PM", ("18 AM", "18 PM"), 4),
        # 18 AM was Idle: its change comes in force at 18 PM's start, after the
        # 18 PM dr, so it is added to the dr's result.
        ("18 PM", ("18 PM",), 6),
        ("18 PM", (), 4),
    ],
)
def test_a_roll_starts_a_new_chain(roll_date: str, started: tuple[str, ...], expected: int) -> None:
    found = kept_entry(
        _roll(4, roll_date), 3, [(_up("18 AM"), False)], None, "9.6122",
        _calendar("18 PM", started),
    )  # fmt: skip
    assert found is not None
    assert (found["value"], found["seq"], found["rule"]) == (expected, 40, "9.61221")


@pytest.mark.parametrize(
    ("start", "upto", "expected"),
    [(1, "17 N", 1), (1, "18 AM", 2), (0, "18 PM", 2), (3, "18 PM", 3)],
)
def test_raised_to_2_at_each_new_cg_date(start: int, upto: str, expected: int) -> None:
    """8.6122/9.6122: "A side whose SAN is currently < 2 has it automatically
    raised to 2" (the Initial Scenario's date has no 9.612 step)."""
    found = kept_entry(None, start, [], RAISE, "9.6122", _calendar(upto, ()))
    assert found is not None
    assert found["value"] == expected


def test_an_unknown_start_shows_the_change() -> None:
    """No definition value and no stated SAN: 9.6152's change is shown as a
    change; a later dr that states the SAN starts a known chain."""
    calendar = _calendar("18 AM", ("18 AM",))
    found = kept_entry(None, None, [(_up("18 AM"), False)], RAISE, "9.6122", calendar)
    assert found is not None
    assert (found["value"], found["known"]) == (2, False)
    assert kept_entry(None, None, [], RAISE, "9.6122", calendar) is None


def test_changes_on_record_add_to_the_definitions_start() -> None:
    """9.6201 "Shortage increases one Level": the changes on record (an unknown
    start) on the definition's Level of SSR CG 17."""
    changed = {"value": 2, "known": False, "cg_date": "18 PM", "seq": 50, "rule": "9.6201",
               "before": None}  # fmt: skip
    found = kept_entry(changed, 1, [], None, "9.6201", _calendar("18 PM", ()))
    assert found is not None
    assert (found["value"], found["known"], found["seq"]) == (3, True, 50)


def test_kept_values_leave_the_other_results_as_recorded() -> None:
    rs = REGISTRY["abtf"]
    raw = {
        "elr": {"German": {"value": -1, "known": False, "cg_date": "18 AM", "seq": 9,
                           "rule": "9.6202", "before": None}},
        "weather": {"*": {"value": "Mist", "known": True, "cg_date": "18 AM", "seq": 8,
                          "rule": "9.62161", "before": None}},
    }  # fmt: skip
    out = kept_values(rs.lasting, raw, {}, [], rs.sides, _calendar("18 AM", ()))
    assert out == raw
    starts = {"san": {"German": 5}, "ammunition_shortage_level": {"British": 1}}
    out = kept_values(rs.lasting, raw, starts, [], rs.sides, _calendar("18 AM", ()))
    assert out["san"]["German"]["value"] == 5
    assert "British" not in out["san"]
    assert out["ammunition_shortage_level"]["British"]["value"] == 1
    assert (out["elr"], out["weather"]) == (raw["elr"], raw["weather"])
