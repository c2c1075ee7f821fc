"""CG-Scenario End (DESIGN §8, issue 13 item 5): while the scenario is in play
both sides send the same body, or the referee calls it; every side then begins
the next RePh at its first step, and the sequence waits for the New CG Date.
SG records the American's VP and Purchase Points (2.91-2.92, with its EX)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets.sg.rules import purchase_points
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

SG = {"ruleset": "sg", "campaign": "SG"}
#: The 2.92 EX: "He scored 63 VP in the scenario and needed 55 to win ... He
#: suffered 41 CVP" (the CVP the German earned).
EX = {"cvp": {"American": 20, "German": 41}, "vp": {"American": 63}, "vp_required": 55}


def _end(game: Game, role: str, body: dict[str, Any]) -> Any:
    return game.post(role, "/scenario-end", body)


@pytest.mark.parametrize(
    ("required", "total", "suffered", "differential", "points"),
    [
        (55, 63, 41, -8, 33),  # the 2.92 EX: 55 - 63 = -8; -8 + 41 = 33
        (55, 80, 10, -25, 0),  # "Negative Purchase Points are ignored"
        (90, 60, 0, 30, 30),
    ],
)
def test_2_91_2_92_arithmetic(
    required: int, total: int, suffered: int, differential: int, points: int
) -> None:
    assert purchase_points(required, total, suffered) == (differential, points)


def test_the_2_92_ex_through_the_api(client: TestClient) -> None:
    game = Game(client, SG)
    # 1.2: the CG begins with SG1; no RePh step comes before it.
    current = ok(game.get("American", "/reph"))["current"]
    assert current == {"American": "scenario", "German": "scenario"}
    first = created(_end(game, "American", EX))
    assert first["status"] == "proposed"
    second = created(_end(game, "German", EX))
    assert second["status"] == "recorded"
    payload = second["event"]["payload"]
    assert payload["vp_differential"] == -8
    assert payload["purchase_points"] == 33
    for viewer in ("American", "German", "referee"):
        line = ok(game.get(viewer, "/roster?side=American"))["lines"][-1]
        assert line["purchase_points"] == line["purchase_points_available"] == 33
        assert (line["vp"], line["vp_required"], line["cvp_suffered"]) == (63, 55, 41)
    # Every side begins the sequence at its first step (2.1).
    assert ok(game.get("German", "/reph"))["current"] == {"American": "2.1", "German": "2.1"}
    body = game.client.get(f"{game.url}/export", headers=game.h("German")).content
    verify_bytes(body)


def test_unused_purchase_points_are_kept(client: TestClient) -> None:
    """3.4: "Unused Purchase Points may be retained for future use"; 2.91's
    totals run over the CG."""
    game = Game(client, SG)
    created(_end(game, "referee", EX))
    created(game.post("referee", "/cg-dates", {"cg_date": "6 Afternoon"}))
    for side in ("American", "German"):
        created(game.post(side, "/reph/advance", {"to": "scenario"}))
    second = {"cvp": {"American": 5, "German": 20}, "vp": {"American": 30}, "vp_required": 90}
    out = created(_end(game, "referee", second))["event"]["payload"]
    assert out["vp_total"] == 93
    assert out["vp_differential"] == 90 - 93
    assert out["cvp_suffered"] == 61
    assert out["purchase_points"] == 58
    line = ok(game.get("American", "/roster"))["lines"][-1]
    assert line["purchase_points_available"] == 33 + 58


def test_both_sides_must_send_the_same_body(client: TestClient) -> None:
    game = Game(client, SG)
    created(_end(game, "American", EX))
    problem = assert_problem(_end(game, "American", EX), 409)
    assert problem["detail"].startswith("2.1: American sent the scenario end already")
    other = {**EX, "vp_required": 50}
    before = game.version()
    problem = assert_problem(_end(game, "German", other), 409)
    assert "'vp_required': 55" in problem["detail"]
    assert "'vp_required': 50" in problem["detail"]
    assert game.version() == before


def test_only_while_the_scenario_is_in_play(client: TestClient) -> None:
    game = Game(client, {"ruleset": "kgp", "campaign": "CG I"})
    body = {"cvp": {"US": 4, "German": 9}}
    problem = assert_problem(_end(game, "referee", body), 409)
    assert problem["detail"].startswith("8.619: US has not completed its RePh steps")
    for side in ("US", "German"):
        created(game.post(side, "/reph/advance", {"to": "scenario"}))
    problem = assert_problem(_end(game, "referee", {**body, "vp_required": 3}), 422)
    assert problem["field"] == "vp_required"
    assert_problem(_end(game, "referee", {"cvp": {"US": 4}}), 422)
    assert_problem(_end(game, "referee", {"cvp": {"US": -1, "German": 0}}), 422)
    out = created(_end(game, "referee", body))
    assert out["status"] == "recorded"
    assert out["event"]["payload"]["scenario"] == "initial"
    # The next RePh: 8.601 on; 8.612 New CG Date waits for both sides (/cg-dates).
    assert ok(game.get("US", "/reph"))["current"] == {"US": "8.601", "German": "8.601"}
    created(game.post("US", "/reph/advance", {"to": "8.612"}))
    problem = assert_problem(game.post("US", "/reph/advance", {"to": "8.613"}), 409)
    assert problem["detail"].startswith("8.612: New CG Date & SAN Adjustment is taken by both")
    created(game.post("referee", "/cg-dates", {}))
    assert ok(game.get("US", "/reph"))["current"] == {"US": "8.612", "German": "8.612"}


def test_a_scenario_end_is_undone_by_replay(client: TestClient) -> None:
    game = Game(client, SG)
    seq = created(_end(game, "referee", EX))["seq"]
    undo = created(game.post("referee", "/undo-requests", {"seqs": [seq], "reason": "typo"}))
    assert undo["status"] == "applied"
    assert ok(game.get("American", "/roster"))["lines"] == []
    assert ok(game.get("American", "/reph"))["current"]["American"] == "scenario"
    assert ok(game.get("American", f"/roster?at={seq}"))["lines"][0]["purchase_points"] == 33
