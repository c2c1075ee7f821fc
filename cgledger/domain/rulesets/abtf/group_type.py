"""The group types 9.6181 and 9.6183 give a DRM to, as a chart line names
them (DESIGN §14: what a chart line can say belongs on the line).

9.6181's RG Strength Table prints "+1 German VG Pltn" ("+15", the footnote
digit glued on: ``abtf.tables``), and 9.6183's LEADER TABLE DRM block names,
under BRITISH, "-1 Commando", "-2 Engineer", "+1 Glider" and, under GERMAN,
"-1 SS PG, SS Recon, Med Tank", "-2 Engineer, Hvy Tank", "+1 SPG, Lt Tank",
"+2 VG, AC". The RG's group type is its chart's "GROUP TYPE" (9.6172), which
the seed's charts do not print, so an ABtF chart line may name it
(``AbtfRGEntry.group_type``), in the seed's own words, or ``Other``: none of
those. The determination roll (``abtf.purchasing.needs``) then applies the
DRM of that type on the table it is read on (``by: ledger``) and refuses any
group-type DRM of that table stated (422 naming it). A line that does not
say (null) leaves them to the roller, as before.

Which side may name which type follows the ledger's tables: a side's own
Leader Table column has its types (``abtf.tables``), and the (Armor) column,
which serves the RG of both sides, has Med Tank, Hvy Tank, SPG, Lt Tank and
AC (the block prints them under GERMAN; ``abtf.tables`` reads the (Armor)
column with them for either side, and a British line may say so). 9.6181's
VG Pltn is German ("German VG Pltn").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

BRITISH = "British"
GERMAN = "German"

#: A group type a chart line may name: the seed's words, or ``Other``.
GroupType = Literal[
    "Commando",
    "Engineer",
    "Glider",
    "SS PG",
    "SS Recon",
    "VG",
    "Med Tank",
    "Hvy Tank",
    "SPG",
    "Lt Tank",
    "AC",
    "Other",
]
#: The line says its group type is none the 9.6181/9.6183 DRMs name.
OTHER = "Other"

#: By table, the DRM each group type gives on it (9.6181, 9.6183).
DRMS: Mapping[str, Mapping[str, str]] = {
    # 9.6181 RG STRENGTH TABLE: "+1 German VG Pltn".
    "abtf:9.6181": {"VG": "vg-pltn"},
    # 9.6183 LEADER TABLE DRM, BRITISH: "-1 Commando", "-2 Engineer", "+1 Glider".
    "abtf:9.6183-british": {"Commando": "commando", "Engineer": "engineer", "Glider": "glider"},
    # 9.6183 LEADER TABLE DRM, GERMAN: "-1 SS PG, SS Recon", "-2 Engineer", "+2 VG".
    "abtf:9.6183-german": {
        "SS PG": "ss-pg",
        "SS Recon": "ss-recon",
        "Engineer": "engineer",
        "VG": "vg",
    },
    # 9.6183 LEADER TABLE DRM for the (Armor) column: "-1 ... Med Tank", "-2 ... Hvy
    # Tank", "+1 SPG, Lt Tank", "+2 ... AC".
    "abtf:9.6183-armor": {
        "Med Tank": "med-tank",
        "Hvy Tank": "hvy-tank",
        "SPG": "spg",
        "Lt Tank": "lt-tank",
        "AC": "ac",
    },
}

_ARMOR = tuple(DRMS["abtf:9.6183-armor"])
#: The types each side's line may name (its Leader Table column's, the
#: (Armor) column's, 9.6181's German VG Pltn), and ``Other``.
BY_SIDE: Mapping[str, tuple[str, ...]] = {
    BRITISH: (*DRMS["abtf:9.6183-british"], *_ARMOR, OTHER),
    GERMAN: (*DRMS["abtf:9.6183-german"], *_ARMOR, OTHER),
}


def drms(table: str, group_type: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The group-type DRMs of a determination roll on ``table`` for a line
    naming ``group_type``: (applied, decided). Null: none decided (the roller
    states them); a type: every group-type DRM of the table is the ledger's,
    the type's own applied."""
    of_table = DRMS.get(table, {})
    if group_type is None or not of_table:
        return (), ()
    own = of_table.get(group_type)
    return (() if own is None else (own,)), tuple(dict.fromkeys(of_table.values()))


def check(side: str, group_type: str | None) -> str | None:
    """Why a line of ``side`` may not name ``group_type``, or ``None``."""
    if group_type is None or group_type in BY_SIDE.get(side, ()):
        return None
    return (
        f"9.6181/9.6183: {group_type!r} is no {side} group type the rules give a DRM to; "
        f"one of {', '.join(BY_SIDE.get(side, ()))}"
    )
