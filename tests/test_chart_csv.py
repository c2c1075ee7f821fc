"""A side's RG chart as CSV and back (DESIGN §15, ``cgledger.domain.chart_csv``):
every bad cell named by its row and column, the header read as a
spreadsheet writes it, and a round trip that changes nothing, over generated
valid chart lines of every ruleset."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from pydantic import ValidationError

from cgledger.domain import chart_csv
from cgledger.domain.definitions import RG_ID_PATTERN, RGEntry
from cgledger.domain.errors import InvalidCells, InvalidInput
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.abtf import group_type, sw_chart
from cgledger.domain.rulesets.abtf.tables import SW_ROWS
from cgledger.domain.rulesets.kgp.purchasing import MED_TANK, MED_TANK_TABLES, QUALITY_RG

KGP = REGISTRY["kgp"].definition
ABTF = REGISTRY["abtf"].definition
SG = REGISTRY["sg"].definition
CHARTS = [(rid, side) for rid in ("kgp", "abtf", "sg") for side in REGISTRY[rid].sides]


def _cells(text: str, model: Any = KGP, side: str | None = None) -> list[tuple[int, str]]:
    with pytest.raises(InvalidCells) as caught:
        chart_csv.read_chart(text, model, side)
    cells = caught.value.cells
    assert caught.value.field == cells[0]["field"]
    return [(c["row"], c["column"]) for c in cells]


@pytest.mark.parametrize("ruleset", ["kgp", "abtf", "sg"])
def test_every_chart_line_field_is_a_column(ruleset: str) -> None:
    line = chart_csv.line_model(REGISTRY[ruleset].definition)
    assert issubclass(line, RGEntry)
    columns = chart_csv.chart_columns(line)
    assert [c.name for c in columns] == list(line.model_fields)
    assert [c.name for c in columns if c.required] == ["id", "name", "cpp"]


@pytest.mark.parametrize(("ruleset", "side"), CHARTS)
def test_the_samples_charts_go_round(ruleset: str, side: str) -> None:
    model = REGISTRY[ruleset].definition
    chart = model.model_validate(REGISTRY[ruleset].sample_definition).rg_chart.get(side, [])
    text = chart_csv.write_chart(chart, chart_csv.line_model(model), f"rg_chart.{side}")
    if ruleset == "sg" and side == "German":
        assert text.strip() == "id,name,cpp"  # 3.5: the German buys no RG
        return
    assert chart_csv.read_chart(text, model, side) == list(chart)
    assert chart_csv.read_chart(text, model) == list(chart)


@pytest.mark.parametrize(
    ("text", "side", "bad"),
    [
        # Each bad cell of each row, not only the first.
        (
            "id,name,cpp,cg_max,footnotes\nI1,A,5x,0,l a\nI2,B,3,,toolong\nI3,,-1,,\n",
            None,
            [(1, "cpp"), (1, "cg_max"), (2, "footnotes"), (3, "name"), (3, "cpp")],
        ),
        # The header: an unknown column, one named twice, a required one missing.
        ("id,nme,cpp,cpp\nI1,A,5,6\n", None, [(0, "name"), (0, "nme"), (0, "cpp")]),
        # A cell right of the header's columns.
        ("id,name,cpp\nI1,A,5,,extra\n", None, [(1, "#5")]),
        # 8.6191: one id per line; the second is named.
        ("id,name,cpp\nI1,A,5\nI1,B,6\n", None, [(2, "id")]),
        # 8.6197: only the U.S. chart has Entry Codes; checked for a side.
        ("id,name,cpp,entry_code\nI1,A,5,red\nI2,B,6,\n", "German", [(1, "entry_code")]),
        # Empty rows are skipped but counted: row 3 is the spreadsheet's line 4.
        ("id,name,cpp\nI1,A,5\n,,\nI2,B,x\n", None, [(3, "cpp")]),
        # A yes/no column, a number list, a ';' list with an empty item.
        (
            "id,name,cpp,elite,units,sw\nI1,A,5,maybe,3 x,MMG;;LMG\n",
            None,
            [(1, "elite"), (1, "units"), (1, "sw")],
        ),
    ],
)
def test_every_bad_cell_is_named(text: str, side: str | None, bad: list[Any]) -> None:
    assert _cells(text, KGP, side) == bad


def test_an_unknown_column_is_named_by_a_short_prefix() -> None:
    header = "x" * 500
    assert _cells(f"id,name,cpp,{header}\nI1,A,5,6\n") == [(0, "x" * chart_csv.SHOWN + "…")]


def test_a_cell_names_its_spreadsheet_reference_and_the_item() -> None:
    with pytest.raises(InvalidCells) as caught:
        chart_csv.read_chart("id,name,cpp,footnotes\n\nI1,A,5,l toolong\n", KGP)
    (cell,) = caught.value.cells
    assert cell == {
        "row": 2,
        "column": "footnotes",
        "cell": "D3",
        "field": "csv.2.footnotes",
        "message": cell["message"],
    }
    assert cell["message"].startswith("item 2: ")
    assert caught.value.detail.startswith("row 2, column footnotes: item 2")


def test_the_header_reads_as_a_spreadsheet_writes_it() -> None:
    """A BOM, any case, spaces or hyphens for underscores, ';' or tab
    separated (a locale whose decimal mark is a comma)."""
    expected = [{"id": "I1", "name": "A, b", "cpp": 5, "cg_max": 2, "footnotes": ["l", "a"]}]
    for text in (
        '\ufeffID,Name,CPP,CG max,Footnotes\r\nI1,"A, b",5,2,l a\r\n',
        "id;name;cpp;cg-max;footnotes\nI1;A, b;5;2;l a\n",
        "id\tname\tcpp\tcg_max\tfootnotes\nI1\tA, b\t 5 \t2\tl;a\n",
    ):
        assert chart_csv.dumped(chart_csv.read_chart(text, KGP)) == expected


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "csv"),
        (",,\nI1,A,5\n", "csv"),
        ("id,name,cpp\n" + "I1,A,5\n" * 501, "csv"),
        ("id,name,cpp\n" + "x" * chart_csv.MAX_CSV_CHARS, "csv"),
        ('id,name,cpp\n"I1,A,5\n', "csv"),  # a quote left open
        ('id,name,cpp\n"I1"x,A,5\n', "csv"),
    ],
)
def test_a_file_that_is_no_chart(text: str, field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        chart_csv.read_chart(text, KGP)
    assert caught.value.field == field


@pytest.mark.parametrize(("model", "side"), [(KGP, "Japanese"), (SG, "German")])
def test_a_side_that_has_no_chart(model: Any, side: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        chart_csv.read_chart("id,name,cpp\nI1,A,5\n", model, side)
    assert caught.value.field == "side"


def test_a_cell_a_spreadsheet_would_run_is_written_escaped() -> None:
    line = chart_csv.line_model(KGP)
    chart = [line.model_validate({"id": "I1", "name": "=HYPERLINK(1)", "cpp": 1, "notes": "'x"})]
    text = chart_csv.write_chart(chart, line, "lines")
    assert text.splitlines()[1] == "I1,'=HYPERLINK(1),1,''x"
    assert chart_csv.read_chart(text, KGP) == chart


@pytest.mark.parametrize(
    ("fields", "column"),
    [
        ({"name": "trailing "}, "name"),
        ({"name": " leading"}, "name"),
        ({"sw": ["MMG; LMG"]}, "sw"),
        ({"sw": ["MMG "]}, "sw"),
    ],
)
def test_a_value_no_cell_keeps_is_refused(fields: dict[str, Any], column: str) -> None:
    line = chart_csv.line_model(KGP)
    entry = line.model_validate({"id": "I1", "name": "A", "cpp": 1, **fields})
    with pytest.raises(InvalidInput) as caught:
        chart_csv.write_chart([entry], line, "rg_chart.US")
    assert caught.value.field == f"rg_chart.US.0.{column}"


def test_an_empty_list_that_is_not_null_is_refused() -> None:
    line = chart_csv.line_model(ABTF)
    entry = line.model_construct(id="I1", name="A", cpp=1, sw_columns=[])
    with pytest.raises(InvalidInput, match="null"):
        chart_csv.write_chart([entry], line, "lines")


# ------------------------------------------------------------------ the round trip

TEXT = st.text(min_size=1, max_size=25).filter(lambda s: s == s.strip())
ITEM = TEXT.filter(lambda s: ";" not in s)
RG_IDS = st.from_regex(RG_ID_PATTERN, fullmatch=True) | st.sampled_from(
    ["I1", "I2", "I3", "I4", "I6", "V3", "V4", "HW1"]
)
LIMIT = st.integers(1, 1000)
COMMON: dict[str, st.SearchStrategy[Any]] = {
    "per_date_max": LIMIT,
    "cg_max": LIMIT,
    "fpp": st.integers(1, 10_000),
    "notes": TEXT,
    "footnotes": st.lists(st.from_regex(r"[A-Za-z0-9]{1,3}", fullmatch=True), max_size=4),
    "unit_type": TEXT,
    "units": st.lists(st.integers(0, 1000), max_size=2),
}
COLOUR = st.from_regex(r"[A-Za-z]([A-Za-z -]{0,17}[A-Za-z])?", fullmatch=True)


def _sw_columns(side: str, rg: str) -> list[list[str]]:
    """Every ``sw_columns`` 9.6182's chart allows for a row."""
    printed = sw_chart.PRINTED.get((side, rg), ())
    found = itertools.combinations(sw_chart.COLUMNS.get(side, ()), len(printed))
    return [list(c) for c in found if printed and sw_chart.check(side, rg, c) is None]


@st.composite
def chart_line(draw: Any, ruleset: str, side: str) -> dict[str, Any]:
    line: dict[str, Any] = {
        "id": draw(RG_IDS),
        "name": draw(TEXT),
        "cpp": draw(st.integers(0, 10_000)),
    }
    for name, values in COMMON.items():
        if draw(st.booleans()):
            line[name] = draw(values)
    rg = line["id"]
    if ruleset == "kgp":
        for name in ("sw", "equipment"):
            if draw(st.booleans()):
                line[name] = draw(st.lists(ITEM, max_size=3))
        if side == "US" and draw(st.booleans()):
            line["entry_code"] = draw(st.lists(COLOUR, max_size=3))
        quality = side == "US" and rg in QUALITY_RG
        if rg.startswith("I") and "l" in line.get("footnotes", []) and not quality:
            line["elite"] = draw(st.none() | st.booleans())
        if side == "US" and rg in MED_TANK:
            line["determination_table"] = draw(st.none() | st.sampled_from(MED_TANK_TABLES))
    elif ruleset == "abtf":
        if side == "German" and draw(st.booleans()):
            line["kg"] = draw(st.from_regex(r"[A-Z]{1,3}", fullmatch=True))
        line["group_type"] = draw(st.none() | st.sampled_from(group_type.BY_SIDE[side]))
        listed = {sw for nat, r, sw, _ in SW_ROWS if (nat, r) == (side, rg)}
        choices = _sw_columns(side, rg)
        if choices and draw(st.booleans()):
            line["sw_columns"] = draw(st.sampled_from(choices))
            listed = set(line["sw_columns"]) | (
                {"PSK", "Lt. Mtr"} if sw_chart.STAR_COLUMN in listed else set()
            )
        if listed:
            line["sw"] = draw(st.lists(st.sampled_from(sorted(listed)), max_size=3))
    elif draw(st.booleans()):
        line["sw"] = draw(st.lists(ITEM, max_size=3))
    return line


def _key(line: dict[str, Any]) -> tuple[str, str | None]:
    return line["id"], line.get("kg")


@st.composite
def chart(draw: Any) -> tuple[str, str, list[dict[str, Any]]]:
    ruleset, side = draw(st.sampled_from([c for c in CHARTS if c != ("sg", "German")]))
    lines = draw(st.lists(chart_line(ruleset, side), max_size=6, unique_by=_key))
    return ruleset, side, lines


@given(chart())
def test_chart_to_csv_to_chart_is_the_identity(found: tuple[str, str, list[Any]]) -> None:
    ruleset, side, lines = found
    model = REGISTRY[ruleset].definition
    try:
        valid = model.model_validate({"rg_chart": {side: lines}}).rg_chart[side]
    except ValidationError:
        assume(False)
        raise
    line = chart_csv.line_model(model)
    text = chart_csv.write_chart(valid, line, "lines")
    back = chart_csv.read_chart(text, model, side)
    assert back == list(valid)
    assert chart_csv.dumped(back) == chart_csv.dumped(valid)
    # And the CSV it writes again is the same file.
    assert chart_csv.write_chart(back, line, "lines") == text


# ------------------------------------------------------------------ the docs

DOC = Path(__file__).resolve().parent.parent / "docs" / "authoring.md"
RULESET_WORDS = {"all": ("kgp", "abtf", "sg"), "KGP": ("kgp",), "ABtF": ("abtf",)}


def test_the_docs_columns_are_the_chart_lines_fields() -> None:
    """docs/authoring.md's table of columns is each ruleset's chart line."""
    rows = re.findall(r"^\| `(\w+)` \| ([\w ,]+) \|", DOC.read_text(encoding="utf-8"), re.M)
    documented: dict[str, list[str]] = {rid: [] for rid in ("kgp", "abtf", "sg")}
    for column, rulesets in rows:
        for rid in RULESET_WORDS[rulesets.strip()]:
            documented[rid].append(column)
    for rid, columns in documented.items():
        line = chart_csv.line_model(REGISTRY[rid].definition)
        assert columns == [c.name for c in chart_csv.chart_columns(line)], rid
