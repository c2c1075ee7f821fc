"""Kampfgruppe Peiper (KGP) campaign games: RePh 8.601-8.625.

Seed text: ``shared/seeds/000_…`` (8.6-8.618), ``001_…`` (8.619-8.625) and
``002_…`` (CG and KGP SSR). 8.51-8.53 (the CG definitions) are not in the
seeds, so each CG's Initial Scenario date is read off the 8.6161 chart (see
``CALENDARS`` below).

The 8.6161 CPP BASE # CHART and how its garbled OCR is read (which number of
a pair is the U.S. one, CG III's "175-", the 8.6162 EX's 30) are in
``cpp_base``: three readings the players agree (``kgp.readings``, DESIGN §14).
"""

from __future__ import annotations

from types import MappingProxyType

from cgledger.domain.rulesets import paper as paper_forms
from cgledger.domain.rulesets.base import (
    CampaignDef,
    Initiative,
    RePhStep,
    Ruleset,
    bind_steps,
    period_date_normalizer,
)
from cgledger.domain.rulesets.kgp import counted, definition, record
from cgledger.domain.rulesets.kgp import readings as kgp_readings
from cgledger.domain.rulesets.kgp import tables as kgp_tables
from cgledger.domain.rulesets.kgp.cpp_base import CHART, cpp_base
from cgledger.domain.rulesets.kgp.elr import ElrRules

US = "US"
GERMAN = "German"
SIDES = (US, GERMAN)

#: 8.617 KGP Historical Weather Chart: every KGP CG Date, Dec 19 AM to Dec 23 PM.
HISTORICAL_DATES: tuple[str, ...] = (
    "19 AM", "19 PM", "19 N",
    "20 AM", "20 PM", "20 N",
    "21 AM", "21 PM", "21 N",
    "22 AM", "22 PM", "22 N",
    "23 AM", "23 PM",
)  # fmt: skip


#: Initial Scenario date of each CG. 8.6162: "CPP Replenishment is NA prior to
#: each CG's Initial Scenario", so the chart's first date with a Base # is the
#: date after the Initial Scenario. CG I is confirmed by the 8.6162 EX
#: ("the 19 AM Initial scenario of CG I").
INITIAL_DATES = MappingProxyType({"CG I": "19 AM", "CG II": "20 PM", "CG III": "19 PM"})


def _calendar(cg: str) -> tuple[str, ...]:
    return (INITIAL_DATES[cg], *CHART[cg].keys())


CAMPAIGNS = MappingProxyType(
    {
        cg: CampaignDef(
            name=cg,
            rule=rule,
            calendar=_calendar(cg),
            initial_date=INITIAL_DATES[cg],
            notes="CG Dates from the 8.6161 CPP Base # and 8.617 Historical Weather charts.",
        )
        for cg, rule in (("CG I", "8.51"), ("CG II", "8.52"), ("CG III", "8.53"))
    }
)

#: 8.6 RePh Sequence, as listed in the seed, with its markers: "§" (8.601-.603
#: reach CG-Scenario End), "†" (8.618-.621, the only steps before a CG Initial
#: Scenario), "*" (8.612-.623, repeated until 8.623 generates a scenario) and
#: "‡" (the seed's list prints none: read on 8.624-.625, see their ``reading``).
REPH_STEPS = (
    RePhStep("8.601", "Conclusion of Melee", markers=("§",)),
    RePhStep("8.602", "Marker Removal", markers=("§",)),
    RePhStep("8.603", "Rally, Unloading, Victory Determination, & CG-LVP Totals", markers=("§",)),
    RePhStep("8.604", "Encirclement, Minefields, Bog & Shock"),
    RePhStep("8.605", "Setup Area Determination"),
    RePhStep("8.606", "Escape"),
    RePhStep("8.607", "Equipment Possession & Hidden Fortifications"),
    RePhStep("8.608", "Prisoners"),
    RePhStep("8.609", "Extinguishing Flames & Blazes"),
    RePhStep("8.610", "Wounded Leaders"),
    RePhStep("8.611", "Battle Hardening & Promotion"),
    RePhStep("8.612", "New CG Date & SAN Adjustment", markers=("*",), joint=True),
    RePhStep("8.613", "Shift", markers=("*",)),
    RePhStep("8.614", "Equipment Repair & Replenishment", markers=("*",)),
    RePhStep("8.615", "Fortification & Wreck Removal", markers=("*",)),
    RePhStep("8.616", "CPP Replenishment", markers=("*",), action="cpp-replenishments"),
    RePhStep(
        "8.617",
        "KGP Weather",
        markers=("*",),
        reading="8.617 has each side record the Historical Weather Chart's weather on its "
        "CG Roster, so every side takes it (only the optional 8.6171 Random Weather DR is "
        "the U.S. player's).",
    ),
    RePhStep(
        "8.618",
        "German Ammunition Shortage",
        markers=("†", "*"),
        sides=(GERMAN,),
        from_date="20 AM",
        action="ammunition-shortage",
        reading="'Beginning on Dec 20 AM ... the German makes a DR': from 20 AM, German only, "
        "so its '†' matters only before CG II's 20 PM Initial Scenario.",
    ),
    # 8.619 "secretly allot CPP", 8.6201-8.6206 Secret DR, 8.621, 8.6242: sealed (DESIGN §4).
    RePhStep(
        "8.619", "Purchasing Reinforcement Groups", markers=("†", "*"), sealed=("RGPurchased",)
    ),
    RePhStep(
        "8.620",
        "RG Strength, Quality, Weapons & Leaders",
        markers=("†", "*"),
        action="rg-determinations",
        sealed=("RGDetermined",),
    ),
    RePhStep(
        "8.621",
        "Purchasing Fortifications",
        markers=("†", "*"),
        sealed=("FortificationsPurchased",),
    ),
    RePhStep("8.622", "Purchasing Reconnaissance", markers=("*",)),
    RePhStep("8.623", "Initiative Determination", markers=("*",), joint=True),
    RePhStep(
        "8.624",
        "Unit Setup",
        markers=("‡",),
        sealed=("FortificationsPlaced",),
        reading="The seed's 8.6 list prints no '‡' though 8.6 defines it (steps done only if "
        "8.623 generates a non-Initial scenario); only 8.624-.625 follow 8.623 and 8.6241 sets "
        "up by the 8.6233 scenario type, so '‡' is read here. The lost '‡' needs no choice: "
        "8.6232 note 2 ends an Idle date's sequence at the Initiative (back to 8.6121 New CG "
        "Date), so 8.624 is never reached on one.",
    ),
    RePhStep(
        "8.625",
        "Scenario Commencement",
        markers=("‡",),
        reading="The seed's 8.6 list prints no '‡' though 8.6 defines it (steps done only if "
        "8.623 generates a non-Initial scenario); only 8.624-.625 follow 8.623 and 8.625 moves "
        "first by the 8.6233 scenario type, so '‡' is read here. The lost '‡' needs no choice: "
        "8.6232 note 2 ends an Idle date's sequence at the Initiative (back to 8.6121 New CG "
        "Date), so 8.625 is never reached on one.",
    ),
)


RULESET = Ruleset(
    paper=paper_forms.KGP,
    id="kgp",
    title="Kampfgruppe Peiper",
    sides=SIDES,
    campaigns=CAMPAIGNS,
    reph_steps=REPH_STEPS,
    normalize_date=period_date_normalizer(record.PERIODS),
    date_key=record.date_key,
    counted_drms=record.COUNTED_DRMS + counted.COUNTED_DRMS,
    side_drms=counted.SIDE_DRMS,
    lasting=record.LASTING,
    table_rules=record.TABLE_RULES,
    readings=kgp_readings.READINGS,
    new_date_step="8.612",  # 8.6121 New CG Date
    sequence_rule="8.6",
    definition=definition.MODEL,
    sample_definition=definition.SAMPLE,
    # KGP's rules with SSR CG14's German Fanaticism (``kgp.fanaticism``) and
    # SSR CG4's ELR and Massacre (``kgp.elr``).
    rules=ElrRules("kgp", cpp_base),
    tables=bind_steps(kgp_tables.TABLES, REPH_STEPS),
    scenario_types=("dual-attack", "german-assault", "us-assault", "idle"),  # 8.6233
    # 8.6232's matrix: its rows are the German chit (its "*" note is about the
    # German Attack Chit), its columns the U.S. chit; keyed here (U.S., German).
    initiative=Initiative(
        "8.6232",
        MappingProxyType(
            {
                ("attack", "attack"): "dual-attack",
                ("idle", "attack"): "german-assault",
                ("attack", "idle"): "us-assault",
                ("idle", "idle"): "idle",
            }
        ),
        step="8.623",
        limit_rule="8.6231",
        # 8.6233a: "The U.S. player makes a dr to determine which side sets up
        # first: if ≤ 3 the U.S. does; otherwise the German does."
        dual_attack_table="kgp:8.6233a",
        dual_attack_roller=US,
        setup_first=(US, GERMAN),
        # 8.6233c "GERMAN ASSAULT: ... The U.S. sets up first, and the German
        # moves first"; d "U.S. ASSAULT: ... The German sets up first".
        setup_first_by_type=MappingProxyType({"german-assault": US, "us-assault": GERMAN}),
        # 8.6232 note 2: "No scenario generated for this CG Date; each side
        # calculates its Current-LVP and CG-LVP Totals and records them".
        idle_lvp_rule="8.6232",
    ),
)
