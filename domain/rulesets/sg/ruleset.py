"""The short "SG" US/German CG (seed ``004_…``).

The seed's "CG DATES: December 6 Morning/" line is cut off after the first
date, so the CG starts on ``6 Morning`` (scenario SG1, 1.2) and is extendable:
the players name each later CG Date ("6 Afternoon", "7 Morning", ...) when
they begin it. The CG scenario sequence is numbered 2.1-4.0.
"""

from __future__ import annotations

from types import MappingProxyType

from domain.rulesets.base import CampaignDef, RePhStep, Ruleset, period_date_normalizer
from domain.rulesets.sg import definition
from domain.rulesets.sg import tables as sg_tables

AMERICAN = "American"
GERMAN = "German"

CAMPAIGNS = MappingProxyType(
    {
        "SG": CampaignDef(
            name="SG",
            rule="1.2",
            calendar=("6 Morning",),
            initial_date="6 Morning",
            extendable=True,
            notes="Only '6 Morning' survives in the seed; later CG Dates are named when begun.",
        )
    }
)

REPH_STEPS = tuple(
    RePhStep(i, t)
    for i, t in (
        ("2.1", "Melee Resolution"),
        ("2.2", "Marker Removal"),
        ("2.3", "Rally"),
        ("2.4", "Motion"),
        ("2.5", "Encirclement"),
        ("2.6", "Bogged"),
        ("2.7", "Shock"),
        ("2.8", "Flames"),
        ("2.9", "Victory Determination"),
        ("3.1", "Wounded Leaders"),
        ("3.2", "Heroes"),
        ("3.3", "Repair Table"),
        ("3.4", "American Reinforcements"),
        ("3.5", "German Reinforcements"),
        ("3.6", "Leaders"),
        ("3.7", "U.S. Medium Tank Models"),
        ("3.8", "Entry"),
        ("3.9", "OBA"),
        ("4.0", "Next CG Scenario"),
    )
)

RULESET = Ruleset(
    id="sg",
    title="SG: a short US/German CG of VP-based Purchase Points",
    sides=(AMERICAN, GERMAN),
    campaigns=CAMPAIGNS,
    reph_steps=REPH_STEPS,
    normalize_date=period_date_normalizer(
        {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening", "night": "Night"}
    ),
    new_date_step="4.0",  # 4.0 Next CG Scenario
    sequence_rule="1.2",  # "complete each step before moving on to the next step"
    definition=definition.MODEL,
    sample_definition=definition.SAMPLE,
    tables=sg_tables.TABLES,
    notes="Purchase Points (2.92, 3.4) are not implemented for SG yet.",
)
