"""KGP SSR CG14 GERMAN FANATICISM (seed ``002_…``), word for word:

    "For two CG scenarios of each CG [EXC: once during CG II], the German may
    declare that all of his Personnel are Fanatic for the entire scenario
    (including vs Bombardment). This must be declared immediately upon the
    conclusion of all on-map setup."

``POST /v1/campaigns/{id}/fanaticism`` records the German's declaration
(``FanaticismDeclared``, public: it is declared). The ledger counts the
declarations of the CG and refuses one beyond its limit (:data:`LIMITS`, 409
naming CG14), a second one for the same CG scenario, one by the U.S. (403),
and one made before all on-map setup is concluded or after the scenario
ended (409): each side has completed 8.624 Unit Setup (its current step is
8.625 Scenario Commencement). Once both have passed 8.625 the CG scenario is
in play and a side's declaration is too late (409; the referee may rule
one), but for an Initial Scenario, which has no 8.624: its setup is the
scenario's, so it is declared while the scenario is in play. The declaration lasts
for the scenario: it is shown under the campaign's ``conditions`` until the
scenario ends.

The limit is data, not a reading: the text is whole and says it plainly
(two per CG; once in CG II).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from pydantic import Field

from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, RuleViolation
from cgledger.domain.requests import Body
from cgledger.domain.rulesets.base import SCENARIO, Action, Engine
from cgledger.domain.rulesets.cpp.rules import ReadBase
from cgledger.domain.rulesets.kgp.rules import KgpRules
from cgledger.domain.visibility import REFEREE

RULE = "CG14"
GERMAN = "German"
#: CG14: "For two CG scenarios of each CG [EXC: once during CG II]".
LIMITS: Mapping[str, int] = MappingProxyType({"CG I": 2, "CG II": 1, "CG III": 2})
#: CG14's "two CG scenarios of each CG", for a CG the EXC does not name.
LIMIT = 2
#: 8.624 Unit Setup, after which the declaration is made (8.625 Scenario Commencement).
SETUP = "8.624"
COMMENCEMENT = "8.625"
#: The event that records a declaration.
DECLARED = "FanaticismDeclared"


class FanaticismCreate(Body):
    side: str | None = Field(
        default=None,
        max_length=40,
        description="Defaults to the caller's side (the German; the referee names it).",
    )


def limit_of(campaign: str) -> int:
    """CG14's number of CG scenarios with Fanaticism in ``campaign``."""
    return LIMITS.get(campaign, LIMIT)


def declared(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The declarations of the CG so far: ``{"cg_date", "seq"}`` each."""
    return list(state.get("fanaticism") or ())


class FanaticismRules(KgpRules):
    """KGP's rules with SSR CG14's German Fanaticism."""

    state_events = KgpRules.state_events | {DECLARED}

    def __init__(self, ruleset_id: str, base: ReadBase) -> None:
        super().__init__(ruleset_id, base)
        declare = Action(
            "fanaticism",
            RULE,
            "CG14: the German declares all of his Personnel Fanatic for the entire CG scenario "
            "(including vs Bombardment), immediately upon the conclusion of all on-map setup; "
            "for two CG scenarios of each CG, once during CG II.",
            FanaticismCreate,
            self._declare,
        )
        self.actions = MappingProxyType({**self.actions, declare.path: declare})

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        state = super().initial_state(genesis, sides)
        state["fanaticism"] = []
        return state

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind != DECLARED:
            super().apply(state, kind, seq, values)
            return
        state.setdefault("fanaticism", []).append({"cg_date": values["cg_date"], "seq": seq})

    def conditions(self, engine: Engine) -> dict[str, Any]:
        """A declaration lasts "for the entire scenario": shown from the
        declaration to the scenario's end (its CG Date's RePh, 8.601, follows)."""
        out = super().conditions(engine)
        made = declared(engine.rules)
        now = [d for d in made if d["cg_date"] == engine.cg_date]
        if not now or engine.current_step(GERMAN) not in (COMMENCEMENT, SCENARIO):
            return out
        return {
            **out,
            "fanaticism": {
                GERMAN: {
                    "value": "all German Personnel are Fanatic (including vs Bombardment)",
                    "cg_date": now[0]["cg_date"],
                    "seq": now[0]["seq"],
                    "rule": RULE,
                    "declared": len(made),
                    "limit": limit_of(engine.campaign_name),
                }
            },
        }

    def _declare(self, engine: Engine, ctx: Ctx, body: FanaticismCreate) -> int:
        side = engine.require_side(ctx, body.side)
        if side != GERMAN:
            raise Forbidden(f"{RULE}: the German declares Fanaticism, not the {side}", rule=RULE)
        made = declared(engine.rules)
        today = [d for d in made if d["cg_date"] == engine.cg_date]
        if today:
            raise RuleViolation(
                f"{RULE}: the German declared Fanaticism for the {engine.cg_date} CG scenario "
                f"already (event {today[0]['seq']})",
                rule=RULE,
            )
        limit = limit_of(engine.campaign_name)
        if len(made) >= limit:
            dates = ", ".join(d["cg_date"] for d in made)
            times = "once" if limit == 1 else f"for {limit} CG scenarios"
            raise RuleViolation(
                f"{RULE}: the German may declare Fanaticism {times} of {engine.campaign_name}; "
                f"declared on {dates}",
                rule=RULE,
            )
        waiting = [
            s for s in engine.sides if engine.current_step(s) not in (COMMENCEMENT, SCENARIO)
        ]
        if waiting:
            where = ", ".join(f"{s} at {engine.current_step(s)}" for s in waiting)
            raise RuleViolation(
                f"{RULE}: Fanaticism is declared immediately upon the conclusion of all on-map "
                f"setup ({SETUP} completed by each side); {where} on {engine.cg_date}",
                rule=RULE,
            )
        in_play = all(engine.current_step(s) == SCENARIO for s in engine.sides)
        if in_play and ctx.actor != REFEREE and not engine.is_initial_date():
            # "immediately upon the conclusion of all on-map setup": at 8.625,
            # not once play began (the referee may rule a late one).
            raise RuleViolation(
                f"{RULE}: Fanaticism is declared immediately upon the conclusion of all on-map "
                f"setup, at {COMMENCEMENT}; the {engine.cg_date} CG scenario is in play",
                rule=RULE,
            )
        payload = {"side": side, "cg_date": engine.cg_date, "rule": f"{engine.ruleset_id}:{RULE}"}
        return engine.append(ctx, DECLARED, payload, {}, owner=None)
