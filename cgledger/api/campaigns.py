"""Routes of campaigns: create one (its tokens are shown once) and read it."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request, Response

from cgledger.api.deps import (
    CHECKPOINT_HEADER,
    Auth,
    CampaignId,
    IdempotencyKey,
    _etag,
    _ledger,
    request_id,
)
from cgledger.api.limits import client_address
from cgledger.api.models import CampaignCreated, CampaignView
from cgledger.api.schemas import CampaignCreate
from cgledger.service import campaigns


def install_campaign_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns",
        status_code=201,
        tags=["campaigns"],
        response_model=CampaignCreated,
        response_model_exclude_unset=True,
    )
    def create_campaign(
        body: CampaignCreate, request: Request, response: Response, idem: IdempotencyKey = None
    ) -> dict[str, Any]:
        """Create a campaign. The response holds the only copy of each token.
        Rate limited per client address (DESIGN §11): 429 with Retry-After."""
        request.app.state.create_limit.check(client_address(request))
        made = campaigns.create_campaign(
            _ledger(request),
            ruleset=body.ruleset,
            campaign=body.campaign,
            title=body.title,
            start_date=body.start_date,
            initial_cpp=body.initial_cpp,
            definition=body.definition,
            sent=body.model_dump(mode="json"),
            idempotency_key=idem,
            request_id=request_id(request),
        )
        response.headers["Location"] = f"/v1/campaigns/{made.cid}"
        response.headers[CHECKPOINT_HEADER] = json.dumps(made.checkpoint, separators=(",", ":"))
        if made.replayed:
            # The status is the first answer's (201), like every idempotent replay.
            response.headers["Idempotent-Replayed"] = "true"
        return made.view

    @app.get(
        "/v1/campaigns/{campaign_id}",
        tags=["campaigns"],
        response_model=CampaignView,
        response_model_exclude_unset=True,
    )
    def get_campaign(campaign_id: CampaignId, response: Response, caller: Auth) -> dict[str, Any]:
        _etag(response, caller.campaign.version)
        return campaigns.get_campaign(caller)
