"""Control of a campaign's map groups and the LVP totals (DESIGN §9): ``POST
/control`` records Control of Locations as one public event, ``GET /control``
reads it and ``GET /lvp`` the LVP by CG-Scenario End, as of any event with
``at``. No rule lives here: ``Campaign.record_control`` checks the Locations
against the CG definition's map groups, and ``Campaign.lvp_view`` lists what
each CG-Scenario End recorded."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Response
from pydantic import Field

from cgledger.api.audit import At, as_of
from cgledger.api.deps import Auth, CampaignId, IdempotencyKey, IfMatch, _appended, _etag, run
from cgledger.api.models import ControlView, LvpView
from cgledger.domain.requests import Body

MAX_LOCATIONS = 2_000


class LocationControl(Body):
    hex: str = Field(min_length=1, max_length=20, examples=["J19"])
    level: int = Field(default=0, ge=-1, le=20, description="The building level; 0: ground")
    side: str | None = Field(max_length=40, description="The side that Controls it; null: none")


class ControlCreate(Body):
    map_group: str = Field(min_length=1, max_length=20, examples=["St"])
    locations: list[LocationControl] = Field(min_length=1, max_length=MAX_LOCATIONS)


MapGroupQuery = Annotated[
    str | None, Query(description="One map group (default: all)", max_length=20)
]


def install_territory_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/control",
        status_code=201,
        tags=["territory"],
        response_model=ControlView,
        response_model_exclude_unset=True,
    )
    def record_control(
        campaign_id: CampaignId,
        body: ControlCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Record Control of Locations of one map group, as one public event
        (``side`` null: uncontrolled)."""
        sent = body.model_dump(mode="json")
        _, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.record_control(ctx, body.map_group, sent["locations"]),
            operation="control",
            body=sent,
            idem=idem,
            if_match=if_match,
        )
        view = {**done.campaign.control_view(body.map_group), "seq": done.seq}
        return _appended(response, done, view)

    @app.get(
        "/v1/campaigns/{campaign_id}/control",
        tags=["territory"],
        response_model=ControlView,
        response_model_exclude_unset=True,
    )
    def get_control(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        map_group: MapGroupQuery = None,
        at: At = None,
    ) -> dict[str, Any]:
        """Control of each map group's Locations: those controlled, or whose
        Control was recorded; a hex not listed is uncontrolled."""
        _etag(response, caller.campaign)
        return as_of(caller.ledger, caller.campaign, at).control_view(map_group)

    @app.get(
        "/v1/campaigns/{campaign_id}/lvp",
        tags=["territory"],
        response_model=LvpView,
    )
    def get_lvp(
        campaign_id: CampaignId, response: Response, caller: Auth, at: At = None
    ) -> dict[str, Any]:
        """The LVP of each map group, and one row per CG-Scenario End (its
        Current-LVP Totals at start and end, the new CG-LVP Totals of 8.6033,
        the CVP, and the winner by 8.6234 with the rule that decided) or Idle
        date."""
        _etag(response, caller.campaign)
        return as_of(caller.ledger, caller.campaign, at).lvp_view()
