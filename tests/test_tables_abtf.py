"""ABtF RePh tables (cgledger/domain/rulesets/abtf/tables.py), checked against the seed
text (seed ``003_…``, 9.601-9.62164): every band of every table, the worked
examples (9.6142, 9.6182, 9.6202), the DRMs each table allows, and the
refusals."""

from __future__ import annotations

from typing import Any

import pytest

from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets.abtf import tables as abtf
from cgledger.domain.tables import DrmRequest, Table, band_for, check_inputs, resolve


def other(value: int) -> DrmRequest:
    return DrmRequest("other", value=value, note="test: reach a given Final")


GERMAN_I1_LMG = {"nationality": "German", "rg": "I1", "sw": "LMG"}
BRITISH_I4_DC = {"nationality": "British", "rg": "I4", "sw": "DC"}

# (table, Final (or Original) value, inputs, result), transcribed from the seed text.
BANDS: list[tuple[Table, int, dict[str, Any], str]] = [
    # 9.6054 ESCAPE TABLE, Infantry
    (abtf.ESCAPE_INFANTRY, 0, {}, "Escapes"),
    (abtf.ESCAPE_INFANTRY, 8, {}, "Escapes"),
    (abtf.ESCAPE_INFANTRY, 9, {}, "Escapes, Replaced"),
    (abtf.ESCAPE_INFANTRY, 10, {}, "Escapes, Casualty Reduced"),
    (abtf.ESCAPE_INFANTRY, 11, {}, "Escapes, Replaced, then Casualty Reduced"),
    (abtf.ESCAPE_INFANTRY, 12, {}, "All units/Equipment Eliminated"),
    (abtf.ESCAPE_INFANTRY, 16, {}, "All units/Equipment Eliminated"),
    # 9.6054 ESCAPE TABLE, Mobile Vehicle
    (abtf.ESCAPE_VEHICLE, 0, {}, "Escapes"),
    (abtf.ESCAPE_VEHICLE, 8, {}, "Escapes"),
    (abtf.ESCAPE_VEHICLE, 9, {}, "Abandoned; crew (if any) Escapes"),
    (abtf.ESCAPE_VEHICLE, 10, {}, "Eliminated; crew (if any) Escapes"),
    (abtf.ESCAPE_VEHICLE, 11, {}, "Abandoned; crew (if any) Eliminated"),
    (abtf.ESCAPE_VEHICLE, 12, {}, "Eliminated; crew (if any) Eliminated"),
    (abtf.ESCAPE_VEHICLE, 14, {}, "Eliminated; crew (if any) Eliminated"),
    # 9.6101 WOUNDED LEADER TABLE
    (abtf.WOUNDED_LEADER, -1, {}, "Retained unwounded"),
    (abtf.WOUNDED_LEADER, 1, {}, "Retained unwounded"),
    (abtf.WOUNDED_LEADER, 2, {}, "Retained wounded"),
    (abtf.WOUNDED_LEADER, 4, {}, "Retained wounded"),
    (abtf.WOUNDED_LEADER, 5, {}, "Eliminated"),
    (abtf.WOUNDED_LEADER, 6, {}, "Eliminated"),
    # 9.61221 British SAN: a Final dr ≥ 4 reduces the SAN by two
    (abtf.SAN_BRITISH, 1, {"san": 4}, "British SAN unchanged"),
    (abtf.SAN_BRITISH, 3, {"san": 4}, "British SAN unchanged"),
    (abtf.SAN_BRITISH, 4, {"san": 4}, "British SAN reduced by two"),
    (abtf.SAN_BRITISH, 9, {"san": 7}, "British SAN reduced by two"),
    # 9.61222 German SAN: a Final dr ≥ 4 reduces the SAN by two
    (abtf.SAN_GERMAN, 3, {"san": 5}, "German SAN unchanged"),
    (abtf.SAN_GERMAN, 4, {"san": 5}, "German SAN reduced by two"),
    (abtf.SAN_GERMAN, 8, {"san": 6}, "German SAN reduced by two"),
    # 9.613 SHIFT TABLE and its footnote-2 casualty drs
    (abtf.SHIFT, 0, {}, "Successful Shift"),
    (abtf.SHIFT, 8, {}, "Successful Shift"),
    (abtf.SHIFT, 9, {}, "Failed attempt"),
    (abtf.SHIFT, 10, {}, "Failed attempt"),
    (abtf.SHIFT, 11, {}, "Successful Shift, Casualty Reduction"),
    (abtf.SHIFT, 12, {}, "Failed attempt, all units/Equipment Eliminated"),
    (abtf.SHIFT, 13, {}, "Failed attempt, all units/Equipment Eliminated"),
    (abtf.SHIFT_CASUALTY_PERSONNEL, 3, {}, "No effect"),
    (abtf.SHIFT_CASUALTY_PERSONNEL, 4, {}, "Casualty Reduction"),
    (abtf.SHIFT_CASUALTY_PERSONNEL, 6, {}, "Casualty Reduction"),
    (abtf.SHIFT_CASUALTY_VEHICLE, 1, {}, "No effect"),
    (abtf.SHIFT_CASUALTY_VEHICLE, 3, {}, "No effect"),
    (abtf.SHIFT_CASUALTY_VEHICLE, 4, {}, "Eliminated"),
    # 9.6141b IMMOBILIZATION REPAIR TABLE
    (abtf.IMMOBILIZATION_REPAIR, 0, {}, "Vehicle becomes mobile"),
    (abtf.IMMOBILIZATION_REPAIR, 1, {}, "Vehicle becomes mobile"),
    (abtf.IMMOBILIZATION_REPAIR, 2, {}, "Vehicle becomes mobile"),
    (abtf.IMMOBILIZATION_REPAIR, 3, {}, "No effect"),
    (abtf.IMMOBILIZATION_REPAIR, 8, {}, "No effect"),
    # 9.6141d VEHICLE STUN RECOVERY TABLE
    (abtf.VEHICLE_STUN_RECOVERY, 1, {}, "Recovers; remove stun"),
    (abtf.VEHICLE_STUN_RECOVERY, 2, {}, "Recovers; remove stun"),
    (abtf.VEHICLE_STUN_RECOVERY, 3, {}, "Retain stun"),
    (abtf.VEHICLE_STUN_RECOVERY, 5, {}, "Retain stun"),
    (abtf.VEHICLE_STUN_RECOVERY, 6, {}, "Eliminated"),
    # 9.6142 WEAPON REPAIR TABLE
    (abtf.WEAPON_REPAIR, -3, {}, "Repaired"),
    (abtf.WEAPON_REPAIR, 1, {}, "Repaired"),
    (abtf.WEAPON_REPAIR, 2, {}, "Eliminated"),
    (abtf.WEAPON_REPAIR, 7, {}, "Eliminated"),
    # 9.6144 SPECIAL AMMO RESTORATION TABLE
    (abtf.SPECIAL_AMMO, 0, {}, "Restores special ammunition type"),
    (abtf.SPECIAL_AMMO, 3, {}, "Restores special ammunition type"),
    (abtf.SPECIAL_AMMO, 4, {}, "Ammo remains depleted"),
    (abtf.SPECIAL_AMMO, 8, {}, "Ammo remains depleted"),
    # 9.6162 CG CPP Variable Arrival Points: one band; the amount is Base # + DR
    (abtf.CPP_VARIABLE_ARRIVAL, 2, {"base": 20}, "CPP replenished"),
    (abtf.CPP_VARIABLE_ARRIVAL, 12, {"base": 0}, "CPP replenished"),
    # 9.6181 RG STRENGTH TABLE
    (abtf.RG_STRENGTH, 0, {}, "Full"),
    (abtf.RG_STRENGTH, 9, {}, "Full"),
    (abtf.RG_STRENGTH, 10, {}, "Depleted"),
    (abtf.RG_STRENGTH, 14, {}, "Depleted"),
    # 9.6182 SW allotment (Original dr ≤ the number in parentheses)
    (abtf.SW_ALLOTMENT, 1, GERMAN_I1_LMG, "SW received"),
    (abtf.SW_ALLOTMENT, 3, GERMAN_I1_LMG, "SW received"),
    (abtf.SW_ALLOTMENT, 4, GERMAN_I1_LMG, "SW not received"),
    (abtf.SW_ALLOTMENT, 6, GERMAN_I1_LMG, "SW not received"),
    (abtf.SW_ALLOTMENT, 3, BRITISH_I4_DC, "SW received"),
    (abtf.SW_ALLOTMENT, 4, BRITISH_I4_DC, "SW not received"),
    # The same, in the column a chart line places the entry (sw_columns): "2(3)".
    (abtf.SW_PLACED, 3, {"threshold": 3}, "SW received"),
    (abtf.SW_PLACED, 4, {"threshold": 3}, "SW not received"),
    # 9.6182 "*": 1-2 Lt. Mtr, 3-6 PSK
    (abtf.SW_STAR, 1, {}, "RG receives a Lt. Mtr"),
    (abtf.SW_STAR, 2, {}, "RG receives a Lt. Mtr"),
    (abtf.SW_STAR, 3, {}, "RG receives a PSK"),
    (abtf.SW_STAR, 6, {}, "RG receives a PSK"),
    # 9.6183 LEADER TABLE, British column ("< 2" read ≤ 1)
    (abtf.LEADER_BRITISH, 0, {}, "10-3"),
    (abtf.LEADER_BRITISH, 1, {}, "10-3"),
    (abtf.LEADER_BRITISH, 2, {}, "10-2"),
    (abtf.LEADER_BRITISH, 3, {}, "9-2"),
    (abtf.LEADER_BRITISH, 4, {}, "9-2"),
    (abtf.LEADER_BRITISH, 5, {}, "9-1"),
    (abtf.LEADER_BRITISH, 6, {}, "9-1"),
    (abtf.LEADER_BRITISH, 7, {}, "8-1"),
    (abtf.LEADER_BRITISH, 8, {}, "8-1"),
    (abtf.LEADER_BRITISH, 9, {}, "8-0"),
    (abtf.LEADER_BRITISH, 10, {}, "7-0"),
    (abtf.LEADER_BRITISH, 11, {}, "6+1"),
    (abtf.LEADER_BRITISH, 14, {}, "6+1"),
    # 9.6183 LEADER TABLE, German column
    (abtf.LEADER_GERMAN, 1, {}, "10-2"),
    (abtf.LEADER_GERMAN, 2, {}, "10-2"),
    (abtf.LEADER_GERMAN, 3, {}, "9-2"),
    (abtf.LEADER_GERMAN, 4, {}, "9-1"),
    (abtf.LEADER_GERMAN, 5, {}, "9-1"),
    (abtf.LEADER_GERMAN, 6, {}, "8-1"),
    (abtf.LEADER_GERMAN, 7, {}, "8-1"),
    (abtf.LEADER_GERMAN, 8, {}, "8-0"),
    (abtf.LEADER_GERMAN, 9, {}, "8-0"),
    (abtf.LEADER_GERMAN, 10, {}, "7-0"),
    (abtf.LEADER_GERMAN, 11, {}, "7-0"),
    (abtf.LEADER_GERMAN, 13, {}, "7-0"),
    # 9.6183 LEADER TABLE, (Armor) column; rows ≥ 6 are blank
    (abtf.LEADER_ARMOR, 1, {}, "(10-2)"),
    (abtf.LEADER_ARMOR, 2, {}, "(9-2)"),
    (abtf.LEADER_ARMOR, 3, {}, "(9-1)"),
    (abtf.LEADER_ARMOR, 4, {}, "(9-1)"),
    (abtf.LEADER_ARMOR, 5, {}, "(8-1)"),
    (abtf.LEADER_ARMOR, 6, {}, "No Armor Leader"),
    (abtf.LEADER_ARMOR, 12, {}, "No Armor Leader"),
    # 9.6184 GERMAN VEHICLE GROUP COMPOSITION
    (abtf.VEHICLES_A2, 1, {}, "PzKpfw VG x2"),
    (abtf.VEHICLES_A2, 2, {}, "PzKpfw IVJ x2"),
    (abtf.VEHICLES_A2, 3, {}, "PzKpfw IVJ x2"),
    (abtf.VEHICLES_A2, 4, {}, "PzKpfw VG x1; PzKpfw IVJ x1"),
    (abtf.VEHICLES_A2, 6, {}, "PzKpfw VG x1; PzKpfw IVJ x1"),
    (abtf.VEHICLES_A3, 1, {}, "PzKpfw VIB x1; PzKpfw VIE(L) x1"),
    (abtf.VEHICLES_A3, 2, {}, "PzKpfw VIE(L) x2"),
    (abtf.VEHICLES_A3, 4, {}, "PzKpfw VIE(L) x2"),
    (abtf.VEHICLES_A3, 5, {}, "PzKpfw VIE(L) x1; PzKpfw VIE x1"),
    (abtf.VEHICLES_A3, 6, {}, "PzKpfw VIE x2"),
    (abtf.VEHICLES_A4, 1, {}, "StuH 42 x2"),
    (abtf.VEHICLES_A4, 2, {}, "StuG IIIG(L) x2"),
    (abtf.VEHICLES_A4, 3, {}, "StuG IIIG(L) x1; StuH 42 x1"),
    (abtf.VEHICLES_A4, 5, {}, "StuG IIIG(L) x1; StuH 42 x1"),
    (abtf.VEHICLES_A4, 6, {}, "StuG IIIG(L) x3"),
    (abtf.VEHICLES_A6, 1, {}, "SPW 250/9 x2; SdKfz 10/4 x1"),
    (abtf.VEHICLES_A6, 2, {}, "SPW 250/9 x2; SdKfz 10/4 x1"),
    (abtf.VEHICLES_A6, 3, {}, "SdKfz 7/1 x1; SdKfz 6/2 x2"),
    (abtf.VEHICLES_A6, 4, {}, "SdKfz 7/1 x1; SdKfz 6/2 x2"),
    (abtf.VEHICLES_A6, 5, {}, "SPW 250/9 x1; SdKfz 6/2 x1; SdKfz 10/4 x1"),
    (abtf.VEHICLES_A6, 6, {}, "SdKfz 10/4 x1; SdKfz 7/1 x1; SdKfz 6/2 x1"),
    # 9.6201 AMMUNITION SHORTAGE LEVEL CHANGE
    (abtf.AMMO_SHORTAGE, 2, {}, "No Change"),
    (abtf.AMMO_SHORTAGE, 9, {}, "No Change"),
    (abtf.AMMO_SHORTAGE, 10, {}, "Shortage increases one Level"),
    (abtf.AMMO_SHORTAGE, 17, {}, "Shortage increases one Level"),
    # 9.6202 ELR LOSS/GAIN
    (abtf.ELR, -1, {}, "ELR +1"),
    (abtf.ELR, 2, {}, "ELR +1"),
    (abtf.ELR, 3, {}, "No Change"),
    (abtf.ELR, 12, {}, "No Change"),
    (abtf.ELR, 13, {}, "ELR -1"),
    (abtf.ELR, 19, {}, "ELR -1"),
    # 9.6213a Dual Attack setup dr: ≤ 3 the British sets up first; otherwise the German
    (abtf.DUAL_ATTACK_SETUP, 1, {}, "British sets up first"),
    (abtf.DUAL_ATTACK_SETUP, 3, {}, "British sets up first"),
    (abtf.DUAL_ATTACK_SETUP, 4, {}, "German sets up first"),
    (abtf.DUAL_ATTACK_SETUP, 6, {}, "German sets up first"),
    # 9.6215 First Move dr: ≤ 4 German, ≥ 5 British
    (abtf.FIRST_MOVE, 1, {}, "German moves first"),
    (abtf.FIRST_MOVE, 4, {}, "German moves first"),
    (abtf.FIRST_MOVE, 5, {}, "British moves first"),
    (abtf.FIRST_MOVE, 6, {}, "British moves first"),
    # 9.62161 WEATHER TABLE
    (abtf.WEATHER, -1, {}, "Mist"),
    (abtf.WEATHER, 2, {}, "Mist"),
    (abtf.WEATHER, 3, {}, "Overcast"),
    (abtf.WEATHER, 5, {}, "Overcast"),
    (abtf.WEATHER, 6, {}, "Clear"),
    (abtf.WEATHER, 10, {}, "Clear"),
    (abtf.WEATHER, 11, {}, "Clear & Gusty"),
    (abtf.WEATHER, 13, {}, "Clear & Gusty"),
    # 9.62163 EC
    (abtf.EC, 0, {}, "Wet"),
    (abtf.EC, 1, {}, "Wet"),
    (abtf.EC, 2, {}, "Moist"),
    (abtf.EC, 3, {}, "Moderate"),
    (abtf.EC, 5, {}, "Moderate"),
    (abtf.EC, 6, {}, "Dry"),
    (abtf.EC, 7, {}, "Dry"),
    # 9.62164 WIND FORCE
    (abtf.WIND_FORCE, 0, {}, "No Wind"),
    (abtf.WIND_FORCE, 3, {}, "No Wind"),
    (abtf.WIND_FORCE, 4, {}, "Mild Breeze"),
    (abtf.WIND_FORCE, 6, {}, "Mild Breeze"),
    (abtf.WIND_FORCE, 7, {}, "Heavy Wind"),
    (abtf.WIND_FORCE, 9, {}, "Heavy Wind"),
]


def _case_id(case: tuple[Table, int, dict[str, Any], str]) -> str:
    table, n, inputs, _ = case
    extra = ",".join(str(v) for v in inputs.values())
    return f"{table.id}:{n}" + (f":{extra}" if extra else "")


@pytest.mark.parametrize(("table", "n", "inputs", "result"), BANDS, ids=map(_case_id, BANDS))
def test_band(table: Table, n: int, inputs: dict[str, Any], result: str) -> None:
    index = band_for(table, n, check_inputs(table, inputs))
    assert table.bands[index].result == result


FINAL_CASES = [c for c in BANDS if c[0].by == "final"]


@pytest.mark.parametrize(
    ("table", "final", "inputs", "result"), FINAL_CASES, ids=map(_case_id, FINAL_CASES)
)
def test_resolve_reaches_the_final(
    table: Table, final: int, inputs: dict[str, Any], result: str
) -> None:
    """The same cases through ``resolve``: an Original 7 (DR) or 3 (dr), then an
    'other' DRM up or down to the Final (after any automatic DRM)."""
    dice = [3, 4] if table.dice == 2 else [3]
    base = resolve(table, dice, [], inputs)["final"]
    drm = [other(final - base)] if final != base else []
    rolled = resolve(table, dice, drm, inputs)
    assert rolled["final"] == final
    text = rolled["outcome"]["text"]
    if table.amount is not None:
        assert text == f"{result}: {inputs['base'] + final}"
    else:
        assert text == result


@pytest.mark.parametrize("table", abtf.TABLES.values(), ids=list(abtf.TABLES))
def test_band_cases_cover_every_band(table: Table) -> None:
    hit = {band_for(t, n, check_inputs(t, inputs)) for t, n, inputs, _ in BANDS if t is table}
    assert hit == set(range(len(table.bands)))


def test_table_ids() -> None:
    assert set(abtf.TABLES) == {
        "abtf:9.6054-infantry",
        "abtf:9.6054-vehicle",
        "abtf:9.6101",
        "abtf:9.61221",
        "abtf:9.61222",
        "abtf:9.613",
        "abtf:9.613-casualty-personnel",
        "abtf:9.613-casualty-vehicle",
        "abtf:9.6141b",
        "abtf:9.6141d",
        "abtf:9.6142",
        "abtf:9.6144",
        "abtf:9.6162",
        "abtf:9.6181",
        "abtf:9.6182",
        "abtf:9.6182-placed",
        "abtf:9.6182-star",
        "abtf:9.6183-british",
        "abtf:9.6183-german",
        "abtf:9.6183-armor",
        "abtf:9.6184-A2",
        "abtf:9.6184-A3",
        "abtf:9.6184-A4",
        "abtf:9.6184-A6",
        "abtf:9.6201",
        "abtf:9.6202",
        "abtf:9.6213a",
        "abtf:9.6215",
        "abtf:9.62161",
        "abtf:9.62163",
        "abtf:9.62164",
    }


def test_secret_tables_are_those_the_rules_call_secret() -> None:
    # 9.6162 "make a secret DR", 9.6181 "one secret DR", 9.6182 "a secret dr" and
    # its "*" "Make a secret dr"; 9.613 and 9.6183 are cut before they say how the
    # DR is made, and are read from the parallel KGP 8.613 and 8.6206 ("Secret DR").
    secret = {t.id for t in abtf.TABLES.values() if t.secret}
    assert secret == {
        "abtf:9.6162",
        "abtf:9.6181",
        "abtf:9.6182",
        "abtf:9.6182-placed",
        "abtf:9.6182-star",
        "abtf:9.613",
        "abtf:9.6183-british",
        "abtf:9.6183-german",
        "abtf:9.6183-armor",
    }


DR_TABLES = {
    "abtf:9.6054-infantry",
    "abtf:9.6054-vehicle",
    "abtf:9.613",
    "abtf:9.6162",
    "abtf:9.6181",
    "abtf:9.6183-british",
    "abtf:9.6183-german",
    "abtf:9.6183-armor",
    "abtf:9.6201",
    "abtf:9.6202",
    "abtf:9.62161",
}


def test_dice_and_reading() -> None:
    for table in abtf.TABLES.values():
        assert table.dice == (2 if table.id in DR_TABLES else 1), table.id
        assert table.by == "final", table.id


# ---------------------------------------------------------------- DRMs

# (table, DRM request, the value it applies), each DRM in the rule's arithmetic.
DRM_VALUES: list[tuple[Table, DrmRequest, int]] = [
    (abtf.ESCAPE_INFANTRY, DrmRequest("lone-smc"), -1),
    (abtf.ESCAPE_INFANTRY, DrmRequest("night"), -1),
    (abtf.ESCAPE_INFANTRY, DrmRequest("leader", value=-2), -2),  # +x, a 9-2's DRM
    (abtf.ESCAPE_INFANTRY, DrmRequest("uncontrolled-hexes", count=1), 1),  # FRU
    (abtf.ESCAPE_INFANTRY, DrmRequest("uncontrolled-hexes", count=3), 2),
    (abtf.ESCAPE_INFANTRY, DrmRequest("uncontrolled-hexes", count=4), 2),
    (abtf.ESCAPE_INFANTRY, DrmRequest("hs-equivalent", count=1), 0),  # > 1 HS
    (abtf.ESCAPE_INFANTRY, DrmRequest("hs-equivalent", count=2), 1),  # a squad
    (abtf.ESCAPE_INFANTRY, DrmRequest("hs-equivalent", count=5), 4),
    (abtf.ESCAPE_INFANTRY, DrmRequest("excess-pp", count=2), 2),
    (abtf.ESCAPE_INFANTRY, DrmRequest("unarmed-wounded", count=2), 2),
    (abtf.ESCAPE_INFANTRY, DrmRequest("encircled"), 2),
    (abtf.ESCAPE_VEHICLE, DrmRequest("vehicle"), -1),
    (abtf.ESCAPE_VEHICLE, DrmRequest("ct-afv"), -2),
    (abtf.ESCAPE_VEHICLE, DrmRequest("night"), -1),
    (abtf.ESCAPE_VEHICLE, DrmRequest("leader", value=-1), -1),
    (abtf.ESCAPE_VEHICLE, DrmRequest("uncontrolled-hexes", count=5), 3),
    (abtf.ESCAPE_VEHICLE, DrmRequest("captured-vehicle"), 1),
    (abtf.WOUNDED_LEADER, DrmRequest("british"), -1),
    (abtf.WOUNDED_LEADER, DrmRequest("heroic"), -1),
    (abtf.SHIFT, DrmRequest("idle"), -1),
    (abtf.SHIFT, DrmRequest("british"), -2),
    (abtf.SHIFT, DrmRequest("uncontrolled-hexes", count=3), 2),
    (abtf.IMMOBILIZATION_REPAIR, DrmRequest("non-qualified"), 1),
    (abtf.IMMOBILIZATION_REPAIR, DrmRequest("front-line"), 1),
    (abtf.IMMOBILIZATION_REPAIR, DrmRequest("armor-leader", value=-1), -1),
    (abtf.WEAPON_REPAIR, DrmRequest("vehicular"), -1),
    (abtf.WEAPON_REPAIR, DrmRequest("repair-number", value=2), -2),  # -x
    (abtf.WEAPON_REPAIR, DrmRequest("armor-leader", value=2), -2),  # -y
    (abtf.WEAPON_REPAIR, DrmRequest("non-qualified"), 1),
    (abtf.SPECIAL_AMMO, DrmRequest("ammo-shortage", value=2), 2),
    (abtf.SPECIAL_AMMO, DrmRequest("german"), -1),
    (abtf.RG_STRENGTH, DrmRequest("british"), -2),
    (abtf.RG_STRENGTH, DrmRequest("vg-pltn"), 1),
    (abtf.RG_STRENGTH, DrmRequest("exhaustion", value=3), 1),  # +x/2 FRD
    (abtf.RG_STRENGTH, DrmRequest("exhaustion", value=4), 2),
    (abtf.LEADER_BRITISH, DrmRequest("commando"), -1),
    (abtf.LEADER_BRITISH, DrmRequest("engineer"), -2),
    (abtf.LEADER_BRITISH, DrmRequest("glider"), 1),
    (abtf.LEADER_GERMAN, DrmRequest("ss-pg"), -1),
    (abtf.LEADER_GERMAN, DrmRequest("ss-recon"), -1),
    (abtf.LEADER_GERMAN, DrmRequest("engineer"), -2),
    (abtf.LEADER_GERMAN, DrmRequest("vg"), 2),
    (abtf.LEADER_ARMOR, DrmRequest("med-tank"), -1),
    (abtf.LEADER_ARMOR, DrmRequest("hvy-tank"), -2),
    (abtf.LEADER_ARMOR, DrmRequest("spg"), 1),
    (abtf.LEADER_ARMOR, DrmRequest("lt-tank"), 1),
    (abtf.LEADER_ARMOR, DrmRequest("ac"), 2),
    (abtf.AMMO_SHORTAGE, DrmRequest("exhaustion", value=3), 3),
    (abtf.AMMO_SHORTAGE, DrmRequest("attack-chits", count=0), 0),  # minimum of 0
    (abtf.AMMO_SHORTAGE, DrmRequest("attack-chits", count=1), 0),  # y - 1
    (abtf.AMMO_SHORTAGE, DrmRequest("attack-chits", count=4), 3),
    (abtf.ELR, DrmRequest("cvp", count=29), 0),
    (abtf.ELR, DrmRequest("cvp", count=42), -1),  # FRD
    (abtf.ELR, DrmRequest("cvp", count=60), -2),
    (abtf.ELR, DrmRequest("idle-dates", count=1), -3),
    (abtf.ELR, DrmRequest("scenarios", count=2), 2),
    (abtf.ELR, DrmRequest("attack-chits", count=2), 2),
    (abtf.ELR, DrmRequest("exhaustion-british", value=3), 3),
    (abtf.ELR, DrmRequest("exhaustion-german", value=3), 1),  # +y/2 FRD
    (abtf.ELR, DrmRequest("ammo-shortage", value=2), 2),
    (abtf.WEATHER, DrmRequest("previous-mist"), -2),
    (abtf.WEATHER, DrmRequest("previous-overcast"), -1),
    (abtf.WEATHER, DrmRequest("night"), -1),
    (abtf.WEATHER, DrmRequest("previous-gusty"), 1),
    (abtf.EC, DrmRequest("previous-wet"), -1),
    (abtf.EC, DrmRequest("night"), -1),
    (abtf.EC, DrmRequest("previous-dry"), 1),
    (abtf.WIND_FORCE, DrmRequest("night"), -1),
    (abtf.WIND_FORCE, DrmRequest("overcast"), 2),
    (abtf.WIND_FORCE, DrmRequest("previous-gusty"), 1),
]


@pytest.mark.parametrize(
    ("table", "request_", "value"),
    DRM_VALUES,
    ids=[f"{t.id}:{r.id}:{r.count if r.count is not None else r.value}" for t, r, _ in DRM_VALUES],
)
def test_drm_value(table: Table, request_: DrmRequest, value: int) -> None:
    dice = [3, 4] if table.dice == 2 else [3]
    rolled = resolve(table, dice, [request_])
    assert [a["value"] for a in rolled["drm"]] == [value]
    assert rolled["final"] == sum(dice) + value


def test_every_named_drm_has_its_value_checked() -> None:
    checked = {(t.id, r.id) for t, r, _ in DRM_VALUES}
    named = {(t.id, d.id) for t in abtf.TABLES.values() for d in t.drms if d.kind != "input"}
    assert named == checked


@pytest.mark.parametrize(
    ("table", "san", "drm"),
    [
        (abtf.SAN_BRITISH, 4, 0),
        (abtf.SAN_BRITISH, 6, 2),  # +drm equal to the British SAN minus four
        (abtf.SAN_GERMAN, 5, 0),
        (abtf.SAN_GERMAN, 7, 2),  # +drm equal to the German SAN minus five
    ],
)
def test_san_drm_is_the_san_minus_four_or_five(table: Table, san: int, drm: int) -> None:
    rolled = resolve(table, [2], [], {"san": san})
    assert [(a["id"], a["value"]) for a in rolled["drm"]] == [("san-excess", drm)]
    assert rolled["final"] == 2 + drm
    reduced = f"{table.title.split()[0]} SAN reduced by two"
    assert (rolled["outcome"]["text"] == reduced) is (2 + drm >= 4)


@pytest.mark.parametrize(
    ("table", "a", "b"),
    [
        (abtf.ESCAPE_VEHICLE, "vehicle", "ct-afv"),
        (abtf.SPECIAL_AMMO, "ammo-shortage", "german"),
        (abtf.RG_STRENGTH, "british", "vg-pltn"),
        (abtf.LEADER_BRITISH, "commando", "glider"),
        (abtf.LEADER_GERMAN, "ss-pg", "engineer"),
        (abtf.LEADER_ARMOR, "spg", "lt-tank"),
        (abtf.ELR, "exhaustion-british", "exhaustion-german"),
        (abtf.WEATHER, "previous-mist", "previous-gusty"),
        (abtf.EC, "previous-wet", "previous-dry"),
    ],
)
def test_exclusive_drms_refused_together(table: Table, a: str, b: str) -> None:
    def req(drm_id: str) -> DrmRequest:
        d = table.drm(drm_id)
        assert d is not None
        return DrmRequest(drm_id, value=1) if d.kind == "valued" else DrmRequest(drm_id)

    dice = [3, 4] if table.dice == 2 else [3]
    with pytest.raises(InvalidInput) as err:
        resolve(table, dice, [req(a), req(b)])
    assert err.value.field == "drm[1]"


# ---------------------------------------------------------------- specials, follow-ups


def test_escape_original_2_escapes_whatever_the_final() -> None:
    # 9.6054 footnote 1: an Original 2 DR results in Escape and Heat of Battle.
    rolled = resolve(abtf.ESCAPE_INFANTRY, [1, 1], [DrmRequest("encircled"), other(9)])
    assert rolled["final"] == 13
    assert rolled["outcome"]["text"] == "Escapes; Heat of Battle"
    assert rolled["outcome"]["band_result"] == "All units/Equipment Eliminated"
    assert rolled["outcome"]["special"].startswith("An Original 2 DR results in Escape")


def test_escape_final_12_without_original_2_is_eliminated() -> None:
    rolled = resolve(abtf.ESCAPE_INFANTRY, [1, 2], [DrmRequest("encircled"), other(8)])
    assert rolled["final"] == 13
    assert rolled["outcome"]["text"] == "All units/Equipment Eliminated"
    assert "special" not in rolled["outcome"]


def test_vehicle_escape_has_no_original_2_special() -> None:
    rolled = resolve(abtf.ESCAPE_VEHICLE, [1, 1], [other(10)])
    assert rolled["outcome"]["text"] == "Eliminated; crew (if any) Eliminated"
    assert "special" not in rolled["outcome"]


def test_shift_11_calls_the_two_casualty_drs() -> None:
    rolled = resolve(abtf.SHIFT, [5, 6])
    assert rolled["outcome"]["text"] == "Successful Shift, Casualty Reduction"
    assert rolled["outcome"]["follow_up"] == [
        "abtf:9.613-casualty-personnel",
        "abtf:9.613-casualty-vehicle",
    ]
    assert rolled["outcome"]["notes"][0].startswith("2 Each Personnel unit")


@pytest.mark.parametrize(
    ("table", "final", "note"),
    [
        (abtf.SHIFT, 9, "1 Unit(s) may not attempt to Shift again"),
        (abtf.SHIFT, 12, "3 Enemy units detect the attempt"),
        (abtf.ESCAPE_INFANTRY, 9, "2 A crew, or unit which would otherwise become Disrupted"),
        (abtf.ESCAPE_VEHICLE, 10, "6 The surviving crew may attempt to Scrounge"),
        (abtf.WIND_FORCE, 4, "1 Determine Wind Direction per B26.52"),
        (abtf.WIND_FORCE, 7, "1 Determine Wind Direction per B26.52"),
        (abtf.VEHICLE_STUN_RECOVERY, 6, "† Full CVP awarded"),
        (abtf.LEADER_ARMOR, 5, "† If selected for a Hvy Tank Pltn, replace with a 9-1 A.L."),
    ],
)
def test_footnotes_come_with_their_result(table: Table, final: int, note: str) -> None:
    band = table.bands[band_for(table, final, {})]
    assert any(n.startswith(note) for n in band.notes)


@pytest.mark.parametrize(("dice", "base", "amount"), [([3, 4], 20, 27), ([6, 6], 0, 12)])
def test_cpp_is_the_base_plus_the_secret_dr(dice: list[int], base: int, amount: int) -> None:
    # 9.6162: "add the DR to the CPP Base #"
    rolled = resolve(abtf.CPP_VARIABLE_ARRIVAL, dice, [], {"base": base})
    assert rolled["outcome"]["amount"] == amount
    assert rolled["outcome"]["text"] == f"CPP replenished: {amount}"


# ---------------------------------------------------------------- worked examples


@pytest.mark.parametrize(
    ("original", "with_armor_leader", "result"),
    [
        (1, False, "Repaired"),
        (3, False, "Repaired"),  # "repairs on an original dr of ≤ 3"
        (4, False, "Eliminated"),
        (6, False, "Eliminated"),
        (1, True, "Repaired"),
        (5, True, "Repaired"),  # with a 9-2 Armor Leader: "any original dr other than 6"
        (6, True, "Eliminated"),
    ],
)
def test_9_6142_ex_panther_ma(original: int, with_armor_leader: bool, result: str) -> None:
    # 9.6142 EX: vehicular-mounted (-1), the MA's Weapon Repair Number x = 1 (-x), and
    # the 9-2 Armor Leader's Leadership Rating y = 2 (-y).
    drm = [DrmRequest("vehicular"), DrmRequest("repair-number", value=1)]
    if with_armor_leader:
        drm.append(DrmRequest("armor-leader", value=2))
    rolled = resolve(abtf.WEAPON_REPAIR, [original], drm)
    assert rolled["outcome"]["text"] == result


def test_9_6182_ex_star_dr_4_gives_a_psk() -> None:
    # 9.6182 EX: "Assume a 4 was rolled (making a PSK available)."
    assert resolve(abtf.SW_STAR, [4])["outcome"]["text"] == "RG receives a PSK"


@pytest.mark.parametrize(
    ("dr", "result"),
    [(1, "RG receives a Lt. Mtr"), (2, "RG receives a Lt. Mtr")]
    + [(n, "RG receives a PSK") for n in range(3, 7)],
)
def test_9_6182_ex_full_ss_rifle_pltn_star(dr: int, result: str) -> None:
    # 9.6182 EX: "either a Lt. Mortar (with a subsequent dr of 1-2) or a PSK (... 3-6)"
    assert resolve(abtf.SW_STAR, [dr])["outcome"]["text"] == result


@pytest.mark.parametrize(
    ("sw", "dr", "result"),
    [
        ("LMG", 1, "SW received"),
        ("LMG", 3, "SW received"),  # "The LMG will be received if its dr is ≤ 3"
        ("LMG", 4, "SW not received"),
        ("PSK", 2, "SW received"),  # "while the PSK will be received if its dr is ≤ 2"
        ("PSK", 3, "SW not received"),
        ("Lt. Mtr", 2, "SW received"),  # the same "*(2)" had the star dr given a Lt. Mtr
        ("Lt. Mtr", 3, "SW not received"),
    ],
)
def test_9_6182_ex_depleted_ss_rifle_pltn(sw: str, dr: int, result: str) -> None:
    inputs = {"nationality": "German", "rg": "I1", "sw": sw}
    rolled = resolve(abtf.SW_ALLOTMENT, [dr], [], inputs)
    assert rolled["outcome"]["text"] == result


def test_9_6182_ex_volksgrenadier_pltn_lists_one_lmg_only() -> None:
    # 9.6182 EX: "The Volksgrenadier Pltn receives one LMG" (German I3).
    listed = {
        sw for sw in ("LMG", "PSK", "Lt. Mtr", "FT", "DC", "PIAT")
        if abtf.SW_ALLOTMENT.lookups[0].get({"nationality": "German", "rg": "I3", "sw": sw})
        is not None
    }  # fmt: skip
    assert listed == {"LMG"}


def test_9_6182_reads_the_final_dr() -> None:
    # 9.6182 says "a secret dr <= the number", not an Original dr (unlike KGP 8.6204).
    rolled = resolve(abtf.SW_ALLOTMENT, [3], [other(5)], GERMAN_I1_LMG)
    assert rolled["final"] == 8
    assert rolled["outcome"]["text"] == "SW not received"


# Each cell of both Infantry-Type SW Charts as read (see the module docstring).
SW_CHART = [
    ("British", "I1", "LMG", 5),
    ("British", "I1", "PIAT", 3),
    ("British", "I2", "LMG", 5),
    ("British", "I2", "PIAT", 3),
    ("British", "I3", "LMG", 5),
    ("British", "I3", "PIAT", 3),
    ("British", "I3", "Lt. Mtr", 3),
    ("British", "I4", "LMG", 5),
    ("British", "I4", "FT", 2),
    ("British", "I4", "DC", 3),
    ("German", "I1", "LMG", 3),
    ("German", "I1", "PSK", 2),
    ("German", "I1", "Lt. Mtr", 2),
    ("German", "I2", "FT", 2),
    ("German", "I2", "DC", 3),
    ("German", "I3", "LMG", 1),
]


@pytest.mark.parametrize(("nationality", "rg", "sw", "number"), SW_CHART)
def test_sw_chart_number_in_parentheses(nationality: str, rg: str, sw: str, number: int) -> None:
    inputs = {"nationality": nationality, "rg": rg, "sw": sw}
    assert resolve(abtf.SW_ALLOTMENT, [number], [], inputs)["outcome"]["text"] == "SW received"
    if number < 6:
        rolled = resolve(abtf.SW_ALLOTMENT, [number + 1], [], inputs)
        assert rolled["outcome"]["text"] == "SW not received"


def test_sw_chart_lists_nothing_else() -> None:
    assert len(abtf.SW_ALLOTMENT.lookups[0].rows) == len(SW_CHART)


def test_9_6202_ex_british_drm_total_is_plus_7() -> None:
    # 9.6202 EX: -1 for 42 CVP, +1 for the 21AM CG Scenario, +1 for the Attack Chit,
    # +4 for Campaign Exhaustion, +2 for Ammunition Shortage Level 2: +7.
    drm = [
        DrmRequest("cvp", count=42),
        DrmRequest("scenarios", count=1),
        DrmRequest("attack-chits", count=1),
        DrmRequest("exhaustion-british", value=4),
        DrmRequest("ammo-shortage", value=2),
    ]
    rolled = resolve(abtf.ELR, [3, 3], drm)
    assert [a["value"] for a in rolled["drm"]] == [-1, 1, 1, 4, 2]
    assert rolled["final"] - rolled["original"] == 7
    assert rolled["final"] == 13
    assert rolled["outcome"]["text"] == "ELR -1"


def test_9_6202_ex_german_drm_total_is_plus_3() -> None:
    # 9.6202 EX: -1 for 38 CVP, +1 for the 21AM CG Scenario, +1 for the Attack Chit,
    # +2 for Campaign Exhaustion (y = 4, +y/2): +3.
    drm = [
        DrmRequest("cvp", count=38),
        DrmRequest("scenarios", count=1),
        DrmRequest("attack-chits", count=1),
        DrmRequest("exhaustion-german", value=4),
    ]
    rolled = resolve(abtf.ELR, [3, 3], drm)
    assert [a["value"] for a in rolled["drm"]] == [-1, 1, 1, 2]
    assert rolled["final"] - rolled["original"] == 3
    assert rolled["outcome"]["text"] == "No Change"


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("table", "dice", "drm", "inputs", "field"),
    [
        # an unknown DRM id
        (abtf.WOUNDED_LEADER, [3], [DrmRequest("sniper")], {}, "drm[0].id"),
        (abtf.ESCAPE_VEHICLE, [3, 4], [DrmRequest("encircled")], {}, "drm[0].id"),  # † NA
        (abtf.ESCAPE_INFANTRY, [3, 4], [DrmRequest("ct-afv")], {}, "drm[0].id"),
        # a count on a fixed DRM
        (abtf.WOUNDED_LEADER, [3], [DrmRequest("british", count=1)], {}, "drm[0]"),
        # a per DRM without its count; a valued DRM without its x
        (abtf.ELR, [3, 4], [DrmRequest("cvp")], {}, "drm[0]"),
        (abtf.WEAPON_REPAIR, [3], [DrmRequest("repair-number")], {}, "drm[0]"),
        # naming the automatic SAN drm
        (abtf.SAN_BRITISH, [3], [DrmRequest("san-excess")], {"san": 5}, "drm[0]"),
        # a missing input
        (abtf.SAN_BRITISH, [3], [], {}, "inputs.san"),
        (abtf.CPP_VARIABLE_ARRIVAL, [3, 4], [], {}, "inputs.base"),
        (abtf.SW_ALLOTMENT, [3], [], {"nationality": "German", "rg": "I1"}, "inputs.sw"),
        # no dr is made for a SAN below four (British) or five (German)
        (abtf.SAN_BRITISH, [3], [], {"san": 3}, "inputs.san"),
        (abtf.SAN_GERMAN, [3], [], {"san": 4}, "inputs.san"),
        # an input the table does not take; a choice it does not offer
        (abtf.SHIFT, [3, 4], [], {"san": 4}, "inputs.san"),
        (abtf.SW_ALLOTMENT, [3], [], {**GERMAN_I1_LMG, "sw": "MMG"}, "inputs.sw"),
        # a combination the SW charts do not list
        (abtf.SW_ALLOTMENT, [3], [], {**GERMAN_I1_LMG, "rg": "I4"}, "inputs"),
        (abtf.SW_ALLOTMENT, [3], [], {"nationality": "British", "rg": "I1", "sw": "PSK"}, "inputs"),
        (abtf.SW_ALLOTMENT, [3], [], {**GERMAN_I1_LMG, "rg": "I2"}, "inputs"),
    ],
)
def test_refusals_name_their_field(
    table: Table, dice: list[int], drm: list[DrmRequest], inputs: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as err:
        resolve(table, dice, drm, inputs)
    assert err.value.field == field
