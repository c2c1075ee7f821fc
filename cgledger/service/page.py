"""The campaign page's one read (DESIGN §12 "Cost"): everything the page
draws, as the caller may see it, in one answer, so an action costs the page
one request to redraw instead of one per card.

Each part is the answer of the route that serves it on its own (the same
service function, called with that route's defaults), so the page can show
nothing the caller could not read part by part, and a test compares them
(tests/test_page_view.py). The map SVG travels only when it changed: the
page sends the digest of the one it shows, a digest of what the map is drawn
from (``cgledger.projections.map_digest``), so an unchanged map is not even
drawn.
"""

from __future__ import annotations

from typing import Any

from cgledger.service import campaigns, disputes, events, proposals, readmodels, reph, territory
from cgledger.service.session import Caller

#: The log's window the page reads with each redraw (the /events route's cap).
LOG_LIMIT = 1000
#: The answered proposals the page lists besides every pending one (the rest
#: are in ``GET /proposals``): a long CG has a Control proposal every date.
ANSWERED_PROPOSALS = 50
#: How many of the newest events a page that shows none yet is sent.
LOG_NEWEST = 50
#: The event of an RG bought (open, or sealed in a ``RecordSealed``).
PURCHASED = "RGPurchased"


def page_view(
    caller: Caller,
    *,
    log_after: int | None,
    map_group: str | None,
    map_digest: str | None,
) -> dict[str, Any]:
    """The page's parts: the campaign, its RePh and Initiative, each side's
    CG Roster and RG Purchase Record, the LVP, the dice statistics, the
    proposals (every pending one and the newest ``ANSWERED_PROPOSALS``
    answered; ``GET /proposals`` pages the rest) and disputes, the events
    after ``log_after`` (default: the newest 50), the caller's own RG bought
    in the open, and the map of ``map_group`` unless its digest is
    ``map_digest``."""
    campaign = caller.campaign
    sides = list(campaign.sides)
    version = campaign.version
    after = max(0, version - LOG_NEWEST) if log_after is None else log_after
    log = events.list_events(
        caller,
        after=after,
        limit=LOG_LIMIT,
        event_type=None,
        actor=None,
        table=None,
        date=None,
        reverted=True,
        before=None,
    )
    out: dict[str, Any] = {
        "version": version,
        "campaign": campaigns.get_campaign(caller),
        "reph": reph.get_reph(caller, None),
        "initiative": reph.list_initiative(caller, None, None),
        "rosters": {side: readmodels.roster(caller, side, None) for side in sides},
        "rg_records": {side: readmodels.rg_record(caller, side, None) for side in sides},
        "lvp": territory.get_lvp(caller, None),
        "dice_stats": readmodels.dice_stats(
            caller, side=None, table=None, date=None, reverted=True, at=None
        ),
        "proposals": proposals.recent_proposals(caller, answered=ANSWERED_PROPOSALS),
        "disputes": disputes.list_disputes(caller, after=0, limit=LOG_LIMIT),
        "events": log,
        "open_purchases": _open_purchases(caller),
    }
    groups = _map_groups(caller)
    if groups:
        out["map"] = _map(caller, map_group or groups[0], map_digest)
    return out


def _open_purchases(caller: Caller) -> list[int]:
    """The seqs of the caller's own RG bought in the open (an RGPurchased
    event, not a sealed record): the page offers each its own roll. Public
    events, so this says nothing the log does not.

    The answer of ``GET /events?type=RGPurchased&actor=<caller>&limit=1000``
    (reverted ones too), found in the aggregate's ``state_log``, which keeps
    every state event (an RGPurchased is one in every ruleset that buys RG)
    with whether it was sealed, instead of reading the whole log: only the
    caller's side's open purchases are read, for their actor (the referee
    may buy for a side)."""
    campaign, role = caller.campaign, caller.role
    if role not in campaign.sides:
        return []
    found: list[int] = []
    for entry in campaign.state_log:
        if entry["type"] != PURCHASED or entry.get("sealed") or entry["values"].get("side") != role:
            continue
        seq = int(entry["seq"])
        if campaign.record(seq)["actor"] == role:
            found.append(seq)
            if len(found) == LOG_LIMIT:
                break
    return found


def _map_groups(caller: Caller) -> list[str]:
    campaign = caller.campaign
    if campaign.ruleset.rules.setup_area_step is None:
        return []
    return [str(g["id"]) for g in campaign.definition_doc().get("map_groups") or ()]


def _map(caller: Caller, map_group: str, digest: str | None) -> dict[str, Any]:
    drawn = territory.live_map(caller, map_group, digest)
    return {"map_group": drawn.map_group, "digest": drawn.digest, "svg": drawn.svg}
