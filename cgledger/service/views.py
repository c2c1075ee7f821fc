"""Views several resources answer with: the campaign, a roll or a table roll
as the caller may see it, one event of the log, and a ruleset command's
result. They read records through the ``Ledger`` and format them with
``cgledger.projections``."""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.domain.visibility import redact
from cgledger.projections.conditions import conditions
from cgledger.projections.rolls import roll_view
from cgledger.projections.tables import table_roll_view
from cgledger.service.ledger import Done, Ledger


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


def event_item(campaign: Campaign, record: dict[str, Any], role: str) -> dict[str, Any]:
    """One event as ``role`` may see it, marked with the undo that reverted it."""
    seq = record["seq"]
    item = redact(record, role, revealed=record["secret"] is not None and campaign.is_revealed(seq))
    item["reverted_by"] = campaign.reverted_by(seq)
    return item


def roll_at(ledger: Ledger, campaign: Campaign, role: str, index: int) -> dict[str, Any]:
    """Roll ``index`` of the campaign, as ``role`` may see it."""
    return roll_of(ledger, campaign, role, ledger.record(campaign, campaign.roll_seq(index)))


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


def roll_of(
    ledger: Ledger, campaign: Campaign, role: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The roll held by ``record``, as ``role`` may see it (with its reveal, if any)."""
    return roll_view(record, role, **_seen_with(ledger, campaign, record))


def table_roll_of(
    ledger: Ledger, campaign: Campaign, role: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The table roll held by ``record``, as ``role`` may see it."""
    return table_roll_view(record, role, **_seen_with(ledger, campaign, record))


def rule_result(ledger: Ledger, done: Done, role: str) -> dict[str, Any]:
    """The event a rule command appended, as the caller sees it, plus its roll if any."""
    campaign = done.campaign
    record = ledger.record(campaign, done.seq)
    out: dict[str, Any] = {
        "seq": done.seq,
        "event": redact(record, role, revealed=campaign.is_revealed(done.seq)),
        "roll": None,
    }
    if "roll" in record["payload"]:
        out["roll"] = roll_of(ledger, campaign, role, record)
    return out
