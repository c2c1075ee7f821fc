"""What one side asks and the other (or the referee) decides: undo requests,
disputes, and amendments of the campaign's definition."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Unpack

from cgledger.api.models import (
    AmendmentPage,
    AmendmentView,
    DefinitionView,
    DisputePage,
    DisputeView,
    UndoRequestPage,
    UndoRequestView,
)
from cgledger.client._calls import Spec, json_body, model
from cgledger.client._declare import C, Read, Write, route


class AgreementEndpoints:
    # ---------------------------------------------------------------- undo

    @route("POST", C + "/undo-requests")
    def request_undo(
        self,
        reason: str,
        *,
        seqs: Sequence[int] | None = None,
        to_seq: int | None = None,
        **w: Unpack[Write],
    ) -> Spec[UndoRequestView]:
        """Revert events ``seqs``, or everything after ``to_seq``."""
        body = json_body(reason=reason, seqs=seqs, to_seq=to_seq)
        return Spec(model(UndoRequestView), body=body, **w)

    @route("GET", C + "/undo-requests")
    def undo_requests(
        self,
        *,
        status: str | None = None,
        after: int = 0,
        limit: int | None = None,
        **r: Unpack[Read],
    ) -> Spec[UndoRequestPage]:
        query = {"status": status, "after": after, "limit": limit}
        return Spec(model(UndoRequestPage), query=query, **r)

    @route("GET", C + "/undo-requests/{rid}")
    def undo_request(self, rid: int, **r: Unpack[Read]) -> Spec[UndoRequestView]:
        return Spec(model(UndoRequestView), path={"rid": rid}, **r)

    @route("POST", C + "/undo-requests/{rid}/approve")
    def approve_undo(self, rid: int, **w: Unpack[Write]) -> Spec[UndoRequestView]:
        return Spec(model(UndoRequestView), path={"rid": rid}, **w)

    @route("POST", C + "/undo-requests/{rid}/reject")
    def reject_undo(
        self, rid: int, note: str | None = None, **w: Unpack[Write]
    ) -> Spec[UndoRequestView]:
        """Reject (or, by the side that asked, withdraw) an undo request."""
        return Spec(model(UndoRequestView), path={"rid": rid}, body=json_body(note=note), **w)

    # ---------------------------------------------------------------- disputes

    @route("POST", C + "/disputes")
    def file_dispute(self, seq: int, claim: str, **w: Unpack[Write]) -> Spec[DisputeView]:
        return Spec(model(DisputeView), body=json_body(seq=seq, claim=claim), **w)

    @route("GET", C + "/disputes")
    def disputes(
        self, *, after: int = 0, limit: int | None = None, **r: Unpack[Read]
    ) -> Spec[DisputePage]:
        return Spec(model(DisputePage), query={"after": after, "limit": limit}, **r)

    @route("GET", C + "/disputes/{did}")
    def dispute(self, did: int, **r: Unpack[Read]) -> Spec[DisputeView]:
        """The dispute with its evidence."""
        return Spec(model(DisputeView), path={"did": did}, **r)

    @route("POST", C + "/disputes/{did}/resolve")
    def resolve_dispute(
        self,
        did: int,
        decision: Literal["uphold", "revert"],
        note: str,
        **w: Unpack[Write],
    ) -> Spec[DisputeView]:
        body = json_body(decision=decision, note=note)
        return Spec(model(DisputeView), path={"did": did}, body=body, **w)

    # ---------------------------------------------------------------- definitions

    @route("GET", C + "/definition")
    def definition(self, *, at: int | None = None, **r: Unpack[Read]) -> Spec[DefinitionView]:
        return Spec(model(DefinitionView), query={"at": at}, **r)

    @route("POST", C + "/definition-amendments")
    def request_amendment(
        self, patch: Mapping[str, Any], reason: str, **w: Unpack[Write]
    ) -> Spec[AmendmentView]:
        """Propose a JSON Merge Patch to the definition in force."""
        return Spec(model(AmendmentView), body=json_body(patch=patch, reason=reason), **w)

    @route("GET", C + "/definition-amendments")
    def amendments(
        self, *, after: int = 0, limit: int | None = None, **r: Unpack[Read]
    ) -> Spec[AmendmentPage]:
        return Spec(model(AmendmentPage), query={"after": after, "limit": limit}, **r)

    @route("GET", C + "/definition-amendments/{aid}")
    def amendment(self, aid: int, **r: Unpack[Read]) -> Spec[AmendmentView]:
        return Spec(model(AmendmentView), path={"aid": aid}, **r)

    @route("POST", C + "/definition-amendments/{aid}/approve")
    def approve_amendment(self, aid: int, **w: Unpack[Write]) -> Spec[AmendmentView]:
        return Spec(model(AmendmentView), path={"aid": aid}, **w)

    @route("POST", C + "/definition-amendments/{aid}/reject")
    def reject_amendment(
        self, aid: int, note: str | None = None, **w: Unpack[Write]
    ) -> Spec[AmendmentView]:
        return Spec(model(AmendmentView), path={"aid": aid}, body=json_body(note=note), **w)
