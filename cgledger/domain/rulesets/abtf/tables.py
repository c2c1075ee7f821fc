"""Die tables of the A Bridge Too Far (ABtF) RePh, 9.601-9.62164 (seed ``003_…``), as data.

Each constant cites its rule; results are in the table's own words, footnote
markers stripped from results and footnote texts in the band ``notes`` with
their marker. "…" marks text the OCR cut off (it cuts most lines at a "/").

Readings of garbled or cut-off OCR and other interpretations (also in each
table's ``notes``):

* 9.6054 ESCAPE TABLE: the two columns are run together. The first row reads
  "≤ Escapes1 Escapes": its number is lost and is read "≤ 8" (the next row is
  9). The rows are read ≤ 8 / 9 / 10 / 11 / ≥ 12 with Infantry "Escapes" /
  "Escapes, Replaced" / "Escapes, Casualty Reduced" / "Escapes, Replaced, then
  Casualty Reduced" / "All units/Equipment Eliminated" and Mobile Vehicle
  "Escapes" / "Abandoned; crew (if any) Escapes" / "Eliminated; crew (if any)
  Escapes" / "Abandoned; crew (if any) Eliminated" / "Eliminated; crew (if
  any) Eliminated" (each "Escapes"/"Eliminated" that begins the next OCR line
  ends the vehicle cell before it). "All units/" is cut at its slash; read
  "All units/Equipment Eliminated" ("Eliminated" survives on the next line).
  Footnote 1 is cut after "Berserk/"; the "2" glued to it starts footnote 2
  ("A crew, or unit which would otherwise become Disrupted, is Eliminated
  instead."), which by content belongs to "Replaced". Footnote 5 is cut after
  "Scrounge the vehicle/".
* 9.6054 DRMs: † DRMs are NA to vehicle Escape. Of the unmarked ones, "lone
  unwounded SMC" can only be Infantry and "Vehicle other than a CT AFV" / "CT
  AFV" / "captured vehicle" only vehicles, so each is on the one table it can
  apply to; "unarmed†, wounded†, Walking Wounded†, captured vehicle (each
  occurrence)" is split: the three † parts are one per-occurrence DRM on the
  Infantry table, "captured vehicle" a fixed +1 on the vehicle table. "+x
  (Armor)Leader/" is cut at its slash; x is read as the (Armor) Leader's DRM
  (negative for a good leader, e.g. -2 for a 9-2). The Uncontrolled-Territory
  DRM is cut at its slash and continues "to reach a Friendly Setup Area (FRU)":
  +1 per two hexes, FRU.
* 9.6054 Original 2 (footnote 1, Escape and Heat of Battle) is read as
  applying whatever the Final DR, so an Original 2 Escapes even when DRMs
  would carry it past 8.
* 9.61221/9.61222: the OCR prints "~" for both comparison signs. Read "≥"
  each time: the dr is only made for a SAN ≥ 4 (≥ 5) because its +drm is the
  SAN minus four (five), which is never negative, and a higher SAN must make
  the reduction more likely, so the Final dr that reduces the SAN is "≥ 4".
  The ≤ 3 result (no reduction) is not worded in the rule.
* 9.613 SHIFT TABLE: the ≥ 12 cell "Failed attempt, all units/" is cut at its
  slash; read "Failed attempt, all units/Equipment Eliminated" (footnote 3
  speaks of eliminated vehicles). Footnote 1 begins "Unit/ Unit(s)"; the cut
  fragment "Unit/" is dropped. The Uncontrolled Territory DRM is cut after
  "between the current Setup/"; its rounding is lost and is read FRU, like the
  same DRM of 9.6054. 9.613 is cut before it says how the DR is made; it is
  Secret by default, as the parallel KGP 8.613 says ("Make a separate Secret
  DR"). The subsequent drs of footnote 2 are the tables
  ``abtf:9.613-casualty-personnel`` and ``abtf:9.613-casualty-vehicle``; their
  ≤ 3 result (no effect) is not worded in the rule.
* 9.6141b: the drm "Vehicle is in a Front Line Location/" is cut at its slash.
  "+x Armor Leader": x is the Armor Leader's DRM (negative for a good leader).
* 9.6142: the EX (a Panther MA repairs on an Original dr ≤ 3; with a 9-2 Armor
  Leader on any Original dr but 6) fixes the Weapon Repair Number x of a
  vehicle's MA at 1 and the 9-2's Leadership Rating y at 2.
* 9.6181: "-24 British" and "+15 German VG Pltn" are -2 and +1 with the
  footnote digits 4 and 5 glued on (the same glue as "SAN +24" / "SAN -15" in
  9.6152). The text of those two footnotes is not in the seed.
* 9.6182 "Infantry-Type SW Charts": the OCR drops the empty cells, so each
  row's entries stand in the leftmost columns. Read that way for British I1,
  I2 (LMG 1(5), PIAT 1(3)) and I3 (LMG 1(5), PIAT 1(3), and the third 1(3)
  read as the Lt. Mtr, so that every column, the footnoted Lt. Mtr included,
  holds an entry) and for
  German I1 (LMG 1(3), PSK/Lt. Mtr *(2)) and I3 (LMG 1(1)), which the 9.6182
  EX confirms for German I1 and I3 (the VG Pltn receives one LMG). British I4
  "1(5) 1(2) 2(3)" and German I2 "1(2) 2(3)" end in the same pair; read as FT
  1(2) and DC 2(3) in both (the Engineer pattern: both sides list Engineer
  RG, and a "2(3)" in the German "PSK/Lt. Mtr" column would not say which of
  the two it is), so British I4 is LMG 1(5), FT 1(2), DC 2(3) and German I2 FT
  1(2), DC 2(3). These three rows are the least certain reading here. The
  German "PSK/" header is cut at its slash and read "PSK/Lt. Mtr" (the "*"
  entry gives one or the other). The "*(2)" cell gives the threshold 2 to
  whichever of PSK or Lt. Mtr the "*" dr gave (the EX: "the PSK will be
  received if its dr is ≤ 2"). A count above 1 (e.g. "2(3)") means a separate
  dr for each SW.
* 9.6183 LEADER TABLE: the first row reads "< 2", i.e. a Final DR of 1 or
  less, written ≤ 1. The DRM block's last row "+2 VG, AC" stands in the
  British pair of columns but names German types (the British pair has no +2
  entry); read as German. Each column gets the DRMs of the RG it serves:
  British: Commando, Engineer, Glider; German: SS PG, SS Recon, Engineer, VG;
  (Armor): Med Tank, Hvy Tank, SPG, Lt Tank, AC. Rows with the same leader
  are merged; the empty (Armor) cells of rows ≥ 6 are "No Armor Leader".
  9.6183 is cut off before it says how the DR is made; it is Secret by default,
  read from its neighbours (9.6181 and 9.6182 roll secretly for the same RG)
  and from the parallel KGP 8.6206 ("make one Secret DR").
* 9.6184: each cell's vehicle names and their "xN" counts are printed in two
  columns; they are paired in order ("SPW 250/9 SdKfz 10/4 | x2 x1" is "SPW
  250/9 x2; SdKfz 10/4 x1").
* 9.6202: the title "ELR LOSS/" is cut at its slash; read "ELR Loss/Gain"
  (9.620, 9.12).

Not here, because the seed gives no results (cut off) or no die roll: the
9.6054 Equipment dr (cut after "each SW/"), 9.60541 Escape Results (no table),
9.6141a Abandoned and 9.6143 Captured Equipment (each cut off before its
threshold), the 9.6041/9.6042 ITC/NTC (ordinary Morale Checks), 9.6102
Walking Wounded MMC (SSR CG 19 is not in the seed); the 9.6152 Reinforcement
Schedule, 9.6161 CPP Base Number Chart, 9.619 Fortification Purchase Table
and 9.62132 Initiative Matrix are charts, not die tables.

Every first band is open below and every last band open above, even where no
listed DRM reaches past 2/12 or 1/6, so an "other" DRM still lands in a band.
"""

from __future__ import annotations

from cgledger.domain.rulesets.abtf.sw_chart import SW_PLACED
from cgledger.domain.tables import (
    Amount,
    Band,
    DrmDef,
    InputDef,
    Lookup,
    Ref,
    Special,
    Table,
    eq,
    fixed,
    from_input,
    ge,
    le,
    per,
    registry,
    span,
    valued,
)

# ---------------------------------------------------------------- 9.6054 Escape

_UT_HEXES = per(
    "uncontrolled-hexes",
    1,
    "per multiple of two Uncontrolled-Territory/… to reach a Friendly Setup Area (FRU)",
    counts="Uncontrolled-Territory hexes the Escape path crosses to reach a Friendly Setup Area",
    divisor=2,
    rounding="FRU",
)
_NIGHT = fixed("night", -1, "just completed CG Date was Night (N)")
_ESCAPE_LEADER = valued(
    "leader",
    "(Armor)Leader/…",
    means="x is the leader's or hero's DRM as printed on the counter, e.g. -2 for a 9-2",
)
_ESCAPE_NOTES = (
    "The OCR runs the two columns together; rows read ≤ 8 / 9 / 10 / 11 / ≥ 12. The first "
    "row's number is lost ('≤ Escapes1 Escapes') and is read ≤ 8, the next row being 9.",
    "'+x (Armor)Leader/' is cut at its slash; x is the (Armor) Leader's DRM (e.g. -2 for a 9-2).",
    "The Uncontrolled-Territory DRM is cut at its slash and continues 'to reach a "
    "Friendly Setup Area (FRU)': +1 per two hexes, FRU.",
)
_ESCAPE_FN1 = (
    "An Original 2 DR results in Escape and Heat of Battle for an eligible unit (A15): use "
    "Random Selection to determine the unit(s) affected in a stack [EXC: any result other "
    "than Hero-Creation or Battle-Hardening (i.e., Berserk/…"
)
_ESCAPE_FN2 = "2 A crew, or unit which would otherwise become Disrupted, is Eliminated instead."
_ESCAPE_FN3 = "3 Use Random Selection for a stack."
_ESCAPE_FN4 = "4 The surviving crew may turn the vehicle into a (Burnt-out) wreck."
_ESCAPE_FN5 = (
    "5 In its current hex and VCA; the surviving crew may attempt to Scrounge the vehicle/…"
)
_ESCAPE_FN6 = "6 The surviving crew may attempt to Scrounge the vehicle prior to its Elimination."

# 9.6054 ESCAPE TABLE, Infantry column
# Reading: "All units/" (≥ 12) is cut at its slash: "All units/Equipment Eliminated".
ESCAPE_INFANTRY = Table(
    id="abtf:9.6054-infantry",
    rule="9.6054",
    title="Escape Table: Infantry",
    dice=2,
    bands=(
        le(8, "Escapes", "1 " + _ESCAPE_FN1),
        eq(9, "Escapes, Replaced", _ESCAPE_FN2, _ESCAPE_FN3),
        eq(10, "Escapes, Casualty Reduced", _ESCAPE_FN3),
        eq(11, "Escapes, Replaced, then Casualty Reduced", _ESCAPE_FN2, _ESCAPE_FN3),
        ge(12, "All units/Equipment Eliminated"),
    ),
    drms=(
        fixed("lone-smc", -1, "lone unwounded SMC"),
        _NIGHT,
        _ESCAPE_LEADER,
        _UT_HEXES,
        per(
            "hs-equivalent",
            1,
            "per HS-equivalent > 1 HS escaping with the same DR",
            counts="HS-equivalents escaping with the same DR",
            excess_over=1,
        ),
        per(
            "excess-pp",
            1,
            "per PP > IPC carried (the unit carrying the most excess PP determines DRM for a "
            "stack; a Leader may combine with an MMC to increase that MMC's IPC provided the "
            "Leader and the MMC escape using the same DR)",
            counts="PP carried in excess of IPC by the unit carrying the most excess PP",
        ),
        per(
            "unarmed-wounded",
            1,
            "unarmed, wounded, Walking Wounded (each occurrence)",
            counts="occurrences of an unarmed, wounded or Walking Wounded unit",
        ),
        fixed("encircled", 2, "Encircled"),
    ),
    # 9.6054 footnote 1: "An Original 2 DR results in Escape and Heat of Battle".
    specials=(Special(original=2, text=_ESCAPE_FN1, result="Escapes; Heat of Battle"),),
    notes=(
        *_ESCAPE_NOTES,
        "The ≥ 12 cell 'All units/' is cut at its slash; read 'All units/Equipment "
        "Eliminated' ('Eliminated' survives on the next OCR line).",
        "Footnote 1 is cut after 'Berserk/'; the '2' glued to it begins footnote 2, which "
        "belongs to 'Replaced'.",
        "An Original 2 (footnote 1) Escapes whatever the Final DR.",
        "'lone unwounded SMC' can only apply to Infantry; the vehicle and captured-vehicle "
        "DRMs are on the vehicle table. The † DRMs (HS-equivalent, PP, unarmed/wounded/"
        "Walking Wounded, Encircled) are NA to vehicle Escape.",
    ),
)

# 9.6054 ESCAPE TABLE, Mobile Vehicle column († DRMs are NA to vehicle Escape)
ESCAPE_VEHICLE = Table(
    id="abtf:9.6054-vehicle",
    rule="9.6054",
    title="Escape Table: Mobile Vehicle",
    dice=2,
    bands=(
        le(8, "Escapes"),
        eq(9, "Abandoned; crew (if any) Escapes", _ESCAPE_FN4, _ESCAPE_FN5),
        eq(10, "Eliminated; crew (if any) Escapes", _ESCAPE_FN6),
        eq(11, "Abandoned; crew (if any) Eliminated", _ESCAPE_FN4, _ESCAPE_FN5),
        ge(12, "Eliminated; crew (if any) Eliminated"),
    ),
    drms=(
        fixed("vehicle", -1, "Vehicle other than a CT AFV", group="vehicle-type"),
        fixed("ct-afv", -2, "CT AFV", group="vehicle-type"),
        _NIGHT,
        _ESCAPE_LEADER,
        _UT_HEXES,
        fixed("captured-vehicle", 1, "captured vehicle"),
    ),
    notes=(
        *_ESCAPE_NOTES,
        "Each vehicle cell ends with the 'Escapes'/'Eliminated' that begins the next OCR "
        "line. Footnote 5 is cut after 'Scrounge the vehicle/'.",
        "DRMs marked † (HS-equivalent, PP, unarmed/wounded/Walking Wounded, Encircled) are "
        "NA to vehicle Escape; 'lone unwounded SMC' cannot apply to a vehicle. Of the "
        "'unarmed†, wounded†, Walking Wounded†, captured vehicle' DRM only 'captured "
        "vehicle' applies here.",
    ),
)

# ---------------------------------------------------------------- 9.610-9.613

# 9.6101 WOUNDED LEADER TABLE
WOUNDED_LEADER = Table(
    id="abtf:9.6101",
    rule="9.6101",
    title="Wounded Leader Table",
    dice=1,
    bands=(
        le(1, "Retained unwounded"),
        span(2, 4, "Retained wounded"),
        ge(5, "Eliminated"),
    ),
    drms=(fixed("british", -1, "British"), fixed("heroic", -1, "Heroic")),
)

_SAN_NOTE = (
    "The OCR prints '~' for both comparison signs; read '≥': the +drm (SAN minus {n}) is "
    "never negative and a higher SAN must make the reduction more likely. The ≤ 3 result "
    "(no reduction) is not worded in the rule."
)


def _san(rule: str, side: str, threshold: int, word: str) -> Table:
    return Table(
        id=f"abtf:{rule}",
        rule=rule,
        title=f"{side} SAN Adjustment",
        # 9.61221/9.61222: each side's SAN, and its dr, is its own.
        sides=(side,),
        dice=1,
        bands=(
            le(3, f"{side} SAN unchanged"),
            ge(4, f"{side} SAN reduced by two"),
        ),
        drms=(
            from_input(
                "san-excess",
                f"+drm equal to the current {side} SAN minus {word}",
                "san",
                offset=-threshold,
            ),
        ),
        inputs=(
            InputDef(
                "san",
                f"The current {side} SAN (the dr is made only if it is ≥ {threshold})",
                lo=threshold,
            ),
        ),
        notes=(_SAN_NOTE.format(n=word),),
    )


# 9.61221 BRITISH SAN: "If the British SAN is ~ 4 ... A Final dr ~ 4" (read ≥ both times)
SAN_BRITISH = _san("9.61221", "British", 4, "four")
# 9.61222 GERMAN SAN: "If the German SAN is ~ 5 ... A Final dr ~ 4" (read ≥ both times)
SAN_GERMAN = _san("9.61222", "German", 5, "five")

# 9.613 footnote 2: the subsequent drs after "Successful Shift, Casualty Reduction"
SHIFT_CASUALTY_PERSONNEL = Table(
    id="abtf:9.613-casualty-personnel",
    rule="9.613",
    title="Shift Casualty dr: Personnel",
    dice=1,
    bands=(
        le(3, "No effect"),
        ge(
            4,
            "Casualty Reduction",
            "Equipment which becomes unpossessed as a result of Casualty Reduction of its "
            "possessor is Eliminated.",
        ),
    ),
    notes=(
        "9.613 footnote 2: each Personnel unit suffers Casualty Reduction on a subsequent "
        "dr ≥ 4. Roll separately for each unit. The ≤ 3 result (no effect) is not worded.",
    ),
)
SHIFT_CASUALTY_VEHICLE = Table(
    id="abtf:9.613-casualty-vehicle",
    rule="9.613",
    title="Shift Casualty dr: Vehicle",
    dice=1,
    bands=(
        le(3, "No effect"),
        ge(
            4,
            "Eliminated",
            "If Eliminated, make a CS DR for its Inherent crew (Casualty Reduction for "
            "surviving crews is NA) and remove the vehicle from play (no wreck is placed). "
            "Scrounging is NA.",
        ),
    ),
    notes=(
        "9.613 footnote 2: each vehicle is Eliminated on a subsequent dr ≥ 4. Roll "
        "separately for each unit. The ≤ 3 result (no effect) is not worded.",
    ),
)

# 9.613 SHIFT TABLE
# Reading: "Failed attempt, all units/" (≥ 12) is cut: "all units/Equipment Eliminated".
SHIFT = Table(
    id="abtf:9.613",
    rule="9.613",
    title="Shift Table",
    dice=2,
    # Secret, read from the parallel rule: 9.613 is cut before it says how the DR
    # is made, and KGP 8.613, whose table this is, says "Make a separate Secret DR
    # on the following table for each unit/group attempting to Shift".
    secret=True,
    bands=(
        le(8, "Successful Shift"),
        span(
            9,
            10,
            "Failed attempt",
            "1 Unit(s) may not attempt to Shift again until the next RePh, and must remain "
            "in its current Friendly Setup Area, though it may participate normally in the "
            "next CG Scenario.",
        ),
        eq(
            11,
            "Successful Shift, Casualty Reduction",
            "2 Each Personnel unit suffers Casualty Reduction on a subsequent dr ≥ 4. Each "
            "vehicle is Eliminated on a subsequent dr ≥ 4; if Eliminated, make a CS DR for "
            "its Inherent crew (Casualty Reduction for surviving crews is NA) and remove the "
            "vehicle from play (no wreck is placed). Scrounging is NA. Roll separately for "
            "each unit. Equipment which becomes unpossessed as a result of Casualty "
            "Reduction of its possessor is Eliminated.",
            follow_up=(SHIFT_CASUALTY_PERSONNEL.id, SHIFT_CASUALTY_VEHICLE.id),
        ),
        ge(
            12,
            "Failed attempt, all units/Equipment Eliminated",
            "3 Enemy units detect the attempt and setup an ambush. Crew Survival and wreck "
            "placement for eliminated vehicles is NA.",
        ),
    ),
    drms=(
        fixed("idle", -1, "Previous CG Date was Idle (British only)"),
        fixed("british", -2, "British"),
        per(
            "uncontrolled-hexes",
            1,
            "Per multiple of two Uncontrolled Territory hexes along the path between the "
            "current Setup/…",
            counts="Uncontrolled Territory hexes along the path",
            divisor=2,
            rounding="FRU",
        ),
    ),
    notes=(
        "The ≥ 12 cell 'Failed attempt, all units/' is cut at its slash; read 'Failed "
        "attempt, all units/Equipment Eliminated' (footnote 3 speaks of eliminated "
        "vehicles).",
        "Footnote 1 begins 'Unit/ Unit(s)'; the cut fragment 'Unit/' is dropped.",
        "Secret by default: 9.613 is cut before it says how the DR is made; the parallel "
        "KGP 8.613 says 'Make a separate Secret DR on the following table'.",
        "The Uncontrolled Territory DRM is cut after 'the current Setup/'; its rounding is "
        "lost and read FRU, like the same DRM of 9.6054.",
    ),
)

# ---------------------------------------------------------------- 9.614 Equipment

_AL_NOTE = "x is the Armor Leader's DRM (e.g. -1 for an 8-1)."

# 9.6141b IMMOBILIZATION REPAIR TABLE
IMMOBILIZATION_REPAIR = Table(
    id="abtf:9.6141b",
    rule="9.6141b",
    title="Immobilization Repair Table",
    dice=1,
    bands=(
        le(
            2,
            "Vehicle becomes mobile",
            "* and is Retained in its current (or nearest) Friendly Setup Area",
        ),
        ge(3, "No effect"),
    ),
    drms=(
        fixed("non-qualified", 1, "Only Non-Qualified Use (A21.13) possible"),
        fixed("front-line", 1, "Vehicle is in a Front Line Location/…"),
        valued(
            "armor-leader",
            "Armor Leader",
            means="x is the Armor Leader's DRM as printed, e.g. -2 for a 9-2",
        ),
    ),
    notes=(
        "The first row reads '1-2'; written open below (≤ 2).",
        "The drm 'Vehicle is in a Front Line Location/' is cut at its slash.",
        _AL_NOTE,
    ),
)

# 9.6141d VEHICLE STUN RECOVERY TABLE
VEHICLE_STUN_RECOVERY = Table(
    id="abtf:9.6141d",
    rule="9.6141d",
    title="Vehicle Stun Recovery Table",
    dice=1,
    bands=(
        le(2, "Recovers; remove stun"),
        span(3, 5, "Retain stun"),
        ge(6, "Eliminated", "† Full CVP awarded; wreck placement and Crew Survival are NA"),
    ),
    notes=("The first row reads '1-2' and the last '6'; written ≤ 2 and ≥ 6.",),
)

# 9.6142 WEAPON REPAIR TABLE (its drm list follows the table in the text)
# EX: a Panther MA repairs on an Original dr ≤ 3 (x = 1); with a 9-2 Armor Leader (y = 2)
# on any Original dr but 6.
WEAPON_REPAIR = Table(
    id="abtf:9.6142",
    rule="9.6142",
    title="Weapon Repair Table",
    dice=1,
    bands=(
        le(1, "Repaired"),
        ge(
            2,
            "Eliminated",
            "* If vehicular-mounted, the Weapon is disabled: if MA, the AFV is immediately "
            "Recalled (9.6141c applies) (i.e. re-perform 9.6141c; the vehicle is assumed to "
            "have ended the scenario on-map); if a Gun, the Gun is eliminated with full CVP "
            "awarded.",
        ),
    ),
    drms=(
        fixed("vehicular", -1, "vehicular-mounted"),
        valued(
            "repair-number",
            "Weapon Repair Number",
            times=-1,
            means="x is the Weapon Repair Number as a positive number, e.g. 1 for the "
            "Panther MA of the 9.6142 EX",
        ),
        valued(
            "armor-leader",
            "Armor Leader Leadership Rating (if vehicular mounted and the Armor Leader begins "
            "the next CG scenario manning this vehicle)",
            times=-1,
            means="y is the Leadership Rating as a positive number, e.g. 2 for a 9-2 (9.6142 EX)",
        ),
        fixed("non-qualified", 1, "if only Non-Qualified Use (A21.13) possible"),
    ),
    notes=(
        "x is the Weapon Repair Number and y the Armor Leader's Leadership Rating, both "
        "given as positive numbers: the 9.6142 EX has a Panther MA (x = 1) repair on an "
        "Original dr ≤ 3, and with a 9-2 Armor Leader (y = 2) on any Original dr but 6.",
    ),
)

# 9.6144 SPECIAL AMMO RESTORATION TABLE
SPECIAL_AMMO = Table(
    id="abtf:9.6144",
    rule="9.6144",
    title="Special Ammo Restoration Table",
    dice=1,
    bands=(
        le(3, "Restores special ammunition type"),
        ge(4, "Ammo remains depleted"),
    ),
    drms=(
        # valued() takes no group=: DrmDef, so the British-only and German DRMs exclude
        # each other.
        DrmDef(
            "ammo-shortage",
            "current level of Ammunition Shortage (SSR CG 17) (British Only)",
            "valued",
            1,
            group="side",
        ),
        fixed("german", -1, "German", group="side"),
    ),
)

# ---------------------------------------------------------------- 9.616 CPP

# 9.6162 CG CPP VARIABLE ARRIVAL POINTS: CPP Base # (9.6161) plus a secret DR
CPP_VARIABLE_ARRIVAL = Table(
    id="abtf:9.6162",
    rule="9.6162",
    title="CG CPP Variable Arrival Points",
    dice=2,
    bands=(Band(None, None, "CPP replenished"),),
    inputs=(
        InputDef(
            "base",
            "The side's CPP Base # (9.6161 CPP Base Number Chart) for the current CG Date",
            lo=0,
            hi=200,
        ),
    ),
    amount=Amount(input="base", sign=1, label="CPP replenished"),
    # 9.6162: "Both players make a secret DR and add the DR to the CPP Base #"
    secret=True,
    endpoint="/cpp-replenishments",
    notes=(
        "9.616: the CPP Base # (9.6161) plus CG CPP Variable Arrival Points (9.6162) equals "
        "the final amount of CPP replenished.",
    ),
)

# ---------------------------------------------------------------- 9.618 RG

# 9.6181 RG STRENGTH TABLE
# Reading: "-24 British" and "+15 German VG Pltn" are -2 and +1 with footnote digits 4, 5.
RG_STRENGTH = Table(
    id="abtf:9.6181",
    rule="9.6181",
    title="RG Strength Table",
    dice=2,
    bands=(le(9, "Full"), ge(10, "Depleted")),
    drms=(
        fixed("british", -2, "British", group="side"),
        fixed("vg-pltn", 1, "German VG Pltn", group="side"),
        valued("exhaustion", "Campaign Exhaustion DRM (FRD)", divisor=2),
    ),
    # 9.6181: "make one secret DR on the RG Strength Table"
    secret=True,
    notes=(
        "The OCR reads '-24 British' and '+15 German VG Pltn': -2 and +1 with the footnote "
        "digits 4 and 5 glued on (as 'SAN +24'/'SAN -15' in 9.6152); the footnote texts are "
        "not in the seed.",
        "A Full Strength RG receives the number of units left of the '/', a Depleted RG the "
        "number right of it.",
    ),
)

# 9.6182 "*" entry of the German Infantry-Type SW Chart (RG I1, "PSK/Lt. Mtr" column)
SW_STAR = Table(
    id="abtf:9.6182-star",
    rule="9.6182",
    title="Support Weapon Allotment: German PSK/Lt. Mtr (*)",
    # 9.6182 chart: the "*" dr gives a German RG its PSK or Lt. Mtr
    sides=("German",),
    dice=1,
    bands=(le(2, "RG receives a Lt. Mtr"), ge(3, "RG receives a PSK")),
    # 9.6182 chart: "* Make a secret dr; 1-2 RG receives a Lt. Mtr, 3-6 RG receives a PSK"
    secret=True,
    notes=(
        "The '*(2)' entry of German RG I1: a Full RG receives the SW this dr gives; a "
        "Depleted RG then receives it on a dr ≤ 2 (abtf:9.6182).",
        "The rows read '1-2' and '3-6'; written ≤ 2 and ≥ 3.",
    ),
)

SW_ROWS: tuple[tuple[str, str, str, int], ...] = (
    # British Infantry-Type SW Chart: RG | LMG | PIAT | FT | DC | Lt. Mtr(a)
    ("British", "I1", "LMG", 5),
    ("British", "I1", "PIAT", 3),
    ("British", "I2", "LMG", 5),
    ("British", "I2", "PIAT", 3),
    ("British", "I3", "LMG", 5),
    ("British", "I3", "PIAT", 3),
    # Reading: the third "1(3)" is the Lt. Mtr, so every column of the chart
    # (Lt. Mtr has its own footnote a) has at least one entry.
    ("British", "I3", "Lt. Mtr", 3),
    ("British", "I4", "LMG", 5),
    ("British", "I4", "FT", 2),  # Reading: "1(2)", the Engineer pattern (see notes)
    ("British", "I4", "DC", 3),  # Reading: "2(3)", two DC
    # German Infantry-Type SW Chart: RG | LMG | PSK/Lt. Mtr | FT | DC
    ("German", "I1", "LMG", 3),
    ("German", "I1", "PSK", 2),  # "*(2)": whichever of PSK/Lt. Mtr the "*" dr gave
    ("German", "I1", "Lt. Mtr", 2),
    ("German", "I2", "FT", 2),  # Reading: "1(2)", the Engineer pattern (see notes)
    ("German", "I2", "DC", 3),  # Reading: "2(3)", two DC
    ("German", "I3", "LMG", 1),
)

# 9.6182 SUPPORT WEAPON ALLOTMENT: a Depleted RG's secret dr ≤ the number in parentheses
SW_ALLOTMENT = Table(
    id="abtf:9.6182",
    rule="9.6182",
    title="Support Weapon Allotment (Depleted RG)",
    dice=1,
    bands=(
        le(Ref("threshold"), "SW received"),
        ge(Ref("threshold", 1), "SW not received"),
    ),
    inputs=(
        InputDef("nationality", "The RG's side", choices=("British", "German")),
        InputDef(
            "rg", "The RG's ID on its Infantry-Type SW Chart", choices=("I1", "I2", "I3", "I4")
        ),
        InputDef(
            "sw",
            "The indicated SW the dr is made for (one dr per SW)",
            choices=("LMG", "PIAT", "PSK", "Lt. Mtr", "FT", "DC"),
        ),
    ),
    lookups=(
        Lookup(
            "threshold",
            "SW allotment number (in parentheses)",
            keys=("nationality", "rg", "sw"),
            rows=tuple(((nat, rg, sw), n) for nat, rg, sw, n in SW_ROWS),
        ),
    ),
    # 9.6182: "A Depleted RG must make a secret dr ≤ the number listed in parentheses"
    secret=True,
    notes=(
        "A Full Strength RG automatically receives all SW indicated; only a Depleted RG "
        "rolls. A count above 1 (e.g. '2(3)') means a separate dr for each SW.",
        "The OCR drops the empty cells, so each row's entries stand in the leftmost "
        "columns. Read that way: British I1, I2 LMG 1(5), PIAT 1(3); British I3 LMG 1(5), "
        "PIAT 1(3) and a third 1(3) read as the Lt. Mtr, since every column (Lt. Mtr has "
        "its own footnote a) must hold at least one entry; German I1 LMG 1(3), PSK/Lt. "
        "Mtr *(2); German I3 LMG 1(1) (the 9.6182 EX confirms German I1 and I3).",
        "British I4 '1(5) 1(2) 2(3)' and German I2 '1(2) 2(3)' end in the same pair, read "
        "FT 1(2), DC 2(3) in both (the Engineer pattern; a '2(3)' in the German 'PSK/Lt. "
        "Mtr' column would not say which of the two): British I4 LMG 1(5), FT 1(2), DC "
        "2(3); German I2 FT 1(2), DC 2(3). These are the least certain readings.",
        "The German 'PSK/' header is cut at its slash; read 'PSK/Lt. Mtr'. The '*(2)' cell "
        "gives 2 to whichever of PSK or Lt. Mtr the '*' dr (abtf:9.6182-star) gave.",
        "a The light mortars are standard (i.e., non-airborne) versions of the OML 2-in Mortar.",
        "Read on the Final dr: 9.6182 says 'a secret dr ≤ the number', not an Original dr.",
    ),
)

_LEADER_NOTES = (
    "The first row reads '< 2', a Final DR of 1 or less: written ≤ 1. Rows with the same "
    "leader are merged.",
    "The LEADER TABLE DRM block lists British and German RG types; each column has the ones "
    "of the RG it serves (British: Commando, Engineer, Glider; German: SS PG, SS Recon, "
    "Engineer, VG; (Armor): Med Tank, Hvy Tank, SPG, Lt Tank, AC). The block's last row "
    "'+2 VG, AC' stands in the British columns but names German types.",
    "9.6183 is cut off before it says how the DR is made. Secret by default, read from "
    "its neighbours: 9.6181 and 9.6182 make their rolls for the just-purchased (secret) "
    "RG secretly, and the parallel KGP 8.6206 says 'make one Secret DR'.",
)
_RG = "rg-type"


def _leader(
    suffix: str,
    column: str,
    bands: tuple[Band, ...],
    drms: tuple[DrmDef, ...],
    sides: tuple[str, ...] = (),
) -> Table:
    return Table(
        id=f"abtf:9.6183-{suffix}",
        rule="9.6183",
        title=f"Leader Table: {column}",
        dice=2,
        bands=bands,
        drms=drms,
        secret=True,  # see _LEADER_NOTES: the rule is cut; read from 9.6181-9.6182 and 8.6206
        notes=_LEADER_NOTES,
        # A side's column serves its own RG; the (Armor) column both sides'.
        sides=sides,
    )


# 9.6183 LEADER TABLE, British column (first row "< 2" read ≤ 1)
LEADER_BRITISH = _leader(
    "british",
    "British",
    (
        le(1, "10-3"),
        eq(2, "10-2"),
        span(3, 4, "9-2"),
        span(5, 6, "9-1"),
        span(7, 8, "8-1"),
        eq(9, "8-0"),
        eq(10, "7-0"),
        ge(11, "6+1"),
    ),
    (
        fixed("commando", -1, "Commando", group=_RG),
        fixed("engineer", -2, "Engineer", group=_RG),
        fixed("glider", 1, "Glider", group=_RG),
    ),
    sides=("British",),
)

# 9.6183 LEADER TABLE, German column (first row "< 2" read ≤ 1)
LEADER_GERMAN = _leader(
    "german",
    "German",
    (
        le(2, "10-2"),
        eq(3, "9-2"),
        span(4, 5, "9-1"),
        span(6, 7, "8-1"),
        span(8, 9, "8-0"),
        ge(10, "7-0"),
    ),
    (
        fixed("ss-pg", -1, "SS PG", group=_RG),
        fixed("ss-recon", -1, "SS Recon", group=_RG),
        fixed("engineer", -2, "Engineer", group=_RG),
        fixed("vg", 2, "VG", group=_RG),
    ),
    sides=("German",),
)

# 9.6183 LEADER TABLE, (Armor) column (first row "< 2" read ≤ 1; blank cells: no leader)
LEADER_ARMOR = _leader(
    "armor",
    "(Armor)",
    (
        le(1, "(10-2)"),
        eq(2, "(9-2)"),
        span(3, 4, "(9-1)"),
        eq(5, "(8-1)", "† If selected for a Hvy Tank Pltn, replace with a 9-1 A.L."),
        ge(6, "No Armor Leader"),
    ),
    (
        fixed("med-tank", -1, "Med Tank", group=_RG),
        fixed("hvy-tank", -2, "Hvy Tank", group=_RG),
        fixed("spg", 1, "SPG", group=_RG),
        fixed("lt-tank", 1, "Lt Tank", group=_RG),
        fixed("ac", 2, "AC", group=_RG),
    ),
)


def _vehicle_group(rg: str, rows: tuple[tuple[int, int, str], ...]) -> Table:
    bands = [span(lo, hi, r) for lo, hi, r in rows]
    bands[0] = le(rows[0][1], rows[0][2])
    bands[-1] = ge(rows[-1][0], rows[-1][2])
    return Table(
        id=f"abtf:9.6184-{rg}",
        rule="9.6184",
        title=f"German Vehicle Group Composition: {rg}",
        # 9.6184: "For each German A2, A3, A4, or A6 RG purchased ... make a dr"
        sides=("German",),
        dice=1,
        bands=tuple(bands),
        notes=(
            "Each cell prints its vehicle names and their 'xN' counts in two columns; they "
            "are paired in order.",
            "Not for the A4 and A6 RGs available from KG Graebner (9.6184 EXC).",
        ),
    )


# 9.6184 GERMAN VEHICLE GROUP COMPOSITION, A2
VEHICLES_A2 = _vehicle_group(
    "A2",
    (
        (1, 1, "PzKpfw VG x2"),
        (2, 3, "PzKpfw IVJ x2"),
        (4, 6, "PzKpfw VG x1; PzKpfw IVJ x1"),
    ),
)
# 9.6184 GERMAN VEHICLE GROUP COMPOSITION, A3
VEHICLES_A3 = _vehicle_group(
    "A3",
    (
        (1, 1, "PzKpfw VIB x1; PzKpfw VIE(L) x1"),
        (2, 4, "PzKpfw VIE(L) x2"),
        (5, 5, "PzKpfw VIE(L) x1; PzKpfw VIE x1"),
        (6, 6, "PzKpfw VIE x2"),
    ),
)
# 9.6184 GERMAN VEHICLE GROUP COMPOSITION, A4
VEHICLES_A4 = _vehicle_group(
    "A4",
    (
        (1, 1, "StuH 42 x2"),
        (2, 2, "StuG IIIG(L) x2"),
        (3, 5, "StuG IIIG(L) x1; StuH 42 x1"),
        (6, 6, "StuG IIIG(L) x3"),
    ),
)
# 9.6184 GERMAN VEHICLE GROUP COMPOSITION, A6
VEHICLES_A6 = _vehicle_group(
    "A6",
    (
        (1, 2, "SPW 250/9 x2; SdKfz 10/4 x1"),
        (3, 4, "SdKfz 7/1 x1; SdKfz 6/2 x2"),
        (5, 5, "SPW 250/9 x1; SdKfz 6/2 x1; SdKfz 10/4 x1"),
        (6, 6, "SdKfz 10/4 x1; SdKfz 7/1 x1; SdKfz 6/2 x1"),
    ),
)

# ---------------------------------------------------------------- 9.620

_EXHAUSTION = "Campaign Exhaustion DRM"

# 9.6201 AMMUNITION SHORTAGE LEVEL CHANGE (British only)
AMMO_SHORTAGE = Table(
    id="abtf:9.6201",
    rule="9.6201",
    title="Ammunition Shortage Level Change",
    # 9.6201: "Commencing on the 19AM CG Date (and every CG Date thereafter) the
    # British player makes a DR" (not after an Idle date: the RePh step engine)
    sides=("British",),
    from_date="19 AM",
    dice=2,
    bands=(le(9, "No Change"), ge(10, "Shortage increases one Level")),
    drms=(
        valued("exhaustion", _EXHAUSTION),
        per(
            "attack-chits",
            1,
            "Number of British Attack Chits selected during this CG (minimum of 0) (see "
            "9.5, 9.52, SSR CG 3, 9.62132)",
            counts="British Attack Chits selected during this CG (y)",
            excess_over=1,
        ),
    ),
    notes=(
        "Made by the British player from the 19AM CG Date on, unless the previous CG Date "
        "was Idle. '+(y-1)': the chits beyond the first count.",
    ),
)

# 9.6202 ELR LOSS/GAIN ("ELR LOSS/" cut at its slash)
# EX: British +7 (42 CVP, one CG Scenario, one Attack Chit, Exhaustion 4, Shortage 2);
# German +3 (38 CVP, one CG Scenario, one Attack Chit, Exhaustion y = 4: +2).
ELR = Table(
    id="abtf:9.6202",
    rule="9.6202",
    title="ELR Loss/Gain",
    dice=2,
    bands=(le(2, "ELR +1"), span(3, 12, "No Change"), ge(13, "ELR -1")),
    drms=(
        per(
            "cvp",
            -1,
            "Per 30 CVP (FRD) of enemy units Eliminated during the last CG Scenario "
            "(including CVP awarded thus far during this RePh)",
            counts="CVP of enemy units Eliminated during the last CG Scenario and this RePh",
            divisor=30,
        ),
        per(
            "idle-dates",
            -3,
            "Per Idle CG Date since the last CG Scenario",
            counts="Idle CG Dates since the last CG Scenario",
        ),
        per(
            "scenarios",
            1,
            "Per CG Scenario since the last Idle CG Date",
            counts="CG Scenarios since the last Idle CG Date",
        ),
        per(
            "attack-chits",
            1,
            "Per Attack Chit selected by that side since the last Idle CG Date",
            counts="Attack Chits selected by that side since the last Idle CG Date",
        ),
        # valued() takes no group=, so these two exclusive DRMs are written as DrmDef.
        DrmDef(
            "exhaustion-british",
            f"{_EXHAUSTION} (British Only)",
            "valued",
            1,
            group="exhaustion",
        ),
        DrmDef(
            "exhaustion-german",
            f"{_EXHAUSTION} (FRD) (German Only)",
            "valued",
            1,
            divisor=2,
            group="exhaustion",
        ),
        valued("ammo-shortage", "British Ammunition Shortage Level DRM (British Only)"),
    ),
    notes=("The title 'ELR LOSS/' is cut at its slash; read 'ELR Loss/Gain' (9.620, 9.12).",),
)

# ---------------------------------------------------------------- 9.621

# 9.6213a Dual Attack: the German player's dr for which side sets up first
DUAL_ATTACK_SETUP = Table(
    id="abtf:9.6213a",
    rule="9.6213a",
    title="Dual Attack: Setup dr",
    # 9.62133a: "The German player makes a dr to determine which side sets up first"
    sides=("German",),
    dice=1,
    bands=(le(3, "British sets up first"), ge(4, "German sets up first")),
    notes=(
        "Made by the German player. The side moving first is determined after all setup (9.6215).",
    ),
)

# 9.6215 FIRST MOVE DETERMINATION (Dual Assaults)
FIRST_MOVE = Table(
    id="abtf:9.6215",
    rule="9.6215",
    title="First Move Determination (Dual Assault)",
    # 9.6215: "For Dual Assaults, the German player now makes a dr"
    sides=("German",),
    dice=1,
    bands=(le(4, "German moves first"), ge(5, "British moves first")),
    notes=("Made by the German player; for British or German Assaults see 9.62133.",),
)

_NIGHT_SCENARIO = "Night Scenario"

# 9.62161 WEATHER TABLE
WEATHER = Table(
    id="abtf:9.62161",
    rule="9.62161",
    title="Weather Table",
    # 9.62161: "The British player makes a DR and consults the table below"
    sides=("British",),
    dice=2,
    bands=(
        le(2, "Mist"),
        span(3, 5, "Overcast"),
        span(6, 10, "Clear"),
        ge(11, "Clear & Gusty"),
    ),
    drms=(
        fixed("previous-mist", -2, "Previous CG Scenario was Mist", group="previous"),
        fixed("previous-overcast", -1, "Previous CG Scenario was Overcast", group="previous"),
        fixed("night", -1, _NIGHT_SCENARIO),
        fixed("previous-gusty", 1, "Previous CG Scenario was Clear & Gusty", group="previous"),
    ),
    notes=("Made by the British player.",),
)

# 9.62163 EC
EC = Table(
    id="abtf:9.62163",
    rule="9.62163",
    title="EC",
    # 9.62163: "The British player makes a dr and consults the following table"
    sides=("British",),
    dice=1,
    bands=(le(1, "Wet"), eq(2, "Moist"), span(3, 5, "Moderate"), ge(6, "Dry")),
    drms=(
        fixed("previous-wet", -1, "Previous CG Scenario was Wet or Moist", group="previous"),
        fixed("night", -1, _NIGHT_SCENARIO),
        fixed("previous-dry", 1, "Previous CG Scenario was Dry", group="previous"),
    ),
    notes=("Made by the British player.",),
)

_WIND_DIRECTION = "1 Determine Wind Direction per B26.52"

# 9.62164 WIND FORCE (AND DIRECTION)
WIND_FORCE = Table(
    id="abtf:9.62164",
    rule="9.62164",
    title="Wind Force (and Direction)",
    # 9.62164: "The British player makes a dr and consults the following table"
    sides=("British",),
    dice=1,
    bands=(
        le(3, "No Wind"),
        span(4, 6, "Mild Breeze", _WIND_DIRECTION),
        ge(7, "Heavy Wind", _WIND_DIRECTION),
    ),
    drms=(
        fixed("night", -1, _NIGHT_SCENARIO),
        fixed("overcast", 2, "Weather is Overcast"),
        fixed("previous-gusty", 1, "Previous CG Scenario was Clear & Gusty"),
    ),
    notes=("Made by the British player. The first row reads '1-3'; written ≤ 3.",),
)

TABLES = registry(
    ESCAPE_INFANTRY,
    ESCAPE_VEHICLE,
    WOUNDED_LEADER,
    SAN_BRITISH,
    SAN_GERMAN,
    SHIFT,
    SHIFT_CASUALTY_PERSONNEL,
    SHIFT_CASUALTY_VEHICLE,
    IMMOBILIZATION_REPAIR,
    VEHICLE_STUN_RECOVERY,
    WEAPON_REPAIR,
    SPECIAL_AMMO,
    CPP_VARIABLE_ARRIVAL,
    RG_STRENGTH,
    SW_ALLOTMENT,
    SW_PLACED,
    SW_STAR,
    LEADER_BRITISH,
    LEADER_GERMAN,
    LEADER_ARMOR,
    VEHICLES_A2,
    VEHICLES_A3,
    VEHICLES_A4,
    VEHICLES_A6,
    AMMO_SHORTAGE,
    ELR,
    DUAL_ATTACK_SETUP,
    FIRST_MOVE,
    WEATHER,
    EC,
    WIND_FORCE,
)
