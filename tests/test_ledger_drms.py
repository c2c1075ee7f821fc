"""Issue 26 item 3, as pure domain tests: every DRM the ledger can decide it
computes, for every table that has one (``Ruleset.counted_drms``).

For each counted DRM, from the facts a record shows: it is applied when it
should be (``"by": "ledger"``), absent (or 0) when not, refused when a side
states it (422 "<rule>: <drm> is computed by the ledger; do not state it",
even with the ledger's number), and a side DRM stated by another side is 422.
Where the record cannot tell (``count`` gives ``None``) the roller's DRM
stands (``"by": "roller"``). The referee's ruling may name any of them with
the ledger's number. The cases are written from the seed's words (each one
cites its DRM); a counted DRM with no case here fails
``test_every_counted_drm_has_a_case``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from drm_probe import Probe, probe_ctx

from cgledger.domain import tables as tb
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY, drm_sources
from cgledger.domain.rulesets.base import CountedDrm, DateFacts, Facts
from cgledger.domain.visibility import REFEREE

_ctx = probe_ctx


def date(
    cg_date: str,
    scenario: str | None = "dual-attack",
    *,
    cvp: Mapping[str, int] | None = None,
    winner: str | None = None,
    chits: Mapping[str, str] | None = None,
) -> DateFacts:
    return DateFacts(cg_date, scenario, dict(chits or {}), cvp, winner)


def facts(
    cg_date: str,
    *dates: DateFacts,
    rules: Mapping[str, Any] | None = None,
    lasting: Mapping[str, Any] | None = None,
) -> Facts:
    """The facts of a record on ``cg_date`` (its own date last, added if left out)."""
    played = list(dates)
    if not played or played[-1].cg_date != cg_date:
        played.append(date(cg_date, None))
    return Facts(
        cg_date=cg_date,
        side="",
        rules=dict(rules or {}),
        lasting=dict(lasting or {}),
        options=frozenset(),
        dates=tuple(played),
    )


def kept(value: Any, cg_date: str, *, known: bool = True, rule: str = "") -> dict[str, Any]:
    """A lasting value as ``Campaign.lasting`` keeps it."""
    return {"value": value, "known": known, "cg_date": cg_date, "seq": 1, "rule": rule,
            "before": None}  # fmt: skip


SHORTAGE = {"shortage": {"since": {"cg_date": "20 AM", "seq": 9}}}
NO_SHORTAGE: dict[str, Any] = {"shortage": {"since": None}}


@dataclass(frozen=True)
class Case:
    """A counted DRM: the record where it applies (``on``, for ``side``, with
    ``n`` its count, x, or 1) and one where it does not (``off``, for
    ``off_side``: absent, or 0 for a count or an x)."""

    ruleset: str
    table: str
    drm: str
    side: str
    on: Facts
    n: int
    off: Facts
    off_side: str = ""
    #: A record the ledger cannot count it from (the roller's word stands).
    unknown: Facts | None = None
    note: str = field(default="", compare=False)


US, GERMAN, BRITISH = "US", "German", "British"
#: KGP CG Dates: a Night one and a day one.
N19, AM20 = facts("19 N"), facts("20 AM")
#: 8.6113/8.6114 on 20 AM: U.S. won with 55 CVP, the German earned 10.
WON = facts("20 AM", date("20 AM", cvp={US: 55, GERMAN: 10}, winner=US))
UNDECIDED = facts("20 AM", date("20 AM", cvp={US: 55, GERMAN: 10}, winner=None))
NO_END = facts("20 AM", date("20 AM", cvp=None))
WEATHER = "weather"

CASES = [
    # 8.606: "-1 If current CG Date is Night".
    Case("kgp", "kgp:8.606-infantry", "night", US, N19, 1, AM20, US),
    Case("kgp", "kgp:8.606-vehicle", "night", GERMAN, N19, 1, AM20, GERMAN),
    # 8.610: "-1 If German".
    Case("kgp", "kgp:8.610", "german", GERMAN, AM20, 1, AM20, US),
    # 8.6113: "-2 Friendly side won this CG Date's scenario", "-1 Per 25
    # Casualty VP amassed by friendly side on the current CG Date".
    Case("kgp", "kgp:8.6113", "won", US, WON, 1, WON, GERMAN, unknown=UNDECIDED),
    Case("kgp", "kgp:8.6113", "casualty-vp", US, WON, 55,
         facts("20 AM", date("20 AM", cvp={US: 0, GERMAN: 10})), US, unknown=NO_END),
    # 8.6114: "-2 Friendly side won this CG Date's scenario".
    Case("kgp", "kgp:8.6114", "won", GERMAN,
         facts("20 AM", date("20 AM", cvp={US: 5, GERMAN: 10}, winner=GERMAN)), 1,
         WON, GERMAN, unknown=NO_END),
    # 8.6141b: "+1 If German"; 8.6142: "-1 If U.S.", "+1 If German and
    # suffering from Ammunition Shortage"; 8.61421: "Each dr made for a German
    # SW receives a +1 drm, and an additional +1 drm if Ammunition Shortage
    # (8.618) is already in effect"; 8.6146: "+1 drm if ... already in effect".
    Case("kgp", "kgp:8.6141b", "german", GERMAN, AM20, 1, AM20, US),
    Case("kgp", "kgp:8.6142", "us", US, AM20, 1, AM20, GERMAN),
    # Without 8.618's shortage the roller states it: a German Weapon also suffers
    # Ammunition Shortage by Isolation (8.6241), which the ledger does not track.
    Case("kgp", "kgp:8.6142", "german-ammunition-shortage", GERMAN,
         facts("20 PM", rules=SHORTAGE), 1, facts("20 PM", rules=SHORTAGE), US,
         unknown=facts("20 PM", rules=NO_SHORTAGE)),
    Case("kgp", "kgp:8.61421", "german", GERMAN, AM20, 1, AM20, US),
    Case("kgp", "kgp:8.61421", "ammunition-shortage", GERMAN,
         facts("20 PM", rules=SHORTAGE), 1, facts("20 PM", rules=NO_SHORTAGE), GERMAN),
    Case("kgp", "kgp:8.6146", "ammunition-shortage", GERMAN,
         facts("20 PM", rules=SHORTAGE), 1, facts("20 PM", rules=NO_SHORTAGE), GERMAN),
    # 8.6201 "Per day after Dec 19 N" (the 8.6205 EX: 21 AM counts 2); KGP13
    # "Per day after 21 December".
    Case("kgp", "kgp:8.6201", "days-after-dec-19", GERMAN, facts("21 AM"), 2,
         facts("19 N"), GERMAN),
    Case("kgp", "kgp:KGP13", "days-after-dec-21", GERMAN, facts("23 AM"), 2,
         facts("21 PM"), GERMAN),
    # 8.618 "per CG scenario completed after 20 AM": 20 PM's and 20 N's.
    Case("kgp", "kgp:8.618", "scenarios-after-20-am", GERMAN,
         facts("21 AM", date("20 PM", cvp={US: 1, GERMAN: 1}),
               date("20 N", cvp={US: 1, GERMAN: 1})), 2,
         facts("20 PM", date("19 N", cvp={US: 1, GERMAN: 1})), GERMAN),
    # 8.6171: "-1 If the current CG Date is AM", "+1 ... Dec 22 N or later",
    # "-1 If the preceding CG Date's Weather was Overcast", "+1 ... Clear".
    Case("kgp", "kgp:8.6171", "am", US, facts("21 AM"), 1, facts("21 PM"), US),
    Case("kgp", "kgp:8.6171", "dec-22-n-or-later", US, facts("22 N"), 1, facts("22 PM"), US),
    Case("kgp", "kgp:8.6171", "preceding-overcast", US,
         facts("21 AM", date("20 N"), lasting={WEATHER: {"*": kept("Overcast", "20 N")}}), 1,
         facts("21 AM", date("20 N"), lasting={WEATHER: {"*": kept("Clear", "20 N")}}), US,
         unknown=facts("21 AM", date("20 N"))),
    Case("kgp", "kgp:8.6171", "preceding-clear", US,
         facts("21 AM", date("20 N"), lasting={WEATHER: {"*": kept("Clear", "20 N")}}), 1,
         facts("21 AM", date("20 N"), lasting={WEATHER: {"*": kept("Mist", "20 N")}}), US,
         unknown=facts("21 AM", date("20 N"))),
    # 8.6171 Mist Density: "-1 ... AM", "+1 ... PM", "+2 ... Dec 21 N or later".
    Case("kgp", "kgp:8.6171-mist", "am", US, facts("20 AM"), 1, facts("20 N"), US),
    Case("kgp", "kgp:8.6171-mist", "pm", US, facts("20 PM"), 1, facts("20 AM"), US),
    Case("kgp", "kgp:8.6171-mist", "dec-21-n-or-later", US, facts("21 N"), 1,
         facts("21 PM"), US),
    # CG23: "+1 Each CG Night scenario Game End dr"; KGP3: "-1 In each 'PM' scenario".
    Case("kgp", "kgp:CG23", "night", US, N19, 1, AM20, US),
    Case("kgp", "kgp:KGP3-mist-change", "pm", GERMAN, facts("20 PM"), 1, AM20, GERMAN),
]  # fmt: skip

#: ABtF: the CG Date just completed (its scenario ended) and one after it.
ENDED_N = facts("19 N", date("19 N", cvp={BRITISH: 1, GERMAN: 1}))
ENDED_EVE = facts("19 EVE", date("19 EVE", cvp={BRITISH: 1, GERMAN: 1}))
AFTER_IDLE = facts("21 AM", date("20 N", "idle"), date("21 AM"))
AFTER_PLAY = facts("21 AM", date("20 N", cvp={BRITISH: 1, GERMAN: 1}), date("21 AM"))
LEVEL = "ammunition_shortage_level"
LEVEL_2 = facts("20 PM", lasting={LEVEL: {BRITISH: kept(2, "20 PM")}})
LEVEL_0 = facts("20 PM", lasting={LEVEL: {BRITISH: kept(0, "20 PM")}})
LEVEL_CHANGED = facts("20 PM", lasting={LEVEL: {BRITISH: kept(1, "20 PM", known=False)}})
EVE21, AM18 = facts("21 EVE"), facts("18 AM")
#: The 9.6202 EX: 21 AM a CG Scenario with both sides' Attack Chits, after an
#: Idle 20 N; "inflicted 42 CVP" (British) and 38 (German).
EX_9_6202 = facts(
    "21 PM",
    date("20 EVE", cvp={BRITISH: 9, GERMAN: 9}),
    date("20 N", "idle"),
    date("21 AM", chits={BRITISH: "attack", GERMAN: "attack"}, cvp={BRITISH: 42, GERMAN: 38}),
    date("21 PM", None),
)
LAST_20N = facts("21 AM", date("20 N", "idle"), date("21 AM", None))
PREVIOUS = {WEATHER: {"*": kept("Mist", "20 N")}, "ec": {"*": kept("Dry", "20 N")}}


def _previous(**values: str) -> Facts:
    lasting = {k: {"*": kept(v, "20 N")} for k, v in values.items()}
    return facts("21 AM", date("20 N"), date("21 AM"), lasting=lasting)


ABTF_CASES = [
    # 9.6054: "-1 just completed CG Date was Night (N)" (EVE is not Night).
    Case("abtf", "abtf:9.6054-infantry", "night", BRITISH, ENDED_N, 1, ENDED_EVE, BRITISH,
         unknown=facts("19 N")),
    Case("abtf", "abtf:9.6054-vehicle", "night", GERMAN, ENDED_N, 1, ENDED_EVE, GERMAN),
    # 9.6101: "-1 British"; 9.613: "-2 British", "-1 Previous CG Date was Idle
    # (British only)"; 9.6144: "-1 German", "+x current level of Ammunition
    # Shortage (SSR CG 17) (British Only)"; 9.6181: "-2 British".
    Case("abtf", "abtf:9.6101", "british", BRITISH, AM18, 1, AM18, GERMAN),
    Case("abtf", "abtf:9.613", "british", BRITISH, AM18, 1, AM18, GERMAN),
    Case("abtf", "abtf:9.613", "idle", BRITISH, AFTER_IDLE, 1, AFTER_PLAY, BRITISH),
    Case("abtf", "abtf:9.6144", "german", GERMAN, AM18, 1, AM18, BRITISH),
    Case("abtf", "abtf:9.6144", "ammo-shortage", BRITISH, LEVEL_2, 2, LEVEL_0, BRITISH,
         unknown=LEVEL_CHANGED),
    Case("abtf", "abtf:9.6181", "british", BRITISH, AM18, 1, AM18, GERMAN),
    # The 9.6161 chart's Campaign Exhaustion DRM: 21 EVE +4, 18 AM 0.
    Case("abtf", "abtf:9.6181", "exhaustion", GERMAN, EVE21, 4, AM18, GERMAN),
    Case("abtf", "abtf:9.6201", "exhaustion", BRITISH, EVE21, 4, AM18, BRITISH),
    Case("abtf", "abtf:9.6202", "exhaustion-british", BRITISH, EVE21, 4, AM18, BRITISH),
    Case("abtf", "abtf:9.6202", "exhaustion-german", GERMAN, EVE21, 4, AM18, GERMAN),
    # 9.6201: "Number of British Attack Chits selected during this CG".
    Case("abtf", "abtf:9.6201", "attack-chits", BRITISH, EX_9_6202, 1, LAST_20N, BRITISH),
    # 9.6202 and its EX: "-1 for CVP" (42 and 38: one per 30), "+1 for the 21AM
    # CG Scenario", "+1 for the Attack Chit used on 21AM", no Idle date since
    # the last scenario; "+z British Ammunition Shortage Level DRM (British Only)".
    Case("abtf", "abtf:9.6202", "cvp", BRITISH, EX_9_6202, 42,
         facts("21 AM", date("20 N", cvp={BRITISH: 0, GERMAN: 0})), BRITISH),
    Case("abtf", "abtf:9.6202", "scenarios", GERMAN, EX_9_6202, 1, LAST_20N, GERMAN),
    Case("abtf", "abtf:9.6202", "attack-chits", GERMAN, EX_9_6202, 1, LAST_20N, GERMAN),
    Case("abtf", "abtf:9.6202", "idle-dates", BRITISH, LAST_20N, 1, EX_9_6202, BRITISH),
    Case("abtf", "abtf:9.6202", "ammo-shortage", BRITISH, LEVEL_2, 2, LEVEL_0, BRITISH,
         unknown=LEVEL_CHANGED),
    # 9.6216: "Night Scenario", "Previous CG Scenario was Mist/Overcast/Clear &
    # Gusty", "Wet or Moist", "Dry", "Weather is Overcast".
    Case("abtf", "abtf:9.62161", "night", BRITISH, facts("20 N"), 1, facts("20 EVE"), BRITISH),
    Case("abtf", "abtf:9.62161", "previous-mist", BRITISH, _previous(weather="Mist"), 1,
         _previous(weather="Overcast"), BRITISH, unknown=facts("21 AM")),
    Case("abtf", "abtf:9.62161", "previous-overcast", BRITISH, _previous(weather="Overcast"),
         1, _previous(weather="Mist"), BRITISH),
    Case("abtf", "abtf:9.62161", "previous-gusty", BRITISH,
         _previous(weather="Clear & Gusty"), 1, _previous(weather="Clear"), BRITISH),
    Case("abtf", "abtf:9.62163", "night", BRITISH, facts("20 N"), 1, facts("20 PM"), BRITISH),
    Case("abtf", "abtf:9.62163", "previous-wet", BRITISH, _previous(ec="Moist"), 1,
         _previous(ec="Dry"), BRITISH),
    Case("abtf", "abtf:9.62163", "previous-dry", BRITISH, _previous(ec="Dry"), 1,
         _previous(ec="Wet"), BRITISH),
    Case("abtf", "abtf:9.62164", "night", BRITISH, facts("20 N"), 1, facts("20 AM"), BRITISH),
    Case("abtf", "abtf:9.62164", "overcast", BRITISH,
         facts("21 AM", lasting={WEATHER: {"*": kept("Overcast", "21 AM")}}), 1,
         facts("21 AM", lasting={WEATHER: {"*": kept("Clear", "21 AM")}}), BRITISH,
         unknown=facts("21 AM")),
    Case("abtf", "abtf:9.62164", "previous-gusty", BRITISH,
         _previous(weather="Clear & Gusty"), 1, _previous(weather="Mist"), BRITISH),
]  # fmt: skip

ALL_CASES = CASES + ABTF_CASES
IDS = [f"{c.table}/{c.drm}" for c in ALL_CASES]


def _counted(case: Case) -> CountedDrm:
    (found,) = (
        c for c in REGISTRY[case.ruleset].counted_drms if (c.table, c.drm) == (case.table, case.drm)
    )
    return found


def _table(case: Case) -> tb.Table:
    table = REGISTRY[case.ruleset].table(case.table)
    assert table is not None
    return table


def _stated(table: tb.Table, drm_id: str, n: int) -> tb.DrmRequest:
    """``drm_id`` as a roller states it, with ``n`` its count or x."""
    kind = table.drm(drm_id).kind  # type: ignore[union-attr]
    if kind == "per":
        return tb.DrmRequest(drm_id, count=n)
    if kind == "valued":
        return tb.DrmRequest(drm_id, value=n)
    return tb.DrmRequest(drm_id)


def _apply(case: Case, record: Facts, actor: str, drm: list[tb.DrmRequest]) -> list[dict[str, Any]]:
    """The DRMs of a roll as the ledger records them (``tables.prepare``)."""
    table = _table(case)
    requests = Probe(case.ruleset, record).with_counted_drms(_ctx(actor), table, drm)
    inputs = {i.id: i.choices[0] if i.choices else i.lo for i in table.inputs}
    return tb.prepare(table, requests, inputs).applied


def _entry(applied: list[dict[str, Any]], drm_id: str) -> dict[str, Any] | None:
    found = [a for a in applied if a["id"] == drm_id]
    assert len(found) <= 1, applied
    return found[0] if found else None


def test_every_counted_drm_has_a_case() -> None:
    """The cases above cover each DRM the ledger counts, in every ruleset."""
    counted = {(r.id, c.table, c.drm) for r in REGISTRY.values() for c in r.counted_drms}
    cases = {(c.ruleset, c.table, c.drm) for c in ALL_CASES}
    assert counted - cases == set(), "a counted DRM has no case in tests/test_ledger_drms.py"
    assert cases - counted == set(), "a case names a DRM the ledger does not count"


@pytest.mark.parametrize("case", ALL_CASES, ids=IDS)
def test_applied_when_it_should_be(case: Case) -> None:
    entry = _entry(_apply(case, case.on, case.side, []), case.drm)
    assert entry is not None, f"{case.drm} is not applied"
    assert entry["by"] == "ledger"
    definition = _table(case).drm(case.drm)
    assert definition is not None
    if definition.kind == "per":
        assert entry["count"] == case.n
    elif definition.kind == "valued":
        assert entry["x"] == case.n
    else:
        assert entry["value"] == definition.value


@pytest.mark.parametrize("case", ALL_CASES, ids=IDS)
def test_absent_when_not(case: Case) -> None:
    """Absent (a fixed DRM, or another side's), or counted 0."""
    entry = _entry(_apply(case, case.off, case.off_side, []), case.drm)
    if entry is not None:
        assert entry["by"] == "ledger"
        assert entry.get("count", entry.get("x")) == 0
        assert entry["value"] == 0


@pytest.mark.parametrize("case", ALL_CASES, ids=IDS)
def test_refused_when_stated(case: Case) -> None:
    """Stated by the side it applies to, with the ledger's number or not, it is
    refused; the referee's ruling may name it with the ledger's number."""
    table, counted = _table(case), _counted(case)
    for n in (case.n, case.n + 1):
        if counted.at_least and n >= case.n:
            continue  # see test_a_count_known_only_at_least
        with pytest.raises(InvalidInput) as info:
            _apply(case, case.on, case.side, [_stated(table, case.drm, n)])
        assert info.value.rule == counted.rule
        assert info.value.field == "drm"
        if not counted.at_least:
            assert str(info.value.detail).startswith(
                f"{counted.rule}: {case.drm} is computed by the ledger; do not state it ("
            )
    if counted.by_side:
        return  # counted from the roller's own record: the referee's word
    applied = _apply(case, case.on, REFEREE, [_stated(table, case.drm, case.n)])
    entry = _entry(applied, case.drm)
    assert entry is not None
    assert entry["by"] == "roller"
    fixed = table.drm(case.drm).kind == "fixed"  # type: ignore[union-attr]
    if fixed and case.off_side != case.side:
        return  # a side DRM: it applies wherever the side's does
    # Another number, or a fixed DRM where it does not apply, is refused.
    record, n = (case.off, case.n) if fixed else (case.on, case.n + 1)
    with pytest.raises(InvalidInput) as info:
        _apply(case, record, REFEREE, [_stated(table, case.drm, n)])
    assert str(info.value.detail).startswith(f"{counted.rule}: {case.drm} is counted by the ledger")


SIDE_CASES = [c for c in ALL_CASES if _counted(c).sides]


@pytest.mark.parametrize("case", SIDE_CASES, ids=[f"{c.table}/{c.drm}" for c in SIDE_CASES])
def test_a_side_drm_stated_by_the_other_side_is_422(case: Case) -> None:
    """ "A side DRM stated by the other side is 422": the U.S. cannot claim the
    German's -1 on 8.610; absent when it rolls; the referee's ruling gets none
    of them unless it names it."""
    counted = _counted(case)
    others = [s for s in REGISTRY[case.ruleset].sides if s not in counted.sides]
    assert others
    for other in others:
        assert _entry(_apply(case, case.on, other, []), case.drm) is None
        with pytest.raises(InvalidInput) as info:
            _apply(case, case.on, other, [_stated(_table(case), case.drm, case.n)])
        assert str(info.value.detail) == (
            f"{counted.rule}: {case.drm} is the {' or '.join(counted.sides)} side's DRM, "
            f"not the {other} side's"
        )
    assert _entry(_apply(case, case.on, REFEREE, []), case.drm) is None


UNKNOWN = [c for c in ALL_CASES if c.unknown is not None]


@pytest.mark.parametrize("case", UNKNOWN, ids=[f"{c.table}/{c.drm}" for c in UNKNOWN])
def test_where_the_record_cannot_tell_the_rollers_drm_stands(case: Case) -> None:
    assert case.unknown is not None
    assert _counted(case).count(replace(case.unknown, side=case.side)) is None
    assert _entry(_apply(case, case.unknown, case.side, []), case.drm) is None
    applied = _apply(case, case.unknown, case.side, [_stated(_table(case), case.drm, case.n)])
    entry = _entry(applied, case.drm)
    assert entry is not None
    assert entry["by"] == "roller"


def test_a_count_known_only_at_least() -> None:
    """9.6202 "Per 30 CVP (FRD) of enemy units Eliminated during the last CG
    Scenario (including CVP awarded thus far during this RePh)": the ledger
    counts the scenario's 42; the roller may add the RePh's, never state less."""
    (case,) = (c for c in ABTF_CASES if (c.table, c.drm) == ("abtf:9.6202", "cvp"))
    table = _table(case)
    entry = _entry(_apply(case, case.on, BRITISH, []), "cvp")
    assert entry == {"id": "cvp", "text": table.drm("cvp").text, "count": 42, "value": -1,  # type: ignore[union-attr]
                     "by": "ledger"}  # fmt: skip
    more = _entry(_apply(case, case.on, BRITISH, [tb.DrmRequest("cvp", count=61)]), "cvp")
    assert more is not None
    assert (more["count"], more["value"], more["by"]) == (61, -2, "roller")
    with pytest.raises(InvalidInput) as info:
        _apply(case, case.on, BRITISH, [tb.DrmRequest("cvp", count=30)])
    assert str(info.value.detail) == (
        "9.6202: cvp is counted by the ledger: its count on 21 PM is at least 42, not 30"
    )


def test_the_9_6202_ex_totals_but_for_the_exhaustion() -> None:
    """The 9.6202 EX's DRM totals, each side from the ledger alone: the British
    "-1 for CVP, +1 for the 21AM CG Scenario, +1 for the Attack Chit used on
    21AM ... and +2 for British Ammunition Shortage"; the German "-1 for CVP,
    +1 ..., +1 ...". The Campaign Exhaustion is the chart's (its reading is
    not this test's)."""
    record = replace(EX_9_6202, lasting={LEVEL: {BRITISH: kept(2, "21 PM")}})
    table = REGISTRY["abtf"].table("abtf:9.6202")
    assert table is not None
    totals = {}
    for side in (BRITISH, GERMAN):
        applied = Probe("abtf", record).with_counted_drms(_ctx(side), table, [])
        entries = tb.prepare(table, applied, {}).applied
        assert all(a["by"] == "ledger" for a in entries)
        totals[side] = {a["id"]: a["value"] for a in entries if not a["id"].startswith("exh")}
    assert totals[BRITISH] == {
        "cvp": -1, "idle-dates": 0, "scenarios": 1, "attack-chits": 1, "ammo-shortage": 2,
    }  # fmt: skip
    assert totals[GERMAN] == {"cvp": -1, "idle-dates": 0, "scenarios": 1, "attack-chits": 1}


# ------------------------------------------------------------ docs/rulesets.md

DOC = Path(__file__).resolve().parent.parent / "docs" / "rulesets.md"


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_every_drm_of_every_table_says_who_decides_it(ruleset: str) -> None:
    """Issue 26 item 4: each DRM is the ledger's (with how) or the roller's
    (with why), and the lists say nothing of a DRM that is not so."""
    rs = REGISTRY[ruleset]
    for table in rs.tables.values():
        for d in table.drms:
            who, why = drm_sources.decided(rs, table, d.id)  # KeyError: not listed
            assert who in (drm_sources.LEDGER, drm_sources.ROLLER)
            assert why
    # No entry of the lists is stale: each names a DRM of a table of its rule,
    # counted (``HOW``) or not (``STATED``).
    by_rule: dict[str, list[tb.Table]] = {}
    for table in rs.tables.values():
        by_rule.setdefault(drm_sources.rule_key(table), []).append(table)
    for listing, counted in ((drm_sources.STATED, False), (drm_sources.HOW, True)):
        for key, drms in listing.items():
            if not key.startswith(f"{ruleset}:"):
                continue
            for drm_id in drms:
                having = [t for t in by_rule.get(key, ()) if t.drm(drm_id) is not None]
                assert having, (key, drm_id)
                for t in having:
                    found = drm_sources.counted_of(rs, t.id, drm_id)
                    assert (found is not None) == counted, (t.id, drm_id)


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_the_docs_list_each_drm_as_the_code_decides_it(ruleset: str) -> None:
    """docs/rulesets.md holds each ruleset's table as the data gives it
    (regenerate with ``python -m cgledger.domain.rulesets.drm_sources``)."""
    rs = REGISTRY[ruleset]
    assert f"### {rs.title} ({rs.id})\n\n{drm_sources.markdown(rs)}" in DOC.read_text("utf-8")


# ------------------------------------------------------------ audit and verify


@pytest.mark.parametrize("with_by", [False, True], ids=["before-by", "with-by"])
def test_audit_reads_a_roll_recorded_before_by_and_one_with_it(with_by: bool) -> None:
    """``cgledger verify`` re-reads each recorded roll (``tables.audit``): a
    roll recorded before ``by`` existed and one with it read alike; a changed
    DRM is still found."""
    table = REGISTRY["kgp"].table("kgp:8.610")
    assert table is not None
    requests = [tb.DrmRequest("german", by="ledger"), tb.DrmRequest("heroic", by="roller")]
    recorded = {**tb.resolve(table, [3], requests), "inputs": {}}
    assert [a["by"] for a in recorded["drm"]] == ["ledger", "roller"]
    if not with_by:
        recorded["drm"] = [{k: v for k, v in a.items() if k != "by"} for a in recorded["drm"]]
    definition = tb.definition(table)
    assert tb.audit(definition, [3], recorded)[1] == []
    recorded["drm"][1]["value"] = -2
    assert tb.audit(definition, [3], recorded)[1] == ["drm"]
