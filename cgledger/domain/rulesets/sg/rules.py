"""SG's own rules: the VP and Purchase Points of its American player (2.9-2.92),
recorded at each CG-Scenario End, and its CG Roster of them.

2.91: "The amount of VP which the American has scored for each scenario played
is totaled to compute his current CG VP total. This number is subtracted from
the VP required to win the previous scenario to calculate the VP Differential."
2.92: "The American player adds the total of his CVP suffered in the CG thus far
to his VP Differential to determine how many Purchase Points he receives ...
Negative Purchase Points are ignored." 3.4: "Unused Purchase Points may be
retained for future use" (their spending on the American Reinforcement Table is
not built yet: the table is not in the seed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import Engine, Rules

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


class SgRules(Rules):
    has_roster = True
    state_keys = frozenset(
        {"cvp", "vp", "vp_required", "vp_total", "vp_differential", "cvp_suffered",
         "purchase_points", "winner", "winner_rule", "cg_winner"}
    )  # fmt: skip
    scenario_end_fields = frozenset({"vp", "vp_required"})

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        del genesis, sides
        return {"vp": {"lines": [], "vp_total": 0, "cvp_suffered": 0, "available": 0}}

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
        scenario end holds nothing secret); the German keeps none (3.5 rolls)."""
        del visible
        lines = list(engine.rules.get("vp", {}).get("lines", [])) if side == AMERICAN else []
        return {"columns": list(COLUMNS), "lines": lines}
