"""A Massacre (A20.4) recorded for the rest of the CG (SSR CG4):
``Campaign.record_massacre`` checks it; a side's is a proposal (DESIGN §13)."""

from __future__ import annotations

from cgledger.projections.massacres import massacre_view
from cgledger.service.session import Asked, Caller, Written, run


def record_massacre(caller: Caller, side: str, note: str | None, asked: Asked) -> Written:
    """Record that ``side``'s units massacred, as one public event: a side's is
    ``pending`` until the opponent approves it, the referee's ``applied`` at once."""
    done = run(
        caller,
        lambda c, ctx: c.record_massacre(ctx, side, note),
        operation="massacre",
        body={"by": side, "note": note},
        asked=asked,
    )
    return Written(done, massacre_view(caller.ledger, done.campaign, done.seq))
