"""Rule-table rolls over the REST API (DESIGN §2 dice, §3 REST, §4 visibility).

The SG ruleset's tables (``cgledger/domain/rulesets/sg/tables.py``) are listed, read one
by one and rolled in an SG campaign (sides American and German, plus the
referee) whose Initial Scenario has ended, so that the sides reach the RePh
steps (3.1-3.7) its tables belong to: a public Repair dr, the Secret Leader
and M4 Model DRs, their reveal, every refusal of a bad DRM or input, an
idempotent retry, and the offline verifier on genuine and forged exports.

SG tables have no named DRMs, so the named-DRM refusals are checked on a small
probe table, both through :func:`cgledger.domain.tables.apply_drms` and over REST (the
probe is served as an SG table for the duration of that test), and on a real
KGP/ABtF table once one with a fixed and a per DRM is registered.

Every API test runs on SQLite and on PostgreSQL (the ``client`` fixture).
"""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import Callable
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest
from conftest import Game, assert_problem, created, etag_version, ok
from fastapi.testclient import TestClient
from forge import parse, reseal, split

from cgledger.domain import dice
from cgledger.domain import tables as tb
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY, Ruleset
from cgledger.domain.sealed import PUBLIC_KEYS, SEALED_PURPOSE, dice_of, kind_of
from cgledger.domain.tables import DrmRequest, Table, band_for, band_range, content_hash
from cgledger.verify import Report, VerificationError, verify_bytes

pytestmark = pytest.mark.shared_app

SG = REGISTRY["sg"]
CLI = Path(sys.executable).with_name("cgledger")
SG_CAMPAIGN = {"ruleset": "sg", "campaign": "SG", "title": "tables"}
ROLES = ("American", "German", "referee")
#: Every SG table, with its dr/DR and whether the rule makes it Secret.
SG_TABLES = {
    "sg:3.1": ("dr", False),
    "sg:3.4": ("dr", True),
    "sg:3.3-ma": ("dr", False),
    "sg:3.3-sw": ("dr", False),
    "sg:3.3-vehicular-mg": ("dr", False),
    "sg:3.6-german-infantry": ("DR", True),
    "sg:3.6-german-armor": ("DR", True),
    "sg:3.6-american-infantry": ("DR", True),
    "sg:3.6-american-armor": ("DR", True),
    "sg:3.7": ("DR", True),
}
#: A note nobody but the roller (and the referee) may read before the reveal.
NOTE = "zx-Lt. Quillfeather's hidden +1 (note 5e1b)"
#: The fields of a table roll that a Secret roll hides until it is revealed.
RESULT_FIELDS = ("inputs", "original", "drm", "final", "outcome")

# ---------------------------------------------------------------------------- helpers


def sg_campaign(client: TestClient) -> Game:
    """An SG campaign after its Initial Scenario (6 Morning) ended: both sides
    are at 2.1, so the tables of 3.1-3.7 may be rolled (in numbered order)."""
    game = Game(client, SG_CAMPAIGN)
    game.end_scenario()
    return game


@pytest.fixture
def sg(client: TestClient) -> Game:
    return sg_campaign(client)


def in_step(game: Game, side: str, step: str) -> None:
    """Move the sides on until ``side`` may act in RePh ``step`` (DESIGN §8).

    SG 1.2: "Both players ..., American first, complete each step before
    moving on to the next step", so the sides move on one step at a time, in
    turn: each side before ``side`` in that order until it has completed
    ``step``, each side after it until it has completed every step before it.
    """
    order = list(SG.lockstep)
    for _ in range(100):
        view = ok(game.get("referee", "/reph"))
        ids = [st["rule"] for st in view["steps"]]
        here = ids.index(step)
        waiting = False
        for other in order:
            applies = [i for i, st in enumerate(view["steps"]) if st["status"][other] != "n/a"]
            at = ids.index(view["current"][other])
            first = order.index(other) < order.index(side)
            goal = next(i for i in applies if i >= here + int(first))
            if other == side:
                assert at <= goal, f"{side} is past {step} (at {ids[at]})"
            if at >= goal:
                continue
            waiting = True
            r = game.post(other, "/reph/advance", {"to": ids[next(i for i in applies if i > at)]})
            if r.status_code != 201:  # it waits for the other side (1.2)
                assert_problem(r, 409)
                assert r.json()["rule"] == SG.sequence_rule, r.text
        if not waiting:
            return
    raise AssertionError(f"{side} could not reach {step}")


def step_of(table_id: str) -> str:
    """The RePh step an SG table is rolled in."""
    step = SG.tables[table_id].step
    assert step is not None, table_id
    return step


def roll(game: Game, role: str, table_id: str, body: Any = None, **headers: str) -> Any:
    return game.post(role, f"/tables/{table_id}/rolls", {} if body is None else body, **headers)


def other(value: int, note: str) -> dict[str, Any]:
    return {"id": "other", "value": value, "note": note}


def events(game: Game, role: str) -> tuple[list[dict[str, Any]], str]:
    """Every event item ``role`` may see, and the raw text of the response."""
    r = game.client.get(f"{game.url}/events", params={"limit": 1000}, headers=game.h(role))
    body = ok(r)
    assert body["next_after"] is None
    items: list[dict[str, Any]] = body["items"]
    assert [e["seq"] for e in items] == list(range(1, len(items) + 1)), "gaps in the log"
    return items, r.text


def of_type(items: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in items if e["type"] == kind]


def export(game: Game, role: str) -> bytes:
    r = game.get(role, "/export")
    assert r.status_code == 200, r.text
    data: bytes = r.content
    return data


def listed(client: TestClient) -> dict[str, dict[str, Any]]:
    items = client.get("/v1/rulesets/sg/tables").json()
    return {t["id"]: t for t in items}


def expected_outcome(table: Table, final: int) -> dict[str, Any]:
    index = band_for(table, final, {})
    band = table.bands[index]
    return {"band": index, "range": band_range(band), "text": band.result}


def assert_result_consistent(table: Table, view: dict[str, Any], extra: int) -> None:
    """A table roll view with visible results: Original, DRMs, Final, outcome."""
    dice_ = view["roll"]["dice"]
    assert isinstance(dice_, list)
    assert len(dice_) == table.dice
    assert all(1 <= d <= 6 for d in dice_)
    assert view["original"] == sum(dice_)
    assert sum(d["value"] for d in view["drm"]) == extra
    assert view["final"] == view["original"] + extra
    out = view["outcome"]
    want = expected_outcome(table, view["final"])
    assert {k: out[k] for k in want} == want, (view["final"], out)


def assert_seed_recomputes(game: Game, view: dict[str, Any], side: str) -> None:
    """DESIGN §2: the seed opens the commitment and recomputes the dice; of a
    sealed record (§2a, a secret roll), the first dice of its index's stream."""
    r = view
    seed = bytes.fromhex(r["seed"])
    assert len(seed) == 32
    assert dice.commitment(game.id, r["index"], seed) == r["commitment"]
    assert r["dice"]
    assert r["count"] == len(r["dice"])
    if r.get("protocol") == dice.SEALED:
        again = dice.sealed_dice(
            seed,
            campaign=game.id,
            index=r["index"],
            client_nonce=r["client_nonce"],
            side=side,
            n=r["count"],
        )
    else:
        again = dice.roll(
            seed,
            campaign=game.id,
            index=r["index"],
            client_nonce=r["client_nonce"],
            dice=r["count"],
            purpose=r["purpose"],
            side=side,
        )
    assert again == r["dice"]


# ---------------------------------------------------------------------------- 1. listing


def test_rulesets_list_counts_the_sg_tables(client: TestClient) -> None:
    r = client.get("/v1/rulesets")
    body = r.json()
    assert r.status_code == 200, r.text
    sg = next(rs for rs in body if rs["id"] == "sg")
    assert sg["sides"] == ["American", "German"]
    assert sg["tables"] == len(SG_TABLES)
    assert sg["tables_url"] == "/v1/rulesets/sg/tables"
    assert client.get(sg["tables_url"]).status_code == 200


def test_listing_holds_every_sg_table_with_its_data(client: TestClient) -> None:
    r = client.get("/v1/rulesets/sg/tables")
    assert r.status_code == 200, r.text
    items = r.json()
    ids = [t["id"] for t in items]
    assert sorted(ids) == sorted(SG_TABLES)
    assert len(set(ids)) == len(ids)
    hashes = set()
    for item in items:
        table = SG.tables[item["id"]]
        roll_name, secret = SG_TABLES[item["id"]]
        for key in ("id", "title", "rule", "dice", "secret", "drms", "bands", "hash"):
            assert key in item, (item["id"], key)
        assert item["title"] == table.title
        assert item["title"]
        assert item["rule"] == table.rule
        assert item["id"] == f"sg:{item['rule']}" or item["id"].startswith(f"sg:{item['rule']}-")
        assert item["dice"] == roll_name
        assert item["secret"] is secret
        assert item["drms"] == []  # SG tables name no DRMs
        assert item["step"] == item["rule"]  # each SG table is rolled in its rule's step
        assert item["step"] in {step.id for step in SG.reph_steps}
        assert len(item["bands"]) == len(table.bands) >= 2
        for band, want in zip(item["bands"], table.bands, strict=True):
            assert band["result"] == want.result
            assert band["range"] == band_range(want)
        assert item["bands"][0]["range"].startswith("≤ ")
        assert item["bands"][-1]["range"].startswith("≥ ")
        assert item["hash"] == content_hash(table)
        assert len(item["hash"]) == 64
        int(item["hash"], 16)
        hashes.add(item["hash"])
    assert len(hashes) == len(items), "two tables share a content hash"


def test_listing_shows_the_repair_rows_in_the_tables_words(client: TestClient) -> None:
    """3.3 Repair Table, SW row: ≤ 3 Repaired, 4-5 NE, ≥ 6 Eliminated."""
    sw = listed(client)["sg:3.3-sw"]
    assert [(b["range"], b["result"]) for b in sw["bands"]] == [
        ("≤ 3", "Repaired"),
        ("4-5", "NE"),
        ("≥ 6", "Eliminated"),
    ]
    m4 = listed(client)["sg:3.7"]
    assert m4["bands"][2]["range"] == "4-5"
    assert m4["bands"][2]["result"] == "2 x M4A3(76)W; M4A3(75)W"


@pytest.mark.parametrize("table_id", sorted(SG_TABLES))
def test_one_table_with_and_without_the_prefix(client: TestClient, table_id: str) -> None:
    everything = listed(client)
    with_prefix = client.get(f"/v1/rulesets/sg/tables/{table_id}")
    assert with_prefix.status_code == 200, with_prefix.text
    assert with_prefix.json() == everything[table_id]
    bare = table_id.removeprefix("sg:")
    without = client.get(f"/v1/rulesets/sg/tables/{bare}")
    assert without.status_code == 200, without.text
    assert without.json() == everything[table_id]


@pytest.mark.parametrize(
    "path",
    [
        "/v1/rulesets/nope/tables",
        "/v1/rulesets/nope/tables/sg:3.1",
        "/v1/rulesets/SG/tables",
    ],
)
def test_unknown_ruleset_is_404(client: TestClient, path: str) -> None:
    assert_problem(client.get(path), 404)


@pytest.mark.parametrize("table_id", ["3.2", "sg:3.2", "sg:3.6", "3.3", "kgp:3.1", "sg:"])
def test_unknown_table_is_404(client: TestClient, table_id: str) -> None:
    body = assert_problem(client.get(f"/v1/rulesets/sg/tables/{table_id}"), 404)
    assert body["type"].endswith("not-found")


# ---------------------------------------------------------------------------- 2. public roll


def test_public_table_roll_with_an_other_drm(sg: Game) -> None:
    table = SG.tables["sg:3.3-sw"]
    hashes = {k: v["hash"] for k, v in listed(sg.client).items()}
    note = "Leader +2 (scenario SSR)"
    body = {"drm": [other(2, note)], "client_nonce": "sw-nonce-1"}
    in_step(sg, "American", "3.3")
    r = roll(sg, "American", "sg:3.3-sw", body)
    view = created(r)
    assert etag_version(r) == sg.version()
    assert view["visible"] is True
    assert view["secret"] is False
    assert view["side"] == "American"
    assert view["cg_date"] == "6 Morning"
    assert view["table"] == {"id": "sg:3.3-sw", "hash": hashes["sg:3.3-sw"]}
    assert view["inputs"] == {}
    assert view["drm"] == [{"id": "other", "text": note, "value": 2, "note": note, "by": "roller"}]
    assert_result_consistent(table, view, 2)

    rolled = view["roll"]
    assert rolled["index"] == 0
    assert rolled["secret"] is False
    assert rolled["side"] == "American"
    assert rolled["count"] == 1
    assert rolled["client_nonce"] == "sw-nonce-1"
    assert rolled["purpose"].startswith("sg:3.3-sw")
    assert rolled["seq"] == view["seq"]
    assert_seed_recomputes(sg, rolled, "American")

    # The commitment was published in an earlier event.
    items, _ = events(sg, "German")
    published = [
        e
        for e in of_type(items, "CommitmentsPublished")
        if e["payload"]["first_index"] == 0 and e["seq"] < view["seq"]
    ]
    assert published[0]["payload"]["commitments"][0] == rolled["commitment"]

    # A public roll: the opponent sees the same result.
    for role in ("German", "referee"):
        seen = ok(sg.get(role, "/rolls/0"))
        assert seen["dice"] == rolled["dice"]
        assert seen["seed"] == rolled["seed"]
        assert seen["event_type"] == "TableRolled"
        for name in RESULT_FIELDS:
            assert seen["outcome"][name] == view[name], name


def test_side_table_roll_waits_for_its_reph_step(client: TestClient) -> None:
    """DESIGN §8: a side rolls a table in its RePh step. Before the Initial
    Scenario only the '†' steps apply, so 3.3 is refused (409, the detail
    starting with the rule number) and nothing is appended, while the referee
    may roll any table at any time. After the scenario's end the side rolls it,
    and a step it has passed (3.1 after 3.3) is not rolled again."""
    game = Game(client, SG_CAMPAIGN)
    assert listed(client)["sg:3.3-sw"]["step"] == "3.3"
    v0 = game.version()
    for side in SG.sides:
        problem = assert_problem(roll(game, side, "sg:3.3-sw"), 409)
        assert problem["detail"].startswith("3.3:"), problem
        assert problem["rule"] == "3.3", problem
        assert "'†'" in problem["detail"], problem
    assert game.version() == v0
    assert game.get("referee").json()["rolls"] == 0
    ruling = created(roll(game, "referee", "sg:3.3-sw"))
    assert ruling["side"] == "referee"
    assert ruling["roll"]["index"] == 0

    game.end_scenario()
    in_step(game, "American", "3.3")
    assert created(roll(game, "American", "sg:3.3-sw"))["roll"]["index"] == 1
    assert ok(game.get("referee", "/reph"))["current"]["American"] == "3.3"
    v1 = game.version()
    problem = assert_problem(roll(game, "American", "sg:3.1"), 409)
    assert problem["detail"].startswith("3.1:"), problem
    assert "is past" in problem["detail"], problem
    assert game.version() == v1


@pytest.mark.parametrize(
    ("value", "result"), [(-20, "Repaired"), (20, "Eliminated"), (-1, None), (5, None)]
)
def test_open_bands_catch_any_final(sg: Game, value: int, result: str | None) -> None:
    """A dr is 1-6; with ±20 the Final leaves that range and lands in the open
    first (≤ 3) or last (≥ 6) band."""
    table = SG.tables["sg:3.3-sw"]
    in_step(sg, "German", "3.3")
    view = created(roll(sg, "German", "3.3-sw", {"drm": [other(value, "x")]}))
    assert_result_consistent(table, view, value)
    if result is not None:
        assert view["outcome"]["text"] == result


def test_several_other_drms_add_up(sg: Game) -> None:
    table = SG.tables["sg:3.7"]
    drm = [other(1, "a"), other(-3, "b"), other(4, "c")]
    in_step(sg, "American", "3.7")
    view = created(roll(sg, "American", "sg:3.7", {"drm": drm, "secret": False}))
    assert [d["value"] for d in view["drm"]] == [1, -3, 4]
    assert [d["note"] for d in view["drm"]] == ["a", "b", "c"]
    assert_result_consistent(table, view, 2)


def test_table_is_defined_once_and_rolls_carry_its_hash(sg: Game) -> None:
    hashes = {k: v["hash"] for k, v in listed(sg.client).items()}
    in_step(sg, "American", "3.3")
    first = created(roll(sg, "American", "sg:3.3-sw", {"drm": [other(1, "n")]}))
    in_step(sg, "German", "3.3")
    v1 = sg.version()
    second = created(roll(sg, "German", "3.3-sw"))
    assert sg.version() == v1 + 1, "the second roll on a defined table appends one event"
    third = created(roll(sg, "referee", "sg:3.1"))
    assert [first["roll"]["index"], second["roll"]["index"], third["roll"]["index"]] == [0, 1, 2]

    for role in ROLES:
        items, _ = events(sg, role)
        defined = of_type(items, "TableDefined")
        rolled = of_type(items, "TableRolled")
        assert [d["payload"]["table"] for d in defined] == ["sg:3.3-sw", "sg:3.1"]
        assert [t["seq"] for t in rolled] == [first["seq"], second["seq"], third["seq"]]
        assert [t["payload"]["table"]["id"] for t in rolled] == ["sg:3.3-sw"] * 2 + ["sg:3.1"]
        assert [t["payload"]["rule"] for t in rolled] == ["sg:3.3-sw"] * 2 + ["sg:3.1"]
        # A side's roll moves it to the table's step; the referee's ruling moves nobody.
        assert [t["payload"].get("step") for t in rolled] == ["3.3", "3.3", None]
        by_table = {d["payload"]["table"]: d for d in defined}
        for t in rolled:
            tid = t["payload"]["table"]["id"]
            assert t["payload"]["table"]["hash"] == hashes[tid]
            d = by_table[tid]
            assert d["seq"] < t["seq"]
            assert d["payload"]["hash"] == hashes[tid]
            assert d["payload"]["definition"] == tb.definition(SG.tables[tid])
            assert tb.table_hash(d["payload"]["definition"]) == hashes[tid]
            assert d["secret"] is None
        assert rolled[0]["payload"]["final"] == first["final"]


# ---------------------------------------------------------------------------- 3. secret tables


def test_each_table_defaults_to_its_rules_secrecy(sg: Game) -> None:
    last = -1
    for table_id, (_, secret) in sorted(SG_TABLES.items()):
        # The side its rule names (3.6's columns, 3.7's M4 Groups), else the German.
        side = (REGISTRY["sg"].tables[table_id].sides or ("German",))[0]
        opponent = "American" if side == "German" else "German"
        in_step(sg, side, step_of(table_id))
        view = created(roll(sg, side, table_id))
        # Indices in order; the empty sealed records of the secret steps the
        # sides complete on the way (3.4, 3.6) take some too (DESIGN §4).
        index = view["roll"]["index"]
        assert index > last, table_id
        assert view["secret"] is secret, table_id
        assert view["roll"]["secret"] is secret, table_id
        opp = ok(sg.get(opponent, f"/rolls/{index}"))
        assert opp["seq"] == view["seq"], table_id
        assert (opp["dice"] is None) is secret, table_id
        assert (opp["seed"] is None) is secret, table_id
        # A secret roll is a sealed record: the opponent learns not even its table.
        assert (opp["purpose"] == SEALED_PURPOSE) is secret, table_id
        # "secret": null is the default too
        again = created(roll(sg, side, table_id, {"secret": None}))
        assert again["secret"] is secret, table_id
        assert again["roll"]["index"] == index + 1, table_id
        last = again["roll"]["index"]


def test_secret_false_makes_a_secret_table_public(sg: Game) -> None:
    table = SG.tables["sg:3.6-german-infantry"]
    in_step(sg, "German", "3.6")
    view = created(roll(sg, "German", "sg:3.6-german-infantry", {"secret": False}))
    assert view["secret"] is False
    assert view["roll"]["seed"] is not None
    index = view["roll"]["index"]
    opp = ok(sg.get("American", f"/rolls/{index}"))
    assert opp["secret"] is False
    assert opp["dice"] == view["roll"]["dice"]
    assert_seed_recomputes(sg, opp, "German")
    assert opp["outcome"]["final"] == view["final"]
    assert opp["outcome"]["outcome"] == view["outcome"]
    assert_result_consistent(table, view, 0)
    items, _ = events(sg, "American")
    (rolled,) = of_type(items, "TableRolled")
    assert rolled["secret"] is None
    assert rolled["payload"]["original"] == view["original"]
    # A public roll cannot be revealed again.
    assert_problem(sg.post("German", f"/rolls/{index}/reveal"), 409)


def test_secret_true_hides_a_public_table(sg: Game) -> None:
    in_step(sg, "American", "3.3")
    view = created(roll(sg, "American", "sg:3.3-ma", {"secret": True, "drm": [other(1, NOTE)]}))
    assert view["secret"] is True
    assert view["final"] == view["original"] + 1
    index = view["roll"]["index"]
    r = sg.get("German", f"/rolls/{index}")
    opp = ok(r)
    assert opp["secret"] is True
    assert opp["dice"] is None
    assert opp["seed"] is None
    assert opp["outcome"] is None
    assert NOTE not in r.text
    items, text = events(sg, "German")
    # A sealed record (DESIGN §2a): its public part names no table, no rule.
    assert of_type(items, "TableRolled") == []
    (rolled,) = of_type(items, "RecordSealed")
    assert rolled["seq"] == view["seq"]
    assert rolled["secret"] is None
    assert set(rolled["payload"]) == {*PUBLIC_KEYS, "roll"}
    assert "3.3-ma" not in json.dumps(rolled)
    assert NOTE not in text
    assert NOTE in events(sg, "American")[1]  # the owner's own log holds it


def hidden_from(view: dict[str, Any]) -> None:
    """A secret roll's stub: a sealed record's roll index, with the same fixed
    values whatever it holds (DESIGN §2a): no dice, seed or outcome, and not
    even the count of its dice, its purpose, nonce or rule."""
    assert view["secret"] is True
    assert view["dice"] is None
    assert view["seed"] is None
    assert view["outcome"] is None
    assert view["rolls"] is None
    assert view["count"] == 0
    assert view["purpose"] == SEALED_PURPOSE
    assert (view["client_nonce"], view["nonce_source"], view["rule"]) == ("", "sealed", None)
    assert (view["protocol"], view["event_type"]) == (dice.SEALED, "RecordSealed")
    assert len(view["commitment"]) == 64


def test_secret_table_roll_is_hidden_until_revealed(sg: Game) -> None:
    table = SG.tables["sg:3.7"]
    in_step(sg, "American", "3.7")
    mine = created(roll(sg, "American", "sg:3.7", {"drm": [other(1, NOTE)]}))
    index, seq = mine["roll"]["index"], mine["seq"]

    # The owner sees everything: dice, seed, Original, DRM, Final, outcome.
    assert mine["secret"] is True
    assert mine["visible"] is True
    assert isinstance(mine["roll"]["seed"], str)
    assert len(mine["roll"]["seed"]) == 64
    assert_seed_recomputes(sg, mine["roll"], "American")
    assert mine["drm"] == [{"id": "other", "text": NOTE, "value": 1, "note": NOTE, "by": "roller"}]
    assert_result_consistent(table, mine, 1)
    secret_text = mine["outcome"]["text"]
    own = ok(sg.get("American", f"/rolls/{index}"))
    assert own["dice"] == mine["roll"]["dice"]
    assert own["seed"] == mine["roll"]["seed"]
    for name in RESULT_FIELDS:
        assert own["outcome"][name] == mine[name], name

    # The opponent sees a stub, and nothing of the result anywhere.
    r = sg.get("German", f"/rolls/{index}")
    stub = ok(r)
    hidden_from(stub)
    assert stub["commitment"] == mine["roll"]["commitment"]
    assert mine["roll"]["purpose"].startswith("sg:3.7")  # the owner reads its table
    assert stub["side"] == "American"
    texts = {"GET /rolls": r.text}
    items, texts["GET /events"] = events(sg, "German")
    texts["GET /export"] = export(sg, "German").decode()
    texts["GET campaign"] = sg.get("German").text
    assert of_type(items, "TableRolled") == []
    item = items[seq - 1]
    assert item["type"] == "RecordSealed"
    assert item["secret"] is None
    assert item["secret_digest"]
    # The public part of every sealed record: no table, rule or purpose.
    assert set(item["payload"]) == {*PUBLIC_KEYS, "roll"}
    assert item["payload"]["owner"] == "American"
    assert item["payload"]["step"] == "3.7"  # where the American stood already
    assert "dice" not in item["payload"]["roll"]
    assert "seed" not in item["payload"]["roll"]
    for label, text in texts.items():
        assert NOTE not in text, f"{label} leaks the DRM note"
        assert mine["roll"]["seed"] not in text, f"{label} leaks the seed"
        assert mine["roll"]["purpose"] not in text, f"{label} leaks the roll's purpose"
    # The band texts are public in TableDefined; the rolled one is not in the stub.
    assert secret_text not in json.dumps(item, ensure_ascii=False)
    assert secret_text not in texts["GET /rolls"]
    # The opponent may not reveal someone else's roll, and the refusal echoes nothing.
    refused = sg.post("German", f"/rolls/{index}/reveal")
    assert_problem(refused, 403)
    assert NOTE not in refused.text
    german = verify_bytes(texts["GET /export"].encode())
    assert german.rule_results_checked == 0
    # The M4 DR's index is hidden, as is each of the empty sealed records of
    # the secret steps the sides completed (3.4, 3.6): none is revealed yet.
    sealed_rolls = [e for e in of_type(items, "RecordSealed") if "roll" in e["payload"]]
    assert seq in [e["seq"] for e in sealed_rolls]
    assert german.rolls_hidden == len(sealed_rolls)
    assert german.sealed_revealed == 0

    # The referee sees everything before the reveal.
    ref = ok(sg.get("referee", f"/rolls/{index}"))
    assert ref["dice"] == mine["roll"]["dice"]
    assert ref["seed"] == mine["roll"]["seed"]
    for name in RESULT_FIELDS:
        assert ref["outcome"][name] == mine[name], name
    ref_items, ref_text = events(sg, "referee")
    assert NOTE in ref_text
    ref_item = ref_items[seq - 1]
    assert kind_of(ref_item) == "TableRolled"
    assert dice_of(ref_item["secret"]) == mine["roll"]["dice"]
    for name in RESULT_FIELDS:
        assert ref_item["secret"][name] == mine[name], name

    # The owner reveals: now the opponent sees everything, equal to the owner's view.
    revealed = ok(sg.post("American", f"/rolls/{index}/reveal"))
    assert revealed["revealed_seq"] == seq + 1
    after = ok(sg.get("German", f"/rolls/{index}"))
    assert after["dice"] == mine["roll"]["dice"]
    assert after["seed"] == mine["roll"]["seed"]
    assert_seed_recomputes(sg, after, "American")
    for name in RESULT_FIELDS:
        assert after["outcome"][name] == mine[name], name
    items, text = events(sg, "German")
    assert NOTE in text
    item = items[seq - 1]
    for name in RESULT_FIELDS:
        assert item["secret"][name] == mine[name], name
    (reveal,) = of_type(items, "SecretRevealed")
    assert reveal["payload"]["seed"] == mine["roll"]["seed"]
    data = export(sg, "German")
    assert NOTE.encode() in data
    report = verify_bytes(data)
    assert report.rule_results_checked == 1
    assert report.rolls_recomputed == 1
    assert report.sealed_revealed == 1
    assert report.rolls_hidden == len(sealed_rolls) - 1  # the empty records' indices


def test_referee_secret_table_roll_is_hidden_from_both_sides(sg: Game) -> None:
    mine = created(roll(sg, "referee", "sg:3.6-american-armor", {"drm": [other(-2, NOTE)]}))
    assert mine["secret"] is True
    assert mine["side"] == "referee"
    index = mine["roll"]["index"]
    for side in ("American", "German"):
        r = sg.get(side, f"/rolls/{index}")
        hidden_from(ok(r))
        assert NOTE not in r.text
        assert NOTE not in events(sg, side)[1]
        assert NOTE.encode() not in export(sg, side)
    ok(sg.post("referee", f"/rolls/{index}/reveal"))
    for side in ("American", "German"):
        seen = ok(sg.get(side, f"/rolls/{index}"))
        assert NOTE in events(sg, side)[1]
        assert seen["dice"] == mine["roll"]["dice"]
        assert seen["outcome"]["final"] == mine["final"]


def test_secret_rolls_of_both_sides_stay_apart(sg: Game) -> None:
    """Each side sees its own Leader DR and a stub of the other's."""
    in_step(sg, "American", "3.6")
    am = created(roll(sg, "American", "sg:3.6-american-infantry", {"drm": [other(1, NOTE)]}))
    in_step(sg, "German", "3.6")
    ge = created(roll(sg, "German", "sg:3.6-german-infantry", {"drm": [other(1, NOTE + "G")]}))
    assert NOTE + "G" not in sg.get("American", f"/rolls/{ge['roll']['index']}").text
    hidden_from(ok(sg.get("American", f"/rolls/{ge['roll']['index']}")))
    hidden_from(ok(sg.get("German", f"/rolls/{am['roll']['index']}")))
    a_items, _ = events(sg, "American")
    g_items, _ = events(sg, "German")
    assert a_items[am["seq"] - 1]["secret"] is not None
    assert a_items[ge["seq"] - 1]["secret"] is None
    assert g_items[am["seq"] - 1]["secret"] is None
    assert g_items[ge["seq"] - 1]["secret"] is not None
    # Same log length, same hashes for everybody: stubs, never gaps.
    assert [e["hash"] for e in a_items] == [e["hash"] for e in g_items]


# ---------------------------------------------------------------------------- 4. refusals


REFUSALS: list[tuple[str, Any, str]] = [
    ("unknown DRM", {"drm": [{"id": "leader"}]}, "drm[0].id"),
    ("unknown DRM after a good one", {"drm": [other(1, "ok"), {"id": "nope"}]}, "drm[1].id"),
    ("other without note", {"drm": [{"id": "other", "value": 1}]}, "drm[0]"),
    ("other with blank note", {"drm": [other(1, "   ")]}, "drm[0]"),
    ("other with empty note", {"drm": [other(1, "")]}, "drm[0]"),
    ("other without value", {"drm": [{"id": "other", "note": "x"}]}, "drm[0]"),
    ("other with count", {"drm": [{**other(1, "x"), "count": 2}]}, "drm[0]"),
    ("other with count only", {"drm": [{"id": "other", "count": 2, "note": "x"}]}, "drm[0]"),
    ("other of 0", {"drm": [other(0, "x")]}, "drm[0]"),
    ("other of 21", {"drm": [other(21, "x")]}, "drm[0]"),
    ("other of -21", {"drm": [other(-21, "x")]}, "drm[0]"),
    ("unknown input", {"inputs": {"san": 3}}, "inputs.san"),
    ("unknown choice input", {"inputs": {"side": "German"}}, "inputs.side"),
    # pydantic: strict types, unknown fields, lengths
    ("string count", {"drm": [{"id": "other", "count": "2", "note": "x"}]}, "drm.0.count"),
    ("string value", {"drm": [{"id": "other", "value": "2", "note": "x"}]}, "drm.0.value"),
    ("bool value", {"drm": [{"id": "other", "value": True, "note": "x"}]}, "drm.0.value"),
    ("float value", {"drm": [{"id": "other", "value": 1.5, "note": "x"}]}, "drm.0.value"),
    ("note too long", {"drm": [other(1, "x" * 201)]}, "drm.0.note"),
    ("drm not a list", {"drm": "other"}, "drm"),
    ("drm item not an object", {"drm": ["other"]}, "drm.0"),
    ("empty DRM id", {"drm": [{"id": "", "value": 1}]}, "drm.0.id"),
    ("unknown DRM field", {"drm": [{**other(1, "x"), "times": 2}]}, "drm.0.times"),
    ("unknown body field", {"modifiers": []}, "modifiers"),
    ("secret not a bool", {"secret": "yes"}, "secret"),
    ("empty nonce", {"client_nonce": ""}, "client_nonce"),
    ("31 DRMs", {"drm": [other(1, "x")] * 31}, "drm"),
    ("inputs not an object", {"inputs": [1]}, "inputs"),
]


@pytest.mark.parametrize(("case", "body", "field"), REFUSALS, ids=[c[0] for c in REFUSALS])
def test_refused_roll_names_its_field_and_appends_nothing(
    sg: Game, case: str, body: Any, field: str
) -> None:
    in_step(sg, "American", "3.3")
    v0 = sg.version()
    r = roll(sg, "American", "sg:3.3-sw", body)
    problem = assert_problem(r, 422)
    assert problem["field"] == field, (case, problem)
    assert sg.version() == v0, f"{case}: the refusal appended"
    assert sg.get("referee").json()["rolls"] == 0
    # No roll index was consumed, no table was defined.
    good = created(roll(sg, "American", "sg:3.3-sw"))
    assert good["roll"]["index"] == 0
    items, _ = events(sg, "referee")
    assert len(of_type(items, "TableDefined")) == 1
    assert len(of_type(items, "TableRolled")) == 1


@pytest.mark.parametrize("table_id", ["sg:3.2", "3.2", "kgp:8.606-infantry", "sg:3.6", "x" * 60])
def test_unknown_table_roll_is_404_and_appends_nothing(sg: Game, table_id: str) -> None:
    in_step(sg, "American", "3.1")
    v0 = sg.version()
    assert_problem(roll(sg, "American", table_id, {"drm": [other(1, "x")]}), 404)
    assert sg.version() == v0
    assert created(roll(sg, "American", "sg:3.1"))["roll"]["index"] == 0


def test_too_long_table_id_is_422(sg: Game) -> None:
    v0 = sg.version()
    assert_problem(roll(sg, "American", "x" * 61), 422)
    assert sg.version() == v0


def test_table_roll_needs_a_valid_token(sg: Game, client: TestClient) -> None:
    elsewhere = Game(client, SG_CAMPAIGN)
    in_step(sg, "American", "3.3")
    v0 = sg.version()
    url = f"{sg.url}/tables/sg:3.3-sw/rolls"
    for headers in (
        {},
        {"Authorization": "Bearer "},
        {"Authorization": "Bearer cgl_not-a-token"},
        {"Authorization": sg.h("American")["Authorization"][:-1]},
        elsewhere.h("American"),
        elsewhere.h("referee"),
        {"Authorization": sg.tokens["American"]},  # no "Bearer"
    ):
        r = client.post(url, json={"drm": [other(1, "x")]}, headers=headers)
        assert_problem(r, 401)
        # A bad body does not turn a 401 into a 422 (auth comes first).
        bad = client.post(url, json={"drm": "nonsense"}, headers=headers)
        assert_problem(bad, 401)
    assert sg.version() == v0
    assert created(roll(sg, "American", "sg:3.3-sw"))["roll"]["index"] == 0


def test_if_match_mismatch_is_409_and_appends_nothing(sg: Game) -> None:
    in_step(sg, "American", "3.3")
    v0 = sg.version()
    stale = f'"{v0 - 1}"'
    r = roll(sg, "American", "sg:3.3-sw", {}, **{"If-Match": stale})
    assert_problem(r, 409)
    assert sg.version() == v0
    good = created(roll(sg, "American", "sg:3.3-sw", {}, **{"If-Match": f'"{v0}"'}))
    assert good["roll"]["index"] == 0


# Named DRMs: SG tables have none, so a small probe table stands in.

PROBE = Table(
    id="sg:probe",
    rule="probe",
    title="Probe table for named DRMs",
    dice=1,
    bands=(tb.le(3, "Low"), tb.ge(4, "High")),
    drms=(
        tb.fixed("night", 1, "+1 If Night"),
        tb.per("cvp", -1, "-1 Per 30 CVP (FRD)", counts="CVP", divisor=30),
        tb.valued("leader", "+x Leader DRM"),
        tb.fixed("ot", -1, "-1 If OT AFV", group="afv"),
        tb.fixed("ct", -2, "-2 If CT AFV", group="afv"),
    ),
)

NAMED_REFUSALS: list[tuple[str, list[DrmRequest], str]] = [
    ("count on a fixed DRM", [DrmRequest("night", count=1)], "drm[0]"),
    ("value on a fixed DRM", [DrmRequest("night", value=1)], "drm[0]"),
    ("no count on a per DRM", [DrmRequest("cvp")], "drm[0]"),
    ("value on a per DRM", [DrmRequest("cvp", value=2)], "drm[0]"),
    ("negative count", [DrmRequest("cvp", count=-1)], "drm[0].count"),
    ("count too large", [DrmRequest("cvp", count=1000)], "drm[0].count"),
    ("no value on a valued DRM", [DrmRequest("leader")], "drm[0]"),
    ("count on a valued DRM", [DrmRequest("leader", count=1)], "drm[0]"),
    ("note on a named DRM", [DrmRequest("night", note="x")], "drm[0]"),
    ("unknown DRM", [DrmRequest("nope")], "drm[0].id"),
    ("named twice", [DrmRequest("night"), DrmRequest("night")], "drm[1]"),
    ("same group", [DrmRequest("ot"), DrmRequest("ct")], "drm[1]"),
]


@pytest.mark.parametrize(
    ("case", "requests", "field"), NAMED_REFUSALS, ids=[c[0] for c in NAMED_REFUSALS]
)
def test_apply_drms_refuses_a_misnamed_drm(
    case: str, requests: list[DrmRequest], field: str
) -> None:
    with pytest.raises(InvalidInput) as info:
        tb.apply_drms(PROBE, requests, {})
    assert info.value.field == field, case


def test_apply_drms_values() -> None:
    applied = tb.apply_drms(
        PROBE,
        [DrmRequest("night"), DrmRequest("cvp", count=65), DrmRequest("leader", value=2)],
        {},
    )
    assert [(a["id"], a["value"]) for a in applied] == [("night", 1), ("cvp", -2), ("leader", 2)]
    assert applied[1]["count"] == 65
    assert applied[2]["x"] == 2


@pytest.fixture
def probe_served(monkeypatch: pytest.MonkeyPatch) -> Table:
    """Serve PROBE as an SG table (as ``sg:probe`` or ``probe``) for one test."""
    original = Ruleset.table

    def table(self: Ruleset, table_id: str) -> Table | None:
        if self.id == "sg" and table_id in ("probe", "sg:probe"):
            return PROBE
        return original(self, table_id)

    monkeypatch.setattr(Ruleset, "table", table)
    return PROBE


def wire(requests: list[DrmRequest]) -> list[dict[str, Any]]:
    out = []
    for req in requests:
        item: dict[str, Any] = {"id": req.id}
        for key in ("count", "value", "note"):
            if getattr(req, key) is not None:
                item[key] = getattr(req, key)
        out.append(item)
    return out


@pytest.mark.parametrize(
    ("case", "requests", "field"), NAMED_REFUSALS, ids=[c[0] for c in NAMED_REFUSALS]
)
def test_rest_refuses_a_misnamed_drm(
    sg: Game, probe_served: Table, case: str, requests: list[DrmRequest], field: str
) -> None:
    v0 = sg.version()
    problem = assert_problem(roll(sg, "German", "sg:probe", {"drm": wire(requests)}), 422)
    assert problem["field"] == field, (case, problem)
    assert sg.version() == v0
    good = created(roll(sg, "German", "sg:probe", {"drm": [{"id": "night"}]}))
    assert good["roll"]["index"] == 0


def test_rest_applies_named_drms_and_verifies(sg: Game, probe_served: Table) -> None:
    body = {
        "drm": [
            {"id": "night"},
            {"id": "cvp", "count": 65},
            {"id": "leader", "value": 2},
            other(-1, "scenario SSR"),
        ]
    }
    view = created(roll(sg, "German", "probe", body))
    assert [(d["id"], d["value"]) for d in view["drm"]] == [
        ("night", 1),
        ("cvp", -2),
        ("leader", 2),
        ("other", -1),
    ]
    assert view["table"]["hash"] == content_hash(PROBE)
    assert_result_consistent(PROBE, view, 0)
    report = verify_bytes(export(sg, "American"))
    assert report.rule_results_checked == 1


def _named_drm_table() -> tuple[str, Table, tb.DrmDef, tb.DrmDef, dict[str, Any]] | None:
    """A KGP or ABtF table with a fixed and a per DRM, and inputs it accepts."""
    for rid in ("kgp", "abtf"):
        for t in REGISTRY[rid].tables.values():
            fixed_ = next((d for d in t.drms if d.kind == "fixed"), None)
            per_ = next((d for d in t.drms if d.kind == "per"), None)
            if t.endpoint or fixed_ is None or per_ is None:
                continue
            if fixed_.group and fixed_.group == per_.group:
                continue
            inputs: dict[str, Any] = {i.id: i.choices[0] if i.choices else i.lo for i in t.inputs}
            try:
                tb.check_inputs(t, inputs)
            except InvalidInput:
                continue
            return rid, t, fixed_, per_, inputs
    return None


def test_rest_refuses_misnamed_drms_on_a_real_kgp_or_abtf_table(client: TestClient) -> None:
    found = _named_drm_table()
    if found is None:
        pytest.skip("no KGP/ABtF table with a fixed and a per DRM is registered yet")
    rid, table, fixed_, per_, inputs = found
    rs = REGISTRY[rid]
    name, cgdef = next(iter(rs.campaigns.items()))
    body: dict[str, Any] = {"ruleset": rid, "campaign": name}
    if cgdef.initial_date is None:
        body["start_date"] = cgdef.calendar[0]
    game = Game(client, body)
    # After the Initial Scenario the steps of the next RePh (8.601-8.611) apply.
    game.end_scenario()
    side = rs.sides[0]
    v0 = game.version()
    # Ending it sealed the sides' empty records, some with a roll index (DESIGN §4).
    rolls0 = ok(game.get("referee"))["rolls"]
    cases = [
        ([{"id": fixed_.id, "count": 1}], "drm[0]"),
        ([{"id": per_.id}], "drm[0]"),
        ([{"id": "no-such-drm"}], "drm[0].id"),
        ([other(1, "x"), {"id": per_.id, "value": 1}], "drm[1]"),
    ]
    for drm, field in cases:
        r = roll(game, side, table.id, {"drm": drm, "inputs": inputs})
        assert assert_problem(r, 422)["field"] == field, (table.id, drm)
        assert game.version() == v0
    r = roll(game, side, table.id, {"drm": [{"id": "no"}], "inputs": {**inputs, "zzz": 1}})
    assert assert_problem(r, 422)["field"] == "inputs.zzz"
    good = {"drm": [{"id": fixed_.id}, {"id": per_.id, "count": 0}], "inputs": inputs}
    view = created(roll(game, side, table.id, good))
    assert view["roll"]["index"] == rolls0  # the refusals consumed no index
    assert [d["id"] for d in view["drm"] if d["id"] in (fixed_.id, per_.id)] == [
        fixed_.id,
        per_.id,
    ]


def test_free_roll_cannot_pose_as_a_table_roll(sg: Game) -> None:
    """Purposes starting with "sg:" are the table endpoint's: a free roll with
    the purpose of a 3.7 roll is refused, so "purpose starts with the table id"
    identifies a table roll."""
    v0 = sg.version()
    for purpose in ("sg:3.7 U.S. Medium Tank Models: M4 Model Table", " SG:3.7 M4"):
        r = sg.post("American", "/rolls", {"dice": 2, "purpose": purpose})
        assert assert_problem(r, 422)["field"] == "purpose"
    assert sg.version() == v0


def test_tables_with_their_own_endpoint_are_refused_here(client: TestClient) -> None:
    found = [
        (rid, t) for rid in ("kgp", "abtf") for t in REGISTRY[rid].tables.values() if t.endpoint
    ]
    if not found:
        pytest.skip("no table with its own endpoint is registered yet")
    rid, table = found[0]
    rs = REGISTRY[rid]
    name, cgdef = next(iter(rs.campaigns.items()))
    body: dict[str, Any] = {"ruleset": rid, "campaign": name}
    if cgdef.initial_date is None:
        body["start_date"] = cgdef.calendar[0]
    game = Game(client, body)
    side = rs.sides[0]
    v0 = game.version()
    # The referee, who may roll any table at any time, is sent to the endpoint.
    problem = assert_problem(roll(game, "referee", table.id), 409)
    assert table.endpoint in problem["detail"]
    # Before the Initial Scenario the table's step does not apply to a side yet.
    problem = assert_problem(roll(game, side, table.id), 409)
    assert problem["detail"].startswith(f"{table.rule}:"), problem
    assert game.version() == v0
    # On the next CG Date, where its step applies, a side is sent there too.
    game.next_date(replenish=False)
    v1 = game.version()
    problem = assert_problem(roll(game, side, table.id), 409)
    assert problem["detail"].startswith(f"{table.rule}:"), problem
    assert table.endpoint in problem["detail"]
    assert game.version() == v1


def test_unicode_note_round_trips_and_verifies(sg: Game) -> None:
    note = 'Ldr 9-2 ≤ “quoted” \\ "q" \t tab, 🎲, ü'
    in_step(sg, "German", "3.6")
    mine = created(roll(sg, "German", "sg:3.6-german-armor", {"drm": [other(-1, note)]}))
    assert mine["drm"][0]["note"] == note
    assert note not in json.dumps(events(sg, "American")[0], ensure_ascii=False)
    ok(sg.post("German", f"/rolls/{mine['roll']['index']}/reveal"))
    seen = ok(sg.get("American", f"/rolls/{mine['roll']['index']}"))
    assert seen["outcome"]["drm"][0]["note"] == note
    for role in ROLES:
        assert verify_bytes(export(sg, role)).rule_results_checked == 1


# ---------------------------------------------------------------------------- 5. idempotency


@pytest.mark.parametrize("table_id", ["sg:3.3-sw", "sg:3.7"])
def test_idempotent_retry_returns_the_first_response(sg: Game, table_id: str) -> None:
    key = f"tables-{uuid.uuid4()}"
    body = {"drm": [other(1, "idem")], "client_nonce": "idem-nonce"}
    in_step(sg, "American", step_of(table_id))
    first = roll(sg, "American", table_id, body, **{"Idempotency-Key": key})
    view = created(first)
    assert "Idempotent-Replayed" not in first.headers
    v1 = sg.version()
    again = roll(sg, "American", table_id, body, **{"Idempotency-Key": key})
    assert again.status_code == 201, again.text
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json() == view
    assert again.headers["ETag"] == first.headers["ETag"]
    assert sg.version() == v1
    items, _ = events(sg, "referee")
    # One roll, public or sealed (DESIGN §2a: a secret one carries its table's
    # definition in its secret part instead of a public TableDefined).
    assert [kind_of(e) for e in items].count("TableRolled") == 1
    secret = SG_TABLES[table_id][1]
    assert len(of_type(items, "TableDefined")) == (0 if secret else 1)
    # The same key with another body is refused and appends nothing.
    changed = {**body, "drm": [other(2, "idem")]}
    r = roll(sg, "American", table_id, changed, **{"Idempotency-Key": key})
    assert_problem(r, 422)
    assert r.json()["field"] == "Idempotency-Key"
    assert sg.version() == v1
    # A new key rolls again, with the next index.
    fresh = created(roll(sg, "American", table_id, body, **{"Idempotency-Key": key + "-2"}))
    assert fresh["roll"]["index"] == view["roll"]["index"] + 1


# ---------------------------------------------------------------------------- 6. verify


def fails_at(data: bytes, seq: int) -> VerificationError:
    with pytest.raises(VerificationError) as info:
        verify_bytes(data)
    assert info.value.seq == seq, str(info.value)
    assert f"seq {seq}" in str(info.value)
    return info.value


class Story:
    """An SG campaign with four table rolls, exported by every role:

    * ``public``: the American's public 3.3 SW Repair dr with an "other" DRM,
    * ``leader``: the German's Secret 3.6 German Infantry Leader DR, still secret,
    * ``m4``: the American's Secret 3.7 M4 Model DR, then revealed,
    * ``recovery``: the referee's public 3.1 Recovery dr.

    Each side rolls in its RePh step, the sides moving on in turn (SG 1.2).
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        in_step(game, "American", "3.3")
        self.public = created(roll(game, "American", "sg:3.3-sw", {"drm": [other(2, "Ldr")]}))
        in_step(game, "German", "3.6")
        self.leader = created(roll(game, "German", "sg:3.6-german-infantry"))
        in_step(game, "American", "3.7")
        self.m4 = created(roll(game, "American", "sg:3.7", {"drm": [other(-1, NOTE)]}))
        self.recovery = created(roll(game, "referee", "sg:3.1"))
        ok(game.post("American", f"/rolls/{self.m4['roll']['index']}/reveal"))
        self.exports = {role: export(game, role) for role in ROLES}

    def defined_seq(self, table_id: str) -> int:
        _, evs = parse(self.exports["referee"])
        (seq,) = [
            e["seq"]
            for e in evs
            if e["type"] == "TableDefined" and e["payload"]["table"] == table_id
        ]
        return int(seq)


@pytest.fixture(scope="module")
def story(module_client: TestClient) -> Story:
    """Built once per module (and backend): the tests only read it."""
    return Story(sg_campaign(module_client))


def test_exports_with_table_rolls_verify(story: Story) -> None:
    # The American sees 3.3 SW, 3.7 (own, revealed) and 3.1; the German's Leader
    # DR is sealed from it. The German and the referee see all four.
    expected = {"American": 3, "German": 4, "referee": 4}
    four = {story.public["seq"], story.leader["seq"], story.m4["seq"], story.recovery["seq"]}
    for role in ROLES:
        report: Report = verify_bytes(story.exports[role])
        _, evs = parse(story.exports[role])
        assert report.events == story.game.version()
        # Every roll index: the four table rolls, and the empty sealed records
        # of the secret steps the sides completed (3.4, 3.6) that took one.
        indexed = [e for e in evs if "roll" in e["payload"]]
        assert four <= {e["seq"] for e in indexed}
        assert report.rolls == len(indexed) > 4
        assert report.rule_results_checked == expected[role], role
        # Only the public rolls' tables are defined in public: a sealed roll
        # carries its table's definition in its secret part (DESIGN §2a).
        assert len(report.tables) == 2
        assert {d["id"] for d, _ in report.tables.values()} == {"sg:3.3-sw", "sg:3.1"}
        defined = {e["payload"]["table"] for e in evs if e["type"] == "TableDefined"}
        assert defined == {"sg:3.3-sw", "sg:3.1"}
    for role in ("German", "referee"):
        _, evs = parse(story.exports[role])
        part = evs[story.leader["seq"] - 1]["secret"]
        (ref,) = [r["table"] for r in part["rolls"]]
        assert ref["id"] == "sg:3.6-german-infantry"
        assert tb.table_hash(part["tables"][ref["hash"]]) == ref["hash"]
    # public 3.3 SW, revealed 3.7 and public 3.1 recompute from their seeds;
    # the Leader DR and the empty records' indices stay hidden.
    american = verify_bytes(story.exports["American"])
    _, evs = parse(story.exports["American"])
    unrevealed = [
        e
        for e in evs
        if e["type"] == "RecordSealed" and "roll" in e["payload"] and e["seq"] != story.m4["seq"]
    ]
    assert story.leader["seq"] in [e["seq"] for e in unrevealed]
    assert american.rolls_recomputed == 3
    assert american.rolls_hidden == len(unrevealed)


def test_cli_verifies_a_table_roll_export(story: Story, tmp_path: Path) -> None:
    path = tmp_path / "american.jsonl"
    path.write_bytes(story.exports["American"])
    done = subprocess.run(
        [str(CLI), "verify", str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("OK")
    header, evs = parse(story.exports["American"])
    evs[story.public["seq"] - 1]["payload"]["final"] += 1
    path.write_bytes(reseal(header, evs))
    done = subprocess.run(
        [str(CLI), "verify", str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode != 0
    assert f"seq {story.public['seq']}" in done.stdout + done.stderr


def _forge_final(p: dict[str, Any], table: Table) -> None:
    p["final"] += 1


def _forge_outcome_text(p: dict[str, Any], table: Table) -> None:
    p["outcome"]["text"] = "Repaired" if p["outcome"]["text"] != "Repaired" else "Eliminated"


def _forge_coherent_result(p: dict[str, Any], table: Table) -> None:
    """Final and outcome changed together so that they agree with each other."""
    final = 99 if p["final"] < 6 else -5
    p["final"] = final
    p["outcome"] = expected_outcome(table, final)


def _forge_original(p: dict[str, Any], table: Table) -> None:
    p["original"] = 7 - p["original"] if p["original"] != 7 - p["original"] else 1


def _forge_drm_value(p: dict[str, Any], table: Table) -> None:
    p["drm"][0]["value"] = 3


def _forge_band(p: dict[str, Any], table: Table) -> None:
    p["outcome"]["band"] = (p["outcome"]["band"] + 1) % len(table.bands)


FORGERIES: dict[str, Callable[[dict[str, Any], Table], None]] = {
    "final": _forge_final,
    "outcome text": _forge_outcome_text,
    "final and outcome": _forge_coherent_result,
    "original": _forge_original,
    "drm value": _forge_drm_value,
    "band index": _forge_band,
}


@pytest.mark.parametrize("forgery", FORGERIES)
@pytest.mark.parametrize("role", ROLES)
def test_forged_public_table_result_fails_at_its_seq(story: Story, role: str, forgery: str) -> None:
    header, evs = parse(story.exports[role])
    seq = story.public["seq"]
    event = evs[seq - 1]
    assert event["type"] == "TableRolled"
    before = deepcopy(event["payload"])
    FORGERIES[forgery](event["payload"], SG.tables["sg:3.3-sw"])
    assert event["payload"] != before
    forged = reseal(header, evs)
    # Only the edited event differs in content; the chain itself is consistent.
    assert split(forged)[1:seq] == split(story.exports[role])[1:seq]
    err = fails_at(forged, seq)
    assert "sg:3.3-sw" in str(err)


def _forge_m4(story: Story, where: str, *, reveal_too: bool) -> tuple[bytes, int]:
    """The German's export with the revealed M4 DR's Final raised by 3: the
    act's (what is shown) or its roll's and the act's; in the sealed part the
    record holds and, with ``reveal_too``, in the copy its reveal published.
    Returns the forged export and the reveal's seq."""
    header, evs = parse(story.exports["German"])
    seq = story.m4["seq"]
    (reveal,) = [e for e in evs if e["type"] == "SecretRevealed"]
    assert reveal["payload"]["of_seq"] == seq
    parts = [evs[seq - 1]["secret"]]
    if reveal_too:
        parts.append(reveal["payload"]["sealed"])
    for part in parts:
        assert part is not None
        part["final"] += 3
        if where == "roll":
            part["rolls"][0]["final"] += 3
    return reseal(header, evs), reveal["seq"]


@pytest.mark.parametrize("where", ["act", "roll"])
def test_forged_revealed_secret_table_result_fails_at_its_seq(story: Story, where: str) -> None:
    seq = story.m4["seq"]
    # Its reveal published the part as recorded: the reveal no longer matches.
    forged, reveal_seq = _forge_m4(story, where, reveal_too=False)
    err = fails_at(forged, reveal_seq)
    assert f"digest recorded with event {seq}" in str(err)
    # Forged in both: the result is re-read, and fails at the record's seq.
    forged, _ = _forge_m4(story, where, reveal_too=True)
    err = fails_at(forged, seq)
    assert "sg:3.7" in str(err)


@pytest.mark.parametrize("where", ["act", "roll"])
def test_forged_owner_view_of_an_unrevealed_table_result_fails(story: Story, where: str) -> None:
    """The German's export holds his unrevealed Leader DR: its seed is not yet
    public, but its result is still re-read from the recorded dice, the one
    its roll records and the one the act records (what is shown)."""
    header, evs = parse(story.exports["German"])
    seq = story.leader["seq"]
    part = evs[seq - 1]["secret"]
    edited = part if where == "act" else part["rolls"][0]
    edited["outcome"]["text"] = "10-2"
    err = fails_at(reseal(header, evs), seq)
    assert "sg:3.6-german-infantry" in str(err)


def test_forged_table_definition_fails_with_the_hash_mismatch(story: Story) -> None:
    header, evs = parse(story.exports["American"])
    seq = story.defined_seq("sg:3.3-sw")
    definition = evs[seq - 1]["payload"]["definition"]
    band = story.public["outcome"]["band"]
    definition["bands"][band]["result"] = "Repaired by a forger"
    err = fails_at(reseal(header, evs), seq)
    assert "definition does not match its hash" in str(err)


def test_forged_definition_with_its_own_hash_breaks_the_roll_that_used_it(
    story: Story,
) -> None:
    """The forger also rewrites the TableDefined hash: the roll still names the
    genuine hash, so it has no definition recorded before it."""
    header, evs = parse(story.exports["American"])
    seq = story.defined_seq("sg:3.3-sw")
    payload = evs[seq - 1]["payload"]
    payload["definition"]["bands"][0]["result"] = "Repaired by a forger"
    payload["hash"] = tb.table_hash(payload["definition"])
    err = fails_at(reseal(header, evs), story.public["seq"])
    assert "no definition" in str(err)


def test_forged_definition_rehashed_everywhere_still_rereads_the_roll(story: Story) -> None:
    """The forger rewrites the band the roll landed in and both hashes: the
    re-read gives the forged words, which differ from the recorded outcome."""
    header, evs = parse(story.exports["American"])
    seq = story.defined_seq("sg:3.3-sw")
    payload = evs[seq - 1]["payload"]
    band = story.public["outcome"]["band"]
    payload["definition"]["bands"][band]["result"] = "Repaired by a forger"
    payload["hash"] = tb.table_hash(payload["definition"])
    evs[story.public["seq"] - 1]["payload"]["table"]["hash"] = payload["hash"]
    err = fails_at(reseal(header, evs), story.public["seq"])
    assert "outcome" in str(err)


def test_forged_table_roll_without_its_table_ref_still_fails(story: Story) -> None:
    """A TableRolled event whose ``payload.table`` is dropped (and whose Final is
    changed) must not slip past the re-read: every visible table roll re-reads."""
    header, evs = parse(story.exports["German"])
    seq = story.public["seq"]
    payload = evs[seq - 1]["payload"]
    assert evs[seq - 1]["type"] == "TableRolled"
    del payload["table"]
    payload["final"] += 5
    payload["outcome"] = expected_outcome(SG.tables["sg:3.3-sw"], payload["final"])
    fails_at(reseal(header, evs), seq)


def _record_unknown_input(p: dict[str, Any]) -> None:
    p["inputs"] = {"san": 3}


def _record_other_of_zero(p: dict[str, Any]) -> None:
    p["drm"][0]["value"] = 0
    p["final"] = p["original"]
    p["outcome"] = expected_outcome(SG.tables["sg:3.3-sw"], p["final"])


def _record_blank_note(p: dict[str, Any]) -> None:
    p["drm"][0]["note"] = p["drm"][0]["text"] = " "


def verify_outcome(data: bytes) -> Report | Exception:
    """What verify_bytes returns or raises, whatever it is."""
    try:
        return verify_bytes(data)
    except Exception as exc:
        return exc


UNREADABLE: dict[str, Callable[[dict[str, Any]], None]] = {
    "unknown input": _record_unknown_input,
    "other DRM of 0": _record_other_of_zero,
    "other DRM with a blank note": _record_blank_note,
}


@pytest.mark.parametrize("edit", UNREADABLE)
def test_forged_table_roll_the_resolver_refuses_is_a_verification_error(
    story: Story, edit: str
) -> None:
    """A recorded roll that the resolver cannot re-read (it would refuse such a
    request) is reported as a VerificationError naming its seq, not raised as
    the resolver's own InvalidInput."""
    header, evs = parse(story.exports["American"])
    seq = story.public["seq"]
    UNREADABLE[edit](evs[seq - 1]["payload"])
    result = verify_outcome(reseal(header, evs))
    assert isinstance(result, VerificationError), f"verify_bytes gave {result!r}"
    assert result.seq == seq, str(result)


def test_cli_reports_an_unreadable_table_roll_without_a_traceback(
    story: Story, tmp_path: Path
) -> None:
    header, evs = parse(story.exports["American"])
    seq = story.public["seq"]
    _record_unknown_input(evs[seq - 1]["payload"])
    path = tmp_path / "forged.jsonl"
    path.write_bytes(reseal(header, evs))
    done = subprocess.run(
        [str(CLI), "verify", str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    assert f"seq {seq}" in done.stdout + done.stderr
