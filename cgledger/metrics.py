"""Prometheus metrics of the application service (``prometheus_client``):
events appended and rolls made, counted where events are saved. Nothing in
them tells a campaign, a side or a die: a secret roll counts as "secret".

Several worker processes report one set of figures when
``PROMETHEUS_MULTIPROC_DIR`` names an empty directory shared by them
(prometheus_client's multiprocess mode; docs/operations.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from prometheus_client import Counter

APPENDED = Counter("cgledger_events_appended", "Events appended to campaigns", ["type"])
ROLLS = Counter("cgledger_rolls", "Dice rolls made (public or secret)", ["kind"])


def appended(records: Iterable[dict[str, Any]]) -> None:
    """Count the records one save appended."""
    for record in records:
        APPENDED.labels(type=record["type"]).inc()
        if "roll" in record["payload"]:
            ROLLS.labels(kind="public" if record["secret"] is None else "secret").inc()
