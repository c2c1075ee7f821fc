"""Control of a campaign's map groups, the LVP totals and the Setup Areas
(DESIGN §9), as of any event; ``Campaign.record_control`` checks the
Locations against the CG definition's map groups."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.projections.map_digest import map_digest, map_title
from cgledger.projections.map_marks import control_in_force, fortifications_seen
from cgledger.projections.setup_map import render_svg
from cgledger.projections.territory import control_view, lvp_view
from cgledger.service.session import Asked, Caller, Written, as_of, run


def record_control(
    caller: Caller,
    map_group: str,
    locations: list[dict[str, Any]],
    *,
    blocks: list[dict[str, Any]],
    rule: str | None,
    sent: dict[str, Any],
    asked: Asked,
) -> Written:
    """Record Control of Locations of one map group, as one public event: a
    side's is ``pending`` until the opponent approves it (DESIGN §13), the
    referee's ``applied`` at once."""
    done = run(
        caller,
        lambda c, ctx: c.record_control(
            ctx, map_group, [dict(loc) for loc in locations], blocks=blocks, rule=rule
        ),
        operation="control",
        body=sent,
        asked=asked,
    )
    kind = caller.ledger.record(done.campaign, done.seq)["type"]
    status = "applied" if kind == "ControlRecorded" else "pending"
    view = {**control_view(done.campaign, map_group), "seq": done.seq, "status": status}
    return Written(done, view)


def get_control(caller: Caller, map_group: str | None, at: int | None) -> dict[str, Any]:
    return control_view(as_of(caller.ledger, caller.campaign, at), map_group)


def get_lvp(caller: Caller, at: int | None) -> dict[str, Any]:
    return lvp_view(as_of(caller.ledger, caller.campaign, at))


def get_setup_areas(caller: Caller, map_group: str | None, at: int | None) -> dict[str, Any]:
    return as_of(caller.ledger, caller.campaign, at).setup_areas_view(map_group)


@dataclass(frozen=True)
class Svg:
    svg: str
    version: int


def setup_areas_svg(caller: Caller, map_group: str | None, at: int | None) -> Svg:
    """The Setup Areas drawn as an SVG map (``cgledger.projections.setup_map``)
    for the caller: who Controls each Location now, and the Fortifications the
    caller's role is given (``cgledger.projections.map_marks``)."""
    campaign = as_of(caller.ledger, caller.campaign, at)
    view = campaign.setup_areas_view(map_group)
    group = view["map_group"]
    control = control_in_force(campaign, group)
    forts = fortifications_seen(campaign, group, caller.role)
    return Svg(_draw(campaign, view, at, control, forts), caller.campaign.version)


@dataclass(frozen=True)
class LiveMap:
    map_group: str
    #: ``map_digest.map_digest``: what the map is drawn from, for this caller.
    digest: str
    #: The map, or ``None`` when its digest is the one the caller holds.
    svg: str | None


def live_map(caller: Caller, map_group: str, known: str | None) -> LiveMap:
    """The caller's live map of ``map_group`` and its digest, computed from
    what the map is drawn from (``cgledger.projections.map_digest``): the map
    is drawn only when the digest is not ``known``, the one the caller holds."""
    campaign = caller.campaign
    control = control_in_force(campaign, map_group)
    forts = fortifications_seen(campaign, map_group, caller.role)
    digest = map_digest(campaign, map_group, caller.role, control=control, fortifications=forts)
    if digest == known:
        return LiveMap(map_group, digest, None)
    view = campaign.setup_areas_view(map_group)
    return LiveMap(map_group, digest, _draw(campaign, view, None, control, forts))


def _draw(
    campaign: Campaign,
    view: dict[str, Any],
    at: int | None,
    control: dict[str, str | None],
    forts: dict[str, Any] | None,
) -> str:
    data = campaign.map_group_data(view["map_group"])
    coords = dict(zip(data.grid.ids, data.grid.coords, strict=True))
    return render_svg(
        {**view, "at": at},
        coords,
        campaign.sides,
        title=map_title(campaign, data),
        highlight=campaign.ruleset.rules.map_highlight,
        control=control,
        fortifications=forts,
    )
