"""Undo by replay (DESIGN §5): which events an undo may revert, and what it flips.

Undo never deletes. An ``UndoApplied`` event lists, explicitly, the seqs it
``reverts`` (in force -> reverted) and the seqs it ``restores`` (reverted -> in
force). Replaying those flips in order gives every event's status, and the
campaign's state is rebuilt from the state events still in force.

Three kinds of event can be reverted:

* **rolls** (``DiceRolled``, ``TableRolled``): they change no state, so any of
  them may be reverted on its own. An undone roll keeps its index (DESIGN §2).
* **state events** (a CG Date begun or readied, a CPP Replenishment, an RG
  purchase, Recon): each was checked against the state the events before it
  built. So an undo that names one must also name every later state event (and
  every later undo that changed state) still in force: undo reverts a suffix of
  the state's history, never a middle piece that later events were built on.
  The state then becomes exactly what it was just before the earliest one.
* **undos** (``UndoApplied``): reverting an undo puts back what it reverted
  (and reverts what it restored), the same way.

Nothing else can be undone: creation, published dice commitments, table
definitions, reveals (a seen secret cannot be unseen), undo requests and their
answers, and disputes. Those answers come from :data:`NOT_REVERTIBLE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.errors import InvalidInput, NotFound, RuleViolation

#: Events that a command appends for the ledger's own sake, not as anyone's action.
BOOKKEEPING = frozenset({"CommitmentsPublished", "TableDefined"})
ROLL_ONLY = frozenset({"DiceRolled", "TableRolled"})
STATE_EVENTS = frozenset(
    {"CGDateReady", "CGDateBegan", "CPPReplenished", "RGPurchased", "ReconPurchased"}
)
UNDO = "UndoApplied"
REVERTIBLE = ROLL_ONLY | STATE_EVENTS | {UNDO}

NOT_REVERTIBLE = {
    "CampaignCreated": "the campaign's creation cannot be undone",
    "CommitmentsPublished": "published dice commitments cannot be withdrawn (DESIGN §2)",
    "TableDefined": "a table definition stays in the log for the rolls read with it",
    "SecretRevealed": "a revealed secret cannot be hidden again",
    "UndoRequested": "an undo request is answered with approve or reject",
    "UndoRejected": "a rejected undo request can be filed again instead",
    "DisputeFiled": "a dispute is settled by resolving it",
    "DisputeResolved": "a resolved dispute stays resolved; undo its revert instead",
}
MAX_SEQS = 100

#: How the aggregate remembers a revertible event: ``{"type", "actor", "index"
#: (roll index or None), "state" (whether it changed state)}``; an undo also has
#: ``"reverts"``, ``"restores"`` and ``"at_once_by"`` (the role that applied it
#: alone, or None when it was approved or came from a dispute).
Book = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Effect:
    reverts: list[int]
    restores: list[int]
    #: Roll indices of the roll-bearing events this undo reverts.
    rolls: list[int]
    #: True if a state event flips, so the state must be rebuilt.
    state: bool


def targets(
    book: Book,
    reverted: dict[str, int],
    kinds: dict[str, str],
    version: int,
    *,
    seqs: list[int] | None,
    to_seq: int | None,
) -> list[int]:
    """The seqs an undo request names: ``seqs`` as given (checked), or every
    event in force after ``to_seq``."""
    if (seqs is None) == (to_seq is None):
        raise InvalidInput("give either seqs or to_seq", field="seqs")
    if to_seq is not None:
        if not 0 <= to_seq < version:
            raise InvalidInput(f"to_seq must be 0 to {version - 1}", field="to_seq")
        named = [int(s) for s in book if int(s) > to_seq and s not in reverted]
        if not named:
            raise RuleViolation(f"nothing after seq {to_seq} is in force; there is nothing to undo")
        return sorted(named)
    assert seqs is not None
    if not 1 <= len(seqs) <= MAX_SEQS:
        raise InvalidInput(f"name 1 to {MAX_SEQS} seqs", field="seqs")
    if len(set(seqs)) != len(seqs):
        raise InvalidInput("a seq is named twice", field="seqs")
    for seq in seqs:
        if not 1 <= seq <= version:
            raise NotFound(f"no event {seq} in this campaign", field="seqs")
        kind = kinds[str(seq)]
        if str(seq) not in book:
            why = NOT_REVERTIBLE.get(kind, "it is not an action")
            raise RuleViolation(f"event {seq} ({kind}) cannot be undone: {why}")
        if str(seq) in reverted:
            by = reverted[str(seq)]
            raise RuleViolation(
                f"event {seq} ({kind}) was already reverted by undo {by}; undo {by} to restore it"
            )
    return sorted(seqs)


def later_state(book: Book, reverted: dict[str, int], after: int) -> list[int]:
    """State events and state-changing undos still in force after ``after``."""
    return sorted(
        int(s) for s, info in book.items() if info["state"] and int(s) > after and s not in reverted
    )


def plan(
    book: Book,
    reverted: dict[str, int],
    named: list[int],
    *,
    to_seq: int | None = None,
    ceiling: int | None = None,
) -> Effect:
    """What reverting ``named`` flips. ``to_seq``/``ceiling``: a request to undo
    everything after ``to_seq``, made when the log ended below ``ceiling``; every
    roll in between then stays reverted, even one a named undo had reverted."""
    reverts: set[int] = set()
    restores: set[int] = set()
    state_named = [s for s in named if book[str(s)]["state"]]
    if state_named:
        first = state_named[0]
        missing = [s for s in later_state(book, reverted, first) if s not in named]
        if missing:
            listed = ", ".join(str(s) for s in missing)
            raise RuleViolation(
                f"event {first} changed the campaign's state and events {listed} were "
                f"built on it: name them too (or undo with to_seq {first - 1})"
            )
        then = _reverted_before(book, first)
        for key, info in book.items():
            if info["type"] not in STATE_EVENTS:
                continue
            want = int(key) >= first or key in then
            if want and key not in reverted:
                reverts.add(int(key))
            elif not want and key in reverted:
                restores.add(int(key))
    for seq in named:
        info = book[str(seq)]
        if info["type"] == UNDO:
            reverts.add(seq)
            # Reverting an undo puts its rolls back as they were before it.
            for r in info["reverts"]:
                if book[str(r)]["type"] in ROLL_ONLY and str(r) in reverted:
                    restores.add(r)
            for r in info["restores"]:
                if book[str(r)]["type"] in ROLL_ONLY and str(r) not in reverted:
                    reverts.add(r)
    reverts = {r for r in reverts if str(r) not in reverted}
    restores = {r for r in restores if str(r) in reverted}
    # Rolls named, and with to_seq every roll made after it, end reverted by
    # this undo (even one a named undo had reverted: the label moves here).
    rolls_reverted = {seq for seq in named if book[str(seq)]["type"] in ROLL_ONLY}
    if to_seq is not None and ceiling is not None:
        rolls_reverted |= {
            int(key)
            for key, info in book.items()
            if info["type"] in ROLL_ONLY and to_seq < int(key) < ceiling
        }
    restores -= rolls_reverted
    reverts |= {r for r in rolls_reverted if str(r) not in reverted or reverted[str(r)] in named}
    flipped = reverts | restores
    return Effect(
        reverts=sorted(reverts),
        restores=sorted(restores),
        rolls=sorted(book[str(s)]["index"] for s in reverts if book[str(s)]["index"] is not None),
        state=any(book[str(s)]["type"] in STATE_EVENTS for s in flipped),
    )


def _reverted_before(book: Book, seq: int) -> set[str]:
    """Which events were reverted just before ``seq``: the flips of every undo
    before it, replayed in order."""
    out: set[str] = set()
    for s in sorted((int(k) for k, v in book.items() if v["type"] == UNDO and int(k) < seq)):
        info = book[str(s)]
        out.update(str(r) for r in info["reverts"])
        out.difference_update(str(r) for r in info["restores"])
    return out


def alone(book: Book, last_event: int, actor: str, named: list[int]) -> bool:
    """DESIGN §5: a side may undo its own latest action alone, provided nothing
    the opponent saw depends on it: no roll, no reveal, no event after it."""
    if len(named) != 1 or named[0] != last_event:
        return False
    info = book[str(named[0])]
    if info["actor"] != actor or info["index"] is not None:
        return False
    if info["type"] == UNDO:
        # Only an undo the side applied alone, touching no roll.
        touched = [*info["reverts"], *info["restores"]]
        if info["at_once_by"] != actor or any(book[str(r)]["index"] is not None for r in touched):
            return False
    return True
