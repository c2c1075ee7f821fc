"""ABtF purchases as data (seed ``003_…``): the rolls 9.6181-9.6184 that
determine each RG on the RG Purchase Record (9.6178), and the 9.619
Fortification Purchase Table.

Readings (each easy to correct here):

* 9.6181 "each RG eligible for Depletion": an RG whose chart line lists
  units Full/Depleted (9.6174, ``units`` with two numbers).
* 9.6182: the SW of an RG come from its chart line (``sw``) if the players
  typed them, else from the seed's Infantry-Type SW Charts (``abtf:9.6182``);
  German I1 first makes the "*" dr (PSK or Lt. Mtr) whatever its strength.
  Which column each printed entry stands in is the ledger's reading
  (``abtf.tables``) unless the chart line places them (``sw_columns``;
  ``abtf.sw_chart``): a Depleted RG then rolls on ``abtf:9.6182-placed``.
* 9.6183 is cut after "For each indicated purchased/": the RG "indicated"
  are read as the chart lines with footnote "l" (personnel leader) or "a"
  (armor leader), as in the sibling rule 8.6206.
* 9.6181's "+1 German VG Pltn" and 9.6183's group-type DRMs (Commando,
  Engineer, ...): the chart line's ``group_type`` says the RG's type
  (``abtf.group_type``); the roll then gets its type's DRM from the ledger and
  every other group-type DRM of its table is refused stated. A line that does
  not say leaves them to the player, who states them.
* 9.6184's EXC "A4 and A6 RGs available from KG Graebner": the KG letter is a
  reading the players agree (``abtf_readings.GRAEBNER``, DESIGN §14; "G" by
  default).
* 9.619's footnote 2 is cut after "German/"; read German/British: an A-P
  factor costs 3 FPP (German) or 6 (British). The table prints no "i" or
  "S" footnotes; its "F" is kept. Footnote 7 "HIP NA [EXC: Night CG
  Scenario]" (Wire) is left to the players.
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
    PurchaseRules,
    Row,
)
from cgledger.domain.rulesets.abtf import group_type as rg_types
from cgledger.domain.rulesets.abtf import readings as abtf_readings
from cgledger.domain.rulesets.abtf import sw_chart
from cgledger.domain.rulesets.abtf.tables import SW_ROWS

BRITISH = "British"
GERMAN = "German"

_LEADER = {BRITISH: "abtf:9.6183-british", GERMAN: "abtf:9.6183-german"}
_VEHICLES = ("A2", "A3", "A4", "A6")
#: 9.6182 chart "*": "Make a secret dr; 1-2 RG receives a Lt. Mtr, 3-6 RG receives a PSK".
STAR = ("Lt. Mtr", "PSK")


def needs(side: str, entry: Mapping[str, Any], row: Row, readings: Mapping[str, str]) -> list[Need]:
    """The rolls an RG on the record needs (9.6181-9.6184), under the
    ``readings`` in force (DESIGN §14)."""
    rg = str(entry["id"])
    done = row["results"]
    out: list[Need] = []
    depletes = len(entry.get("units") or ()) == 2
    kind = entry.get("group_type")  # 9.6172: the line's group type, if it says
    if depletes:
        # 9.6181: "-2 British", "+1 German VG Pltn" (the line's group type).
        typed, typed_decides = rg_types.drms("abtf:9.6181", kind)
        out.append(
            Need(
                "strength",
                "abtf:9.6181",
                "9.6181",
                f"9.6181 RG Strength DR for {rg}",
                drms=(("british",) if side == BRITISH else ()) + typed,
                decides=("british", *typed_decides),
                values=FULL_DEPLETED,
            )
        )
    # 9.6184 EXC: "A4 and A6 RGs available from KG Graebner" (its KG letter: a reading).
    graebner = rg in ("A4", "A6") and entry.get("kg") == abtf_readings.GRAEBNER.chosen(readings)
    if side == GERMAN and rg in _VEHICLES and not graebner:
        out.append(
            Need("vehicles", f"abtf:9.6184-{rg}", "9.6184", f"9.6184 composition dr for {rg}")
        )
    star = side == GERMAN and rg == "I1"
    if star:
        # 9.6182 chart "*": "Make a secret dr; 1-2 RG receives a Lt. Mtr, 3-6 RG receives a PSK".
        out.append(
            Need(
                "sw.star",
                "abtf:9.6182-star",
                "9.6182",
                f"9.6182 '*' dr for {rg} (PSK or Lt. Mtr)",
                values=STAR,
            )
        )
    if depletes and "strength" not in done:
        return out
    depleted = depletes and done["strength"]["value"] == "D"
    if depleted and not (star and "sw.star" not in done):
        for i, sw in enumerate(complement(side, entry, row)["sw"]):
            # 9.6182: "a secret dr ≤ the number listed in parentheses", in the
            # column the chart line places the entry, else the ledger's reading.
            number = sw_chart.threshold(side, entry, sw)
            table, inputs = (
                ("abtf:9.6182", {"nationality": side, "rg": rg, "sw": sw})
                if number is None
                else (sw_chart.SW_PLACED.id, {"threshold": number})
            )
            out.append(
                Need(
                    f"sw.{i}",
                    table,
                    "9.6182",
                    f"9.6182 dr for {rg}'s {sw}",
                    inputs=inputs,
                    values=RECEIVED_FORFEIT,
                    subject=sw,
                )
            )
    notes = set(entry.get("footnotes") or ())
    if "l" in notes or "a" in notes:
        leader = "abtf:9.6183-armor" if "a" in notes else _LEADER[side]
        # 9.6183 LEADER TABLE DRM: the one the line's group type names.
        typed, typed_decides = rg_types.drms(leader, kind)
        out.append(
            Need(
                "leader",
                leader,
                "9.6183",
                f"9.6183 leader DR for {rg}",
                drms=typed,
                decides=typed_decides,
            )
        )
    return out


def complement(side: str, entry: Mapping[str, Any], row: Row) -> dict[str, list[str]]:
    """9.6182: the SW a Full Strength RG "automatically receives": its chart
    line's ``sw`` if typed, else its row of the seed's Infantry-Type SW Chart
    as the line places it (``sw_columns``) or as the ledger reads it, where
    German I1's "PSK/Lt. Mtr" is what its "*" dr gave (none before it)."""
    rg = str(entry["id"])
    weapons = list(entry.get("sw") or ())
    if not weapons and entry.get("sw_columns") is not None:
        star = row["results"].get("sw.star")
        given = None if star is None else str(star["value"])
        weapons = sw_chart.weapons(side, entry, given)
    elif not weapons:
        chart = [sw for nat, rid, sw, _ in SW_ROWS if nat == side and rid == rg]
        if side == GERMAN and rg == "I1":
            chart = [sw for sw in chart if sw not in STAR]
            star = row["results"].get("sw.star")
            if star is not None:
                chart.append(str(star["value"]))
        weapons = chart
    return {"sw": weapons, "equipment": list(entry.get("equipment") or ())}


def _h(german: float | None, british: float | None) -> dict[str, int]:
    out = {}
    if german is not None:
        out[GERMAN] = int(german * 2)
    if british is not None:
        out[BRITISH] = int(british * 2)
    return out


#: 9.619 FORTIFICATION PURCHASE TABLE.
FORTIFICATIONS = FortTable(
    rule="9.619",
    title="Fortification Purchase Table",
    types=(
        FortType("trench", "Trench", _h(6, 6)),
        FortType("foxhole-3s", "Foxhole (3-squad capacity)", _h(3, 3), "F", counts_as=3),
        FortType("foxhole-2s", "Foxhole (2-squad capacity)", _h(2, 2), "F", counts_as=2),
        FortType("foxhole-1s", "Foxhole (1-squad capacity)", _h(1, 1), "F"),
        FortType("ap-mine-factor", "A-P minefield factor", _h(3, 6), mine=True),
        FortType("at-mine-factor", "A-T Mine factor (British only)", _h(None, 4), mine=True),
        FortType("wire", "Wire (German only)", _h(10, None)),
        FortType("fortified-location", "Fortified Location", _h(10, 10), "F"),
        FortType("breach", "Breach (British only)", _h(None, 5), "F"),
        FortType("hip-squad", "HIP: squad", _h(3, 3), "F"),
        FortType("hip-hs", "HIP: HS", _h(2, 2), "F"),
        FortType("hip-crew", "HIP: crew", _h(1, 1), "F"),
        FortType("hip-smc", "HIP: SMC", _h(1, 1), "F"),
        FortType("dummy", '"?" (Dummy)', _h(1, 1), "F"),
    ),
    notes=(
        "1: for 3-, 2- and 1-squad capacity respectively.",
        "2: German/British (cut after 'German/' in the seed).",
        "3: A-T includes Daisy Chain.",
        "4: per building Location; tunnels are NA.",
        "5: Squad/HS/Crew/SMC.",
        "6: see SSR CG 12.",
        "7: HIP NA [EXC: Night CG Scenario].",
        "B: only the British may purchase this type of Fortification.",
        "F: only those marked F may be set up in a Front Line Location.",
    ),
)

RULES = PurchaseRules(
    buy="9.617",
    price="9.6173",
    date_max="9.6175",
    cg_max="9.6176",
    record="9.6178",
    determine="9.618",
    needs=needs,
    complement=complement,
    fortify="9.619",
    fort_table=FORTIFICATIONS,
    place="9.621",
    hidden="9.6073",
    hidden_step="9.607",
    written={
        "strength": FULL_DEPLETED,
        "sw.star": STAR,
        "sw.": RECEIVED_FORFEIT,
    },
    tables=(
        "abtf:9.6181",
        "abtf:9.6182-star",
        "abtf:9.6182",
        sw_chart.SW_PLACED.id,
        *_LEADER.values(),
        "abtf:9.6183-armor",
        *(f"abtf:9.6184-{rg}" for rg in _VEHICLES),
    ),
)
