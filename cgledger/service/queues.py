"""How commands on one campaign take turns (DESIGN §6): in one process they
queue (``Queues``); across processes the database's optimistic concurrency
decides, and the loser retries with a jittered back-off (``Retry``) until it
wins or ``BUSY_SECONDS`` pass. ``Races`` counts what happened."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

#: A command that keeps losing the race to other processes on one campaign
#: gives up after this long (within one process, commands never race: they queue).
BUSY_SECONDS = 30.0


@dataclass
class Turn:
    """A campaign's queue in one process: its lock, how many commands hold or
    wait for it, and the latest version a command of this process saved."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0
    saved: int = 0


class Queues:
    """Commands on one campaign run one at a time in this process, so they
    never race each other and never see a 409 they did not ask for with
    ``If-Match`` (DESIGN §6); commands on different campaigns run in parallel.
    A campaign's queue exists only while a command holds or waits for it."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._turns: dict[object, Turn] = {}

    @contextmanager
    def turn(self, key: object) -> Iterator[Turn]:
        with self._guard:
            turn = self._turns.setdefault(key, Turn())
            turn.users += 1
        try:
            with turn.lock:
                yield turn
        finally:
            with self._guard:
                turn.users -= 1
                if turn.users == 0:
                    del self._turns[key]


@dataclass
class Retry:
    """The back-off of a command that lost a race to another process: jittered,
    growing with each attempt, capped at 50 ms, for at most ``busy_seconds``.
    ``clock`` and ``sleep`` are the time it reads and waits by."""

    busy_seconds: float = BUSY_SECONDS
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep

    def deadline(self) -> float:
        return self.clock() + self.busy_seconds

    def expired(self, deadline: float) -> bool:
        return self.clock() > deadline

    def back_off(self, attempt: int) -> None:
        backoff = 0.002 * 2 ** min(attempt, 5)
        self.sleep(random.uniform(0, min(0.05, backoff)))  # noqa: S311


@dataclass
class Races:
    """How this process's commands fared against other processes' writes:
    ``lost`` saves refused because another write came first, of which
    ``retried`` were run again, ``conflicts`` answered 409 under ``If-Match``
    and ``busy`` given up after ``BUSY_SECONDS``."""

    lost: int = 0
    retried: int = 0
    conflicts: int = 0
    busy: int = 0
    _guard: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def count(self, outcome: str) -> None:
        with self._guard:
            self.lost += 1
            setattr(self, outcome, getattr(self, outcome) + 1)
