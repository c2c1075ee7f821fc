"""Visibility (DESIGN §4): who may see the secret part of an event.

This is the one place where that is decided. Every endpoint, the export, the
roll views and the Roster call :func:`may_see` or :func:`redact`; nothing else
reads ``record["secret"]`` for a viewer.

Roles: each side of the ruleset and ``referee`` (sees everything). Any other
role passed in (an observer, once tokens for one exist) sees public parts only.
"""

from __future__ import annotations

from typing import Any

from cgledger.domain.chain import LINE_FIELDS, META

REFEREE = "referee"


def may_see(owner: str | None, viewer: str, *, revealed: bool) -> bool:
    """True if ``viewer`` may see a secret owned by ``owner``.

    ``owner`` is ``None`` for an event without a secret part.
    """
    return owner is None or revealed or viewer in (REFEREE, owner)


def redact(record: dict[str, Any], viewer: str, *, revealed: bool) -> dict[str, Any]:
    """The record as ``viewer`` may see it: a full line or a stub of the same shape.

    A stub keeps every public field, ``secret_digest`` and both hashes, so the
    chain verifies and there is never a gap; only ``secret`` becomes ``null``.
    Fields internal to the server (sealed seeds, token hashes) are never copied.
    """
    line = {k: record[k] for k in LINE_FIELDS if k != "secret"}
    if META in record:
        line[META] = record[META]
    owner = record["payload"].get("owner") if record["secret"] is not None else None
    line["secret"] = record["secret"] if may_see(owner, viewer, revealed=revealed) else None
    return line
