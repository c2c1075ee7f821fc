"""Control, the LVP and the Setup Areas (DESIGN §9)."""

from __future__ import annotations

from pydantic import BaseModel

from cgledger.api.models.common import Checkpoint


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
    #: ``POST /control`` (DESIGN §13): ``pending`` (a side's proposal, the
    #: Control above unchanged until the opponent approves it) or ``applied``.
    status: str | None = None
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
