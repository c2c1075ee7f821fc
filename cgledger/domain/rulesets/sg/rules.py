"""SG's own rules: the VP and Purchase Points of its American player (2.9-2.92),
recorded at each CG-Scenario End, and its CG Roster of them.

2.91: "The amount of VP which the American has scored for each scenario played
is totaled to compute his current CG VP total. This number is subtracted from
the VP required to win the previous scenario to calculate the VP Differential."
2.92: "The American player adds the total of his CVP suffered in the CG thus far
to his VP Differential to determine how many Purchase Points he receives ...
Negative Purchase Points are ignored." 3.4: "The American player secretly
spends his Purchase Points ... on the American Reinforcement Table. He may
purchase as many of each group as he has Purchase Points available, but the
scenario maximum allowed for each group may not be exceeded. ... Unused Purchase
Points may be retained for future use." The table is the CG definition's
``rg_chart``; the groups bought and their 3.4/3.6/3.7 rolls are kept on the
record (``purchasing``), as the CPP rosters keep theirs.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

from cgledger.domain import purchases as purchasebook
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import Action, Engine, Rules
from cgledger.domain.rulesets.cpp import (
    DeterminationCreate,
    Purchasing,
    RGPurchaseCreate,
    record_view,
)
from cgledger.domain.rulesets.sg.purchasing import RULES as PURCHASES
from cgledger.domain.visibility import REFEREE

AMERICAN = "American"
GERMAN = "German"
#: What a Roster line of SG shows, in order.
COLUMNS = (
    "cg_date",
    "vp",
    "vp_total",
    "vp_required",
    "vp_differential",
    "cvp_suffered",
    "purchase_points",
    "purchase_points_available",
    "winner",
    "winner_rule",
    "cg_winner",
)
#: CG VICTORY CONDITIONS: "Provided the Germans have not amassed >= 105 CVP, the
#: Americans win if their VP total is >= 150 at any CG-Scenario end and/" (cut).
CG_VP = 150
CG_GERMAN_CVP = 105


def purchase_points(vp_required: int, vp_total: int, cvp_suffered: int) -> tuple[int, int]:
    """2.91-2.92: the VP Differential and the Purchase Points received (never < 0)."""
    differential = vp_required - vp_total
    return differential, max(0, differential + cvp_suffered)


def victory(
    vp_total: int, vp_required: int, cvp_suffered: int
) -> tuple[str | None, str, str | None]:
    """The CG scenario's winner and the CG's, as far as the seed's text goes.

    2.9: "If the VP total is >= the required CG scenario total and/" - cut; the
    reading taken is "and/or", so reaching the total suffices and falling short
    decides nothing. CG VICTORY CONDITIONS: the Americans win the CG when their
    VP total is >= 150 and the Germans have not amassed >= 105 CVP (the
    American's CVP suffered); the rest is cut."""
    if vp_total >= vp_required:
        winner, rule = AMERICAN, f"2.9: VP total {vp_total} >= {vp_required} required"
    else:
        winner, rule = (
            None,
            (
                f"2.9: VP total {vp_total} < {vp_required} required; the rest of 2.9 is lost "
                "in the seed's OCR"
            ),
        )
    cg = AMERICAN if vp_total >= CG_VP and cvp_suffered < CG_GERMAN_CVP else None
    return winner, rule, cg


class SgRules(Purchasing, Rules):
    has_roster = True
    has_rg_record = True
    state_events = frozenset({"RGPurchased", "RGDetermined"})
    state_keys = frozenset(
        {"cvp", "vp", "vp_required", "vp_total", "vp_differential", "cvp_suffered",
         "purchase_points", "winner", "winner_rule", "cg_winner", "rgs", "secret",
         "for_purchase", "item", "need", "value", "band", "result", "final", "subject",
         "owner", "rolls"}
    )  # fmt: skip
    scenario_end_fields = frozenset({"vp", "vp_required"})

    def __init__(self) -> None:
        self.ruleset_id = "sg"
        self.purchases = PURCHASES
        actions = (
            Action(
                "rg-purchases",
                "3.4",
                "3.4: the American buys groups from the American Reinforcement Table (the CG "
                "definition's rg_chart) with his Purchase Points, within each group's scenario "
                "maximum; secret unless ``secret`` is false.",
                RGPurchaseCreate,
                self._purchase,
                operation="rg-purchase",
            ),
            Action(
                "rg-determinations",
                "3.4",
                "3.4, 3.6, 3.7: the next roll a group bought needs (armor type dr, leader DR, "
                "M4 Model DR); ``for_purchase`` names the purchase.",
                DeterminationCreate,
                self.determine,
            ),
        )
        self.actions = MappingProxyType({a.path: a for a in actions})

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        return {
            "vp": {"lines": [], "vp_total": 0, "cvp_suffered": 0, "available": 0, "spent": 0},
            **self.initial_purchase_state(genesis, sides),
        }

    def step_done(self, engine: Engine, side: str, step: str) -> bool:
        """3.4, 3.6, 3.7: each roll a group bought needs is made in its step."""
        return not self.determinations_pending(engine, side, step)

    def _purchase(self, engine: Engine, ctx: Ctx, body: RGPurchaseCreate) -> int:
        """3.4: each group at its cost in Purchase Points, within its scenario
        maximum (and any CG maximum the definition sets), from the points
        available (2.92, "Unused Purchase Points may be retained")."""
        side = engine.require_side(ctx, body.side)
        if side != AMERICAN:
            raise RuleViolation(
                "3.4: only the American purchases reinforcements (3.5: the German rolls)",
                rule="3.4",
            )
        items = body.items()
        if not items and not body.secret:
            raise InvalidInput("name at least one group (or make the purchase secret)", field="rgs")
        rows = engine.rules.get("record", {}).get(side, [])
        rgs = self.priced(engine, side, items, rows, batch=body.rgs is not None)
        # Refusals first: the side passes the steps between (their empty
        # sealed records) only once nothing below can refuse.
        engine.check_step_order(side, "3.4", ruling=ctx.actor == REFEREE)
        self.check_limits(engine, side, rgs, rows)
        record = engine.rules["vp"]
        available = record["available"] - record.get("spent", 0)
        cost = sum(item["cpp"] for item in rgs)
        if cost > available:
            raise RuleViolation(
                f"3.4: these groups cost {cost} Purchase Points but the American has {available}",
                rule="3.4",
            )
        values = {"rgs": rgs, "secret": body.secret}
        payload = engine.rule_payload(side, "3.4")
        engine.check_step_order(side, "3.4", ruling=ctx.actor == REFEREE, ctx=ctx)
        return engine.append(
            ctx, "RGPurchased", payload, values, owner=side if body.secret else None
        )

    def rg_record(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        return {
            "rule": "3.4",
            "rows": record_view(
                self.purchases,
                side,
                engine.rules,
                self.chart(engine, side),
                visible,
                engine.readings,
            ),
            "fortifications": {"rule": None, "placed": []},
        }

    def verify_result(self, created: dict[str, Any], values: dict[str, Any]) -> str | None:
        del created
        if "for_purchase" in values and "need" in values:
            return purchasebook.check_determined(self.purchases, values)
        return None

    def scenario_end(self, engine: Engine, body: dict[str, Any]) -> dict[str, Any]:
        vp = body["vp"]
        if not isinstance(vp, dict) or set(vp) != {AMERICAN}:
            raise InvalidInput('2.91: vp is the American\'s VP scored: {"American": n}', field="vp")
        state = engine.rules.get("vp") or self.initial_state({}, [])["vp"]
        vp_total = state["vp_total"] + vp[AMERICAN]
        # The American's CVP suffered are the CVP the German earned (its losses).
        cvp_suffered = state["cvp_suffered"] + body["cvp"][GERMAN]
        differential, points = purchase_points(body["vp_required"], vp_total, cvp_suffered)
        winner, rule, cg_winner = victory(vp_total, body["vp_required"], cvp_suffered)
        stated = body.get("winner")
        if stated is not None and winner is not None and stated != winner:
            raise RuleViolation(
                f"2.9: the rules name {winner} the winner, not {stated}", rule="2.9"
            )
        if stated is not None and winner is None:
            winner, rule = stated, f"{rule}; the winner stated"
        return {
            "vp_total": vp_total,
            "vp_differential": differential,
            "cvp_suffered": cvp_suffered,
            "purchase_points": points,
            "winner": winner,
            "winner_rule": rule,
            "cg_winner": cg_winner,
        }

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind == "RGPurchased":
            state["vp"]["spent"] = state["vp"].get("spent", 0) + sum(
                item["cpp"] for item in values["rgs"]
            )
            state["vp"].setdefault("purchase_seqs", []).append(seq)
        if kind in ("RGPurchased", "RGDetermined"):
            state.setdefault("record", {}).setdefault(values["side"], [])
            self.apply_purchase(state, kind, seq, values)
            return
        if kind != "ScenarioEnded":
            return
        record = state["vp"]
        record["vp_total"] = values["vp_total"]
        record["cvp_suffered"] = values["cvp_suffered"]
        record["available"] += values["purchase_points"]
        record["lines"].append(
            {
                "cg_date": values["cg_date"],
                "seq": seq,
                "vp": values["vp"][AMERICAN],
                "vp_total": values["vp_total"],
                "vp_required": values["vp_required"],
                "vp_differential": values["vp_differential"],
                "cvp_suffered": values["cvp_suffered"],
                "purchase_points": values["purchase_points"],
                "purchase_points_available": record["available"],
                "winner": values.get("winner"),
                "winner_rule": values.get("winner_rule"),
                "cg_winner": values.get("cg_winner"),
            }
        )

    def roster(
        self, engine: Engine, side: str, visible: Callable[[int | None], bool]
    ) -> dict[str, Any]:
        """The American's VP and Purchase Points by CG-Scenario End (public: a
        scenario end holds nothing secret), and what 3.4 spent of them; the
        German keeps none (3.5 rolls)."""
        record = engine.rules.get("vp", {})
        lines = list(record.get("lines", [])) if side == AMERICAN else []
        out: dict[str, Any] = {"columns": list(COLUMNS), "lines": lines}
        if side == AMERICAN:
            # 3.4 "secretly spends": the points spent and left show once every
            # purchase is visible to the viewer.
            known = all(visible(seq) for seq in record.get("purchase_seqs", []))
            spent = record.get("spent", 0)
            out["purchase_points_spent"] = spent if known else None
            out["purchase_points_left"] = record.get("available", 0) - spent if known else None
            out["hidden"] = [] if known else ["purchase_points_spent", "purchase_points_left"]
        return out
