"""A Massacre (A20.4) recorded for the rest of the CG, where a ruleset's rule
keeps one (``Rules.massacre_rule``: all effects of A20.3-4 apply for the
remainder of that CG).

That a Massacre occurred is a claim about play that binds the opponent
(DESIGN §13): a side's record is a proposal of the agreement protocol
(``agreement.MASSACRE``, ``MassacreProposed``), which changes nothing until
the opponent or the referee approves it (``approve_massacre``); the referee's
is recorded at once (``MassacreRecorded``). What it makes last is the
ruleset's (``Rules.massacre_rule``: its state keeps the Massacres recorded and
shows them under ``conditions``); a ruleset that keeps none refuses it (404).

Slice: none of its own (the proposals are the agreement's, the Massacres
recorded the ruleset's).
"""

from __future__ import annotations

from cgledger.domain.campaign.agreement import MASSACRE, Agreement, approves
from cgledger.domain.campaign.core import MAX_REASON, text
from cgledger.domain.context import Ctx
from cgledger.domain.errors import InvalidInput, NotFound, RuleViolation
from cgledger.domain.visibility import REFEREE


class Massacre(Agreement):
    def record_massacre(self, ctx: Ctx, side: str, note: str | None = None) -> int:
        """Record that ``side``'s units massacred (A20.4) during the CG, as one
        public event: the referee's at once (``MassacreRecorded``), a side's a
        proposal (``MassacreProposed``). ``note``: what happened, for the
        opponent who answers it."""
        self._require_role(ctx)
        rule = self._massacre_rule()
        if side not in self.sides:
            raise InvalidInput(
                f"{rule}: unknown side {side!r}; sides are {', '.join(self.sides)}",
                field="by",
                rule=rule,
            )
        refused = self.ruleset.rules.massacre_refused(self.engine, side)
        if refused is not None:
            raise RuleViolation(refused, rule=rule)
        payload = {
            "by": ctx.actor,
            "side": side,
            "cg_date": self.cg_date,
            "rule": f"{self.ruleset_id}:{rule}",
            "note": None if note is None else text(note, "note", MAX_REASON),
        }
        kind = "MassacreRecorded" if ctx.actor == REFEREE else "MassacreProposed"
        return self.append(ctx, kind, payload, {}, owner=None)

    @approves(MASSACRE)
    def approve_massacre(self, ctx: Ctx, seq: int) -> int:
        """The opponent of the proposing side, or the referee, puts a Massacre
        proposal in force: one ``MassacreRecorded`` naming the proposal (``by``
        its proposer, ``approved_by`` the approver), on the CG Date it was
        proposed, if the rules still take it (a Massacre by that side recorded
        since is refused: the proposal is to be rejected)."""
        proposal = self.pending_proposal(ctx, MASSACRE, seq)
        self.check_approver(ctx, MASSACRE, proposal)
        rule = self._massacre_rule()
        proposed = self.record(seq)["payload"]
        refused = self.ruleset.rules.massacre_refused(self.engine, proposed["side"])
        if refused is not None:
            raise RuleViolation(f"{refused}; reject Massacre proposal {seq}", rule=rule)
        payload = {
            "by": proposal["by"],
            "side": proposed["side"],
            "cg_date": proposed["cg_date"],
            "rule": proposed["rule"],
            "note": proposed["note"],
            "proposal": seq,
            "approved_by": ctx.actor,
        }
        return self.append(ctx, "MassacreRecorded", payload, {}, owner=None)

    def _massacre_rule(self) -> str:
        """The rule of the ruleset that keeps a Massacre for the CG (404 if none)."""
        rule = self.ruleset.rules.massacre_rule
        if rule is None:
            raise NotFound(
                f"{self.ruleset_id} keeps no Massacre for the CG: no rule of its CG names one"
            )
        return rule
