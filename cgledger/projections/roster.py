"""The CG Roster and the RG Purchase Record of one side, as one viewer may see them.

The ruleset keeps the Roster's arithmetic (``Rules.roster``: e.g. the CPP
columns 8.6162, 8.619, 8.622); this projection decides what the viewer may
see: a number computed from an event the viewer may not see is ``null``, with
its column named in ``hidden``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import InvalidInput, NotImplementedForRuleset
from cgledger.domain.visibility import may_see
from cgledger.projections.conditions import conditions


def roster_view(campaign: Campaign, side: str, viewer: str) -> dict[str, Any]:
    rules = campaign.ruleset.rules
    if not rules.has_roster:
        raise NotImplementedForRuleset(
            f"the CG Roster is not implemented for {campaign.ruleset_id} yet"
        )
    return {
        **_header(campaign, side),
        "conditions": conditions(campaign),
        **rules.roster(campaign, side, visible_to(campaign, viewer)),
    }


def visible_to(campaign: Campaign, viewer: str) -> Callable[[int | None], bool]:
    """Whether ``viewer`` may see event ``seq`` (``None``: nothing to hide)."""

    def visible(seq: int | None) -> bool:
        if seq is None:
            return True
        owner = campaign.secret_owner(seq)
        return may_see(owner, viewer, revealed=campaign.is_revealed(seq))

    return visible


def _header(campaign: Campaign, side: str) -> dict[str, Any]:
    if side not in campaign.sides:
        raise InvalidInput(
            f"unknown side {side!r}; sides are {', '.join(campaign.sides)}", field="side"
        )
    return {
        "campaign": campaign.cid,
        "side": side,
        "cg_date": campaign.cg_date,
        "version": campaign.version,
    }


def rg_record_view(campaign: Campaign, side: str, viewer: str) -> dict[str, Any]:
    """The RG Purchase Record (docs/DESIGN.md §10; 8.6198, 9.6178) of one side,
    as one viewer may see it: the ruleset lays it out, visibility decides what
    shows (a secret purchase is one stub per event, a secret result ``null``)."""
    rules = campaign.ruleset.rules
    if not rules.has_rg_record:
        raise NotImplementedForRuleset(
            f"{campaign.ruleset_id} keeps no RG Purchase Record in this ledger"
        )
    return {
        **_header(campaign, side),
        **rules.rg_record(campaign, side, visible_to(campaign, viewer)),
    }
