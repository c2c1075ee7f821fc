"""Properties every rule table of every ruleset must have, and the resolver's
arithmetic on small tables built here."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cgledger.domain import tables as tb
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.tables import (
    DrmRequest,
    Ref,
    Table,
    fixed,
    from_input,
    ge,
    le,
    per,
    span,
    valued,
)

ALL = [t for rs in REGISTRY.values() for t in rs.tables.values()]
IDS = [t.id for t in ALL]

#: Issue 3's list of tables that must exist ("each ... column" ids included).
REQUIRED = {
    "kgp": [
        "8.606-infantry", "8.606-vehicle", "8.6061",
        "8.610", "8.6113", "8.6114", "8.6122", "8.613",
        "8.613-casualty-personnel", "8.613-casualty-vehicle",
        "8.6141b", "8.6141c", "8.6142", "8.61421", "8.6144", "8.6146", "8.615",
        "8.616", "8.6171", "8.6171-mist", "8.618",
        "8.6201", "8.6202", "8.6203-I", "8.6203-II", "8.6204", "8.6205",
        "8.6206-german", "8.6206-us", "8.6206-armor",
        "8.622", "8.6233a", "8.625",
        "CG23", "KGP3-mist-change", "KGP13",
    ],
    "abtf": [
        "9.6054-infantry", "9.6054-vehicle",
        "9.6101", "9.61221", "9.61222", "9.613",
        "9.6141b", "9.6141d", "9.6142", "9.6144",
        "9.6162", "9.6181", "9.6182", "9.6182-star",
        "9.6183-british", "9.6183-german", "9.6183-armor",
        "9.6184-A2", "9.6184-A3", "9.6184-A4", "9.6184-A6",
        "9.6201", "9.6202", "9.6213a", "9.6215",
        "9.62161", "9.62163", "9.62164",
    ],
    "sg": [
        "3.1", "3.3-ma", "3.3-sw", "3.3-vehicular-mg",
        "3.6-german-infantry", "3.6-german-armor",
        "3.6-american-infantry", "3.6-american-armor", "3.7",
    ],
}  # fmt: skip


@pytest.mark.parametrize("ruleset", sorted(REQUIRED))
def test_every_required_table_exists(ruleset: str) -> None:
    have = set(REGISTRY[ruleset].tables)
    missing = [r for r in REQUIRED[ruleset] if f"{ruleset}:{r}" not in have]
    assert not missing


def _input_samples(table: Table) -> list[dict[str, Any]]:
    """Valid input combinations: every lookup row (or every choice) and the
    ends and middle of every integer range."""
    base: dict[str, Any] = {}
    for inp in table.inputs:
        base[inp.id] = inp.choices[0] if inp.choices else inp.lo
    samples = [base]
    for inp in table.inputs:
        if not inp.choices:
            for v in {inp.lo, (inp.lo + inp.hi) // 2, inp.hi}:
                samples.append({**base, inp.id: v})
    for lk in table.lookups:
        for key, _ in lk.rows:
            samples.append({**base, **dict(zip(lk.keys, key, strict=True))})
    return samples


@pytest.mark.parametrize("table", ALL, ids=IDS)
def test_every_reachable_result_is_in_exactly_one_band(table: Table) -> None:
    """Named DRMs (and 'other') can move a Final anywhere, so every integer a
    roll could reach, within any plausible pile of DRMs, lies in exactly one band."""
    for inputs in _input_samples(table):
        values = tb.check_inputs(table, inputs)
        nums = {k: v for k, v in values.items() if isinstance(v, int)}
        for n in range(-40, 60):
            holding = [
                i
                for i, band in enumerate(table.bands)
                if (tb._edge(band.lo, nums) is None or tb._edge(band.lo, nums) <= n)  # type: ignore[operator]
                and (tb._edge(band.hi, nums) is None or n <= tb._edge(band.hi, nums))  # type: ignore[operator]
            ]
            assert len(holding) == 1, (inputs, n, holding)
            assert tb.band_for(table, n, values) == holding[0]


@pytest.mark.parametrize("table", ALL, ids=IDS)
def test_definition_round_trips_and_hash_is_stable(table: Table) -> None:
    data = tb.definition(table)
    rebuilt = tb.from_definition(data)
    assert rebuilt == table
    assert tb.content_hash(rebuilt) == tb.content_hash(table) == tb.table_hash(data)


@pytest.mark.parametrize("table", ALL, ids=IDS)
def test_table_cites_its_rule_and_words(table: Table) -> None:
    ruleset, rest = table.id.split(":", 1)
    assert ruleset in REGISTRY
    assert rest.startswith(table.rule), "the id starts with the rule number"
    assert table.title.strip()
    assert all(b.result.strip() for b in table.bands)
    assert all(d.text.strip() for d in table.drms)
    listed = tb.describe(table)
    assert listed["id"] == table.id
    assert listed["dice"] in ("dr", "DR")
    assert [b["result"] for b in listed["bands"]] == [b.result for b in table.bands]


def _drm_request(d: tb.DrmDef, n: int) -> DrmRequest | None:
    if d.kind == "fixed":
        return DrmRequest(d.id)
    if d.kind == "per":
        return DrmRequest(d.id, count=n)
    if d.kind == "valued":
        return DrmRequest(d.id, value=n - 3)
    return None


@given(data=st.data())
def test_resolving_any_table_with_any_drms(data: st.DataObject) -> None:
    """Final = Original + every DRM as applied; the outcome's band holds the
    Final (or the Original, for tables read on it); the result re-audits."""
    table: Table = data.draw(st.sampled_from(ALL), label="table")
    dice = data.draw(st.lists(st.integers(1, 6), min_size=table.dice, max_size=table.dice))
    inputs = data.draw(st.sampled_from(_input_samples(table)), label="inputs")
    chosen: list[DrmRequest] = []
    groups: set[str] = set()
    for d in table.drms:
        if d.group in groups or not data.draw(st.booleans(), label=d.id):
            continue
        req = _drm_request(d, data.draw(st.integers(0, 6)))
        if req is not None:
            chosen.append(req)
            if d.group:
                groups.add(d.group)
    result = tb.resolve(table, dice, chosen, inputs)
    assert result["original"] == sum(dice)
    assert result["final"] == result["original"] + sum(a["value"] for a in result["drm"])
    values = tb.check_inputs(table, inputs)
    read = result["original"] if table.by == "original" else result["final"]
    assert result["outcome"]["band"] == tb.band_for(table, read, values)
    recomputed, differs = tb.audit(tb.definition(table), dice, {**result, "inputs": inputs})
    assert differs == []
    assert recomputed == result


# ---------------------------------------------------------------- the resolver

TOY = Table(
    id="toy:1.1",
    rule="1.1",
    title="Toy table",
    dice=2,
    bands=(le(6, "Low", "* a footnote"), span(7, 9, "Mid"), ge(10, "High {final}")),
    drms=(
        fixed("german", -1, "-1 If German"),
        fixed("ot", -1, "-1 If an OT AFV", group="afv"),
        fixed("ct", -2, "-2 If a CT AFV", group="afv"),
        per("hs", 1, "+1 Per HS-equivalent > one HS", counts="HS-equivalents", excess_over=1),
        per("cvp", -1, "-1 Per 30 CVP (FRD)", counts="CVP", divisor=30),
        per("hexes", 1, "+1 per two hexes (FRU)", counts="hexes", divisor=2, rounding="FRU"),
        valued("leader", "+x Leader DRM"),
        valued("repair", "-x Weapon Repair Number", times=-1),
        valued("exhaustion", "+x/2 Campaign Exhaustion DRM (FRD)", divisor=2),
    ),
)

SAN = Table(
    id="toy:1.2",
    rule="1.2",
    title="SAN",
    dice=1,
    bands=(le(4, "No change"), ge(5, "SAN reduced by two")),
    drms=(from_input("san", "+drm equal to SAN minus four", "san", offset=-4),),
    inputs=(tb.InputDef("san", "current SAN", lo=4, hi=7),),
)

GAME_END = Table(
    id="toy:1.3",
    rule="1.3",
    title="Game End",
    dice=1,
    bands=(le(Ref("circled"), "Ends"), ge(Ref("circled", 1), "Continues")),
    inputs=(tb.InputDef("circled", "circled number", lo=0, hi=6),),
)


@pytest.mark.parametrize(
    ("requests", "values"),
    [
        ([DrmRequest("german")], [-1]),
        ([DrmRequest("hs", count=2)], [1]),  # a squad is two HS-equivalents: +1
        ([DrmRequest("hs", count=1)], [0]),
        ([DrmRequest("hs", count=0)], [0]),
        ([DrmRequest("cvp", count=42)], [-1]),  # 9.6202 EX: 42 CVP -> -1
        ([DrmRequest("cvp", count=60)], [-2]),
        ([DrmRequest("cvp", count=29)], [0]),
        ([DrmRequest("hexes", count=3)], [2]),  # FRU
        ([DrmRequest("hexes", count=4)], [2]),
        ([DrmRequest("leader", value=-2)], [-2]),
        ([DrmRequest("repair", value=1)], [-1]),
        ([DrmRequest("exhaustion", value=3)], [1]),  # 3/2 FRD
        ([DrmRequest("exhaustion", value=4)], [2]),
        ([DrmRequest("ct"), DrmRequest("german")], [-2, -1]),
        ([DrmRequest("other", value=2, note="9-2 leader? no: SSR")], [2]),
    ],
)
def test_drm_kinds(requests: list[DrmRequest], values: list[int]) -> None:
    result = tb.resolve(TOY, [3, 4], requests)
    assert [a["value"] for a in result["drm"]] == values
    assert result["final"] == 7 + sum(values)
    assert [a["id"] for a in result["drm"]] == [r.id for r in requests]


def test_outcome_words_footnotes_and_final_placeholder() -> None:
    low = tb.resolve(TOY, [1, 2])
    assert low["outcome"] == {"band": 0, "range": "≤ 6", "text": "Low", "notes": ["* a footnote"]}
    high = tb.resolve(TOY, [6, 6])
    assert high["outcome"]["text"] == "High 12"
    assert high["outcome"]["range"] == "≥ 10"


@pytest.mark.parametrize(
    ("requests", "field"),
    [
        ([DrmRequest("nope")], "drm[0].id"),
        ([DrmRequest("german", count=1)], "drm[0]"),
        ([DrmRequest("german", value=1)], "drm[0]"),
        ([DrmRequest("hs")], "drm[0]"),
        ([DrmRequest("hs", value=2)], "drm[0]"),
        ([DrmRequest("hs", count=-1)], "drm[0].count"),
        ([DrmRequest("leader")], "drm[0]"),
        ([DrmRequest("leader", value=99)], "drm[0].value"),
        ([DrmRequest("german"), DrmRequest("german")], "drm[1]"),
        ([DrmRequest("ot"), DrmRequest("ct")], "drm[1]"),
        ([DrmRequest("german", note="why")], "drm[0]"),
        ([DrmRequest("other", value=1)], "drm[0]"),
        ([DrmRequest("other", value=1, note="  ")], "drm[0]"),
        ([DrmRequest("other", count=1, note="x")], "drm[0]"),
        ([DrmRequest("other", value=0, note="x")], "drm[0]"),
    ],
)
def test_refused_drms_name_their_field(requests: list[DrmRequest], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        tb.resolve(TOY, [3, 4], requests)
    assert err.value.field == field


@pytest.mark.parametrize(
    ("san", "original", "result"),
    # 8.6122 EX: SAN 6 gives +2, so an Original dr of >= 3 lowers the SAN.
    [
        (6, 3, "SAN reduced by two"),
        (6, 2, "No change"),
        (4, 4, "No change"),
        (4, 5, "SAN reduced by two"),
    ],
)
def test_input_drm(san: int, original: int, result: str) -> None:
    out = tb.resolve(SAN, [original], [], {"san": san})
    assert out["drm"] == [{"id": "san", "text": "+drm equal to SAN minus four", "value": san - 4}]
    assert out["outcome"]["text"] == result


@pytest.mark.parametrize(
    ("inputs", "field"),
    [({}, "inputs.san"), ({"san": 3}, "inputs.san"), ({"san": "6"}, "inputs.san"),
     ({"san": 6, "x": 1}, "inputs.x")],
)  # fmt: skip
def test_refused_inputs(inputs: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        tb.resolve(SAN, [3], [], inputs)
    assert err.value.field == field


def test_naming_an_automatic_drm_is_refused() -> None:
    with pytest.raises(InvalidInput):
        tb.resolve(SAN, [3], [DrmRequest("san")], {"san": 5})


@pytest.mark.parametrize(
    ("circled", "dr", "text"), [(3, 3, "Ends"), (3, 4, "Continues"), (0, 1, "Continues")]
)
def test_band_edges_from_an_input(circled: int, dr: int, text: str) -> None:
    out = tb.resolve(GAME_END, [dr], [], {"circled": circled})
    assert out["outcome"]["text"] == text


@pytest.mark.parametrize(
    "bands",
    [
        (le(6, "a"), ge(8, "b")),  # a gap at 7
        (le(6, "a"), ge(6, "b")),  # 6 in two bands
        (span(1, 6, "a"), ge(7, "b")),  # not open below
        (le(6, "a"), span(7, 12, "b")),  # not open above
        (le(6, "a"), span(9, 8, "b"), ge(9, "c")),  # empty band
    ],
)
def test_malformed_tables_are_refused_at_import(bands: tuple[tb.Band, ...]) -> None:
    with pytest.raises(ValueError, match="toy:9"):
        Table(id="toy:9", rule="9", title="bad", dice=2, bands=bands)


def test_registry_refuses_dangling_follow_ups_and_duplicates() -> None:
    t = Table(
        id="toy:2",
        rule="2",
        title="t",
        dice=1,
        bands=(le(3, "a", follow_up=("toy:3",)), ge(4, "b")),
    )
    with pytest.raises(ValueError, match="toy:3"):
        tb.registry(t)
    with pytest.raises(ValueError, match="twice"):
        tb.registry(TOY, TOY)


def test_an_edited_definition_audits_differently() -> None:
    """A roll re-read against a corrected table shows which fields change."""
    result = tb.resolve(TOY, [4, 4])
    data = tb.definition(TOY)
    data["bands"][1]["result"] = "Middle"
    _, differs = tb.audit(data, [4, 4], {**result, "inputs": {}})
    assert differs == ["outcome"]
