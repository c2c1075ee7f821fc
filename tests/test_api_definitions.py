"""CG definitions over REST (DESIGN §7): schema and sample per ruleset, the
definition recorded with its hash at creation, 422s that name the field,
amendments approved the way undo requests are, and ``?at=`` reads."""

from __future__ import annotations

import copy
import hashlib
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.dice import canon
from cgledger.domain.rulesets import REGISTRY
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

RULESETS = {"kgp": ("CG I", None), "abtf": ("CG I", "18 AM"), "sg": ("SG", None)}


def _create(client: TestClient, ruleset: str, definition: Any = None) -> Any:
    name, start = RULESETS[ruleset]
    body: dict[str, Any] = {"ruleset": ruleset, "campaign": name, "title": "defs"}
    if start is not None:
        body["start_date"] = start
    if definition is not None:
        body["definition"] = definition
    return client.post("/v1/campaigns", json=body)


def _hash(doc: dict[str, Any]) -> str:
    return hashlib.sha256(canon(doc)).hexdigest()


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_schema_and_sample_answer_for_every_ruleset(client: TestClient, ruleset: str) -> None:
    schema = ok(client.get(f"/v1/rulesets/{ruleset}/definition-schema"))
    assert {"attack_chits", "rg_chart", "map_groups"} <= set(schema["properties"])
    sample = ok(client.get(f"/v1/rulesets/{ruleset}/sample-definition"))
    assert sample["sample"] is True
    assert "synthetic" in sample["notes"].lower()
    assert REGISTRY[ruleset].definition.model_validate(sample)


def test_unknown_ruleset_has_no_schema(client: TestClient) -> None:
    assert_problem(client.get("/v1/rulesets/nope/definition-schema"), 404)
    assert_problem(client.get("/v1/rulesets/nope/sample-definition"), 404)


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_campaign_records_its_definition_and_hash(client: TestClient, ruleset: str) -> None:
    sample = ok(client.get(f"/v1/rulesets/{ruleset}/sample-definition"))
    body = created(_create(client, ruleset))
    got = ok(
        client.get(
            f"/v1/campaigns/{body['id']}/definition",
            headers={"Authorization": f"Bearer {body['tokens']['referee']}"},
        )
    )
    assert got["hash"] == body["definition_hash"] == _hash(got["definition"])
    assert (got["seq"], got["definition"]["sample"]) == (1, True)
    assert (
        got["definition"]["rg_chart"]
        == REGISTRY[ruleset].definition.model_validate(sample).model_dump(mode="json")["rg_chart"]
    )


def _kgp_definition() -> dict[str, Any]:
    return copy.deepcopy(dict(REGISTRY["kgp"].sample_definition))


def _bad(mutate: Any) -> dict[str, Any]:
    doc = _kgp_definition()
    mutate(doc)
    return doc


def _dup_rg(d: dict[str, Any]) -> None:
    d["rg_chart"]["US"].append(dict(d["rg_chart"]["US"][0]))


def _negative_cost(d: dict[str, Any]) -> None:
    d["rg_chart"]["US"][0]["cpp"] = -1


def _unknown_side(d: dict[str, Any]) -> None:
    d["attack_chits"]["Soviet"] = 2


def _unknown_rg_side(d: dict[str, Any]) -> None:
    d["rg_chart"]["British"] = []


def _string_count(d: dict[str, Any]) -> None:
    d["attack_chits"]["US"] = "3"


def _extra_field(d: dict[str, Any]) -> None:
    d["colour"] = "red"


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (_dup_rg, "rg_chart"),
        (_negative_cost, "cpp"),
        (_unknown_side, "attack_chits"),
        (_unknown_rg_side, "rg_chart"),
        (_string_count, "attack_chits"),
        (_extra_field, "colour"),
    ],
)
def test_a_bad_definition_is_422_naming_the_field(
    client: TestClient, mutate: Any, field: str
) -> None:
    problem = assert_problem(_create(client, "kgp", _bad(mutate)), 422)
    assert problem["field"].startswith("definition"), problem
    assert field in problem["field"], problem
    assert problem["detail"].startswith(problem["field"]), problem


def test_amendments_take_effect_when_the_opponent_approves(client: TestClient) -> None:
    g = Game(client, {"ruleset": "kgp", "campaign": "CG I", "title": "amend"})
    first = ok(g.get("US", "/definition"))
    patch = {"patch": {"attack_chits": {"US": 5}}, "reason": "r"}
    asked = created(g.post("US", "/definition-amendments", patch))
    assert asked["status"] == "pending"
    aid = asked["id"]
    # Not in force yet, for anyone.
    assert ok(g.get("German", "/definition"))["hash"] == first["hash"]
    assert_problem(g.post("US", f"/definition-amendments/{aid}/approve"), 403)
    done = ok(g.post("German", f"/definition-amendments/{aid}/approve"))
    assert done["status"] == "applied"
    now = ok(g.get("US", "/definition"))
    assert now["definition"]["attack_chits"]["US"] == 5
    assert now["hash"] == asked["result_hash"] == _hash(now["definition"])
    assert ok(g.get("US"))["definition_hash"] == now["hash"]
    # Time travel: as of the request, the first definition was in force.
    assert ok(g.get("US", f"/definition?at={aid}"))["hash"] == first["hash"]
    assert_problem(g.post("German", f"/definition-amendments/{aid}/approve"), 409)
    # The export verifies, definition hashes included.
    report = verify_bytes(g.get("referee", "/export").content)
    assert report.events == g.version()


def test_a_null_member_removes_it_and_the_referee_amends_at_once(client: TestClient) -> None:
    g = Game(client, {"ruleset": "kgp", "campaign": "CG I", "title": "amend"})
    done = created(
        g.post(
            "referee",
            "/definition-amendments",
            {"patch": {"attack_chits": {"German": None}}, "reason": "no limit"},
        )
    )
    assert done["status"] == "applied"
    assert "German" not in ok(g.get("US", "/definition"))["definition"]["attack_chits"]


def test_amendment_refusals(client: TestClient) -> None:
    g = Game(client, {"ruleset": "kgp", "campaign": "CG I", "title": "amend"})
    bad = g.post(
        "US",
        "/definition-amendments",
        {"patch": {"rg_chart": {"US": [{"id": "I1", "name": "x", "cpp": -2}]}}, "reason": "r"},
    )
    assert "cpp" in assert_problem(bad, 422)["field"]
    same = g.post("US", "/definition-amendments", {"patch": {}, "reason": "r"})
    assert_problem(same, 409)
    a = created(g.post("US", "/definition-amendments", {"patch": {"title": "A"}, "reason": "r"}))
    b = created(g.post("US", "/definition-amendments", {"patch": {"title": "B"}, "reason": "r"}))
    ok(g.post("German", f"/definition-amendments/{a['id']}/approve"))
    # b was asked against the definition before a: approving it now is refused.
    assert_problem(g.post("German", f"/definition-amendments/{b['id']}/approve"), 409)
    withdrawn = ok(g.post("US", f"/definition-amendments/{b['id']}/reject", {"note": "stale"}))
    assert withdrawn["status"] == "withdrawn"
    listed = ok(g.get("US", "/definition-amendments"))
    assert [i["status"] for i in listed["items"]] == ["applied", "withdrawn"]
    assert_problem(g.get("US", "/definition-amendments/9999"), 404)
    # The agreement protocol answers an unknown amendment as the routes always
    # did: approving it names the field, rejecting it names none.
    unknown = assert_problem(g.post("German", "/definition-amendments/9999/approve"), 404)
    assert unknown["field"] == "amendment"
    unknown = assert_problem(g.post("German", "/definition-amendments/9999/reject"), 404)
    assert "field" not in unknown
    # An amendment is not undone; a new one changes it back.
    refused = g.post("referee", "/undo-requests", {"seqs": [a["id"]], "reason": "x"})
    assert assert_problem(refused, 409)
