"""The proposals of the agreement protocol (DESIGN §13), of every kind: list
and read them, and approve, reject or withdraw one by its seq. The kind's own
command decides what an approval applies (``agreement.approves``)."""

from __future__ import annotations

from typing import Any

from cgledger.projections.proposals import proposal_view
from cgledger.service.session import Asked, Caller, Written, page, run


def list_proposals(
    caller: Caller, *, status: str | None, kind: str | None, after: int, limit: int
) -> dict[str, Any]:
    """Proposals in seq order (``status``, ``kind``: only those), paged with
    ``after``/``limit``."""
    campaign = caller.campaign
    seqs = [s for s in campaign.proposal_seqs(status, kind) if s > after]
    found, next_after = page(seqs, limit)
    items = [proposal_view(caller.ledger, campaign, s, caller.role) for s in found]
    return {"items": items, "version": campaign.version, "next_after": next_after}


def recent_proposals(caller: Caller, *, answered: int) -> dict[str, Any]:
    """What the campaign page lists (DESIGN §12, §13): every pending proposal,
    however old, and the newest ``answered`` of the others, in seq order."""
    campaign = caller.campaign
    pending = campaign.proposal_seqs("pending", None)
    settled = [s for s in campaign.proposal_seqs(None, None) if s not in set(pending)]
    shown = sorted({*pending, *settled[-answered:]}) if answered else pending
    items = [proposal_view(caller.ledger, campaign, s, caller.role) for s in shown]
    return {"items": items, "version": campaign.version, "next_after": None}


def get_proposal(caller: Caller, seq: int) -> dict[str, Any]:
    return proposal_view(caller.ledger, caller.campaign, seq, caller.role)


def approve_proposal(caller: Caller, seq: int, asked: Asked) -> Written:
    """The opponent of the proposer, or the referee, approves: it takes effect."""
    done = run(
        caller,
        lambda c, ctx: c.approve_proposal(ctx, seq),
        operation="proposal-approve",
        body={"proposal": seq},
        asked=asked,
    )
    return Written(done, proposal_view(caller.ledger, done.campaign, seq, caller.role))


def reject_proposal(caller: Caller, seq: int, note: str | None, asked: Asked) -> Written:
    """The opponent of the proposer, or the referee, rejects it."""
    return _answer(caller, seq, note, asked, withdraw=False)


def withdraw_proposal(caller: Caller, seq: int, note: str | None, asked: Asked) -> Written:
    """The side that proposed it withdraws it."""
    return _answer(caller, seq, note, asked, withdraw=True)


def _answer(caller: Caller, seq: int, note: str | None, asked: Asked, *, withdraw: bool) -> Written:
    """A rejection or a withdrawal: one event, and the proposal as it reads now."""
    done = run(
        caller,
        lambda c, ctx: c.answer_proposal(ctx, seq, note, withdraw=withdraw),
        operation="proposal-withdraw" if withdraw else "proposal-reject",
        body={"proposal": seq, "note": note},
        asked=asked,
    )
    return Written(done, proposal_view(caller.ledger, done.campaign, seq, caller.role))
