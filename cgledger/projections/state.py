"""The campaign's state as one viewer may see it (``GET /state``, and a
dispute's state before and after)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.projections.campaign import campaign_view
from cgledger.projections.roster import roster_view

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def state_view(campaign: Campaign, role: str) -> dict[str, Any]:
    """The campaign's state as ``role`` may see it: the campaign, each side's
    Roster (hidden numbers null, as live), what is reverted, and what is open."""
    rosters: dict[str, Any] | None = None
    if campaign.ruleset.rules.has_roster:
        rosters = {side: roster_view(campaign, side, role) for side in campaign.sides}
    return {
        "at": campaign.version,
        "campaign": campaign_view(campaign),
        "rosters": rosters,
        "reverted": [
            {"seq": int(seq), "by_undo": undo}
            for seq, undo in sorted(campaign.reverted.items(), key=lambda kv: int(kv[0]))
        ],
        "pending_undo_requests": sorted(
            int(rid) for rid, r in campaign.undo_requests.items() if r["status"] == "pending"
        ),
        "open_disputes": sorted(
            int(did) for did, d in campaign.disputes.items() if d["status"] == "open"
        ),
    }
