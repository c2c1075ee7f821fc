"""The Map Groups of a CG definition (DESIGN §9): each hex with its
Strategic Location, LVP, levels, Block and building, the Eligible Entry Areas
of each side, its HQs and its Control before the first event."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Final, Generic, Self

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer, model_validator

from cgledger.domain.definition_types import (
    MAX_AREAS,
    MAX_HEXES,
    MAX_LVP,
    Coord,
    HexId,
    Id,
    Level,
    Problem,
    SideT,
    StrictModel,
    Title,
    raise_problems,
)

#: The fields of a hex that a stored definition leaves out at these values.
_HEX_DEFAULTS: Final[dict[str, Any]] = {
    "strategic": False,
    "lvp": 0,
    "levels": [0],
    "enterable": True,
    "block": None,
    "building": None,
    "ground_level": None,
    "terrain": None,
}


class Hex(StrictModel):
    """A hex of a Map Group (DESIGN §9). ``q``, ``r``: axial coordinates.
    ``lvp``: its LVP value (8.6033). ``levels``: the building levels it
    has (8.6057 multi-level detail). ``block``: the Block it lies in
    (9.605-9.6055). ``building``: the building it is part of (8.6057: the
    contiguous upper-level Locations of one building are in adjacent hexes
    of the same ``building``). A hex not listed is off the map."""

    hex: HexId
    q: Coord
    r: Coord
    strategic: bool = False
    lvp: Annotated[int, Field(ge=0, le=MAX_LVP)] = 0
    levels: Annotated[list[Level], Field(min_length=1, max_length=20)] = Field(
        default_factory=lambda: [0]
    )
    enterable: bool = True
    block: Id | None = None
    building: Id | None = None
    #: What a map import read of the hex (DESIGN §15: a VASL board's LOSData):
    #: its ground level and its terrain's name. No rule reads them; they show
    #: the players what the map holds while they mark it.
    ground_level: Annotated[int, Field(ge=-10, le=100)] | None = None
    terrain: Annotated[str, Field(min_length=1, max_length=60)] | None = None

    @model_serializer(mode="wrap")
    def _lean(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A hex is stored without the fields at their defaults (DESIGN §9:
        ``strategic`` false, ``lvp`` 0, ``levels`` [0], ``enterable`` true,
        ``block`` null): a map group of thousands of hexes stays small in the
        creation event, and reads back to the same model."""
        data: dict[str, Any] = handler(self)
        for name, default in _HEX_DEFAULTS.items():
            if name in data and data[name] == default:
                del data[name]
        return data

    @model_validator(mode="after")
    def _distinct_levels(self) -> Self:
        seen: set[int] = set()
        problems: list[Problem] = []
        for i, level in enumerate(self.levels):
            if level in seen:
                problems.append(
                    (("levels", i), "duplicate_level", f"level {level} is listed twice", level)
                )
            seen.add(level)
        raise_problems(type(self).__name__, problems)
        return self


class EntryArea(StrictModel, Generic[SideT]):
    """An Eligible Entry Area of one side (8.6052, SSR CG6; 9.6053)."""

    id: Id
    side: SideT
    hexes: Annotated[Sequence[HexId], Field(min_length=1, max_length=MAX_HEXES)]

    @model_validator(mode="after")
    def _distinct_hexes(self) -> Self:
        seen: set[str] = set()
        problems: list[Problem] = []
        for m, hx in enumerate(self.hexes):
            if hx in seen:
                problems.append((("hexes", m), "duplicate_hex", f"hex {hx!r} is listed twice", hx))
            seen.add(hx)
        raise_problems(type(self).__name__, problems)
        return self


class MapGroup(StrictModel, Generic[SideT]):
    """A Map Group (8.605 "on the Map Group", 8.6033 LVP totals;
    9.605): its hexes, Eligible Entry Areas, HQ (8.6052: where a side's
    Isolation path must end instead of an Entry Area, e.g. La Gleize) and
    Control before the first event."""

    id: Id
    title: Title = ""
    hexes: Annotated[Sequence[Hex], Field(min_length=1, max_length=MAX_HEXES)]
    entry_areas: Annotated[Sequence[EntryArea[SideT]], Field(max_length=MAX_AREAS)] = Field(
        default_factory=list
    )
    hq: Mapping[SideT, HexId] = Field(default_factory=dict)
    initial_control: Annotated[Mapping[HexId, SideT], Field(max_length=MAX_HEXES)] = Field(
        default_factory=dict
    )

    def hex_ids(self) -> frozenset[str]:
        return frozenset(h.hex for h in self.hexes)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        problems: list[Problem] = []
        first: dict[str, int] = {}
        at: dict[tuple[int, int], str] = {}
        for j, h in enumerate(self.hexes):
            if h.hex in first:
                problems.append(
                    (
                        ("hexes", j, "hex"),
                        "duplicate_hex",
                        f"hex {h.hex!r} is listed twice (also hexes.{first[h.hex]})",
                        h.hex,
                    )
                )
                continue
            first[h.hex] = j
            other = at.setdefault((h.q, h.r), h.hex)
            if other != h.hex:
                problems.append(
                    (
                        ("hexes", j, "q"),
                        "duplicate_coordinates",
                        f"hex {h.hex!r} has the coordinates of {other!r} (q={h.q}, r={h.r})",
                        h.q,
                    )
                )
        where = f"a hex of map group {self.id!r}"
        areas: set[str] = set()
        for k, area in enumerate(self.entry_areas):
            if area.id in areas:
                problems.append(
                    (
                        ("entry_areas", k, "id"),
                        "duplicate_id",
                        f"Entry Area {area.id!r} is listed twice",
                        area.id,
                    )
                )
            areas.add(area.id)
            for m, hx in enumerate(area.hexes):
                if hx not in first:
                    problems.append(
                        (
                            ("entry_areas", k, "hexes", m),
                            "unknown_hex",
                            f"{hx!r} is not {where}",
                            hx,
                        )
                    )
        for side, hx in self.hq.items():
            if hx not in first:
                problems.append((("hq", side), "unknown_hex", f"{hx!r} is not {where}", hx))
        for hx in self.initial_control:
            if hx not in first:
                problems.append(
                    (("initial_control", hx), "unknown_hex", f"{hx!r} is not {where}", hx)
                )
        raise_problems(type(self).__name__, problems)
        return self
