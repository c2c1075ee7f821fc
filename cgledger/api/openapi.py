"""The OpenAPI document says what the server really sends (DESIGN §3, §11), so
a generated client parses every answer:

- every error is ``application/problem+json`` with the ``Problem`` schema,
  including 422 (FastAPI's default entry says ``application/json`` and a
  shape the server never sends), and each route lists the error statuses it
  can answer;
- the export is JSON Lines (``application/jsonl``), the live feed is
  Server-Sent Events (``text/event-stream``);
- a read of campaign data may answer 304 to ``If-None-Match``;
- every number a request body may carry states the range the JSON parser
  takes (``cgledger.api.limits.parse_json_body``: a double's) where its model
  states none;
- an input whose valid values the campaign decides (a side, a CG Date, a Map
  Group, an event's seq) says where they are listed (``x-values-from``).

Which statuses a route can answer follows from what it is: any route may be
refused for its body size (413) or its input (422); a campaign's routes need
a token (401), may name an unknown campaign (404) and refuse a role (403); a
command may conflict (409: ``If-Match``, or a rule); creation is rate limited
(429).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from cgledger.api.deps import PROBLEM
from cgledger.api.limits import MAX_JSON_DEPTH, MAX_NUMBER
from cgledger.domain.rulesets import REGISTRY

PROBLEM_SCHEMA: dict[str, Any] = {
    "title": "Problem",
    "description": "RFC 9457 problem details. ``rule`` names the rule a refusal "
    "cites; ``field`` the input at fault; ``errors`` lists every invalid field (422).",
    "type": "object",
    "required": ["type", "title", "status", "detail"],
    "properties": {
        "type": {"type": "string", "maxLength": 200},
        "title": {"type": "string", "maxLength": 200},
        "status": {"type": "integer", "minimum": 100, "maximum": 599},
        "detail": {"type": "string", "maxLength": 1000},
        "rule": {"type": "string", "maxLength": 40},
        "field": {"type": "string", "maxLength": 200},
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["field", "message"],
                "properties": {
                    "field": {"type": "string", "maxLength": 200},
                    "message": {"type": "string", "maxLength": 300},
                },
            },
        },
        "problems": {
            "type": "array",
            "description": "A draft CG definition's problems (DESIGN §7, §15; POST "
            "/v1/definition-tools/validate), every one up to 50: the field and what is wrong",
            "items": {
                "type": "object",
                "required": ["field", "message"],
                "properties": {
                    "field": {"type": "string", "maxLength": 200},
                    "message": {"type": "string", "maxLength": 1000},
                },
            },
        },
        "cells": {
            "type": "array",
            "description": "A CSV body's bad cells (DESIGN §15), every one: its data row "
            "(from 1 after the header; 0 is the header), column, spreadsheet cell (e.g. C4; "
            "null for a column the header lacks), field (csv.<row>.<column>) and message",
            "items": {
                "type": "object",
                "required": ["row", "column", "field", "message"],
                "properties": {
                    "row": {"type": "integer", "minimum": 0},
                    "column": {"type": "string", "maxLength": 200},
                    "cell": {"type": ["string", "null"], "maxLength": 20},
                    "field": {"type": "string", "maxLength": 300},
                    "message": {"type": "string", "maxLength": 1000},
                },
            },
        },
    },
}

#: One Server-Sent Event of the live feed: ``id`` is the event's seq, ``event``
#: its type, ``data`` the JSON of the event as the caller may see it.
SSE_EVENT: dict[str, Any] = {
    "title": "FeedEvent",
    "type": "object",
    "required": ["data"],
    "properties": {
        "id": {"type": "string", "description": "The event's seq (resume with Last-Event-ID)"},
        "event": {"type": "string", "description": "The event's type"},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "description": "The event as the caller may see it, as JSON",
        },
        "retry": {"type": "integer"},
    },
}

_REASONS = {
    304: "Not modified: the If-None-Match names this view's current ETag",
    401: "No valid Bearer token for this campaign",
    403: "The token's role may not do this",
    404: "Unknown campaign, ruleset, table, roll or event",
    409: "Conflict: a stale If-Match, or a rule that refuses the command (the detail "
    "names the rule)",
    413: "The request body is over the limit (CGLEDGER_MAX_BODY_BYTES; a VASL board "
    "archive's: CGLEDGER_MAX_ARCHIVE_BYTES)",
    422: "Invalid input; the detail and ``field`` name the field. With ``errors``: the "
    "request does not match this document (each field named; ``body`` for a body the JSON "
    f"parser refuses, whatever the token: nested over {MAX_JSON_DEPTH} levels, a number beyond "
    "a double's range, not UTF-8, not JSON). Without: a value this document allows that the "
    "campaign's ruleset, CG definition or log does not have (a side, a CG Date, a Map "
    "Group, an RG, a table's input, a definition for another ruleset) or an "
    "Idempotency-Key used before for another request",
    429: "Too many campaign creations from this address; see Retry-After",
}


def _statuses(path: str, method: str) -> list[int]:
    found = [422]
    if method in ("post", "put", "patch"):
        found.append(413)
    if path.startswith("/v1/rulesets/{ruleset}"):
        found.append(404)
    if "{campaign_id}" in path:
        found += [401, 403, 404]
        if method == "post":
            found.append(409)
        else:
            found.append(304)
    if path == "/v1/campaigns" and method == "post":
        found += [409, 429]
    return sorted(set(found))


def _error(status: int) -> dict[str, Any]:
    if status == 304:
        return {"description": _REASONS[304]}
    entry: dict[str, Any] = {
        "description": _REASONS[status],
        "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }
    if status == 429:
        entry["headers"] = {
            "Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}
        }
    return entry


def _without_null(param: dict[str, Any]) -> None:
    """An optional query or header parameter is left out, never sent as null:
    ``anyOf: [X, null]`` (pydantic's ``X | None``) becomes X."""
    schema = param.get("schema", {})
    options = schema.get("anyOf")
    if param["in"] in ("query", "header") and isinstance(options, list):
        kept = [o for o in options if o != {"type": "null"}]
        if len(kept) == 1 and len(kept) < len(options):
            del schema["anyOf"]
            schema.update(kept[0])


#: Inputs whose valid values a static document cannot list: they depend on
#: the campaign (its ruleset, calendar, CG definition, log) or on what was
#: sent before. Each is marked ``x-values-from`` with where they are; a value
#: the document allows that the campaign does not have is a 422 without
#: ``errors`` naming it (see the 422's description).
_RULESET = "the campaign's ruleset (GET /v1/rulesets)"
_CALENDAR = "the campaign's calendar and current CG Date (GET /v1/campaigns/{campaign_id})"
_DEFINITION = "the campaign's CG definition (GET /v1/campaigns/{campaign_id}/definition)"
_TABLE = "the table (GET /v1/rulesets/{ruleset}/tables/{table_id})"
_LOG = "the campaign's log (GET /v1/campaigns/{campaign_id}/events)"
_GRID = (
    "a grid's own consistency (docs/authoring.md): first column and row before the last, "
    "at most 20,000 hexes, boards that agree on the kind of each column and do not overlap"
)
VALUES_FROM: dict[str, str] = {
    "campaign": "a campaign of the ruleset (GET /v1/rulesets)",
    "start_date": "a CG Date of that campaign (GET /v1/rulesets)",
    "initial_cpp": "the ruleset's sides (GET /v1/rulesets)",
    "definition": "the ruleset's (GET /v1/rulesets/{ruleset}/definition-schema)",
    "side": _RULESET,
    "by": _RULESET,
    "winner": _RULESET,
    "cvp": _RULESET,
    "vp": _RULESET,
    "to": _RULESET,
    "rule": _RULESET,
    "purpose": "not the campaign's ruleset id and a colon, which the rule routes use",
    "cg_date": _CALENDAR,
    "date": _CALENDAR,
    "map_group": _DEFINITION,
    "rg": _DEFINITION,
    "rgs": _DEFINITION,
    "cpp": _DEFINITION,
    "modifiers": _DEFINITION,
    "objective_hex": _DEFINITION,
    "items": _DEFINITION,
    "hex": _DEFINITION,
    "locations": _DEFINITION,
    "patch": _DEFINITION,
    "table": _TABLE,
    "inputs": _TABLE,
    "drm": _TABLE,
    "stated": _TABLE,
    "secret": _TABLE,
    "seq": _LOG,
    "seqs": _LOG,
    "to_seq": _LOG,
    "for_purchase": _LOG,
    "item": _LOG,
    "at": _LOG,
    "Idempotency-Key": "a key not used before for another request",
    # The authoring tools (DESIGN §15): what a static document cannot check.
    "lines": "the ruleset's chart line fields (GET /v1/rulesets/{ruleset}/definition-schema)",
    "columns": _GRID,
    "rows": _GRID,
    "boards": _GRID,
}
VALUES_MARK = "x-values-from"
_ARCHIVE = (
    "the archive's content: a zip holding BoardMetadata.xml in a layout VASL's metadata "
    "declares, and LOSData as long as its header says (docs/authoring.md)"
)
#: Request bodies that are not JSON, marked as a whole by their media type: a
#: refusal names the body by its subtype (``csv.3.cpp``: row 3, column cpp;
#: ``zip.LOSData``; ``form-data.file``: a form's part).
BODY_VALUES_FROM: dict[str, str] = {
    "text/csv": "the ruleset's chart line fields (GET /v1/rulesets/{ruleset}/definition-schema)",
    "application/zip": _ARCHIVE,
    "multipart/form-data": _ARCHIVE,
}


def _request_schemas(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every schema a request body may hold, each once, the components it
    refers to included; a node's children are read after it is yielded, so
    a caller may replace them."""
    schemas = doc["components"]["schemas"]
    stack: list[Any] = [
        op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        for item in doc.get("paths", {}).values()
        for op in item.values()
    ]
    seen: set[str] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack += node
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                stack.append(schemas[name])
            continue
        yield node
        stack += [v for k, v in node.items() if k not in ("default", "examples", "const", "enum")]


def _state_requests(doc: dict[str, Any]) -> None:
    """Every number a request body may carry states the range the JSON parser
    takes, where it states none of its own; every input whose valid values
    the campaign decides says where they are (``VALUES_FROM``)."""
    for node in _request_schemas(doc):
        if node.get("type") in ("integer", "number"):
            node.setdefault("minimum", -MAX_NUMBER)
            node.setdefault("maximum", MAX_NUMBER)
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name, sub in properties.items():
                if name in VALUES_FROM and isinstance(sub, dict):
                    # A copy: a schema object may be shared, and so marked elsewhere.
                    properties[name] = {**sub, VALUES_MARK: VALUES_FROM[name]}
    for item in doc.get("paths", {}).values():
        for op in item.values():
            for param in op.get("parameters", []):
                if param["name"] in VALUES_FROM:
                    param[VALUES_MARK] = VALUES_FROM[param["name"]]
            for media, content in op.get("requestBody", {}).get("content", {}).items():
                if media in BODY_VALUES_FROM:
                    where = BODY_VALUES_FROM[media]
                    content["schema"] = {**content.get("schema", {}), VALUES_MARK: where}


def exact_openapi(app: FastAPI) -> dict[str, Any]:
    """Build the document once, then correct it as the module docstring says."""
    if app.openapi_schema is not None:
        return app.openapi_schema
    doc = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        routes=app.routes,
    )
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    schemas.pop("HTTPValidationError", None)
    schemas.pop("ValidationError", None)
    schemas["Problem"] = PROBLEM_SCHEMA
    # The rulesets this server knows (the registry is data, so it is listed
    # when the document is built, not fixed in the model).
    create = schemas.get("CampaignCreate", {}).get("properties", {})
    if "ruleset" in create:
        create["ruleset"]["enum"] = sorted(REGISTRY)
    for item in doc.get("paths", {}).values():
        for op in item.values():
            for param in op.get("parameters", []):
                if param["name"] == "ruleset" and param["in"] in ("path", "query"):
                    param["schema"]["enum"] = sorted(REGISTRY)
                _without_null(param)
    _state_requests(doc)
    for path, item in doc.get("paths", {}).items():
        for method, op in item.items():
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            if path in {"/v1/health", "/"}:
                continue
            for status in _statuses(path, method):
                responses.setdefault(str(status), _error(status))
            if path.endswith("/export"):
                ok = responses.get("200", {})
                ok["content"] = {
                    "application/jsonl": {
                        "schema": {
                            "type": "string",
                            "description": "JSON Lines: a header line, then one event "
                            "per line, as the caller may see it",
                        }
                    }
                }
            content = responses.get("200", {}).get("content", {})
            if "text/event-stream" in content:
                content.pop("application/json", None)
                content["text/event-stream"] = {"schema": SSE_EVENT}
    app.openapi_schema = doc
    return doc


def install_exact_openapi(app: FastAPI) -> None:
    app.openapi = lambda: exact_openapi(app)  # type: ignore[method-assign]
