"""What the authoring tools answer (DESIGN §15): chart lines read from CSV,
a map group made from a grid, and a draft definition checked."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from cgledger.api.models.territory import SetupArea, SetupHex, SetupSide


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ChartLines(_Open):
    """A side's RG chart read from CSV: the ``rg_chart`` lines of a CG
    definition (§7, §10), each without the fields at their defaults."""

    ruleset: str
    #: The side the lines were checked for; ``null``: each line alone.
    side: str | None
    lines: list[dict[str, Any]]


class GridHex(_Open):
    """A hex of the grid: its ASL id and axial coordinates (§9)."""

    hex: str
    q: int
    r: int


class MapGroupDraft(_Open):
    """A map group of §9 with every hex of the grid and nothing marked yet:
    the players add Strategic Locations, LVP, levels, buildings, Entry
    Areas, the HQ and initial Control."""

    id: str
    title: str
    hexes: list[GridHex]
    entry_areas: list[dict[str, Any]]
    hq: dict[str, str]
    initial_control: dict[str, str]


class VaslBoard(_Open):
    """What was read of a VASL board archive's ``BoardMetadata.xml`` and
    ``LOSData`` (docs/authoring.md)."""

    name: str | None
    version: str | None
    #: In hexes.
    width: int
    height: int
    #: ``normal`` (geomorphic), ``equal_rows`` or ``alternate`` (altHexGrain).
    layout: str
    #: A hex's width and height, and the centre of hex A1, in pixels.
    hex_size: list[float]
    a1_center: list[float]
    #: ``{"grid": [width, height]}`` of the LOSData read (in pixels); ``null``: none read.
    los_data: dict[str, Any] | None
    #: How many terrain types were given (VASL's SharedBoardMetadata.xml); 0: none.
    terrain_types: int


class VaslReading(_Open):
    """What the archive says of one hex: from LOSData, the ``ground_level``
    (the elevation at its centre), ``terrain_code`` and, when terrain types
    were given, ``terrain`` (its name), and ``stairway``; from
    BoardMetadata.xml, the ``building_type`` its author set."""

    hex: str
    ground_level: int | None = None
    terrain_code: int | None = None
    terrain: str | None = None
    stairway: bool | None = None
    building_type: str | None = None


class VaslHex(GridHex):
    """A hex of a VASL board, with what its archive gives of it (§9, §15)."""

    levels: list[int] | None = None
    enterable: bool | None = None
    ground_level: int | None = None
    terrain: str | None = None


class VaslBoardImport(_Open):
    """A map group of §9 from a VASL board archive (DESIGN §15: every hex,
    with its ``levels``, ``enterable: false``, ``ground_level`` and
    ``terrain`` where the archive gives them) and, beside its fields, the
    import's report: the board read, each hex's readings, and notes (what
    was not read, what to check, what is left to the players). A CG
    definition's ``map_groups`` takes it without ``board``, ``readings``
    and ``notes``."""

    id: str
    title: str
    hexes: list[VaslHex]
    entry_areas: list[dict[str, Any]]
    hq: dict[str, str]
    initial_control: dict[str, str]
    board: VaslBoard
    readings: list[VaslReading]
    notes: list[str]


class DraftSetupAreas(_Open):
    """The Setup Areas a draft definition's initial Control gives on one map
    group (§9), as ``GET /setup-areas`` answers at a campaign's first event."""

    map_group: str
    title: str
    #: The CG Date whose Eligible Entry Areas count (SSR CG6c); "": all of them.
    cg_date: str
    #: The RePh step that determines them (8.605, 9.605).
    step: str
    hexes: list[SetupHex]
    areas: list[SetupArea]
    sides: dict[str, SetupSide]
    blocks: dict[str, str | None] | None = None


class DefinitionCheck(_Open):
    """A draft CG definition as a campaign would hold it (§7, §15): its hash,
    what it holds, and the Setup Areas of its initial Control on the map group
    asked for (``null``: none asked, or a ruleset without Setup Areas)."""

    valid: bool
    ruleset: str
    #: The ``definition_hash`` a campaign created with it records.
    hash: str
    sample: bool
    #: Chart lines by side.
    rg_chart: dict[str, int]
    #: Hexes by map group.
    map_groups: dict[str, int]
    setup_areas: DraftSetupAreas | None
    #: The definition as the ledger normalises it: what a campaign created
    #: with it records (``GET /v1/campaigns/{id}/definition``).
    definition: dict[str, Any]
