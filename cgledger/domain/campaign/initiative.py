"""Initiative Determination (8.623, 9.6213; DESIGN §8): each side's
chit, secret until both are chosen (the agreement protocol's joint form),
the scenario the matrix generates, the side that sets up first (by the
scenario type, or a Dual Attack's setup dr) and, where the ruleset's Idle
date calculates LVP totals (``Initiative.idle_lvp_rule``), its LVP row.

Slice: ``initiatives`` (by CG Date: the seq of each side's chit, the chits,
the scenario) and ``chits_used`` (each side's chits of the CG by kind).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cgledger.domain import dice
from cgledger.domain import tables as tablebook
from cgledger.domain.campaign.core import Applied, reads
from cgledger.domain.campaign.scenario_end import ScenarioEnd
from cgledger.domain.campaign.secrets import Secrets
from cgledger.domain.campaign.tables import Tables
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import CHITS, IDLE
from cgledger.domain.rulesets.sequence import Initiative as InitiativeRule


class Initiative(Tables, Secrets, ScenarioEnd):
    def choose_initiative(
        self,
        ctx: Ctx,
        side: str | None,
        chit: str,
    ) -> int:
        """Initiative Determination (8.623, 9.6213; DESIGN §8): each side's chit
        is secret until both are chosen (8.6232 "secretly places it ... then
        revealed simultaneously"). The first chit is an event whose secret part
        only its owner sees; the hash chain commits to it, so it cannot change.
        The second chit reveals the first (``SecretRevealed``) and records both
        with the scenario the matrix generates, and for a Dual Attack the setup
        dr (8.6233a, 9.62133a), in one ``InitiativeDetermined`` event. The CG
        definition limits each side's chits: ``attack_chits`` (8.6231),
        ``idle_chits`` (9.62131)."""
        rs = self.ruleset
        ini = rs.initiative
        if ini is None:
            raise RuleViolation(
                f"{rs.sequence_rule}: {rs.title} has no Initiative Determination step",
                rule=rs.sequence_rule,
            )
        side = self.require_side(ctx, side)
        if chit not in CHITS:
            raise InvalidInput(f"a chit is {' or '.join(CHITS)}, not {chit!r}", field="chit")
        date = self.cg_date
        if self.is_initial_date():
            raise RuleViolation(
                f"{ini.rule}: no Initiative is determined for the Initial Scenario ({date}); "
                f"only the {rs.sequence_rule} '†' steps come before it",
                rule=ini.rule,
            )
        entry = self.initiatives.get(date)
        chosen: dict[str, int] = {} if entry is None else entry["chosen"]
        waiting = self.joint(
            side,
            chosen,
            refuse=f"{ini.rule}: {side} has chosen its Initiative chit for {date} already",
            rule=ini.rule,
        )
        step = ini.step or ini.rule
        if ini.step is not None:
            self.check_step_order(side, ini.step)  # refuses; appends nothing
        groups = [g["id"] for g in self.definition_doc().get("map_groups") or ()]
        refused = rs.rules.chit_refused(side, chit, self.vacated, groups)
        if refused is not None:
            raise RuleViolation(refused, rule=refused.split(":")[0])
        limit = (self.definition_doc().get(f"{chit}_chits") or {}).get(side)
        used = self.chits_used.get(side, {}).get(chit, 0)
        if limit is not None and used >= limit:
            raise RuleViolation(
                f"{ini.limit_rule}: {side} has selected {used} {chit.capitalize()} Chit(s) in "
                f"this CG, the most its CG definition allows ({limit})",
                rule=ini.limit_rule,
            )
        if ini.step is not None:
            # Every refusal is behind us: the side passes the steps between
            # (the empty sealed records of the secret ones) only now, so a
            # refused chit appends nothing.
            self.check_step_order(side, ini.step, ctx=ctx)
        matrix_rule = f"{rs.id}:{ini.rule}"
        payload = {**self.rule_payload(side, step), "rule": matrix_rule, "matrix": matrix_rule}
        if waiting:
            return self.append(ctx, "InitiativeChosen", payload, {"chit": chit}, owner=side)
        assert entry is not None
        (other,) = (s for s in self.sides if s != side)
        first = chosen[other]
        # Revealed by the rule, not by its owner: both chits are now known
        # (unless its owner showed it already, or an undone determination did).
        if self.revealed_by(first) is None:
            self._emit(ctx, "SecretRevealed", self.reveal_payload(ctx, self.record(first)), None)
        chits = {other: entry["chits"][other], side: chit}
        pair = (chits[self.sides[0]], chits[self.sides[1]])
        scenario = ini.scenario(pair)
        values = self._scenario_values(ini, chits, scenario)
        if scenario == ini.dual_attack and ini.dual_attack_table is not None:
            assert ini.dual_attack_roller is not None
            table = self.table(ini.dual_attack_table)
            # The dr is the roller's the rule names (8.6233a, 9.62133a),
            # whichever side chose second; the bookkeeping events stay the caller's.
            self._define_table(ctx, table)
            if self.committed - (self.roll_count + 1) < dice.LOW_WATER:
                self._publish_batch(ctx)
            roller = replace(ctx, actor=ini.dual_attack_roller)
            pub, _, result = self.roll_on(roller, table, [], {}, secret=False, client_nonce=None)
            # The event names the table it read, as every roll does (``cgledger verify``).
            ref = tablebook.table_ref(table)
            payload = {**payload, "rule": table.id, "table": ref, "roll": pub}
            values = {
                **values,
                "inputs": {},
                **result,
                "setup_first": ini.setup_first[result["outcome"]["band"]],
            }
        return self.append(ctx, "InitiativeDetermined", payload, values, owner=None)

    def _scenario_values(
        self, ini: InitiativeRule, chits: dict[str, str], scenario: str
    ) -> dict[str, Any]:
        """What the matrix's result records: the chits, the scenario type, the
        side that sets up first where the type names it (8.6233c "GERMAN
        ASSAULT: ... The U.S. sets up first"; d; 9.62133b/c; a Dual Attack's
        comes from its dr) and, on an Idle date whose rule calculates the
        totals, the LVP row (8.6232 note 2: "each side calculates its
        Current-LVP and CG-LVP Totals and records them (in the current CG
        Date's line)")."""
        values: dict[str, Any] = {
            "chits": chits,
            "scenario": scenario,
            "setup_first": ini.setup_first_by_type.get(scenario),
        }
        if scenario == IDLE and ini.idle_lvp_rule is not None:
            values["lvp"] = self.idle_lvp()
        return values

    # ------------------------------------------------------------------ apply

    def _entry(self, cg_date: str) -> dict[str, Any]:
        return self.initiatives.setdefault(
            cg_date,
            {"chosen": {}, "chits": {}, "determined": None, "scenario": None, "setup_first": None},
        )

    @reads("cg_date", "side", "chit")
    def _on_chosen(self, e: Applied) -> None:
        v = e.values
        entry = self._entry(v["cg_date"])
        entry["chosen"][v["side"]] = e.seq
        entry["chits"][v["side"]] = v["chit"]

    @reads("cg_date", "side", "chits", "scenario", "setup_first")
    def _on_determined(self, e: Applied) -> None:
        v = e.values
        entry = self._entry(v["cg_date"])
        entry["chosen"][v["side"]] = e.seq
        entry["chits"] = dict(v["chits"])
        entry["determined"] = e.seq
        entry["scenario"] = v["scenario"]
        # An Assault recorded before the ledger named its side (8.6233c/d,
        # 9.62133b/c: the type decides, no dr) reads the side the rule names.
        ini = self.ruleset.initiative
        named = None if ini is None else ini.setup_first_by_type.get(v["scenario"])
        entry["setup_first"] = v["setup_first"] if v["setup_first"] is not None else named
        for side, chit in v["chits"].items():
            used = self.chits_used.setdefault(side, {})
            used[chit] = used.get(chit, 0) + 1
