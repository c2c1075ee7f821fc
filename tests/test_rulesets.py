"""The ruleset interface's data, against the seed texts: the Initiative
matrices (8.6232, 9.62132) and what GET /v1/rulesets says of each ruleset."""

from __future__ import annotations

from typing import Any, cast

import pytest
from conftest import ok
from fastapi.testclient import TestClient

from cgledger.domain.purchases import PurchaseRules
from cgledger.domain.rulesets import REGISTRY

pytestmark = pytest.mark.shared_app

#: 8.6232 and 9.62132, read off the seeds' matrices (rows German, columns the
#: other side): (other side's chit, German chit) -> scenario type.
MATRICES = {
    "kgp": {
        ("attack", "attack"): "dual-attack",
        ("attack", "idle"): "us-assault",
        ("idle", "attack"): "german-assault",
        ("idle", "idle"): "idle",
    },
    "abtf": {
        ("attack", "attack"): "dual-attack",
        ("attack", "idle"): "british-assault",
        ("idle", "attack"): "german-assault",
        ("idle", "idle"): "idle",
    },
}


@pytest.mark.parametrize("ruleset", sorted(MATRICES))
def test_initiative_matrix_is_the_seeds(ruleset: str) -> None:
    rs = REGISTRY[ruleset]
    assert rs.initiative is not None
    assert rs.sides[1] == "German"
    assert dict(rs.initiative.matrix) == MATRICES[ruleset]
    assert set(rs.initiative.matrix.values()) <= set(rs.scenario_types)


def test_sg_has_no_initiative_step() -> None:
    # SG generates its next scenario by 4.0, not by Initiative chits.
    assert REGISTRY["sg"].initiative is None


def test_rulesets_list_their_interface(client: TestClient) -> None:
    listed = {r["id"]: r for r in ok(client.get("/v1/rulesets"))}
    assert set(listed) >= {"kgp", "abtf", "sg"}
    kgp = listed["kgp"]
    # The purchases of DESIGN §10: RG (8.619), their rolls (8.620), Fortifications
    # (8.621), their setup Locations (8.6242) and the hidden ones placed (8.6073).
    purchases = [
        "rg-purchases",
        "rg-determinations",
        "fortification-purchases",
        "fortification-setups",
        "hidden-fortifications",
    ]
    assert [a["path"] for a in kgp["actions"]] == [
        "cpp-replenishments",
        *purchases,
        "recon",
        "ammunition-shortage",
        "fanaticism",  # SSR CG14
    ]
    assert kgp["roster"] is True
    assert [s["rule"] for s in kgp["reph_steps"]][:2] == ["8.601", "8.602"]
    matrix = {
        (c["chits"]["US"], c["chits"]["German"]): c["scenario"] for c in kgp["initiative"]["matrix"]
    }
    assert matrix == MATRICES["kgp"]
    assert listed["sg"]["initiative"] is None
    assert [a["path"] for a in listed["abtf"]["actions"]] == ["cpp-replenishments", *purchases]
    assert listed["abtf"]["roster"] is True
    # 3.4: the American spends Purchase Points; 3.4-3.7: the rolls for each group.
    assert [a["path"] for a in listed["sg"]["actions"]] == ["rg-purchases", "rg-determinations"]
    for r in listed.values():
        assert ok(client.get(r["definition_schema_url"]))["type"] == "object"
        assert ok(client.get(r["sample_definition_url"]))["sample"] is True


#: The purchase rules by number, as ``PurchaseRules`` names them.
PURCHASE_RULES = ("buy", "price", "date_max", "cg_max", "record", "determine", "per_map_group")


@pytest.mark.parametrize("ruleset", sorted(REGISTRY))
def test_the_purchase_rules_listed_are_the_rulesets(client: TestClient, ruleset: str) -> None:
    """GET /v1/rulesets' ``purchases`` (what the page's buy form reads): the
    ruleset's purchase rules by number and the 8.6194 CPP-cost modifiers a
    purchaser may choose, with their rule and what each does, as the ruleset's
    own ``PurchaseRules`` have them."""
    (listed,) = [r for r in ok(client.get("/v1/rulesets")) if r["id"] == ruleset]
    rules: PurchaseRules = cast(Any, REGISTRY[ruleset].rules).purchases
    got = listed["purchases"]
    assert {k: got[k] for k in PURCHASE_RULES} == {k: getattr(rules, k) for k in PURCHASE_RULES}
    assert [
        (m["id"], m["rule"], m["title"], m["sides"], m["percent"], m["rounding"])
        for m in got["modifiers"]
    ] == [(m.id, m.rule, m.title, list(m.sides), m.percent, m.rounding) for m in rules.modifiers]
    readings = {r["id"] for r in ok(client.get(listed["readings_url"]))}
    for m, own in zip(got["modifiers"], rules.modifiers, strict=True):
        assert m["rule"].startswith(got["price"]), m  # 8.6194a within 8.6194
        assert m["rgs"] == [p for p in own.prefixes if p]
        assert (m["amount_reading"], m["rgs_reading"]) == (own.amount_reading, own.prefixes_reading)
        assert {m["amount_reading"], m["rgs_reading"]} - {None} <= readings
        assert m["reading"] == (own.reading or None)
        text = m["text"]
        assert f"+{own.percent}%" in text, text
        assert all(str(x) in text for x in (own.rounding, *own.sides, *m["rgs"])), text


@pytest.mark.parametrize(
    ("scenario", "start", "end", "winner", "rule"),
    [
        # 8.6234a: the Americans win a Dual Attack if their Current-LVP grew.
        ("dual-attack", {"US": 15, "German": 37}, {"US": 16, "German": 36}, "US", "8.6234a"),
        ("dual-attack", {"US": 15, "German": 37}, {"US": 15, "German": 37}, "German", "8.6234a"),
        # 8.6234b EX: an Assaulter with no LVP at start needs >= 1 at the end ...
        ("german-assault", {"US": 20, "German": 0}, {"US": 19, "German": 1}, "German", "8.6234b"),
        ("german-assault", {"US": 20, "German": 0}, {"US": 20, "German": 0}, None, "8.6234b"),
        # ... and one with 26 needs >= 32 (26 x .2 = 5.2 [FRU] = 6).
        ("us-assault", {"US": 26, "German": 10}, {"US": 32, "German": 4}, "US", "8.6234b"),
        ("us-assault", {"US": 26, "German": 10}, {"US": 31, "German": 5}, None, "8.6234b"),
    ],
)
def test_kgp_scenario_victory_8_6234(
    scenario: str, start: dict[str, int], end: dict[str, int], winner: str | None, rule: str
) -> None:
    found, why = REGISTRY["kgp"].rules.scenario_winner(scenario, start, end)
    assert found == winner
    assert why.startswith(rule)
