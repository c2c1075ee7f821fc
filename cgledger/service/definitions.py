"""A campaign's CG definition (DESIGN §7): the one in force (also as of an
event), and amendments that take effect when the opponent or the referee
approves them. The engine checks and records everything; this module hands
it the definition in force and the amendment's patch, read from the log."""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.projections.definition import amendment_view, definition_view
from cgledger.service.ledger import Ledger
from cgledger.service.session import Asked, Caller, Written, as_of, page, run


def _amendment_of(ledger: Ledger, campaign: Campaign, seq: int) -> int:
    """The amendment a command's last event belongs to."""
    record = ledger.record(campaign, seq)
    if record["type"] == "DefinitionAmended":
        return int(record["payload"]["amendment"])
    return seq


def get_definition(caller: Caller, at: int | None) -> dict[str, Any]:
    return definition_view(caller.ledger, as_of(caller.ledger, caller.campaign, at))


def request_amendment(
    caller: Caller, *, patch: dict[str, Any], reason: str, sent: dict[str, Any], asked: Asked
) -> Written:
    """Propose a change to the definition in force; the view's ``id`` is the amendment's."""
    ledger = caller.ledger
    done = run(
        caller,
        lambda c, ctx: c.request_amendment(ctx, patch=patch, reason=reason),
        operation="definition-amendment",
        body=sent,
        asked=asked,
    )
    aid = _amendment_of(ledger, done.campaign, done.seq)
    return Written(done, amendment_view(ledger, done.campaign, aid))


def list_amendments(caller: Caller, *, after: int, limit: int) -> dict[str, Any]:
    """Amendments in seq order, paged with ``after``/``limit``."""
    campaign = caller.campaign
    found, next_after = page([int(a) for a in campaign.amendments if int(a) > after], limit)
    items = [amendment_view(caller.ledger, campaign, aid) for aid in found]
    return {"items": items, "version": campaign.version, "next_after": next_after}


def get_amendment(caller: Caller, aid: int) -> dict[str, Any]:
    return amendment_view(caller.ledger, caller.campaign, aid)


def approve_amendment(caller: Caller, aid: int, asked: Asked) -> Written:
    """The opponent of the side that asked, or the referee, puts it in force
    (the domain reads its patch and the definition in force)."""
    ledger = caller.ledger
    done = run(
        caller,
        lambda c, ctx: c.approve_amendment(ctx, aid),
        operation="definition-approve",
        body={"amendment": aid},
        asked=asked,
    )
    return Written(done, amendment_view(ledger, done.campaign, aid))


def reject_amendment(caller: Caller, aid: int, note: str | None, asked: Asked) -> Written:
    done = run(
        caller,
        lambda c, ctx: c.reject_amendment(ctx, aid, note),
        operation="definition-reject",
        body={"amendment": aid, "note": note},
        asked=asked,
    )
    return Written(done, amendment_view(caller.ledger, done.campaign, aid))
