"""Routes of disputes (DESIGN §5): flag an event, read a dispute with its
evidence, and resolve it (``cgledger.service.disputes``)."""

from __future__ import annotations

from typing import Annotated, Any

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
from cgledger.api.models import DisputePage, DisputeView
from cgledger.api.schemas import DisputeCreate, DisputeResolution
from cgledger.service import disputes


def install_dispute_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/disputes",
        status_code=201,
        tags=["disputes"],
        response_model=DisputeView,
        response_model_exclude_unset=True,
    )
    def file_dispute(
        campaign_id: CampaignId,
        body: DisputeCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Flag an event; the answer holds the evidence (as ``GET`` does)."""
        written = disputes.file_dispute(
            caller,
            seq=body.seq,
            claim=body.claim,
            sent=body.model_dump(mode="json"),
            asked=asked(idem, if_match),
        )
        did = written.view["id"]
        response.headers["Location"] = f"/v1/campaigns/{campaign_id}/disputes/{did}"
        return _appended(response, written)

    @app.get(
        "/v1/campaigns/{campaign_id}/disputes",
        tags=["disputes"],
        response_model=DisputePage,
        response_model_exclude_unset=True,
    )
    def list_disputes(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> dict[str, Any]:
        """Disputes in seq order (without their evidence), paged with ``after``/``limit``."""
        _etag(response, caller.campaign.version)
        return disputes.list_disputes(caller, after=after, limit=limit)

    @app.get(
        "/v1/campaigns/{campaign_id}/disputes/{did}",
        tags=["disputes"],
        response_model=DisputeView,
        response_model_exclude_unset=True,
    )
    def get_dispute(
        campaign_id: CampaignId, did: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        """The dispute with its evidence: the roll's proof checked by the server,
        the state just before and after the event, and for a table roll the
        result re-read from the recorded roll, DRMs and table definition."""
        _etag(response, caller.campaign.version)
        return disputes.get_dispute(caller, did)

    @app.post(
        "/v1/campaigns/{campaign_id}/disputes/{did}/resolve",
        tags=["disputes"],
        response_model=DisputeView,
        response_model_exclude_unset=True,
    )
    def resolve_dispute(
        campaign_id: CampaignId,
        did: Seq,
        body: DisputeResolution,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Uphold the event, or revert it through the undo mechanism (only the
        opponent of the side that filed the dispute, or the referee)."""
        written = disputes.resolve_dispute(
            caller,
            did,
            decision=body.decision,
            note=body.note,
            sent=body.model_dump(mode="json"),
            asked=asked(idem, if_match),
        )
        return _appended(response, written)
