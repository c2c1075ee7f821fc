"""Results that last (DESIGN §8), shown with the campaign, its rosters and
its ``?at=`` reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.rulesets.base import ALL

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def conditions(campaign: Campaign) -> dict[str, Any]:
    """Results that last (DESIGN §8), shown with the campaign, its rosters
    and its ``?at=`` reads: the lasting table results (``Ruleset.lasting``:
    SAN, weather, ELR, ...) and the ruleset's own (8.618's shortage)."""
    out: dict[str, Any] = {}
    kept = campaign.kept_lasting()  # with the definition's starts and 9.6152's changes
    for lasting in campaign.ruleset.lasting:
        found = kept.get(lasting.key)
        if not found or lasting.key in out:
            continue
        shown = {}
        for holder, entry in found.items():
            item = {k: v for k, v in entry.items() if k not in ("before", "known")}
            if not entry["known"]:
                item["change"] = item.pop("value")  # the start is not on record
            shown["campaign" if holder == ALL else holder] = item
        out[lasting.key] = shown
    return {**out, **campaign.ruleset.rules.conditions(campaign.engine)}
