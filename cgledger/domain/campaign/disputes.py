"""Disputes (DESIGN §5): a side (or the referee) flags an event; the
opponent of the filing side, or the referee, upholds it or reverts it (through
the undo mechanism, reverting that one event).

Slice: ``disputes``, by the seq that filed each.
"""

from __future__ import annotations

from cgledger.domain import undo as undobook
from cgledger.domain.campaign.core import MAX_CLAIM, MAX_REASON, Applied, text
from cgledger.domain.campaign.undo import Undo
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, InvalidInput, NotFound, RuleViolation
from cgledger.domain.visibility import REFEREE


class Disputes(Undo):
    def file_dispute(self, ctx: Ctx, seq: int, claim: str) -> int:
        """DESIGN §5: a side (or the referee) flags an event."""
        self._require_role(ctx)
        claim = text(claim, "claim", MAX_CLAIM)
        if not 1 <= seq <= self.version:
            raise NotFound(f"no event {seq} in this campaign", field="seq")
        for did, dispute in self.disputes.items():
            if (
                dispute["of_seq"] == seq
                and dispute["by"] == ctx.actor
                and dispute["status"] == "open"
            ):
                raise RuleViolation(f"{ctx.actor} already disputes event {seq} (dispute {did})")
        payload = {
            "of_seq": seq,
            "of_type": self._type_of(seq),
            "by": ctx.actor,
            "claim": claim,
        }
        return self.append(ctx, "DisputeFiled", payload, {}, owner=None)

    def resolve_dispute(self, ctx: Ctx, dispute_seq: int, decision: str, note: str) -> int:
        """The opponent of the filing side, or the referee, upholds the event or
        reverts it. A revert goes through the undo mechanism: it also reverts
        every later state event built on the disputed one."""
        self._require_role(ctx)
        dispute = self.disputes.get(str(dispute_seq))
        if dispute is None:
            raise NotFound(f"no dispute {dispute_seq} in this campaign", field="dispute")
        if ctx.actor != REFEREE and ctx.actor == dispute["by"]:
            raise Forbidden(
                "a dispute is resolved by the opponent of the side that filed it, or the referee"
            )
        if dispute["by"] == REFEREE and ctx.actor != REFEREE:
            raise Forbidden("a dispute the referee filed is resolved by the referee")
        if dispute["status"] != "open":
            raise RuleViolation(f"dispute {dispute_seq} is already {dispute['status']}")
        if decision not in ("uphold", "revert"):
            raise InvalidInput("decision must be 'uphold' or 'revert'", field="decision")
        note = text(note, "note", MAX_REASON)
        undo_seq = None
        if decision == "revert":
            effect = self.dispute_revert(dispute_seq)
            undo_seq = self._apply_undo(
                ctx,
                effect,
                request=None,
                by=dispute["by"],
                at_once=False,
                reason=f"dispute {dispute_seq}: {note}",
                dispute=dispute_seq,
                main=False,
            )
        payload = {
            "dispute": dispute_seq,
            "of_seq": dispute["of_seq"],
            "decision": decision,
            "note": note,
            "by": ctx.actor,
            "undo": undo_seq,
        }
        return self.append(ctx, "DisputeResolved", payload, {}, owner=None)

    def dispute_revert(self, dispute_seq: int) -> undobook.Effect:
        """What resolving the dispute with ``revert`` would do. A dispute reverts
        the one event it is about: if later state events were built on it, the
        revert is refused (they belong to an undo request, which the other side
        approves), so nobody loses a later roll or purchase to a dispute."""
        of = self.disputes[str(dispute_seq)]["of_seq"]
        book = self._plan_book([of], None)
        named = undobook.targets(
            book, self.reverted, self._type_of, self.version, seqs=[of], to_seq=None
        )
        if not book[str(of)]["state"]:
            return self._undo_effect(book, named, to_seq=None, ceiling=None)
        later = undobook.later_state(self.revertible, self.reverted, of)
        built = [s for s in later if self.revertible[str(s)]["type"] != undobook.UNDO]
        effect = None
        if not built:
            # Only undos that changed state came after it: they are rewound
            # with it, as long as that puts nothing back in force.
            effect = self._undo_effect(book, sorted({*named, *later}), to_seq=None, ceiling=None)
        if effect is None or effect.restores:
            listed = ", ".join(str(s) for s in built or later)
            raise RuleViolation(
                f"events {listed} were built on event {of}: a dispute reverts one event, so "
                f"ask for an undo with to_seq {of - 1} instead, which the other side approves"
            )
        return effect

    # ------------------------------------------------------------------ apply

    def _on_dispute_filed(self, e: Applied) -> None:
        p = e.values
        self.disputes[str(e.seq)] = {
            "of_seq": p["of_seq"],
            "by": p["by"],
            "claim": p["claim"],
            "status": "open",
            "resolution": None,
        }

    def _on_dispute_resolved(self, e: Applied) -> None:
        p = e.values
        dispute = self.disputes[str(p["dispute"])]
        dispute["status"] = "upheld" if p["decision"] == "uphold" else "reverted"
        dispute["resolution"] = {
            "seq": e.seq,
            "by": p["by"],
            "decision": p["decision"],
            "note": p["note"],
            "undo": p["undo"],
        }
