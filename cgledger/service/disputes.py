"""Disputes (DESIGN §5): flag an event, see the evidence (the roll's proof
checked by the server, the state before and after, a table roll re-read, the
territory a Control record or scenario end changed), and resolve it by
upholding the event or reverting it through the undo mechanism."""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.projections.disputes import dispute_view
from cgledger.service.ledger import Ledger
from cgledger.service.session import Asked, Caller, Written, as_of, page, run


def _view(
    ledger: Ledger, campaign: Campaign, did: int, role: str, *, evidence: bool = True
) -> dict[str, Any]:
    """The dispute as ``role`` may see it; its evidence reads the campaign as of events."""
    return dispute_view(
        ledger, campaign, did, role, as_of=lambda at: as_of(ledger, campaign, at), evidence=evidence
    )


def file_dispute(
    caller: Caller, *, seq: int, claim: str, sent: dict[str, Any], asked: Asked
) -> Written:
    """Flag an event; the view (with its evidence) has the dispute's ``id``."""
    done = run(
        caller,
        lambda c, ctx: c.file_dispute(ctx, seq, claim),
        operation="dispute",
        body=sent,
        asked=asked,
    )
    return Written(done, _view(caller.ledger, done.campaign, done.seq, caller.role))


def list_disputes(caller: Caller, *, after: int, limit: int) -> dict[str, Any]:
    """Disputes in seq order (without their evidence), paged with ``after``/``limit``."""
    campaign = caller.campaign
    found, next_after = page([int(d) for d in campaign.disputes if int(d) > after], limit)
    items = [_view(caller.ledger, campaign, did, caller.role, evidence=False) for did in found]
    return {"items": items, "version": campaign.version, "next_after": next_after}


def get_dispute(caller: Caller, did: int) -> dict[str, Any]:
    return _view(caller.ledger, caller.campaign, did, caller.role)


def resolve_dispute(
    caller: Caller, did: int, *, decision: str, note: str, sent: dict[str, Any], asked: Asked
) -> Written:
    """Uphold the event, or revert it through the undo mechanism."""
    done = run(
        caller,
        lambda c, ctx: c.resolve_dispute(ctx, did, decision, note),
        operation="dispute-resolve",
        body={"dispute": did, **sent},
        asked=asked,
    )
    return Written(done, _view(caller.ledger, done.campaign, did, caller.role))
