"""Issue 26 item 5: the SAN of each side as a value the campaign keeps (KGP
8.6122, ABtF 9.6122), set at the CG's start from the definition's ``san``
(the CG's OB), read by the SAN Adjustment (its ``san`` input defaults to it,
and its dr is required at a SAN ≥ 4, British ≥ 4, German ≥ 5), changed by
its result; ABtF's starting Ammunition Shortage Level (SSR CG 17, not in the
seed) from the definition's ``ammunition_shortage_level``; and 9.6202's ELR
Loss/Gain DR required of each side. Pure domain, but one HTTP test."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from conftest import Game, ok
from domain_game import DomainGame
from fastapi.testclient import TestClient
from pydantic import ValidationError

from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.abtf.definition import SAMPLE as ABTF_SAMPLE
from cgledger.domain.rulesets.kgp.definition import SAMPLE as KGP_SAMPLE


def _doc(sample: dict[str, Any], **extra: Any) -> dict[str, Any]:
    doc = copy.deepcopy(sample)
    doc.update(extra)
    return doc


def _refused(game: DomainGame, side: str, to: str) -> str:
    with pytest.raises(RuleViolation) as refused:
        game.c.advance(game.ctx(side), side, to)
    return refused.value.detail


# ---------------------------------------------------------------- the definition


@pytest.mark.parametrize(
    ("ruleset", "field", "value", "ok_"),
    [
        ("kgp", "san", {"US": 4, "German": 2}, True),
        ("kgp", "san", {"US": 13}, False),
        ("kgp", "san", {"British": 3}, False),
        ("abtf", "san", {"British": 0, "German": 12}, True),
        ("abtf", "san", {"German": -1}, False),
        ("abtf", "ammunition_shortage_level", {"British": 2}, True),
        ("abtf", "ammunition_shortage_level", {"German": 1}, False),
    ],
)
def test_the_definition_fields(ruleset: str, field: str, value: dict[str, int], ok_: bool) -> None:
    rs = REGISTRY[ruleset]
    doc = _doc(dict(rs.sample_definition), **{field: value})
    if ok_:
        rs.definition.model_validate(doc)
        return
    with pytest.raises(ValidationError) as bad:
        rs.definition.model_validate(doc)
    assert bad.value.errors()[0]["loc"][0] == field


def test_the_fields_cite_their_rules() -> None:
    schema = {r: REGISTRY[r].definition.model_json_schema()["properties"] for r in ("kgp", "abtf")}
    assert schema["kgp"]["san"]["description"].startswith("8.6122: ")
    assert schema["abtf"]["san"]["description"].startswith("9.6122: ")
    level = schema["abtf"]["ammunition_shortage_level"]["description"]
    assert level.startswith("SSR CG 17 (not in the seed)")


# ---------------------------------------------------------------- KGP 8.6122


@pytest.mark.parametrize(("us", "required"), [(3, False), (4, True), (6, True)])
def test_kgp_the_definitions_san_requires_the_dr_at_4(us: int, required: bool) -> None:
    """8.6122: "Each side whose SAN is currently ≥ 4 must make a dr": known
    from the CG's start, its dr is required from the first New CG Date, its
    input is the kept SAN, and its result is the next one."""
    game = DomainGame(
        "kgp", "CG I", definition=_doc(KGP_SAMPLE, san={"US": us}), initial_cpp={"German": 2}
    )
    assert game.kept("san")["US"]["value"] == us
    assert "German" not in game.kept("san")
    game.next_date()  # 19 PM
    game.advance("German", "8.613")  # the German's SAN is not on record
    if not required:
        game.advance("US", "8.613")
        assert game.kept("san")["US"]["value"] == us
        return
    assert _refused(game, "US", "8.613").startswith(
        "8.6122: US makes the SAN Adjustment dr on 19 PM before step 8.612 is passed"
    )
    out = game.roll("US", "kgp:8.6122")
    assert out["inputs"] == {"san": us}
    assert game.kept("san")["US"]["value"] == (us - 2 if out["outcome"]["band"] == 1 else us)


@pytest.mark.parametrize(("original", "expected"), [(2, 6), (3, 4)])
def test_kgp_8_6122_ex_with_the_definitions_san(original: int, expected: int) -> None:
    """8.6122 EX: "The U.S. SAN is currently 6. Due to the +2 drm (6 - 4 = 2) ...
    an Original dr of ≥ 3 will lower the U.S. SAN to 4", the SAN of 6 kept
    from the CG's OB (nobody states it) and the result kept for the next date."""
    game = DomainGame(
        "kgp", "CG I", definition=_doc(KGP_SAMPLE, san={"US": 6}), initial_cpp={"German": 2}
    )
    game.next_date()
    out = game.roll("US", "kgp:8.6122", original=original)
    assert (out["inputs"], out["final"]) == ({"san": 6}, original + 2)
    assert game.kept("san")["US"]["value"] == expected
    game.next_date()
    assert game.kept("san")["US"]["value"] == expected


def test_kgp_a_san_below_2_is_raised_at_the_new_cg_date() -> None:
    """8.6122: "Each side whose SAN is currently < 2 has it automatically
    raised to 2 (no CPP expenditure necessary)"."""
    game = DomainGame(
        "kgp", "CG I", definition=_doc(KGP_SAMPLE, san={"German": 1}), initial_cpp={"German": 2}
    )
    assert game.kept("san")["German"]["value"] == 1
    game.next_date()
    found = game.kept("san")["German"]
    assert found["value"] == 2
    assert found["scheduled"] == [{"cg_date": "19 PM", "rule": "8.6122", "raised_to": 2}]


# ---------------------------------------------------------------- ABtF


def test_abtf_the_ammunition_shortage_level_starts_from_the_definition() -> None:
    """SSR CG 17's Level at the CG's start (the definition's), to which 9.6201's
    "Shortage increases one Level" adds."""
    doc = _doc(ABTF_SAMPLE, ammunition_shortage_level={"British": 2})
    game = DomainGame("abtf", "CG I", start_date="18 N", definition=doc)
    level = game.kept("ammunition_shortage_level")["British"]
    assert (level["value"], level["known"], level["rule"]) == (2, True, "9.6201")
    game.next_date()  # 19 AM
    game.advance("British", "9.620")
    out = game.roll("British", "abtf:9.6201")
    expected = 2 + (out["outcome"]["band"] == 1)
    assert game.kept("ammunition_shortage_level")["British"]["value"] == expected


@pytest.mark.parametrize("side", ["British", "German"])
def test_abtf_9_6202_is_required_of_each_side_but_before_the_initial_scenario(side: str) -> None:
    game = DomainGame("abtf", "CG I", start_date="18 PM")
    game.advance(side, "9.621")  # the Initial Scenario: not required
    game.next_date()  # 18 EVE
    game.next_date(play=False)  # 18 EVE is Idle (the driver makes its 9.6202 DRs)
    assert game.cg_date == "18 N"
    game.advance(side, "9.620")
    assert _refused(game, side, "9.621").startswith(
        f"9.6202: {side} makes the ELR Loss/Gain DR on 18 N before step 9.620 is passed"
    )
    out = game.roll(side, "abtf:9.6202")
    assert {d["id"]: d.get("count") for d in out["drm"]}["idle-dates"] == 1
    game.advance(side, "9.621")


def test_abtf_a_stated_san_stands_over_the_definitions(client: TestClient) -> None:
    """The HTTP view: the kept SAN under the campaign's conditions and the
    roster. A SAN Adjustment that states another SAN stands (a SAN also
    changes outside the RePh tables, which the ledger does not record: the
    stated value is how the players enter it), and the kept SAN goes on from
    it: the stated SAN plus the change of the roll's band."""
    doc = _doc(ABTF_SAMPLE, san={"British": 5, "German": 3})
    game = Game(
        client, {"ruleset": "abtf", "campaign": "CG I", "start_date": "17 N", "definition": doc}
    )
    for role in ("British", "German"):
        san = ok(game.get(role))["conditions"]["san"]
        assert {s: san[s]["value"] for s in san} == {"British": 5, "German": 3}
        assert san["British"]["source"] == "definition"
    game.next_date()
    out = game.post("British", "/tables/abtf:9.61221/rolls", {"inputs": {"san": 6}})
    assert out.status_code == 201, out.text
    values = out.json()
    assert values["inputs"] == {"san": 6}
    (lasting,) = REGISTRY["abtf"].lasting_of("abtf:9.61221")
    change = lasting.changes[values["outcome"]["band"]]
    due = 6 + (change if isinstance(change, int) else 0)
    roster = ok(game.get("German", "/roster?side=British"))
    assert roster["conditions"]["san"]["British"]["value"] == due
