"""KGP's own rules on top of its CPP roster (``cgledger.domain.rulesets.cpp``,
with KGP's rule numbers: 8.616 CPP Replenishment, 8.619 Purchasing
Reinforcement Groups): 8.622 Purchasing Reconnaissance, 8.618 German
Ammunition Shortage, the 8.617 Historical Weather, 8.605 Setup Areas, 8.6131
Vacated Setup Areas, the 8.6232 Attack Chit and 8.6234's scenario victory.
The engine calls them through ``cgledger.domain.rulesets.base.Rules``; nothing
here is known to it by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from pydantic import Field, StrictInt

from cgledger.domain import tables as tablebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, InvalidInput, RuleViolation
from cgledger.domain.requests import Body, Nonce
from cgledger.domain.rulesets.base import Action, Engine
from cgledger.domain.rulesets.cpp import roster as cppbook
from cgledger.domain.rulesets.cpp.bodies import (
    DeterminationCreate,
    ReplenishmentCreate,
    RGItem,
    RGPurchaseCreate,
)
from cgledger.domain.rulesets.cpp.roster import lines_of
from cgledger.domain.rulesets.cpp.rules import CppRules, CppScheme, ReadBase
from cgledger.domain.rulesets.kgp.purchasing import RULES as KGP_PURCHASES
from cgledger.domain.rulesets.kgp.record import HISTORICAL_WEATHER, RANDOM_WEATHER
from cgledger.domain.rulesets.kgp.setup_areas import setup_areas as kgp_setup_areas
from cgledger.domain.territory import ControlState, MapGroupData
from cgledger.domain.visibility import REFEREE

#: The request bodies of KGP's commands; those of the CPP roster's live in
#: ``cgledger.domain.rulesets.cpp.bodies`` and are named here too.
__all__ = [
    "RECON_2_CPP",
    "RECON_LAX",
    "DeterminationCreate",
    "KgpRules",
    "RGItem",
    "RGPurchaseCreate",
    "ReconCreate",
    "ReplenishmentCreate",
    "ShortageCreate",
]

REPLENISH = "8.616"
PURCHASE = "8.619"
RECON = "8.622"
#: 8.6131 VACATED SETUP AREA (its EXC: all U.S. units gone from a Map Group).
VACATED = "8.6131"
US = "US"
GERMAN = "German"
#: 8.622's drm ids on its table: "+5 Spent 2 CPP", "-1 ... Majority Squad Type ... is Lax".
RECON_2_CPP = "spent-2-cpp"
RECON_LAX = "lax"
SHORTAGE = "8.618"
#: 8.618's table: its band 1 is "≥ 12 ... the German OB suffers from Ammunition Shortage".
SHORTAGE_BAND = 1
SHORTAGE_DRM = "scenarios-after-20-am"

#: KGP's CPP roster: 8.616 "the CPP Base # (8.6161) minus a Secret DR", NA
#: before the Initial Scenario (8.6162); 8.619 purchases; 8.622 Recon.
KGP_SCHEME = CppScheme(
    replenish=REPLENISH,
    replenish_table=REPLENISH,
    replenish_summary="8.616: the CPP Base # (8.6161) minus a Secret DR of the side.",
    initial_na="8.6162",
    purchase=PURCHASE,
    purchases=KGP_PURCHASES,
    recon=RECON,
)


# ---------------------------------------------------------------- request bodies


class ShortageCreate(Body):
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side (the German)."
    )
    scenarios_after_20_am: StrictInt | None = Field(
        default=None,
        ge=0,
        le=100,
        description="8.618: '+1 DRM ... per CG scenario completed after 20 AM'. Computed by "
        "the ledger from the CG-Scenario Ends it recorded (those of the CG Dates from 20 AM on, "
        "or after it: the reading 'shortage-after-20-am', GET /v1/rulesets/kgp/readings); leave "
        "it out (a stated count is 422, the ledger's too).",
    )
    client_nonce: str | None = Nonce


class ReconCreate(Body):
    side: str | None = Field(default=None, max_length=40)
    cpp: StrictInt = Field(ge=1, le=2, description="8.622: 1 CPP, or 2 for the +5 drm")
    lax: bool = Field(default=False, description="8.622: -1 if the Majority Squad Type is Lax")
    secret: bool = True
    client_nonce: str | None = Nonce


class KgpRules(CppRules):
    """KGP's rules: its CPP roster (``CppRules`` with ``KGP_SCHEME``), 8.622
    Recon, 8.618 German Ammunition Shortage, which lasts for the rest of the
    CG once a Final DR ≥ 12 starts it, and 8.6234's scenario victory."""

    state_events = CppRules.state_events | {"AmmunitionShortageRolled"}
    state_keys = CppRules.state_keys | {"shortage"}

    def __init__(self, ruleset_id: str, base: ReadBase) -> None:
        # 8.6161's chart reads its pairs, CG III's "175-" and the 8.6162 EX's
        # 30 as the readings in force say (``kgp.cpp_base``, DESIGN §14).
        super().__init__(ruleset_id, lambda c, d, s: base(c, d, s, {}), KGP_SCHEME, read_base=base)
        # ``operation``: the Idempotency-Key fingerprint's names from before
        # rulesets were packages, so a retry across the upgrade still replays.
        recon = Action(
            "recon",
            RECON,
            f"{RECON}: spend 1 CPP (or 2 for +5 drm) and make the Recon dr.",
            ReconCreate,
            self._recon,
            operation="recon",
        )
        shortage = Action(
            "ammunition-shortage",
            SHORTAGE,
            "8.618: the German Ammunition Shortage DR, from 20 AM on; a Final DR ≥ 12 puts the "
            "German OB under Ammunition Shortage (A19.131) for the rest of the CG.",
            ShortageCreate,
            self._shortage,
            operation="ammunition-shortage",
        )
        self.actions = MappingProxyType(
            {**self.actions, recon.path: recon, shortage.path: shortage}
        )

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        state = super().initial_state(genesis, sides)
        #: 8.618: the CG Dates its DR was made on, and the shortage once it began.
        state["shortage"] = {"rolled": {}, "since": None}
        return state

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind != "AmmunitionShortageRolled":
            super().apply(state, kind, seq, values)
            return
        record = state["shortage"]
        record["rolled"][values["cg_date"]] = seq
        if values["shortage"]:
            record["since"] = {"cg_date": values["cg_date"], "seq": seq}

    def step_done(self, engine: Engine, side: str, step: str) -> bool:
        """8.618's DR is made "on each CG Date ... (if necessary)": done once made
        on this date, or once the shortage began."""
        if step == SHORTAGE:
            record = engine.rules.get("shortage", {})
            return record.get("since") is not None or engine.cg_date in record.get("rolled", {})
        return super().step_done(engine, side, step)

    def conditions(self, engine: Engine) -> dict[str, Any]:
        out: dict[str, Any] = {}
        chart = HISTORICAL_WEATHER.get(engine.cg_date)
        if chart is not None and RANDOM_WEATHER not in engine.options():
            weather, moon, clouds = chart
            out["weather"] = {
                "campaign": {
                    "value": weather,
                    "moon_phase": None if moon == "-" else moon,
                    "cloud_cover": None if clouds == "-" else clouds,
                    "cg_date": engine.cg_date,
                    "rule": "8.617",
                    "source": "KGP Historical Weather Chart",
                }
            }
        since = engine.rules.get("shortage", {}).get("since")
        if since is None:
            return out
        return {
            **out,
            "ammunition_shortage": {
                "side": "German",
                "rule": SHORTAGE,
                "since": since["cg_date"],
                "seq": since["seq"],
                "text": "The German OB suffers from Ammunition Shortage (A19.131) for the "
                "duration of the CG",
            },
        }

    def _shortage(self, engine: Engine, ctx: Ctx, body: ShortageCreate) -> int:
        """8.618: "Beginning on Dec 20 AM, and on each CG Date thereafter (if
        necessary), the German makes a DR. On a Final DR of ≥ 12 the German OB
        suffers from Ammunition Shortage (A19.131) for the duration of the CG."
        """
        side = engine.require_side(ctx, body.side)
        table = engine.table(SHORTAGE)
        engine.check_binding(ctx, table)
        if side not in table.sides:
            raise Forbidden(
                f"{SHORTAGE}: the {table.title} is made by the German side, not the {side} side",
                rule=SHORTAGE,
            )
        record = engine.rules["shortage"]
        since = record["since"]
        if since is not None:
            raise RuleViolation(
                f"{SHORTAGE}: the German OB suffers Ammunition Shortage since {since['cg_date']} "
                f"(event {since['seq']}) for the duration of the CG; no further DR is made",
                rule=SHORTAGE,
            )
        done = record["rolled"].get(engine.cg_date)
        if done is not None:
            raise RuleViolation(
                f"{SHORTAGE}: the DR for {engine.cg_date} was made already (event {done})",
                rule=SHORTAGE,
            )
        # Refusals first: the side passes the steps between (their empty
        # sealed records) only once nothing below can refuse.
        engine.check_step_order(side, SHORTAGE, ruling=ctx.actor == REFEREE)
        stated = body.scenarios_after_20_am
        drm = [] if stated is None else [tablebook.DrmRequest(SHORTAGE_DRM, count=stated)]
        # Counted by the ledger from the scenario ends it recorded; a stated
        # count is refused (422, naming 8.618; issue 26 item 3).
        facts = engine.facts(ctx.actor)  # read once for both
        drm = engine.with_counted_drms(ctx, table, drm, facts=facts)
        counted = engine.ledger_counts(ctx, table, facts=facts)  # recorded for cgledger verify
        engine.check_step_order(side, SHORTAGE, ruling=ctx.actor == REFEREE, ctx=ctx)
        pub, _, result = engine.roll_on(
            ctx, table, drm, {}, secret=False, client_nonce=body.client_nonce
        )
        shortage = result["outcome"]["band"] == SHORTAGE_BAND
        payload = {
            **engine.rule_payload(side, SHORTAGE),
            "rule": table.id,
            "table": tablebook.table_ref(table),
            "roll": pub,
        }
        values = {"inputs": {}, **result, "shortage": shortage, "counted": counted}
        return engine.append(ctx, "AmmunitionShortageRolled", payload, values, owner=None)

    def verify_result(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        if values.get("rule") == f"{self.ruleset_id}:{SHORTAGE}" and "shortage" in values:
            expected = values["outcome"]["band"] == SHORTAGE_BAND
            if values["shortage"] is not expected:
                return (
                    f"{SHORTAGE}: a Final DR of {values['final']} "
                    f"{'starts' if expected else 'does not start'} the Ammunition Shortage, but "
                    f"shortage {values['shortage']} is recorded"
                )
            return None
        return super().verify_result(created, values)

    def roll_rules(self) -> frozenset[str]:
        own = {f"{self.ruleset_id}:{RECON}", f"{self.ruleset_id}:{SHORTAGE}"}
        return super().roll_rules() | own

    # -------------------------------------------------------------- 8.622

    def _recon(self, engine: Engine, ctx: Ctx, body: ReconCreate) -> int:
        """8.622: spend 1 CPP (or 2, for +5 drm) and make the Recon dr."""
        side = engine.require_side(ctx, body.side)
        cost = body.cpp
        if cost not in (1, 2):
            raise InvalidInput(f"{RECON}: Recon costs 1 CPP, or 2 for a +5 drm", field="cpp")
        line = lines_of(engine, side)[-1]
        if line["initial"]:
            raise RuleViolation(
                f"{RECON}: Recon cannot be purchased when preparing to play an Initial Scenario",
                rule=RECON,
            )
        if line["recon_seq"] is not None:
            raise RuleViolation(
                f"{RECON}: {side} has already made its Recon dr on {line['cg_date']}", rule=RECON
            )
        # Refusals first: the side passes the steps between (their empty
        # sealed records) only once nothing below can refuse.
        engine.check_step_order(side, RECON, ruling=ctx.actor == REFEREE)
        available = cppbook.left(line)
        if cost > available:
            raise RuleViolation(
                f"{RECON}: Recon costs {cost} CPP but {side} has {available} CPP left "
                f"on {line['cg_date']}",
                rule=RECON,
            )
        # 8.622 is read off its table: "+5 Spent 2 CPP", "-1 ... Lax".
        table = engine.table(RECON)
        # Each says who decided it (issue 26 item 3): the CPP spent is the
        # ledger's record, the Majority Squad Type the roller's statement.
        requests = [tablebook.DrmRequest(RECON_2_CPP, by=tablebook.LEDGER)] if cost == 2 else []
        if body.lax:
            requests.append(tablebook.DrmRequest(RECON_LAX, by=tablebook.ROLLER))
        engine.check_step_order(side, RECON, ruling=ctx.actor == REFEREE, ctx=ctx)
        pub, sec, result = engine.roll_on(
            ctx, table, requests, {}, secret=body.secret, client_nonce=body.client_nonce
        )
        values = {"cpp": cost, "inputs": {}, **result}
        ref = tablebook.table_ref(table)
        payload = {**engine.rule_payload(side, RECON), "table": ref, "roll": pub}
        return engine.append(
            ctx,
            "ReconPurchased",
            payload,
            {**(sec or {}), **values},
            owner=side if body.secret else None,
        )

    def verify_other(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        """8.622: the CPP spent against the +5 drm."""
        del created
        if values.get("rule") != f"{self.ruleset_id}:{RECON}":
            return None
        plus_five = any(d["id"] == RECON_2_CPP for d in values["drm"])
        if plus_five != (values["cpp"] == 2):
            return (
                f"{RECON}: {values['cpp']} CPP spent, but the +5 drm is "
                f"{'applied' if plus_five else 'missing'}"
            )
        return None

    # -------------------------------------------------------------- territory and victory

    setup_area_step = "8.605"

    def setup_areas(
        self, data: MapGroupData, control: ControlState, sides: Sequence[str], cg_date: str = ""
    ) -> dict[str, Any]:
        return kgp_setup_areas(data, control, sides, cg_date)

    def control_rule(
        self, rule: str, data: MapGroupData, control: ControlState, by: str
    ) -> tuple[list[dict[str, Any]], bool]:
        """8.6131 EXC: "The German must be informed if all Retained, on-map U.S.
        units on a Map Group are Eliminated or successfully Escape/Shift to (a)
        Holding Box(es). In such a case the Germans immediately gain Control of
        all Strategic Locations on that Map Group, and may automatically
        include them within their Setup Area for the next CG scenario." The
        U.S. side informs (or the referee records it); every Strategic
        Location of the map group (each of its levels) becomes German, and the
        Setup Areas already determined take them in."""
        if rule != VACATED:
            return super().control_rule(rule, data, control, by)
        if by not in (US, REFEREE):
            raise RuleViolation(
                f"{VACATED}: the U.S. side informs the German that its units left map group "
                f"{data.id} (or the referee records it), not {by}",
                rule=VACATED,
            )
        locations = []
        for i, hx in enumerate(data.grid.ids):
            marked = any((hx, lv) in control.markers for lv in data.levels[i])
            if data.strategic[i] or marked:
                locations += [{"hex": hx, "level": lv, "side": GERMAN} for lv in data.levels[i]]
        return locations, True

    def chit_refused(
        self, side: str, chit: str, vacated: Mapping[str, int], map_groups: Sequence[str]
    ) -> str | None:
        """8.6232 footnote: "The Attack Chit cannot be selected by the German
        player if the U.S. player currently has no on-map Retained units
        (8.6131)": every map group of the CG was recorded by 8.6131 as left by
        all U.S. units since the last scenario."""
        if side != GERMAN or chit != "attack" or not map_groups:
            return None
        if all(group in vacated for group in map_groups):
            return (
                "8.6232: the German cannot select the Attack Chit while the U.S. has no on-map "
                f"Retained units (8.6131 recorded for {', '.join(map_groups)})"
            )
        return None

    def scenario_winner(
        self,
        scenario: str,
        start_lvp: dict[str, int],
        current_lvp: dict[str, int],
        territory: Sequence[tuple[MapGroupData, ControlState]] = (),
        definition: Mapping[str, Any] | None = None,
    ) -> tuple[str | None, str]:
        """8.6234 KGP CG-SCENARIO VICTORY CONDITIONS, on LVP.

        a) Dual Attack: "The Americans win if at CG-Scenario End their
        Current-LVP Total is > what it was at scenario start" (else the German).
        b) Assault: "The Assaulting side wins if at CG-Scenario End its
        Current-LVP Total is >= 20% (FRU, with a minimum increase of 1 LVP) more
        than it was at scenario start, and/" - the OCR cuts the rest of b), so
        a side that does not win by LVP is not declared the loser here: the
        winner is then ``None``, with the reason.
        """
        del territory, definition
        if scenario == "dual-attack":
            won = current_lvp["US"] > start_lvp["US"]
            return ("US" if won else "German"), "8.6234a"
        assaulter = {"us-assault": "US", "german-assault": "German"}.get(scenario)
        if assaulter is None:
            return None, f"8.6234: no victory conditions for a {scenario!r} scenario"
        start = start_lvp[assaulter]
        needed = start + max(1, -(-start // 5))  # 20%, FRU, at least 1 LVP
        if current_lvp[assaulter] >= needed:
            return assaulter, "8.6234b"
        return None, (
            f"8.6234b: {assaulter} did not win by LVP (needed {needed}); the rest of "
            "8.6234b is lost in the seed's OCR"
        )
