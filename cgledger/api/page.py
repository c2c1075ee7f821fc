"""The campaign page's one read (DESIGN §12 "Cost"): ``GET /page``
(``cgledger.service.page``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Response

from cgledger.api.deps import MAX_INT, Auth, CampaignId, _etag
from cgledger.api.models import PageView
from cgledger.service import page


def install_page_routes(app: FastAPI) -> None:
    @app.get(
        "/v1/campaigns/{campaign_id}/page",
        tags=["read models"],
        response_model=PageView,
        response_model_exclude_unset=True,
    )
    def get_page(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        log_after: Annotated[
            int | None,
            Query(
                ge=0,
                le=MAX_INT,
                description="Events after this seq (up to 1,000; default: the newest 50)",
            ),
        ] = None,
        map_group: Annotated[
            str | None, Query(description="The map group drawn (default: the first)", max_length=20)
        ] = None,
        map_digest: Annotated[
            str | None,
            Query(
                description="The digest of the map the page shows: the SVG is left out "
                "(null) when it has not changed",
                max_length=64,
            ),
        ] = None,
    ) -> dict[str, Any]:
        """Everything the campaign page draws, as the caller may see it, in one
        answer: each part is what its own route answers (``campaign``,
        ``reph``, ``initiative``, ``rosters`` and ``rg_records`` by side,
        ``lvp``, ``dice_stats``, ``proposals``, ``disputes``, ``events``), with
        the caller's own open RG purchases and the Setup Areas map."""
        _etag(response, caller.campaign.version)
        return page.page_view(
            caller, log_after=log_after, map_group=map_group, map_digest=map_digest
        )
