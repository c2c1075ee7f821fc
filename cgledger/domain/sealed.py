"""Sealed records (DESIGN §2a, ``cgledger-dice/2``): what every party reads the
same way, whoever made the record.

Every secret act (a Secret roll, a secret purchase batch, the determination
rolls of a batch, Fortifications and their setup Locations, an Initiative
chit, a secret free or table roll, CPP Replenishment's Secret DR) is one event
of one public type, :data:`SEALED`. Its public part has the keys of
:data:`PUBLIC_KEYS` (and ``roll`` on the kinds that draw dice: which kinds do
is fixed by the step or the route, never by what a record holds), so the
opponent cannot tell two of them apart by their shape. What the act recorded
is the secret part: ``kind`` (the act's own event type), its own fields, the
``rolls`` it made in order (each with its ``dice``), and, with a roll index,
the ``client_nonce`` of the dice stream. The secret part is hashed into the
chain (``secret_digest``) when recorded, so it cannot change later.

A record of any earlier release (``cgledger-dice/1``: a secret part under the
event's own type, with an ``owner`` in its payload) keeps its meaning:
:func:`kind_of` and :func:`values_of` read both.
"""

from __future__ import annotations

from typing import Any

from cgledger.domain.dice import SEALED as PROTOCOL

#: The one public type of every sealed record.
SEALED = "RecordSealed"
#: The public part's keys (``roll`` besides them on a record with a roll index).
PUBLIC_KEYS = ("protocol", "owner", "side", "cg_date", "step")
#: What a viewer of the public part is told about a sealed roll instead of the
#: values that stay in the secret part (a fixed text: nothing varies with it).
SEALED_PURPOSE = "sealed (cgledger-dice/2)"


def is_sealed(record: dict[str, Any]) -> bool:
    return bool(record["type"] == SEALED)


def kind_of(record: dict[str, Any]) -> str:
    """The event type an act recorded: a sealed record's own ``kind`` (server
    side, or once revealed), else the record's type."""
    if record["type"] == SEALED and record.get("secret") is not None:
        return str(record["secret"]["kind"])
    return str(record["type"])


def values_of(record: dict[str, Any]) -> dict[str, Any]:
    """An event's values as the components apply them: the public part and
    the secret part in one mapping. For a sealed record the public part
    contributes only who, when and the roll index; every other field is the
    act's own (its ``step`` only where the act named one)."""
    p = record["payload"]
    secret = record.get("secret") or {}
    if record["type"] != SEALED:
        return {**p, **secret}
    public = {k: p[k] for k in ("owner", "side", "cg_date", "roll") if k in p}
    return {**public, **{k: v for k, v in secret.items() if k != "kind"}}


def public_payload(
    owner: str, side: str, cg_date: str, step: str | None, roll: dict[str, Any] | None
) -> dict[str, Any]:
    """The public part of a sealed record: the same keys, and values of the same
    shapes, whatever the record holds."""
    out: dict[str, Any] = {
        "protocol": PROTOCOL,
        "owner": owner,
        "side": side,
        "cg_date": cg_date,
        "step": step,
    }
    if roll is not None:
        out["roll"] = roll
    return out


def dice_of(secret: dict[str, Any]) -> list[int]:
    """Every die a sealed record's rolls took from its stream, in order."""
    return [d for r in secret.get("rolls") or () for d in r["dice"]]
