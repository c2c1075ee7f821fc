"""Control and LVP as read (DESIGN §9): ``GET /control`` and ``GET /lvp``,
from the Control the campaign holds and its CG-Scenario Ends."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.errors import NotFound
from cgledger.domain.rulesets.base import IDLE
from cgledger.domain.territory import BLOCK_KEY

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def control_view(campaign: Campaign, map_group: str | None) -> dict[str, Any]:
    """``GET /control``: each map group's Locations that are controlled, or
    whose Control was recorded, with the side (null: uncontrolled) and the
    seq that recorded it (null: the definition's ``initial_control``)."""
    groups = list(campaign.definition_doc().get("map_groups") or ())
    if map_group is not None:
        groups = [g for g in groups if g["id"] == map_group]
        if not groups:
            raise NotFound(f"no map group {map_group!r} in the CG definition")
    out = []
    for group in groups:
        found: dict[str, dict[str, Any]] = {
            f"{hx}/0": {"side": side, "seq": None}
            for hx, side in (group.get("initial_control") or {}).items()
        }
        blocks = []
        for key, entry in campaign.control.get(group["id"], {}).items():
            if key.startswith(BLOCK_KEY):
                blocks.append({"block": key[len(BLOCK_KEY) :], **entry})
            else:
                found[key] = entry
        order = {h["hex"]: i for i, h in enumerate(group["hexes"])}
        items = []
        for key, entry in found.items():
            hx, _, level = key.rpartition("/")
            items.append({"hex": hx, "level": int(level), **entry})
        items.sort(key=lambda x: (order.get(x["hex"], len(order)), x["level"]))
        blocks.sort(key=lambda b: str(b["block"]))
        out.append({"map_group": group["id"], "locations": items, "blocks": blocks})
    return {"cg_date": campaign.cg_date, "map_groups": out, "version": campaign.version}


def lvp_view(campaign: Campaign) -> dict[str, Any]:
    """``GET /lvp`` (DESIGN §9): the LVP of each map group, and one row per
    CG-Scenario End or Idle date. An Idle date calculates its totals where
    the ruleset says so (``Initiative.idle_lvp_rule``; e.g.
    8.6232 note 2: Current-LVP from Control, CG-LVP by 8.6033; the campaign
    keeps its row); an Idle date of a ruleset whose Idle date calculates none
    (e.g. 9.62132 note 2) repeats the last row's totals."""
    groups = campaign.definition_doc().get("map_groups") or ()
    totals = {g["id"]: sum(h.get("lvp") or 0 for h in g["hexes"]) for g in groups}
    rows: list[dict[str, Any]] = []
    ini = campaign.ruleset.initiative
    for d in campaign.facts(campaign.sides[0]).dates:
        found = campaign.lvp_rows.get(d.cg_date)
        if found is not None:
            rows.append({"cg_date": d.cg_date, "scenario": d.scenario, "cvp": d.cvp, **found})
        elif d.scenario == IDLE and rows:
            last = rows[-1]
            rows.append(
                {
                    "cg_date": d.cg_date, "scenario": IDLE, "cvp": None,
                    "start_lvp": last["current_lvp"], "current_lvp": last["current_lvp"],
                    "cg_lvp": last["cg_lvp"], "winner": None,
                    "rule": f"{ini.rule if ini else ''}: an Idle date generates no scenario",
                }
            )  # fmt: skip
    return {"map_group_totals": totals, "rows": rows, "version": campaign.version}
