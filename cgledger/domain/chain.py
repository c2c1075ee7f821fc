"""The event hash chain shared by the aggregate, the export and ``cgledger verify``.

Every event record is ``{seq, type, recorded_at, actor, payload, secret_digest,
prev_hash, hash}`` plus, for viewers allowed to see it, ``secret``. Records
appended since the audit issue also carry ``meta``: ``{"request_id": ...,
"idempotency_key": sha256 of the role-scoped key or null}``; the hash covers
``meta`` when it is present, so older records keep their hashes.

* ``payload`` is public: everyone sees it.
* ``secret`` is the part only its owner (and the referee) sees until it is
  revealed. It always holds a random ``salt``, so its digest cannot be
  brute-forced even when the hidden value is small (a DR of 2..12, an RG cost).
* ``hash`` covers the public fields and ``secret_digest``, never the secret
  itself, so a redacted stub still verifies and still chains.
"""

from __future__ import annotations

import hashlib
from typing import Any

from cgledger.domain.dice import canon

GENESIS = "0" * 64
_EVENT_TAG = b"cgledger/v1/event\n"
_SECRET_TAG = b"cgledger/v1/secret\n"

#: Fields of a record that the hash covers (``hash`` itself and ``secret`` excluded).
HASHED_FIELDS = (
    "seq",
    "type",
    "recorded_at",
    "actor",
    "payload",
    "secret_digest",
    "prev_hash",
)
#: Fields of an exported line, in the order of the contract (keys are sorted by canon()).
LINE_FIELDS = (*HASHED_FIELDS, "secret", "hash")
#: The audit fields (request id, idempotency key) of records that have them.
META = "meta"


def secret_digest(secret: dict[str, Any] | None) -> str:
    """Digest of a secret part; the empty string when an event has none."""
    if secret is None:
        return ""
    return hashlib.sha256(_SECRET_TAG + canon(secret)).hexdigest()


def event_hash(record: dict[str, Any]) -> str:
    """Hash of one record, chained through ``prev_hash``."""
    body = {k: record[k] for k in HASHED_FIELDS}
    if META in record:
        body[META] = record[META]
    return hashlib.sha256(_EVENT_TAG + canon(body)).hexdigest()
