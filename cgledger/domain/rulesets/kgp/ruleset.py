"""Kampfgruppe Peiper (KGP) campaign games: RePh 8.601-8.625.

Seed text: ``shared/seeds/000_…`` (8.6-8.618), ``001_…`` (8.619-8.625) and
``002_…`` (CG and KGP SSR). 8.51-8.53 (the CG definitions) are not in the
seeds, so each CG's Initial Scenario date is read off the 8.6161 chart (see
``CALENDARS`` below).

READINGS OF GARBLED OCR (each is easy to correct here, and only here):

* 8.6161 CPP BASE # CHART. The OCR lost the column headers under each CG, and
  prints a merged shaded cell (one CG, both sides) as ``--``. Each row reads as
  ``CG I | CG II | CG III`` with two numbers per CG that is in play. We read the
  first number of each pair as U.S. and the second as German: the first column
  is the larger one in CG I and CG II, where the U.S. was pouring in
  reinforcements (8.6197), and DESIGN §1 lists the sides U.S. first.
* The CG III 23 AM and 23 PM cells read ``175-``. We read them as U.S. 175,
  German ``-``, i.e. no German CPP arrive on those dates (Peiper's KG was cut
  off). A ``-`` base means no replenishment and no DR. The U.S. 175 is far
  above its neighbours (20-40); another possible reading is a stray footnote
  digit before 75 (the OCR glues footnote numbers to words, e.g. "Chart21").
* The 8.6162 EX gives the German a Base # of 30 on 19 PM of CG I, while the
  chart's 19 PM row reads 35/35. The EX is illustrative; the chart is used.
* 8.616 gives no floor for Base # minus DR. The only Base # below 12 is the
  U.S. 10 of CG II 21 PM; there a DR of 11 or 12 would give -1 or -2. We record
  0 CPP Replenished instead (the ``floor`` of the kgp:8.616 table's amount, in
  ``kgp_tables``): "CPP Replenished" is an
  amount received, never a loss.
"""

from __future__ import annotations

from types import MappingProxyType

from cgledger.domain.rulesets.base import (
    CampaignDef,
    Initiative,
    RePhStep,
    Ruleset,
    bind_steps,
    period_date_normalizer,
)
from cgledger.domain.rulesets.kgp import definition, record
from cgledger.domain.rulesets.kgp import tables as kgp_tables
from cgledger.domain.rulesets.kgp.fanaticism import FanaticismRules

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

#: 8.6161 CPP BASE # CHART as (U.S., German) per CG and CG Date; see the module
#: docstring for how the garbled OCR was read. ``None`` is a "-" cell.
CPP_BASE: MappingProxyType[str, MappingProxyType[str, tuple[int, int | None]]] = MappingProxyType(
    {
        "CG I": MappingProxyType(
            {
                "19 PM": (35, 35),
                "19 N": (50, 25),
                "20 AM": (65, 20),
                "20 PM": (45, 20),
                "20 N": (50, 50),
                "21 AM": (60, 20),
                "21 PM": (75, 25),
            }
        ),
        "CG II": MappingProxyType(
            {
                "20 N": (40, 35),
                "21 AM": (65, 35),
                "21 PM": (10, 25),
            }
        ),
        "CG III": MappingProxyType(
            {
                "19 N": (20, 35),
                "20 AM": (50, 55),
                "20 PM": (90, 75),
                "20 N": (65, 40),
                "21 AM": (35, 50),
                "21 PM": (20, 25),
                "21 N": (20, 75),
                "22 AM": (40, 60),
                "22 PM": (20, 30),
                "22 N": (20, 30),
                "23 AM": (175, None),
                "23 PM": (175, None),
            }
        ),
    }
)

#: Initial Scenario date of each CG. 8.6162: "CPP Replenishment is NA prior to
#: each CG's Initial Scenario", so the chart's first date with a Base # is the
#: date after the Initial Scenario. CG I is confirmed by the 8.6162 EX
#: ("the 19 AM Initial scenario of CG I").
INITIAL_DATES = MappingProxyType({"CG I": "19 AM", "CG II": "20 PM", "CG III": "19 PM"})


def _calendar(cg: str) -> tuple[str, ...]:
    return (INITIAL_DATES[cg], *CPP_BASE[cg].keys())


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
#: "‡" (read on 8.624-.625; the seed's list prints none, see their ``reading``).
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
        "up by the 8.6233 scenario type, so '‡' is read here.",
    ),
    RePhStep(
        "8.625",
        "Scenario Commencement",
        markers=("‡",),
        reading="The seed's 8.6 list prints no '‡' though 8.6 defines it (steps done only if "
        "8.623 generates a non-Initial scenario); only 8.624-.625 follow 8.623 and 8.625 moves "
        "first by the 8.6233 scenario type, so '‡' is read here.",
    ),
)


def cpp_base(campaign: str, cg_date: str, side: str) -> int | None:
    """8.6161: the CPP Base # of ``side`` on ``cg_date`` (``None``: a "-" cell)."""
    us, german = CPP_BASE[campaign][cg_date]
    return us if side == US else german


RULESET = Ruleset(
    id="kgp",
    title="Kampfgruppe Peiper",
    sides=SIDES,
    campaigns=CAMPAIGNS,
    reph_steps=REPH_STEPS,
    normalize_date=period_date_normalizer(record.PERIODS),
    date_key=record.date_key,
    counted_drms=record.COUNTED_DRMS,
    lasting=record.LASTING,
    table_rules=record.TABLE_RULES,
    new_date_step="8.612",  # 8.6121 New CG Date
    sequence_rule="8.6",
    definition=definition.MODEL,
    sample_definition=definition.SAMPLE,
    # KGP's rules with SSR CG14's German Fanaticism (``kgp.fanaticism``).
    rules=FanaticismRules("kgp", cpp_base),
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
    ),
)
