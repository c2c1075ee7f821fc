"""Undo and disputes over REST (DESIGN §5; rules in ``cgledger/domain/undo.py``), on
SQLite and PostgreSQL (the ``client`` fixture).

A CG I campaign (``kgp``: here the German holds 4 CPP from the Initial
Scenario) is played through the endpoints only: RG purchases (8.619), free and
table rolls, the CG Date handshake (8.6121) and the Secret CPP Replenishment DR
(8.616). Every test checks who may undo what alone, who answers a request,
which events can never be undone, the suffix rule for state events, undo of an
undo, the visibility of a re-roll, idempotent retries, and disputes with their
evidence (proof of the roll, the table re-read, the state before and after).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.sealed import kind_of
from cgledger.projections.evidence import table_recheck

pytestmark = pytest.mark.shared_app

#: The German's CPP from the Initial Scenario: two F1, or one I1.
START = 4
KGP = {"ruleset": "kgp", "campaign": "CG I", "title": "undo", "initial_cpp": {"German": START}}
#: Prices on the sample German RG chart (8.6194); F1 has no CG Date or CG maximum.
F1_CPP = 2
I1_CPP = 4
REASON = "misclick: wrong RG"
HEX = frozenset("0123456789abcdef")


@pytest.fixture
def kgp(client: TestClient) -> Game:
    """A CG I campaign whose German holds ``START`` CPP (conftest's holds 2,
    one purchase's worth; these tests buy twice)."""
    return Game(client, KGP)


# ---------------------------------------------------------------------------- helpers


def undo(
    game: Game,
    role: str,
    seqs: list[int] | None = None,
    *,
    to_seq: int | None = None,
    reason: str = REASON,
    **headers: str,
) -> Any:
    body: dict[str, Any] = {"reason": reason}
    if seqs is not None:
        body["seqs"] = seqs
    if to_seq is not None:
        body["to_seq"] = to_seq
    return game.post(role, "/undo-requests", body, **headers)


def approve(game: Game, role: str, rid: int, **headers: str) -> Any:
    return game.post(role, f"/undo-requests/{rid}/approve", None, **headers)


def reject(game: Game, role: str, rid: int, note: str | None = None) -> Any:
    return game.post(role, f"/undo-requests/{rid}/reject", None if note is None else {"note": note})


def buy(
    game: Game,
    side: str = "German",
    rg: str = "F1",
    *,
    secret: bool = True,
    role: str | None = None,
) -> int:
    """An RG of the sample chart for Map Group Sx (8.6195), at the chart's price."""
    body = {"side": side, "rg": rg, "map_group": "Sx", "secret": secret}
    seq: int = created(game.post(role or side, "/rg-purchases", body))["seq"]
    return seq


def free_roll(game: Game, role: str, *, secret: bool = False) -> dict[str, Any]:
    body = {"dice": 2, "purpose": "Sniper attack", "secret": secret}
    return created(game.post(role, "/rolls", body))


def events(game: Game, role: str = "referee") -> dict[int, dict[str, Any]]:
    r = game.client.get(f"{game.url}/events", params={"limit": 1000}, headers=game.h(role))
    body = ok(r)
    assert body["next_after"] is None
    items = {e["seq"]: e for e in body["items"]}
    assert list(items) == list(range(1, body["version"] + 1)), "gaps in the log"
    return items


def german(game: Game, role: str = "German") -> dict[str, Any]:
    """The German CG Roster line of the current CG Date, as ``role`` sees it."""
    line: dict[str, Any] = ok(game.get(role, "/roster?side=German"))["lines"][-1]
    return line


def refused(game: Game, status: int, send: Callable[[], Any]) -> dict[str, Any]:
    """The request is refused with ``status`` and appends nothing."""
    before = game.version()
    body = assert_problem(send(), status)
    assert game.version() == before, "a refused request appended"
    return body


def request_view(game: Game, rid: int, role: str = "referee") -> dict[str, Any]:
    return ok(game.get(role, f"/undo-requests/{rid}"))


def assert_applied(body: dict[str, Any], *, by: str, approved_by: str, at_once: bool) -> None:
    assert body["status"] == "applied", body
    assert body["by"] == by
    u = body["undo"]
    assert u is not None
    assert (u["approved_by"], u["at_once"], u["reverted_by"]) == (approved_by, at_once, None)
    assert body["answer"]["seq"] == u["seq"]
    assert body["answer"]["by"] == approved_by


def assert_pending(game: Game, body: dict[str, Any], *, by: str) -> None:
    assert (body["status"], body["by"], body["undo"], body["answer"]) == (
        "pending",
        by,
        None,
        None,
    ), body
    assert body["id"] == body["version"], "a pending request is its UndoRequested event"
    assert body["id"] in ok(game.get("US", "/state"))["pending_undo_requests"]
    for seq in body["seqs"]:
        assert events(game)[seq]["reverted_by"] is None


def begin_19_pm(game: Game) -> None:
    """8.6121: the Initial Scenario ends, both sides are ready, and the CG Date
    becomes 19 PM."""
    game.end_scenario()
    created(game.post("US", "/cg-dates", {}))
    assert created(game.post("German", "/cg-dates", {}))["cg_date"] == "19 PM"


# ---------------------------------------------------------------------------- who may undo alone


@pytest.mark.parametrize("secret", [True, False], ids=["secret", "public"])
def test_own_latest_purchase_is_undone_at_once(kgp: Game, secret: bool) -> None:
    seq = buy(kgp, secret=secret)
    assert (german(kgp)["spent"], german(kgp)["left"]) == (F1_CPP, START - F1_CPP)
    r = undo(kgp, "German", [seq])
    body = created(r)
    assert_applied(body, by="German", approved_by="German", at_once=True)
    assert (body["seqs"], body["to_seq"], body["reason"]) == ([seq], None, REASON)
    assert body["undo"]["reverts"] == [seq]
    assert (body["undo"]["restores"], body["undo"]["rolls"]) == ([], [])
    rid, useq = body["id"], body["undo"]["seq"]
    assert r.headers["Location"] == f"{kgp.url}/undo-requests/{rid}"
    assert useq == body["version"] == kgp.version() == rid + 1
    # The Roster is rebuilt from the events still in force: the CPP are back.
    line = german(kgp)
    assert (line["rg_purchased"], line["spent"], line["left"]) == ([], 0, START)
    assert (german(kgp, "referee")["left"], german(kgp, "US")["left"]) == (START, START)
    # Undo never deletes: the purchase stays in the log, marked as reverted. A
    # secret one is a sealed record (DESIGN §2a): its owner and the referee read
    # the purchase in it, the US only that something was sealed.
    for role in ("US", "German", "referee"):
        log = events(kgp, role)
        assert log[seq]["type"] == ("RecordSealed" if secret else "RGPurchased")
        if secret and role == "US":
            assert log[seq]["secret"] is None
        else:
            assert kind_of(log[seq]) == "RGPurchased"
        assert log[seq]["reverted_by"] == useq
        assert (log[rid]["type"], log[useq]["type"]) == ("UndoRequested", "UndoApplied")
        assert all(e["reverted_by"] is None for s, e in log.items() if s != seq)
    applied = ok(kgp.get("US", f"/undo-requests/{rid}"))
    assert applied == {k: v for k, v in body.items() if k != "checkpoint"}
    listed = ok(kgp.get("US", "/undo-requests?status=applied"))["items"]
    assert [i["id"] for i in listed] == [rid]
    assert ok(kgp.get("US", "/undo-requests?status=pending"))["items"] == []
    state = ok(kgp.get("US", "/state"))
    assert state["reverted"] == [{"seq": seq, "by_undo": useq}]
    assert state["pending_undo_requests"] == []
    # The CPP can be spent again: all of them, on an I1.
    assert I1_CPP == START
    buy(kgp, rg="I1")
    assert german(kgp)["left"] == 0


@pytest.mark.parametrize("later", ["US roll", "US dispute"])
def test_own_purchase_with_an_opponent_event_after_it_is_pending(kgp: Game, later: str) -> None:
    seq = buy(kgp)
    if later == "US roll":
        free_roll(kgp, "US")
    else:
        created(kgp.post("US", "/disputes", {"seq": seq, "claim": "was that allowed?"}))
    body = created(undo(kgp, "German", [seq]))
    assert_pending(kgp, body, by="German")
    assert german(kgp)["left"] == START - F1_CPP
    # The opponent approves it.
    done = ok(approve(kgp, "US", body["id"]))
    assert_applied(done, by="German", approved_by="US", at_once=False)
    assert done["undo"]["reverts"] == [seq]
    assert german(kgp)["left"] == START
    assert events(kgp)[seq]["reverted_by"] == done["undo"]["seq"]


@pytest.mark.parametrize("secret", [False, True], ids=["public", "secret"])
def test_own_roll_is_never_undone_alone(kgp: Game, secret: bool) -> None:
    """DESIGN §5: a roll was seen (or will be), so undoing it needs the opponent."""
    rolled = free_roll(kgp, "German", secret=secret)
    body = created(undo(kgp, "German", [rolled["seq"]]))
    assert_pending(kgp, body, by="German")
    done = ok(approve(kgp, "US", body["id"]))
    assert_applied(done, by="German", approved_by="US", at_once=False)
    assert (done["undo"]["reverts"], done["undo"]["rolls"]) == ([rolled["seq"]], [rolled["index"]])
    view = ok(kgp.get("German", f"/rolls/{rolled['index']}"))
    assert (view["index"], view["reverted_by"]) == (rolled["index"], done["undo"]["seq"])


def test_own_table_roll_is_never_undone_alone(kgp_reph: Game) -> None:
    rolled = created(kgp_reph.post("US", "/tables/kgp:8.606-infantry/rolls", {}))
    assert_pending(kgp_reph, created(undo(kgp_reph, "US", [rolled["seq"]])), by="US")


def test_the_opponents_event_is_pending(kgp: Game) -> None:
    seq = buy(kgp)
    body = created(undo(kgp, "US", [seq], reason="8.6196: F1 not available"))
    assert_pending(kgp, body, by="US")
    assert german(kgp, "referee")["left"] == START - F1_CPP
    # The German is the opponent of the requester: it approves.
    done = ok(approve(kgp, "German", body["id"]))
    assert_applied(done, by="US", approved_by="German", at_once=False)
    assert german(kgp)["left"] == START


def test_a_referee_request_is_applied_at_once(kgp: Game) -> None:
    seq = buy(kgp)
    rolled = free_roll(kgp, "US")
    body = created(undo(kgp, "referee", [rolled["seq"]]))
    assert_applied(body, by="referee", approved_by="referee", at_once=True)
    assert (body["undo"]["reverts"], body["undo"]["rolls"]) == ([rolled["seq"]], [rolled["index"]])
    body = created(undo(kgp, "referee", [seq]))
    assert_applied(body, by="referee", approved_by="referee", at_once=True)
    assert body["undo"]["reverts"] == [seq]
    assert german(kgp)["left"] == START


def test_a_referee_purchase_undone_by_its_side_is_pending(kgp: Game) -> None:
    """The side did not make it, so it cannot take it back alone."""
    seq = buy(kgp, role="referee")
    assert events(kgp)[seq]["actor"] == "referee"
    body = created(undo(kgp, "German", [seq]))
    assert_pending(kgp, body, by="German")
    done = ok(approve(kgp, "referee", body["id"]))
    assert_applied(done, by="German", approved_by="referee", at_once=False)
    assert german(kgp)["left"] == START


# ---------------------------------------------------------------------------- approve and reject


def pending_roll_undo(game: Game) -> tuple[int, dict[str, Any]]:
    rolled = free_roll(game, "German")
    body = created(undo(game, "German", [rolled["seq"]]))
    assert body["status"] == "pending"
    return int(body["id"]), rolled


@pytest.mark.store
@pytest.mark.parametrize("approver", ["US", "referee"])
def test_approve(kgp: Game, client: TestClient, approver: str) -> None:
    rid, rolled = pending_roll_undo(kgp)
    problem = refused(kgp, 403, lambda: approve(kgp, "German", rid))
    assert "own undo request" in problem["detail"]
    for headers in ({}, {"Authorization": "Bearer cgl_nope"}, {"Authorization": "Bearer "}):
        url = f"{kgp.url}/undo-requests/{rid}/approve"
        refused(kgp, 401, lambda url=url, headers=headers: client.post(url, headers=headers))
    refused(kgp, 404, lambda: approve(kgp, approver, 999))
    refused(kgp, 404, lambda: approve(kgp, approver, rolled["seq"]))  # a seq, not a request
    refused(kgp, 404, lambda: kgp.get(approver, "/undo-requests/999"))
    r = approve(kgp, approver, rid)
    done = ok(r)
    assert_applied(done, by="German", approved_by=approver, at_once=False)
    assert done["id"] == rid
    assert done["version"] == kgp.version() == done["undo"]["seq"]
    assert events(kgp)[done["undo"]["seq"]]["payload"]["request"] == rid
    for role in ("US", "referee", "German"):
        problem = refused(kgp, 409, lambda role=role: approve(kgp, role, rid))
        assert "already applied" in problem["detail"]
    refused(kgp, 409, lambda: reject(kgp, "US", rid, "too late"))
    assert request_view(kgp, rid, "US") == {k: v for k, v in done.items() if k != "checkpoint"}


def test_approve_rechecks_the_undo(kgp: Game) -> None:
    """An approval applies the undo as the log is then: an event reverted since
    the request, or a state event built on it since, makes it refuse."""
    rid, rolled = pending_roll_undo(kgp)
    created(undo(kgp, "referee", [rolled["seq"]]))
    problem = refused(kgp, 409, lambda: approve(kgp, "US", rid))
    assert f"event {rolled['seq']} was reverted" in problem["detail"]
    assert request_view(kgp, rid)["status"] == "pending"
    seq = buy(kgp)
    free_roll(kgp, "US")
    rid = created(undo(kgp, "German", [seq]))["id"]
    later = buy(kgp)
    problem = refused(kgp, 409, lambda: approve(kgp, "US", rid))
    assert f"events {later} were built on it" in problem["detail"]
    assert german(kgp)["left"] == 0
    assert ok(reject(kgp, "German", rid))["status"] == "withdrawn"


@pytest.mark.parametrize(
    ("role", "status"), [("US", "rejected"), ("referee", "rejected"), ("German", "withdrawn")]
)
def test_reject_and_withdraw(kgp: Game, role: str, status: str) -> None:
    rid, rolled = pending_roll_undo(kgp)
    body = ok(reject(kgp, role, rid, "the roll stands"))
    assert (body["status"], body["undo"]) == (status, None)
    assert body["answer"] == {"seq": kgp.version(), "by": role, "note": "the roll stands"}
    log = events(kgp)
    assert log[kgp.version()]["type"] == "UndoRejected"
    assert log[rolled["seq"]]["reverted_by"] is None
    for who in ("US", "referee"):
        refused(kgp, 409, lambda who=who: approve(kgp, who, rid))
    refused(kgp, 409, lambda: reject(kgp, "US", rid))
    assert ok(kgp.get("US", "/state"))["pending_undo_requests"] == []
    assert [i["id"] for i in ok(kgp.get("US", f"/undo-requests?status={status}"))["items"]] == [rid]
    # The requester may ask again.
    again = created(undo(kgp, "German", [rolled["seq"]]))
    assert again["status"] == "pending"


def test_reject_without_a_note(kgp: Game) -> None:
    rid, _ = pending_roll_undo(kgp)
    body = ok(reject(kgp, "US", rid))
    assert body["answer"]["note"] is None
    assert body["status"] == "rejected"


def test_no_token_works_across_campaigns(kgp: Game, client: TestClient) -> None:
    other = Game(client, KGP)
    rid, rolled = pending_roll_undo(kgp)
    theirs = pending_roll_undo(other)[0]
    body = {"seqs": [rolled["seq"]], "reason": REASON}
    for role in ("US", "German", "referee"):
        h = other.h(role)
        for path in (f"/undo-requests/{rid}/approve", f"/undo-requests/{rid}/reject"):
            refused(kgp, 401, lambda path=path, h=h: client.post(kgp.url + path, headers=h))
        refused(kgp, 401, lambda h=h: client.post(f"{kgp.url}/undo-requests", json=body, headers=h))
        assert_problem(client.get(f"{kgp.url}/undo-requests/{rid}", headers=h), 401)
    assert request_view(kgp, rid)["status"] == "pending"
    assert request_view(other, theirs)["status"] == "pending"


# ---------------------------------------------------------------------------- not revertible


@pytest.fixture
def logbook(kgp: Game) -> Game:
    """One event of every kind that cannot be undone."""
    rolled = created(kgp.post("German", "/tables/kgp:8.6201/rolls", {}))  # RecordSealed
    ok(kgp.post("German", f"/rolls/{rolled['roll']['index']}/reveal"))  # SecretRevealed
    rid = created(undo(kgp, "German", [rolled["seq"]]))["id"]  # UndoRequested
    ok(reject(kgp, "US", rid, "no"))  # UndoRejected
    did = created(kgp.post("US", "/disputes", {"seq": rolled["seq"], "claim": "?"}))["id"]
    ok(kgp.post("German", f"/disputes/{did}/resolve", {"decision": "uphold", "note": "fine"}))
    # A sealed roll carries its table's definition in its secret part (DESIGN
    # §2a); a public table roll (8.606, after the scenario's end) defines it.
    kgp.end_scenario()
    created(kgp.post("US", "/tables/kgp:8.606-infantry/rolls", {}))  # TableDefined
    return kgp


NOT_REVERTIBLE = {
    "CampaignCreated": "creation",
    "CommitmentsPublished": "commitments",
    "TableDefined": "table definition",
    "SecretRevealed": "revealed secret",
    "UndoRequested": "approve or reject",
    "UndoRejected": "rejected",
    "DisputeFiled": "resolving",
    "DisputeResolved": "resolved",
}


@pytest.mark.parametrize("kind", list(NOT_REVERTIBLE))
def test_events_that_cannot_be_undone(logbook: Game, kind: str) -> None:
    seqs = [s for s, e in events(logbook).items() if e["type"] == kind]
    assert seqs, kind
    if kind == "CampaignCreated":
        assert seqs == [1]
    seq = seqs[0]
    for role in ("German", "US", "referee"):
        problem = refused(logbook, 409, lambda role=role: undo(logbook, role, [seq]))
        detail = problem["detail"]
        assert f"event {seq} ({kind}) cannot be undone" in detail, detail
        assert NOT_REVERTIBLE[kind] in detail, detail
    # Nor as a dispute's revert.
    did = created(logbook.post("US", "/disputes", {"seq": seq, "claim": "undo this"}))["id"]
    resolve = {"decision": "revert", "note": "revert it"}
    refused(logbook, 409, lambda: logbook.post("referee", f"/disputes/{did}/resolve", resolve))


def test_already_reverted_unknown_and_malformed(kgp: Game) -> None:
    seq = buy(kgp)
    useq = created(undo(kgp, "German", [seq]))["undo"]["seq"]
    for role in ("German", "referee"):
        problem = refused(kgp, 409, lambda role=role: undo(kgp, role, [seq]))
        assert "already reverted" in problem["detail"]
        assert str(useq) in problem["detail"]
    v = kgp.version()
    for bad in (0, v + 1, 10**6):
        refused(kgp, 404, lambda bad=bad: undo(kgp, "referee", [bad]))
    bodies: list[dict[str, Any]] = [
        {"reason": REASON},
        {"seqs": [seq], "to_seq": 0, "reason": REASON},
        {"seqs": [], "reason": REASON},
        {"seqs": [seq]},
        {"seqs": [seq], "reason": ""},
        {"seqs": [seq], "reason": "   "},
        {"seqs": [seq], "reason": "x" * 501},
        {"seqs": ["3"], "reason": REASON},
        {"seqs": [seq, seq], "reason": REASON},
        {"to_seq": -1, "reason": REASON},
        {"to_seq": v, "reason": REASON},
        {"seqs": [seq], "reason": REASON, "note": "extra"},
    ]
    for body in bodies:
        refused(kgp, 422, lambda body=body: kgp.post("referee", "/undo-requests", body))
    # to_seq with nothing revertible in force after it (only a dispute).
    created(kgp.post("US", "/disputes", {"seq": seq, "claim": "?"}))
    problem = refused(kgp, 409, lambda: undo(kgp, "referee", to_seq=v))
    assert f"nothing after seq {v}" in problem["detail"]


# ---------------------------------------------------------------------------- the suffix rule


@pytest.fixture
def two_buys(kgp: Game) -> tuple[Game, int, int]:
    a = buy(kgp)
    b = buy(kgp)
    assert german(kgp)["left"] == START - 2 * F1_CPP == 0
    return kgp, a, b


def test_a_state_event_cannot_be_undone_under_a_later_one(two_buys: tuple[Game, int, int]) -> None:
    game, a, b = two_buys
    for role in ("German", "US", "referee"):
        problem = refused(game, 409, lambda role=role: undo(game, role, [a]))
        assert f"events {b} were built on it" in problem["detail"], problem["detail"]
        assert f"to_seq {a - 1}" in problem["detail"]
    assert german(game)["left"] == 0


def test_undo_of_a_suffix_by_its_side_is_pending(two_buys: tuple[Game, int, int]) -> None:
    game, a, b = two_buys
    body = created(undo(game, "German", [a, b]))
    assert_pending(game, body, by="German")
    done = ok(approve(game, "US", body["id"]))
    assert done["undo"]["reverts"] == [a, b]
    assert (german(game)["left"], german(game)["rg_purchased"]) == (START, [])


def test_undo_of_a_suffix_by_the_referee_is_applied(two_buys: tuple[Game, int, int]) -> None:
    game, a, b = two_buys
    body = created(undo(game, "referee", [b, a]))
    assert body["seqs"] == [a, b]
    assert_applied(body, by="referee", approved_by="referee", at_once=True)
    assert body["undo"]["reverts"] == [a, b]
    assert german(game)["left"] == START


@pytest.mark.store
def test_undo_to_seq(two_buys: tuple[Game, int, int]) -> None:
    game, a, b = two_buys
    # Everything after b - 1 is b alone: the German's own latest, applied at once.
    body = created(undo(game, "German", to_seq=b - 1))
    assert (body["seqs"], body["to_seq"]) == ([b], b - 1)
    assert_applied(body, by="German", approved_by="German", at_once=True)
    assert german(game)["left"] == START - F1_CPP
    buy(game)
    # Everything after a - 1: a and the new purchase (b is reverted already),
    # plus the undo in between; more than one event, so pending.
    body = created(undo(game, "German", to_seq=a - 1))
    assert body["seqs"][0] == a
    assert b not in body["seqs"]
    assert_pending(game, body, by="German")
    done = ok(approve(game, "US", body["id"]))
    assert a in done["undo"]["reverts"]
    line = german(game)
    assert (line["left"], line["rg_purchased"]) == (START, [])


# ---------------------------------------------------------------------------- undo of an undo


@pytest.mark.store
def test_undo_of_an_undo_restores_and_can_be_undone(kgp: Game) -> None:
    seq = buy(kgp)
    u1 = created(undo(kgp, "German", [seq]))["undo"]["seq"]
    assert german(kgp)["left"] == START
    # Reverting the undo puts the purchase back (the German's own latest action).
    second = created(undo(kgp, "German", [u1], reason="I did mean to buy it"))
    assert_applied(second, by="German", approved_by="German", at_once=True)
    u2 = second["undo"]["seq"]
    assert (second["undo"]["reverts"], second["undo"]["restores"]) == ([u1], [seq])
    line = german(kgp)
    assert (line["left"], [p["seq"] for p in line["rg_purchased"]]) == (START - F1_CPP, [seq])
    log = events(kgp)
    assert (log[seq]["reverted_by"], log[u1]["reverted_by"]) == (None, u2)
    assert ok(kgp.get("US", "/state"))["reverted"] == [{"seq": u1, "by_undo": u2}]
    # And that undo can itself be undone: the purchase is reverted again, and
    # the first undo (which the second had reverted) is back in force.
    third = created(undo(kgp, "German", [u2], reason="no, undo it after all"))
    assert third["status"] == "applied"
    u3 = third["undo"]["seq"]
    assert german(kgp)["left"] == START
    log = events(kgp)
    assert log[u2]["reverted_by"] == u3
    assert log[seq]["reverted_by"] is not None
    assert log[u1]["reverted_by"] is None, "reverting undo u2 must restore what u2 reverted"


def test_reverting_an_undo_under_a_later_state_event_is_refused(kgp: Game) -> None:
    seq = buy(kgp)
    u1 = created(undo(kgp, "German", [seq]))["undo"]["seq"]
    later = buy(kgp, rg="I1")  # all the CPP
    for role in ("German", "referee"):
        problem = refused(kgp, 409, lambda role=role: undo(kgp, role, [u1]))
        assert f"events {later} were built on it" in problem["detail"], problem["detail"]
    assert german(kgp)["left"] == 0
    # Naming the later purchase too is allowed (a suffix): the referee applies it.
    body = created(undo(kgp, "referee", [u1, later]))
    assert body["undo"]["restores"] == [seq]
    line = german(kgp)
    assert (line["left"], [p["seq"] for p in line["rg_purchased"]]) == (START - F1_CPP, [seq])


def test_an_undo_of_an_undo_that_touched_a_roll_is_pending(kgp: Game) -> None:
    rolled = free_roll(kgp, "German")
    u1 = created(undo(kgp, "referee", [rolled["seq"]]))["undo"]["seq"]
    body = created(undo(kgp, "referee", [u1]))
    assert body["undo"]["restores"] == [rolled["seq"]]
    assert events(kgp)[rolled["seq"]]["reverted_by"] is None
    # The German's own undo of a roll undo needs the opponent.
    rid, rolled = pending_roll_undo(kgp)
    u = ok(approve(kgp, "US", rid))["undo"]["seq"]
    assert_pending(kgp, created(undo(kgp, "German", [u])), by="German")


# ---------------------------------------------------------------------------- re-rolls


@pytest.mark.store
def test_a_re_roll_after_an_undo_is_visible(kgp: Game) -> None:
    """8.616: the Secret CPP Replenishment DR, undone and made again, takes
    the next roll index; the undone roll keeps its own (DESIGN §2, §5)."""
    begin_19_pm(kgp)
    first = created(kgp.post("German", "/cpp-replenishments", {}))
    seq, old = first["seq"], first["roll"]["index"]
    repl = first["event"]["secret"]["repl"]
    assert german(kgp)["repl"] == repl
    body = created(undo(kgp, "German", [seq], reason="rolled before the US was ready"))
    assert_pending(kgp, body, by="German")
    done = ok(approve(kgp, "US", body["id"]))
    u = done["undo"]["seq"]
    assert (done["undo"]["reverts"], done["undo"]["rolls"]) == ([seq], [old])
    line = german(kgp)
    assert (line["cg_date"], line["repl"]) == ("19 PM", None)
    again = created(kgp.post("German", "/cpp-replenishments", {}))
    new = again["roll"]
    assert new["index"] == old + 1
    assert new["after_undo"] == {"undo": u, "rolls": [old]}
    for role in ("US", "German", "referee"):
        old_view = ok(kgp.get(role, f"/rolls/{old}"))
        assert (old_view["index"], old_view["seq"], old_view["reverted_by"]) == (old, seq, u)
        new_view = ok(kgp.get(role, f"/rolls/{new['index']}"))
        assert new_view["after_undo"] == {"undo": u, "rolls": [old]}
        assert new_view["reverted_by"] is None
        assert events(kgp, role)[again["seq"]]["payload"]["roll"]["after_undo"] == {
            "undo": u,
            "rolls": [old],
        }
    assert german(kgp)["repl"] == again["event"]["secret"]["repl"]
    # Only the first roll after the undo says so.
    later = free_roll(kgp, "German")
    assert later["after_undo"] is None
    # Both replenishment DRs were rolled: statistics count both (or leave the undone one out).
    stats = ok(kgp.get("referee", "/dice-stats?table=kgp:8.616"))
    assert (stats["rolls"], stats["reverted"], stats["DR"]["count"]) == (2, 1, 2)
    stats = ok(kgp.get("referee", "/dice-stats?table=kgp:8.616&reverted=false"))
    assert (stats["rolls"], stats["reverted"], stats["DR"]["count"]) == (1, 0, 1)
    # The US may not see either Secret DR, nor which of the German's sealed
    # records they are (DESIGN §2a: no table in the public part): every German
    # sealed roll counts as hidden, whatever the table asked for.
    sealed = [
        s
        for s, e in events(kgp, "US").items()
        if e["type"] == "RecordSealed"
        and e["payload"]["owner"] == "German"
        and "roll" in e["payload"]
    ]
    assert {seq, again["seq"]} <= set(sealed)
    stats = ok(kgp.get("US", "/dice-stats?table=kgp:8.616"))
    assert (stats["rolls"], stats["hidden"]) == (0, len(sealed))
    assert ok(kgp.get("referee", "/dice-stats?table=kgp:8.616"))["hidden"] == 0


def test_no_re_roll_is_claimed_once_the_undo_is_undone(kgp: Game) -> None:
    """After the undo of a roll is itself reverted, the roll is in force again:
    the next roll is no re-roll of it, and must not say it follows that undo."""
    rolled = free_roll(kgp, "German")
    u1 = created(undo(kgp, "referee", [rolled["seq"]]))["undo"]["seq"]
    u2 = created(undo(kgp, "referee", [u1]))["undo"]
    assert u2["restores"] == [rolled["seq"]]
    assert ok(kgp.get("US", f"/rolls/{rolled['index']}"))["reverted_by"] is None
    nxt = free_roll(kgp, "German")
    assert nxt["index"] == rolled["index"] + 1
    assert nxt["after_undo"] is None, nxt["after_undo"]


# ---------------------------------------------------------------------------- retries and If-Match


def test_refused_answers_append_nothing(kgp: Game) -> None:
    rid, _ = pending_roll_undo(kgp)
    refused(kgp, 403, lambda: approve(kgp, "German", rid))
    refused(kgp, 404, lambda: approve(kgp, "US", rid + 50))
    refused(kgp, 404, lambda: reject(kgp, "US", rid + 50))
    refused(kgp, 422, lambda: kgp.post("US", f"/undo-requests/{rid}/reject", {"note": ""}))
    refused(kgp, 409, lambda: undo(kgp, "German", [2]))
    assert request_view(kgp, rid)["status"] == "pending"


@pytest.mark.store
def test_idempotent_undo_request_retry(kgp: Game) -> None:
    seq = buy(kgp)
    free_roll(kgp, "US")
    key = {"Idempotency-Key": "undo-1"}
    first = undo(kgp, "German", [seq], **key)
    body = created(first)
    assert body["status"] == "pending"
    v = kgp.version()
    again = undo(kgp, "German", [seq], **key)
    assert again.status_code == 201, again.text
    assert again.json() == body
    assert again.headers["Idempotent-Replayed"] == "true"
    assert kgp.version() == v
    # Still the first answer after the request was approved.
    done = ok(approve(kgp, "US", body["id"], **{"Idempotency-Key": "ok-1"}))
    v = kgp.version()
    assert ok(approve(kgp, "US", body["id"], **{"Idempotency-Key": "ok-1"})) == done
    assert created(undo(kgp, "German", [seq], **key)) == body
    assert kgp.version() == v
    # The same key for another body is refused.
    refused(kgp, 422, lambda: undo(kgp, "German", [seq], reason="other", **key))


@pytest.mark.store
def test_idempotent_retry_of_an_undo_applied_at_once(kgp: Game) -> None:
    seq = buy(kgp)
    key = {"Idempotency-Key": "undo-now"}
    body = created(undo(kgp, "German", [seq], **key))
    assert body["status"] == "applied"
    v = kgp.version()
    free_roll(kgp, "US")
    again = undo(kgp, "German", [seq], **key)
    assert (again.status_code, again.json()) == (201, body)
    assert json.loads(again.headers["Cgledger-Checkpoint"]) == body["checkpoint"]
    assert body["checkpoint"]["seq"] == v
    assert kgp.version() == v + 1


@pytest.mark.store
def test_if_match(kgp: Game) -> None:
    seq = buy(kgp)
    v = kgp.version()
    for stale in (f'"{v - 1}"', f'"{v + 1}"', f'W/"{v}"'):
        refused(kgp, 409, lambda stale=stale: undo(kgp, "German", [seq], **{"If-Match": stale}))
    body = created(undo(kgp, "German", [seq], **{"If-Match": f'"{v}"'}))
    assert body["status"] == "applied"
    rid, _ = pending_roll_undo(kgp)
    v = kgp.version()
    refused(kgp, 409, lambda: approve(kgp, "US", rid, **{"If-Match": f'"{v - 1}"'}))
    assert ok(approve(kgp, "US", rid, **{"If-Match": f'"{v}"'}))["status"] == "applied"


# ---------------------------------------------------------------------------- disputes


def dispute(game: Game, role: str, seq: int, claim: str = "that is not what happened") -> Any:
    return game.post(role, "/disputes", {"seq": seq, "claim": claim})


def resolve(game: Game, role: str, did: int, decision: str, note: str = "decided") -> Any:
    return game.post(role, f"/disputes/{did}/resolve", {"decision": decision, "note": note})


@pytest.mark.store
def test_a_dispute_holds_its_evidence(kgp: Game) -> None:
    seq = buy(kgp)
    r = dispute(kgp, "US", seq, "8.6194: F1 costs more")
    body = created(r)
    did = body["id"]
    assert r.headers["Location"] == f"{kgp.url}/disputes/{did}"
    assert (body["seq"], body["by"], body["claim"]) == (seq, "US", "8.6194: F1 costs more")
    assert (body["status"], body["resolution"], body["version"]) == ("open", None, did)
    ev = body["evidence"]
    assert ev["event"]["seq"] == seq
    assert ev["event"]["type"] == "RecordSealed"  # a secret act (DESIGN §2a)
    assert ev["event"]["secret"] is None  # the US may not see the secret purchase
    assert (ev["proof"], ev["table"]) == (None, None)
    assert ev["state_before"]["at"] == seq - 1
    assert ev["state_after"]["at"] == seq
    before = ev["state_before"]["rosters"]["German"]["lines"][-1]
    after = ev["state_after"]["rosters"]["German"]["lines"][-1]
    assert (before["left"], after["left"]) == (START, None)  # hidden from the US, as live
    assert ok(kgp.get("US", f"/state?at={seq}")) == ev["state_after"]
    assert ok(kgp.get("US", f"/state?at={seq - 1}")) == ev["state_before"]
    # The German (and referee) see the purchase and the numbers.
    own = ok(kgp.get("German", f"/disputes/{did}"))
    assert kind_of(own["evidence"]["event"]) == "RGPurchased"
    bought = own["evidence"]["event"]["secret"]["rgs"]
    assert [(p["rg"], p["cpp"], p["map_group"]) for p in bought] == [("F1", F1_CPP, "Sx")]
    assert own["evidence"]["state_after"]["rosters"]["German"]["lines"][-1]["left"] == (
        START - F1_CPP
    )
    listed = ok(kgp.get("German", "/disputes"))["items"]
    assert [(d["id"], d["status"]) for d in listed] == [(did, "open")]
    assert "evidence" not in listed[0]
    assert ok(kgp.get("US", "/state"))["open_disputes"] == [did]
    # The same role cannot dispute the same event twice while it is open.
    refused(kgp, 409, lambda: dispute(kgp, "US", seq))
    created(dispute(kgp, "referee", seq))
    refused(kgp, 404, lambda: dispute(kgp, "US", kgp.version() + 1))
    refused(kgp, 422, lambda: dispute(kgp, "US", 0))
    refused(kgp, 422, lambda: dispute(kgp, "US", seq, ""))
    refused(kgp, 404, lambda: kgp.get("US", "/disputes/999"))


@pytest.mark.parametrize("resolver", ["German", "referee"])
def test_who_resolves_a_sides_dispute(kgp: Game, resolver: str) -> None:
    seq = buy(kgp)
    did = created(dispute(kgp, "US", seq))["id"]
    problem = refused(kgp, 403, lambda: resolve(kgp, "US", did, "uphold"))
    assert "opponent" in problem["detail"]
    refused(kgp, 422, lambda: resolve(kgp, resolver, did, "maybe"))
    refused(kgp, 422, lambda: resolve(kgp, resolver, did, "uphold", ""))
    refused(kgp, 404, lambda: resolve(kgp, resolver, 999, "uphold"))
    body = ok(resolve(kgp, resolver, did, "uphold", "8.6196 allows it"))
    assert body["status"] == "upheld"
    res = body["resolution"]
    assert (res["by"], res["decision"], res["note"], res["undo"]) == (
        resolver,
        "uphold",
        "8.6196 allows it",
        None,
    )
    assert res["seq"] == kgp.version()
    # Upheld: the event stays in force.
    assert events(kgp)[seq]["reverted_by"] is None
    assert german(kgp)["left"] == START - F1_CPP
    for role in ("German", "referee"):
        problem = refused(kgp, 409, lambda role=role: resolve(kgp, role, did, "revert"))
        assert "already upheld" in problem["detail"]
    refused(kgp, 403, lambda: resolve(kgp, "US", did, "revert"))
    assert ok(kgp.get("US", "/state"))["open_disputes"] == []
    # Once resolved, the US may dispute the event again.
    created(dispute(kgp, "US", seq))


def test_a_referee_dispute_is_resolved_by_the_referee_only(kgp: Game) -> None:
    rolled = free_roll(kgp, "US")
    did = created(dispute(kgp, "referee", rolled["seq"]))["id"]
    for side in ("US", "German"):
        refused(kgp, 403, lambda side=side: resolve(kgp, side, did, "revert"))
    body = ok(resolve(kgp, "referee", did, "revert"))
    assert body["status"] == "reverted"
    u = body["resolution"]["undo"]
    assert events(kgp)[rolled["seq"]]["reverted_by"] == u


@pytest.mark.store
def test_reverting_a_disputed_roll(kgp: Game) -> None:
    rolled = free_roll(kgp, "German")
    did = created(dispute(kgp, "US", rolled["seq"], "rolled out of turn"))["id"]
    body = ok(resolve(kgp, "German", did, "revert", "fair enough"))
    assert body["status"] == "reverted"
    u = body["resolution"]["undo"]
    assert u == did + 1
    assert body["resolution"]["seq"] == u + 1 == kgp.version()
    log = events(kgp, "US")
    p = log[u]["payload"]
    assert (log[u]["type"], p["dispute"], p["request"]) == ("UndoApplied", did, None)
    assert (p["reverts"], p["rolls"], p["by"], p["approved_by"]) == (
        [rolled["seq"]],
        [rolled["index"]],
        "US",
        "German",
    )
    assert log[kgp.version()]["type"] == "DisputeResolved"
    assert log[rolled["seq"]]["reverted_by"] == u
    # A reverted event cannot be reverted again by another dispute.
    did2 = created(dispute(kgp, "referee", rolled["seq"]))["id"]
    refused(kgp, 409, lambda: resolve(kgp, "referee", did2, "revert"))
    assert ok(resolve(kgp, "referee", did2, "uphold"))["status"] == "upheld"


def test_a_dispute_does_not_revert_what_was_built_on_the_event(kgp: Game) -> None:
    """A dispute reverts the one event it is about; later state events built on
    it (here the German's next purchase) belong to an undo request instead, so
    no side loses a later purchase or Secret DR to someone else's dispute."""
    a = buy(kgp)
    rolled = free_roll(kgp, "US")
    b = buy(kgp)
    did = created(dispute(kgp, "US", a, "8.6196"))["id"]
    view = ok(kgp.get("German", f"/disputes/{did}"))
    assert str(b) in view["revert_would"]["refused"]
    version = kgp.version()
    refused(kgp, 409, lambda: resolve(kgp, "referee", did, "revert", "the F1 was gone"))
    assert kgp.version() == version
    # Once the later purchase is undone, the dispute can revert the first one.
    undone = created(kgp.post("German", "/undo-requests", {"seqs": [b], "reason": "F1 too"}))
    assert undone["status"] == "pending"  # the US roll came after it
    undone = ok(kgp.post("US", f"/undo-requests/{undone['id']}/approve"))
    # The undo of b is rewound with it (b stays reverted); nothing comes back.
    would = ok(kgp.get("US", f"/disputes/{did}"))["revert_would"]
    assert would == {"reverts": [a, b, undone["undo"]["seq"]], "restores": []}
    body = ok(resolve(kgp, "referee", did, "revert", "the F1 was gone"))
    u = body["resolution"]["undo"]
    log = events(kgp)
    assert log[u]["payload"]["reverts"] == would["reverts"]
    assert log[b]["reverted_by"] == u
    assert log[u]["payload"]["dispute"] == did
    assert log[a]["reverted_by"] == u
    assert log[rolled["seq"]]["reverted_by"] is None  # a roll is no state
    line = german(kgp)
    assert (line["left"], line["rg_purchased"]) == (START, [])
    assert "revert_would" not in body  # resolved: nothing more to decide


def test_the_evidence_of_a_table_roll(kgp_reph: Game) -> None:
    kgp = kgp_reph  # 8.606 Escape comes after the Initial Scenario's end
    drm = [{"id": "isolated"}, {"id": "hs-equivalent", "count": 2}, {"id": "leader", "value": -1}]
    rolled = created(kgp.post("US", "/tables/kgp:8.606-infantry/rolls", {"drm": drm}))
    seq = rolled["seq"]
    assert sum(d["value"] for d in rolled["drm"]) == 2
    body = created(dispute(kgp, "German", seq, "the +2 for Isolated is wrong"))
    for role in ("German", "US", "referee"):
        ev = ok(kgp.get(role, f"/disputes/{body['id']}"))["evidence"]
        table = ev["table"]
        assert table["visible"] is True
        assert table["table"]["id"] == "kgp:8.606-infantry"
        assert events(kgp)[table["definition_seq"]]["type"] == "TableDefined"
        assert table["matches"] is True
        assert table["mismatches"] == []
        assert table["recomputed"] == table["recorded"]
        assert table["recorded"]["final"] == rolled["final"] == rolled["original"] + 2
        assert table["recorded"]["outcome"] == rolled["outcome"]
        proof = ev["proof"]
        assert proof["server_check"] == {
            "commitment_matches_seed": True,
            "dice_recompute": True,
            "ok": True,
        }
        assert proof["verifiable_by_you"] is True
        assert proof["roll"]["dice"] == rolled["roll"]["dice"]
        assert (ev["state_before"]["at"], ev["state_after"]["at"]) == (seq - 1, seq)


@pytest.mark.store
def test_the_evidence_of_a_secret_table_roll(kgp: Game) -> None:
    rolled = created(kgp.post("German", "/tables/kgp:8.6201/rolls", {"drm": [{"id": "v-or-g"}]}))
    seq, index = rolled["seq"], rolled["roll"]["index"]
    assert rolled["roll"]["secret"] is True
    did = created(dispute(kgp, "US", seq, "show me"))["id"]
    hidden = ok(kgp.get("US", f"/disputes/{did}"))["evidence"]
    # A sealed record names no table (DESIGN §2a): the US is not even told a
    # table roll is there to re-read, let alone how many.
    assert (hidden["table"], hidden["tables"]) == (None, [])
    roll = hidden["proof"]["roll"]
    assert (roll["dice"], roll["seed"], roll["outcome"]) == (None, None, None)
    assert hidden["proof"]["verifiable_by_you"] is False
    assert hidden["proof"]["server_check"]["ok"] is True
    assert hidden["event"]["secret"] is None
    text = json.dumps(hidden)
    own = ok(kgp.get("German", f"/disputes/{did}"))["evidence"]
    assert own["table"]["visible"] is True
    assert own["table"]["matches"] is True
    assert own["table"]["table"]["id"] == "kgp:8.6201"
    assert own["tables"] == [own["table"]]
    seed = own["proof"]["roll"]["seed"]
    assert seed is not None
    assert seed not in text
    assert own["event"]["secret"]["salt"] not in text
    # Revealed: the US gets the full recomputation.
    ok(kgp.post("German", f"/rolls/{index}/reveal"))
    shown = ok(kgp.get("US", f"/disputes/{did}"))["evidence"]
    assert shown["table"]["visible"] is True
    assert shown["table"]["matches"] is True
    assert shown["table"]["recomputed"] == shown["table"]["recorded"]
    assert shown["table"]["recorded"]["final"] == own["table"]["recorded"]["final"]
    assert shown["table"]["recorded"]["drm"][0]["id"] == "v-or-g"
    assert shown["proof"]["roll"]["dice"] == own["proof"]["roll"]["dice"]
    assert shown["proof"]["roll"]["seed"] == seed
    assert shown["proof"]["verifiable_by_you"] is True


@pytest.mark.parametrize(
    ("field", "edit"),
    [
        ("final", lambda v: {**v, "final": v["final"] + 1}),
        ("outcome", lambda v: {**v, "outcome": {**v["outcome"], "text": "Eliminated"}}),
        ("original", lambda v: {**v, "original": v["original"] - 1}),
    ],
)
def test_table_recheck_flags_an_edited_record(
    kgp_reph: Game, field: str, edit: Callable[[dict[str, Any]], dict[str, Any]]
) -> None:
    """A stored record cannot be edited through the API, so the pure re-read is
    fed one whose recorded result was changed."""
    kgp = kgp_reph  # 8.606 Escape comes after the Initial Scenario's end
    drm = [{"id": "isolated"}]
    seq = created(kgp.post("US", "/tables/kgp:8.606-infantry/rolls", {"drm": drm}))["seq"]
    log = events(kgp)
    record = log[seq]
    def_seq = next(s for s, e in log.items() if e["type"] == "TableDefined")
    definition = log[def_seq]["payload"]["definition"]

    def check(rec: dict[str, Any]) -> dict[str, Any]:
        return table_recheck(
            rec, "referee", revealed=False, definition=definition, definition_seq=def_seq
        )

    good = check(record)
    assert (good["matches"], good["mismatches"]) == (True, [])
    forged = copy.deepcopy(record)
    forged["payload"] = edit(forged["payload"])
    bad = check(forged)
    assert bad["matches"] is False
    assert field in bad["mismatches"], bad
    assert bad["recorded"][field] == forged["payload"][field]
    assert bad["recomputed"][field] == record["payload"][field]
    # A Secret roll's edited result is flagged too, for whoever may see it: an
    # 8.620 roll of the next CG Date, after the German's 8.616 replenishment.
    kgp.next_date()
    kgp.replenish()
    secret = created(kgp.post("German", "/tables/kgp:8.6201/rolls", {}))
    log = events(kgp)
    srec = copy.deepcopy(log[secret["seq"]])
    # A sealed roll's table is defined in its own secret part (DESIGN §2a), not
    # by a public TableDefined that would name it.
    assert not any(e["payload"].get("table") == "kgp:8.6201" for e in log.values())
    (sroll,) = srec["secret"]["rolls"]
    sdef = srec["secret"]["tables"][sroll["table"]["hash"]]
    assert sdef["id"] == "kgp:8.6201"

    def recheck(rec: dict[str, Any], viewer: str, roll: dict[str, Any] | None) -> dict[str, Any]:
        return table_recheck(
            rec, viewer, revealed=False, definition=sdef, definition_seq=None, roll=roll
        )

    assert recheck(srec, "German", sroll)["matches"] is True
    edited = {**sroll, "final": sroll["final"] + 3}
    out = recheck(srec, "German", edited)
    assert (out["matches"], "final" in out["mismatches"]) == (False, True)
    # The record's own fields (the act, besides its list of rolls) are re-read too.
    srec["secret"]["final"] += 3
    out = recheck(srec, "German", None)
    assert (out["matches"], "final" in out["mismatches"]) == (False, True)
    for roll in (edited, None):
        hidden = recheck(srec, "US", roll)
        assert hidden["visible"] is False
        assert "mismatches" not in hidden
