"""Routes of the event log (DESIGN §4): one page of it as the caller may see
it, its JSON Lines export, the live feed (Server-Sent Events) and the reveal
of an event's secret part. ``cgledger.service.events`` answers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import FastAPI, Header, Path, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import StringConstraints
from starlette.concurrency import run_in_threadpool

from cgledger.api.deps import (
    MAX_INT,
    MAX_PAGE,
    Auth,
    CampaignId,
    IdempotencyKey,
    IfMatch,
    _appended,
    _etag,
    asked,
)
from cgledger.api.models import EventPage, RevealedEvent
from cgledger.service import events
from cgledger.service.events import Feed

#: Event type names, one or several separated by commas ("DiceRolled,SecretRevealed").
EVENT_TYPES = r"^\s*[A-Z][A-Za-z0-9]*\s*(,\s*[A-Z][A-Za-z0-9]*\s*)*,?\s*$"
#: The live feed polls the store this often (other server processes' writes),
#: and is woken at once by writes of this process.
POLL_SECONDS = 2.0
KEEPALIVE_SECONDS = 15.0


def install_event_routes(app: FastAPI) -> None:
    @app.post(
        "/v1/campaigns/{campaign_id}/events/{seq}/reveal",
        tags=["events"],
        response_model=RevealedEvent,
        response_model_exclude_unset=True,
    )
    def reveal_event(
        campaign_id: CampaignId,
        seq: Annotated[int, Path(ge=1, le=MAX_INT)],
        response: Response,
        caller: Auth,
        idem: IdempotencyKey = None,
        if_match: IfMatch = None,
    ) -> dict[str, Any]:
        """Reveal the secret part of an event (e.g. a secret RG purchase)."""
        return _appended(response, events.reveal_event(caller, seq, asked(idem, if_match)))

    @app.get(
        "/v1/campaigns/{campaign_id}/events",
        tags=["events"],
        response_model=EventPage,
        response_model_exclude_unset=True,
    )
    def list_events(
        campaign_id: CampaignId,
        response: Response,
        caller: Auth,
        after: Annotated[int, Query(ge=0, le=MAX_INT)] = 0,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
        event_type: Annotated[
            list[Annotated[str, StringConstraints(max_length=400, pattern=EVENT_TYPES)]] | None,
            Query(
                alias="type",
                description="Event types (repeat, or separate with commas)",
                max_length=40,
            ),
        ] = None,
        actor: Annotated[
            str | None, Query(description="The role that acted", max_length=40)
        ] = None,
        table: Annotated[str | None, Query(description="A table id", max_length=60)] = None,
        date: Annotated[str | None, Query(description="A CG Date", max_length=20)] = None,
        reverted: Annotated[bool, Query(description="false: leave out reverted events")] = True,
        before: Annotated[
            int | None,
            Query(
                ge=1,
                le=MAX_INT,
                description="Only events with a seq below this (a window ending here: "
                "a reader can page back from the newest end)",
            ),
        ] = None,
    ) -> dict[str, Any]:
        """The event log as the caller may see it; hidden events are stubs, never
        gaps. Each event says which undo reverted it (``reverted_by``). The
        filters read public fields only; ``next_after`` pages on (up to
        ``before``, when given)."""
        _etag(response, caller.campaign.version)
        return events.list_events(
            caller,
            after=after,
            limit=limit,
            event_type=event_type,
            actor=actor,
            table=table,
            date=date,
            reverted=reverted,
            before=before,
        )

    @app.get("/v1/campaigns/{campaign_id}/export", tags=["events"])
    def export(campaign_id: CampaignId, caller: Auth) -> Response:
        """JSONL of the whole log as the caller may see it; check it with ``cgledger verify``."""
        found = events.export(caller)
        return Response(
            found.body,
            media_type="application/jsonl",
            headers={
                "Content-Disposition": f'attachment; filename="{found.filename}"',
                "ETag": f'"{found.version}"',
            },
        )

    @app.get(
        "/v1/campaigns/{campaign_id}/stream",
        tags=["events"],
        response_class=StreamingResponse,
        responses={200: {"content": {"text/event-stream": {}}}},
    )
    async def stream(
        campaign_id: CampaignId,
        request: Request,
        caller: Auth,
        after: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
        follow: Annotated[
            bool, Query(description="false: send the events after `after`, then end")
        ] = True,
        last_event_id: Annotated[
            str | None,
            Header(
                alias="Last-Event-ID",
                max_length=20,
                json_schema_extra={"pattern": events.LAST_EVENT_ID_PATTERN},
            ),
        ] = None,
    ) -> StreamingResponse:
        """Server-Sent Events: every new event, redacted for the caller, each
        with its signed checkpoint (``id`` is the seq, ``event`` the type,
        ``data`` is ``{"event", "checkpoint"}``). Reconnecting with
        ``Last-Event-ID`` resumes after that seq; ``after`` starts there."""
        feed = events.open_feed(caller, campaign_id, after, last_event_id)
        return StreamingResponse(
            _sse(feed, campaign_id, follow, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )


async def _sse(feed: Feed, campaign_id: str, follow: bool, request: Request) -> AsyncIterator[str]:
    """The feed as Server-Sent Events: a page of events at a time, then a wait
    for this process's next append (or ``POLL_SECONDS`` for another's)."""
    loop = asyncio.get_running_loop()
    wake = asyncio.Event()

    def woken() -> None:
        loop.call_soon_threadsafe(wake.set)

    stop = feed.listen(woken)
    after = feed.start
    try:
        yield f"retry: 3000\n: cgledger live feed of {campaign_id} as {feed.role}\n\n"
        idle = 0.0
        while True:
            wake.clear()
            items = await run_in_threadpool(feed.page, after)
            for item in items:
                after = item.seq
                text = json.dumps(item.data, separators=(",", ":"), ensure_ascii=False)
                yield f"id: {after}\nevent: {item.type}\ndata: {text}\n\n"
            if items:
                idle = 0.0
                continue  # there may be more than one page
            if not follow or await request.is_disconnected():
                return
            try:
                await asyncio.wait_for(wake.wait(), timeout=POLL_SECONDS)
            except TimeoutError:
                idle += POLL_SECONDS
                if idle >= KEEPALIVE_SECONDS:
                    idle = 0.0
                    yield ": keep-alive\n\n"
    finally:
        stop()
