"""A campaign's CG definition (DESIGN §7) in force, and an amendment to it
with the patch its record holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.errors import NotFound
from cgledger.projections.records import Records

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def definition_view(records: Records, campaign: Campaign) -> dict[str, Any]:
    """The definition in force as of the campaign's version, with its hash and
    the seq of the event that put it in force."""
    found = campaign.definition
    return {
        "definition": records.definition(campaign),
        "hash": None if found is None else found["hash"],
        "seq": None if found is None else found["seq"],
        "version": campaign.version,
    }


def amendment_view(records: Records, campaign: Campaign, aid: int) -> dict[str, Any]:
    amendment = campaign.amendments.get(str(aid))
    if amendment is None:
        raise NotFound(f"no definition amendment {aid} in this campaign", field="amendment")
    p = records.record(campaign, aid)["payload"]
    return {
        "id": aid,
        "status": amendment["status"],
        "by": amendment["by"],
        "patch": p["patch"],
        "reason": p["reason"],
        "base_hash": p["base_hash"],
        "result_hash": p["result_hash"],
        "answer": amendment["answer"],
        "version": campaign.version,
    }
