"""The RePh sequence (DESIGN §8; 8.6, 9.6, 1.2): each side's
current step, the order in which the steps are carried out, what a step needs
before it is passed, and ``POST /reph/advance``; with what the record shows
of the CG Dates played (``facts``), which counted DRMs and table rules read.

Slice: ``steps`` (each side's current step; ``None``: not acted yet) and
``rolled_tables`` (the tables each side rolled in its steps on this CG Date).
"""

from __future__ import annotations

from cgledger.domain.campaign.core import Applied, Core, reads
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets.base import IDLE, SCENARIO, DateFacts, Facts, RePhStep


class Sequence(Core):
    # ------------------------------------------------------------------ queries

    def is_initial_date(self) -> bool:
        """Whether the campaign is before its Initial Scenario: on its first CG
        Date, with no CG-Scenario End yet (8.6: only '†' steps come then)."""
        return bool(self.cg_date == self.genesis["start_date"] and not self.scenario_ends)

    def scenario_of(self, cg_date: str) -> str | None:
        """The scenario type the Initiative generated for ``cg_date``, if any yet."""
        entry = self.initiatives.get(cg_date)
        return None if entry is None else entry["scenario"]

    def step_applies(self, step: RePhStep, side: str) -> bool:
        return self.ruleset.step_applies(
            step,
            side,
            self.cg_date,
            initial=self.is_initial_date(),
            scenario=self.scenario_of(self.cg_date),
        )

    def current_step(self, side: str) -> str:
        """``side``'s current RePh step (DESIGN §8): the step it last acted in or
        advanced to, or at creation the first step that applies to it (a '†'
        step, 8.6); ``scenario`` once it completed them all."""
        step = self.steps.get(side)
        if step is not None:
            return step
        for candidate in self.ruleset.reph_steps:
            if self.step_applies(candidate, side):
                return candidate.id
        return SCENARIO

    def step_passed(self, side: str, step: str) -> bool:
        """``side`` has completed RePh ``step`` on the current CG Date."""
        at = self.steps.get(side)
        if at is None:
            return False
        rs = self.ruleset
        return at == SCENARIO or rs.step_order(at) > rs.step_order(step)

    def facts(self, side: str) -> Facts:
        """What the record shows for a counted DRM or a table rule (``Facts``):
        every CG Date from the first one played to the current one."""
        start = self.genesis["start_date"]
        played = self.calendar[self.calendar.index(start) : self.date_index + 1]
        dates = []
        for cg_date in played:
            entry = self.initiatives.get(cg_date)
            determined = entry is not None and entry["determined"] is not None
            scenario = entry["scenario"] if entry is not None else None
            if cg_date == start:
                scenario = "initial"
            dates.append(
                DateFacts(
                    cg_date=cg_date,
                    scenario=scenario,
                    chits=dict(entry["chits"]) if determined and entry is not None else {},
                    cvp=self.scenario_ends.get(cg_date),
                    winner=(self.lvp_rows.get(cg_date) or {}).get("winner"),
                )
            )
        return Facts(
            cg_date=self.cg_date,
            side=side,
            rules=self.rules,
            lasting=self.lasting,
            options=self.options(),
            dates=tuple(dates),
            readings=self.readings(),
        )

    # ------------------------------------------------------------------ checks

    def check_in_step(
        self, side: str, step: str, what: str, rule: str, *, ctx: Ctx | None = None
    ) -> None:
        """DESIGN §8: ``what`` (a table roll, a purchase) is made in RePh
        ``step`` (409 otherwise, the detail starting with ``rule``): the step
        applies to ``side`` now, ``side`` has not passed it, and no step before
        it still waits for a required action or for both sides. ``SCENARIO``:
        made while the CG scenario is in play. With ``ctx`` (a command's), the
        secret steps passed get their empty sealed records (``seal_passed``)."""
        rs = self.ruleset
        if step == SCENARIO:
            away = {s: at for s in self.sides if (at := self.current_step(s)) != SCENARIO}
            if away:
                where = ", ".join(f"{s} at {at}" for s, at in away.items())
                raise RuleViolation(
                    f"{rule}: {what} is rolled during the CG scenario, which is not in "
                    f"play ({where})",
                    rule=rule,
                )
            return
        found = rs.step(step)
        if not self.step_applies(found, side):
            raise RuleViolation(
                f"{rule}: {what} belongs to RePh step {step} ({found.title}), which does not "
                f"apply to {side} on {self.cg_date}{self._why_not(found, side)}",
                rule=rule,
            )
        if step == rs.new_date_step and self.awaiting_new_date:
            raise RuleViolation(
                f"{rule}: {what} belongs to RePh step {step} ({found.title}); the new CG "
                f"Date has not begun (POST /v1/campaigns/{self.cid}/cg-dates)",
                rule=rule,
            )
        try:
            self.check_step_order(side, step, ctx=ctx)
        except RuleViolation as e:
            detail = f"{rule}: {what} belongs to RePh step {step}; {e}"
            raise RuleViolation(detail, rule=rule) from e

    def _why_not(self, step: RePhStep, side: str) -> str:
        """Why ``step`` does not apply to ``side`` now (for an error's detail)."""
        if step.sides and side not in step.sides:
            return f" (it is the {' and '.join(step.sides)} side's)"
        if self.is_initial_date() and "†" not in step.markers:
            return " (only the '†' steps come before the Initial Scenario)"
        if step.from_date is not None and not self.ruleset.step_applies(
            step, side, self.cg_date, initial=False, scenario=None
        ):
            return f" (it applies from {step.from_date} on)"
        if "‡" in step.markers:
            return " (an Idle date generates no scenario)"
        return ""

    def check_step_order(
        self, side: str, step: str, *, ruling: bool = False, ctx: Ctx | None = None
    ) -> None:
        """The RePh steps are carried out in their numbered order (8.6, 9.6),
        and a step whose required action is not done cannot be passed (DESIGN §8);
        a step that does not apply to ``side`` now is not taken at all, except
        by the referee's ``ruling`` (it acts for the side at any time). With
        ``ctx``, the command about to act in ``step`` first records the empty
        sealed records of the secret steps it passes (DESIGN §4)."""
        rs = self.ruleset
        found = rs.step(step)
        if not ruling and not self.step_applies(found, side):
            raise RuleViolation(
                f"{step}: {found.title} does not apply to {side} on {self.cg_date}"
                f"{self._why_not(found, side)}",
                rule=step,
            )
        if not ruling:
            self._check_lockstep(side, step, acting=True)
        done = self.current_step(side)
        if rs.step_order(done) > rs.step_order(step):
            rule = rs.sequence_rule
            where = (
                "has completed its steps (ready for the CG scenario)"
                if done == SCENARIO
                else f"has done {done} ({rs.step(done).title})"
            )
            raise RuleViolation(
                f"{rule}: steps are carried out in the numbered order; {side} {where} on "
                f"{self.cg_date}, so {step} ({rs.step(step).title}) is past",
                rule=rule,
            )
        self._check_passable(side, self.current_step(side), step)
        if ctx is not None:
            self.seal_passed(ctx, side, step)

    def _check_lockstep(self, side: str, target: str, *, acting: bool) -> None:
        """SG 1.2 (``Ruleset.lockstep``): "Both players (if applicable), American
        first, complete each step before moving on to the next step". The steps
        are completed in turn: the American's N, the German's N, the American's
        N+1, ... So a side that acts in step ``target`` needs each side before it
        in the order to have completed ``target``, and each side after it every
        step before ``target``; a side that only moves on to ``target`` (its
        current step, not done yet) needs one step less of each. A joint step is
        taken together (the sides only move on to it in turn), and being ready
        for the scenario (``SCENARIO``, after the joint 4.0) waits for no one."""
        rs = self.ruleset
        if side not in rs.lockstep or target == SCENARIO:
            return
        acting = acting and not rs.step(target).joint  # a joint step is taken together
        mine = rs.lockstep.index(side)
        here = rs.step_order(target)
        applies = {st.id: (self.step_applies(st, side), st) for st in rs.reph_steps}
        mine_before = [i for i, (yes, _) in applies.items() if yes and rs.step_order(i) < here]
        for other in rs.lockstep:
            if other == side:
                continue
            if rs.lockstep.index(other) < mine:
                # It completes first each step we both take, up to ``target``.
                steps = [
                    st for _, (yes, st) in list(applies.items())[: here + int(acting)]
                    if yes and self.step_applies(st, other)
                ]  # fmt: skip
            else:
                # We complete a step once it has completed every step before it.
                last = target if acting else (mine_before[-1] if mine_before else None)
                if last is None:
                    continue
                steps = [
                    st for st in rs.reph_steps[: rs.step_order(last)]
                    if self.step_applies(st, other)
                ]  # fmt: skip
            done_to = rs.step_order(self.current_step(other))
            pending = [st for st in steps if done_to <= rs.step_order(st.id)]
            if pending:
                st = pending[0]
                order = ", ".join(rs.lockstep)
                raise RuleViolation(
                    f"{rs.sequence_rule}: each step is completed by {order} in turn before the "
                    f"next; {other} has not completed {st.id} ({st.title}), so {side} cannot "
                    f"{'act in' if acting else 'move on to'} {target} yet",
                    rule=rs.sequence_rule,
                )

    def _check_passable(self, side: str, start: str, to: str) -> None:
        """Refuse to pass, on the way from ``start`` to ``to``, a step that
        applies to ``side`` and whose required action is not done, or a joint
        step that waits for the other side (the Initiative, DESIGN §8)."""
        rs = self.ruleset
        first, last = rs.step_order(start), rs.step_order(to)
        ini = rs.initiative
        for step in rs.reph_steps[first:last]:
            if not self.step_applies(step, side):
                continue
            if step.action is not None and not rs.rules.step_done(self.engine, side, step.id):
                path = rs.rules.actions[step.action].path
                raise RuleViolation(
                    f"{step.id}: {step.title} requires its action of {side} on {self.cg_date} "
                    f"before the step is passed (POST /v1/campaigns/{self.cid}/{path})",
                    rule=step.id,
                )
            self._check_required_rolls(side, step)
            if step.id == rs.new_date_step and self.awaiting_new_date:
                raise RuleViolation(
                    f"{step.id}: {step.title} is taken by both sides together: each says it "
                    f"is ready (POST /v1/campaigns/{self.cid}/cg-dates)",
                    rule=step.id,
                )
            if ini is not None and step.id == ini.step and not self.is_initial_date():
                # No Initiative before the Initial Scenario (8.6233, 9.6213).
                entry = self.initiatives.get(self.cg_date)
                if entry is None or entry["determined"] is None:
                    raise RuleViolation(
                        f"{step.id}: {step.title} is taken by both sides together; it waits "
                        f"for both Initiative chits on {self.cg_date}",
                        rule=step.id,
                    )

    def _check_required_rolls(self, side: str, step: RePhStep) -> None:
        """A roll the rules require of ``side`` in ``step`` (``TableRule.required``,
        e.g. 9.6201's British DR) must be made before the step is passed."""
        rs = self.ruleset
        facts: Facts | None = None
        for table_rule in rs.table_rules:
            table = rs.tables[table_rule.table]
            if table_rule.required is None or table.step != step.id:
                continue
            if table.sides and side not in table.sides:
                continue
            if table.id in self.rolled_tables.get(side, ()):
                continue
            facts = facts or self.facts(side)
            if not rs.rolled_on(table, self.cg_date) or (
                table_rule.refuse is not None and table_rule.refuse(facts) is not None
            ):
                continue
            if table_rule.required(facts):
                raise RuleViolation(
                    f"{table_rule.rule}: {side} makes the {table.title} {table.roll_name} on "
                    f"{self.cg_date} before step {step.id} is passed (POST /v1/campaigns/"
                    f"{self.cid}/tables/{table.id}/rolls)",
                    rule=table_rule.rule,
                )

    # ------------------------------------------------------------------ commands

    def advance(self, ctx: Ctx, side: str | None, to: str) -> int:
        """``POST /reph/advance`` (DESIGN §8): complete ``side``'s steps from its
        current one up to ``to``, which becomes current (``scenario``: all of
        them). Going back is an undo, never an advance."""
        rs = self.ruleset
        side = self.require_side(ctx, side)
        if to != SCENARIO and to not in {st.id for st in rs.reph_steps}:
            raise InvalidInput(
                f"{to!r} is not a {rs.id} RePh step (GET /v1/rulesets lists them) nor '{SCENARIO}'",
                field="to",
            )
        current = self.current_step(side)
        if rs.step_order(to) <= rs.step_order(current):
            raise RuleViolation(
                f"{rs.sequence_rule}: {side} is at {current} ({rs.step(current).title}) on "
                f"{self.cg_date}; a step is not taken again, and going back is an undo",
                rule=rs.sequence_rule,
            )
        target = rs.step(to)
        if to != SCENARIO and not self.step_applies(target, side):
            raise RuleViolation(
                f"{to}: {target.title} does not apply to {side} on {self.cg_date}",
                rule=to,
            )
        self._check_lockstep(side, to, acting=False)
        self._check_passable(side, current, to)
        self.seal_passed(ctx, side, to)
        payload = {
            "side": side,
            "cg_date": self.cg_date,
            "rule": f"{rs.id}:{rs.sequence_rule}",
            "from": current,
            "step": to,
        }
        return self.append(ctx, "RePhAdvanced", payload, {}, owner=None)

    # ------------------------------------------------------------------ apply

    @reads("side", "step")
    def _on_step(self, e: Applied) -> None:
        """The side acted in, or moved on to, the event's RePh step (a side
        ready for the New CG Date has completed the steps before it)."""
        self.steps[e.values["side"]] = e.values["step"]

    @reads("side", "step")
    def _on_rule_step(self, e: Applied) -> None:
        """A ruleset's state event that names a side and its step (``rule_payload``)
        moves that side to the step."""
        if "side" in e.values and "step" in e.values:
            self.steps[e.values["side"]] = e.values["step"]

    @reads("step")
    def _on_date_began(self, e: Applied) -> None:
        self.rolled_tables = {}
        self.steps = dict.fromkeys(self.sides, e.values["step"])

    @reads("side", "step", "rule")
    def _on_table_rolled(self, e: Applied) -> None:
        """A side's table roll in its RePh step: the side has reached that
        step and has made that roll on this CG Date."""
        side, table_id = e.values["side"], e.values["rule"]
        self.steps[side] = e.values["step"]
        made = self.rolled_tables.setdefault(side, [])
        if table_id not in made:
            made.append(table_id)

    @reads("side", "step", "scenario")
    def _on_initiative_determined(self, e: Applied) -> None:
        self.steps[e.values["side"]] = e.values["step"]
        if e.values["scenario"] == IDLE:
            # 8.6232 note 2 (9.62132): no scenario; the '*' steps repeat from
            # New CG Date (8.6121), which both sides now take again.
            self.steps = dict.fromkeys(self.sides, self.ruleset.new_date_step)

    @reads()
    def _on_scenario_ended(self, e: Applied) -> None:
        """Every side moves to the first step of the next RePh."""
        del e
        self.steps = dict.fromkeys(self.sides, self.ruleset.reph_steps[0].id)
