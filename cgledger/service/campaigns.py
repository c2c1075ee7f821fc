"""Campaigns: create one (its tokens shown once) and read one as its caller."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cgledger.domain.campaign.core import MAX_INITIAL_CPP
from cgledger.projections.campaign import campaign_view
from cgledger.service.keys import fingerprint
from cgledger.service.ledger import Ledger
from cgledger.service.session import Caller

__all__ = ["MAX_INITIAL_CPP", "Creation", "create_campaign", "get_campaign"]


@dataclass(frozen=True)
class Creation:
    """What a creation answers: the campaign's id, the view (with the tokens,
    or on an idempotent replay a note that they are not re-issued) and its
    signed checkpoint."""

    cid: str
    view: dict[str, Any]
    checkpoint: dict[str, Any]
    replayed: bool


def create_campaign(
    ledger: Ledger,
    *,
    ruleset: str,
    campaign: str,
    title: str,
    start_date: str | None,
    initial_cpp: dict[str, int] | None,
    definition: dict[str, Any] | None,
    sent: dict[str, Any],
    idempotency_key: str | None,
    request_id: str | None,
) -> Creation:
    """Create a campaign (``Ledger.create_campaign``); ``sent`` is the body as
    sent, which an Idempotency-Key's retry must repeat."""
    created = ledger.create_campaign(
        ruleset=ruleset,
        campaign=campaign,
        title=title,
        start_date=start_date,
        initial_cpp=initial_cpp,
        definition=definition,
        idempotency_key=idempotency_key,
        request_fingerprint=fingerprint("create", sent),
        request_id=request_id,
    )
    checkpoint = ledger.checkpoint(created.campaign)
    if created.replayed:
        # Tokens are shown once: a retry never re-issues them.
        view = {
            **campaign_view(created.campaign),
            "tokens": None,
            "tokens_note": "tokens are shown only in the first response; a retry does "
            "not re-issue them",
            "checkpoint": checkpoint,
        }
    else:
        view = {
            **campaign_view(created.campaign),
            "tokens": created.tokens,
            "checkpoint": checkpoint,
        }
    return Creation(created.campaign.cid, view, checkpoint, created.replayed)


def get_campaign(caller: Caller) -> dict[str, Any]:
    return {**campaign_view(caller.campaign), "you": caller.role}
