"""The framework floor: a minimal FastAPI app that, per request, loads one
aggregate with the bare ``eventsourcing`` library (snapshots every 50 events)
and appends one event. ``bench/cost.py`` serves it with the same uvicorn and
drives it with the same client as cgledger, so the ratio between the two is
what cgledger itself costs.

    BENCH_FLOOR_ENV='{"PERSISTENCE_MODULE": "eventsourcing.sqlite", ...}' \\
        .venv/bin/python -m uvicorn bench.floor_app:app
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, ClassVar

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from fastapi import FastAPI
from pydantic import BaseModel


class Counter(Aggregate):
    TOPIC = "bench:Counter"

    class Event(Aggregate.Event):
        TOPIC = "bench:Counter.Event"

    class Created(Event, Aggregate.Created):
        TOPIC = "bench:Counter.Created"

    @event("Started", topic="bench:Counter.Started")
    def __init__(self) -> None:
        self.count = 0

    @event("Bumped", topic="bench:Counter.Bumped")
    def bump(self, note: str) -> None:
        self.count += 1
        self.note = note


class Store(Application[uuid.UUID]):
    name = "floor"
    snapshotting_intervals: ClassVar[dict[type[Any], int]] = {Counter: 50}


class Bump(BaseModel):
    note: str = ""


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    app.state.store = Store(env=json.loads(os.environ["BENCH_FLOOR_ENV"]))
    try:
        yield
    finally:
        app.state.store.close()


app = FastAPI(lifespan=lifespan)


@app.post("/counters", status_code=201)
def create() -> dict[str, str]:
    counter = Counter()
    app.state.store.save(counter)
    return {"id": str(counter.id)}


@app.post("/counters/{cid}/bumps", status_code=201)
def bump(cid: uuid.UUID, body: Bump) -> dict[str, int]:
    store: Store = app.state.store
    counter: Counter = store.repository.get(cid)
    counter.bump(body.note)
    store.save(counter)
    return {"count": counter.count, "version": counter.version}
