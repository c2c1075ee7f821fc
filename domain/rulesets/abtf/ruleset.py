"""A Bridge Too Far (ABtF) campaign games: RePh 9.601-9.621 (seed ``003_…``).

9.51-9.53 (the three CG definitions, with their start dates) are not in the
seed, so a campaign is created with a ``start_date`` taken from the CG Date
sequence below. That sequence is the 9.6161 CPP Base Number Chart's, which
runs from 17 N to 21 EVE; ABtF adds the ``EVE`` CG Date between PM and N.
"""

from __future__ import annotations

from types import MappingProxyType

from domain.rulesets.abtf import definition
from domain.rulesets.abtf import tables as abtf_tables
from domain.rulesets.base import (
    CampaignDef,
    Initiative,
    RePhStep,
    Ruleset,
    period_date_normalizer,
)

BRITISH = "British"
GERMAN = "German"

#: 9.6161 CPP BASE NUMBER CHART, CG DATE column.
CALENDAR: tuple[str, ...] = (
    "17 N",
    "18 AM", "18 PM", "18 EVE", "18 N",
    "19 AM", "19 PM", "19 EVE", "19 N",
    "20 AM", "20 PM", "20 EVE", "20 N",
    "21 AM", "21 PM", "21 EVE",
)  # fmt: skip

CAMPAIGNS = MappingProxyType(
    {
        cg: CampaignDef(
            name=cg,
            rule=rule,
            calendar=CALENDAR,
            initial_date=None,
            notes=f"{rule} is not in the seed: pass start_date (a CG Date of the 9.6161 chart).",
        )
        for cg, rule in (("CG I", "9.51"), ("CG II", "9.52"), ("CG III", "9.53"))
    }
)

REPH_STEPS = tuple(
    RePhStep(i, t)
    for i, t in (
        ("9.601", "Conclusion of Melee"),
        ("9.602", "Marker Removal"),
        ("9.603", "Rally and Unloading"),
        ("9.604", "Encirclement, Minefields, Bog, and Shock"),
        ("9.605", "Setup Area Determination"),
        ("9.606", "Encircled-Marker Removal"),
        ("9.607", "Equipment Possession and Hidden Fortifications"),
        ("9.608", "Prisoners"),
        ("9.609", "Extinguishing Flames and Blazes"),
        ("9.610", "Wounded Leaders and Walking Wounded MMC"),
        ("9.611", "Recombining and Battle Hardening"),
        ("9.612", "New CG Date and SAN Adjustment"),
        ("9.613", "Shift"),
        ("9.614", "Equipment Repair and Replenishment"),
        ("9.615", "OB-Given Reinforcements"),
        ("9.616", "CPP Replenishment"),
        ("9.617", "Purchasing Reinforcement Groups"),
        ("9.618", "RG Strength, Weapons, Leaders, and Composition"),
        ("9.619", "Purchasing Fortifications"),
        ("9.620", "Ammunition Shortage and ELR Loss/Gain"),
        ("9.621", "Scenario Commencement"),
    )
)

RULESET = Ruleset(
    id="abtf",
    title="A Bridge Too Far",
    sides=(BRITISH, GERMAN),
    campaigns=CAMPAIGNS,
    reph_steps=REPH_STEPS,
    normalize_date=period_date_normalizer({"am": "AM", "pm": "PM", "eve": "EVE", "n": "N"}),
    new_date_step="9.612",  # 9.6121 New CG Date
    sequence_rule="9.6",
    definition=definition.MODEL,
    sample_definition=definition.SAMPLE,
    scenario_types=("dual-attack", "german-assault", "british-assault", "idle"),  # 9.62133
    # 9.62132's matrix: rows German, columns British; keyed here (British, German).
    # The matrix prints "Dual Assault", its scenario types "Dual Attack" (9.62133a).
    initiative=Initiative(
        "9.62132",
        MappingProxyType(
            {
                ("attack", "attack"): "dual-attack",
                ("idle", "attack"): "german-assault",
                ("attack", "idle"): "british-assault",
                ("idle", "idle"): "idle",
            }
        ),
    ),
    notes="CPP (9.616-9.617) and the Roster are not implemented for ABtF yet.",
    tables=abtf_tables.TABLES,
)
