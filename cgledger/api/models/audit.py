"""Undo requests and disputes (DESIGN §5)."""

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
