"""The service's own endpoints: health, the index, the server key and the
rulesets with their tables (no token needed)."""

from __future__ import annotations

from typing import Any

from cgledger.api.models import Definition, Health, Index, RulesetInfo, ServerKey, TableInfo
from cgledger.client._calls import Spec, json_object, list_of, model
from cgledger.client._declare import route


class ServiceEndpoints:
    @route("GET", "/v1/health")
    def health(self) -> Spec[Health]:
        """The server's health, version and database (no token needed)."""
        return Spec(model(Health))

    @route("GET", "/")
    def index(self) -> Spec[Index]:
        """Where the service's pieces are."""
        return Spec(model(Index))

    @route("GET", "/v1/server-key")
    def server_key(self) -> Spec[ServerKey]:
        """The Ed25519 public key that signs every checkpoint."""
        return Spec(model(ServerKey))

    @route("GET", "/v1/rulesets")
    def rulesets(self) -> Spec[list[RulesetInfo]]:
        return Spec(list_of(RulesetInfo))

    @route("GET", "/v1/rulesets/{ruleset}/tables")
    def tables(self, ruleset: str) -> Spec[list[TableInfo]]:
        return Spec(list_of(TableInfo), path={"ruleset": ruleset})

    @route("GET", "/v1/rulesets/{ruleset}/tables/{table_id}")
    def table(self, ruleset: str, table_id: str) -> Spec[TableInfo]:
        return Spec(model(TableInfo), path={"ruleset": ruleset, "table_id": table_id})

    @route("GET", "/v1/rulesets/{ruleset}/definition-schema")
    def definition_schema(self, ruleset: str) -> Spec[dict[str, Any]]:
        """The JSON Schema of the ruleset's CG definitions."""
        return Spec(json_object, path={"ruleset": ruleset})

    @route("GET", "/v1/rulesets/{ruleset}/sample-definition")
    def sample_definition(self, ruleset: str) -> Spec[Definition]:
        return Spec(model(Definition), path={"ruleset": ruleset})
