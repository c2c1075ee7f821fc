"""A route for every ruleset command (``Rules.actions``) of every registered
ruleset: ``POST /v1/campaigns/{id}/{action.path}``. The body is validated
with the model of the campaign's own ruleset, after authentication
(``cgledger.service.actions``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, FastAPI, Response
from fastapi.exceptions import RequestValidationError

from cgledger.api.deps import Auth, CampaignId, IdempotencyKey, IfMatch, _appended, asked
from cgledger.api.models import ActionResult
from cgledger.domain.rulesets import Action
from cgledger.service import actions
from cgledger.service.rulesets import actions_by_path


def install_actions(app: FastAPI) -> None:
    for path, found in actions_by_path().items():
        _action_route(app, path, found)


def _action_route(app: FastAPI, path: str, found: list[Action]) -> None:
    schemas: list[dict[str, Any]] = []
    for a in found:  # rulesets that share a command share its body (8.616 and 9.616)
        schema = _inline_schema(a.body.model_json_schema())
        if schema not in schemas:
            schemas.append(schema)
    # anyOf, not oneOf: a body valid for two rulesets' models is still valid.
    body_schema = schemas[0] if len(schemas) == 1 else {"anyOf": schemas}
    rules = sorted({a.rule for a in found})

    def act(
        campaign_id: CampaignId,
        body: Annotated[dict[str, Any], Body()],
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        try:
            written = actions.perform(caller, path, body, asked(idem, if_match))
        except actions.InvalidBody as exc:
            raise RequestValidationError(exc.errors) from None
        return _appended(response, written)

    act.__name__ = "action_" + path.replace("-", "_")
    app.add_api_route(
        f"/v1/campaigns/{{campaign_id}}/{path}",
        act,
        methods=["POST"],
        status_code=201,
        tags=["refit phase"],
        response_model=ActionResult,
        response_model_exclude_unset=True,
        summary=f"{', '.join(rules)}: {found[0].summary.split(': ', 1)[-1]}",
        description="\n\n".join(a.summary for a in found),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": body_schema}},
            }
        },
    )


def _inline_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON Schema with its ``$defs`` inlined, for ``openapi_extra``."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return walk(defs[ref.removeprefix("#/$defs/")])
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    inlined: dict[str, Any] = walk(schema)
    return inlined
