"""Control by agreement (DESIGN §13, issue 25 item 4): a side's ``POST
/control`` is a proposal that changes nothing (not the Control read, the Setup
Areas and their map, the LVP, 8.6073's reveal or the rosters) until the
opponent or the referee approves it; the referee's applies at once; identical
Control in both CG-Scenario End bodies is agreed by them, different Control is
refused. ``GET /proposals`` lists every kind of proposal, and ``POST
/proposals/{seq}/approve|reject|withdraw`` answers each."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, agree_control, assert_problem, created, ok
from eventsourcing.application import project_aggregate
from fastapi.testclient import TestClient
from test_setup_areas_api import abtf_game

from cgledger.domain.campaign import Campaign
from cgledger.service import Ledger
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

ROLES = ("US", "German", "referee")
KGP = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 40, "US": 10}}
#: What pending Control must leave as it was, for every role.
READS = (
    "/control",
    "/setup-areas?map_group=Sx",
    "/setup-areas.svg?map_group=Sx",
    "/lvp",
    "/roster?side=German",
    "/roster?side=US",
    "/rg-record?side=German",
)


def _reads(game: Game) -> dict[tuple[str, str], Any]:
    """Every read of ``READS`` as each role gets it, without the campaign's
    version (which a proposal, an event, moves)."""
    out: dict[tuple[str, str], Any] = {}
    for role in ROLES:
        for path in READS:
            r = game.get(role, path)
            assert r.status_code == 200, (path, r.text)
            if path.startswith("/setup-areas.svg"):
                out[role, path] = r.text
            else:
                out[role, path] = {k: v for k, v in r.json().items() if k != "version"}
    return out


def _hidden_mine() -> Any:
    """A campaign whose German set up a hidden A-T minefield in its Setup Area
    of Sx on 19 PM; that scenario has ended, and both sides are at 8.601."""

    def make(client: TestClient) -> tuple[Game, str]:
        game = Game(client, KGP)
        created(game.post("German", "/rg-purchases", {"rg": "F1", "map_group": "Sx"}))
        game.advance("German", "8.621")
        items = [{"type": "at-mine-factor", "count": 1}]
        created(game.post("German", "/fortification-purchases", {"items": items}))
        game.end_scenario()
        game.next_date()
        for side in ("US", "German"):
            game.advance(side, "8.623")
        game.choose_chits("attack")
        for side in ("US", "German"):
            game.advance(side, "8.624")
        view = ok(game.get("German", "/setup-areas?map_group=Sx"))
        mine = next(hx for a in view["areas"] if a["side"] == "German" for hx in a["hexes"])
        body = {
            "map_group": "Sx",
            "items": [{"type": "at-mine-factor", "hex": mine}],
            "retained": {"A": 1},
        }
        created(game.post("German", "/fortification-setups", body))
        game.end_scenario()
        assert ok(game.get("US", "/reph"))["current"] == {"US": "8.601", "German": "8.601"}
        return game, mine

    return make


def _every_hex_claimed(game: Game) -> dict[str, Any]:
    """The issue's claim: every Location of map group Sx, for the U.S."""
    definition = ok(game.get("US", "/definition"))["definition"]
    (group,) = (g for g in definition["map_groups"] if g["id"] == "Sx")
    locations = [
        {"hex": h["hex"], "level": level, "side": "US"}
        for h in group["hexes"]
        for level in h.get("levels") or [0]
    ]
    return {"map_group": "Sx", "locations": locations}


def _claimed(client: TestClient) -> tuple[Game, str, int, dict[tuple[str, str], Any]]:
    """The U.S. claims every Location of Sx: 201, pending, and nothing changed."""
    game, mine = _hidden_mine()(client)
    before = _reads(game)
    claim = _every_hex_claimed(game)
    out = created(game.post("US", "/control", claim))
    assert out["status"] == "pending"
    (proposed,) = ok(game.get("German", "/proposals?status=pending"))["items"]
    assert (proposed["seq"], proposed["kind"], proposed["by"]) == (out["seq"], "control", "US")
    assert (proposed["type"], proposed["status"], proposed["answer"]) == (
        "ControlProposed",
        "pending",
        None,
    )
    assert proposed["proposed"]["locations"] == claim["locations"]
    # The proposal is public the moment it is made: the German reads it in the log.
    (event,) = ok(game.get("German", f"/events?after={out['seq'] - 1}&limit=1"))["items"]
    assert (event["type"], event["payload"]["locations"]) == ("ControlProposed", claim["locations"])
    # ... and it changed nothing the Control decides.
    after = _reads(game)
    changed = [key for key in before if before[key] != after[key]]
    assert not changed, changed
    groups = before["referee", "/control"]["map_groups"]
    assert out["map_groups"] == [g for g in groups if g["map_group"] == "Sx"]
    return game, mine, int(out["seq"]), before


def _revealed(game: Game) -> list[dict[str, Any]]:
    """8.6073 as the U.S. asks for it once it has determined the Setup Areas."""
    game.advance("US", "8.606")
    assert ok(game.get("US", "/setup-areas?map_group=Sx"))["frozen"] is True
    shown = created(game.post("US", "/hidden-fortifications", {"map_group": "Sx"}))
    found: list[dict[str, Any]] = shown["event"]["payload"]["revealed"]
    return found


def test_a_claim_the_german_rejects_never_reveals_his_fortifications(client: TestClient) -> None:
    """The issue's reproduction: the U.S. claims all of Sx; the Setup Areas it
    freezes and 8.6073 reveal nothing; the German rejects, and it never
    applies."""
    game, mine, seq, before = _claimed(client)
    assert _revealed(game) == []
    rejected = ok(game.post("German", f"/proposals/{seq}/reject", {"note": "not so"}))
    assert (rejected["status"], rejected["answer"]["by"], rejected["answer"]["note"]) == (
        "rejected",
        "German",
        "not so",
    )
    problem = assert_problem(game.post("German", f"/proposals/{seq}/approve"), 409)
    assert problem["detail"] == f"Control proposal {seq} is already rejected"
    assert ok(game.get("US", "/control"))["map_groups"] == before["US", "/control"]["map_groups"]
    areas = ok(game.get("German", "/setup-areas?map_group=Sx"))
    assert mine in [hx for a in areas["areas"] if a["side"] == "German" for hx in a["hexes"]]
    assert ok(game.get("US", "/proposals?status=pending"))["items"] == []


@pytest.mark.store
def test_a_claim_the_german_approves_applies_then(client: TestClient) -> None:
    game, mine, seq, before = _claimed(client)
    approved = ok(game.post("German", f"/proposals/{seq}/approve"))
    assert approved["status"] == "applied"
    # What the proposal left alone, the approval changes (for every role).
    after = _reads(game)
    for role in ROLES:
        for path in ("/control", "/setup-areas?map_group=Sx", "/setup-areas.svg?map_group=Sx"):
            assert after[role, path] != before[role, path], (role, path)
    recorded = approved["answer"]["seq"]
    (event,) = ok(game.get("US", f"/events?after={recorded - 1}&limit=1"))["items"]
    assert event["type"] == "ControlRecorded"
    assert (event["payload"]["proposal"], event["payload"]["approved_by"]) == (seq, "German")
    (group,) = ok(game.get("referee", "/control?map_group=Sx"))["map_groups"]
    assert {(x["side"], x["seq"]) for x in group["locations"]} == {("US", recorded)}
    # As of the proposal (the campaign loaded at that event): as before it.
    (then,) = ok(game.get("German", f"/control?map_group=Sx&at={seq}"))["map_groups"]
    assert [then] == [
        g for g in before["German", "/control"]["map_groups"] if g["map_group"] == "Sx"
    ]
    assert _revealed(game) == [{"side": "German", "hex": mine, "level": 0, "type": "minefield"}]
    # The log with the proposal and its approval verifies (``cgledger verify``).
    export = game.client.get(f"{game.url}/export", headers=game.h("US")).content
    assert verify_bytes(export).events == game.version()


def test_the_referees_control_applies_at_once(kgp: Game) -> None:
    body = {"map_group": "Sx", "locations": [{"hex": "C1", "side": "US"}]}
    out = created(kgp.post("referee", "/control", body))
    assert out["status"] == "applied"
    (group,) = ok(kgp.get("German", "/control?map_group=Sx"))["map_groups"]
    assert {x["hex"]: (x["side"], x["seq"]) for x in group["locations"]}["C1"] == ("US", out["seq"])
    (event,) = ok(kgp.get("German", f"/events?after={out['seq'] - 1}&limit=1"))["items"]
    assert event["type"] == "ControlRecorded"
    assert "proposal" not in event["payload"]
    assert ok(kgp.get("US", "/proposals"))["items"] == []


def test_only_the_opponent_or_the_referee_approves_or_rejects(kgp: Game) -> None:
    body = {"map_group": "Sx", "locations": [{"hex": "C1", "side": "US"}]}
    seq = created(kgp.post("US", "/control", body))["seq"]
    before = kgp.version()
    problem = assert_problem(kgp.post("US", f"/proposals/{seq}/approve"), 403)
    assert problem["detail"] == (
        "a side cannot approve its own Control proposal; the opponent or the referee does"
    )
    assert_problem(kgp.post("US", f"/proposals/{seq}/reject"), 403)
    assert_problem(kgp.post("German", f"/proposals/{seq}/withdraw"), 403)
    assert_problem(kgp.post("referee", f"/proposals/{seq}/withdraw"), 403)
    assert_problem(kgp.post("German", f"/proposals/{before + 5}/approve"), 404)
    assert_problem(kgp.post("German", "/proposals/1/approve"), 404)  # an event, not a proposal
    assert kgp.version() == before
    # The referee may decide it instead of the opponent.
    approved = ok(kgp.post("referee", f"/proposals/{seq}/approve"))
    assert (approved["status"], approved["answer"]["by"]) == ("applied", "referee")
    (group,) = ok(kgp.get("US", "/control?map_group=Sx"))["map_groups"]
    assert {x["hex"]: x["side"] for x in group["locations"]}["C1"] == "US"
    # A withdrawal is the proposer's: it never applies.
    other = created(kgp.post("German", "/control", {**body, "locations": [
        {"hex": "C1", "side": "German"}]}))["seq"]  # fmt: skip
    assert ok(kgp.post("German", f"/proposals/{other}/withdraw"))["status"] == "withdrawn"
    assert_problem(kgp.post("US", f"/proposals/{other}/approve"), 409)
    (group,) = ok(kgp.get("US", "/control?map_group=Sx"))["map_groups"]
    assert {x["hex"]: x["side"] for x in group["locations"]}["C1"] == "US"


def test_every_kind_of_proposal_is_listed_and_answered_in_one_place(kgp: Game) -> None:
    """An undo request, a definition amendment and Control, each pending; each
    approved by its seq; the routes of each kind show the same status."""
    mine = created(kgp.post("US", "/rolls", {"dice": 2, "purpose": "mine"}))
    created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "his"}))
    undo = created(kgp.post("US", "/undo-requests", {"seqs": [mine["seq"]], "reason": "x"}))
    assert undo["status"] == "pending"
    patch = {"optional_rules": ["8.6171"]}
    amendment = created(
        kgp.post("German", "/definition-amendments", {"patch": patch, "reason": "weather"})
    )
    control = created(
        kgp.post("US", "/control", {"map_group": "Sx", "locations": [{"hex": "C1", "side": "US"}]})
    )
    pending = ok(kgp.get("referee", "/proposals?status=pending"))
    kinds = [(p["seq"], p["kind"], p["by"]) for p in pending["items"]]
    assert kinds == [
        (undo["id"], "undo-request", "US"),
        (amendment["id"], "definition-amendment", "German"),
        (control["seq"], "control", "US"),
    ]
    assert pending["items"][1]["proposed"]["patch"] == patch
    only = ok(kgp.get("US", "/proposals?kind=definition-amendment"))["items"]
    assert [p["seq"] for p in only] == [amendment["id"]]
    assert ok(kgp.get("US", f"/proposals/{undo['id']}"))["proposed"]["seqs"] == [mine["seq"]]
    for seq, approver in (
        (undo["id"], "German"),
        (amendment["id"], "US"),
        (control["seq"], "German"),
    ):
        assert ok(kgp.post(approver, f"/proposals/{seq}/approve"))["status"] == "applied"
    assert ok(kgp.get("US", f"/undo-requests/{undo['id']}"))["status"] == "applied"
    assert ok(kgp.get("US", f"/definition-amendments/{amendment['id']}"))["status"] == "applied"
    assert "8.6171" in ok(kgp.get("US", "/definition"))["definition"]["optional_rules"]
    assert ok(kgp.get("US", "/proposals?status=pending"))["items"] == []
    assert len(ok(kgp.get("German", "/proposals?status=applied"))["items"]) == 3
    page = ok(kgp.get("German", "/proposals?limit=2"))
    assert [p["seq"] for p in page["items"]] == [undo["id"], amendment["id"]]
    assert page["next_after"] == amendment["id"]
    # Rejected and withdrawn the same way, as each kind's own route then says.
    again = created(kgp.post("German", "/rolls", {"dice": 1, "purpose": "again"}))
    created(kgp.post("US", "/rolls", {"dice": 1, "purpose": "after"}))
    undo = created(kgp.post("German", "/undo-requests", {"seqs": [again["seq"]], "reason": "y"}))
    other = {"patch": {"optional_rules": []}, "reason": "no weather"}
    amendment = created(kgp.post("US", "/definition-amendments", other))
    withdrawn = ok(kgp.post("German", f"/proposals/{undo['id']}/withdraw", {"note": "fine"}))
    assert (withdrawn["status"], withdrawn["answer"]["note"]) == ("withdrawn", "fine")
    assert ok(kgp.post("German", f"/proposals/{amendment['id']}/reject"))["status"] == "rejected"
    assert ok(kgp.get("US", f"/undo-requests/{undo['id']}"))["status"] == "withdrawn"
    assert ok(kgp.get("US", f"/definition-amendments/{amendment['id']}"))["status"] == "rejected"
    assert "8.6171" in ok(kgp.get("US", "/definition"))["definition"]["optional_rules"]


def test_pending_control_is_not_counted_at_scenario_end(kgp: Game) -> None:
    """8.6032: the LVP counts the Control in force; a pending claim is not."""
    for side in ("US", "German"):
        kgp.advance(side, "scenario")
    claim = {"map_group": "Sx", "locations": [{"hex": "C3", "side": "US"}]}  # 3 LVP, German's
    seq = created(kgp.post("US", "/control", claim))["seq"]
    created(kgp.post("referee", "/scenario-end", {"cvp": {"US": 0, "German": 0}}))
    (row,) = ok(kgp.get("US", "/lvp"))["rows"]
    assert row["current_lvp"] == row["start_lvp"]
    ok(kgp.post("German", f"/proposals/{seq}/approve"))
    (group,) = ok(kgp.get("US", "/control?map_group=Sx"))["map_groups"]
    assert {x["hex"]: x["side"] for x in group["locations"]}["C3"] == "US"
    assert ok(kgp.get("US", "/lvp"))["rows"] == [row]  # recorded at the end, as it was


def test_both_scenario_end_bodies_must_send_the_same_control(kgp: Game) -> None:
    """Identical Control in both bodies is agreed by them; a different one is
    refused, naming the Locations on which they differ, and nothing of either
    is applied."""
    for side in ("US", "German"):
        kgp.advance(side, "scenario")
    change = {"map_group": "Sx", "locations": [{"hex": "C1", "side": "US"},
                                              {"hex": "B2", "side": "US"}]}  # fmt: skip
    body = {"cvp": {"US": 1, "German": 2}, "control": [change]}
    assert created(kgp.post("US", "/scenario-end", body))["status"] == "proposed"
    control = ok(kgp.get("German", "/control"))
    before = kgp.version()
    theirs = {"map_group": "Sx", "locations": [{"hex": "C1", "side": "German"},
                                              {"hex": "B2", "side": "US"}]}  # fmt: skip
    problem = assert_problem(
        kgp.post("German", "/scenario-end", {**body, "control": [theirs]}), 409
    )
    assert problem["detail"] == (
        "8.601: US sent {'control': {'Sx C1/0': {'side': 'US'}}}, "
        "German sends {'control': {'Sx C1/0': {'side': 'German'}}}: "
        "both must send the same scenario end"
    )
    assert kgp.version() == before
    assert {k: v for k, v in ok(kgp.get("German", "/control")).items() if k != "version"} == {
        k: v for k, v in control.items() if k != "version"
    }
    out = created(kgp.post("German", "/scenario-end", body))
    assert out["status"] == "recorded"
    (group,) = ok(kgp.get("US", "/control?map_group=Sx"))["map_groups"]
    shown = {x["hex"]: (x["side"], x["seq"]) for x in group["locations"]}
    assert shown["C1"] == ("US", out["seq"])


def test_an_approval_that_would_now_do_more_is_refused(client: TestClient) -> None:
    """9.605: the German proposes B3; meanwhile the referee gives him B2, so
    B3 would now also switch Block C, which the British was not shown."""
    game = abtf_game(client)
    body = {"map_group": "Ar", "locations": [{"hex": "B3", "side": "German"}]}
    seq = created(game.post("German", "/control", body))["seq"]
    assert "blocks" not in ok(game.get("British", f"/proposals/{seq}"))["proposed"]
    agree_control(game, "referee", {"map_group": "Ar", "locations": [
        {"hex": "B2", "side": "German"}]})  # fmt: skip
    before = game.version()
    problem = assert_problem(game.post("British", f"/proposals/{seq}/approve"), 409)
    assert problem["detail"] == (
        f"the Control changed since Control proposal {seq}: approved now, its blocks would "
        "differ from what was proposed; reject it and propose again"
    )
    assert game.version() == before
    assert ok(game.post("British", f"/proposals/{seq}/reject"))["status"] == "rejected"


def _state(campaign: Campaign) -> dict[str, Any]:
    """The aggregate's state (without the library's pending events, the
    attached history and a command's open seal)."""
    skip = ("_pending_events", "_history", "_seal")
    return {k: v for k, v in vars(campaign).items() if k not in skip}


@pytest.mark.store
def test_proposals_and_their_answers_reload_identically(ledger: Ledger, settings: Settings) -> None:
    """Proposed, approved, rejected, undone and approved again: the campaign
    loads the same from snapshots (every 2 events), from its events alone and
    from a fresh Ledger, as of every version (DESIGN §5, the SCHEMA's state)."""
    ledger.store.snapshotting_intervals = {Campaign: 2}
    made = ledger.create_campaign(
        ruleset="kgp",
        campaign="CG I",
        title="proposals",
        start_date=None,
        initial_cpp={"German": 2},
        idempotency_key=None,
        request_fingerprint="proposals",
    )
    cid = made.campaign.cid

    def run(role: str, command: Any) -> int:
        return ledger.execute(cid, role, command, operation="test", body=None).seq

    c1 = [{"hex": "C1", "level": 0, "side": "US"}]
    b2 = [{"hex": "B2", "level": 0, "side": "German"}]
    p1 = run("US", lambda c, ctx: c.record_control(ctx, "Sx", c1))
    a1 = run("German", lambda c, ctx: c.approve_proposal(ctx, p1))
    p2 = run("German", lambda c, ctx: c.record_control(ctx, "Sx", b2))
    run("US", lambda c, ctx: c.answer_proposal(ctx, p2, "no", withdraw=False))
    p3 = run("German", lambda c, ctx: c.record_control(ctx, "Sx", b2))
    run("referee", lambda c, ctx: c.request_undo(ctx, seqs=None, to_seq=a1 - 1, reason="back"))
    live = ledger.load(cid)
    assert {k: v["status"] for k, v in live.control_proposals.items()} == {str(p1): "pending"}
    assert live.control == {}
    a4 = run("referee", lambda c, ctx: c.approve_proposal(ctx, p1))
    live = ledger.load(cid)
    assert live.control_proposals[str(p1)]["answer"] == {"seq": a4, "by": "referee", "note": None}
    assert live.control["Sx"]["C1/0"]["side"] == "US"
    assert p3 > p2 > a1
    expected = _state(live)
    rebuilt = project_aggregate(None, ledger.store.events.get(live.id))
    assert isinstance(rebuilt, Campaign)
    assert _state(rebuilt) == expected
    fresh = Ledger(settings)
    try:
        assert _state(fresh.load(cid)) == expected
        for version in range(1, live.version + 1):
            from_snapshot = fresh.load(cid, version=version)
            from_events = project_aggregate(None, fresh.store.events.get(live.id, lte=version))
            assert from_events is not None
            assert _state(from_snapshot) == _state(from_events), version
    finally:
        fresh.close()


def _c3(game: Game) -> str | None:
    (group,) = ok(game.get("US", "/control?map_group=Sx"))["map_groups"]
    return {x["hex"]: x["side"] for x in group["locations"]}.get("C3")


@pytest.mark.parametrize("agreement", ["control", "scenario-end", "cg-date"])
def test_an_agreement_in_force_is_not_undone_by_one_side_alone(
    client: TestClient, agreement: str
) -> None:
    """DESIGN §13 and §5: the event that puts an agreement in force (the
    approval of a Control proposal, the last side's CG-Scenario End or New CG
    Date) is the latest action of the side that made it, yet not its own to
    take back: its undo is a request the other side answers."""
    game = Game(client, KGP)
    claim = {"map_group": "Sx", "locations": [{"hex": "C3", "side": "US"}]}
    if agreement == "control":
        proposal = created(game.post("US", "/control", claim))["seq"]
        last = ok(game.post("German", f"/proposals/{proposal}/approve", {}))["answer"]["seq"]
    else:
        for side in ("US", "German"):
            game.advance(side, "scenario")
        body = {"cvp": {"US": 3, "German": 0}, "control": [claim]}
        created(game.post("US", "/scenario-end", body))
        last = created(game.post("German", "/scenario-end", body))["seq"]
        if agreement == "cg-date":
            created(game.post("US", "/cg-dates", {}))
            last = created(game.post("German", "/cg-dates", {}))["seq"]
    before = (game.cg_date(), _c3(game), ok(game.get("US", "/lvp"))["rows"])
    assert before[1] == "US"
    asked = created(game.post("German", "/undo-requests", {"seqs": [last], "reason": "mine?"}))
    assert asked["status"] == "pending"
    assert asked["undo"] is None
    assert (game.cg_date(), _c3(game), ok(game.get("US", "/lvp"))["rows"]) == before
