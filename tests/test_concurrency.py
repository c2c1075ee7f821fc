"""Idempotency-Key, If-Match and concurrent writers (DESIGN §3 and §6).

* A retry with the same Idempotency-Key returns the first response and
  appends nothing; the same key for a different request (or from another
  role) is refused with 422 and never hands out the first response.
* If-Match: "<version>" appends only on the version the client read; a stale
  version gets 409 and appends nothing.
* Concurrent writers never corrupt a campaign: a lost race is retried from a
  fresh load (so the rules are checked again) or, under If-Match, becomes a
  409. No overspending, no gap in the seqs, no roll index used twice.
* Each lost race is shown lost: a second Ledger on the same database writes
  between a command and its save (``Ledger.before_save``), and
  ``Ledger.races`` counts the refused save and what came of it (a retry that
  keeps both writes, a 409 under If-Match, "too busy" after ``BUSY_SECONDS``).

Every test here runs on SQLite and on PostgreSQL (see ``conftest.py``).
"""

from __future__ import annotations

import itertools
import json
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import kgp_commands as kgpc
import pytest
from conftest import Game, etag_version
from conftest import assert_problem as problem
from fastapi.testclient import TestClient

from cgledger.domain import dice
from cgledger.domain.errors import DomainError, RuleViolation, VersionConflict
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.kgp.rules import RGItem, RGPurchaseCreate
from cgledger.domain.sealed import kind_of, values_of
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.service import Ledger
from cgledger.service.queues import Retry
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

pytestmark = [pytest.mark.store, pytest.mark.shared_app]

THREADS = 8
N = 24
#: Appending requests racing on one campaign. In one process they take turns
#: (DESIGN §6), so none ends in "too busy", and the outcome of every request
#: is decided by the rules alone.
WRITERS = 20


# --------------------------------------------------------------------- helpers


def key() -> str:
    """A fresh Idempotency-Key. Keys must be unique across tests: the PostgreSQL
    database is shared by the whole session, and a campaign created under a key
    takes its id from that key."""
    return f"test-{uuid.uuid4()}"


def created(r: Any) -> dict[str, Any]:
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def events(game: Game) -> list[dict[str, Any]]:
    r = game.client.get(game.url + "/events", params={"limit": 1000}, headers=game.h("referee"))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["next_after"] is None, "more than one page of events"
    items: list[dict[str, Any]] = body["items"]
    return items


def assert_log_sound(game: Game) -> list[dict[str, Any]]:
    """Seqs 1..version without a gap, a chained log, and a verifiable export."""
    version = game.version()
    items = events(game)
    assert [e["seq"] for e in items] == list(range(1, version + 1))
    for prev, cur in itertools.pairwise(items):
        assert cur["prev_hash"] == prev["hash"]
    r = game.client.get(game.url + "/export", headers=game.h("referee"))
    assert r.status_code == 200, r.text
    report = verify_bytes(r.content)
    assert report.events == version
    return items


def purchases(records: list[dict[str, Any]]) -> list[int]:
    """The seqs of the RG purchases that bought something, as the referee
    reads them: a secret one is a sealed record (DESIGN §2a), and a step's
    empty sealed purchase (bought nothing, DESIGN §4) is none."""
    return [r["seq"] for r in records if kind_of(r) == "RGPurchased" and values_of(r)["rgs"]]


def roster_line(game: Game, side: str, cg_date: str) -> dict[str, Any]:
    r = game.client.get(game.url + "/roster", params={"side": side}, headers=game.h("referee"))
    assert r.status_code == 200, r.text
    (line,) = [x for x in r.json()["lines"] if x["cg_date"] == cg_date]
    return dict(line)


def german_at_19pm(game: Game) -> int:
    """Begin 19 PM (after the Initial Scenario's end), make the German 8.616 DR;
    return the German's total CPP."""
    assert game.next_date()["cg_date"] == "19 PM"
    created(game.post("German", "/cpp-replenishments", {}))
    line = roster_line(game, "German", "19 PM")
    assert line["start"] == 2
    assert line["total"] == line["start"] + line["repl"]
    total: int = line["total"]
    return total


def fire(n: int, call: Callable[[int], Any], threads: int = THREADS) -> list[Any]:
    """Run ``call(i)`` for i in range(n) from ``threads`` threads, released together."""
    gate = threading.Barrier(min(threads, n))

    def run(i: int) -> Any:
        if i < threads:
            gate.wait(timeout=30)
        return call(i)

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(run, range(n)))


ROLL = {"dice": 2, "purpose": "Random Event DR", "client_nonce": "n-1"}
#: A German purchase of the sample RG chart with neither a CG Date nor a CG
#: maximum (8.6195, 8.6196): only the CPP left limit how many are bought (8.619).
F1 = {"rg": "F1", "map_group": "Sx"}
#: Its price on the chart (8.6194).
F1_CPP = 2


# --------------------------------------------------------------- Idempotency-Key


def test_roll_retry_with_same_key_is_replayed(kgp: Game) -> None:
    k = key()
    read = kgp.version()
    first = kgp.post("German", "/rolls", ROLL, **{"Idempotency-Key": k, "If-Match": f'"{read}"'})
    a = created(first)
    assert "Idempotent-Replayed" not in first.headers
    version = kgp.version()

    # the retry carries the same headers; its If-Match is stale by now
    again = kgp.post("German", "/rolls", ROLL, **{"Idempotency-Key": k, "If-Match": f'"{read}"'})
    b = created(again)
    assert again.headers.get("Idempotent-Replayed") == "true"
    for field in ("index", "commitment", "dice", "seed", "seq", "side", "purpose", "client_nonce"):
        assert b[field] == a[field], field
    assert kgp.version() == version
    assert [e["type"] for e in events(kgp)].count("DiceRolled") == 1

    # the retry is still the first response after other writes
    created(kgp.post("German", "/rolls", {**ROLL, "client_nonce": "n-2"}))
    version = kgp.version()
    late = kgp.post("German", "/rolls", ROLL, **{"Idempotency-Key": k})
    assert created(late)["index"] == a["index"]
    assert late.headers.get("Idempotent-Replayed") == "true"
    assert kgp.version() == version


def test_secret_roll_retry_is_replayed(kgp: Game) -> None:
    k = key()
    body = {**ROLL, "secret": True}
    a = created(kgp.post("German", "/rolls", body, **{"Idempotency-Key": k}))
    version = kgp.version()
    b = created(kgp.post("German", "/rolls", body, **{"Idempotency-Key": k}))
    assert b == a
    assert a["dice"] is not None
    assert a["secret"] is True
    assert kgp.version() == version


@pytest.mark.parametrize(
    "other",
    [
        {**ROLL, "purpose": "Another DR"},
        {**ROLL, "dice": 1},
        {**ROLL, "secret": True},
        {**ROLL, "client_nonce": "n-9"},
    ],
    ids=["purpose", "dice", "secret", "nonce"],
)
def test_same_key_different_body_is_refused(kgp: Game, other: dict[str, Any]) -> None:
    k = key()
    created(kgp.post("German", "/rolls", ROLL, **{"Idempotency-Key": k}))
    version = kgp.version()
    body = problem(kgp.post("German", "/rolls", other, **{"Idempotency-Key": k}), 422)
    assert body.get("field") == "Idempotency-Key" or "Idempotency-Key" in body["detail"]
    assert kgp.version() == version


def test_same_key_on_another_endpoint_is_refused(kgp: Game) -> None:
    k = key()
    created(kgp.post("German", "/rolls", ROLL, **{"Idempotency-Key": k}))
    version = kgp.version()
    r = kgp.post("German", "/rg-purchases", F1, **{"Idempotency-Key": k})
    body = problem(r, 422)
    assert body.get("field") == "Idempotency-Key" or "Idempotency-Key" in body["detail"]
    assert kgp.version() == version
    created(kgp.post("German", "/rg-purchases", F1, **{"Idempotency-Key": key()}))


@pytest.mark.parametrize("secret", [False, True], ids=["public", "secret"])
def test_keys_are_scoped_to_the_role(kgp: Game, secret: bool) -> None:
    """Another role's Idempotency-Key is simply unknown: the US neither gets the
    German's response back nor learns that the German used that key (a 422
    here would let a side probe the other side's keys)."""
    k = key()
    body = {**ROLL, "secret": secret}
    german = created(kgp.post("German", "/rolls", body, **{"Idempotency-Key": k}))
    version = kgp.version()
    r = kgp.post("US", "/rolls", body, **{"Idempotency-Key": k})
    us = created(r)
    assert "Idempotent-Replayed" not in r.headers
    assert us["index"] == german["index"] + 1
    assert german["commitment"] not in r.text
    assert kgp.version() > version
    # a stale If-Match cannot tell a known key from an unknown one either
    stale = {"Idempotency-Key": key(), "If-Match": '"1"'}
    assert problem(kgp.post("US", "/rolls", body, **stale), 409)["type"].endswith("conflict")
    # and the referee's use of the key is its own request too
    ref = created(kgp.post("referee", "/rolls", body, **{"Idempotency-Key": k}))
    assert ref["index"] == us["index"] + 1


def test_rule_endpoint_retry_is_replayed_not_refused(kgp: Game) -> None:
    """8.616 allows one DR a date: a retry of that DR is the same DR, not a second one."""
    assert kgp.next_date()["cg_date"] == "19 PM"
    k = key()
    a = created(kgp.post("German", "/cpp-replenishments", {}, **{"Idempotency-Key": k}))
    version = kgp.version()
    again = kgp.post("German", "/cpp-replenishments", {}, **{"Idempotency-Key": k})
    b = created(again)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert b == a
    assert kgp.version() == version
    # without the key it is a second DR, which 8.616 refuses
    assert problem(kgp.post("German", "/cpp-replenishments", {}), 409)["rule"] == "8.616"


def test_cg_date_retry_returns_the_first_response(kgp: Game) -> None:
    """The retry of "begin 19 PM" is answered with the response that began 19 PM,
    even after the campaign has moved on to 19 N."""
    k = key()
    kgp.finish_date()  # the Initial Scenario ends: a new CG Date may begin
    first = created(kgp.post("referee", "/cg-dates", {}, **{"Idempotency-Key": k}))
    assert first["cg_date"] == "19 PM"
    created(kgp.post("US", "/cpp-replenishments", {}))
    created(kgp.post("German", "/cpp-replenishments", {}))
    assert kgp.next_date()["cg_date"] == "19 N"
    version = kgp.version()

    again = kgp.post("referee", "/cg-dates", {}, **{"Idempotency-Key": k})
    retry = created(again)
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert kgp.version() == version  # nothing appended: this part holds
    assert retry["seq"] == first["seq"]
    assert retry["cg_date"] == first["cg_date"] == "19 PM", retry
    assert retry["version"] == first["version"], retry


def test_create_campaign_retry_after_writes_returns_the_first_response(client: TestClient) -> None:
    k = key()
    first = created(client.post("/v1/campaigns", json=CREATE, headers={"Idempotency-Key": k}))
    auth = {"Authorization": f"Bearer {first['tokens']['referee']}"}
    url = f"/v1/campaigns/{first['id']}"
    # writes: the Initial Scenario is played to its end and 19 PM begins
    for side in ("US", "German"):
        r = client.post(url + "/reph/advance", json={"to": "scenario", "side": side}, headers=auth)
        assert r.status_code == 201, r.text
    end = {"cvp": {"US": 0, "German": 0}}
    assert client.post(url + "/scenario-end", json=end, headers=auth).status_code == 201
    r = client.post(url + "/cg-dates", json={}, headers=auth)
    assert r.status_code == 201, r.text
    assert r.json()["cg_date"] == "19 PM"
    r = client.post("/v1/campaigns", json=CREATE, headers={"Idempotency-Key": k})
    assert r.status_code == 201, r.text
    again = r.json()
    assert again["id"] == first["id"]
    assert again["tokens"] is None  # shown once, never re-issued
    assert again["cg_date"] == first["cg_date"] == "19 AM", again
    assert again["version"] == first["version"], again


def test_concurrent_retries_with_one_key_append_once(kgp: Game) -> None:
    k = key()
    version = kgp.version()
    results = fire(N // 2, lambda _: kgp.post("German", "/rolls", ROLL, **{"Idempotency-Key": k}))
    bodies = [created(r) for r in results]
    assert len({(b["index"], b["commitment"], tuple(b["dice"])) for b in bodies}) == 1
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in results) == len(results) - 1
    assert [e["type"] for e in events(kgp)].count("DiceRolled") == 1
    assert kgp.version() == version + 1
    assert_log_sound(kgp)


CREATE = {"ruleset": "kgp", "campaign": "CG I", "title": "idem", "initial_cpp": {"German": 2}}


def test_create_campaign_retry_with_same_key(client: TestClient) -> None:
    k = key()
    first = client.post("/v1/campaigns", json=CREATE, headers={"Idempotency-Key": k})
    a = created(first)
    assert "Idempotent-Replayed" not in first.headers
    again = client.post("/v1/campaigns", json=CREATE, headers={"Idempotency-Key": k})
    assert again.status_code == 201, again.text  # as the first answered
    b = again.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert b["id"] == a["id"]
    # Whoever repeats a key must not gain the tokens: they are shown only once.
    assert b["tokens"] is None
    assert "only in the first response" in b["tokens_note"]
    for token in a["tokens"].values():
        assert token not in again.text
    assert b["version"] == a["version"]
    for role, token in a["tokens"].items():
        r = client.get(f"/v1/campaigns/{a['id']}", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        assert r.json()["you"] == role
        assert r.json()["version"] == a["version"]

    for other in ({**CREATE, "title": "other"}, {**CREATE, "campaign": "CG II"}):
        body = problem(
            client.post("/v1/campaigns", json=other, headers={"Idempotency-Key": k}), 422
        )
        assert "tokens" not in body
        assert a["tokens"]["referee"] not in json_text(body)
    r = client.get(
        f"/v1/campaigns/{a['id']}", headers={"Authorization": f"Bearer {a['tokens']['referee']}"}
    )
    assert r.json()["version"] == a["version"]
    assert r.json()["title"] == "idem"


def json_text(body: Any) -> str:
    return json.dumps(body)


def test_create_campaign_without_key_makes_new_campaigns(client: TestClient) -> None:
    a = created(client.post("/v1/campaigns", json=CREATE))
    b = created(client.post("/v1/campaigns", json=CREATE))
    assert a["id"] != b["id"]
    assert a["tokens"] != b["tokens"]


def test_concurrent_create_with_one_key(client: TestClient) -> None:
    k = key()
    results = fire(
        THREADS, lambda _: client.post("/v1/campaigns", json=CREATE, headers={"Idempotency-Key": k})
    )
    assert [r.status_code for r in results] == [201] * THREADS
    assert sum(r.headers.get("Idempotent-Replayed") == "true" for r in results) == THREADS - 1
    bodies = [r.json() for r in results]
    assert len({b["id"] for b in bodies}) == 1
    assert sum(b["tokens"] is not None for b in bodies) == 1


# ------------------------------------------------------------------- If-Match


def test_etag_is_the_quoted_version(kgp: Game) -> None:
    r = kgp.get("German")
    assert r.status_code == 200
    assert etag_version(r) == r.json()["version"]
    posted = kgp.post("German", "/rolls", ROLL)
    created(posted)
    assert etag_version(posted) == kgp.version()
    r = kgp.get("US")
    assert etag_version(r) == r.json()["version"]


def test_if_match_current_version(kgp: Game) -> None:
    version = kgp.version()
    r = kgp.post("German", "/rolls", ROLL, **{"If-Match": f'"{version}"'})
    created(r)
    assert kgp.version() > version
    # RFC 9110: If-Match compares strongly, so a weak validator never matches
    version = kgp.version()
    problem(kgp.post("German", "/rolls", ROLL, **{"If-Match": f'W/"{version}"'}), 409)
    assert kgp.version() == version


def test_if_match_stale_version(kgp: Game) -> None:
    stale = kgp.version()
    created(kgp.post("US", "/rolls", ROLL))
    version = kgp.version()
    before = events(kgp)
    for path, body in (
        ("/rolls", ROLL),
        ("/cg-dates", {}),
        ("/rg-purchases", F1),
    ):
        r = kgp.post("German", path, body, **{"If-Match": f'"{stale}"'})
        refusal = problem(r, 409)
        assert str(stale) in refusal["detail"], refusal
    assert kgp.version() == version
    assert events(kgp) == before
    # a version from the future is just as stale
    problem(kgp.post("German", "/rolls", ROLL, **{"If-Match": f'"{version + 5}"'}), 409)
    assert kgp.version() == version


def test_if_match_must_be_a_version(kgp: Game) -> None:
    version = kgp.version()
    body = problem(kgp.post("German", "/rolls", ROLL, **{"If-Match": '"abc"'}), 422)
    assert body.get("field") == "If-Match" or "If-Match" in body["detail"]
    assert kgp.version() == version


# --------------------------------------------------------- concurrent writers


def _purchase_results(results: list[Any]) -> tuple[int, list[dict[str, Any]]]:
    successes = 0
    refusals = []
    for r in results:
        if r.status_code == 201:
            successes += 1
        else:
            refusals.append(problem(r, 409))
    return successes, refusals


def test_concurrent_rg_purchases_never_overspend(kgp: Game) -> None:
    total = german_at_19pm(kgp)
    assert total // F1_CPP < N  # the CPP run out before the requests do
    results = fire(N, lambda _: kgp.post("German", "/rg-purchases", F1))
    successes, refusals = _purchase_results(results)
    for refusal in refusals:
        assert refusal.get("rule") == "8.619", refusal
        assert refusal["detail"].startswith("8.619:"), refusal
    assert successes == min(N, total // F1_CPP)

    line = roster_line(kgp, "German", "19 PM")
    assert line["left"] == total - F1_CPP * successes >= 0
    assert line["spent"] == F1_CPP * successes
    assert len(line["rg_purchased"]) == successes
    items = assert_log_sound(kgp)
    seqs = sorted(r.json()["seq"] for r in results if r.status_code == 201)
    assert len(set(seqs)) == successes
    assert purchases(items) == seqs


def test_concurrent_rg_purchases_never_pass_the_cg_date_maximum(kgp: Game) -> None:
    """8.6195: racing purchases of one RG are each checked against the ones
    that won before them: no more than the CG Date maximum per Map Group."""
    german_at_19pm(kgp)

    def buy(i: int) -> Any:
        return kgp.post("German", "/rg-purchases", {"rg": "I1", "map_group": ("Sx", "Sy")[i % 2]})

    results = fire(N, buy)
    successes = [r for r in results if r.status_code == 201]
    for r in results:
        if r.status_code != 201:
            refusal = problem(r, 409)
            assert refusal.get("rule") == "8.6195", refusal
            assert refusal["detail"].startswith("8.6195: CG Date maximum for I1 (2)"), refusal
    line = roster_line(kgp, "German", "19 PM")
    bought = [p for p in line["rg_purchased"] if p["rg"] == "I1"]
    assert len(bought) == len(successes)
    # The sample chart: German I1, 2 per CG Date per Map Group, 5 in the CG.
    record = kgp.get("referee", "/rg-record?side=German").json()["rows"]
    groups = Counter(row["map_group"] for row in record if row["rg"] == "I1")
    assert groups == {"Sx": 2, "Sy": 2}, groups
    assert len(successes) == 4
    assert_log_sound(kgp)


def test_concurrent_rg_purchases_with_if_match(kgp: Game) -> None:
    total = german_at_19pm(kgp)
    version = kgp.version()
    results = fire(
        N,
        lambda _: kgp.post("German", "/rg-purchases", F1, **{"If-Match": f'"{version}"'}),
    )
    successes, refusals = _purchase_results(results)
    assert successes == 1
    assert len(refusals) == N - 1
    for refusal in refusals:
        assert refusal["type"].endswith("version-conflict"), refusal
    assert kgp.version() == version + 1
    line = roster_line(kgp, "German", "19 PM")
    assert line["left"] == total - F1_CPP
    items = assert_log_sound(kgp)
    assert purchases(items) == [r.json()["seq"] for r in results if r.status_code == 201]


def test_concurrent_rolls_use_every_index_once(kgp: Game) -> None:
    version = kgp.version()
    n = WRITERS
    results = fire(n, lambda i: kgp.post("US" if i % 2 else "German", "/rolls", ROLL))
    bodies = [created(r) for r in results]
    indices = sorted(b["index"] for b in bodies)
    assert indices == list(range(n))
    assert len({b["seq"] for b in bodies}) == n
    items = assert_log_sound(kgp)
    assert kgp.version() >= version + n
    rolled = [e for e in items if e["type"] == "DiceRolled"]
    assert [e["payload"]["roll"]["index"] for e in rolled] == list(range(n))


def test_concurrent_mixed_writers(kgp: Game) -> None:
    """Purchases, recon and rolls of both sides racing: every rule still holds."""
    total = german_at_19pm(kgp)
    created(kgp.post("US", "/cpp-replenishments", {}))
    us_total = roster_line(kgp, "US", "19 PM")["total"]

    # The US buys I1 (5 CPP on the sample chart), two for each Map Group: within
    # its CG Date maximum (8.6195), so only its CPP left can refuse one.
    us_cpp = 5

    def call(i: int) -> Any:
        kind = i % 4
        if kind == 0:
            return kgp.post("German", "/rg-purchases", F1)
        if kind == 1:
            body = {"rg": "I1", "map_group": "Sx" if i % 8 == 1 else "Sy"}
            return kgp.post("US", "/rg-purchases", body)
        if kind == 2:
            return kgp.post("German" if i % 8 == 2 else "US", "/rolls", ROLL)
        return kgp.post("referee", "/rolls", ROLL)

    n = 16  # at most 16 appending requests: see WRITERS
    results = fire(n, call)
    for r in results:
        if r.status_code != 201:
            assert problem(r, 409).get("rule") == "8.619", r.text
    german = sum(r.status_code == 201 for r in results[0::4])
    us = sum(r.status_code == 201 for r in results[1::4])
    assert german == min(n // 4, total // F1_CPP)
    assert us == min(n // 4, us_total // us_cpp)
    assert all(r.status_code == 201 for i, r in enumerate(results) if i % 4 in (2, 3))
    assert roster_line(kgp, "German", "19 PM")["left"] == total - F1_CPP * german
    assert roster_line(kgp, "US", "19 PM")["left"] == us_total - us_cpp * us
    items = assert_log_sound(kgp)
    indices = [e["payload"]["roll"]["index"] for e in items if "roll" in e["payload"]]
    assert indices == list(range(len(indices)))


# ------------------------------------------------------------- ledger level


def _ledger_campaign(ledger: Ledger) -> str:
    made = ledger.create_campaign(
        ruleset="kgp",
        campaign="CG I",
        title="ledger",
        start_date=None,
        initial_cpp={"German": 2},
        idempotency_key=None,
        request_fingerprint="create",
    )
    cid = made.campaign.cid
    # the Initial Scenario is played to its end (8.6121), then 19 PM begins
    for side in ("US", "German"):
        ledger.execute(
            cid,
            REFEREE,
            lambda c, ctx, side=side: c.advance(ctx, side, "scenario"),
            operation="reph-advance",
            body={"to": "scenario", "side": side},
        )
    ledger.execute(
        cid,
        REFEREE,
        lambda c, ctx: c.end_scenario(ctx, {"cvp": {"US": 0, "German": 0}}),
        operation="scenario-end",
        body={},
    )
    ledger.execute(
        cid, REFEREE, lambda c, ctx: c.begin_cg_date(ctx, None), operation="cg-date", body={}
    )
    assert ledger.load(cid).cg_date == "19 PM"
    ledger.execute(
        cid,
        "German",
        lambda c, ctx: kgpc.replenish_cpp(c, ctx, "German", None),
        operation="cpp-replenishment",
        body={},
    )
    return cid


def _verify_ledger(ledger: Ledger, cid: str) -> list[dict[str, Any]]:
    campaign = ledger.load(cid)
    records = ledger.records(campaign)
    assert [r["seq"] for r in records] == list(range(1, campaign.version + 1))
    data = export_jsonl(
        {"campaign": cid, "ruleset": "kgp", "campaign_name": "CG I", "exported_at": "now"},
        records,
        REFEREE,
        campaign.is_revealed,
    )
    assert verify_bytes(data).events == campaign.version
    return records


def _buyer(ledger: Ledger, cid: str, if_match: int | None = None) -> Callable[[int], Any]:
    """A German secret purchase of F1 (``F1_CPP``); returns the result or the refusal."""
    body = RGPurchaseCreate(side="German", rgs=[RGItem(**F1, cpp=F1_CPP)], secret=True)

    def buy(i: int) -> Any:
        try:
            return ledger.execute(
                cid,
                "German",
                lambda c, ctx: c.perform(ctx, "rg-purchases", body),
                operation="rg-purchase",
                body={"i": i},
                if_match=if_match,
            )
        except DomainError as exc:
            return exc

    return buy


def test_ledger_concurrent_purchases(ledger: Ledger) -> None:
    cid = _ledger_campaign(ledger)
    total = cppbook.total(ledger.load(cid).rules["cpp"]["German"][-1])
    results = fire(N, _buyer(ledger, cid))
    failures = [r for r in results if isinstance(r, DomainError)]
    for exc in failures:
        assert isinstance(exc, RuleViolation), repr(exc)
        assert exc.rule == "8.619"
    successes = N - len(failures)
    assert total // F1_CPP < N  # the CPP run out before the requests do
    assert successes == min(N, total // F1_CPP)
    line = ledger.load(cid).rules["cpp"]["German"][-1]
    assert cppbook.left(line) == total - F1_CPP * successes >= 0
    records = _verify_ledger(ledger, cid)
    assert purchases(records) == sorted(r.seq for r in results if not isinstance(r, DomainError))
    assert len(purchases(records)) == successes


def test_ledger_concurrent_purchases_if_match(ledger: Ledger) -> None:
    cid = _ledger_campaign(ledger)
    version = ledger.load(cid).version
    results = fire(N, _buyer(ledger, cid, if_match=version))
    failures = [r for r in results if isinstance(r, DomainError)]
    assert len(failures) == N - 1
    assert all(isinstance(exc, VersionConflict) for exc in failures), failures
    assert ledger.load(cid).version == version + 1
    records = _verify_ledger(ledger, cid)
    assert purchases(records) == [r.seq for r in results if not isinstance(r, DomainError)]


def test_ledger_concurrent_rolls_cross_a_commitment_batch(ledger: Ledger) -> None:
    """Rolls race past the point (LOW_WATER) where a new batch of commitments is
    published: every index is used once, in order, under an earlier commitment."""
    cid = _ledger_campaign(ledger)
    while ledger.load(cid).roll_count < dice.BATCH_SIZE - dice.LOW_WATER - WRITERS // 2:
        ledger.execute(
            cid,
            "US",
            lambda c, ctx: c.roll(ctx, count=1, purpose="warm-up", secret=False, client_nonce=None),
            operation="roll",
            body={},
        )
    start = ledger.load(cid).roll_count
    n = WRITERS
    assert start < dice.BATCH_SIZE - dice.LOW_WATER < start + n

    def roll(i: int) -> Any:
        return ledger.execute(
            cid,
            "German" if i % 2 else "US",
            lambda c, ctx: c.roll(
                ctx, count=2, purpose=f"roll {i}", secret=i % 3 == 0, client_nonce=None
            ),
            operation="roll",
            body={"i": i},
        )

    done = fire(n, roll)
    assert len({d.seq for d in done}) == n
    campaign = ledger.load(cid)
    assert campaign.roll_count == start + n
    records = _verify_ledger(ledger, cid)
    indices = [r["payload"]["roll"]["index"] for r in records if "roll" in r["payload"]]
    assert indices == list(range(start + n))
    assert campaign.committed == 2 * dice.BATCH_SIZE
    published = [r for r in records if r["type"] == "CommitmentsPublished"]
    assert [r["payload"]["first_index"] for r in published] == [0, dice.BATCH_SIZE]


# ------------------------------------------- serialized without If-Match


def test_32_clients_on_one_campaign_all_succeed_without_if_match(kgp: Game) -> None:
    """DESIGN §6: without If-Match nobody is refused: 32 clients, 96 rolls."""

    def roll(i: int) -> Any:
        return kgp.post("US" if i % 2 else "German", "/rolls", {"dice": 2, "purpose": f"{i}"})

    results = fire(96, roll, threads=32)
    assert [r.status_code for r in results] == [201] * 96, {r.status_code for r in results}
    assert sorted(r.json()["index"] for r in results) == list(range(96))


def test_two_ledgers_on_one_database_both_succeed_under_contention(settings: Settings) -> None:
    """Two servers (workers) on one database race for real; the loser re-runs
    its command on the new state, and nobody is refused."""
    first, second = Ledger(settings), Ledger(settings)
    try:
        cid = _ledger_campaign(first)
        second.load(cid)

        def roll(i: int) -> int:
            led = first if i % 2 else second
            done = led.execute(
                cid,
                "US",
                lambda c, ctx: c.roll(
                    ctx, count=2, purpose=f"r{i}", secret=False, client_nonce=None
                ),
                operation="roll",
                body={"i": i},
            )
            return done.seq

        seqs = fire(40, roll, threads=8)
        assert len(set(seqs)) == 40
        assert second.load(cid).roll_count == first.load(cid).roll_count
    finally:
        first.close()
        second.close()


def test_a_campaign_queue_is_dropped_when_idle(ledger: Ledger) -> None:
    cid = _ledger_campaign(ledger)
    fire(
        8,
        lambda i: ledger.execute(
            cid,
            "US",
            lambda c, ctx: c.roll(ctx, count=1, purpose="q", secret=False, client_nonce=None),
            operation="roll",
            body={"i": i},
        ),
    )
    assert ledger._queues._turns == {}


# ------------------------------------------------------------------ lost races
#
# Two Ledgers on one database are two servers (or workers). ``before_save``
# runs between a command and its save, so the other server's write lands in
# between deterministically: the first save is refused by the store's
# optimistic concurrency, and ``Ledger.races`` counts how the loser handled it.


def _roll(purpose: str) -> Callable[[Any, Any], int]:
    return lambda c, ctx: c.roll(ctx, count=2, purpose=purpose, secret=False, client_nonce=None)


def _purposes(ledger: Ledger, cid: str) -> list[str]:
    records = ledger.records(ledger.load(cid))
    return [r["payload"]["roll"]["purpose"] for r in records if r["type"] == "DiceRolled"]


def _two_servers(settings: Settings) -> tuple[Ledger, Ledger, str]:
    first, second = Ledger(settings), Ledger(settings)
    made = first.create_campaign(
        ruleset="kgp",
        campaign="CG I",
        title="race",
        start_date=None,
        initial_cpp=None,
        idempotency_key=None,
        request_fingerprint="create",
    )
    return first, second, made.campaign.cid


def _hook(ledger: Ledger, other: Ledger, cid: str, times: int | None = 1) -> list[int]:
    about_to_write: list[int] = []

    def hook(campaign: Any) -> None:
        about_to_write.append(campaign.version)
        if times is None or len(about_to_write) <= times:
            other.execute(
                cid, "German", _roll(f"B{len(about_to_write)}"), operation="roll", body={}
            )

    ledger.before_save = hook
    return about_to_write


def test_a_lost_race_is_retried_and_both_writes_are_kept(settings: Settings) -> None:
    """Server A loads the campaign and runs its command; server B appends
    before A saves. A's save is refused (it would have written the same
    version), A re-runs the command on the new state and saves after B's."""
    a, b, cid = _two_servers(settings)
    try:
        start = a.load(cid).version
        about_to_write = _hook(a, b, cid)
        done = a.execute(cid, "US", _roll("A"), operation="roll", body={})
        # the first attempt would have written start + 1, which B took; the retry wrote after it
        assert about_to_write == [start + 1, start + 2]
        assert (a.races.lost, a.races.retried, a.races.conflicts, a.races.busy) == (1, 1, 0, 0)
        assert b.races.lost == 0
        assert done.seq == start + 2
        assert not done.replayed
        assert _purposes(a, cid) == ["B1", "A"]
        assert _purposes(b, cid) == ["B1", "A"]
        records = _verify_ledger(a, cid)
        assert [r["actor"] for r in records[-2:]] == ["German", "US"]
        assert [r["payload"]["roll"]["index"] for r in records[-2:]] == [0, 1]
    finally:
        a.close()
        b.close()


def test_a_lost_race_re_checks_the_rules_on_the_new_state(settings: Settings) -> None:
    """A's purchase fitted the CPP it loaded; B's purchase, saved first, spent
    them. A's retry is refused by 8.619 on the new state, and appends nothing."""
    a = Ledger(settings)
    b = Ledger(settings)
    try:
        cid = _ledger_campaign(a)
        total = cppbook.total(a.load(cid).rules["cpp"]["German"][-1])
        buy_b = _buyer(b, cid)
        for i in range(total // F1_CPP - 1):  # B leaves the German CPP for one more F1
            assert not isinstance(buy_b(i), DomainError)
        bought = total // F1_CPP - 1
        about_to_write: list[int] = []

        def hook(campaign: Any) -> None:
            about_to_write.append(campaign.version)
            assert not isinstance(buy_b(99), DomainError)  # B buys the last F1 first

        a.before_save = hook
        refused = _buyer(a, cid)(0)
        assert isinstance(refused, RuleViolation), refused
        assert refused.rule == "8.619"
        assert len(about_to_write) == 1  # the retry was refused before it could save
        assert (a.races.lost, a.races.retried) == (1, 1)
        line = a.load(cid).rules["cpp"]["German"][-1]
        assert cppbook.left(line) == total - F1_CPP * (bought + 1) < F1_CPP
        records = _verify_ledger(a, cid)
        assert len(purchases(records)) == bought + 1
    finally:
        a.close()
        b.close()


def test_if_match_loses_a_race_to_a_concurrent_write(settings: Settings) -> None:
    """If-Match names the version A loaded, which was current when A checked
    it; B's write lands before A saves, so A's save is refused: a 409, never a
    retry, and nothing of A's is appended."""
    a, b, cid = _two_servers(settings)
    try:
        version = a.load(cid).version
        about_to_write = _hook(a, b, cid)
        with pytest.raises(VersionConflict, match=f"won the race after version {version}"):
            a.execute(cid, "US", _roll("A"), operation="roll", body={}, if_match=version)
        assert about_to_write == [version + 1]  # one attempt, checked against If-Match
        assert (a.races.lost, a.races.conflicts, a.races.retried) == (1, 1, 0)
        assert a.load(cid).version == version + 1
        assert _purposes(a, cid) == ["B1"]
        _verify_ledger(a, cid)
    finally:
        a.close()
        b.close()


def test_too_busy_when_other_servers_keep_winning(settings: Settings) -> None:
    """B wins every race; A backs off and retries until ``busy_seconds`` pass
    on its clock, then gives up with the documented 409 (docs/scaling.md) and
    appends nothing. The clock moves 10 s per reading, so 30 s pass on the
    fourth lost race."""
    a, b, cid = _two_servers(settings)
    try:
        start = a.load(cid).version
        about_to_write = _hook(a, b, cid, times=None)
        now = iter(range(0, 1000, 10))
        slept: list[float] = []
        a.retry = Retry(busy_seconds=30, clock=lambda: float(next(now)), sleep=slept.append)
        with pytest.raises(VersionConflict, match="too busy") as refused:
            a.execute(cid, "US", _roll("A"), operation="roll", body={})
        assert refused.value.status == 409
        assert about_to_write == [start + 1, start + 2, start + 3, start + 4]
        assert (a.races.lost, a.races.retried, a.races.busy) == (4, 3, 1)
        assert len(slept) == 3
        assert all(0 <= s <= 0.05 for s in slept), slept
        assert _purposes(a, cid) == ["B1", "B2", "B3", "B4"]
        _verify_ledger(a, cid)
    finally:
        a.close()
        b.close()


def test_over_http_a_lost_race_is_a_409_only_under_if_match(
    settings: Settings, client: TestClient
) -> None:
    """The same races through the API: without If-Match the loser retries and
    answers 201; with If-Match it answers 409 and appends nothing; when other
    servers keep winning it answers 409 "too busy" and appends nothing."""
    game = Game(client, {"ruleset": "kgp", "campaign": "CG I", "title": "race"})
    a: Ledger = client.app.state.ledger  # type: ignore[attr-defined]
    b = Ledger(settings)
    # The module's tests share one app, so its race counts start where the
    # earlier tests left them.
    start = (a.races.lost, a.races.conflicts, a.races.retried, a.races.busy)
    try:
        about_to_write = _hook(a, b, game.id)
        version = game.version()
        r = game.post("US", "/rolls", ROLL, **{"If-Match": f'"{version}"'})
        body = problem(r, 409)
        assert body["type"] == "urn:cgledger:problem:version-conflict"
        assert f"won the race after version {version}" in body["detail"]
        assert about_to_write == [version + 1]
        assert game.version() == version + 1  # B's roll only
        assert [e["actor"] for e in events(game)[version:]] == ["German"]

        about_to_write = _hook(a, b, game.id)
        version = game.version()
        roll = created(game.post("US", "/rolls", ROLL))
        assert about_to_write == [version + 1, version + 2]
        assert roll["seq"] == version + 2
        assert [e["actor"] for e in events(game)[version:]] == ["German", "US"]

        about_to_write = _hook(a, b, game.id, times=None)
        now = iter(range(0, 1000, 10))
        a.retry = Retry(busy_seconds=30, clock=lambda: float(next(now)), sleep=lambda _: None)
        version = game.version()
        body = problem(game.post("US", "/rolls", ROLL), 409)
        assert body["type"] == "urn:cgledger:problem:version-conflict"
        assert "too busy" in body["detail"]
        assert game.version() == version + 4
        assert [e["actor"] for e in events(game)[version:]] == ["German"] * 4
        counts = (a.races.lost, a.races.conflicts, a.races.retried, a.races.busy)
        assert tuple(n - m for n, m in zip(counts, start, strict=True)) == (6, 1, 4, 1)
        assert_log_sound(game)
    finally:
        a.before_save = None
        b.close()
