"""The ABtF CG definition (DESIGN §7): the common fields bound to the sides
``British`` and ``German``, plus what the ABtF chart pages add (seed ``003_…``):

* ``idle_chits``: 9.62131 "Each CG (9.51-.53) lists the maximum number of
  Attack *and Idle* Chits each side may select"; ``attack_chits`` holds the
  first, ``idle_chits`` the second (a side left out has no limit).
* RG chart lines: the German ``kg`` (9.6178: a German RG ID names the KG it
  was purchased from, "I1(K) for a German SS Infantry Platoon from KG
  Knaust"). The same ID may appear once per KG; a purchase names the line by
  its ``key``, e.g. ``"I1(K)"``. ``per_date_max`` counts per CG Date
  (9.6175: "per CG Date and not calendar date"). A line's ``group_type``
  (9.6172) names the group type 9.6181's and 9.6183's DRMs name
  (``abtf.group_type``): the determination rolls apply its DRM; null leaves
  them to the roller.
* Hexes carry their ``block`` (9.605-9.6055: Setup Areas are Blocks).
* ``sudden_death_blocks``: 9.6212 "The Germans win any CG at the end of any
  CG Scenario Game Turn by Controlling all Strategic Locations within Block H";
  each named Block must hold at least one Strategic Location of a Map Group.
* ``san``: each side's SAN at the CG's start, as its OB gives it (9.51-9.53
  are not in the seed); the ledger then keeps the SAN (9.6122, 9.6152).
* ``ammunition_shortage_level``: the British Ammunition Shortage Level at the
  CG's start (SSR CG 17, not in the seed), the start of 9.6201's Level.

The sample is SYNTHETIC (invented RG, map and values that only exercise every
field); the real maps and charts belong to their publisher.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Generic, Self

from pydantic import Field, StringConstraints, model_validator

from cgledger.domain.definitions import (
    MAX_RG_PER_SIDE,
    CGDefinition,
    Count,
    Id,
    Problem,
    RGEntry,
    SideT,
    definition_model,
    hex_entry,
    raise_problems,
)
from cgledger.domain.mapgen import synthetic_map_group
from cgledger.domain.rulesets.abtf import group_type as rg_types
from cgledger.domain.rulesets.abtf import readings as abtf_readings
from cgledger.domain.rulesets.abtf import sw_chart
from cgledger.domain.rulesets.abtf.tables import SW_ROWS
from cgledger.domain.rulesets.readings import Reading

BRITISH = "British"
GERMAN = "German"
#: The sides of ``cgledger.domain.rulesets.abtf.ruleset`` (the tests check they agree).
SIDES = (BRITISH, GERMAN)

#: A column header of a 9.6182 Infantry-Type SW Chart ("PSK/Lt. Mtr").
SwColumn = Annotated[str, StringConstraints(min_length=1, max_length=20)]
#: A Sniper Activation Number (9.6122); 12, the highest DR, is as high as it matters.
San = Annotated[int, Field(ge=0, le=12)]
#: An Ammunition Shortage Level (SSR CG 17, 9.6201: "Shortage increases one Level").
Level = Annotated[int, Field(ge=0, le=20)]

#: 9.6178: the KG letter a German RG ID carries, "I1(K)".
KgId = Annotated[str, StringConstraints(min_length=1, max_length=3, pattern=r"^[A-Z]{1,3}$")]


class AbtfRGEntry(RGEntry):
    """An RG chart line; ``kg``: the German KG it comes from (9.6178);
    ``sw_columns``: the 9.6182 chart columns its row's printed entries stand
    in; ``group_type``: the group type 9.6181's and 9.6183's DRMs name (DESIGN
    §14: what a chart line can say belongs on the line)."""

    kg: KgId | None = Field(default=None, description="9.6178: the German KG, e.g. K")
    sw_columns: Annotated[list[SwColumn], Field(max_length=5)] | None = Field(
        default=None,
        description="9.6182: the column of the side's Infantry-Type SW Chart each printed "
        "entry of this RG's row stands in, left to right (the OCR drops the empty cells), "
        "e.g. ['LMG', 'FT', 'DC'] for British I4; one of "
        + "; ".join(f"{side}: {', '.join(cols)}" for side, cols in sw_chart.COLUMNS.items())
        + ". null: the ledger's reading (docs/rulesets.md)",
    )

    group_type: rg_types.GroupType | None = Field(
        default=None,
        description="9.6172, 9.6181, 9.6183: the RG's group type, as the DRMs name it "
        "(9.6181 '+1 German VG Pltn'; 9.6183 British 'Commando', 'Engineer', 'Glider', "
        "German 'SS PG', 'SS Recon', 'Engineer', 'VG', (Armor) 'Med Tank', 'Hvy Tank', "
        "'SPG', 'Lt Tank', 'AC'), or 'Other': none of them. The determination rolls apply "
        "its DRM (by: ledger) and refuse any group-type DRM of their table stated (422). "
        "null: the line does not say; the roller states them. "
        + "; ".join(f"{side}: {', '.join(t)}" for side, t in rg_types.BY_SIDE.items()),
    )

    @property
    def key(self) -> str:
        """9.6178 RG ID notation: ``I1`` or, for a German KG's RG, ``I1(K)``."""
        return self.id if self.kg is None else f"{self.id}({self.kg})"


class AbtfDefinition(CGDefinition[SideT], Generic[SideT]):
    """An ABtF CG definition (DESIGN §7): Attack- and Idle-Chit limits
    (9.62131), RG charts (9.617-9.6178), Map Groups with Blocks (9.605) and
    the Sudden Death Block (9.6212)."""

    #: DESIGN §14: the readings a definition may select (``abtf.readings``).
    READINGS: ClassVar[tuple[Reading, ...]] = abtf_readings.READINGS

    idle_chits: Mapping[SideT, Count] = Field(
        default_factory=dict,
        description="9.62131: the most Idle Chits a side may select in the CG; "
        "a side left out has no limit",
    )
    rg_chart: Mapping[
        SideT, Annotated[Sequence[AbtfRGEntry], Field(max_length=MAX_RG_PER_SIDE)]
    ] = Field(default_factory=dict, description="each side's RG chart (9.617-9.6178)")
    sudden_death_blocks: Mapping[SideT, Id] = Field(
        default_factory=dict,
        description="9.6212: the side wins the CG at the end of any CG Scenario Game Turn "
        "by Controlling all Strategic Locations within this Block",
    )
    san: Mapping[SideT, San] = Field(
        default_factory=dict,
        description="9.6122: each side's SAN at the CG's start, as the CG's OB gives it "
        "(9.51-9.53 are not in the seed). The ledger then keeps the SAN: the 9.61221/9.61222 "
        "SAN Adjustment drs, 9.6152's changes and 9.6122's raise to 2; a SAN Adjustment "
        "that states another SAN is refused (422). A side left out: its SAN is what its "
        "SAN Adjustment dr states",
    )
    ammunition_shortage_level: Mapping[SideT, Level] = Field(
        default_factory=dict,
        description="SSR CG 17 (not in the seed): the British Ammunition Shortage Level at "
        "the CG's start, to which 9.6201's 'Shortage increases one Level' adds; 9.6144 and "
        "9.6202 read the Level. Left out, the ledger keeps 9.6201's changes only",
    )

    @model_validator(mode="after")
    def _abtf(self) -> Self:
        problems: list[Problem] = []
        for side, entries in self.rg_chart.items():
            for i, entry in enumerate(entries):
                why = rg_types.check(side, entry.group_type)
                if why is not None:
                    problems.append(
                        (("rg_chart", side, i, "group_type"), "not_allowed", why, entry.group_type)
                    )
                # 9.6182: a Depleted RG's dr is "≤ the number listed in
                # parentheses" on its Infantry-Type SW Chart: an SW it does not
                # list could never be rolled for.
                listed = {sw for nat, rg, sw, _ in SW_ROWS if (nat, rg) == (side, entry.id)}
                if entry.sw_columns is not None:
                    why = sw_chart.check(side, entry.id, entry.sw_columns)
                    if why is not None:
                        problems.append(
                            (
                                ("rg_chart", side, i, "sw_columns"),
                                "sw_columns",
                                why,
                                entry.sw_columns,
                            )
                        )
                        continue
                    listed = set(entry.sw_columns)
                    if sw_chart.STAR_COLUMN in listed:
                        listed |= {"PSK", "Lt. Mtr"}
                for j, sw in enumerate(entry.sw):
                    if sw not in listed:
                        problems.append(
                            (
                                ("rg_chart", side, i, "sw", j),
                                "not_on_sw_chart",
                                f"9.6182: the {side} Infantry-Type SW Chart lists "
                                f"{', '.join(sorted(listed)) or 'no SW'} for {entry.id}, not "
                                f"{sw!r}",
                                sw,
                            )
                        )
            if side == GERMAN:
                continue
            for i, entry in enumerate(entries):
                if entry.kg is not None:
                    problems.append(
                        (
                            ("rg_chart", side, i, "kg"),
                            "not_allowed",
                            "9.6178: only a German RG names its KG",
                            entry.kg,
                        )
                    )
        for side in self.ammunition_shortage_level:
            if side != BRITISH:
                problems.append(
                    (
                        ("ammunition_shortage_level", side),
                        "not_allowed",
                        "9.6201: only the British suffers Ammunition Shortage (SSR CG 17)",
                        self.ammunition_shortage_level[side],
                    )
                )
        strategic_blocks = {
            h.block
            for group in self.map_groups
            for h in group.hexes
            if h.strategic and h.block is not None
        }
        for side, block in self.sudden_death_blocks.items():
            if block not in strategic_blocks:
                problems.append(
                    (
                        ("sudden_death_blocks", side),
                        "unknown_block",
                        f"9.6212: no Map Group has a Strategic Location in Block {block!r}",
                        block,
                    )
                )
        raise_problems(type(self).__name__, problems)
        return self


MODEL = definition_model(SIDES, AbtfDefinition)

#: Blocks (9.605) and Strategic Locations of the synthetic map.
_HEXES: dict[str, dict[str, Any]] = {
    "B1": {"block": "A"},
    "B2": {"block": "A", "strategic": True, "lvp": 2, "levels": [0, 1]},
    "B3": {"block": "A"},
    "C3": {"block": "H", "strategic": True, "lvp": 3, "levels": [0, 1, 2]},
    "C4": {"block": "H", "strategic": True, "lvp": 1},
    "D3": {"block": "H"},
    "D1": {"enterable": False},
}

#: A SYNTHETIC map group the size of a real one (1,200 hexes, 60 Strategic
#: Locations, buildings with upper levels, two Entry Areas per side), with
#: Blocks A-H (9.605). The German holds Blocks A-D in the west, the British
#: Blocks E-H in the east, so Block H (9.6212) starts British.
_SYNTHETIC_TOWN = synthetic_map_group(
    "By", (GERMAN, BRITISH), title="Sample Town (synthetic)", blocks="ABCDEFGH", seed=9
)

#: SYNTHETIC sample: every id, name, cost, limit, KG and hex below is invented.
SAMPLE: dict[str, Any] = {
    "sample": True,
    "title": "ABtF synthetic sample (not a real CG)",
    "notes": (
        "SYNTHETIC sample data, invented to exercise every field of an ABtF CG "
        "definition: it is not CG I, II or III. The real map, Blocks, RG charts "
        "and chit limits belong to their publisher; players type in their own."
    ),
    "attack_chits": {BRITISH: 4, GERMAN: 5},
    # Enough chits for every CG Date of the 9.6161 chart (17 N to 21 EVE: 14
    # Initiatives at most), so a campaign on the sample can be played through.
    "idle_chits": {BRITISH: 10, GERMAN: 9},
    "rg_chart": {
        BRITISH: [
            {
                "id": "I1",
                "name": "Sample Para Pltn",
                "cpp": 6,
                "per_date_max": 2,
                "cg_max": 6,
                "footnotes": ["l"],
                "units": [3, 2],
                "unit_type": "6-5-8",
                # 9.6183: a Para Pltn is none of the group types its DRMs name.
                "group_type": "Other",
            },
            {
                "id": "V1",
                "name": "Sample Carrier Section",
                "cpp": 5,
                "per_date_max": 1,
                "cg_max": 2,
                "notes": "invented footnote",
            },
            {"id": "F1", "name": "Sample Fortifications", "cpp": 2, "per_date_max": 1, "fpp": 8},
        ],
        GERMAN: [
            {
                "id": "I1",
                "name": "Sample Rifle Pltn",
                "cpp": 4,
                "cg_max": 4,
                "kg": "X",
                "units": [3, 2],
                "unit_type": "4-6-7",
                "group_type": "Other",
            },
            {"id": "I1", "name": "Sample Rifle Pltn", "cpp": 5, "cg_max": 3, "kg": "Y"},
            {
                "id": "A2",
                "name": "Sample SPG Pltn",
                "cpp": 8,
                "per_date_max": 1,
                "kg": "X",
                "group_type": "SPG",
            },
            {"id": "F1", "name": "Sample Fortifications", "cpp": 3, "fpp": 6},
            # 9.6181 "+1 German VG Pltn", 9.6183 "+2 VG": the ledger applies both.
            {
                "id": "I3",
                "name": "Sample VG Pltn",
                "cpp": 3,
                "cg_max": 2,
                "kg": "Y",
                "footnotes": ["l"],
                "units": [3, 2],
                "unit_type": "4-4-7",
                "group_type": "VG",
            },
        ],
    },
    "sudden_death_blocks": {GERMAN: "H"},
    "map_groups": [
        {
            "id": "Bx",
            "title": "Sample Bridgehead (synthetic)",
            "hexes": [
                hex_entry(f"{col}{row}", **_HEXES.get(f"{col}{row}", {}))
                for col in "ABCD"
                for row in range(1, 5)
            ],
            "entry_areas": [
                {"id": "Br-W", "side": BRITISH, "hexes": ["A1", "A2", "A3", "A4"]},
                {"id": "Ge-E", "side": GERMAN, "hexes": ["D2", "D3", "D4"]},
            ],
            "initial_control": {"B2": BRITISH, "C3": GERMAN, "C4": GERMAN},
        },
        _SYNTHETIC_TOWN,
    ],
}
