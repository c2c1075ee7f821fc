"""The models most routes share: the campaign, a roll, an event, a page, the
checkpoint, and what the service routes answer."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class Health(BaseModel):
    status: str
    version: str
    database: str


class Index(BaseModel):
    name: str
    version: str
    health: str
    docs: str
    openapi: str
    rulesets: str


class ServerKey(_Open):
    algorithm: str
    public_key: str
    key_id: str


class Checkpoint(BaseModel):
    """A signed checkpoint (docs/dice-protocol.md §4)."""

    campaign: str
    seq: int
    head: str
    time: str
    algorithm: str
    key: str
    signature: str


class StepRef(BaseModel):
    id: str
    title: str


class CampaignView(_Open):
    id: str
    ruleset: str
    campaign: str
    title: str
    sides: list[str]
    cg_date: str | None
    cg_dates: list[str]
    extendable: bool
    reph_step: dict[str, StepRef | None]
    ready_for_next_cg_date: list[str]
    #: Results that last (DESIGN §8), by name, e.g. ``ammunition_shortage`` (8.618).
    conditions: dict[str, Any] = {}
    #: ``null`` for a campaign created before CG definitions existed.
    definition_hash: str | None
    rolls: int
    version: int
    head: str
    #: The caller's role (``GET /v1/campaigns/{id}``).
    you: str | None = None


class CampaignCreated(CampaignView):
    #: One token per side and the referee; ``null`` on a retry (shown once).
    tokens: dict[str, str] | None
    tokens_note: str | None = None
    checkpoint: Checkpoint


class RollView(_Open):
    """A roll as the caller may see it (DESIGN §3). The roll index of a sealed
    record (DESIGN §2a) also has ``protocol`` (``"cgledger-dice/2"``) and
    ``rolls`` (its rolls in order, each with its dice, to whoever may see
    them, else ``null``); to whoever may not, its ``purpose`` is
    ``"sealed (cgledger-dice/2)"``, its ``count`` 0 and its ``client_nonce`` empty."""

    index: int
    dice: list[int] | None
    commitment: str
    seed: str | None
    secret: bool
    side: str
    purpose: str
    client_nonce: str
    seq: int
    count: int
    nonce_source: str
    event_type: str
    rule: str | None
    revealed_seq: int | None
    reverted_by: int | None
    after_undo: Any = None
    outcome: dict[str, Any] | None
    #: The campaign's signed checkpoint, on answers that appended.
    checkpoint: Checkpoint | None = None


class EventItem(_Open):
    """One event as the caller may see it (docs/dice-protocol.md §3)."""

    seq: int
    type: str
    recorded_at: str
    actor: str
    payload: dict[str, Any]
    secret: dict[str, Any] | None
    secret_digest: str
    prev_hash: str
    hash: str
    reverted_by: int | None = None


class Page(BaseModel):
    """The fields every paged list has."""

    version: int
    #: Pass as ``after`` for the next page; ``null`` at the end.
    next_after: int | None


class EventPage(Page):
    items: list[EventItem]


class RevealedEvent(EventItem):
    """The event whose secret part was revealed, and the campaign's checkpoint."""

    checkpoint: Checkpoint | None = None


class TableRef(BaseModel):
    id: str
    hash: str


class AppliedDrm(_Open):
    """One DRM as applied: its id, the rule's words and the value it added."""

    id: str
    text: str | None = None
    value: int


class TableRollView(_Open):
    """A table roll: the roll, the Original roll, every DRM applied, the Final
    result and the outcome (``null`` to a viewer who may not see it yet)."""

    seq: int
    table: TableRef | None
    side: str
    cg_date: str | None
    secret: bool
    revealed_seq: int | None
    reverted_by: int | None
    roll: RollView
    visible: bool
    inputs: dict[str, Any] | None
    original: int | None
    drm: list[AppliedDrm] | None
    final: int | None
    outcome: dict[str, Any] | None
    checkpoint: Checkpoint | None = None


class ActionResult(_Open):
    """What a ruleset command appended, as the caller sees it, with its roll."""

    seq: int
    event: EventItem
    roll: RollView | None
    checkpoint: Checkpoint | None = None


class ProposalRef(BaseModel):
    """The proposal (DESIGN §13) a joint act made or applied: its seq in
    ``/proposals`` and its status (``pending`` or ``applied``)."""

    seq: int
    status: str


class CGDateView(CampaignView):
    """The campaign after a side said it is ready for the next CG Date."""

    seq: int
    checkpoint: Checkpoint | None = None
    #: The side's readiness as a proposal (pending until the opponent is ready
    #: or approves it), or the one this call applied; ``null`` for the referee's
    #: call with no side ready.
    proposal: ProposalRef | None = None
