"""Readings as agreed data (DESIGN §14, issue 26 item 2): where the seed is cut
or contradicts its example, the choice is a reading a playing group sees
(``GET /v1/rulesets/{r}/readings``), selects in its CG definition's
``readings`` (an unknown id or choice is 422 naming ``readings.<id>``) and
changes by amendment, read as of any event. Each reading's default is the
ledger's old behaviour; every EX a reading touches is played under each choice.

The rules are checked at the domain level (``Facts``, the purchase needs and
prices, the RePh markers); the API is checked once per concern, on one app."""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from conftest import Game, assert_problem, created, examples, ok
from fastapi.testclient import TestClient
from hypothesis import strategies as st
from pydantic import ValidationError
from test_counted_drms import _shortage_dr
from test_initiative_cells import _after_initial
from test_purchases_ex import (
    EX_CHART,
    US_CHART,
    _buy,
    _campaign,
    _ctx,
    _definition,
    _determine,
    _row,
)

from cgledger.domain import purchases as book
from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.abtf import readings as abtf_readings
from cgledger.domain.rulesets.abtf.ruleset import exhaustion_drm
from cgledger.domain.rulesets.base import DateFacts, Facts, RePhStep
from cgledger.domain.rulesets.cpp import FortificationSetupCreate, RGItem, RGPurchaseCreate
from cgledger.domain.rulesets.kgp import readings as kgp_readings
from cgledger.domain.rulesets.readings import Reading
from cgledger.domain.tables import DrmRequest, resolve
from cgledger.domain.visibility import REFEREE
from cgledger.projections.reph import reph_view

pytestmark = pytest.mark.shared_app

KGP, ABTF, SG = REGISTRY["kgp"], REGISTRY["abtf"], REGISTRY["sg"]
#: Every reading the issue lists, by ruleset: (id, rule).
LISTED = {
    "kgp": {
        ("shortage-after-20-am", "8.618"),
        ("leader-columns", "8.6206"),
        ("standard-on-map-cost", "8.6194a"),
        # Which RG 8.6194a is for: played in tests/test_review26.py.
        ("standard-on-map-rgs", "8.6194a"),
        ("mist-and-overcast", "8.6171"),
        # 8.6161's chart and the 8.6162 EX: played in tests/test_readings_cpp.py.
        ("cpp-base-pairs", "8.6161"),
        ("cpp-base-cg3-23", "8.6161"),
        ("cpp-base-ex-19-pm", "8.6162"),
    },
    # 'armor-leader-drms' (9.6183): played in tests/test_review26.py.
    "abtf": {
        ("exhaustion-21-pm", "9.6161"),
        ("graebner-kg", "9.6184"),
        ("armor-leader-drms", "9.6183"),
    },
    "sg": {("m4-group", "3.7")},
}


def _choices(reading: Reading) -> list[str]:
    return list(reading.choices)


# ---------------------------------------------------------------- the readings as data


@pytest.mark.parametrize("ruleset", list(LISTED))
def test_each_ruleset_lists_its_readings(ruleset: str) -> None:
    rs = REGISTRY[ruleset]
    assert {(r.id, r.rule) for r in rs.readings} == LISTED[ruleset]
    assert rs.readings == rs.definition.READINGS  # type: ignore[attr-defined]
    for reading in rs.readings:
        assert reading.default in reading.choices
        assert len(reading.choices) >= 2
        assert reading.text
        assert reading.why
    # An id left out takes its default; the definition's choice stands.
    assert rs.readings_in_force({}) == {r.id: r.default for r in rs.readings}
    first = rs.readings[0]
    other = next(c for c in first.choices if c != first.default)
    assert rs.readings_in_force({first.id: other})[first.id] == other


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"default": "nope"}, "its default 'nope' is no choice"),
        ({"choices": {"only": "one"}, "default": "only"}, "two choices at least"),
        ({"id": "8.618"}, "is no reading id or choice"),
        ({"why": ""}, "rule, text and why are required"),
    ],
)
def test_a_reading_is_checked_when_it_is_built(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(kgp_readings.SHORTAGE, **changes)


def test_a_ruleset_is_checked_for_its_readings() -> None:
    twice = (*KGP.readings, kgp_readings.SHORTAGE)
    with pytest.raises(ValueError, match="listed twice"):
        dataclasses.replace(KGP, readings=twice)
    with pytest.raises(ValueError, match="READINGS are not the readings"):
        dataclasses.replace(KGP, readings=KGP.readings[:1])


@pytest.mark.parametrize("ruleset", list(LISTED))
def test_the_definition_refuses_an_unknown_reading_or_choice(ruleset: str) -> None:
    model = REGISTRY[ruleset].definition
    reading = REGISTRY[ruleset].readings[0]
    for chosen, loc, kind in (
        ({"nope": "x"}, ("readings", "nope"), "unknown_reading"),
        ({reading.id: "nope"}, ("readings", reading.id), "unknown_choice"),
    ):
        with pytest.raises(ValidationError) as err:
            model.model_validate({"readings": chosen})
        (found,) = err.value.errors()
        assert (found["loc"], found["type"]) == (loc, kind)
    every = {r.id: r.default for r in REGISTRY[ruleset].readings}
    assert model.model_validate({"readings": every}).readings == every  # type: ignore[attr-defined]


# ---------------------------------------------------------------- counted DRMs (Facts)


def _facts(
    cg_date: str,
    dates: list[tuple[str, str | None, dict[str, str], dict[str, int] | None]],
    readings: Mapping[str, str],
    *,
    side: str = "German",
    lasting: Mapping[str, Any] | None = None,
) -> Facts:
    return Facts(
        cg_date=cg_date,
        side=side,
        rules={},
        lasting=lasting or {},
        options=frozenset(),
        dates=tuple(DateFacts(d, s, chits, cvp) for d, s, chits, cvp in dates),
        readings=readings,
    )


def _count(rs: Any, table: str, drm: str, facts: Facts) -> int | None:
    (counted,) = [c for c in rs.counted(table) if c.drm == drm]
    found: int | None = counted.count(facts)
    return found


ENDED = {"US": 0, "German": 0}


@pytest.mark.parametrize(
    ("choice", "on_20_pm", "on_20_n"),
    [("from-20-am", 1, 2), ("after-20-am", 0, 1)],
)
def test_8_618_counts_the_scenarios_of_the_reading(
    choice: str, on_20_pm: int, on_20_n: int
) -> None:
    """8.618 "A +1 DRM applies per CG scenario completed after 20 AM": the 20 AM
    scenario counts ("from-20-am", the default) or does not ("after-20-am")."""
    readings = {"shortage-after-20-am": choice}
    played = [("19 AM", "initial", {}, ENDED), ("20 AM", "dual-attack", {}, ENDED)]
    facts = _facts("20 PM", [*played, ("20 PM", None, {}, None)], readings)
    assert _count(KGP, "kgp:8.618", "scenarios-after-20-am", facts) == on_20_pm
    played.append(("20 PM", "us-assault", {}, ENDED))
    facts = _facts("20 N", [*played, ("20 N", None, {}, None)], readings)
    assert _count(KGP, "kgp:8.618", "scenarios-after-20-am", facts) == on_20_n


@pytest.mark.parametrize(
    ("weather", "choice", "applies"),
    [
        ("Mist & Overcast", "overcast", 1),
        ("Mist & Overcast", "not-overcast", 0),
        ("Overcast", "overcast", 1),
        ("Overcast", "not-overcast", 1),
        ("Mist", "overcast", 0),
        ("Clear", "not-overcast", 0),
    ],
)
def test_8_6171_mist_and_overcast_is_overcast_as_the_reading_says(
    weather: str, choice: str, applies: int
) -> None:
    """8.6171 "-1 If the preceding CG Date's Weather was Overcast" after a
    Random Weather DR of "Mist & Overcast"."""
    before = {"value": weather, "cg_date": "20 AM", "seq": 1, "known": True, "before": None}
    lasting = {"weather": {"*": before}}
    dates = [("20 AM", "dual-attack", {}, ENDED), ("20 PM", None, {}, None)]
    facts = _facts("20 PM", dates, {"mist-and-overcast": choice}, side="US", lasting=lasting)
    assert _count(KGP, "kgp:8.6171", "preceding-overcast", facts) == applies
    assert _count(KGP, "kgp:8.6171", "preceding-clear", facts) == int(weather == "Clear")


def _ledger_roll(rs: Any, table_id: str, facts: Facts, stated: list[DrmRequest]) -> int:
    """The DRM total of a roll on ``table_id`` as the ledger makes it: each DRM
    it counts from ``facts`` for the rolling side, and the roller's stated ones
    it does not count."""
    table = rs.table(table_id)
    out: list[DrmRequest] = []
    for counted in rs.counted(table.id):
        if counted.sides and facts.side not in counted.sides:
            continue
        n = counted.count(facts)
        if n is None:
            continue
        kind = table.drm(counted.drm).kind
        if kind == "fixed":
            out += [DrmRequest(counted.drm)] if n else []
        elif kind == "per":
            out.append(DrmRequest(counted.drm, count=n))
        else:
            out.append(DrmRequest(counted.drm, value=n))
    known = {d.id for d in out}
    out += [d for d in stated if d.id not in known]
    result = resolve(table, (3, 4), out)
    return int(result["final"] - result["original"])


@pytest.mark.parametrize(
    ("choice", "british", "german"),
    [("ex", 7, 3), ("chart", 6, 2)],
)
def test_9_6202_ex_under_each_reading(choice: str, british: int, german: int) -> None:
    """9.6202 EX: "It is the 21PM CG Date. The British player chose an Attack
    Chit on 21AM and inflicted 42 CVP on the Germans. There was an idle CG Date
    on 20N. The British are under Ammunition Shortage Level 2. The British
    player's DRM total will be +7 (-1 for CVP, +1 for the 21AM CG Scenario, +1
    for the Attack Chit used on 21AM, +4 for Campaign Exhaustion, and +2 for
    British Ammunition Shortage). The German player inflicted 38 CVP and also
    selected an Attack Chit on 21AM. The German player's DRM will be +3 ...".
    The EX's +4 is the reading "ex"; the chart's +3 on 21 PM ("chart", the
    default) gives the British +6 and the German +3/2 = +1, a total of +2."""
    attack = {"British": "attack", "German": "attack"}
    dates = [
        ("20 N", "idle", {"British": "idle", "German": "idle"}, None),
        ("21 AM", "dual-attack", attack, {"British": 42, "German": 38}),
        ("21 PM", None, {}, None),
    ]
    readings = {"exhaustion-21-pm": choice}
    stated = {
        "British": [DrmRequest("cvp", count=42), DrmRequest("ammo-shortage", value=2)],
        "German": [DrmRequest("cvp", count=38)],
    }
    for side, total in (("British", british), ("German", german)):
        facts = _facts("21 PM", dates, readings, side=side)
        assert _ledger_roll(ABTF, "abtf:9.6202", facts, stated[side]) == total
    # Every table that reads the chart reads the reading; 21 EVE is +4 either way.
    x = 4 if choice == "ex" else 3
    assert exhaustion_drm("21 PM", readings) == x
    assert exhaustion_drm("21 EVE", readings) == 4
    facts = _facts("21 PM", dates, readings, side="British")
    assert _count(ABTF, "abtf:9.6181", "exhaustion", facts) == x
    assert _count(ABTF, "abtf:9.6201", "exhaustion", facts) == x


# ---------------------------------------------------------------- purchasing


@pytest.mark.parametrize(
    ("choice", "table", "leader"),
    [("us-first", "kgp:8.6206-us", "8-1"), ("german-first", "kgp:8.6206-us-column-2", "8-0")],
)
def test_8_6202_ex_then_the_leader_on_the_column_of_the_reading(
    choice: str, table: str, leader: str
) -> None:
    """8.6202 EX (the Arm'd Inf Pltn's Final dr of 1: Elite), then its 8.6206
    leader DR (footnote "l") with the -1 for an all-Elite RG: a Final DR of 6
    reads 8-1 on the first personnel column and 8-0 on the second."""
    rng = random.Random(8_6206)
    doc = _definition("kgp", EX_CHART, US_CHART)
    doc["readings"] = {"leader-columns": choice}
    c = _campaign(rng, German=10, US=60, definition=doc)
    seq = _buy(c, rng, "US", "I6")
    (got,) = _determine(c, rng, "US", seq, 0, (1, 2))
    assert got["final"] == 1
    assert _row(c, "US", seq, 0)["quality"].startswith("Elite")
    (got,) = _determine(c, rng, "US", seq, 0, (2, 7))
    assert (got["rule"], got["final"], got["outcome"]["text"]) == (table, 6, leader)
    assert "all-elite" in [d["id"] for d in got["drm"]]
    assert _row(c, "US", seq, 0)["leader"] == leader


@pytest.mark.parametrize("choice", _choices(kgp_readings.LEADER_COLUMNS))
def test_8_6206_each_side_reads_its_column_of_the_reading(choice: str) -> None:
    rules = KGP.rules.purchases  # type: ignore[attr-defined]
    german = {"id": "I2", "name": "SS Inf Pltn", "cpp": 4, "footnotes": ["l"]}
    row = book.new_row(1, 0, "20 AM", "I2", 4, None)
    row["results"]["strength"] = {"value": "F", "band": 0, "seq": 2}
    needs = rules.needs("German", german, row, {"leader-columns": choice})
    (need,) = [n for n in needs if n.key == "leader"]
    column = 2 if choice == "us-first" else 1
    assert need.table == ("kgp:8.6206-german" if column == 2 else "kgp:8.6206-german-column-1")
    assert (
        KGP.table(need.table).bands
        == KGP.table("kgp:8.6206-german" if column == 2 else "kgp:8.6206-us").bands
    )
    assert KGP.table(need.table).sides == ("German",)


@pytest.mark.parametrize(
    ("choice", "cost"), [("plus-50-frd", 9), ("plus-50-fru", 9), ("plus-100", 12)]
)
def test_8_6194a_standard_on_map_costs_what_the_reading_says(choice: str, cost: int) -> None:
    """8.6194a is cut after "each U.S./": its amount is a reading. An I6 (6 CPP)
    and an I1 (5 CPP: 7 FRD, 8 FRU, 10 doubled) bought for Standard On-Map
    Setup; a stated price other than the reading's is 422, the reading's is
    recorded."""
    rng = random.Random(8_61941)
    doc = _definition("kgp", EX_CHART, US_CHART)
    doc["readings"] = {"standard-on-map-cost": choice}
    c = _campaign(rng, German=60, US=60, definition=doc)
    i1 = {"plus-50-frd": 7, "plus-50-fru": 8, "plus-100": 10}[choice]
    for rg, want in (("I6", cost), ("I1", i1)):
        wrong = RGItem(rg=rg, map_group="Sx", modifiers=["standard-on-map"], cpp=want + 1)
        with pytest.raises(Exception, match=rf"^8\.6194: {rg} costs {want} CPP"):
            c.perform(_ctx("US", rng), "rg-purchases", RGPurchaseCreate(rgs=[wrong]))
        item = RGItem(rg=rg, map_group="Sx", modifiers=["standard-on-map"], cpp=want)
        body = RGPurchaseCreate(rgs=[item], secret=False)
        at = c.perform(_ctx("US", rng), "rg-purchases", body)
        (bought,) = c.record(at)["payload"]["rgs"]
        assert bought["cpp"] == want
    # 8.6194b Early Entry is no reading: +50% (FRD) under every choice.
    early = RGItem(rg="I1", map_group="Sx", modifiers=["early-entry"], cpp=7)
    c.perform(_ctx("US", rng), "rg-purchases", RGPurchaseCreate(rgs=[early]))


@pytest.mark.parametrize(
    ("kg", "choice", "rolls"),
    [
        ("G", "G", False),
        ("G", "GR", True),
        ("GR", "GR", False),
        ("GR", "G", True),
        (None, "G", True),
    ],
)
def test_9_6184_kg_graebner_is_the_letter_of_the_reading(
    kg: str | None, choice: str, rolls: bool
) -> None:
    """9.6184 "[EXC: A4 and A6 RGs available from KG Graebner]": no composition
    dr for a Graebner A4/A6, whose KG letter is the reading's; A2/A3 always."""
    rules = ABTF.rules.purchases  # type: ignore[attr-defined]
    for rg in ("A4", "A6", "A2"):
        entry = {"id": rg, "name": "Vehicle Group", "cpp": 5, "kg": kg}
        row = book.new_row(1, 0, "18 AM", rg if kg is None else f"{rg}({kg})", 5, None)
        found = [n.table for n in rules.needs("German", entry, row, {"graebner-kg": choice})]
        assert (f"abtf:9.6184-{rg}" in found) is (rolls or rg == "A2")


@pytest.mark.parametrize(
    ("notes", "choice", "tables"),
    [
        (["m4"], "model-only", ["sg:3.7"]),
        (["m4"], "armor-group", ["sg:3.4", "sg:3.6-american-armor", "sg:3.7"]),
        (["m4"], "leader-and-model", ["sg:3.6-american-armor", "sg:3.7"]),
        (["a", "m4"], "model-only", ["sg:3.4", "sg:3.6-american-armor", "sg:3.7"]),
        (["a"], "armor-group", ["sg:3.4", "sg:3.6-american-armor"]),
        (["i"], "armor-group", ["sg:3.6-american-infantry"]),
    ],
)
def test_sg_footnotes_and_the_m4_reading(notes: list[str], choice: str, tables: list[str]) -> None:
    """3.4 "For each Armor Group purchased, make a dr to determine armor type";
    3.6 "For each American Armored Infantry Platoon and Armor Reinforcement
    Group ... Leader Table"; 3.7 "For each M4 Armor Reinforcement Group ... M4
    Model Table". An "m4" line is an Armor Group too as the reading says."""
    rules = SG.rules.purchases  # type: ignore[attr-defined]
    entry = {"id": "A1", "name": "Armor Group", "cpp": 5, "footnotes": notes}
    row = book.new_row(1, 0, "Morning", "A1", 5, None)
    assert [n.table for n in rules.needs("American", entry, row, {"m4-group": choice})] == tables


# ---------------------------------------------------------------- the RePh markers


def test_an_idle_date_skips_8_624_and_8_625_and_sends_both_sides_to_8_6121() -> None:
    """8.6 "Those preceded by '‡' are performed only if, as per the result of
    Initiative Determination (8.623), a ..." and its list prints no '‡'; the
    lost '‡' is no reading a group chooses, because 8.6232 note 2 ends an Idle
    date's sequence at the Initiative: "No scenario generated for this CG
    Date; ... then repeats RePh steps 8.612-.6233". So 8.624 Unit Setup (a
    Fortification setup) and 8.625 are never taken on one, and both sides wait
    at 8.6121 New CG Date; the next CG Date is a new date."""
    rng = random.Random("idle 8.624")
    c = _after_initial("kgp", rng)
    idle_date = c.cg_date
    for side in c.sides:
        c.choose_initiative(_ctx(side, rng), side, "idle")
    assert c.initiatives[idle_date]["scenario"] == "idle"
    assert c.awaiting_new_date
    assert {side: c.current_step(side) for side in c.sides} == dict.fromkeys(c.sides, "8.612")
    steps = {s["rule"]: s for s in reph_view(c)["steps"]}
    for step_id in ("8.624", "8.625"):
        step: RePhStep = KGP.step(step_id)
        assert step.markers == ("‡",)
        assert steps[step_id]["markers"] == ["‡"]
        assert steps[step_id]["status"] == dict.fromkeys(c.sides, "n/a")
        for side in c.sides:
            with pytest.raises(RuleViolation, match=rf"^{re.escape(step_id)}: .* does not apply"):
                c.advance(_ctx(side, rng), side, step_id)
    for actor in ("German", REFEREE):  # the referee's ruling cannot skip 8.6121 either
        body = FortificationSetupCreate(side="German", map_group="Sx")
        with pytest.raises(RuleViolation, match=r"^8\.6(24|12): "):
            c.perform(_ctx(actor, rng), "fortification-setups", body)
    assert not any(c.record(s)["type"] == "FortificationsPlaced" for s in range(1, c.version + 1))
    c.begin_cg_date(_ctx(REFEREE, rng), None)
    assert c.cg_date != idle_date
    assert {side: c.current_step(side) for side in c.sides} == dict.fromkeys(c.sides, "8.612")
    # On a date whose Initiative generates a scenario, 8.624-.625 are taken.
    for scenario, applies in (("idle", False), ("german-assault", True), ("dual-attack", True)):
        for step_id in ("8.624", "8.625"):
            for side in KGP.sides:
                got = KGP.step_applies(
                    KGP.step(step_id), side, "20 PM", initial=False, scenario=scenario
                )
                assert got is applies


# ---------------------------------------------------------------- over the API


@pytest.mark.parametrize("ruleset", list(LISTED))
def test_get_readings(client: TestClient, ruleset: str) -> None:
    got = ok(client.get(f"/v1/rulesets/{ruleset}/readings"))
    assert got == [r.describe() for r in REGISTRY[ruleset].readings]
    for item in got:
        assert set(item) == {"id", "rule", "text", "choices", "default", "why"}
        assert item["default"] in item["choices"]
    (info,) = [r for r in ok(client.get("/v1/rulesets")) if r["id"] == ruleset]
    assert info["readings_url"] == f"/v1/rulesets/{ruleset}/readings"
    assert_problem(client.get("/v1/rulesets/nope/readings"), 404)


def _body(ruleset: str, readings: dict[str, Any] | None = None) -> dict[str, Any]:
    rs = REGISTRY[ruleset]
    definition = copy.deepcopy(dict(rs.sample_definition))
    if readings is not None:
        definition["readings"] = readings
    start = {"kgp": {}, "abtf": {"start_date": "21 PM"}, "sg": {}}[ruleset]
    name = {"kgp": "CG I", "abtf": "CG I", "sg": "SG"}[ruleset]
    return {"ruleset": ruleset, "campaign": name, **start, "definition": definition}


@pytest.mark.parametrize(
    ("readings", "field"),
    [
        ({"nope": "x"}, "readings.nope"),
        ({"leader-columns": "left"}, "readings.leader-columns"),
        ({"leader.columns": "us-first"}, "readings.leader.columns"),
    ],
)
def test_an_unknown_reading_or_choice_is_422_at_creation_and_in_an_amendment(
    client: TestClient, readings: dict[str, str], field: str
) -> None:
    problem = assert_problem(client.post("/v1/campaigns", json=_body("kgp", readings)), 422)
    assert problem["field"].startswith(f"definition.{field}")
    game = Game(client, _body("kgp"))
    before = game.version()
    for role in ("US", "referee"):
        r = game.post(
            role, "/definition-amendments", {"patch": {"readings": readings}, "reason": "r"}
        )
        assert assert_problem(r, 422)["field"].startswith(f"patch.{field}")
    assert game.version() == before


def test_the_definition_shows_its_readings_and_an_approved_amendment_changes_them(
    client: TestClient,
) -> None:
    """8.618 over the API: a campaign created with "after-20-am" counts no
    scenario on 20 PM, and a stated 1 is refused; the U.S. proposes the
    default back, the German approves it, and from then on the 20 AM scenario
    counts. ``?at=`` reads the definition and the readings of its event."""
    game = Game(
        client,
        {**_body("kgp", {"shortage-after-20-am": "after-20-am"}), "initial_cpp": {"German": 2}},
    )
    first = ok(game.get("German", "/definition"))
    assert first["definition"]["readings"] == {"shortage-after-20-am": "after-20-am"}
    game.to_date("20 AM", on_it=True)
    _shortage_dr(game)  # 0 either way on 20 AM (one that started the shortage is undone)
    game.next_date(play=True)  # 20 AM's scenario is played
    game.replenish()
    problem = assert_problem(
        game.post("German", "/ammunition-shortage", {"scenarios_after_20_am": 1}), 422
    )
    assert problem["detail"].endswith("(its count on 20 PM is 0)")
    patch = {"readings": {"shortage-after-20-am": None}}  # back to the default
    asked = created(game.post("US", "/definition-amendments", {"patch": patch, "reason": "book"}))
    assert asked["status"] == "pending"
    done = ok(game.post("German", f"/definition-amendments/{asked['id']}/approve"))
    assert done["status"] == "applied"
    now = ok(game.get("German", "/definition"))
    assert now["definition"]["readings"] == {}
    then = ok(game.get("German", f"/definition?at={asked['id']}"))
    assert then["definition"]["readings"] == {"shortage-after-20-am": "after-20-am"}
    out = created(game.post("German", "/ammunition-shortage", {}))
    assert out["event"]["payload"]["drm"][0]["count"] == 1


# ---------------------------------------------------------------- the property


def test_a_reading_amended_changes_results_only_from_the_amendment_on(
    module_client: TestClient,
) -> None:
    """Hypothesis: an ABtF campaign on 21 PM, the referee's 9.6201 rolls (its
    Campaign Exhaustion DRM counted from the 9.6161 chart) between amendments
    of the reading "exhaustion-21-pm". Each roll counts the choice in force when
    it was made; read with ``?at=`` its event, the definition and the roster
    show that choice, never a later one."""
    reading = abtf_readings.EXHAUSTION_21_PM.id
    drm = {"chart": 3, "ex": 4}

    @hypothesis.settings(max_examples=examples(8), deadline=None, database=None)
    @hypothesis.given(
        start=st.sampled_from([None, "chart", "ex"]),
        steps=st.lists(st.sampled_from(["roll", "amend"]), min_size=1, max_size=6),
        reset=st.booleans(),
    )
    def run(start: str | None, steps: list[str], reset: bool) -> None:
        game = Game(module_client, _body("abtf", None if start is None else {reading: start}))
        choice = start or "chart"
        seen: list[tuple[int, str]] = []
        for step in steps:
            if step == "amend":
                choice = "ex" if choice == "chart" else "chart"
                value = None if choice == "chart" and reset else choice
                body = {"patch": {"readings": {reading: value}}, "reason": "the printed chart"}
                out = created(game.post("referee", "/definition-amendments", body))
                assert out["status"] == "applied"
            else:
                roll = created(game.post("referee", "/tables/abtf:9.6201/rolls", {"drm": []}))
                (counted,) = [d for d in roll["drm"] if d["id"] == "exhaustion"]
                assert counted["value"] == drm[choice]
            seen.append((game.version(), choice))
        for version, chosen in seen:
            doc = ok(game.get("referee", f"/definition?at={version}"))["definition"]
            assert doc.get("readings", {}).get(reading, "chart") == chosen
            roster = ok(game.get("British", f"/roster?side=British&at={version}"))
            (line,) = [x for x in roster["lines"] if x["cg_date"] == "21 PM"]
            assert line["campaign_exhaustion_drm"] == drm[chosen]

    run()


# ---------------------------------------------------------------- docs/rulesets.md

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rulesets.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render(ruleset: str) -> str:
    """The table of ``ruleset``'s readings in docs/rulesets.md, with its markers."""
    lines = [
        f"<!-- readings:{ruleset} (from Ruleset.readings; tests/test_readings.py checks it) -->",
        "| id | rule | the seed's words | choices | default | why the default |",
        "|---|---|---|---|---|---|",
    ]
    for r in REGISTRY[ruleset].readings:
        choices = "<br>".join(f"`{k}`: {_cell(v)}" for k, v in r.choices.items())
        cells = (f"`{r.id}`", r.rule, _cell(r.text), choices, f"`{r.default}`", _cell(r.why))
        lines.append(f"| {' | '.join(cells)} |")
    lines.append(f"<!-- /readings:{ruleset} -->")
    return "\n".join(lines)


@pytest.mark.parametrize("ruleset", list(LISTED))
def test_docs_list_every_reading(ruleset: str) -> None:
    """docs/rulesets.md holds each ruleset's table as ``render`` writes it from
    ``Ruleset.readings``, so it cannot go stale (paste the expected block)."""
    text = DOCS.read_text(encoding="utf-8")
    start, end = f"<!-- readings:{ruleset} ", f"<!-- /readings:{ruleset} -->"
    assert start in text, f"docs/rulesets.md lacks:\n{render(ruleset)}"
    found = text[text.index(start) : text.index(end) + len(end)]
    assert found == render(ruleset), f"docs/rulesets.md should read:\n{render(ruleset)}"
