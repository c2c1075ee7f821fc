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
from cgledger.projections import paper
from cgledger.projections.conditions import conditions


def roster_view(campaign: Campaign, side: str, viewer: str) -> dict[str, Any]:
    rules = campaign.ruleset.rules
    if not rules.has_roster:
        raise NotImplementedForRuleset(
            f"the CG Roster is not implemented for {campaign.ruleset_id} yet"
        )
    out = {
        **_header(campaign, side),
        "conditions": conditions(campaign),
        **rules.roster(campaign, side, visible_to(campaign, viewer)),
    }
    out["paper"] = paper.roster_form(campaign.ruleset, out["columns"])
    keys = {c["key"] for c in out["paper"]["columns"]}
    if out.get("lines") and keys & set(paper.LVP_KEYS):
        out["lines"] = [_with_lvp(campaign, side, line) for line in out["lines"]]
    return out


def _with_lvp(campaign: Campaign, side: str, line: dict[str, Any]) -> dict[str, Any]:
    """8.6032-8.6033: the line's Current-LVP and CG-LVP Totals and the winner
    of its CG scenario (``null`` until its CG-Scenario End, or an Idle date's
    totals where the ruleset calculates them). Public, as ``GET /lvp``."""
    row = campaign.lvp_rows.get(line["cg_date"])
    if row is None:
        return {**line, "current_lvp": None, "cg_lvp": None, "win": None}
    return {
        **line,
        "current_lvp": row["current_lvp"].get(side),
        "cg_lvp": row["cg_lvp"].get(side),
        "win": row.get("winner"),
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
    out = {
        **_header(campaign, side),
        **rules.rg_record(campaign, side, visible_to(campaign, viewer)),
    }
    out["paper"] = paper.record_form(
        campaign.ruleset, out.get("rule"), (out.get("fortifications") or {}).get("rule")
    )
    return out
