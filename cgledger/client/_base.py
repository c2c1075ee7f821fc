"""What ``Client`` and ``AsyncClient`` share: the endpoint methods, the
constructor and the client's state, and the plans of the iterators."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, Unpack

import httpx2 as httpx

from cgledger.api.models import EventItem, EventPage
from cgledger.client._calls import Call
from cgledger.client._core import DEFAULT_SERVER, Core, call_steps, page_steps
from cgledger.client._declare import EventFilters, Options, endpoint
from cgledger.client._endpoints import Endpoints
from cgledger.client._feed import StreamItem, feed_steps
from cgledger.client._steps import Plan

T = TypeVar("T")
#: The client's kind of ``httpx2`` transport, and of ``sleep`` (sync or async).
Transport = TypeVar("Transport")
Sleeper = TypeVar("Sleeper", bound=Callable[[float], Any])


class Base(Endpoints, Generic[Transport, Sleeper]):
    """The endpoint methods and the state both clients share."""

    _core: Core
    _http: httpx.Client | httpx.AsyncClient
    _sleep: Callable[[float], Any]

    def __init__(
        self,
        base_url: str = DEFAULT_SERVER,
        token: str | None = None,
        *,
        transport: Transport | None = None,
        sleep: Sleeper | None = None,
        **options: Unpack[Options],
    ) -> None:
        self._core = Core(
            token=token,
            campaign=options.get("campaign"),
            retries=options.get("retries", 3),
            backoff=options.get("backoff", 0.5),
            max_wait=options.get("max_wait", 60.0),
        )
        self._http = self._open(base_url, options.get("timeout", 30.0), transport)
        self._sleep = sleep or self._pause

    # ---------------------------------------------------------------- what a client does

    def _open(
        self, base_url: str, timeout: float, transport: Transport | None
    ) -> httpx.Client | httpx.AsyncClient:
        """The ``httpx2`` client of the requests."""
        raise NotImplementedError

    def _pause(self, seconds: float) -> Any:
        """How to wait between tries (unless given ``sleep=``)."""
        raise NotImplementedError

    def _bind(self, ep: endpoint[Any, Any]) -> Any:
        """The endpoint method ``ep`` of this client."""
        raise NotImplementedError

    # ---------------------------------------------------------------- state

    @property
    def campaign(self) -> str | None:
        """The campaign the client acts on by default."""
        return self._core.campaign

    @campaign.setter
    def campaign(self, value: str | None) -> None:
        self._core.campaign = value

    @property
    def token(self) -> str | None:
        return self._core.token

    @token.setter
    def token(self, value: str | None) -> None:
        self._core.token = value

    @property
    def last_response(self) -> Any:
        """The last answer (``httpx2.Response``), e.g. for ``Idempotent-Replayed``."""
        return self._core.last_response

    def version(self, campaign: str | None = None) -> int | None:
        """The campaign version of the client's last read (what ``if_match=True`` sends)."""
        return self._core.versions.get(self._core.campaign_id(campaign))

    # ---------------------------------------------------------------- plans

    def _plan(self, call: Call[T]) -> Plan[Any]:
        return Plan(call_steps(self._core, self._http, call))

    def _pages(self, after: int, limit: int | None, filters: EventFilters) -> Plan[EventItem]:
        def page(next_after: int) -> Call[EventPage]:
            return Base.events.call(self, after=max(after, next_after), limit=limit, **filters)

        return Plan(page_steps(self._core, self._http, page))

    def _feed(self, after: int | None, follow: bool, campaign: str | None) -> Plan[StreamItem]:
        start = Base.get_campaign.call(self, campaign=campaign)
        return Plan(feed_steps(self._core, self._http, start, after=after, follow=follow))
