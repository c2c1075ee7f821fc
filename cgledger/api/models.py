"""Response models: what the core routes answer, typed for generated clients.

Each model names the fields a client can rely on. The models allow extra
fields (``extra="allow"``) so that a view which grows a field never loses it
to its model; routes answer with ``response_model_exclude_unset``, so a field
the view does not set is not invented either. Payloads that differ by event
type stay JSON objects.
"""

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
    table: TableRef
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


class CGDateView(CampaignView):
    """The campaign after a side said it is ready for the next CG Date."""

    seq: int
    checkpoint: Checkpoint | None = None


# ------------------------------------------------------------------ rulesets


class CampaignInfo(_Open):
    name: str
    rule: str
    cg_dates: list[str]
    initial_date: str | None
    extendable: bool
    notes: str


class ActionInfo(BaseModel):
    path: str
    rule: str
    summary: str


class RePhStepInfo(_Open):
    rule: str
    title: str
    markers: list[str]
    sides: list[str]
    joint: bool
    action: str | None
    from_date: str | None
    reading: str | None


class InitiativeRow(BaseModel):
    #: Each side's chit: "attack" or "idle".
    chits: dict[str, str]
    scenario: str


class Initiative(BaseModel):
    rule: str
    matrix: list[InitiativeRow]


class RulesetInfo(_Open):
    id: str
    title: str
    sides: list[str]
    campaigns: list[CampaignInfo]
    roster: bool
    actions: list[ActionInfo]
    reph_steps: list[RePhStepInfo]
    scenario_types: list[str]
    initiative: Initiative | None
    tables: int
    tables_url: str
    definition_schema_url: str
    sample_definition_url: str
    notes: str


class DrmInfo(_Open):
    """A named DRM of a table: ``fixed`` (``value``), ``per`` a count the
    roller gives, ``valued`` (x given by the roller) or ``input``."""

    id: str
    text: str
    kind: str


class InputEdge(BaseModel):
    """A band edge read from a table input, plus an offset (e.g. CG23's circled number)."""

    input: str
    offset: int


class Band(_Open):
    range: str
    lo: int | InputEdge | None
    hi: int | InputEdge | None
    result: str


class TableInfo(_Open):
    id: str
    title: str
    rule: str
    dice: str
    secret: bool
    read_on: str
    drms: list[DrmInfo]
    bands: list[Band]
    hash: str
    #: The sides its rule names; left out: every side (DESIGN §8).
    sides: list[str] | None = None
    #: The first CG Date it is rolled on; left out: every date.
    from_date: str | None = None
    #: The only CG Dates it is rolled on; left out: every date.
    on_dates: list[str] | None = None
    #: The RePh step it is rolled in, or "scenario" while the CG scenario is
    #: in play; left out: any time (DESIGN §8).
    step: str | None = None


class Definition(_Open):
    """A CG definition (DESIGN §7). The complete schema of each ruleset's is at
    ``GET /v1/rulesets/{r}/definition-schema``."""

    sample: bool = False
    title: str = ""
    notes: str = ""
    attack_chits: dict[str, int] = {}
    rg_chart: dict[str, list[dict[str, Any]]] = {}
    map_groups: list[dict[str, Any]] = []


class DefinitionView(BaseModel):
    definition: Definition | None
    #: sha256 over the canonical form (docs/dice-protocol.md).
    hash: str | None
    #: The seq of the event that put this definition in force.
    seq: int | None
    version: int


class Answer(_Open):
    seq: int
    by: str
    note: str | None


class AmendmentView(_Open):
    id: int
    status: str
    by: str
    patch: dict[str, Any]
    reason: str
    #: ``null`` for a campaign created before CG definitions existed.
    base_hash: str | None
    result_hash: str
    answer: Answer | None
    version: int
    checkpoint: Checkpoint | None = None


class AmendmentPage(Page):
    items: list[AmendmentView]


# ------------------------------------------------------------------ read models


class RosterView(_Open):
    """A side's CG Roster as its ruleset lays it out (``columns``), e.g. one
    line per CG Date in ``lines``; a value the caller may not see yet is
    ``null`` and named in the line's ``hidden``."""

    campaign: str
    side: str
    cg_date: str | None
    version: int
    columns: list[str]
    lines: list[dict[str, Any]] | None = None
    #: Results that last (DESIGN §8), as on the campaign.
    conditions: dict[str, Any] = {}


class RGRecordRoll(_Open):
    """A roll that filled a column of the row (8.6201-8.6206, 9.6181-9.6184)."""

    seq: int
    need: str
    final: int
    result: str
    subject: str | None = None


class RGPiece(_Open):
    name: str
    received: bool


class RGRecordRow(_Open):
    """One line of the RG Purchase Record (8.6198, 9.6178), or, for a purchase
    the caller may not see, one stub per event (``redacted``: true). A value
    the caller may not see yet is ``null`` and named in ``hidden``."""

    seq: int
    cg_date: str
    redacted: bool | None = None
    hidden: list[str] | None = None
    item: int | None = None
    rg: str | None = None
    name: str | None = None
    cpp: int | None = None
    map_group: str | None = None
    #: 8.6194 CPP-cost modifiers applied
    modifiers: list[str] | None = None
    #: given in the Initial-Scenario OB (8.6196: never counted against the maximum)
    ob: bool | None = None
    #: #P: the RG of this type bought so far in the CG, this one included
    purchased: int | None = None
    #: #R: how many more of this type may be bought (``null``: no maximum)
    remaining: int | None = None
    #: Str.: "F" (Full) or "D" (Depleted), 8.6201/9.6181
    strength: str | None = None
    units: int | None = None
    unit_type: str | None = None
    quality: str | None = None
    models: str | None = None
    sw: list[RGPiece] | None = None
    equipment: list[RGPiece] | None = None
    leader: str | None = None
    #: 8.6198: the Objective Hex recorded at purchase ("I" and "HW"-type RG)
    objective_hex: str | None = None
    #: a rule the row's results call on (8.6205 EXC: ≥ two Equipment pieces)
    note: str | None = None
    fpp: int | None = None
    rolls: list[RGRecordRoll] | None = None
    #: the rolls it still needs, in order (8.620: the step waits for them)
    needs: list[str] | None = None


class RGRecordView(_Open):
    """A side's RG Purchase Record as the caller may see it (DESIGN §10)."""

    campaign: str
    side: str
    cg_date: str | None
    version: int
    rule: str
    rows: list[RGRecordRow]
    #: Fortification setup Locations (8.6242): secret ones as stubs, with what
    #: 8.6073 placed on-map
    fortifications: dict[str, Any]


class Reverted(_Open):
    seq: int
    by_undo: int


class StateView(_Open):
    at: int
    campaign: CampaignView
    #: Each side's CG Roster; ``null`` where the ruleset keeps none.
    rosters: dict[str, RosterView] | None
    reverted: list[Reverted]
    #: The ids of the undo requests still pending.
    pending_undo_requests: list[int]
    #: The ids of the disputes still open.
    open_disputes: list[int]


class DiceStats(_Open):
    """Counts, faces, 2d6 totals, means and chi-square p-values."""

    filters: dict[str, Any]
    rolls: int
    hidden: int
    reverted: int
    dr: dict[str, Any]
    DR: dict[str, Any]
    dice: dict[str, Any]
    by_side: dict[str, Any]
    version: int


# ------------------------------------------------------------------ RePh and initiative


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


class InitiativePage(BaseModel):
    items: list[InitiativeView]
    version: int


# ------------------------------------------------------------------ undo and disputes


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


class ControlLocation(BaseModel):
    hex: str
    level: int
    #: The side that Controls it; ``null``: uncontrolled.
    side: str | None
    #: The event that recorded it; ``null``: the definition's ``initial_control``.
    seq: int | None
    #: What makes it Strategic during the CG (MARKING THE MAP: E, F, G, V).
    marker: str | None = None
    #: Blazing (8.6057: a Blazing ground Location ends no upper-level path).
    blazing: bool | None = None


class BlockControl(BaseModel):
    """A Block's Control as recorded (9.6051), or switched by Control of all
    its Strategic Locations (9.605)."""

    block: str
    side: str | None
    seq: int
    rule: str


class MapGroupControl(BaseModel):
    map_group: str
    locations: list[ControlLocation]
    blocks: list[BlockControl] = []


class ControlView(BaseModel):
    """Control of each map group's Locations (DESIGN §9): those controlled, or
    whose Control was recorded; a hex not listed is uncontrolled."""

    cg_date: str
    map_groups: list[MapGroupControl]
    version: int
    #: The seq this request appended.
    seq: int | None = None
    checkpoint: Checkpoint | None = None


class LvpRow(BaseModel):
    """One CG-Scenario End or Idle date (8.6032-8.6033, 8.6234)."""

    cg_date: str
    scenario: str | None
    start_lvp: dict[str, int]
    current_lvp: dict[str, int]
    cg_lvp: dict[str, int]
    cvp: dict[str, int] | None
    #: The scenario's winner where the rules decide it; ``null`` otherwise.
    winner: str | None
    #: The rule that decided the winner, or why none is named.
    rule: str


class LvpView(BaseModel):
    map_group_totals: dict[str, int]
    rows: list[LvpRow]
    version: int


class UpperLocation(BaseModel):
    """A Controlled upper-level building Location (8.6057)."""

    level: int
    controlled_by: str
    isolated: bool | None
    #: The Setup Area its path reaches; ``null``: Isolated.
    area: str | None


class SetupHex(BaseModel):
    hex: str
    #: A side id, ``nml`` (No Man's Land) or ``uncontrolled``.
    status: str
    area: str | None
    strategic: bool
    #: E, F, G or V: what made it Strategic during the CG.
    marker: str | None
    #: The side that Controls its ground Location.
    controlled_by: str | None
    isolated: bool | None
    #: Joined a Setup Area by being enclosed (8.6054).
    surrounded: bool
    enterable: bool
    block: str | None = None
    levels: list[UpperLocation]


class SetupArea(BaseModel):
    id: str
    side: str
    hexes: list[str]
    #: ``null``: no Eligible Entry Area (nor HQ) on the map group to decide it.
    isolated: bool | None
    blocks: list[str] | None = None


class SetupSide(BaseModel):
    areas: int
    hexes: int
    non_isolated_strategic: int | None = None
    blocks: list[str] | None = None
    #: Where the side's Isolation path ends, by rule.
    isolation: str
    #: A rule that applies to the side (8.605's Holding Box), or ``null``.
    note: str | None


class SetupAreasView(BaseModel):
    """The Setup Areas of a map group (DESIGN §9)."""

    map_group: str
    title: str
    cg_date: str
    #: The RePh step that determines them (8.605, 9.605).
    step: str
    #: Determined: they no longer follow Control until the next scenario.
    frozen: bool
    #: The event at which they were determined.
    frozen_at: int | None
    hexes: list[SetupHex]
    areas: list[SetupArea]
    sides: dict[str, SetupSide]
    #: Each Block's Controlling side, where the map group has Blocks.
    blocks: dict[str, str | None] | None = None
    version: int
