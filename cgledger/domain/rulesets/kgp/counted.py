"""KGP DRMs the ledger computes from the record (DESIGN §8, issue 26 item 3),
beyond the CG Date counts and weather of ``record.COUNTED_DRMS``: the CG
Date's light, the rolling side, its scenario's result and CVP, and the German
Ammunition Shortage in effect (8.618)."""

from __future__ import annotations

from cgledger.domain.rulesets.base import CountedDrm, Facts, SideDrm
from cgledger.domain.rulesets.counting import (
    cvp_this_date,
    period,
    side_drm,
    won_this_date,
)

US = "US"
GERMAN = "German"

NIGHT = period("N")


def shortage_in_effect(facts: Facts) -> int:
    """Whether 8.618's German Ammunition Shortage is in effect: a German DR of
    ≥ 12 on record, "for the duration of the CG" (``KgpRules``' ``shortage``)."""
    return 1 if facts.rules.get("shortage", {}).get("since") is not None else 0


def suffering_shortage(facts: Facts) -> int | None:
    """8.6142 "+1 If German and suffering from Ammunition Shortage": 1 while
    8.618's shortage is in effect (the whole German OB suffers it); else not
    counted (``None``): a German Weapon also suffers Ammunition Shortage by
    Isolation (8.6241; 8.6141d), which the ledger does not track, so the
    roller states it for such a weapon. (8.61421 and 8.6146 name 8.618 itself.)"""
    return 1 if shortage_in_effect(facts) else None


CASUALTY_VP_READING = (
    "8.6113 'Per 25 Casualty VP amassed by friendly side on the current CG Date [EXC: see "
    "8.6032]' is the CVP the side earned at the date's CG-Scenario End: 8.6032 counts no "
    "Elimination in the RePh after it, and the prisoners its EXC names count as A26.21 counts "
    "them at scenario end."
)

COUNTED_DRMS = (
    # 8.606 Escape Table: "-1 If current CG Date is Night" (the RePh's CG Date
    # is the scenario's until 8.6121 begins a new one).
    CountedDrm("kgp:8.606-infantry", "night", "8.606", NIGHT, dated=True),
    CountedDrm("kgp:8.606-vehicle", "night", "8.606", NIGHT, dated=True),
    # 8.610 Wounded Leader Table: "-1 If German".
    CountedDrm("kgp:8.610", "german", "8.610", side_drm, (GERMAN,), dated=True),
    # 8.6113: "-2 Friendly side won this CG Date's scenario", "-1 Per 25
    # Casualty VP amassed by friendly side on the current CG Date".
    CountedDrm("kgp:8.6113", "won", "8.6113", won_this_date, by_side=True),
    CountedDrm(
        "kgp:8.6113", "casualty-vp", "8.6113", cvp_this_date, by_side=True,
        reading=CASUALTY_VP_READING,
    ),
    # 8.6114: "-2 Friendly side won this CG Date's scenario (the player may,
    # after the DR, choose to ignore this DRM or apply only a -1 DRM)": applied,
    # the outcome lists the result under each choice (``after_roll``).
    CountedDrm("kgp:8.6114", "won", "8.6114", won_this_date, by_side=True),
    # 8.6141b Immobilization Removal Table: "+1 If German".
    CountedDrm("kgp:8.6141b", "german", "8.6141b", side_drm, (GERMAN,), dated=True),
    # 8.6142 Weapon Repair Table: "-1 If U.S.", "+1 If German and suffering
    # from Ammunition Shortage" (8.618: "the German OB suffers from Ammunition
    # Shortage ... for the duration of the CG"; else Isolation's, 8.6241: the
    # roller's).
    CountedDrm("kgp:8.6142", "us", "8.6142", side_drm, (US,), dated=True),
    CountedDrm(
        "kgp:8.6142", "german-ammunition-shortage", "8.6142", suffering_shortage, (GERMAN,)
    ),
    # 8.61421: "Each dr made for a German SW receives a +1 drm, and an
    # additional +1 drm if Ammunition Shortage (8.618) is already in effect"
    # (each player rolls for the SW "of his nationality").
    CountedDrm("kgp:8.61421", "german", "8.61421", side_drm, (GERMAN,), dated=True),
    CountedDrm(
        "kgp:8.61421", "ammunition-shortage", "8.61421", shortage_in_effect, (GERMAN,)
    ),
    # CG23: "+1 Each CG Night scenario Game End dr".
    CountedDrm("kgp:CG23", "night", "CG23", NIGHT, dated=True),
    # SSR KGP3 Mist Change DR: "-1 In each 'PM' scenario".
    CountedDrm("kgp:KGP3-mist-change", "pm", "KGP3", period("PM"), dated=True),
)  # fmt: skip

#: DRMs the roller states that only some sides' rolls may have (issue 26 item
#: 3): 8.6206 "+1 If the RG is Depleted (NA to U.S.)" on the Armor Leader
#: column, which both sides roll (the determination roll applies it from the
#: RG's record; a plain roll states it).
SIDE_DRMS = (SideDrm("kgp:8.6206-armor", "depleted", "8.6206", (GERMAN,)),)
