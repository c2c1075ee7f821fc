"""The CG Roster of one side, as one viewer may see it.

The ruleset keeps the Roster's arithmetic (``Rules.roster``: e.g. the CPP
columns 8.6162, 8.619, 8.622); this projection decides what the viewer may
see: a number computed from an event the viewer may not see is ``null``, with
its column named in ``hidden``.
"""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import InvalidInput, NotImplementedForRuleset
from cgledger.domain.visibility import may_see


def roster_view(campaign: Campaign, side: str, viewer: str) -> dict[str, Any]:
    rules = campaign.ruleset.rules
    if not rules.has_roster:
        raise NotImplementedForRuleset(
            f"the CG Roster is not implemented for {campaign.ruleset_id} yet"
        )
    if side not in campaign.sides:
        raise InvalidInput(
            f"unknown side {side!r}; sides are {', '.join(campaign.sides)}", field="side"
        )

    def visible(seq: int | None) -> bool:
        if seq is None:
            return True
        owner = campaign.secret_owner(seq)
        return may_see(owner, viewer, revealed=campaign.is_revealed(seq))

    return {
        "campaign": campaign.cid,
        "side": side,
        "cg_date": campaign.cg_date,
        "version": campaign.version,
        "conditions": campaign.conditions(),
        **rules.roster(campaign, side, visible),
    }
