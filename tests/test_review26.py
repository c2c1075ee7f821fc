"""Adversarial review of issue 26 (helper A): each test plays a seed's words
where the ledger answered wrong, and fails on the code it was written against.

Pure domain (``domain_game``, or the table component over given facts) but
for the service read of a table's DRMs."""

from __future__ import annotations

from typing import Any

import pytest
from domain_game import DomainGame
from drm_probe import Probe, probe_ctx

from cgledger.domain import tables as tb
from cgledger.domain.errors import InvalidInput
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import DateFacts, Facts
from cgledger.domain.table_json import definition
from cgledger.service import rulesets as ruleset_service

US, GERMAN, BRITISH = "US", "German", "British"
_ctx = probe_ctx


def _facts(cg_date: str, *dates: DateFacts, rules: dict[str, Any] | None = None) -> Facts:
    played = [*dates] if dates else [DateFacts(cg_date, None, {}, None)]
    return Facts(
        cg_date=cg_date,
        side="",
        rules=rules or {},
        lasting={},
        options=frozenset(),
        dates=tuple(played),
    )


def _applied(
    ruleset: str, facts: Facts, actor: str, table_id: str, drm: list[tb.DrmRequest]
) -> Any:
    table = REGISTRY[ruleset].table(table_id)
    assert table is not None
    requests = Probe(ruleset, facts).with_counted_drms(_ctx(actor), table, drm)
    return tb.prepare(table, requests, {}).applied


# ------------------------------------------------------------ side DRMs the roller states

#: A DRM the rule gives only some sides, which the roller states (the record
#: cannot tell whether it applies): (ruleset, table, DRM, its sides, another
#: side, the reading under which it is the sides' only).
ARMOR = ("armor-leader-drms", "german")
SIDE_ONLY = [
    # 9.6183 LEADER TABLE DRM: the German column lists "Med Tank", "Hvy Tank",
    # "SPG, Lt Tank", and "+2 VG, AC" (the ledger's reading: German types); the
    # British column only Commando, Engineer, Glider. The (Armor) column is
    # both sides', so the British could claim the German's "-2 Hvy Tank":
    # whose they are is a reading ('armor-leader-drms').
    ("abtf", "abtf:9.6183-armor", "med-tank", (GERMAN,), BRITISH, ARMOR),
    ("abtf", "abtf:9.6183-armor", "hvy-tank", (GERMAN,), BRITISH, ARMOR),
    ("abtf", "abtf:9.6183-armor", "spg", (GERMAN,), BRITISH, ARMOR),
    ("abtf", "abtf:9.6183-armor", "lt-tank", (GERMAN,), BRITISH, ARMOR),
    ("abtf", "abtf:9.6183-armor", "ac", (GERMAN,), BRITISH, ARMOR),
    # 8.6206: "+1 If the RG is Depleted (NA to U.S.)" on the Armor Leader column,
    # which both sides roll.
    ("kgp", "kgp:8.6206-armor", "depleted", (GERMAN,), US, None),
]
SIDE_IDS = [f"{t}/{d}" for _, t, d, _, _, _ in SIDE_ONLY]


def _game(ruleset: str, readings: dict[str, str] | None = None) -> DomainGame:
    sample = REGISTRY[ruleset].sample_definition
    doc = {**sample, "readings": dict(readings or {})}
    if ruleset == "abtf":
        return DomainGame("abtf", "CG I", start_date="17 N", definition=doc)
    return DomainGame("kgp", "CG I", definition=doc)


@pytest.mark.parametrize(
    ("ruleset", "table", "drm", "sides", "other", "reading"), SIDE_ONLY, ids=SIDE_IDS
)
def test_a_side_drm_the_roller_states_is_refused_from_another_side(
    ruleset: str,
    table: str,
    drm: str,
    sides: tuple[str, ...],
    other: str,
    reading: tuple[str, str] | None,
) -> None:
    """Issue 26 item 3: "A side DRM stated by the other side is 422", also
    where the roller states it because the record cannot tell whether it
    applies; the sides it belongs to state it as before. Where whose it is
    is a reading, it is so under that reading only."""
    game = _game(ruleset, dict([reading]) if reading else None)
    rule = REGISTRY[ruleset].tables[table].rule
    with pytest.raises(InvalidInput) as info:
        game.roll(other, table, drm=[tb.DrmRequest(drm)])
    assert info.value.rule == rule
    assert info.value.field == "drm"
    under = "" if reading is None else " (the reading '{}': {})".format(*reading)
    assert info.value.detail == (
        f"{rule}: {drm} is the {' or '.join(sides)} side's DRM, not the {other} side's{under}"
    )
    for side in sides:
        seq = game.c.version
        game.roll(side, table, drm=[tb.DrmRequest(drm)])
        assert game.c.version > seq
    if reading is not None:
        default = _game(ruleset)  # the ledger's reading: the (Armor) column's, either side's
        seq = default.c.version
        default.roll(other, table, drm=[tb.DrmRequest(drm)])
        assert default.c.version > seq


@pytest.mark.parametrize(
    ("ruleset", "table", "drm", "sides", "other", "reading"), SIDE_ONLY, ids=SIDE_IDS
)
def test_the_tables_read_names_the_sides_of_a_side_drm_the_roller_states(
    ruleset: str,
    table: str,
    drm: str,
    sides: tuple[str, ...],
    other: str,
    reading: tuple[str, str] | None,
) -> None:
    """GET /v1/rulesets/{r}/tables gives such a DRM its ``sides``, so the page
    does not offer the other side a DRM the ledger refuses from it; one that is
    the sides' only under a reading says so in its ``why``."""
    del other
    found = ruleset_service.get_table(ruleset, table)
    (entry,) = (d for d in found["drms"] if d["id"] == drm)
    assert f"only the {' or '.join(sides)} side states it" in entry["why"]
    if reading is None:
        assert entry["sides"] == list(sides)
    else:
        assert "sides" not in entry
        assert "under the reading '{}': {}".format(*reading) in entry["why"]


# ------------------------------------------------ 8.6142: Ammunition Shortage by Isolation

NO_SHORTAGE: dict[str, Any] = {"shortage": {"since": None}}
SHORTAGE = {"shortage": {"since": {"cg_date": "20 AM", "seq": 9}}}
REPAIR = "kgp:8.6142"
ISOLATED_SHORTAGE = "german-ammunition-shortage"


def test_8_6142_a_german_weapon_short_of_ammunition_by_isolation_takes_the_plus_1() -> None:
    """8.6142 "+1 If German and suffering from Ammunition Shortage" names no
    8.618 (8.61421 and 8.6146 do): a German Weapon also suffers Ammunition
    Shortage by Isolation (8.6241; 8.6141d "suffering from Ammunition
    Shortage; 8.6241"), which the ledger does not track. Without 8.618's
    shortage the German states the +1 for such a weapon; with it the ledger
    applies it to every German roll, and the U.S. never has it."""
    free = _facts("20 PM", rules=NO_SHORTAGE)
    assert _applied("kgp", free, GERMAN, REPAIR, []) == []
    stated = _applied("kgp", free, GERMAN, REPAIR, [tb.DrmRequest(ISOLATED_SHORTAGE)])
    assert [(d["id"], d["value"], d["by"]) for d in stated] == [(ISOLATED_SHORTAGE, 1, "roller")]
    short = _facts("20 PM", rules=SHORTAGE)
    applied = _applied("kgp", short, GERMAN, REPAIR, [])
    assert [(d["id"], d["value"], d["by"]) for d in applied] == [(ISOLATED_SHORTAGE, 1, "ledger")]
    with pytest.raises(InvalidInput):
        _applied("kgp", short, GERMAN, REPAIR, [tb.DrmRequest(ISOLATED_SHORTAGE)])
    with pytest.raises(InvalidInput):
        _applied("kgp", free, US, REPAIR, [tb.DrmRequest(ISOLATED_SHORTAGE)])


@pytest.mark.parametrize("table", ["kgp:8.61421", "kgp:8.6146"])
def test_8_618_shortage_named_by_its_rule_stays_the_ledgers(table: str) -> None:
    """8.61421 and 8.6146 say "Ammunition Shortage (8.618)": without it the
    DRM does not apply, and a stated one is refused."""
    free = _facts("20 PM", rules=NO_SHORTAGE)
    with pytest.raises(InvalidInput):
        _applied("kgp", free, GERMAN, table, [tb.DrmRequest("ammunition-shortage")])


# ------------------------------------------------------------ 9.6202 before any CG Scenario

CVP = "cvp"


@pytest.mark.parametrize("count", [30, 90])
def test_9_6202_has_no_cvp_before_a_cg_scenario(count: int) -> None:
    """9.6202 "-1 Per 30 CVP (FRD) of enemy units Eliminated during the last
    CG Scenario (including CVP awarded thus far during this RePh)": in the
    RePh before the Initial Scenario (9.620 is a '†' step) no CG Scenario was
    played and no RePh followed one, so the count is 0, which the ledger
    knows; a roller's 90 CVP (-3 on the ELR Loss/Gain DR) is refused."""
    game = DomainGame("abtf", "CG I", start_date="17 N")
    with pytest.raises(InvalidInput) as info:
        game.roll(BRITISH, "abtf:9.6202", drm=[tb.DrmRequest(CVP, count=count)])
    assert info.value.rule == "9.6202"
    out = game.roll(BRITISH, "abtf:9.6202")
    (entry,) = (d for d in out["drm"] if d["id"] == CVP)
    assert (entry["count"], entry["value"], entry["by"]) == (0, 0, "ledger")


def test_9_6202_cvp_after_a_scenario_is_still_at_least_the_ledgers() -> None:
    """After a CG-Scenario End the RePh may award more CVP than the ledger
    records: the roller's larger count stands, a smaller one is refused."""
    ended = _facts("18 AM", DateFacts("17 N", "initial", {}, {BRITISH: 31, GERMAN: 0}),
                   DateFacts("18 AM", None, {}, None))  # fmt: skip
    more = _applied("abtf", ended, BRITISH, "abtf:9.6202", [tb.DrmRequest(CVP, count=61)])
    assert [(d["count"], d["by"]) for d in more if d["id"] == CVP] == [(61, "roller")]
    with pytest.raises(InvalidInput):
        _applied("abtf", ended, BRITISH, "abtf:9.6202", [tb.DrmRequest(CVP, count=0)])


# ------------------------------------------------------------ 8.622: who decided each Recon DRM


def test_8_622_recon_drms_say_who_decided_them() -> None:
    """Issue 26 item 3: "The table's answer lists each DRM with who decided
    it". POST /recon's "+5 Spent 2 CPP" follows from the CPP it spends (the
    ledger's, docs/rulesets.md); its "-1 ... Lax" is the roller's statement."""
    game = DomainGame("kgp", "CG I", initial_cpp={US: 10, GERMAN: 10})
    game.next_date()
    game.advance(US, "8.622")
    seq = game.perform(US, "recon", {"cpp": 2, "lax": True, "secret": False})
    drm = game.c.record(seq)["payload"]["drm"]
    assert {d["id"]: d["by"] for d in drm} == {"spent-2-cpp": "ledger", "lax": "roller"}


# ------------------------------------------------------------ a count only the ledger gives


def test_a_ledger_count_beyond_a_players_typo_bound_is_rolled_and_audits() -> None:
    """CG-Scenario End takes CVP up to 100,000; the ledger's 8.6113 count of
    1,000 CVP ("-1 Per 25 Casualty VP amassed ...") was refused as "a count is
    0 to 999" naming drm[0], which the player never sent and may not state:
    the Secret DR could not be made. The bound is for a player's typo; the
    roll records the ledger's count, and its audit re-reads it."""
    game = DomainGame("kgp", "CG I")
    game.ready()
    game.c.end_scenario(game.ctx("referee"), {"cvp": {US: 1000, GERMAN: 0}})
    seq = game.c.roll_table(
        game.ctx(US), "kgp:8.6113", drm=[], inputs={}, secret=False, client_nonce=None
    )
    values = game.c.record(seq)["payload"]
    (entry,) = (d for d in values["drm"] if d["id"] == "casualty-vp")
    assert (entry["count"], entry["value"], entry["by"]) == (1000, -40, "ledger")
    table = REGISTRY["kgp"].tables["kgp:8.6113"]
    _, differs = tb.audit(definition(table), values["roll"]["dice"], values)
    assert differs == []
    with pytest.raises(InvalidInput):
        game.roll(GERMAN, "kgp:8.6113", drm=[tb.DrmRequest("casualty-vp", count=1000)])


# ------------------------------------------------------------ 8.6194a: which RG, a reading too


@pytest.mark.parametrize(
    ("choice", "allowed"), [(None, False), ("i-v-g-hw", False), ("every-rg", True)]
)
def test_8_6194a_which_rg_may_set_up_on_map_is_a_reading(choice: str | None, allowed: bool) -> None:
    """8.6194a is cut after "each U.S./": which RG it is for is as cut as its
    amount (the reading 'standard-on-map-cost'). The ledger's reading (RG
    whose ID begins with I, V, G or HW) refused any other RG (422); a group
    whose book names more records its purchase under 'every-rg'."""
    from cgledger.domain.rulesets.kgp.definition import SAMPLE

    doc = {**SAMPLE, "readings": {} if choice is None else {"standard-on-map-rgs": choice}}
    game = DomainGame("kgp", "CG I", definition=doc, initial_cpp={US: 60, GERMAN: 60})
    body = {"rgs": [{"rg": "O1", "map_group": "Sx", "modifiers": ["standard-on-map"], "cpp": 10}]}
    if not allowed:
        with pytest.raises(InvalidInput) as info:
            game.perform(US, "rg-purchases", {**body, "secret": False})
        assert info.value.rule == "8.6194a"
        return
    seq = game.perform(US, "rg-purchases", {**body, "secret": False})
    (bought,) = game.c.record(seq)["payload"]["rgs"]
    assert (bought["rg"], bought["cpp"]) == ("O1", 10)  # 7 + 50% (FRD)


# ------------------------------------------------------------ CG14: immediately upon setup


def test_cg14_fanaticism_is_not_declared_once_the_scenario_is_in_play() -> None:
    """CG14: "This must be declared immediately upon the conclusion of all
    on-map setup." After 8.624 (each side at 8.625) it is; once both sides
    have passed 8.625 the CG scenario is in play, and a declaration then (on
    its fifth turn, say) is refused; the referee may still rule one. An
    Initial Scenario has no 8.624 (its setup is the scenario's): there the
    declaration is made while it is in play."""
    from cgledger.domain.errors import RuleViolation
    from cgledger.domain.rulesets.base import SCENARIO

    game = DomainGame("kgp", "CG I", initial_cpp={GERMAN: 2})
    game.ready()
    game.perform(GERMAN, "fanaticism", {})  # the Initial Scenario's
    game.c.end_scenario(game.ctx("referee"), {"cvp": {US: 0, GERMAN: 0}})
    game.c.begin_cg_date(game.ctx("referee"), None)  # 19 PM
    assert game.choose("attack") == "dual-attack"
    for side in (US, GERMAN):
        game.advance(side, SCENARIO)
    with pytest.raises(RuleViolation) as refused:
        game.perform(GERMAN, "fanaticism", {})
    assert refused.value.rule == "CG14"
    assert "in play" in refused.value.detail
    assert len(game.c.rules["fanaticism"]) == 1
    game.perform("referee", "fanaticism", {"side": GERMAN})  # a ruling
    assert len(game.c.rules["fanaticism"]) == 2
