"""Routes of undo requests (DESIGN §5): ask for one, list and read them, and
the opponent's or the referee's answer (``cgledger.service.undo``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Response

from cgledger.api.deps import (
    MAX_INT,
    MAX_PAGE,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    Seq,
    _appended,
    _etag,
    asked,
)
from cgledger.api.models import UndoRequestPage, UndoRequestView
from cgledger.api.schemas import UndoRejection, UndoRequestCreate
from cgledger.service import undo


def install_undo_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/undo-requests",
        status_code=201,
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def request_undo(
        campaign_id: CampaignId,
        body: UndoRequestCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """DESIGN §5: revert events by seq, or everything after ``to_seq``. A
        side's own latest action that no roll, reveal or other event depends on
        is reverted at once (``"status": "applied"``); anything else is
        ``"pending"`` until the opponent or the referee approves or rejects it."""
        written = undo.request_undo(
            caller,
            seqs=body.seqs,
            to_seq=body.to_seq,
            reason=body.reason,
            sent=body.model_dump(mode="json"),
            asked=asked(idem, if_match),
        )
        rid = written.view["id"]
        response.headers["Location"] = f"/v1/campaigns/{campaign_id}/undo-requests/{rid}"
        return _appended(response, written)

    @app.get(
        "/v1/campaigns/{campaign_id}/undo-requests",
        tags=["undo"],
        response_model=UndoRequestPage,
        response_model_exclude_unset=True,
    )
    def list_undo_requests(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        status: Literal["pending", "applied", "rejected", "withdrawn"] | None = None,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> dict[str, Any]:
        """Undo requests in seq order, paged with ``after``/``limit``."""
        _etag(response, caller.campaign.version)
        return undo.list_undo_requests(caller, status=status, after=after, limit=limit)

    @app.get(
        "/v1/campaigns/{campaign_id}/undo-requests/{rid}",
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def get_undo_request(
        campaign_id: CampaignId, rid: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        _etag(response, caller.campaign.version)
        return undo.get_undo_request(caller, rid)

    @app.post(
        "/v1/campaigns/{campaign_id}/undo-requests/{rid}/approve",
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def approve_undo(
        campaign_id: CampaignId,
        rid: Seq,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent of the side that asked, or the referee, applies the undo."""
        return _appended(response, undo.approve_undo(caller, rid, asked(idem, if_match)))

    @app.post(
        "/v1/campaigns/{campaign_id}/undo-requests/{rid}/reject",
        tags=["undo"],
        response_model=UndoRequestView,
        response_model_exclude_unset=True,
    )
    def reject_undo(
        campaign_id: CampaignId,
        rid: Seq,
        response: Response,
        caller: Auth,
        body: UndoRejection | None = None,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent or the referee rejects the undo; the side that asked may withdraw it."""
        note = None if body is None else body.note
        return _appended(response, undo.reject_undo(caller, rid, note, asked(idem, if_match)))
