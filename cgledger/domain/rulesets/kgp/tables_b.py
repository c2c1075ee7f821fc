"""KGP die tables of 8.616-8.625 and of the CG/KGP SSR, as data.

Sources: seed ``000_…`` (8.616-8.618), seed ``001_…`` up to its "IMPORTANT:"
paragraph (8.619-8.625) and seed ``002_…`` (CG SSR CG1-CG23, KGP SSR
KGP1-KGP18). Each constant cites its rule; results are in the table's own
words, footnote markers stripped from results and footnote texts in the band
``notes`` with their marker.

Readings of garbled or cut-off OCR and other interpretations (also in each
table's ``notes``):

* 8.616: the rule gives no lower limit; the amount is floored at 0 because a
  negative CPP receipt makes no sense (existing reading).
* 8.6171: the two footnote lines under the Random Weather Table lost their
  markers; by content "Also make a subsequent dr on the KGP Random Mist Density
  Table" is † (the Mist results) and "There is no Mist initially, but make Mist
  Change DR ..." is ‡ (the Overcast and Clear results). The leading "*" of the
  title marks the optional rule and is dropped.
* 8.6171 Mist Density: the first row reads "0"; written open below (≤ 0).
* 8.618: only the ≥ 12 result is worded; the ≤ 11 band is its absence.
* 8.6201: "+1 Per day after Dec 19 N" counts the days past 19 December, as in
  the 8.6205 EX (21 AM: "two days past 19 December", +2).
* 8.6202: the Elite cell reads "6-6-7/3/4/7"; read "6-6-7/3-4-7" (the OCR turned
  a hyphen into a slash). "U S." in the title is "U.S.".
* 8.6203: "M4A1x4", "M4A1x3" are spaced like the other cells ("M4A1 x4"). The
  rule does not say which of RG V3/V4 uses table I or II.
* 8.6205: the rule is cut off after "receives all Equipment/". Its EX has the
  Depleted HW Pltn make "a separate Secret dr for each piece of Equipment" and
  then says "Using the above methods for Depleted RG"; read as the 8.6204
  method: received on an Original dr ≤ 4, otherwise forfeit.
* 8.6206: the OCR lost the column headers ("Personnel Leader", "Personnel
  Leader", "Armor Leader"). Which is U.S. is a reading the players agree
  (``kgp.readings.LEADER_COLUMNS``, DESIGN §14); by default the first
  personnel column is U.S. and the second German: these rules list the U.S.
  before the German in every side-by-side chart (8.6161 CPP Base # pairs, as
  this project already reads them; 8.6204 SW charts; the 8.621 footnote
  "U.S./German"), and the sibling
  CG leader table (seed 003, 9.6183) puts the Allied column, which is also the
  better one, first. The armor column serves both sides (its "*" names the
  German Pz VIB; KGP17 has U.S. armor leaders). The DRM cut off as "+1 If the
  current CG Date is or/" is kept with its surviving words ("or/" read as the
  usual "on/"); nothing of it says NA to any column, so it is on all three.
  Rows with the same leader are merged (U.S. 5-6: 8-1; German 7-9: 7-0; armor
  ≥ 6: no leader).
* 8.625: the paragraph is cut off ("If this is a (day/"); the table itself is
  whole.
* KGP3: the Mist Change DR sentence is repeated and garbled; "is s 3" is read
  "≤ 3". The Air Support paragraph repeats "the dr is made during the
  reinforcement step of the made for ..."; read "the dr is made during the
  reinforcement step of the group's ATTACKER RPh".
* KGP13: "21 December.24" carries the rules footnote 24 (not in the seed),
  stripped.
* CG23: the circled numbers are not in the seed; the input ``circled`` takes
  1-6, every value a Game End dr can be compared with.
* CG5: the current Game Turn number is an input (1-20): the seed gives no
  turn limit, KGP16 has scenarios "≥ eleven turns in length", and from
  Turn 7 on every dr is below it.

Not here, because the seed refers to another rulebook's table or gives no
results: KGP2 Wind Change DR (E3), KGP8 Secret Bog DR and its cellar check
(D8/B23.41; the cellar is read off the colored die of a Bog DR), KGP15 PF
(C13), KGP17 Gyrostabilizer dr (H1.42), CG8 optional armament (H1.41), CG5 NVR
(E1.1), CG16 Sniper selection dr (the player assigns the numbers), CG21 NTC.
The 8.6161 CPP Base # Chart, the KGP Historical Weather Chart, the KGP Mist LV
DRM Chart, the 8.6204 SW charts, the 8.621 Fortification Purchase Table and
the 8.6232 Initiative matrix are charts, not die tables.

Every first band is open below and every last band open above, even where no
listed DRM reaches past 2/12 or 1/6, so an "other" DRM still lands in a band.
"""

from __future__ import annotations

from cgledger.domain.tables import (
    Amount,
    Band,
    DrmDef,
    InputDef,
    Ref,
    Table,
    eq,
    fixed,
    ge,
    le,
    per,
    registry,
    span,
)

# 8.616 CPP REPLENISHMENT (8.6162 EX: Base # 30, DR 6 -> 24)
CPP_REPLENISHMENT = Table(
    id="kgp:8.616",
    rule="8.616",
    title="CPP Replenishment",
    dice=2,
    bands=(Band(None, None, "CPP Replenished"),),
    inputs=(
        InputDef(
            "base", "The side's CPP Base # (8.6161) for the current CG Date and CG", lo=0, hi=200
        ),
    ),
    # Reading: 8.616 gives no lower limit; floored at 0 (a negative receipt makes no sense).
    amount=Amount(input="base", sign=-1, label="CPP Replenished", floor=0),
    # 8.616: "the CPP Base # (8.6161) minus a Secret DR (see also 8.31)"
    secret=True,
    notes=(
        "The CPP Base # (8.6161) minus a Secret DR = the final amount of CPP Replenished; "
        "this final amount should be kept secret.",
        "8.616 gives no lower limit; the amount is never below 0 (a negative receipt makes "
        "no sense).",
    ),
    endpoint="/cpp-replenishments",
)

# 8.6171 KGP RANDOM WEATHER TABLE (optional; players use it by mutual consent)
# Reading: the two footnote lines lost their markers in the OCR; by content the Mist
# Density dr is † (the Mist rows) and "There is no Mist initially..." is ‡.
_WIND = "§ Wind applies as per SSR KGP2."
_MIST = "† Also make a subsequent dr on the KGP Random Mist Density Table below."
_NO_MIST = (
    "‡ There is no Mist initially, but make Mist Change DR as per SSR KGP3 unless the "
    "current CG Date is Dec 22 N or later."
)
MIST_DENSITY_ID = "kgp:8.6171-mist"
RANDOM_WEATHER = Table(
    id="kgp:8.6171",
    rule="8.6171",
    title="KGP Random Weather Table",
    # 8.6171: "the U.S. player makes a DR on the KGP Random Weather Table"
    sides=("US",),
    dice=2,
    bands=(
        le(3, "Mist & Overcast", _WIND, _MIST, follow_up=(MIST_DENSITY_ID,)),
        span(4, 8, "Mist", _WIND, _MIST, follow_up=(MIST_DENSITY_ID,)),
        eq(9, "Overcast", _WIND, _NO_MIST),
        ge(10, "Clear", _WIND, _NO_MIST),
    ),
    drms=(
        fixed(
            "preceding-overcast",
            -1,
            "If the preceding CG Date's Weather was Overcast",
            group="preceding-weather",
        ),
        fixed("am", -1, "If the current CG Date is AM"),
        fixed(
            "preceding-clear",
            +1,
            "If the preceding CG Date's Weather was Clear",
            group="preceding-weather",
        ),
        fixed("dec-22-n-or-later", +1, "If the current CG Date is Dec 22 N or later"),
    ),
    notes=(
        "Optional (8.617): used in lieu of the KGP Historical Weather Chart by mutual consent; "
        "the U.S. player makes the DR.",
        "The two footnote lines lost their markers in the OCR; by content the Mist Density dr "
        "is † (the Mist results) and 'There is no Mist initially...' is ‡ (Overcast, Clear).",
    ),
)

# 8.6171 KGP RANDOM MIST DENSITY TABLE
# Reading: the first row reads "0"; written open below (≤ 0).
RANDOM_MIST_DENSITY = Table(
    id=MIST_DENSITY_ID,
    rule="8.6171",
    title="KGP Random Mist Density Table",
    # 8.6171: the U.S. player's "subsequent dr" after his Random Weather DR.
    sides=("US",),
    dice=1,
    bands=(
        le(0, "Extremely Heavy"),
        eq(1, "Very Heavy"),
        span(2, 3, "Heavy"),
        span(4, 5, "Moderate"),
        span(6, 7, "Light"),
        ge(8, "Very Light"),
    ),
    drms=(
        fixed("am", -1, "If the current CG Date is AM", group="time-of-day"),
        fixed("pm", +1, "If the current CG Date is PM", group="time-of-day"),
        fixed("dec-21-n-or-later", +2, "If the current CG Date is Dec 21 N or later"),
    ),
    notes=("The first row reads '0'; written open below (≤ 0).",),
)

# 8.618 GERMAN AMMUNITION SHORTAGE
AMMUNITION_SHORTAGE = Table(
    id="kgp:8.618",
    rule="8.618",
    title="German Ammunition Shortage DR",
    # 8.618: "Beginning on Dec 20 AM, and on each CG Date thereafter (if
    # necessary), the German makes a DR"
    sides=("German",),
    from_date="20 AM",
    endpoint="/ammunition-shortage",
    dice=2,
    bands=(
        le(11, "No Ammunition Shortage"),
        ge(
            12,
            "The German OB suffers from Ammunition Shortage (A19.131) for the duration of the CG",
        ),
    ),
    drms=(
        per(
            "scenarios-after-20-am",
            +1,
            "Per CG scenario completed after 20 AM",
            counts="CG scenarios completed after 20 AM",
        ),
    ),
    notes=(
        "Made beginning on Dec 20 AM, and on each CG Date thereafter (if necessary).",
        "Only the ≥ 12 result is worded; ≤ 11 is its absence.",
    ),
)

# 8.6201 GERMAN RG STRENGTH TABLE
RG_STRENGTH = Table(
    id="kgp:8.6201",
    rule="8.6201",
    title="German RG Strength Table",
    # 8.6201: "For each such RG the German player has just purchased ... he must make one DR"
    sides=("German",),
    dice=2,
    bands=(le(11, "Full Strength"), ge(12, "Depleted")),
    drms=(
        per(
            "days-after-dec-19",
            +1,
            "Per day after Dec 19 N",
            counts="days after Dec 19 N (the CG Date's day minus 19: 21 AM counts 2)",
        ),
        fixed("v-or-g", -1, 'If "V" or "G"-type of RG'),
    ),
    # 8.6205 EX: "The German now makes a separate Secret DR for each"
    secret=True,
    notes=(
        "One DR for each German RG whose ID begins with 'I', 'V', 'G' or 'HW'.",
        "'Per day after Dec 19 N' counts the days past 19 December, as in the 8.6205 EX "
        "(21 AM: 'two days past 19 December', +2).",
    ),
)

# 8.6202 U.S. (ARM'D) INF PLTN QUALITY
# Reading: the Elite cell reads "6-6-7/3/4/7"; read "6-6-7/3-4-7" (hyphen OCR'd as a slash).
INF_PLTN_QUALITY = Table(
    id="kgp:8.6202",
    rule="8.6202",
    title="U.S. (Arm'd) Inf Pltn Quality",
    # 8.6202: "The U.S. player must make one dr for each such just-purchased ... RG"
    sides=("US",),
    dice=1,
    bands=(
        le(1, "Elite (6-6-7/3-4-7)"),
        span(2, 4, "1st Line (6-6-6/3-4-6)"),
        eq(5, "2nd Line (5-4-6/2-3-6)"),
        ge(6, "Green (5-3-6/2-2-6)"),
    ),
    drms=(fixed("armd", -1, 'If "Arm\'d" RG (I6 or I8)'),),
    notes=(
        "The Elite cell reads '6-6-7/3/4/7' in the OCR; read '6-6-7/3-4-7'.",
        "Each MMC of that RG must be of the dr-determined type.",
    ),
)


# 8.6203 U.S. MEDIUM TANK MODELS
# Reading: "M4A1x4" and "M4A1x3" are spaced like the other cells ("M4A1 x4").
def _med_tank(suffix: str, rows: tuple[tuple[int, int, str], ...]) -> Table:
    bands = [span(lo, hi, r) for lo, hi, r in rows]
    bands[0] = le(rows[0][1], rows[0][2])
    bands[-1] = ge(rows[-1][0], rows[-1][2])
    return Table(
        id=f"kgp:8.6203-{suffix}",
        rule="8.6203",
        title=f"U.S. Medium Tank Models: Med Tank Pltn {suffix}",
        # 8.6203: "for each purchased or OB-given U.S. Med Tank Pltn"
        sides=("US",),
        dice=2,
        bands=tuple(bands),
        notes=(
            "One DR for each purchased or OB-given U.S. Med Tank Pltn (RG V3 or V4); the rule "
            "does not say which RG uses table I or II.",
            "'M4A1x4'/'M4A1x3' in the OCR are spaced like the other cells.",
        ),
    )


MED_TANK_PLTN_I = _med_tank(
    "I",
    ((2, 2, "M4A1 x4; M4A3E2(L)"), (3, 3, "M4A1 x3; M4A3E2; M4A1(76)W"),
     (4, 5, "M4 x4; M4A3(76)W"), (6, 8, "M4A1 x5"), (9, 10, "M4A1 x3; M4 x2"),
     (11, 12, "M4A1 x3; M4A1(76)W; M4")),
)  # fmt: skip
MED_TANK_PLTN_II = _med_tank(
    "II",
    ((2, 2, "M4A3(76)W x2; M4A3(75)W x2; M4A3E2(L)"), (3, 3, "M4A3 x4; M4A3E2"),
     (4, 6, "M4A3(75)W x4; M4A3(76)W"), (7, 8, "M4A3 x5"),
     (9, 10, "M4A3(75)W x3; M4A3(76)W x2"), (11, 11, "M4A3(76)W x5"),
     (12, 12, "M4A3(76)W x2; M4A3(75)W x2; M4A3E2")),
)  # fmt: skip

# 8.6204 INFANTRY-TYPE-PLTN SW: one Secret dr per SW of a Depleted platoon
DEPLETED_PLTN_SW = Table(
    id="kgp:8.6204",
    rule="8.6204",
    title="Infantry-Type-Pltn SW: Depleted Pltn SW dr",
    # 8.6204: "A Depleted (German; 8.6201) platoon RG must have a Secret dr made for each SW"
    sides=("German",),
    dice=1,
    bands=(le(4, "The SW is in the platoon's OB"), ge(5, "The SW is forfeit")),
    # 8.6204: "A Depleted (German; 8.6201) platoon RG must have a Secret dr made for each SW"
    secret=True,
    by="original",
    notes=(
        "A Full-Strength platoon receives the entire complement of SW listed for it; no dr.",
        "‡ If the platoon is Depleted, each listed SW is received only on a dr of ≤ 4.",
    ),
)

# 8.6205 GERMAN HW PLTN: one Secret dr per Equipment piece of a Depleted HW Pltn
# Reading: the rule is cut off ("receives all Equipment/"); the EX's "Using the above
# methods for Depleted RG" is read as the 8.6204 method: Original dr ≤ 4 received.
HW_PLTN_EQUIPMENT = Table(
    id="kgp:8.6205",
    rule="8.6205",
    title="German HW Pltn: Depleted HW Pltn Equipment dr",
    # 8.6205: "Each Full-Strength German 'HW'-type Pltn RG ..." (a Depleted one rolls)
    sides=("German",),
    dice=1,
    bands=(
        le(4, "The Equipment piece is received"),
        ge(
            5,
            "The Equipment piece is forfeit",
            "EXC: each HW Pltn will always receive ≥ two Equipment pieces.",
        ),
    ),
    # 8.6205 EX: "The German makes a separate Secret dr for each piece of Equipment"
    secret=True,
    by="original",
    notes=(
        'The rule is cut off after \'Each Full-Strength German "HW"-type Pltn RG receives all '
        "Equipment/'. Its EX has a Depleted HW Pltn make a separate Secret dr for each piece "
        "of Equipment allotted to a Full-Strength one and then speaks of 'the above methods "
        "for Depleted RG'; read as the 8.6204 method: received on an Original dr ≤ 4, "
        "otherwise forfeit.",
        "A Full-Strength HW Pltn receives all its Equipment; no dr.",
    ),
)

# 8.6206 LEADER TABLES
# Reading: the OCR lost the column headers; which "Personnel Leader" column is the U.S.
# one is a reading the players agree (``kgp.readings.LEADER_COLUMNS``, DESIGN §14): by
# default the first is U.S., the second German. The DRM cut off as "+1 If the current
# CG Date is or/" keeps its surviving words ("or/" read "on/") and applies to all three
# columns.
NO_LEADER = "No leader (-)"
_ELITE = fixed("all-elite", -1, "If all MMC in the RG are Elite (NA to armor leader)")
_DEPLETED = fixed("depleted", +1, "If the RG is Depleted (NA to U.S.)")
_CG_DATE = fixed("cg-date", +1, "If the current CG Date is or/…")
_LEADER_NOTES = (
    "One Secret DR for each purchased/OB-given 'I'-type RG with RG-chart footnote 'l' and "
    "each 'V'-type RG with footnote 'a'. '-': no leader is received.",
    "The OCR lost the column headers (two 'Personnel Leader' columns, one 'Armor Leader'). "
    "The first personnel column is read as U.S., the second as German (UNVERIFIED: the seed "
    "cannot tell them apart): these rules tend to list the U.S. first (8.6204's SW charts, "
    "8.621 footnote 2 'U.S./'), and the sibling CG leader table (9.6183) puts the Allied, "
    "better, column first. The armor column serves both sides. If wrong, swap the two "
    "columns' bands.",
    "The DRM '+1 If the current CG Date is or/' is cut off after 'or/' (probably 'on/after' "
    "some date); its text keeps the seed's words and, as nothing says it is NA to a column, "
    "it is on all three.",
)


def _leader(
    suffix: str,
    column: str,
    drms: tuple[DrmDef, ...],
    bands: tuple[Band, ...],
    *notes: str,
    sides: tuple[str, ...] = (),
) -> Table:
    return Table(
        id=f"kgp:8.6206-{suffix}",
        rule="8.6206",
        title=f"Leader Tables: {column}",
        dice=2,
        bands=bands,
        drms=drms,
        # 8.6206: "make one Secret DR on the appropriate column of the following table"
        secret=True,
        notes=(*_LEADER_NOTES, *notes),
        # A personnel column serves its side's RG; the armor column both sides'.
        sides=sides,
    )


#: The two personnel columns as printed, first and second, with their notes.
_COLUMN_1 = (
    (le(1, "10-3"), eq(2, "10-2"), eq(3, "9-2"), eq(4, "9-1"), span(5, 6, "8-1"),
     span(7, 8, "8-0"), eq(9, "7-0"), eq(10, "6+1"), ge(11, NO_LEADER)),
    "Rows 5 and 6 both read 8-1 and are one band; the first row reads '1' (written ≤ 1).",
)  # fmt: skip
_COLUMN_2 = (
    (le(1, "10-3"), eq(2, "10-2"), eq(3, "9-2"), eq(4, "9-1"), eq(5, "8-1"), eq(6, "8-0"),
     span(7, 9, "7-0"), eq(10, "6+1"), ge(11, NO_LEADER)),
    "Rows 7-8 and 9 both read 7-0 and are one band; the first row reads '1' (written ≤ 1).",
)  # fmt: skip
_US_DRMS = (_ELITE, _CG_DATE)
_GERMAN_DRMS = (_ELITE, _DEPLETED, _CG_DATE)
LEADER_US = _leader("us", "U.S. Personnel Leader", _US_DRMS, *_COLUMN_1, sides=("US",))
LEADER_GERMAN = _leader(
    "german", "German Personnel Leader", _GERMAN_DRMS, *_COLUMN_2, sides=("German",)
)
# The reading "leader-columns": "german-first" (``kgp.readings.LEADER_COLUMNS``,
# DESIGN §14): each side reads the other personnel column, with its own DRMs.
_SWAPPED = (
    "Read only under the reading 'leader-columns': 'german-first' (GET "
    "/v1/rulesets/kgp/readings): the first personnel column is the German one, the "
    "second the U.S. one."
)
LEADER_US_COLUMN_2 = _leader(
    "us-column-2",
    "U.S. Personnel Leader (second column)",
    _US_DRMS,
    *_COLUMN_2,
    _SWAPPED,
    sides=("US",),
)
LEADER_GERMAN_COLUMN_1 = _leader(
    "german-column-1",
    "German Personnel Leader (first column)",
    _GERMAN_DRMS,
    *_COLUMN_1,
    _SWAPPED,
    sides=("German",),
)
LEADER_ARMOR = _leader(
    "armor",
    "Armor Leader",
    (_DEPLETED, _CG_DATE),
    (le(1, NO_LEADER), eq(2, "10-2"), eq(3, "9-2"), eq(4, "9-1"),
     eq(5, "8-1", "* Exchange for a 9-1 armor leader if for a Pz VIB RG"),
     ge(6, NO_LEADER)),
    "The first row ('1') reads '-'; the listed armor DRMs cannot bring a DR below 2. "
    "Rows 6 to ≥ 11 all read '-' and are one band.",
)  # fmt: skip

# 8.622 PURCHASING RECONNAISSANCE: the Recon dr
RECON = Table(
    id="kgp:8.622",
    rule="8.622",
    title="Recon dr",
    dice=1,
    bands=(Band(None, None, "{final} Location(s) may be reconnoitered (8.6243)"),),
    drms=(
        fixed("spent-2-cpp", +5, "Spent 2 CPP"),
        fixed("lax", -1, "Reconnoitering side's Majority Squad Type (E.4) is Lax"),
    ),
    notes=(
        "A Recon Final dr is the number of Locations in which the opponent will have to "
        "reveal units and Fortifications, if he has in fact set up in them (8.6243).",
        "Costs one CPP, or two for the +5 drm; NA when preparing to play an Initial Scenario.",
    ),
    endpoint="/recon",
)

# 8.6233a DUAL ATTACK: which side sets up first (the U.S. player's dr)
DUAL_ATTACK_SETUP = Table(
    id="kgp:8.6233a",
    rule="8.6233a",
    title="Dual Attack: Setup dr",
    # 8.6233a: "The U.S. player makes a dr to determine which side sets up first"
    sides=("US",),
    dice=1,
    bands=(le(3, "The U.S. sets up first"), ge(4, "The German sets up first")),
    notes=("The U.S. player makes the dr; the side moving first is determined in 8.625.",),
)

# 8.625 DUAL ATTACK TABLE
DUAL_ATTACK = Table(
    id="kgp:8.625",
    rule="8.625",
    title="Dual Attack Table",
    dice=1,
    bands=(le(3, "Side Moving First: U.S."), ge(4, "Side Moving First: German")),
    notes=("The 8.625 paragraph is cut off ('If this is a (day/'); the table is whole.",),
)

# CG5 CG NIGHT SCENARIO: the Scenario Defender's RPh reinforcement dr
# Reading: the current Game Turn number is an input, 1-20 (no turn limit in the seed).
NIGHT_REINFORCEMENT = Table(
    id="kgp:CG5-reinforcement",
    rule="CG5",
    title="CG Night Scenario: Scenario Defender Reinforcement dr",
    dice=1,
    bands=(
        le(
            Ref("turn", -1),
            "The Retained Scenario Defender reinforcements may enter at an Eligible Entry Area",
        ),
        ge(Ref("turn"), "The reinforcements remain Retained off-map"),
    ),
    inputs=(InputDef("turn", "The current Game Turn number", lo=1, hi=20),),
    notes=(
        "They enter only following a RPh reinforcement dr of < the current Game Turn number, "
        "or automatically once any Scenario Defender unit has been attacked by other than "
        "OBA/Sniper or has seen a Known enemy unit.",
        "The seed gives no turn limit (KGP16 has scenarios ≥ eleven turns long); 'turn' takes "
        "1-20, and from Turn 7 on every dr is below it.",
    ),
)

# CG23 GAME END
# Reading: the circled numbers are not in the seed; "circled" takes 1-6, the values a dr
# can be compared with.
GAME_END = Table(
    id="kgp:CG23",
    rule="CG23",
    title="Game End dr",
    dice=1,
    bands=(
        le(Ref("circled"), "The scenario ends immediately"),
        ge(Ref("circled", 1), "Play continues"),
    ),
    drms=(fixed("night", +1, "Each CG Night scenario Game End dr"),),
    inputs=(
        InputDef(
            "circled",
            "The circled number in the current turn's box on the CG Turn Record Chart",
            lo=1,
            hi=6,
        ),
    ),
    notes=(
        "The ATTACKER makes the dr at the end of each Player Turn of Turn 6 and thereafter.",
        "The circled numbers are not in the seed; 'circled' takes 1-6, every value a "
        "Game End dr can be compared with.",
    ),
)

# KGP3 KGP MIST: Mist Change DR
# Reading: the OCR repeats and garbles the sentence; "is s 3" is read "≤ 3".
MIST_CHANGE = Table(
    id="kgp:KGP3-mist-change",
    rule="KGP3",
    title="Mist Change DR",
    dice=2,
    bands=(
        le(
            3,
            'The Mist density decreases one level (Very Light Mist would become "no mist")',
            "EXC: if it is raining, the Mist density cannot fall below that of the rain's "
            "current intensity.",
        ),
        span(4, 10, "No change"),
        ge(11, "The density increases one level", "Mist density can never exceed Extremely Heavy."),
    ),
    drms=(fixed("pm", -1, 'In each "PM" scenario'),),
    notes=(
        "Made immediately following each Wind Change DR, unless stated as NA (8.617: Dec 22 N "
        "and later).",
        "The OCR repeats and garbles the sentence; 'is s 3' is read '≤ 3'.",
    ),
)

# KGP3 AIR SUPPORT: Recall dr while the Mist density is > Light
# Reading: "the reinforcement step of the made for ..." is repeated OCR; read "the
# reinforcement step of the group's ATTACKER RPh".
AIR_SUPPORT_RECALL = Table(
    id="kgp:KGP3-recall",
    rule="KGP3",
    title="Air Support Recall dr",
    dice=1,
    bands=(le(5, "Not Recalled"), ge(6, "That group is immediately Recalled")),
    notes=(
        "One dr for each group of FB that arrived on-map together, while the Mist density is "
        "> Light, in the reinforcement step of the group's ATTACKER RPh.",
        "The OCR repeats 'the reinforcement step of the made for ...'; read 'the reinforcement "
        "step of the group's ATTACKER RPh'. Only the 6 is worded; 1-5 is its absence.",
    ),
)

# KGP13 GERMAN FUEL SHORTAGE: Out-of-Gas DR
# Reading: "21 December.24" carries rules footnote 24 (not in the seed), stripped.
OUT_OF_GAS = Table(
    id="kgp:KGP13",
    rule="KGP13",
    title="Out-of-Gas DR",
    # KGP13: "Commencing on Dec 20 AM, before an on-map German vehicle attempts to expend its first
    # MP"
    sides=("German",),
    from_date="20 AM",
    dice=2,
    bands=(
        le(11, "Not out of fuel"),
        ge(
            12,
            'The vehicle is out of fuel and thus immobilized; mark it with an "Out of Gas" counter',
        ),
    ),
    drms=(
        per(
            "days-after-dec-21",
            +1,
            "Per day after 21 December",
            counts="days after 21 December (the CG Date's day minus 21)",
        ),
    ),
    notes=(
        "Commencing on Dec 20 AM, before an on-map German vehicle attempts to expend its first "
        "MP in its MPh, and whenever it attempts to change its VCA in any other phase.",
        "'21 December.24' carries rules footnote 24 (not in the seed), stripped. Only the "
        "≥ 12 result is worded; ≤ 11 is its absence.",
    ),
)

TABLES = registry(
    CPP_REPLENISHMENT,
    RANDOM_WEATHER,
    RANDOM_MIST_DENSITY,
    AMMUNITION_SHORTAGE,
    RG_STRENGTH,
    INF_PLTN_QUALITY,
    MED_TANK_PLTN_I,
    MED_TANK_PLTN_II,
    DEPLETED_PLTN_SW,
    HW_PLTN_EQUIPMENT,
    LEADER_US,
    LEADER_GERMAN,
    LEADER_ARMOR,
    LEADER_US_COLUMN_2,
    LEADER_GERMAN_COLUMN_1,
    RECON,
    DUAL_ATTACK_SETUP,
    DUAL_ATTACK,
    NIGHT_REINFORCEMENT,
    GAME_END,
    MIST_CHANGE,
    AIR_SUPPORT_RECALL,
    OUT_OF_GAS,
)
