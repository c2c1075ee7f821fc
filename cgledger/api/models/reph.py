"""The RePh sequence, CG-Scenario End and the Initiative (DESIGN §8)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from cgledger.api.models.common import Checkpoint, EventItem, ProposalRef


class RePhStepStatus(BaseModel):
    rule: str
    title: str
    markers: list[str]
    joint: bool
    action: str | None
    #: Each side's status: ``done``, ``current``, ``pending`` or ``n/a``.
    status: dict[str, str]


class ScenarioRef(BaseModel):
    #: ``dual-attack``, ``<side>-assault`` or ``idle``.
    type: str
    setup_first: str | None


class ScenarioEndProposal(BaseModel):
    """CG-Scenario End sent by one side, waiting for the other (DESIGN §8)."""

    by: str
    #: The seq of its ``ScenarioEndProposed`` event.
    seq: int
    #: The body as sent: the other side agrees by sending the same one.
    body: dict[str, Any]


class RePhView(BaseModel):
    cg_date: str
    #: Whether this is the Initial Scenario's CG Date (only '†' steps apply).
    initial: bool
    #: Whether the sequence waits for New CG Date (8.6121, 9.6121): after
    #: CG-Scenario End or an Idle date; ``POST /cg-dates`` begins it.
    new_date_due: bool
    scenario: ScenarioRef | None
    #: Each side's current step (``scenario``: it completed them all).
    current: dict[str, str]
    steps: list[RePhStepStatus]
    version: int
    #: CG-Scenario End sent by one side and not yet by the other (DESIGN §13).
    scenario_end_proposal: ScenarioEndProposal | None = None
    #: The sides ready for the New CG Date (8.6121), each with the date it named.
    new_date_ready: dict[str, str] = {}
    #: The seq this request appended.
    seq: int | None = None
    checkpoint: Checkpoint | None = None


class InitiativeView(BaseModel):
    """A CG Date's Initiative (8.623, 9.6213) as the caller may see it."""

    cg_date: str
    #: Whether each side has chosen its chit.
    chosen: dict[str, bool]
    #: The seq of each side's chit (the second one's is the determination).
    seqs: dict[str, int | None]
    #: Each chit: ``null`` to the opponent until both are chosen.
    chits: dict[str, str | None]
    #: The seq of the event that revealed both chits, once both are chosen.
    determined: int | None
    #: The scenario type generated (``dual-attack``, ``<side>-assault``, ``idle``).
    scenario: str | None
    #: For a Dual Attack, the side that sets up first (8.6233a, 9.62133a).
    setup_first: str | None
    #: The seq this request appended.
    seq: int | None = None
    checkpoint: Checkpoint | None = None


class ScenarioEndResult(BaseModel):
    """A scenario end as sent: ``proposed`` (waiting for the other side's same
    body) or ``recorded`` (``ScenarioEnded``)."""

    seq: int
    status: str
    event: EventItem
    checkpoint: Checkpoint | None = None
    #: The proposal it made (``pending``) or applied (``applied``), DESIGN §13;
    #: ``null`` for the referee's own call.
    proposal: ProposalRef | None = None


class InitiativePage(BaseModel):
    items: list[InitiativeView]
    version: int
