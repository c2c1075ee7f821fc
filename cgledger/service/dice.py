"""Dice (DESIGN §2): free rolls under ``cgledger-dice/1``, rolls on a rule
table with named DRMs, and the reveal of a Secret roll."""

from __future__ import annotations

from typing import Any

from cgledger.domain.campaign import MAX_PURPOSE, Campaign
from cgledger.domain.tables import DrmRequest
from cgledger.projections.dice import roll_at, roll_of, table_roll_of
from cgledger.service.session import Asked, Caller, Written, run

__all__ = [
    "MAX_PURPOSE",
    "get_roll",
    "make_roll",
    "reveal_roll",
    "roll_table",
]


def make_roll(
    caller: Caller,
    *,
    dice: int,
    purpose: str,
    secret: bool,
    client_nonce: str | None,
    sent: dict[str, Any],
    asked: Asked,
) -> Written:
    done = run(
        caller,
        lambda c, ctx: c.roll(
            ctx, count=dice, purpose=purpose, secret=secret, client_nonce=client_nonce
        ),
        operation="roll",
        body=sent,
        asked=asked,
    )
    ledger = caller.ledger
    return Written(
        done, roll_of(ledger, done.campaign, caller.role, ledger.record(done.campaign, done.seq))
    )


def _canonical_table_id(campaign: Campaign, table_id: str) -> str:
    """A table id with or without its ruleset prefix is one request for idempotency."""
    table = campaign.ruleset.table(table_id)
    return table_id if table is None else table.id


def roll_table(
    caller: Caller,
    table_id: str,
    *,
    drm: list[dict[str, Any]],
    inputs: dict[str, int | str],
    secret: bool | None,
    client_nonce: str | None,
    sent: dict[str, Any],
    asked: Asked,
) -> Written:
    """``drm``: each DRM named as ``{"id", "count", "value", "note"}``."""
    requests = [DrmRequest(**d) for d in drm]
    done = run(
        caller,
        lambda c, ctx: c.roll_table(
            ctx,
            table_id,
            drm=requests,
            inputs=dict(inputs),
            secret=secret,
            client_nonce=client_nonce,
        ),
        operation=f"table-roll {_canonical_table_id(caller.campaign, table_id)}",
        body=sent,
        asked=asked,
    )
    ledger = caller.ledger
    record = ledger.record(done.campaign, done.seq)
    return Written(done, table_roll_of(ledger, done.campaign, caller.role, record))


def get_roll(caller: Caller, index: int) -> dict[str, Any]:
    return roll_at(caller.ledger, caller.campaign, caller.role, index)


def reveal_roll(caller: Caller, index: int, asked: Asked) -> Written:
    """Publish the seed of a Secret roll (owning side or referee only)."""
    done = run(
        caller,
        lambda c, ctx: c.reveal_roll(ctx, index),
        operation="reveal-roll",
        body={"index": index},
        asked=asked,
    )
    return Written(done, roll_at(caller.ledger, done.campaign, caller.role, index))
