"""A fourth ruleset, defined here in tests/ and nowhere else, is registered and
played through the REST API: creation, its own command (a state event with a
Secret roll), a table roll, its Roster, the New CG Date handshake (after
CG-Scenario End) its rule refuses until both sides have acted, undo by
replay, time travel and an export that verifies. Nothing in the engine, the
API or the projections was changed for it (DESIGN §1: a new HASL system is one
new package)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any

import pytest
from conftest import Game, assert_problem, created, ok
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

from cgledger.domain.context import Ctx
from cgledger.domain.errors import RuleViolation
from cgledger.domain.requests import Body, Nonce
from cgledger.domain.rulesets import register, unregister
from cgledger.domain.rulesets.base import (
    Action,
    CampaignDef,
    Engine,
    RePhStep,
    Rules,
    Ruleset,
    period_date_normalizer,
)
from cgledger.domain.sealed import kind_of
from cgledger.domain.tables import Table, ge, le, registry
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.shared_app

RED, BLUE = "Red", "Blue"


class SupplyCreate(Body):
    side: str | None = Field(default=None, max_length=40)
    secret: bool = True
    client_nonce: str | None = Nonce


class Definition(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    sample: bool = False
    depots: dict[str, int] = Field(default_factory=dict)


SUPPLY = Table(
    id="skirmish:1.1",
    rule="1.1",
    title="Supply",
    dice=1,
    bands=(le(3, "Short supply"), ge(4, "Full supply")),
    secret=True,
    endpoint="/supplies",
)
MORALE = Table(
    id="skirmish:1.3",
    rule="1.3",
    title="Morale",
    dice=2,
    bands=(le(6, "Steady"), ge(7, "Shaken")),
)


class SkirmishRules(Rules):
    """1.1: each side draws supplies once per CG Date (a Secret dr) before the
    next CG Date may begin; its Roster shows the supplies drawn so far."""

    state_events = frozenset({"SuppliesDrawn"})
    state_keys = frozenset({"side", "step", "supply"})
    has_roster = True

    def __init__(self) -> None:
        self.actions = MappingProxyType(
            {"supplies": Action("supplies", "1.1", "1.1: draw supplies.", SupplyCreate, self._draw)}
        )

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        return {"supply": dict.fromkeys(sides, 0), "drawn": []}

    def on_new_date(self, state: dict[str, Any], cg_date: str) -> None:
        state["drawn"] = []

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind != "SuppliesDrawn":
            return  # the engine's ScenarioEnded comes here too (Rules.scenario_end)
        state["supply"][values["side"]] += values["supply"]
        state["drawn"].append({"side": values["side"], "seq": seq})

    def before_new_date(self, engine: Engine, sides: list[str]) -> None:
        drawn = {d["side"] for d in engine.rules["drawn"]}
        for side in sides:
            if side not in drawn:
                raise RuleViolation(f"1.1: {side} has not drawn supplies", rule="1.1")

    def roster(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        seqs = [d["seq"] for d in engine.rules["drawn"] if d["side"] == side]
        known = all(visible(s) for s in seqs)
        return {"columns": ["supply"], "supply": engine.rules["supply"][side] if known else None}

    def _draw(self, engine: Engine, ctx: Ctx, body: SupplyCreate) -> int:
        side = engine.require_side(ctx, body.side)
        if any(d["side"] == side for d in engine.rules["drawn"]):
            raise RuleViolation(f"1.1: {side} has drawn supplies today", rule="1.1")
        engine.check_step_order(side, "1.1")
        pub, sec, result = engine.roll_on(
            ctx, SUPPLY, [], {}, secret=body.secret, client_nonce=body.client_nonce
        )
        payload = {**engine.rule_payload(side, "1.1"), "roll": pub}
        values = {**(sec or {}), **result, "inputs": {}, "supply": result["final"]}
        return engine.append(
            ctx, "SuppliesDrawn", payload, values, owner=side if body.secret else None
        )


SKIRMISH = Ruleset(
    id="skirmish",
    title="A test-only fourth ruleset",
    sides=(RED, BLUE),
    campaigns=MappingProxyType(
        {"CG A": CampaignDef("CG A", "0.1", ("1 AM", "1 PM", "2 AM"), initial_date="1 AM")}
    ),
    reph_steps=(
        RePhStep("1.1", "Supply", markers=("*",), action="supplies"),
        RePhStep("1.2", "New CG Date", joint=True),
        RePhStep("1.3", "Morale"),
    ),
    normalize_date=period_date_normalizer({"am": "AM", "pm": "PM"}),
    new_date_step="1.2",
    sequence_rule="1.0",
    definition=Definition,
    sample_definition=MappingProxyType({"sample": True, "depots": {RED: 1}}),
    rules=SkirmishRules(),
    tables=registry(SUPPLY, MORALE),
)


@pytest.fixture
def skirmish(client: TestClient) -> Game:
    return Game(client, {"ruleset": "skirmish", "campaign": "CG A", "title": "four"})


@pytest.fixture(autouse=True)
def _registered() -> Iterator[None]:
    register(SKIRMISH)
    try:
        yield
    finally:
        unregister(SKIRMISH.id)


def test_a_fourth_ruleset_is_listed_with_its_tables(client: TestClient) -> None:
    listed = {r["id"]: r for r in ok(client.get("/v1/rulesets"))}
    assert listed["skirmish"]["sides"] == [RED, BLUE]
    tables = ok(client.get("/v1/rulesets/skirmish/tables"))
    assert [t["id"] for t in tables] == ["skirmish:1.1", "skirmish:1.3"]


def test_a_fourth_ruleset_plays_through_the_api(skirmish: Game) -> None:
    g = skirmish
    assert set(g.tokens) == {RED, BLUE, "referee"}
    campaign = ok(g.get(RED))
    assert (campaign["ruleset"], campaign["cg_date"]) == ("skirmish", "1 AM")

    # A new CG Date begins only after CG-Scenario End: the Initial Scenario is played
    # first, and the RePh that follows it (1.1 on) is where the sides act.
    for role in (RED, "referee"):
        refused = assert_problem(g.post(role, "/cg-dates", {}), 409)
        assert refused["detail"].startswith("1.2:"), refused
    g.end_scenario()
    assert ok(g.get(RED, "/reph"))["current"] == {RED: "1.1", BLUE: "1.1"}

    # Its own command: a Secret dr, its result kept as the ruleset's state.
    drawn = created(g.post(RED, "/supplies", {}))
    supply = drawn["roll"]["dice"][0]
    # A secret act of its own is sealed like any (DESIGN §2a); Red reads its act.
    assert (drawn["event"]["type"], kind_of(drawn["event"])) == ("RecordSealed", "SuppliesDrawn")
    stub = ok(g.get(BLUE, "/events"))["items"][drawn["seq"] - 1]
    assert (stub["seq"], stub["type"], stub["secret"]) == (drawn["seq"], "RecordSealed", None)
    assert ok(g.get(RED, "/roster"))["supply"] == supply
    # The opponent sees a stub, and a null in the Roster, until the reveal.
    assert ok(g.get(BLUE, "/roster?side=Red"))["supply"] is None
    assert ok(g.get(BLUE, f"/rolls/{drawn['roll']['index']}"))["dice"] is None
    # Its own rule, named by its own rule number.
    assert assert_problem(g.post(RED, "/supplies", {}), 409)["detail"].startswith("1.1:")
    assert_problem(g.post(BLUE, "/supplies", {"side": RED}), 403)
    # A table roll of its own; its command's table is rolled only by its command.
    morale = created(g.post(BLUE, "/tables/skirmish:1.3/rolls", {}))
    assert morale["outcome"]["text"] in ("Steady", "Shaken")
    assert_problem(g.post(BLUE, "/tables/skirmish:1.1/rolls", {}), 409)
    # Another ruleset's command is not there.
    assert_problem(g.post(RED, "/rg-purchases", {"rg": "I2", "cpp": 1}), 404)

    # New CG Date: its before_new_date rule holds the date until Blue has drawn.
    created(g.post(RED, "/cg-dates", {}))
    assert assert_problem(g.post(BLUE, "/cg-dates", {}), 409)["detail"].startswith("1.1:")
    blue = created(g.post(BLUE, "/supplies", {"secret": False}))
    before_date = blue["seq"]
    created(g.post(BLUE, "/cg-dates", {}))
    assert ok(g.get(RED))["cg_date"] == "1 PM"
    assert ok(g.get(BLUE, "/roster"))["supply"] == blue["roll"]["dice"][0]

    # Undo by replay: the referee rewinds to before Blue's draw.
    undo = created(g.post("referee", "/undo-requests", {"to_seq": before_date - 1, "reason": "x"}))
    assert undo["status"] == "applied"
    assert ok(g.get(RED))["cg_date"] == "1 AM"
    assert ok(g.get(BLUE, "/roster"))["supply"] == 0
    # Time travel reads the state as it was then.
    assert ok(g.get(BLUE, f"/roster?at={before_date}"))["supply"] == blue["roll"]["dice"][0]

    # The export of every role verifies offline.
    for role in (RED, BLUE, "referee"):
        report = verify_bytes(g.get(role, "/export").content)
        assert report.events == g.version()
