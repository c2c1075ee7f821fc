"""What grows with a campaign's history lives outside its aggregate (DESIGN §6),
in records read by key, so a command costs the same on the last CG Date as on
the first.

The aggregate keeps only what its invariants need. Everything else is read
through a :class:`History`: a stored record by its seq, and a small set of
write-once keys that point at records (:func:`index_entries` says which):

* ``roll/<index>``: the event that holds roll ``index``;
* ``batch/<first>``: the ``CommitmentsPublished`` event of the batch of dice
  commitments that starts at roll index ``first`` (its sealed seeds);
* ``reveal/<seq>``: the ``SecretRevealed`` event that revealed event ``seq``;
* ``idem/<key>``: the event a role's Idempotency-Key answered with.

Every entry records the seq of the event that wrote it, so a lookup made as of
an earlier version (time travel) ignores entries written after it.
``cgledger.service.store`` stores the entries in the same transaction as the events;
:class:`MemoryHistory` keeps them in memory for the pure domain.
"""

from __future__ import annotations

from typing import Any, Protocol

ROLL = "roll"
BATCH = "batch"
REVEAL = "reveal"
IDEM = "idem"
INDEXED = "indexed"


def key(kind: str, name: object) -> str:
    return f"{kind}/{name}"


def index_entries(record: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The keyed entries one record writes (a pure function of the record)."""
    seq = record["seq"]
    p = record["payload"]
    out: list[tuple[str, dict[str, Any]]] = []
    if record["type"] == "CampaignCreated":
        # Marks a campaign whose entries are all written (an older log gets
        # them, and then this mark, in one go: ``cgledger.service.store``).
        out.append((INDEXED, {"seq": seq}))
    if "roll" in p:
        out.append((key(ROLL, p["roll"]["index"]), {"seq": seq}))
    if record["type"] == "CommitmentsPublished":
        out.append((key(BATCH, p["first_index"]), {"seq": seq}))
    if record["type"] == "SecretRevealed":
        out.append((key(REVEAL, p["of_seq"]), {"seq": seq}))
    idem = record.get("internal", {}).get("idempotency")
    if idem is not None:
        out.append((key(IDEM, idem["key"]), {**idem, "seq": seq}))
    return out


class History(Protocol):
    """Read access to what the aggregate does not keep."""

    def record(self, seq: int) -> dict[str, Any]:
        """The stored record of event ``seq`` (server side: unredacted)."""
        ...

    def records(self, after: int, upto: int) -> list[dict[str, Any]]:
        """The records with ``after < seq <= upto``, in order."""
        ...

    def lookup(self, name: str, upto: int) -> dict[str, Any] | None:
        """The entry under key ``name``, if an event up to seq ``upto`` wrote it."""
        ...

    def remember(self, record: dict[str, Any]) -> None:
        """A record the aggregate just appended (not saved yet)."""
        ...


class MemoryHistory:
    """A :class:`History` held in memory: the pure domain's and the tests'."""

    def __init__(self) -> None:
        self._records: dict[int, dict[str, Any]] = {}
        self._index: dict[str, dict[str, Any]] = {}

    def record(self, seq: int) -> dict[str, Any]:
        return self._records[seq]

    def records(self, after: int, upto: int) -> list[dict[str, Any]]:
        return [self._records[s] for s in range(after + 1, upto + 1) if s in self._records]

    def lookup(self, name: str, upto: int) -> dict[str, Any] | None:
        found = self._index.get(name)
        return found if found is not None and found["seq"] <= upto else None

    def remember(self, record: dict[str, Any]) -> None:
        self._records[record["seq"]] = record
        for name, value in index_entries(record):
            self._index.setdefault(name, value)
