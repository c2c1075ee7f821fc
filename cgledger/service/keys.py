"""The server's keys and what is derived from them: the check that every
server on one database uses the same sealing and signing keys (DESIGN §11),
campaign ids derived from an Idempotency-Key, and the keyed hashes that
scope an Idempotency-Key to its role."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import uuid
from pathlib import Path
from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError

from cgledger.domain.dice import canon
from cgledger.service.store import entry

#: The stream that records the fingerprints of the servers' keys (``check_keys``).
SERVER_KEYS = uuid.UUID("0b7d1f0e-5c1a-4f57-8a8e-3f1c6a2b9d40")
_IDEM_NAMESPACE = uuid.UUID("6f1d2a52-4c1e-4f0b-9f7e-2b8d8e1c0a11")


class KeyMismatch(RuntimeError):
    """This server's keys are not the ones the database was written with."""


def check_keys(
    store: Application[uuid.UUID], data_dir: Path, seal_key: bytes, public_key_hex: str
) -> None:
    """DESIGN §11: every server on one database uses the same sealing and
    signing keys. The first server records their fingerprints (never the
    keys: an HMAC under the sealing key, the signing key's public half);
    a server whose keys differ refuses to start (``KeyMismatch``), instead of
    failing later on the first unrevealed seed it cannot unseal."""
    mine = {
        "seal": hmac.new(seal_key, b"cgledger/v1/key-check", hashlib.sha256).hexdigest(),
        "sign": public_key_hex,
    }
    for _ in range(2):
        for event in store.events.get(SERVER_KEYS, limit=1):
            recorded: dict[str, Any] = event.value  # type: ignore[attr-defined]
            wrong = [k for k in ("seal", "sign") if recorded.get(k) != mine[k]]
            if wrong:
                names = {
                    "seal": "sealing key (CGLEDGER_SEED_KEY or seed.key)",
                    "sign": "signing key (CGLEDGER_SIGNING_KEY or checkpoint.key)",
                }
                raise KeyMismatch(
                    "this database was written by a server with another "
                    + " and another ".join(names[k] for k in wrong)
                    + f" than this one (data dir {data_dir.resolve()}). Every "
                    "server on one database must use the same keys: copy seed.key and "
                    "checkpoint.key from the first server's data dir, or set "
                    "CGLEDGER_SEED_KEY and CGLEDGER_SIGNING_KEY to its values."
                )
            return
        with contextlib.suppress(IntegrityError):  # another server recorded first
            store.save(entry(SERVER_KEYS, mine))


class IdempotencyKeys:
    """What the server derives from an Idempotency-Key, with secrets of its own
    (both derived from the sealing key), so nothing is computed from the key alone."""

    def __init__(self, seal_key: bytes) -> None:
        self._id_key = hashlib.sha256(b"cgledger/v1/idempotency-id\n" + seal_key).digest()
        self._idem_key = hashlib.sha256(b"cgledger/v1/idempotency-key\n" + seal_key).digest()

    def campaign_id(self, key: str) -> uuid.UUID:
        """The id of the campaign a creation with this key makes: a retry finds it."""
        digest = hmac.new(self._id_key, key.encode(), hashlib.sha256).hexdigest()
        return uuid.uuid5(_IDEM_NAMESPACE, digest)

    def entry(self, role: str, key: str, request_fingerprint: str) -> dict[str, str]:
        """What a command records of its key (``meta``) and checks on a retry."""
        return {
            "key": idempotency_hash(self._idem_key, role, key),
            "fingerprint": request_fingerprint,
        }


def fingerprint(operation: str, body: Any) -> str:
    return hashlib.sha256(canon({"op": operation, "body": body})).hexdigest()


def idempotency_hash(secret: bytes, role: str, key: str) -> str:
    """Keys are scoped to the role that sent them: another role's key is unknown,
    so a side cannot probe which keys (and so which requests) the other side used.
    The hash is keyed with a server secret: it is recorded in every event's
    ``meta``, and a client that puts words in its keys ("buy-I2") must not have
    them guessed back from a public hash."""
    msg = f"cgledger/v1/idempotency\n{role}\n{key}".encode()
    return hmac.new(secret, msg, hashlib.sha256).hexdigest()
