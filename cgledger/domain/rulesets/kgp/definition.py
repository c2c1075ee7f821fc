"""The KGP CG definition (DESIGN §7): the common fields bound to the sides
``US`` and ``German``, plus what the KGP chart pages add (seed ``001_…``,
``002_…``):

* RG chart lines: the U.S. ``entry_code`` (8.6197: one or more colour-coded
  dots on each U.S. "I", "V" and "G" RG, matching the arrow of the Entry Areas
  the RG may enter by; SSR CG6a). ``per_date_max`` counts per CG Date *and Map
  Group* (8.6195).
* Entry Areas: the ``center`` arrow hex (SSR CG6: "a large arrow denotes the
  center hex of each nine-hex-wide Entry Area"), the CG Date printed on the
  arrow (``from_date``, SSR CG6c: an Entry Area is Eligible from that date),
  and a U.S. arrow's ``entry_codes`` colours (SSR CG6, 8.6197).
* Map Groups: ``lvp_total`` (8.6033 lists each Map Group's total LVP, e.g.
  Stoumont 52); when given it must equal the sum of the hexes' ``lvp``.
* ``hq``: the Location a side's Isolation path must reach instead of an Entry
  Area (8.6052: "LgN25 (Peiper's HQ)" on the "Lg" Map Group).
* ``san``: each side's SAN at the CG's start, as its OB gives it (8.51-8.53
  are not in the seeds); the ledger then keeps the SAN (8.6122).
* ``elr``: each side's printed ELR of the CG's Initial Scenario, its printed
  ELR for every scenario of the CG (SSR CG4; 8.51-8.53 are not in the seeds);
  the ledger shows the ELR in force for each CG scenario (``kgp.elr``).

The sample is SYNTHETIC (invented RG, map and values that only exercise every
field); the real maps and charts belong to their publisher.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Generic, Self

from pydantic import Field, StringConstraints, model_validator

from cgledger.domain.definitions import (
    MAX_AREAS,
    MAX_MAP_GROUPS,
    MAX_RG_PER_SIDE,
    CGDefinition,
    EntryArea,
    HexId,
    MapGroup,
    Problem,
    RGEntry,
    SideT,
    definition_model,
    hex_entry,
    raise_problems,
)
from cgledger.domain.mapgen import synthetic_map_group
from cgledger.domain.rulesets.kgp import readings as kgp_readings
from cgledger.domain.rulesets.kgp.purchasing import MED_TANK, MED_TANK_TABLES, QUALITY_RG
from cgledger.domain.rulesets.readings import Reading

US = "US"
GERMAN = "German"
#: The sides of ``cgledger.domain.rulesets.kgp.ruleset`` (the tests check they agree).
SIDES = (US, GERMAN)

#: An Entry-Code colour as the chart prints it: "red", "light blue", ...
Colour = Annotated[
    str, StringConstraints(min_length=1, max_length=20, pattern=r"^[A-Za-z][A-Za-z -]*$")
]
Colours = Annotated[list[Colour], Field(max_length=10)]
#: A table id as a chart line names it (``kgp:8.6203-II``).
TableId = Annotated[str, StringConstraints(min_length=1, max_length=40)]
#: A Sniper Activation Number (8.6122); 12, the highest DR, is as high as it matters.
San = Annotated[int, Field(ge=0, le=12)]
#: An Experience Level Rating (A19.1): 0 to 5.
Elr = Annotated[int, Field(ge=0, le=5)]
#: A KGP CG Date as the ruleset writes it (8.617: 19 AM to 23 PM).
KgpDate = Annotated[str, StringConstraints(max_length=20, pattern=r"^(19|2[0-3]) (AM|PM|N)$")]


class KgpRGEntry(RGEntry):
    """An RG chart line; ``entry_code``: 8.6197 U.S. Entry Code colours.
    What else the line says (DESIGN §14: a chart line's reading belongs on the
    line): ``elite``, 8.6206's "-1 If all MMC in the RG are Elite", and
    ``determination_table``, the 8.6203 table a Med Tank Pltn rolls on."""

    entry_code: Colours = Field(
        default_factory=list, description="8.6197 U.S. Entry Code colours (U.S. RG only)"
    )
    elite: bool | None = Field(
        default=None,
        description="8.6206 '-1 If all MMC in the RG are Elite' (NA to armor leader) on the "
        "leader DR of an 'I'-type RG with footnote 'l': true, the ledger applies it; false, "
        "never, and a roller who states it is refused (422); null: the chart line does not "
        "say: the 8.6202 quality dr decides for a U.S. I1, I6 or I8, else the roller states "
        "the DRM",
    )
    determination_table: TableId | None = Field(
        default=None,
        description="8.6203: the table a U.S. Med Tank Pltn (RG V3 or V4) rolls its models on, "
        f"one of {', '.join(MED_TANK_TABLES)}; null: the ledger's reading, "
        + ", ".join(f"{rg} on {t}" for rg, t in MED_TANK.items()),
    )


class KgpEntryArea(EntryArea[SideT], Generic[SideT]):
    """An Entry Area (SSR CG6): its arrow hex, the CG Date on the arrow and a
    U.S. arrow's Entry-Code colours."""

    center: HexId | None = Field(default=None, description="SSR CG6: the arrow's hex")
    from_date: KgpDate | None = Field(
        default=None, description="SSR CG6c: the CG Date on the arrow (Eligible from then on)"
    )
    entry_codes: Colours = Field(
        default_factory=list, description="SSR CG6, 8.6197: the U.S. arrow's colours"
    )

    @model_validator(mode="after")
    def _arrow(self) -> Self:
        problems: list[Problem] = []
        if self.center is not None and self.center not in self.hexes:
            problems.append(
                (
                    ("center",),
                    "unknown_hex",
                    f"SSR CG6: the arrow hex {self.center!r} is not a hex of Entry Area "
                    f"{self.id!r}",
                    self.center,
                )
            )
        if self.entry_codes and self.side != US:
            problems.append(
                (
                    ("entry_codes",),
                    "not_allowed",
                    "SSR CG6: only a U.S. Entry Area's arrow carries Entry-Code colours",
                    self.entry_codes,
                )
            )
        raise_problems(type(self).__name__, problems)
        return self


class KgpMapGroup(MapGroup[SideT], Generic[SideT]):
    entry_areas: Annotated[Sequence[KgpEntryArea[SideT]], Field(max_length=MAX_AREAS)] = Field(
        default_factory=list
    )
    lvp_total: Annotated[int, Field(ge=0, le=1_000_000)] | None = Field(
        default=None, description="8.6033: the Map Group's total LVP (the sum of its hexes')"
    )

    @model_validator(mode="after")
    def _lvp_total(self) -> Self:
        total = sum(h.lvp for h in self.hexes)
        if self.lvp_total is not None and self.lvp_total != total:
            raise_problems(
                type(self).__name__,
                [
                    (
                        ("lvp_total",),
                        "lvp_total",
                        f"8.6033: the hexes' LVP add up to {total}, not {self.lvp_total}",
                        self.lvp_total,
                    )
                ],
            )
        return self


class KgpDefinition(CGDefinition[SideT], Generic[SideT]):
    """A KGP CG definition (DESIGN §7): Attack-Chit limits (8.6231), RG charts
    (8.619-8.6197) and Map Groups (8.603, 8.605-8.6057, SSR CG6)."""

    #: 8.6195: "per CG Date per Map Group".
    RG_DATE_MAX_PER_MAP_GROUP: ClassVar[bool] = True
    #: 8.617: "by mutual consent players may choose to use the optional 8.6171 table(s)".
    OPTIONAL_RULES: ClassVar[tuple[str, ...]] = ("8.6171",)
    #: DESIGN §14: the readings a definition may select (``kgp.readings``).
    READINGS: ClassVar[tuple[Reading, ...]] = kgp_readings.READINGS

    rg_chart: Mapping[SideT, Annotated[Sequence[KgpRGEntry], Field(max_length=MAX_RG_PER_SIDE)]] = (
        Field(default_factory=dict, description="each side's RG chart (8.619-8.6197)")
    )
    map_groups: Annotated[Sequence[KgpMapGroup[SideT]], Field(max_length=MAX_MAP_GROUPS)] = Field(
        default_factory=list, description="DESIGN §9; 8.605"
    )
    san: Mapping[SideT, San] = Field(
        default_factory=dict,
        description="8.6122: each side's SAN at the CG's start, as the CG's OB gives it "
        "(8.51-8.53 are not in the seeds). The ledger then keeps the SAN: the 8.6122 SAN "
        "Adjustment drs and its raise to 2; a SAN Adjustment that states another SAN is "
        "refused (422). A side left out: its SAN is what its SAN Adjustment dr states",
    )

    elr: Mapping[SideT, Elr] = Field(
        default_factory=dict,
        description="SSR CG4: each side's printed ELR given in the CG's Initial Scenario "
        "(8.51-8.53, not in the seeds), treated as its printed ELR for all subsequent scenarios "
        "of the CG. The ledger shows under the campaign's conditions the ELR in force for the "
        "CG scenario of each CG Date: one less for the Scenario Defender at night (CG4, CG5), "
        "and the German's non-SS ELR of 3 (SSR KGP11). A side left out: the players' to apply",
    )

    @model_validator(mode="after")
    def _us_entry_codes(self) -> Self:
        problems: list[Problem] = []
        for side, entries in self.rg_chart.items():
            for i, entry in enumerate(entries):
                problems += _chart_line(side, i, entry)
            if side == US:
                continue
            for i, entry in enumerate(entries):
                if entry.entry_code:
                    problems.append(
                        (
                            ("rg_chart", side, i, "entry_code"),
                            "not_allowed",
                            "8.6197: only the U.S. RG Chart has an Entry Code column",
                            entry.entry_code,
                        )
                    )
        raise_problems(type(self).__name__, problems)
        return self


def _chart_line(side: str, i: int, entry: KgpRGEntry) -> list[Problem]:
    """What a chart line says of 8.6206's Elite DRM and 8.6203's table, checked
    against the rules that name the RG it applies to."""
    problems: list[Problem] = []
    at = ("rg_chart", side, i)
    table = entry.determination_table
    if table is not None and table not in MED_TANK_TABLES:
        problems.append(
            (
                (*at, "determination_table"),
                "unknown_table",
                f"8.6203: {table!r} names no 8.6203 table; the tables are "
                f"{', '.join(MED_TANK_TABLES)}",
                table,
            )
        )
    elif table is not None and not (side == US and entry.id in MED_TANK):
        problems.append(
            (
                (*at, "determination_table"),
                "not_allowed",
                "8.6203: only a U.S. Med Tank Pltn (RG V3 or V4) rolls on an 8.6203 table",
                table,
            )
        )
    if entry.elite is None:
        return problems
    if side == US and entry.id in QUALITY_RG:
        problems.append(
            (
                (*at, "elite"),
                "not_allowed",
                f"8.6202: the quality dr decides whether the MMC of a U.S. "
                f"{', '.join(QUALITY_RG)} are Elite; leave elite null",
                entry.elite,
            )
        )
    elif not (entry.id.startswith("I") and "l" in entry.footnotes):
        problems.append(
            (
                (*at, "elite"),
                "not_allowed",
                "8.6206: the Elite DRM is on the personnel leader DR of an 'I'-type RG with "
                "footnote 'l' (NA to armor leader)",
                entry.elite,
            )
        )
    return problems


MODEL = definition_model(SIDES, KgpDefinition)

_STRATEGIC: dict[str, dict[str, Any]] = {
    "B2": {"strategic": True, "lvp": 2, "levels": [0, 1]},
    "C3": {"strategic": True, "lvp": 3, "levels": [0, 1, 2]},
    "C1": {"strategic": True, "lvp": 1},
    "D4": {"enterable": False},
}


def _synthetic_valley() -> dict[str, Any]:
    """A SYNTHETIC map group the size of a real one (1,200 hexes, 60 Strategic
    Locations, buildings with upper levels, two Entry Areas per side), with
    the SSR CG6 arrows: each Entry Area's center hex, its CG Date, and the
    U.S. arrows' Entry-Code colours (8.6197)."""
    group = synthetic_map_group("Sy", SIDES, title="Sample Valley (synthetic)", seed=14)
    colours = iter((["red"], ["blue"]))
    for area in group["entry_areas"]:
        area["center"] = area["hexes"][len(area["hexes"]) // 2]
        area["from_date"] = "19 AM"
        if area["side"] == US:
            area["entry_codes"] = next(colours)
    group["lvp_total"] = sum(h.get("lvp", 0) for h in group["hexes"])
    return group


#: SYNTHETIC sample: every id, name, cost, limit and hex below is invented.
SAMPLE: dict[str, Any] = {
    "sample": True,
    "title": "KGP synthetic sample (not a real CG)",
    "notes": (
        "SYNTHETIC sample data, invented to exercise every field of a KGP CG "
        "definition: it is not CG I, II or III. The real maps, RG charts and "
        "Attack-Chit limits belong to their publisher; players type in their own."
    ),
    "attack_chits": {US: 3, GERMAN: 4},
    "rg_chart": {
        US: [
            {
                "id": "I1",
                "name": "Sample Rifle Pltn",
                "cpp": 5,
                "per_date_max": 2,
                "cg_max": 6,
                "entry_code": ["red"],
                "footnotes": ["l"],
                "unit_type": "squad (type by 8.6202)",
                "units": [4],
                "sw": ["MMG", "BAZ45"],
            },
            {
                "id": "V3",
                "name": "Sample Med Tank Pltn",
                "cpp": 9,
                "per_date_max": 1,
                "cg_max": 3,
                "entry_code": ["red", "blue"],
                "footnotes": ["a"],
                "unit_type": "M4 (models by 8.6203)",
                "units": [5],
                "notes": "invented footnote",
            },
            {"id": "O1", "name": "Sample OBA", "cpp": 7, "cg_max": 2},
            {"id": "F1", "name": "Sample Fortifications", "cpp": 3, "per_date_max": 1, "fpp": 6},
            {
                # 8.6206: a Para platoon's MMC are all Elite; its chart line says so.
                "id": "I2",
                "name": "Sample Para Pltn",
                "cpp": 6,
                "cg_max": 2,
                "entry_code": ["blue"],
                "footnotes": ["l"],
                "elite": True,
                "unit_type": "7-4-7",
                "units": [4],
                "sw": ["MMG", "BAZ45"],
            },
        ],
        GERMAN: [
            {
                "id": "I1",
                "name": "Sample Grenadier Pltn",
                "cpp": 4,
                "per_date_max": 2,
                "cg_max": 5,
                "footnotes": ["l"],
                "unit_type": "6-5-8",
                "units": [3, 2],
                "sw": ["LMG", "LMG", "PSK"],
            },
            {
                "id": "HW1",
                "name": "Sample MG Section",
                "cpp": 3,
                "cg_max": 4,
                "equipment": ["MMG", "MMG", "HMG"],
            },
            {"id": "F1", "name": "Sample Fortifications", "cpp": 2, "fpp": 5},
            {
                # 8.6206: an SS platoon's MMC are all Elite; its chart line says so.
                "id": "I2",
                "name": "Sample SS Pltn",
                "cpp": 5,
                "cg_max": 3,
                "footnotes": ["l"],
                "elite": True,
                "unit_type": "6-5-8",
                "units": [3, 2],
                "sw": ["LMG", "LMG", "PSK"],
            },
        ],
    },
    "map_groups": [
        {
            "id": "Sx",
            "title": "Sample Crossroads (synthetic)",
            "lvp_total": 6,
            "hexes": [
                hex_entry(f"{col}{row}", **_STRATEGIC.get(f"{col}{row}", {}))
                for col in "ABCD"
                for row in range(1, 5)
            ],
            "entry_areas": [
                {
                    "id": "US-W",
                    "side": US,
                    "hexes": ["A1", "A2", "A3", "A4"],
                    "center": "A2",
                    "from_date": "19 AM",
                    "entry_codes": ["red", "blue"],
                },
                {
                    "id": "G-E",
                    "side": GERMAN,
                    "hexes": ["D1", "D2", "D3"],
                    "center": "D2",
                    "from_date": "19 AM",
                },
            ],
            "hq": {GERMAN: "D1"},
            "initial_control": {"B2": US, "C1": GERMAN, "C3": GERMAN},
        },
        _synthetic_valley(),
    ],
}
