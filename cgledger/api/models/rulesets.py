"""What the rulesets' routes answer: each ruleset with its campaigns, RePh
steps and Initiative matrix, its die tables, and a campaign's CG definition
and its amendments (DESIGN §7)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from cgledger.api.models.common import Checkpoint, Page


# As ``common._Open``, declared here too so that linters see a pydantic model.
class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


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
    #: The RePh step in which the chits are chosen (8.623, 9.621).
    step: str | None = None


class FortTypeInfo(BaseModel):
    id: str
    name: str
    #: FPP per item, by the side that may buy it.
    fpp: dict[str, float]
    #: The table's footnote letters limiting where it is set up (8.621 F, i, S).
    flags: str


class FortTableInfo(BaseModel):
    """The Fortification Purchase Table (8.621, 9.619): the ``type`` ids that
    ``POST /fortification-purchases`` takes, with their FPP costs."""

    rule: str
    title: str
    types: list[FortTypeInfo]
    notes: list[str]


class PriceModifierInfo(BaseModel):
    """A change to an RG's CPP cost the purchaser may choose (8.6194a, 8.6194b):
    what ``POST /rg-purchases`` takes in an RG's ``modifiers``. Whether it
    applies to an RG (and its amount) is the ledger's, under the readings in
    force: one that does not apply is refused with a 422 naming ``rule``."""

    #: How an RG's ``modifiers`` names it.
    id: str
    rule: str
    title: str
    #: The sides that may choose it.
    sides: list[str]
    #: How much it adds to the chart's cost, by default, and how it rounds (FRD, FRU).
    percent: int
    rounding: str
    #: The RG ID prefixes it is for, by default (empty: every RG of the sides).
    rgs: list[str]
    #: What it does, in a sentence.
    text: str
    #: How the seed's text is read, where it is cut or unclear.
    reading: str | None
    #: The readings (GET /v1/rulesets/{r}/readings) that set its amount, and its RG.
    amount_reading: str | None
    rgs_reading: str | None


class PurchasesInfo(BaseModel):
    """The RG purchase rules by number (8.619, 9.617, 3.4) and the CPP-cost
    modifiers a purchaser may choose."""

    #: The purchase step (``POST /rg-purchases``).
    buy: str
    #: The CPP cost and its modifiers.
    price: str
    #: The CG Date maximum, and whether it counts per Map Group (8.6195).
    date_max: str
    per_map_group: bool
    #: The CG maximum.
    cg_max: str
    #: The RG Purchase Record (it keeps an RG's Objective Hex).
    record: str
    #: The step whose rolls determine each RG (``POST /rg-determinations``).
    determine: str
    modifiers: list[PriceModifierInfo]


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
    readings_url: str | None = None
    #: The RePh step of the New CG Date (8.612, 9.612, 4.0): ``POST /cg-dates``.
    new_date_step: str | None = None
    #: What CG-Scenario End records besides ``cvp`` (2.91: ``vp``, ``vp_required``).
    scenario_end_fields: list[str] = []
    fortification_table: FortTableInfo | None = None
    #: The RG purchase rules, where the ruleset buys RG.
    purchases: PurchasesInfo | None = None


class ReadingInfo(BaseModel):
    """A reading (DESIGN §14): where the seed text is cut or contradicts its
    example, the choices a playing group may agree in its CG definition's
    ``readings``."""

    #: How a definition's ``readings`` names it.
    id: str
    #: The rule it reads.
    rule: str
    #: The seed's words, quoted.
    text: str
    #: Each choice and what it means.
    choices: dict[str, str]
    #: The choice taken when the definition names none.
    default: str
    #: Why that default.
    why: str


class DrmInfo(_Open):
    """A named DRM of a table: ``fixed`` (``value``), ``per`` a count the
    roller gives, ``valued`` (x given by the roller) or ``input``."""

    id: str
    text: str
    kind: str
    #: Who decides it (issue 26): ``ledger`` (computed from the record; a side
    #: that states it is refused with 422) or ``roller`` (stated with the roll).
    decided_by: Literal["ledger", "roller"] | None = None
    #: How the ledger computes it, or why the roller states it.
    why: str | None = None
    #: The sides a side DRM belongs to ("-1 If German"); left out: every side.
    sides: list[str] | None = None


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
    #: DESIGN §14: the readings the players agree, by reading id (GET
    #: /v1/rulesets/{r}/readings); an id left out takes its default.
    readings: dict[str, str] = {}


class DefinitionSchema(_Open):
    """A JSON Schema document (draft 2020-12, as pydantic writes it): the schema
    of a ruleset's CG definition, whose objects are in ``$defs``. Any other
    JSON Schema keyword may be there too."""

    type: Literal["object"]
    title: str
    description: str = ""
    #: Each property of a CG definition, as a JSON Schema.
    properties: dict[str, dict[str, Any]]
    required: list[str] = []
    additionalProperties: bool | dict[str, Any] = True  # the JSON Schema keyword
    #: The schemas the properties refer to (``{"$ref": "#/$defs/…"}``), by name.
    defs: dict[str, dict[str, Any]] = Field(default={}, alias="$defs")


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
