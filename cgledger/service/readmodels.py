"""Read models of a campaign, as the caller may see them and as of any event
(``at``): a side's CG Roster and RG Purchase Record, the campaign's state, and
the dice statistics."""

from __future__ import annotations

from typing import Any

from cgledger.domain.errors import InvalidInput
from cgledger.projections.dicestats import dice_stats as count_dice
from cgledger.projections.roster import rg_record_view, roster_view
from cgledger.projections.state import state_view
from cgledger.service.session import Caller, as_of, side_of


def roster(caller: Caller, side: str | None, at: int | None) -> dict[str, Any]:
    campaign = as_of(caller.ledger, caller.campaign, at)
    return roster_view(campaign, side_of(caller.role, side), caller.role)


def rg_record(caller: Caller, side: str | None, at: int | None) -> dict[str, Any]:
    campaign = as_of(caller.ledger, caller.campaign, at)
    return rg_record_view(campaign, side_of(caller.role, side), caller.role)


def state(caller: Caller, at: int | None) -> dict[str, Any]:
    return state_view(as_of(caller.ledger, caller.campaign, at), caller.role)


def dice_stats(
    caller: Caller,
    *,
    side: str | None,
    table: str | None,
    date: str | None,
    reverted: bool,
    at: int | None,
) -> dict[str, Any]:
    """Dice statistics over the whole CG (``cgledger.projections.dicestats``)."""
    ledger, role = caller.ledger, caller.role
    campaign = as_of(ledger, caller.campaign, at)
    if date is not None:
        found = campaign.ruleset.normalize_date(date)
        if found is None:
            raise InvalidInput(f"{date!r} is not a {campaign.ruleset_id} CG Date", field="date")
        date = found
    stats = count_dice(
        ledger.records(campaign),
        role,
        is_revealed=campaign.is_revealed,
        reverted_by=campaign.reverted_by,
        side=side,
        table=table,
        date=date,
        include_reverted=reverted,
    )
    return {**stats, "version": campaign.version}
