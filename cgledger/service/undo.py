"""Undo requests (DESIGN §5): a side's own latest action is reverted at once;
anything else waits for the opponent or the referee (``cgledger.domain.undo``
plans what an undo reverts and restores)."""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import Campaign
from cgledger.projections.undo import undo_request_view
from cgledger.service.ledger import Ledger
from cgledger.service.session import Asked, Caller, Written, page, run


def _request_of(ledger: Ledger, campaign: Campaign, seq: int) -> int:
    """The undo request a command's last event belongs to."""
    record = ledger.record(campaign, seq)
    if record["type"] == "UndoApplied":
        return int(record["payload"]["request"])
    return seq


def request_undo(
    caller: Caller,
    *,
    seqs: list[int] | None,
    to_seq: int | None,
    reason: str,
    sent: dict[str, Any],
    asked: Asked,
) -> Written:
    """Revert events by seq, or everything after ``to_seq``; the view's ``id``
    is the request's."""
    done = run(
        caller,
        lambda c, ctx: c.request_undo(ctx, seqs=seqs, to_seq=to_seq, reason=reason),
        operation="undo-request",
        body=sent,
        asked=asked,
    )
    rid = _request_of(caller.ledger, done.campaign, done.seq)
    return Written(done, undo_request_view(caller.ledger, done.campaign, rid))


def list_undo_requests(
    caller: Caller, *, status: str | None, after: int, limit: int
) -> dict[str, Any]:
    """Undo requests in seq order, paged with ``after``/``limit``."""
    campaign = caller.campaign
    ids = [
        int(rid)
        for rid, r in campaign.undo_requests.items()
        if int(rid) > after and (status is None or r["status"] == status)
    ]
    found, next_after = page(ids, limit)
    items = [undo_request_view(caller.ledger, campaign, rid) for rid in found]
    return {"items": items, "version": campaign.version, "next_after": next_after}


def get_undo_request(caller: Caller, rid: int) -> dict[str, Any]:
    return undo_request_view(caller.ledger, caller.campaign, rid)


def approve_undo(caller: Caller, rid: int, asked: Asked) -> Written:
    done = run(
        caller,
        lambda c, ctx: c.approve_undo(ctx, rid),
        operation="undo-approve",
        body={"request": rid},
        asked=asked,
    )
    return Written(done, undo_request_view(caller.ledger, done.campaign, rid))


def reject_undo(caller: Caller, rid: int, note: str | None, asked: Asked) -> Written:
    done = run(
        caller,
        lambda c, ctx: c.reject_undo(ctx, rid, note),
        operation="undo-reject",
        body={"request": rid, "note": note},
        asked=asked,
    )
    return Written(done, undo_request_view(caller.ledger, done.campaign, rid))
