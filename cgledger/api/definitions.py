"""CG definitions (DESIGN §7): each ruleset's JSON Schema and synthetic sample,
a campaign's definition in force (also as of an event), and amendments that
take effect when the opponent or the referee approves them. No rule lives
here: the engine (``cgledger.domain.campaign``) checks and records everything."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query, Response
from pydantic import Field

from cgledger.api.audit import At, Seq, _page, as_of
from cgledger.api.deps import (
    MAX_INT,
    MAX_PAGE,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    RulesetId,
    _appended,
    _etag,
    run,
)
from cgledger.api.models import AmendmentPage, AmendmentView, Definition, DefinitionView
from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import NotFound
from cgledger.domain.requests import Body
from cgledger.domain.rulesets import REGISTRY, Ruleset
from cgledger.ledger import Ledger


class AmendmentCreate(Body):
    """A JSON Merge Patch (RFC 7396) to the definition in force, and why."""

    patch: dict[str, Any] = Field(
        description="RFC 7396 JSON Merge Patch: a member set to null is removed",
        examples=[{"attack_chits": {"German": 4}}],
    )
    reason: str = Field(min_length=1, max_length=500)


class AmendmentRejection(Body):
    note: str | None = Field(default=None, min_length=1, max_length=500)


def _ruleset(ruleset: str) -> Ruleset:
    rs = REGISTRY.get(ruleset)
    if rs is None:
        raise NotFound(f"unknown ruleset {ruleset!r}; known: {', '.join(REGISTRY)}")
    return rs


def definition_view(ledger: Ledger, campaign: Campaign) -> dict[str, Any]:
    """The definition in force as of the campaign's version, with its hash and
    the seq of the event that put it in force."""
    found = campaign.definition
    return {
        "definition": ledger.definition(campaign),
        "hash": None if found is None else found["hash"],
        "seq": None if found is None else found["seq"],
        "version": campaign.version,
    }


def amendment_view(ledger: Ledger, campaign: Campaign, aid: int) -> dict[str, Any]:
    amendment = campaign.amendments.get(str(aid))
    if amendment is None:
        raise NotFound(f"no definition amendment {aid} in this campaign", field="amendment")
    p = ledger.record(campaign, aid)["payload"]
    return {
        "id": aid,
        "status": amendment["status"],
        "by": amendment["by"],
        "patch": p["patch"],
        "reason": p["reason"],
        "base_hash": p["base_hash"],
        "result_hash": p["result_hash"],
        "answer": amendment["answer"],
        "version": campaign.version,
    }


def _amendment_of(ledger: Ledger, campaign: Campaign, seq: int) -> int:
    """The amendment a command's last event belongs to."""
    record = ledger.record(campaign, seq)
    if record["type"] == "DefinitionAmended":
        return int(record["payload"]["amendment"])
    return seq


def install_definition_routes(app: FastAPI) -> None:
    @app.get("/v1/rulesets/{ruleset}/definition-schema", tags=["rulesets"])
    def definition_schema(ruleset: RulesetId) -> dict[str, Any]:
        """The JSON Schema of the ruleset's CG definition (DESIGN §7)."""
        schema: dict[str, Any] = _ruleset(ruleset).definition.model_json_schema()
        return schema

    @app.get(
        "/v1/rulesets/{ruleset}/sample-definition",
        tags=["rulesets"],
        response_model=Definition,
        response_model_exclude_unset=True,
    )
    def sample_definition(ruleset: RulesetId) -> dict[str, Any]:
        """The ruleset's sample definition: synthetic data (``"sample": true``);
        the real maps and charts belong to their publisher."""
        return dict(_ruleset(ruleset).sample_definition)

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
        _etag(response, caller.campaign)
        return definition_view(caller.ledger, as_of(caller.ledger, caller.campaign, at))

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
        ledger = caller.ledger
        ledger, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.request_amendment(ctx, patch=body.patch, reason=body.reason),
            operation="definition-amendment",
            body=body.model_dump(mode="json"),
            idem=idem,
            if_match=if_match,
        )
        aid = _amendment_of(ledger, done.campaign, done.seq)
        response.headers["Location"] = f"/v1/campaigns/{campaign_id}/definition-amendments/{aid}"
        return _appended(response, done, amendment_view(ledger, done.campaign, aid))

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
        campaign = caller.campaign
        _etag(response, campaign)
        ids = [int(a) for a in campaign.amendments if int(a) > after]
        page, next_after = _page(ids, limit)
        items = [amendment_view(caller.ledger, campaign, aid) for aid in page]
        return {"items": items, "version": campaign.version, "next_after": next_after}

    @app.get(
        "/v1/campaigns/{campaign_id}/definition-amendments/{aid}",
        tags=["definition"],
        response_model=AmendmentView,
        response_model_exclude_unset=True,
    )
    def get_amendment(
        campaign_id: CampaignId, aid: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        _etag(response, caller.campaign)
        return amendment_view(caller.ledger, caller.campaign, aid)

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
        ledger = caller.ledger

        ledger, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.approve_amendment(ctx, aid),
            operation="definition-approve",
            body={"amendment": aid},
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, amendment_view(ledger, done.campaign, aid))

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
        ledger, _, done = run(
            caller,
            campaign_id,
            lambda c, ctx: c.reject_amendment(ctx, aid, note),
            operation="definition-reject",
            body={"amendment": aid, "note": note},
            idem=idem,
            if_match=if_match,
        )
        return _appended(response, done, amendment_view(ledger, done.campaign, aid))
