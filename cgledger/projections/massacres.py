"""A Massacre recorded for the rest of the CG (SSR CG4), as ``POST
/massacres`` answers it: the event it appended, its status (a side's is a
proposal, DESIGN §13), and the Massacres the campaign's ``conditions`` show."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.projections.conditions import conditions
from cgledger.projections.records import Records

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def massacre_view(records: Records, campaign: Campaign, seq: int) -> dict[str, Any]:
    """Event ``seq`` (``MassacreProposed`` or ``MassacreRecorded``, public):
    who recorded it (``by``), the side whose units massacred (``side``), its
    status (``pending`` until approved; the referee's ``applied``), and every
    Massacre in force (``massacre``, by side, as under ``conditions``)."""
    record = records.record(campaign, seq)
    p = record["payload"]
    status = "applied"
    if record["type"] == "MassacreProposed":
        status = campaign.massacre_proposals[str(seq)]["status"]
    return {
        "seq": seq,
        "status": status,
        "by": p["by"],
        "side": p["side"],
        "cg_date": p["cg_date"],
        "rule": p["rule"],
        "note": p["note"],
        "massacre": conditions(campaign).get("massacre", {}),
        "version": campaign.version,
    }
