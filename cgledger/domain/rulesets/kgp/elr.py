"""KGP SSR CG4 ELR/MASSACRE (seed ``002_…``), word for word:

    "Each side's printed ELR given in the Initial Scenario (8.51-.53) of each
    CG is also treated as that side's printed ELR for all subsequent
    scenarios of that CG [EXC: for non-SS German ELR see SSR KGP11; if a
    Massacre (A20.4) occurs during any CG scenario/RePh, all effects listed in
    A20.3-4 are applicable for the remainder of that CG; the Scenario
    Defender's ELR at night is one < it would be in a daytime scenario]"

with SSR CG5: "The side(s) selecting the Attack chit in a night Assault
scenario (8.6233) is considered the Scenario Attacker ...; a side selecting
the Idle chit is the Scenario Defender", and SSR KGP11: "4-4-7/2-3-7 MMC, and
each MMC subsequently created from such, are not SS and have a "printed" ELR
of "3"".

What the ledger keeps of it:

* **The ELR**: 8.51-.53 (the Initial Scenarios) are not in the seeds, so each
  side's printed ELR is the CG definition's optional ``elr`` (``{side: ELR}``).
  Where it gives one, the campaign's ``conditions`` show, for the CG scenario
  of the current CG Date, each side's ELR in force (:func:`elr_of`): the
  printed one, one less for the Scenario Defender at night (a Night CG Date,
  "19 N"; the defender by the Initiative chits recorded for the date, CG5).
  A Dual Attack (both chose Attack), an Idle date (no scenario), an Initial
  Scenario (its own SSR, not in the seeds) and a date whose Initiative is not
  determined yet name no Scenario Defender: both ELR are shown unchanged, and
  ``scenario_defender`` is ``null`` with the reason. The German's non-SS MMC
  (KGP11) have their own printed ELR 3, shown beside it and lowered the same
  way; which units are non-SS is the players' (the ledger tracks no units).
* **A Massacre**: ``POST /massacres`` (``campaign.massacre``, by agreement,
  DESIGN §13) records which side massacred; from then on the ``conditions``
  show it for the remainder of the CG. A20.3-4 are not in the seeds: what
  they make apply is the players' (the ELR shown does not apply it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgledger.domain.rulesets.base import Engine
from cgledger.domain.rulesets.kgp.fanaticism import FanaticismRules
from cgledger.domain.rulesets.sequence import IDLE

RULE = "CG4"
GERMAN = "German"
#: The event that records a Massacre (``campaign.massacre``).
RECORDED = "MassacreRecorded"
#: SSR KGP11: non-SS German MMC "have a "printed" ELR of "3"".
NON_SS_ELR = 3
NON_SS_RULE = "KGP11"
#: CG4: "the Scenario Defender's ELR at night is one < it would be in a daytime scenario".
NIGHT_CHANGE = -1
#: CG4's words for what a Massacre makes last.
MASSACRE_EFFECT = "all effects listed in A20.3-4 are applicable for the remainder of that CG"


def is_night(cg_date: str) -> bool:
    """A Night CG Date ("19 N"), as the counted DRMs tell it (``counting.period``)."""
    return cg_date.endswith(" N")


def scenario_defender(scenario: str | None, chits: Mapping[str, str]) -> tuple[str | None, str]:
    """The Scenario Defender of the CG scenario (CG5: in a night Assault
    scenario, "a side selecting the Idle chit"), and where the rules name
    none (``None``), why."""
    if scenario is None:
        return None, "8.6232: the Initiative for the CG Date is not determined yet"
    if scenario == "initial":
        return None, "8.51-.53: the Initial Scenario names its own sides (not in the seeds)"
    if scenario == IDLE:
        return None, "8.6232 note 2: no scenario is generated for an Idle CG Date"
    if scenario.endswith("-assault"):
        idle = [side for side, chit in chits.items() if chit == "idle"]
        if len(idle) == 1:
            return idle[0], "CG5: the side selecting the Idle chit is the Scenario Defender"
    return None, (
        "CG5: the Scenario Defender is named for a night Assault scenario (8.6233) only; "
        f"a {scenario} scenario names none, so the printed ELR is shown unchanged"
    )


def elr_of(
    printed: Mapping[str, int],
    sides: list[str],
    cg_date: str,
    scenario: str | None,
    chits: Mapping[str, str],
) -> dict[str, dict[str, Any]]:
    """Each side's ELR in force for the CG scenario of ``cg_date`` (CG4):
    ``printed`` (the definition's, ``None`` where it gives none), one less
    for the Scenario Defender at night; the German's non-SS ELR (KGP11)
    beside it."""
    night = is_night(cg_date)
    defender, why = scenario_defender(scenario, chits) if night else (None, "")
    out: dict[str, dict[str, Any]] = {}
    for side in sides:
        change = NIGHT_CHANGE if night and side == defender else 0
        value = printed.get(side)
        entry: dict[str, Any] = {
            "value": None if value is None else max(0, value + change),
            "printed": value,
            "cg_date": cg_date,
            "rule": RULE,
            "source": "definition",
            "night": night,
        }
        if night:
            entry["scenario_defender"] = None if defender is None else side == defender
            entry["note"] = (
                why
                if defender is None
                else (
                    f"{why}; CG4: the Scenario Defender's ELR at night is one < it would be in a "
                    "daytime scenario"
                )
            )
        if change:
            entry["change"] = change
        if side == GERMAN:
            entry["non_ss"] = {
                "value": NON_SS_ELR + change,
                "printed": NON_SS_ELR,
                "rule": NON_SS_RULE,
                "text": "4-4-7/2-3-7 MMC, and each MMC subsequently created from such, are "
                'not SS and have a "printed" ELR of "3"',
            }
        out[side] = entry
    return out


def massacres(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Massacres recorded in the CG so far, oldest first."""
    return list(state.get("massacres") or ())


class ElrRules(FanaticismRules):
    """KGP's rules with SSR CG4's ELR and Massacre."""

    massacre_rule = RULE
    #: What ``apply`` reads of a ``MassacreRecorded`` besides the engine's keys.
    state_keys = FanaticismRules.state_keys | {"proposal", "approved_by"}

    def initial_state(self, genesis: dict[str, Any], sides: list[str]) -> dict[str, Any]:
        state = super().initial_state(genesis, sides)
        state["massacres"] = []
        return state

    def apply(self, state: dict[str, Any], kind: str, seq: int, values: dict[str, Any]) -> None:
        if kind != RECORDED:
            super().apply(state, kind, seq, values)
            return
        state.setdefault("massacres", []).append(
            {
                "side": values["side"],
                "cg_date": values["cg_date"],
                "seq": seq,
                "by": values["by"],
                "proposal": values.get("proposal"),
                "approved_by": values.get("approved_by"),
            }
        )

    def massacre_refused(self, engine: Engine, side: str) -> str | None:
        """One Massacre by a side is enough: its effects last for the CG."""
        for made in massacres(engine.rules):
            if made["side"] == side:
                return (
                    f"{RULE}: a Massacre by the {side} is recorded already (event "
                    f"{made['seq']}, {made['cg_date']}); {MASSACRE_EFFECT}"
                )
        return None

    def conditions(self, engine: Engine) -> dict[str, Any]:
        out = super().conditions(engine)
        made = massacres(engine.rules)
        if made:
            out["massacre"] = {
                m["side"]: {
                    "value": f"A20.3-4 apply: a Massacre (A20.4) by the {m['side']} occurred; "
                    f"{MASSACRE_EFFECT}",
                    "cg_date": m["cg_date"],
                    "seq": m["seq"],
                    "rule": RULE,
                    "by": m["by"],
                    "proposal": m["proposal"],
                }
                for m in made
            }
        printed = engine.definition_doc().get("elr") or {}
        if printed:
            facts = engine.facts(engine.sides[0])
            today = facts.dates[-1] if facts.dates else None
            scenario = today.scenario if today is not None else None
            chits = today.chits if today is not None else {}
            out["elr"] = elr_of(printed, engine.sides, engine.cg_date, scenario, chits)
        return out
