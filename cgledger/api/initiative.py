"""Initiative Determination (8.623, 9.6213; DESIGN §8): each side's chit is
secret until both are chosen, then both are revealed with the scenario they
generate. No rule lives here: ``Campaign.choose_initiative`` decides, and the
campaign's ``initiative_view`` redacts for the caller."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Response
from pydantic import Field

from cgledger.api.audit import At, as_of
from cgledger.api.deps import Auth, CampaignId, IdempotencyKey, IfMatch, _appended, _etag, run
from cgledger.api.models import InitiativePage, InitiativeView
from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import InvalidInput
from cgledger.domain.requests import Body


class InitiativeCreate(Body):
    chit: Literal["attack", "idle"] = Field(description="8.6232: an Attack or an Idle chit")
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side."
    )


def _dates(campaign: Campaign, cg_date: str | None) -> list[str]:
    if cg_date is None:
        return [d for d in campaign.calendar if d in campaign.initiatives]
    found = campaign.ruleset.normalize_date(cg_date)
    if found is None or found not in campaign.calendar:
        raise InvalidInput(
            f"{cg_date!r} is not a CG Date of this campaign", field="cg_date"
        )
    return [found]


def install_initiative_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/initiative",
        status_code=201,
        tags=["refit phase"],
        response_model=InitiativeView,
        response_model_exclude_unset=True,
    )
    def choose_initiative(
        campaign_id: CampaignId,
        body: InitiativeCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """8.6232 (9.62132): choose this CG Date's Initiative chit. The opponent
        sees that it was chosen, never which, until both are; the second chit
        reveals both and records the scenario (and a Dual Attack's setup dr)."""
        ledger = caller.ledger

        def choose(c: Campaign, ctx: Any) -> int:
            limits = (ledger.definition(c) or {}).get("attack_chits") or {}
            return c.choose_initiative(ctx, body.side, body.chit, attack_limits=limits)

        ledger, role, done = run(
            caller,
            campaign_id,
            choose,
            operation="initiative",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        campaign = done.campaign
        date = ledger.record(campaign, done.seq)["payload"]["cg_date"]
        view = {**campaign.initiative_view(date, role), "seq": done.seq}
        return _appended(response, done, view)

    @app.get(
        "/v1/campaigns/{campaign_id}/initiative",
        tags=["refit phase"],
        response_model=InitiativePage,
        response_model_exclude_unset=True,
    )
    def list_initiative(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        cg_date: Annotated[str | None, Query(description="A CG Date", max_length=20)] = None,
        at: At = None,
    ) -> dict[str, Any]:
        """Each CG Date's Initiative as the caller may see it: who has chosen, and
        the chits once both are chosen (before that, only the caller's own)."""
        _etag(response, caller.campaign)
        campaign = as_of(caller.ledger, caller.campaign, at)
        items = [campaign.initiative_view(d, caller.role) for d in _dates(campaign, cg_date)]
        return {"items": items, "version": campaign.version}
