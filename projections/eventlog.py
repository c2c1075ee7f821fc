"""The event log and its JSONL export, as one viewer may see them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from domain.dice import PROTOCOL, canon
from domain.visibility import redact

EXPORT_FORMAT = "cgledger-export/1"


def event_items(
    records: Iterable[dict[str, Any]], viewer: str, is_revealed: Callable[[int], bool]
) -> list[dict[str, Any]]:
    return [redact(r, viewer, revealed=is_revealed(r["seq"])) for r in records]


def export_jsonl(
    header: dict[str, Any],
    records: Iterable[dict[str, Any]],
    viewer: str,
    is_revealed: Callable[[int], bool],
) -> bytes:
    """A header line, then one canonical JSON line per event.

    Every line is exactly ``canon(obj)``, so ``cgledger verify`` can tell any
    edited byte (even whitespace) from the original. The header carries the
    SHA-256 of the body so that lines removed or replaced whole are caught too.
    """
    items = event_items(records, viewer, is_revealed)
    body = b"".join(canon(item) + b"\n" for item in items)
    head = {
        **header,
        "format": EXPORT_FORMAT,
        "protocol": PROTOCOL,
        "viewer": viewer,
        "events": len(items),
        "head": items[-1]["hash"] if items else None,
        "body_sha256": hashlib.sha256(body).hexdigest(),
    }
    return canon(head) + b"\n" + body
