"""KGP purchases as data (seed ``001_…``): 8.6194's CPP-cost modifiers, the
rolls 8.6201-8.6206 that determine each RG on the RG Purchase Record, and the
8.621 Fortification Purchase Table.

Readings (each easy to correct here):

* 8.6194a STANDARD ON-MAP SETUP is cut by the OCR after "each U.S./"; its
  price change is a reading the players agree (``kgp_readings.STANDARD_ON_MAP``,
  DESIGN §14; by default b)'s +50% (FRD)), for the same ID letters (and "HW"
  for the German).
* 8.6206: which personnel column is the U.S. one is a reading
  (``kgp_readings.LEADER_COLUMNS``; by default the first).
* 8.6194b reads 'T', "V" or "G"; 'T' is read "I", the letters 8.6197 names.
* 8.6203 does not say which Med Tank Pltn uses table I or II: V3 is read as
  table I and V4 as table II, unless the chart line names its table
  (``determination_table``).
* 8.6206 "-1 If all MMC in the RG are Elite": the chart line's ``elite``
  says it (true: applied; false: never); left null, the 8.6202 Elite result
  decides for a U.S. I1/I6/I8, and the roller states it for any other RG.
* 8.6204's SW charts lose their empty cells in the OCR, so the SW a
  platoon receives come from its chart line (``sw``), as typed by the players.
* 8.6205 is cut after "receives all Equipment/": a Depleted HW Pltn makes an
  Original dr per piece listed in its chart line (``equipment``), ≤ 4
  received (the 8.6205 EX's "above methods"); the EXC "each HW Pltn will
  always receive ≥ two Equipment pieces" is the row's ``note`` when the drs
  gave fewer (the rule does not say which pieces; the player chooses).
* 8.621: footnote 2 is cut after "U.S./"; read "U.S./German": the A-P factor
  costs 1 (U.S.) or 1.5 (German) FPP, the A-T factor 3 or 4 (the EX: 16 FPP
  for four German A-T factors). Footnote 3 "Squad/HS/" is read
  Squad/HS/Crew/SMC (the EX). The flags glued to the type names ("TrenchiS",
  "FoxholeFiS") are read as the footnotes F, i and S.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cgledger.domain.purchases import (
    FULL_DEPLETED,
    RECEIVED_FORFEIT,
    FortTable,
    FortType,
    Need,
    PriceModifier,
    PurchaseRules,
    Row,
)
from cgledger.domain.rulesets.kgp import readings as kgp_readings

US = "US"
GERMAN = "German"

MODIFIERS = (
    PriceModifier(
        "standard-on-map",
        "8.6194a",
        "Standard On-Map Setup",
        50,
        "FRD",
        (US, GERMAN),
        ("I", "V", "G", "HW"),
        reading="cut by the OCR after 'each U.S./'; its amount is the reading "
        "'standard-on-map-cost' (GET /v1/rulesets/kgp/readings)",
        amount_reading=kgp_readings.STANDARD_ON_MAP.id,
        amounts=(("plus-50-frd", 50, "FRD"), ("plus-50-fru", 50, "FRU"), ("plus-100", 100, "FRD")),
        # Which RG, cut too: the reading 'standard-on-map-rgs'.
        prefixes_reading=kgp_readings.STANDARD_ON_MAP_RGS.id,
        prefixes_by_choice=(("i-v-g-hw", ("I", "V", "G", "HW")), ("every-rg", ("",))),
    ),
    PriceModifier(
        "early-entry",
        "8.6194b",
        "U.S. Early Entry",
        50,
        "FRD",
        (US,),
        ("I", "V", "G"),
        reading="the OCR's 'T' is read 'I' (8.6197: each 'I', 'V' and 'G' RG type)",
    ),
)

_STRENGTH = "kgp:8.6201"
_QUALITY = "kgp:8.6202"
_SW = "kgp:8.6204"
_HW = "kgp:8.6205"
#: 8.6203, read: V3 on table I, V4 on table II (a chart line's
#: ``determination_table`` names another).
MED_TANK = {"V3": "kgp:8.6203-I", "V4": "kgp:8.6203-II"}
#: 8.6203's tables, "the appropriate table below".
MED_TANK_TABLES = ("kgp:8.6203-I", "kgp:8.6203-II")
#: 8.6202: "Each U.S. Inf Pltn (RG I1), Arm'd Inf Pltn (RG I6) and Arm'd MG Pltn (RG I8)".
QUALITY_RG = ("I1", "I6", "I8")
#: 8.6206's personnel columns by side, under each choice of ``kgp_readings.LEADER_COLUMNS``.
_LEADER = {
    "us-first": {US: "kgp:8.6206-us", GERMAN: "kgp:8.6206-german"},
    "german-first": {US: "kgp:8.6206-us-column-2", GERMAN: "kgp:8.6206-german-column-1"},
}
_ARMOR_LEADER = "kgp:8.6206-armor"


def needs(side: str, entry: Mapping[str, Any], row: Row, readings: Mapping[str, str]) -> list[Need]:
    """The rolls an RG on the record needs, in order, as far as its results so
    far decide them (a Depleted platoon's SW rolls appear once 8.6201 says
    Depleted), under the ``readings`` in force (DESIGN §14)."""
    rg = str(entry["id"])
    done = row["results"]
    out: list[Need] = []
    # 8.6201: each German RG whose ID begins with "I", "V", "G" or "HW".
    depletes = side == GERMAN and rg.startswith(("I", "V", "G", "HW"))
    if depletes:
        vg = rg.startswith(("V", "G"))
        out.append(
            Need(
                "strength",
                _STRENGTH,
                "8.6201",
                f"8.6201 RG Strength DR for {rg}",
                drms=("v-or-g",) if vg else (),
                decides=("v-or-g",),
                values=FULL_DEPLETED,
            )
        )
    # 8.6202: U.S. Inf Pltn (RG I1), Arm'd Inf Pltn (I6), Arm'd MG Pltn (I8).
    quality = side == US and rg in QUALITY_RG
    if quality:
        armd = rg in ("I6", "I8")
        out.append(
            Need(
                "quality",
                _QUALITY,
                "8.6202",
                f"8.6202 quality dr for {rg}",
                drms=("armd",) if armd else (),
                decides=("armd",),
            )
        )
    # 8.6203: each U.S. Med Tank Pltn (RG V3 or V4), on its chart line's table or the reading's.
    if side == US and rg in MED_TANK:
        table = entry.get("determination_table") or MED_TANK[rg]
        out.append(Need("models", table, "8.6203", f"8.6203 Med Tank models DR for {rg}"))
    if depletes and "strength" not in done:
        return out  # what follows depends on the RG's strength
    depleted = depletes and done["strength"]["value"] == "D"
    if depleted and rg.startswith("I"):
        # 8.6204: "a Secret dr made for each SW listed as available to a Full-Strength platoon".
        out += _per_piece("sw", _SW, "8.6204", rg, entry.get("sw") or ())
    if depleted and rg.startswith("HW"):
        out += _per_piece("equipment", _HW, "8.6205", rg, entry.get("equipment") or ())
    # 8.6206: "I"-type RG with footnote "l"; "V"-type RG with footnote "a".
    notes = set(entry.get("footnotes") or ())
    personnel = rg.startswith("I") and "l" in notes
    armor = rg.startswith("V") and "a" in notes
    if not (personnel or armor):
        return out
    if quality and "quality" not in done:
        return out  # the -1 for an all-Elite RG waits for its quality
    drms: list[str] = []
    decides = ["depleted"]
    # "-1 If all MMC in the RG are Elite (NA to armor leader)": the chart line
    # says it, else the 8.6202 quality decides, else the roller states it.
    elite = entry.get("elite")
    if personnel and quality:
        elite = done["quality"]["band"] == 0  # Elite (6-6-7/3-4-7)
    if personnel and elite is not None:
        decides.append("all-elite")
        if elite:
            drms.append("all-elite")
    if depleted:
        drms.append("depleted")  # "If the RG is Depleted (NA to U.S.)"
    out.append(
        Need(
            "leader",
            _ARMOR_LEADER if armor else _LEADER[kgp_readings.LEADER_COLUMNS.chosen(readings)][side],
            "8.6206",
            f"8.6206 leader DR for {rg}",
            drms=tuple(drms),
            decides=tuple(decides) if personnel else ("all-elite", "depleted"),
        )
    )
    return out


def _per_piece(key: str, table: str, rule: str, rg: str, pieces: Any) -> list[Need]:
    """One dr per SW (or piece of Equipment) of a Depleted platoon, received
    on an Original dr ≤ 4 (8.6204, 8.6205)."""
    return [
        Need(
            f"{key}.{i}",
            table,
            rule,
            f"{rule} dr for {rg}'s {piece}",
            values=RECEIVED_FORFEIT,
            subject=str(piece),
        )
        for i, piece in enumerate(pieces)
    ]


def complement(side: str, entry: Mapping[str, Any], row: Row) -> dict[str, list[str]]:
    """8.6204/8.6205: a Full-Strength platoon receives its chart line's SW and
    Equipment with no dr."""
    del side, row
    return {"sw": list(entry.get("sw") or ()), "equipment": list(entry.get("equipment") or ())}


def _h(us: float | None, german: float | None) -> dict[str, int]:
    out = {}
    if us is not None:
        out[US] = int(us * 2)
    if german is not None:
        out[GERMAN] = int(german * 2)
    return out


#: 8.621 FORTIFICATION PURCHASE TABLE (item ids: docs/DESIGN.md §10).
FORTIFICATIONS = FortTable(
    rule="8.621",
    title="Fortification Purchase Table",
    types=(
        FortType("trench", "Trench", _h(7, 7), "iS"),
        FortType("foxhole-3s", "Foxhole (3-squad capacity)", _h(3, 3), "FiS", counts_as=3),
        FortType("foxhole-2s", "Foxhole (2-squad capacity)", _h(2, 2), "FiS", counts_as=2),
        FortType("foxhole-1s", "Foxhole (1-squad capacity)", _h(1, 1), "FiS"),
        FortType(
            "ap-mine-factor", "A-P Mine Factor", _h(1, 1.5), "S", per_fortification=6, mine=True
        ),
        FortType(
            "at-mine-factor", "A-T Mine Factor", _h(3, 4), "S", per_fortification=2, mine=True
        ),
        FortType("roadblock", "Roadblock", _h(7, 7), "iS"),
        FortType("dummy", '"?" (Dummy)', _h(1, 1), "Fi"),
        FortType("hip-squad", "HIP: squad", _h(3, 3), "Fi"),
        FortType("hip-hs", "HIP: HS", _h(2, 2), "Fi"),
        FortType("hip-crew", "HIP: crew", _h(1, 1), "Fi"),
        FortType("hip-smc", "HIP: SMC", _h(1, 1), "Fi"),
    ),
    notes=(
        "1: for 3-, 2- and 1-squad capacity respectively.",
        "2: U.S./German (cut after 'U.S./' in the seed; the EX prices a German A-T factor at 4).",
        "3: Squad/HS/Crew/SMC.",
        "F: only items marked F may be set up in a Front-Line Hex.",
        "i: only items marked i may be added to an Isolated Location.",
        "S: added only to a Setup Area that contains ≥ one Retained squad-equivalent; the "
        "Fortifications added to a Setup Area during a RePh (each 6-A-P/2-A-T factor "
        "minefield [or part thereof], and each '1S' foxhole capacity, counting as one) "
        "cannot exceed the squad-equivalents Retained within it.",
    ),
)

RULES = PurchaseRules(
    buy="8.619",
    price="8.6194",
    date_max="8.6195",
    cg_max="8.6196",
    record="8.6198",
    determine="8.620",
    per_map_group=True,  # 8.6195: "per CG Date per Map Group"
    modifiers=MODIFIERS,
    needs=needs,
    complement=complement,
    fewest_pieces=(
        2,
        "8.6205 EXC: each HW Pltn will always receive ≥ two Equipment pieces; its drs gave "
        "fewer, so the player chooses the forfeit pieces it receives",
    ),
    fortify="8.621",
    fort_table=FORTIFICATIONS,
    place="8.624",
    hidden="8.6073",
    hidden_step="8.607",
    written={"strength": FULL_DEPLETED, "sw.": RECEIVED_FORFEIT, "equipment.": RECEIVED_FORFEIT},
    tables=(
        _STRENGTH,
        _QUALITY,
        *MED_TANK_TABLES,
        _SW,
        _HW,
        *(table for by_side in _LEADER.values() for table in by_side.values()),
        _ARMOR_LEADER,
    ),
)
