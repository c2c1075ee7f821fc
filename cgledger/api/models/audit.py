"""Undo requests and disputes (DESIGN §5), and the proposals of every kind (DESIGN §13)."""

from __future__ import annotations

from typing import Any

from cgledger.api.models.common import Checkpoint, Page, _Open
from cgledger.api.models.rulesets import Answer


class Planned(_Open):
    reverts: list[int]
    restores: list[int]


class UndoDone(_Open):
    """What an applied undo did: the events it reverted and restored, and the rolls."""

    seq: int
    approved_by: str
    at_once: bool
    reverts: list[int]
    restores: list[int]
    rolls: list[Any]
    reverted_by: int | None


class UndoRequestView(_Open):
    id: int
    status: str
    by: str
    seqs: list[int] | None
    to_seq: int | None
    reason: str
    planned: Planned | None
    undo: UndoDone | None
    answer: Answer | None
    version: int
    checkpoint: Checkpoint | None = None


class UndoRequestPage(Page):
    items: list[UndoRequestView]


class ProposalView(_Open):
    """A proposal of the agreement protocol (DESIGN §13), of any kind."""

    #: The seq of the event that made it (its id in its kind's own routes).
    seq: int
    #: ``undo-request``, ``definition-amendment``, ``control``, ``massacre``,
    #: ``scenario-end`` or ``cg-date``.
    kind: str
    #: The event that made it (``UndoRequested``, ``ControlProposed``,
    #: ``MassacreProposed``, ...).
    type: str
    #: ``pending``, ``applied``, ``rejected`` or ``withdrawn``.
    status: str
    by: str
    recorded_at: str
    #: What it proposes: the fields of its event.
    proposed: dict[str, Any]
    #: The approval, rejection or withdrawal that settled it.
    answer: Answer | None
    #: The undo that reverted the proposal itself, if any.
    reverted_by: int | None
    version: int
    checkpoint: Checkpoint | None = None


class MassacreView(_Open):
    """A Massacre (A20.4) recorded for the rest of the CG (the ruleset's SSR CG4)."""

    #: The event this request appended (a proposal's id in ``/proposals``).
    seq: int
    #: ``pending`` (a side's proposal: nothing shown until approved) or ``applied``.
    status: str
    #: Who recorded it: the proposing side, or the referee.
    by: str
    #: The side whose units massacred.
    side: str
    cg_date: str
    rule: str
    note: str | None
    #: Every Massacre in force, by side, as the campaign's ``conditions`` show it.
    massacre: dict[str, Any]
    version: int
    checkpoint: Checkpoint | None = None


class ProposalPage(Page):
    items: list[ProposalView]


class Resolution(_Open):
    seq: int
    by: str
    decision: str
    note: str
    undo: Any = None


class RevertWould(_Open):
    """What resolving the dispute with ``revert`` would do, or why it is refused."""

    reverts: list[int] | None = None
    restores: list[int] | None = None
    #: Why a revert would be refused (the rule or the undo it breaks).
    refused: str | None = None


class DisputeView(_Open):
    id: int
    seq: int
    by: str
    claim: str
    status: str
    resolution: Resolution | None
    version: int
    revert_would: RevertWould | None = None
    #: The roll's proof, the state before and after, the table re-read.
    evidence: dict[str, Any] | None = None
    checkpoint: Checkpoint | None = None


class DisputePage(Page):
    items: list[DisputeView]
