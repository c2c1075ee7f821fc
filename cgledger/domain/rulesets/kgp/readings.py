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
    why="These rules put the U.S. before the German in every side-by-side chart (8.6161's CPP "
    "Base # pairs, 8.6204's SW charts, 8.621 footnote 2 'U.S./'), and the sibling ABtF leader "
    "table (9.6183) puts the Allied column, also the better one here, first.",
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

#: 8.6 defines "‡" but its list prints it on no step.
SETUP_MARKERS = Reading(
    id="setup-markers",
    rule="8.6",
    text='Those preceded by "‡" are performed only if, as per the result of Initiative '
    "Determination (8.623), a [cut] ... 8.624 Unit Setup / 8.625 Scenario Commencement "
    "(the list prints no '‡')",
    choices={
        "marked": "8.624 and 8.625 are the '‡' steps: on an Idle CG Date (no scenario "
        "generated) they are skipped",
        "unmarked": "no step is a '‡' step, as the list prints: 8.624 and 8.625 are taken on "
        "an Idle CG Date too",
    },
    default="marked",
    why="8.6 defines '‡' (steps done only if 8.623 generates a scenario) and the OCR'd list "
    "prints it nowhere; only 8.624-.625 follow 8.623, and they set up and move first by the "
    "scenario type 8.6233 generates, which an Idle date does not.",
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

READINGS = (SHORTAGE, LEADER_COLUMNS, STANDARD_ON_MAP, SETUP_MARKERS, MIST_AND_OVERCAST)
