"""DESIGN §8 (issue 13 item 3, issue 26 item 3): a DRM the ledger can count
from the record is computed by the server. It is added to the roll (``"by":
"ledger"``), and a side that names it, even with the ledger's number, is a 422
naming the rule, with nothing appended (the referee's ruling may name it with
the ledger's number). Counted now: the days after 19 (21) December of 8.6201 (KGP13),
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
from cgledger.verify import verify_bytes

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
        "by": "ledger",
    }
    assert view["final"] == view["original"] + days
    # Naming it is refused, with the ledger's count or another.
    before = kgp.version()
    for count in (days, days + 1):
        problem = assert_problem(
            _roll(kgp, "German", "kgp:8.6201", [{"id": "days-after-dec-19", "count": count}]),
            422,
        )
        assert problem["detail"] == (
            "8.6201: days-after-dec-19 is computed by the ledger; do not state it "
            f"(its count on {date} is {days})"
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
    21 PM, where the chart reads +3; the chart's +4 is on 21 EVE (which one
    counts on 21 PM is the reading "exhaustion-21-pm", DESIGN §14)."""
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
        _roll(abtf, "British", "abtf:9.6202", [{"id": "exhaustion-british", "value": 4}]), 422
    )
    assert problem["detail"] == (
        "9.6202: exhaustion-british is computed by the ledger; do not state it "
        "(its value on 21 EVE is 4)"
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
    By default (the reading "exhaustion-21-pm": "chart", DESIGN §14) the ledger
    follows the chart; tests/test_readings.py plays the EX under each choice."""
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
    default of the reading "shortage-after-20-am", tests/test_readings.py plays
    the other); those of earlier dates
    (the 19 AM Initial Scenario, 19 PM, 19 N) and Idle dates do not count."""
    kgp.to_date("20 AM", on_it=True, play=True)
    # (CG Date, its DRM count, whether its scenario is played or the date Idle)
    dates = (("20 AM", 0, True), ("20 PM", 1, False), ("20 N", 1, None))
    for date, count, played in dates:
        assert kgp.cg_date() == date
        before = kgp.version()
        for stated in (count, count + 1):
            problem = assert_problem(_shortage_dr_request(kgp, stated), 422)
            assert problem["detail"] == (
                "8.618: scenarios-after-20-am is computed by the ledger; do not state it "
                f"(its count on {date} is {count})"
            )
            assert problem["rule"] == "8.618"
        assert kgp.version() == before
        # Left out, it is counted.
        payload = _shortage_dr(kgp)["event"]["payload"]
        assert payload["drm"] == [
            {**SCENARIOS_AFTER_20_AM, "count": count, "value": count, "by": "ledger"}
        ]
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
            f"9.6201: attack-chits is computed by the ledger; do not state it (its count on "
            f"{date} is {y})"
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


# ------------------------------------------------ issue 26 item 3, end to end


def test_8_6113_counts_the_scenario_won_and_its_cvp(kgp: Game) -> None:
    """8.6113: "-2 Friendly side won this CG Date's scenario", "-1 Per 25
    Casualty VP amassed by friendly side on the current CG Date": from the
    CG-Scenario End (here the Initial Scenario's, whose winner the sides state,
    8.51-.53 not being in the seed). Each DRM says who decided it; the export
    with them verifies."""
    kgp.end_scenario({"US": 55, "German": 10}, winner="US")
    for side in ("US", "German"):
        kgp.advance(side, "8.611")
    us = created(_roll(kgp, "US", "kgp:8.6113"))
    assert [(d["id"], d.get("count"), d["value"], d["by"]) for d in us["drm"]] == [
        ("won", None, -2, "ledger"),
        ("casualty-vp", 55, -2, "ledger"),
    ]
    german = created(_roll(kgp, "German", "kgp:8.6113", [{"id": "other", "value": 1,
                                                          "note": "a ruling"}]))  # fmt: skip
    assert [(d["id"], d.get("count"), d["value"], d["by"]) for d in german["drm"]] == [
        ("other", None, 1, "roller"),
        ("casualty-vp", 10, 0, "ledger"),
    ]
    before = kgp.version()
    for drm in ({"id": "won"}, {"id": "casualty-vp", "count": 10}):
        problem = assert_problem(_roll(kgp, "German", "kgp:8.6113", [drm]), 422)
        assert problem["detail"].startswith(
            f"8.6113: {drm['id']} is computed by the ledger; do not state it"
        )
    assert kgp.version() == before
    # 8.6114: the winner's "-2 ... (the player may, after the DR, choose to
    # ignore this DRM or apply only a -1 DRM)": the outcome lists both.
    leader = created(_roll(kgp, "US", "kgp:8.6114"))
    assert [(d["id"], d["by"]) for d in leader["drm"]] == [("won", "ledger")]
    assert [c["value"] for c in leader["outcome"]["after_roll"]] == [0, -1]
    r = kgp.get("referee", "/export")
    assert r.status_code == 200, r.text
    assert verify_bytes(r.content).rule_results_checked >= 3


def test_a_side_drm_is_the_sides_and_an_unknown_drm_is_422_in_any_step(kgp: Game) -> None:
    """8.610 "-1 If German": applied to the German's roll, refused from the
    U.S. (which could claim it before issue 26); and the body is read before
    the step binding: an unknown DRM is 422 naming it even outside its step."""
    kgp.end_scenario()
    kgp.advance("German", "8.610")
    kgp.advance("US", "8.610")
    german = created(_roll(kgp, "German", "kgp:8.610"))
    assert [(d["id"], d["value"], d["by"]) for d in german["drm"]] == [("german", -1, "ledger")]
    us = created(_roll(kgp, "US", "kgp:8.610", [{"id": "heroic"}]))
    assert [(d["id"], d["by"]) for d in us["drm"]] == [("heroic", "roller")]
    before = kgp.version()
    problem = assert_problem(_roll(kgp, "US", "kgp:8.610", [{"id": "german"}]), 422)
    assert problem["detail"] == "8.610: german is the German side's DRM, not the US side's"
    # 8.6142 belongs to 8.614, a step ahead: its unknown DRM is 422, not 409.
    problem = assert_problem(_roll(kgp, "US", "kgp:8.6142", [{"id": "nope"}]), 422)
    assert problem["field"] == "drm[0].id"
    assert problem["detail"].startswith("kgp:8.6142 has no DRM 'nope'")
    # 8.606 is a step behind (passed): the same.
    problem = assert_problem(_roll(kgp, "US", "kgp:8.606-infantry", [{"id": "nope"}]), 422)
    assert problem["field"] == "drm[0].id"
    assert kgp.version() == before
    # With a valid body, the step binding answers (409).
    problem = assert_problem(_roll(kgp, "US", "kgp:8.606-infantry"), 409)
    assert problem["detail"].startswith("8.606: ")


def test_9_6202_counts_the_last_scenarios_cvp_at_least(abtf: Game) -> None:
    """9.6202 "-1 Per 30 CVP (FRD) of enemy units Eliminated during the last CG
    Scenario (including CVP awarded thus far during this RePh)": the ledger
    counts the 42 CVP of the 9.6202 EX's British at the CG-Scenario End; the
    roller may add the RePh's, which the ledger does not record."""
    abtf.end_scenario({"British": 42, "German": 38})
    abtf.next_date(play=True)
    for side in ("British", "German"):
        abtf.advance(side, "9.620")
    british = created(_roll(abtf, "British", "abtf:9.6202"))
    assert (_drm(british, "cvp")["count"], _drm(british, "cvp")["value"]) == (42, -1)
    assert _drm(british, "cvp")["by"] == "ledger"
    german = created(_roll(abtf, "German", "abtf:9.6202", [{"id": "cvp", "count": 61}]))
    assert (_drm(german, "cvp")["count"], _drm(german, "cvp")["by"]) == (61, "roller")
    problem = assert_problem(
        _roll(abtf, "German", "abtf:9.6202", [{"id": "cvp", "count": 30}]), 422
    )
    assert problem["detail"] == (
        f"9.6202: cvp is counted by the ledger: its count on {abtf.cg_date()} is at least 38, "
        "not 30"
    )


def test_9_613_after_an_idle_date_and_the_british_drm(abtf: Game) -> None:
    """9.613: "-1 Previous CG Date was Idle (British only)", "-2 British"."""
    abtf.end_scenario()  # 19 AM, the Initial Scenario
    abtf.next_date()  # 19 PM
    abtf.next_date()  # 19 PM was Idle: 19 EVE begins
    for side in ("British", "German"):
        abtf.advance(side, "9.613")
    british = created(_roll(abtf, "British", "abtf:9.613"))
    assert {d["id"]: (d["value"], d["by"]) for d in british["drm"]} == {
        "idle": (-1, "ledger"),
        "british": (-2, "ledger"),
    }
    german = created(_roll(abtf, "German", "abtf:9.613"))
    assert german["drm"] == []
