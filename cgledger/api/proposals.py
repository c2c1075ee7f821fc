"""Routes of the agreement protocol (DESIGN §13): the proposals of every kind
(undo requests, definition amendments, Control, Massacres, CG-Scenario End, New CG Date)
listed and read in one place, and approved, rejected or withdrawn by their seq
(``cgledger.service.proposals``). The routes of each kind (``undo-requests``,
``definition-amendments``, ``scenario-end``, ``cg-dates``) stay."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Response
from pydantic import Field

from cgledger.api.deps import (
    MAX_INT,
    MAX_PAGE,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    Seq,
    _appended,
    _etag,
    asked,
)
from cgledger.api.models import ProposalPage, ProposalView
from cgledger.domain.requests import Body
from cgledger.service import proposals

Status = Literal["pending", "applied", "rejected", "withdrawn"]
Kind = Literal[
    "undo-request", "definition-amendment", "control", "massacre", "scenario-end", "cg-date"
]


class ProposalAnswer(Body):
    note: str | None = Field(default=None, min_length=1, max_length=500)


def install_proposal_routes(app: FastAPI) -> None:
    @app.get(
        "/v1/campaigns/{campaign_id}/proposals",
        tags=["proposals"],
        response_model=ProposalPage,
        response_model_exclude_unset=True,
    )
    def list_proposals(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        status: Status | None = None,
        kind: Kind | None = None,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    ) -> dict[str, Any]:
        """The proposals of every kind (undo requests, definition amendments,
        Control, Massacres, CG-Scenario End, New CG Date) in seq order, as the
        caller may see them; ``status=pending``: those waiting for an answer.
        Paged with ``after``/``limit``."""
        _etag(response, caller.campaign.version)
        return proposals.list_proposals(caller, status=status, kind=kind, after=after, limit=limit)

    @app.get(
        "/v1/campaigns/{campaign_id}/proposals/{seq}",
        tags=["proposals"],
        response_model=ProposalView,
        response_model_exclude_unset=True,
    )
    def get_proposal(
        campaign_id: CampaignId, seq: Seq, response: Response, caller: Auth
    ) -> dict[str, Any]:
        """One proposal, by the seq of the event that made it."""
        _etag(response, caller.campaign.version)
        return proposals.get_proposal(caller, seq)

    @app.post(
        "/v1/campaigns/{campaign_id}/proposals/{seq}/approve",
        tags=["proposals"],
        response_model=ProposalView,
        response_model_exclude_unset=True,
    )
    def approve_proposal(
        campaign_id: CampaignId,
        seq: Seq,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent of the side that proposed it, or the referee, approves
        it: it takes effect (an undo is applied, an amendment put in force,
        Control or a Massacre recorded, the CG-Scenario End recorded, the New
        CG Date begun), if it still does what it proposed."""
        return _appended(response, proposals.approve_proposal(caller, seq, asked(idem, if_match)))

    @app.post(
        "/v1/campaigns/{campaign_id}/proposals/{seq}/reject",
        tags=["proposals"],
        response_model=ProposalView,
        response_model_exclude_unset=True,
    )
    def reject_proposal(
        campaign_id: CampaignId,
        seq: Seq,
        response: Response,
        caller: Auth,
        body: ProposalAnswer | None = None,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The opponent of the side that proposed it, or the referee, rejects
        it: it never takes effect (its proposer withdraws instead)."""
        note = None if body is None else body.note
        written = proposals.reject_proposal(caller, seq, note, asked(idem, if_match))
        return _appended(response, written)

    @app.post(
        "/v1/campaigns/{campaign_id}/proposals/{seq}/withdraw",
        tags=["proposals"],
        response_model=ProposalView,
        response_model_exclude_unset=True,
    )
    def withdraw_proposal(
        campaign_id: CampaignId,
        seq: Seq,
        response: Response,
        caller: Auth,
        body: ProposalAnswer | None = None,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """The side that proposed it withdraws it: it never takes effect."""
        note = None if body is None else body.note
        written = proposals.withdraw_proposal(caller, seq, note, asked(idem, if_match))
        return _appended(response, written)
