"""Die tables of KGP RePh 8.604-8.615 (seed ``000_…``), as data.

Each constant cites its rule; results are in the table's own words, with
footnote markers stripped from the results and each footnote's text (prefixed
with its marker) in the notes of the band it is attached to. A footnote on a
table's title or column header (e.g. "† Crews are ineligible") goes into the
table's ``notes``.

READINGS OF GARBLED OCR AND OTHER INTERPRETATIONS (each also in the table's
``notes`` and in a comment above the constant):

* 8.606 ESCAPE TABLE, Infantry row 11 reads "Escapes Replaced, then Casualty
  Reduced": read as "Escapes; Replaced, then Casualty Reduced", the form of
  row 9 ("Escapes; Replaced"); the 8.6061 EX reads it the same way.
* 8.606 DRM "-2 If a CT AVF": read as "CT AFV" (transposed letters; the row
  above is "OT AFV").
* 8.606 DRM "(NA to Personnel Leader/Hero of alone)": read as "if alone".
* 8.606 DRM "+1 Per PP >IPC being carried": read as "> IPC" (lost space).
* 8.606 footnote 1 "(A15.)": read as "(A15)", the Heat of Battle rule.
* 8.606 footnote 1 (an Original 2 DR results in Escape and Heat of Battle) is
  read as applying whatever the Final DR, like every Original-roll result.
* 8.606 the last DRM row reads "+2 If Isolated      *NA to vehicle Escape
  attempt": the asterisk is read as the start of the footnote printed in the
  next column (the DRMs that carry it have it glued on: "Encircled*"), so
  "If Isolated" is not marked and applies to both columns (8.606 lets Isolated
  Mobile vehicles attempt Escape). The unmarked DRMs are placed by their text:
  lone SMC in the Infantry column only; OT/CT AFV, Stun and Captured vehicle in
  the Mobile Vehicle column only; Night, adjacent/two hexes away, (Armor-)
  Leader/Hero, enemy Setup Area, unarmed and Isolated in both (the 8.6061 EX
  gives the unarmed truck its +1).
* 8.6061 EX "+l" is "+1"; its "Abandoned; crew Escapes" quotes the table's
  "Abandoned; crew (if any) Escapes".
* 8.6113 MMC BATTLE HARDENING TABLE: the two columns run together ("≤ -15",
  "04", "13", "2-32", "4-51", "≥ 6-"); read as ≤ -1: 5, 0: 4, 1: 3, 2-3: 2,
  4-5: 1, ≥ 6: - (no MMC), the only split giving a falling count. Its DRM row
  "04-1Per 25 Casualty VP" is the 0: 4 row followed by the -1 DRM.
* 8.6114 LEADER BATTLE HARDENING TABLE row "6-79-0": read as 6-7: 8-0, not
  9-0. The column falls from 10-2 to 6+1 (10-2, 9-2, 9-1, 8-1, ?, 7-0, 6+1),
  there is no 9-0 leader among the German and U.S. leader types, and 8-0 is the
  one missing from the sequence; an 8 read as a 9 is a common OCR slip.
* 8.6122 EX "(the +2 drm is - 4 = 2)" is garbled: read as "(6 - 4 = 2)". Its
  "Sniper adjustment dr" is the 8.6122 SAN adjustment dr.
* 8.613 SHIFT TABLE: the OCR kept the "*" of the first footnote but lost the
  markers of the other two. By their text and order, the second ("Each
  Personnel unit suffers Casualty Reduction ...") is "†" (on "Shifted with
  Casualties†") and the third ("Not applicable to a Shift from one Entry Area
  to another.") is "‡" (on both DRMs).
* 8.615 REMOVAL TABLE: the OCR lost both footnote markers. "vs a Known
  minefield, ..." is "†" (on "Eliminated†") and "An original dr of 6 ..." is
  "‡" (on "≥ 4‡"); the Original 6 result is read as applying whatever the
  Final dr.

The SAN adjustment input is limited to 4-12: 8.6122 has only a side whose SAN
is ≥ 4 make the dr, and a SAN above 12 (the highest DR) cannot matter.

Rolls in 8.604-8.615 made on another rulebook's table are not here: the 1TC
of 8.6041 and the NTC of 8.6042 (A-P minefields), the mine attacks of 8.6042
(B28), the C7.42 Shock/UK recuperation of 8.6043, the D8.3 Bog Removal of
8.6044 (with its -2/-1 Vehicle Note L drm and -1 U.S. drm), the A15 Heat of
Battle DR of 8.606 footnote 1, the CS DR of 8.613 footnote †, and Scrounging
(8.6145, D10.5). The 8.6056 chart is not a die table.

A table with no DRMs can only give 1-6 (dr) or 2-12 (DR), but every first band
is written open below and every last band open above, so an "other" DRM a
player adds still lands in a band.
"""

from __future__ import annotations

from cgledger.domain.tables import (
    Band,
    InputDef,
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

# ---------------------------------------------------------------- 8.606 Escape

# 8.606: DRMs that apply in both columns of the ESCAPE TABLE.
_ESCAPE_NIGHT = fixed("night", -1, "If current CG Date is Night")
_ESCAPE_ADJACENT = fixed(
    "adjacent-friendly-setup-area",
    -2,
    "If adjacent to a Friendly Setup Area",
    group="distance-to-friendly-setup-area",
)
_ESCAPE_TWO_HEXES = fixed(
    "two-hexes-from-friendly-setup-area",
    -1,
    "If two hexes away from a Friendly Setup Area",
    group="distance-to-friendly-setup-area",
)
# 8.606: OCR "(NA to Personnel Leader/Hero of alone)"; read as "if alone".
_ESCAPE_LEADER = valued(
    "leader",
    "(Armor-)Leader/Hero DRM (NA to Personnel Leader/Hero if alone)",
    means="x is the leader's or hero's DRM as printed on the counter, e.g. -2 for a 9-2",
)
_ESCAPE_ENEMY_SETUP_AREA = fixed(
    "enemy-setup-area",
    1,
    "If in Enemy Setup Area, or if it must trace a path through ≥ one enemy "
    "Setup-Area hex to intended area of Retention",
)
_ESCAPE_UNARMED = fixed("unarmed", 1, "If unarmed")
# 8.606: "+2 If Isolated      *NA to vehicle Escape attempt": the "*" starts the
# footnote, so Isolated is not marked and applies to vehicles too.
_ESCAPE_ISOLATED = fixed("isolated", 2, "If Isolated")

_ESCAPE_DRM_NOTE = (
    "DRMs marked '*NA to vehicle Escape attempt' (per HS-equivalent, per PP > IPC, "
    "Encircled) are in the Infantry column only; OT/CT AFV, Stun and Captured vehicle "
    "are vehicle-only by their text; lone, unwounded SMC is Infantry-only by its text; "
    "Night, adjacent/two hexes away, (Armor-)Leader/Hero, enemy Setup Area, unarmed and "
    "Isolated apply to both (the 8.6061 EX gives the unarmed truck its +1)."
)
_ESCAPE_ISOLATED_NOTE = (
    "The last DRM row reads '+2 If Isolated      *NA to vehicle Escape attempt'; the "
    "'*' is read as the start of the footnote in the next column, so 'If Isolated' is "
    "not marked and applies to both columns."
)

_FN1 = (
    "1 An Original 2 DR results in Escape and Heat of Battle for an eligible unit (A15); "
    "use Random Selection to determine the unit(s) affected in a stack. [EXC: Any result "
    "other than Hero-Creation/Battle-Hardening results in Elimination of the unit(s).]"
)
_FN2 = "2 A crew, or unit that would become Disrupted is Eliminated instead."
_FN3 = "3 Use Random Selection for a stack."
_FN4 = "4 The surviving crew (if any) may turn the vehicle into a (Burnt Out) Wreck."
_FN5 = (
    "5 In current hex and VCA; the surviving crew (if any) may attempt to Scrounge the "
    "vehicle/Wreck."
)
_FN6 = "6 The surviving crew (if any) may attempt to Scrounge the vehicle prior to its Elimination."

# 8.606 ESCAPE TABLE, Infantry column. Row 11 reads "Escapes Replaced, then
# Casualty Reduced" in the OCR; read as "Escapes; Replaced, then ..." (row 9).
ESCAPE_INFANTRY = Table(
    id="kgp:8.606-infantry",
    rule="8.606",
    title="Escape Table: Infantry",
    dice=2,
    bands=(
        le(8, "Escapes", _FN1),
        eq(9, "Escapes; Replaced", _FN2, _FN3, follow_up=("kgp:8.6061",)),
        eq(10, "Escapes; Casualty Reduced", _FN3),
        eq(
            11,
            "Escapes; Replaced, then Casualty Reduced",
            _FN2,
            _FN3,
            follow_up=("kgp:8.6061",),
        ),
        ge(12, "All units and Equipment Eliminated"),
    ),
    drms=(
        fixed("lone-smc", -1, "If lone, unwounded SMC"),
        _ESCAPE_NIGHT,
        _ESCAPE_ADJACENT,
        _ESCAPE_TWO_HEXES,
        _ESCAPE_LEADER,
        _ESCAPE_ENEMY_SETUP_AREA,
        per(
            "hs-equivalent",
            1,
            "Per HS-equivalent > one HS using the same Escape DR",
            counts="HS-equivalents using the same Escape DR (a squad is 2)",
            excess_over=1,
        ),
        # 8.606: OCR "Per PP >IPC"; read as "Per PP > IPC".
        per(
            "excess-pp",
            1,
            "Per PP > IPC being carried (unit with most excess PP determines this DRM for "
            "a stack (a stacked leader may combine to increase a MMC's IPC))",
            counts="PP carried in excess of IPC (by the unit with the most excess PP)",
        ),
        _ESCAPE_UNARMED,
        fixed("encircled", 2, "If Encircled"),
        _ESCAPE_ISOLATED,
    ),
    specials=(
        Special(
            original=2,
            text="Escape and Heat of Battle for an eligible unit (A15); use Random "
            "Selection to determine the unit(s) affected in a stack. [EXC: Any result "
            "other than Hero-Creation/Battle-Hardening results in Elimination of the "
            "unit(s).]",
            result="Escapes; Heat of Battle",
        ),
    ),
    notes=(
        "Footnote 1 (an Original 2 DR results in Escape and Heat of Battle) is read as "
        "applying whatever the Final DR.",
        "Row 11 reads 'Escapes Replaced, then Casualty Reduced' in the OCR; read as "
        "'Escapes; Replaced, then Casualty Reduced', the form of row 9.",
        "Footnote 1 cites '(A15.)'; read as '(A15)', the Heat of Battle rule.",
        _ESCAPE_DRM_NOTE,
        _ESCAPE_ISOLATED_NOTE,
    ),
)

# 8.606 ESCAPE TABLE, Mobile Vehicle column. OCR "-2 If a CT AVF": read "CT AFV".
ESCAPE_VEHICLE = Table(
    id="kgp:8.606-vehicle",
    rule="8.606",
    title="Escape Table: Mobile Vehicle",
    dice=2,
    bands=(
        le(8, "Escapes"),
        eq(9, "Abandoned; crew (if any) Escapes", _FN4, _FN5),
        eq(10, "Eliminated; crew (if any) Escapes", _FN6),
        eq(11, "Abandoned; crew (if any) is Eliminated", _FN5),
        ge(12, "Eliminated; crew (if any) is Eliminated"),
    ),
    drms=(
        fixed("ot-afv", -1, "If an OT AFV", group="armor"),
        fixed("ct-afv", -2, "If a CT AFV", group="armor"),
        _ESCAPE_NIGHT,
        _ESCAPE_ADJACENT,
        _ESCAPE_TWO_HEXES,
        _ESCAPE_LEADER,
        valued(
            "stun",
            "Total Stun DRM (D5.34; SSR KGP12) currently applicable to vehicle's Inherent crew",
            means="y is the total of the crew's Stun DRM, e.g. 2 for a +2 (Stun) counter",
        ),
        _ESCAPE_ENEMY_SETUP_AREA,
        _ESCAPE_UNARMED,
        fixed("captured", 1, "If a Captured vehicle"),
        _ESCAPE_ISOLATED,
    ),
    notes=(
        "The DRM reads '-2 If a CT AVF' in the OCR; read as 'CT AFV'.",
        _ESCAPE_DRM_NOTE,
        _ESCAPE_ISOLATED_NOTE,
    ),
)

# 8.6061: "all Equipment it took with it is Eliminated on a subsequent dr of
# ≥ 4; on a dr of ≤ 3 the Equipment is left in the Eliminated unit's
# last-occupied Location."
ESCAPE_EQUIPMENT = Table(
    id="kgp:8.6061",
    rule="8.6061",
    title="Escape Results: Equipment of a unit Eliminated by its Escape attempt",
    dice=1,
    bands=(
        le(3, "Equipment left in the Eliminated unit's last-occupied Location"),
        ge(4, "Equipment Eliminated"),
    ),
)

# ---------------------------------------------------------------- 8.610-8.611

# 8.610 WOUNDED LEADER TABLE.
WOUNDED_LEADER = Table(
    id="kgp:8.610",
    rule="8.610",
    title="Wounded Leader Table",
    dice=1,
    bands=(
        le(1, "Retained unwounded"),
        span(2, 3, "Retained wounded"),
        ge(4, "Eliminated (evacuated)"),
    ),
    drms=(
        fixed("german", -1, "If German"),
        fixed("heroic", -1, "If Heroic"),
        fixed("isolated", 1, "If Isolated"),
    ),
)

# 8.6113 MMC BATTLE HARDENING TABLE. The OCR runs the two columns together
# ("≤ -15", "04", "13", "2-32", "4-51", "≥ 6-"); read as ≤ -1: 5, 0: 4, 1: 3,
# 2-3: 2, 4-5: 1, ≥ 6: -.
MMC_BATTLE_HARDENING = Table(
    id="kgp:8.6113",
    rule="8.6113",
    title="MMC Battle Hardening Table",
    dice=2,
    bands=(
        le(-1, "5 MMC"),
        eq(0, "4 MMC"),
        eq(1, "3 MMC"),
        span(2, 3, "2 MMC"),
        span(4, 5, "1 MMC"),
        ge(6, "No MMC (-)"),
    ),
    drms=(
        fixed("won", -2, "Friendly side won this CG Date's scenario"),
        per(
            "casualty-vp",
            -1,
            "Per 25 Casualty VP amassed by friendly side on the current CG Date [EXC: see 8.6032]",
            counts="Casualty VP amassed by friendly side on the current CG Date",
            divisor=25,
        ),
    ),
    # 8.6113: "Each side also makes one Secret DR to determine the number of
    # Retained non-crew MMC eligible for Battle Hardening."
    secret=True,
    notes=(
        "† Crews are ineligible.",
        "The '# of MMC' column runs into the 'Final DR' column in the OCR ('≤ -15', "
        "'04', '13', '2-32', '4-51', '≥ 6-'); read as ≤ -1: 5, 0: 4, 1: 3, 2-3: 2, "
        "4-5: 1, ≥ 6: - (no MMC).",
        "The result is the number of Retained non-crew MMC eligible for Battle Hardening.",
    ),
)

# 8.6114 LEADER BATTLE HARDENING TABLE. OCR row "6-79-0": read as 6-7: 8-0 (the
# column falls from 10-2 to 6+1, and 8-0 is the type missing from it).
LEADER_BATTLE_HARDENING = Table(
    id="kgp:8.6114",
    rule="8.6114",
    title="Leader Battle Hardening Table",
    dice=2,
    bands=(
        le(2, "10-2"),
        eq(3, "9-2"),
        eq(4, "9-1"),
        eq(5, "8-1"),
        span(6, 7, "8-0"),
        span(8, 9, "7-0"),
        ge(10, "6+1"),
    ),
    drms=(
        fixed(
            "won",
            -2,
            "Friendly side won this CG Date's scenario (the player may, after the DR, "
            "choose to ignore this DRM or apply only a -1 DRM)",
            after_roll=(0, -1),
        ),
    ),
    # 8.6114: "Each side also makes one Secret DR on the following table
    # [EXC: 8.6115] to Battle Harden a Retained Personnel leader."
    secret=True,
    notes=(
        "† Or may create a 7-0 (8.6115).",
        "‡ Armor leader NA (on the 'Type' column).",
        "The result is the Type of the Retained Personnel leader that Battle Hardens; if "
        "none of that Type is Retained, the lowest-grade, non-wounded Retained Personnel "
        "leader Battle Hardens.",
        "The row reads '6-79-0' in the OCR; read as 6-7: 8-0, not 9-0: the column falls "
        "from 10-2 to 6+1, there is no 9-0 German or U.S. leader, and 8-0 is the one type "
        "missing between 8-1 and 7-0.",
        "The -2 'won' DRM may be reduced to -1 or ignored after the DR: the outcome's "
        "'after_roll' lists the result under each choice, and the player announces his.",
    ),
)

# ---------------------------------------------------------------- 8.612-8.613

# 8.6122 SAN ADJUSTMENT: "Each side whose SAN is currently ≥ 4 must make a dr,
# with a +drm equal to that side's current SAN minus four. A Final dr of ≥ 5
# immediately reduces that side's current SAN by two."
SAN_ADJUSTMENT = Table(
    id="kgp:8.6122",
    rule="8.6122",
    title="SAN Adjustment",
    dice=1,
    bands=(
        le(4, "No change"),
        ge(5, "Current SAN reduced by two"),
    ),
    drms=(
        from_input(
            "san-minus-four",
            "+drm equal to that side's current SAN minus four",
            "san",
            offset=-4,
        ),
    ),
    inputs=(
        InputDef(
            "san",
            "That side's current SAN (only a side whose SAN is ≥ 4 makes the dr)",
            lo=4,
            hi=99,
        ),
    ),
    notes=(
        "The input SAN is 4 or more: only a side whose SAN is ≥ 4 makes the dr (from SAN 8 "
        "on, every dr reduces it).",
        "The EX's '(the +2 drm is - 4 = 2)' is garbled; read as '(6 - 4 = 2)'.",
    ),
)

_SHIFT_DAGGER = (
    "† Each Personnel unit suffers Casualty Reduction on a subsequent dr of ≥ 4. Each "
    "vehicle is Eliminated on a subsequent dr of ≥ 5; if it is Eliminated, make a CS DR "
    "for its Inherent crew (if any; Casualty Reduction is NA). Roll separately for each "
    "unit."
)

# 8.613 SHIFT TABLE. The OCR lost the "†" and "‡" markers of the second and third
# footnotes; read by their text and order.
SHIFT = Table(
    id="kgp:8.613",
    rule="8.613",
    title="Shift Table",
    dice=2,
    bands=(
        le(8, "Shifted safely"),
        span(
            9,
            10,
            "No Shift",
            "* Unit/group cannot Shift (the orders were not received or could not be "
            "carried out). It may not attempt to Shift again until the next CG Date, and "
            "must remain in its current Holding Box (if Retained off-map) or Setup Area "
            "(if Retained on-map), though it may participate normally in the next CG "
            "scenario.",
        ),
        eq(
            11,
            "Shifted with Casualties",
            _SHIFT_DAGGER,
            follow_up=("kgp:8.613-casualty-personnel", "kgp:8.613-casualty-vehicle"),
        ),
        ge(12, "All units, Inherent crews and Equipment Eliminated"),
    ),
    drms=(
        fixed(
            "road",
            -1,
            "If that entire path can be traced on road hexes (‡ Not applicable to a Shift "
            "from one Entry Area to another)",
        ),
        per(
            "uncontrolled-hexes",
            1,
            "Per every 5 Uncontrolled-Territory hexes along that path between the current "
            "Setup/Entry Area and the desired new Setup/Entry Area (‡ Not applicable to a "
            "Shift from one Entry Area to another)",
            counts="Uncontrolled-Territory hexes along that path",
            divisor=5,
        ),
    ),
    # 8.613: "Make a separate Secret DR on the following table for each
    # unit/group attempting to Shift".
    secret=True,
    notes=(
        "The OCR lost the markers of the second and third footnotes; by their text and "
        "order the second ('Each Personnel unit suffers Casualty Reduction ...') is '†' "
        "(on 'Shifted with Casualties') and the third ('Not applicable to a Shift from one "
        "Entry Area to another.') is '‡' (on both DRMs).",
        "No DR is made (the Shift is automatic) for a unit/group Retained in a Setup Area "
        "Shifting to an Eligible Entry Area that is part of/adjacent to that Setup Area.",
    ),
)

# 8.613 footnote †: "Each Personnel unit suffers Casualty Reduction on a
# subsequent dr of ≥ 4."
SHIFT_CASUALTY_PERSONNEL = Table(
    id="kgp:8.613-casualty-personnel",
    rule="8.613",
    title="Shifted with Casualties: Personnel unit",
    dice=1,
    bands=(
        le(3, "No Casualty Reduction"),
        ge(4, "Casualty Reduction"),
    ),
    notes=("Roll separately for each unit. The rule does not make this dr Secret.",),
)

# 8.613 footnote †: "Each vehicle is Eliminated on a subsequent dr of ≥ 5; if it
# is Eliminated, make a CS DR for its Inherent crew (if any; Casualty Reduction
# is NA)."
SHIFT_CASUALTY_VEHICLE = Table(
    id="kgp:8.613-casualty-vehicle",
    rule="8.613",
    title="Shifted with Casualties: vehicle",
    dice=1,
    bands=(
        le(4, "Not Eliminated"),
        ge(
            5,
            "Eliminated",
            "Make a CS DR for its Inherent crew (if any; Casualty Reduction is NA).",
        ),
    ),
    notes=(
        "Roll separately for each unit. The rule does not make this dr Secret.",
        "The CS DR is made on the rulebook's Crew Survival rules (D5.6), not here.",
    ),
)

# ---------------------------------------------------------------- 8.614

# 8.6141b IMMOBILIZATION REMOVAL TABLE.
IMMOBILIZATION_REMOVAL = Table(
    id="kgp:8.6141b",
    rule="8.6141b",
    title="Immobilization Removal Table",
    dice=1,
    bands=(
        le(2, "Becomes Mobile", "* And is Retained in its current Setup Area."),
        ge(3, "No Change"),
    ),
    drms=(
        valued(
            "armor-leader",
            "Per armor leader DRM",
            means="x is the armor leader's DRM as printed, e.g. -1 for a 9-1",
        ),
        fixed("non-qualified-use", 1, "If only Non-Qualified Use (A21.13) possible"),
        fixed("front-line-hex", 1, "If in Front-Line Hex"),
        fixed("isolated", 1, "If Isolated"),
        fixed("german", 1, "If German"),
    ),
)

# 8.6141c: "If the current CG Date is Dec 22 N, the German may make a Secret dr
# and automatically refuel a number of currently Out-of-Gas vehicles [EXC: PSW
# 234/2 and U.S. M10 TD] equal to that dr.20"
DEC22N_REFUEL = Table(
    id="kgp:8.6141c",
    rule="8.6141c",
    title="German Gas Siphoning: Dec 22 N refuel",
    # 8.6141c: "If the current CG Date is Dec 22 N, the German may make a Secret dr"
    sides=("German",),
    on_dates=("22 N",),
    dice=1,
    bands=(
        Band(
            None,
            None,
            "Automatically refuel {final} currently Out-of-Gas vehicle(s) "
            "[EXC: PSW 234/2 and U.S. M10 TD]",
        ),
    ),
    # 8.6141c: "the German may make a Secret dr".
    secret=True,
    notes=(
        "German only, and only if the current CG Date is Dec 22 N.",
        "The rule cites footnote 20, whose text is not in the seed.",
        "A refueled vehicle need not make its first otherwise-required Out-of-Gas DR.",
    ),
)

# 8.6142 WEAPON REPAIR TABLE.
WEAPON_REPAIR = Table(
    id="kgp:8.6142",
    rule="8.6142",
    title="Weapon Repair Table",
    dice=1,
    bands=(
        le(2, "Repaired"),
        ge(
            3,
            "Eliminated",
            "‡ If vehicular-mounted, the weapon is disabled; if MA, the AFV is immediately "
            "Recalled (8.6141d applies) [EXC: see SSR KGP12].",
        ),
    ),
    drms=(
        fixed("vehicular", -2, "If vehicular-mounted"),
        fixed("us", -1, "If U.S.", group="side"),
        fixed("non-qualified-use", 1, "If only Non-Qualified Use (A21.13) possible"),
        fixed("isolated", 1, "If Isolated"),
        fixed(
            "german-ammunition-shortage",
            1,
            "If German and suffering from Ammunition Shortage",
            group="side",
        ),
    ),
    notes=("† Captured weapon NA.",),
)

# 8.61421 BAZ/PSK/FT/DC: "If the Final dr is ≤ 4, that SW or mounted FT of a
# manned, mobile AFV is Retained in functioning order. Each dr made for a German
# SW receives a +1 drm, and an additional +1 drm if Ammunition Shortage (8.618)
# is already in effect."
SCW_FT_DC = Table(
    id="kgp:8.61421",
    rule="8.61421",
    title="BAZ/PSK/FT/DC",
    dice=1,
    bands=(
        le(4, "Retained in functioning order"),
        ge(5, "Not Retained"),
    ),
    drms=(
        fixed("german", 1, "Each dr made for a German SW"),
        fixed(
            "ammunition-shortage",
            1,
            "An additional +1 drm if Ammunition Shortage (8.618) is already in effect",
        ),
    ),
    notes=(
        "The seed states only the ≤ 4 result; ≥ 5 is read as the SW/FT not being Retained.",
        "Ammunition Shortage affects only the German OB (8.618), so its +1 is in "
        "addition to the German +1.",
    ),
)

# 8.6144 CAPTURED EQUIPMENT: "Make one dr for each functioning, captured,
# Retained Weapon ...: if ≥ 4 it is Eliminated (disabled if vehicular)."
CAPTURED_EQUIPMENT = Table(
    id="kgp:8.6144",
    rule="8.6144",
    title="Captured Equipment",
    dice=1,
    bands=(
        le(3, "No effect"),
        ge(4, "Eliminated (disabled if vehicular)"),
    ),
    notes=(
        "The seed states only the ≥ 4 result; ≤ 3 is read as no effect.",
        "Disablement of MA this way does not cause Recall.",
    ),
)

# 8.6146 SPECIAL AMMO: "Each such German Weapon ... must make a Final dr of ≤ 3
# (with a +1 drm if Ammunition Shortage [8.618] is already in effect) for each
# Depleted Ammo type in order for that special ammunition to be restored."
SPECIAL_AMMO = Table(
    id="kgp:8.6146",
    rule="8.6146",
    title="Special Ammo: German Depleted Ammo type",
    # 8.6146: U.S. Weapons are replenished without a roll; "Each such German
    # Weapon ... must make a Final dr of ≤ 3"
    sides=("German",),
    dice=1,
    bands=(
        le(3, "Special ammunition restored"),
        ge(4, "Not restored"),
    ),
    drms=(
        fixed(
            "ammunition-shortage",
            1,
            "If Ammunition Shortage [8.618] is already in effect",
        ),
    ),
    notes=("The seed states only the ≤ 3 result; ≥ 4 is read as not restored.",),
)

# ---------------------------------------------------------------- 8.615

# 8.615 FORTIFICATION/WRECK/IMMOBILE-VEHICLE REMOVAL TABLE. The OCR lost both
# footnote markers: "vs a Known minefield, ..." is "†" (on "Eliminated†") and
# "An original dr of 6 ..." is "‡" (on "≥ 4‡").
_ORIGINAL_6 = (
    "An original dr of 6 results in Casualty Reduction of a non-Isolated Elite MMC within "
    "that item's Setup Area (Assault Engineer if possible, otherwise owner's choice; if no "
    "Elite MMC is available, Reduce a First-Line MMC, etc.)."
)
REMOVAL = Table(
    id="kgp:8.615",
    rule="8.615",
    title="Fortification/Wreck/Immobile-Vehicle Removal Table",
    dice=1,
    bands=(
        le(
            3,
            "Eliminated",
            "† vs a Known minefield, this result Eliminates all mines (A-P and A-T) in the "
            "Location.",
        ),
        ge(4, "No Effect", f"‡ {_ORIGINAL_6}"),
    ),
    drms=(
        fixed(
            "front-line-hex",
            2,
            "Minefield/(Burnt-Out)-Wreck/immobile-vehicle is in a Front-Line Hex.",
            group="front-line",
        ),
        fixed(
            "roadblock-front-line-hex",
            2,
            "Roadblock is along/across a hexside of ≥ one Front-Line Hex.",
            group="front-line",
        ),
        fixed(
            "adjacent-front-line-hex",
            1,
            "Minefield/(Burnt-Out)-Wreck/immobile-vehicle is ADJACENT to, but not in, a "
            "Front-Line Hex.",
            group="front-line",
        ),
        fixed(
            "roadblock-adjacent-front-line-hex",
            1,
            "Roadblock is not along/across a hexside of a Front-Line Hex, but is "
            "along/across a hexside of a hex that is ADJACENT to a Front-Line Hex.",
            group="front-line",
        ),
        per(
            "assault-engineer",
            -1,
            "Per Assault Engineer HS-equivalent Retained in that Setup Area (vs "
            "minefield/roadblock only).",
            counts="Assault Engineer HS-equivalents Retained in that Setup Area (a squad is 2)",
        ),
    ),
    specials=(Special(original=6, text=_ORIGINAL_6),),
    notes=(
        "The OCR lost both footnote markers; 'vs a Known minefield, ...' is read as '†' "
        "(on 'Eliminated') and 'An original dr of 6 ...' as '‡' (on '≥ 4').",
        "The Original 6 result is read as applying whatever the Final dr.",
        "The four Front-Line Hex drm exclude each other (one item is either a "
        "minefield/wreck/immobile vehicle or a roadblock, and either in/along or "
        "adjacent to a Front-Line Hex): they share one group.",
    ),
)

TABLES = registry(
    ESCAPE_INFANTRY,
    ESCAPE_VEHICLE,
    ESCAPE_EQUIPMENT,
    WOUNDED_LEADER,
    MMC_BATTLE_HARDENING,
    LEADER_BATTLE_HARDENING,
    SAN_ADJUSTMENT,
    SHIFT,
    SHIFT_CASUALTY_PERSONNEL,
    SHIFT_CASUALTY_VEHICLE,
    IMMOBILIZATION_REMOVAL,
    DEC22N_REFUEL,
    WEAPON_REPAIR,
    SCW_FT_DC,
    CAPTURED_EQUIPMENT,
    SPECIAL_AMMO,
    REMOVAL,
)
