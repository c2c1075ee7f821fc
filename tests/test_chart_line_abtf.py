"""What an ABtF chart line says of its group type (``group_type``; DESIGN
§14: what a chart line can say belongs on the line; issue 26 item 3: every
DRM the ledger can know, it computes).

9.6181's RG Strength Table: "+1 German VG Pltn" ("+15", the footnote digit
glued on); 9.6183's LEADER TABLE DRM block: BRITISH "-1 Commando", "-2
Engineer", "+1 Glider"; GERMAN "-1 SS PG, SS Recon, Med Tank", "-2 Engineer,
Hvy Tank", "+1 SPG, Lt Tank", "+2 VG, AC". A line that names its type gets
that type's DRM on its determination roll from the ledger (``by: ledger``),
no other group-type DRM of the table, and a roller who states any of them is
refused (422 naming it) with nothing appended; a line that does not say
(null) leaves them to the roller, as before. Played through the domain's
commands (``test_purchases_ex``)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from test_purchases_ex import _campaign, _ctx, _row, _stream_nonce

from cgledger.domain import purchases as book
from cgledger.domain.campaign import Campaign, validated_definition
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY, drm_sources
from cgledger.domain.rulesets.abtf import group_type as rg_types
from cgledger.domain.rulesets.abtf import purchasing as abtf_buying
from cgledger.domain.rulesets.cpp import DeterminationCreate, StatedDrm
from cgledger.domain.rulesets.cpp.bodies import RGItem, RGPurchaseCreate, StatedFor

ABTF = REGISTRY["abtf"]
BRITISH, GERMAN = "British", "German"
STRENGTH = "abtf:9.6181"
LEADER = {BRITISH: "abtf:9.6183-british", GERMAN: "abtf:9.6183-german"}
ARMOR = "abtf:9.6183-armor"
#: The sides whose RG roll on each table (the (Armor) column serves both).
ROLLERS = {STRENGTH: (BRITISH, GERMAN), **{t: (s,) for s, t in LEADER.items()},
           ARMOR: (BRITISH, GERMAN)}  # fmt: skip


def _line(side: str, table: str, group_type: str | None, rg: str = "I7") -> dict[str, Any]:
    """A synthetic chart line whose only determination roll is on ``table``:
    Full/Depleted units for 9.6181 (an ID with no 9.6182 SW row, no leader),
    footnote "l" or "a" for 9.6183 (no units: no Strength DR)."""
    line: dict[str, Any] = {"id": rg, "name": f"Sample {group_type} RG", "cpp": 3}
    if table == STRENGTH:
        line["units"] = [3, 2]
    else:
        line["footnotes"] = ["a" if table == ARMOR else "l"]
    if group_type is not None:
        line["group_type"] = group_type
    return line


def _doc(side: str, *lines: dict[str, Any]) -> dict[str, Any]:
    doc = copy.deepcopy(ABTF.sample_definition)
    doc["rg_chart"][side] = [*doc["rg_chart"][side], *lines]
    return doc


def _game(
    rng: random.Random, side: str, *lines: dict[str, Any], buy: tuple[str, ...] = ()
) -> tuple[Campaign, int]:
    """A campaign on 18 AM whose ``side`` bought ``lines`` (or the keys
    ``buy``) in one purchase."""
    c = _campaign(rng, "abtf", start="18 AM", definition=_doc(side, *lines), German=60,
                  British=60)  # fmt: skip
    body = RGPurchaseCreate(rgs=[RGItem(rg=rg) for rg in buy or [e["id"] for e in lines]])
    return c, c.perform(_ctx(side, rng), "rg-purchases", body)


def _roll(
    c: Campaign,
    rng: random.Random,
    side: str,
    seq: int,
    item: int = 0,
    stated: dict[str, str] | None = None,
    nonce: str | None = None,
) -> list[dict[str, Any]]:
    """The rolls RG ``item`` of purchase ``seq`` needs now (one sealed
    record: 9.6181 and 9.6183 are Secret), with ``stated`` {table: DRM}."""
    given = [
        StatedFor(for_purchase=seq, item=item, table=table, drm=[StatedDrm(id=drm)])
        for table, drm in (stated or {}).items()
    ]
    body = DeterminationCreate(
        for_purchase=seq, item=item, stated=given, secret=True, client_nonce=nonce
    )
    record = c.record(c.perform(_ctx(side, rng), "rg-determinations", body))
    rolls: list[dict[str, Any]] = record["secret"]["rolls"]
    return rolls


def _drms(roll: dict[str, Any]) -> dict[str, tuple[int, str]]:
    return {d["id"]: (d["value"], d["by"]) for d in roll["drm"]}


def _typed(table: str) -> set[str]:
    return set(rg_types.DRMS[table].values())


#: (table, side, group type, the DRM it gives): every group-type DRM, for
#: each side that may name its type and rolls on its table.
GIVES = [
    (table, side, kind, drm)
    for table, by_type in rg_types.DRMS.items()
    for kind, drm in by_type.items()
    for side in ROLLERS[table]
    if kind in rg_types.BY_SIDE[side]
]
#: (table, side, group type): a type the side may name that gives no DRM on the table.
GIVES_NONE = [
    (table, side, kind)
    for table in rg_types.DRMS
    for side in ROLLERS[table]
    for kind in rg_types.BY_SIDE[side]
    if kind not in rg_types.DRMS[table]
]


# ------------------------------------------------------------------ applied


@pytest.mark.parametrize(("table", "side", "kind", "drm"), GIVES)
def test_the_line_s_group_type_gives_its_drm_from_the_ledger(
    table: str, side: str, kind: str, drm: str
) -> None:
    """The roll on ``table`` gets the DRM of the line's type, with the
    table's value and ``by: ledger``, and no other group-type DRM."""
    rng = random.Random(f"{table}{side}{kind}")
    c, seq = _game(rng, side, _line(side, table, kind))
    (roll,) = _roll(c, rng, side, seq)
    assert roll["rule"] == table
    got = _drms(roll)
    definition = ABTF.tables[table].drm(drm)
    assert definition is not None
    assert got[drm] == (definition.value, "ledger")
    assert _typed(table) & set(got) == {drm}
    assert roll["final"] == roll["original"] + sum(v for v, _ in got.values())


@pytest.mark.parametrize(("table", "side", "kind"), GIVES_NONE)
def test_a_line_of_another_type_gets_no_group_drm(table: str, side: str, kind: str) -> None:
    rng = random.Random(f"{table}{side}{kind}")
    c, seq = _game(rng, side, _line(side, table, kind))
    (roll,) = _roll(c, rng, side, seq)
    assert roll["rule"] == table
    assert not _typed(table) & set(_drms(roll))


# ------------------------------------------------------------------ refused


#: (table, side, the line's type, the DRM stated): the type's own DRM, and
#: each DRM of the table stated on a line of another type (``Other``).
STATED_WHERE_THE_LINE_SAYS = [
    *((table, side, kind, drm) for table, side, kind, drm in GIVES),
    *((table, side, rg_types.OTHER, drm) for table, side, _, drm in GIVES),
]


@pytest.mark.parametrize(("table", "side", "kind", "drm"), STATED_WHERE_THE_LINE_SAYS)
def test_a_group_drm_stated_where_the_line_says_is_422(
    table: str, side: str, kind: str, drm: str
) -> None:
    rng = random.Random(f"{table}{side}{kind}{drm}")
    c, seq = _game(rng, side, _line(side, table, kind))
    version, rolls = c.version, c.roll_count
    with pytest.raises(InvalidInput) as e:
        _roll(c, rng, side, seq, stated={table: drm})
    rule = ABTF.tables[table].rule
    assert e.value.detail.startswith(f"{rule}: the {drm!r} DRM is decided by the ledger")
    assert e.value.field == "drm.0.id"
    assert (c.version, c.roll_count) == (version, rolls)


def test_a_leader_drm_stated_for_the_batch_is_refused_before_the_strength_dr() -> None:
    """A German VG Pltn with Full/Depleted units and footnote "l": its 9.6181
    Strength DR and 9.6183 leader DR are one sealed batch. A stated "+2 VG"
    for the leader DR is refused before any die is drawn; unstated, the
    Strength DR gets "+1 German VG Pltn" and the leader DR "+2 VG", both the
    ledger's."""
    rng = random.Random(9_6183)
    line = {**_line(GERMAN, STRENGTH, "VG"), "footnotes": ["l"]}
    c, seq = _game(rng, GERMAN, line)
    version = c.version
    with pytest.raises(InvalidInput, match=r"^9\.6183: the 'vg' DRM is decided"):
        _roll(c, rng, GERMAN, seq, stated={LEADER[GERMAN]: "vg"})
    assert c.version == version
    strength, leader = _roll(c, rng, GERMAN, seq, nonce=_stream_nonce(c, GERMAN, [(2, 5), (2, 7)]))
    assert (strength["rule"], _drms(strength)["vg-pltn"]) == (STRENGTH, (1, "ledger"))
    assert (leader["rule"], _drms(leader)["vg"]) == (LEADER[GERMAN], (2, "ledger"))
    assert leader["final"] == 7 + 2
    assert _row(c, GERMAN, seq, 0)["leader"] == "8-0"  # German column, Final DR 9


# ------------------------------------------------------------------ null: the roller's


@pytest.mark.parametrize(("table", "side", "kind", "drm"), GIVES)
def test_where_the_line_does_not_say_the_roller_states_the_group_drm(
    table: str, side: str, kind: str, drm: str
) -> None:
    """``group_type`` null: no group-type DRM unless stated; stated, it is
    applied as the roller's (``by: roller``), as before the field existed."""
    del kind
    rng = random.Random(f"{table}{side}{drm}")
    c, seq = _game(rng, side, _line(side, table, None), _line(side, table, None, rg="I8"))
    (bare,) = _roll(c, rng, side, seq, item=0)
    assert not _typed(table) & set(_drms(bare))
    (roll,) = _roll(c, rng, side, seq, item=1, stated={table: drm})
    definition = ABTF.tables[table].drm(drm)
    assert definition is not None
    assert _drms(roll)[drm] == (definition.value, "roller")


# ------------------------------------------------------------------ 9.6182 EX


@pytest.mark.parametrize(
    ("kind", "original", "strength", "vg"),
    [("VG", 8, "F", True), ("VG", 9, "D", True), (None, 9, "F", False)],
)
def test_9_6182_ex_the_volksgrenadier_pltn(
    kind: str | None, original: int, strength: str, vg: bool
) -> None:
    """9.6182 EX: "The German player purchases 2 SS Rifle Pltns (one
    depleted) and a full strength Volksgrenadier Pltn ... The Volksgrenadier
    Pltn receives one LMG" (German I3, LMG 1(1)). Its 9.6181 Strength DR
    (Final ≤ 9 Full) gets "+1 German VG Pltn" from the ledger when its line
    says VG: an Original 8 is Full, 9 Depleted; a line that does not say gets
    no +1 (unstated), so 9 is Full. On 18 AM the Campaign Exhaustion DRM is 0."""
    rng = random.Random(f"{kind}{original}")
    rifle = {"id": "I1", "name": "SS Rifle Pltn", "cpp": 4, "units": [3, 2], "kg": "K"}
    volks = {"id": "I3", "name": "Volksgrenadier Pltn", "cpp": 3, "units": [3, 2], "kg": "K",
             "group_type": kind}  # fmt: skip
    c, seq = _game(rng, GERMAN, rifle, volks, buy=("I1(K)", "I1(K)", "I3(K)"))
    nonce = _stream_nonce(c, GERMAN, [(2, original)] + ([(1, 1)] if strength == "D" else []))
    rolls = _roll(c, rng, GERMAN, seq, item=2, nonce=nonce)
    assert rolls[0]["rule"] == STRENGTH
    assert rolls[0]["original"] == original
    assert ("vg-pltn" in _drms(rolls[0])) is vg
    row = _row(c, GERMAN, seq, 2)
    assert row["strength"] == strength
    if strength == "F":
        assert [sw["name"] for sw in row["sw"]] == ["LMG"]
    else:  # Depleted: a dr ≤ 1 for the LMG (rolled 1: received)
        assert [r["rule"] for r in rolls[1:]] == ["abtf:9.6182"]
        assert row["sw"] == [{"name": "LMG", "received": True}]


# ------------------------------------------------------------------ the definition


@pytest.mark.parametrize(
    ("side", "kind", "says"),
    [
        (BRITISH, "VG", "no British group type"),
        (BRITISH, "SS PG", "no British group type"),
        (GERMAN, "Commando", "no German group type"),
        (GERMAN, "Glider", "no German group type"),
        (GERMAN, "Para", "group_type"),  # not a type the rules name
    ],
)
def test_a_group_type_the_side_has_not_is_422(side: str, kind: str, says: str) -> None:
    doc = _doc(side, _line(side, ARMOR, kind))
    with pytest.raises(InvalidInput) as e:
        validated_definition(ABTF, doc)
    index = len(doc["rg_chart"][side]) - 1
    assert e.value.field == f"definition.rg_chart.{side}.{index}.group_type"
    assert says in e.value.detail


def test_the_sample_names_its_lines_group_types() -> None:
    lines = {
        (side, e["id"], e.get("kg"), e["name"]): e.get("group_type")
        for side, entries in ABTF.sample_definition["rg_chart"].items()
        for e in entries
    }
    named = {key: kind for key, kind in lines.items() if kind is not None}
    assert named == {
        (BRITISH, "I1", None, "Sample Para Pltn"): "Other",
        (GERMAN, "I1", "X", "Sample Rifle Pltn"): "Other",
        (GERMAN, "A2", "X", "Sample SPG Pltn"): "SPG",
        (GERMAN, "I3", "Y", "Sample VG Pltn"): "VG",
    }
    validated_definition(ABTF, copy.deepcopy(ABTF.sample_definition))


# ------------------------------------------------------------------ the data


def test_each_group_drm_is_a_drm_of_its_table_and_every_one_is_named() -> None:
    """``abtf.group_type`` names each DRM of the tables it serves: 9.6181's
    "German VG Pltn" and every 9.6183 group-type DRM (the "rg-type" group)."""
    for table, by_type in rg_types.DRMS.items():
        drms = ABTF.tables[table].drms
        for drm in by_type.values():
            assert any(d.id == drm for d in drms), (table, drm)
        typed = {d.id for d in drms if d.group == "rg-type"}
        assert typed <= set(by_type.values()), (table, typed)
    assert set(rg_types.DRMS) == {STRENGTH, *LEADER.values(), ARMOR}
    assert set(abtf_buying.RULES.tables) >= set(rg_types.DRMS)


@pytest.mark.parametrize("ruleset", ["kgp", "abtf"])
def test_each_drm_a_determination_roll_decides_is_the_ledger_s_in_the_docs(ruleset: str) -> None:
    """``drm_sources.DETERMINED`` names DRMs of its rule's tables that no
    ``CountedDrm`` and no ``STATED`` entry claims, each the ledger's; and a
    determination roll decides each for some line (``Need.decides``)."""
    rs = REGISTRY[ruleset]
    listed = {k: v for k, v in drm_sources.DETERMINED.items() if k.startswith(f"{ruleset}:")}
    assert listed
    decides: set[tuple[str, str]] = set()
    for table_id, drm in _decided_somewhere(ruleset):
        decides.add((drm_sources.rule_key(rs.tables[table_id]), drm))
    for key, drms in listed.items():
        for drm in drms:
            tables = [t for t in rs.tables.values() if drm_sources.rule_key(t) == key
                      and t.drm(drm) is not None]  # fmt: skip
            assert tables, (key, drm)
            assert drm not in drm_sources.STATED.get(key, {}), (key, drm)
            for t in tables:
                assert drm_sources.counted_of(rs, t.id, drm) is None
                assert drm_sources.decided(rs, t, drm)[0] == drm_sources.LEDGER
            assert (key, drm) in decides, (key, drm)


def _decided_somewhere(ruleset: str) -> set[tuple[str, str]]:
    """(table, DRM) a determination roll decides for some line: every ABtF
    group type on every line shape; KGP's V/G, Arm'd, Elite and Depleted RG."""
    out: set[tuple[str, str]] = set()
    rules = REGISTRY[ruleset].rules.purchases
    assert rules.needs is not None
    if ruleset == "abtf":
        # A 9.6181 line with footnote "l" too: its leader DR is decided as well.
        lines = [(side, _line(side, table, kind)) for table, side, kind, _ in GIVES]
        cases = [(side, {"footnotes": ["l"], **line}) for side, line in lines]
    else:
        cases = [
            ("German", {"id": "V1", "footnotes": ["a"]}),
            ("US", {"id": "I6", "footnotes": ["l"]}),
            ("German", {"id": "I2", "footnotes": ["l"], "elite": True}),
        ]
    for side, entry in cases:
        for strength in ("F", "D"):
            row = book.new_row(1, 0, "19 AM", str(entry["id"]), 1, "Sx")
            row["results"]["strength"] = {"value": strength, "band": 0, "result": "", "final": 0}
            row["results"]["quality"] = {"value": "", "band": 0, "result": "", "final": 0}
            for need in rules.needs(side, entry, row, {}):
                out |= {(need.table, drm) for drm in need.decides}
    return out
