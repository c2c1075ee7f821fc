"""The event log and its JSONL export, as one viewer may see them."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from cgledger.domain.dice import PROTOCOL, SEALED, canon
from cgledger.domain.visibility import redact

EXPORT_FORMAT = "cgledger-export/1"
#: The event type of a sealed record (DESIGN §2a, ``cgledger-dice/2``).
SEALED_RECORD = "RecordSealed"


def event_items(
    records: Iterable[dict[str, Any]], viewer: str, is_revealed: Callable[[int], bool]
) -> list[dict[str, Any]]:
    return [
        redact(r, viewer, revealed=r["secret"] is not None and is_revealed(r["seq"]))
        for r in records
    ]


def table_of(record: dict[str, Any]) -> str | None:
    """The table id an event names in its public payload, if any."""
    table = record["payload"].get("table")
    if isinstance(table, dict):
        table = table.get("id")
    return table if isinstance(table, str) else None


def matches(
    record: dict[str, Any],
    *,
    types: frozenset[str] | None = None,
    actor: str | None = None,
    table: str | None = None,
    date: str | None = None,
) -> bool:
    """The audit filters of ``GET /events``. They read public fields only
    (type, actor, the table id and the CG Date in the payload), so what a
    filter selects never depends on a hidden value."""
    if types is not None and record["type"] not in types:
        return False
    if actor is not None and record["actor"] != actor:
        return False
    if table is not None:
        found = table_of(record)
        if found is None or (found != table and found.split(":", 1)[-1] != table):
            return False
    return date is None or record["payload"].get("cg_date") == date


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
    An export that holds sealed records adds ``protocols``, both versions of
    the dice protocol, so a checker of version 1 alone refuses it at the
    header rather than at its first sealed record; one without is unchanged.
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
    if any(item["type"] == SEALED_RECORD for item in items):
        head["protocols"] = [PROTOCOL, SEALED]
    return canon(head) + b"\n" + body
