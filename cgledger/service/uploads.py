"""A file sent to a tool (DESIGN §15) either as the request body itself or as
a part of a ``multipart/form-data`` body, as a browser's form sends it. The
parts are split here (the stdlib has no multipart parser, and the server
takes no dependency for it): each part's ``Content-Disposition`` names it;
its bytes are the content between its headers and the next boundary.

A refusal names the body by its media subtype, as a CSV's names ``csv``:
``form-data`` for the multipart body, ``form-data.<part>`` for a part.
"""

from __future__ import annotations

import re
from email.message import Message

from cgledger.domain.errors import InvalidInput

__all__ = ["FORM", "form_parts", "is_form"]

FORM = "form-data"
#: At most this many parts are read.
MAX_PARTS = 16
#: A header value read for its parameters is at most this long (the stdlib's
#: parameter parser is quadratic in the ';' of a quoted value).
MAX_HEADER = 1_000
_CRLF = b"\r\n"


def is_form(content_type: str | None) -> bool:
    return (content_type or "").split(";")[0].strip().lower() == "multipart/form-data"


def _bad(why: str, where: str = FORM) -> InvalidInput:
    return InvalidInput(f"{where}: {why}", field=where)


def _param(header: str, name: str, param: str) -> str | None:
    """A parameter of a header's value (quoted or not), as email reads it;
    a value longer than :data:`MAX_HEADER` is refused unread."""
    if len(header) > MAX_HEADER:
        raise _bad(f"its {name} header is longer than {MAX_HEADER:,} characters")
    message = Message()
    message[name] = header
    value = message.get_param(param, header=name)
    if isinstance(value, tuple):  # RFC 2231: (charset, language, text)
        value = value[2]
    return None if value is None else str(value)


def form_parts(body: bytes, content_type: str) -> dict[str, bytes]:
    """The parts of a ``multipart/form-data`` body, by name (the first of
    a name), or an ``InvalidInput`` saying what is wrong with it."""
    boundary = _param(content_type, "content-type", "boundary")
    if not boundary or len(boundary) > 200:
        raise _bad("its Content-Type names no boundary (multipart/form-data; boundary=...)")
    delimiter = b"--" + boundary.encode("latin-1", "replace")
    at = body.find(delimiter)
    if at < 0:
        raise _bad("the body holds no part: its boundary is not in it")
    parts: dict[str, bytes] = {}
    for _ in range(MAX_PARTS):
        at += len(delimiter)
        if body[at : at + 2] == b"--":
            return parts
        if body[at : at + 2] != _CRLF:
            raise _bad(f"a boundary at byte {at} is not followed by a line break")
        head_end = body.find(_CRLF * 2, at + 2)
        end = body.find(_CRLF + delimiter, max(head_end, at))
        if head_end < 0 or end < 0:
            raise _bad(f"the part at byte {at} does not end with a boundary")
        headers = body[at + 2 : head_end].decode("latin-1").split("\r\n")
        disposition = next(
            (h.split(":", 1)[1] for h in headers if re.match(r"(?i)content-disposition\s*:", h)),
            None,
        )
        name = None if disposition is None else _param(disposition, "content-disposition", "name")
        if name is None:
            raise _bad(f"the part at byte {at} has no Content-Disposition naming it")
        parts.setdefault(name, body[head_end + 4 : end])
        at = end + 2
    raise _bad(f"it holds more than {MAX_PARTS} parts")
