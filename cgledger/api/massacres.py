"""``POST /massacres`` (the CG SSR of the ruleset that has it, e.g. CG4): a
side records that a Massacre (A20.4)
occurred, as a proposal the opponent or the referee answers through
``/proposals`` (DESIGN §13); the referee's is recorded at once. No rule lives
here: ``cgledger.service.massacres`` answers it."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Response
from pydantic import Field

from cgledger.api.deps import Auth, CampaignId, IdempotencyKey, IfMatch, _appended, asked
from cgledger.api.models import MassacreView
from cgledger.domain.requests import TEXT, Body
from cgledger.service import massacres


class MassacreCreate(Body):
    by: str = Field(
        min_length=1,
        max_length=40,
        description="The side whose units massacred (A20.4), e.g. German",
        examples=["German"],
    )
    note: str | None = Field(
        default=None,
        min_length=1,
        max_length=500,
        json_schema_extra=TEXT,
        description="What happened, for the side that answers the proposal",
    )


def install_massacre_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/massacres",
        status_code=201,
        tags=["proposals"],
        response_model=MassacreView,
        response_model_exclude_unset=True,
    )
    def record_massacre(
        campaign_id: CampaignId,
        body: MassacreCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The CG SSR (CG4 of the ruleset that has it): "if a Massacre (A20.4) occurs during any CG
        scenario/RePh, all effects listed in A20.3-4 are applicable for the
        remainder of that CG". A side's record is a proposal (``pending``)
        that the opponent or the referee approves (``POST
        /proposals/{seq}/approve``); the referee's applies at once. Once
        recorded, the campaign's ``conditions`` show it (``massacre``, by
        side) for the rest of the CG."""
        written = massacres.record_massacre(caller, body.by, body.note, asked(idem, if_match))
        return _appended(response, written)
