"""ABtF DRMs the ledger computes from the record (DESIGN §8, issue 26 item 3),
beyond the chart, chit and weather counts of ``record.counted_drms``: the CG
Date's light, the rolling side, the previous CG Date, the last scenario's
CVP and the British Ammunition Shortage Level where the ledger knows it."""

from __future__ import annotations

from cgledger.domain.rulesets.abtf import readings as abtf_readings
from cgledger.domain.rulesets.base import CountedDrm, SideDrm
from cgledger.domain.rulesets.counting import (
    after_a_scenario,
    completed_period,
    cvp_last_scenario,
    lasting_value,
    previous_date_idle,
    side_drm,
)

BRITISH = "British"
GERMAN = "German"

#: 9.6054 "just completed CG Date was Night (N)" (EVE is not Night).
NIGHT = completed_period("N")
#: 9.6201's "Shortage increases one Level": the Level the British is under.
SHORTAGE_LEVEL = lasting_value("ammunition_shortage_level")

COUNTED_DRMS = (
    # 9.6054 Escape Table: "-1 just completed CG Date was Night (N)".
    CountedDrm("abtf:9.6054-infantry", "night", "9.6054", NIGHT),
    CountedDrm("abtf:9.6054-vehicle", "night", "9.6054", NIGHT),
    # 9.6101 Wounded Leader Table: "-1 British".
    CountedDrm("abtf:9.6101", "british", "9.6101", side_drm, (BRITISH,), dated=True),
    # 9.613 Shift Table: "-1 Previous CG Date was Idle (British only)", "-2 British".
    CountedDrm("abtf:9.613", "idle", "9.613", previous_date_idle, (BRITISH,)),
    CountedDrm("abtf:9.613", "british", "9.613", side_drm, (BRITISH,), dated=True),
    # 9.6144 Special Ammo Restoration Table: "+x current level of Ammunition
    # Shortage (SSR CG 17) (British Only)", "-1 German".
    CountedDrm(
        "abtf:9.6144", "ammo-shortage", "9.6144", SHORTAGE_LEVEL, (BRITISH,), by_side=True
    ),
    CountedDrm("abtf:9.6144", "german", "9.6144", side_drm, (GERMAN,), dated=True),
    # 9.6181 RG Strength Table: "-2 British" (its determination roll applies it
    # from the RG's record too).
    CountedDrm("abtf:9.6181", "british", "9.6181", side_drm, (BRITISH,), dated=True),
    # 9.6202: "-1 Per 30 CVP (FRD) of enemy units Eliminated during the last CG
    # Scenario (including CVP awarded thus far during this RePh)": the ledger
    # counts the scenario's CVP; the roller may add the RePh's, which it does
    # not record. Before any CG Scenario (9.620 is '†') it is 0. "+z British
    # Ammunition Shortage Level DRM (British Only)".
    CountedDrm(
        "abtf:9.6202", "cvp", "9.6202", cvp_last_scenario, by_side=True,
        at_least=after_a_scenario,
        reading=(
            "9.6202's CVP counts the CVP the side earned at the last CG-Scenario End; the CVP "
            "awarded during the RePh (9.6141, 9.6142) are not recorded, so a roller may state a "
            "larger count, never a smaller one."
        ),
    ),
    CountedDrm(
        "abtf:9.6202", "ammo-shortage", "9.6202", SHORTAGE_LEVEL, (BRITISH,), by_side=True
    ),
)  # fmt: skip

#: DRMs the roller states that only the German's rolls may have (issue 26 item
#: 3), under the reading 'armor-leader-drms' "german": 9.6183's LEADER TABLE
#: DRM lists Med Tank, Hvy Tank, SPG, Lt Tank (and, read as German, "+2 VG,
#: AC") under GERMAN, none under BRITISH, and the (Armor) column is both sides'.
SIDE_DRMS = tuple(
    SideDrm(
        "abtf:9.6183-armor", drm, "9.6183", (GERMAN,),
        reading=(abtf_readings.ARMOR_LEADER_DRMS.id, "german"),
    )
    for drm in ("med-tank", "hvy-tank", "spg", "lt-tank", "ac")
)  # fmt: skip
