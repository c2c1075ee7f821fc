"""The live feed (``GET /v1/campaigns/{id}/stream``) as a plan: each event as
a :class:`StreamItem`, reconnecting with ``Last-Event-ID`` after a drop."""

from __future__ import annotations

import json
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

import httpx2 as httpx

from cgledger.api.models import Checkpoint, EventItem
from cgledger.client._calls import Call, query_pairs
from cgledger.client._core import RETRY_ERRORS, RETRY_STATUSES, Core, call_steps
from cgledger.client._errors import error_for
from cgledger.client._steps import (
    Close,
    Events,
    Http,
    ItemSteps,
    NextEvent,
    Read,
    Send,
    Sleep,
    Step,
)

#: A live feed sends a keep-alive every 15 s: its read timeout is longer.
FEED_READ_TIMEOUT = 60.0


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
    http: Http,
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
    prep.query = query_pairs({"after": after, "follow": follow})
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
