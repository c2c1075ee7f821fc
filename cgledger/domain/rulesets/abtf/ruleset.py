"""A Bridge Too Far (ABtF) campaign games: RePh 9.601-9.621 (seed ``003_…``).

9.51-9.53 (the three CG definitions, with their start dates) are not in the
seed, so a campaign is created with a ``start_date`` taken from the CG Date
sequence below. That sequence is the 9.6161 CPP Base Number Chart's, which
runs from 17 N to 21 EVE; ABtF adds the ``EVE`` CG Date between PM and N.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from cgledger.domain.rulesets import paper as paper_forms
from cgledger.domain.rulesets.abtf import counted, definition, record, schedule
from cgledger.domain.rulesets.abtf import readings as abtf_readings
from cgledger.domain.rulesets.abtf import tables as abtf_tables
from cgledger.domain.rulesets.abtf.purchasing import RULES as ABTF_PURCHASES
from cgledger.domain.rulesets.base import (
    CampaignDef,
    Initiative,
    RePhStep,
    Ruleset,
    bind_steps,
    period_date_key,
    period_date_normalizer,
)
from cgledger.domain.rulesets.cpp import CppScheme

BRITISH = "British"
GERMAN = "German"

#: 9.6161 CPP BASE NUMBER CHART: for each CG Date, the British and German CPP
#: Base # (``None``: a "-" cell, nothing arrives and no DR is made) and the
#: Campaign Exhaustion DRM that 9.6181, 9.6201 and 9.6202 read. The seed
#: prints the dates without a space ("18AM"); they are written "18 AM" here.
CPP_BASE_CHART: MappingProxyType[str, tuple[int | None, int | None, int]] = MappingProxyType(
    {
        "17 N": (None, None, 0),
        "18 AM": (20, 15, 0),
        "18 PM": (25, 15, 0),
        "18 EVE": (15, 20, 1),
        "18 N": (5, 20, 1),
        "19 AM": (5, 25, 1),
        "19 PM": (0, 25, 1),
        "19 EVE": (0, 30, 2),
        "19 N": (0, 30, 2),
        "20 AM": (0, 25, 2),
        "20 PM": (0, 20, 2),
        "20 EVE": (0, 20, 3),
        "20 N": (0, 10, 3),
        "21 AM": (0, 10, 3),
        "21 PM": (0, 10, 3),
        "21 EVE": (0, 10, 4),
    }
)


def cpp_base(campaign: str, cg_date: str, side: str) -> int | None:
    """9.6161: the CPP Base # of ``side`` on ``cg_date`` (one chart for every CG)."""
    del campaign
    british, german, _ = CPP_BASE_CHART[cg_date]
    return british if side == BRITISH else german


def exhaustion_drm(cg_date: str, readings: Mapping[str, str] | None = None) -> int:
    """The 9.6161 chart's Campaign Exhaustion DRM on ``cg_date`` under the
    ``readings`` in force (the 9.6202 EX's 21 PM, ``readings.EXHAUSTION_21_PM``)."""
    return record.exhaustion_on(CPP_BASE_CHART, cg_date, readings or {})


COUNTED_DRMS = record.counted_drms(CPP_BASE_CHART) + counted.COUNTED_DRMS


def campaign_exhaustion(cg_date: str, readings: Mapping[str, str]) -> dict[str, Any]:
    """The Campaign Exhaustion DRM of ``cg_date``, shown on each Roster line
    (under the readings in force when it is read)."""
    return {"campaign_exhaustion_drm": exhaustion_drm(cg_date, readings)}


#: 9.616-9.617: ABtF's CPP roster, its rule numbers and differences:
#: 9.616 "the CPP Base # (9.6161) plus CG CPP Variable Arrival Points (9.6162)",
#: whose Secret DR is read off the 9.6162 table; 9.617 "CPP not spent are
#: divided by two (FRU) and recorded on the CG Roster in the 'Left' column";
#: no Recon step. 9.616 carries no '†', so it is NA before the Initial Scenario
#: (9.6, as KGP 8.6162 says outright).
CPP = CppScheme(
    replenish="9.616",
    replenish_table="9.6162",
    replenish_summary="9.616: the CPP Base # (9.6161) plus a Secret DR of the side (9.6162).",
    initial_na="9.6",
    purchase="9.617",
    halve_left=True,
    extras=campaign_exhaustion,
    purchases=ABTF_PURCHASES,
)

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

#: 9.6 RePh Sequence, as listed in the seed. Its key sentence is cut off after
#: "numbered/", so the markers are read from the list and the text: "+"
#: (9.601-.603) is read as "§", "†" (9.617-.621) is printed, and "*" (9.612-.620)
#: comes from 9.62132 note 2; see each step's ``reading``.
REPH_STEPS = (
    RePhStep(
        "9.601",
        "Conclusion of Melee",
        markers=("§",),
        reading="The list prints '+' on 9.601-.603 and its key is cut off; these are the three "
        "steps KGP 8.6 marks '§' (the steps reaching CG-Scenario End), so '+' is read as '§'.",
    ),
    RePhStep(
        "9.602",
        "Marker Removal",
        markers=("§",),
        reading="The list prints '+' on 9.601-.603 and its key is cut off; these are the three "
        "steps KGP 8.6 marks '§' (the steps reaching CG-Scenario End), so '+' is read as '§'.",
    ),
    RePhStep(
        "9.603",
        "Rally and Unloading",
        markers=("§",),
        reading="The list prints '+' on 9.601-.603 and its key is cut off; these are the three "
        "steps KGP 8.6 marks '§' (the steps reaching CG-Scenario End), so '+' is read as '§'.",
    ),
    RePhStep("9.604", "Encirclement, Minefields, Bog, and Shock"),
    RePhStep("9.605", "Setup Area Determination"),
    RePhStep("9.606", "Encircled-Marker Removal"),
    RePhStep("9.607", "Equipment Possession and Hidden Fortifications"),
    RePhStep("9.608", "Prisoners"),
    RePhStep("9.609", "Extinguishing Flames and Blazes"),
    RePhStep(
        "9.610",
        "Wounded Leaders and Walking Wounded MMC",
        reading="9.6101 is each side's (9.6102 Walking Wounded only the British player's), "
        "so the step is every side's.",
    ),
    RePhStep("9.611", "Recombining and Battle Hardening"),
    RePhStep(
        "9.612",
        "New CG Date and SAN Adjustment",
        markers=("*",),
        joint=True,
        reading="The list prints no '*'; 9.62132 note 2 (Idle CG Date: 'each side repeats "
        "RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.613",
        "Shift",
        markers=("*",),
        reading="The list prints no '*'; 9.62132 note 2 (Idle CG Date: 'each side repeats "
        "RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.614",
        "Equipment Repair and Replenishment",
        markers=("*",),
        reading="The list prints no '*'; 9.62132 note 2 (Idle CG Date: 'each side repeats "
        "RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.615",
        "OB-Given Reinforcements",
        markers=("*",),
        reading="The list prints no '*'; 9.62132 note 2 (Idle CG Date: 'each side repeats "
        "RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.616",
        "CPP Replenishment",
        markers=("*",),
        action="cpp-replenishments",
        reading="The list prints no '*'; 9.62132 note 2 (Idle CG Date: 'each side repeats "
        "RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.617",
        "Purchasing Reinforcement Groups",
        markers=("†", "*"),
        sealed=("RGPurchased",),
        reading="'†' as printed; the list prints no '*', 9.62132 note 2 (Idle CG Date: 'each "
        "side repeats RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.618",
        "RG Strength, Weapons, Leaders, and Composition",
        markers=("†", "*"),
        action="rg-determinations",
        sealed=("RGDetermined",),
        reading="'†' as printed; the list prints no '*', 9.62132 note 2 (Idle CG Date: 'each "
        "side repeats RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.619",
        "Purchasing Fortifications",
        markers=("†", "*"),
        sealed=("FortificationsPurchased",),
        reading="'†' as printed; the list prints no '*', 9.62132 note 2 (Idle CG Date: 'each "
        "side repeats RePh steps 9.612-.620') gives it to 9.612-.620.",
    ),
    RePhStep(
        "9.620",
        "Ammunition Shortage and ELR Loss/Gain",
        markers=("†", "*"),
        reading="'†' as printed and '*' from 9.62132 note 2; 9.6201 (British only, from 19 AM) "
        "is one sub-step but 9.6202 ELR Loss/Gain is both sides' on every date, so the step "
        "has every side and no from_date.",
    ),
    RePhStep(
        "9.621",
        "Scenario Commencement",
        markers=("†",),
        joint=True,
        sealed=("FortificationsPlaced",),
        reading="'†' as printed and no '*' (note 2 repeats only 9.612-.620); joint because "
        "it holds 9.6213 Initiative Determination, ABtF's equivalent of KGP 8.623.",
    ),
)

#: The periods of a CG Date, in their order within a day.
PERIODS = {"am": "AM", "pm": "PM", "eve": "EVE", "n": "N"}

RULESET = Ruleset(
    paper=paper_forms.ABTF,
    id="abtf",
    title="A Bridge Too Far",
    sides=(BRITISH, GERMAN),
    campaigns=CAMPAIGNS,
    reph_steps=REPH_STEPS,
    normalize_date=period_date_normalizer(PERIODS),
    date_key=period_date_key(PERIODS),
    counted_drms=COUNTED_DRMS,
    side_drms=counted.SIDE_DRMS,
    lasting=record.LASTING,
    table_rules=record.TABLE_RULES,
    readings=abtf_readings.READINGS,
    # 9.6152's SAN changes; its RG and FPP are ``ScheduledAbtfRules``'.
    scheduled=schedule.SCHEDULED,
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
        step="9.621",
        limit_rule="9.62131",
        # 9.62133a: "The German player makes a dr to determine which side sets up
        # first: if ≤ 3 the British does; otherwise the German does."
        dual_attack_table="abtf:9.6213a",
        dual_attack_roller=GERMAN,
        setup_first=(BRITISH, GERMAN),
        # 9.62133b "German Assault - ... The British player sets up first and the
        # German player moves first"; c "British Assault - ... The German player
        # sets up first and the British player moves first".
        setup_first_by_type=MappingProxyType(
            {"german-assault": BRITISH, "british-assault": GERMAN}
        ),
        # 9.62132 note 2 names no LVP ("each side repeats RePh steps
        # 9.612-.620"), so an Idle date calculates no totals (idle_lvp_rule None).
    ),
    rules=schedule.ScheduledAbtfRules("abtf", cpp_base, CPP),
    tables=bind_steps(abtf_tables.TABLES, REPH_STEPS),
)
