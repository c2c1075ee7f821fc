"""What the sync and the async client share, free of I/O ("sans-I/O").

A call is a :class:`~cgledger.client._calls.Call` (method, route, query,
body, how to read the answer). Its *plan* is a generator that yields I/O steps
(``cgledger.client._steps``) and gets each step's outcome back: the retries,
the ``Idempotency-Key`` kept across them, ``If-Match``, the error and the
version bookkeeping all live in :class:`Core` and the plans here (the live
feed's in ``cgledger.client._feed``). ``Client`` and ``AsyncClient`` only run
the steps, so the two never drift apart.
"""

from __future__ import annotations

import email.utils
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

import httpx2 as httpx

from cgledger.api.models import EventItem, EventPage
from cgledger.client._calls import Call, Parse, Query, query_pairs
from cgledger.client._errors import error_for
from cgledger.client._steps import Http, ItemSteps, Send, Sleep, Steps

T = TypeVar("T")

DEFAULT_SERVER = "http://127.0.0.1:8000"
#: Answers worth another try: the server (or a proxy) is busy or restarting.
RETRY_STATUSES = frozenset({429, 502, 503, 504})
#: Transport errors worth another try (not, e.g., an unsupported URL scheme).
RETRY_ERRORS: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)


def etag_version(etag: str | None) -> int | None:
    """The campaign version an ETag names: ``"12"`` or ``"12-<view>"``."""
    if not etag:
        return None
    head = etag.strip().removeprefix("W/").strip('"').split("-", 1)[0]
    return int(head) if head.isascii() and head.isdigit() else None


def retry_after(response: httpx.Response) -> float | None:
    """``Retry-After`` in seconds (a number of seconds or an HTTP date)."""
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class Prepared:
    method: str
    url: str
    campaign: str | None
    query: Query
    headers: dict[str, str]
    body: Any
    #: A body that is not JSON, sent as it is (its type in ``headers``).
    content: bytes | None = None


class Core:
    """The options and state of one client: where, who, retries and the
    campaign versions it read last (for ``If-Match``)."""

    def __init__(
        self,
        *,
        token: str | None,
        campaign: str | None,
        retries: int,
        backoff: float,
        max_wait: float,
    ) -> None:
        if retries < 0:
            raise ValueError("retries must be 0 or more")
        self.token = token
        self.campaign = campaign
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        #: The campaign version of each campaign's last read (ETag or body).
        self.versions: dict[str, int] = {}
        #: The last answer (of the last attempt), for its headers.
        self.last_response: httpx.Response | None = None

    # ---------------------------------------------------------------- requests

    def campaign_id(self, given: str | None) -> str:
        cid = given if given is not None else self.campaign
        if not cid:
            raise ValueError("no campaign: pass campaign=... or create the client with campaign=")
        return cid

    def prepare(self, call: Call[Any]) -> Prepared:
        spec = call.spec
        cid = self.campaign_id(spec.campaign) if call.on_campaign else None
        path = dict(spec.path)
        if cid is not None:
            path["campaign_id"] = cid
        url = call.route.format(**{k: quote(str(v), safe=":") for k, v in path.items()})
        headers: dict[str, str] = {}
        if call.auth and self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if call.method == "POST":
            # One key for the logical call, sent again on every retry: a retry
            # of a request the server already did replays its answer.
            headers["Idempotency-Key"] = spec.idempotency_key or str(uuid.uuid4())
            version = self.if_match(cid, spec.if_match)
            if version is not None:
                headers["If-Match"] = f'"{version}"'
        if spec.content is not None:
            headers["Content-Type"] = spec.content_type or "application/octet-stream"
        query = query_pairs(spec.query)
        return Prepared(call.method, url, cid, query, headers, spec.body, spec.content)

    def if_match(self, cid: str | None, wanted: int | bool | None) -> int | None:
        if wanted is None or wanted is False:
            return None
        if wanted is True:
            if cid is None or cid not in self.versions:
                raise ValueError(
                    f"if_match=True, but no version of campaign {cid} was read yet: "
                    "read it first (e.g. get_campaign()) or pass the version"
                )
            return self.versions[cid]
        return int(wanted)

    def request(self, http: Http, prep: Prepared, **extra: Any) -> httpx.Request:
        if prep.content is not None:
            extra["content"] = prep.content
        else:
            extra["json"] = prep.body
        return http.build_request(
            prep.method, prep.url, params=prep.query, headers=prep.headers, **extra
        )

    # ---------------------------------------------------------------- answers

    def delay(self, reply: object, attempt: int) -> float | None:
        """How long to wait before trying again, or ``None``: the reply stands."""
        if attempt >= self.retries:
            return None
        if isinstance(reply, httpx.Response):
            if reply.status_code not in RETRY_STATUSES:
                return None
            wait = retry_after(reply)
            if wait is not None:
                return wait if wait <= self.max_wait else None
        elif not isinstance(reply, RETRY_ERRORS):
            return None
        return self.backoff_for(attempt)

    def backoff_for(self, attempt: int) -> float:
        base = min(self.max_wait, self.backoff * 2.0**attempt)
        return base * random.uniform(0.5, 1.0)  # noqa: S311 - jitter, not a secret

    def finish(self, prep: Prepared, response: httpx.Response, parse: Parse[T]) -> T:
        self.last_response = response
        if response.status_code >= 400:
            raise error_for(response)
        self.note_version(prep.campaign, response)
        return parse(response)

    def note_version(self, cid: str | None, response: httpx.Response) -> None:
        version = etag_version(response.headers.get("ETag"))
        kind = response.headers.get("content-type", "").split(";")[0].strip()
        if (cid is None or version is None) and kind == "application/json":
            body = response.json()
            if isinstance(body, dict):
                if cid is None and isinstance(body.get("id"), str):
                    cid = body["id"]  # a campaign just created
                if version is None and isinstance(body.get("version"), int):
                    version = body["version"]
        if cid is not None and version is not None:
            self.versions[cid] = version


# ------------------------------------------------------------------ plans


def send_steps(core: Core, http: Http, prep: Prepared) -> Steps[httpx.Response]:
    """Send, and again after a transport error or a 429/502/503/504, with the
    same headers (so the same ``Idempotency-Key``) each time."""
    attempt = 0
    while True:
        reply = yield Send(core.request(http, prep))
        wait = core.delay(reply, attempt)
        if wait is None:
            break
        attempt += 1
        yield Sleep(wait)
    if isinstance(reply, BaseException):
        raise reply
    assert isinstance(reply, httpx.Response)
    return reply


def call_steps(core: Core, http: Http, call: Call[T]) -> Steps[T]:
    prep = core.prepare(call)
    response = yield from send_steps(core, http, prep)
    return core.finish(prep, response, call.spec.parse)


def page_steps(
    core: Core, http: Http, page: Callable[[int], Call[EventPage]]
) -> ItemSteps[EventItem]:
    """Every item of every page, from ``page(0)``'s ``after`` on."""
    after = 0
    while True:
        found = yield from call_steps(core, http, page(after))
        yield from found.items
        if found.next_after is None:
            return
        after = found.next_after
