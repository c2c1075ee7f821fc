"""Control as events (DESIGN §9, issue 14 item 3 in part): ``POST /control``
records Control of Locations of a map group as one public event; ``GET
/control`` reads it over the definition's ``initial_control``, as of any event
with ``at``; bad Locations are 422s that name the field and append nothing;
undo by replay reverts it."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok

pytestmark = pytest.mark.shared_app


def _control(game: Game, role: str = "US", query: str = "") -> dict[str, Any]:
    view: dict[str, Any] = ok(game.get(role, f"/control{query}"))
    return view


def _locations(view: dict[str, Any], group: str = "Sx") -> dict[tuple[str, int], Any]:
    (found,) = (g for g in view["map_groups"] if g["map_group"] == group)
    return {(x["hex"], x["level"]): (x["side"], x["seq"]) for x in found["locations"]}


def test_initial_control_comes_from_the_definition(kgp: Game) -> None:
    definition = ok(kgp.get("US", "/definition"))["definition"]
    group = definition["map_groups"][0]
    shown = _locations(_control(kgp, "German"), group["id"])
    assert shown == {(hx, 0): (side, None) for hx, side in group["initial_control"].items()}


def test_control_is_recorded_read_by_both_and_as_of_an_event(kgp: Game) -> None:
    before = kgp.version()
    body = {"map_group": "Sx", "locations": [
        {"hex": "B2", "side": "German"}, {"hex": "A1", "level": 0, "side": "US"},
        {"hex": "C1", "side": None},
    ]}  # fmt: skip
    out = created(kgp.post("German", "/control", body))
    seq = out["seq"]
    assert out["checkpoint"]["seq"] == seq
    for role in ("US", "German", "referee"):
        shown = _locations(_control(kgp, role))
        assert shown[("B2", 0)] == ("German", seq)
        assert shown[("A1", 0)] == ("US", seq)
        assert shown[("C1", 0)] == (None, seq)
    then = _locations(_control(kgp, "US", f"?at={before}"))
    assert then[("B2", 0)] == ("US", None)
    event = ok(kgp.get("US", f"/events?after={seq - 1}&limit=1"))["items"][0]
    assert event["type"] == "ControlRecorded"
    assert event["payload"]["locations"][0] == {"hex": "B2", "level": 0, "side": "German"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"map_group": "Nope", "locations": [{"hex": "A1", "side": "US"}]}, "map_group"),
        ({"map_group": "Sx", "locations": [{"hex": "Z99", "side": "US"}]}, "locations[0].hex"),
        ({"map_group": "Sx", "locations": [{"hex": "A1", "side": "Soviet"}]}, "locations[0].side"),
        ({"map_group": "Sx", "locations": [{"hex": "A1", "level": 3, "side": "US"}]},
         "locations[0].level"),
        ({"map_group": "Sx", "locations": [{"hex": "A1", "side": "US"},
                                           {"hex": "A1", "side": None}]}, "locations[1].hex"),
    ],
)  # fmt: skip
def test_a_bad_location_is_422_naming_the_field(
    kgp: Game, body: dict[str, Any], field: str
) -> None:
    before = kgp.version()
    problem = assert_problem(kgp.post("US", "/control", body), 422)
    assert problem["field"] == field, problem
    assert kgp.version() == before


def test_a_body_without_locations_is_422(kgp: Game) -> None:
    assert_problem(kgp.post("US", "/control", {"map_group": "Sx", "locations": []}), 422)
    assert_problem(kgp.post("US", "/control", {"map_group": "Sx"}), 422)
    assert_problem(kgp.get("US", "/control?map_group=Nope"), 404)


def test_control_is_undone_by_replay(kgp: Game) -> None:
    body = {"map_group": "Sx", "locations": [{"hex": "B2", "side": "German"}]}
    seq = created(kgp.post("German", "/control", body))["seq"]
    undo = created(kgp.post("German", "/undo-requests", {"seqs": [seq], "reason": "misread"}))
    assert undo["status"] == "applied"
    assert _locations(_control(kgp))[("B2", 0)] == ("US", None)
