"""DESIGN §8 (issue 13 item 3): a DRM the ledger can count from the record is
computed by the server. It is added when the roller leaves it out, and a roll
that names it with another number is a 422 naming the rule, with nothing
appended. Counted now: the days after 19 (21) December of 8.6201 (KGP13), and
ABtF's Campaign Exhaustion DRM of the 9.6161 chart (9.6181, 9.6201, 9.6202)."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Game, assert_problem, created
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY


def _drm(view: dict[str, Any], drm_id: str) -> dict[str, Any]:
    found = [d for d in view["drm"] if d["id"] == drm_id]
    assert len(found) == 1, view["drm"]
    return found[0]


def _roll(game: Game, role: str, table: str, drm: list[dict[str, Any]] | None = None) -> Any:
    return game.post(role, f"/tables/{table}/rolls", {"drm": drm or []})


@pytest.fixture
def kgp(client: TestClient) -> Game:
    return Game(client, {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}})


@pytest.fixture
def abtf(client: TestClient) -> Game:
    return Game(client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "19 AM"})


@pytest.mark.parametrize(("date", "days"), [("19 AM", 0), ("19 N", 0), ("20 AM", 1), ("21 AM", 2)])
def test_8_6201_counts_the_days_after_19_december(kgp: Game, date: str, days: int) -> None:
    """8.6201 "Per day after Dec 19 N"; the 8.6205 EX: 21 AM is "two days past
    19 December" (+2)."""
    kgp.to_date(date)
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
    view = created(_roll(kgp, "German", "kgp:8.6201", [{"id": "v-or-g"}]))
    assert [d["id"] for d in view["drm"]] == ["v-or-g", "days-after-dec-19"]
    assert view["final"] == view["original"] - 1 + 1


def test_the_referee_gets_a_side_free_count_too(kgp: Game) -> None:
    kgp.to_date("20 AM")
    view = created(_roll(kgp, "referee", "kgp:8.6201"))
    assert _drm(view, "days-after-dec-19")["count"] == 1


@pytest.mark.parametrize(
    ("date", "x"), [("19 AM", 1), ("19 EVE", 2), ("20 EVE", 3), ("21 EVE", 4)]
)
def test_abtf_campaign_exhaustion_comes_from_the_9_6161_chart(
    abtf: Game, date: str, x: int
) -> None:
    abtf.to_date(date)
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
    abtf.to_date("21 EVE")
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
    abtf.to_date("21 PM")
    british = created(_roll(abtf, "British", "abtf:9.6202"))
    assert _drm(british, "exhaustion-british")["value"] == 3
    german = created(_roll(abtf, "German", "abtf:9.6202"))
    assert _drm(german, "exhaustion-german")["value"] == 1
