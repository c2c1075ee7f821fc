"""What every route shares: problem+json, authentication, If-Match, ETags,
the run-a-command helper, and the roll views. Routes live in ``cgledger.api.app`` and
``cgledger.api.audit``; no rule lives here."""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, Path, Query, Request, Response
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.errors import DomainError, InvalidInput, VersionConflict
from cgledger.domain.visibility import REFEREE
from cgledger.ledger import Done, Ledger
from cgledger.projections.conditions import conditions
from cgledger.projections.rolls import roll_view
from cgledger.projections.tables import table_roll_view

PROBLEM = "application/problem+json"
MAX_PAGE = 1000
MAX_INT = 2**63 - 1  # the databases' BIGINT


class Unauthorized(DomainError):
    status = 401
    slug = "unauthorized"
    title = "Unauthorized"


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
IfMatch = Annotated[
    str | None,
    Header(
        alias="If-Match",
        max_length=100,
        description='The ETag of the last read (e.g. "12" or "12-…"), or * for any version',
    ),
]


def _ledger(request: Request) -> Ledger:
    ledger: Ledger = request.app.state.ledger
    return ledger


@dataclass(frozen=True)
class Caller:
    """The authenticated caller: the campaign as loaded and the caller's role."""

    ledger: Ledger
    campaign: Campaign
    role: str
    request_id: str | None = None


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
    ledger = _ledger(request)
    campaign = ledger.load(campaign_id)
    role = ledger.authenticate(campaign, creds.credentials if creds else None)
    if role is None:
        raise Unauthorized("a valid Bearer token for this campaign is required")
    return Caller(ledger, campaign, role, request_id(request))


Auth = Annotated[Caller, Depends(_caller)]


def _version(if_match: str | None) -> int | None:
    """The campaign version an ``If-Match`` names: ``"12"``, or an ETag of a
    read sent back verbatim (``"12-…"``: the version, then the view); ``*``
    matches any current version (RFC 9110 13.1.1)."""
    if if_match is None or if_match.strip() == "*":
        return None
    text = if_match.strip()
    weak = text.startswith("W/")
    text = text.removeprefix("W/").strip('"').split("-", 1)[0]
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise InvalidInput('If-Match must be a campaign version such as "12"', field="If-Match")
    if weak:
        # RFC 9110 13.1.1: If-Match uses the strong comparison; a weak tag never matches.
        raise VersionConflict('If-Match needs a strong entity tag, e.g. "12"', field="If-Match")
    return int(text)


def _side(role: str, side: str | None) -> str:
    if side is not None:
        return side
    if role == REFEREE:
        raise InvalidInput("the referee must name the side", field="side")
    return role


def _etag(response: Response, campaign: Campaign) -> None:
    response.headers["ETag"] = f'"{campaign.version}"'


CHECKPOINT_HEADER = "Cgledger-Checkpoint"


def _appended(response: Response, done: Done, body: dict[str, Any]) -> dict[str, Any]:
    """Headers of an appending response, and its body with the campaign's latest
    signed checkpoint (also in the ``Cgledger-Checkpoint`` header, as JSON)."""
    _etag(response, done.campaign)
    if done.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    response.headers[CHECKPOINT_HEADER] = json.dumps(done.checkpoint, separators=(",", ":"))
    return {**body, "checkpoint": done.checkpoint}


def campaign_view(campaign: Campaign) -> dict[str, Any]:
    rs = campaign.ruleset
    return {
        "id": campaign.cid,
        "ruleset": campaign.ruleset_id,
        "campaign": campaign.campaign_name,
        "title": campaign.title,
        "sides": campaign.sides,
        "cg_date": campaign.cg_date,
        "cg_dates": campaign.calendar,
        "extendable": campaign.extendable,
        # DESIGN §8: each side's current step (``scenario``: ready to play).
        "reph_step": {
            side: {"id": step, "title": rs.step(step).title}
            for side in campaign.sides
            for step in (campaign.current_step(side),)
        },
        "ready_for_next_cg_date": sorted(campaign.ready),
        "conditions": conditions(campaign),
        "definition_hash": campaign.definition_hash,
        "rolls": campaign.roll_count,
        "version": campaign.version,
        "head": campaign.head,
    }


def _roll(ledger: Ledger, campaign: Campaign, role: str, index: int) -> dict[str, Any]:
    return _roll_view(ledger, campaign, role, ledger.record(campaign, campaign.roll_seq(index)))


def _reveal_of(ledger: Ledger, campaign: Campaign, record: dict[str, Any]) -> dict[str, Any] | None:
    """The SecretRevealed record of ``record``'s secret part, if it was revealed."""
    revealed = campaign.revealed_by(record["seq"]) if record["secret"] is not None else None
    if revealed is None:
        return None
    return ledger.record(campaign, revealed)


def _seen_with(ledger: Ledger, campaign: Campaign, record: dict[str, Any]) -> dict[str, Any]:
    """What a roll view needs besides the record: its reveal (if any), the
    server's seed for an owner or referee, and the undo that reverted it."""
    return {
        "reveal": _reveal_of(ledger, campaign, record),
        "unsealed_seed": ledger.unsealed_seed(campaign),
        "reverted_by": campaign.reverted_by(record["seq"]),
    }


def _roll_view(
    ledger: Ledger, campaign: Campaign, role: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The roll held by ``record``, as ``role`` may see it (with its reveal, if any)."""
    return roll_view(record, role, **_seen_with(ledger, campaign, record))


def _table_roll(
    ledger: Ledger, campaign: Campaign, role: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The table roll held by ``record``, as ``role`` may see it."""
    return table_roll_view(record, role, **_seen_with(ledger, campaign, record))


def run(
    caller: Caller,
    campaign_id: str,
    command: Callable[[Campaign, Ctx], int],
    *,
    operation: str,
    body: Any,
    idem: str | None,
    if_match: str | None,
) -> tuple[Ledger, str, Done]:
    ledger, role = caller.ledger, caller.role
    done = ledger.execute(
        campaign_id,
        role,
        command,
        operation=operation,
        body=body,
        idempotency_key=idem,
        if_match=_version(if_match),
        request_id=caller.request_id,
        loaded=caller.campaign,
    )
    return ledger, role, done
