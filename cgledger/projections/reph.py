"""The RePh card (``GET /reph``, DESIGN §8) and the Initiative of a CG Date
as a viewer may see it (8.6232: each chit secret until both are chosen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.visibility import REFEREE

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def reph_view(campaign: Campaign) -> dict[str, Any]:
    """``GET /reph``: the sequence with each side's status of each step
    (``done``, ``current``, ``pending`` or ``n/a``), and the scenario."""
    rs = campaign.ruleset
    entry = campaign.initiatives.get(campaign.cg_date)
    scenario = None
    if entry is not None and entry["scenario"] is not None:
        scenario = {"type": entry["scenario"], "setup_first": entry["setup_first"]}
    current = {side: campaign.current_step(side) for side in campaign.sides}
    steps = []
    for step in rs.reph_steps:
        status: dict[str, str] = {}
        for side in campaign.sides:
            here, at = rs.step_order(step.id), rs.step_order(current[side])
            if not campaign.step_applies(step, side):
                status[side] = "n/a"
            elif here < at:
                status[side] = "done"
            elif here == at:
                status[side] = "current"
            else:
                status[side] = "pending"
        steps.append(
            {
                "rule": step.id,
                "title": step.title,
                "markers": list(step.markers),
                "joint": step.joint,
                "action": step.action,
                "status": status,
            }
        )
    return {
        "cg_date": campaign.cg_date,
        "initial": campaign.is_initial_date(),
        "new_date_due": campaign.awaiting_new_date,
        "scenario": scenario,
        "current": current,
        "steps": steps,
        "version": campaign.version,
        **agreement_view(campaign),
    }


def agreement_view(campaign: Campaign) -> dict[str, Any]:
    """The joint acts (DESIGN §8, §13) one side has said and the other not
    yet: the CG-Scenario End a side sent (``by``, its event's ``seq`` and the
    ``body`` the other side sends to agree), and the sides ready for the New CG
    Date with the date each named. Both are public events."""
    sent = campaign.scenario_end_proposal
    proposal = None
    if sent is not None:
        proposal = {"by": sent["side"], "seq": sent["seq"], "body": sent["body"]}
    return {"scenario_end_proposal": proposal, "new_date_ready": dict(campaign.ready)}


def initiative_view(campaign: Campaign, cg_date: str, viewer: str) -> dict[str, Any]:
    """The Initiative of ``cg_date`` as ``viewer`` may see it: who has chosen,
    and each chit once both are chosen (before that, only to its owner and
    the referee)."""
    entry = campaign.initiatives.get(cg_date)
    chosen = {} if entry is None else entry["chosen"]
    determined = entry is not None and entry["determined"] is not None
    chits: dict[str, str | None] = {}
    for side in campaign.sides:
        chit = None if entry is None else entry["chits"].get(side)
        seq = chosen.get(side)
        revealed = seq is not None and campaign.is_revealed(seq)
        seen = determined or revealed or viewer in (side, REFEREE)
        chits[side] = chit if seen else None
    return {
        "cg_date": cg_date,
        "chosen": {side: side in chosen for side in campaign.sides},
        "seqs": {side: chosen.get(side) for side in campaign.sides},
        "chits": chits,
        "determined": None if entry is None else entry["determined"],
        "scenario": None if entry is None else entry["scenario"],
        "setup_first": None if entry is None else entry["setup_first"],
    }
