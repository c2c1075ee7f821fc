"""The campaign as every caller may see it, and one event of its log as one
viewer may see it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.visibility import redact
from cgledger.projections.conditions import conditions

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


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
