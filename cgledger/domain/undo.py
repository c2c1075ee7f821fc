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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cgledger.domain.errors import InvalidInput, NotFound, RuleViolation

#: Events that a command appends for the ledger's own sake, not as anyone's action.
BOOKKEEPING = frozenset({"CommitmentsPublished", "TableDefined"})
ROLL_ONLY = frozenset({"DiceRolled", "TableRolled"})
#: The engine's state events; each ruleset adds its own (``Rules.state_events``).
STATE_EVENTS = frozenset(
    {
        "CGDateReady",
        "CGDateBegan",
        "CGDateRejected",
        "InitiativeChosen",
        "InitiativeDetermined",
        "RePhAdvanced",
        "ScenarioEndProposed",
        "ScenarioEnded",
        "ScenarioEndRejected",
        "ControlProposed",
        "ControlRecorded",
        "ControlRejected",
        "MassacreProposed",
        "MassacreRecorded",
        "MassacreRejected",
    }
)
UNDO = "UndoApplied"
REVERTIBLE = ROLL_ONLY | STATE_EVENTS | {UNDO}
#: Events that show the opponent something secret of theirs (the second
#: Initiative chit reveals the first, 8.6232): never undone alone, since the
#: side that made it has seen what it revealed (DESIGN §5).
REVEALING = frozenset({"InitiativeDetermined"})
#: Events that put an agreement in force (DESIGN §13): the last side's New CG
#: Date or CG-Scenario End completes what both said, and an approved Control
#: or Massacre proposal (``APPROVED``, when it names its proposal). The side
#: that made one cannot take it back alone, as it cannot take back the
#: opponent's approval of an undo request.
AGREED_JOINTLY = frozenset({"CGDateBegan", "ScenarioEnded"})
APPROVED = frozenset({"ControlRecorded", "MassacreRecorded"})

NOT_REVERTIBLE = {
    "CampaignCreated": "the campaign's creation cannot be undone",
    "CommitmentsPublished": "published dice commitments cannot be withdrawn (DESIGN §2)",
    "TableDefined": "a table definition stays in the log for the rolls read with it",
    "SecretRevealed": "a revealed secret cannot be hidden again",
    "UndoRequested": "an undo request is answered with approve or reject",
    "UndoRejected": "a rejected undo request can be filed again instead",
    "DisputeFiled": "a dispute is settled by resolving it",
    "DisputeResolved": "a resolved dispute stays resolved; undo its revert instead",
    "DefinitionAmendmentRequested": "an amendment is answered with approve or reject",
    "DefinitionAmended": "an approved amendment stays; a new amendment changes it back",
    "DefinitionAmendmentRejected": "a rejected amendment can be asked for again instead",
}
MAX_SEQS = 100

#: How the aggregate remembers a revertible event: ``{"type", "actor", "index"
#: (roll index or None), "state" (whether it changed state)}``; an undo also has
#: ``"reverts"``, ``"restores"`` and ``"at_once_by"`` (the role that applied it
#: alone, or None when it was approved or came from a dispute).
Book = dict[str, dict[str, Any]]


def entry(record: dict[str, Any], *, state: bool) -> dict[str, Any]:
    """The book entry of a revertible state event or roll."""
    p = record["payload"]
    out = {
        "type": record["type"],
        "actor": record["actor"],
        "index": p["roll"]["index"] if "roll" in p else None,
        "state": state,
    }
    if record["type"] in AGREED_JOINTLY or (
        record["type"] in APPROVED and p.get("proposal") is not None
    ):
        out["agreed"] = True
    return out


@dataclass(frozen=True)
class Effect:
    reverts: list[int]
    restores: list[int]
    #: Roll indices of the roll-bearing events this undo reverts.
    rolls: list[int]
    #: True if a state event or a state-changing undo flips: the state is rebuilt.
    state: bool
    #: Per role, the indices of its rolls this undo reverts: that role's next
    #: roll records that it followed the undo (``after_undo``).
    rerolls: dict[str, list[int]] = field(default_factory=dict)


def targets(
    book: Book,
    reverted: dict[str, int],
    type_of: Callable[[int], str],
    version: int,
    *,
    seqs: list[int] | None,
    to_seq: int | None,
) -> list[int]:
    """The seqs an undo request names: ``seqs`` as given (checked), or every
    event in force after ``to_seq``. ``type_of(seq)`` is the type of event seq."""
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
        kind = type_of(seq)
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
    """What reverting ``named`` flips.

    With ``to_seq``, every event from ``to_seq + 1`` up to (not including)
    ``ceiling``, where the log ended when the undo was asked for, is reverted,
    and every event before it gets back the status it had at ``to_seq``: the
    campaign is rewound to that version. Otherwise the named rolls are reverted,
    a named undo's rolls get back their status from before it, and if a state
    event (or a state-changing undo) is named, the state is rewound to just
    before the earliest one, which needs every later one named too.
    """
    want: dict[str, bool] = {}  # seq -> reverted after this undo
    if to_seq is not None:
        _require_suffix(book, reverted, named, to_seq + 1)
        then = _reverted_before(book, to_seq + 1)
        limit = ceiling if ceiling is not None else max(int(k) for k in book) + 1
        for key in book:
            if int(key) < limit:
                want[key] = int(key) > to_seq or key in then
    else:
        state_named = [s for s in named if book[str(s)]["state"]]
        if state_named:
            first = state_named[0]
            _require_suffix(book, reverted, named, first)
            # Rewind: every state event, and every undo that changed state,
            # gets back its status from just before the first one named.
            then = _reverted_before(book, first)
            for key, info in book.items():
                if info["state"]:
                    want[key] = int(key) >= first or key in then
        for seq in named:
            info = book[str(seq)]
            if info["type"] == UNDO:
                # What it flipped besides state gets back its status from before it.
                for r in info["reverts"]:
                    if not book[str(r)]["state"]:
                        want[str(r)] = False
                for r in info["restores"]:
                    if not book[str(r)]["state"]:
                        want[str(r)] = True
        for seq in named:
            want[str(seq)] = True
    reverts = sorted(
        int(k)
        for k, on in want.items()
        # An event already reverted by an undo that is itself reverted now
        # stays reverted, by this undo (the label moves here).
        if on and (k not in reverted or want.get(str(reverted[k])) is True)
    )
    restores = sorted(int(k) for k, on in want.items() if not on and k in reverted)
    flipped = [*reverts, *restores]
    rerolls: dict[str, list[int]] = {}
    for s in reverts:
        info = book[str(s)]
        if info["index"] is not None and str(s) not in reverted:
            rerolls.setdefault(info["actor"], []).append(info["index"])
    return Effect(
        reverts=reverts,
        restores=restores,
        rolls=sorted(
            book[str(s)]["index"]
            for s in reverts
            if book[str(s)]["index"] is not None and str(s) not in reverted
        ),
        state=any(book[str(s)]["state"] for s in flipped),
        rerolls={role: sorted(indices) for role, indices in rerolls.items()},
    )


def _require_suffix(book: Book, reverted: dict[str, int], named: list[int], first: int) -> None:
    """Every state event and state-changing undo in force from ``first`` on must be named."""
    missing = [s for s in later_state(book, reverted, first - 1) if s not in named]
    if missing:
        listed = ", ".join(str(s) for s in missing)
        raise RuleViolation(
            f"event {first} changed the campaign's state and events {listed} were "
            f"built on it: name them too (or undo with to_seq {first - 1})"
            if first in named
            else f"events {listed} changed the campaign's state after seq {first - 1} "
            "and are not named in this undo; answer with a new request"
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
    the opponent saw depends on it: no roll, no reveal, no agreement it put in
    force (DESIGN §13), no event after it."""
    if len(named) != 1 or named[0] != last_event:
        return False
    info = book[str(named[0])]
    if info["actor"] != actor or info["index"] is not None or info["type"] in REVEALING:
        return False
    if info.get("agreed"):
        return False
    if info["type"] == UNDO:
        # Only an undo the side applied alone, touching no roll.
        touched = [*info["reverts"], *info["restores"]]
        if info["at_once_by"] != actor or any(book[str(r)]["index"] is not None for r in touched):
            return False
    return True
