"""What every route shares: problem+json, authentication, the parameters
(Idempotency-Key, If-Match, ``at``), ETags and the headers of an appending
answer. Routes live in one module per resource (``cgledger.api.dice``,
``cgledger.api.events``, ...), each calling one ``cgledger.service`` function;
no rule lives here."""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from cgledger.service import Ledger
from cgledger.service.session import IF_MATCH_PATTERN, Asked, Caller, Written, authenticate

PROBLEM = "application/problem+json"
MAX_PAGE = 1000
MAX_INT = 2**63 - 1  # the databases' BIGINT


#: An error never echoes more than this much of what it complains about.
MAX_DETAIL = 500


def short(text: str, limit: int = MAX_DETAIL) -> str:
    """``text``, cut to ``limit`` characters with a marker saying so."""
    return text if len(text) <= limit else text[:limit] + f"… ({len(text) - limit} more)"


def problem(
    status: int,
    slug: str,
    title: str,
    detail: str,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body = {"type": f"urn:cgledger:problem:{slug}", "title": title, "status": status}
    body["detail"] = short(detail)
    body.update({k: v for k, v in extra.items() if v is not None})
    headers = dict(headers or {})
    if status == 401:
        headers["WWW-Authenticate"] = "Bearer"
    return JSONResponse(body, status_code=status, media_type=PROBLEM, headers=headers)


bearer = HTTPBearer(auto_error=False, description="A token returned by POST /v1/campaigns")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
CampaignId = Annotated[str, Path(description="Campaign id", max_length=100)]
#: ``?side=`` of a side's read model; the referee must name it (``_side``).
SideParam = Annotated[str | None, Query(description="Defaults to the caller's side", max_length=40)]
RulesetId = Annotated[str, Path(description="Ruleset id (GET /v1/rulesets)", max_length=40)]
TableId = Annotated[str, Path(description="Table id (GET /v1/rulesets/{r}/tables)", max_length=100)]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=r"^[\x21-\x7e]+$",
        description="Printable ASCII, no spaces: a retry with the same key replays "
        "the first answer",
    ),
]
Seq = Annotated[int, Path(ge=1, le=MAX_INT)]
At = Annotated[
    int | None,
    Query(ge=1, le=MAX_INT, description="A seq: the answer as it was given live at that event"),
]
IfMatch = Annotated[
    str | None,
    Header(
        alias="If-Match",
        max_length=100,
        description='The ETag of the last read (e.g. "12" or "12-…"), or * for any version',
        # Stated, not checked here: the service reads it by the same pattern
        # and names the header in its 422.
        json_schema_extra={"pattern": IF_MATCH_PATTERN},
    ),
]


def _ledger(request: Request) -> Ledger:
    ledger: Ledger = request.app.state.ledger
    return ledger


REQUEST_ID_HEADER = "X-Request-ID"
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequestIds:
    """ASGI middleware: draw an id for every request, keep it in
    ``request.state.request_id`` and return it as ``X-Request-ID``. Every event
    the request appends records it (``meta.request_id``).

    The id is always the server's, never a client's ``X-Request-ID``: the
    record is public, even on a secret event, and a client's id could carry
    words ("buy-I2-for-1") the opponent must not read. A pure ASGI middleware,
    so the live feed's streaming responses pass through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = rid

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((REQUEST_ID_HEADER.lower().encode(), rid.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_id)


def request_id(request: Request) -> str | None:
    rid = getattr(request.state, "request_id", None)
    return rid if isinstance(rid, str) else None


def _caller(request: Request, campaign_id: CampaignId, creds: Credentials) -> Caller:
    """Dependency: 404 for an unknown campaign, then 401 without a valid token.

    As a dependency it runs before the body is validated, so a request without
    a valid token gets 401 whatever its body says.
    """
    token = creds.credentials if creds else None
    return authenticate(_ledger(request), campaign_id, token, request_id(request))


Auth = Annotated[Caller, Depends(_caller)]


def _etag(response: Response, version: int) -> None:
    response.headers["ETag"] = f'"{version}"'


CHECKPOINT_HEADER = "Cgledger-Checkpoint"


def asked(idem: str | None, if_match: str | None) -> Asked:
    """How a command was asked: its Idempotency-Key and If-Match headers."""
    return Asked(idem, if_match)


def _appended(response: Response, written: Written) -> dict[str, Any]:
    """Headers of an appending response, and its body with the campaign's latest
    signed checkpoint (also in the ``Cgledger-Checkpoint`` header, as JSON)."""
    done = written.done
    _etag(response, done.campaign.version)
    if done.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers[CHECKPOINT_HEADER] = json.dumps(done.checkpoint, separators=(",", ":"))
    return {**written.view, "checkpoint": done.checkpoint}
