"""The rolls an RG needs follow the readings in force at its purchase
(DESIGN §14; issue 26: "a reading changed by amendment changes results only
from the amendment on").

* SG 3.4/3.6/3.7 with ``m4-group``: an "m4"-only group bought under
  "model-only" (or "leader-and-model") needs no 3.4 armor type dr. When an
  amendment to "armor-group" is approved after the American has passed 3.4
  (in 3.6, or in 3.7), the group bought before it keeps the rolls of its
  purchase: the side reaches 3.7 and the scenario, its record lists no 3.4
  roll, and a group bought after the amendment makes the 3.4 dr. The export
  verifies (``cgledger verify`` reads each RG's rolls under the readings of its
  purchase too).
* KGP 8.6206 with ``leader-columns``: amended between an RG's purchase and its
  leader DR, the DR is read on the column of the reading in force at the
  purchase (the RG was bought, and its rolls fixed, under that reading); an RG
  bought after the amendment reads the new column.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from domain_game import DomainGame
from test_purchases_ex import _buy, _campaign, _ctx, _definition, _determine
from test_readings_cpp import _export as _kgp_export
from test_verify_determination_tables import LEADER, OTHER, US_LINES

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.verify import Report, verify_bytes

SG = REGISTRY["sg"]
AMERICAN, GERMAN = "American", "German"
#: SG's RePh steps (the ruleset's sequence), then the scenario.
ORDER = [s.id for s in SG.reph_steps] + ["scenario"]
#: 2.92 EX: 63 VP scored, 55 needed, 41 CVP suffered: 33 Purchase Points.
END = {"cvp": {AMERICAN: 10, GERMAN: 41}, "vp": {AMERICAN: 63}, "vp_required": 55}
#: An "m4"-only line (3.7 M4 Model DR; 3.4 and 3.6 by the reading ``m4-group``).
M4_LINE = {"id": "M1", "name": "M4 group", "cpp": 8, "per_date_max": 2, "footnotes": ["m4"]}
ARMOR = "3.4 armor type dr for M1"


def _walk(game: DomainGame, to: str) -> None:
    """Both sides, American first (1.2), complete their steps up to ``to``,
    making each roll a step requires (as ``test_purchases_sg._walk``)."""
    c = game.c
    at = {}
    for _ in range(80):
        at = {side: c.current_step(side) for side in (AMERICAN, GERMAN)}
        if at[AMERICAN] == to and ORDER.index(at[GERMAN]) >= ORDER.index(to):
            return
        for side in (AMERICAN, GERMAN):
            for step in ORDER[ORDER.index(at[side]) + 1 : ORDER.index(to) + 2]:
                try:
                    game.advance(side, step)
                    break
                except RuleViolation as exc:
                    if "does not apply" not in exc.detail:
                        break
    raise AssertionError(f"could not reach {to}: {at}")


def _rows(c: Campaign) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = SG.rules.rg_record(c.engine, AMERICAN, lambda seq: True)["rows"]
    return rows


def _sg_export(c: Campaign, viewer: str) -> bytes:
    header = {
        "campaign": c.cid,
        "ruleset": "sg",
        "campaign_name": c.campaign_name,
        "exported_at": "2026-11-27T00:00:00Z",
    }
    return export_jsonl(header, c.history.records(0, c.version), viewer, c.is_revealed)


@pytest.mark.parametrize(
    ("created", "amended_in"), [("model-only", "3.6"), ("leader-and-model", "3.7")]
)
def test_sg_m4_group_amended_past_3_4_keeps_the_rolls_of_each_purchase(
    created: str, amended_in: str
) -> None:
    doc = copy.deepcopy(dict(SG.sample_definition))
    doc["rg_chart"][AMERICAN].append(M4_LINE)
    doc["readings"] = {"m4-group": created}
    game = DomainGame("sg", "SG", definition=doc)
    c = game.c
    c.end_scenario(game.ctx(REFEREE), END)
    _walk(game, "3.4")
    old = game.perform(AMERICAN, "rg-purchases", {"rgs": [{"rg": "M1"}]})
    assert ARMOR not in _rows(c)[0]["needs"]
    _walk(game, amended_in)
    patch = {"readings": {"m4-group": "armor-group"}}
    asked = c.request_amendment(game.ctx(AMERICAN), patch=patch, reason="the printed table")
    amended = c.approve_amendment(game.ctx(GERMAN), asked)
    assert c.readings()["m4-group"] == "armor-group"
    assert c.readings(at=old)["m4-group"] == created
    # 3.7 and the scenario are reached: the old group needs no 3.4 dr it can no longer make.
    assert ARMOR not in _rows(c)[0]["needs"]
    _walk(game, "3.8")
    (row,) = _rows(c)
    assert (row["seq"], row["needs"]) == (old, [])
    assert "armor" not in [r["need"] for r in row["rolls"]]
    c.begin_cg_date(game.ctx(REFEREE), "6 Afternoon")
    game.advance(AMERICAN, "scenario")
    game.advance(GERMAN, "scenario")
    c.end_scenario(game.ctx(REFEREE), END)
    _walk(game, "3.4")
    new = game.perform(AMERICAN, "rg-purchases", {"rgs": [{"rg": "M1"}]})
    assert new > amended > old
    by_seq = {r["seq"]: r for r in _rows(c)}
    assert by_seq[new]["needs"][0] == ARMOR  # bought under "armor-group": 3.4, 3.6, 3.7
    assert ARMOR not in (by_seq[old]["needs"] or [])
    _walk(game, "3.8")
    by_seq = {r["seq"]: r for r in _rows(c)}
    assert by_seq[new]["needs"] == []
    assert [r["need"] for r in by_seq[new]["rolls"]] == ["armor", "leader", "models"]
    assert "armor" not in [r["need"] for r in by_seq[old]["rolls"]]
    for viewer in (REFEREE, AMERICAN, GERMAN):
        assert isinstance(verify_bytes(_sg_export(c, viewer)), Report)


def _kgp_game(choice: str) -> tuple[Campaign, dict[str, int], random.Random]:
    """KGP: the U.S. buys an I1 (footnote "l": 8.6206 personnel leader DR)
    under ``choice``; the sides amend ``leader-columns`` to the other choice
    before its rolls; the U.S. buys another I1 after the amendment."""
    rng = random.Random(f"8.6206 at purchase {choice}")
    doc = _definition("kgp", [], US_LINES)
    doc["readings"] = {"leader-columns": choice}
    c = _campaign(rng, German=60, US=60, definition=doc)
    seq = {"old": _buy(c, rng, "US", "I1")}
    patch = {"readings": {"leader-columns": OTHER[choice]}}
    asked = c.request_amendment(_ctx("US", rng), patch=patch, reason="the printed chart")
    seq["amended"] = c.approve_amendment(_ctx("German", rng), asked)
    seq["new"] = _buy(c, rng, "US", "I1")
    return c, seq, rng


@pytest.mark.parametrize("choice", list(LEADER))
def test_kgp_leader_columns_amended_before_the_leader_dr_reads_the_column_of_the_purchase(
    choice: str,
) -> None:
    c, seq, rng = _kgp_game(choice)
    tables = {}
    for key in ("old", "new"):
        (quality,) = _determine(c, rng, "US", seq[key], 0, (1, 3))
        assert quality["outcome"]["text"].startswith("1st Line")
        (leader,) = _determine(c, rng, "US", seq[key], 0, (2, 7))
        tables[key] = leader["rule"]
    assert tables == {"old": LEADER[choice]["US"], "new": LEADER[OTHER[choice]]["US"]}
    for viewer in (REFEREE, "US", "German"):
        assert isinstance(verify_bytes(_kgp_export(c, viewer)), Report)
