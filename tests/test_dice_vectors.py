"""cgledger-dice/1 against the published vectors in shared/dice-vectors.json,
and cgledger-dice/2 (DESIGN §2a) against the project's tests/dice-vectors.json.

The project's file is one JSON list: version 1 entries carry no ``protocol``
key, version 2 entries carry ``"protocol": "cgledger-dice/2"``; a reader of
version 1 skips the others."""

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
PROJECT_FILE = Path(__file__).with_name("dice-vectors.json")
PROJECT: list[dict[str, Any]] = json.loads(PROJECT_FILE.read_text("utf-8"))


def _v1(vectors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [v for v in vectors if v.get("protocol", dice.PROTOCOL) == dice.PROTOCOL]


VECTORS = _v1(json.loads(VECTORS_FILE.read_text("utf-8")))
V2 = [v for v in PROJECT if v.get("protocol") == dice.SEALED]


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


def test_the_project_file_keeps_every_v1_vector_and_names_every_other_version() -> None:
    """Appending version 2 took nothing away: the v1 entries are the published
    ones, in order, and every entry is of a version a reader can tell."""
    assert _v1(PROJECT) == VECTORS
    assert {v.get("protocol", dice.PROTOCOL) for v in PROJECT} == {dice.PROTOCOL, dice.SEALED}


V2_FIELDS = {
    "protocol", "campaign", "index", "seed_hex", "commitment", "side", "client_nonce",
    "roll_seed_hex", "stream",
}  # fmt: skip


@pytest.mark.parametrize("v", V2, ids=_id)
def test_v2_commitment_roll_seed_and_stream(v: dict[str, Any]) -> None:
    assert set(v) == V2_FIELDS
    seed = bytes.fromhex(v["seed_hex"])
    who = {"campaign": v["campaign"], "index": v["index"], "client_nonce": v["client_nonce"]}
    assert dice.commitment(v["campaign"], v["index"], seed) == v["commitment"]
    rseed = dice.sealed_roll_seed(seed, **who, side=v["side"])
    assert rseed.hex() == v["roll_seed_hex"]
    assert dice.sealed_dice(seed, **who, side=v["side"], n=len(v["stream"])) == v["stream"]
    # A record's rolls take the dice in order: any prefix is the record's first dice.
    for n in (0, 1, 2, 3, 17):
        assert dice.sealed_dice(seed, **who, side=v["side"], n=n) == v["stream"][:n]


@pytest.mark.parametrize("v", V2, ids=_id)
def test_v2_stream_is_the_v1_blocks_without_a_stop(v: dict[str, Any]) -> None:
    """Written out with hmac and hashlib alone (DESIGN §2a): only the roll tag
    and the fields of the roll seed differ from version 1."""
    seed = bytes.fromhex(v["seed_hex"])
    body = {"campaign": v["campaign"], "client_nonce": v["client_nonce"], "index": v["index"],
            "side": v["side"]}  # fmt: skip
    msg = b"cgledger/v2/roll\n" + json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")
    rseed = hmac.new(seed, msg, hashlib.sha256).digest()
    assert rseed.hex() == v["roll_seed_hex"]
    out: list[int] = []
    ctr = 0
    while len(out) < len(v["stream"]):
        tag = b"cgledger/v1/dice\n" + ctr.to_bytes(4, "big")
        out += [b % 6 + 1 for b in hmac.new(rseed, tag, hashlib.sha256).digest() if b < 252]
        ctr += 1
    assert out[: len(v["stream"])] == v["stream"]
    # The v1 dice of the same roll seed are the same stream, stopped at n.
    assert dice.dice_from_roll_seed(rseed, 40) == v["stream"][:40]


def test_v2_vectors_cover_what_the_contract_asks() -> None:
    """At least 3 vectors of at least 40 dice each; a Unicode nonce, the
    referee's side, a stream longer than one block with a rejected byte in it."""
    assert len(V2) >= 3
    assert all(len(v["stream"]) >= 40 for v in V2)
    assert all(all(type(d) is int and 1 <= d <= 6 for d in v["stream"]) for v in V2)
    assert any(not v["client_nonce"].isascii() for v in V2)
    assert {"referee", "German", "US"} <= {v["side"] for v in V2}
    rejected = 0
    for v in V2:
        rseed = bytes.fromhex(v["roll_seed_hex"])
        for ctr in range(2):
            tag = b"cgledger/v1/dice\n" + ctr.to_bytes(4, "big")
            rejected += sum(b >= 252 for b in hmac.new(rseed, tag, hashlib.sha256).digest())
    assert rejected >= 1
