"""Amendments to the CG definition (DESIGN §7): a JSON Merge Patch (RFC 7396)
to the definition in force, proposed by a side and put in force when the
opponent or the referee approves it (the agreement protocol,
``agreement.AMENDMENT``); the referee's own takes effect at once.

Slice: ``definition`` (the hash of the definition in force, the seq of the
event that holds it, and the optional rules it adopts) and
``definitions_in_force`` (each one's hash and seq, in order: the readings in
force at any event, DESIGN §14).
"""

from __future__ import annotations

from typing import Any

from cgledger.domain import definitions as defbook
from cgledger.domain.campaign.agreement import AMENDMENT, Agreement, approves
from cgledger.domain.campaign.core import MAX_REASON, Applied, options_of, text
from cgledger.domain.campaign.core import validated_definition as validated
from cgledger.domain.context import Ctx
from cgledger.domain.errors import RuleViolation
from cgledger.domain.visibility import REFEREE


class Amendments(Agreement):
    def request_amendment(self, ctx: Ctx, *, patch: dict[str, Any], reason: str) -> int:
        """Propose ``patch`` to the definition in force. Returns the seq of the
        last event appended (``DefinitionAmended`` when it took effect at once)."""
        self._require_role(ctx)
        reason = text(reason, "reason", MAX_REASON)
        amended = validated(
            self.ruleset, defbook.merge_patch(self.definition_doc(), patch), "patch"
        )
        new_hash = defbook.definition_hash(amended)
        if self.definition is not None and new_hash == self.definition_hash:
            raise RuleViolation("this amendment would change nothing in the definition")
        payload = {
            "by": ctx.actor,
            "patch": patch,
            "reason": reason,
            "base_hash": self.definition_hash,
            "result_hash": new_hash,
        }
        at_once = ctx.actor == REFEREE
        record = self._emit(ctx, "DefinitionAmendmentRequested", payload, None, main=not at_once)
        if not at_once:
            return int(record["seq"])
        return self._amend(ctx, int(record["seq"]), amended, new_hash)

    @approves(AMENDMENT)
    def approve_amendment(self, ctx: Ctx, amendment_seq: int) -> int:
        """The opponent of the side that asked, or the referee, puts it in force,
        if the definition has not changed since it was asked for."""
        amendment = self.pending_proposal(ctx, AMENDMENT, amendment_seq)
        self.check_approver(ctx, AMENDMENT, amendment)
        if amendment["base_hash"] != self.definition_hash:
            raise RuleViolation(
                f"the definition changed since amendment {amendment_seq} was asked for; "
                "reject it and ask again"
            )
        patch = self.record(amendment_seq)["payload"]["patch"]
        amended = validated(self.ruleset, defbook.merge_patch(self.definition_doc(), patch))
        return self._amend(ctx, amendment_seq, amended, defbook.definition_hash(amended))

    def reject_amendment(self, ctx: Ctx, amendment_seq: int, note: str | None) -> int:
        """The opponent or the referee rejects it; the side that asked may withdraw it."""
        return self.reject_proposal(ctx, AMENDMENT, amendment_seq, note)

    def _amend(self, ctx: Ctx, amendment_seq: int, doc: dict[str, Any], digest: str) -> int:
        payload = {
            "amendment": amendment_seq,
            "approved_by": ctx.actor,
            "previous_hash": self.definition_hash,
            "definition": doc,
            "hash": digest,
        }
        return self.append(ctx, "DefinitionAmended", payload, {}, owner=None)

    # ------------------------------------------------------------------ apply

    def _on_amended(self, e: Applied) -> None:
        self.definition = {
            "hash": e.values["hash"],
            "seq": e.seq,
            "options": options_of(e.values["definition"]),
        }
        self.definitions_in_force.append({"hash": e.values["hash"], "seq": e.seq})
