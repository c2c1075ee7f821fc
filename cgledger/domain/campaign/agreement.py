"""One agreement protocol (DESIGN §13): whatever one side records that binds
the opponent takes effect only when the opponent agrees, or the referee
decides.

Two forms share it:
- a **proposal** (an undo request, a definition amendment, a side's Control
  or Massacre, a side's CG-Scenario End, a side ready for the New CG Date):
  one event, pending until the opponent or the referee approves or rejects it,
  or its proposer withdraws it. Each kind (``Kind``) says only what it applies
  when approved (its command, marked ``@approves``); finding it by its seq,
  refusing a proposer's own approval, rejecting, withdrawing and listing are
  here, once.
- a **joint** act that every side says (New CG Date, CG-Scenario End, the
  Initiative chits): it takes effect when the last side says it, or at once
  when the referee does. ``joint`` says who still waits and refuses a side
  that has said it already. The first side's New CG Date and CG-Scenario End
  are proposals too: the opponent agrees by saying the same or by approving
  it, rejects it, or its proposer withdraws it.

Slice: ``undo_requests``, ``amendments``, ``control_proposals``,
``massacre_proposals``, ``scenario_end_proposals`` and ``cg_date_proposals``
(the proposals of each kind, by the seq that made them; a Control, Massacre,
CG-Scenario End or New CG Date proposal and its answers are state events,
replayed after an undo like what they record),
``ready`` (the sides ready for the New CG Date, and the date each proposed)
and ``scenario_end_proposal`` (the first side's CG-Scenario End, waiting for
the other's).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, TypeVar

from cgledger.domain.campaign.core import ACTOR, MAX_REASON, Applied, Core, reads, text
from cgledger.domain.context import Ctx
from cgledger.domain.errors import Forbidden, NotFound, RuleViolation
from cgledger.domain.visibility import REFEREE


@dataclass(frozen=True)
class Kind:
    """A kind of proposal: where its proposals are kept and how it is answered."""

    #: What ``GET /proposals`` calls it (its route's name, e.g. ``undo-request``).
    id: str
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
    "undo-request",
    "undo request",
    "undo request",
    "undo_requests",
    "UndoRejected",
    "request",
    field="request",
    reject_field="request",
)
AMENDMENT = Kind(
    "definition-amendment",
    "definition amendment",
    "amendment",
    "amendments",
    "DefinitionAmendmentRejected",
    "amendment",
    field="amendment",
)
#: A side's Control (DESIGN §9, §13): it takes effect as ``ControlRecorded``
#: when approved (``Territory.approve_control``).
CONTROL = Kind(
    "control",
    "Control proposal",
    "Control proposal",
    "control_proposals",
    "ControlRejected",
    "proposal",
    field="proposal",
    reject_field="proposal",
)
#: A side's record that a Massacre (A20.4) occurred (``Rules.massacre_rule``): it takes
#: effect as ``MassacreRecorded`` when approved (``Massacre.approve_massacre``).
MASSACRE = Kind(
    "massacre",
    "Massacre proposal",
    "Massacre proposal",
    "massacre_proposals",
    "MassacreRejected",
    "proposal",
    field="proposal",
    reject_field="proposal",
)
#: A side's CG-Scenario End (DESIGN §8, §13): it takes effect as ``ScenarioEnded``
#: when the opponent sends the same body or approves it (``ScenarioEnd.approve_scenario_end``).
SCENARIO_END = Kind(
    "scenario-end",
    "CG-Scenario End proposal",
    "CG-Scenario End",
    "scenario_end_proposals",
    "ScenarioEndRejected",
    "proposal",
    field="proposal",
    reject_field="proposal",
)
#: A side ready for the New CG Date (8.6121, 9.6121; DESIGN §13): the date
#: begins (``CGDateBegan``) when the opponent is ready too or approves it
#: (``Calendar.approve_cg_date``).
NEW_CG_DATE = Kind(
    "cg-date",
    "New CG Date proposal",
    "New CG Date",
    "cg_date_proposals",
    "CGDateRejected",
    "proposal",
    field="proposal",
    reject_field="proposal",
)
KINDS = (UNDO, AMENDMENT, CONTROL, MASSACRE, SCENARIO_END, NEW_CG_DATE)

_A = TypeVar("_A", bound=Callable[..., int])
#: The command that applies an approved proposal, by its kind's id (``approves``).
APPROVERS: dict[str, Callable[..., int]] = {}


def approves(kind: Kind) -> Callable[[_A], _A]:
    """Mark the command (``(self, ctx, seq) -> seq``) that approves a pending
    proposal of ``kind``: what it checks again and applies is the kind's own;
    ``POST /proposals/{seq}/approve`` finds it here."""

    def mark(command: _A) -> _A:
        APPROVERS[kind.id] = command
        return command

    return mark


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

    def reject_proposal(
        self, ctx: Ctx, kind: Kind, seq: int, note: str | None, *, withdraw: bool | None = None
    ) -> int:
        """The opponent or the referee rejects a pending proposal; its proposer
        may withdraw it. ``withdraw``: ``True`` only the proposer may (a
        withdrawal), ``False`` only the others (a rejection), ``None`` either
        (the kind's own route, where the proposer's rejection withdraws)."""
        proposal = self.pending_proposal(ctx, kind, seq, rejecting=True)
        mine = ctx.actor == proposal["by"]
        if withdraw is True and not mine:
            raise Forbidden(
                f"only {proposal['by']}, who proposed {kind.name} {seq}, withdraws it; "
                "the opponent or the referee rejects it"
            )
        if withdraw is False and mine:
            raise Forbidden(f"a side cannot reject its own {kind.own}; it withdraws it")
        payload = {
            kind.ref: seq,
            "by": ctx.actor,
            "note": None if note is None else text(note, "note", MAX_REASON),
            "withdrawn": ctx.actor == proposal["by"],
        }
        return self.append(ctx, kind.rejected, payload, {}, owner=None)

    def proposal_kind(self, seq: int) -> Kind:
        """The kind of proposal ``seq`` (404 if no proposal has that seq)."""
        for kind in KINDS:
            if str(seq) in self.proposals_of(kind):
                return kind
        raise NotFound(f"no proposal {seq} in this campaign", field="seq")

    def proposal_seqs(self, status: str | None = None, kind: str | None = None) -> list[int]:
        """The seqs of the proposals of every kind (or of the kind ``kind``),
        with ``status`` if given, oldest first (``GET /proposals``)."""
        out = []
        for k in KINDS:
            if kind is None or k.id == kind:
                for seq, proposal in self.proposals_of(k).items():
                    if status is None or proposal["status"] == status:
                        out.append(int(seq))
        return sorted(out)

    def approve_proposal(self, ctx: Ctx, seq: int) -> int:
        """Approve proposal ``seq``, whatever its kind: the kind's own command
        (``approves``) checks and applies it."""
        self._require_role(ctx)
        return APPROVERS[self.proposal_kind(seq).id](self, ctx, seq)

    def answer_proposal(self, ctx: Ctx, seq: int, note: str | None, *, withdraw: bool) -> int:
        """Reject (the opponent, the referee) or withdraw (its proposer)
        proposal ``seq``, whatever its kind."""
        self._require_role(ctx)
        return self.reject_proposal(ctx, self.proposal_kind(seq), seq, note, withdraw=withdraw)

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

    def _opened(self, kind: Kind, e: Applied, by: str | None = None, **data: Any) -> None:
        self.proposals_of(kind)[str(e.seq)] = {
            "by": e.values["by"] if by is None else by,
            **data,
            "status": "pending",
            "answer": None,
        }

    def _answered(
        self,
        kind: Kind,
        e: Applied,
        *,
        status: str,
        by: str,
        seq: int | None = None,
        note: str | None = None,
        **data: Any,
    ) -> None:
        """Proposal ``seq`` (default: the one the event names) settled by ``e``."""
        proposal = self.proposals_of(kind)[str(e.values[kind.ref] if seq is None else seq)]
        proposal["status"] = status
        proposal.update(data)
        if note is None and status != "applied":
            note = e.values["note"]
        proposal["answer"] = {"seq": e.seq, "by": by, "note": note}

    def _pending(self, kind: Kind) -> list[int]:
        return [int(s) for s, p in self.proposals_of(kind).items() if p["status"] == "pending"]

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

    @reads("by", "map_group")
    def _on_control_proposed(self, e: Applied) -> None:
        self._opened(CONTROL, e, map_group=e.values["map_group"])

    @reads("proposal", "approved_by")
    def _on_control_approved(self, e: Applied) -> None:
        """Control recorded: the proposal it applies, if any (the referee's
        own, and a side's before Control was agreed, apply none)."""
        if e.values.get("proposal") is not None:
            self._answered(CONTROL, e, status="applied", by=e.values["approved_by"])

    @reads("proposal", "by", "note", "withdrawn")
    def _on_control_rejected(self, e: Applied) -> None:
        self._on_rejected(CONTROL, e)

    @reads("by", "side")
    def _on_massacre_proposed(self, e: Applied) -> None:
        self._opened(MASSACRE, e, side=e.values["side"])

    @reads("proposal", "approved_by")
    def _on_massacre_recorded(self, e: Applied) -> None:
        """A Massacre recorded: the proposal it applies, if any (the referee's
        own applies none)."""
        if e.values.get("proposal") is not None:
            self._answered(MASSACRE, e, status="applied", by=e.values["approved_by"])

    @reads("proposal", "by", "note", "withdrawn")
    def _on_massacre_rejected(self, e: Applied) -> None:
        self._on_rejected(MASSACRE, e)

    @reads("side", "next")
    def _on_ready(self, e: Applied) -> None:
        side, nxt = e.values["side"], e.values["next"]
        self.ready[side] = nxt
        self._opened(NEW_CG_DATE, e, by=side, next=nxt)

    @reads("by", ACTOR)
    def _on_date_began(self, e: Applied) -> None:
        """The New CG Date began: every side's readiness is applied, by the
        side whose call began it or the referee (``by``; for a ``CGDateBegan``
        recorded before it named one, the role that recorded it)."""
        by = e.values.get("by") or e.values[ACTOR]
        for seq in self._pending(NEW_CG_DATE):
            self._answered(NEW_CG_DATE, e, status="applied", by=by, seq=seq)
        self.ready = {}

    @reads("proposal", "by", "note", "withdrawn")
    def _on_cg_date_rejected(self, e: Applied) -> None:
        """A side's readiness rejected or withdrawn: it may say it again."""
        self._on_rejected(NEW_CG_DATE, e)
        side = self.proposals_of(NEW_CG_DATE)[str(e.values["proposal"])]["by"]
        self.ready.pop(side, None)

    @reads("by", "body")
    def _on_scenario_end_proposed(self, e: Applied) -> None:
        v = e.values
        self.scenario_end_proposal = {"side": v["by"], "body": v["body"], "seq": e.seq}
        self._opened(SCENARIO_END, e, body=v["body"])

    @reads("by", "proposal", "cvp", "winner", "vp", "vp_required")
    def _on_scenario_ended(self, e: Applied) -> None:
        """CG-Scenario End recorded: the pending proposal is applied when the
        event names it; the referee's different call rejects it. (Recorded
        before it named one: applied when the body recorded is the proposal's,
        Control aside, as a side's own was always the same.)"""
        v = e.values
        for seq in self._pending(SCENARIO_END):
            if "proposal" in v:
                same = v["proposal"] == seq
            else:
                body = self.proposals_of(SCENARIO_END)[str(seq)]["body"]
                same = all(v.get(k) == x for k, x in body.items() if k != "control")
            if same:
                self._answered(SCENARIO_END, e, status="applied", by=v["by"], seq=seq)
            else:
                note = "the referee recorded a different CG-Scenario End"
                self._answered(SCENARIO_END, e, status="rejected", by=REFEREE, seq=seq, note=note)
        self.scenario_end_proposal = None

    @reads("proposal", "by", "note", "withdrawn")
    def _on_scenario_end_rejected(self, e: Applied) -> None:
        self._on_rejected(SCENARIO_END, e)
        self.scenario_end_proposal = None
