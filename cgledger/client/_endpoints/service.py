"""The service's own endpoints: health, the index, the server key and the
rulesets with their tables (no token needed)."""

# An endpoint method is declared by its signature; its body is its docstring
# (cgledger.client._declare.route).
# mypy: disable-error-code="empty-body"

from __future__ import annotations

from typing import Any

from cgledger.api.models import (
    Definition,
    Health,
    Index,
    ReadingInfo,
    RulesetInfo,
    ServerKey,
    TableInfo,
)
from cgledger.client._declare import route


class ServiceEndpoints:
    @route("GET", "/v1/health")
    def health(self) -> Health:
        """The server's health, version and database (no token needed)."""

    @route("GET", "/")
    def index(self) -> Index:
        """Where the service's pieces are."""

    @route("GET", "/v1/server-key")
    def server_key(self) -> ServerKey:
        """The Ed25519 public key that signs every checkpoint."""

    @route("GET", "/v1/rulesets")
    def rulesets(self) -> list[RulesetInfo]:
        """The rulesets the server knows."""

    @route("GET", "/v1/rulesets/{ruleset}/tables")
    def tables(self, ruleset: str) -> list[TableInfo]:
        """The rule tables of ``ruleset``."""

    @route("GET", "/v1/rulesets/{ruleset}/tables/{table_id}")
    def table(self, ruleset: str, table_id: str) -> TableInfo:
        """One rule table of ``ruleset``."""

    @route("GET", "/v1/rulesets/{ruleset}/readings")
    def readings(self, ruleset: str) -> list[ReadingInfo]:
        """The readings of ``ruleset`` (DESIGN §14): each with its choices and default."""

    @route("GET", "/v1/rulesets/{ruleset}/definition-schema")
    def definition_schema(self, ruleset: str) -> dict[str, Any]:
        """The JSON Schema of the ruleset's CG definitions."""

    @route("GET", "/v1/rulesets/{ruleset}/sample-definition")
    def sample_definition(self, ruleset: str) -> Definition:
        """A sample CG definition of ``ruleset``."""
