"""What one side asks and the other (or the referee) decides: the proposals
of every kind, undo requests, disputes, and amendments of the campaign's
definition."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Unpack

from cgledger.api.models import (
    AmendmentPage,
    AmendmentView,
    DefinitionView,
    DisputePage,
    DisputeView,
    MassacreView,
    ProposalPage,
    ProposalView,
    UndoRequestPage,
    UndoRequestView,
)
from cgledger.client._declare import C, Read, Write, route


class AgreementEndpoints:
    # ---------------------------------------------------------------- proposals

    @route("GET", C + "/proposals")
    def proposals(
        self,
        *,
        status: Literal["pending", "applied", "rejected", "withdrawn"] | None = None,
        kind: Literal["undo-request", "definition-amendment", "control", "massacre"] | None = None,
        after: int = 0,
        limit: int | None = None,
        **r: Unpack[Read],
    ) -> ProposalPage:
        """The proposals of every kind (with ``status``, ``kind``: only those),
        a page at a time."""

    @route("GET", C + "/proposals/{seq}")
    def proposal(self, seq: int, **r: Unpack[Read]) -> ProposalView:
        """One proposal, by the seq of the event that made it."""

    @route("POST", C + "/proposals/{seq}/approve")
    def approve_proposal(self, seq: int, **w: Unpack[Write]) -> ProposalView:
        """Approve a proposal of any kind (the other side's, or as the referee)."""

    @route("POST", C + "/proposals/{seq}/reject")
    def reject_proposal(
        self, seq: int, note: str | None = None, **w: Unpack[Write]
    ) -> ProposalView:
        """Reject a proposal of any kind (the other side's, or as the referee)."""

    @route("POST", C + "/proposals/{seq}/withdraw")
    def withdraw_proposal(
        self, seq: int, note: str | None = None, **w: Unpack[Write]
    ) -> ProposalView:
        """Withdraw one's own proposal."""

    @route("POST", C + "/massacres")
    def record_massacre(self, by: str, note: str | None = None, **w: Unpack[Write]) -> MassacreView:
        """SSR CG4: record that side ``by``'s units massacred (A20.4): a
        side's is ``pending`` until the opponent approves it (``approve_proposal``)."""

    # ---------------------------------------------------------------- undo

    @route("POST", C + "/undo-requests")
    def request_undo(
        self,
        reason: str,
        *,
        seqs: Sequence[int] | None = None,
        to_seq: int | None = None,
        **w: Unpack[Write],
    ) -> UndoRequestView:
        """Revert events ``seqs``, or everything after ``to_seq``."""

    @route("GET", C + "/undo-requests")
    def undo_requests(
        self,
        *,
        status: str | None = None,
        after: int = 0,
        limit: int | None = None,
        **r: Unpack[Read],
    ) -> UndoRequestPage:
        """The undo requests (with ``status``: only those), a page at a time."""

    @route("GET", C + "/undo-requests/{rid}")
    def undo_request(self, rid: int, **r: Unpack[Read]) -> UndoRequestView:
        """One undo request."""

    @route("POST", C + "/undo-requests/{rid}/approve")
    def approve_undo(self, rid: int, **w: Unpack[Write]) -> UndoRequestView:
        """Approve an undo request (the other side's, or as the referee)."""

    @route("POST", C + "/undo-requests/{rid}/reject")
    def reject_undo(self, rid: int, note: str | None = None, **w: Unpack[Write]) -> UndoRequestView:
        """Reject (or, by the side that asked, withdraw) an undo request."""

    # ---------------------------------------------------------------- disputes

    @route("POST", C + "/disputes")
    def file_dispute(self, seq: int, claim: str, **w: Unpack[Write]) -> DisputeView:
        """Dispute event ``seq`` with a claim (the referee resolves it)."""

    @route("GET", C + "/disputes")
    def disputes(
        self, *, after: int = 0, limit: int | None = None, **r: Unpack[Read]
    ) -> DisputePage:
        """The disputes, a page at a time."""

    @route("GET", C + "/disputes/{did}")
    def dispute(self, did: int, **r: Unpack[Read]) -> DisputeView:
        """The dispute with its evidence."""

    @route("POST", C + "/disputes/{did}/resolve")
    def resolve_dispute(
        self,
        did: int,
        decision: Literal["uphold", "revert"],
        note: str,
        **w: Unpack[Write],
    ) -> DisputeView:
        """The referee's decision on a dispute: uphold the event or revert it."""

    # ---------------------------------------------------------------- definitions

    @route("GET", C + "/definition")
    def definition(self, *, at: int | None = None, **r: Unpack[Read]) -> DefinitionView:
        """The CG definition in force, as of ``at``."""

    @route("POST", C + "/definition-amendments")
    def request_amendment(
        self, patch: Mapping[str, Any], reason: str, **w: Unpack[Write]
    ) -> AmendmentView:
        """Propose a JSON Merge Patch to the definition in force."""

    @route("GET", C + "/definition-amendments")
    def amendments(
        self, *, after: int = 0, limit: int | None = None, **r: Unpack[Read]
    ) -> AmendmentPage:
        """The proposed amendments of the definition, a page at a time."""

    @route("GET", C + "/definition-amendments/{aid}")
    def amendment(self, aid: int, **r: Unpack[Read]) -> AmendmentView:
        """One proposed amendment."""

    @route("POST", C + "/definition-amendments/{aid}/approve")
    def approve_amendment(self, aid: int, **w: Unpack[Write]) -> AmendmentView:
        """Approve a proposed amendment of the definition."""

    @route("POST", C + "/definition-amendments/{aid}/reject")
    def reject_amendment(
        self, aid: int, note: str | None = None, **w: Unpack[Write]
    ) -> AmendmentView:
        """Reject a proposed amendment of the definition."""
