"""Undo by replay (DESIGN §5): a side's own latest action alone at once,
anything else by request (the agreement protocol, ``agreement.UNDO``); what an
undo reverts and restores is planned by ``cgledger.domain.undo``.

Slice: ``revertible`` (the revertible state events and undos), ``reverted``
(which are reverted, by which undo) and ``pending_reroll`` (per role, the undo
that reverted its rolls, shown with its next roll).
"""

from __future__ import annotations

from typing import Any

from cgledger.domain import sealed as sealbook
from cgledger.domain import undo as undobook
from cgledger.domain.campaign.agreement import UNDO, Agreement, approves
from cgledger.domain.campaign.core import MAX_REASON, Applied, text
from cgledger.domain.context import Ctx
from cgledger.domain.errors import RuleViolation
from cgledger.domain.visibility import REFEREE


class Undo(Agreement):
    def request_undo(
        self, ctx: Ctx, *, seqs: list[int] | None, to_seq: int | None, reason: str
    ) -> int:
        """DESIGN §5: ask to revert events. A side's own latest action with
        nothing depending on it (and any request of the referee) is applied at
        once; anything else waits for the opponent or the referee. Returns the
        seq of the last event appended (``UndoApplied`` or ``UndoRequested``)."""
        self._require_role(ctx)
        reason = text(reason, "reason", MAX_REASON)
        book = self._plan_book(seqs or [], to_seq)
        named = undobook.targets(
            book, self.reverted, self._type_of, self.version, seqs=seqs, to_seq=to_seq
        )
        # Check the undo now, so a request that could never apply is refused.
        effect = self._undo_effect(book, named, to_seq=to_seq, ceiling=self.version + 1)
        at_once = ctx.actor == REFEREE or undobook.alone(book, self.last_event, ctx.actor, named)
        payload = {
            "by": ctx.actor,
            "seqs": named,
            "to_seq": to_seq,
            "reason": reason,
            "at_once": at_once,
            # What it would do, shown to whoever answers it (and checked again then).
            "reverts": effect.reverts,
            "restores": effect.restores,
        }
        record = self._emit(ctx, "UndoRequested", payload, None, main=not at_once)
        if not at_once:
            return int(record["seq"])
        return self._apply_undo(
            ctx, effect, request=int(record["seq"]), by=ctx.actor, at_once=True, reason=reason
        )

    @approves(UNDO)
    def approve_undo(self, ctx: Ctx, request_seq: int) -> int:
        """The opponent of the requesting side, or the referee, applies a pending undo."""
        request = self.pending_proposal(ctx, UNDO, request_seq)
        self.check_approver(ctx, UNDO, request)
        book = self._plan_book(request["seqs"], request["to_seq"])
        effect = self._undo_effect(
            book, request["seqs"], to_seq=request["to_seq"], ceiling=request_seq, recheck=True
        )
        planned = request["planned"]
        if effect.reverts != planned["reverts"] or effect.restores != planned["restores"]:
            # Never apply more (or other) than the approver was shown.
            raise RuleViolation(
                f"the log changed since undo request {request_seq}: it would now revert "
                f"{effect.reverts} and restore {effect.restores}, not revert "
                f"{planned['reverts']} and restore {planned['restores']} as asked; "
                "reject it and ask again"
            )
        return self._apply_undo(
            ctx,
            effect,
            request=request_seq,
            by=request["by"],
            at_once=False,
            reason=request["reason"],
        )

    def reject_undo(self, ctx: Ctx, request_seq: int, note: str | None) -> int:
        """The opponent or the referee rejects a pending undo; its requester may withdraw it."""
        return self.reject_proposal(ctx, UNDO, request_seq, note)

    def reverted_by(self, seq: int) -> int | None:
        """The seq of the undo that reverted event ``seq``, if it is reverted."""
        return self.reverted.get(str(seq))

    def _plan_book(self, named: list[int], to_seq: int | None) -> undobook.Book:
        """The revertible events an undo plan can touch (``cgledger.domain.undo.Book``):
        the state events and undos the aggregate keeps, plus the rolls read
        from the log: those named, those after ``to_seq``, and those an undo
        or a revert ever flipped. Its cost grows with what the undo rewinds,
        not with the campaign's history."""
        book = dict(self.revertible)
        wanted = set(named) | {int(s) for s in self.reverted}
        for info in self.revertible.values():
            if info["type"] == undobook.UNDO:
                wanted.update(info["reverts"])
                wanted.update(info["restores"])
        records = []
        if to_seq is not None and 0 <= to_seq < self.version:
            records = self.history.records(to_seq, self.version)
        records += [
            self.record(s) for s in sorted(wanted) if str(s) not in book and 1 <= s <= self.version
        ]
        for record in records:
            if sealbook.kind_of(record) in undobook.ROLL_ONLY:
                # A roll that changed state is in ``revertible`` already.
                book[str(record["seq"])] = undobook.entry(record, state=False)
        return book

    def undo_book(self) -> undobook.Book:
        """Every revertible event of the campaign (read from the whole log)."""
        return self._plan_book([], 0)

    def _undo_effect(
        self,
        book: undobook.Book,
        named: list[int],
        *,
        to_seq: int | None,
        ceiling: int | None,
        recheck: bool = False,
    ) -> undobook.Effect:
        if recheck:
            # Approved later: every event named must still be in force.
            for seq in named:
                if str(seq) in self.reverted:
                    raise RuleViolation(
                        f"event {seq} was reverted by undo {self.reverted[str(seq)]} since "
                        "the request; reject this request"
                    )
        effect = undobook.plan(book, self.reverted, named, to_seq=to_seq, ceiling=ceiling)
        if not effect.reverts and not effect.restores:
            raise RuleViolation("this undo would change nothing")
        return effect

    def _apply_undo(
        self,
        ctx: Ctx,
        effect: undobook.Effect,
        *,
        request: int | None,
        by: str,
        at_once: bool,
        reason: str,
        dispute: int | None = None,
        main: bool = True,
    ) -> int:
        payload = {
            "request": request,
            "dispute": dispute,
            "by": by,
            "approved_by": ctx.actor,
            "at_once": at_once,
            "reason": reason,
            "reverts": effect.reverts,
            "restores": effect.restores,
            "rolls": effect.rolls,
            "rerolls": effect.rerolls,
            "state": effect.state,
        }
        record = self._emit(ctx, "UndoApplied", payload, None, main=main)
        return int(record["seq"])

    # ------------------------------------------------------------------ apply

    def _on_revertible(self, record: dict[str, Any]) -> None:
        """A state event (or a roll that changed state) can be undone."""
        self.revertible[str(record["seq"])] = undobook.entry(record, state=True)

    def _on_roll(self, e: Applied) -> None:
        """A roll by a role that an undo left to re-roll: the re-roll is made."""
        self.pending_reroll.pop(e.values["roll"]["side"], None)

    def _on_undo_applied(self, e: Applied) -> None:
        """The undo's reverts and restores; the aggregate then rebuilds the
        state from the state events in force, if it changed any."""
        seq, p = e.seq, e.values
        for s in p["reverts"]:
            self.reverted[str(s)] = seq
        for s in p["restores"]:
            self.reverted.pop(str(s), None)
        self.revertible[str(seq)] = {
            "type": undobook.UNDO,
            "actor": e.actor,
            "index": None,
            "state": p["state"],
            "reverts": p["reverts"],
            "restores": p["restores"],
            "at_once_by": p["by"] if p["at_once"] else None,
        }
        for role, marker in list(self.pending_reroll.items()):
            if marker["undo"] in p["reverts"]:
                # The undo that reverted the rolls is itself undone: no re-roll follows it.
                del self.pending_reroll[role]
        by_role: dict[str, list[int]] = p.get("rerolls") or {}
        if "rerolls" not in p:
            # An undo recorded before ``rerolls`` was: the roles of its rolls
            # are read off the entries an older aggregate kept, where it has them.
            newly = set(p["rolls"])  # indices of the rolls this undo reverted
            for s in p["reverts"]:
                info = self.revertible.get(str(s))
                if info is not None and info["index"] in newly:
                    by_role.setdefault(info["actor"], []).append(info["index"])
        for role, indices in by_role.items():
            self.pending_reroll[role] = {"undo": seq, "rolls": sorted(indices)}
