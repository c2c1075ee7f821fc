"""The RePh sequence (DESIGN §8): a new CG Date, CG-Scenario End, each side's
steps and their completion, and the Initiative chits (8.623, 9.6213): secret
until both are chosen, then revealed with the scenario they generate."""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import InvalidInput
from cgledger.projections.campaign import campaign_view, event_item
from cgledger.projections.reph import initiative_view, reph_view
from cgledger.service.session import Asked, Caller, Written, as_of, run


def begin_cg_date(
    caller: Caller, cg_date: str | None, sent: dict[str, Any], asked: Asked
) -> Written:
    """RePh 8.6121: begin the next CG Date."""
    done = run(
        caller,
        lambda c, ctx: c.begin_cg_date(ctx, cg_date),
        operation="cg-date",
        body=sent,
        asked=asked,
    )
    record = caller.ledger.record(done.campaign, done.seq)
    view = {**campaign_view(done.campaign), "seq": done.seq}
    return Written(done, {**view, "proposal": _proposal_ref(done.campaign, record)})


def _proposal_ref(campaign: Campaign, record: dict[str, Any]) -> dict[str, Any] | None:
    """The proposal (DESIGN §13) that a New CG Date or CG-Scenario End call
    made (its own seq, pending) or applied (named by the event, or for a New
    CG Date the sides' readiness it applied)."""
    p = record["payload"]
    if record["type"] in ("CGDateReady", "ScenarioEndProposed"):
        return {"seq": record["seq"], "status": "pending"}
    if record["type"] == "ScenarioEnded":
        seq = p.get("proposal")
    else:
        answered = [
            int(s)
            for s, prop in campaign.cg_date_proposals.items()
            if (prop["answer"] or {}).get("seq") == record["seq"]
        ]
        seq = answered[0] if answered else None
    return None if seq is None else {"seq": seq, "status": "applied"}


def end_scenario(caller: Caller, sent: dict[str, Any], asked: Asked) -> Written:
    """CG-Scenario End with ``sent`` (the body as the command takes it): the
    first of two matching bodies is ``proposed``; the referee's, or the second,
    is ``recorded``."""
    done = run(
        caller,
        lambda c, ctx: c.end_scenario(ctx, sent),
        operation="scenario-end",
        body=sent,
        asked=asked,
    )
    record = caller.ledger.record(done.campaign, done.seq)
    status = "recorded" if record["type"] == "ScenarioEnded" else "proposed"
    view = {
        "seq": done.seq,
        "status": status,
        "event": event_item(done.campaign, record, caller.role),
        "proposal": _proposal_ref(done.campaign, record),
    }
    return Written(done, view)


def get_reph(caller: Caller, at: int | None) -> dict[str, Any]:
    return reph_view(as_of(caller.ledger, caller.campaign, at))


def advance(
    caller: Caller, side: str | None, to: str, sent: dict[str, Any], asked: Asked
) -> Written:
    """Complete the side's steps from its current one up to ``to``."""
    done = run(
        caller,
        lambda c, ctx: c.advance(ctx, side, to),
        operation="reph-advance",
        body=sent,
        asked=asked,
    )
    return Written(done, {**reph_view(done.campaign), "seq": done.seq})


def choose_initiative(
    caller: Caller, side: str | None, chit: str, sent: dict[str, Any], asked: Asked
) -> Written:
    """8.6232 (9.62132): choose this CG Date's Initiative chit (the domain
    holds it to the limits of the definition in force, 8.6231, 9.62131)."""
    ledger = caller.ledger
    done = run(
        caller,
        lambda c, ctx: c.choose_initiative(ctx, side, chit),
        operation="initiative",
        body=sent,
        asked=asked,
    )
    campaign = done.campaign
    date = ledger.record(campaign, done.seq)["payload"]["cg_date"]
    view = {**initiative_view(campaign, date, caller.role), "seq": done.seq}
    return Written(done, view)


def _dates(campaign: Campaign, cg_date: str | None) -> list[str]:
    if cg_date is None:
        return [d for d in campaign.calendar if d in campaign.initiatives]
    found = campaign.ruleset.normalize_date(cg_date)
    if found is None or found not in campaign.calendar:
        raise InvalidInput(f"{cg_date!r} is not a CG Date of this campaign", field="cg_date")
    return [found]


def list_initiative(caller: Caller, cg_date: str | None, at: int | None) -> dict[str, Any]:
    """Each CG Date's Initiative as the caller may see it."""
    campaign = as_of(caller.ledger, caller.campaign, at)
    items = [initiative_view(campaign, d, caller.role) for d in _dates(campaign, cg_date)]
    return {"items": items, "version": campaign.version}
