"""DESIGN §8 (issue 13 item 3): a DRM the ledger can count from the record is
computed by the server. It is added when the roller leaves it out, and a roll
that names it with another number is a 422 naming the rule, with nothing
appended. Counted now: the days after 19 (21) December of 8.6201 (KGP13),
8.618's scenarios completed after 20 AM, ABtF's Campaign Exhaustion DRM of the
9.6161 chart (9.6181, 9.6201, 9.6202), 9.6201's British Attack Chits and
9.6202's Idle CG Dates, CG Scenarios and Attack Chits."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app


def _drm(view: dict[str, Any], drm_id: str) -> dict[str, Any]:
    found = [d for d in view["drm"] if d["id"] == drm_id]
    assert len(found) == 1, view["drm"]
    return found[0]


def _roll(game: Game, role: str, table: str, drm: list[dict[str, Any]] | None = None) -> Any:
    return game.post(role, f"/tables/{table}/rolls", {"drm": drm or []})


@pytest.fixture
def kgp(client: TestClient) -> Game:
    return Game(client, {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}})


def _abtf(client: TestClient, start_date: str) -> Game:
    """An ABtF campaign whose CG definition sets no chit limits (9.62131), so that
    the CG Dates up to 21 EVE can be reached with Idle or Attack chits."""
    definition = copy.deepcopy(ok(client.get("/v1/rulesets/abtf/sample-definition")))
    definition.update(attack_chits={}, idle_chits={})
    body = {"ruleset": "abtf", "campaign": "CG I", "start_date": start_date}
    return Game(client, {**body, "definition": definition})


@pytest.fixture
def abtf(client: TestClient) -> Game:
    return _abtf(client, "19 AM")


@pytest.mark.parametrize(("date", "days"), [("19 AM", 0), ("19 N", 0), ("20 AM", 1), ("21 AM", 2)])
def test_8_6201_counts_the_days_after_19_december(kgp: Game, date: str, days: int) -> None:
    """8.6201 "Per day after Dec 19 N"; the 8.6205 EX: 21 AM is "two days past
    19 December" (+2)."""
    kgp.to_date(date)
    kgp.advance("German", "8.620")  # its RePh step (8.616, 8.618 made on the way)
    view = created(_roll(kgp, "German", "kgp:8.6201"))
    assert _drm(view, "days-after-dec-19") == {
        "id": "days-after-dec-19",
        "text": "Per day after Dec 19 N",
        "count": days,
        "value": days,
    }
    assert view["final"] == view["original"] + days
    # Naming it with the right count is the same roll; the wrong count is refused.
    created(_roll(kgp, "German", "kgp:8.6201", [{"id": "days-after-dec-19", "count": days}]))
    before = kgp.version()
    problem = assert_problem(
        _roll(kgp, "German", "kgp:8.6201", [{"id": "days-after-dec-19", "count": days + 1}]),
        422,
    )
    assert problem["detail"] == (
        f"8.6201: days-after-dec-19 is counted by the ledger: its count on {date} is "
        f"{days}, not {days + 1}"
    )
    assert problem["rule"] == "8.6201"
    assert kgp.version() == before


def test_other_drms_of_the_table_are_the_rollers(kgp: Game) -> None:
    """Only the counted DRM is the server's: 8.6201's "V or G" stays the roller's word."""
    kgp.to_date("20 AM")
    kgp.advance("German", "8.620")
    view = created(_roll(kgp, "German", "kgp:8.6201", [{"id": "v-or-g"}]))
    assert [d["id"] for d in view["drm"]] == ["v-or-g", "days-after-dec-19"]
    assert view["final"] == view["original"] - 1 + 1


def test_the_referee_gets_a_side_free_count_too(kgp: Game) -> None:
    kgp.to_date("20 AM")
    view = created(_roll(kgp, "referee", "kgp:8.6201"))
    assert _drm(view, "days-after-dec-19")["count"] == 1


@pytest.mark.parametrize(("date", "x"), [("19 AM", 1), ("19 EVE", 2), ("20 EVE", 3), ("21 EVE", 4)])
def test_abtf_campaign_exhaustion_comes_from_the_9_6161_chart(
    abtf: Game, date: str, x: int
) -> None:
    # Scenarios played: 9.6201 is not made after an Idle CG Date.
    abtf.to_date(date, on_it=True, play=True)
    # 9.6201: "+x Campaign Exhaustion DRM" (British only, from 19 AM).
    view = created(_roll(abtf, "British", "abtf:9.6201"))
    assert _drm(view, "exhaustion")["value"] == x
    # 9.6181: "+x/2 Campaign Exhaustion DRM (FRD)".
    view = created(_roll(abtf, "German", "abtf:9.6181"))
    assert _drm(view, "exhaustion")["value"] == x // 2
    # 9.6202: "+x ... (British Only)", "+y/2 ... (FRD) (German Only)": each side its own.
    british = created(_roll(abtf, "British", "abtf:9.6202"))
    assert _drm(british, "exhaustion-british")["value"] == x
    assert all(d["id"] != "exhaustion-german" for d in british["drm"])
    german = created(_roll(abtf, "German", "abtf:9.6202"))
    assert _drm(german, "exhaustion-german")["value"] == x // 2
    assert all(d["id"] != "exhaustion-british" for d in german["drm"])


def test_a_side_cannot_name_the_other_sides_exhaustion(abtf: Game) -> None:
    """9.6202 EX: the British DRM total holds "+4 for Campaign Exhaustion", the
    German's "+2" (y = 4, halved): each side reads its own. The EX says it is
    21 PM, where the chart reads +3; the chart's +4 is on 21 EVE (the reading
    is recorded with ``COUNTED_DRMS`` in cgledger/domain/rulesets/abtf/ruleset.py)."""
    abtf.to_date("21 EVE", on_it=True)
    before = abtf.version()
    problem = assert_problem(
        _roll(abtf, "British", "abtf:9.6202", [{"id": "exhaustion-german", "value": 4}]), 422
    )
    assert problem["detail"] == (
        "9.6202: exhaustion-german is the German side's DRM, not the British side's"
    )
    assert abtf.version() == before
    problem = assert_problem(
        _roll(abtf, "British", "abtf:9.6202", [{"id": "exhaustion-british", "value": 3}]), 422
    )
    assert problem["detail"] == (
        "9.6202: exhaustion-british is counted by the ledger: its value on 21 EVE is 4, not 3"
    )
    # The EX's figures, on the chart's +4 date: +4 for the British, +2 for the German.
    british = created(_roll(abtf, "British", "abtf:9.6202"))
    assert _drm(british, "exhaustion-british")["value"] == 4
    german = created(_roll(abtf, "German", "abtf:9.6202"))
    assert _drm(german, "exhaustion-german")["value"] == 2


def test_the_referees_ruling_names_a_sides_exhaustion_but_not_another_number(
    abtf: Game,
) -> None:
    abtf.to_date("20 EVE")
    view = created(_roll(abtf, "referee", "abtf:9.6202"))
    assert all(not d["id"].startswith("exhaustion") for d in view["drm"])
    view = created(_roll(abtf, "referee", "abtf:9.6202", [{"id": "exhaustion-german", "value": 3}]))
    assert _drm(view, "exhaustion-german")["value"] == 1  # 3 / 2, FRD
    assert_problem(
        _roll(abtf, "referee", "abtf:9.6202", [{"id": "exhaustion-british", "value": 2}]), 422
    )


def test_the_ruleset_refuses_a_counted_drm_that_is_not_on_its_table() -> None:
    import dataclasses

    from cgledger.domain.rulesets.base import CountedDrm

    kgp = REGISTRY["kgp"]
    bad = CountedDrm("kgp:8.6201", "days-after-dec-20", "8.6201", lambda *_: 1)
    with pytest.raises(ValueError, match=r"no DRM days-after-dec-20 on kgp:8\.6201"):
        dataclasses.replace(kgp, counted_drms=(bad,))
    stray = CountedDrm("kgp:8.6201", "days-after-dec-19", "8.6201", lambda *_: 1, ("British",))
    with pytest.raises(ValueError, match="unknown sides"):
        dataclasses.replace(kgp, counted_drms=(stray,))


def test_the_9_6202_ex_date_reads_the_chart_not_the_ex(abtf: Game) -> None:
    """The 9.6202 EX says +4 (German +2) on 21 PM; the chart prints +3 for 21 PM.
    The ledger follows the chart (see the reading in the ABtF ruleset): if the
    printed chart proves the EX right, this test and the chart change together."""
    abtf.to_date("21 PM", on_it=True)
    british = created(_roll(abtf, "British", "abtf:9.6202"))
    assert _drm(british, "exhaustion-british")["value"] == 3
    german = created(_roll(abtf, "German", "abtf:9.6202"))
    assert _drm(german, "exhaustion-german")["value"] == 1


# ------------------------------------------------------- counted from the record


def _shortage_dr(game: Game, **body: Any) -> dict[str, Any]:
    """The German's 8.618 DR. One that started the Ammunition Shortage is undone
    by the referee and made again, so that a DR is due on the next date too."""
    for _ in range(10):
        out = created(game.post("German", "/ammunition-shortage", body))
        if not out["event"]["payload"]["shortage"]:
            return out
        undo = {"seqs": [out["seq"]], "reason": "the test needs the next date's DR"}
        assert created(game.post("referee", "/undo-requests", undo))["status"] == "applied"
    raise AssertionError("ten 8.618 DRs in a row started the shortage")


SCENARIOS_AFTER_20_AM = {
    "id": "scenarios-after-20-am",
    "text": "Per CG scenario completed after 20 AM",
}


def test_8_618_counts_the_scenarios_completed_after_20_am(kgp: Game) -> None:
    """8.618 "A +1 DRM applies per CG scenario completed after 20 AM": the
    ledger counts the CG-Scenario Ends of the CG Dates from 20 AM on (the
    reading in cgledger/domain/rulesets/kgp/record.py); those of earlier dates
    (the 19 AM Initial Scenario, 19 PM, 19 N) and Idle dates do not count."""
    kgp.to_date("20 AM", on_it=True, play=True)
    # (CG Date, its DRM count, whether its scenario is played or the date Idle)
    dates = (("20 AM", 0, True), ("20 PM", 1, False), ("20 N", 1, None))
    for date, count, played in dates:
        assert kgp.cg_date() == date
        before = kgp.version()
        problem = assert_problem(_shortage_dr_request(kgp, count + 1), 422)
        assert problem["detail"] == (
            f"8.618: scenarios-after-20-am is counted by the ledger: its count on {date} is "
            f"{count}, not {count + 1}"
        )
        assert problem["rule"] == "8.618"
        assert kgp.version() == before
        # Left out, it is counted; stated with the ledger's count, it is the same roll.
        body = {"scenarios_after_20_am": count} if date == "20 PM" else {}
        payload = _shortage_dr(kgp, **body)["event"]["payload"]
        assert payload["drm"] == [{**SCENARIOS_AFTER_20_AM, "count": count, "value": count}]
        assert payload["final"] == payload["original"] + count
        if played is not None:
            kgp.next_date(play=played)
            kgp.replenish()  # 8.616 comes before 8.618


def _shortage_dr_request(game: Game, count: int) -> Any:
    return game.post("German", "/ammunition-shortage", {"scenarios_after_20_am": count})


def test_9_6201_counts_the_british_attack_chits_of_the_cg(abtf: Game) -> None:
    """9.6201 "+(y-1) Number of British Attack Chits selected during this CG
    (minimum of 0)": every British Attack Chit of the CG, an Idle date between
    them or not; and "[EXC: This step is not performed if the previous CG Date
    was Idle; 9.62132]"."""

    def chits(date: str, y: int) -> None:
        assert abtf.cg_date() == date
        before = abtf.version()
        problem = assert_problem(
            _roll(abtf, "British", "abtf:9.6201", [{"id": "attack-chits", "count": y + 1}]), 422
        )
        assert problem["detail"] == (
            f"9.6201: attack-chits is counted by the ledger: its count on {date} is {y}, "
            f"not {y + 1}"
        )
        assert problem["rule"] == "9.6201"
        assert abtf.version() == before
        view = created(_roll(abtf, "British", "abtf:9.6201"))
        assert _drm(view, "attack-chits")["count"] == y
        assert _drm(view, "attack-chits")["value"] == max(0, y - 1)

    chits("19 AM", 0)  # the Initial Scenario: no chit chosen yet
    abtf.to_date("19 EVE", on_it=True, play=True)  # British Attack Chits on 19 PM, 19 EVE
    chits("19 EVE", 1)
    abtf.next_date(play=True)
    abtf.replenish()
    chits("19 N", 2)
    abtf.next_date()  # 19 N is Idle: both sides chose Idle chits
    abtf.replenish()
    before = abtf.version()
    problem = assert_problem(_roll(abtf, "British", "abtf:9.6201"), 409)
    assert problem["detail"] == (
        "9.6201: the Ammunition Shortage DR is not made after an Idle CG Date (19 N was Idle)"
    )
    assert problem["rule"] == "9.6201"
    assert abtf.version() == before
    # Not made, it is not required either: the British passes its step once
    # it made the ELR Loss/Gain DR that 9.6202 requires of every side.
    created(_roll(abtf, "British", "abtf:9.6202"))
    created(abtf.post("British", "/reph/advance", {"to": "9.621"}))
    abtf.next_date(play=True)  # 20 AM played: its British Attack Chit counts
    abtf.replenish()
    chits("20 PM", 3)


def test_9_6202_counts_as_its_ex(client: TestClient) -> None:
    """The 9.6202 EX: "It is the 21PM CG Date", the last CG Date (20 N) was
    Idle and 21 AM a CG Scenario in which both sides chose an Attack Chit:
    each side's DRM total holds "one CG Scenario, one Attack Chit" and no Idle
    CG Date. Before the Idle date, 20 PM (Initial) and 20 EVE were played: the
    counts start again after it, and the Idle date counts until a scenario."""
    abtf = _abtf(client, "20 PM")
    abtf.to_date("20 N", play=True)  # 20 PM Initial, 20 EVE dual attack
    abtf.next_date()  # 20 N is Idle
    abtf.replenish()
    expected = {"21 AM": (1, 0, 0), "21 PM": (0, 1, 1)}
    for date, (idle_dates, scenarios, attack_chits) in expected.items():
        assert abtf.cg_date() == date
        for side in ("British", "German"):
            view = created(_roll(abtf, side, "abtf:9.6202"))
            counts = {
                d: _drm(view, d)["count"] for d in ("idle-dates", "scenarios", "attack-chits")
            }
            assert counts == {
                "idle-dates": idle_dates,
                "scenarios": scenarios,
                "attack-chits": attack_chits,
            }, (date, side)
            assert _drm(view, "idle-dates")["value"] == -3 * idle_dates
        if date == "21 AM":
            assert abtf.next_date(play=True)["cg_date"] == "21 PM"
            (played,) = ok(abtf.get("referee", "/initiative?cg_date=21%20AM"))["items"]
            assert played["scenario"] == "dual-attack"  # both sides chose Attack
            abtf.replenish()
    # A stated count that is not the ledger's is refused.
    problem = assert_problem(
        _roll(abtf, "referee", "abtf:9.6202", [{"id": "scenarios", "count": 2}]), 422
    )
    assert problem["detail"] == (
        "9.6202: scenarios is counted by the ledger: its count on 21 PM is 1, not 2"
    )
