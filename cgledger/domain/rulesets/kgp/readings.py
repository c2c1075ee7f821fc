"""KGP's readings (DESIGN §14): where the seed (``000_…``, ``001_…``) is cut
or loses what tells two things apart, the choices a playing group may agree
in its CG definition's ``readings``. Each default is the reading the ledger
took before readings were data, so nothing recorded changes meaning.

The readings of garbled OCR that have one sane reading (a typo, a lost space,
a footnote marker placed by its text) stay comments next to the table or rule
they read; docs/rulesets.md lists both."""

from __future__ import annotations

from cgledger.domain.rulesets.readings import Reading

#: 8.618 "A +1 DRM applies per CG scenario completed after 20 AM".
SHORTAGE = Reading(
    id="shortage-after-20-am",
    rule="8.618",
    text="A +1 DRM applies per CG scenario completed after 20 AM.",
    choices={
        "from-20-am": "the CG scenarios of the CG Dates from 20 AM on count: the 20 AM "
        "scenario is completed after 20 AM's DR, so it counts from 20 PM on",
        "after-20-am": "only the CG scenarios of the CG Dates after 20 AM count: the first "
        "is 20 PM's, counted from 20 N on",
    },
    default="from-20-am",
    why="8.618's DR is made 'Beginning on Dec 20 AM', before that date's scenario: the 20 AM "
    "scenario is the first one completed after the first DR, so it is read as completed "
    "'after 20 AM'.",
)

#: 8.6206: the OCR lost which personnel column is the U.S. one.
LEADER_COLUMNS = Reading(
    id="leader-columns",
    rule="8.6206",
    text="LEADER TABLES: Final DR | Personnel Leader | Personnel Leader | Armor Leader "
    "(DRM: +1 If the RG is Depleted (NA to U.S.))",
    choices={
        "us-first": "the first Personnel Leader column is the U.S. one, the second the "
        "German one (tables kgp:8.6206-us and kgp:8.6206-german)",
        "german-first": "the first Personnel Leader column is the German one, the second the "
        "U.S. one (tables kgp:8.6206-us-column-2 and kgp:8.6206-german-column-1)",
    },
    default="us-first",
    why="These rules put the U.S. before the German where the text names both (8.6204's SW "
    "charts, 8.621 footnote 2 'U.S./'; 8.6161's CPP Base # pairs are read so too, itself the "
    "reading 'cpp-base-pairs'), and the sibling ABtF leader table (9.6183) puts the Allied "
    "column, also the better one here, first.",
)

#: 8.6194a is cut before its price change.
STANDARD_ON_MAP = Reading(
    id="standard-on-map-cost",
    rule="8.6194a",
    text="a) STANDARD ON-MAP SETUP: Unless otherwise prohibited, each U.S./",
    choices={
        "plus-50-frd": "the listed CPP cost +50% (FRD), as 8.6194b",
        "plus-50-fru": "the listed CPP cost +50% (FRU)",
        "plus-100": "the listed CPP cost doubled",
    },
    default="plus-50-frd",
    why="The rule is cut before its amount; 8.6194b, the only other change 8.6194 makes to a "
    "listed CPP cost, reads 'By increasing the listed CPP cost ... by 50% (FRD)'.",
)

#: 8.6194a is cut before it says which RG it is for.
STANDARD_ON_MAP_RGS = Reading(
    id="standard-on-map-rgs",
    rule="8.6194a",
    text="a) STANDARD ON-MAP SETUP: Unless otherwise prohibited, each U.S./ (8.6194: 'most "
    "German RG types must be set up on-map in Reserve ... while most U.S. RG types enter play "
    "during the course of the scenario [EXC: ... if purchased for Standard On-Map Setup as per "
    "8.6194a]')",
    choices={
        "i-v-g-hw": "a U.S. or German RG whose ID begins with I, V, G or HW (the RG of units "
        "that enter play or set up: 8.6197's I, V and G, 8.6201's HW)",
        "every-rg": "every U.S. or German RG of the chart",
    },
    default="i-v-g-hw",
    why="The rule is cut before it names the RG; 8.6194 contrasts setting up on-map with "
    "entering play, which the RG of units do (8.6197 gives an Entry Code to each 'I', 'V' and "
    "'G' RG; 8.6201 depletes 'I', 'V', 'G' and 'HW'), not an OBA module or a Fortification.",
)

#: 8.6171: is "Mist & Overcast" Overcast weather for the next CG Date's DRM?
MIST_AND_OVERCAST = Reading(
    id="mist-and-overcast",
    rule="8.6171",
    text="KGP Random Weather Table: '≤ 3 Mist & Overcast' ... DRM '-1 If the preceding CG "
    "Date's Weather was Overcast'",
    choices={
        "overcast": "'Mist & Overcast' is Overcast weather: the -1 applies after it",
        "not-overcast": "only an 'Overcast' result is: the -1 does not apply after "
        "'Mist & Overcast'",
    },
    default="overcast",
    why="The result is Mist and Overcast at once; the Historical Weather Chart (8.617) also "
    "writes an overcast sky with Mist as 'Light Mist & Overcast'.",
)

#: 8.6161: the OCR lost the two column headers under each CG of the CPP Base # chart.
CPP_BASE_PAIRS = Reading(
    id="cpp-base-pairs",
    rule="8.6161",
    text="Each side's CPP Base # is given below for the current CG Date and CG: CPP BASE # "
    "CHART / CG ICG IICG III / CG Date / 19 PM3535---- / 19 N5025--2035 / 20 AM6520--5055 / "
    "20 PM4520--9075 / 20 N505040356540 / 21 AM602065353550 / 21 PM752510252025 (no header "
    "names the two numbers under each CG)",
    choices={
        "us-first": "the first number of each CG's pair is the U.S. Base #, the second the "
        "German one (CG I 19 N: U.S. 50, German 25)",
        "german-first": "the first number of each CG's pair is the German Base #, the second "
        "the U.S. one (CG I 19 N: German 50, U.S. 25)",
    },
    default="us-first",
    why="The first number is the larger one on most CG Dates of CG I and CG II, when the U.S. "
    "was pouring in reinforcements (8.6197's entry codes), and these rules list the U.S. "
    "before the German side by side elsewhere (8.6204's SW charts, 8.621 footnote 2 'U.S./').",
)

#: 8.6161: CG III's 23 AM and 23 PM cells read "175-".
CPP_BASE_CG3_23 = Reading(
    id="cpp-base-cg3-23",
    rule="8.6161",
    text="CPP BASE # CHART: '22 N----2030 / 23 AM----175- / 23 PM----175-'",
    choices={
        "175": "CG III's pair on 23 AM and on 23 PM is 175 and '-': the first side's Base # is "
        "175, the second side replenishes nothing (a '-' cell: no DR)",
        "75": "the '1' is a footnote digit the OCR glued to the number (as in 'Chart21'): the "
        "pair is 75 and '-'",
    },
    default="175",
    why="The cell is read as printed: the seed holds no footnote text, and the next footnote "
    "number the OCR glues on (8.617's 'Chart21') is 21, so a footnote just before it would "
    "be numbered about 20, not 1. 175 is far above its neighbours (20-40): '75' is there for a "
    "group whose printed chart shows a footnote marker.",
)

#: 8.6162's EX gives the German a Base # that the chart's 19 PM row does not read.
CPP_BASE_EX_19_PM = Reading(
    id="cpp-base-ex-19-pm",
    rule="8.6162",
    text="EX: Players have just completed the 19 AM Initial scenario of CG I ... The German, "
    "with a CPP Base # of 30 (8.6161), makes a CPP Replenishment DR of 6 ... (30 - 6 = 24) "
    "(8.6161's chart: '19 PM3535----')",
    choices={
        "chart": "the chart's 19 PM row: the German Base # of CG I on 19 PM is 35",
        "ex": "the EX's 30: the German Base # of CG I on 19 PM is 30 (the U.S. keeps the "
        "pair's other 35)",
    },
    default="chart",
    why="8.6161 gives each side's Base # in its chart, and the EX cites 8.6161 for a 30 that "
    "no cell of the 19 PM row reads (both read 35): the EX illustrates 8.6162's arithmetic, "
    "the chart is the data every CG Date reads.",
)

READINGS = (
    SHORTAGE,
    LEADER_COLUMNS,
    STANDARD_ON_MAP,
    STANDARD_ON_MAP_RGS,
    MIST_AND_OVERCAST,
    CPP_BASE_PAIRS,
    CPP_BASE_CG3_23,
    CPP_BASE_EX_19_PM,
)
