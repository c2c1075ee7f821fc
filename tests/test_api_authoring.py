"""The authoring tools over REST (DESIGN §15): a side's RG chart from CSV
and back, a map group from a grid, 422s that name the row and column of each
bad cell (or the field), and what they answer playing as a campaign's
definition."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import Game, assert_problem, ok
from fastapi.testclient import TestClient

from cgledger.domain import chart_csv
from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app

TOOLS = "/v1/definition-tools"
CHARTS = [(rid, side) for rid in ("kgp", "abtf", "sg") for side in REGISTRY[rid].sides]
CSV = {"content-type": "text/csv"}


def _read(client: TestClient, text: str | bytes, **params: str) -> Any:
    return client.post(f"{TOOLS}/rg-chart", params=params, content=text, headers=CSV)


def _sample_lines(ruleset: str, side: str) -> list[dict[str, Any]]:
    model = REGISTRY[ruleset].definition
    chart = model.model_validate(REGISTRY[ruleset].sample_definition).rg_chart.get(side, [])
    return chart_csv.dumped(chart)


@pytest.mark.parametrize(("ruleset", "side"), CHARTS)
def test_the_sample_chart_goes_round(client: TestClient, ruleset: str, side: str) -> None:
    r = client.get(f"{TOOLS}/rg-chart", params={"ruleset": ruleset, "side": side})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert f'filename="rg-chart-{ruleset}-{side}.csv"' in r.headers["content-disposition"]
    assert r.text.splitlines()[0].startswith("id,name,cpp")
    # The same CSV from the sample definition POSTed, and from its lines.
    sample = REGISTRY[ruleset].sample_definition
    params = {"ruleset": ruleset, "side": side}
    again = client.post(f"{TOOLS}/rg-chart/csv", params=params, json={"definition": sample})
    assert again.status_code == 200, again.text
    assert again.text == r.text
    lines = _sample_lines(ruleset, side)
    third = client.post(f"{TOOLS}/rg-chart/csv", params=params, json={"lines": lines})
    assert third.text == r.text
    if ruleset == "sg" and side == "German":
        assert_problem(_read(client, r.text, **params), 422)  # 3.5: no German chart
        return
    back = ok(_read(client, r.text, **params))
    assert back == {"ruleset": ruleset, "side": side, "lines": lines}
    assert ok(_read(client, r.text, ruleset=ruleset))["lines"] == lines


def test_every_bad_cell_is_named_by_row_and_column(client: TestClient) -> None:
    text = (
        "id,name,cpp,cg_max,footnotes,entry_code,colour\n"
        "I1,Rifle Pltn,5x,0,l,red,\n"
        ",,,,,,\n"
        "I1,Rifle Pltn,4,2,l toolong,,\n"
        "I2,SS Pltn,4,2,l,blue,\n"
    )
    problem = assert_problem(_read(client, text, ruleset="kgp", side="German"), 422)
    cells = [(c["row"], c["column"], c["cell"]) for c in problem["cells"]]
    assert cells == [
        (0, "colour", "G1"),
        (1, "cpp", "C2"),
        (1, "cg_max", "D2"),
        (3, "id", "A4"),
        (3, "footnotes", "E4"),
        # 8.6197 spans the line's cells: checked once they are valid.
        (4, "entry_code", "F5"),
    ]
    assert problem["field"] == "csv.0.colour"
    assert problem["detail"].startswith("the header, column colour: no chart line column")
    assert "and 5 more bad cells" in problem["detail"]
    assert "8.6191" in problem["cells"][3]["message"]
    assert "8.6197" in problem["cells"][5]["message"]
    assert "errors" not in problem  # the document's own errors are not these


@pytest.mark.parametrize(
    ("params", "body", "field"),
    [
        ({"ruleset": "kgp", "side": "Soviet"}, b"id,name,cpp\n", "side"),
        ({"ruleset": "asl"}, b"id,name,cpp\n", "ruleset"),
        ({"ruleset": "kgp"}, b"id,name,cpp\nI1,Caf\xe9,5\n", "csv"),  # Latin-1, not UTF-8
        ({"ruleset": "kgp"}, b"", "body"),  # the document's minLength
        ({"ruleset": "kgp"}, b"\n\n", "csv"),
    ],
)
def test_a_bad_request_names_its_field(
    client: TestClient, params: dict[str, str], body: bytes, field: str
) -> None:
    problem = assert_problem(_read(client, body, **params), 422)
    assert problem["field"] == field
    assert problem["detail"].startswith(f"{field}: ")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "definition"),
        ({"definition": {"attack_chits": {"Soviet": 1}}}, "definition.attack_chits"),
        ({"lines": [{"id": "I1", "name": "A", "cpp": -1}]}, "lines.0.cpp"),
        ({"lines": [{"id": "I1", "name": "A ", "cpp": 1}]}, "lines.0.name"),  # no cell keeps it
        ({"lines": [{"id": "I1", "name": "A", "cpp": 1}] * 501}, "lines"),  # 500 at most
    ],
)
def test_writing_a_chart_names_what_it_cannot_write(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    r = client.post(f"{TOOLS}/rg-chart/csv", params={"ruleset": "kgp", "side": "US"}, json=body)
    assert assert_problem(r, 422)["field"].startswith(field)


def test_a_typed_chart_and_a_grid_make_a_campaign(client: TestClient) -> None:
    """From the chart pages and a grid to a campaign: no JSON typed by hand
    but the marks on the map."""
    us = "id,name,cpp,per_date_max,cg_max,footnotes,entry_code\nI1,Rifle Pltn,5,2,6,l,red\n"
    german = "ID;Name;CPP;CG Max\nI1;Grenadier Pltn;4;5\nF1;Fortifications;2;\n"
    lines = {
        "US": ok(_read(client, us, ruleset="kgp", side="US"))["lines"],
        "German": ok(_read(client, german, ruleset="kgp", side="German"))["lines"],
    }
    group = ok(
        client.post(
            f"{TOOLS}/map-group",
            json={"id": "Tw", "title": "Town", "columns": "A-J", "rows": [1, 8]},
        )
    )
    assert len(group["hexes"]) == 5 * 8 + 5 * 9
    for h in group["hexes"]:
        if h["hex"] in ("C4", "F5"):
            h.update(strategic=True, lvp=3)
    group["initial_control"] = {"C4": "US", "F5": "German"}
    group["entry_areas"] = [
        {"id": "US-W", "side": "US", "hexes": ["A1", "A2", "A3"]},
        {"id": "G-E", "side": "German", "hexes": ["J1", "J2", "J3"]},
    ]
    definition = {"title": "Typed", "rg_chart": lines, "map_groups": [group]}
    game = Game(
        client,
        {
            "ruleset": "kgp",
            "campaign": "CG I",
            "title": "typed",
            "definition": copy.deepcopy(definition),
        },
    )
    held = ok(game.get("referee", "/definition"))["definition"]
    assert held["rg_chart"]["US"][0]["entry_code"] == ["red"]
    assert len(held["map_groups"][0]["hexes"]) == len(group["hexes"])
    areas = ok(game.get("referee", "/setup-areas?map_group=Tw"))
    assert {a["side"] for a in areas["areas"]} == {"US", "German"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"columns": "GG-A", "rows": [1, 10]}, "columns"),
        ({"columns": "A-GG", "rows": [10, 1]}, "rows"),
        ({"columns": "A-ZZZZ", "rows": [1, 999]}, "columns"),
        (
            {
                "boards": [
                    {"board": "12", "columns": "A-GG", "rows": [1, 10]},
                    {"board": "13", "columns": "A-GG", "rows": [1, 10], "column": 32},
                ]
            },
            "boards.1",
        ),
    ],
)
def test_a_bad_grid_is_a_422_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    problem = assert_problem(client.post(f"{TOOLS}/map-group", json={"id": "St", **body}), 422)
    assert problem["field"] == field
    assert "errors" not in problem


def test_several_boards_side_by_side(client: TestClient) -> None:
    boards = [
        {"board": "12", "columns": "A-GG", "rows": [1, 10]},
        {"board": "13", "columns": "B-GG", "rows": [1, 10]},
    ]
    group = ok(client.post(f"{TOOLS}/map-group", json={"id": "Bd", "boards": boards}))
    spots = {h["hex"]: (h["q"], h["r"]) for h in group["hexes"]}
    assert len(spots) == 346 + 346 - 10
    # 13B1 lies right of 12GG1 (the half-hex column the two boards share).
    assert spots["13B1"] == (33, spots["12GG1"][1])


def test_the_document_describes_the_tools(client: TestClient) -> None:
    paths = ok(client.get("/openapi.json"))["paths"]
    post = paths[f"{TOOLS}/rg-chart"]["post"]
    assert "text/csv" in post["requestBody"]["content"]
    assert "text/csv" in paths[f"{TOOLS}/rg-chart"]["get"]["responses"]["200"]["content"]
    assert "text/csv" in paths[f"{TOOLS}/rg-chart/csv"]["post"]["responses"]["200"]["content"]
    ruleset = next(p for p in post["parameters"] if p["name"] == "ruleset")
    assert ruleset["schema"]["enum"] == sorted(REGISTRY)
    assert "422" in paths[f"{TOOLS}/map-group"]["post"]["responses"]
