"""The campaign's snapshot (``CGLEDGER_SNAPSHOT_INTERVAL``): its state only."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Snapshot as LibrarySnapshot


class StateSnapshot(LibrarySnapshot):
    """A snapshot of the state only: the attached history and a command's
    open seal (``sealing``) stay out."""

    TOPIC = "cgledger:Campaign.Snapshot"

    @classmethod
    def take(cls, aggregate: Any) -> Any:
        history = aggregate.__dict__.pop("_history", None)
        aggregate.__dict__.pop("_seal", None)
        try:
            return super().take(aggregate)
        finally:
            if history is not None:
                aggregate.__dict__["_history"] = history
