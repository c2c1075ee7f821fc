"""What the sync and the async client share, free of I/O ("sans-I/O").

A call is a :class:`Call` (method, route, query, body, how to read the
answer). Its *plan* is a generator that yields I/O steps (:class:`Send`,
:class:`Sleep`, ...) and gets each step's outcome back: the retries, the
``Idempotency-Key`` kept across them, ``If-Match``, the error and the version
bookkeeping all live in the plans. ``Client`` and ``AsyncClient`` only run the
steps (``Step.run`` or ``Step.arun``), so the two never drift apart.
"""

from __future__ import annotations

import email.utils
import json
import random
import time
import uuid
from collections.abc import AsyncIterator, Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx2 as httpx
from pydantic import BaseModel, TypeAdapter

from cgledger.api.models import Checkpoint, EventItem, EventPage
from cgledger.client._errors import error_for

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
Y = TypeVar("Y")

DEFAULT_SERVER = "http://127.0.0.1:8000"
#: Answers worth another try: the server (or a proxy) is busy or restarting.
RETRY_STATUSES = frozenset({429, 502, 503, 504})
#: Transport errors worth another try (not, e.g., an unsupported URL scheme).
RETRY_ERRORS: tuple[type[Exception], ...] = (
    httpx.TimeoutException,
    httpx.NetworkError,
    httpx.RemoteProtocolError,
)
#: A live feed sends a keep-alive every 15 s: its read timeout is longer.
FEED_READ_TIMEOUT = 60.0

Parse = Callable[[httpx.Response], T]


# ------------------------------------------------------------------ reading answers


def model(cls: type[M]) -> Parse[M]:
    """Read the answer as ``cls`` (the server's own response model)."""
    return lambda response: cls.model_validate(response.json())


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def list_of(cls: type[M]) -> Parse[list[M]]:
    """Read the answer as a list of ``cls``."""
    adapter = _ADAPTERS.get(cls)
    if adapter is None:
        adapter = _ADAPTERS[cls] = TypeAdapter(list[cls])  # type: ignore[valid-type]
    found = adapter

    def parse(response: httpx.Response) -> list[M]:
        items: list[M] = found.validate_python(response.json())
        return items

    return parse


def json_object(response: httpx.Response) -> dict[str, Any]:
    body = response.json()
    if not isinstance(body, dict):
        raise ValueError(f"expected a JSON object, got {type(body).__name__}")
    return body


def content(response: httpx.Response) -> bytes:
    return response.content


def text(response: httpx.Response) -> str:
    return response.text


# ------------------------------------------------------------------ calls


@dataclass(frozen=True)
class Spec(Generic[T]):
    """What an endpoint method makes of its arguments: the route's own
    parameters, query, body and how to read the answer."""

    parse: Parse[T]
    path: Mapping[str, str | int] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    body: Any = None
    has_body: bool = False
    #: The campaign to act on; ``None``: the client's.
    campaign: str | None = None
    if_match: int | bool | None = None
    idempotency_key: str | None = None


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    route: str
    spec: Spec[T]
    auth: bool = True

    @property
    def on_campaign(self) -> bool:
        return "{campaign_id}" in self.route


def drop_none(**fields: Any) -> dict[str, Any]:
    """A body or query without the fields left out (``None``)."""
    return {k: v for k, v in fields.items() if v is not None}


Query = list[tuple[str, str | int | float | bool | None]]


def _query(values: Mapping[str, Any]) -> Query:
    out: Query = []
    for key, value in values.items():
        items = value if isinstance(value, list | tuple) else [value]
        for item in items:
            if item is None:
                continue
            word = ("true" if item else "false") if isinstance(item, bool) else str(item)
            out.append((key, word))
    return out


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


# ------------------------------------------------------------------ I/O steps


class Step:
    """One piece of I/O a plan asks for. ``run`` does it with a sync
    ``httpx.Client``, ``arun`` with an ``httpx.AsyncClient``; a transport
    error is the outcome (returned to the plan, not raised)."""

    def run(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        try:
            return self.do(http, sleep)
        except httpx.TransportError as exc:
            return exc

    async def arun(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        try:
            return await self.ado(http, sleep)
        except httpx.TransportError as exc:
            return exc

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        raise NotImplementedError

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        raise NotImplementedError


@dataclass
class Send(Step):
    request: httpx.Request
    stream: bool = False

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        return http.send(self.request, stream=self.stream)

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        return await http.send(self.request, stream=self.stream)


@dataclass
class Sleep(Step):
    seconds: float

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        return sleep(self.seconds)

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        return await sleep(self.seconds)


@dataclass
class Read(Step):
    """Read a streamed answer's body (an error answer of the live feed)."""

    response: httpx.Response

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        return self.response.read()

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        return await self.response.aread()


@dataclass
class Close(Step):
    response: httpx.Response

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        return self.response.close()

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        return await self.response.aclose()


@dataclass
class Events(Step):
    """Open a streamed answer as Server-Sent Events (an iterator of them)."""

    response: httpx.Response

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        return iter(httpx.EventSource(self.response))

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        return httpx.EventSource(self.response).__aiter__()


@dataclass
class NextEvent(Step):
    """The next Server-Sent Event, or ``None`` where the answer ended."""

    events: Iterator[httpx.ServerSentEvent] | AsyncIterator[httpx.ServerSentEvent]

    def do(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        assert isinstance(self.events, Iterator)
        return next(self.events, None)

    async def ado(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        assert isinstance(self.events, AsyncIterator)
        return await anext(self.events, None)


Steps = Generator[Step, Any, T]
ItemSteps = Generator[Step | Y, Any, None]


class Plan(Generic[Y]):
    """Runs a plan generator one step at a time. It yields I/O steps and
    (for the iterators) items; it keeps the streamed answers still open, so
    the runner closes them when the caller stops early."""

    def __init__(self, steps: Generator[Step | Y, Any, Any]) -> None:
        self._steps = steps
        self._last: Step | Y | None = None
        self.reply: Any = None
        self.result: Any = None
        self.open: list[httpx.Response] = []

    def next_step(self) -> Step | Y | None:
        last, reply = self._last, self.reply
        self.reply = None
        if isinstance(last, Send) and last.stream and isinstance(reply, httpx.Response):
            self.open.append(reply)
        elif isinstance(last, Close) and last.response in self.open:
            self.open.remove(last.response)
        try:
            self._last = self._steps.send(reply)
        except StopIteration as stop:
            self.result = stop.value
            return None
        return self._last

    def close(self) -> None:
        """Close the streamed answers still open (the caller stopped early)."""
        for response in self.open:
            response.close()

    async def aclose(self) -> None:
        for response in self.open:
            await response.aclose()


# ------------------------------------------------------------------ the shared state


@dataclass(frozen=True)
class StreamItem:
    """One event of the live feed (``GET /v1/campaigns/{id}/stream``)."""

    #: The event's seq (the SSE ``id``).
    seq: int
    #: The event type (the SSE ``event``), e.g. ``DiceRolled``.
    type: str
    #: The event as the caller may see it (redacted as ``GET /events`` shows it).
    event: EventItem
    #: The campaign's signed checkpoint at this event.
    checkpoint: Checkpoint | None
    #: How many times the feed had reconnected before this event came.
    reconnects: int
    #: The SSE data as sent: ``{"event": {...}, "checkpoint": {...}}``.
    data: dict[str, Any]


@dataclass
class Prepared:
    method: str
    url: str
    campaign: str | None
    query: Query
    headers: dict[str, str]
    body: Any
    has_body: bool


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
        return Prepared(
            call.method, url, cid, _query(spec.query), headers, spec.body, spec.has_body
        )

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

    def request(
        self, http: httpx.Client | httpx.AsyncClient, prep: Prepared, **extra: Any
    ) -> httpx.Request:
        return http.build_request(
            prep.method,
            prep.url,
            params=prep.query,
            headers=prep.headers,
            json=prep.body if prep.has_body else None,
            **extra,
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


def send_steps(
    core: Core, http: httpx.Client | httpx.AsyncClient, prep: Prepared
) -> Steps[httpx.Response]:
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


def call_steps(core: Core, http: httpx.Client | httpx.AsyncClient, call: Call[T]) -> Steps[T]:
    prep = core.prepare(call)
    response = yield from send_steps(core, http, prep)
    return core.finish(prep, response, call.spec.parse)


def page_steps(
    core: Core, http: httpx.Client | httpx.AsyncClient, page: Callable[[int], Call[EventPage]]
) -> ItemSteps[EventItem]:
    """Every item of every page, from ``page(0)``'s ``after`` on."""
    after = 0
    while True:
        found = yield from call_steps(core, http, page(after))
        yield from found.items
        if found.next_after is None:
            return
        after = found.next_after


class FeedDropped(Exception):
    """The live feed dropped more often in a row than the client's ``retries``."""


def _stream_item(sse: httpx.ServerSentEvent, reconnects: int) -> StreamItem:
    data = json.loads(sse.data)
    event = EventItem.model_validate(data["event"])
    checkpoint = data.get("checkpoint")
    return StreamItem(
        seq=int(sse.id) if sse.id.isdigit() else event.seq,
        type=sse.event if sse.event != "message" else event.type,
        event=event,
        checkpoint=None if checkpoint is None else Checkpoint.model_validate(checkpoint),
        reconnects=reconnects,
        data=data,
    )


@dataclass
class Feed:
    """Where a live feed is: the last seq read, the server's ``retry:``
    interval, and the reconnections (``drops``: in a row, without an event)."""

    last: int
    follow: bool
    retry_ms: int | None = None
    drops: int = 0
    reconnects: int = 0

    def read(
        self, response: httpx.Response
    ) -> Generator[Step | StreamItem, Any, BaseException | None]:
        """Yield the answer's events; return (as ``StopIteration``'s value)
        ``None`` when it ended as it should, else why it stopped."""
        events = yield Events(response)
        problem: BaseException | None = None
        while True:
            sse = yield NextEvent(events)
            if sse is None or isinstance(sse, BaseException):
                problem = sse
                break
            if sse.retry is not None:
                self.retry_ms = sse.retry
            if not sse.data:
                continue  # only a retry: field
            item = _stream_item(sse, self.reconnects)
            self.last, self.drops = item.seq, 0
            yield item
        yield Close(response)
        if problem is None and self.follow:
            problem = FeedDropped("the server ended the live feed")
        return problem

    def wait(self, core: Core, problem: BaseException) -> float:
        """How long to wait before reconnecting after ``problem``; raises it
        where it is not worth a reconnection, or after ``retries`` in a row."""
        self.drops += 1
        if not isinstance(problem, (*RETRY_ERRORS, FeedDropped)) or self.drops > core.retries:
            raise problem
        self.reconnects += 1
        if self.retry_ms is not None:
            return self.retry_ms / 1000
        return core.backoff_for(self.drops - 1)


def feed_steps(
    core: Core,
    http: httpx.Client | httpx.AsyncClient,
    start: Call[Any],
    *,
    after: int | None,
    follow: bool,
) -> ItemSteps[StreamItem]:
    """The live feed: each event as a :class:`StreamItem`. A dropped
    connection is resumed with ``Last-Event-ID`` after the server's
    ``retry:`` interval; more than ``retries`` drops in a row without an
    event in between give up (:class:`FeedDropped`, or the transport error)."""
    if after is None:
        # Resume exactly even before the first event: start at the version now.
        view = yield from call_steps(core, http, start)
        after = int(view.version)
    prep = core.prepare(start)
    prep.url += "/stream"
    prep.query = _query({"after": after, "follow": follow})
    prep.headers["Accept"] = "text/event-stream"
    feed = Feed(last=after, follow=follow)
    timeout = httpx.Timeout(FEED_READ_TIMEOUT, connect=FEED_READ_TIMEOUT)
    while True:
        prep.headers["Last-Event-ID"] = str(feed.last)
        reply = yield Send(core.request(http, prep, timeout=timeout), stream=True)
        problem: BaseException | None
        if not isinstance(reply, httpx.Response):
            problem = reply
        elif reply.status_code == 200:
            problem = yield from feed.read(reply)
            if problem is None:
                return
        else:
            yield Read(reply)
            yield Close(reply)
            core.last_response = reply
            if reply.status_code not in RETRY_STATUSES:
                raise error_for(reply)
            problem = FeedDropped(f"the live feed answered {reply.status_code}")
        assert problem is not None
        yield Sleep(feed.wait(core, problem))
