"""``cgledger verify`` recomputes the DRMs the ledger decides (issue 26 item 3;
``cgledger.verify_counted``).

Each table roll records what the ledger decided of each DRM of its table it
counts (``counted``). An honest export verifies: KGP 8.610 rolls of both
sides and the referee, an 8.606 roll on the Night date "19 N" (public, and a
secret one, sealed then revealed), ABtF 9.6202 on 21 PM under each choice of
the reading "exhaustion-21-pm". A forger who edits a roll and reseals the
export (``forge.reseal``: every digest, hash, link and the header recomputed,
the Final and outcome re-read from the edited DRMs, so the table re-read alone
passes) is refused at the roll's seq: the ledger's DRM removed, ``counted``
changed with it or alone, a ``"by": "ledger"`` DRM the ledger did not count,
another side's DRM claimed, ``counted`` dropped from one roll. A roll recorded
before ``counted`` existed (every roll without it) verifies as before.

The campaigns are played in-process (``domain_game``), once per module."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from domain_game import DomainGame
from forge import parse, reseal

from cgledger import verify_counted
from cgledger.domain import tables as tb
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.base import DateFacts, Facts
from cgledger.domain.rulesets.readings import in_force
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.verify import Report, VerificationError, verify_bytes

US, GERMAN, BRITISH = "US", "German", "British"
Event = dict[str, Any]


def _export(game: DomainGame, viewer: str = REFEREE) -> bytes:
    c = game.c
    header = {
        "campaign": c.cid,
        "ruleset": c.ruleset_id,
        "campaign_name": c.campaign_name,
        "exported_at": "2026-11-27T00:00:00Z",
    }
    return export_jsonl(header, c.history.records(0, c.version), viewer, c.is_revealed)


def _roll(game: DomainGame, side: str, table: str) -> int:
    """A public roll; its seq (the command's last event)."""
    game.roll(side, table)
    return int(game.c.version)


def _kgp(viewer: str = REFEREE) -> tuple[bytes, dict[str, int]]:
    exports, rolls = _kgp_played()
    return exports[viewer], rolls


@cache
def _kgp_played() -> tuple[dict[str, bytes], dict[str, int]]:
    """KGP CG I played to the RePh of 19 N: the German's 8.606 (Night) in
    public and in secret (then revealed), 8.610 by the German, the U.S. and
    the referee. Returns each viewer's export and the seq of each roll."""
    game = DomainGame("kgp", "CG I")
    game.next_date()
    game.next_date()
    assert game.cg_date == "19 N"
    game.choose("attack")
    game.end_scenario()
    rolls: dict[str, int] = {}
    game.advance(GERMAN, "8.606")
    rolls["night"] = _roll(game, GERMAN, "kgp:8.606-infantry")
    secret = game.c.roll_table(
        game.ctx(GERMAN), "kgp:8.606-vehicle", drm=[], inputs={}, secret=True, client_nonce=None
    )
    game.c.reveal(game.ctx(GERMAN), secret)
    rolls["secret"] = secret
    game.advance(GERMAN, "8.610")
    rolls["german"] = _roll(game, GERMAN, "kgp:8.610")
    game.advance(US, "8.610")
    rolls["us"] = _roll(game, US, "kgp:8.610")
    rolls["referee"] = _roll(game, REFEREE, "kgp:8.610")
    rolls["later"] = _roll(game, GERMAN, "kgp:8.610")
    return {viewer: _export(game, viewer) for viewer in (REFEREE, US, GERMAN)}, rolls


@cache
def _abtf(reading: str) -> tuple[bytes, dict[str, int]]:
    """ABtF CG I from 21 AM (its Initial Scenario) to 21 PM, where each side
    makes 9.6202 under the reading "exhaustion-21-pm" ``reading``."""
    doc = copy.deepcopy(dict(REGISTRY["abtf"].sample_definition))
    doc.update(attack_chits={}, idle_chits={}, readings={"exhaustion-21-pm": reading})
    game = DomainGame("abtf", "CG I", start_date="21 AM", definition=doc)
    game.next_date()
    assert game.cg_date == "21 PM"
    rolls = {}
    for side in (BRITISH, GERMAN):
        game.advance(side, "9.620")
        rolls[side] = _roll(game, side, "abtf:9.6202")
    return _export(game), rolls


def _values(e: Event) -> dict[str, Any]:
    """Where a roll's values are: its payload, or its sealed part."""
    return e["secret"] if e["type"] == "RecordSealed" else e["payload"]


def _dice(e: Event) -> list[int]:
    if e["type"] == "RecordSealed":
        return list(e["secret"]["rolls"][0]["dice"])
    return list(e["payload"]["roll"]["dice"])


def _reread(e: Event, drm: list[dict[str, Any]]) -> None:
    """Give roll ``e`` the DRMs ``drm`` and the Original, Final and outcome the
    table reads from them (in a sealed part, its roll's too), as a forger would."""
    values = _values(e)
    ruleset = REGISTRY["kgp" if values["rule"].startswith("kgp:") else "abtf"]
    table = ruleset.table(values["rule"])
    assert table is not None
    result = tb.resolve(table, _dice(e), tb.requests_from(table, drm), values["inputs"])
    for entry, was in zip(result["drm"], drm, strict=True):
        if "by" in was:
            entry["by"] = was["by"]
    fields = {k: result[k] for k in ("original", "drm", "final", "outcome")}
    values.update(copy.deepcopy(fields))
    if e["type"] == "RecordSealed":
        e["secret"]["rolls"][0].update(copy.deepcopy(fields))
    # The table re-read alone finds nothing wrong with the forgery.
    assert tb.audit(tb.definition(table), _dice(e), values)[1] == []


def _forged(data: bytes, edit: Callable[[list[Event]], None]) -> bytes:
    header, events = parse(data)
    edit(events)
    by_seq = {e["seq"]: e for e in events}
    for e in events:  # a revealed record's reveal publishes its sealed part
        if e["type"] == "SecretRevealed" and e["payload"].get("sealed") is not None:
            e["payload"]["sealed"] = copy.deepcopy(by_seq[e["payload"]["of_seq"]]["secret"])
    return reseal(header, events)


def _refused(data: bytes, seq: int, *words: str) -> str:
    with pytest.raises(VerificationError) as caught:
        verify_bytes(data)
    assert caught.value.seq == seq, str(caught.value)
    for word in words:
        assert word in str(caught.value), str(caught.value)
    return str(caught.value)


# ------------------------------------------------------------------ honest


def test_an_honest_kgp_export_verifies_and_checks_each_roll() -> None:
    data, rolls = _kgp()
    report = verify_bytes(data)
    assert isinstance(report, Report)
    assert report.counted_checked == len(rolls)
    _, events = parse(data)
    by_seq = {e["seq"]: e for e in events}
    assert _values(by_seq[rolls["night"]])["counted"] == {"night": 1}
    assert _values(by_seq[rolls["secret"]])["counted"] == {"night": 1}
    assert by_seq[rolls["secret"]]["type"] == "RecordSealed"
    assert "counted" not in by_seq[rolls["secret"]]["payload"]  # the public shape is unchanged
    assert _values(by_seq[rolls["german"]])["counted"] == {"german": 1}
    assert _values(by_seq[rolls["us"]])["counted"] == {"german": 0}
    assert _values(by_seq[rolls["referee"]])["counted"] == {}  # the ruling names a side's DRM


@pytest.mark.parametrize("viewer", [US, GERMAN])
def test_each_sides_export_verifies(viewer: str) -> None:
    """A side sees the public rolls and the revealed secret one: all checked."""
    data, rolls = _kgp(viewer)
    assert verify_bytes(data).counted_checked == len(rolls)


@pytest.mark.parametrize(("reading", "x"), [("chart", 3), ("ex", 4)])
def test_9_6202_verifies_under_each_exhaustion_reading(reading: str, x: int) -> None:
    data, rolls = _abtf(reading)
    _, events = parse(data)
    # Each table roll is checked: the two 9.6202 and those the steps required on the way.
    table_rolls = [e for e in events if e["type"] == "TableRolled"]
    assert verify_bytes(data).counted_checked == len(table_rolls) > 2
    by_seq = {e["seq"]: e for e in events}
    british, german = by_seq[rolls[BRITISH]]["payload"], by_seq[rolls[GERMAN]]["payload"]
    assert british["counted"]["exhaustion-british"] == x
    assert british["counted"]["exhaustion-german"] == 0
    assert german["counted"]["exhaustion-german"] == x
    assert german["counted"]["exhaustion-british"] == 0


@cache
def _abtf_amended() -> tuple[bytes, dict[str, int]]:
    """ABtF on 21 PM: the British makes 9.6202 under the chart's +3, then the
    sides amend "exhaustion-21-pm" to the EX's +4 and the German makes it."""
    doc = copy.deepcopy(dict(REGISTRY["abtf"].sample_definition))
    doc.update(attack_chits={}, idle_chits={})
    game = DomainGame("abtf", "CG I", start_date="21 AM", definition=doc)
    game.next_date()
    rolls = {}
    game.advance(BRITISH, "9.620")
    rolls[BRITISH] = _roll(game, BRITISH, "abtf:9.6202")
    patch = {"readings": {"exhaustion-21-pm": "ex"}}
    asked = game.c.request_amendment(game.ctx(BRITISH), patch=patch, reason="the EX")
    game.c.approve_amendment(game.ctx(GERMAN), asked)
    game.advance(GERMAN, "9.620")
    rolls[GERMAN] = _roll(game, GERMAN, "abtf:9.6202")
    return _export(game), rolls


def test_verify_reads_the_readings_in_force_at_each_roll() -> None:
    """The readings as of each event (``verify_readings``): the British roll
    counts the chart's +3, the German one, after the amendment, the EX's +4;
    either one forged to the other reading is refused."""
    data, rolls = _abtf_amended()
    verify_bytes(data)
    _, events = parse(data)
    by_seq = {e["seq"]: e for e in events}
    assert by_seq[rolls[BRITISH]]["payload"]["counted"]["exhaustion-british"] == 3
    assert by_seq[rolls[GERMAN]]["payload"]["counted"]["exhaustion-german"] == 4
    for side, other in ((BRITISH, 4), (GERMAN, 3)):
        forged = _forged(data, _edit(rolls[side], _exhaustion(side, other)))
        _refused(forged, rolls[side], f"9.6202: exhaustion-{side.lower()} on 21 PM")


def _exhaustion(side: str, x: int) -> Callable[[Event], None]:
    """The side's Campaign Exhaustion DRM and its counted given x, the Final re-read."""
    drm_id = f"exhaustion-{side.lower()}"

    def change(e: Event) -> None:
        values = _values(e)
        drm = copy.deepcopy(values["drm"])
        for d in drm:
            if d["id"] == drm_id:
                d["x"] = x
        _reread(e, drm)
        values["counted"][drm_id] = x

    return change


# ------------------------------------------------------------------ forged


def _edit(seq: int, change: Callable[[Event], None]) -> Callable[[list[Event]], None]:
    def edit(events: list[Event]) -> None:
        (e,) = [e for e in events if e["seq"] == seq]
        change(e)

    return edit


def _without(drm_id: str, *, counted: int | None = None) -> Callable[[Event], None]:
    """The ledger's ``drm_id`` removed from the roll (Final and outcome re-read);
    with ``counted``, the roll's ``counted`` made to agree."""

    def change(e: Event) -> None:
        values = _values(e)
        _reread(e, [d for d in values["drm"] if d["id"] != drm_id])
        if counted is not None:
            values["counted"][drm_id] = counted

    return change


@pytest.mark.parametrize(
    ("roll", "drm_id", "rule"),
    [("german", "german", "8.610"), ("night", "night", "8.606"), ("secret", "night", "8.606")],
)
def test_the_ledgers_drm_removed_is_refused(roll: str, drm_id: str, rule: str) -> None:
    """The review's forgery: the German's "-1 If German" (or Night's -1 on
    19 N) taken off, the Final and outcome re-read and the export resealed."""
    data, rolls = _kgp()
    seq = rolls[roll]
    forged = _forged(data, _edit(seq, _without(drm_id)))
    _refused(forged, seq, f"{rule}: the ledger counted {drm_id} 1", "does not list it")
    # With counted changed to agree, the CG Date and the side still give it.
    forged = _forged(data, _edit(seq, _without(drm_id, counted=0)))
    _refused(forged, seq, f"{rule}: {drm_id} on 19 N for a German roll is 1", "records 0")


@pytest.mark.parametrize("reading", ["chart", "ex"])
def test_9_6202_exhaustion_under_the_other_reading_is_refused(reading: str) -> None:
    """9.6202's Campaign Exhaustion on 21 PM as the reading not in force
    (the chart's +3 against the EX's +4), counted and DRM agreeing."""
    data, rolls = _abtf(reading)
    other = 4 if reading == "chart" else 3
    seq = rolls[BRITISH]
    forged = _forged(data, _edit(seq, _exhaustion(BRITISH, other)))
    _refused(forged, seq, "9.6202: exhaustion-british on 21 PM for a British roll is")


def test_the_8_618_dr_records_and_checks_its_count() -> None:
    """8.618's DR (``POST /ammunition-shortage``) counts "per CG scenario
    completed after 20 AM" from the scenario ends, which verify does not
    replay: its count is held against the roll's DRM, not recomputed."""
    game = DomainGame("kgp", "CG I", initial_cpp={GERMAN: 2})
    for _ in range(4):
        game.next_date()
    assert game.cg_date == "20 PM"
    game.advance(GERMAN, "8.618")
    seq = game.perform(GERMAN, "ammunition-shortage")
    assert game.c.record(seq)["type"] == "AmmunitionShortageRolled"
    counted = game.c.record(seq)["payload"]["counted"]
    assert counted == {"scenarios-after-20-am": 1}  # 20 AM's, by the default reading
    data = _export(game)
    assert verify_bytes(data).counted_checked >= 1

    def change(e: Event) -> None:
        drm = copy.deepcopy(e["payload"]["drm"])
        drm[0]["count"] = 0
        _reread(e, drm)

    forged = _forged(data, _edit(seq, change))
    _refused(forged, seq, "8.618: scenarios-after-20-am is the ledger's, count 1")


def test_counted_changed_alone_is_refused() -> None:
    data, rolls = _kgp()
    seq = rolls["german"]

    def change(e: Event) -> None:
        e["payload"]["counted"] = {"german": 0}

    _refused(_forged(data, _edit(seq, change)), seq, "8.610: german", "records 0")


def _added(drm: dict[str, Any]) -> Callable[[Event], None]:
    def change(e: Event) -> None:
        _reread(e, [*_values(e)["drm"], drm])

    return change


def test_a_ledger_drm_the_ledger_did_not_count_is_refused() -> None:
    """A "by": "ledger" DRM the ledger does not count on the table (8.610's
    "If Heroic" is the roller's word)."""
    data, rolls = _kgp()
    seq = rolls["us"]
    forged = _forged(data, _edit(seq, _added({"id": "heroic", "by": "ledger"})))
    _refused(forged, seq, "kgp:8.610: heroic is recorded as the ledger's")


def test_the_other_sides_drm_claimed_is_refused() -> None:
    """The review: the U.S. claims the German's -1 on 8.610, as the ledger's
    or as its own."""
    data, rolls = _kgp()
    seq = rolls["us"]
    for by in ("ledger", "roller"):
        forged = _forged(data, _edit(seq, _added({"id": "german", "by": by})))
        _refused(forged, seq, "8.610: german does not apply to this US roll")


def test_a_ledger_drm_made_the_rollers_is_refused() -> None:
    data, rolls = _kgp()
    seq = rolls["german"]

    def change(e: Event) -> None:
        e["payload"]["drm"][0]["by"] = "roller"

    _refused(_forged(data, _edit(seq, change)), seq, "8.610: german is the ledger's")


def test_counted_naming_a_drm_the_ledger_does_not_count_is_refused() -> None:
    data, rolls = _kgp()
    seq = rolls["us"]

    def change(e: Event) -> None:
        e["payload"]["counted"]["heroic"] = 0

    _refused(_forged(data, _edit(seq, change)), seq, "counted names 'heroic'")


def test_counted_dropped_from_one_roll_is_refused() -> None:
    """Once a roll records its counted DRMs, every later one does."""
    data, rolls = _kgp()
    seq = rolls["later"]

    def change(e: Event) -> None:
        del e["payload"]["counted"]
        _reread(e, [d for d in e["payload"]["drm"] if d["id"] != "german"])

    _refused(_forged(data, _edit(seq, change)), seq, "records no counted DRMs", "removed?")


def test_rolls_recorded_before_counted_verify() -> None:
    """A log of a release before ``counted`` (and ``by``): read as before, the
    DRMs as the roller stated them."""
    data, _ = _kgp()

    def strip(events: list[Event]) -> None:
        for e in events:
            if e["type"] not in ("TableRolled", "RecordSealed") or "roll" not in e["payload"]:
                continue
            values = _values(e)
            values.pop("counted", None)
            for d in values.get("drm", ()):
                d.pop("by", None)
            for r in values.get("rolls", ()):
                for d in r.get("drm", ()):
                    d.pop("by", None)

    report = verify_bytes(_forged(data, strip))
    assert report.counted_checked == 0
    assert report.rule_results_checked >= 5


# ------------------------------------------------------------------ the marks


def _junk_facts(cg_date: str, side: str, readings: dict[str, str]) -> Facts:
    """Facts with a record behind the date that a dated DRM must not read."""
    chits = {US: "attack", GERMAN: "attack", BRITISH: "attack"}
    cvp = {US: 75, GERMAN: 75, BRITISH: 75}
    played = [DateFacts(d, "dual-attack", chits, cvp, GERMAN) for d in ("19 AM", "19 PM")]
    dates = (*played, DateFacts(cg_date, "idle", {}, None))
    last = {"value": 3, "known": True, "cg_date": "19 PM", "seq": 9, "rule": "x", "before": None}
    keys = ("san", "weather", "ec", "ammunition_shortage_level")
    lasting = {k: {side: last, "*": last} for k in keys}
    return Facts(
        cg_date=cg_date,
        side=side,
        rules={"shortage": {"since": {"cg_date": "19 PM", "seq": 9}}},
        lasting=lasting,
        options=frozenset({"8.6171"}),
        dates=dates,
        readings=readings,
    )


@pytest.mark.parametrize("ruleset", ["kgp", "abtf"])
def test_a_dated_drm_reads_the_date_the_side_and_the_readings_alone(ruleset: str) -> None:
    """What ``cgledger verify`` recomputes (``CountedDrm.dated``) counts the
    same from the CG Date, the side and the readings as from a whole record."""
    rs = REGISTRY[ruleset]
    dated = [c for c in rs.counted_drms if c.dated]
    assert dated
    chosen = [{}, *({r.id: choice} for r in rs.readings for choice in r.choices)]
    for chosen_readings in chosen:
        readings = in_force(rs.readings, chosen_readings)
        for cg_date in rs.campaigns["CG I"].calendar:
            for side in (*rs.sides, REFEREE):
                full = _junk_facts(cg_date, side, readings)
                bare = replace(full, rules={}, lasting={}, options=frozenset(), dates=())
                for c in dated:
                    for referee in (False, True):
                        assert c.decided(full, referee=referee) == c.decided(
                            bare, referee=referee
                        ), (c.table, c.drm, cg_date, side)


def _dated_cases() -> list[tuple[str, str, str, str]]:
    """Each table with a dated DRM, on each CG Date of its CG I, for each side
    and the referee."""
    out = []
    for ruleset in ("kgp", "abtf"):
        rs = REGISTRY[ruleset]
        tables = sorted({c.table for c in rs.counted_drms if c.dated})
        for table in tables:
            for cg_date in rs.campaigns["CG I"].calendar:
                out += [(ruleset, table, cg_date, side) for side in (*rs.sides, REFEREE)]
    return out


@pytest.mark.parametrize(("ruleset", "table_id", "cg_date", "side"), _dated_cases())
def test_each_dated_drm_is_recomputed(ruleset: str, table_id: str, cg_date: str, side: str) -> None:
    """Every DRM ``cgledger verify`` recomputes (8.606/CG23 Night, the side
    DRMs, 8.6201/KGP13's days after a date, KGP3's PM, 8.6171's date DRMs,
    ABtF's Campaign Exhaustion, 9.6216's Night), on every date for every
    roller: the roll the ledger makes verifies (``verify_counted.check``), and
    its ``counted`` changed for one dated DRM, or left out, is refused naming
    the rule."""
    from test_ledger_drms import Probe, _ctx

    rs = REGISTRY[ruleset]
    table = rs.table(table_id)
    assert table is not None
    for chosen in [{}, *({r.id: choice} for r in rs.readings for choice in r.choices)]:
        readings = in_force(rs.readings, chosen)
        facts = Facts(cg_date, side, {}, {}, frozenset(), (), readings)
        probe = Probe(ruleset, facts)
        requests = probe.with_counted_drms(_ctx(side), table, [])
        counted = probe.ledger_counts(_ctx(side), table)
        inputs = {i.id: i.choices[0] if i.choices else i.lo for i in table.inputs}
        applied = tb.prepare(table, requests, inputs).applied
        values = {"rule": table_id, "side": side, "cg_date": cg_date, "drm": applied}
        created = {"ruleset": ruleset, "readings": chosen}
        report = Report()
        verify_counted.check(created, "TableRolled", {**values, "counted": counted}, 7, report)
        assert report.counted_checked == 1
        for c in rs.counted(table_id):
            if not c.dated or c.drm not in counted:
                continue
            for forged in (
                {**counted, c.drm: counted[c.drm] + 1},
                {k: v for k, v in counted.items() if k != c.drm},
            ):
                with pytest.raises(VerificationError, match=rf"^seq 7: {re.escape(c.rule)}: "):
                    verify_counted.check(
                        created, "TableRolled", {**values, "counted": forged}, 7, Report()
                    )


# ------------------------------------------------------------------ the docs

DOC = Path(__file__).resolve().parent.parent / "docs" / "rulesets.md"


@pytest.mark.parametrize("ruleset", ["kgp", "abtf"])
def test_the_docs_name_what_verify_cannot_recompute(ruleset: str) -> None:
    """docs/rulesets.md names each counted DRM ``cgledger verify`` does not
    recompute (``table`` ``drm``), and none it does."""
    text = DOC.read_text("utf-8")
    start = text.index("<!-- verify-cannot:start -->")
    part = text[start : text.index("<!-- verify-cannot:end -->")]
    named = set(re.findall(r"`([a-z]+:[\w.-]+) ([\w-]+)`", part))
    rs = REGISTRY[ruleset]
    wanted = {(c.table, c.drm) for c in rs.counted_drms if not c.dated}
    ours = {n for n in named if n[0].startswith(f"{ruleset}:")}
    assert ours == wanted
