"""What the Setup Areas map marks besides the Setup Areas, as one viewer may
see it (DESIGN §12: the map shows who Controls each Location; DESIGN §4: a
hidden Fortification never reaches the opponent, not even as a count):

- :func:`control_in_force`: who Controls each hex's ground Location now, from
  the Control recorded (``ControlRecorded`` only: a pending proposal changes
  nothing, DESIGN §13), not as it was when the Setup Areas were determined;
- :func:`fortifications_seen`: the Fortifications the viewer's RG Purchase
  Record reads give it on this map group (``GET /rg-record``'s
  ``fortifications``, built through the one visibility function): its own
  side's set up in secret (8.6242, 9.621), everyone's placed on-map (8.6073,
  9.6073). What the opponent is given is the same whether or not a hidden
  one exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.projections.roster import visible_to

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def control_in_force(campaign: Campaign, map_group: str) -> dict[str, str | None]:
    """Each hex of ``map_group`` whose ground Location a side Controls now, with that side."""
    data = campaign.map_group_data(map_group)
    state = campaign.control_state(data)
    out: dict[str, str | None] = {}
    for i, hx in enumerate(data.grid.ids):
        side = state.sides.get((hx, data.ground(i)))
        if side is not None:
            out[hx] = side
    return out


def fortifications_seen(campaign: Campaign, map_group: str, viewer: str) -> dict[str, Any] | None:
    """``{"rules": {"set_up", "on_map"}, "items": [...]}``: each Fortification
    item on ``map_group`` that ``viewer`` is given, ``{"side", "hex", "level",
    "type", "count", "shown", "rule"}`` (``shown``: placed on-map, public);
    ``None`` where the ruleset keeps no Fortifications."""
    rules = campaign.ruleset.rules
    if not rules.has_rg_record:
        return None
    buy: Any = getattr(rules, "purchases", None)
    set_up = getattr(buy, "place", None)
    on_map = getattr(buy, "hidden", None)
    visible = visible_to(campaign, viewer)
    items: list[dict[str, Any]] = []
    kept = False
    for side in campaign.sides:
        forts = rules.rg_record(campaign, side, visible).get("fortifications") or {}
        if forts.get("rule") is None:
            continue
        kept = True
        for entry in forts.get("placed") or ():
            if entry.get("redacted") or entry.get("map_group") != map_group:
                continue
            for item in entry.get("items") or ():
                items.append(_item(side, item, shown=False, rule=set_up))
        for entry in forts.get("placed_on_map") or ():
            if entry.get("map_group") == map_group:
                items.append(_item(side, entry, shown=True, rule=on_map))
    if not kept:
        return None
    return {"rules": {"set_up": set_up or "", "on_map": on_map or ""}, "items": items}


def _item(side: str, item: Any, *, shown: bool, rule: str | None) -> dict[str, Any]:
    return {
        "side": side,
        "hex": item.get("hex"),
        "level": item.get("level") or 0,
        "type": item.get("type"),
        "count": item.get("count"),
        "shown": shown,
        "rule": rule,
    }
