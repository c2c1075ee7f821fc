"""The read models: a side's CG Roster and RG Purchase Record, the campaign's
state and the dice statistics."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from cgledger.api.models.common import CampaignView


# As ``common._Open``, declared here too so that linters see a pydantic model.
class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class PaperColumn(_Open):
    """A column of a paper form (DESIGN §12): the field that fills it
    (``key``), its heading, the rule that defines it and what it holds;
    ``kind`` says how the field is written (``text``, ``rg_list``,
    ``pieces``, ``fortifications``, ``list``); ``paper`` is false for a
    column the ledger adds to the paper's."""

    key: str
    label: str
    rule: str | None
    text: str
    kind: str
    group: str | None = None
    paper: bool


class PaperForm(_Open):
    """The paper form the answer fills, as a player files it
    (``cgledger.projections.paper``)."""

    title: str
    rule: str | None
    columns: list[PaperColumn]


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
    #: The paper CG Roster's columns (8.6162, 8.619, 8.621, 8.622, 8.6032).
    paper: PaperForm | None = None


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
    #: The paper RG Purchase Record's columns (8.6198, 9.6178), with the rules
    #: of the Fortifications set up (``fortifications``: ``setup``, ``on_map``).
    paper: PaperForm | None = None


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
