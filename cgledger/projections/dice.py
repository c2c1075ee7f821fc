"""A roll or a table roll as the caller may see it, and the result of a
ruleset command (its event, and its roll if any). Records are read through
``Records``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.visibility import redact
from cgledger.projections.records import Records
from cgledger.projections.rolls import roll_view
from cgledger.projections.tables import table_roll_view

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def roll_at(records: Records, campaign: Campaign, role: str, index: int) -> dict[str, Any]:
    """Roll ``index`` of the campaign, as ``role`` may see it."""
    return roll_of(records, campaign, role, records.record(campaign, campaign.roll_seq(index)))


def _reveal_of(
    records: Records, campaign: Campaign, record: dict[str, Any]
) -> dict[str, Any] | None:
    """The SecretRevealed record of ``record``'s secret part, if it was revealed."""
    revealed = campaign.revealed_by(record["seq"]) if record["secret"] is not None else None
    if revealed is None:
        return None
    return records.record(campaign, revealed)


def _seen_with(records: Records, campaign: Campaign, record: dict[str, Any]) -> dict[str, Any]:
    """What a roll view needs besides the record: its reveal (if any), the
    server's seed for an owner or referee, and the undo that reverted it."""
    return {
        "reveal": _reveal_of(records, campaign, record),
        "unsealed_seed": records.unsealed_seed(campaign),
        "reverted_by": campaign.reverted_by(record["seq"]),
    }


def roll_of(
    records: Records, campaign: Campaign, role: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The roll held by ``record``, as ``role`` may see it (with its reveal, if any)."""
    return roll_view(record, role, **_seen_with(records, campaign, record))


def table_roll_of(
    records: Records, campaign: Campaign, role: str, record: dict[str, Any]
) -> dict[str, Any]:
    """The table roll held by ``record``, as ``role`` may see it."""
    return table_roll_view(record, role, **_seen_with(records, campaign, record))


def rule_result(records: Records, campaign: Campaign, seq: int, role: str) -> dict[str, Any]:
    """The event a rule command appended (``seq``), as the caller sees it, plus its roll if any."""
    record = records.record(campaign, seq)
    out: dict[str, Any] = {
        "seq": seq,
        "event": redact(record, role, revealed=campaign.is_revealed(seq)),
        "roll": None,
    }
    if "roll" in record["payload"]:
        out["roll"] = roll_of(records, campaign, role, record)
    return out
