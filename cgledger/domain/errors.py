"""Domain errors. The API maps each to RFC 9457 problem+json; the detail of a
rule refusal starts with the rule number ("8.619: ...")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: The longest ``field`` a problem names (the document's Problem schema): a
#: longer one (a long bad key in a map of hexes) is cut, its end marked "…".
MAX_FIELD = 200


def short_field(field: str) -> str:
    return field if len(field) <= MAX_FIELD else field[: MAX_FIELD - 1] + "…"


class DomainError(Exception):
    status = 400
    slug = "bad-request"
    title = "Bad request"

    def __init__(self, detail: str, *, rule: str | None = None, field: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.field = None if field is None else short_field(field)

    def extra(self) -> dict[str, Any]:
        """Members the problem+json adds to ``field`` and ``rule`` (none here)."""
        return {}


class InvalidInput(DomainError):
    """A value in the request is not valid (unknown CG Date, bad side, ...)."""

    status = 422
    slug = "invalid-input"
    title = "Invalid input"


class InvalidCells(InvalidInput):
    """A table sent as CSV (DESIGN §15) with bad cells: ``cells`` names every
    one, each ``{"row", "column", "cell", "field", "message"}`` (``row``: the
    data row, from 1 after the header; 0 is the header itself; ``cell``: the
    spreadsheet's reference, e.g. ``C4``)."""

    def __init__(self, detail: str, cells: Sequence[dict[str, Any]], *, field: str) -> None:
        super().__init__(detail, field=field)
        self.cells = list(cells)

    def extra(self) -> dict[str, Any]:
        return {"cells": self.cells}


class NotFound(DomainError):
    status = 404
    slug = "not-found"
    title = "Not found"


class Forbidden(DomainError):
    """The caller's role may not do this (e.g. a side acting for the other side)."""

    status = 403
    slug = "forbidden"
    title = "Forbidden"


class RuleViolation(DomainError):
    """The rules forbid this in the campaign's current state. Nothing was appended."""

    status = 409
    slug = "rule-violation"
    title = "Refused by the rules"


class VersionConflict(DomainError):
    """If-Match did not match, or a concurrent write won the race."""

    status = 409
    slug = "version-conflict"
    title = "Version conflict"


class IdempotencyMismatch(DomainError):
    status = 422
    slug = "idempotency-key-reused"
    title = "Idempotency-Key reused for a different request"


class NotImplementedForRuleset(DomainError):
    status = 501
    slug = "not-implemented"
    title = "Not implemented for this ruleset"
