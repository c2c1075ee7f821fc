"""Die tables of the short "SG" CG (seed ``004_…``), as data.

Each constant cites its rule; results are in the table's own words. Readings of
garbled OCR are in each table's ``notes`` (and here):

* 3.3: the first row reads "Repair MA/" and is cut off; read as "Repair MA/Gun",
  the usual pairing in CG repair tables.
* 3.6: the German column header carries a footnote "a" whose text is lost.
  The American armor column ends at 8-1 (6-8) and the German armor column at
  8-1 (4-5); the "-" cells below mean no leader.
* 3.4's armor type dr and 3.5 (German Reinforcement rows A-C) name tables that
  are not in the seed text. The 3.4 dr is still made and recorded here
  (``ARMOR_TYPE``, its result the dr itself), bound to the Armor Group it is
  for; the players read the type off their CG's table. 3.5 is not here.

A table with no DRMs can only give 1-6 (dr) or 2-12 (DR), but every first band
is written open below and every last band open above, so an "other" DRM a
player adds still lands in a band.
"""

from __future__ import annotations

from cgledger.domain.tables import Table, eq, ge, le, registry, span

RECOVERY = Table(
    id="sg:3.1",
    rule="3.1",
    title="Wounded Leaders: Recovery Table",
    dice=1,
    bands=(
        le(3, "Retain Unwounded"),
        ge(
            4,
            "Evacuated",
            "* An Evacuated leader is permanently removed from play, but is immediately "
            "replaced with a 7-0 leader in the same location as the friendly MMC nearest "
            "(in hexes) to the last location that Evacuated leader occupied. The owning "
            "player may choose which location in the event of a tie. Any SW Possessed by an "
            "Evacuated leader is considered Transferred to the MMC as well.",
        ),
    ),
)


def _repair(suffix: str, action: str, repaired: int, ne_hi: int, note: str = "") -> Table:
    return Table(
        id=f"sg:3.3-{suffix}",
        rule="3.3",
        title=f"Repair Table: {action}",
        dice=1,
        bands=(
            le(repaired, "Repaired"),
            span(repaired + 1, ne_hi, "NE"),
            ge(ne_hi + 1, "Eliminated"),
        ),
        notes=(note,) if note else (),
    )


REPAIR_MA = _repair(
    "ma",
    "Repair MA/Gun",
    4,
    5,
    "The row reads 'Repair MA/' and is cut off in the OCR; read as 'Repair MA/Gun'.",
)
REPAIR_SW = _repair("sw", "Repair SW", 3, 5)
REPAIR_VEHICULAR_MG = _repair("vehicular-mg", "Repair vehicular MG", 2, 5)

_LEADER_NOTE = "Each Leader must enter with a unit of his Group. '-': no leader is received."


def _leader(suffix: str, column: str, rows: tuple[tuple[int, int, str], ...]) -> Table:
    bands = [span(lo, hi, r) for lo, hi, r in rows]
    first, last = rows[0], rows[-1]
    bands[0] = le(first[1], first[2])
    bands[-1] = ge(last[0], last[2])
    return Table(
        id=f"sg:3.6-{suffix}",
        rule="3.6",
        title=f"Leader Table: {column}",
        dice=2,
        bands=tuple(bands),
        secret=True,  # 3.6: "make one secret DR"
        notes=(_LEADER_NOTE,),
        # 3.6: "For each American Armored Infantry Platoon and Armor Reinforcement
        # Group, and for each German infantry (Row A) and armor (Row B)
        # Reinforcement Group": each column serves its own side's Groups.
        sides=(column.split(" ", maxsplit=1)[0],),
    )


NO_LEADER = "No leader (-)"
LEADER_GERMAN_INFANTRY = _leader(
    "german-infantry",
    "German Infantry",
    ((2, 2, "9-2"), (3, 3, "9-1"), (4, 5, "8-1"), (6, 8, "8-0"), (9, 10, "7-0"),
     (11, 11, "6+1"), (12, 12, NO_LEADER)),
)  # fmt: skip
LEADER_GERMAN_ARMOR = _leader(
    "german-armor",
    "German Armor",
    ((2, 2, "9-2"), (3, 3, "9-1"), (4, 5, "8-1"), (6, 12, NO_LEADER)),
)
LEADER_AMERICAN_INFANTRY = _leader(
    "american-infantry",
    "American Infantry",
    ((2, 2, "10-2"), (3, 3, "9-2"), (4, 5, "9-1"), (6, 8, "8-1"), (9, 10, "8-0"),
     (11, 11, "7-0"), (12, 12, "6+1")),
)  # fmt: skip
LEADER_AMERICAN_ARMOR = _leader(
    "american-armor",
    "American Armor",
    ((2, 2, "10-2"), (3, 3, "9-2"), (4, 5, "9-1"), (6, 8, "8-1"), (9, 12, NO_LEADER)),
)

M4_MODEL = Table(
    id="sg:3.7",
    rule="3.7",
    title="U.S. Medium Tank Models: M4 Model Table",
    # 3.7: "For each M4 Armor Reinforcement Group, make a secret DR" (U.S. Medium Tank Models)
    sides=("American",),
    dice=2,
    bands=(
        le(2, "2 x M4A3(76)W; M4A3E2(L)"),
        eq(3, "M4A3(76)W; M4A3(105); M4A3(75)W"),
        span(4, 5, "2 x M4A3(76)W; M4A3(75)W"),
        span(6, 8, "2 x M4A1(76); M4A3(75)W"),
        span(9, 10, "M4A1(76)W; 2 x M4A3"),
        ge(11, "2 x M4A3(75); M4A3"),
    ),
    secret=True,  # 3.7: "make a secret DR"
)

_ARMOR = "Armor type of dr {} on the American Reinforcement Table (not in the seed)"

# 3.4: "For each Armor Group purchased, make a dr to determine armor type."
ARMOR_TYPE = Table(
    id="sg:3.4",
    rule="3.4",
    title="American Reinforcements: armor type dr",
    sides=("American",),
    dice=1,
    # One band per dr, written open at both ends as every SG table's (an
    # "other" DRM still lands in a band): the type is the CG's table's.
    bands=(
        le(1, _ARMOR.format(1)),
        *(eq(n, _ARMOR.format(n)) for n in range(2, 6)),
        ge(6, _ARMOR.format(6)),
    ),
    # 3.4: "The American player secretly spends his Purchase Points"
    secret=True,
    notes=(
        "The armor type table of the American Reinforcement Table is not in the seed: the "
        "ledger makes and records the dr for the Armor Group; the players read the type.",
    ),
)

TABLES = registry(
    ARMOR_TYPE,
    RECOVERY,
    REPAIR_MA,
    REPAIR_SW,
    REPAIR_VEHICULAR_MG,
    LEADER_GERMAN_INFANTRY,
    LEADER_GERMAN_ARMOR,
    LEADER_AMERICAN_INFANTRY,
    LEADER_AMERICAN_ARMOR,
    M4_MODEL,
)
