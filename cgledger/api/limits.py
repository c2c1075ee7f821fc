"""What keeps an anonymous client from stalling, crashing or filling the
service (DESIGN §11): the body limit, enforced while the body streams in; the
limits of the JSON parser (nesting, numbers, UTF-8), decided before a token is
checked; the rate limit on campaign creation; and the check that refuses text
which is not valid Unicode (a lone surrogate such as ``"\\ud800"``) before any
model sees it.
"""

from __future__ import annotations

import codecs
import itertools
import json
import math
import operator
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from decimal import Decimal
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from cgledger.api.deps import ASGIApp, Message, Receive, Scope, Send, problem


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is refused with 413
    problem+json (DESIGN §11).

    A declared ``Content-Length`` over the limit is refused at once, before
    the app runs and before a byte of the body is read. A body without one
    (chunked) is counted as it streams and refused as soon as the count
    passes the limit, so no body over the limit is ever buffered whole or
    parsed. (The framework's own ``max_body_size`` answers ``text/plain``,
    which would break DESIGN §3's problem+json, hence this one.) ``paths``
    gives some paths a limit of their own (a VASL board archive, DESIGN §15)."""

    def __init__(self, app: ASGIApp, limit: int, paths: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.paths = dict(paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.limit)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            response = problem(413, "too-large", "Content too large", body_limit_detail(limit))
            response.headers["Connection"] = "close"
            await response(scope, receive, send)
            return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Raised where the route reads its body; the app's handler
                    # answers it as problem+json.
                    raise HTTPException(413, body_limit_detail(limit))
            return message

        await self.app(scope, counted, send)


def body_limit_detail(limit: int) -> str:
    return f"DESIGN §11: the request body is over the limit of {limit} bytes"


# ------------------------------------------------------------- JSON bodies

#: The deepest nesting of arrays and objects a JSON body may have (DESIGN §11,
#: docs/operations.md): the deepest real body, a campaign with its CG
#: definition, has 7. Deeper is refused with 422 before it is parsed, for
#: Python's parser recurses once per level (about 1000 levels is a
#: RecursionError, a 500).
MAX_JSON_DEPTH = 64

#: A JSON string (what is between its quotes is text, brackets included), or
#: an unterminated one up to the end: it never fails to match once it has
#: begun, so the scan stays linear whatever the quotes and backslashes.
_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\[\s\S]?)*+(?:"|\Z)')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
#: An opening bracket counts 2, a closing one 0: less one per bracket, the
#: running sum is the depth.
_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


class BodyRefused(ValueError):
    """A JSON body the parser does not take: ``str(exc)`` says why."""


def json_depth(body: bytes) -> int:
    """How deep arrays and objects nest in ``body``, counted without parsing
    it and without recursion: the strings are cut out, then the brackets
    counted (at C speed: 1 MiB of brackets takes milliseconds)."""
    brackets = _JSON_STRING.sub(b"", body).translate(None, _NOT_BRACKET)
    steps = itertools.accumulate(brackets.translate(_STEPS))
    return max(map(operator.sub, steps, itertools.count(1)), default=0)


#: The largest number a body may hold: a double's (RFC 8259 §6: no more range
#: is interoperable). A whole number within it is held exactly, as an integer.
MAX_NUMBER = sys.float_info.max
_MAX_WHOLE = int(MAX_NUMBER)
_MAX_DIGITS = len(str(_MAX_WHOLE))  # 309


def _too_large(text: str) -> BodyRefused:
    shown = text if len(text) <= 24 else text[:24] + "…"
    return BodyRefused(f"the number {shown} is too large to hold (beyond ±{MAX_NUMBER:.6g})")


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise _too_large(text)  # never a conversion of thousands of digits
    value = int(text)
    if abs(value) > _MAX_WHOLE:
        raise _too_large(text)
    return value


def _number(text: str) -> float | int:
    """A number written with a fraction or an exponent. A whole one is that
    integer, exactly, as in JSON Schema (``2.0`` and ``2e0`` are the integer
    2): the OpenAPI document's ``integer``."""
    value = float(text)
    if not math.isfinite(value):
        raise _too_large(text)
    if value.is_integer():
        exact = Decimal(text)  # a double's exponent: at most 309 digits
        if exact == exact.to_integral_value():
            whole = int(exact)
            if abs(whole) > _MAX_WHOLE:  # rounded down to a double's largest
                raise _too_large(text)
            return whole
    return value


def _constant(name: str) -> None:
    raise BodyRefused(f"{name} is not a JSON number")


def parse_json_body(body: bytes) -> Any:
    """``body`` as JSON, or ``BodyRefused`` saying why not: text that is not
    UTF-8 (RFC 8259 §8.1; a leading byte order mark is ignored), nesting deeper
    than ``MAX_JSON_DEPTH``, a number beyond a double's range (``1e999``, or an
    integer of 5000 digits), ``NaN`` or ``Infinity``, or what is not JSON at
    all."""
    raw = body.removeprefix(codecs.BOM_UTF8)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = exc.start + len(body) - len(raw)
        raise BodyRefused(f"not UTF-8: byte 0x{body[at]:02x} at offset {at}") from None
    depth = json_depth(raw)
    if depth > MAX_JSON_DEPTH:
        raise BodyRefused(f"arrays and objects nest {depth} deep; the limit is {MAX_JSON_DEPTH}")
    try:
        return json.loads(text, parse_int=_integer, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise BodyRefused(f"malformed JSON: {exc}") from None


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class CreateRateLimit:
    """At most ``per_minute`` campaign creations per client address in any
    60 seconds (a sliding window), per process. Behind a reverse proxy the
    address is the one the proxy forwards (uvicorn ``--proxy-headers``)."""

    WINDOW = 60.0

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute = per_minute
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: dict[str, deque[float]] = {}

    def check(self, address: str) -> None:
        """Count one creation by ``address``, or raise 429 with Retry-After."""
        now = self.clock()
        with self._lock:
            for host in [h for h, q in self._seen.items() if q[-1] <= now - self.WINDOW]:
                del self._seen[host]  # forget addresses idle for a whole window
            seen = self._seen.setdefault(address, deque())
            while seen and seen[0] <= now - self.WINDOW:
                seen.popleft()
            if len(seen) >= self.per_minute:
                wait = max(1, math.ceil(seen[0] + self.WINDOW - now))
                raise HTTPException(
                    429,
                    f"DESIGN §11: at most {self.per_minute} campaigns a minute from one "
                    f"address; retry in {wait} s",
                    headers={"Retry-After": str(wait)},
                )
            seen.append(now)


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


# ----------------------------------------------------------- valid Unicode


def _lone_surrogate(node: Any, path: tuple[str | int, ...]) -> tuple[str | int, ...] | None:
    """The path to the first string (value or key) holding a lone surrogate."""
    if isinstance(node, str):
        return path if _has_surrogate(node) else None
    if isinstance(node, dict):
        for key, value in node.items():
            if _has_surrogate(key):
                return (*path, key.encode("utf-8", "backslashreplace").decode())
            found = _lone_surrogate(value, (*path, key))
            if found is not None:
                return found
    if isinstance(node, list):
        for i, value in enumerate(node):
            found = _lone_surrogate(value, (*path, i))
            if found is not None:
                return found
    return None


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


class CheckedRoute(APIRoute):
    """A query parameter the route does not declare is a 422 naming it. Every
    route's JSON body is parsed here, by ``parse_json_body``, before any
    dependency runs (so before the token is checked): a body it refuses is a
    422 saying why. The body is then checked for lone surrogates (JSON's
    ``"\\ud800"`` escapes decode to text that no UTF-8 encoder accepts) before
    validation, anywhere in the body, in keys as in values: a 422 naming the
    field, never a 500 further in."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        known = _query_names(self.dependant)

        async def checked(request: Request) -> Response:
            unknown = [name for name in request.query_params if name not in known]
            if unknown:
                # As with bodies: a typo names its parameter instead of being ignored.
                raise RequestValidationError(
                    [
                        {
                            "type": "extra_forbidden",
                            "loc": ("query", unknown[0][:100] or "(empty name)"),
                            "msg": "unknown query parameter",
                            "input": None,
                        }
                    ]
                )
            if _is_json(request.headers.get("content-type")):
                body = await request.body()
                try:
                    parsed = parse_json_body(body) if body else None
                except BodyRefused as exc:
                    raise RequestValidationError(
                        [
                            {
                                "type": "json_invalid",
                                "loc": ("body", 0),
                                "msg": str(exc)[:200],
                                "input": None,
                            }
                        ]
                    ) from None
                else:
                    where = _lone_surrogate(parsed, ())
                    if where is not None:
                        raise RequestValidationError(
                            [
                                {
                                    "type": "string_unicode",
                                    "loc": ("body", *where),
                                    "msg": "text must be valid Unicode (a lone surrogate is not)",
                                    "input": None,
                                }
                            ]
                        )
                    request._json = parsed  # the route reuses it: parsed once
            return await handler(request)

        return checked


def _query_names(dependant: Dependant) -> set[str]:
    """The query parameters a route declares, its dependencies' included."""
    names = {field.alias for field in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return names


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return False  # FastAPI reads a body without a type as bytes, not JSON
    kind = content_type.split(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )
