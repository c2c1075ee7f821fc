"""ABtF's CPP and CG Roster (9.616-9.617; issue 13 item 6): the CPP Base # of
the 9.6161 chart plus a Secret DR (9.6162), RG bought with CPP, and "CPP not
spent are divided by two (FRU) and recorded on the CG Roster in the 'Left'
column" (9.617), which is the next CG Date's Start."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.abtf.ruleset import CPP_BASE_CHART
from cgledger.domain.sealed import dice_of, kind_of, values_of
from cgledger.service import Ledger
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

#: The 9.6161 CPP BASE NUMBER CHART as the seed prints it (003_…).
SEED_CHART = """\
| 17N | - | - | 0 |
| 18AM | 20 | 15 | 0 |
| 18PM | 25 | 15 | 0 |
| 18EVE | 15 | 20 | +1 |
| 18N | 5 | 20 | +1 |
| 19AM | 5 | 25 | +1 |
| 19PM | 0 | 25 | +1 |
| 19EVE | 0 | 30 | +2 |
| 19N | 0 | 30 | +2 |
| 20AM | 0 | 25 | +2 |
| 20PM | 0 | 20 | +2 |
| 20EVE | 0 | 20 | +3 |
| 20N | 0 | 10 | +3 |
| 21AM | 0 | 10 | +3 |
| 21PM | 0 | 10 | +3 |
| 21EVE | 0 | 10 | +4 |
"""


def _cell(text: str) -> int | None:
    return None if text == "-" else int(text)


def test_the_chart_is_the_seeds() -> None:
    parsed = {}
    for row in SEED_CHART.splitlines():
        date, british, german, drm = (c.strip() for c in row.strip("| ").split("|"))
        canonical = REGISTRY["abtf"].normalize_date(date)
        assert canonical is not None, date
        parsed[canonical] = (_cell(british), _cell(german), int(drm))
    assert parsed == dict(CPP_BASE_CHART)
    assert list(parsed) == list(REGISTRY["abtf"].campaigns["CG I"].calendar)


@pytest.fixture
def abtf(client: TestClient) -> Game:
    return Game(
        client,
        {
            "ruleset": "abtf",
            "campaign": "CG I",
            "start_date": "18 PM",
            "initial_cpp": {"British": 10, "German": 6},
        },
    )


def _line(game: Game, side: str, viewer: str | None = None) -> dict[str, Any]:
    roster = ok(game.get(viewer or side, f"/roster?side={side}"))
    # No Recon columns: ABtF has no Recon step.
    columns = ["cg_date", "start", "repl", "total", "rg_purchased", "spent", "left"]
    assert roster["columns"] == columns
    line: dict[str, Any] = roster["lines"][-1]
    return line


def test_unspent_cpp_are_halved_fru_and_carried_to_the_next_date(abtf: Game) -> None:
    # 9.6: no CPP Replenishment before the Initial Scenario (9.616 has no '†').
    problem = assert_problem(abtf.post("British", "/cpp-replenishments", {}), 409)
    assert problem["detail"].startswith("9.6: CPP Replenishment is NA prior to the CG's Initial")

    # 9.617: 10 CPP, 6 spent (I1 on the sample chart): "CPP not spent are divided
    # by two (FRU)": 4 -> 2.
    created(abtf.post("British", "/rg-purchases", {"rg": "I1", "cpp": 6}))
    line = _line(abtf, "British")
    assert (line["start"], line["total"], line["spent"], line["left"]) == (10, 10, 6, 2)
    assert line["campaign_exhaustion_drm"] == 0  # 18 PM on the 9.6161 chart
    # 6 CPP, none spent: 3.
    assert _line(abtf, "German")["left"] == 3
    # Spending is checked against the CPP not yet spent (4), before the halving (2):
    # V1 costs 5.
    problem = assert_problem(abtf.post("British", "/rg-purchases", {"rg": "V1"}), 409)
    assert problem["detail"] == "9.617: V1 costs 5 CPP but British has 4 CPP left on 18 PM"

    abtf.next_date()  # the Initial Scenario ends; 18 EVE
    british = created(abtf.post("British", "/cpp-replenishments", {}))
    # The Secret DR's act is sealed (DESIGN §2a): the British reads it whole.
    event = british["event"]
    assert (event["type"], kind_of(event)) == ("RecordSealed", "CPPReplenished")
    secret = event["secret"]
    assert values_of(event)["base"] == 15  # 9.6161: British, 18 EVE
    assert values_of(event)["rule"] == "abtf:9.6162"
    assert event["payload"]["step"] == "9.616"
    # 9.6162: "add the DR to the CPP Base #"
    assert secret["repl"] == 15 + secret["final"]
    assert secret["final"] == sum(dice_of(secret))
    line = _line(abtf, "British")
    assert line["start"] == 2
    assert line["repl"] == secret["repl"]
    assert line["total"] == 2 + secret["repl"]
    assert line["campaign_exhaustion_drm"] == 1
    assert line["cpp_base"] == 15


def test_the_replenishment_is_secret_and_required_before_the_next_date(abtf: Game) -> None:
    abtf.next_date()  # 18 EVE
    created(abtf.post("German", "/cpp-replenishments", {}))
    # The opponent sees that it happened, never how much.
    line = _line(abtf, "German", viewer="British")
    assert line["repl"] is None
    assert "repl" in line["hidden"]
    assert line["cpp_base"] == 20  # the chart is public
    # 9.6121 waits for 9.616 of every side: the British cannot pass the step
    # without its DR, so the date cannot end and the next one cannot begin.
    before = abtf.version()
    problem = assert_problem(abtf.post("British", "/reph/advance", {"to": "9.621"}), 409)
    assert problem["detail"].startswith(
        "9.616: CPP Replenishment requires its action of British on 18 EVE before the step "
        "is passed"
    )
    problem = assert_problem(abtf.post("referee", "/cg-dates", {}), 409)
    assert problem["detail"].startswith("9.612: a new CG Date begins after CG-Scenario End")
    problem = assert_problem(abtf.post("German", "/cpp-replenishments", {}), 409)
    assert problem["detail"] == "9.616: German already replenished CPP on 18 EVE"
    assert abtf.version() == before
    # Once the British made it, the date goes on to its end and the next one.
    created(abtf.post("British", "/cpp-replenishments", {}))
    assert abtf.next_date(replenish=False)["cg_date"] == "18 N"


def test_the_replenishment_table_is_rolled_only_through_its_endpoint(abtf: Game) -> None:
    before = abtf.version()
    problem = assert_problem(abtf.post("British", "/tables/abtf:9.6162/rolls", {}), 409)
    assert problem["detail"].startswith("9.6162: abtf:9.6162 changes the campaign's state")
    assert abtf.version() == before
    assert_problem(abtf.post("British", "/recon", {"cpp": 1}), 404)  # no Recon in ABtF


def test_the_export_verifies_the_replenishment_against_the_chart(abtf: Game) -> None:
    abtf.next_date()
    for side in ("British", "German"):
        created(abtf.post(side, "/cpp-replenishments", {}))
    body = abtf.client.get(f"{abtf.url}/export", headers=abtf.h("referee")).content
    report = verify_bytes(body)
    assert report.rule_results_checked == 2


def test_rulesets_list_the_abtf_roster_and_actions(client: TestClient) -> None:
    abtf = next(r for r in client.get("/v1/rulesets").json() if r["id"] == "abtf")
    assert abtf["roster"] is True
    assert [(a["path"], a["rule"]) for a in abtf["actions"]] == [
        ("cpp-replenishments", "9.616"),
        ("rg-purchases", "9.617"),
        ("rg-determinations", "9.618"),
        ("fortification-purchases", "9.619"),
        ("fortification-setups", "9.621"),
        ("hidden-fortifications", "9.6073"),
    ]
    step = next(s for s in abtf["reph_steps"] if s["rule"] == "9.616")
    assert step["action"] == "cpp-replenishments"


def test_a_campaign_created_before_abtf_kept_a_roster_says_so(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ABtF campaign created while ABtF had no CPP roster recorded no
    initial CPP: its roster is empty and says why, its CPP commands answer 501
    naming the cause, never a 500, and its state still reads."""
    import dataclasses

    from cgledger.domain import rulesets
    from cgledger.domain.rulesets.base import Rules

    abtf = REGISTRY["abtf"]
    steps = tuple(dataclasses.replace(st, action=None, sealed=()) for st in abtf.reph_steps)
    before = dataclasses.replace(abtf, rules=Rules(), reph_steps=steps)
    monkeypatch.setitem(rulesets._RULESETS, "abtf", before)
    # Created by a ledger of that time, which took no snapshot at creation.
    monkeypatch.setattr(Ledger, "_snapshot", lambda self, campaign: None)
    old = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"})
    monkeypatch.undo()
    assert REGISTRY["abtf"].rules.has_roster
    roster = ok(old.get("British", "/roster"))
    assert roster["lines"] == []
    assert "before this ledger kept its CG Roster" in roster["note"]
    assert ok(old.get("German", "/state"))["rosters"]["British"]["lines"] == []
    assert old.next_date(replenish=False)["cg_date"] == "18 EVE"  # its dates still go on
    for r in (
        old.post("British", "/rg-purchases", {"rg": "I1", "cpp": 6}),
        old.post("referee", "/cpp-replenishments", {"side": "German"}),
    ):
        problem = assert_problem(r, 501)
        assert "before this ledger kept its CG Roster" in problem["detail"]


def test_an_old_free_9_6162_roll_still_verifies(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before ABtF kept a roster, 9.6162 was a plain table roll (no Base # of
    the ledger's): its export verifies by the table re-read alone, not as a CPP
    Replenishment (a review found ``cgledger verify`` failing on it)."""
    import dataclasses

    from cgledger.domain import rulesets
    from cgledger.domain.rulesets.base import Rules

    abtf = REGISTRY["abtf"]
    steps = tuple(dataclasses.replace(st, action=None, sealed=()) for st in abtf.reph_steps)
    tables = dict(abtf.tables)
    # Nor were its tables bound to RePh steps then (DESIGN §8).
    tables["abtf:9.6162"] = dataclasses.replace(tables["abtf:9.6162"], endpoint="", step=None)
    before = dataclasses.replace(abtf, rules=Rules(), reph_steps=steps, tables=tables)
    monkeypatch.setitem(rulesets._RULESETS, "abtf", before)
    # Created by a ledger of that time, which took no snapshot at creation.
    monkeypatch.setattr(Ledger, "_snapshot", lambda self, campaign: None)
    old = Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "18 PM"})
    roll = {"inputs": {"base": 25}}
    created(old.post("British", "/tables/abtf:9.6162/rolls", roll))
    monkeypatch.undo()
    version = old.version()
    for role in ("British", "German", "referee"):
        body = old.client.get(f"{old.url}/export", headers=old.h(role)).content
        report = verify_bytes(body)
        assert report.events == version
        # The one roll is the Secret DR: hidden from every viewer until revealed ...
        assert (report.rolls, report.rolls_hidden, report.rolls_recomputed) == (1, 1, 0)
        # ... and re-read from its table by those who see its dice (the roller
        # and the referee), which is the only rule result checked.
        assert report.rule_results_checked == (0 if role == "German" else 1), role
        # A Secret roll is a sealed record now (DESIGN §2a): it defines no table
        # in public, and carries its table's definition in its secret part,
        # which only the roller and the referee read.
        assert report.tables == {}, role
        (record,) = [json.loads(x) for x in body.splitlines()[1:] if b"RecordSealed" in x]
        if role == "German":
            assert record["secret"] is None
            continue
        assert kind_of(record) == "TableRolled"  # a table roll, no CPP Replenishment
        carried = [d["id"] for d in record["secret"]["tables"].values()]
        assert carried == ["abtf:9.6162"]
