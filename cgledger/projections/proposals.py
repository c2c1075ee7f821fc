"""The proposals of the agreement protocol (DESIGN §13), every kind in one
list: undo requests, definition amendments, Control and Massacres (SSR CG4). Each is the event
that made it, as the caller may see it, with its status and its answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cgledger.projections.campaign import event_item
from cgledger.projections.records import Records

if TYPE_CHECKING:
    from cgledger.domain.campaign import Campaign


def proposal_view(records: Records, campaign: Campaign, seq: int, role: str) -> dict[str, Any]:
    """Proposal ``seq`` as ``role`` may see it (404 if no proposal has that
    seq): its kind (the name of its own route: ``undo-request``,
    ``definition-amendment``, ``control``, ``massacre``), who proposed it, what it proposes
    (the fields of its event), its status and the answer that settled it."""
    kind = campaign.proposal_kind(seq)
    proposal = campaign.proposals_of(kind)[str(seq)]
    event = event_item(campaign, records.record(campaign, seq), role)
    return {
        "seq": seq,
        "kind": kind.id,
        "type": event["type"],
        "status": proposal["status"],
        "by": proposal["by"],
        "recorded_at": event["recorded_at"],
        "proposed": {k: v for k, v in (event["payload"] or {}).items() if k != "by"},
        "answer": proposal["answer"],
        "reverted_by": event["reverted_by"],
        "version": campaign.version,
    }
