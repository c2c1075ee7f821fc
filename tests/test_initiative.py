"""Initiative Determination (8.623, 9.6213; DESIGN §8, issue 13 item 4): secret
simultaneous chits by commit and reveal, the 8.6232 (9.62132) matrix, a Dual
Attack's setup dr (8.6233a, 9.62133a) and the Attack-Chit limit of the CG
definition (8.6231)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from dice_steer import server_nonce
from fastapi.testclient import TestClient

from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}}


def _choose(game: Game, role: str, chit: str, **extra: Any) -> Any:
    return game.post(role, "/initiative", {"chit": chit, **extra})


@pytest.fixture
def kgp(client: TestClient) -> Game:
    """19 PM, both sides at 8.623: the steps they passed on the way have their
    sealed records already (DESIGN §4), so a chit's command draws nothing else
    and the dice a test steers are the ones it means."""
    game = Game(client, KGP)
    game.to_date("19 PM", on_it=True)
    for side in ("US", "German"):
        game.advance(side, "8.623")
    return game


def test_the_initial_scenario_has_no_initiative(client: TestClient) -> None:
    game = Game(client, KGP)
    problem = assert_problem(_choose(game, "US", "attack"), 409)
    assert problem["detail"].startswith("8.6232: no Initiative is determined for the Initial")


def test_a_ruleset_without_initiative_says_so(client: TestClient) -> None:
    game = Game(client, {"ruleset": "sg", "campaign": "SG"})
    problem = assert_problem(_choose(game, "American", "attack"), 409)
    assert problem["detail"].startswith("1.2: ")


def test_the_cpp_replenishment_comes_first(client: TestClient) -> None:
    game = Game(client, KGP)
    game.to_date("19 PM")
    problem = assert_problem(_choose(game, "US", "idle"), 409)
    assert problem["detail"].startswith(
        "8.616: CPP Replenishment requires its action of US on 19 PM before the step is passed"
    )
    assert problem["detail"].endswith("/cpp-replenishments)")


def test_the_first_chit_is_secret_until_both_are_chosen(kgp: Game) -> None:
    mine = created(_choose(kgp, "US", "attack"))
    assert mine["chits"] == {"US": "attack", "German": None}
    assert mine["chosen"] == {"US": True, "German": False}
    assert mine["scenario"] is None
    seq = mine["seq"]

    # The German sees that a chit was chosen, never which: in the Initiative,
    # the event log, the export and the campaign.
    seen = ok(kgp.get("German", "/initiative"))["items"]
    assert seen == [
        {
            "cg_date": "19 PM",
            "chosen": {"US": True, "German": False},
            "seqs": {"US": seq, "German": None},
            "chits": {"US": None, "German": None},
            "determined": None,
            "scenario": None,
            "setup_first": None,
        }
    ]
    event = ok(kgp.get("German", f"/events?after={seq - 1}&limit=1"))["items"][0]
    assert event["type"] == "RecordSealed"  # as every secret act (DESIGN §2a)
    assert "roll" not in event["payload"]
    assert event["secret"] is None
    assert "attack" not in json.dumps(event)
    export = kgp.client.get(f"{kgp.url}/export", headers=kgp.h("German")).text
    assert '"chit"' not in export
    assert "attack" not in json.dumps(ok(kgp.get("German")))
    # Its owner and the referee see it.
    assert ok(kgp.get("US", "/initiative"))["items"][0]["chits"]["US"] == "attack"
    assert ok(kgp.get("referee", "/initiative"))["items"][0]["chits"]["US"] == "attack"
    # One chit per side per CG Date.
    problem = assert_problem(_choose(kgp, "US", "idle"), 409)
    assert problem["detail"] == "8.6232: US has chosen its Initiative chit for 19 PM already"


@pytest.mark.parametrize(
    ("us", "german", "scenario", "dr"),
    [
        ("attack", "attack", "dual-attack", 3),
        ("attack", "attack", "dual-attack", 4),
        ("idle", "attack", "german-assault", None),
        ("attack", "idle", "us-assault", None),
        ("idle", "idle", "idle", None),
    ],
)
def test_the_second_chit_reveals_both_and_reads_the_8_6232_matrix(
    kgp: Game, us: str, german: str, scenario: str, dr: int | None
) -> None:
    """A Dual Attack's setup dr (8.6233a) is drawn by the server with the second
    chit; ``dr`` steers it (``dice_steer.server_nonce``) to either side of ≤ 3."""
    first = created(_choose(kgp, "German", german))["seq"]
    if dr is None:
        out = created(_choose(kgp, "US", us))
    else:
        with server_nonce(kgp, "kgp:8.6233a", "US", dr):
            out = created(_choose(kgp, "US", us))
    assert out["chits"] == {"US": us, "German": german}
    assert out["scenario"] == scenario
    assert out["determined"] == out["seq"]
    for role in ("US", "German", "referee"):
        view = ok(kgp.get(role, "/initiative?cg_date=19pm"))["items"][0]
        assert view["chits"] == {"US": us, "German": german}
        assert view["scenario"] == scenario
    # The first chit's secret part is revealed to everyone, in the log and the export.
    log = ok(kgp.get("US", f"/events?after={first - 1}"))["items"]
    assert log[0]["secret"]["chit"] == german
    assert any(e["type"] == "SecretRevealed" and e["payload"]["of_seq"] == first for e in log)
    determined = log[-1]
    assert determined["type"] == "InitiativeDetermined"
    assert determined["payload"]["chits"] == {"US": us, "German": german}
    if scenario == "dual-attack":
        # 8.6233a: "The U.S. player makes a dr ... if ≤ 3 the U.S. does; otherwise the German".
        roll = determined["payload"]["roll"]
        assert roll["side"] == "US"
        assert roll["count"] == 1
        assert roll["dice"] == [dr]
        assert determined["payload"]["rule"] == "kgp:8.6233a"
        assert out["setup_first"] == ("US" if dr == 3 else "German")
    else:
        assert "roll" not in determined["payload"]
        # 8.6233c "The U.S. sets up first", d "The German sets up first"; Idle: none.
        first = {"german-assault": "US", "us-assault": "German"}.get(scenario)
        assert out["setup_first"] == determined["payload"]["setup_first"] == first
    body = kgp.client.get(f"{kgp.url}/export", headers=kgp.h("German")).content
    report = verify_bytes(body)
    assert report.rolls_recomputed == (1 if scenario == "dual-attack" else 0)


@pytest.mark.parametrize(("dr", "first"), [(3, "British"), (4, "German")])
def test_abtf_dual_attack_setup_is_the_germans_dr(client: TestClient, dr: int, first: str) -> None:
    """9.62133a: "The German player makes a dr": ≤ 3 the British sets up first;
    the dr is steered to either side of the 3 (``dice_steer.server_nonce``)."""
    game = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"})
    game.to_date("18 EVE", on_it=True)
    for side in ("British", "German"):
        game.advance(side, "9.621")
    created(_choose(game, "British", "attack"))
    with server_nonce(game, "abtf:9.6213a", "German", dr):
        out = created(_choose(game, "German", "attack"))
    assert out["scenario"] == "dual-attack"
    event = ok(game.get("British", f"/events?after={out['seq'] - 1}"))["items"][0]
    roll = event["payload"]["roll"]
    assert roll["side"] == "German"  # 9.62133a: "The German player makes a dr"
    assert roll["dice"] == [dr]
    assert out["setup_first"] == first


def test_the_attack_chit_limit_of_the_definition(client: TestClient) -> None:
    """8.6231: "Each CG ... lists the maximum number of Attack Chits ... each
    side may select during the course of that CG"; the CG definition holds it."""
    definition = copy.deepcopy(ok(client.get("/v1/rulesets/kgp/sample-definition")))
    definition["attack_chits"] = {"US": 1}
    game = Game(client, {**KGP, "definition": definition})
    game.to_date("19 PM", on_it=True)
    created(_choose(game, "US", "attack"))
    created(_choose(game, "German", "attack"))
    game.to_date("19 N", on_it=True)
    before = game.version()
    problem = assert_problem(_choose(game, "US", "attack"), 409)
    assert problem["detail"] == (
        "8.6231: US has selected 1 Attack Chit(s) in this CG, the most its CG definition allows (1)"
    )
    assert game.version() == before
    created(_choose(game, "US", "idle"))
    # A side the definition leaves out has no limit.
    created(_choose(game, "German", "attack"))


def test_a_chit_undone_before_the_opponent_chose_can_be_chosen_again(kgp: Game) -> None:
    """DESIGN §5: a side's own latest action that nothing depends on is undone
    at once; the opponent never saw the chit, so nothing is gained by it."""
    seq = created(_choose(kgp, "US", "attack"))["seq"]
    undo = created(kgp.post("US", "/undo-requests", {"seqs": [seq], "reason": "misclick"}))
    assert undo["status"] == "applied"
    assert ok(kgp.get("German", "/initiative"))["items"] == []  # no date has a chit
    view = ok(kgp.get("German", "/initiative?cg_date=19 PM"))["items"][0]
    assert view["chosen"] == {"US": False, "German": False}
    again = created(_choose(kgp, "US", "idle"))
    assert again["chits"]["US"] == "idle"


def test_time_travel_shows_the_chits_as_they_were_seen(kgp: Game) -> None:
    first = created(_choose(kgp, "US", "attack"))["seq"]
    created(_choose(kgp, "German", "idle"))
    then = ok(kgp.get("German", f"/initiative?at={first}"))["items"][0]
    assert then["chits"] == {"US": None, "German": None}
    now = ok(kgp.get("German", "/initiative"))["items"][0]
    assert now["chits"] == {"US": "attack", "German": "idle"}


def test_the_referee_chooses_for_a_named_side(kgp: Game) -> None:
    assert_problem(_choose(kgp, "referee", "attack"), 422)  # the referee names the side
    assert created(_choose(kgp, "referee", "attack", side="US"))["chosen"]["US"] is True
    assert_problem(_choose(kgp, "German", "attack", side="US"), 403)


def test_a_retry_with_the_same_key_replays(kgp: Game) -> None:
    headers = {"Idempotency-Key": "chit-1"}
    one = created(kgp.post("US", "/initiative", {"chit": "idle"}, **headers))
    two = kgp.post("US", "/initiative", {"chit": "idle"}, **headers)
    assert two.status_code == 201
    assert two.json()["seq"] == one["seq"]
    assert kgp.version() == one["seq"]


def test_an_unknown_chit_or_date_is_422(kgp: Game) -> None:
    assert_problem(_choose(kgp, "US", "defend"), 422)
    assert_problem(kgp.get("US", "/initiative?cg_date=30 AM"), 422)


def test_the_second_chooser_cannot_take_back_what_revealed_the_first(kgp: Game) -> None:
    """DESIGN §5: the determination showed the second chooser the first chit, so
    it is never undone alone: the opponent or the referee decides."""
    created(_choose(kgp, "German", "attack"))
    seq = created(_choose(kgp, "US", "idle"))["seq"]
    undo = created(kgp.post("US", "/undo-requests", {"seqs": [seq], "reason": "misclick"}))
    assert undo["status"] == "pending"
    assert ok(kgp.get("US", "/initiative"))["items"][0]["scenario"] == "german-assault"


def test_a_chit_its_owner_showed_is_not_revealed_twice(kgp: Game) -> None:
    """The first chooser may show its chit (``/events/{seq}/reveal``); the other
    side then sees it, and its own choice still determines the scenario."""
    seq = created(_choose(kgp, "German", "attack"))["seq"]
    ok(kgp.post("German", f"/events/{seq}/reveal"))
    assert ok(kgp.get("US", "/initiative"))["items"][0]["chits"]["German"] == "attack"
    out = created(_choose(kgp, "US", "attack"))
    assert out["scenario"] == "dual-attack"
    log = ok(kgp.get("referee", f"/events?after={seq}"))["items"]
    assert [e["type"] for e in log].count("SecretRevealed") == 1


def test_abtf_limits_idle_chits_too(client: TestClient) -> None:
    """9.62131: "the maximum number of Attack and Idle Chits each side may select"."""
    definition = copy.deepcopy(ok(client.get("/v1/rulesets/abtf/sample-definition")))
    definition["idle_chits"] = {"German": 1}
    game = Game(
        client,
        {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM", "definition": definition},
    )
    game.to_date("18 EVE", on_it=True)
    for side in ("British", "German"):
        game.advance(side, "9.621")  # making the ELR Loss/Gain DR 9.6202 requires
    created(_choose(game, "German", "idle"))
    created(_choose(game, "British", "idle"))
    game.to_date("18 N", on_it=True)
    for side in ("British", "German"):
        game.advance(side, "9.621")
    problem = assert_problem(_choose(game, "German", "idle"), 409)
    assert problem["detail"] == (
        "9.62131: German has selected 1 Idle Chit(s) in this CG, the most its CG definition "
        "allows (1)"
    )
    created(_choose(game, "German", "attack"))
