"""CG-Scenario End and New CG Date are proposals of the one agreement protocol
(DESIGN §13): a side's call is pending in ``/proposals`` until the opponent
sends the same (or approves it), rejects it, or its proposer withdraws it;
the referee's own call takes effect at once. The routes ``scenario-end`` and
``cg-dates`` keep their shapes and answer with the proposal's status."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

SG = {"ruleset": "sg", "campaign": "SG"}
KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
#: The 2.92 EX's body (SG1 is in play at creation, 1.2).
EX = {"cvp": {"American": 20, "German": 41}, "vp": {"American": 63}, "vp_required": 55}
TYPO = {**EX, "cvp": {"American": 2, "German": 41}}


def _pending(game: Game, role: str, kind: str) -> list[dict[str, Any]]:
    page = ok(game.get(role, f"/proposals?status=pending&kind={kind}"))
    items: list[dict[str, Any]] = page["items"]
    return items


def _answer(game: Game, role: str, seq: int, how: str, note: str | None = None) -> Any:
    return game.post(role, f"/proposals/{seq}/{how}", {} if note is None else {"note": note})


def test_a_wrong_scenario_end_is_rejected_then_sent_again_and_approved(
    client: TestClient,
) -> None:
    game = Game(client, SG)
    typo = created(game.post("American", "/scenario-end", TYPO))
    assert typo["status"] == "proposed"
    assert typo["proposal"] == {"seq": typo["seq"], "status": "pending"}
    for viewer in ("American", "German", "referee"):
        (item,) = _pending(game, viewer, "scenario-end")
        assert (item["seq"], item["by"]) == (typo["seq"], "American")
        assert item["type"] == "ScenarioEndProposed"
        assert item["proposed"]["body"]["cvp"] == TYPO["cvp"]
    # The German read a different CVP: sending its own body is 409 showing the
    # difference (DESIGN §8); it rejects the American's instead.
    refused = assert_problem(game.post("German", "/scenario-end", EX), 409)
    assert "American sent" in refused["detail"]
    rejected = ok(_answer(game, "German", typo["seq"], "reject", "the American earned 20 CVP"))
    assert rejected["status"] == "rejected"
    assert rejected["answer"]["by"] == "German"
    assert _pending(game, "American", "scenario-end") == []
    assert ok(game.get("German", "/reph"))["scenario_end_proposal"] is None
    # Nothing was recorded: the scenario is still in play, and the American
    # sends the right body; the German approves it from /proposals.
    again = created(game.post("American", "/scenario-end", EX))
    assert again["status"] == "proposed"
    approved = ok(_answer(game, "German", again["seq"], "approve"))
    assert approved["status"] == "applied"
    assert approved["answer"]["by"] == "German"
    lines = ok(game.get("referee", "/roster?side=American"))["lines"]
    assert lines[-1]["cvp_suffered"] == 41
    ended = [e for e in ok(game.get("referee", "/events"))["items"] if e["type"] == "ScenarioEnded"]
    assert [e["payload"]["proposal"] for e in ended] == [again["seq"]]
    # The first, rejected, stays rejected.
    assert ok(game.get("referee", f"/proposals/{typo['seq']}"))["status"] == "rejected"


def test_the_second_side_sending_the_same_body_applies_the_proposal(client: TestClient) -> None:
    game = Game(client, SG)
    first = created(game.post("German", "/scenario-end", EX))
    second = created(game.post("American", "/scenario-end", EX))
    assert second["status"] == "recorded"
    assert second["proposal"] == {"seq": first["seq"], "status": "applied"}
    view = ok(game.get("German", f"/proposals/{first['seq']}"))
    assert (view["status"], view["answer"]["by"]) == ("applied", "American")


def test_who_may_answer_a_scenario_end_proposal(client: TestClient) -> None:
    game = Game(client, SG)
    seq = created(game.post("American", "/scenario-end", EX))["seq"]
    assert_problem(_answer(game, "American", seq, "approve"), 403)
    assert_problem(_answer(game, "American", seq, "reject"), 403)
    assert_problem(_answer(game, "German", seq, "withdraw"), 403)
    # The proposer withdraws it; then nothing is pending and a withdrawn
    # proposal cannot be approved.
    assert ok(_answer(game, "American", seq, "withdraw"))["status"] == "withdrawn"
    assert_problem(_answer(game, "German", seq, "approve"), 409)
    assert ok(game.get("referee", "/reph"))["scenario_end_proposal"] is None


def test_the_referees_different_call_rejects_the_pending_proposal(client: TestClient) -> None:
    game = Game(client, SG)
    seq = created(game.post("American", "/scenario-end", TYPO))["seq"]
    out = created(game.post("referee", "/scenario-end", EX))
    assert (out["status"], out["proposal"]) == ("recorded", None)
    view = ok(game.get("German", f"/proposals/{seq}"))
    assert (view["status"], view["answer"]["by"]) == ("rejected", "referee")
    assert "referee" in view["answer"]["note"]


def test_the_referee_approves_a_sides_scenario_end(client: TestClient) -> None:
    game = Game(client, SG)
    seq = created(game.post("American", "/scenario-end", EX))["seq"]
    assert ok(_answer(game, "referee", seq, "approve"))["status"] == "applied"
    assert ok(game.get("German", "/reph"))["new_date_due"] is True


def test_a_new_cg_date_is_a_proposal_the_opponent_rejects_or_approves(
    client: TestClient,
) -> None:
    game = Game(client, KGP)
    game.end_scenario()  # the Initial Scenario (19 AM)
    ready = created(game.post("US", "/cg-dates", {"cg_date": "19 PM"}))
    assert ready["proposal"] == {"seq": ready["seq"], "status": "pending"}
    (item,) = _pending(game, "German", "cg-date")
    assert (item["by"], item["proposed"]["next"]) == ("US", "19 PM")
    assert ok(game.get("German"))["ready_for_next_cg_date"] == ["US"]
    # Rejected: the American is no longer ready, and may say it again.
    assert ok(_answer(game, "German", ready["seq"], "reject"))["status"] == "rejected"
    assert ok(game.get("German"))["ready_for_next_cg_date"] == []
    assert ok(game.get("German", "/reph"))["new_date_ready"] == {}
    again = created(game.post("US", "/cg-dates", {}))
    approved = ok(_answer(game, "German", again["seq"], "approve"))
    assert (approved["status"], approved["answer"]["by"]) == ("applied", "German")
    assert ok(game.get("US"))["cg_date"] == "19 PM"
    assert _pending(game, "referee", "cg-date") == []


def test_the_opponents_own_new_cg_date_applies_the_proposal(client: TestClient) -> None:
    game = Game(client, KGP)
    game.end_scenario()
    first = created(game.post("German", "/cg-dates", {}))
    began = created(game.post("US", "/cg-dates", {}))
    assert began["proposal"] == {"seq": first["seq"], "status": "applied"}
    assert began["cg_date"] == "19 PM"


def test_a_new_cg_date_proposal_is_withdrawn_by_its_proposer(client: TestClient) -> None:
    game = Game(client, KGP)
    game.end_scenario()
    seq = created(game.post("German", "/cg-dates", {}))["seq"]
    assert_problem(_answer(game, "US", seq, "withdraw"), 403)
    assert ok(_answer(game, "German", seq, "withdraw"))["status"] == "withdrawn"
    # The referee's call with no side ready applies no proposal.
    out = created(game.post("referee", "/cg-dates", {}))
    assert out["proposal"] is None


def test_an_undone_rejection_puts_the_proposal_back(client: TestClient) -> None:
    """The proposals and their answers are state events, replayed after an
    undo like what they record (DESIGN §5)."""
    game = Game(client, SG)
    seq = created(game.post("American", "/scenario-end", EX))["seq"]
    rejected = ok(_answer(game, "German", seq, "reject"))["answer"]["seq"]
    created(game.post("referee", "/undo-requests", {"seqs": [rejected], "reason": "misclick"}))
    assert ok(game.get("German", f"/proposals/{seq}"))["status"] == "pending"
    assert ok(game.get("German", "/reph"))["scenario_end_proposal"]["seq"] == seq
    assert ok(_answer(game, "German", seq, "approve"))["status"] == "applied"
