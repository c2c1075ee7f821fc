"""KGP rules of issue 2, checked against the seed text: 8.6161 chart readings,
CG Date calendars (8.6161, 8.617), 8.616/8.6162 (with its EX), 8.619, 8.622."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any
from uuid import UUID

import kgp_commands as kgpc
import pytest

from cgledger.domain import dice, tables
from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.kgp import ruleset as K
from cgledger.domain.rulesets.kgp.cpp_base import CHART
from cgledger.domain.rulesets.kgp.rules import RECON_2_CPP, RECON_LAX, ShortageCreate
from cgledger.domain.visibility import REFEREE
from cgledger.sealing import AesGcmSealer

KGP = REGISTRY["kgp"]
REPLENISH = KGP.tables["kgp:8.616"]


@pytest.mark.parametrize(
    ("cg", "date", "us", "german"),
    [
        ("CG I", "19 PM", 35, 35),
        ("CG I", "19 N", 50, 25),
        ("CG I", "21 PM", 75, 25),
        ("CG II", "20 N", 40, 35),
        ("CG II", "21 PM", 10, 25),
        ("CG III", "19 N", 20, 35),
        ("CG III", "20 PM", 90, 75),
        ("CG III", "22 N", 20, 30),
        ("CG III", "23 AM", 175, None),
    ],
)
def test_cpp_base_chart_8_6161(cg: str, date: str, us: int, german: int | None) -> None:
    """8.6161 as read from the OCR (first of each pair U.S., second German)."""
    assert K.cpp_base(cg, date, "US") == us
    assert K.cpp_base(cg, date, "German") == german


@pytest.mark.parametrize(
    ("cg", "first", "last", "n"),
    [
        ("CG I", "19 AM", "21 PM", 8),
        ("CG II", "20 PM", "21 PM", 4),
        ("CG III", "19 PM", "23 PM", 13),
    ],
)
def test_calendars_come_from_8_6161_and_8_617(cg: str, first: str, last: str, n: int) -> None:
    cal = KGP.campaigns[cg].calendar
    assert (cal[0], cal[-1], len(cal)) == (first, last, n)
    # Every CG Date is a date of the 8.617 Historical Weather Chart, in its order.
    positions = [K.HISTORICAL_DATES.index(d) for d in cal]
    assert positions == sorted(positions)
    assert positions == list(range(positions[0], positions[0] + n))
    # The Initial Scenario date is the one date without a Base # (8.6162: shaded).
    assert cal[0] not in CHART[cg]
    assert set(cal[1:]) == set(CHART[cg])


@pytest.mark.parametrize(
    ("base", "dr", "repl"),
    [(30, 6, 24), (35, 2, 33), (35, 12, 23), (10, 10, 0), (10, 11, 0), (10, 12, 0)],
)
def test_replenishment_8_616(base: int, dr: int, repl: int) -> None:
    """Base # minus the Secret DR; never below 0 (the reading recorded in kgp.py),
    read off the kgp:8.616 table for every pair of dice that sums to the DR."""
    for first in range(max(1, dr - 6), min(6, dr - 1) + 1):
        result = tables.resolve(REPLENISH, [first, dr - first], [], {"base": base})
        assert (result["final"], result["outcome"]["amount"]) == (dr, repl)


def test_ex_8_6162_arithmetic() -> None:
    """8.6162 EX: Base # 30, DR 6 -> Repl 24; Left 2 on 19 AM -> Start 2; Total 26."""
    initial = cppbook.new_line("19 AM", start=2, initial=True)
    line = cppbook.new_line("19 PM", start=cppbook.next_start(initial), initial=False)
    line["repl"] = tables.resolve(REPLENISH, [2, 4], [], {"base": 30})["outcome"]["amount"]
    assert (line["start"], line["repl"], cppbook.total(line)) == (2, 24, 26)


def test_left_carries_into_start_with_recon_deducted_8_622() -> None:
    line = cppbook.new_line("19 PM", start=2, initial=False)
    line["repl"] = 24
    line["purchases"].append(cppbook.Purchase(seq=5, rg="I2", cpp=8))
    line["recon_cpp"] = 2
    assert (cppbook.spent(line), cppbook.left(line), cppbook.next_start(line)) == (8, 18, 16)


@pytest.mark.parametrize(
    ("cpp", "lax", "total"), [(1, False, 0), (2, False, 5), (1, True, -1), (2, True, 4)]
)
def test_recon_drm_8_622(cpp: int, lax: bool, total: int) -> None:
    named = ([tables.DrmRequest(RECON_2_CPP)] if cpp == 2 else []) + (
        [tables.DrmRequest(RECON_LAX)] if lax else []
    )
    result = tables.resolve(K.RULESET.tables["kgp:8.622"], [3], named, {})
    assert sum(d["value"] for d in result["drm"]) == total
    assert result["final"] == 3 + total


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("19 PM", "19 PM"),
        ("19pm", "19 PM"),
        ("Dec 19 PM", "19 PM"),
        ("20 n", "20 N"),
        ("19 EVE", None),
        ("19", None),
        ("PM", None),
    ],
)
def test_kgp_date_spelling(text: str, expected: str | None) -> None:
    assert KGP.normalize_date(text) == expected


def test_abtf_and_sg_calendars() -> None:
    abtf = REGISTRY["abtf"].campaigns["CG I"]
    assert (abtf.calendar[0], abtf.calendar[-1], abtf.initial_date) == ("17 N", "21 EVE", None)
    assert "18 EVE" in abtf.calendar
    sg = REGISTRY["sg"].campaigns["SG"]
    assert (sg.calendar, sg.extendable) == (("6 Morning",), True)
    assert REGISTRY["abtf"].normalize_date("18eve") == "18 EVE"
    assert REGISTRY["sg"].normalize_date("December 6 morning") == "6 Morning"


# --- the command path, with deterministic entropy ------------------------------


def _ctx(actor: str, rng: random.Random) -> Ctx:
    return Ctx(
        actor=actor,
        now="2026-11-21T00:00:00Z",
        entropy=rng.randbytes,
        sealer=AesGcmSealer(bytes(32)),
    )


def _campaign(rng: random.Random, german_cpp: int = 2) -> Campaign:
    return Campaign.create(
        _ctx("creator", rng),
        campaign_id=UUID(int=rng.getrandbits(128)),
        ruleset_id="kgp",
        campaign_name="CG I",
        title="t",
        start_date=None,
        initial_cpp={"German": german_cpp},
        token_hashes={},
    )


def _nonce_for_dr(c: Campaign, want: int, actor: str) -> str:
    """Search a client_nonce whose sealed DR is ``want`` (the server's seed is
    fixed): a Secret DR is a sealed record's, the first two dice of its
    index's stream (cgledger-dice/2), whatever its purpose."""
    index = c.roll_count
    seed = c.seed(index, AesGcmSealer(bytes(32)))
    for n in range(10_000):
        got = dice.sealed_dice(
            seed, campaign=c.cid, index=index, client_nonce=str(n), side=actor, n=2
        )
        if sum(got) == want:
            return str(n)
    raise AssertionError("no nonce found")


def _advance(c: Campaign, rng: random.Random, side: str, to: str) -> None:
    """``side`` completes its RePh steps up to ``to``, making on the way the
    8.620 rolls that determine the RG it bought (as ``Game.advance`` does over
    REST): any other refusal is raised."""
    for _ in range(20):
        try:
            c.advance(_ctx(side, rng), side, to)
            return
        except RuleViolation as exc:
            if "/rg-determinations)" not in exc.detail:
                raise
            kgpc.determine_rg(c, _ctx(side, rng), side)
    raise AssertionError(f"{side} could not reach {to}")


def _end_scenario(c: Campaign, rng: random.Random) -> None:
    """Every side completes its RePh steps and the referee calls CG-Scenario End
    (the Initial Scenario's, or one the Initiative generated)."""
    for side in c.sides:
        _advance(c, rng, side, "scenario")
    c.end_scenario(_ctx(REFEREE, rng), {"cvp": dict.fromkeys(c.sides, 0)})


def _idle_date(c: Campaign, rng: random.Random) -> None:
    """Each side makes the actions its steps up to 8.623 require (8.616, and the
    German's 8.618 DR from 20 AM) and chooses an Idle chit: 8.6232 note 2, the
    date is Idle and the sequence returns to New CG Date (8.6121)."""
    shortage = KGP.step("8.618")
    for side in c.sides:
        if not c.rules["cpp"][side][-1]["initial"]:
            kgpc.replenish_cpp(c, _ctx(side, rng), side, None)
        if c.step_applies(shortage, side) and not KGP.rules.step_done(c, side, "8.618"):
            c.perform(_ctx(side, rng), "ammunition-shortage", ShortageCreate())
        c.advance(_ctx(side, rng), side, "8.623")
        c.choose_initiative(_ctx(side, rng), side, "idle")
    assert c.awaiting_new_date


def test_ex_8_6162_through_the_commands() -> None:
    """The EX's flow on the chart's Base # (35 on 19 PM of CG I): Left 2 on 19 AM
    becomes Start 2 on 19 PM; a DR of 6 replenishes 29; Total 31."""
    rng = random.Random(8_6162)
    c = _campaign(rng)
    _end_scenario(c, rng)  # the 19 AM Initial Scenario
    c.begin_cg_date(_ctx("referee", rng), None)
    nonce, index = _nonce_for_dr(c, 6, "German"), c.roll_count
    seq = kgpc.replenish_cpp(c, _ctx("German", rng), "German", nonce)
    assert c.record(seq)["payload"]["roll"]["index"] == index  # the index steered
    line = c.rules["cpp"]["German"][-1]
    assert (line["cg_date"], line["start"], line["base"], line["repl"]) == ("19 PM", 2, 35, 29)
    assert cppbook.total(line) == 31


def test_overspending_is_refused_and_appends_nothing_8_619() -> None:
    """On the sample chart the German I1 costs 4 CPP, HW1 3 and F1 2: with 3 CPP
    the I1 is too dear, and so is HW1 with F1, though each alone is not."""
    rng = random.Random(1)
    c = _campaign(rng, german_cpp=3)
    before = (c.version, len(list(c.collect_events())))
    with pytest.raises(RuleViolation, match=r"^8\.619: I1 costs 4 CPP but German has 3"):
        kgpc.purchase_rg(c, _ctx("German", rng), "German", [("I1", 4)], secret=True)
    with pytest.raises(RuleViolation, match=r"^8\.619: 2 RG cost 5 CPP but German has 3"):
        kgpc.purchase_rg(c, _ctx("German", rng), "German", [("HW1", 3), ("F1", 2)], secret=True)
    assert c.version == before[0]
    assert list(c.collect_events()) == []
    kgpc.purchase_rg(c, _ctx("German", rng), "German", [("HW1", 3)], secret=True)
    assert cppbook.left(c.rules["cpp"]["German"][-1]) == 0


def _walk_to_19_pm(rng: random.Random) -> Campaign:
    c = _campaign(rng)
    _end_scenario(c, rng)
    c.begin_cg_date(_ctx("referee", rng), None)
    return c


def _recon(c: Campaign, x: Ctx) -> int:
    return kgpc.purchase_recon(c, x, "German", 1, lax=False, secret=True, client_nonce=None)


@pytest.mark.parametrize(
    ("steps", "refused", "rule"),
    [
        # 8.616 is required before its step is passed (DESIGN §8).
        ([], lambda c, x: kgpc.purchase_rg(c, x, "German", [("I1", 4)], secret=True), "8.616"),
        ([], _recon, "8.616"),
        (
            ["repl", "recon"],
            lambda c, x: kgpc.purchase_rg(c, x, "German", [("I1", 4)], secret=True),
            "8.6",
        ),
        (["repl"], lambda c, x: kgpc.replenish_cpp(c, x, "German", None), "8.616"),
        (["repl", "recon"], _recon, "8.622"),
        # The referee cannot move the US past 8.616 before its DR ...
        (["repl"], lambda c, x: c.advance(replace(x, actor=REFEREE), "US", "8.623"), "8.616"),
        # ... nor begin the next CG Date before this one's scenario ended or was Idle.
        (["repl"], lambda c, x: c.begin_cg_date(replace(x, actor=REFEREE), None), "8.612"),
    ],
)
def test_refit_phase_order(steps: list[str], refused: Any, rule: str) -> None:
    """8.6: steps are carried out in the numbered order (8.616, 8.619, 8.622), and
    8.616/8.622 happen once per CG Date."""
    rng = random.Random(86)
    c = _walk_to_19_pm(rng)
    for step in steps:
        if step == "repl":
            kgpc.replenish_cpp(c, _ctx("German", rng), "German", None)
        else:
            kgpc.purchase_recon(
                c, _ctx("German", rng), "German", 1, lax=False, secret=True, client_nonce=None
            )
    version = c.version
    with pytest.raises(RuleViolation) as err:
        refused(c, _ctx("German", rng))
    assert err.value.detail.startswith(f"{rule}:")
    assert c.version == version


def test_initial_scenario_date_has_no_replenishment_or_recon() -> None:
    rng = random.Random(2)
    c = _campaign(rng, german_cpp=4)
    with pytest.raises(RuleViolation, match=r"^8\.6162:"):
        kgpc.replenish_cpp(c, _ctx("German", rng), "German", None)
    with pytest.raises(RuleViolation, match=r"^8\.622:"):
        kgpc.purchase_recon(
            c, _ctx("German", rng), "German", 1, lax=False, secret=True, client_nonce=None
        )
    # 8.619 is a † step: RG may be bought before the Initial Scenario.
    seq = kgpc.purchase_rg(c, _ctx("German", rng), "German", [("I1", 4)], secret=True)
    assert c.rules["cpp"]["German"][-1]["purchase_seqs"] == [seq]


def test_no_german_cpp_on_cg_iii_23_am_means_no_dr() -> None:
    rng = random.Random(3)
    c = Campaign.create(
        _ctx("creator", rng),
        campaign_id=UUID(int=3),
        ruleset_id="kgp",
        campaign_name="CG III",
        title="",
        start_date=None,
        initial_cpp=None,
        token_hashes={},
    )
    _end_scenario(c, rng)  # the 19 PM Initial Scenario
    c.begin_cg_date(_ctx("referee", rng), None)
    while c.cg_date != "23 AM":
        _idle_date(c, rng)
        c.begin_cg_date(_ctx("referee", rng), None)
    rolls = c.roll_count
    kgpc.replenish_cpp(c, _ctx("German", rng), "German", None)
    assert c.rules["cpp"]["German"][-1]["repl"] == 0
    assert c.roll_count == rolls


def test_commitments_stay_ahead_of_rolls() -> None:
    """DESIGN §2: a commitment is published in an earlier event, in batches; the
    next batch is published while >= LOW_WATER committed indices are still unused."""
    rng = random.Random(4)
    c = _campaign(rng)
    for _ in range(dice.BATCH_SIZE + 5):
        c.roll(_ctx("US", rng), count=1, purpose="free", secret=False, client_nonce=None)
        assert c.committed - c.roll_count >= dice.LOW_WATER
    # 69 rolls: the second batch went out at roll 33 (31 unused left), no third yet.
    assert c.committed == 2 * dice.BATCH_SIZE


def test_a_side_cannot_end_the_other_sides_refit_phase_8_6() -> None:
    """8.6: the RePh is performed simultaneously by each side. One side's call
    only records that it is ready; the date begins when both are (or the referee
    calls), so neither side can skip the other's steps."""
    rng = random.Random(6)
    c = _campaign(rng, german_cpp=4)
    # 8.6121: no new CG Date before the Initial Scenario ends.
    with pytest.raises(RuleViolation, match=r"^8\.612: a new CG Date begins after"):
        c.begin_cg_date(_ctx("US", rng), None)
    kgpc.purchase_rg(c, _ctx("German", rng), "German", [("I1", 4)], secret=True)  # 8.619 †
    _end_scenario(c, rng)
    c.begin_cg_date(_ctx("US", rng), None)
    assert (c.cg_date, c.ready) == ("19 AM", {"US": "19 PM"})
    with pytest.raises(RuleViolation, match="waiting for German"):
        c.begin_cg_date(_ctx("US", rng), None)
    c.begin_cg_date(_ctx("German", rng), None)
    assert (c.cg_date, c.ready) == ("19 PM", {})
    # At 19 PM each side must make its 8.616 DR before it passes the step, so
    # neither it nor the referee can bring the date to its end without it.
    with pytest.raises(
        RuleViolation, match=r"^8\.616: CPP Replenishment requires its action of US"
    ):
        c.advance(_ctx("US", rng), "US", "8.623")
    kgpc.replenish_cpp(c, _ctx("US", rng), "US", None)
    c.advance(_ctx("US", rng), "US", "8.623")
    with pytest.raises(
        RuleViolation, match=r"^8\.616: CPP Replenishment requires its action of German"
    ):
        c.advance(_ctx(REFEREE, rng), "German", "8.623")
    with pytest.raises(RuleViolation, match=r"^8\.612: a new CG Date begins after"):
        c.begin_cg_date(_ctx(REFEREE, rng), None)
    assert c.cg_date == "19 PM"


def test_a_secret_batch_hides_how_many_rg_were_bought_8_619() -> None:
    rng = random.Random(7)
    c = _campaign(rng, german_cpp=9)
    bought = [("I1", 4), ("HW1", 3), ("F1", 2)]  # the sample chart's prices (8.6194)
    seq = kgpc.purchase_rg(c, _ctx("German", rng), "German", bought, secret=True)
    line = c.rules["cpp"]["German"][-1]
    assert [(p["rg"], p["cpp"], p["seq"]) for p in line["purchases"]] == [
        ("I1", 4, seq),
        ("HW1", 3, seq),
        ("F1", 2, seq),
    ]
    assert (line["purchase_seqs"], cppbook.left(line)) == ([seq], 0)
    empty = kgpc.purchase_rg(c, _ctx("German", rng), "German", [], secret=True)
    assert line["purchase_seqs"] == [seq, empty]
    with pytest.raises(InvalidInput):
        kgpc.purchase_rg(c, _ctx("German", rng), "German", [], secret=False)
    with pytest.raises(InvalidInput, match=r"^8\.6194: 'I1\\n' is not on the German RG chart"):
        kgpc.purchase_rg(c, _ctx("German", rng), "German", [("I1\n", None)], secret=True)
