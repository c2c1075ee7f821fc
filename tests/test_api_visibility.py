"""Visibility over the REST API (DESIGN §2 Secret rolls, §3 auth and errors, §4).

A German walks the KGP CG I campaign into the 19 PM Refit Phase and makes
everything the rules let him keep secret: a free Secret DR, the 8.616 CPP
Replenishment DR, an 8.619 RG purchase, the 8.620 rolls that determine it and
an 8.622 Recon dr. The tests then
read the campaign with the U.S. token through every endpoint and check that
none of the German's secret values leaks, that the U.S. still sees exactly as
many events and rolls as the referee (stubs, never gaps), and that reveals,
errors and auth behave as the contracts say.

Every test runs on SQLite and on PostgreSQL (the ``client`` fixture).
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import psycopg
import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain import dice
from cgledger.domain.chain import secret_digest
from cgledger.domain.rulesets import REGISTRY
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

pytestmark = [pytest.mark.store, pytest.mark.shared_app]

#: 8.6161 CPP Base # chart, CG I, 19 PM, German (see cgledger/domain/rulesets/kgp/ruleset.py).
GERMAN_BASE_19PM = 35
#: Fields of the roll object of DESIGN §3 (the contract names; extensions allowed).
ROLL_FIELDS = {
    *("index", "dice", "commitment", "seed", "secret"),
    *("side", "purpose", "client_nonce", "seq"),
}
#: Fields of an event item of DESIGN §3.
EVENT_FIELDS = {"seq", "type", "recorded_at", "actor", "payload", "prev_hash", "hash"}
#: The German's 8.619 purchase: I1 of the sample RG chart, for Map Group Sx (8.6195).
GERMAN_I1 = next(
    e for e in REGISTRY["kgp"].sample_definition["rg_chart"]["German"] if e["id"] == "I1"
)
PURCHASE = {"rg": "I1", "map_group": "Sx"}
#: The purchase as the event records it (the price from the chart, 8.6194).
BOUGHT = {
    **PURCHASE,
    "name": GERMAN_I1["name"],
    "cpp": GERMAN_I1["cpp"],
    "modifiers": [],
}


# ---------------------------------------------------------------------------- helpers


def events(kgp: Game, role: str, limit: int = 100) -> tuple[list[dict[str, Any]], list[Any]]:
    """All event items ``role`` may see, following ``next_after`` page by page."""
    items: list[dict[str, Any]] = []
    pages: list[Any] = []
    after = 0
    for _ in range(1000):
        r = kgp.client.get(
            f"{kgp.url}/events", params={"after": after, "limit": limit}, headers=kgp.h(role)
        )
        body = ok(r)
        pages.append(r)
        assert len(body["items"]) <= limit
        items.extend(body["items"])
        if body["next_after"] is None:
            return items, pages
        assert body["next_after"] > after, body["next_after"]
        after = body["next_after"]
    raise AssertionError("paging through /events never ended")


def export(kgp: Game, role: str) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """GET /export as ``role``: the response, its header line and its event lines."""
    r = kgp.client.get(f"{kgp.url}/export", headers=kgp.h(role))
    assert r.status_code == 200, r.text
    lines = r.content.decode("utf-8").splitlines()
    header = json.loads(lines[0])
    return r, header, [json.loads(line) for line in lines[1:]]


def roster_line(kgp: Game, role: str, cg_date: str, side: str = "German") -> dict[str, Any]:
    r = kgp.client.get(f"{kgp.url}/roster", params={"side": side}, headers=kgp.h(role))
    body = ok(r)
    lines: list[dict[str, Any]] = [ln for ln in body["lines"] if ln["cg_date"] == cg_date]
    assert len(lines) == 1, body
    return lines[0]


@dataclass
class Refit:
    """What the German did, as the German's own responses show it."""

    free: dict[str, Any]  # POST /rolls (secret free DR)
    repl: dict[str, Any] | None = None  # POST /cpp-replenishments
    rg: dict[str, Any] | None = None  # POST /rg-purchases
    determinations: list[dict[str, Any]] = field(default_factory=list)  # POST /rg-determinations
    recon: dict[str, Any] | None = None  # POST /recon
    responses: list[Any] = field(default_factory=list)

    @property
    def secret_seqs(self) -> list[int]:
        out = [self.free["seq"]]
        for step in (self.repl, self.rg, *self.determinations, self.recon):
            if step is not None and step["event"]["secret_digest"]:
                out.append(step["seq"])
        return out

    @property
    def roll_indices(self) -> list[int]:
        out = [self.free["index"]]
        for step in (self.repl, *self.determinations, self.recon):
            if step is not None:
                out.append(step["roll"]["index"])
        return out


def german_refit(
    kgp: Game, *, rg: bool = True, rg_secret: bool = True, recon: bool = True
) -> Refit:
    """A German Secret free DR, then (the Initial Scenario ended) 19 PM: 8.616 CPP
    Replenishment, 8.619 RG I1 (4 CPP on the sample chart), every 8.620 roll that
    determines it, 8.622 Recon for 2 CPP (secret unless told otherwise)."""
    free = created(
        kgp.post(
            "German",
            "/rolls",
            {"dice": 2, "purpose": "ambush DR", "secret": True, "client_nonce": "g-nonce-1"},
        )
    )
    walk = Refit(free=free)
    date = kgp.next_date()  # after the Initial Scenario's end (8.6121)
    assert date["cg_date"] == "19 PM"
    walk.repl = created(kgp.post("German", "/cpp-replenishments", {}))
    if rg:
        body: dict[str, Any] = dict(PURCHASE)
        if not rg_secret:
            body["secret"] = False
        walk.rg = created(kgp.post("German", "/rg-purchases", body))
        # 8.620: the I1 needs its strength DR (8.6201), three SW drs if Depleted
        # (8.6204) and its leader DR (8.6206), all Secret: one POST makes them
        # all, in one sealed record (DESIGN §2a); the next finds nothing to roll.
        for _ in range(10):
            r = kgp.post("German", "/rg-determinations", {})
            if r.status_code == 409:
                assert "needs a roll" in r.json()["detail"], r.text
                break
            walk.determinations.append(created(r))
        assert len(walk.determinations) == 1, walk.determinations
        assert len(walk.determinations[0]["event"]["secret"]["rolls"]) in (2, 5)
    if recon:
        walk.recon = created(kgp.post("German", "/recon", {"cpp": 2}))
    return walk


@dataclass
class Secrets:
    """The German's secret values as the German himself sees them."""

    seeds: dict[int, str]
    dice: dict[int, list[int]]
    salts: dict[int, str]
    repl: int
    dr: int

    @property
    def strings(self) -> list[str]:
        return [*self.seeds.values(), *self.salts.values()]


def german_secrets(kgp: Game, walk: Refit) -> Secrets:
    seeds: dict[int, str] = {}
    rolled: dict[int, list[int]] = {}
    for index in walk.roll_indices:
        view = ok(kgp.get("German", f"/rolls/{index}"))
        assert isinstance(view["seed"], str), view
        assert len(view["seed"]) == 64
        assert view["dice"], view
        seeds[index] = view["seed"]
        rolled[index] = view["dice"]
    items, _ = events(kgp, "German")
    salts = {e["seq"]: e["secret"]["salt"] for e in items if e["secret"] is not None}
    # Besides its own secret acts, the German's RePh steps it passed without
    # one have their empty sealed records (DESIGN §4).
    assert set(walk.secret_seqs) <= set(salts)
    for e in items:
        if e["secret"] is not None and e["seq"] not in walk.secret_seqs:
            assert e["type"] == "RecordSealed", e
            assert e["secret"]["rolls"] == [], e
    assert walk.repl is not None
    repl_secret = next(e["secret"] for e in items if e["seq"] == walk.repl["seq"])
    return Secrets(seeds, rolled, salts, repl_secret["repl"], repl_secret["dr"])


def reveal_empty_purchases(kgp: Game, cg_date: str) -> None:
    """The German reveals its empty sealed RG purchase of ``cg_date``: it shows
    that it bought nothing in secret (DESIGN §4)."""
    german, _ = events(kgp, "German")
    (empty,) = [
        e["seq"]
        for e in german
        if e["type"] == "RecordSealed"
        and e["secret"] is not None
        and e["secret"]["kind"] == "RGPurchased"
        and e["secret"]["rgs"] == []
        and e["payload"]["cg_date"] == cg_date
    ]
    ok(kgp.post("German", f"/events/{empty}/reveal"))


def assert_no_leak(label: str, text: str, secrets: Secrets) -> None:
    for s in secrets.strings:
        assert s not in text, f"{label} leaks the German secret string {s}"


# ------------------------------------------------------------------ 1. secrecy everywhere


def test_german_secrets_reach_the_us_through_no_endpoint(kgp: Game) -> None:
    """DESIGN §2 (Secret roll: "Everyone else sees a stub"; unrevealed seeds never in
    "any response"), §4 (every endpoint, export, error and count goes through one
    visibility function), 8.616 (Secret DR), 8.619 (purchases kept secret): no
    German seed or salt appears anywhere in the raw text of any U.S. response."""
    walk = german_refit(kgp)
    secrets = german_secrets(kgp, walk)
    assert walk.repl is not None
    assert walk.rg is not None
    assert walk.recon is not None
    v0 = kgp.version()
    texts: list[tuple[str, str]] = []

    # The U.S.'s own rolls: the responses to its POSTs must carry nothing German.
    r = kgp.post("US", "/rolls", {"dice": 2, "purpose": "US public DR"})
    created(r)
    texts.append(("US POST /rolls public", r.text))
    r = kgp.post("US", "/rolls", {"dice": 1, "purpose": "US secret dr", "secret": True})
    created(r)
    texts.append(("US POST /rolls secret", r.text))
    v1 = kgp.version()
    assert v1 == v0 + 2

    # GET /rolls/{index}: every German roll is a stub of the same shape.
    for index in walk.roll_indices:
        r = kgp.get("US", f"/rolls/{index}")
        view = ok(r)
        texts.append((f"US GET /rolls/{index}", r.text))
        assert set(view) >= ROLL_FIELDS
        assert view["index"] == index
        assert view["secret"] is True
        assert view["side"] == "German"
        assert view["dice"] is None, view
        assert view["seed"] is None, view
        assert view["outcome"] is None, view
        referee_view = ok(kgp.get("referee", f"/rolls/{index}"))
        assert set(view) == set(referee_view), "the stub must have the roll's shape"
        assert view["commitment"] == referee_view["commitment"]

    # GET /events, default page and small pages.
    for limit in (100, 1, 2, 3):
        items, pages = events(kgp, "US", limit=limit)
        texts.extend((f"US GET /events limit={limit}", p.text) for p in pages)
        by_seq = {e["seq"]: e for e in items}
        for seq in walk.secret_seqs:
            assert by_seq[seq]["secret"] is None, by_seq[seq]
            assert by_seq[seq]["secret_digest"], by_seq[seq]

    # GET /export.
    r, header, lines = export(kgp, "US")
    texts.append(("US GET /export", r.text))
    assert header["viewer"] == "US"
    for line in lines:
        if line["seq"] in walk.secret_seqs:
            assert line["secret"] is None, line

    # GET /roster?side=German and GET /v1/campaigns/{id}.
    r = kgp.client.get(f"{kgp.url}/roster", params={"side": "German"}, headers=kgp.h("US"))
    ok(r)
    texts.append(("US GET /roster?side=German", r.text))
    r = kgp.get("US")
    ok(r)
    texts.append(("US GET /v1/campaigns/{id}", r.text))
    # GET /rg-record?side=German (8.6198): the purchase and its rolls are secret.
    r = kgp.get("US", "/rg-record?side=German")
    record = ok(r)
    texts.append(("US GET /rg-record?side=German", r.text))
    # One stub per sealed purchase: the I1's, and the empty one of 19 AM (DESIGN §4).
    assert walk.rg["seq"] in [row["seq"] for row in record["rows"]]
    assert all(row.get("redacted") for row in record["rows"]), record

    # Errors: revealing, reading or acting for the German.
    for index in walk.roll_indices:
        r = kgp.post("US", f"/rolls/{index}/reveal")
        assert_problem(r, 403)
        texts.append((f"US POST /rolls/{index}/reveal", r.text))
    for seq in walk.secret_seqs:
        r = kgp.post("US", f"/events/{seq}/reveal")
        assert_problem(r, 403)
        texts.append((f"US POST /events/{seq}/reveal", r.text))
    r = kgp.get("US", "/rolls/999")
    assert_problem(r, 404)
    texts.append(("US GET /rolls/999", r.text))
    for path, body in (
        ("/rg-purchases", {"side": "German", **PURCHASE}),
        ("/rg-determinations", {"side": "German", "for_purchase": walk.rg["seq"]}),
        ("/recon", {"side": "German", "cpp": 1}),
        ("/cpp-replenishments", {"side": "German"}),
    ):
        r = kgp.post("US", path, body)
        assert_problem(r, 403)
        texts.append((f"US POST {path} for German", r.text))
    assert kgp.version() == v1, "refused requests must append nothing"

    for label, text in texts:
        assert_no_leak(label, text, secrets)


def test_us_sees_as_many_events_and_rolls_as_the_referee(kgp: Game) -> None:
    """DESIGN §3 ("Hidden events appear as redacted stubs, never as gaps") and §4 (gaps
    in the sequence and counts are known leaks): with any page size the U.S. gets
    every seq 1..version once, each with the referee's public fields and hashes."""
    walk = german_refit(kgp)
    version = kgp.version()
    referee, _ = events(kgp, "referee")
    assert [e["seq"] for e in referee] == list(range(1, version + 1))
    for limit in (1, 2, 3, 5, 100, 1000):
        us, pages = events(kgp, "US", limit=limit)
        assert [e["seq"] for e in us] == list(range(1, version + 1)), f"limit={limit}"
        assert len(pages) >= -(-version // limit)
        for mine, full in zip(us, referee, strict=True):
            assert set(mine) >= EVENT_FIELDS
            for key in (*EVENT_FIELDS, "secret_digest"):
                assert mine[key] == full[key], (limit, mine["seq"], key)
            if mine["seq"] in walk.secret_seqs:
                assert mine["secret"] is None
                assert full["secret"] is not None
            elif full["secret"] is not None and full["payload"].get("owner") == "German":
                assert mine["secret"] is None  # an empty sealed record of the German's
            else:
                assert mine["secret"] == full["secret"]
        # each page's version matches the log
        assert all(p.json()["version"] == version for p in pages)

    # Export: same number of lines and the same chain as the referee's; it verifies.
    r_us, head_us, lines_us = export(kgp, "US")
    r_ref, head_ref, lines_ref = export(kgp, "referee")
    assert head_us["events"] == head_ref["events"] == version
    assert head_us["head"] == head_ref["head"]
    assert [x["seq"] for x in lines_us] == list(range(1, version + 1))
    assert [x["hash"] for x in lines_us] == [x["hash"] for x in lines_ref]
    report_us = verify_bytes(r_us.content)
    report_ref = verify_bytes(r_ref.content)
    assert report_us.events == report_ref.events == version
    # Every sealed record of a determination step takes a roll index, empty or not.
    assert report_us.rolls == report_ref.rolls == ok(kgp.get("referee"))["rolls"]
    assert set(walk.roll_indices) <= set(range(report_us.rolls))

    # Roll counts and every roll index answer the U.S. as they answer the referee.
    camp_us = ok(kgp.get("US"))
    camp_ref = ok(kgp.get("referee"))
    for key in ("version", "rolls", "head", "cg_date"):
        assert camp_us[key] == camp_ref[key], key
    assert camp_us["rolls"] >= len(walk.roll_indices)
    for index in range(camp_us["rolls"]):
        assert kgp.get("US", f"/rolls/{index}").status_code == 200
    assert_problem(kgp.get("US", f"/rolls/{camp_us['rolls']}"), 404)
    assert_problem(kgp.get("referee", f"/rolls/{camp_us['rolls']}"), 404)


# --------------------------------------------------------- 2. owner and referee see it


def test_owner_and_referee_see_dice_and_seed_of_unrevealed_secret_roll(kgp: Game) -> None:
    """DESIGN §2: "Only the owning side (and the referee) sees the dice and seed_i";
    the seed matches the published commitment and recomputes to the dice."""
    posted = created(
        kgp.post(
            "German",
            "/rolls",
            {"dice": 2, "purpose": "ambush DR", "secret": True, "client_nonce": "nonce-7"},
        )
    )
    index = posted["index"]
    assert posted["secret"] is True
    assert posted["revealed_seq"] is None
    for role in ("German", "referee"):
        view = ok(kgp.get(role, f"/rolls/{index}"))
        assert view["dice"] == posted["dice"], role
        assert view["seed"] == posted["seed"], role
        assert len(view["dice"]) == 2
        seed = bytes.fromhex(view["seed"])
        assert dice.commitment(kgp.id, index, seed) == view["commitment"]
        # A Secret roll is a sealed record (cgledger-dice/2): its dice lead its stream.
        assert view["protocol"] == dice.SEALED
        assert view["purpose"] == "ambush DR"
        assert (
            dice.sealed_dice(
                seed, campaign=kgp.id, index=index, client_nonce="nonce-7", side="German", n=2
            )
            == view["dice"]
        )
    # The commitment was published in an earlier event, before the roll.
    items, _ = events(kgp, "referee")
    published = [
        e["seq"]
        for e in items
        if e["type"] == "CommitmentsPublished"
        and posted["commitment"] in e["payload"]["commitments"]
    ]
    assert published
    assert published[0] < posted["seq"]
    # The referee's event view carries the dice, but the seed is not in the log yet.
    roll_event = next(e for e in items if e["seq"] == posted["seq"])
    assert roll_event["secret"]["rolls"][0]["dice"] == posted["dice"]
    r, _, _ = export(kgp, "referee")
    assert posted["seed"] not in r.text, "an unrevealed seed must not be in the event log"


# --------------------------------------------------------------------- 3. reveals


def test_reveal_by_owner_or_referee_lets_us_verify(kgp: Game) -> None:
    """DESIGN §2: "A later reveal event publishes seed_i. After that anyone can check
    the commitment and recompute the dice" (owner and referee may reveal, §3)."""
    for revealer in ("German", "referee"):
        posted = created(
            kgp.post(
                "German",
                "/rolls",
                {
                    "dice": 2,
                    "purpose": f"hidden DR {revealer}",
                    "secret": True,
                    "client_nonce": f"n-{revealer}",
                },
            )
        )
        index = posted["index"]
        assert ok(kgp.get("US", f"/rolls/{index}"))["seed"] is None
        v0 = kgp.version()
        r = kgp.post(revealer, f"/rolls/{index}/reveal")
        revealed = ok(r)
        assert kgp.version() == v0 + 1, "a reveal appends one event"
        assert revealed["seed"] == posted["seed"]
        assert revealed["revealed_seq"] == v0 + 1

        view = ok(kgp.get("US", f"/rolls/{index}"))
        assert view["dice"] == posted["dice"], revealer
        assert view["seed"] == posted["seed"], revealer
        assert view["revealed_seq"] == v0 + 1
        seed = bytes.fromhex(view["seed"])
        assert dice.commitment(kgp.id, index, seed) == view["commitment"]
        assert (
            dice.sealed_dice(
                seed,
                campaign=kgp.id,
                index=index,
                client_nonce=view["client_nonce"],
                side=view["side"],
                n=view["count"],
            )
            == view["dice"]
        )
        # The log shows the U.S. the roll's secret part and the reveal event.
        items, _ = events(kgp, "US")
        by_seq = {e["seq"]: e for e in items}
        assert by_seq[posted["seq"]]["secret"]["rolls"][0]["dice"] == posted["dice"]
        reveal_event = by_seq[v0 + 1]
        assert reveal_event["type"] == "SecretRevealed"
        assert reveal_event["actor"] == revealer
        assert reveal_event["payload"]["seed"] == posted["seed"]
        assert reveal_event["payload"]["client_nonce"] == f"n-{revealer}"
        assert reveal_event["payload"]["sealed"] == by_seq[posted["seq"]]["secret"]

    # Both revealed rolls recompute in the U.S. export (cgledger verify).
    r, _, _ = export(kgp, "US")
    report = verify_bytes(r.content)
    assert report.rolls == 2
    assert report.rolls_recomputed == 2
    assert report.rolls_hidden == 0


def test_opponent_cannot_reveal_a_secret_roll(kgp: Game) -> None:
    """DESIGN §2/§3: only "the owning side or the referee reveals a Secret roll"; a
    side's token used against the other side gets 403 and nothing is appended."""
    posted = created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "p", "secret": True}))
    v0 = kgp.version()
    r = kgp.post("US", f"/rolls/{posted['index']}/reveal")
    body = assert_problem(r, 403)
    assert posted["seed"] not in r.text
    assert str(posted["dice"]) not in json.dumps(body)
    r = kgp.post("US", f"/events/{posted['seq']}/reveal")
    assert_problem(r, 403)
    assert posted["seed"] not in r.text
    assert kgp.version() == v0
    view = ok(kgp.get("US", f"/rolls/{posted['index']}"))
    assert view["seed"] is None
    assert view["dice"] is None
    assert view["revealed_seq"] is None


def test_revealing_a_public_roll_conflicts(kgp: Game) -> None:
    """DESIGN §2: a Public roll's seed "is revealed in the same event as the result",
    so there is nothing to reveal: 409 and nothing appended."""
    posted = created(kgp.post("German", "/rolls", {"dice": 1, "purpose": "public dr"}))
    assert posted["secret"] is False
    assert posted["seed"] is not None
    v0 = kgp.version()
    for role in ("German", "referee", "US"):
        assert_problem(kgp.post(role, f"/rolls/{posted['index']}/reveal"), 409)
    assert kgp.version() == v0


def test_revealing_twice_conflicts(kgp: Game) -> None:
    """DESIGN §2: one reveal event publishes the seed; a second reveal by the owner
    or the referee is refused with 409 and appends nothing."""
    posted = created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "p", "secret": True}))
    ok(kgp.post("German", f"/rolls/{posted['index']}/reveal"))
    v0 = kgp.version()
    assert_problem(kgp.post("German", f"/rolls/{posted['index']}/reveal"), 409)
    assert_problem(kgp.post("referee", f"/rolls/{posted['index']}/reveal"), 409)
    assert_problem(kgp.post("German", f"/events/{posted['seq']}/reveal"), 409)
    assert kgp.version() == v0


def test_reveal_of_unknown_roll_is_not_found(kgp: Game) -> None:
    """DESIGN §3/§4: a roll index that has not been made is 404 for every role alike
    (no 403/404 difference between sides)."""
    for role in ("German", "US", "referee"):
        assert_problem(kgp.post(role, "/rolls/5/reveal"), 404)
        assert_problem(kgp.get(role, "/rolls/5"), 404)
        assert_problem(kgp.post(role, "/events/999/reveal"), 404)


# ------------------------------------------------------------ 4. secret RG purchase


def test_secret_rg_purchase_hidden_until_revealed(kgp: Game) -> None:
    """8.619 (a side may keep its RG purchased, CPP expended and CPP remaining secret)
    and DESIGN §4 (projections such as a Roster must not show the opponent's secret
    purchases): the U.S. sees a stub and an empty RG list until the German reveals."""
    walk = german_refit(kgp, recon=False)
    assert walk.rg is not None
    seq = walk.rg["seq"]
    salt = walk.rg["event"]["secret"]["salt"]

    items, _ = events(kgp, "US")
    stub = next(e for e in items if e["seq"] == seq)
    assert stub["type"] == "RecordSealed"
    assert stub["secret"] is None
    assert stub["secret_digest"]
    assert set(stub["payload"]) == {"protocol", "owner", "side", "cg_date", "step"}
    assert "rg" not in stub["payload"]
    assert "cpp" not in stub["payload"]
    assert salt not in json.dumps(items)
    line = roster_line(kgp, "US", "19 PM")
    assert line["rg_purchased"] == []
    assert line["spent"] is None
    assert line["left"] is None
    for name in ("rg_purchased", "spent", "left"):
        assert name in line["hidden"], line

    assert_problem(kgp.post("US", f"/events/{seq}/reveal"), 403)
    v0 = kgp.version()
    shown = ok(kgp.post("German", f"/events/{seq}/reveal"))
    assert kgp.version() == v0 + 1
    assert shown["secret"]["rgs"] == [BOUGHT]

    items, _ = events(kgp, "US")
    event = next(e for e in items if e["seq"] == seq)
    assert event["secret"] is not None
    assert event["secret"]["rgs"] == [BOUGHT]
    assert secret_digest(event["secret"]) == event["secret_digest"]
    line = roster_line(kgp, "US", "19 PM")
    assert [(p["rg"], p["cpp"], p["seq"]) for p in line["rg_purchased"]] == [("I1", 4, seq)]
    assert line["spent"] == 4
    assert "rg_purchased" not in line["hidden"]
    assert "spent" not in line["hidden"]
    # Left = Total - Spent still needs the secret Repl (8.616), which is unrevealed.
    assert line["left"] is None
    assert "left" in line["hidden"]


def test_public_rg_purchase_is_visible_at_once(kgp: Game) -> None:
    """8.619: a purchase that is not kept secret is an ordinary public event."""
    walk = german_refit(kgp, rg_secret=False, recon=False)
    assert walk.rg is not None
    seq = walk.rg["seq"]
    items, _ = events(kgp, "US")
    event = next(e for e in items if e["seq"] == seq)
    assert event["payload"]["rgs"] == [BOUGHT]
    assert event["secret"] is None
    assert event["secret_digest"] == ""
    line = roster_line(kgp, "US", "19 PM")
    assert [(p["rg"], p["cpp"]) for p in line["rg_purchased"]] == [("I1", 4)]
    # Nothing to reveal.
    assert_problem(kgp.post("German", f"/events/{seq}/reveal"), 409)
    # The German passed 8.619 with its empty sealed purchase (DESIGN §4): the
    # U.S. cannot tell it from a secret one, so Spent stays hidden until the
    # German shows that it bought nothing in secret.
    assert line["spent"] is None
    assert "spent" in line["hidden"]
    reveal_empty_purchases(kgp, "19 PM")
    line = roster_line(kgp, "US", "19 PM")
    assert line["spent"] == 4
    assert "spent" not in line["hidden"]
    assert "rg_purchased" not in line["hidden"]


# --------------------------------------------------------------------- 5. roster


def test_roster_hides_repl_until_the_replenishment_dr_is_revealed(kgp: Game) -> None:
    """8.616 ("the CPP Base # minus a Secret DR ... = the final amount of CPP
    Replenished") and DESIGN §4: the U.S. sees Repl and Total of the German 19 PM
    line only once the DR is revealed; the referee sees every value always."""
    walk = german_refit(kgp)
    assert walk.repl is not None
    secrets = german_secrets(kgp, walk)
    assert secrets.repl == max(0, GERMAN_BASE_19PM - secrets.dr)
    start = 2  # conftest: the German holds 2 CPP from the Initial Scenario

    def referee_sees_everything() -> None:
        line = roster_line(kgp, "referee", "19 PM")
        assert line["hidden"] == []
        assert line["cpp_base"] == GERMAN_BASE_19PM
        assert line["start"] == start
        assert line["repl"] == secrets.repl
        assert line["total"] == start + secrets.repl
        assert [(p["rg"], p["cpp"]) for p in line["rg_purchased"]] == [("I1", 4)]
        assert line["spent"] == 4
        assert line["left"] == start + secrets.repl - 4
        assert line["recon_cpp"] == 2
        assert isinstance(line["recon"], int)

    referee_sees_everything()
    german = roster_line(kgp, "German", "19 PM")
    assert german["hidden"] == []
    assert german["repl"] == secrets.repl

    line = roster_line(kgp, "US", "19 PM")
    assert line["cpp_base"] == GERMAN_BASE_19PM  # the chart is public
    # 19 PM's Start is 19 AM's Left, hidden by the German's empty sealed purchase
    # of 19 AM (DESIGN §4) until the German shows it.
    assert line["start"] is None
    reveal_empty_purchases(kgp, "19 AM")
    line = roster_line(kgp, "US", "19 PM")
    assert line["start"] == start
    assert line["repl"] is None
    assert line["total"] is None
    assert "repl" in line["hidden"]
    assert "total" in line["hidden"]
    assert line["recon"] is None
    assert "recon" in line["hidden"]

    index = walk.repl["roll"]["index"]
    ok(kgp.post("German", f"/rolls/{index}/reveal"))
    view = ok(kgp.get("US", f"/rolls/{index}"))
    assert view["dice"] == secrets.dice[index]
    dr = sum(view["dice"])
    assert view["outcome"]["repl"] == max(0, GERMAN_BASE_19PM - dr)

    line = roster_line(kgp, "US", "19 PM")
    assert line["repl"] == max(0, GERMAN_BASE_19PM - dr)
    assert line["total"] == start + line["repl"]
    assert "repl" not in line["hidden"]
    assert "total" not in line["hidden"]
    # The RG purchase and the Recon are still secret.
    assert line["rg_purchased"] == []
    for name in ("rg_purchased", "spent", "left", "recon", "recon_cpp"):
        assert name in line["hidden"], name
    referee_sees_everything()


# ------------------------------------------------------------------------- 6. auth


def test_requests_without_a_valid_token_get_401(client: TestClient, kgp: Game) -> None:
    """DESIGN §3: "A request without a valid token for that campaign gets 401" (no
    token, garbage, or the token of another campaign), with WWW-Authenticate. The
    routes are the OpenAPI document's: every operation that declares the bearer
    token, which is every operation on a campaign, so a new route is covered."""
    created(kgp.post("German", "/rolls", {"dice": 2, "purpose": "p", "secret": True}))
    other = Game(client, {"ruleset": "kgp", "campaign": "CG I", "title": "other"})
    v0 = kgp.version()
    spec = ok(client.get("/openapi.json"))
    on_campaign = {
        (method, path)
        for path, item in spec["paths"].items()
        for method in item
        if path.startswith("/v1/campaigns/{campaign_id}")
    }
    secured = {
        (method, path)
        for path, item in spec["paths"].items()
        for method, op in item.items()
        if op.get("security") == [{"HTTPBearer": []}]
    }
    assert secured == on_campaign
    assert len(secured) >= 40, sorted(secured)

    def url(path: str, op: dict[str, Any]) -> str:
        """``path`` with its parameters filled: this campaign, a table of its
        ruleset, and a valid number (or word) for the rest."""
        values: dict[str, Any] = {"campaign_id": kgp.id, "table_id": "kgp:8.606-infantry"}
        for param in op.get("parameters", []):
            if param["in"] == "path" and param["name"] not in values:
                kind = param["schema"].get("type")
                values[param["name"]] = 1 if kind == "integer" else "x"
        return path.format(**values)

    bad_headers: list[dict[str, str]] = [
        {},
        {"Authorization": "Bearer cgl_garbage"},
        {"Authorization": "Bearer "},
        {"Authorization": f"Basic {kgp.tokens['German']}"},
        {"Authorization": f"Bearer {other.tokens['German']}"},
        {"Authorization": f"Bearer {other.tokens['referee']}"},
    ]
    for method, path in sorted(secured):
        target = url(path, spec["paths"][path][method])
        body = {} if method in ("post", "put", "patch") else None
        for headers in bad_headers:
            r = client.request(method, target, json=body, headers=headers)
            assert_problem(r, 401)
            where = (method, target, headers)
            assert r.headers.get("WWW-Authenticate", "").startswith("Bearer"), where
    assert kgp.version() == v0


def test_a_side_cannot_act_for_the_other_side(kgp: Game) -> None:
    """DESIGN §3: "Using a side's token to act for the other side gets 403" (8.616,
    8.619, 8.622 are each the side's own steps); nothing is appended."""
    assert kgp.next_date()["cg_date"] == "19 PM"
    v0 = kgp.version()
    attempts: list[tuple[str, dict[str, Any]]] = [
        ("/cpp-replenishments", {"side": "German"}),
        ("/rg-purchases", {"side": "German", **PURCHASE}),
        ("/recon", {"side": "German", "cpp": 2}),
    ]
    for path, body in attempts:
        assert_problem(kgp.post("US", path, body), 403)
    assert kgp.version() == v0
    # The German's own replenishment is still pending: nothing was done in its name.
    line = roster_line(kgp, "referee", "19 PM")
    assert line["repl"] is None
    assert line["rg_purchased"] == []
    # And the other way round, after the German has replenished.
    created(kgp.post("German", "/cpp-replenishments", {}))
    v1 = kgp.version()
    assert_problem(kgp.post("German", "/cpp-replenishments", {"side": "US"}), 403)
    body = {"side": "US", "rg": "I1", "map_group": "Sx"}
    assert_problem(kgp.post("German", "/rg-purchases", body), 403)
    assert kgp.version() == v1


def test_unknown_campaign_is_404(client: TestClient, kgp: Game) -> None:
    """DESIGN §3: an unknown campaign id is a problem+json 404, with or without a
    token (a token of another campaign does not turn it into a 403)."""
    missing = "/v1/campaigns/00000000-0000-4000-8000-000000000000"
    for cid_path in (missing, "/v1/campaigns/not-a-uuid"):
        for headers in ({}, kgp.h("German"), kgp.h("referee")):
            assert_problem(client.get(cid_path, headers=headers), 404)
            assert_problem(client.get(cid_path + "/events", headers=headers), 404)
            assert_problem(client.get(cid_path + "/rolls/0", headers=headers), 404)
            r = client.post(cid_path + "/rolls", json={"dice": 1, "purpose": "x"}, headers=headers)
            assert_problem(r, 404)


def test_tokens_are_not_in_the_log(kgp: Game) -> None:
    """DESIGN §3: "Only hashes of tokens are stored": no token string appears in the
    referee's export or event log."""
    german_refit(kgp)
    r, _, _ = export(kgp, "referee")
    _, pages = events(kgp, "referee", limit=2)
    texts = [r.text, *(p.text for p in pages)]
    for role, token in kgp.tokens.items():
        secret_part = token.removeprefix("cgl_")
        for text in texts:
            assert token not in text, role
            assert secret_part not in text, role


def test_store_holds_no_token_and_no_unrevealed_seed(
    settings: Settings, client: TestClient, kgp: Game
) -> None:
    """DESIGN §2 ("Unrevealed seeds must never appear in the event store in
    plaintext") and §3 ("Only hashes of tokens are stored"), checked in the
    database itself on both backends."""
    walk = german_refit(kgp)
    secrets = german_secrets(kgp, walk)
    needles = [t.encode() for t in kgp.tokens.values()]
    needles += [s.encode() for s in secrets.seeds.values()]
    needles += [bytes.fromhex(s) for s in secrets.seeds.values()]
    if settings.database_url is None:
        blobs = [p.read_bytes() for p in settings.data_dir.rglob("*") if p.is_file()]
    else:
        blobs = []
        with psycopg.connect(settings.database_url) as conn:
            tables = conn.execute(
                "SELECT table_schema, table_name FROM information_schema.tables "
                "WHERE table_schema NOT IN ('pg_catalog', 'information_schema') "
                "AND table_type = 'BASE TABLE'"
            ).fetchall()
            assert tables
            for schema, table in tables:
                for row in conn.execute(f'SELECT * FROM "{schema}"."{table}"'):
                    for cell in row:
                        blobs.append(cell if isinstance(cell, bytes) else str(cell).encode())
    assert blobs
    assert any(kgp.id.encode() in b for b in blobs), "did not find the campaign's events"
    for needle in needles:
        for blob in blobs:
            assert needle not in blob


# ------------------------------------------------------------- 7. salted digests


def test_stub_digests_cannot_be_brute_forced_without_the_salt(kgp: Game) -> None:
    """DESIGN §2/§4 and cgledger/domain/chain.py: every secret part holds a random salt, so an
    opponent who sees only ``secret_digest`` cannot try the few plausible values of
    an RG purchase (8.619) or a CPP Replenishment DR (8.616) against it."""
    walk = german_refit(kgp, recon=False)
    assert walk.rg is not None
    assert walk.repl is not None
    items, _ = events(kgp, "US")
    by_seq = {e["seq"]: e for e in items}
    rg_stub = by_seq[walk.rg["seq"]]
    repl_stub = by_seq[walk.repl["seq"]]
    assert rg_stub["secret"] is None
    assert repl_stub["secret"] is None

    # The true values without the salt do not give the digest ...
    german, _ = events(kgp, "German")
    g = {e["seq"]: e for e in german}
    rg_secret = g[walk.rg["seq"]]["secret"]
    unsalted = {k: v for k, v in rg_secret.items() if k != "salt"}
    assert unsalted["rgs"] == [BOUGHT]
    assert secret_digest(unsalted) != rg_stub["secret_digest"]
    # ... nor does any plausible RG purchase, even one named as the chart names it.
    prefixes = ("I", "V", "A", "G", "O", "E", "HW", "SW", "AT")
    ids = [f"{p}{n}" for p in prefixes for n in range(1, 13)]
    tried = {
        secret_digest({**unsalted, "rgs": [{**BOUGHT, "rg": rg, "cpp": cost, "map_group": g}]})
        for rg, cost, g in itertools.product(ids, range(1, 61), ("Sx", "Sy"))
    }
    assert secret_digest(unsalted) in tried  # the true purchase is among the guesses
    assert rg_stub["secret_digest"] not in tried
    # ... nor any of the 36 DRs of the CPP Replenishment.
    repl_secret = g[walk.repl["seq"]]["secret"]
    repl_plain = {k: v for k, v in repl_secret.items() if k != "salt"}
    repl_tried = set()
    for a, b in itertools.product(range(1, 7), repeat=2):
        guess = {**repl_plain, "dr": a + b, "repl": max(0, GERMAN_BASE_19PM - a - b)}
        guess["rolls"] = [{**repl_plain["rolls"][0], "dice": [a, b]}]
        repl_tried.add(secret_digest(guess))
    assert repl_stub["secret_digest"] not in repl_tried

    # With the salt that only the German (and the referee) holds, both match.
    assert rg_secret["rgs"] == [BOUGHT]
    assert rg_secret["salt"]
    assert secret_digest(rg_secret) == rg_stub["secret_digest"]
    assert secret_digest({**unsalted, "salt": rg_secret["salt"]}) == rg_stub["secret_digest"]
    repl_secret = g[walk.repl["seq"]]["secret"]
    assert secret_digest(repl_secret) == repl_stub["secret_digest"]
