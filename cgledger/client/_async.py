"""The asynchronous client: the same methods as ``Client``, awaited."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Awaitable, Callable
from types import TracebackType
from typing import Any, TypeVar, Unpack

import httpx2 as httpx

from cgledger.api.models import EventItem
from cgledger.client._base import Base
from cgledger.client._declare import C, EventFilters, endpoint, serves
from cgledger.client._feed import StreamItem
from cgledger.client._steps import Plan, Step

Y = TypeVar("Y")


class AsyncClient(Base[httpx.AsyncBaseTransport, Callable[[float], Awaitable[Any]]]):
    """``Client`` for asyncio: every endpoint method is a coroutine, and
    ``iter_events`` and ``stream`` are async iterators."""

    _http: httpx.AsyncClient

    def _open(
        self, base_url: str, timeout: float, transport: httpx.AsyncBaseTransport | None
    ) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)

    async def _pause(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def _bind(self, ep: endpoint[Any, Any]) -> Any:
        async def bound(*args: Any, **kwargs: Any) -> Any:
            return await self._call(ep.call(self, *args, **kwargs))

        return bound

    async def _call(self, call: Any) -> Any:
        plan = self._plan(call)
        async for _ in self._run(plan):
            pass
        return plan.result

    async def _run(self, plan: Plan[Y]) -> AsyncGenerator[Y, None]:
        try:
            while (step := plan.next_step()) is not None:
                if isinstance(step, Step):
                    plan.reply = await step.arun(self._http, self._sleep)
                else:
                    yield step
        finally:
            await plan.aclose()

    def iter_events(
        self, *, after: int = 0, page_size: int | None = None, **filters: Unpack[EventFilters]
    ) -> AsyncGenerator[EventItem, None]:
        """Every event after ``after`` (all pages), oldest first."""
        return self._run(self._pages(after, page_size, filters))

    @serves("GET", C + "/stream")
    def stream(
        self, after: int | None = None, *, follow: bool = True, campaign: str | None = None
    ) -> AsyncGenerator[StreamItem, None]:
        """The live feed as an async iterator (see ``Client.stream``)."""
        return self._run(self._feed(after, follow, campaign))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()
