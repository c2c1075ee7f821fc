"""``cgledger.client.AsyncClient`` against a live server: the same plans as
the sync client, run on asyncio (typed answers, errors, a retry that appends
once, If-Match, the live feed and its resumption)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx2 as httpx
import pytest
from live import serving

from cgledger.api.models import CampaignCreated, RollView, RosterView, TableRollView
from cgledger.client import ApiError, AsyncClient, Conflict, StreamItem
from cgledger.settings import Settings

KGP = {"ruleset": "kgp", "name": "CG I", "title": "async", "initial_cpp": {"German": 2}}
#: Guards a test against hanging if the feed never delivers (not a timing check).
GUARD = 60


T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, GUARD))


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    lite = Settings(data_dir=tmp_path / "data", database_url=None, create_per_minute=1_000_000)
    with serving(lite) as url:
        yield url


def side(base: str, created: CampaignCreated, role: str) -> AsyncClient:
    assert created.tokens is not None
    return AsyncClient(base, created.tokens[role], campaign=created.id)


async def create(base: str) -> CampaignCreated:
    async with AsyncClient(base) as anon:
        return await anon.create_campaign(**KGP)


def test_async_calls_answer_typed(settings: Settings) -> None:
    async def go(base: str) -> None:
        created = await create(base)
        assert created.tokens is not None
        async with (
            side(base, created, "German") as german,
            side(base, created, "referee") as referee,
        ):
            rolled = await german.roll(2, "async roll", secret=True)
            assert isinstance(rolled, RollView)
            assert rolled.secret
            table = await referee.roll_table("kgp:8.610", drm=[{"id": "german"}])
            assert isinstance(table, TableRollView)
            assert table.table.id == "kgp:8.610"
            roster = await german.roster()
            assert isinstance(roster, RosterView)
            assert roster.side == "German"
            seqs = [e.seq async for e in referee.iter_events(page_size=2)]
            assert seqs == list(range(1, (await referee.get_campaign()).version + 1))
            with pytest.raises(ApiError) as caught:
                await german.ammunition_shortage()
            assert caught.value.status == 409
            assert caught.value.detail.startswith("8.618: ")
            assert str(caught.value).startswith("409 Conflict: 8.618: ")

    with serving(settings) as base:
        run(go(base))


class Recording(httpx.AsyncBaseTransport):
    """Sends through a real transport; ``seen`` are the requests it watches
    (those ``watch`` picks), and ``change`` may spoil the first answer."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.seen: list[httpx.Request] = []

    def watch(self, request: httpx.Request) -> bool:
        raise NotImplementedError

    async def change(self, request: httpx.Request, response: httpx.Response) -> httpx.Response:
        raise NotImplementedError

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if not self.watch(request):
            return response
        self.seen.append(request)
        return response if len(self.seen) > 1 else await self.change(request, response)

    async def aclose(self) -> None:
        await self.inner.aclose()


class LoseFirstAnswer(Recording):
    """The server does the first POST; its answer is lost on the way back."""

    def watch(self, request: httpx.Request) -> bool:
        return request.method == "POST"

    async def change(self, request: httpx.Request, response: httpx.Response) -> httpx.Response:
        await response.aread()
        await response.aclose()
        raise httpx.ReadError("connection reset by peer", request=request)


def test_async_retry_after_a_lost_answer_appends_once(base_url: str) -> None:
    async def go() -> None:
        created = await create(base_url)
        assert created.tokens is not None
        transport = LoseFirstAnswer()
        waits: list[float] = []

        async def sleep(seconds: float) -> None:
            waits.append(seconds)

        async with AsyncClient(
            base_url,
            created.tokens["US"],
            campaign=created.id,
            transport=transport,
            sleep=sleep,
        ) as us:
            before = (await us.get_campaign()).version
            rolled = await us.roll(2, "once")
            assert us.last_response.headers["Idempotent-Replayed"] == "true"
            assert (await us.get_campaign()).version == before + 1
            assert rolled.seq == before + 1
        assert len(transport.seen) == 2
        assert len({r.headers["Idempotency-Key"] for r in transport.seen}) == 1
        assert len(waits) == 1

    run(go())


def test_async_if_match(base_url: str) -> None:
    async def go() -> None:
        created = await create(base_url)
        assert created.tokens is not None
        async with side(base_url, created, "US") as us, side(base_url, created, "German") as german:
            await us.get_campaign()
            await german.roll(1, "first")
            version = (await german.get_campaign()).version
            with pytest.raises(Conflict):
                await us.roll(2, "stale", if_match=True)
            assert (await german.get_campaign()).version == version
            assert (await us.roll(2, "fresh", if_match=version)).seq == version + 1

    run(go())


async def take(feed: AsyncGenerator[StreamItem, None], n: int) -> list[StreamItem]:
    got: list[StreamItem] = []
    async for item in feed:
        got.append(item)
        if len(got) == n:
            break
    return got


def test_async_feed_delivers_live_events(base_url: str) -> None:
    async def go() -> None:
        created = await create(base_url)
        assert created.tokens is not None
        async with side(base_url, created, "US") as us, side(base_url, created, "German") as german:
            start = (await us.get_campaign()).version
            feed = us.stream(after=start - 1)
            # The last event comes first: the feed is connected.
            (first,) = await take(feed, 1)
            assert first.seq == start
            rolled = await german.roll(2, "live", secret=True)
            (live,) = await take(feed, 1)
            await feed.aclose()
            assert live.seq == rolled.seq
            assert live.type == "RecordSealed", "a secret roll is a sealed record"
            assert live.event.payload["roll"]["index"] == rolled.index
            assert live.event.secret is None, "redacted for the opponent"
            assert live.checkpoint is not None

    run(go())


class CutOnce(Recording):
    """Cuts the first answer of the live feed after its first event."""

    def watch(self, request: httpx.Request) -> bool:
        return request.url.path.endswith("/stream")

    async def change(self, request: httpx.Request, response: httpx.Response) -> httpx.Response:
        return httpx.Response(200, headers=response.headers, stream=_Cut(response), request=request)


class _Cut(httpx.AsyncByteStream):
    def __init__(self, response: httpx.Response) -> None:
        self.response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.response.aiter_raw():
            yield chunk
            if b"id: " in chunk:
                break
        await self.response.aclose()
        raise httpx.ReadError("connection reset by peer")


def test_async_feed_resumes_with_last_event_id(base_url: str) -> None:
    async def go() -> None:
        created = await create(base_url)
        assert created.tokens is not None
        async with side(base_url, created, "German") as g:
            for n in range(3):
                await g.roll(1, f"backlog {n}")
            version = (await g.get_campaign()).version
        transport = CutOnce()
        waits: list[float] = []

        async def sleep(seconds: float) -> None:
            waits.append(seconds)

        async with AsyncClient(
            base_url, created.tokens["US"], campaign=created.id, transport=transport, sleep=sleep
        ) as us:
            items = [i async for i in us.stream(after=0, follow=False)]
        assert [i.seq for i in items] == list(range(1, version + 1))
        assert [r.headers["Last-Event-ID"] for r in transport.seen] == ["0", "1"]
        assert [i.reconnects for i in items[:2]] == [0, 1]
        assert waits == [3.0]

    run(go())
