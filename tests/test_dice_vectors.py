"""cgledger-dice/1 against the published vectors in shared/dice-vectors.json."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest

from cgledger.domain import dice

VECTORS_FILE = Path(__file__).resolve().parents[2] / "shared" / "dice-vectors.json"
if not VECTORS_FILE.exists():  # a checkout that carries its own copy
    VECTORS_FILE = Path(__file__).with_name("dice-vectors.json")
VECTORS: list[dict[str, Any]] = json.loads(VECTORS_FILE.read_text("utf-8"))


def _id(v: dict[str, Any]) -> str:
    return f"{v['campaign']}#{v['index']}"


@pytest.mark.parametrize("v", VECTORS, ids=_id)
def test_commitment(v: dict[str, Any]) -> None:
    seed = bytes.fromhex(v["seed_hex"])
    assert dice.commitment(v["campaign"], v["index"], seed) == v["commitment"]


@pytest.mark.parametrize("v", VECTORS, ids=_id)
def test_roll_seed_and_dice(v: dict[str, Any]) -> None:
    seed = bytes.fromhex(v["seed_hex"])
    args = {
        "campaign": v["campaign"],
        "index": v["index"],
        "client_nonce": v["client_nonce"],
        "dice": v["dice"],
        "purpose": v["purpose"],
        "side": v["side"],
    }
    assert dice.roll_seed(seed, **args).hex() == v["roll_seed_hex"]
    assert dice.roll(seed, **args) == v["result"]


def test_vectors_cover_dr_dr_and_unicode() -> None:
    assert {v["dice"] for v in VECTORS} == {1, 2}
    assert any(not v["client_nonce"].isascii() for v in VECTORS)


def test_rejection_sampling_skips_bytes_252_and_up() -> None:
    # Find a roll seed whose first block starts with a byte >= 252, and check
    # that the first die comes from the next byte.
    for n in range(10_000):
        rs = n.to_bytes(4, "big") * 8
        msg = b"cgledger/v1/dice\n" + (0).to_bytes(4, "big")
        block = hmac.new(rs, msg, hashlib.sha256).digest()
        if block[0] >= 252 and block[1] < 252:
            assert dice.dice_from_roll_seed(rs, 1) == [block[1] % 6 + 1]
            return
    pytest.fail("no seed with a rejected first byte found")
