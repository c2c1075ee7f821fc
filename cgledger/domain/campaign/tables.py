"""Rolls on rule tables (DESIGN §8): who may roll a table and when, the
DRMs the ledger counts itself, the values that last (SAN, weather, ELR, ...)
and the roll read by the one resolver (``cgledger.domain.tables``).

Slice: ``lasting`` (the results that last, by key, by side or ``ALL``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cgledger.domain import tables as tablebook
from cgledger.domain.campaign.core import MAX_PURPOSE, Applied, reads
from cgledger.domain.campaign.rolls import Rolls
from cgledger.domain.campaign.sequence import Sequence
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, InvalidInput, RuleViolation
from cgledger.domain.rulesets import kept as keptbook
from cgledger.domain.rulesets.base import ALL, SCENARIO, CountedDrm, Facts
from cgledger.domain.visibility import REFEREE


class Tables(Sequence, Rolls):
    def roll_table(
        self,
        ctx: Ctx,
        table_id: str,
        *,
        drm: list[tablebook.DrmRequest],
        inputs: dict[str, Any],
        secret: bool | None,
        client_nonce: str | None,
    ) -> int:
        """Roll on a rule table: the Original roll, each DRM, the Final result and
        the outcome, read by the one resolver (``cgledger.domain.tables``). A table the
        rules call Secret is secret unless ``secret`` is false."""
        self._require_role(ctx)
        table = self.table(table_id)
        if table.endpoint:
            raise RuleViolation(
                f"{table.rule}: {table.id} changes the campaign's state; roll it with "
                f"POST /v1/campaigns/{self.cid}{table.endpoint}",
                rule=table.rule,
            )
        hidden = table.secret if secret is None else secret
        # Who rolls it first (403); then the body, before the step binding, as a
        # purchase's is: an unknown DRM or a bad input is 422 naming it in any
        # step (issue 26 item 3); then the step and the CG Date (409).
        self.check_side(ctx, table)
        # What the record shows, read once for the lasting inputs and the
        # counted DRMs (each would read it again: ``kept_lasting`` each time).
        facts = self.facts(ctx.actor) if self.ruleset.counted(table.id) else None
        filled = self._with_lasting_inputs(ctx, table, inputs, facts)
        tablebook.prepare(table, drm, filled)
        drm = self.with_counted_drms(ctx, table, drm, facts=facts)
        counted = self.ledger_counts(ctx, table, facts=facts)
        # Refuse bad DRMs and inputs before a die is drawn: nothing is appended.
        prepared = tablebook.prepare(table, drm, filled)
        _input_drms_by(table, prepared.applied, stated=inputs)
        inputs = filled
        lasting = self.ruleset.lasting_of(table.id)
        if hidden and lasting and ctx.actor != REFEREE:
            raise InvalidInput(
                f"{lasting[0].rule}: the {table.title}'s result lasts ({lasting[0].key}) and "
                "is shown to both sides; it cannot be a secret roll",
                field="secret",
                rule=lasting[0].rule,
            )
        # A secret roll moves its side to no step (the step would name the
        # table, DESIGN §2a); a public one moves it there, past the steps between.
        self.check_binding(ctx, table, passing=not hidden)
        if not hidden:
            self._define_table(ctx, table)
        purpose = f"{table.id} {table.title}"[:MAX_PURPOSE]
        pub, sec = self._draw(ctx, table.dice, purpose, secret=hidden, client_nonce=client_nonce)
        rolled = sec["dice"] if sec is not None else pub["dice"]
        result = tablebook.read(table, rolled, prepared)
        if hidden:
            self.note_table(table, inputs=dict(inputs), **result)
        payload = {
            "side": ctx.actor,
            "cg_date": self.cg_date,
            "rule": table.id,
            "table": tablebook.table_ref(table),
            "roll": pub,
        }
        if table.step not in (None, SCENARIO) and ctx.actor != REFEREE and not hidden:
            payload["step"] = table.step  # the side has reached it (DESIGN §8)
        # What the ledger decided of each DRM it counts (``ledger_counts``):
        # where the roll's other values are (the sealed part of a secret roll).
        values_out = {**(sec or {}), "inputs": dict(inputs), **result, "counted": counted}
        return self.append(
            ctx, "TableRolled", payload, values_out, owner=ctx.actor if hidden else None
        )

    def _with_lasting_inputs(
        self, ctx: Ctx, table: tablebook.Table, inputs: dict[str, Any], facts: Facts | None
    ) -> dict[str, Any]:
        """The input that states a lasting value before the roll (8.6122's current
        SAN, ``Lasting.start``) defaults to the value the ledger keeps
        (``kept_lasting``). A stated value stands, even where the CG definition
        gives the side's value at the CG's start: a SAN also changes outside the
        RePh tables (an OB's "SAN +2", a scenario's Sniper results), which the
        ledger does not record, so the roller's value is how such a change is
        entered; the roll records what was stated and the kept value goes on
        from it."""
        out = dict(inputs)
        wanted = [x for x in self.ruleset.lasting_of(table.id) if x.start and x.start not in out]
        if not wanted:
            return out
        facts = facts or self.facts(ctx.actor)
        for lasting in wanted:
            assert lasting.start is not None
            found = facts.last(lasting.key) or {}
            if found.get("known") and found.get("value") is not None:
                out[lasting.start] = found["value"]
        return out

    def check_side(self, ctx: Ctx, table: tablebook.Table) -> None:
        """DESIGN §8: a table is rolled by the sides its rule names (403, the
        detail starting with the rule number); the referee rolls any."""
        if table.sides and ctx.actor != REFEREE and ctx.actor not in table.sides:
            raise Forbidden(
                f"{table.rule}: the {table.title} is rolled by the "
                f"{' or '.join(table.sides)} side, not by the {ctx.actor} side",
                rule=table.rule,
            )

    def check_binding(self, ctx: Ctx, table: tablebook.Table, *, passing: bool = False) -> None:
        """DESIGN §8: a table is rolled by the sides its rule names, on the CG
        Dates it allows (403, 409; the detail starts with the rule number). The
        referee may roll any table at any time: a ruling, recorded as the
        referee's (the roll's ``side`` is ``referee``)."""
        if ctx.actor == REFEREE:
            return
        self.check_side(ctx, table)
        if table.step is not None:
            self.check_in_step(
                ctx.actor,
                table.step,
                f"the {table.title}",
                table.rule,
                ctx=ctx if passing else None,
            )
        if not self.ruleset.rolled_on(table, self.cg_date):
            when = (
                f"only on {' and '.join(table.on_dates)}"
                if table.on_dates
                else f"from {table.from_date} on"
            )
            raise RuleViolation(
                f"{table.rule}: the {table.title} is rolled {when}; the CG Date is {self.cg_date}",
                rule=table.rule,
            )
        for table_rule in self.ruleset.table_rules_of(table.id):
            why = None if table_rule.refuse is None else table_rule.refuse(self.facts(ctx.actor))
            if why is not None:
                raise RuleViolation(why, rule=table_rule.rule)
            if table_rule.once and table.id in self.rolled_tables.get(ctx.actor, ()):
                raise RuleViolation(
                    f"{table_rule.rule}: {ctx.actor} has made the {table.title} "
                    f"{table.roll_name} for {self.cg_date} already",
                    rule=table_rule.rule,
                )

    def with_counted_drms(
        self,
        ctx: Ctx,
        table: tablebook.Table,
        drm: list[tablebook.DrmRequest],
        *,
        facts: Facts | None = None,
    ) -> list[tablebook.DrmRequest]:
        """DESIGN §8 (issue 26 item 3): a DRM the ledger can count now
        (``Ruleset.counted``, its ``count`` not ``None``) is the ledger's: it
        is added to a side's roll where it applies, and a side that states it
        is refused (422 naming the rule), even with the ledger's number; so is
        a side that states another side's DRM. Where the record cannot tell,
        the roller's statement stands. The referee's ruling may name any of
        them, with the ledger's number only. Each DRM returned says who decided
        it (``by``: ``ledger``, else ``roller``). A DRM the roller states that
        only some sides may (``Ruleset.side_drms``) is refused from another side
        too. ``facts``: ``self.facts(ctx.actor)``, where the caller read them already."""
        out = [d if d.by is not None else replace(d, by=tablebook.ROLLER) for d in drm]
        counted_drms = self.ruleset.counted(table.id)
        sided = [x for x in self.ruleset.side_drms if x.table == table.id]
        if facts is None and (counted_drms or sided):
            facts = self.facts(ctx.actor)
        referee = ctx.actor == REFEREE
        for d in out:
            only = self.ruleset.side_drm(table.id, d.id)
            if only is None or referee or ctx.actor in only.sides or d.by == tablebook.LEDGER:
                continue
            assert facts is not None
            if only.in_force(facts.readings):
                under = (
                    "" if only.reading is None else " (the reading '{}': {})".format(*only.reading)
                )
                raise InvalidInput(
                    f"{only.rule}: {d.id} is the {' or '.join(only.sides)} side's DRM, "
                    f"not the {ctx.actor} side's{under}",
                    field="drm",
                    rule=only.rule,
                )
        for counted in counted_drms:
            if counted.by_side and referee:
                continue  # the ruling names it; the referee has no record of its own
            named = [d for d in out if d.id == counted.drm]
            stated = [d for d in named if d.by != tablebook.LEDGER]
            applies = not counted.sides or ctx.actor in counted.sides
            if stated and not referee and not applies:
                raise InvalidInput(
                    f"{counted.rule}: {counted.drm} is the {' or '.join(counted.sides)} "
                    f"side's DRM, not the {ctx.actor} side's",
                    field="drm",
                    rule=counted.rule,
                )
            assert facts is not None
            expected = counted.count(facts)
            if expected is None:
                continue  # the record cannot tell: the roller's own DRM stands
            at_least = counted.at_least_now(facts)
            for d in stated:
                self._check_stated(table, counted, d, expected, referee=referee, at_least=at_least)
            if named or not applies or (referee and counted.sides):
                continue
            request = _counted_request(table, counted.drm, expected)
            if request is not None:
                out.append(request)
        return out

    def ledger_counts(
        self, ctx: Ctx, table: tablebook.Table, *, facts: Facts | None = None
    ) -> dict[str, int]:
        """What the ledger decided of each DRM of ``table`` it counts, for
        ``ctx.actor``'s roll now (``CountedDrm.decided``), by DRM id: its count,
        x, or 1/0, and 0 for another side's; one it decides nothing of (the
        record cannot tell, a referee's ruling names it) is left out. Recorded
        with each roll (``counted``), so that ``cgledger verify`` holds the
        roll's ``"by": "ledger"`` DRMs against it and recomputes those that
        depend on the CG Date, the side and the readings alone (``dated``); an
        empty one says the ledger counted none. ``facts``: as ``with_counted_drms``'s."""
        found = self.ruleset.counted(table.id)
        if not found:
            return {}
        facts, referee = facts or self.facts(ctx.actor), ctx.actor == REFEREE
        decided = {c.drm: c.decided(facts, referee=referee) for c in found}
        return {drm: n for drm, n in decided.items() if n is not None}

    def _check_stated(
        self,
        table: tablebook.Table,
        counted: CountedDrm,
        stated: tablebook.DrmRequest,
        expected: int,
        *,
        referee: bool,
        at_least: bool,
    ) -> None:
        """A counted DRM the roller names where the ledger counts it: a side's
        is the ledger's (but for a count the ledger knows only the least of
        now, ``at_least``: ``CountedDrm.at_least_now``); the referee's ruling must give the ledger's
        number, and a fixed DRM only where it applies."""
        definition = table.drm(counted.drm)
        assert definition is not None  # checked when the ruleset was built
        per, fixed = definition.kind == "per", definition.kind == "fixed"
        given = stated.count if per else stated.value

        def refuse(why: str) -> InvalidInput:
            return InvalidInput(
                f"{counted.rule}: {counted.drm} {why}", field="drm", rule=counted.rule
            )

        if not referee:
            if at_least and per and given is not None and given >= expected:
                return  # more than the ledger records (9.6202's RePh CVP)
            if at_least and per:
                raise refuse(
                    f"is counted by the ledger: its count on {self.cg_date} is at least "
                    f"{expected}, not {given}"
                )
            if fixed:
                now = f"it {'applies' if expected else 'does not apply'} on {self.cg_date}"
            else:
                now = f"its {'count' if per else 'value'} on {self.cg_date} is {expected}"
            raise refuse(f"is computed by the ledger; do not state it ({now})")
        if fixed and not expected:
            raise refuse(f"is counted by the ledger: it does not apply on {self.cg_date}")
        if not fixed and given != expected:
            what = "count" if per else "value"
            raise refuse(
                f"is counted by the ledger: its {what} on {self.cg_date} is {expected}, not {given}"
            )

    # ------------------------------------------------------------------ apply

    def kept_roll(self, values: dict[str, Any]) -> dict[str, Any] | None:
        """What a side's table roll in its RePh step keeps for an undo's rebuild,
        if it changes anything: it moves the side to a step, or its table has a
        result that lasts or a rule on when it is rolled (``TableRule``). A
        further roll in the step the side is at (Escape, unit by unit) keeps
        nothing, so the aggregate grows with the steps taken, not the rolls."""
        rs, table_id = self.ruleset, values["rule"]
        lasting, ruled = rs.lasting_of(table_id), rs.table_rules_of(table_id)
        if not lasting and not ruled and self.steps.get(values["side"]) == values["step"]:
            return None
        starts = {x.start for x in lasting if x.start is not None}
        return {
            **{k: values[k] for k in ("side", "cg_date", "step", "rule")},
            "outcome": {"band": values["outcome"]["band"]},
            "inputs": {k: v for k, v in values["inputs"].items() if k in starts},
        }

    @reads("side", "rule", "inputs", "outcome", "cg_date")
    def _on_table_rolled(self, e: Applied) -> None:
        """A side's table roll in its RePh step (DESIGN §8): the results of it
        that last (``Ruleset.lasting``) become campaign state."""
        seq, values = e.seq, e.values
        side, table_id = values["side"], values["rule"]
        for lasting in self.ruleset.lasting_of(table_id):
            holder = side if lasting.per_side else ALL
            entry = self.lasting.setdefault(lasting.key, {})
            prev = entry.get(holder)
            known = lasting.start is not None or lasting.initial is not None
            if lasting.start is not None:
                base = values["inputs"].get(lasting.start)
            elif prev is not None:
                base, known = prev["value"], bool(prev["known"])
            else:
                base = lasting.initial
            change = lasting.changes[values["outcome"]["band"]]
            if isinstance(change, str):
                value: Any = change
                known = True
            elif change is None:
                value = base if known or base is not None else 0  # no change yet
            else:
                value = int(base or 0) + change
            entry[holder] = {
                "value": value,
                "known": known,
                "cg_date": values["cg_date"],
                "seq": seq,
                "rule": lasting.rule,
                "before": None if prev is None else {**prev, "before": None},
            }

    # ------------------------------------------------------------------ kept values

    def facts(self, side: str) -> Facts:
        """``Sequence.facts`` with the lasting values as the campaign keeps them
        (``kept_lasting``): a counted DRM or a table rule reads the SAN of the
        CG's OB and 9.6152's changes too."""
        found = super().facts(side)
        return replace(found, lasting=self.kept_lasting())

    def _definition_starts(self) -> dict[str, dict[str, int]]:
        """Each side's value at the CG's start by lasting key, from the CG
        definition in force (``Lasting.definition``)."""
        fields = {x.key: x.definition for x in self.ruleset.lasting if x.definition is not None}
        if not fields:
            return {}
        doc = self.definition_doc()
        return {key: dict(doc.get(name) or {}) for key, name in fields.items()}

    def kept_lasting(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The values that last as the campaign keeps them (DESIGN §8,
        ``cgledger.domain.rulesets.kept``): the results on record, with each
        side's value at the CG's start from its definition, the floor of each
        new CG Date and the ruleset's scheduled changes (9.6152) once in force."""
        rs = self.ruleset
        if not rs.scheduled and not any(x.definition or x.raised_to for x in rs.lasting):
            return self.lasting
        start = self.genesis["start_date"]
        played = self.calendar[self.calendar.index(start) : self.date_index + 1]
        started = {d for d in played if d in self.scenario_ends}
        if all(self.current_step(s) == SCENARIO for s in self.sides):
            started.add(self.cg_date)  # both sides are ready: the CG scenario is in play
        seq = 1 if self.definition is None else int(self.definition["seq"])
        scheduled = [(c, "†" in rs.step(c.step).markers) for c in rs.scheduled]
        calendar = keptbook.Calendar(played, started, seq)
        return keptbook.kept_values(
            rs.lasting, self.lasting, self._definition_starts(), scheduled, self.sides, calendar
        )


def _counted_request(
    table: tablebook.Table, drm_id: str, expected: int
) -> tablebook.DrmRequest | None:
    """The DRM the ledger adds for its count: a fixed one only where it applies."""
    definition = table.drm(drm_id)
    assert definition is not None  # checked when the ruleset was built
    ledger = tablebook.LEDGER
    if definition.kind == "fixed":
        return tablebook.DrmRequest(drm_id, by=ledger) if expected else None
    if definition.kind == "per":
        return tablebook.DrmRequest(drm_id, count=expected, by=ledger)
    return tablebook.DrmRequest(drm_id, value=expected, by=ledger)


def _input_drms_by(
    table: tablebook.Table, applied: list[dict[str, Any]], *, stated: dict[str, Any]
) -> None:
    """Who decided each DRM applied from an input (8.6122's "+drm equal to that
    side's current SAN minus four"): the roller who stated the input, or the
    ledger that filled it from the value it keeps (``Lasting.start``)."""
    for entry in applied:
        d = table.drm(entry["id"])
        if d is not None and d.kind == "input" and "by" not in entry:
            entry["by"] = tablebook.ROLLER if d.input in stated else tablebook.LEDGER
