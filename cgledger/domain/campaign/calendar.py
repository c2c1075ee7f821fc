"""The CG Date (8.6121, 9.6121): the calendar, the current date,
and the New CG Date, which both sides take together (the agreement
protocol's joint form): a side says it is ready (``CGDateReady``, a proposal
the opponent may approve or reject, and its proposer withdraw); the date
begins when every side is, or at once when the referee calls it.

Slice: ``calendar``, ``date_index`` and ``awaiting_new_date`` (a CG-Scenario
End or an Idle date happened, and the New CG Date has not begun).
"""

from __future__ import annotations

from cgledger.domain.campaign.agreement import NEW_CG_DATE, Agreement, approves
from cgledger.domain.campaign.core import Applied, reads
from cgledger.domain.campaign.sequence import Sequence
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, RuleViolation
from cgledger.domain.rulesets import Ruleset
from cgledger.domain.rulesets.base import IDLE
from cgledger.domain.visibility import REFEREE


class Calendar(Sequence, Agreement):
    def begin_cg_date(self, ctx: Ctx, cg_date: str | None) -> int:
        """RePh step 8.6121 (9.6121): begin the next CG Date.

        8.6: the RePh steps are "performed simultaneously by each side", so one
        side cannot end the other's RePh: a side's call records that it is
        ready (``CGDateReady``); the date begins when every side is ready, or at
        once when the referee calls.
        """
        self._require_role(ctx)
        rs = self.ruleset
        step = rs.new_date_step
        if not self.awaiting_new_date:
            where = ", ".join(f"{s} at {self.current_step(s)}" for s in self.sides)
            raise RuleViolation(
                f"{step}: a new CG Date begins after CG-Scenario End (POST /v1/campaigns/"
                f"{self.cid}/scenario-end) or an Idle date; on {self.cg_date} neither has "
                f"happened yet ({where})",
                rule=step,
            )
        if ctx.actor != REFEREE:
            self.check_step_order(ctx.actor, step)  # refusals first, then the passing
        proposed = next(iter(self.ready.values()), None)
        nxt = self._next_date(rs, step, cg_date if cg_date is not None else proposed)
        if proposed is not None and nxt != proposed:
            raise InvalidInput(
                f"{step}: the next CG Date is already proposed as {proposed}", field="cg_date"
            )
        # The referee begins the date for everyone.
        waiting = self.joint(
            ctx.actor,
            self.ready,
            refuse=f"{step}: {ctx.actor} is ready for {nxt}; "
            "waiting for {waiting} (or the referee)",
            rule=step,
        )
        rs.rules.before_new_date(self.engine, [ctx.actor] if waiting else self.sides)
        if ctx.actor != REFEREE:
            self.check_step_order(ctx.actor, step, ctx=ctx)  # the steps passed, sealed
        if waiting:
            payload = {"side": ctx.actor, "cg_date": self.cg_date, "next": nxt, "step": step}
            return self.append(ctx, "CGDateReady", payload, {}, owner=None)
        payload = {"cg_date": nxt, "step": step, "rule": f"{rs.id}:{step}", "by": ctx.actor}
        return self.append(ctx, "CGDateBegan", payload, {}, owner=None)

    @approves(NEW_CG_DATE)
    def approve_cg_date(self, ctx: Ctx, seq: int) -> int:
        """The opponent (or the referee) approves a side's New CG Date: the
        same as saying it is ready for the date the side named (DESIGN §13)."""
        proposal = self.pending_proposal(ctx, NEW_CG_DATE, seq)
        self.check_approver(ctx, NEW_CG_DATE, proposal)
        return self.begin_cg_date(ctx, proposal["next"])

    def _next_date(self, rs: Ruleset, step: str, cg_date: str | None) -> str:
        current = self.cg_date
        if self.date_index + 1 < len(self.calendar):
            nxt = self.calendar[self.date_index + 1]
            if cg_date is not None and known_date(rs, self.calendar, cg_date, "cg_date") != nxt:
                raise InvalidInput(f"{step}: the CG Date after {current} is {nxt}", field="cg_date")
            return nxt
        if not self.extendable:
            raise RuleViolation(
                f"{step}: {current} is the last CG Date of {self.campaign_name}", rule=step
            )
        if cg_date is None:
            raise InvalidInput(
                f"{step}: the CG Dates after {self.calendar[-1]} are the players' to name "
                "(the seed's calendar ends before them); name the next one",
                field="cg_date",
            )
        nxt = parse_date(rs, cg_date, "cg_date")
        if nxt in self.calendar:
            raise InvalidInput(f"{nxt} has already been played", field="cg_date")
        if day(nxt) < day(current):
            raise InvalidInput(f"{nxt} would come before {current}", field="cg_date")
        return nxt

    # ------------------------------------------------------------------ apply

    @reads("cg_date")
    def _on_date_began(self, e: Applied) -> None:
        cg_date = e.values["cg_date"]
        self.awaiting_new_date = False
        if cg_date not in self.calendar:
            self.calendar.append(cg_date)
        self.date_index = self.calendar.index(cg_date)

    @reads("scenario")
    def _on_initiative_determined(self, e: Applied) -> None:
        if e.values["scenario"] == IDLE:
            # 8.6232 note 2 (9.62132): an Idle date generates no scenario; the
            # sequence waits for the next New CG Date (8.6121).
            self.awaiting_new_date = True

    @reads()
    def _on_scenario_ended(self, e: Applied) -> None:
        del e
        self.awaiting_new_date = True


def parse_date(rs: Ruleset, text: str, field: str) -> str:
    date = rs.normalize_date(text)
    if date is None:
        raise InvalidInput(f"{text!r} is not a {rs.id} CG Date", field=field)
    return date


def day(cg_date: str) -> int:
    return int(cg_date.split(" ", 1)[0])


def known_date(rs: Ruleset, calendar: list[str], text: str, field: str) -> str:
    date = parse_date(rs, text, field)
    if date not in calendar:
        raise InvalidInput(
            f"unknown CG Date {text!r}; this CG's dates are {', '.join(calendar)}", field=field
        )
    return date
