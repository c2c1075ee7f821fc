"""Signed checkpoints: Ed25519 signatures over a campaign's head hash.

Trust model
-----------
The hash chain of an export (``cgledger.domain.chain``) proves that the log is
*internally* consistent, but not that it is the log the server showed before:
whoever controls the database can rewrite an event and re-hash and re-chain
everything after it, and the result verifies. A *checkpoint* closes that gap.
It is the server's Ed25519 signature over ``(campaign, seq, head, time)``,
where ``head`` is the hash of event ``seq``. A player who kept a checkpoint
(from a response, a mail, a forum post) can later check any export offline:
if event ``seq`` of the export no longer hashes to the signed ``head``, the
log was rewritten after the server signed it (``cgledger verify --checkpoint``).

A signature only means something against a key the checker already trusts. A
checkpoint carries its public key so it can be checked on its own, but anyone
can make a key and sign a forged log with it; pin the server's key (obtained
once, out of band, e.g. when the campaign started) with ``server_key`` /
``--server-key``. Without it a check only shows that the checkpoint and the
export agree with each other.

The private key never leaves the server: 32 raw bytes (the Ed25519 seed) in
``CGLEDGER_DATA_DIR/checkpoint.key`` (mode 0600, created on first start), or
64 hex digits in ``CGLEDGER_SIGNING_KEY`` when several servers share one
PostgreSQL database and must sign with the same key. Losing the key does not
lose data; old checkpoints still check against the old public key. A leaked
key lets its holder sign checkpoints over a rewritten log, so replace it (and
publish the new public key) if it leaks.

Signed message (``checkpoint_message``)::

    b"cgledger/v1/checkpoint\\n" + canon({"campaign", "head", "seq", "time"})
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from cgledger.domain.dice import canon
from cgledger.sealing import load_or_create_secret

KEY_FILE = "checkpoint.key"
ALGORITHM = "Ed25519"
_TAG = b"cgledger/v1/checkpoint\n"
#: The fields of a checkpoint, exactly.
CHECKPOINT_FIELDS = frozenset({"campaign", "seq", "head", "time", "algorithm", "key", "signature"})
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX128 = re.compile(r"[0-9a-f]{128}")


class CheckpointError(ValueError):
    """A checkpoint that is malformed, badly signed, or signed by another key."""


def load_or_create_signing_key(data_dir: Path, hex_key: str | None) -> bytes:
    """The 32-byte Ed25519 seed: ``hex_key`` (setting ``signing_key``, env
    ``CGLEDGER_SIGNING_KEY``) if given, else ``data_dir/checkpoint.key``,
    created on first start."""
    if hex_key:
        try:
            seed = bytes.fromhex(hex_key)
        except ValueError:
            seed = b""
        if len(seed) != 32:
            raise ValueError("CGLEDGER_SIGNING_KEY must be 64 hex digits (a 32-byte Ed25519 seed)")
        return seed
    return load_or_create_secret(data_dir / KEY_FILE, 32)


def checkpoint_message(campaign: str, seq: int, head: str, time: str) -> bytes:
    """The exact bytes that are signed."""
    return _TAG + canon({"campaign": campaign, "head": head, "seq": seq, "time": time})


def key_id(public_key_hex: str) -> str:
    """A short name of a public key: the first 16 hex digits of sha256 of its raw bytes."""
    return hashlib.sha256(bytes.fromhex(public_key_hex)).hexdigest()[:16]


class CheckpointSigner:
    """Signs checkpoints with the server's Ed25519 key (built from its 32-byte seed)."""

    def __init__(self, seed: bytes) -> None:
        if len(seed) != 32:
            raise ValueError("the signing key must be a 32-byte Ed25519 seed")
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        raw = self._key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self._public_hex = raw.hex()

    @property
    def public_key_hex(self) -> str:
        """The raw 32-byte public key, as 64 lowercase hex digits."""
        return self._public_hex

    @property
    def key_id(self) -> str:
        return key_id(self._public_hex)

    def sign(self, campaign: str, seq: int, head: str, time: str) -> dict[str, Any]:
        """A checkpoint: event ``seq`` of ``campaign`` hashes to ``head``, as of ``time``."""
        signature = self._key.sign(checkpoint_message(campaign, seq, head, time))
        return {
            "campaign": campaign,
            "seq": seq,
            "head": head,
            "time": time,
            "algorithm": ALGORITHM,
            "key": self._public_hex,
            "signature": signature.hex(),
        }

    def server_key(self) -> dict[str, Any]:
        """What the server publishes so that clients can pin its key."""
        return {"algorithm": ALGORITHM, "public_key": self._public_hex, "key_id": self.key_id}


def check_checkpoint(cp: Any, *, server_key: str | None = None) -> dict[str, Any]:
    """Check a checkpoint's shape and signature (and, given ``server_key``, that
    it is signed by that key); return it. Raises :class:`CheckpointError`.

    This says nothing about a log yet: ``cgledger.verify`` compares ``head``
    with the export's event ``seq``. All hex is lowercase, as the server writes it.
    """
    if not isinstance(cp, dict):
        raise CheckpointError(f"a checkpoint must be a JSON object, not {type(cp).__name__}")
    missing = CHECKPOINT_FIELDS - cp.keys()
    extra = cp.keys() - CHECKPOINT_FIELDS
    if missing or extra:
        parts = []
        if missing:
            parts.append(f"missing {', '.join(sorted(missing))}")
        if extra:
            parts.append(f"unexpected {', '.join(sorted(map(str, extra)))}")
        raise CheckpointError(f"the checkpoint's fields are wrong ({'; '.join(parts)})")
    if not isinstance(cp["campaign"], str):
        raise CheckpointError("the checkpoint's campaign must be a string")
    if type(cp["seq"]) is not int or cp["seq"] < 1:
        raise CheckpointError(f"the checkpoint's seq must be an integer >= 1, not {cp['seq']!r}")
    if not isinstance(cp["head"], str) or not _HEX64.fullmatch(cp["head"]):
        raise CheckpointError("the checkpoint's head must be 64 lowercase hex digits")
    if not isinstance(cp["time"], str):
        raise CheckpointError("the checkpoint's time must be a string")
    if cp["algorithm"] != ALGORITHM:
        raise CheckpointError(f"the checkpoint's algorithm must be {ALGORITHM!r}")
    if not isinstance(cp["key"], str) or not _HEX64.fullmatch(cp["key"]):
        raise CheckpointError("the checkpoint's key must be 64 lowercase hex digits")
    if not isinstance(cp["signature"], str) or not _HEX128.fullmatch(cp["signature"]):
        raise CheckpointError("the checkpoint's signature must be 128 lowercase hex digits")
    message = checkpoint_message(cp["campaign"], cp["seq"], cp["head"], cp["time"])
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(cp["key"]))
        public.verify(bytes.fromhex(cp["signature"]), message)
    except (InvalidSignature, ValueError):
        raise CheckpointError(
            f"the signature of the checkpoint at seq {cp['seq']} does not verify "
            f"under key {key_id(cp['key'])}"
        ) from None
    if server_key is not None:
        pinned = server_key.strip().lower()
        if not _HEX64.fullmatch(pinned):
            raise CheckpointError("the server key must be 64 hex digits (a raw Ed25519 key)")
        if cp["key"] != pinned:
            raise CheckpointError(
                f"the checkpoint at seq {cp['seq']} is signed by key {key_id(cp['key'])}, "
                f"not by the server's key {key_id(pinned)}"
            )
    return cp
