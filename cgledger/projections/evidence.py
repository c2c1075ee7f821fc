"""The evidence of a dispute (DESIGN §5), as one viewer may see it: the roll's
proof checked by the server, and a table roll re-read from its recorded
Original roll, DRMs, inputs and the table definition recorded in the log."""

from __future__ import annotations

from typing import Any

from cgledger.domain import dice
from cgledger.domain import sealed as sealbook
from cgledger.domain import tables as tablebook
from cgledger.domain.errors import DomainError
from cgledger.domain.visibility import may_see
from cgledger.projections.tables import RESULT_FIELDS


def recorded_dice(record: dict[str, Any]) -> list[int]:
    """The dice of a roll-bearing record (server side: reads the secret part)."""
    roll = record["payload"]["roll"]
    if sealbook.is_sealed(record):
        return sealbook.dice_of(record["secret"])
    found: list[int] = roll["dice"] if not roll["secret"] else record["secret"]["dice"]
    return found


def roll_proof(
    cid: str, record: dict[str, Any], seed: bytes, view: dict[str, Any]
) -> dict[str, Any]:
    """``view`` is the roll as the viewer may see it (``cgledger.projections.rolls``);
    ``seed`` is the roll's seed, which the server holds. The server checks the
    commitment and recomputes the dice; the viewer can redo both offline once
    ``view`` shows the seed (a public or revealed roll, or their own)."""
    roll = record["payload"]["roll"]
    sealed = sealbook.is_sealed(record)
    if sealed:
        found = recorded_dice(record)
        expected = dice.sealed_dice(
            seed,
            campaign=cid,
            index=roll["index"],
            client_nonce=record["secret"]["client_nonce"],
            side=roll["side"],
            n=len(found),
        )
    else:
        expected = dice.roll(
            seed,
            campaign=cid,
            index=roll["index"],
            client_nonce=roll["client_nonce"],
            dice=roll["count"],
            purpose=roll["purpose"],
            side=roll["side"],
        )
    commitment_ok = dice.commitment(cid, roll["index"], seed) == roll["commitment"]
    dice_ok = expected == recorded_dice(record)
    return {
        "roll": view,
        "protocol": dice.SEALED if sealed else dice.PROTOCOL,
        "server_check": {
            "commitment_matches_seed": commitment_ok,
            "dice_recompute": dice_ok,
            "ok": commitment_ok and dice_ok,
        },
        "verifiable_by_you": view["seed"] is not None,
        "how": (
            "sha256(b'cgledger/v1/commit\\n' + canon({campaign, index}) + seed) must equal the "
            "commitment, published in an earlier CommitmentsPublished event; the dice are "
            "HMAC-SHA256 of the seed over the roll's campaign, client_nonce, dice, index, "
            "purpose and side (DESIGN §2); a sealed record's dice are the first of the "
            "stream of HMAC-SHA256 of the seed over campaign, client_nonce, index and side "
            "(§2a). `cgledger verify` on an export redoes both."
        ),
    }


def table_recheck(
    record: dict[str, Any],
    viewer: str,
    *,
    revealed: bool,
    definition: dict[str, Any],
    definition_seq: int | None,
    roll: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Re-read a table roll from what was recorded, flagging any difference
    (``roll``: one roll of a sealed record, with its own dice and result).
    Nothing hidden is shown, or hinted at, to a viewer who may not see it."""
    p = record["payload"]
    values = sealbook.values_of(record) if roll is None else roll
    rolled = recorded_dice(record) if roll is None else list(roll["dice"])
    base: dict[str, Any] = {"table": values["table"], "definition_seq": definition_seq}
    owner = p.get("owner") if record["secret"] is not None else None
    if not may_see(owner, viewer, revealed=revealed):
        return {
            **base,
            "visible": False,
            "note": "a Secret roll: it is re-read here once it is revealed",
        }
    recorded = {k: values.get(k) for k in RESULT_FIELDS}
    try:
        result, differs = tablebook.audit(definition, rolled, values)
    except DomainError as exc:
        return {
            **base,
            "visible": True,
            "recorded": recorded,
            "recomputed": None,
            "mismatches": ["unreadable"],
            "matches": False,
            "error": exc.detail,
        }
    return {
        **base,
        "visible": True,
        "recorded": recorded,
        "recomputed": {k: result.get(k, recorded[k]) for k in RESULT_FIELDS},
        "mismatches": differs,
        "matches": not differs,
    }
