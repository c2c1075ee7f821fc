"""``POST /v1/definition-tools/validate`` (DESIGN §7, §15): a draft CG
definition checked as a campaign checks it, for the definition editor's
validation as one types. Its hash, its normalised definition and the Setup
Areas of its initial Control are those of a campaign created with it, for
every ruleset and map group of the samples; every problem is named at once;
``cg_date`` picks the Entry Areas Eligible then (SSR CG6c)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import Game, assert_problem, ok
from fastapi.testclient import TestClient

from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app

CHECK = "/v1/definition-tools/validate"
#: Each ruleset's campaign and its first CG Date.
CAMPAIGNS = {"kgp": ("CG I", "19 AM"), "abtf": ("CG I", "18 AM"), "sg": ("SG", "6 Morning")}
GROUPS = [
    (rid, g["id"]) for rid in CAMPAIGNS for g in REGISTRY[rid].sample_definition["map_groups"]
]


def _check(client: TestClient, ruleset: str, body: dict[str, Any]) -> Any:
    return client.post(CHECK, params={"ruleset": ruleset}, json=body)


@pytest.mark.parametrize(("ruleset", "group"), GROUPS)
def test_a_draft_is_checked_as_the_campaign_created_with_it_holds_it(
    client: TestClient, ruleset: str, group: str
) -> None:
    sample = copy.deepcopy(REGISTRY[ruleset].sample_definition)
    campaign, date = CAMPAIGNS[ruleset]
    got = ok(_check(client, ruleset, {"definition": sample, "map_group": group, "cg_date": date}))
    body = {"ruleset": ruleset, "campaign": campaign, "title": "check", "definition": sample}
    if ruleset == "abtf":
        body["start_date"] = date
    game = Game(client, body)
    held = ok(game.get("referee", "/definition"))
    assert got["valid"] is True
    assert got["hash"] == held["hash"] == game.created["definition_hash"]
    assert got["definition"] == held["definition"]
    assert got["map_groups"] == {g["id"]: len(g["hexes"]) for g in sample["map_groups"]}
    assert got["rg_chart"] == {side: len(x) for side, x in sample["rg_chart"].items()}
    r = client.get(f"{game.url}/setup-areas?map_group={group}", headers=game.h("referee"))
    if REGISTRY[ruleset].rules.setup_area_step is None:
        assert got["setup_areas"] is None
        assert_problem(r, 404)
        return
    areas = ok(r)
    for key in ("map_group", "title", "cg_date", "step", "hexes", "areas", "sides"):
        assert got["setup_areas"][key] == areas[key], key
    assert {a["side"] for a in areas["areas"]} == set(REGISTRY[ruleset].sides)


def test_every_problem_is_named_at_once(client: TestClient) -> None:
    bad = copy.deepcopy(REGISTRY["kgp"].sample_definition)
    bad["attack_chits"] = {"US": "three"}
    bad["map_groups"][0]["hexes"][0]["lvp"] = -1
    bad["map_groups"][1]["hexes"][7]["q"] = "seven"
    problem = assert_problem(_check(client, "kgp", {"definition": bad, "map_group": "Sx"}), 422)
    fields = [e["field"] for e in problem["problems"]]
    assert fields == [
        "definition.attack_chits.US",
        "definition.map_groups.0.hexes.0.lvp",
        "definition.map_groups.1.hexes.7.q",
    ]
    assert problem["field"] == fields[0]
    assert problem["detail"].startswith("definition.attack_chits.US: ")
    assert problem["detail"].endswith("(and 2 more problems, listed in problems)")
    assert "errors" not in problem  # the request matches the document


@pytest.mark.parametrize(
    ("ruleset", "body", "field"),
    [
        ("nope", {"definition": {}}, "ruleset"),
        ("kgp", {"definition": {}, "map_group": "Zz"}, "map_group"),
        ("kgp", {"definition": REGISTRY["kgp"].sample_definition, "map_group": "Zz"}, "map_group"),
        (
            "kgp",
            {
                "definition": REGISTRY["kgp"].sample_definition,
                "map_group": "Sx",
                "cg_date": "Monday",
            },
            "cg_date",
        ),
        ("kgp", {"definition": {"rg_chart": []}}, "definition.rg_chart"),
        ("kgp", {}, "definition"),
    ],
)
def test_a_bad_request_names_its_field(
    client: TestClient, ruleset: str, body: dict[str, Any], field: str
) -> None:
    assert assert_problem(_check(client, ruleset, body), 422)["field"] == field


def test_the_cg_date_picks_the_eligible_entry_areas(client: TestClient) -> None:
    """SSR CG6c: an Entry Area is Eligible from the CG Date on its arrow. The
    U.S. enters only by an arrow of 20 AM: before, no Eligible Entry Area
    decides whether its Setup Area is Isolated (8.6052: ``null``); from then
    on it traces to it; without a date, every arrow counts."""
    hexes = [
        {"hex": f"{c}{r}", "q": q, "r": r - q // 2}
        for q, c in enumerate("ABCDE")
        for r in range(1, 5)
    ]
    for h in hexes:
        if h["hex"] == "B2":
            h.update(strategic=True, lvp=1)
    group = {
        "id": "M",
        "hexes": hexes,
        "entry_areas": [{"id": "W", "side": "US", "hexes": ["A1", "A2"], "from_date": "20 AM"}],
        "initial_control": {"B2": "US"},
    }
    doc = {"title": "dates", "map_groups": [group]}

    def isolated(date: str | None) -> Any:
        body = {"definition": doc, "map_group": "M", "cg_date": date}
        areas = ok(_check(client, "kgp", body))["setup_areas"]["areas"]
        assert [a["side"] for a in areas] == ["US"]
        return areas[0]["isolated"]

    assert isolated("19 PM") is None
    assert isolated("20 AM") is False
    assert isolated(None) is False
