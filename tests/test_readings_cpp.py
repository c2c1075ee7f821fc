"""KGP 8.6161's CPP Base # chart as readings (DESIGN §14, issue 26 item 2).

The OCR lost the two column headers under each CG of the chart, printed CG
III's 23 AM and 23 PM cells as "175-", and the 8.6162 EX gives the German a
Base # of 30 where the chart's 19 PM row reads 35 35. Each is a reading a
group agrees (``cpp-base-pairs``, ``cpp-base-cg3-23``, ``cpp-base-ex-19-pm``),
defaulting to what the ledger read before. The expected Base # are read here
from the seed's own OCR'd lines (``SEED_ROWS``, verbatim), not from the code's
chart: the 8.6162 EX under each choice; every cell under every combination of
choices; the 8.616 command on each affected cell; and ``cgledger verify`` on a
campaign whose reading was amended mid-campaign (it passes) and on forged
copies of it (they fail).

Domain-level: campaigns are driven through the aggregate (``test_rules_kgp``'s
helpers) and exported with the server's own export writer."""

from __future__ import annotations

import copy
import hashlib
import itertools
import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from uuid import UUID

import kgp_commands as kgpc
import pytest
from forge import parse, reseal
from test_rules_kgp import _ctx, _end_scenario, _nonce_for_dr

from cgledger.domain import tables
from cgledger.domain.campaign import Campaign
from cgledger.domain.dice import canon
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.kgp import cpp_base as chart
from cgledger.domain.rulesets.kgp import readings as kgp_readings
from cgledger.domain.rulesets.kgp.rules import ShortageCreate
from cgledger.domain.sealed import kind_of
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.verify import Report, VerificationError, verify_bytes

KGP = REGISTRY["kgp"]
PAIRS = kgp_readings.CPP_BASE_PAIRS
GLUED = kgp_readings.CPP_BASE_CG3_23
EX = kgp_readings.CPP_BASE_EX_19_PM
CPP = (PAIRS, GLUED, EX)

#: 8.6161's CPP BASE # CHART as the seed prints it (000_…), line for line.
SEED_ROWS = """\
19 PM3535----
19 N5025--2035
20 AM6520--5055
20 PM4520--9075
20 N505040356540
21 AM602065353550
21 PM752510252025
21 N----2075
22 AM----4060
22 PM----2030
22 N----2030
23 AM----175-
23 PM----175-
"""
CGS = ("CG I", "CG II", "CG III")
#: 8.6162 EX, word for word where it gives numbers.
EX_TEXT = (
    "The German, with a CPP Base # of 30 (8.6161), makes a CPP Replenishment DR of 6. This DR "
    "is subtracted from the German CPP Base # to yield a final replenishment of 24 CPP (30 - 6 "
    "= 24) ... The German also has two unspent CPP from the preceding CG Date (as evidenced by "
    'a 2 in the "Left" box of the 19 AM line) ... and writes 26 in the "Total" box of the 19 PM '
    "line."
)


def _seed_pairs(glued: str) -> dict[tuple[str, str], tuple[int, int | None]]:
    """Each CG's pair per CG Date, read off ``SEED_ROWS``: a CG's cell is "--"
    (shaded) or two two-digit numbers; a digit run ending in "-" is one
    number and a "-", its first digit a glued footnote under ``glued`` "75"."""
    out: dict[tuple[str, str], tuple[int, int | None]] = {}
    for row in SEED_ROWS.splitlines():
        found = re.fullmatch(r"(\d\d (?:AM|PM|N))(.*)", row)
        assert found is not None, row
        date, rest = found.groups()
        cells: list[tuple[int, int | None] | None] = []
        for token in re.findall(r"--|\d+-$|\d+", rest):
            if token == "--":
                cells.append(None)
            elif token.endswith("-"):
                digits = token[:-1] if glued == "175" else token[1:-1]
                cells.append((int(digits), None))
            else:
                numbers = [int(token[k : k + 2]) for k in range(0, len(token), 2)]
                cells += list(zip(numbers[::2], numbers[1::2], strict=True))
        assert len(cells) == len(CGS), row
        out.update({(cg, date): cell for cg, cell in zip(CGS, cells, strict=True) if cell})
    return out


def _ex_base() -> int:
    found = re.search(r"German, with a CPP Base # of (\d+) \(8\.6161\)", EX_TEXT)
    assert found is not None
    return int(found.group(1))


def _expected(cg: str, date: str, side: str, readings: Mapping[str, str]) -> int | None:
    """The Base # the seed's words give ``side`` under ``readings``."""
    first, second = _seed_pairs(GLUED.chosen(readings))[(cg, date)]
    if (cg, date, side) == ("CG I", "19 PM", "German") and EX.chosen(readings) == "ex":
        return _ex_base()
    us, german = (first, second) if PAIRS.chosen(readings) == "us-first" else (second, first)
    return us if side == "US" else german


def _combinations() -> Iterator[dict[str, str]]:
    for choices in itertools.product(*(list(r.choices) for r in CPP)):
        yield {r.id: c for r, c in zip(CPP, choices, strict=True)}


COMBINATIONS = list(_combinations())
CELLS = sorted(_seed_pairs("175"))


def _id(readings: Mapping[str, str]) -> str:
    return ",".join(readings.values())


# ---------------------------------------------------------------- the readings as data


def test_the_chart_is_the_seeds_as_printed() -> None:
    """``cpp_base.CHART`` is each pair in the order printed; the default
    readings are the old ones (U.S. first, 175, the chart's 35)."""
    assert {(cg, d): p for cg, dates in chart.CHART.items() for d, p in dates.items()} == (
        _seed_pairs("175")
    )
    assert {r.id: r.default for r in CPP} == {
        "cpp-base-pairs": "us-first",
        "cpp-base-cg3-23": "175",
        "cpp-base-ex-19-pm": "chart",
    }
    for reading in CPP:
        assert reading in KGP.readings
        assert reading.rule in ("8.6161", "8.6162")


@pytest.mark.parametrize("readings", COMBINATIONS, ids=_id)
@pytest.mark.parametrize(("cg", "date"), CELLS)
def test_each_cell_under_each_choice(cg: str, date: str, readings: dict[str, str]) -> None:
    """8.6161: every cell of the chart, for each side, under every combination
    of the three readings, is what the seed's words give under them."""
    for side in KGP.sides:
        assert chart.cpp_base(cg, date, side, readings) == _expected(cg, date, side, readings)
    if readings == {r.id: r.default for r in CPP}:
        for side in KGP.sides:  # the defaults are what a definition naming none reads
            assert chart.cpp_base(cg, date, side) == chart.cpp_base(cg, date, side, readings)


@pytest.mark.parametrize("reading", CPP, ids=lambda r: r.id)
def test_each_reading_changes_its_cells_only(reading: Any) -> None:
    """A choice other than the default changes exactly the cells its reading
    is about: the unequal pairs (``cpp-base-pairs``), CG III's 23 AM and 23 PM
    (``cpp-base-cg3-23``), the German's CG I 19 PM (``cpp-base-ex-19-pm``)."""
    seed = _seed_pairs("175")
    about = {
        PAIRS.id: {(cg, d, s) for (cg, d), (a, b) in seed.items() if a != b for s in KGP.sides},
        GLUED.id: {("CG III", d, s) for d in ("23 AM", "23 PM") for s in KGP.sides},
        EX.id: {("CG I", "19 PM", "German")},
    }[reading.id]
    for choice in reading.choices:
        if choice == reading.default:
            continue
        changed = {
            (cg, d, s)
            for cg, d in CELLS
            for s in KGP.sides
            if chart.cpp_base(cg, d, s, {reading.id: choice}) != chart.cpp_base(cg, d, s)
        }
        # CG III's "175-" changes its first number only: the side reading it.
        want = about if reading is not GLUED else {c for c in about if c[2] == "US"}
        assert changed == want


# ---------------------------------------------------------------- the 8.616 command


def _campaign(rng: random.Random, cg: str, readings: Mapping[str, str]) -> Campaign:
    doc = copy.deepcopy(dict(KGP.sample_definition))
    doc["readings"] = dict(readings)
    return Campaign.create(
        _ctx("creator", rng),
        campaign_id=UUID(int=rng.getrandbits(128)),
        ruleset_id="kgp",
        campaign_name=cg,
        title="t",
        start_date=None,
        initial_cpp={"German": 2},
        token_hashes={},
        definition=doc,
    )


def _to(c: Campaign, rng: random.Random, date: str) -> None:
    """The Initial Scenario ends, then Idle CG Dates until ``date`` begins."""
    if c.cg_date == KGP.campaigns[c.campaign_name].initial_date:
        _end_scenario(c, rng)
        c.begin_cg_date(_ctx(REFEREE, rng), None)
    while c.cg_date != date:
        _idle(c, rng)
        c.begin_cg_date(_ctx(REFEREE, rng), None)


def _idle(c: Campaign, rng: random.Random) -> None:
    """An Idle CG Date (``test_rules_kgp._idle_date``), each side's 8.616 made
    first where the test has not made it."""
    shortage = KGP.step("8.618")
    for side in c.sides:
        line = c.rules["cpp"][side][-1]
        if not line["initial"] and line["repl_seq"] is None:
            kgpc.replenish_cpp(c, _ctx(side, rng), side, None)
        if c.step_applies(shortage, side) and not KGP.rules.step_done(c, side, "8.618"):
            c.perform(_ctx(side, rng), "ammunition-shortage", ShortageCreate())
        c.advance(_ctx(side, rng), side, "8.623")
        c.choose_initiative(_ctx(side, rng), side, "idle")
    assert c.awaiting_new_date


def _export(c: Campaign, viewer: str = REFEREE) -> bytes:
    header = {
        "campaign": c.cid,
        "ruleset": "kgp",
        "campaign_name": c.campaign_name,
        "exported_at": "2026-11-21T00:00:00Z",
    }
    return export_jsonl(header, c.history.records(0, c.version), viewer, c.is_revealed)


@pytest.mark.parametrize(
    ("pairs", "choice", "base", "repl", "total"),
    [
        (pairs, choice, *numbers)
        for pairs in PAIRS.choices
        for choice, numbers in (("ex", (30, 24, 26)), ("chart", (35, 29, 31)))
    ],
)
def test_8_6162_ex_under_each_choice(
    pairs: str, choice: str, base: int, repl: int, total: int
) -> None:
    """8.6162 EX: after CG I's 19 AM Initial Scenario, the German replenishes on
    19 PM with a DR of 6 and 2 CPP Left on 19 AM. Under "ex" its Base # is the
    EX's 30 (24 Replenished, Total 26, as the EX writes); under "chart" (the
    default) the chart's 35 (29, 31). The pair is 35 35, so either order reads
    35 for the U.S."""
    readings = {PAIRS.id: pairs, EX.id: choice}
    assert base == _expected("CG I", "19 PM", "German", readings)
    if choice == "ex":  # the EX's own words
        assert (base, repl, total) == (_ex_base(), 24, 26)
    rng = random.Random(8_6162)
    c = _campaign(rng, "CG I", readings)
    _to(c, rng, "19 PM")
    nonce = _nonce_for_dr(c, 6, "German")
    kgpc.replenish_cpp(c, _ctx("German", rng), "German", nonce)
    line = c.rules["cpp"]["German"][-1]
    assert (line["cg_date"], line["start"], line["base"], line["repl"]) == ("19 PM", 2, base, repl)
    assert cppbook.total(line) == total
    kgpc.replenish_cpp(c, _ctx("US", rng), "US", None)
    assert c.rules["cpp"]["US"][-1]["base"] == _expected("CG I", "19 PM", "US", readings) == 35
    assert isinstance(verify_bytes(_export(c)), Report)


#: A cell each reading is about, on the first CG Date it reaches.
WALKS = [
    ("CG I", ("19 N",), {PAIRS.id: "us-first"}),
    ("CG I", ("19 N",), {PAIRS.id: "german-first"}),
    *[
        ("CG III", ("23 AM", "23 PM"), {PAIRS.id: pairs, GLUED.id: glued})
        for pairs in PAIRS.choices
        for glued in GLUED.choices
    ],
]


@pytest.mark.parametrize(("cg", "dates", "readings"), WALKS, ids=str)
def test_the_replenishment_reads_the_cell_of_the_readings(
    cg: str, dates: tuple[str, ...], readings: dict[str, str]
) -> None:
    """8.616 on each affected cell: the command records the Base # the
    readings give, a "-" with no DR and 0 CPP; the export verifies."""
    rng = random.Random(8_616)
    c = _campaign(rng, cg, readings)
    for date in dates:
        _to(c, rng, date)
        rolls = c.roll_count
        for side in c.sides:
            kgpc.replenish_cpp(c, _ctx(side, rng), side, None)
            line = c.rules["cpp"][side][-1]
            want = _expected(cg, date, side, readings)
            assert (line["cg_date"], line["base"]) == (date, want)
            if want is None:
                assert line["repl"] == 0
        dashes = sum(_expected(cg, date, s, readings) is None for s in c.sides)
        assert c.roll_count == rolls + len(c.sides) - dashes
    for viewer in (REFEREE, "US", "German"):
        assert isinstance(verify_bytes(_export(c, viewer)), Report)


# ---------------------------------------------------------------- cgledger verify


def _amended_campaign() -> tuple[Campaign, dict[str, int]]:
    """CG I created under "german-first": 19 PM, then 19 N replenished under
    it (German 50, U.S. 25); the U.S. proposes "us-first" and the German
    approves; 20 AM replenished under it (U.S. 65, German 20). ``seq``: the
    replenishments by (date, side), and the amendment."""
    rng = random.Random(8_6161)
    c = _campaign(rng, "CG I", {PAIRS.id: "german-first"})
    seq: dict[str, int] = {}
    _to(c, rng, "19 N")
    for side in c.sides:
        seq[f"19 N {side}"] = kgpc.replenish_cpp(c, _ctx(side, rng), side, None)
    asked = c.request_amendment(
        _ctx("US", rng), patch={"readings": {PAIRS.id: "us-first"}}, reason="the printed chart"
    )
    seq["amended"] = c.approve_amendment(_ctx("German", rng), asked)
    assert c.readings()[PAIRS.id] == "us-first"
    _to(c, rng, "20 AM")
    for side in c.sides:
        seq[f"20 AM {side}"] = kgpc.replenish_cpp(c, _ctx(side, rng), side, None)
    return c, seq


@pytest.fixture(scope="module")
def amended() -> tuple[Campaign, dict[str, int]]:
    return _amended_campaign()


def test_an_export_amended_mid_campaign_verifies(amended: tuple[Campaign, dict[str, int]]) -> None:
    """Each replenishment was read under the reading in force when it was
    recorded: 19 N under "german-first", 20 AM under "us-first"; the export of
    every viewer verifies, each replenishment's Base # checked."""
    c, seq = amended
    bases = {k: c.record(v) for k, v in seq.items() if k != "amended"}
    assert c.record(seq["amended"])["type"] == "DefinitionAmended"
    for key, record in bases.items():
        date, side = key.rsplit(" ", 1)
        values = {**record["payload"], **(record["secret"] or {})}
        readings = {PAIRS.id: "german-first" if date == "19 N" else "us-first"}
        assert values["base"] == _expected("CG I", date, side, readings)
    assert c.record(seq["19 N German"])["secret"]["base"] == 50
    assert c.record(seq["20 AM US"])["secret"]["base"] == 65
    for viewer in (REFEREE, "US", "German"):
        report = verify_bytes(_export(c, viewer))
        assert report.rule_results_checked >= (4 if viewer == REFEREE else 2)


def _rebase(part: dict[str, Any], base: int) -> None:
    """A forger's new Base # in an 8.616 sealed part, with its DR, CPP and
    table read made consistent with it (the act's fields and its roll's)."""
    roll = part["rolls"][0]
    result = tables.resolve(KGP.tables["kgp:8.616"], roll["dice"], [], {"base": base})
    read = {"inputs": {"base": base}, **result}
    part.update(base=base, dr=result["final"], repl=result["outcome"]["amount"], **read)
    roll.update(**read)


def _forged(data: bytes, seq: int, edit: Callable[[dict[str, Any]], None]) -> bytes:
    header, events = parse(data)
    edit(events[seq - 1])
    return reseal(header, events)


def _redefine(event: dict[str, Any], readings: dict[str, str]) -> None:
    """A forger's readings in a recorded CG definition, its hash recomputed."""
    payload = event["payload"]
    payload["definition"]["readings"] = readings
    key = "definition_hash" if event["type"] == "CampaignCreated" else "hash"
    payload[key] = hashlib.sha256(canon(payload["definition"])).hexdigest()


def _fails_at(data: bytes, seq: int) -> str:
    with pytest.raises(VerificationError) as err:
        verify_bytes(data)
    assert err.value.seq == seq, err.value
    return str(err.value)


@pytest.mark.parametrize(("key", "reading"), [("19 N German", "german-first"), ("20 AM US", None)])
def test_a_base_off_the_chart_of_its_readings_fails(
    amended: tuple[Campaign, dict[str, int]], key: str, reading: str | None
) -> None:
    """A forger sets a replenishment's Base # to the one the other reading
    gives (25 for the German's 19 N, 20 for the U.S.'s 20 AM), keeps the DR and
    CPP consistent and reseals the whole export: it fails at that seq, naming
    the Base # of the readings in force then."""
    c, seq = amended
    date, side = key.rsplit(" ", 1)
    now = {PAIRS.id: reading or "us-first"}
    other = {PAIRS.id: "us-first" if now[PAIRS.id] == "german-first" else "german-first"}
    forged_base = _expected("CG I", date, side, other)
    assert forged_base is not None
    assert forged_base != _expected("CG I", date, side, now)
    k = seq[key]
    data = _forged(_export(c), k, lambda e: _rebase(e["secret"], forged_base))
    message = _fails_at(data, k)
    assert f"8.616: the CPP Base # of {side} on {date} is {_expected('CG I', date, side, now)}" in (
        message
    )
    assert (f"under the readings {PAIRS.id}={reading}" in message) is (reading is not None)


def test_an_amendment_forged_away_fails(amended: tuple[Campaign, dict[str, int]]) -> None:
    """A forger rewrites the amended definition back to "german-first" (its
    hash recomputed, the export resealed): the 20 AM replenishments, read
    under "us-first", no longer fit the chart of the readings the export now
    records."""
    c, seq = amended
    data = _forged(_export(c), seq["amended"], lambda e: _redefine(e, {PAIRS.id: "german-first"}))
    first = min(seq["20 AM US"], seq["20 AM German"])
    assert "8.616: the CPP Base #" in _fails_at(data, first)


@pytest.mark.parametrize("pairs", list(PAIRS.choices))
def test_a_dash_forged_into_cpp_fails(pairs: str) -> None:
    """CG III 23 AM: the side whose cell is "-" under ``pairs`` records its
    replenishment without a DR. A forger writing a Base # and CPP into it, or
    a rolled side's replenishment turned into a "-" on a cell that has a
    number under another reading, is refused at that seq."""
    readings = {PAIRS.id: pairs}
    rng = random.Random(23)
    c = _campaign(rng, "CG III", readings)
    _to(c, rng, "23 AM")
    dash = next(s for s in c.sides if _expected("CG III", "23 AM", s, readings) is None)
    k = kgpc.replenish_cpp(c, _ctx(dash, rng), dash, None)
    record = c.record(k)
    assert (kind_of(record), record["payload"]["base"], "roll" in record["payload"]) == (
        "CPPReplenished",
        None,
        False,
    )
    data = _export(c)
    assert isinstance(verify_bytes(data), Report)

    def more(event: dict[str, Any]) -> None:
        event["payload"]["base"] = 175
        event["payload"]["repl"] = 170

    assert "recorded without a DR" in _fails_at(_forged(data, k, more), k)
    # The same event verified under the other pair order: its side then reads 175.
    # The whole log read under the other pair order fails, at its first
    # replenishment of an unequal pair.
    other = "german-first" if pairs == "us-first" else "us-first"
    with pytest.raises(VerificationError) as err:
        verify_bytes(_forged(data, 1, lambda e: _redefine(e, {PAIRS.id: other})))
    assert f"under the readings {PAIRS.id}={other}" in str(err.value)
