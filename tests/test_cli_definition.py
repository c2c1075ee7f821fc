"""``cgledger definition …`` (DESIGN §15) run in-process with ``main`` (one
smoke test runs the console script): JSON on stdout, problems on stderr and a
non-zero exit; ``hash`` is the ``definition_hash`` a campaign records. And the
same tools through the Python client against a live server."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Game, ok
from fastapi.testclient import TestClient
from live import serving

from cgledger.cli import main
from cgledger.client import ApiError, Client
from cgledger.domain.rulesets import REGISTRY
from cgledger.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
US_CHART = "id,name,cpp,cg_max,footnotes,entry_code\nI1,Rifle Pltn,5,6,l,red; light blue\n"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["definition", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _file(tmp_path: Path, name: str, content: Any) -> str:
    path = tmp_path / name
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_chart_from_csv(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "chart-from-csv",
        _file(tmp_path, "us.csv", US_CHART),
        "--ruleset",
        "kgp",
        "--side",
        "US",
    )
    assert (code, err) == (0, "")
    assert json.loads(out) == {
        "ruleset": "kgp",
        "side": "US",
        "lines": [
            {
                "id": "I1",
                "name": "Rifle Pltn",
                "cpp": 5,
                "cg_max": 6,
                "footnotes": ["l"],
                "entry_code": ["red", "light blue"],
            }
        ],
    }


def test_every_bad_cell_goes_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _file(tmp_path, "bad.csv", "id,name,cpp,entry_code\nI1,A,5x,\nI2,,3,red\n")
    code, out, err = run(capsys, "chart-from-csv", bad, "--ruleset", "kgp", "--side", "German")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "cgledger definition chart-from-csv: row 1, column cpp (C2): '5x' is not a whole number",
        "cgledger definition chart-from-csv: row 2, column name (B3): this column needs a value",
    ]


def test_chart_to_csv_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = _file(tmp_path, "kgp.json", dict(REGISTRY["kgp"].sample_definition))
    code, csv_text, _ = run(capsys, "chart-to-csv", sample, "--ruleset", "kgp", "--side", "German")
    assert code == 0
    assert csv_text.startswith("id,name,cpp,")
    code, out, _ = run(
        capsys,
        "chart-from-csv",
        _file(tmp_path, "g.csv", csv_text),
        "--ruleset",
        "kgp",
        "--side",
        "German",
    )
    model = REGISTRY["kgp"].definition
    chart = model.model_validate(REGISTRY["kgp"].sample_definition).rg_chart["German"]
    assert json.loads(out)["lines"] == [
        c.model_dump(mode="json", exclude_defaults=True) for c in chart
    ]


def test_map_from_grid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "map-from-grid", "--id", "St", "--columns", "A-GG", "--rows", "1-10")
    assert code == 0
    group = json.loads(out)
    assert (group["id"], len(group["hexes"])) == ("St", 346)
    assert len(out.splitlines()) == 346 + 9  # a hex a line, and 9 lines around them
    boards = {
        "id": "Bd",
        "boards": [
            {"board": "12", "columns": "A-GG", "rows": [1, 10]},
            {"board": "13", "columns": "B-GG", "rows": [1, 10]},
        ],
    }
    code, out, _ = run(capsys, "map-from-grid", _file(tmp_path, "grid.json", boards))
    assert (code, len(json.loads(out)["hexes"])) == (0, 346 + 336)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["map-from-grid", "--id", "St", "--columns", "GG-A", "--rows", "1-10"],
            "columns: column A",
        ),
        (["map-from-grid", "--id", "St", "--columns", "A-C", "--rows", "ten"], "--rows:"),
        (["map-from-grid", "--id", "St"], "give a FILE"),
        (["map-from-grid", "--id", "x y", "--columns", "A", "--rows", "1-1"], "id:"),
        (["chart-from-csv", "/no/such.csv", "--ruleset", "kgp"], "cannot read /no/such.csv"),
        (["chart-from-csv", "-", "--ruleset", "asl"], "unknown ruleset 'asl'"),
        (["hash", "/no/such.json", "--ruleset", "kgp"], "cannot read"),
    ],
)
def test_a_problem_exits_1_saying_why(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (1, "")
    assert message in err


def test_validate_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = copy.deepcopy(dict(REGISTRY["kgp"].sample_definition))
    doc["attack_chits"]["Soviet"] = 1
    doc["rg_chart"]["US"][0]["cpp"] = -1
    code, out, err = run(capsys, "validate", _file(tmp_path, "bad.json", doc), "--ruleset", "kgp")
    assert (code, out) == (1, "")
    fields = [line.split(": ")[1] for line in err.splitlines()]
    assert fields == ["attack_chits.Soviet.[key]", "rg_chart.US.0.cpp"]
    code, out, _ = run(
        capsys,
        "validate",
        _file(tmp_path, "ok.json", dict(REGISTRY["kgp"].sample_definition)),
        "--ruleset",
        "kgp",
    )
    summary = json.loads(out)
    assert (code, summary["valid"], summary["map_groups"]) == (0, True, {"Sx": 16, "Sy": 1200})


@pytest.mark.parametrize(
    ("ruleset", "campaign", "start"), [("kgp", "CG I", None), ("abtf", "CG I", "18 AM")]
)
def test_hash_is_the_hash_the_ledger_records(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    client: TestClient,
    ruleset: str,
    campaign: str,
    start: str | None,
) -> None:
    doc = copy.deepcopy(dict(REGISTRY[ruleset].sample_definition))
    doc["sample"] = False
    doc["title"] = "hashed"
    # The hash is over the definition as the model normalises it, not the file's bytes.
    path = _file(tmp_path, "def.json", json.dumps(doc, indent=3))
    code, out, _ = run(capsys, "hash", path, "--ruleset", ruleset)
    assert code == 0
    body: dict[str, Any] = {"ruleset": ruleset, "campaign": campaign, "definition": doc}
    if start:
        body["start_date"] = start
    game = Game(client, body)
    recorded = ok(game.get("referee"))["definition_hash"]
    assert json.loads(out) == {"ruleset": ruleset, "hash": recorded}
    # A campaign's definition as GET /definition answers it hashes the same.
    view = _file(tmp_path, "view.json", ok(game.get("referee", "/definition")))
    assert json.loads(run(capsys, "hash", view, "--ruleset", ruleset)[1])["hash"] == recorded
    assert json.loads(run(capsys, "validate", view, "--ruleset", ruleset)[1])["hash"] == recorded


def test_the_console_script_reads_stdin() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cgledger.cli",
            "definition",
            "chart-from-csv",
            "-",
            "--ruleset",
            "sg",
        ],
        input="id,name,cpp,footnotes\nA1,Armor Group,15,a m4\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["lines"] == [
        {"id": "A1", "name": "Armor Group", "cpp": 15, "footnotes": ["a", "m4"]}
    ]


def test_the_python_client_has_the_tools(tmp_path: Path) -> None:
    with serving(Settings(data_dir=tmp_path / "data")) as base, Client(base) as api:
        read = api.chart_from_csv(US_CHART, ruleset="kgp", side="US")
        assert read.lines[0]["entry_code"] == ["red", "light blue"]
        text = api.chart_to_csv(ruleset="kgp", side="US", lines=read.lines)
        assert api.chart_from_csv(text, ruleset="kgp", side="US").lines == read.lines
        assert api.sample_chart_csv("sg", "American").startswith("id,name,cpp")
        group = api.map_group_from_grid("St", columns="A-C", rows=[1, 2])
        assert [h.hex for h in group.hexes] == ["A1", "A2", "B0", "B1", "B2", "C1", "C2"]
        with pytest.raises(ApiError) as caught:
            api.chart_from_csv("id,name,cpp\nI1,A,x\n", ruleset="kgp")
        assert caught.value.status == 422
        # The editor's check: the grid's map group with a Strategic Location.
        draft = group.model_dump()
        draft["hexes"][1] |= {"strategic": True, "lvp": 2}
        draft["initial_control"] = {"A2": "US"}
        definition = {"title": "t", "rg_chart": {"US": read.lines}, "map_groups": [draft]}
        checked = api.validate_definition(definition, ruleset="kgp", map_group="St")
        assert checked.rg_chart == {"US": 1}
        assert {h.hex for h in checked.setup_areas.hexes if h.status == "US"} == {
            h["hex"] for h in draft["hexes"]
        }
        with pytest.raises(ApiError) as caught:
            api.validate_definition({"map_groups": "none"}, ruleset="kgp")
        assert caught.value.problem["problems"][0]["field"] == "definition.map_groups"
