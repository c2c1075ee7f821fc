"""Dice protocol ``cgledger-dice/1`` (DESIGN.md §2, a CONTRACT).

Pure functions only: every party (server, players, ``cgledger verify``) computes
the same commitments, roll seeds and dice from the same inputs.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

PROTOCOL = "cgledger-dice/1"

#: Number of seeds committed per ``CommitmentsPublished`` event.
BATCH_SIZE = 64
#: A new batch is published as soon as fewer than this many committed indices are
#: still unused, so that every roll's commitment is public long before the roll.
LOW_WATER = 32

_COMMIT_TAG = b"cgledger/v1/commit\n"
_ROLL_TAG = b"cgledger/v1/roll\n"
_DICE_TAG = b"cgledger/v1/dice\n"


def canon(x: Any) -> bytes:
    """Canonical JSON bytes, exactly as DESIGN §2 defines ``canon``."""
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def commitment(campaign: str, index: int, seed: bytes) -> str:
    """``commitment_i`` published before roll ``index`` can be requested."""
    body = canon({"campaign": campaign, "index": index})
    return hashlib.sha256(_COMMIT_TAG + body + seed).hexdigest()


def roll_seed(
    seed: bytes,
    *,
    campaign: str,
    index: int,
    client_nonce: str,
    dice: int,
    purpose: str,
    side: str,
) -> bytes:
    """HMAC-SHA256 of the roll request, keyed by the pre-committed seed."""
    msg = _ROLL_TAG + canon(
        {
            "campaign": campaign,
            "client_nonce": client_nonce,
            "dice": dice,
            "index": index,
            "purpose": purpose,
            "side": side,
        }
    )
    return hmac.new(seed, msg, hashlib.sha256).digest()


def dice_from_roll_seed(rseed: bytes, n: int) -> list[int]:
    """Unbiased d6 values: bytes >= 252 are rejected, the rest map to ``b % 6 + 1``."""
    if n < 1:
        raise ValueError("at least one die")
    out: list[int] = []
    ctr = 0
    while len(out) < n:
        block = hmac.new(rseed, _DICE_TAG + ctr.to_bytes(4, "big"), hashlib.sha256).digest()
        for b in block:
            if b < 252:
                out.append(b % 6 + 1)
                if len(out) == n:
                    break
        ctr += 1
    return out


def roll(
    seed: bytes,
    *,
    campaign: str,
    index: int,
    client_nonce: str,
    dice: int,
    purpose: str,
    side: str,
) -> list[int]:
    """The dice of roll ``index``: what anyone can recompute once ``seed`` is public."""
    rs = roll_seed(
        seed,
        campaign=campaign,
        index=index,
        client_nonce=client_nonce,
        dice=dice,
        purpose=purpose,
        side=side,
    )
    return dice_from_roll_seed(rs, dice)
