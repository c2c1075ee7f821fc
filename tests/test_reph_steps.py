"""The RePh step sequences (KGP 8.6, ABtF 9.6, SG 1.2) against the seed texts:
each step's markers, acting sides, joint flag and first CG Date, transcribed
below from the seeds' sequence lists and step texts, and what GET /v1/rulesets
lists of them.

``printed`` is the marker(s) the seed's list prints before the step number;
``markers`` is what the ruleset holds. They differ only where the OCR lost or
garbled a marker, and each such step must say in its ``reading`` why:

* KGP 8.6 defines "‡" but its list prints none: read on 8.624-.625, the only
  steps after 8.623 Initiative Determination, whose result "‡" depends on.
* ABtF 9.6 is cut off after "numbered/", so its marker key is lost: the list's
  "+" on 9.601-.603 is read as "§" (the same three steps KGP marks "§"), and
  "*" comes from 9.62132 note 2 ("each side repeats RePh steps 9.612-.620").
* SG 1.2 prints no markers; one order for both players, American first.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from fastapi.testclient import TestClient

from cgledger.api.app import create_app
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import MARKERS
from cgledger.settings import Settings

EVERY: tuple[str, ...] = ()  # every side acts in the step


class Row(NamedTuple):
    id: str
    title: str
    printed: str
    markers: tuple[str, ...]
    sides: tuple[str, ...] = EVERY
    joint: bool = False
    from_date: str | None = None
    action: str | None = None


US, GERMAN, BRITISH, AMERICAN = "US", "German", "British", "American"

#: 8.6 RePh Sequence (seed 000, top), the acting sides from 8.601-8.625.
KGP = (
    Row("8.601", "Conclusion of Melee", "§", ("§",)),
    Row("8.602", "Marker Removal", "§", ("§",)),
    Row("8.603", "Rally, Unloading, Victory Determination, & CG-LVP Totals", "§", ("§",)),
    Row("8.604", "Encirclement, Minefields, Bog & Shock", "", ()),
    Row("8.605", "Setup Area Determination", "", ()),
    Row("8.606", "Escape", "", ()),
    Row("8.607", "Equipment Possession & Hidden Fortifications", "", ()),
    Row("8.608", "Prisoners", "", ()),
    Row("8.609", "Extinguishing Flames & Blazes", "", ()),
    Row("8.610", "Wounded Leaders", "", ()),
    Row("8.611", "Battle Hardening & Promotion", "", ()),
    # 8.6121: "Each passage of this RePh step represents the start of a new CG Date".
    Row("8.612", "New CG Date & SAN Adjustment", "*", ("*",), joint=True),
    Row("8.613", "Shift", "*", ("*",)),
    Row("8.614", "Equipment Repair & Replenishment", "*", ("*",)),
    Row("8.615", "Fortification & Wreck Removal", "*", ("*",)),
    Row("8.616", "CPP Replenishment", "*", ("*",), action="cpp-replenishments"),
    Row("8.617", "KGP Weather", "*", ("*",)),
    # 8.618: "Beginning on Dec 20 AM, and on each CG Date thereafter ..., the German makes a DR."
    Row(
        "8.618",
        "German Ammunition Shortage",
        "†*",
        ("†", "*"),
        sides=(GERMAN,),
        from_date="20 AM",
        action="ammunition-shortage",
    ),
    Row("8.619", "Purchasing Reinforcement Groups", "†*", ("†", "*")),
    # 8.6201: "For each such RG the German player has just purchased ..., he must make one DR".
    Row(
        "8.620",
        "RG Strength, Quality, Weapons & Leaders",
        "†*",
        ("†", "*"),
        action="rg-determinations",
    ),
    Row("8.621", "Purchasing Fortifications", "†*", ("†", "*")),
    Row("8.622", "Purchasing Reconnaissance", "*", ("*",)),
    # 8.6232: the chits of both sides "are then revealed simultaneously".
    Row("8.623", "Initiative Determination", "*", ("*",), joint=True),
    Row("8.624", "Unit Setup", "", ("‡",)),
    Row("8.625", "Scenario Commencement", "", ("‡",)),
)

#: 9.6 RePh Sequence (seed 003, top), the acting sides from 9.601-9.62164.
ABTF = (
    Row("9.601", "Conclusion of Melee", "+", ("§",)),
    Row("9.602", "Marker Removal", "+", ("§",)),
    Row("9.603", "Rally and Unloading", "+", ("§",)),
    Row("9.604", "Encirclement, Minefields, Bog, and Shock", "", ()),
    Row("9.605", "Setup Area Determination", "", ()),
    Row("9.606", "Encircled-Marker Removal", "", ()),
    Row("9.607", "Equipment Possession and Hidden Fortifications", "", ()),
    Row("9.608", "Prisoners", "", ()),
    Row("9.609", "Extinguishing Flames and Blazes", "", ()),
    Row("9.610", "Wounded Leaders and Walking Wounded MMC", "", ()),
    Row("9.611", "Recombining and Battle Hardening", "", ()),
    # 9.6121: "Each passage of this RePh step represents the start of a new CG Date."
    Row("9.612", "New CG Date and SAN Adjustment", "", ("*",), joint=True),
    Row("9.613", "Shift", "", ("*",)),
    Row("9.614", "Equipment Repair and Replenishment", "", ("*",)),
    Row("9.615", "OB-Given Reinforcements", "", ("*",)),
    # 9.616: "CPP are replenished according to the following formula": a DR to make.
    Row("9.616", "CPP Replenishment", "", ("*",), action="cpp-replenishments"),
    Row("9.617", "Purchasing Reinforcement Groups", "†", ("†", "*")),
    # 9.6181: "For each RG eligible for Depletion that was just purchased ..., make one
    # secret DR on the RG Strength Table".
    Row(
        "9.618",
        "RG Strength, Weapons, Leaders, and Composition",
        "†",
        ("†", "*"),
        action="rg-determinations",
    ),
    Row("9.619", "Purchasing Fortifications", "†", ("†", "*")),
    # 9.6201 (British, from 19 AM) is one sub-step; 9.6202 ELR Loss/Gain is both
    # sides' on every date. The seed's title is cut off at "ELR Loss/".
    Row("9.620", "Ammunition Shortage and ELR Loss/Gain", "†", ("†", "*")),
    # Holds 9.6213 Initiative Determination (chits "revealed simultaneously").
    Row("9.621", "Scenario Commencement", "†", ("†",), joint=True),
)

#: 1.2's sequence (seed 004, 2.1-4.0); the seed cuts several titles at "/".
SG = (
    Row("2.1", "Melee Resolution", "", ()),
    Row("2.2", "Marker Removal", "", ()),
    Row("2.3", "Rally", "", ()),
    Row("2.4", "Motion", "", ()),
    Row("2.5", "Encirclement", "", ()),
    Row("2.6", "Bogged", "", ()),
    Row("2.7", "Shock", "", ()),
    Row("2.8", "Flames", "", ()),
    # 2.9: "The American player totals his amassed VP ..."
    Row("2.9", "Victory Determination", "", (), sides=(AMERICAN,)),
    Row("3.1", "Wounded Leaders", "", ()),
    Row("3.2", "Heroes", "", ()),
    Row("3.3", "Repair Table", "", ()),
    # 3.4: "The American player secretly spends his Purchase Points ... For each Armor
    # Group purchased, make a dr to determine armor type."
    Row("3.4", "American Reinforcements", "", (), sides=(AMERICAN,), action="rg-determinations"),
    # 3.5: "The German player now secretly makes three Reinforcement drs ..."
    Row("3.5", "German Reinforcements", "", (), sides=(GERMAN,)),
    # 3.6: "for each German infantry (Row A) and armor (Row B) Reinforcement Group, make one
    # secret DR on the appropriate column of the following Leader Table".
    Row("3.6", "Leaders", "", (), action="rg-determinations"),
    # 3.7: "For each M4 Armor Reinforcement Group" (the American's, 3.4), "make a secret DR".
    Row("3.7", "U.S. Medium Tank Models", "", (), sides=(AMERICAN,), action="rg-determinations"),
    Row("3.8", "Entry", "", ()),
    Row("3.9", "OBA", "", ()),
    # 4.0: "Players now begin the next CG scenario ..."
    Row("4.0", "Next CG Scenario", "", (), joint=True),
)

SEEDS = {"kgp": KGP, "abtf": ABTF, "sg": SG}
SIDES = {"kgp": (US, GERMAN), "abtf": (BRITISH, GERMAN), "sg": (AMERICAN, GERMAN)}
#: The garbled "+" of ABtF's list stands for "§" (see the module docstring).
OCR = {"+": "§"}


def _printed(row: Row) -> tuple[str, ...]:
    return tuple(OCR.get(c, c) for c in row.printed)


def _key(step_id: str) -> tuple[int, ...]:
    return tuple(int(part) for part in step_id.split("."))


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
def test_seed_tables_are_well_formed(ruleset: str) -> None:
    rows = SEEDS[ruleset]
    ids = [r.id for r in rows]
    assert len(set(ids)) == len(ids)
    assert ids == sorted(ids, key=_key)  # the seed's numbered order
    for r in rows:
        assert set(r.markers) <= set(MARKERS), r.id
        assert set(r.sides) <= set(SIDES[ruleset]), r.id
        # A printed marker is never dropped, only read where the OCR lost one.
        assert set(_printed(r)) <= set(r.markers), r.id


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
def test_reph_steps_are_the_seeds(ruleset: str) -> None:
    rs = REGISTRY[ruleset]
    assert rs.sides == SIDES[ruleset]
    ids = [st.id for st in rs.reph_steps]
    assert len(set(ids)) == len(ids), "step ids must be unique"
    assert ids == [r.id for r in SEEDS[ruleset]], "steps must be the seed's, in its order"
    for st, row in zip(rs.reph_steps, SEEDS[ruleset], strict=True):
        assert st.title == row.title, st.id
        assert st.markers == row.markers, st.id
        assert st.sides == row.sides, st.id
        assert st.joint is row.joint, st.id
        assert st.from_date == row.from_date, st.id
        assert st.action == row.action, st.id
        if row.from_date is not None:
            assert rs.normalize_date(row.from_date) == row.from_date, st.id
        if st.markers != _printed(row):
            assert st.reading, f"{st.id}: a marker not as printed needs a reading"


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
def test_marker_ranges(ruleset: str) -> None:
    """The markers form the blocks their definitions imply: "§" opens the
    sequence, "*" is one contiguous run that holds the new-CG-Date step, "‡"
    closes it."""
    rs = REGISTRY[ruleset]
    steps = rs.reph_steps
    with_marker = {m: [i for i, st in enumerate(steps) if m in st.markers] for m in MARKERS}
    if with_marker["§"]:
        assert with_marker["§"] == list(range(len(with_marker["§"])))
    star = with_marker["*"]
    if star:
        assert star == list(range(star[0], star[-1] + 1))
        assert rs.step_order(rs.new_date_step) == star[0]
    if with_marker["‡"]:
        assert with_marker["‡"][-1] == len(steps) - 1
        assert all(i > max(star, default=-1) for i in with_marker["‡"])
    assert next(st.id for st in steps if st.joint) == rs.new_date_step


def test_the_steps_that_name_an_action() -> None:
    named = {(rs.id, st.id): st.action for rs in REGISTRY.values() for st in rs.reph_steps}
    named = {k: v for k, v in named.items() if v is not None and k[0] in SEEDS}
    assert named == {
        ("kgp", "8.616"): "cpp-replenishments",
        ("abtf", "9.616"): "cpp-replenishments",
        # 8.618: "the German makes a DR" on each CG Date from 20 AM "(if necessary)".
        ("kgp", "8.618"): "ammunition-shortage",
        # The rolls that determine each RG bought (8.6201-8.6206, 9.6181-9.6184, 3.4-3.7).
        ("kgp", "8.620"): "rg-determinations",
        ("abtf", "9.618"): "rg-determinations",
        ("sg", "3.4"): "rg-determinations",
        ("sg", "3.6"): "rg-determinations",
        ("sg", "3.7"): "rg-determinations",
    }
    assert "cpp-replenishments" in REGISTRY["kgp"].rules.actions
    assert "cpp-replenishments" in REGISTRY["abtf"].rules.actions
    for ruleset in SEEDS:
        assert "rg-determinations" in REGISTRY[ruleset].rules.actions, ruleset


def test_get_rulesets_lists_the_steps(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, database_url=None)
    with TestClient(create_app(settings)) as client:
        r = client.get("/v1/rulesets")
    assert r.status_code == 200, r.text
    listed = {rs["id"]: rs for rs in r.json()}
    for ruleset, rows in SEEDS.items():
        steps = listed[ruleset]["reph_steps"]
        assert [s["rule"] for s in steps] == [row.id for row in rows], ruleset
        for s, row in zip(steps, rows, strict=True):
            assert s["title"] == row.title
            assert s["markers"] == list(row.markers), (ruleset, row.id)
            assert s["sides"] == list(row.sides or SIDES[ruleset]), (ruleset, row.id)
            assert s["joint"] is row.joint, (ruleset, row.id)
            assert s["from_date"] == row.from_date, (ruleset, row.id)
            assert s["action"] == row.action, (ruleset, row.id)
