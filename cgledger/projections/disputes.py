"""A dispute (DESIGN §5) and its evidence: the roll's proof checked by the
server, the state before and after, a table roll re-read, and the territory
a Control record or scenario end changed. The service chooses how to load
the campaign as of an event (``as_of``); this module only reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cgledger.domain import sealed as sealbook
from cgledger.domain.errors import DomainError, NotFound
from cgledger.domain.visibility import may_see
from cgledger.projections.campaign import event_item
from cgledger.projections.dice import roll_of
from cgledger.projections.evidence import roll_proof, table_recheck
from cgledger.projections.records import Records
from cgledger.projections.state import state_view
from cgledger.projections.territory import lvp_view

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign

#: The campaign as of an event (time travel): the service loads it.
AsOf = Callable[[int], "Campaign"]


def dispute_view(
    records: Records,
    campaign: Campaign,
    did: int,
    role: str,
    *,
    as_of: AsOf,
    evidence: bool = True,
) -> dict[str, Any]:
    dispute = campaign.disputes.get(str(did))
    if dispute is None:
        raise NotFound(f"no dispute {did} in this campaign", field="dispute")
    out: dict[str, Any] = {
        "id": did,
        "seq": dispute["of_seq"],
        "by": dispute["by"],
        "claim": dispute["claim"],
        "status": dispute["status"],
        "resolution": dispute["resolution"],
        "version": campaign.version,
    }
    if dispute["status"] == "open":
        # What "revert" would do, so nobody decides blind.
        try:
            effect = campaign.dispute_revert(did)
            out["revert_would"] = {"reverts": effect.reverts, "restores": effect.restores}
        except DomainError as exc:
            out["revert_would"] = {"refused": exc.detail}
    if evidence:
        out["evidence"] = _evidence(records, campaign, dispute["of_seq"], role, as_of)
    return out


def _evidence(
    records: Records, campaign: Campaign, seq: int, role: str, as_of: AsOf
) -> dict[str, Any]:
    record = records.record(campaign, seq)
    p = record["payload"]
    proof = None
    if "roll" in p:
        view = roll_of(records, campaign, role, record)
        seed = campaign.seed(p["roll"]["index"], records.sealer)
        proof = roll_proof(campaign.cid, record, seed, view)
    table = None
    ref = p.get("table")
    tables = _sealed_rechecks(records, campaign, record, role)
    if tables:
        table = tables[0]
    elif ref is None and record["secret"] is not None and "roll" in p:
        # A roll for a secret purchase names its table only in its secret part
        # (DESIGN §10): re-read for a viewer who may see it, else not shown.
        seen = may_see(p.get("owner"), role, revealed=campaign.is_revealed(seq))
        ref = record["secret"].get("table") if seen else None
    if "roll" in p and isinstance(ref, dict):
        def_seq = campaign.recorded_tables().get(ref["hash"])
        if def_seq is not None:
            definition = records.record(campaign, def_seq)["payload"]["definition"]
        else:
            # A sealed roll carries its table's definition (DESIGN §2a).
            definition = record["secret"]["tables"][ref["hash"]]
        table = table_recheck(
            record,
            role,
            revealed=campaign.is_revealed(seq),
            definition=definition,
            definition_seq=def_seq,
        )
    then = as_of(seq - 1) if seq > 1 else None
    now = as_of(seq)
    out = {
        "event": event_item(campaign, record, role),
        "proof": proof,
        "table": table,
        "tables": tables,
        "state_before": state_view(then, role) if then is not None else None,
        "state_after": state_view(now, role),
    }
    if record["type"] in TERRITORY_EVENTS and then is not None:
        out["territory"] = territory_change(then, now)
    return out


#: The events whose dispute shows the Setup Areas and LVP before and after.
TERRITORY_EVENTS = frozenset({"ControlRecorded", "ScenarioEnded"})


def territory_change(then: Campaign, now: Campaign) -> dict[str, Any]:
    """What a Control record or a scenario end changed (issue 14, DESIGN §9):
    each map group's hexes whose Setup-Area status, area or Isolation differ,
    both sides' areas before and after, the maps to compare (``.svg?at=``), and
    the LVP rows before and after. Nothing here is secret."""
    groups = []
    has_setup = now.ruleset.rules.setup_area_step is not None
    for group in now.definition_doc().get("map_groups") or ():
        gid = group["id"]
        entry: dict[str, Any] = {"map_group": gid}
        if has_setup:
            before, after = then.setup_areas_view(gid), now.setup_areas_view(gid)
            old = {h["hex"]: h for h in before["hexes"]}
            keys = ("status", "area", "isolated", "strategic", "controlled_by")
            changed = []
            for h in after["hexes"]:
                was = old.get(h["hex"])
                if was is None or any(was[k] != h[k] for k in keys):
                    changed.append(
                        {
                            "hex": h["hex"],
                            "before": None if was is None else {k: was[k] for k in keys},
                            "after": {k: h[k] for k in keys},
                        }
                    )
            entry.update(
                changed=changed,
                areas_before=_areas(before),
                areas_after=_areas(after),
                maps=[
                    f"/v1/campaigns/{now.cid}/setup-areas.svg?map_group={gid}&at={then.version}",
                    f"/v1/campaigns/{now.cid}/setup-areas.svg?map_group={gid}&at={now.version}",
                ],
            )
        groups.append(entry)
    return {
        "map_groups": groups,
        "lvp_before": lvp_view(then)["rows"],
        "lvp_after": lvp_view(now)["rows"],
    }


def _areas(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"id": a["id"], "side": a["side"], "hexes": len(a["hexes"]), "isolated": a["isolated"]}
        for a in view["areas"]
    ]


def _sealed_rechecks(
    records: Records, campaign: Campaign, record: dict[str, Any], role: str
) -> list[dict[str, Any]]:
    """Each table roll of a sealed record (DESIGN §2a) re-read, for a viewer
    who may see the record; none otherwise (the count would tell)."""
    if not sealbook.is_sealed(record):
        return []
    seq = record["seq"]
    revealed = campaign.is_revealed(seq)
    if not may_see(record["payload"]["owner"], role, revealed=revealed):
        return []
    secret = record["secret"]
    out = []
    for roll in secret.get("rolls") or ():
        ref = roll.get("table")
        if not isinstance(ref, dict):
            continue
        def_seq = campaign.recorded_tables().get(ref["hash"])
        if def_seq is not None:
            definition = records.record(campaign, def_seq)["payload"]["definition"]
        else:
            definition = (secret.get("tables") or {})[ref["hash"]]
        out.append(
            table_recheck(
                record,
                role,
                revealed=revealed,
                definition=definition,
                definition_seq=def_seq,
                roll=roll,
            )
        )
    return out
