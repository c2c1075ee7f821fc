"""KGP tables of 8.616-8.625 and the CG/KGP SSR (cgledger/domain/rulesets/kgp/tables_b.py),
checked against the seed text: every band of every table, the worked examples
(8.6162, 8.6202, 8.6205), the DRMs each table allows, and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets.kgp import tables_b as kgp
from cgledger.domain.tables import (
    DrmRequest,
    Table,
    band_for,
    content_hash,
    definition,
    from_definition,
    resolve,
)

NO_LEADER = "No leader (-)"
MIST_SW = ("kgp:8.6171-mist",)


def other(value: int) -> DrmRequest:
    return DrmRequest("other", value=value, note="test: reach a given Final")


# (table, Final or Original value, inputs, result), transcribed from the seed text.
BANDS: list[tuple[Table, int, dict[str, Any], str]] = [
    # 8.616: one band; the text is the amount's label
    (kgp.CPP_REPLENISHMENT, 2, {"base": 30}, "CPP Replenished"),
    (kgp.CPP_REPLENISHMENT, 12, {"base": 30}, "CPP Replenished"),
    # 8.6171 KGP Random Weather Table
    (kgp.RANDOM_WEATHER, 1, {}, "Mist & Overcast"),
    (kgp.RANDOM_WEATHER, 3, {}, "Mist & Overcast"),
    (kgp.RANDOM_WEATHER, 4, {}, "Mist"),
    (kgp.RANDOM_WEATHER, 8, {}, "Mist"),
    (kgp.RANDOM_WEATHER, 9, {}, "Overcast"),
    (kgp.RANDOM_WEATHER, 10, {}, "Clear"),
    (kgp.RANDOM_WEATHER, 13, {}, "Clear"),
    # 8.6171 KGP Random Mist Density Table
    (kgp.RANDOM_MIST_DENSITY, -1, {}, "Extremely Heavy"),
    (kgp.RANDOM_MIST_DENSITY, 0, {}, "Extremely Heavy"),
    (kgp.RANDOM_MIST_DENSITY, 1, {}, "Very Heavy"),
    (kgp.RANDOM_MIST_DENSITY, 2, {}, "Heavy"),
    (kgp.RANDOM_MIST_DENSITY, 3, {}, "Heavy"),
    (kgp.RANDOM_MIST_DENSITY, 4, {}, "Moderate"),
    (kgp.RANDOM_MIST_DENSITY, 5, {}, "Moderate"),
    (kgp.RANDOM_MIST_DENSITY, 6, {}, "Light"),
    (kgp.RANDOM_MIST_DENSITY, 7, {}, "Light"),
    (kgp.RANDOM_MIST_DENSITY, 8, {}, "Very Light"),
    (kgp.RANDOM_MIST_DENSITY, 9, {}, "Very Light"),
    # 8.618 German Ammunition Shortage: Final DR >= 12
    (kgp.AMMUNITION_SHORTAGE, 11, {}, "No Ammunition Shortage"),
    (
        kgp.AMMUNITION_SHORTAGE,
        12,
        {},
        "The German OB suffers from Ammunition Shortage (A19.131) for the duration of the CG",
    ),
    # 8.6201 German RG Strength Table
    (kgp.RG_STRENGTH, 2, {}, "Full Strength"),
    (kgp.RG_STRENGTH, 11, {}, "Full Strength"),
    (kgp.RG_STRENGTH, 12, {}, "Depleted"),
    (kgp.RG_STRENGTH, 14, {}, "Depleted"),
    # 8.6202 U.S. (Arm'd) Inf Pltn Quality
    (kgp.INF_PLTN_QUALITY, 0, {}, "Elite (6-6-7/3-4-7)"),
    (kgp.INF_PLTN_QUALITY, 1, {}, "Elite (6-6-7/3-4-7)"),
    (kgp.INF_PLTN_QUALITY, 2, {}, "1st Line (6-6-6/3-4-6)"),
    (kgp.INF_PLTN_QUALITY, 4, {}, "1st Line (6-6-6/3-4-6)"),
    (kgp.INF_PLTN_QUALITY, 5, {}, "2nd Line (5-4-6/2-3-6)"),
    (kgp.INF_PLTN_QUALITY, 6, {}, "Green (5-3-6/2-2-6)"),
    # 8.6203 Med Tank Pltn I
    (kgp.MED_TANK_PLTN_I, 2, {}, "M4A1 x4; M4A3E2(L)"),
    (kgp.MED_TANK_PLTN_I, 3, {}, "M4A1 x3; M4A3E2; M4A1(76)W"),
    (kgp.MED_TANK_PLTN_I, 4, {}, "M4 x4; M4A3(76)W"),
    (kgp.MED_TANK_PLTN_I, 5, {}, "M4 x4; M4A3(76)W"),
    (kgp.MED_TANK_PLTN_I, 6, {}, "M4A1 x5"),
    (kgp.MED_TANK_PLTN_I, 8, {}, "M4A1 x5"),
    (kgp.MED_TANK_PLTN_I, 9, {}, "M4A1 x3; M4 x2"),
    (kgp.MED_TANK_PLTN_I, 10, {}, "M4A1 x3; M4 x2"),
    (kgp.MED_TANK_PLTN_I, 11, {}, "M4A1 x3; M4A1(76)W; M4"),
    (kgp.MED_TANK_PLTN_I, 12, {}, "M4A1 x3; M4A1(76)W; M4"),
    # 8.6203 Med Tank Pltn II
    (kgp.MED_TANK_PLTN_II, 2, {}, "M4A3(76)W x2; M4A3(75)W x2; M4A3E2(L)"),
    (kgp.MED_TANK_PLTN_II, 3, {}, "M4A3 x4; M4A3E2"),
    (kgp.MED_TANK_PLTN_II, 4, {}, "M4A3(75)W x4; M4A3(76)W"),
    (kgp.MED_TANK_PLTN_II, 6, {}, "M4A3(75)W x4; M4A3(76)W"),
    (kgp.MED_TANK_PLTN_II, 7, {}, "M4A3 x5"),
    (kgp.MED_TANK_PLTN_II, 8, {}, "M4A3 x5"),
    (kgp.MED_TANK_PLTN_II, 9, {}, "M4A3(75)W x3; M4A3(76)W x2"),
    (kgp.MED_TANK_PLTN_II, 10, {}, "M4A3(75)W x3; M4A3(76)W x2"),
    (kgp.MED_TANK_PLTN_II, 11, {}, "M4A3(76)W x5"),
    (kgp.MED_TANK_PLTN_II, 12, {}, "M4A3(76)W x2; M4A3(75)W x2; M4A3E2"),
    # 8.6204 Depleted platoon SW: Original dr <= 4 received
    (kgp.DEPLETED_PLTN_SW, 1, {}, "The SW is in the platoon's OB"),
    (kgp.DEPLETED_PLTN_SW, 4, {}, "The SW is in the platoon's OB"),
    (kgp.DEPLETED_PLTN_SW, 5, {}, "The SW is forfeit"),
    (kgp.DEPLETED_PLTN_SW, 6, {}, "The SW is forfeit"),
    # 8.6205 Depleted HW Pltn Equipment (read as 8.6204)
    (kgp.HW_PLTN_EQUIPMENT, 4, {}, "The Equipment piece is received"),
    (kgp.HW_PLTN_EQUIPMENT, 5, {}, "The Equipment piece is forfeit"),
    # 8.6206 Leader Tables, U.S. Personnel Leader (first personnel column)
    (kgp.LEADER_US, 0, {}, "10-3"),
    (kgp.LEADER_US, 1, {}, "10-3"),
    (kgp.LEADER_US, 2, {}, "10-2"),
    (kgp.LEADER_US, 3, {}, "9-2"),
    (kgp.LEADER_US, 4, {}, "9-1"),
    (kgp.LEADER_US, 5, {}, "8-1"),
    (kgp.LEADER_US, 6, {}, "8-1"),
    (kgp.LEADER_US, 7, {}, "8-0"),
    (kgp.LEADER_US, 8, {}, "8-0"),
    (kgp.LEADER_US, 9, {}, "7-0"),
    (kgp.LEADER_US, 10, {}, "6+1"),
    (kgp.LEADER_US, 11, {}, NO_LEADER),
    (kgp.LEADER_US, 13, {}, NO_LEADER),
    # 8.6206 German Personnel Leader (second personnel column)
    (kgp.LEADER_GERMAN, 1, {}, "10-3"),
    (kgp.LEADER_GERMAN, 2, {}, "10-2"),
    (kgp.LEADER_GERMAN, 3, {}, "9-2"),
    (kgp.LEADER_GERMAN, 4, {}, "9-1"),
    (kgp.LEADER_GERMAN, 5, {}, "8-1"),
    (kgp.LEADER_GERMAN, 6, {}, "8-0"),
    (kgp.LEADER_GERMAN, 7, {}, "7-0"),
    (kgp.LEADER_GERMAN, 8, {}, "7-0"),
    (kgp.LEADER_GERMAN, 9, {}, "7-0"),
    (kgp.LEADER_GERMAN, 10, {}, "6+1"),
    (kgp.LEADER_GERMAN, 11, {}, NO_LEADER),
    (kgp.LEADER_GERMAN, 14, {}, NO_LEADER),
    # 8.6206 Armor Leader
    (kgp.LEADER_ARMOR, 1, {}, NO_LEADER),
    (kgp.LEADER_ARMOR, 2, {}, "10-2"),
    (kgp.LEADER_ARMOR, 3, {}, "9-2"),
    (kgp.LEADER_ARMOR, 4, {}, "9-1"),
    (kgp.LEADER_ARMOR, 5, {}, "8-1"),
    (kgp.LEADER_ARMOR, 6, {}, NO_LEADER),
    (kgp.LEADER_ARMOR, 9, {}, NO_LEADER),
    (kgp.LEADER_ARMOR, 11, {}, NO_LEADER),
    # 8.622 Recon: one band, the Final is the number of Locations
    (kgp.RECON, 1, {}, "{final} Location(s) may be reconnoitered (8.6243)"),
    (kgp.RECON, 11, {}, "{final} Location(s) may be reconnoitered (8.6243)"),
    # 8.6233a Dual Attack setup dr: "if <= 3 the U.S. does; otherwise the German does"
    (kgp.DUAL_ATTACK_SETUP, 3, {}, "The U.S. sets up first"),
    (kgp.DUAL_ATTACK_SETUP, 4, {}, "The German sets up first"),
    # 8.625 Dual Attack Table
    (kgp.DUAL_ATTACK, 1, {}, "Side Moving First: U.S."),
    (kgp.DUAL_ATTACK, 3, {}, "Side Moving First: U.S."),
    (kgp.DUAL_ATTACK, 4, {}, "Side Moving First: German"),
    (kgp.DUAL_ATTACK, 6, {}, "Side Moving First: German"),
    # CG5: "a RPh reinforcement dr of < the current Game Turn number"
    (
        kgp.NIGHT_REINFORCEMENT,
        3,
        {"turn": 4},
        "The Retained Scenario Defender reinforcements may enter at an Eligible Entry Area",
    ),
    (kgp.NIGHT_REINFORCEMENT, 4, {"turn": 4}, "The reinforcements remain Retained off-map"),
    (kgp.NIGHT_REINFORCEMENT, 1, {"turn": 1}, "The reinforcements remain Retained off-map"),
    # CG23: "if it is <= the circled number ... the scenario ends immediately"
    (kgp.GAME_END, 2, {"circled": 2}, "The scenario ends immediately"),
    (kgp.GAME_END, 3, {"circled": 2}, "Play continues"),
    (kgp.GAME_END, 6, {"circled": 6}, "The scenario ends immediately"),
    (kgp.GAME_END, 7, {"circled": 6}, "Play continues"),
    # KGP3 Mist Change DR: <= 3 decreases, >= 11 increases
    (
        kgp.MIST_CHANGE,
        3,
        {},
        'The Mist density decreases one level (Very Light Mist would become "no mist")',
    ),
    (kgp.MIST_CHANGE, 4, {}, "No change"),
    (kgp.MIST_CHANGE, 10, {}, "No change"),
    (kgp.MIST_CHANGE, 11, {}, "The density increases one level"),
    # KGP3 Air Support Recall dr: "if it is a 6 that group is immediately Recalled"
    (kgp.AIR_SUPPORT_RECALL, 5, {}, "Not Recalled"),
    (kgp.AIR_SUPPORT_RECALL, 6, {}, "That group is immediately Recalled"),
    # KGP13 Out-of-Gas DR: Final DR >= 12
    (kgp.OUT_OF_GAS, 11, {}, "Not out of fuel"),
    (
        kgp.OUT_OF_GAS,
        12,
        {},
        'The vehicle is out of fuel and thus immobilized; mark it with an "Out of Gas" counter',
    ),
]
# 8.6206 under the reading "leader-columns": "german-first" (DESIGN §14): each side
# reads the other personnel column, cell by cell.
BANDS += [(kgp.LEADER_US_COLUMN_2, n, i, r) for t, n, i, r in list(BANDS) if t is kgp.LEADER_GERMAN]
BANDS += [(kgp.LEADER_GERMAN_COLUMN_1, n, i, r) for t, n, i, r in list(BANDS) if t is kgp.LEADER_US]


@pytest.mark.parametrize(
    ("table", "n", "inputs", "result"),
    BANDS,
    ids=[f"{t.id}={n}{inputs or ''}" for t, n, inputs, _ in BANDS],
)
def test_band(table: Table, n: int, inputs: dict[str, Any], result: str) -> None:
    assert table.bands[band_for(table, n, inputs)].result == result


@pytest.mark.parametrize("table", kgp.TABLES.values(), ids=list(kgp.TABLES))
def test_band_cases_cover_every_band(table: Table) -> None:
    hit = {band_for(t, n, inputs) for t, n, inputs, _ in BANDS if t is table}
    assert hit == set(range(len(table.bands)))


def test_table_ids() -> None:
    assert set(kgp.TABLES) == {
        "kgp:8.616",
        "kgp:8.6171",
        "kgp:8.6171-mist",
        "kgp:8.618",
        "kgp:8.6201",
        "kgp:8.6202",
        "kgp:8.6203-I",
        "kgp:8.6203-II",
        "kgp:8.6204",
        "kgp:8.6205",
        "kgp:8.6206-german",
        "kgp:8.6206-us",
        "kgp:8.6206-armor",
        "kgp:8.6206-us-column-2",
        "kgp:8.6206-german-column-1",
        "kgp:8.622",
        "kgp:8.6233a",
        "kgp:8.625",
        "kgp:CG5-reinforcement",
        "kgp:CG23",
        "kgp:KGP3-mist-change",
        "kgp:KGP3-recall",
        "kgp:KGP13",
    }


def test_secret_tables_are_those_the_rules_call_secret() -> None:
    secret = {t.id for t in kgp.TABLES.values() if t.secret}
    assert secret == {
        "kgp:8.616",  # "minus a Secret DR"
        "kgp:8.6201",  # 8.6205 EX: "a separate Secret DR for each"
        "kgp:8.6204",  # "a Secret dr made for each SW"
        "kgp:8.6205",  # EX: "a separate Secret dr for each piece of Equipment"
        "kgp:8.6206-german",  # "make one Secret DR"
        "kgp:8.6206-us",
        "kgp:8.6206-armor",
        "kgp:8.6206-us-column-2",
        "kgp:8.6206-german-column-1",
    }


def test_dice_and_reading() -> None:
    drs = {t.id for t in kgp.TABLES.values() if t.dice == 2}
    assert drs == {
        "kgp:8.616",
        "kgp:8.6171",
        "kgp:8.618",
        "kgp:8.6201",
        "kgp:8.6203-I",
        "kgp:8.6203-II",
        "kgp:8.6206-german",
        "kgp:8.6206-us",
        "kgp:8.6206-armor",
        "kgp:8.6206-us-column-2",
        "kgp:8.6206-german-column-1",
        "kgp:KGP3-mist-change",
        "kgp:KGP13",
    }
    by_original = {t.id for t in kgp.TABLES.values() if t.by == "original"}
    assert by_original == {"kgp:8.6204", "kgp:8.6205"}
    endpoints = {t.id: t.endpoint for t in kgp.TABLES.values() if t.endpoint}
    assert endpoints == {
        "kgp:8.616": "/cpp-replenishments",
        "kgp:8.618": "/ammunition-shortage",
        "kgp:8.622": "/recon",
    }


@pytest.mark.parametrize("table", kgp.TABLES.values(), ids=list(kgp.TABLES))
def test_definition_round_trips(table: Table) -> None:
    again = from_definition(definition(table))
    assert again == table
    assert content_hash(again) == content_hash(table)


# ---------------------------------------------------------------- DRMs per table


DRMS: list[tuple[Table, dict[str, int]]] = [
    (kgp.CPP_REPLENISHMENT, {}),
    (
        kgp.RANDOM_WEATHER,
        {"preceding-overcast": -1, "am": -1, "preceding-clear": +1, "dec-22-n-or-later": +1},
    ),
    (kgp.RANDOM_MIST_DENSITY, {"am": -1, "pm": +1, "dec-21-n-or-later": +2}),
    (kgp.AMMUNITION_SHORTAGE, {"scenarios-after-20-am": +1}),
    (kgp.RG_STRENGTH, {"days-after-dec-19": +1, "v-or-g": -1}),
    (kgp.INF_PLTN_QUALITY, {"armd": -1}),
    (kgp.MED_TANK_PLTN_I, {}),
    (kgp.MED_TANK_PLTN_II, {}),
    (kgp.DEPLETED_PLTN_SW, {}),
    (kgp.HW_PLTN_EQUIPMENT, {}),
    (kgp.LEADER_US, {"all-elite": -1, "cg-date": +1}),
    (kgp.LEADER_GERMAN, {"all-elite": -1, "depleted": +1, "cg-date": +1}),
    (kgp.LEADER_ARMOR, {"depleted": +1, "cg-date": +1}),
    (kgp.LEADER_US_COLUMN_2, {"all-elite": -1, "cg-date": +1}),
    (kgp.LEADER_GERMAN_COLUMN_1, {"all-elite": -1, "depleted": +1, "cg-date": +1}),
    (kgp.RECON, {"spent-2-cpp": +5, "lax": -1}),
    (kgp.DUAL_ATTACK_SETUP, {}),
    (kgp.DUAL_ATTACK, {}),
    (kgp.NIGHT_REINFORCEMENT, {}),
    (kgp.GAME_END, {"night": +1}),
    (kgp.MIST_CHANGE, {"pm": -1}),
    (kgp.AIR_SUPPORT_RECALL, {}),
    (kgp.OUT_OF_GAS, {"days-after-dec-21": +1}),
]


@pytest.mark.parametrize(("table", "drms"), DRMS, ids=[t.id for t, _ in DRMS])
def test_drm_values(table: Table, drms: dict[str, int]) -> None:
    assert {d.id: d.value for d in table.drms} == drms


def test_every_table_has_its_drms_checked() -> None:
    assert sorted(t.id for t, _ in DRMS) == sorted(kgp.TABLES)


@pytest.mark.parametrize(
    ("table", "a", "b"),
    [
        (kgp.RANDOM_WEATHER, "preceding-overcast", "preceding-clear"),
        (kgp.RANDOM_MIST_DENSITY, "am", "pm"),
    ],
)
def test_exclusive_drms_refused_together(table: Table, a: str, b: str) -> None:
    dice = (3, 3) if table.dice == 2 else (3,)
    with pytest.raises(InvalidInput) as err:
        resolve(table, dice, [DrmRequest(a), DrmRequest(b)])
    assert err.value.field == "drm[1]"


def test_weather_drms_apply() -> None:
    # 22 N after a Clear 22 PM: DR 8 +1 +1 = 10, Clear.
    out = resolve(
        kgp.RANDOM_WEATHER, (4, 4), [DrmRequest("preceding-clear"), DrmRequest("dec-22-n-or-later")]
    )
    assert out["final"] == 10
    assert out["outcome"]["text"] == "Clear"
    assert "follow_up" not in out["outcome"]
    # An AM date after an Overcast one: DR 5 -1 -1 = 3, Mist & Overcast.
    out = resolve(kgp.RANDOM_WEATHER, (2, 3), [DrmRequest("preceding-overcast"), DrmRequest("am")])
    assert out["final"] == 3
    assert out["outcome"]["text"] == "Mist & Overcast"


@pytest.mark.parametrize(
    ("final", "follow_up"),
    [(3, MIST_SW), (8, MIST_SW), (9, None), (10, None)],
)
def test_weather_mist_results_call_the_mist_density_dr(
    final: int, follow_up: tuple[str, ...] | None
) -> None:
    band = kgp.RANDOM_WEATHER.bands[band_for(kgp.RANDOM_WEATHER, final, {})]
    assert band.follow_up == (follow_up or ())
    assert band.notes[0] == "§ Wind applies as per SSR KGP2."
    marker = "†" if follow_up else "‡"
    assert band.notes[1].startswith(marker)
    assert kgp.TABLES[MIST_SW[0]] is kgp.RANDOM_MIST_DENSITY


def test_mist_density_drms() -> None:
    # Dec 21 N or later in a PM: dr 5 +1 +2 = 8, Very Light.
    out = resolve(
        kgp.RANDOM_MIST_DENSITY, (5,), [DrmRequest("pm"), DrmRequest("dec-21-n-or-later")]
    )
    assert (out["final"], out["outcome"]["text"]) == (8, "Very Light")
    out = resolve(kgp.RANDOM_MIST_DENSITY, (1,), [DrmRequest("am")])
    assert (out["final"], out["outcome"]["text"]) == (0, "Extremely Heavy")


@pytest.mark.parametrize(
    ("dice", "count", "final", "shortage"),
    [((5, 6), 0, 11, False), ((5, 6), 1, 12, True), ((4, 5), 3, 12, True), ((1, 1), 9, 11, False)],
)
def test_ammunition_shortage_per_scenario_after_20_am(
    dice: tuple[int, int], count: int, final: int, shortage: bool
) -> None:
    out = resolve(kgp.AMMUNITION_SHORTAGE, dice, [DrmRequest("scenarios-after-20-am", count=count)])
    assert out["final"] == final
    assert out["drm"][0]["value"] == count
    assert out["outcome"]["text"].startswith("The German OB suffers") is shortage


# ---------------------------------------------------------------- worked examples


@pytest.mark.parametrize(
    ("dice", "base", "final", "amount"),
    [
        # 8.6162 EX: "a CPP Base # of 30 ... a CPP Replenishment DR of 6 ... 24 CPP (30 - 6 = 24)"
        ((3, 3), 30, 6, 24),
        ((1, 5), 30, 6, 24),
        ((6, 6), 35, 12, 23),
        # never below 0 (reading: 8.616 gives no floor)
        ((6, 6), 5, 12, 0),
        ((1, 1), 0, 2, 0),
    ],
)
def test_cpp_replenishment_8_6162_ex(
    dice: tuple[int, int], base: int, final: int, amount: int
) -> None:
    out = resolve(kgp.CPP_REPLENISHMENT, dice, inputs={"base": base})
    assert out["final"] == final
    assert out["outcome"]["amount"] == amount
    assert out["outcome"]["text"] == f"CPP Replenished: {amount}"


# 8.6205 EX: 21 AM, "a +2 DRM applies as the day is two days past 19 December. The Final
# DR are 12, 6, 8 and 13 respectively, resulting in one Depleted and one Full SS Inf Pltn,
# a Full Strength Pz IV Sect, and a Depleted SS PzGr HW Pltn." The Pz IV Sect is a "V"
# type (-1), so its Final 8 is an Original 7 (+2 -1).
@pytest.mark.parametrize(
    ("rg", "dice", "v_type", "final", "strength"),
    [
        ("SS Inf Pltn", (5, 5), False, 12, "Depleted"),
        ("SS Inf Pltn", (1, 3), False, 6, "Full Strength"),
        ("Pz IV Sect", (3, 4), True, 8, "Full Strength"),
        ("SS PzGr HW Pltn", (5, 6), False, 13, "Depleted"),
    ],
)
def test_rg_strength_8_6205_ex(
    rg: str, dice: tuple[int, int], v_type: bool, final: int, strength: str
) -> None:
    drm = [DrmRequest("days-after-dec-19", count=2)]
    if v_type:
        drm.append(DrmRequest("v-or-g"))
    out = resolve(kgp.RG_STRENGTH, dice, drm)
    assert [a["value"] for a in out["drm"]] == ([2, -1] if v_type else [2])
    assert out["final"] == final, rg
    assert out["outcome"]["text"] == strength


# 8.6205 EX: "For the LMG the dr are 6 and 4; for the PSK it is 3. ... the Depleted SS Inf
# Pltn receives one LMG and one PSK."
@pytest.mark.parametrize(
    ("sw", "dr", "received"),
    [("LMG", 6, False), ("LMG", 4, True), ("PSK", 3, True)],
)
def test_depleted_pltn_sw_8_6205_ex(sw: str, dr: int, received: bool) -> None:
    out = resolve(kgp.DEPLETED_PLTN_SW, (dr,))
    expected = "The SW is in the platoon's OB" if received else "The SW is forfeit"
    assert out["outcome"]["text"] == expected, sw


def test_depleted_pltn_sw_8_6205_ex_totals() -> None:
    rolls = [("LMG", 6), ("LMG", 4), ("PSK", 3)]
    got = [
        sw
        for sw, dr in rolls
        if resolve(kgp.DEPLETED_PLTN_SW, (dr,))["outcome"]["text"].startswith("The SW is in")
    ]
    assert got == ["LMG", "PSK"]


@pytest.mark.parametrize("table", [kgp.DEPLETED_PLTN_SW, kgp.HW_PLTN_EQUIPMENT])
@pytest.mark.parametrize(("dr", "value", "band"), [(4, +2, 0), (5, -3, 1)])
def test_sw_and_equipment_read_on_the_original_dr(
    table: Table, dr: int, value: int, band: int
) -> None:
    """8.6204: "On an Original dr of ≤ 4": a modifier moves the Final, not the result."""
    out = resolve(table, (dr,), [other(value)])
    assert out["final"] == dr + value
    assert out["outcome"]["band"] == band


def test_hw_pltn_always_two_pieces_is_noted() -> None:
    forfeit = kgp.HW_PLTN_EQUIPMENT.bands[-1]
    assert forfeit.notes == ("EXC: each HW Pltn will always receive ≥ two Equipment pieces.",)


# 8.6202 EX: "An Original dr of 5 for the Inf Pltn results in its being composed of three
# 2nd Line 5-4-6 squads and one 2-3-6 HS. A Final dr of 1 for the Arm'd Inf Pltn results in
# elite MMC being received".
@pytest.mark.parametrize(
    ("pltn", "dr", "armd", "final", "quality"),
    [
        ("Inf Pltn", 5, False, 5, "2nd Line (5-4-6/2-3-6)"),
        ("Arm'd Inf Pltn", 2, True, 1, "Elite (6-6-7/3-4-7)"),
    ],
)
def test_inf_pltn_quality_8_6202_ex(
    pltn: str, dr: int, armd: bool, final: int, quality: str
) -> None:
    out = resolve(kgp.INF_PLTN_QUALITY, (dr,), [DrmRequest("armd")] if armd else [])
    assert out["original"] == dr
    assert out["final"] == final, pltn
    assert out["outcome"]["text"] == quality


# ---------------------------------------------------------------- other tables


@pytest.mark.parametrize(
    ("table", "dice", "drm", "final", "leader"),
    [
        # SS (all Elite) Full RG: DR 2 -1 = 1, 10-3
        (kgp.LEADER_GERMAN, (1, 1), ["all-elite"], 1, "10-3"),
        # Depleted SS RG: DR 6 -1 +1 = 6, 8-0
        (kgp.LEADER_GERMAN, (3, 3), ["all-elite", "depleted"], 6, "8-0"),
        (kgp.LEADER_US, (1, 1), ["all-elite"], 1, "10-3"),
        (kgp.LEADER_US, (5, 5), ["cg-date"], 11, NO_LEADER),
        (kgp.LEADER_ARMOR, (2, 2), ["depleted"], 5, "8-1"),
        (kgp.LEADER_ARMOR, (1, 1), [], 2, "10-2"),
    ],
)
def test_leader_drms(
    table: Table, dice: tuple[int, int], drm: list[str], final: int, leader: str
) -> None:
    out = resolve(table, dice, [DrmRequest(d) for d in drm])
    assert (out["final"], out["outcome"]["text"]) == (final, leader)


def test_armor_8_1_carries_the_pz_vib_footnote() -> None:
    out = resolve(kgp.LEADER_ARMOR, (2, 3))
    assert out["outcome"]["text"] == "8-1"
    assert out["outcome"]["notes"] == ["* Exchange for a 9-1 armor leader if for a Pz VIB RG"]
    notes = [b.notes for b in (*kgp.LEADER_US.bands, *kgp.LEADER_GERMAN.bands)]
    assert all(n == () for n in notes)


@pytest.mark.parametrize(
    ("table", "drm"),
    [(kgp.LEADER_US, "depleted"), (kgp.LEADER_ARMOR, "all-elite")],
)
def test_leader_drm_na_to_column(table: Table, drm: str) -> None:
    """ "+1 If the RG is Depleted (NA to U.S.)"; "-1 If all MMC ... Elite (NA to armor leader)"."""
    with pytest.raises(InvalidInput) as err:
        resolve(table, (3, 4), [DrmRequest(drm)])
    assert err.value.field == "drm[0].id"


@pytest.mark.parametrize(
    ("dr", "drm", "final"),
    [(3, [], 3), (3, ["spent-2-cpp"], 8), (1, ["lax"], 0), (6, ["spent-2-cpp", "lax"], 10)],
)
def test_recon_final_is_the_number_of_locations(dr: int, drm: list[str], final: int) -> None:
    out = resolve(kgp.RECON, (dr,), [DrmRequest(d) for d in drm])
    assert out["final"] == final
    assert out["outcome"]["text"] == f"{final} Location(s) may be reconnoitered (8.6243)"


@pytest.mark.parametrize(
    ("dr", "circled", "night", "ends"),
    [(3, 3, False, True), (4, 3, False, False), (3, 3, True, False), (2, 3, True, True),
     (1, 1, False, True), (6, 6, True, False)],
)  # fmt: skip
def test_game_end_cg23(dr: int, circled: int, night: bool, ends: bool) -> None:
    drm = [DrmRequest("night")] if night else []
    out = resolve(kgp.GAME_END, (dr,), drm, {"circled": circled})
    assert (out["outcome"]["text"] == "The scenario ends immediately") is ends


@pytest.mark.parametrize(
    ("dr", "turn", "enters"),
    [(3, 4, True), (4, 4, False), (6, 7, True), (6, 6, False), (1, 1, False), (1, 2, True)],
)
def test_night_reinforcement_cg5(dr: int, turn: int, enters: bool) -> None:
    out = resolve(kgp.NIGHT_REINFORCEMENT, (dr,), inputs={"turn": turn})
    assert out["outcome"]["text"].startswith("The Retained") is enters


@pytest.mark.parametrize(
    ("dice", "pm", "text"),
    [
        ((2, 2), True, "The Mist density decreases one level"),
        ((2, 2), False, "No change"),
        ((5, 6), True, "No change"),
        ((5, 6), False, "The density increases one level"),
    ],
)
def test_mist_change_pm_drm_kgp3(dice: tuple[int, int], pm: bool, text: str) -> None:
    out = resolve(kgp.MIST_CHANGE, dice, [DrmRequest("pm")] if pm else [])
    assert out["outcome"]["text"].startswith(text)


@pytest.mark.parametrize(
    ("dice", "days", "out_of_gas"),
    [((6, 6), 0, True), ((5, 6), 0, False), ((5, 6), 1, True), ((4, 6), 2, True)],
)
def test_out_of_gas_per_day_after_21_december_kgp13(
    dice: tuple[int, int], days: int, out_of_gas: bool
) -> None:
    out = resolve(kgp.OUT_OF_GAS, dice, [DrmRequest("days-after-dec-21", count=days)])
    assert out["outcome"]["text"].startswith("The vehicle is out of fuel") is out_of_gas


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("table", "dice", "drm", "inputs", "field"),
    [
        # unknown DRM id
        (kgp.RG_STRENGTH, (3, 3), [DrmRequest("elite")], {}, "drm[0].id"),
        (kgp.RECON, (3,), [DrmRequest("lax"), DrmRequest("spent-1-cpp")], {}, "drm[1].id"),
        # a count on a fixed DRM
        (kgp.RG_STRENGTH, (3, 3), [DrmRequest("v-or-g", count=2)], {}, "drm[0]"),
        (kgp.GAME_END, (3,), [DrmRequest("night", count=1)], {"circled": 3}, "drm[0]"),
        # a per DRM without its count
        (kgp.OUT_OF_GAS, (3, 3), [DrmRequest("days-after-dec-21")], {}, "drm[0]"),
        # missing inputs
        (kgp.CPP_REPLENISHMENT, (3, 3), [], {}, "inputs.base"),
        (kgp.GAME_END, (3,), [], {}, "inputs.circled"),
        (kgp.NIGHT_REINFORCEMENT, (3,), [], {}, "inputs.turn"),
        # inputs out of range or unknown
        (kgp.CPP_REPLENISHMENT, (3, 3), [], {"base": 201}, "inputs.base"),
        (kgp.GAME_END, (3,), [], {"circled": 0}, "inputs.circled"),
        (kgp.NIGHT_REINFORCEMENT, (3,), [], {"turn": 0}, "inputs.turn"),
        (kgp.RANDOM_WEATHER, (3, 3), [], {"date": "22 N"}, "inputs.date"),
    ],
)
def test_refusals(
    table: Table,
    dice: tuple[int, ...],
    drm: list[DrmRequest],
    inputs: dict[str, Any],
    field: str,
) -> None:
    with pytest.raises(InvalidInput) as err:
        resolve(table, dice, drm, inputs)
    assert err.value.field == field
