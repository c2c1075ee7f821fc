"""What a chart line of the CG definition says (DESIGN §14; issue 26 items 1
and 2): 8.6206's "-1 If all MMC in the RG are Elite" (``elite``), the 8.6203
table a Med Tank Pltn rolls on (``determination_table``) and the 9.6182
columns of an RG's SW chart row (``sw_columns``). Each left null keeps the
ledger's reading, so nothing recorded changes meaning; a value that names
nothing the rule has is 422 naming the field. Played through the domain's
commands, the dice steered by the client nonce (``test_purchases_ex``)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from test_purchases_ex import US_CHART, _buy, _campaign, _ctx, _definition, _determine, _row

from cgledger.domain import purchases as book
from cgledger.domain import tables as tablebook
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.abtf import purchasing as abtf_buying
from cgledger.domain.rulesets.cpp import DeterminationCreate, StatedDrm
from cgledger.domain.rulesets.cpp.bodies import StatedFor
from cgledger.domain.rulesets.kgp import purchasing as kgp_buying

KGP = REGISTRY["kgp"]
ABTF = REGISTRY["abtf"]


def _line(rg: str, name: str, **more: Any) -> dict[str, Any]:
    return {"id": rg, "name": name, "cpp": 4, "footnotes": ["l"], "units": [3, 2], **more}


#: The German RG chart: an SS platoon marked Elite, one marked not Elite, and
#: one whose line does not say (all with footnote "l": a leader DR, 8.6206).
GERMAN = [
    _line("I2", "SS Inf Pltn", elite=True, unit_type="6-5-8"),
    _line("I3", "SS Inf Pltn (not Elite)", elite=False, unit_type="6-5-8"),
    _line("I4", "Para Inf Pltn", unit_type="4-4-7"),
]
#: U.S. lines that make no 8.6202 quality dr: a Para and an Engineer platoon.
US = [
    *US_CHART,
    {"id": "I2", "name": "Para Inf Pltn", "cpp": 6, "footnotes": ["l"], "elite": True},
    {"id": "I3", "name": "Combat Eng Pltn", "cpp": 6, "footnotes": ["l"], "elite": False},
    {"id": "I4", "name": "Glider Inf Pltn", "cpp": 6, "footnotes": ["l"]},
]


def _kgp(rng: random.Random, **lines: Any) -> Any:
    definition = _definition("kgp", GERMAN, US)
    for key, fields in lines.items():
        side, index = key.split("_")
        definition["rg_chart"][side][int(index)].update(fields)
    return _campaign(rng, German=60, US=60, definition=definition)


def _ids(roll: dict[str, Any]) -> dict[str, int]:
    return {d["id"]: d["value"] for d in roll["drm"]}


# ------------------------------------------------------------------ 8.6206 Elite


@pytest.mark.parametrize(("item", "elite"), [(0, True), (1, False), (2, None)])
def test_an_ss_platoon_s_leader_dr_takes_the_elite_drm_its_line_gives(
    item: int, elite: bool | None
) -> None:
    """8.6206 "-1 If all MMC in the RG are Elite (NA to armor leader)": an SS
    platoon with footnote "l" marked Elite gets the -1 from the ledger, with
    no DRM stated; one marked not Elite, or whose line does not say, gets none
    unless stated (below). Its Strength DR (8.6201) and leader DR are Secret:
    one sealed record."""
    rng = random.Random(8_6206 + item)
    c = _kgp(rng)
    seq = _buy(c, rng, "German", "I2", "I3", "I4")
    strength, leader = _determine(c, rng, "German", seq, item, (2, 5), (2, 7))
    assert strength["rule"] == "kgp:8.6201"
    assert _row(c, "German", seq, item)["strength"] == "F"
    assert leader["rule"] == "kgp:8.6206-german"
    assert leader["original"] == 7
    drms = _ids(leader)
    assert ("all-elite" in drms) is (elite is True)
    if elite:
        assert drms["all-elite"] == -1
        assert leader["final"] == 7 - 1
        assert leader["outcome"]["text"] == "8-0"  # the German column's row 6
    else:
        assert leader["final"] == 7
    assert _row(c, "German", seq, item)["leader"] == leader["outcome"]["text"]


def _stated(seq: int, item: int, table: str, drm: str) -> DeterminationCreate:
    return DeterminationCreate(
        for_purchase=seq,
        item=item,
        stated=[StatedFor(for_purchase=seq, item=item, table=table, drm=[StatedDrm(id=drm)])],
        secret=True,
    )


@pytest.mark.parametrize(
    ("side", "item", "elite"),
    [("German", 0, True), ("German", 1, False), ("US", 4, True), ("US", 5, False)],
)
def test_a_stated_elite_drm_where_the_line_decides_is_422(
    side: str, item: int, elite: bool
) -> None:
    """The line says it (true: the ledger applies it; false: it never applies):
    the roller who states it is refused, naming it, and nothing is appended,
    though the leader DR comes after the SS platoon's Strength DR in its batch."""
    rng = random.Random(item)
    c = _kgp(rng)
    chart = GERMAN if side == "German" else US
    seq = _buy(c, rng, side, *(e["id"] for e in chart))
    assert c.definition_doc()["rg_chart"][side][item]["elite"] is elite
    version = c.version
    body = _stated(seq, item, f"kgp:8.6206-{'german' if side == 'German' else 'us'}", "all-elite")
    with pytest.raises(InvalidInput, match=r"^8\.6206: the 'all-elite' DRM is decided") as e:
        c.perform(_ctx(side, rng), "rg-determinations", body)
    assert e.value.field == "drm.0.id"
    assert c.version == version


@pytest.mark.parametrize(("side", "item"), [("German", 2), ("US", 6)])
def test_where_the_line_does_not_say_the_roller_states_the_elite_drm(side: str, item: int) -> None:
    """A line with ``elite`` null and no 8.6202 quality dr (a German Para and a
    U.S. Glider Inf Pltn here): the DRM is the roller's to state; stated, it
    applies (the German's after its platoon's Strength DR, in the same batch)."""
    rng = random.Random(item)
    c = _kgp(rng)
    chart = GERMAN if side == "German" else US
    seq = _buy(c, rng, side, *(e["id"] for e in chart))
    table = f"kgp:8.6206-{'german' if side == 'German' else 'us'}"
    out = c.perform(_ctx(side, rng), "rg-determinations", _stated(seq, item, table, "all-elite"))
    roll = c.record(out)["secret"]["rolls"][-1]
    assert roll["rule"] == table
    assert _ids(roll)["all-elite"] == -1
    assert roll["final"] == roll["original"] + sum(_ids(roll).values())


@pytest.mark.parametrize(("quality", "elite"), [(1, True), (2, False), (6, False)])
def test_a_us_inf_pltn_s_elite_comes_from_its_8_6202_quality(quality: int, elite: bool) -> None:
    """8.6202 then 8.6206: a U.S. I1's leader DR takes the -1 exactly when its
    quality dr gave Elite (≤ 1), and the roller may not state it either way."""
    rng = random.Random(quality)
    c = _kgp(rng)
    seq = _buy(c, rng, "US", "I1")
    c.definition_doc()["rg_chart"]["US"][0]["footnotes"] = ["l"]  # the EX chart's I1 has none
    (got,) = _determine(c, rng, "US", seq, 0, (1, quality))
    assert got["rule"] == "kgp:8.6202"
    assert _row(c, "US", seq, 0)["quality"].startswith("Elite") is elite
    with pytest.raises(InvalidInput, match="'all-elite' DRM is decided"):
        c.perform(
            _ctx("US", rng), "rg-determinations", _stated(seq, 0, "kgp:8.6206-us", "all-elite")
        )
    (leader,) = _determine(c, rng, "US", seq, 0, (2, 7))
    assert leader["rule"] == "kgp:8.6206-us"
    assert ("all-elite" in _ids(leader)) is elite


# ------------------------------------------------------------------ the definition


def _kgp_doc(side: str, line: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(KGP.sample_definition)
    doc["rg_chart"][side] = [*doc["rg_chart"][side], line]
    return doc


def _refused(ruleset: Any, doc: dict[str, Any]) -> InvalidInput:
    from cgledger.domain.campaign import validated_definition

    with pytest.raises(InvalidInput) as e:
        validated_definition(ruleset, doc)
    return e.value


@pytest.mark.parametrize(
    ("side", "line", "field", "rule"),
    [
        ("US", {"id": "I6", "name": "x", "cpp": 1, "footnotes": ["l"], "elite": True},
         "elite", "8.6202"),
        ("German", {"id": "V1", "name": "x", "cpp": 1, "footnotes": ["a"], "elite": True},
         "elite", "8.6206"),
        ("US", {"id": "V4", "name": "x", "cpp": 1, "determination_table": "kgp:8.6203-III"},
         "determination_table", "8.6203"),
        ("US", {"id": "V1", "name": "x", "cpp": 1, "determination_table": "kgp:8.6203-I"},
         "determination_table", "8.6203"),
        ("German", {"id": "V3", "name": "x", "cpp": 1, "determination_table": "kgp:8.6203-I"},
         "determination_table", "8.6203"),
    ],
)  # fmt: skip
def test_a_kgp_chart_line_that_names_what_the_rule_has_not_is_422(
    side: str, line: dict[str, Any], field: str, rule: str
) -> None:
    doc = _kgp_doc(side, line)
    err = _refused(KGP, doc)
    index = len(doc["rg_chart"][side]) - 1
    assert err.field == f"definition.rg_chart.{side}.{index}.{field}"
    assert err.detail.startswith(f"{err.field}: {rule}: ")


def test_the_samples_mark_their_elite_lines() -> None:
    lines = [e for side in KGP.sample_definition["rg_chart"].values() for e in side]
    assert {e["name"] for e in lines if e.get("elite")} == {"Sample Para Pltn", "Sample SS Pltn"}


# ------------------------------------------------------------------ 8.6203's table


@pytest.mark.parametrize(
    ("rg", "named", "table"),
    [
        ("V3", None, "kgp:8.6203-I"),  # the reading: V3 on table I
        ("V4", None, "kgp:8.6203-II"),  # and V4 on table II
        ("V3", "kgp:8.6203-II", "kgp:8.6203-II"),
        ("V4", "kgp:8.6203-I", "kgp:8.6203-I"),
    ],
)
def test_a_med_tank_pltn_rolls_on_the_table_its_line_names(
    rg: str, named: str | None, table: str
) -> None:
    """8.6203 "Make a DR on the appropriate table below for each ... U.S. Med
    Tank Pltn (RG V3 or V4)": the chart line names the table, or the reading
    holds. Played: the models DR is read on that table."""
    rng = random.Random(rg + str(named))
    us = [{"id": rg, "name": "Med Tank Pltn", "cpp": 9, "determination_table": named}]
    c = _campaign(rng, German=10, US=60, definition=_definition("kgp", GERMAN, us))
    entry = c.definition_doc()["rg_chart"]["US"][0]
    (need,) = kgp_buying.needs("US", entry, book.new_row(1, 0, "19 AM", rg, 9, "Sx"), {})
    assert (need.key, need.table) == ("models", table)
    seq = _buy(c, rng, "US", rg)
    (got,) = _determine(c, rng, "US", seq, 0, (2, 7))
    assert got["rule"] == table
    assert (
        _row(c, "US", seq, 0)["models"]
        == tablebook.resolve(c.table(table), [3, 4])["outcome"]["text"]
    )


# ------------------------------------------------------------------ 9.6182's columns


def _abtf_doc(side: str, rg: str, **fields: Any) -> dict[str, Any]:
    doc = copy.deepcopy(ABTF.sample_definition)
    line = {"id": rg, "name": "x", "cpp": 4, "units": [3, 2], **fields}
    if side == "German":
        line["kg"] = "Q"
    doc["rg_chart"][side] = [*doc["rg_chart"][side], line]
    return doc


@pytest.mark.parametrize(
    ("side", "rg", "columns", "full", "thresholds"),
    [
        # The reading (null): British I4 "1(5) 1(2) 2(3)" as LMG, FT, DC.
        ("British", "I4", None, ["LMG", "FT", "DC"], {"LMG": 5, "FT": 2, "DC": 3}),
        # As the OCR prints it, leftmost: LMG 1(5), PIAT 1(2), FT 2(3).
        ("British", "I4", ["LMG", "PIAT", "FT"], ["LMG", "PIAT", "FT", "FT"],
         {"LMG": 5, "PIAT": 2, "FT": 3}),
        # British I3 "1(5) 1(3) 1(3)": the third as the Lt. Mtr (the reading) or the FT.
        ("British", "I3", None, ["LMG", "PIAT", "Lt. Mtr"], {"LMG": 5, "PIAT": 3, "Lt. Mtr": 3}),
        ("British", "I3", ["LMG", "PIAT", "FT"], ["LMG", "PIAT", "FT"],
         {"LMG": 5, "PIAT": 3, "FT": 3}),
        # German I2 "1(2) 2(3)": FT, DC (the reading) or LMG, DC.
        ("German", "I2", None, ["FT", "DC"], {"FT": 2, "DC": 3}),
        ("German", "I2", ["LMG", "DC"], ["LMG", "DC", "DC"], {"LMG": 2, "DC": 3}),
    ],
)  # fmt: skip
def test_a_depleted_rg_rolls_for_the_sw_of_the_columns_its_line_places(
    side: str,
    rg: str,
    columns: list[str] | None,
    full: list[str],
    thresholds: dict[str, int],
) -> None:
    """9.6182: a Full RG "automatically receives all SW indicated"; a Depleted
    one makes "a secret dr ≤ the number listed in parentheses" for each. The
    line's ``sw_columns`` says which column each printed entry stands in;
    null keeps the reading (abtf:9.6182)."""
    doc = _abtf_doc(side, rg, sw_columns=columns)
    entry = ABTF.definition.model_validate(doc).model_dump(mode="json")["rg_chart"][side][-1]
    row = book.new_row(1, 0, "18 AM", rg, 4, "Bx")
    assert abtf_buying.complement(side, entry, row)["sw"] == full
    row["results"]["strength"] = {"value": "D", "band": 1, "result": "Depleted", "final": 10}
    needs = [n for n in abtf_buying.needs(side, entry, row, {}) if n.key.startswith("sw.")]
    assert [n.subject for n in needs] == full
    for need in needs:
        table = ABTF.tables[need.table]
        assert table.id == ("abtf:9.6182" if columns is None else "abtf:9.6182-placed")
        # The dr ≤ the number receives it; one more does not.
        limit = thresholds[need.subject]
        read = [tablebook.resolve(table, [n], (), dict(need.inputs)) for n in (limit, limit + 1)]
        assert [r["outcome"]["text"] for r in read] == ["SW received", "SW not received"]


def test_a_german_rifle_pltn_s_star_entry_rolls_in_its_column() -> None:
    """9.6182 "*": the German I1's "*(2)" entry stands in the PSK/Lt. Mtr
    column; placed there by the line, its SW (the "*" dr's) rolls ≤ 2."""
    doc = _abtf_doc("German", "I1", sw_columns=["LMG", "PSK/Lt. Mtr"])
    entry = ABTF.definition.model_validate(doc).model_dump(mode="json")["rg_chart"]["German"][-1]
    row = book.new_row(1, 0, "18 AM", "I1", 4, "Bx")
    row["results"]["strength"] = {"value": "D", "band": 1, "result": "Depleted", "final": 10}
    (star,) = [
        n for n in abtf_buying.needs("German", entry, row, {}) if n.key not in row["results"]
    ]
    assert star.key == "sw.star"
    row["results"]["sw.star"] = {"value": "PSK", "band": 1, "result": "PSK", "final": 4}
    sw = [
        n
        for n in abtf_buying.needs("German", entry, row, {})
        if n.key.startswith("sw.") and n.key != "sw.star"
    ]
    assert [(n.subject, n.table, dict(n.inputs)) for n in sw] == [
        ("LMG", "abtf:9.6182-placed", {"threshold": 3}),
        ("PSK", "abtf:9.6182-placed", {"threshold": 2}),
    ]


@pytest.mark.parametrize(
    ("side", "rg", "columns", "says"),
    [
        ("British", "I4", ["LMG", "PSK", "FT"], "has no column 'PSK'"),
        ("British", "I4", ["LMG", "FT"], "prints 3 entries"),
        ("British", "I4", ["FT", "LMG", "DC"], "left to right"),
        ("German", "I2", ["LMG", "PSK/Lt. Mtr"], "'*' entry"),
        ("German", "I1", ["LMG", "FT"], "'*' entry"),
        ("British", "V2", ["LMG"], "has no row V2"),
    ],
)
def test_sw_columns_that_name_no_column_of_the_row_are_422(
    side: str, rg: str, columns: list[str], says: str
) -> None:
    doc = _abtf_doc(side, rg, sw_columns=columns)
    err = _refused(ABTF, doc)
    assert err.field == f"definition.rg_chart.{side}.{len(doc['rg_chart'][side]) - 1}.sw_columns"
    assert "9.6182" in err.detail
    assert says in err.detail


def test_typed_sw_follow_the_line_s_columns() -> None:
    """A line's typed ``sw`` must be SW its row lists (9.6182): in the
    columns the line places, where it places them."""
    doc = _abtf_doc("British", "I4", sw_columns=["LMG", "PIAT", "FT"], sw=["PIAT"])
    ABTF.definition.model_validate(doc)
    doc = _abtf_doc("British", "I4", sw=["PIAT"])  # the reading has no PIAT in I4
    assert "9.6182" in _refused(ABTF, doc).detail
