"""The synchronous client."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx2 as httpx

from cgledger.api.models import EventItem
from cgledger.client._base import Base
from cgledger.client._declare import C, EventFilters, endpoint, serves
from cgledger.client._feed import StreamItem
from cgledger.client._steps import Plan, Step

Y = TypeVar("Y")


class Client(Base[httpx.BaseTransport, Callable[[float], Any]]):
    """A typed client of the cgledger REST API over ``httpx2``.

    >>> with Client("http://127.0.0.1:8000", token, campaign=cid) as api:
    ...     roll = api.roll(2, "8.606 Escape", secret=True)

    Every endpoint is a method (see ``docs/client.md``); answers are the
    server's own response models. An answer of 400 or more raises
    :class:`~cgledger.client.ApiError`. Transport errors and 429/502/503/504
    are tried again up to ``retries`` times (honouring ``Retry-After``); every
    POST carries one ``Idempotency-Key`` over its retries, so nothing is ever
    appended twice.
    """

    _http: httpx.Client

    def _open(
        self, base_url: str, timeout: float, transport: httpx.BaseTransport | None
    ) -> httpx.Client:
        return httpx.Client(base_url=base_url, timeout=timeout, transport=transport)

    def _pause(self, seconds: float) -> None:
        time.sleep(seconds)

    def _bind(self, ep: endpoint[Any, Any]) -> Any:
        return lambda *args, **kwargs: self._call(ep.call(self, *args, **kwargs))

    def _call(self, call: Any) -> Any:
        plan = self._plan(call)
        for _ in self._run(plan):
            pass
        return plan.result

    def _run(self, plan: Plan[Y]) -> Generator[Y, None, None]:
        try:
            while (step := plan.next_step()) is not None:
                if isinstance(step, Step):
                    plan.reply = step.run(self._http, self._sleep)
                else:
                    yield step
        finally:
            plan.close()

    def iter_events(
        self, *, after: int = 0, page_size: int | None = None, **filters: Unpack[EventFilters]
    ) -> Generator[EventItem, None, None]:
        """Every event after ``after`` (all pages), oldest first."""
        return self._run(self._pages(after, page_size, filters))

    @serves("GET", C + "/stream")
    def stream(
        self, after: int | None = None, *, follow: bool = True, campaign: str | None = None
    ) -> Generator[StreamItem, None, None]:
        """The live feed: each new event (after ``after``; default: from now)
        as it is appended. A dropped connection resumes with ``Last-Event-ID``;
        ``follow=False`` ends once the events so far are read."""
        return self._run(self._feed(after, follow, campaign))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
