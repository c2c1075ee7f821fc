"""DESIGN §8: a table is rolled by the sides its rule names, on the CG Dates
its rule allows. A wrong side is 403, a wrong date 409, the detail starting
with the rule number, and nothing is appended; the referee may roll any table
at any time (a ruling, recorded as the referee's)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from conftest import Game, assert_problem, created
from fastapi.testclient import TestClient

from cgledger.domain import tables as tablebook
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import period_date_key
from cgledger.domain.tables import Table, content_hash

pytestmark = pytest.mark.shared_app

#: How each ruleset's campaign is created for these tests.
CREATE = {
    "kgp": {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}},
    "abtf": {"ruleset": "abtf", "campaign": "CG I", "start_date": "19 AM"},
    "sg": {"ruleset": "sg", "campaign": "SG"},
}

#: Every table bound to sides, with the sides its rule names (read off the seeds).
SIDE_BOUND = {
    "kgp:8.6171": ("US",),
    "kgp:8.6171-mist": ("US",),
    "kgp:8.6233a": ("US",),
    "kgp:KGP13": ("German",),
    "kgp:8.6204": ("German",),
    "abtf:9.6213a": ("German",),
    "abtf:9.6215": ("German",),
    "abtf:9.62161": ("British",),
    "abtf:9.62163": ("British",),
    "abtf:9.62164": ("British",),
    "kgp:8.6141c": ("German",),
    "kgp:8.6146": ("German",),
    "kgp:8.618": ("German",),
    "kgp:8.6201": ("German",),
    "kgp:8.6202": ("US",),
    "kgp:8.6203-I": ("US",),
    "kgp:8.6203-II": ("US",),
    "kgp:8.6205": ("German",),
    "kgp:8.6206-us": ("US",),
    "kgp:8.6206-german": ("German",),
    # The same columns under the reading "leader-columns": "german-first" (DESIGN §14).
    "kgp:8.6206-us-column-2": ("US",),
    "kgp:8.6206-german-column-1": ("German",),
    "abtf:9.61221": ("British",),
    "abtf:9.61222": ("German",),
    "abtf:9.6182-star": ("German",),
    "abtf:9.6183-british": ("British",),
    "abtf:9.6183-german": ("German",),
    "abtf:9.6184-A2": ("German",),
    "abtf:9.6184-A3": ("German",),
    "abtf:9.6184-A4": ("German",),
    "abtf:9.6184-A6": ("German",),
    "abtf:9.6201": ("British",),
    "sg:3.6-german-infantry": ("German",),
    "sg:3.6-german-armor": ("German",),
    "sg:3.6-american-infantry": ("American",),
    "sg:3.6-american-armor": ("American",),
    "sg:3.7": ("American",),
    # 3.4: "The American player secretly spends ... For each Armor Group
    # purchased, make a dr to determine armor type."
    "sg:3.4": ("American",),
}


def _all_tables() -> list[Table]:
    return [t for rs in REGISTRY.values() for t in rs.tables.values()]


def test_the_bindings_are_the_seeds() -> None:
    """Every side-bound table and no other (a table added later must be read
    off its rule text and listed here)."""
    bound = {t.id: t.sides for t in _all_tables() if t.sides and t.ruleset in CREATE}
    assert bound == SIDE_BOUND


def test_the_dates_are_the_seeds() -> None:
    dated = {
        t.id: (t.from_date, t.on_dates)
        for t in _all_tables()
        if (t.from_date or t.on_dates) and t.ruleset in CREATE
    }
    assert dated == {
        "kgp:8.618": ("20 AM", ()),  # 8.618 "Beginning on Dec 20 AM"
        "kgp:KGP13": ("20 AM", ()),  # KGP13 "Commencing on Dec 20 AM"
        "kgp:8.6141c": (None, ("22 N",)),  # 8.6141c "If the current CG Date is Dec 22 N"
        "abtf:9.6201": ("19 AM", ()),  # 9.6201 "Commencing on the 19AM CG Date"
    }


@pytest.mark.parametrize("table_id", ["kgp:8.618", "abtf:9.6201", "sg:3.7", "kgp:8.6206-armor"])
def test_binding_is_not_part_of_the_content_hash(table_id: str) -> None:
    """A roll's recorded table hash says how the roll reads; who may roll it
    is not part of that, so binding a table does not make its old rolls audit
    against another definition."""
    rs = REGISTRY[table_id.split(":", maxsplit=1)[0]]
    table = rs.tables[table_id]
    assert table.step is not None  # bound to its RePh step too (DESIGN §8)
    unbound = dataclasses.replace(table, sides=(), from_date=None, on_dates=(), step=None)
    assert content_hash(unbound) == content_hash(table)


@pytest.mark.parametrize(
    ("earlier", "later"),
    [("19 N", "20 AM"), ("19 AM", "19 PM"), ("9 N", "10 AM"), ("20 PM", "20 N")],
)
def test_period_date_key_orders_cg_dates(earlier: str, later: str) -> None:
    key = period_date_key({"am": "AM", "pm": "PM", "n": "N"})
    assert key(earlier) is not None
    assert key(later) is not None
    assert key(earlier) < key(later)  # type: ignore[operator]
    assert key("19 EVE") is None
    assert key("PM 19") is None


def test_a_ruleset_refuses_a_table_bound_to_an_unknown_side_or_date() -> None:
    rs = REGISTRY["kgp"]
    table = rs.tables["kgp:8.618"]
    with pytest.raises(ValueError, match="unknown sides"):
        dataclasses.replace(rs, tables={"x": dataclasses.replace(table, sides=("British",))})
    with pytest.raises(ValueError, match="not a canonical CG Date"):
        dataclasses.replace(rs, tables={"x": dataclasses.replace(table, from_date="20am")})
    with pytest.raises(ValueError, match="needs the ruleset's date_key"):
        dataclasses.replace(rs, date_key=None, tables={"x": table})


# ---------------------------------------------------------------------------- over REST


def _game(client: TestClient, ruleset: str) -> Game:
    return Game(client, CREATE[ruleset])


def _roll(game: Game, role: str, table_id: str, body: dict[str, Any] | None = None) -> Any:
    return game.post(role, f"/tables/{table_id}/rolls", body or {})


@pytest.mark.parametrize("table_id", sorted(SIDE_BOUND))
def test_the_other_side_is_403_and_nothing_is_appended(client: TestClient, table_id: str) -> None:
    ruleset = table_id.split(":", maxsplit=1)[0]
    game = _game(client, ruleset)
    table = REGISTRY[ruleset].tables[table_id]
    rule = table.rule
    for side in REGISTRY[ruleset].sides:
        if side in SIDE_BOUND[table_id]:
            continue
        before = game.version()
        # A table that changes the campaign's state is rolled through its endpoint.
        r = game.post(side, table.endpoint, {}) if table.endpoint else _roll(game, side, table_id)
        problem = assert_problem(r, 403)
        assert problem["detail"].startswith(f"{rule}: ")
        assert f"not by the {side} side" in problem["detail"]
        assert problem["rule"] == rule
        assert game.version() == before


@pytest.mark.parametrize("table_id", sorted(SIDE_BOUND))
def test_its_own_side_and_the_referee_are_not_refused_for_the_side(
    client: TestClient, table_id: str
) -> None:
    """The side the rule names rolls it (201, recorded as its roll), or is
    refused only for when it asks (409, by the rule of the table or of its RePh
    step), never for who it is; the referee's ruling is rolled at any time
    (201, recorded as the referee's) unless the table has its own command (409
    naming it). A roll that lacks an input is 422 naming it, whoever asks and
    whenever (the body is read before the step, issue 26 item 3)."""
    ruleset = table_id.split(":", maxsplit=1)[0]
    game = _game(client, ruleset)
    table = REGISTRY[ruleset].tables[table_id]
    for role in (*SIDE_BOUND[table_id], "referee"):
        before = game.version()
        r = _roll(game, role, table_id)
        if role == "referee" and table.endpoint:
            problem = assert_problem(r, 409)
            assert problem["detail"].endswith(f"roll it with POST {game.url}{table.endpoint}")
        elif table.inputs:
            # The body is read before the step (issue 26 item 3): an input left
            # out is 422 naming it, to the side as to the referee.
            problem = assert_problem(r, 422)
            assert problem["detail"].startswith(f"{table_id} needs input '{table.inputs[0].id}'")
        elif role == "referee" or r.status_code == 201:
            out = created(r)
            assert (out["side"], out["table"]["id"]) == (role, table_id)
            assert game.version() > before
            continue
        else:
            problem = assert_problem(r, 409)
            assert problem["detail"].startswith(f"{problem['rule']}: "), problem
            # The table's rule (or one of its sub-rules, 9.62133a of 9.6213a), or its step's.
            rule = problem["rule"]
            assert rule in (table.rule, table.step) or rule.startswith(table.rule.rstrip("ab"))
            assert f"not by the {role} side" not in problem["detail"], problem
        assert game.version() == before


def test_kgp_8_618_is_rolled_from_20_am_on(client: TestClient) -> None:
    """8.618 changes the campaign's state, so it has its own command
    (``/ammunition-shortage``); a plain table roll of it is refused at any
    time, naming that command. Before 20 AM its RePh step does not apply."""
    game = _game(client, "kgp")
    game.to_date("19 PM")
    for side in ("US", "German"):
        created(game.post(side, "/cpp-replenishments", {}))  # 8.616 comes before 8.618
    before = game.version()
    problem = assert_problem(
        game.post("German", "/ammunition-shortage", {"scenarios_after_20_am": 0}), 409
    )
    assert problem["detail"] == (
        "8.618: the German Ammunition Shortage DR belongs to RePh step 8.618 (German "
        "Ammunition Shortage), which does not apply to German on 19 PM (it applies from "
        "20 AM on)"
    )
    assert problem["rule"] == "8.618"
    problem = assert_problem(_roll(game, "German", "kgp:8.618"), 409)
    assert problem["detail"] == (
        f"8.618: kgp:8.618 changes the campaign's state; roll it with "
        f"POST /v1/campaigns/{game.id}/ammunition-shortage"
    )
    assert problem["rule"] == "8.618"
    assert game.version() == before

    # The referee's ruling: rolled at any time, and recorded as the referee's.
    ruling = created(
        game.post("referee", "/ammunition-shortage", {"side": "German", "scenarios_after_20_am": 0})
    )
    assert ruling["event"]["actor"] == "referee"
    assert ruling["event"]["payload"]["cg_date"] == "19 PM"


def test_kgp_8_6141c_is_rolled_only_on_22_n(client: TestClient) -> None:
    game = Game(client, {"ruleset": "kgp", "campaign": "CG III", "initial_cpp": {"German": 2}})
    assert game.get("referee").json()["cg_date"] == "19 PM"
    # Before the Initial Scenario its step (8.614) does not apply at all ...
    problem = assert_problem(_roll(game, "German", "kgp:8.6141c"), 409)
    assert problem["detail"].startswith("8.6141c: ")
    assert problem["detail"].endswith("(only the '†' steps come before the Initial Scenario)")
    # ... and on a later CG Date, in its step, only 22 N is its date.
    game.next_date()
    before = game.version()
    problem = assert_problem(_roll(game, "German", "kgp:8.6141c"), 409)
    assert problem["detail"].startswith("8.6141c: ")
    assert problem["detail"].endswith("is rolled only on 22 N; the CG Date is 19 N")
    assert problem["rule"] == "8.6141c"
    assert game.version() == before
    game.to_date("22 N")
    assert created(_roll(game, "German", "kgp:8.6141c"))["side"] == "German"


def test_abtf_9_6201_is_rolled_by_the_british_from_19_am_on(client: TestClient) -> None:
    game = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 N"})
    problem = assert_problem(_roll(game, "British", "abtf:9.6201"), 409)
    assert problem["detail"].startswith("9.6201: ")
    assert problem["detail"].endswith("from 19 AM on; the CG Date is 18 N")
    game.to_date("19 AM", on_it=True)  # 9.616 comes before 9.620
    # ... and 9.618, with the Strength DR of the British I1 9.6152 gives on 19 AM.
    game.advance("British", "9.620")
    assert created(_roll(game, "British", "abtf:9.6201"))["side"] == "British"
    assert_problem(_roll(game, "German", "abtf:9.6201"), 403)


def test_the_listing_shows_who_rolls_and_when(client: TestClient) -> None:
    listed = {t["id"]: t for t in client.get("/v1/rulesets/kgp/tables").json()}
    assert listed["kgp:8.618"]["sides"] == ["German"]
    assert listed["kgp:8.618"]["from_date"] == "20 AM"
    assert listed["kgp:8.6141c"]["on_dates"] == ["22 N"]
    assert "sides" not in listed["kgp:8.6122"]  # both sides roll the SAN Adjustment
    assert "from_date" not in listed["kgp:8.6201"]


@pytest.mark.parametrize("table_id", ["abtf:9.613", "abtf:9.6183-british", "abtf:9.6183-armor"])
def test_abtf_tables_the_parallel_rules_call_secret_default_to_secret(table_id: str) -> None:
    """9.613 and 9.6183 are cut before they say how the DR is made; the parallel
    KGP rules (8.613, 8.6206) make it a Secret DR, and so does this ledger."""
    table = REGISTRY["abtf"].tables[table_id]
    assert table.secret
    assert any("Secret" in note for note in table.notes)


def test_the_listing_says_who_decides_each_drm(client: TestClient) -> None:
    """Issue 26: each DRM says whether the ledger computes it (a side that
    states it is 422) or the roller states it, and why; a side DRM names its
    side. The table's ``hash`` is its definition's, unchanged by these fields."""
    listed = {t["id"]: t for t in client.get("/v1/rulesets/kgp/tables").json()}
    drms = {d["id"]: d for d in listed["kgp:8.610"]["drms"]}
    assert drms["german"]["decided_by"] == "ledger"
    assert drms["german"]["sides"] == ["German"]
    assert drms["heroic"]["decided_by"] == "roller"
    assert "not tracked" in drms["heroic"]["why"]
    assert "sides" not in drms["heroic"]
    one = client.get("/v1/rulesets/kgp/tables/kgp:8.610").json()
    assert one == listed["kgp:8.610"]
    assert one["hash"] == tablebook.table_ref(REGISTRY["kgp"].tables["kgp:8.610"])["hash"]
