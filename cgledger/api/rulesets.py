"""Routes of the rulesets this server knows: each with its campaigns, RePh
steps and die tables, its CG definition's JSON Schema and synthetic sample
(DESIGN §7). No token needed; ``cgledger.service.rulesets`` answers."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from cgledger.api.deps import RulesetId, TableId
from cgledger.api.models import (
    Definition,
    DefinitionSchema,
    ReadingInfo,
    RulesetInfo,
    TableInfo,
)
from cgledger.service import rulesets


def install_ruleset_routes(app: FastAPI) -> None:
    @app.get("/v1/rulesets", tags=["rulesets"], response_model=list[RulesetInfo])
    def list_rulesets() -> list[dict[str, Any]]:
        """Every ruleset, with its campaigns, sides and CG Date sequences."""
        return rulesets.list_rulesets()

    @app.get(
        "/v1/rulesets/{ruleset}/tables",
        tags=["rulesets"],
        response_model=list[TableInfo],
        response_model_exclude_unset=True,
    )
    def list_tables(ruleset: RulesetId) -> list[dict[str, Any]]:
        """Every die table of the ruleset: rule, dr/DR, Secret, named DRMs, bands."""
        return rulesets.list_tables(ruleset)

    @app.get(
        "/v1/rulesets/{ruleset}/tables/{table_id}",
        tags=["rulesets"],
        response_model=TableInfo,
        response_model_exclude_unset=True,
    )
    def get_table(ruleset: RulesetId, table_id: TableId) -> dict[str, Any]:
        return rulesets.get_table(ruleset, table_id)

    @app.get("/v1/rulesets/{ruleset}/readings", tags=["rulesets"], response_model=list[ReadingInfo])
    def list_readings(ruleset: RulesetId) -> list[dict[str, Any]]:
        """The ruleset's readings (DESIGN §14): where the seed text is cut or
        contradicts its example, the choices a CG definition's ``readings``
        may select, each with the seed's words, its default and why."""
        return rulesets.list_readings(ruleset)

    @app.get(
        "/v1/rulesets/{ruleset}/definition-schema",
        tags=["rulesets"],
        response_model=DefinitionSchema,
        response_model_exclude_unset=True,
    )
    def definition_schema(ruleset: RulesetId) -> dict[str, Any]:
        """The JSON Schema of the ruleset's CG definition (DESIGN §7)."""
        return rulesets.definition_schema(ruleset)

    @app.get(
        "/v1/rulesets/{ruleset}/sample-definition",
        tags=["rulesets"],
        response_model=Definition,
        response_model_exclude_unset=True,
    )
    def sample_definition(ruleset: RulesetId) -> dict[str, Any]:
        """The ruleset's sample definition: synthetic data (``"sample": true``);
        the real maps and charts belong to their publisher."""
        return rulesets.sample_definition(ruleset)
