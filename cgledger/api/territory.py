"""Control of a campaign's map groups and the LVP totals (DESIGN §9): ``POST
/control`` records Control of Locations as one public event, ``GET /control``
reads it and ``GET /lvp`` the LVP by CG-Scenario End, as of any event with
``at``, and ``GET /setup-areas`` (and its SVG map) the Setup Areas. No rule
lives here: ``cgledger.service.territory`` answers each."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Response
from fastapi.responses import Response as RawResponse
from pydantic import Field

from cgledger.api.deps import (
    At,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    _appended,
    _etag,
    asked,
)
from cgledger.api.models import ControlView, LvpView, SetupAreasView
from cgledger.domain.definitions import MAX_LEVEL, MIN_LEVEL
from cgledger.domain.requests import Body
from cgledger.service import territory

MAX_LOCATIONS = 2_000


class LocationControl(Body):
    hex: str = Field(min_length=1, max_length=20, examples=["J19"])
    level: int = Field(
        default=0, ge=MIN_LEVEL, le=MAX_LEVEL, description="The building level; 0: ground"
    )
    side: str | None = Field(max_length=40, description="The side that Controls it; null: none")
    marker: Literal["E", "F", "G", "V", "none"] | None = Field(
        default=None,
        description=(
            "MARKING THE MAP: made Strategic by an Entrenchment (E), Fortification (F), "
            "functioning Gun (G) or manned Immobile vehicle with MA >= 20mm (V); "
            '"none": no longer; omitted: unchanged'
        ),
    )
    blazing: bool | None = Field(
        default=None, description="8.6057: Blazing or not; omitted: unchanged"
    )


class BlockItem(Body):
    block: str = Field(min_length=1, max_length=20, examples=["C"])
    side: str | None = Field(max_length=40, description="The side that Controls it; null: none")
    rule: Literal["9.6051"] = Field(
        default="9.6051", description="9.6051 BLOCK CONTROL FORFEITURE: by its occupants"
    )


class ControlChange(Body):
    """Control changes of one map group at CG-Scenario End (DESIGN §8)."""

    map_group: str = Field(min_length=1, max_length=20, examples=["St"])
    locations: list[LocationControl] = Field(default_factory=list, max_length=MAX_LOCATIONS)
    blocks: list[BlockItem] = Field(default_factory=list, max_length=100)


def change_of(item: ControlChange) -> dict[str, Any]:
    """A Control change as the command takes it (``side`` null kept)."""
    return {
        "map_group": item.map_group,
        "locations": [_location(loc) for loc in item.locations],
        "blocks": [b.model_dump(mode="json") for b in item.blocks],
    }


class ControlCreate(Body):
    map_group: str = Field(min_length=1, max_length=20, examples=["St"])
    locations: list[LocationControl] = Field(default_factory=list, max_length=MAX_LOCATIONS)
    blocks: list[BlockItem] = Field(
        default_factory=list,
        max_length=100,
        description="Blocks whose Control the occupants switch (9.6051)",
    )
    rule: str | None = Field(
        default=None,
        max_length=20,
        pattern=r"^[0-9]+(\.[0-9]+)*[a-z]?$",
        description=(
            "A rule that gives Control at once and names its Locations itself: 8.6131 "
            "(all U.S. units gone from the Map Group; sent by the U.S. side or the referee)"
        ),
    )


def _location(item: LocationControl) -> dict[str, Any]:
    """A Location as the command takes it: ``marker`` and ``blazing`` only
    when sent (omitted: unchanged; marker ``"none"``: no longer Strategic)."""
    out: dict[str, Any] = {"hex": item.hex, "level": item.level, "side": item.side}
    if item.marker is not None:
        out["marker"] = None if item.marker == "none" else item.marker
    if item.blazing is not None:
        out["blazing"] = item.blazing
    return out


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
        written = territory.record_control(
            caller,
            body.map_group,
            [_location(item) for item in body.locations],
            blocks=sent["blocks"],
            rule=body.rule,
            sent=sent,
            asked=asked(idem, if_match),
        )
        return _appended(response, written)

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
        _etag(response, caller.campaign.version)
        return territory.get_control(caller, map_group, at)

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
        _etag(response, caller.campaign.version)
        return territory.get_lvp(caller, at)

    @app.get(
        "/v1/campaigns/{campaign_id}/setup-areas",
        tags=["territory"],
        response_model=SetupAreasView,
    )
    def get_setup_areas(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        map_group: MapGroupQuery = None,
        at: At = None,
    ) -> dict[str, Any]:
        """Each hex's status (a side's Setup Area, No Man's Land or Uncontrolled
        Territory) and each side's Setup Areas, Isolated or not, by the
        ruleset's rules (8.605-8.6057, 9.605-9.6055): from the current Control
        until a side completes the Setup Area step, then as determined
        (``frozen``) until the next scenario is in play."""
        _etag(response, caller.campaign.version)
        return territory.get_setup_areas(caller, map_group, at)

    @app.get(
        "/v1/campaigns/{campaign_id}/setup-areas.svg",
        tags=["territory"],
        response_class=RawResponse,
        responses={200: {"content": {"image/svg+xml": {}}, "description": "The map"}},
    )
    def get_setup_areas_svg(
        campaign_id: CampaignId,
        caller: Auth,
        map_group: MapGroupQuery = None,
        at: At = None,
    ) -> RawResponse:
        """The Setup Areas drawn as an SVG map: hexes at their coordinates with
        their ids, each side's Setup Areas in its colour, No Man's Land
        hatched, Strategic Locations outlined, Isolated areas marked; who
        Controls each Location now (a tag with the side's name; a pending
        proposal changes nothing), and the Fortifications the caller's role
        is given (its own side's set up in secret, everyone's placed on-map),
        with a legend below the map."""
        found = territory.setup_areas_svg(caller, map_group, at)
        headers = {"ETag": f'"{found.version}"'}
        return RawResponse(found.svg, media_type="image/svg+xml", headers=headers)
