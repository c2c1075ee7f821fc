"""The I/O steps a plan asks for, and :class:`Plan`, which runs a plan one
step at a time.

A plan is a generator that yields steps (:class:`Send`, :class:`Sleep`, ...)
and gets each step's outcome back (``cgledger.client._core``). A step says its
I/O once (``act``): with a sync ``httpx.Client`` it is done at once, with an
``httpx.AsyncClient`` it answers an awaitable; ``Step.run`` and ``Step.arun``
run it so, and a transport error is the outcome (returned to the plan, not
raised).
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx2 as httpx

T = TypeVar("T")
Y = TypeVar("Y")

Http = httpx.Client | httpx.AsyncClient


class Step:
    """One piece of I/O a plan asks for."""

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        """Do it: the outcome, or (with an ``httpx.AsyncClient``) an awaitable
        of it where the I/O is awaited."""
        raise NotImplementedError

    def run(self, http: httpx.Client, sleep: Callable[[float], Any]) -> Any:
        try:
            return self.act(http, sleep)
        except httpx.TransportError as exc:
            return exc

    async def arun(self, http: httpx.AsyncClient, sleep: Callable[[float], Any]) -> Any:
        try:
            outcome = self.act(http, sleep)
            return await outcome if inspect.isawaitable(outcome) else outcome
        except httpx.TransportError as exc:
            return exc


@dataclass
class Send(Step):
    request: httpx.Request
    stream: bool = False

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        return http.send(self.request, stream=self.stream)


@dataclass
class Sleep(Step):
    seconds: float

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        return sleep(self.seconds)


@dataclass
class Read(Step):
    """Read a streamed answer's body (an error answer of the live feed)."""

    response: httpx.Response

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        sync = isinstance(http, httpx.Client)
        return self.response.read() if sync else self.response.aread()


@dataclass
class Close(Step):
    response: httpx.Response

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        sync = isinstance(http, httpx.Client)
        return self.response.close() if sync else self.response.aclose()


@dataclass
class Events(Step):
    """Open a streamed answer as Server-Sent Events (an iterator of them)."""

    response: httpx.Response

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        source = httpx.EventSource(self.response)
        return iter(source) if isinstance(http, httpx.Client) else source.__aiter__()


@dataclass
class NextEvent(Step):
    """The next Server-Sent Event, or ``None`` where the answer ended."""

    events: Iterator[httpx.ServerSentEvent] | AsyncIterator[httpx.ServerSentEvent]

    def act(self, http: Http, sleep: Callable[[float], Any]) -> Any:
        if isinstance(self.events, Iterator):
            return next(self.events, None)
        return anext(self.events, None)


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
