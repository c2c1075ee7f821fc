"""Control as events (DESIGN §9, issue 14 item 3 in part): ``POST /control``
records Control of Locations of a map group as one public event (a side's
once the opponent approves it, DESIGN §13: tests/test_control_agreement.py);
``GET /control`` reads it over the definition's ``initial_control``, as of any
event with ``at``; bad Locations are 422s that name the field and append
nothing; undo by replay reverts it."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, agree_control, assert_problem, created, ok

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
    out = agree_control(kgp, "German", body)
    seq = out["seq"]
    assert out["checkpoint"]["seq"] == out["proposal"]
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
    assert (event["payload"]["by"], event["actor"]) == ("German", "US")
    assert (event["payload"]["proposal"], event["payload"]["approved_by"]) == (seq - 1, "US")


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
    seq = created(kgp.post("referee", "/control", body))["seq"]
    undo = created(kgp.post("referee", "/undo-requests", {"seqs": [seq], "reason": "misread"}))
    assert undo["status"] == "applied"
    assert _locations(_control(kgp))[("B2", 0)] == ("US", None)


def test_an_approval_is_undone_by_replay_and_the_proposal_waits_again(kgp: Game) -> None:
    """The approver asks to undo its approval: though its own latest action, it
    put an agreement in force, so the proposer answers (DESIGN §13); once
    approved, the Control is gone and the proposal pending again (its
    proposer may then withdraw it). A proposal is undone like any action: its
    proposer's own latest one at once, which leaves no proposal behind."""
    body = {"map_group": "Sx", "locations": [{"hex": "B2", "side": "German"}]}
    out = agree_control(kgp, "German", body)
    assert _locations(_control(kgp))[("B2", 0)] == ("German", out["seq"])
    undo = created(kgp.post("US", "/undo-requests", {"seqs": [out["seq"]], "reason": "oops"}))
    assert undo["status"] == "pending"
    assert _locations(_control(kgp))[("B2", 0)] == ("German", out["seq"])
    assert ok(kgp.post("German", f"/undo-requests/{undo['id']}/approve"))["status"] == "applied"
    assert _locations(_control(kgp))[("B2", 0)] == ("US", None)
    assert ok(kgp.get("German", f"/proposals/{out['proposal']}"))["status"] == "pending"
    withdrawn = ok(kgp.post("German", f"/proposals/{out['proposal']}/withdraw"))
    assert withdrawn["status"] == "withdrawn"
    again = created(kgp.post("German", "/control", body))
    asked = {"seqs": [again["seq"]], "reason": "not yet"}
    assert created(kgp.post("German", "/undo-requests", asked))["status"] == "applied"
    assert ok(kgp.get("US", "/proposals?status=pending"))["items"] == []
    assert_problem(kgp.post("US", f"/proposals/{again['seq']}/approve"), 404)
    assert _locations(_control(kgp))[("B2", 0)] == ("US", None)
