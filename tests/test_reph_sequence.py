"""The RePh sequence, step by step (DESIGN §8, issue 13 item 1 in part):
``GET /reph`` with each side's status of each step, ``POST /reph/advance``,
each side's current step in ``GET /campaigns/{id}``, the markers (before the
Initial Scenario only '†' steps; '‡' not on an Idle date), a step's first
date, required actions that stop an advance (8.616, 9.616, 8.618), and the
Initiative that waits for both sides."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

pytestmark = pytest.mark.shared_app

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}
#: A German RG at its price on the sample chart (8.6194), for one of the two
#: Map Groups (8.6195 counts per Map Group).
I1 = {"rg": "I1", "cpp": 4, "map_group": "Sx"}


def _status(view: dict[str, Any], side: str) -> dict[str, str]:
    return {step["rule"]: step["status"][side] for step in view["steps"]}


def _advance(game: Game, role: str, to: str, **extra: Any) -> Any:
    return game.post(role, "/reph/advance", {"to": to, **extra})


def test_before_the_initial_scenario_only_dagger_steps_apply(client: TestClient) -> None:
    """8.6: "†" marks the only steps performed before an Initial Scenario; 8.618
    applies from 20 AM, so on CG I's 19 AM both sides begin at 8.619."""
    game = Game(client, KGP)
    view = ok(game.get("US", "/reph"))
    assert view["cg_date"] == "19 AM"
    assert view["initial"] is True
    assert view["current"] == {"US": "8.619", "German": "8.619"}
    for side in ("US", "German"):
        status = _status(view, side)
        assert {r for r, s in status.items() if s != "n/a"} == {"8.619", "8.620", "8.621"}
        assert status["8.619"] == "current"
        assert status["8.620"] == status["8.621"] == "pending"
    steps = ok(game.get("German"))["reph_step"]
    assert steps["German"] == {"id": "8.619", "title": "Purchasing Reinforcement Groups"}


def test_cg_ii_begins_with_the_german_8_618_dr(client: TestClient) -> None:
    """CG II's Initial Scenario is on 20 PM: the '†' 8.618 applies, to the German
    only, and its DR is required before he passes it (to buy RG, 8.619)."""
    game = Game(client, {"ruleset": "kgp", "campaign": "CG II", "initial_cpp": {"German": 5}})
    view = ok(game.get("referee", "/reph"))
    assert view["current"] == {"US": "8.619", "German": "8.618"}
    assert _status(view, "US")["8.618"] == "n/a"
    problem = assert_problem(game.post("German", "/rg-purchases", I1), 409)
    assert problem["detail"].startswith(
        "8.618: German Ammunition Shortage requires its action of German on 20 PM"
    )
    assert_problem(_advance(game, "German", "8.619"), 409)
    created(game.post("German", "/ammunition-shortage", {}))
    created(game.post("German", "/rg-purchases", I1))
    assert ok(game.get("German", "/reph"))["current"]["German"] == "8.619"


def test_advance_to_the_scenario_and_no_step_is_taken_again(client: TestClient) -> None:
    game = Game(client, KGP)
    out = created(_advance(game, "German", "scenario"))
    assert out["current"] == {"US": "8.619", "German": "scenario"}
    assert all(s in ("done", "n/a") for s in _status(out, "German").values())
    assert ok(game.get("US"))["reph_step"]["German"]["id"] == "scenario"
    problem = assert_problem(game.post("German", "/rg-purchases", I1), 409)
    assert problem["detail"] == (
        "8.6: steps are carried out in the numbered order; German has completed its steps "
        "(ready for the CG scenario) on 19 AM, so 8.619 (Purchasing Reinforcement Groups) "
        "is past"
    )
    problem = assert_problem(_advance(game, "German", "8.620"), 409)
    assert problem["detail"].endswith("a step is not taken again, and going back is an undo")


def test_bad_targets(client: TestClient) -> None:
    game = Game(client, KGP)
    problem = assert_problem(_advance(game, "US", "9.616"), 422)
    assert problem["field"] == "to"
    problem = assert_problem(_advance(game, "US", "8.619"), 409)  # it is current already
    assert problem["detail"].startswith("8.6: US is at 8.619")
    problem = assert_problem(_advance(game, "US", "8.622"), 409)  # not a '†' step
    assert problem["detail"] == "8.622: Purchasing Reconnaissance does not apply to US on 19 AM"
    assert_problem(_advance(game, "German", "scenario", side="US"), 403)
    assert_problem(_advance(game, "referee", "scenario"), 422)  # the referee names the side
    assert created(_advance(game, "referee", "scenario", side="US"))["current"]["US"] == "scenario"


def test_required_actions_and_the_joint_initiative_stop_an_advance(client: TestClient) -> None:
    game = Game(client, KGP)
    game.next_date()  # 19 PM: both sides begin at 8.612 New CG Date
    view = ok(game.get("US", "/reph"))
    assert view["initial"] is False
    assert view["current"] == {"US": "8.612", "German": "8.612"}
    assert _status(view, "US")["8.611"] == "done"
    assert _status(view, "US")["8.618"] == "n/a"  # German only
    assert _status(view, "German")["8.618"] == "n/a"  # from 20 AM
    before = game.version()
    problem = assert_problem(_advance(game, "US", "8.619"), 409)
    assert problem["detail"].startswith(
        "8.616: CPP Replenishment requires its action of US on 19 PM before the step is passed"
    )
    assert game.version() == before
    created(game.post("US", "/cpp-replenishments", {}))
    assert created(_advance(game, "US", "8.623"))["current"]["US"] == "8.623"
    problem = assert_problem(_advance(game, "US", "scenario"), 409)
    assert problem["detail"] == (
        "8.623: Initiative Determination is taken by both sides together; it waits for both "
        "Initiative chits on 19 PM"
    )
    created(game.post("German", "/cpp-replenishments", {}))
    created(game.post("US", "/initiative", {"chit": "idle"}))
    created(game.post("German", "/initiative", {"chit": "idle"}))
    out = ok(game.get("US", "/reph"))
    assert out["scenario"] == {"type": "idle", "setup_first": None}
    # 8.6232 note 2: an Idle date generates no scenario: the '‡' steps do not apply,
    # and the '*' steps repeat from New CG Date (8.6121), which both sides take again.
    assert _status(out, "US")["8.624"] == _status(out, "US")["8.625"] == "n/a"
    assert out["current"] == {"US": "8.612", "German": "8.612"}
    assert out["new_date_due"] is True
    problem = assert_problem(_advance(game, "US", "scenario"), 409)
    assert problem["detail"].startswith("8.612: New CG Date & SAN Adjustment is taken by both")
    began = created(game.post("referee", "/cg-dates", {}))
    assert began["cg_date"] == "19 N"
    assert ok(game.get("US", "/reph"))["new_date_due"] is False


def test_a_new_cg_date_waits_for_scenario_end_or_an_idle_date(client: TestClient) -> None:
    """8.6121 New CG Date comes after CG-Scenario End (8.603) or an Idle date
    (8.6232 note 2), never in the middle of a CG Date's RePh or scenario."""
    game = Game(client, KGP)
    for role in ("US", "German", "referee"):
        problem = assert_problem(game.post(role, "/cg-dates", {}), 409)
        assert problem["detail"].startswith("8.612: a new CG Date begins after CG-Scenario End"), (
            problem
        )
    game.advance("US", "scenario")
    game.advance("German", "scenario")
    assert_problem(game.post("referee", "/cg-dates", {}), 409)
    created(game.post("referee", "/scenario-end", {"cvp": {"US": 3, "German": 4}}))
    view = ok(game.get("US", "/reph"))
    assert view["new_date_due"] is True
    assert view["current"] == {"US": "8.601", "German": "8.601"}
    # The steps before New CG Date are taken on the old date: 8.606 Escape.
    roll = created(game.post("US", "/tables/kgp:8.606-infantry/rolls", {}))
    assert roll["cg_date"] == "19 AM"
    assert ok(game.get("US", "/reph"))["current"]["US"] == "8.606"
    # 8.6122 belongs to the New CG Date's step: not before the date begins.
    problem = assert_problem(
        game.post("US", "/tables/kgp:8.6122/rolls", {"inputs": {"san": 4}}), 409
    )
    assert problem["detail"].startswith("8.6122: the SAN Adjustment belongs to RePh step 8.612")
    created(game.post("US", "/cg-dates", {}))
    created(game.post("German", "/cg-dates", {}))
    view = ok(game.get("US", "/reph"))
    assert (view["cg_date"], view["new_date_due"]) == ("19 PM", False)
    assert view["current"] == {"US": "8.612", "German": "8.612"}
    # A step passed is not taken again: 8.606 is past once the date began.
    problem = assert_problem(game.post("US", "/tables/kgp:8.606-infantry/rolls", {}), 409)
    assert problem["detail"].startswith("8.606: the Escape")


def test_the_german_8_618_is_required_from_20_am(client: TestClient) -> None:
    game = Game(client, KGP)
    game.to_date("20 AM")
    created(game.post("German", "/cpp-replenishments", {}))
    view = ok(game.get("German", "/reph"))
    assert _status(view, "German")["8.618"] == "pending"
    problem = assert_problem(game.post("German", "/rg-purchases", I1), 409)
    assert problem["detail"].startswith("8.618: German Ammunition Shortage requires its action")
    created(game.post("German", "/ammunition-shortage", {}))
    created(game.post("German", "/rg-purchases", I1))
    assert _status(ok(game.get("German", "/reph")), "German")["8.618"] == "done"


def test_abtf_9_616_is_required(client: TestClient) -> None:
    game = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"})
    game.next_date(replenish=False)
    problem = assert_problem(_advance(game, "British", "9.617"), 409)
    assert problem["detail"].startswith("9.616: CPP Replenishment requires its action of British")
    created(game.post("British", "/cpp-replenishments", {}))
    assert created(_advance(game, "British", "9.617"))["current"]["British"] == "9.617"


def test_sg_plays_sg1_before_any_step(client: TestClient) -> None:
    """SG 1.2: "Players begin the CG by playing scenario SG1"; the sequence
    follows "at the end of each CG scenario"."""
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    view = ok(game.get("American", "/reph"))
    assert view["current"] == {"American": "scenario", "German": "scenario"}
    assert all(s == "n/a" for s in _status(view, "American").values())


def test_an_advance_is_undone_by_replay_and_read_as_of_an_event(client: TestClient) -> None:
    game = Game(client, KGP)
    before = game.version()
    seq = created(_advance(game, "US", "8.621"))["seq"]
    # Passing 8.619 and 8.620 recorded the US's empty sealed purchase and
    # determinations there (DESIGN §4) before the advance itself: the advance
    # is those records and its RePhAdvanced, undone together.
    log = ok(game.get("referee", f"/events?after={before}"))["items"]
    passed = [e for e in log if e["seq"] < seq]
    assert [(e["type"], e["payload"]["step"]) for e in passed] == [
        ("RecordSealed", "8.619"),
        ("RecordSealed", "8.620"),
    ]
    assert all(e["secret"]["rolls"] == [] for e in passed)
    seqs = [e["seq"] for e in passed] + [seq]
    assert seqs == list(range(before + 1, seq + 1))
    undo = created(game.post("US", "/undo-requests", {"seqs": seqs, "reason": "too fast"}))
    # The empty 8.620 record took a roll index: the German approves.
    assert undo["status"] == "pending"
    ok(game.post("German", f"/undo-requests/{undo['id']}/approve"))
    assert ok(game.get("US", "/reph"))["current"]["US"] == "8.619"
    assert ok(game.get("US", f"/reph?at={seq}"))["current"]["US"] == "8.621"
    assert ok(game.get("US", f"/reph?at={before}"))["current"]["US"] == "8.619"


@pytest.mark.parametrize("ruleset", ["kgp", "abtf", "sg"])
def test_every_step_of_the_sequence_is_listed_in_order(client: TestClient, ruleset: str) -> None:
    body = {"kgp": KGP, "abtf": {"ruleset": "abtf", "campaign": "CG I", "start_date": "19 AM"},
            "sg": {"ruleset": "sg", "campaign": "SG"}}[ruleset]  # fmt: skip
    game = Game(client, body)
    listed = next(r for r in ok(client.get("/v1/rulesets")) if r["id"] == ruleset)
    view = ok(game.get("referee", "/reph"))
    assert [s["rule"] for s in view["steps"]] == [s["rule"] for s in listed["reph_steps"]]
    assert [s["markers"] for s in view["steps"]] == [s["markers"] for s in listed["reph_steps"]]


def test_sg_1_2_each_step_american_first(client: TestClient) -> None:
    """SG 1.2: "Both players (if applicable), American first, complete each step
    before moving on to the next step": the steps are completed in turn."""
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    body = {"cvp": {"American": 41, "German": 10}, "vp": {"American": 63}, "vp_required": 55}
    created(game.post("referee", "/scenario-end", body))
    assert ok(game.get("German", "/reph"))["current"] == {"American": "2.1", "German": "2.1"}
    # The German may not act in 3.1 before the American has completed 2.1-3.1.
    problem = assert_problem(game.post("German", "/tables/sg:3.1/rolls", {}), 409)
    assert problem["detail"].startswith("3.1: the Wounded Leaders")
    assert "American has not completed 2.1" in problem["detail"]
    assert_problem(_advance(game, "German", "2.2"), 409)  # the American first
    created(_advance(game, "American", "2.2"))
    # The American may not move on to 2.3 before the German has completed 2.1.
    problem = assert_problem(_advance(game, "American", "2.3"), 409)
    assert problem["detail"].startswith(
        "1.2: each step is completed by American, German in turn before the next; German has "
        "not completed 2.1"
    )
    created(_advance(game, "German", "2.2"))
    created(_advance(game, "American", "2.3"))
    # In turn up to 3.1, where the American rolls first, then the German.
    for step, after in (("2.3", "2.4"), ("2.4", "2.5"), ("2.5", "2.6"), ("2.6", "2.7"),
                        ("2.7", "2.8"), ("2.8", "2.9")):  # fmt: skip
        created(_advance(game, "German", step))
        created(_advance(game, "American", after))
    # 2.9 is the American's only: the German moves on to 3.1 while the American is in it.
    created(_advance(game, "German", "3.1"))
    assert_problem(game.post("German", "/tables/sg:3.1/rolls", {}), 409)
    created(_advance(game, "American", "3.1"))
    created(game.post("American", "/tables/sg:3.1/rolls", {}))
    assert_problem(game.post("German", "/tables/sg:3.1/rolls", {}), 409)
    created(_advance(game, "American", "3.2"))
    created(game.post("German", "/tables/sg:3.1/rolls", {}))


def test_sg_1_2_no_side_jumps_to_the_next_scenario_alone(client: TestClient) -> None:
    """1.2 holds for the joint 4.0 too: the German cannot say it is ready for the
    next CG scenario (4.0, POST /cg-dates) while the American is still at 2.1."""
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    body = {"cvp": {"American": 0, "German": 0}, "vp": {"American": 0}, "vp_required": 0}
    created(game.post("referee", "/scenario-end", body))
    nxt = {"cg_date": "6 Afternoon"}
    for side in ("German", "American"):
        problem = assert_problem(game.post(side, "/cg-dates", nxt), 409)
        assert problem["detail"].startswith("1.2: each step is completed by American, German")
    # In turn, each side moving on to its next step whenever 1.2 lets it.
    moves = 0
    while True:
        view = ok(game.get("referee", "/reph"))
        if view["current"] == {"American": "4.0", "German": "4.0"}:
            break
        for side in ("American", "German"):
            pending = [s["rule"] for s in view["steps"] if s["status"][side] == "pending"]
            if pending and game.post(side, "/reph/advance", {"to": pending[0]}).status_code == 201:
                moves += 1
        assert moves < 60
    created(game.post("American", "/cg-dates", nxt))
    began = created(game.post("German", "/cg-dates", nxt))
    assert began["cg_date"] == "6 Afternoon"


def test_undoing_an_action_undoes_the_steps_built_on_it(kgp: Game) -> None:
    """Undo by replay (DESIGN §5): a roll that moved a side into a later step
    is built on the action before it, so an undo of that action must take the
    roll too; the side then stands where it stood before. (A Secret table roll
    moves no side, DESIGN §2a; the U.S. 8.6202 roll is public.)"""
    kgp.next_date()  # 19 PM
    repl = created(kgp.post("US", "/cpp-replenishments", {}))
    roll = created(kgp.post("US", "/tables/kgp:8.6202/rolls", {}))
    assert ok(kgp.get("US", "/reph"))["current"]["US"] == "8.620"
    # Passing 8.619 on the way recorded the U.S.'s empty sealed purchase (DESIGN §4).
    log = ok(kgp.get("referee", f"/events?after={repl['seq']}"))["items"]
    (empty,) = [e["seq"] for e in log if e["type"] == "RecordSealed"]
    assert repl["seq"] < empty < roll["seq"]
    alone = {"seqs": [repl["seq"]], "reason": "wrong"}
    problem = assert_problem(kgp.post("US", "/undo-requests", alone), 409)
    assert f"events {empty}, {roll['seq']} were built on it" in problem["detail"]
    both = {"seqs": [repl["seq"], empty, roll["seq"]], "reason": "wrong, and the steps after it"}
    asked = created(kgp.post("US", "/undo-requests", both))
    ok(kgp.post("German", f"/undo-requests/{asked['id']}/approve"))
    view = ok(kgp.get("US", "/reph"))
    assert view["current"]["US"] == "8.612"
    assert _status(view, "US")["8.616"] == "pending"
    created(kgp.post("US", "/cpp-replenishments", {}))


def test_a_further_roll_in_the_same_step_is_undone_alone(kgp_reph: Game) -> None:
    """A second roll in the step a side is at changes no state: a dispute may
    revert it on its own, whatever the opponent did since."""
    game = kgp_reph
    created(game.post("US", "/tables/kgp:8.610/rolls", {}))
    second = created(game.post("US", "/tables/kgp:8.610/rolls", {}))
    created(game.post("German", "/reph/advance", {"to": "8.606"}))
    dispute = created(game.post("German", "/disputes", {"seq": second["seq"], "claim": "twice"}))
    done = ok(
        game.post(
            "referee",
            f"/disputes/{dispute['id']}/resolve",
            {"decision": "revert", "note": "rolled once too often"},
        )
    )
    assert done["status"] == "reverted", done
    assert ok(game.get("US", "/reph"))["current"]["US"] == "8.610"
