"""What the authoring tools answer (DESIGN §15): chart lines read from CSV
and a map group made from a grid."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


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
