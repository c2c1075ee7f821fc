"""The event store: one stream per campaign (``CampaignStore``), and beside
it the keyed entries of each campaign (``IndexEntry``, read through
``StoreHistory``), written in the same transaction as the events they point at."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from eventsourcing.application import Application
from eventsourcing.domain import DomainEvent
from eventsourcing.utils import register_topic

from cgledger.domain.campaign import Campaign
from cgledger.domain.errors import NotFound
from cgledger.domain.history import index_entries

MAX_SEQ = 2**63 - 1


class IndexEntry(DomainEvent):
    """A keyed entry of a campaign (``cgledger.domain.history``), stored as the only
    event of its own stream (``uuid5(campaign, key)``): written once, in the
    same transaction as the campaign event it points at, and read by key."""

    TOPIC = "cgledger:IndexEntry"
    value: dict[str, Any]


# A plain event class is not registered by its TOPIC as the aggregate's events
# are: without this, a new process that reads an entry before it writes one
# could not resolve the stored topic.
register_topic(IndexEntry.TOPIC, IndexEntry)


def entry_id(campaign_id: uuid.UUID, name: str) -> uuid.UUID:
    return uuid.uuid5(campaign_id, name)


def entry(stream: uuid.UUID, value: dict[str, Any]) -> IndexEntry:
    """The one event of the entry stream ``stream``."""
    return IndexEntry(  # type: ignore[call-arg]
        originator_id=stream,
        originator_version=1,
        timestamp=IndexEntry.create_timestamp(),
        value=value,
    )


def keyed_entry(campaign_id: uuid.UUID, name: str, value: dict[str, Any]) -> IndexEntry:
    return entry(entry_id(campaign_id, name), value)


class CampaignStore(Application[uuid.UUID]):
    """The ``eventsourcing`` application holding one stream per campaign."""

    name = "cgledger"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Campaign: 100}


class StoreHistory:
    """``cgledger.domain.history.History`` over the event store: records by seq, keys
    by their entry streams, and the records a command appended but has not
    saved yet (``remember``), which ``Ledger`` then saves with their entries."""

    def __init__(self, store: Application[uuid.UUID], campaign_id: uuid.UUID) -> None:
        self.store = store
        self.campaign_id = campaign_id
        self.pending: dict[int, dict[str, Any]] = {}
        self.pending_index: dict[str, dict[str, Any]] = {}
        #: Records read so far (a record never changes once stored).
        self.read: dict[int, dict[str, Any]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> StoreHistory:
        return self  # it reads the store; a copy of the campaign reads the same one

    def record(self, seq: int) -> dict[str, Any]:
        found = self.pending.get(seq) or self.read.get(seq)
        if found is not None:
            return found
        events = self.store.events.get(self.campaign_id, gt=seq - 1, lte=seq, limit=1)
        for event in events:
            record: dict[str, Any] = event.record  # type: ignore[attr-defined]
            self.read[seq] = record
            return record
        raise NotFound(f"no event {seq} in this campaign", field="seq")

    def records(self, after: int, upto: int) -> list[dict[str, Any]]:
        events = self.store.events.get(self.campaign_id, gt=after, lte=upto)
        found = {e.record["seq"]: e.record for e in events}  # type: ignore[attr-defined]
        found.update({s: r for s, r in self.pending.items() if after < s <= upto})
        return [found[s] for s in sorted(found)]

    def lookup(self, name: str, upto: int) -> dict[str, Any] | None:
        value = self.pending_index.get(name)
        if value is None:
            for event in self.store.events.get(entry_id(self.campaign_id, name), limit=1):
                value = event.value  # type: ignore[attr-defined]
        return value if value is not None and value["seq"] <= upto else None

    def remember(self, record: dict[str, Any]) -> None:
        self.pending[record["seq"]] = record
        for name, value in index_entries(record):
            self.pending_index.setdefault(name, value)

    def entries(self, after: int) -> list[IndexEntry]:
        """The entry events of the records appended after seq ``after``."""
        out = []
        for seq in sorted(s for s in self.pending if s > after):
            for name, value in index_entries(self.pending[seq]):
                out.append(keyed_entry(self.campaign_id, name, value))
        return out


def history_of(campaign: Campaign) -> StoreHistory:
    history = campaign.history
    assert isinstance(history, StoreHistory), "the Ledger attaches a StoreHistory on load"
    return history
