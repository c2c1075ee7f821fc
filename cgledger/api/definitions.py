"""Routes of a campaign's CG definition (DESIGN §7): the one in force (also as
of an event), and amendments that take effect when the opponent or the
referee approves them (``cgledger.service.definitions``). Each ruleset's JSON
Schema and sample are routes of the rulesets (``cgledger.api.rulesets``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Response
from pydantic import Field

from cgledger.api.deps import (
    MAX_INT,
    MAX_PAGE,
    At,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    Seq,
    _appended,
    _etag,
    asked,
)
from cgledger.api.models import AmendmentPage, AmendmentView, DefinitionView
from cgledger.domain.requests import TEXT, Body
from cgledger.service import definitions


class AmendmentCreate(Body):
    """A JSON Merge Patch (RFC 7396) to the definition in force, and why."""

    patch: dict[str, Any] = Field(
        description="RFC 7396 JSON Merge Patch: a member set to null is removed",
        examples=[{"attack_chits": {"German": 4}}],
    )
    reason: str = Field(min_length=1, max_length=500, json_schema_extra=TEXT)


class AmendmentRejection(Body):
    note: str | None = Field(default=None, min_length=1, max_length=500, json_schema_extra=TEXT)


def install_definition_routes(app: FastAPI) -> None:
    @app.get(
        "/v1/campaigns/{campaign_id}/definition",
        tags=["definition"],
        response_model=DefinitionView,
        response_model_exclude_unset=True,
    )
    def get_definition(
        campaign_id: CampaignId, response: Response, caller: Auth, at: At = None
    ) -> dict[str, Any]:
        """The CG definition in force, with its sha256 (``hash``, over the
        canonical form); with ``at``, the one in force at that event."""
        _etag(response, caller.campaign.version)
        return definitions.get_definition(caller, at)

    @app.post(
        "/v1/campaigns/{campaign_id}/definition-amendments",
        status_code=201,
        tags=["definition"],
        response_model=AmendmentView,
        response_model_exclude_unset=True,
    )
    def request_amendment(
        campaign_id: CampaignId,
        body: AmendmentCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Propose a change to the definition. A side's amendment is ``pending``
        until the opponent or the referee approves it; the referee's applies at once."""
        written = definitions.request_amendment(
            caller,
            patch=body.patch,
            reason=body.reason,
            sent=body.model_dump(mode="json"),
            asked=asked(idem, if_match),
        )
        aid = written.view["id"]
        response.headers["Location"] = f"/v1/campaigns/{campaign_id}/definition-amendments/{aid}"
        return _appended(response, written)

    @app.get(
        "/v1/campaigns/{campaign_id}/definition-amendments",
        tags=["definition"],
        response_model=AmendmentPage,
        response_model_exclude_unset=True,
    )
    def list_amendments(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> dict[str, Any]:
        """Amendments in seq order, paged with ``after``/``limit``."""
        _etag(response, caller.campaign.version)
        return definitions.list_amendments(caller, after=after, limit=limit)

    @app.get(
        "/v1/campaigns/{campaign_id}/definition-amendments/{aid}",
        tags=["definition"],
        response_model=AmendmentView,
        response_model_exclude_unset=True,
    )
    def get_amendment(
        campaign_id: CampaignId, aid: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        _etag(response, caller.campaign.version)
        return definitions.get_amendment(caller, aid)

    @app.post(
        "/v1/campaigns/{campaign_id}/definition-amendments/{aid}/approve",
        tags=["definition"],
        response_model=AmendmentView,
        response_model_exclude_unset=True,
    )
    def approve_amendment(
        campaign_id: CampaignId,
        aid: Seq,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent of the side that asked, or the referee, puts it in force."""
        written = definitions.approve_amendment(caller, aid, asked(idem, if_match))
        return _appended(response, written)

    @app.post(
        "/v1/campaigns/{campaign_id}/definition-amendments/{aid}/reject",
        tags=["definition"],
        response_model=AmendmentView,
        response_model_exclude_unset=True,
    )
    def reject_amendment(
        campaign_id: CampaignId,
        aid: Seq,
        response: Response,
        caller: Auth,
        body: AmendmentRejection | None = None,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent or the referee rejects it; the side that asked may withdraw it."""
        note = None if body is None else body.note
        written = definitions.reject_amendment(caller, aid, note, asked(idem, if_match))
        return _appended(response, written)
