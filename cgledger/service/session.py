"""A request as the service sees it: who calls (``Caller``: the campaign as
loaded and the caller's role, after ``authenticate``), how a command was
asked (``Asked``: Idempotency-Key and If-Match), and what a command answers
(``Written``: the ``Done`` of the ledger and the view to return)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cgledger.domain.campaign import Campaign, Ctx
from cgledger.domain.errors import DomainError, InvalidInput, NotFound, VersionConflict
from cgledger.domain.visibility import REFEREE
from cgledger.service.ledger import Done, Ledger


class Unauthorized(DomainError):
    status = 401
    slug = "unauthorized"
    title = "Unauthorized"


@dataclass(frozen=True)
class Caller:
    """The authenticated caller: the campaign as loaded and the caller's role."""

    ledger: Ledger
    campaign: Campaign
    role: str
    request_id: str | None = None


def authenticate(
    ledger: Ledger, campaign_id: str, token: str | None, request_id: str | None = None
) -> Caller:
    """404 for an unknown campaign, then 401 without a valid token."""
    campaign = ledger.load(campaign_id)
    role = ledger.authenticate(campaign, token)
    if role is None:
        raise Unauthorized("a valid Bearer token for this campaign is required")
    return Caller(ledger, campaign, role, request_id)


@dataclass(frozen=True)
class Asked:
    """How a command was asked: its Idempotency-Key and its If-Match, as sent
    (``if_match_version`` reads it when the command runs)."""

    idempotency_key: str | None = None
    if_match: str | None = None


#: What an ``If-Match`` may hold, as the OpenAPI document states it (a JSON
#: Schema ``pattern``) and as ``if_match_version`` reads it: ``*``, or a
#: version of 1 to 18 digits, quoted or not, weak (``W/``) or not, then
#: anything after a ``-`` (the view part of an ETag sent back verbatim).
IF_MATCH_PATTERN = r'^[ \t]*(?:\*|(W/)?"*([0-9]{1,18})(?:-[^\r\n]*)?"*)[ \t]*$'
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def if_match_version(if_match: str | None) -> int | None:
    """The campaign version an ``If-Match`` names: ``"12"``, or an ETag of a
    read sent back verbatim (``"12-…"``: the version, then the view); ``*``
    matches any current version (RFC 9110 13.1.1)."""
    if if_match is None:
        return None
    found = _IF_MATCH.fullmatch(if_match)
    if found is None:
        raise InvalidInput('If-Match must be a campaign version such as "12"', field="If-Match")
    weak, version = found.groups()
    if version is None:
        return None  # *
    if weak:
        # RFC 9110 13.1.1: If-Match uses the strong comparison; a weak tag never matches.
        raise VersionConflict('If-Match needs a strong entity tag, e.g. "12"', field="If-Match")
    return int(version)


@dataclass(frozen=True)
class Written:
    """What a command answers: the ledger's ``Done`` and the view to return."""

    done: Done
    view: dict[str, Any]


def run(
    caller: Caller,
    command: Callable[[Campaign, Ctx], int],
    *,
    operation: str,
    body: Any,
    asked: Asked,
) -> Done:
    """Run one command for ``caller`` (``Ledger.execute``), on the campaign as
    the request loaded it."""
    return caller.ledger.execute(
        caller.campaign.cid,
        caller.role,
        command,
        operation=operation,
        body=body,
        idempotency_key=asked.idempotency_key,
        if_match=if_match_version(asked.if_match),
        request_id=caller.request_id,
        loaded=caller.campaign,
    )


def as_of(ledger: Ledger, campaign: Campaign, at: int | None) -> Campaign:
    """The campaign as of event ``at`` (DESIGN §5, time travel)."""
    if at is None or at == campaign.version:
        return campaign
    if at > campaign.version:
        raise NotFound(f"no event {at} in this campaign (it is at {campaign.version})", field="at")
    return ledger.load(campaign.cid, version=at)


def page(ids: list[int], limit: int) -> tuple[list[int], int | None]:
    """The first ``limit`` of ``ids`` in order, and the ``after`` of the next page."""
    ordered = sorted(ids)
    found = ordered[:limit]
    return found, found[-1] if len(ordered) > limit else None


def side_of(role: str, side: str | None) -> str:
    """The side a read model is about: the one named, else the caller's own
    (the referee has none, so must name it)."""
    if side is not None:
        return side
    if role == REFEREE:
        raise InvalidInput("the referee must name the side", field="side")
    return role
