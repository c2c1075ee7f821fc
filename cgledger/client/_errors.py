"""The errors a client call raises: :class:`ApiError` for an answer of 400 or
more (its RFC 9457 problem+json parsed), :class:`Conflict` where the answer
is a version conflict (a stale ``If-Match``)."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import httpx2 as httpx

#: The problem ``type`` of a stale ``If-Match`` (or a lost race after one).
VERSION_CONFLICT = "urn:cgledger:problem:version-conflict"


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


class ApiError(Exception):
    """An answer of 400 or more. ``str()`` reads ``"409 Conflict: 8.6196: CG
    maximum for I2 (6) reached"``: the status, its HTTP phrase and the
    problem's ``detail`` (which starts with the rule that was broken)."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self.status: int = response.status_code
        problem: dict[str, Any] = {}
        try:
            found = response.json()
        except ValueError:
            found = None
        if isinstance(found, dict):
            problem = found
        self.problem: dict[str, Any] = problem
        self.type: str = str(problem.get("type") or "about:blank")
        self.title: str = str(problem.get("title") or _phrase(self.status))
        text = problem.get("detail")
        if not isinstance(text, str):
            text = response.text.strip()[:500] if problem == {} else ""
        self.detail: str = text or self.title
        #: The rule the detail names, and the field at fault, where the server says.
        self.rule: str | None = problem.get("rule")
        self.field: str | None = problem.get("field")
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.status} {_phrase(self.status)}: {self.detail}"


class Conflict(ApiError):
    """409 because ``If-Match`` named a version that is no longer current
    (nothing was appended): read again and decide again."""


def error_for(response: httpx.Response) -> ApiError:
    """The exception for an error answer."""
    error = ApiError(response)
    if error.status == 409 and error.type == VERSION_CONFLICT:
        return Conflict(response)
    return error
