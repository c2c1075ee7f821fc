"""The RePh sequence and Initiative Determination (DESIGN §8). ``GET /reph``
shows each side's status of each step; ``POST /reph/advance`` completes a
side's steps up to another; each side's Initiative chit (8.623, 9.6213) is
secret until both are chosen, then both are revealed with the scenario they
generate; ``POST /cg-dates`` begins the next CG Date, and each ruleset's own
commands (``cgledger.api.actions``) are steps of it. No rule lives here:
``cgledger.service.reph`` hands each to the aggregate."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import FastAPI, Query, Response
from pydantic import Field, StrictInt, StringConstraints

from cgledger.api.actions import install_actions
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
from cgledger.api.models import (
    CGDateView,
    InitiativePage,
    InitiativeView,
    RePhView,
    ScenarioEndResult,
)
from cgledger.api.schemas import CGDateCreate
from cgledger.api.territory import ControlChange, change_of
from cgledger.domain.requests import Body
from cgledger.service import reph


class AdvanceCreate(Body):
    to: str = Field(
        min_length=1,
        max_length=20,
        examples=["8.619"],
        description="The step to make current (a rule number of GET /v1/rulesets' reph_steps), "
        "or 'scenario' to complete every remaining step",
    )
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side."
    )


#: CVP or VP of one side in one scenario.
Points = Annotated[StrictInt, Field(ge=0, le=100_000)]


class ScenarioEndCreate(Body):
    """CG-Scenario End (DESIGN §8): the CVP each side earned (its opponent's
    losses); a ruleset that keeps VP (2.91) also takes the VP scored and the VP
    required (its ``Rules.scenario_end_fields``)."""

    cvp: dict[Annotated[str, StringConstraints(max_length=40)], Points] = Field(
        max_length=10, description="Each side's CVP earned, by side id"
    )
    vp: dict[Annotated[str, StringConstraints(max_length=40)], Points] | None = Field(
        default=None,
        max_length=10,
        description="2.91: the VP scored, by side id (where the ruleset keeps VP)",
    )
    control: list[ControlChange] | None = Field(
        default=None,
        max_length=50,
        description=(
            "DESIGN §8: last Control changes at CG-Scenario End, each as the body of "
            "POST /control (no rule); the LVP is counted after them"
        ),
    )
    winner: str | None = Field(
        default=None,
        max_length=40,
        description=(
            "The scenario's winner, where the rules in the seed cannot decide it "
            "(8.6234b and SG 2.9 are cut after 'and/'); refused where they do"
        ),
    )
    vp_required: StrictInt | None = Field(
        default=None,
        ge=0,
        le=100_000,
        description="2.91: the VP required to win it (where the ruleset keeps VP)",
    )


class InitiativeCreate(Body):
    chit: Literal["attack", "idle"] = Field(description="8.6232: an Attack or an Idle chit")
    side: str | None = Field(
        default=None, max_length=40, description="Defaults to the caller's side."
    )


def install_reph_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/cg-dates",
        status_code=201,
        tags=["refit phase"],
        response_model=CGDateView,
        response_model_exclude_unset=True,
    )
    def begin_cg_date(
        campaign_id: CampaignId,
        body: CGDateCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """RePh 8.6121: begin the next CG Date."""
        written = reph.begin_cg_date(
            caller, body.cg_date, body.model_dump(mode="json"), asked(idem, if_match)
        )
        return _appended(response, written)

    install_actions(app)

    @app.post(
        "/v1/campaigns/{campaign_id}/scenario-end",
        status_code=201,
        tags=["refit phase"],
        response_model=ScenarioEndResult,
        response_model_exclude_unset=True,
    )
    def scenario_end(
        campaign_id: CampaignId,
        body: ScenarioEndCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """CG-Scenario End (8.603, 9.603, 2.9): while the scenario is
        in play, both sides send the same body (the first is ``proposed``), or
        the referee calls it (``recorded`` at once). Every side then begins the
        next RePh at its first step."""
        sent = body.model_dump(mode="json", exclude_none=True)
        if body.control is not None:
            sent["control"] = [change_of(item) for item in body.control]
        return _appended(response, reph.end_scenario(caller, sent, asked(idem, if_match)))

    @app.get(
        "/v1/campaigns/{campaign_id}/reph",
        tags=["refit phase"],
        response_model=RePhView,
        response_model_exclude_unset=True,
    )
    def get_reph(
        campaign_id: CampaignId, response: Response, caller: Auth, at: At = None
    ) -> dict[str, Any]:
        """The RePh sequence of the current CG Date: each step with its markers
        and each side's status (``done``, ``current``, ``pending``, ``n/a``),
        and the scenario the Initiative generated, if any yet."""
        _etag(response, caller.campaign.version)
        return reph.get_reph(caller, at)

    @app.post(
        "/v1/campaigns/{campaign_id}/reph/advance",
        status_code=201,
        tags=["refit phase"],
        response_model=RePhView,
        response_model_exclude_unset=True,
    )
    def advance(
        campaign_id: CampaignId,
        body: AdvanceCreate,
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Complete the side's steps from its current one up to ``to``, which
        becomes current. A step whose required action is not done, or the
        Initiative before both chits are chosen, stops it (409, the step's rule)."""
        written = reph.advance(
            caller, body.side, body.to, body.model_dump(mode="json"), asked(idem, if_match)
        )
        return _appended(response, written)

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
        written = reph.choose_initiative(
            caller, body.side, body.chit, body.model_dump(mode="json"), asked(idem, if_match)
        )
        return _appended(response, written)

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
        _etag(response, caller.campaign.version)
        return reph.list_initiative(caller, cg_date, at)
