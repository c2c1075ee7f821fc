"""``GET /rg-record``: the RG Purchase Record (docs/DESIGN.md §10) as the caller
may see it, as of any event with ``at``. The purchase commands themselves are
the ruleset's actions (``POST /rg-purchases``, ``/rg-determinations``,
``/fortification-purchases``, ``/fortification-setups``,
``/hidden-fortifications``); no rule lives here."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Response

from cgledger.api.audit import At, as_of
from cgledger.api.deps import Auth, CampaignId, SideParam, _etag, _side
from cgledger.api.models import RGRecordView
from cgledger.projections.roster import rg_record_view


def install_purchase_routes(app: FastAPI) -> None:
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
        del campaign_id
        campaign, role = caller.campaign, caller.role
        _etag(response, campaign)
        return rg_record_view(as_of(caller.ledger, campaign, at), _side(role, side), role)
