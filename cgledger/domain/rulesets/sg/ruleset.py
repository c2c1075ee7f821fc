"""The short "SG" US/German CG (seed ``004_…``).

The seed's "CG DATES: December 6 Morning/" line is cut off after the first
date, so the CG starts on ``6 Morning`` (scenario SG1, 1.2) and is extendable:
the players name each later CG Date ("6 Afternoon", "7 Morning", ...) when
they begin it. The CG scenario sequence is numbered 2.1-4.0.
"""

from __future__ import annotations

from types import MappingProxyType

from cgledger.domain.rulesets import paper as paper_forms
from cgledger.domain.rulesets.base import (
    CampaignDef,
    RePhStep,
    Ruleset,
    bind_steps,
    period_date_key,
    period_date_normalizer,
)
from cgledger.domain.rulesets.sg import definition
from cgledger.domain.rulesets.sg import readings as sg_readings
from cgledger.domain.rulesets.sg import tables as sg_tables
from cgledger.domain.rulesets.sg.rules import SgRules

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

#: 1.2's sequence (2.1-4.0). The seed prints no step markers, and 1.2 gives one
#: order for both players, American first ("Both players (if applicable),
#: American first, complete each step before moving on to the next step").
REPH_STEPS = (
    RePhStep("2.1", "Melee Resolution"),
    RePhStep("2.2", "Marker Removal"),
    RePhStep("2.3", "Rally"),
    RePhStep("2.4", "Motion"),
    RePhStep("2.5", "Encirclement"),
    RePhStep("2.6", "Bogged"),
    RePhStep("2.7", "Shock"),
    RePhStep("2.8", "Flames"),
    RePhStep("2.9", "Victory Determination", sides=(AMERICAN,)),
    RePhStep("3.1", "Wounded Leaders"),
    RePhStep("3.2", "Heroes"),
    RePhStep("3.3", "Repair Table"),
    # 3.4 "secretly spends", 3.6 "secret DR", 3.7 "secret DR": sealed (DESIGN §4).
    RePhStep(
        "3.4",
        "American Reinforcements",
        sides=(AMERICAN,),
        action="rg-determinations",
        sealed=("RGPurchased", "RGDetermined"),
    ),
    RePhStep("3.5", "German Reinforcements", sides=(GERMAN,)),
    RePhStep("3.6", "Leaders", action="rg-determinations", sealed=("RGDetermined",)),
    RePhStep(
        "3.7",
        "U.S. Medium Tank Models",
        sides=(AMERICAN,),
        action="rg-determinations",
        sealed=("RGDetermined",),
        reading="3.7 names no player, but its M4 Armor Reinforcement Groups are the American's "
        "(3.4), so the American makes the secret DR.",
    ),
    RePhStep("3.8", "Entry"),
    RePhStep("3.9", "OBA"),
    RePhStep(
        "4.0",
        "Next CG Scenario",
        joint=True,
        reading="'Players now begin the next CG scenario': both players begin it together, and "
        "it is the step that begins the next CG Date (as KGP 8.612), so it is joint.",
    ),
)

#: The periods of a CG Date, in their order within a day.
PERIODS = {"morning": "Morning", "afternoon": "Afternoon", "evening": "Evening", "night": "Night"}

RULESET = Ruleset(
    paper=paper_forms.SG,
    id="sg",
    title="SG: a short US/German CG of VP-based Purchase Points",
    sides=(AMERICAN, GERMAN),
    campaigns=CAMPAIGNS,
    reph_steps=REPH_STEPS,
    normalize_date=period_date_normalizer(PERIODS),
    date_key=period_date_key(PERIODS),
    new_date_step="4.0",  # 4.0 Next CG Scenario
    lockstep=(AMERICAN, GERMAN),  # 1.2: "American first, complete each step"
    sequence_rule="1.2",  # "complete each step before moving on to the next step"
    definition=definition.MODEL,
    sample_definition=definition.SAMPLE,
    readings=sg_readings.READINGS,
    tables=bind_steps(sg_tables.TABLES, REPH_STEPS),
    rules=SgRules(),
    notes="Purchase Points (2.91-2.92) are recorded at each CG-Scenario End and spent on the "
    "American Reinforcement Table of the CG definition (3.4); 3.5's German Reinforcement drs "
    "are not built (their table is not in the seed).",
)
