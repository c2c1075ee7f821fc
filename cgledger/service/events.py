"""The event log (DESIGN §4): read as the caller may see it (filtered and
paged, exported as JSON Lines, or followed live), and the reveal of an
event's secret part."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cgledger.domain.errors import InvalidInput
from cgledger.domain.visibility import redact
from cgledger.projections.campaign import event_item
from cgledger.projections.eventlog import export_jsonl, matches
from cgledger.service.ledger import Ledger
from cgledger.service.session import Asked, Caller, Written, run


def reveal_event(caller: Caller, seq: int, asked: Asked) -> Written:
    """Reveal the secret part of an event (e.g. a secret RG purchase)."""
    done = run(
        caller,
        lambda c, ctx: c.reveal(ctx, seq),
        operation="reveal-event",
        body={"seq": seq},
        asked=asked,
    )
    record = caller.ledger.record(done.campaign, seq)
    return Written(done, redact(record, caller.role, revealed=done.campaign.is_revealed(seq)))


def list_events(
    caller: Caller,
    *,
    after: int,
    limit: int,
    event_type: list[str] | None,
    actor: str | None,
    table: str | None,
    date: str | None,
    reverted: bool,
    before: int | None,
) -> dict[str, Any]:
    """One page of the log as the caller may see it; the filters read public
    fields only (``cgledger.projections.eventlog.matches``)."""
    ledger, campaign, role = caller.ledger, caller.campaign, caller.role
    types = None
    if event_type is not None:
        types = frozenset(t.strip() for part in event_type for t in part.split(",") if t.strip())
    if date is not None:
        date = campaign.ruleset.normalize_date(date) or date
    filtered = types is not None or actor or table or date or not reverted
    items: list[dict[str, Any]] = []
    last = after
    end = campaign.version if before is None else min(campaign.version, before - 1)
    while len(items) < limit and last < end:
        chunk = ledger.records(
            campaign, after=last, limit=min(limit if not filtered else 500, end - last)
        )
        for record in chunk:
            last = record["seq"]
            keep = matches(record, types=types, actor=actor, table=table, date=date) and (
                reverted or campaign.reverted_by(last) is None
            )
            if keep:
                items.append(event_item(campaign, record, role))
                if len(items) == limit:
                    break
    return {
        "items": items,
        "version": campaign.version,
        "next_after": last if last < end else None,
    }


@dataclass(frozen=True)
class Export:
    body: bytes
    filename: str
    version: int


def export(caller: Caller) -> Export:
    """JSONL of the whole log as the caller may see it (``cgledger verify`` checks it)."""
    ledger, campaign, role = caller.ledger, caller.campaign, caller.role
    body = export_jsonl(
        {
            "campaign": campaign.cid,
            "ruleset": campaign.ruleset_id,
            "campaign_name": campaign.campaign_name,
            "exported_at": ledger.clock(),
        },
        ledger.records(campaign),
        role,
        campaign.is_revealed,
    )
    return Export(body, f"cgledger-{campaign.cid}-{role}.jsonl", campaign.version)


@dataclass(frozen=True)
class FeedItem:
    """One event of the live feed: its seq and type, and its data (the event
    as the caller may see it, with its signed checkpoint)."""

    seq: int
    type: str
    data: dict[str, Any]


class Feed:
    """The live feed of one campaign for one caller: ``page`` reads the events
    after a seq, ``listen`` registers a wake-up for this process's appends."""

    def __init__(self, ledger: Ledger, campaign_id: str, role: str, start: int) -> None:
        self.ledger = ledger
        self.campaign_id = campaign_id
        self.role = role
        #: The seq the feed starts after.
        self.start = start

    def page(self, after: int) -> list[FeedItem]:
        """Up to 500 events after seq ``after`` (blocking: run it in a thread)."""
        ledger = self.ledger
        campaign = ledger.load(self.campaign_id)
        out = []
        for record in ledger.records(campaign, after=after, limit=500):
            data = {
                "event": event_item(campaign, record, self.role),
                "checkpoint": ledger.signer.sign(
                    campaign.cid, record["seq"], record["hash"], record["recorded_at"]
                ),
            }
            out.append(FeedItem(record["seq"], record["type"], data))
        return out

    def listen(self, wake: Callable[[], None]) -> Callable[[], None]:
        """Call ``wake`` after each append to this campaign by this process;
        returns the function that stops it."""

        def listener(cid: str) -> None:
            if cid == self.campaign_id:
                wake()

        self.ledger.listeners.append(listener)
        return lambda: self.ledger.listeners.remove(listener)


#: A ``Last-Event-ID`` (the OpenAPI document states it): a seq of 1 to 18 digits.
LAST_EVENT_ID_PATTERN = r"^[0-9]{1,18}$"


def open_feed(
    caller: Caller, campaign_id: str, after: int | None, last_event_id: str | None
) -> Feed:
    """The feed from ``Last-Event-ID`` (a reconnection), else from ``after``,
    else from the campaign's head."""
    start = caller.campaign.version if after is None else after
    if last_event_id is not None:
        if re.fullmatch(LAST_EVENT_ID_PATTERN, last_event_id) is None:
            raise InvalidInput("Last-Event-ID must be a seq", field="Last-Event-ID")
        start = int(last_event_id)
    return Feed(caller.ledger, campaign_id, caller.role, start)
