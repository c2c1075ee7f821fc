"""The KGP RePh 8.604-8.615 tables (``cgledger/domain/rulesets/kgp/tables_a.py``) against the
seed text (``000_…``): every band, every worked example, the Original-roll
specials, the DRM kinds and the refusals."""

from __future__ import annotations

from typing import Any

import pytest

from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets.kgp import tables_a as kgp
from cgledger.domain.tables import (
    DrmRequest,
    Table,
    band_for,
    content_hash,
    definition,
    from_definition,
    resolve,
)

REFUEL = (
    "Automatically refuel {final} currently Out-of-Gas vehicle(s) [EXC: PSW 234/2 and U.S. M10 TD]"
)

#: (table id, Final, result in the table's own words), transcribed from the seed.
BAND_CASES: list[tuple[str, int, str]] = [
    # 8.606 ESCAPE TABLE, Infantry column
    ("kgp:8.606-infantry", 0, "Escapes"),
    ("kgp:8.606-infantry", 8, "Escapes"),
    ("kgp:8.606-infantry", 9, "Escapes; Replaced"),
    ("kgp:8.606-infantry", 10, "Escapes; Casualty Reduced"),
    ("kgp:8.606-infantry", 11, "Escapes; Replaced, then Casualty Reduced"),
    ("kgp:8.606-infantry", 12, "All units and Equipment Eliminated"),
    ("kgp:8.606-infantry", 17, "All units and Equipment Eliminated"),
    # 8.606 ESCAPE TABLE, Mobile Vehicle column
    ("kgp:8.606-vehicle", 1, "Escapes"),
    ("kgp:8.606-vehicle", 8, "Escapes"),
    ("kgp:8.606-vehicle", 9, "Abandoned; crew (if any) Escapes"),
    ("kgp:8.606-vehicle", 10, "Eliminated; crew (if any) Escapes"),
    ("kgp:8.606-vehicle", 11, "Abandoned; crew (if any) is Eliminated"),
    ("kgp:8.606-vehicle", 12, "Eliminated; crew (if any) is Eliminated"),
    ("kgp:8.606-vehicle", 15, "Eliminated; crew (if any) is Eliminated"),
    # 8.6061: Eliminated on a dr of ≥ 4; left in the Location on ≤ 3
    ("kgp:8.6061", 0, "Equipment left in the Eliminated unit's last-occupied Location"),
    ("kgp:8.6061", 3, "Equipment left in the Eliminated unit's last-occupied Location"),
    ("kgp:8.6061", 4, "Equipment Eliminated"),
    ("kgp:8.6061", 7, "Equipment Eliminated"),
    # 8.610 WOUNDED LEADER TABLE
    ("kgp:8.610", -1, "Retained unwounded"),
    ("kgp:8.610", 1, "Retained unwounded"),
    ("kgp:8.610", 2, "Retained wounded"),
    ("kgp:8.610", 3, "Retained wounded"),
    ("kgp:8.610", 4, "Eliminated (evacuated)"),
    ("kgp:8.610", 7, "Eliminated (evacuated)"),
    # 8.6113 MMC BATTLE HARDENING TABLE
    ("kgp:8.6113", -4, "5 MMC"),
    ("kgp:8.6113", -1, "5 MMC"),
    ("kgp:8.6113", 0, "4 MMC"),
    ("kgp:8.6113", 1, "3 MMC"),
    ("kgp:8.6113", 2, "2 MMC"),
    ("kgp:8.6113", 3, "2 MMC"),
    ("kgp:8.6113", 4, "1 MMC"),
    ("kgp:8.6113", 5, "1 MMC"),
    ("kgp:8.6113", 6, "No MMC (-)"),
    ("kgp:8.6113", 12, "No MMC (-)"),
    # 8.6114 LEADER BATTLE HARDENING TABLE
    ("kgp:8.6114", 0, "10-2"),
    ("kgp:8.6114", 2, "10-2"),
    ("kgp:8.6114", 3, "9-2"),
    ("kgp:8.6114", 4, "9-1"),
    ("kgp:8.6114", 5, "8-1"),
    ("kgp:8.6114", 6, "8-0"),
    ("kgp:8.6114", 7, "8-0"),
    ("kgp:8.6114", 8, "7-0"),
    ("kgp:8.6114", 9, "7-0"),
    ("kgp:8.6114", 10, "6+1"),
    ("kgp:8.6114", 12, "6+1"),
    # 8.6122: a Final dr of ≥ 5 reduces the SAN by two
    ("kgp:8.6122", 1, "No change"),
    ("kgp:8.6122", 4, "No change"),
    ("kgp:8.6122", 5, "Current SAN reduced by two"),
    ("kgp:8.6122", 9, "Current SAN reduced by two"),
    # 8.613 SHIFT TABLE
    ("kgp:8.613", 1, "Shifted safely"),
    ("kgp:8.613", 8, "Shifted safely"),
    ("kgp:8.613", 9, "No Shift"),
    ("kgp:8.613", 10, "No Shift"),
    ("kgp:8.613", 11, "Shifted with Casualties"),
    ("kgp:8.613", 12, "All units, Inherent crews and Equipment Eliminated"),
    ("kgp:8.613", 14, "All units, Inherent crews and Equipment Eliminated"),
    # 8.613 footnote †: Casualty Reduction on a subsequent dr of ≥ 4 ...
    ("kgp:8.613-casualty-personnel", 1, "No Casualty Reduction"),
    ("kgp:8.613-casualty-personnel", 3, "No Casualty Reduction"),
    ("kgp:8.613-casualty-personnel", 4, "Casualty Reduction"),
    ("kgp:8.613-casualty-personnel", 6, "Casualty Reduction"),
    # ... and each vehicle Eliminated on a subsequent dr of ≥ 5
    ("kgp:8.613-casualty-vehicle", 1, "Not Eliminated"),
    ("kgp:8.613-casualty-vehicle", 4, "Not Eliminated"),
    ("kgp:8.613-casualty-vehicle", 5, "Eliminated"),
    ("kgp:8.613-casualty-vehicle", 6, "Eliminated"),
    # 8.6141b IMMOBILIZATION REMOVAL TABLE
    ("kgp:8.6141b", 0, "Becomes Mobile"),
    ("kgp:8.6141b", 2, "Becomes Mobile"),
    ("kgp:8.6141b", 3, "No Change"),
    ("kgp:8.6141b", 8, "No Change"),
    # 8.6141c: refuel a number of Out-of-Gas vehicles equal to that dr
    ("kgp:8.6141c", 1, REFUEL),
    ("kgp:8.6141c", 6, REFUEL),
    # 8.6142 WEAPON REPAIR TABLE
    ("kgp:8.6142", 0, "Repaired"),
    ("kgp:8.6142", 2, "Repaired"),
    ("kgp:8.6142", 3, "Eliminated"),
    ("kgp:8.6142", 7, "Eliminated"),
    # 8.61421: Final dr ≤ 4 Retained in functioning order
    ("kgp:8.61421", 1, "Retained in functioning order"),
    ("kgp:8.61421", 4, "Retained in functioning order"),
    ("kgp:8.61421", 5, "Not Retained"),
    ("kgp:8.61421", 8, "Not Retained"),
    # 8.6144: if ≥ 4 it is Eliminated (disabled if vehicular)
    ("kgp:8.6144", 1, "No effect"),
    ("kgp:8.6144", 3, "No effect"),
    ("kgp:8.6144", 4, "Eliminated (disabled if vehicular)"),
    ("kgp:8.6144", 6, "Eliminated (disabled if vehicular)"),
    # 8.6146: a Final dr of ≤ 3 restores the special ammunition
    ("kgp:8.6146", 1, "Special ammunition restored"),
    ("kgp:8.6146", 3, "Special ammunition restored"),
    ("kgp:8.6146", 4, "Not restored"),
    ("kgp:8.6146", 7, "Not restored"),
    # 8.615 FORTIFICATION/WRECK/IMMOBILE-VEHICLE REMOVAL TABLE
    ("kgp:8.615", -2, "Eliminated"),
    ("kgp:8.615", 3, "Eliminated"),
    ("kgp:8.615", 4, "No Effect"),
    ("kgp:8.615", 9, "No Effect"),
]

EXPECTED_IDS = {
    "kgp:8.606-infantry",
    "kgp:8.606-vehicle",
    "kgp:8.6061",
    "kgp:8.610",
    "kgp:8.6113",
    "kgp:8.6114",
    "kgp:8.6122",
    "kgp:8.613",
    "kgp:8.613-casualty-personnel",
    "kgp:8.613-casualty-vehicle",
    "kgp:8.6141b",
    "kgp:8.6141c",
    "kgp:8.6142",
    "kgp:8.61421",
    "kgp:8.6144",
    "kgp:8.6146",
    "kgp:8.615",
}


def _inputs(table: Table) -> dict[str, Any]:
    # 8.6122 needs the SAN; 4 gives a +0 drm, so the "other" DRM alone sets the Final.
    return {"san": 4} if table.inputs else {}


def _reach(table: Table, final: int) -> dict[str, Any]:
    """Resolve ``table`` to ``final`` with a mid Original roll (7 or 3, never an
    Original-roll special) and an "other" DRM making up the difference."""
    dice = (3, 4) if table.dice == 2 else (3,)
    diff = final - sum(dice)
    drm = [DrmRequest("other", value=diff, note=f"to reach Final {final}")] if diff else []
    return resolve(table, dice, drm, _inputs(table))


def test_the_module_defines_exactly_the_tables_of_8_604_to_8_615() -> None:
    assert set(kgp.TABLES) == EXPECTED_IDS
    assert all(t.ruleset == "kgp" for t in kgp.TABLES.values())


@pytest.mark.parametrize(
    ("table_id", "final", "expected"),
    [pytest.param(*case, id=f"{case[0]}@{case[1]}") for case in BAND_CASES],
)
def test_band_for_each_final(table_id: str, final: int, expected: str) -> None:
    table = kgp.TABLES[table_id]
    assert table.bands[band_for(table, final, {})].result == expected


@pytest.mark.parametrize(
    ("table_id", "final", "expected"),
    [pytest.param(*case, id=f"{case[0]}@{case[1]}") for case in BAND_CASES],
)
def test_resolve_reaches_each_final(table_id: str, final: int, expected: str) -> None:
    out = _reach(kgp.TABLES[table_id], final)
    assert out["final"] == final
    assert out["outcome"]["text"] == expected.replace("{final}", str(final))
    assert "special" not in out["outcome"]


def test_band_cases_cover_every_band_of_every_table() -> None:
    hit: dict[str, set[int]] = {}
    for table_id, final, _ in BAND_CASES:
        table = kgp.TABLES[table_id]
        hit.setdefault(table_id, set()).add(band_for(table, final, {}))
    assert set(hit) == set(kgp.TABLES)
    for table_id, table in kgp.TABLES.items():
        assert hit[table_id] == set(range(len(table.bands))), table_id


def test_secret_tables_are_those_the_rules_call_secret() -> None:
    # 8.6113, 8.6114 and 8.613 "Secret DR"; 8.6141c "Secret dr".
    secret = {t.id for t in kgp.TABLES.values() if t.secret}
    assert secret == {"kgp:8.6113", "kgp:8.6114", "kgp:8.613", "kgp:8.6141c"}


def test_dice_of_each_table() -> None:
    two = {t.id for t in kgp.TABLES.values() if t.dice == 2}
    assert two == {
        "kgp:8.606-infantry",
        "kgp:8.606-vehicle",
        "kgp:8.6113",
        "kgp:8.6114",
        "kgp:8.613",
    }


def test_results_carry_no_footnote_markers() -> None:
    for table in kgp.TABLES.values():
        for band in table.bands:
            assert not set(band.result) & set("*†‡§"), (table.id, band.result)
            # A footnote number glued on ("Escapes1") would end the result; only
            # the 8.6114 leader types ("10-2", "6+1") end with a digit.
            if table.id != "kgp:8.6114":
                assert not band.result[-1].isdigit(), (table.id, band.result)


@pytest.mark.parametrize(
    ("table_id", "markers"),
    [
        ("kgp:8.606-infantry", [["1"], ["2", "3"], ["3"], ["2", "3"], []]),
        ("kgp:8.606-vehicle", [[], ["4", "5"], ["6"], ["5"], []]),
        ("kgp:8.613", [[], ["*"], ["†"], []]),
        ("kgp:8.6141b", [["*"], []]),
        ("kgp:8.6142", [[], ["‡"]]),
        ("kgp:8.615", [["†"], ["‡"]]),
    ],
)
def test_footnotes_are_in_the_notes_of_their_band(table_id: str, markers: list[list[str]]) -> None:
    table = kgp.TABLES[table_id]
    assert [[n.split(" ", 1)[0] for n in b.notes] for b in table.bands] == markers


def test_escape_footnote_texts() -> None:
    inf, veh = kgp.ESCAPE_INFANTRY, kgp.ESCAPE_VEHICLE
    assert inf.bands[1].notes == (
        "2 A crew, or unit that would become Disrupted is Eliminated instead.",
        "3 Use Random Selection for a stack.",
    )
    assert veh.bands[2].notes == (
        "6 The surviving crew (if any) may attempt to Scrounge the vehicle prior to its "
        "Elimination.",
    )
    assert inf.bands[0].notes[0].startswith("1 An Original 2 DR results in Escape and Heat")


# ---------------------------------------------------------------- 8.606 Escape DRMs


def test_escape_drms_are_split_between_the_columns() -> None:
    inf = {d.id for d in kgp.ESCAPE_INFANTRY.drms}
    veh = {d.id for d in kgp.ESCAPE_VEHICLE.drms}
    both = {
        "night",
        "adjacent-friendly-setup-area",
        "two-hexes-from-friendly-setup-area",
        "leader",
        "enemy-setup-area",
        "unarmed",
        "isolated",
    }
    # "*NA to vehicle Escape attempt", and lone SMC by its text
    assert inf - veh == {"lone-smc", "hs-equivalent", "excess-pp", "encircled"}
    assert veh - inf == {"ot-afv", "ct-afv", "stun", "captured"}
    assert inf & veh == both


@pytest.mark.parametrize(
    ("table", "first", "second"),
    [
        pytest.param(kgp.ESCAPE_VEHICLE, "ot-afv", "ct-afv", id="OT/CT AFV"),
        pytest.param(
            kgp.ESCAPE_INFANTRY,
            "adjacent-friendly-setup-area",
            "two-hexes-from-friendly-setup-area",
            id="adjacent/two hexes away",
        ),
        pytest.param(kgp.WEAPON_REPAIR, "us", "german-ammunition-shortage", id="8.6142 side"),
        pytest.param(kgp.REMOVAL, "front-line-hex", "adjacent-front-line-hex", id="8.615 FLH"),
        pytest.param(
            kgp.REMOVAL, "roadblock-front-line-hex", "front-line-hex", id="8.615 roadblock"
        ),
    ],
)
def test_grouped_drms_exclude_each_other(table: Table, first: str, second: str) -> None:
    dice = (3, 4) if table.dice == 2 else (3,)
    with pytest.raises(InvalidInput) as err:
        resolve(table, dice, [DrmRequest(first), DrmRequest(second)])
    assert err.value.field == "drm[1]"


@pytest.mark.parametrize(
    ("table", "drm", "value"),
    [
        (kgp.ESCAPE_VEHICLE, "ot-afv", -1),
        (kgp.ESCAPE_VEHICLE, "ct-afv", -2),
        (kgp.ESCAPE_VEHICLE, "captured", 1),
        (kgp.ESCAPE_INFANTRY, "lone-smc", -1),
        (kgp.ESCAPE_INFANTRY, "night", -1),
        (kgp.ESCAPE_INFANTRY, "adjacent-friendly-setup-area", -2),
        (kgp.ESCAPE_INFANTRY, "two-hexes-from-friendly-setup-area", -1),
        (kgp.ESCAPE_INFANTRY, "encircled", 2),
        (kgp.ESCAPE_INFANTRY, "isolated", 2),
        (kgp.ESCAPE_VEHICLE, "isolated", 2),
        (kgp.ESCAPE_VEHICLE, "unarmed", 1),
        (kgp.WOUNDED_LEADER, "german", -1),
        (kgp.WOUNDED_LEADER, "heroic", -1),
        (kgp.WOUNDED_LEADER, "isolated", 1),
        (kgp.MMC_BATTLE_HARDENING, "won", -2),
        (kgp.LEADER_BATTLE_HARDENING, "won", -2),
        (kgp.SHIFT, "road", -1),
        (kgp.IMMOBILIZATION_REMOVAL, "non-qualified-use", 1),
        (kgp.IMMOBILIZATION_REMOVAL, "front-line-hex", 1),
        (kgp.IMMOBILIZATION_REMOVAL, "isolated", 1),
        (kgp.IMMOBILIZATION_REMOVAL, "german", 1),
        (kgp.WEAPON_REPAIR, "vehicular", -2),
        (kgp.WEAPON_REPAIR, "us", -1),
        (kgp.WEAPON_REPAIR, "non-qualified-use", 1),
        (kgp.WEAPON_REPAIR, "isolated", 1),
        (kgp.WEAPON_REPAIR, "german-ammunition-shortage", 1),
        (kgp.SCW_FT_DC, "german", 1),
        (kgp.SCW_FT_DC, "ammunition-shortage", 1),
        (kgp.SPECIAL_AMMO, "ammunition-shortage", 1),
        (kgp.REMOVAL, "front-line-hex", 2),
        (kgp.REMOVAL, "roadblock-front-line-hex", 2),
        (kgp.REMOVAL, "adjacent-front-line-hex", 1),
        (kgp.REMOVAL, "roadblock-adjacent-front-line-hex", 1),
    ],
    ids=lambda v: v.id if isinstance(v, Table) else str(v),
)
def test_fixed_drm_values(table: Table, drm: str, value: int) -> None:
    dice = (3, 4) if table.dice == 2 else (3,)
    out = resolve(table, dice, [DrmRequest(drm)])
    assert [a["value"] for a in out["drm"]] == [value]
    assert out["final"] == sum(dice) + value


@pytest.mark.parametrize(
    ("table", "drm", "count", "value"),
    [
        # 8.606 "+1 Per HS-equivalent > one HS using the same Escape DR": a HS +0,
        # a squad (2 HS-equivalents) +1, a squad and a HS +2.
        (kgp.ESCAPE_INFANTRY, "hs-equivalent", 1, 0),
        (kgp.ESCAPE_INFANTRY, "hs-equivalent", 2, 1),
        (kgp.ESCAPE_INFANTRY, "hs-equivalent", 3, 2),
        (kgp.ESCAPE_INFANTRY, "excess-pp", 0, 0),
        (kgp.ESCAPE_INFANTRY, "excess-pp", 3, 3),
        # 8.6113 "-1 Per 25 Casualty VP"
        (kgp.MMC_BATTLE_HARDENING, "casualty-vp", 24, 0),
        (kgp.MMC_BATTLE_HARDENING, "casualty-vp", 25, -1),
        (kgp.MMC_BATTLE_HARDENING, "casualty-vp", 49, -1),
        (kgp.MMC_BATTLE_HARDENING, "casualty-vp", 50, -2),
        # 8.613 "+1 Per every 5 Uncontrolled-Territory hexes along that path"
        (kgp.SHIFT, "uncontrolled-hexes", 4, 0),
        (kgp.SHIFT, "uncontrolled-hexes", 5, 1),
        (kgp.SHIFT, "uncontrolled-hexes", 14, 2),
        (kgp.SHIFT, "uncontrolled-hexes", 15, 3),
        # 8.615 "-1 Per Assault Engineer HS-equivalent"
        (kgp.REMOVAL, "assault-engineer", 2, -2),
    ],
    ids=lambda v: v.id if isinstance(v, Table) else str(v),
)
def test_per_drm_values(table: Table, drm: str, count: int, value: int) -> None:
    dice = (3, 4) if table.dice == 2 else (3,)
    out = resolve(table, dice, [DrmRequest(drm, count=count)])
    assert out["drm"][0]["value"] == value
    assert out["final"] == sum(dice) + value


@pytest.mark.parametrize(
    ("table", "drm", "x", "value"),
    [
        (kgp.ESCAPE_INFANTRY, "leader", -2, -2),
        (kgp.ESCAPE_VEHICLE, "leader", -1, -1),
        (kgp.ESCAPE_VEHICLE, "stun", 3, 3),
        (kgp.IMMOBILIZATION_REMOVAL, "armor-leader", -1, -1),
    ],
    ids=lambda v: v.id if isinstance(v, Table) else str(v),
)
def test_valued_drm_values(table: Table, drm: str, x: int, value: int) -> None:
    dice = (3, 4) if table.dice == 2 else (3,)
    out = resolve(table, dice, [DrmRequest(drm, value=x)])
    assert out["drm"][0]["value"] == value
    assert out["final"] == sum(dice) + value


# ---------------------------------------------------------------- worked examples


@pytest.mark.parametrize(
    ("table", "dice", "drm", "drm_total", "final", "text"),
    [
        pytest.param(
            kgp.ESCAPE_INFANTRY,
            (3, 3),
            [DrmRequest("enemy-setup-area"), DrmRequest("hs-equivalent", count=2)],
            2,
            8,
            "Escapes",
            id="8.6061 EX: U.S. squad, Original 6, enemy Setup Area +1, HS-equivalent +1",
        ),
        pytest.param(
            kgp.ESCAPE_VEHICLE,
            (3, 4),
            [DrmRequest("unarmed"), DrmRequest("enemy-setup-area")],
            2,
            9,
            "Abandoned; crew (if any) Escapes",
            id="8.6061 EX: U.S. truck, Original 7, unarmed +1, enemy Setup Area +1",
        ),
        pytest.param(
            # The EX gives only the Final 7; the tank is in the U.S. Setup Area, so
            # +1 applies, and an Original 6 is one way to reach it.
            kgp.ESCAPE_VEHICLE,
            (2, 4),
            [DrmRequest("enemy-setup-area")],
            1,
            7,
            "Escapes",
            id="8.6061 EX: German tank, Final 7",
        ),
        pytest.param(
            kgp.ESCAPE_INFANTRY,
            (4, 4),
            [DrmRequest("hs-equivalent", count=2)],
            1,
            9,
            "Escapes; Replaced",
            id="8.6061 EX: German squad, Original 8, HS-equivalent +1",
        ),
        pytest.param(
            kgp.ESCAPE_INFANTRY,
            (5, 5),
            [DrmRequest("hs-equivalent", count=2)],
            1,
            11,
            "Escapes; Replaced, then Casualty Reduced",
            id="8.6061 EX: German squad, Original 10, HS-equivalent +1",
        ),
        pytest.param(
            # The EX gives the +3 DRM, not the dice.
            kgp.ESCAPE_INFANTRY,
            (3, 4),
            [DrmRequest("hs-equivalent", count=2), DrmRequest("isolated")],
            3,
            10,
            "Escapes; Casualty Reduced",
            id="8.6061 EX: Isolated U.S. squad in the J19 Steeple, +3 DRM",
        ),
        pytest.param(
            # "If the squad in the steeple had been a HS instead": +0 per HS-equivalent.
            kgp.ESCAPE_INFANTRY,
            (3, 4),
            [DrmRequest("hs-equivalent", count=1), DrmRequest("isolated")],
            2,
            9,
            "Escapes; Replaced",
            id="8.6061 EX: the Steeple HS instead, +2 DRM",
        ),
    ],
)
def test_8_6061_example(
    table: Table,
    dice: tuple[int, ...],
    drm: list[DrmRequest],
    drm_total: int,
    final: int,
    text: str,
) -> None:
    out = resolve(table, dice, drm)
    assert sum(a["value"] for a in out["drm"]) == drm_total
    assert out["final"] == final
    assert out["outcome"]["text"] == text


@pytest.mark.parametrize(
    ("original", "final", "text"),
    [
        pytest.param(3, 5, "Current SAN reduced by two", id="8.6122 EX: SAN 6, Original 3"),
        pytest.param(2, 4, "No change", id="8.6122 EX: SAN 6, Original 2"),
        pytest.param(6, 8, "Current SAN reduced by two", id="8.6122 EX: SAN 6, Original 6"),
        pytest.param(1, 3, "No change", id="8.6122 EX: SAN 6, Original 1"),
    ],
)
def test_8_6122_example(original: int, final: int, text: str) -> None:
    """8.6122 EX: "The U.S. SAN is currently 6. Due to the +2 drm (6 - 4 = 2) ...,
    an Original dr of ≥ 3 will lower the U.S. SAN to 4." """
    out = resolve(kgp.SAN_ADJUSTMENT, (original,), inputs={"san": 6})
    assert out["drm"] == [
        {"id": "san-minus-four", "text": kgp.SAN_ADJUSTMENT.drms[0].text, "value": 2}
    ]
    assert out["final"] == final
    assert out["outcome"]["text"] == text


def test_8_6122_san_four_has_no_drm() -> None:
    out = resolve(kgp.SAN_ADJUSTMENT, (5,), inputs={"san": 4})
    assert out["drm"][0]["value"] == 0
    assert out["outcome"]["text"] == "Current SAN reduced by two"


# ---------------------------------------------------------------- specials and follow-ups


@pytest.mark.parametrize(
    ("dice", "other", "final"),
    [((1, 1), None, 2), ((1, 1), 7, 9), ((1, 1), 10, 12)],
)
def test_8_606_original_2_escapes_whatever_the_final(
    dice: tuple[int, int], other: int | None, final: int
) -> None:
    """8.606 footnote 1: an Original 2 DR results in Escape and Heat of Battle."""
    drm = [DrmRequest("other", value=other, note="extra DRM")] if other else []
    out = resolve(kgp.ESCAPE_INFANTRY, dice, drm)
    assert out["final"] == final
    assert out["outcome"]["text"] == "Escapes; Heat of Battle"
    assert out["outcome"]["special"].startswith("Escape and Heat of Battle")


def test_8_606_original_3_is_no_special() -> None:
    out = resolve(kgp.ESCAPE_INFANTRY, (1, 2), [DrmRequest("other", value=9, note="x")])
    assert out["outcome"]["text"] == "All units and Equipment Eliminated"
    assert "special" not in out["outcome"]


def test_8_606_vehicle_column_has_no_original_2_special() -> None:
    out = resolve(kgp.ESCAPE_VEHICLE, (1, 1), [DrmRequest("other", value=10, note="x")])
    assert out["outcome"]["text"] == "Eliminated; crew (if any) is Eliminated"
    assert "special" not in out["outcome"]


@pytest.mark.parametrize(
    ("dice", "drm", "text", "special"),
    [
        ((6,), [], "No Effect", True),
        ((6,), [DrmRequest("assault-engineer", count=3)], "Eliminated", True),
        ((5,), [], "No Effect", False),
        ((3,), [], "Eliminated", False),
    ],
)
def test_8_615_original_6_casualty_reduction(
    dice: tuple[int], drm: list[DrmRequest], text: str, special: bool
) -> None:
    """8.615 ‡: "An original dr of 6 results in Casualty Reduction of a non-Isolated
    Elite MMC" — added to the outcome, which keeps its band's result."""
    out = resolve(kgp.REMOVAL, dice, drm)
    assert out["outcome"]["text"] == text
    assert ("special" in out["outcome"]) is special
    if special:
        assert out["outcome"]["special"].startswith("An original dr of 6 results in Casualty")


def test_8_613_shifted_with_casualties_names_the_casualty_drs() -> None:
    out = resolve(kgp.SHIFT, (5, 6))
    assert out["outcome"]["text"] == "Shifted with Casualties"
    assert out["outcome"]["follow_up"] == [
        "kgp:8.613-casualty-personnel",
        "kgp:8.613-casualty-vehicle",
    ]
    for table_id in out["outcome"]["follow_up"]:
        assert table_id in kgp.TABLES


def test_8_6141c_refuels_the_final_dr() -> None:
    out = resolve(kgp.DEC22N_REFUEL, (4,))
    assert out["outcome"]["text"].startswith("Automatically refuel 4 currently Out-of-Gas")


# ---------------------------------------------------------------- refusals


def _field(table: Table, dice: tuple[int, ...], drm: list[DrmRequest], **inputs: Any) -> str:
    with pytest.raises(InvalidInput) as err:
        resolve(table, dice, drm, inputs)
    assert err.value.field is not None
    return err.value.field


def test_refuses_an_unknown_drm() -> None:
    # "If Encircled" is NA to a vehicle Escape attempt.
    assert _field(kgp.ESCAPE_VEHICLE, (3, 4), [DrmRequest("encircled")]) == "drm[0].id"


def test_refuses_a_count_on_a_fixed_drm() -> None:
    assert _field(kgp.WOUNDED_LEADER, (3,), [DrmRequest("german", count=1)]) == "drm[0]"


def test_refuses_a_per_drm_without_a_count() -> None:
    assert _field(kgp.MMC_BATTLE_HARDENING, (3, 4), [DrmRequest("casualty-vp")]) == "drm[0]"


def test_refuses_a_valued_drm_without_a_value() -> None:
    assert _field(kgp.IMMOBILIZATION_REMOVAL, (3,), [DrmRequest("armor-leader")]) == "drm[0]"


def test_refuses_a_missing_input() -> None:
    assert _field(kgp.SAN_ADJUSTMENT, (3,), []) == "inputs.san"


@pytest.mark.parametrize("san", [3, 100])
def test_refuses_a_san_the_rule_does_not_roll_for(san: int) -> None:
    assert _field(kgp.SAN_ADJUSTMENT, (3,), [], san=san) == "inputs.san"


@pytest.mark.parametrize(
    ("dice", "after_roll"),
    [
        # 8.6114: "the player may, after the DR, choose to ignore this DRM or apply
        # only a -1 DRM": Original 4 with -2 is Final 2 (10-2); -1 gives 3 (9-2);
        # ignoring it gives 4 (9-1).
        ((2, 2), [(0, 4, "9-1"), (-1, 3, "9-2")]),
        ((6, 6), [(0, 12, "6+1"), (-1, 11, "6+1")]),
    ],
)
def test_8_6114_won_drm_is_chosen_after_the_dr(
    dice: tuple[int, int], after_roll: list[tuple[int, int, str]]
) -> None:
    out = resolve(kgp.LEADER_BATTLE_HARDENING, dice, [DrmRequest("won")])
    assert out["final"] == sum(dice) - 2
    assert [(c["value"], c["final"], c["text"]) for c in out["outcome"]["after_roll"]] == (
        after_roll
    )
    assert "after_roll" not in resolve(kgp.LEADER_BATTLE_HARDENING, dice)["outcome"]


def test_refuses_naming_the_automatic_san_drm() -> None:
    field = _field(kgp.SAN_ADJUSTMENT, (3,), [DrmRequest("san-minus-four")], san=6)
    assert field == "drm[0]"


def test_refuses_an_input_the_table_does_not_take() -> None:
    assert _field(kgp.WOUNDED_LEADER, (3,), [], san=6) == "inputs.san"


# ---------------------------------------------------------------- definitions


@pytest.mark.parametrize("table_id", sorted(EXPECTED_IDS))
def test_definition_round_trips(table_id: str) -> None:
    table = kgp.TABLES[table_id]
    rebuilt = from_definition(definition(table))
    assert rebuilt == table
    assert content_hash(rebuilt) == content_hash(table)
