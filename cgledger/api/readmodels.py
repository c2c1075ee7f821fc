"""Routes of a campaign's read models, as the caller may see them and, with
``at``, exactly as they were answered live at that event: a side's CG Roster,
the campaign's state, the dice statistics and a side's RG Purchase Record
(``cgledger.service.readmodels``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Response

from cgledger.api.deps import At, Auth, CampaignId, SideParam, _etag
from cgledger.api.models import DiceStats, RGRecordView, RosterView, StateView
from cgledger.service import readmodels


def install_read_model_routes(app: FastAPI) -> None:
    @app.get(
        "/v1/campaigns/{campaign_id}/roster",
        tags=["read models"],
        response_model=RosterView,
        response_model_exclude_unset=True,
    )
    def roster(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        side: SideParam = None,
        at: At = None,
    ) -> dict[str, Any]:
        """The side's CG Roster (the ruleset's columns, e.g. the CPP columns of
        8.6162, 8.619 and 8.622), as the caller may see it; with ``at``, exactly
        as it was answered live at that event."""
        _etag(response, caller.campaign.version)
        return readmodels.roster(caller, side, at)

    @app.get(
        "/v1/campaigns/{campaign_id}/state",
        tags=["read models"],
        response_model=StateView,
        response_model_exclude_unset=True,
    )
    def get_state(
        campaign_id: CampaignId, response: Response, caller: Auth, at: At = None
    ) -> dict[str, Any]:
        """The campaign's state as of event ``at`` (default: now), as the caller
        may see it, with the same hidden fields as were hidden live then."""
        _etag(response, caller.campaign.version)
        return readmodels.state(caller, at)

    @app.get(
        "/v1/campaigns/{campaign_id}/dice-stats",
        tags=["read models"],
        response_model=DiceStats,
        response_model_exclude_unset=True,
    )
    def get_dice_stats(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        side: Annotated[str | None, Query(max_length=40)] = None,
        table: Annotated[
            str | None, Query(max_length=60, description="A table id, or 'free' for free rolls")
        ] = None,
        date: Annotated[str | None, Query(max_length=20, description="A CG Date")] = None,
        reverted: Annotated[
            bool, Query(description="Count rolls that were undone (they were still rolled)")
        ] = True,
        at: At = None,
    ) -> dict[str, Any]:
        """Dice statistics over the whole CG: counts, the distribution of the
        2d6 total and of each die, means and chi-square p-values. A Secret roll
        counts only for viewers who may see it (its owner, the referee, and
        everyone once it is revealed). ``at``: as answered live at that event."""
        _etag(response, caller.campaign.version)
        return readmodels.dice_stats(
            caller, side=side, table=table, date=date, reverted=reverted, at=at
        )

    @app.get(
        "/v1/campaigns/{campaign_id}/rg-record",
        tags=["read models"],
        response_model=RGRecordView,
        response_model_exclude_unset=True,
    )
    def rg_record(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        side: SideParam = None,
        at: At = None,
    ) -> dict[str, Any]:
        """The side's RG Purchase Record (8.6198, 9.6178): one row per RG
        bought or given in the Initial-Scenario OB, with what its rolls
        determined, and its Fortifications set up (8.6242). The opponent sees
        one stub per secret purchase and ``null`` for a secret result."""
        _etag(response, caller.campaign.version)
        return readmodels.rg_record(caller, side, at)
