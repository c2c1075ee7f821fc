"""Every cell of the Initiative matrices (KGP 8.6232, ABtF 9.62132) with the
side that sets up first (8.6233, 9.62133), played through the domain's
commands: the scenario type each pair of chits generates, and who sets up
first, by the type for an Assault and by the setup dr for a Dual Attack. One
cell is read through ``GET /reph`` and ``GET /initiative``.

The expected cells are the seed's words, written here, not read from the
ruleset's data."""

from __future__ import annotations

import copy
import random
import re
from typing import Any, NamedTuple
from uuid import UUID

import pytest
from conftest import Game, created, ok
from fastapi.testclient import TestClient

from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.campaign.core import Applied
from cgledger.domain.campaign.initiative import Initiative
from cgledger.domain.errors import RuleViolation
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.visibility import REFEREE
from cgledger.projections.reph import initiative_view, reph_view
from cgledger.sealing import AesGcmSealer

SEALER = AesGcmSealer(bytes(32))


class Cell(NamedTuple):
    """A cell of a matrix: the German chit (the row), the other side's (the
    column), the scenario type, and who sets up first (``None``: no side, an
    Idle date; ``"dr"``: the Dual Attack's setup dr decides)."""

    german: str
    other: str
    scenario: str
    setup_first: str | None


#: 8.6232: rows "Attack*" (the German: its "*" note) and "Idle", columns the
#: U.S. chit. 8.6233a Dual Attack: "The U.S. player makes a dr ... if ≤ 3 the
#: U.S. does; otherwise the German does"; c "GERMAN ASSAULT: ... The U.S. sets
#: up first"; d "U.S. ASSAULT: ... The German sets up first"; note 2: Idle.
KGP_CELLS = [
    Cell("attack", "attack", "dual-attack", "dr"),
    Cell("attack", "idle", "german-assault", "US"),
    Cell("idle", "attack", "us-assault", "German"),
    Cell("idle", "idle", "idle", None),
]
#: 9.62132: rows "GERMAN ATTACK"/"GERMAN IDLE", columns "BRITISH ATTACK"/
#: "BRITISH IDLE". 9.62133a: "The German player makes a dr ... if ≤ 3 the
#: British does; otherwise the German does"; b "German Assault - ... The British
#: player sets up first"; c "British Assault - ... The German player sets up first".
ABTF_CELLS = [
    Cell("attack", "attack", "dual-attack", "dr"),
    Cell("attack", "idle", "german-assault", "British"),
    Cell("idle", "attack", "british-assault", "German"),
    Cell("idle", "idle", "idle", None),
]
#: By ruleset: the other side, the Dual Attack dr's roller and the side that
#: sets up first on a dr ≤ 3 (8.6233a, 9.62133a), and the campaign.
RULESETS: dict[str, dict[str, Any]] = {
    "kgp": {"other": "US", "roller": "US", "low": "US", "campaign": "CG I", "start": None},
    "abtf": {
        "other": "British", "roller": "German", "low": "British",
        "campaign": "CG I", "start": "18 AM",
    },
}  # fmt: skip
CASES = [
    pytest.param(rs, cell, first, id=f"{rs}-{cell.german}-{cell.other}-{first}-first")
    for rs, cells in (("kgp", KGP_CELLS), ("abtf", ABTF_CELLS))
    for cell in cells
    for first in ("German", RULESETS[rs]["other"])
]


def _ctx(actor: str, rng: random.Random) -> Ctx:
    return Ctx(actor=actor, now="2026-11-25T00:00:00Z", entropy=rng.randbytes, sealer=SEALER)


def _reach(c: Campaign, rng: random.Random, side: str, to: str) -> None:
    """``side`` completes its steps up to ``to``, making each action a step
    requires on the way (with its empty body), as ``conftest.Game.advance``."""
    actions = {a.path: a for a in c.ruleset.rules.actions.values()}
    for _ in range(30):
        try:
            c.advance(_ctx(side, rng), side, to)
            return
        except RuleViolation as refused:
            needed = re.search(r"\(POST /v1/campaigns/[^/]+/([^)]+)\)", refused.detail)
            if needed is None:
                raise
            path = needed.group(1)
            if path.startswith("tables/"):  # a roll the step requires (9.6202 of each side)
                table = path.split("/")[1]
                c.roll_table(
                    _ctx(side, rng), table, drm=[], inputs={}, secret=False, client_nonce=None
                )
                continue
            action = actions[path]
            c.perform(_ctx(side, rng), action.path, action.body())
    raise AssertionError(f"{side} could not reach {to}")


def _after_initial(rs_id: str, rng: random.Random) -> Campaign:
    """A campaign whose Initial Scenario ended and whose next CG Date began,
    both sides at its Initiative step."""
    rs = REGISTRY[rs_id]
    c = Campaign.create(
        _ctx("creator", rng),
        campaign_id=UUID(int=rng.getrandbits(128)),
        ruleset_id=rs_id,
        campaign_name=RULESETS[rs_id]["campaign"],
        title="t",
        start_date=RULESETS[rs_id]["start"],
        initial_cpp=dict.fromkeys(rs.sides, 20),
        token_hashes={},
        definition=copy.deepcopy(rs.sample_definition),
    )
    for side in c.sides:
        c.advance(_ctx(side, rng), side, "scenario")
    c.end_scenario(_ctx(REFEREE, rng), {"cvp": dict.fromkeys(c.sides, 0)})
    c.begin_cg_date(_ctx(REFEREE, rng), None)
    assert rs.initiative is not None
    assert rs.initiative.step is not None
    for side in c.sides:
        _reach(c, rng, side, rs.initiative.step)
    return c


@pytest.mark.parametrize(("rs_id", "cell", "first"), CASES)
def test_each_cell_generates_its_scenario_and_names_who_sets_up_first(
    rs_id: str, cell: Cell, first: str
) -> None:
    rng = random.Random(f"{rs_id}{cell}{first}")
    c = _after_initial(rs_id, rng)
    other = RULESETS[rs_id]["other"]
    chits = {"German": cell.german, other: cell.other}
    second = other if first == "German" else "German"
    c.choose_initiative(_ctx(first, rng), first, chits[first])
    seq = c.choose_initiative(_ctx(second, rng), second, chits[second])
    event = c.record(seq)
    assert event["type"] == "InitiativeDetermined"
    assert event["payload"]["scenario"] == cell.scenario
    if cell.setup_first == "dr":
        roll = event["payload"]["roll"]
        assert roll["side"] == RULESETS[rs_id]["roller"]
        (dr,) = roll["dice"]
        low = RULESETS[rs_id]["low"]
        expected = low if dr <= 3 else next(s for s in c.sides if s != low)
    else:
        assert "roll" not in event["payload"]
        expected = cell.setup_first
    assert event["payload"]["setup_first"] == expected
    date = c.cg_date
    assert c.initiatives[date]["setup_first"] == expected
    for viewer in (*c.sides, REFEREE):
        assert initiative_view(c, date, viewer)["setup_first"] == expected
    assert reph_view(c)["scenario"] == {"type": cell.scenario, "setup_first": expected}


@pytest.mark.parametrize(
    ("rs_id", "scenario", "first"),
    [(rs, c.scenario, c.setup_first) for rs, cells in (("kgp", KGP_CELLS), ("abtf", ABTF_CELLS))
     for c in cells if c.setup_first != "dr"],
)  # fmt: skip
def test_an_assault_recorded_without_its_side_reads_the_rules(
    rs_id: str, scenario: str, first: str | None
) -> None:
    """A release before issue 26 recorded ``setup_first: null`` for every type
    but a Dual Attack; the campaign reads the side the rule names."""
    c = _after_initial(rs_id, random.Random(rs_id + scenario))
    values = {"cg_date": c.cg_date, "side": "German", "chits": {}, "scenario": scenario}
    Initiative._on_determined(c, Applied(10_000, "InitiativeDetermined", {**values,
                                         "setup_first": None}))  # fmt: skip
    assert c.initiatives[c.cg_date]["setup_first"] == first


def test_a_german_assault_through_http(client: TestClient) -> None:
    """8.6233c through ``GET /reph`` and ``GET /initiative``: "GERMAN ASSAULT:
    ... The U.S. sets up first, and the German moves first"."""
    game = Game(client, {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 2}})
    game.to_date("19 PM", on_it=True)
    for side in ("US", "German"):
        game.advance(side, "8.623")
    created(game.post("US", "/initiative", {"chit": "idle"}))
    out = created(game.post("German", "/initiative", {"chit": "attack"}))
    assert (out["scenario"], out["setup_first"]) == ("german-assault", "US")
    for role in ("US", "German", "referee"):
        scenario = ok(game.get(role, "/reph"))["scenario"]
        assert scenario == {"type": "german-assault", "setup_first": "US"}
