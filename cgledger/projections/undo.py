"""An undo request (DESIGN §5) as it stands: who asked, what it plans to
revert and restore, and the undo that applied it, read from its record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.domain.errors import NotFound
from cgledger.projections.records import Records

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def undo_request_view(records: Records, campaign: Campaign, rid: int) -> dict[str, Any]:
    request = campaign.undo_requests.get(str(rid))
    if request is None:
        raise NotFound(f"no undo request {rid} in this campaign", field="request")
    undo = None
    if request["undo"] is not None:
        p = records.record(campaign, request["undo"])["payload"]
        undo = {
            "seq": request["undo"],
            "approved_by": p["approved_by"],
            "at_once": p["at_once"],
            "reverts": p["reverts"],
            "restores": p["restores"],
            "rolls": p["rolls"],
            "reverted_by": campaign.reverted_by(request["undo"]),
        }
    return {
        "id": rid,
        "status": request["status"],
        "by": request["by"],
        "seqs": request["seqs"],
        "to_seq": request["to_seq"],
        "reason": request["reason"],
        "planned": request["planned"],
        "undo": undo,
        "answer": request["answer"],
        "version": campaign.version,
    }
