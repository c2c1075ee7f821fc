"""One agreement protocol (DESIGN §13): whatever one side records that binds
the opponent takes effect only when the opponent agrees, or the referee
decides.

Two forms share it:
- a **proposal** (an undo request, a definition amendment): one event, pending
  until the opponent or the referee approves or rejects it, or its proposer
  withdraws it. Each kind (``Kind``) says only what it applies when approved;
  finding it, refusing a proposer's own approval, rejecting and withdrawing
  are here, once.
- a **joint** act that every side says (New CG Date, CG-Scenario End, the
  Initiative chits): it takes effect when the last side says it, or at once
  when the referee does. ``joint`` says who still waits and refuses a side
  that has said it already.

Slice: ``undo_requests`` and ``amendments`` (the proposals of each kind, by
the seq that made them), ``ready`` (the sides ready for the New CG Date, and
the date each proposed) and ``scenario_end_proposal`` (the first side's
CG-Scenario End, waiting for the other's).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from cgledger.domain.campaign.core import MAX_REASON, Applied, Core, reads, text
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, NotFound, RuleViolation
from cgledger.domain.visibility import REFEREE


@dataclass(frozen=True)
class Kind:
    """A kind of proposal: where its proposals are kept and how it is answered."""

    #: What it is called in a refusal ("no undo request 5 in this campaign").
    name: str
    #: What a proposer cannot approve ("a side cannot approve its own amendment").
    own: str
    #: The slice that holds its proposals by seq.
    book: str
    #: The event a rejection or a withdrawal appends, and its key naming the proposal.
    rejected: str
    ref: str
    #: The field a 404 names, if any, when it is approved and when it is
    #: rejected (an amendment's rejection has named none since it was built).
    field: str | None = None
    reject_field: str | None = None


UNDO = Kind(
    "undo request",
    "undo request",
    "undo_requests",
    "UndoRejected",
    "request",
    field="request",
    reject_field="request",
)
AMENDMENT = Kind(
    "definition amendment",
    "amendment",
    "amendments",
    "DefinitionAmendmentRejected",
    "amendment",
    field="amendment",
)
KINDS = (UNDO, AMENDMENT)


class Agreement(Core):
    # ------------------------------------------------------------------ proposals

    def proposals_of(self, kind: Kind) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = getattr(self, kind.book)
        return found

    def pending_proposal(
        self, ctx: Ctx, kind: Kind, seq: int, *, rejecting: bool = False
    ) -> dict[str, Any]:
        """The pending proposal ``seq`` of ``kind`` (404 if there is none, 409
        once answered)."""
        self._require_role(ctx)
        proposal = self.proposals_of(kind).get(str(seq))
        if proposal is None:
            field = kind.reject_field if rejecting else kind.field
            raise NotFound(f"no {kind.name} {seq} in this campaign", field=field)
        if proposal["status"] != "pending":
            raise RuleViolation(f"{kind.name} {seq} is already {proposal['status']}")
        return proposal

    def check_approver(self, ctx: Ctx, kind: Kind, proposal: dict[str, Any]) -> None:
        """The opponent of the side that proposed, or the referee, approves."""
        if ctx.actor == proposal["by"]:
            raise Forbidden(
                f"a side cannot approve its own {kind.own}; the opponent or the referee does"
            )

    def reject_proposal(self, ctx: Ctx, kind: Kind, seq: int, note: str | None) -> int:
        """The opponent or the referee rejects a pending proposal; its proposer
        may withdraw it."""
        proposal = self.pending_proposal(ctx, kind, seq, rejecting=True)
        payload = {
            kind.ref: seq,
            "by": ctx.actor,
            "note": None if note is None else text(note, "note", MAX_REASON),
            "withdrawn": ctx.actor == proposal["by"],
        }
        return self.append(ctx, kind.rejected, payload, {}, owner=None)

    def pending_proposals(self) -> list[dict[str, Any]]:
        """Every pending proposal of every kind, oldest first (``GET /proposals``)."""
        out = []
        for kind in KINDS:
            for seq, proposal in self.proposals_of(kind).items():
                if proposal["status"] == "pending":
                    out.append({"seq": int(seq), "kind": kind.name, "by": proposal["by"]})
        return sorted(out, key=lambda p: int(p["seq"]))

    # ------------------------------------------------------------------ joint acts

    def joint(self, actor: str, said: Collection[str], *, refuse: str, rule: str) -> list[str]:
        """The sides that have still to say a joint act after ``actor`` says
        it (none when the referee says it for everyone). A side that has said
        it already is refused with ``refuse`` (its ``{waiting}`` filled in)."""
        if actor == REFEREE:
            return []
        waiting = [s for s in self.sides if s not in said]
        if actor in said:
            raise RuleViolation(refuse.format(waiting=", ".join(waiting)), rule=rule)
        return [s for s in waiting if s != actor]

    # ------------------------------------------------------------------ apply

    def _opened(self, kind: Kind, e: Applied, **data: Any) -> None:
        self.proposals_of(kind)[str(e.seq)] = {
            "by": e.values["by"],
            **data,
            "status": "pending",
            "answer": None,
        }

    def _answered(self, kind: Kind, e: Applied, *, status: str, by: str, **data: Any) -> None:
        proposal = self.proposals_of(kind)[str(e.values[kind.ref])]
        proposal["status"] = status
        proposal.update(data)
        note = None if status == "applied" else e.values["note"]
        proposal["answer"] = {"seq": e.seq, "by": by, "note": note}

    def _on_rejected(self, kind: Kind, e: Applied) -> None:
        status = "withdrawn" if e.values["withdrawn"] else "rejected"
        self._answered(kind, e, status=status, by=e.values["by"])

    def _on_undo_requested(self, e: Applied) -> None:
        p = e.values
        self._opened(
            UNDO,
            e,
            seqs=p["seqs"],
            to_seq=p["to_seq"],
            reason=p["reason"],
            planned={"reverts": p["reverts"], "restores": p["restores"]},
            undo=None,
        )

    def _on_undo_approved(self, e: Applied) -> None:
        if e.values["request"] is not None:
            self._answered(UNDO, e, status="applied", by=e.values["approved_by"], undo=e.seq)

    def _on_undo_rejected(self, e: Applied) -> None:
        self._on_rejected(UNDO, e)

    def _on_amendment_requested(self, e: Applied) -> None:
        self._opened(AMENDMENT, e, base_hash=e.values["base_hash"])

    def _on_amendment_approved(self, e: Applied) -> None:
        self._answered(AMENDMENT, e, status="applied", by=e.values["approved_by"])

    def _on_amendment_rejected(self, e: Applied) -> None:
        self._on_rejected(AMENDMENT, e)

    @reads("side", "next")
    def _on_ready(self, e: Applied) -> None:
        self.ready[e.values["side"]] = e.values["next"]

    @reads()
    def _on_date_began(self, e: Applied) -> None:
        del e
        self.ready = {}

    @reads("by", "body")
    def _on_scenario_end_proposed(self, e: Applied) -> None:
        v = e.values
        self.scenario_end_proposal = {"side": v["by"], "body": v["body"], "seq": e.seq}

    @reads()
    def _on_scenario_ended(self, e: Applied) -> None:
        del e
        self.scenario_end_proposal = None
