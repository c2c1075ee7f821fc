"""The route that checks a draft CG definition (DESIGN §7, §15), for the
definition editor's validation as one types: no token, no campaign touched;
``cgledger.service.definition_check`` answers."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import Field

from cgledger.api.authoring import RulesetQuery
from cgledger.api.models import DefinitionCheck
from cgledger.domain.requests import Body
from cgledger.service import definition_check


class DraftDefinition(Body):
    """A draft definition, and the map group whose Setup Areas to draw."""

    definition: dict[str, Any] = Field(
        description="a CG definition (GET /v1/rulesets/{r}/definition-schema), checked as "
        "POST /v1/campaigns checks it"
    )
    map_group: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="a map group of the definition: its Setup Areas from its initial_control "
        "(8.605-8.6057, 9.605-9.6055) are answered; null: none",
    )
    cg_date: str | None = Field(
        default=None,
        min_length=1,
        max_length=20,
        description="the CG Date whose Eligible Entry Areas count (SSR CG6c); null: all of them",
    )


def install_definition_check_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/definition-tools/validate",
        tags=["definition-tools"],
        response_model=DefinitionCheck,
    )
    def validate_definition(body: DraftDefinition, ruleset: RulesetQuery) -> dict[str, Any]:
        """A draft CG definition checked as a campaign checks it: every problem
        at once (a 422 whose ``problems`` name each field; the detail names
        the first), or its ``hash`` (the ``definition_hash`` a campaign created
        with it records), its chart lines and hexes, the ``definition`` as the
        ledger normalises it (what that campaign holds), and, for ``map_group``,
        the Setup Areas its initial Control gives there by the ruleset's rules,
        as ``GET /setup-areas`` answers at a campaign's first event
        (``null`` for a ruleset without Setup Areas). Nothing is kept."""
        return definition_check.check_definition(
            ruleset, body.definition, body.map_group, body.cg_date
        )
