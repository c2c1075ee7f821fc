"""Routes of dice (DESIGN §2): free rolls, rolls on a rule table, a roll as
the caller may see it, and the reveal of a Secret roll."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Response

from cgledger.api.deps import (
    MAX_INT,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    _appended,
    _etag,
    asked,
)
from cgledger.api.models import RollView, TableRollView
from cgledger.api.schemas import RollCreate, TableRollCreate
from cgledger.service import dice


def install_dice_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/rolls",
        status_code=201,
        tags=["dice"],
        response_model=RollView,
        response_model_exclude_unset=True,
    )
    def make_roll(
        campaign_id: CampaignId,
        body: RollCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Roll 1 or 2 dice under ``cgledger-dice/1``; ``secret`` hides them from the opponent."""
        written = dice.make_roll(
            caller,
            dice=body.dice,
            purpose=body.purpose,
            secret=body.secret,
            client_nonce=body.client_nonce,
            sent=body.model_dump(mode="json"),
            asked=asked(idem, if_match),
        )
        return _appended(response, written)

    @app.post(
        "/v1/campaigns/{campaign_id}/tables/{table_id}/rolls",
        status_code=201,
        tags=["dice"],
        response_model=TableRollView,
        response_model_exclude_unset=True,
    )
    def roll_table(
        campaign_id: CampaignId,
        table_id: Annotated[str, Path(description="e.g. kgp:8.606-infantry", max_length=60)],
        body: TableRollCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Roll on a rule table with named DRMs; records and returns the Original
        roll, each DRM as applied, the Final result and the outcome."""
        written = dice.roll_table(
            caller,
            table_id,
            drm=[d.model_dump() for d in body.drm],
            inputs=dict(body.inputs),
            secret=body.secret,
            client_nonce=body.client_nonce,
            sent=body.model_dump(mode="json"),
            asked=asked(idem, if_match),
        )
        return _appended(response, written)

    @app.get(
        "/v1/campaigns/{campaign_id}/rolls/{index}",
        tags=["dice"],
        response_model=RollView,
        response_model_exclude_unset=True,
    )
    def get_roll(
        campaign_id: CampaignId,
        index: Annotated[int, Path(ge=0, le=MAX_INT)],
        response: Response,
        caller: Auth,
    ) -> dict[str, Any]:
        _etag(response, caller.campaign.version)
        return dice.get_roll(caller, index)

    @app.post(
        "/v1/campaigns/{campaign_id}/rolls/{index}/reveal",
        tags=["dice"],
        response_model=RollView,
        response_model_exclude_unset=True,
    )
    def reveal_roll(
        campaign_id: CampaignId,
        index: Annotated[int, Path(ge=0, le=MAX_INT)],
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Publish the seed of a Secret roll (owning side or referee only)."""
        return _appended(response, dice.reveal_roll(caller, index, asked(idem, if_match)))
