"""Audit over REST (DESIGN §3-§5), on SQLite and PostgreSQL: time travel
(``state?at=``, ``roster?at=``), the audit filters of ``GET /events``, request
ids and idempotency hashes in every new record, signed checkpoints
(``cgledger.signing``) with the offline verifier, and the live feed
(Server-Sent Events), including a real server on a local port."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx2 as httpx
import pytest
from conftest import Game, assert_problem, created, kgp_game, ok
from fastapi.testclient import TestClient
from forge import parse, reseal
from live import serving

from cgledger.api.app import create_app
from cgledger.domain.sealed import PUBLIC_KEYS, kind_of
from cgledger.settings import Settings
from cgledger.signing import check_checkpoint
from cgledger.verify import VerificationError, verify_bytes

pytestmark = [pytest.mark.store, pytest.mark.shared_app]

ROLES = ("US", "German", "referee")
HEX64 = re.compile(r"[0-9a-f]{64}")
KGP = {"ruleset": "kgp", "campaign": "CG I", "title": "audit", "initial_cpp": {"German": 2}}
#: A German purchase of the sample RG chart: F1 costs the 2 CPP the German holds
#: (8.6194) and counts per Map Group (8.6195).
F1 = {"rg": "F1", "map_group": "Sx"}

# ---------------------------------------------------------------------------- helpers


def events(game: Game, role: str = "referee", **params: Any) -> list[dict[str, Any]]:
    r = game.client.get(
        f"{game.url}/events", params={"limit": 1000, **params}, headers=game.h(role)
    )
    body = ok(r)
    assert body["next_after"] is None
    items: list[dict[str, Any]] = body["items"]
    return items


def last_event(game: Game) -> dict[str, Any]:
    return events(game)[-1]


def server_key(client: TestClient) -> str:
    body = ok(client.get("/v1/server-key"))
    key: str = body["public_key"]
    return key


def buy(game: Game, rg: str = "F1", *, secret: bool = True) -> dict[str, Any]:
    """A German purchase for Map Group Sx, at the chart's price."""
    body = {"rg": rg, "map_group": "Sx", "secret": secret}
    return created(game.post("German", "/rg-purchases", body))


def free_roll(game: Game, role: str, *, secret: bool = False, **headers: str) -> dict[str, Any]:
    body = {"dice": 2, "purpose": "Sniper attack", "secret": secret}
    return created(game.post(role, "/rolls", body, **headers))


def undo(game: Game, role: str, seqs: list[int], **headers: str) -> Any:
    return game.post(role, "/undo-requests", {"seqs": seqs, "reason": "misclick"}, **headers)


# ---------------------------------------------------------------------------- time travel


def live(game: Game) -> dict[str, Any]:
    """Every answer of the read models now, for every role."""
    out: dict[str, Any] = {}
    for role in ROLES:
        out[f"{role} state"] = ok(game.get(role, "/state"))
        for side in ("German", "US"):
            out[f"{role} roster {side}"] = ok(game.get(role, f"/roster?side={side}"))
    return out


def as_of(game: Game, at: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for role in ROLES:
        out[f"{role} state"] = ok(game.get(role, f"/state?at={at}"))
        for side in ("German", "US"):
            out[f"{role} roster {side}"] = ok(game.get(role, f"/roster?side={side}&at={at}"))
    return out


@pytest.fixture(params=["no snapshots", "snapshot every 3"])
def travel(request: pytest.FixtureRequest, settings: Settings) -> Iterator[Game]:
    """A KGP campaign; with snapshots of the aggregate every 3 events, time
    travel starts from a snapshot (DESIGN §6), so it must give the same answers."""
    interval = 10_000 if request.param == "no snapshots" else 3
    with TestClient(create_app(settings.model_copy(update={"snapshot_interval": interval}))) as c:
        # 4 CPP: two F1 (2 CPP each) on 19 AM.
        yield Game(c, {**KGP, "initial_cpp": {"German": 4}})


def test_state_at_n_is_the_answer_given_live_at_n(travel: Game) -> None:
    kgp = travel
    seen: dict[int, dict[str, Any]] = {kgp.version(): live(kgp)}
    found: dict[str, Any] = {}

    def step(action: Callable[[], Any]) -> None:
        action()
        seen[kgp.version()] = live(kgp)

    step(lambda: found.update(secret_buy=buy(kgp)["seq"]))
    step(lambda: found.update(roll=free_roll(kgp, "US", secret=True)))
    step(lambda: ok(kgp.post("German", f"/events/{found['secret_buy']}/reveal")))
    step(lambda: found.update(public_buy=buy(kgp, secret=False)["seq"]))
    step(lambda: created(undo(kgp, "German", [found["public_buy"]])))
    step(lambda: found.update(rid=created(undo(kgp, "US", [found["roll"]["seq"]]))["id"]))
    step(lambda: ok(kgp.post("German", f"/undo-requests/{found['rid']}/approve")))
    step(kgp.end_scenario)  # 8.6121: a new CG Date begins after CG-Scenario End
    step(lambda: created(kgp.post("US", "/cg-dates", {})))
    step(lambda: created(kgp.post("German", "/cg-dates", {})))
    step(lambda: found.update(repl=created(kgp.post("German", "/cpp-replenishments", {}))))
    step(lambda: created(kgp.post("US", "/disputes", {"seq": found["repl"]["seq"], "claim": "?"})))
    step(lambda: buy(kgp, "HW1"))
    step(lambda: ok(kgp.post("German", f"/events/{found['repl']['seq']}/reveal")))
    version = kgp.version()
    assert len(seen) == 15
    # The live answers really changed along the way (hidden, shown, undone):
    # 4 CPP, 2 left once the secret F1 is revealed, 0 after the public one.
    us_left = [s["US roster German"]["lines"][-1]["left"] for s in seen.values()]
    assert None in us_left
    assert 4 in us_left
    assert 2 in us_left
    assert 0 in us_left
    assert any(s["US state"]["pending_undo_requests"] for s in seen.values())
    assert any(s["US state"]["open_disputes"] for s in seen.values())
    for n, answers in seen.items():
        assert as_of(kgp, n) == answers, f"at={n}"
    for n in range(1, version + 1):
        state = ok(kgp.get("US", f"/state?at={n}"))
        assert (state["at"], state["campaign"]["version"]) == (n, n)
        assert state["campaign"]["head"] == events(kgp)[n - 1]["hash"]
    for path in ("/state?at=", "/roster?side=German&at="):
        for role in ROLES:
            assert_problem(kgp.get(role, f"{path}{version + 1}"), 404)
            assert_problem(kgp.get(role, f"{path}10000"), 404)
            for bad in ("0", "-1", "x", "1.5"):
                assert_problem(kgp.get(role, f"{path}{bad}"), 422)


def test_a_secret_purchase_stays_hidden_as_of_then(kgp: Game) -> None:
    """Time travel never shows what was hidden at the time, even once revealed."""
    seq = buy(kgp)["seq"]
    ok(kgp.post("German", f"/events/{seq}/reveal"))
    then = ok(kgp.get("US", f"/roster?side=German&at={seq}"))["lines"][-1]
    assert (then["left"], then["rg_purchased"]) == (None, [])
    assert "left" in then["hidden"]
    now = ok(kgp.get("US", "/roster?side=German"))["lines"][-1]
    assert (now["left"], [p["rg"] for p in now["rg_purchased"]]) == (0, ["F1"])


# ---------------------------------------------------------------------------- GET /events


@pytest.fixture(scope="module")
def history(module_client: TestClient) -> Game:
    """19 AM and 19 PM, each with a CG scenario played to its end, so that the
    8.606 Escape table (rolled after CG-Scenario End) is rolled on both dates.
    Built once per module (and backend): the tests only read it."""
    kgp = kgp_game(module_client)
    buy(kgp)  # German, secret
    free_roll(kgp, "US")
    created(kgp.post("German", "/tables/kgp:8.6201/rolls", {}))
    kgp.end_scenario()  # the Initial Scenario
    created(kgp.post("US", "/tables/kgp:8.606-infantry/rolls", {"drm": [{"id": "isolated"}]}))
    created(kgp.post("US", "/cg-dates", {}))
    created(kgp.post("German", "/cg-dates", {}))
    created(kgp.post("German", "/cpp-replenishments", {}))
    rolled = free_roll(kgp, "German")
    created(undo(kgp, "referee", [rolled["seq"]]))
    kgp.finish_date(play=True)  # 19 PM's CG scenario, played to its end
    created(kgp.post("US", "/tables/kgp:8.606-infantry/rolls", {}))
    free_roll(kgp, "US")
    return kgp


def table_of(item: dict[str, Any]) -> str | None:
    table = item["payload"].get("table")
    return table.get("id") if isinstance(table, dict) else table


def test_events_filter_by_type(history: Game) -> None:
    everything = events(history, "US")
    want = [e for e in everything if e["type"] in {"RecordSealed", "DiceRolled"}]
    assert {e["type"] for e in want} == {"RecordSealed", "DiceRolled"}
    for params in (
        {"type": ["RecordSealed", "DiceRolled"]},
        {"type": "RecordSealed,DiceRolled"},
        {"type": ["DiceRolled, RecordSealed"]},
    ):
        assert events(history, "US", **params) == want, params
    assert events(history, "US", type="NoSuchEvent") == []
    # The filter reads the public type only (DESIGN §2a): the act a sealed
    # record holds (here the German's secret purchase, which the referee sees)
    # selects nothing, for the opponent nor for the referee.
    sealed = events(history, "referee", type="RecordSealed")
    assert "RGPurchased" in {kind_of(e) for e in sealed}
    for role in ROLES:
        assert events(history, role, type="RGPurchased") == [], role


def test_events_filter_by_actor_table_and_date(history: Game) -> None:
    everything = events(history, "US")
    german = events(history, "US", actor="German")
    assert german == [e for e in everything if e["actor"] == "German"]
    assert {e["type"] for e in german} >= {"RecordSealed", "DiceRolled", "CGDateBegan"}
    # The German's secret purchase, Secret table roll and Secret 8.616 DR are
    # sealed records: the referee's filtered list tells their acts ...
    ref_german = events(history, "referee", actor="German")
    assert [e["seq"] for e in ref_german] == [e["seq"] for e in german]
    assert {kind_of(e) for e in ref_german} >= {"RGPurchased", "TableRolled", "CPPReplenished"}
    # ... while their secret parts stay hidden from the US in a filtered list too.
    sealed = [e for e in german if e["type"] == "RecordSealed"]
    assert sealed
    assert all(e["secret"] is None for e in sealed)
    assert events(history, "US", actor="referee") == [
        e for e in everything if e["actor"] == "referee"
    ]
    escape = [e for e in everything if table_of(e) == "kgp:8.606-infantry"]
    assert [e["type"] for e in escape] == ["TableDefined", "TableRolled", "TableRolled"]
    assert events(history, "US", table="kgp:8.606-infantry") == escape
    assert events(history, "US", table="8.606-infantry") == escape
    # An event other than a table roll that names its table (8.6233a, the
    # Dual Attack setup of 19 PM's Initiative) is found by it too.
    dual = [e["type"] for e in events(history, "US", table="8.6233a")]
    assert dual == ["TableDefined", "InitiativeDetermined"]
    # A sealed roll names no table in public (DESIGN §2a): its table finds
    # nothing, for the opponent nor for the referee.
    for role in ROLES:
        for sealed_table in ("kgp:8.616", "kgp:8.6201"):
            assert events(history, role, table=sealed_table) == [], (role, sealed_table)
    pm = events(history, "US", date="19 PM")
    assert pm == [e for e in everything if e["payload"].get("cg_date") == "19 PM"]
    assert {"RecordSealed", "DiceRolled", "TableRolled"} <= {e["type"] for e in pm}
    assert events(history, "US", date="19PM") == pm
    am = events(history, "US", date="19 AM")
    assert am == [e for e in everything if e["payload"].get("cg_date") == "19 AM"]
    assert not {e["seq"] for e in am} & {e["seq"] for e in pm}
    both = events(history, "US", type="TableRolled", actor="US", date="19 PM")
    assert [e["seq"] for e in both] == [
        e["seq"]
        for e in everything
        if e["type"] == "TableRolled" and e["actor"] == "US" and e["payload"]["cg_date"] == "19 PM"
    ]
    assert len(both) == 1


def test_events_filter_hides_reverted_events(history: Game) -> None:
    everything = events(history, "US")
    for e in everything:
        assert "reverted_by" in e
    reverted = [e for e in everything if e["reverted_by"] is not None]
    assert [e["type"] for e in reverted] == ["DiceRolled"]
    kept = events(history, "US", reverted="false")
    assert kept == [e for e in everything if e["reverted_by"] is None]
    assert len(kept) == len(everything) - 1
    assert events(history, "US", reverted="true") == everything
    rolls = events(history, "US", type="DiceRolled", reverted="false")
    assert reverted[0]["seq"] not in [e["seq"] for e in rolls]
    assert len(rolls) == 2


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"type": "DiceRolled,TableRolled,RecordSealed"},
        {"actor": "US"},
        {"table": "8.606-infantry"},
        {"reverted": "false", "type": "DiceRolled"},
    ],
    ids=["all", "type", "actor", "table", "reverted"],
)
@pytest.mark.parametrize("limit", [1, 2, 3])
def test_events_paging_across_filtered_results(
    history: Game, params: dict[str, str], limit: int
) -> None:
    want = events(history, "US", **params)
    assert want
    got: list[dict[str, Any]] = []
    after = 0
    for _ in range(100):
        body = ok(
            history.client.get(
                f"{history.url}/events",
                params={**params, "after": after, "limit": limit},
                headers=history.h("US"),
            )
        )
        assert len(body["items"]) <= limit
        got.extend(body["items"])
        if body["next_after"] is None:
            break
        assert body["next_after"] > after
        if body["items"]:
            assert body["next_after"] >= body["items"][-1]["seq"]
        after = body["next_after"]
    else:
        pytest.fail("paging did not end")
    assert got == want


# ---------------------------------------------------------------------------- request ids, keys


def appended(game: Game, since: int) -> list[dict[str, Any]]:
    new = [e for e in events(game) if e["seq"] > since]
    assert new
    return new


def test_every_new_event_records_the_request_id(kgp: Game) -> None:
    v = kgp.version()
    # An 8.620 table: before the Initial Scenario only the '†' steps apply.
    r = kgp.post("US", "/tables/kgp:8.6202/rolls", {})
    created(r)
    rid = r.headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", rid)
    new = appended(kgp, v)
    # Rolling in 8.620 completes 8.619, whose purchases the rules make secret:
    # the US gets the empty sealed record of that step first (DESIGN §4).
    assert [e["type"] for e in new] == ["RecordSealed", "TableDefined", "TableRolled"]
    assert (kind_of(new[0]), new[0]["payload"]["step"]) == ("RGPurchased", "8.619")
    assert new[0]["secret"]["rgs"] == []
    assert all(e["meta"]["request_id"] == rid for e in new)
    # Two events of one undo share the request's id, too.
    seq = buy(kgp)["seq"]
    v = kgp.version()
    r = undo(kgp, "German", [seq])
    assert created(r)["status"] == "applied"
    rid = r.headers["X-Request-ID"]
    assert [(e["type"], e["meta"]["request_id"]) for e in appended(kgp, v)] == [
        ("UndoRequested", rid),
        ("UndoApplied", rid),
    ]
    other = kgp.post("US", "/rolls", {"dice": 1, "purpose": "x"}).headers["X-Request-ID"]
    assert other != rid
    # Every response carries one, reads and problems included.
    assert re.fullmatch(r"[0-9a-f]{32}", kgp.get("US").headers["X-Request-ID"])
    bad = kgp.client.post(f"{kgp.url}/undo-requests", json={}, headers=kgp.h("US"))
    assert bad.status_code == 422
    assert re.fullmatch(r"[0-9a-f]{32}", bad.headers["X-Request-ID"])
    # Every record has a meta with both fields (creation included).
    for e in events(kgp):
        assert set(e["meta"]) == {"request_id", "idempotency_key"}
        assert isinstance(e["meta"]["request_id"], str)


@pytest.mark.parametrize("sent", ["buy-F1-for-2", "has space", "a" * 65, "", "ü"])
def test_a_client_request_id_is_never_recorded(kgp: Game, sent: str) -> None:
    """The record is public even on a secret event: a client's words in its
    X-Request-ID ("buy-F1-for-2") must not reach the opponent, so the server
    always draws the id itself."""
    v = kgp.version()
    headers: dict[str, Any] = {**kgp.h("German"), "X-Request-ID": sent.encode()}
    body = {**F1, "secret": True}
    r = kgp.client.post(f"{kgp.url}/rg-purchases", json=body, headers=headers)
    created(r)
    assert r.headers["X-Request-ID"] != sent
    (event,) = appended(kgp, v)
    assert event["meta"]["request_id"] == r.headers["X-Request-ID"]
    if sent:
        assert sent not in kgp.get("US", "/events").text


def test_the_idempotency_key_is_recorded_as_a_hash(kgp: Game) -> None:
    raw = "my-retry-key-0001"
    v = kgp.version()
    free_roll(kgp, "US", **{"Idempotency-Key": raw})
    (us_roll,) = appended(kgp, v)
    hashed = us_roll["meta"]["idempotency_key"]
    assert HEX64.fullmatch(hashed), hashed
    assert raw not in json.dumps(events(kgp))
    assert hashed != hashlib.sha256(raw.encode()).hexdigest()
    # Role-scoped: the German's request with the same key is another key.
    v = kgp.version()
    free_roll(kgp, "German", **{"Idempotency-Key": raw})
    (german_roll,) = appended(kgp, v)
    assert HEX64.fullmatch(german_roll["meta"]["idempotency_key"])
    assert german_roll["meta"]["idempotency_key"] != hashed
    # A retry appends nothing, so nothing new is recorded.
    v = kgp.version()
    free_roll(kgp, "US", **{"Idempotency-Key": raw})
    assert kgp.version() == v
    # Without a key: null.
    free_roll(kgp, "US")
    assert last_event(kgp)["meta"]["idempotency_key"] is None
    assert events(kgp)[0]["meta"]["idempotency_key"] is None
    # Every event of a request with a key carries it.
    seq = buy(kgp)["seq"]
    v = kgp.version()
    created(undo(kgp, "German", [seq], **{"Idempotency-Key": "undo-key"}))
    keys = {e["meta"]["idempotency_key"] for e in appended(kgp, v)}
    assert len(keys) == 1
    assert HEX64.fullmatch(keys.pop() or "")


# ---------------------------------------------------------------------------- checkpoints


def assert_checkpoint(game: Game, r: Any, key: str) -> dict[str, Any]:
    """An appending response: body ``checkpoint`` == header, signed over the new head."""
    body = r.json()
    cp: dict[str, Any] = body["checkpoint"]
    assert json.loads(r.headers["Cgledger-Checkpoint"]) == cp
    head = last_event(game)
    assert (cp["campaign"], cp["seq"], cp["head"], cp["time"]) == (
        game.id,
        game.version(),
        head["hash"],
        head["recorded_at"],
    )
    assert check_checkpoint(cp, server_key=key) == cp
    return cp


def test_the_server_key(client: TestClient) -> None:
    body = ok(client.get("/v1/server-key"))
    assert body["algorithm"] == "Ed25519"
    assert HEX64.fullmatch(body["public_key"])
    assert body["key_id"] == hashlib.sha256(bytes.fromhex(body["public_key"])).hexdigest()[:16]
    assert ok(client.get("/v1/server-key")) == body


def test_every_appending_response_has_a_checkpoint(client: TestClient) -> None:
    key = server_key(client)
    # Creation appends CampaignCreated and the first CommitmentsPublished.
    r = client.post("/v1/campaigns", json=KGP)
    made = created(r)
    cp = made["checkpoint"]
    assert json.loads(r.headers["Cgledger-Checkpoint"]) == cp
    h = {"Authorization": f"Bearer {made['tokens']['US']}"}
    log = ok(client.get(f"/v1/campaigns/{made['id']}/events", headers=h))["items"]
    assert (cp["campaign"], cp["seq"], cp["head"]) == (made["id"], 2, log[-1]["hash"])
    assert check_checkpoint(cp, server_key=key) == cp

    game = Game(client, KGP)
    checked: list[int] = []

    def step(role: str, path: str, body: Any = None, status: int = 201) -> dict[str, Any]:
        r = game.post(role, path, body)
        assert r.status_code == status, r.text
        checked.append(assert_checkpoint(game, r, key)["seq"])
        out: dict[str, Any] = r.json()
        return out

    step("US", "/rolls", {"dice": 2, "purpose": "x"})
    # 8.619 before 8.620: the steps go in numbered order.
    bought = step("German", "/rg-purchases", F1)
    step("German", f"/events/{bought['seq']}/reveal", None, 200)
    secret = step("German", "/tables/kgp:8.6201/rolls", {})
    step("German", f"/rolls/{secret['roll']['index']}/reveal", None, 200)
    rolled = step("German", "/rolls", {"dice": 1, "purpose": "y"})
    rid = step("German", "/undo-requests", {"seqs": [rolled["seq"]], "reason": "r"})["id"]
    step("US", f"/undo-requests/{rid}/approve", None, 200)
    rolled = step("US", "/rolls", {"dice": 1, "purpose": "z"})
    rid = step("US", "/undo-requests", {"seqs": [rolled["seq"]], "reason": "r"})["id"]
    step("German", f"/undo-requests/{rid}/reject", {"note": "no"}, 200)
    did = step("US", "/disputes", {"seq": bought["seq"], "claim": "c"})["id"]
    step("German", f"/disputes/{did}/resolve", {"decision": "uphold", "note": "n"}, 200)
    # The Initial Scenario is played to its end (8.6121): both sides complete
    # their steps, then CG-Scenario End; the 8.606 Escape table is rolled after it.
    step("US", "/reph/advance", {"to": "scenario"})
    step("German", "/reph/advance", {"to": "scenario"})
    step("referee", "/scenario-end", {"cvp": {"US": 0, "German": 0}})
    step("US", "/tables/kgp:8.606-infantry/rolls", {})
    step("US", "/cg-dates", {})
    step("German", "/cg-dates", {})
    step("German", "/cpp-replenishments", {})
    step("US", "/cpp-replenishments", {})
    step("German", "/rg-purchases", {"rg": "I1", "map_group": "Sx"})
    # 8.620: an I1 needs at least its strength DR and one more roll (SW or
    # leader). Bought in secret, all of them are made in one sealed record
    # (DESIGN §2a), so one request makes them and a second finds none left:
    # a refusal appends nothing and carries no checkpoint.
    step("German", "/rg-determinations", {})
    batch = last_event(game)
    assert kind_of(batch) == "RGDetermined"
    assert batch["secret"]["rolls"][0]["need"] == "strength"
    assert len(batch["secret"]["rolls"]) >= 2
    v = game.version()
    refused = game.post("German", "/rg-determinations", {})
    assert "needs a roll" in assert_problem(refused, 409)["detail"]
    assert "Cgledger-Checkpoint" not in refused.headers
    assert game.version() == v
    game.advance("German", "8.622")
    step("German", "/recon", {"cpp": 1})
    assert checked == sorted(set(checked))
    # An idempotent retry answers with the first checkpoint.
    first = game.post("US", "/rolls", {"dice": 1, "purpose": "k"}, **{"Idempotency-Key": "k"})
    cp = assert_checkpoint(game, first, key)
    step("US", "/rolls", {"dice": 1, "purpose": "later"})
    again = game.post("US", "/rolls", {"dice": 1, "purpose": "k"}, **{"Idempotency-Key": "k"})
    assert again.json()["checkpoint"] == cp == json.loads(again.headers["Cgledger-Checkpoint"])


def test_a_creation_retry_answers_with_the_first_checkpoint(client: TestClient) -> None:
    """DESIGN §3: a retry returns the first response (tokens are not re-issued,
    but the checkpoint of the events the creation appended is no secret)."""
    key = {"Idempotency-Key": "create-1"}
    first = client.post("/v1/campaigns", json=KGP, headers=key)
    cp = created(first)["checkpoint"]
    again = client.post("/v1/campaigns", json=KGP, headers=key)
    assert again.status_code == 201, again.text  # the first answer's status
    assert again.json()["id"] == first.json()["id"]
    assert again.json().get("checkpoint") == cp
    assert json.loads(again.headers.get("Cgledger-Checkpoint", "null")) == cp
    # Both creation events record the key's hash.
    h = {"Authorization": f"Bearer {first.json()['tokens']['referee']}"}
    log = ok(client.get(f"/v1/campaigns/{first.json()['id']}/events", headers=h))["items"]
    hashes = [e["meta"]["idempotency_key"] for e in log]
    assert len(hashes) == 2
    assert len(set(hashes)) == 1
    assert HEX64.fullmatch(hashes[0])


def test_get_checkpoint(kgp: Game, client: TestClient) -> None:
    key = server_key(client)
    created_cp = kgp.created["checkpoint"]
    assert created_cp["seq"] == 2
    free_roll(kgp, "US")
    buy(kgp)
    log = events(kgp)
    version = kgp.version()
    for role in ROLES:
        now = ok(kgp.get(role, "/checkpoint"))
        assert check_checkpoint(now, server_key=key) == now
        assert (now["seq"], now["head"], now["time"]) == (
            version,
            log[-1]["hash"],
            log[-1]["recorded_at"],
        )
        for n in range(1, version + 1):
            cp = ok(kgp.get(role, f"/checkpoint?at={n}"))
            assert (cp["campaign"], cp["seq"], cp["head"], cp["time"]) == (
                kgp.id,
                n,
                log[n - 1]["hash"],
                log[n - 1]["recorded_at"],
            )
            check_checkpoint(cp, server_key=key)
        assert ok(kgp.get(role, "/checkpoint?at=2")) == created_cp
        assert_problem(kgp.get(role, f"/checkpoint?at={version + 1}"), 404)
        for bad in ("0", "-3", "x"):
            assert_problem(kgp.get(role, f"/checkpoint?at={bad}"), 422)
    assert_problem(client.get(f"{kgp.url}/checkpoint"), 401)


def test_the_server_key_survives_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as first:
        key = server_key(first)
        game = Game(first, KGP)
        free_roll(game, "US")
        cp = ok(game.get("US", "/checkpoint"))
    with TestClient(create_app(settings)) as second:
        assert server_key(second) == key
        game.client = second
        again = ok(game.get("referee", "/checkpoint"))
        assert again == cp
        check_checkpoint(again, server_key=key)
        r = game.post("US", "/rolls", {"dice": 1, "purpose": "after the restart"})
        assert created(r)["checkpoint"]["key"] == key
    assert (settings.data_dir / "checkpoint.key").exists()


@pytest.fixture
def signed(kgp: Game, client: TestClient) -> tuple[Game, str, dict[int, dict[str, Any]]]:
    """A short history and the checkpoint of every response, by seq."""
    saved = {kgp.created["checkpoint"]["seq"]: kgp.created["checkpoint"]}

    def keep(r: Any) -> dict[str, Any]:
        assert r.status_code in (200, 201), r.text
        body: dict[str, Any] = r.json()
        saved[body["checkpoint"]["seq"]] = body["checkpoint"]
        return body

    rolled = keep(kgp.post("US", "/rolls", {"dice": 2, "purpose": "x"}))  # 3
    keep(kgp.post("US", "/disputes", {"seq": rolled["seq"], "claim": "a fair claim"}))  # 4
    keep(kgp.post("German", "/rg-purchases", F1))  # 5
    keep(kgp.post("German", "/rolls", {"dice": 1, "purpose": "y", "secret": True}))  # 6
    # 7: a Secret table roll is one sealed record; its table's definition is
    # in its secret part, not in a public TableDefined before it (DESIGN §2a).
    keep(kgp.post("German", "/tables/kgp:8.6201/rolls", {}))
    assert sorted(saved) == [2, 3, 4, 5, 6, 7]
    return kgp, server_key(client), saved


@pytest.mark.parametrize("role", ROLES)
def test_an_export_verifies_against_saved_checkpoints(
    signed: tuple[Game, str, dict[int, dict[str, Any]]], role: str
) -> None:
    game, key, saved = signed
    data = game.get(role, "/export").content
    report = verify_bytes(data, checkpoints=list(saved.values()), server_key=key)
    assert report.checkpoints_checked == len(saved)
    assert report.events == game.version()
    # A checkpoint signed by another key is refused when the server's key is pinned.
    with pytest.raises(VerificationError, match="not by the server's key"):
        verify_bytes(data, checkpoints=[saved[3]], server_key="ab" * 32)
    # A checkpoint past the end of the export: the log was cut (or the export is older).
    later = created(game.post("US", "/rolls", {"dice": 1, "purpose": "later"}))["checkpoint"]
    with pytest.raises(VerificationError, match="export ends"):
        verify_bytes(data, checkpoints=[later], server_key=key)


@pytest.mark.parametrize("role", ["US", "referee"])
def test_a_rewritten_export_fails_at_the_checkpoint_it_breaks(
    signed: tuple[Game, str, dict[int, dict[str, Any]]], role: str
) -> None:
    game, key, saved = signed
    header, items = parse(game.get(role, "/export").content)
    assert items[3]["type"] == "DisputeFiled"
    items[3]["payload"]["claim"] = "a claim nobody made"
    forged = reseal(header, items)
    # The chain itself is intact, so without checkpoints the forgery verifies ...
    assert verify_bytes(forged).events == len(items)
    # ... checkpoints before the rewrite still hold ...
    assert verify_bytes(forged, checkpoints=[saved[2], saved[3]], server_key=key)
    # ... and the first checkpoint at or after it fails, by its seq.
    for points, seq in (([saved[5], saved[7]], 5), ([saved[7]], 7), (list(saved.values()), 4)):
        with pytest.raises(VerificationError, match=f"seq {seq}: the log was rewritten") as info:
            verify_bytes(forged, checkpoints=points, server_key=key)
        assert info.value.seq == seq
        assert saved[seq]["time"] in str(info.value)


# ---------------------------------------------------------------------------- live feed


def sse(text: str) -> list[dict[str, Any]]:
    """The event blocks of a text/event-stream body (comments and retry dropped)."""
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if "id" in fields or "data" in fields:
            out.append({**fields, "data": json.loads(fields["data"])})
    return out


def assert_block(block: dict[str, Any], item: dict[str, Any], key: str) -> None:
    assert int(block["id"]) == item["seq"]
    assert block["event"] == item["type"]
    assert block["data"]["event"] == item
    cp = block["data"]["checkpoint"]
    assert (cp["seq"], cp["head"], cp["time"]) == (item["seq"], item["hash"], item["recorded_at"])
    assert check_checkpoint(cp, server_key=key) == cp


def stream(game: Game, role: str, query: str = "after=0&follow=false", **headers: str) -> Any:
    return game.client.get(f"{game.url}/stream?{query}", headers=game.h(role, **headers))


def test_stream_backlog(kgp: Game, client: TestClient) -> None:
    key = server_key(client)
    seq = buy(kgp)["seq"]
    free_roll(kgp, "US", secret=True)
    rolled = free_roll(kgp, "German")
    created(undo(kgp, "referee", [rolled["seq"]]))
    for role in ROLES:
        r = stream(kgp, role)
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].split(";")[0] == "text/event-stream"
        assert r.headers["cache-control"] == "private, no-store"  # DESIGN §11
        blocks = sse(r.text)
        log = events(kgp, role)
        assert len(blocks) == len(log) == kgp.version()
        for block, item in zip(blocks, log, strict=True):
            assert_block(block, item, key)
        purchase = blocks[seq - 1]["data"]["event"]
        if role == "US":
            assert purchase["secret"] is None
            assert blocks[seq]["data"]["event"]["secret"] is not None  # its own secret roll
        else:
            assert [(p["rg"], p["cpp"]) for p in purchase["secret"]["rgs"]] == [("F1", 2)]
        if role == "German":
            assert blocks[seq]["data"]["event"]["secret"] is None
        assert blocks[rolled["seq"] - 1]["data"]["event"]["reverted_by"] == rolled["seq"] + 2


def test_stream_resumes_after_last_event_id(kgp: Game) -> None:
    for _ in range(3):
        free_roll(kgp, "US")
    version = kgp.version()
    ids = [int(b["id"]) for b in sse(stream(kgp, "US", **{"Last-Event-ID": "3"}).text)]
    assert ids == list(range(4, version + 1))
    ids = [int(b["id"]) for b in sse(stream(kgp, "US", "after=1&follow=false").text)]
    assert ids == list(range(2, version + 1))
    # Last-Event-ID (a reconnect) wins over the after of the original URL.
    ids = [
        int(b["id"])
        for b in sse(stream(kgp, "US", "after=1&follow=false", **{"Last-Event-ID": "4"}).text)
    ]
    assert ids == list(range(5, version + 1))
    assert sse(stream(kgp, "US", f"after={version}&follow=false").text) == []
    assert_problem(stream(kgp, "US", "after=0&follow=false", **{"Last-Event-ID": "x"}), 422)
    assert_problem(stream(kgp, "US", "after=-1&follow=false"), 422)
    r = kgp.client.get(f"{kgp.url}/stream?after=0&follow=false")
    assert_problem(r, 401)


def test_live_stream_on_a_real_server(settings: Settings) -> None:
    with serving(settings) as base, httpx.Client(base_url=base, timeout=5) as http:
        key = http.get("/v1/server-key").json()["public_key"]
        r = http.post("/v1/campaigns", json=KGP)
        assert r.status_code == 201, r.text
        game = r.json()
        url = f"/v1/campaigns/{game['id']}"
        us = {"Authorization": f"Bearer {game['tokens']['US']}"}
        german = {"Authorization": f"Bearer {game['tokens']['German']}"}
        bought = http.post(f"{url}/rg-purchases", json=F1, headers=german)
        assert bought.status_code == 201, bought.text
        version = bought.json()["seq"]
        errors: list[BaseException] = []
        posted: list[dict[str, Any]] = []

        def roll_later() -> None:
            try:
                time.sleep(0.3)
                with httpx.Client(base_url=base, timeout=5) as other:
                    body = {"dice": 2, "purpose": "live", "secret": True}
                    r = other.post(f"{url}/rolls", json=body, headers=german)
                    assert r.status_code == 201, r.text
                    posted.append(r.json())
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)

        blocks: list[dict[str, Any]] = []
        writer = threading.Thread(target=roll_later)
        with http.stream("GET", f"{url}/stream", params={"after": 0}, headers=us) as feed:
            assert feed.status_code == 200
            assert feed.headers["content-type"].startswith("text/event-stream")
            buffer = ""
            started = False
            for line in feed.iter_lines():
                buffer += line + "\n"
                if line:
                    continue
                blocks.extend(sse(buffer))
                buffer = ""
                if blocks and int(blocks[-1]["id"]) == version and not started:
                    writer.start()  # the backlog is read: append from another client
                    started = True
                if blocks and int(blocks[-1]["id"]) > version:
                    break
        writer.join(timeout=10)
        assert not errors, errors
        assert [int(b["id"]) for b in blocks] == list(range(1, version + 2))
        live = blocks[-1]
        # The German's Secret roll, seen by the US: a sealed record whose public
        # part is that of every sealed record (no purpose, no count of dice).
        assert live["event"] == "RecordSealed"
        assert live["data"]["event"]["secret"] is None
        assert set(live["data"]["event"]["payload"]) == {*PUBLIC_KEYS, "roll"}
        assert "live" not in json.dumps(live["data"]["event"])
        assert live["data"]["event"]["payload"]["roll"]["index"] == posted[0]["index"]
        assert blocks[version - 1]["data"]["event"]["secret"] is None
        cp = live["data"]["checkpoint"]
        assert check_checkpoint(cp, server_key=key) == cp
        assert cp == posted[0]["checkpoint"]
        assert http.get(f"{url}/checkpoint", headers=us).json() == cp


# ---------------------------------------------------------------------------- paging, odd headers


def test_undo_requests_and_disputes_are_paged(kgp: Game) -> None:
    rolls = [
        created(kgp.post("US", "/rolls", {"dice": 1, "purpose": "x"}))["seq"] for _ in range(3)
    ]
    rids = [created(undo(kgp, "US", [seq]))["id"] for seq in rolls]
    dids = [created(kgp.post("German", "/disputes", {"seq": s, "claim": "c"}))["id"] for s in rolls]
    for path, ids in (("/undo-requests", rids), ("/disputes", dids)):
        seen: list[int] = []
        after = 0
        while True:
            page = ok(kgp.get("German", f"{path}?after={after}&limit=2"))
            assert len(page["items"]) <= 2
            seen += [item["id"] for item in page["items"]]
            if page["next_after"] is None:
                break
            after = page["next_after"]
        assert seen == ids, path
    pending = ok(kgp.get("US", "/undo-requests?status=pending&limit=1"))
    assert [i["id"] for i in pending["items"]] == rids[:1]
    assert pending["next_after"] == rids[0]


@pytest.mark.parametrize("header", ["If-Match", "Last-Event-ID"])
def test_a_non_ascii_digit_is_a_problem_not_a_crash(kgp: Game, header: str) -> None:
    """'²'.isdigit() is true in Python, but it is no version or seq."""
    headers: dict[str, Any] = {**kgp.h("US"), header: '"\xb2"'.encode("latin-1")}
    if header == "If-Match":
        r = kgp.client.post(f"{kgp.url}/rolls", json={"dice": 1, "purpose": "x"}, headers=headers)
    else:
        headers[header] = b"\xb2"
        r = kgp.client.get(f"{kgp.url}/stream?follow=false", headers=headers)
    assert assert_problem(r, 422)["field"] == header


def test_dice_stats_at_n_is_the_answer_given_live_at_n(kgp: Game) -> None:
    """A Secret roll counts for the opponent only once revealed: as of a seq
    before the reveal it still does not, exactly as answered live then."""
    live: dict[int, dict[str, Any]] = {}

    def record() -> None:
        for role in ("US", "German"):
            body = ok(kgp.get(role, "/dice-stats"))
            live[body["version"] * 10 + (role == "German")] = body

    secret = created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "x", "secret": True}))
    record()
    created(kgp.post("US", "/rolls", {"dice": 2, "purpose": "y"}))
    record()
    ok(kgp.post("German", f"/rolls/{secret['index']}/reveal"))
    record()
    assert live[max(live) - 1]["rolls"] == 2  # the US counts the revealed roll now
    for key, body in live.items():
        version, role = divmod(key, 10)
        then = ok(kgp.get("German" if role else "US", f"/dice-stats?at={version}"))
        assert then == body
    assert ok(kgp.get("US", f"/dice-stats?at={secret['seq']}"))["hidden"] == 1
