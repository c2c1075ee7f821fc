"""Dice protocols ``cgledger-dice/1`` (DESIGN.md §2) and ``cgledger-dice/2``
(§2a, sealed records), both CONTRACTS.

Pure functions only: every party (server, players, ``cgledger verify``) computes
the same commitments, roll seeds and dice from the same inputs. Version 2
keeps the commitment and the dice blocks of version 1; only its roll seed is
new (no ``dice`` count, no ``purpose``), and its dice are a stream from which
a sealed record's rolls take what they need, in order.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
from collections.abc import Iterator
from typing import Any

PROTOCOL = "cgledger-dice/1"
#: Sealed records (DESIGN §2a): one roll index per record, its dice a stream.
SEALED = "cgledger-dice/2"

#: Number of seeds committed per ``CommitmentsPublished`` event.
BATCH_SIZE = 64
#: A new batch is published as soon as fewer than this many committed indices are
#: still unused, so that every roll's commitment is public long before the roll.
LOW_WATER = 32

_COMMIT_TAG = b"cgledger/v1/commit\n"
_ROLL_TAG = b"cgledger/v1/roll\n"
_DICE_TAG = b"cgledger/v1/dice\n"
_ROLL_TAG_V2 = b"cgledger/v2/roll\n"


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


# ---------------------------------------------------------------- cgledger-dice/2


def sealed_roll_seed(
    seed: bytes, *, campaign: str, index: int, client_nonce: str, side: str
) -> bytes:
    """DESIGN §2a: the roll seed of a sealed record's index. Neither the number
    of dice nor a purpose enters it: the record's rolls take dice from one stream."""
    msg = _ROLL_TAG_V2 + canon(
        {"campaign": campaign, "client_nonce": client_nonce, "index": index, "side": side}
    )
    return hmac.new(seed, msg, hashlib.sha256).digest()


def stream(rseed: bytes) -> Iterator[int]:
    """The endless dice of a roll seed: the blocks of §2 (``ctr`` = 0, 1, ...,
    bytes below 252 as ``b % 6 + 1``), without the stop at ``n``."""
    ctr = 0
    while True:
        block = hmac.new(rseed, _DICE_TAG + ctr.to_bytes(4, "big"), hashlib.sha256).digest()
        for b in block:
            if b < 252:
                yield b % 6 + 1
        ctr += 1


def sealed_dice(
    seed: bytes, *, campaign: str, index: int, client_nonce: str, side: str, n: int
) -> list[int]:
    """The first ``n`` dice of a sealed record's stream (``n`` may be 0)."""
    if n < 0:
        raise ValueError("a count of dice is never negative")
    rseed = sealed_roll_seed(
        seed, campaign=campaign, index=index, client_nonce=client_nonce, side=side
    )
    return list(itertools.islice(stream(rseed), n))
