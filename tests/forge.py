"""What a forger does to an export: split it, parse it, and after editing
events recompute every secret digest, hash, link and the header. Shared by the
verifier tests."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cgledger.domain.chain import GENESIS, event_hash, secret_digest
from cgledger.domain.dice import canon


def split(data: bytes) -> list[bytes]:
    """The lines of an export without their newlines (header first)."""
    assert data.endswith(b"\n")
    return data[:-1].split(b"\n")


def join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def parse(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = split(data)
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def seal_header(header: dict[str, Any], events: list[dict[str, Any]]) -> bytes:
    body = join([canon(e) for e in events])
    head = {
        **header,
        "events": len(events),
        "head": events[-1]["hash"] if events else None,
        "body_sha256": hashlib.sha256(body).hexdigest(),
    }
    return canon(head) + b"\n" + body


def reseal(header: dict[str, Any], events: list[dict[str, Any]]) -> bytes:
    """Recompute every secret digest, every hash, every link and the header."""
    head = GENESIS
    for e in events:
        if e["secret"] is not None:
            e["secret_digest"] = secret_digest(e["secret"])
        e["prev_hash"] = head
        e["hash"] = event_hash(e)
        head = e["hash"]
    return seal_header(header, events)
