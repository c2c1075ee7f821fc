"""Review 28: the authoring tools (DESIGN §15) against the contracts of §3,
§7 and §9: chart CSV round trips and hostile CSV, map groups from grids,
the definition check, the shell's ``definition hash`` and the OpenAPI
document. Each test names what it checks; those that fail are findings (see
the review's report)."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import assert_problem, created, ok
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from cgledger.cli import main
from cgledger.domain import chart_csv, hexes
from cgledger.domain.campaign.core import sample_definition
from cgledger.domain.definition_types import MAX_COORD
from cgledger.domain.errors import InvalidInput
from cgledger.domain.map_grid import MapGrid, map_group_from_grid
from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app

TOOLS = "/v1/definition-tools"
CSV = {"content-type": "text/csv"}
ROOT = Path(__file__).resolve().parent.parent
#: The commit before the optional hex fields (``ground_level``, ``terrain``).
BEFORE = "ba95ee0"


# ------------------------------------------------------------ the chart CSV


_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12
).filter(lambda s: s == s.strip())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=_TEXT,
    notes=st.one_of(st.just(""), _TEXT),
    unit_type=st.one_of(st.just(""), _TEXT),
    sw=st.lists(_TEXT.filter(lambda s: ";" not in s), max_size=3),
    footnotes=st.lists(st.from_regex(r"\A[A-Za-z0-9]{1,3}\Z"), max_size=3),
    units=st.lists(st.integers(0, 1000), max_size=2),
    elite=st.sampled_from([None, True, False]),
    cg_max=st.one_of(st.none(), st.integers(1, 1000)),
)
def test_a_chart_line_goes_round_the_csv(
    name: str,
    notes: str,
    unit_type: str,
    sw: list[str],
    footnotes: list[str],
    units: list[int],
    elite: bool | None,
    cg_max: int | None,
) -> None:
    """Any valid chart line, written as CSV and read back, is the same line."""
    model = REGISTRY["kgp"].definition
    line = {
        "id": "I1",
        "name": name,
        "cpp": 3,
        "notes": notes,
        "unit_type": unit_type,
        "sw": sw,
        "footnotes": footnotes,
        "units": units,
        "elite": elite,
        "cg_max": cg_max,
    }
    try:
        lines = chart_csv.side_chart(model, {"rg_chart": {"US": [line]}}, "US")
    except ValidationError:
        assume(False)  # a line the ruleset refuses (8.6202's elite): not a chart
        return
    try:
        text = chart_csv.write_chart(lines, chart_csv.line_model(model), "lines")
    except InvalidInput:
        return  # a value no cell keeps is refused, never changed
    back = chart_csv.read_chart(text, model)
    assert chart_csv.dumped(back) == chart_csv.dumped(lines)
    for row in text.splitlines()[1:]:
        assert not row or row[0] not in "=+-@", row  # a spreadsheet never runs a cell


@pytest.mark.parametrize(
    "text",
    [
        "\n" * 1_000_000,  # a million empty rows
        "id,name,cpp\n" + "I1,x,1\n" * 600,
        'id,name,cpp\nI1,"unterminated,1\n',
        'id,name,cpp\nI1,x"y,1\n',
        "id;name,cpp\tfpp\nI1;x,1\t2\n",  # mixed separators
        "id,name,cpp\rI1,x,1\r",  # old Mac line ends
        "\ufeff\ufeffid,name,cpp\nI1,x,1\n",
        "id,name,cpp\nI1,x\x00y,1\n",
        'id,name,cpp\nI1,=HYPERLINK("http://x"),1\n',
        "," * 90_000 + "\n",
        "id,name,cpp\n" + "I1,x,1," + ",9" * 40_000 + "\n",
        "id,name,cpp\nI1,x,99999999999999999999\n",
        "id,name,cpp\nI1,x,١٢\n",  # Arabic-Indic digits
        "ID , Name , CPP , CG-max\nI1,x,1,0\n",
    ],
)
def test_hostile_csv_is_answered_never_a_500(client: TestClient, text: str) -> None:
    r = client.post(
        f"{TOOLS}/rg-chart", params={"ruleset": "kgp"}, content=text.encode(), headers=CSV
    )
    assert r.status_code in (200, 422), r.text[:300]
    if r.status_code == 422:
        assert_problem(r, 422)


# ------------------------------------------------------------- map groups


@settings(max_examples=150, deadline=None)
@given(
    boards=st.lists(
        st.tuples(
            st.integers(0, 6),  # first column
            st.integers(0, 6),  # columns
            st.integers(1, 5),  # first row
            st.integers(0, 4),  # rows
            st.integers(-3, 3),  # even column shift / 2
            st.integers(-5, 5),  # row shift
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_grids_hexes_are_where_hexes_to_axial_puts_their_ids(
    boards: list[tuple[int, int, int, int, int, int]],
) -> None:
    """DESIGN §9: with column A of the first kind and boards placed by an
    even number of columns, every hex's q, r is hexes.to_axial of its id."""
    body = {"id": "M", "boards": []}
    places = {}
    for i, (lo, n, first, more, shift, row) in enumerate(boards):
        letters = hexes.column_letters
        body["boards"].append(
            {
                "board": str(i + 1),
                "columns": f"{letters(lo)}-{letters(lo + n)}",
                "rows": [first, first + more],
                "column": 20 * i + 2 * shift,
                "row": row,
            }
        )
        places[str(i + 1)] = hexes.Board(column=20 * i + 2 * shift, row=row)
    try:
        group = map_group_from_grid(MapGrid.model_validate(body))
    except InvalidInput:
        return
    for h in group["hexes"]:
        assert (h["q"], h["r"]) == hexes.to_axial(h["hex"], places), h


def test_a_grid_the_tool_answers_is_a_map_group_a_definition_takes(client: TestClient) -> None:
    """Boards side by side may carry q past MAX_COORD (10,000) within the
    20,000 hexes: the tool must refuse the grid (422 naming boards), not
    answer a map group every definition refuses."""
    column = "A-" + "Z" * 17  # 442 columns, ids of 20 characters on boards 10-23
    boards = [{"board": str(i), "columns": column, "rows": [1, 1]} for i in range(10, 33)]
    r = client.post(f"{TOOLS}/map-group", json={"id": "Wide", "boards": boards})
    if r.status_code == 422:
        assert_problem(r, 422)
        return
    group = ok(r)
    assert max(h["q"] for h in group["hexes"]) <= MAX_COORD
    REGISTRY["kgp"].definition.model_validate({"map_groups": [group]})


# ------------------------------------------------------- the definition check


def test_a_definition_problems_field_stays_within_the_documents_length(
    client: TestClient,
) -> None:
    """The Problem schema bounds ``field`` to 200 characters; a map of hexes
    (initial_control) with a long bad key names the key in the field."""
    doc = copy.deepcopy(dict(REGISTRY["kgp"].sample_definition))
    doc["map_groups"] = copy.deepcopy(list(doc["map_groups"]))
    doc["map_groups"][0] = dict(doc["map_groups"][0])
    doc["map_groups"][0]["initial_control"] = {"!" * 5000: "US"}
    r = client.post(f"{TOOLS}/validate", params={"ruleset": "kgp"}, json={"definition": doc})
    body = assert_problem(r, 422)
    assert len(body["field"]) <= 200, len(body["field"])
    for problem in body.get("problems", []):
        assert len(problem["field"]) <= 200, len(problem["field"])


def test_the_document_describes_the_problems_of_a_definition_check(client: TestClient) -> None:
    """POST /definition-tools/validate answers a 422 whose ``problems`` list
    every problem: the document's Problem schema should say so, as it says
    ``cells`` for the CSV route."""
    doc = client.get("/openapi.json").json()
    assert "problems" in doc["components"]["schemas"]["Problem"]["properties"]


# --------------------------------------------------------- hashes, old and new


def _old_hashes(tmp_path: Path) -> dict[str, str]:
    tree = tmp_path / "old"
    tree.mkdir()
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", BEFORE, "cgledger"],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"commit {BEFORE} not at hand: {exc}")
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    code = (
        "import json\n"
        "from cgledger.domain.rulesets import REGISTRY\n"
        "from cgledger.domain.campaign.core import sample_definition\n"
        "print(json.dumps({r: sample_definition(rs)[1] for r, rs in REGISTRY.items()}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        cwd=tree,
    ).stdout
    found: dict[str, str] = json.loads(out)
    return found


def test_every_samples_hash_is_the_one_before_the_optional_hex_fields(tmp_path: Path) -> None:
    old = _old_hashes(tmp_path)
    now = {rid: sample_definition(rs)[1] for rid, rs in REGISTRY.items()}
    assert now == old


# ----------------------------------------------------- cgledger definition hash


def _campaign_body(ruleset: str, definition_text: str) -> str:
    rs = REGISTRY[ruleset]
    name, cg = next(iter(rs.campaigns.items()))
    start = "" if cg.initial_date is not None else f', "start_date": {json.dumps(cg.calendar[0])}'
    return (
        f'{{"ruleset": "{ruleset}", "campaign": {json.dumps(name)}, "title": "hash"{start}, '
        f'"definition": {definition_text}}}'
    )


@pytest.mark.parametrize("spelling", ["{n}", "{n}.0", "{n}e0", "{n}0e-1"])
def test_the_shells_hash_is_the_one_a_campaign_records(
    client: TestClient,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    spelling: str,
) -> None:
    """The server's JSON parser reads 5.0 as the integer 5 (the OpenAPI
    document's integer); ``cgledger definition hash`` reads the file with
    json.loads, so a strict model refuses the same file the campaign took."""
    text = json.dumps(dict(REGISTRY["kgp"].sample_definition))
    text, n = re.subn(
        r'"cpp": ([0-9]+)', lambda m: '"cpp": ' + spelling.format(n=m[1]), text, count=1
    )
    assert n == 1
    made = created(
        client.post(
            "/v1/campaigns",
            content=_campaign_body("kgp", text),
            headers={"content-type": "application/json"},
        )
    )
    recorded = ok(
        client.get(
            f"/v1/campaigns/{made['id']}/definition",
            headers={"Authorization": f"Bearer {made['tokens']['referee']}"},
        )
    )["hash"]
    path = tmp_path / "def.json"
    path.write_text(text, encoding="utf-8")
    code = main(["definition", "hash", str(path), "--ruleset", "kgp"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["hash"] == recorded
