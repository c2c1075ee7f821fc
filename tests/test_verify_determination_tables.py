"""``cgledger verify`` checks which table each determination roll was read on
(issue 26 review; ``cgledger.verify_determinations``): the table the RG's
chart line and the readings in force at that event give its column.

* KGP 8.6206: "LEADER TABLES: Final DR | Personnel Leader | Personnel Leader
  | Armor Leader"; which column is the U.S. one is the reading
  ``leader-columns`` (``us-first``: ``kgp:8.6206-us``/``-german``;
  ``german-first``: ``kgp:8.6206-us-column-2``/``-german-column-1``).
* KGP 8.6203: "make a DR on the appropriate table below" for a Med Tank Pltn
  (V3 or V4): the chart line's ``determination_table``, else V3 on table I
  and V4 on table II.
* ABtF 9.6182: "a secret dr ≤ the number listed in parentheses", on
  ``abtf:9.6182`` (the ledger's columns) or, for a line that places its
  entries (``sw_columns``), on ``abtf:9.6182-placed`` with that number.

Each campaign is played through the domain's commands, its dice steered by
the client nonce (``test_purchases_ex``), and exported with the server's own
export writer. A forger moves one roll to another table, re-reads it there so
every other check holds, and reseals the export (``forge``): it fails at that
roll's seq, naming the table its RG must use."""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable
from typing import Any

import pytest
from forge import parse, reseal
from test_purchases_ex import _buy, _campaign, _ctx, _definition, _determine
from test_readings_cpp import _export

from cgledger.domain import tables as tablebook
from cgledger.domain.campaign import Campaign
from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.cpp import RGItem, RGPurchaseCreate
from cgledger.domain.visibility import REFEREE
from cgledger.verify import Report, VerificationError, verify_bytes

KGP, ABTF = REGISTRY["kgp"], REGISTRY["abtf"]

#: 8.6206's personnel column of each side under each choice of ``leader-columns``.
LEADER = {
    "us-first": {"US": "kgp:8.6206-us", "German": "kgp:8.6206-german"},
    "german-first": {"US": "kgp:8.6206-us-column-2", "German": "kgp:8.6206-german-column-1"},
}
OTHER = {"us-first": "german-first", "german-first": "us-first"}
MED_TANK = {"V3": "kgp:8.6203-I", "V4": "kgp:8.6203-II"}
SWAP = {"kgp:8.6203-I": "kgp:8.6203-II", "kgp:8.6203-II": "kgp:8.6203-I"}

#: An RG of each side with a personnel leader DR (footnote "l"); no DRM
#: applies to its leader DR when its 8.6202 quality is not Elite and its
#: 8.6201 Strength is Full.
US_LINES = [{"id": "I1", "name": "Inf Pltn", "cpp": 5, "footnotes": ["l"]}]
GERMAN_LINES = [{"id": "I2", "name": "SS Inf Pltn", "cpp": 4, "footnotes": ["l"]}]


# ---------------------------------------------------------------- what a forger does


def _forged(data: bytes, seq: int, edit: Callable[[dict[str, Any]], None]) -> bytes:
    header, events = parse(data)
    edit(events[seq - 1])
    return reseal(header, events)


def _reread(roll: dict[str, Any], table_id: str, ruleset: Any = KGP) -> None:
    """Move a recorded determination roll to ``table_id``: its table, rule,
    purpose, Original/DRMs/Final/outcome and what it wrote, all as that
    table reads its dice, so the re-read and the written result hold."""
    table = ruleset.tables[table_id]
    old = roll["table"]["id"]
    result, _ = tablebook.audit(tablebook.definition(table), _dice(roll), roll)
    roll.update(result)
    roll.update(
        table=tablebook.table_ref(table),
        rule=table.id,
        band=result["outcome"]["band"],
        result=result["outcome"]["text"],
    )
    # What the column writes: its band's own value (F/D, received/forfeit) or the result.
    fixed = ruleset.rules.purchases.written_by(roll["need"])
    roll["value"] = result["outcome"]["text"] if fixed is None else fixed[roll["band"]]
    if "purpose" in roll and roll["purpose"].startswith(old):
        roll["purpose"] = table.id + roll["purpose"][len(old) :]


def _dice(roll: dict[str, Any]) -> list[int]:
    return list(roll["dice"] if "dice" in roll else roll["roll"]["dice"])


def _sealed_roll(
    data: bytes, side: str, need: str, ruleset: Any = KGP
) -> tuple[int, Callable[[Callable[[dict[str, Any]], None]], bytes]]:
    """The seq of ``side``'s sealed record holding its ``need`` roll, and a
    forger of that roll: it edits the roll, carries the definition of the
    table it now names and reseals."""
    _, events = parse(data)
    for e in events:
        part = e["secret"] if e["type"] == "RecordSealed" else None
        if part is None or e["payload"]["side"] != side or part.get("kind") != "RGDetermined":
            continue
        for k, roll in enumerate(part["rolls"]):
            if roll.get("need") != need:
                continue

            def forge(edit: Callable[[dict[str, Any]], None], seq: int = e["seq"], k: int = k):
                def change(event: dict[str, Any]) -> None:
                    moved = event["secret"]["rolls"][k]
                    edit(moved)
                    table = ruleset.tables[moved["table"]["id"]]
                    event["secret"]["tables"][moved["table"]["hash"]] = tablebook.definition(table)

                return _forged(data, seq, change)

            return e["seq"], forge
    raise AssertionError(f"no sealed {need} roll of {side}")


def _fails_at(data: bytes, seq: int, *words: str) -> str:
    with pytest.raises(VerificationError) as err:
        verify_bytes(data)
    assert err.value.seq == seq, err.value
    for word in words:
        assert word in str(err.value), str(err.value)
    return str(err.value)


# ---------------------------------------------------------------- 8.6206 leader columns


@functools.cache
def _leader_game(choice: str, amend_to: str | None = None) -> tuple[Campaign, dict[str, int]]:
    """A KGP campaign whose definition reads ``choice``: the U.S. buys an I1
    (8.6202 quality 3: 1st Line; 8.6206 leader DR 7), the German an I2 (8.6201
    Strength DR 7: Full; leader DR 7). With ``amend_to``, the sides agree that
    reading after the U.S. rolls and before the German does: the German's I2,
    bought before it, still reads the column of ``choice`` (the rolls an RG
    needs follow the readings of its purchase, DESIGN §14). The campaign,
    and the seq of each purchase (and of the amendment)."""
    rng = random.Random(f"{choice}{amend_to}")
    doc = _definition("kgp", GERMAN_LINES, US_LINES)
    doc["readings"] = {"leader-columns": choice}
    c = _campaign(rng, German=60, US=60, definition=doc)
    seq = {"US": _buy(c, rng, "US", "I1"), "German": _buy(c, rng, "German", "I2")}
    (quality,) = _determine(c, rng, "US", seq["US"], 0, (1, 3))
    assert quality["outcome"]["text"].startswith("1st Line")
    (leader,) = _determine(c, rng, "US", seq["US"], 0, (2, 7))
    assert leader["rule"] == LEADER[choice]["US"]
    german_reads = choice  # its purchase's reading, amended or not
    if amend_to is not None:
        patch = {"readings": {"leader-columns": amend_to}}
        asked = c.request_amendment(_ctx("US", rng), patch=patch, reason="the printed chart")
        seq["amended"] = c.approve_amendment(_ctx("German", rng), asked)
    strength, leader = _determine(c, rng, "German", seq["German"], 0, (2, 7), (2, 7))
    assert strength["value"] == "F"
    assert leader["rule"] == LEADER[german_reads]["German"]
    assert [d["id"] for d in leader["drm"]] == []
    return c, seq


@pytest.mark.parametrize("viewer", [REFEREE, "US", "German"])
@pytest.mark.parametrize("choice", list(LEADER))
def test_an_honest_export_verifies_under_each_leader_columns_choice(
    choice: str, viewer: str
) -> None:
    """Each viewer's export (the other side's sealed rolls hidden from a side)."""
    c, _ = _leader_game(choice)
    assert isinstance(verify_bytes(_export(c, viewer)), Report)


@pytest.mark.parametrize("side", ["US", "German"])
@pytest.mark.parametrize("choice", list(LEADER))
def test_a_leader_roll_moved_to_the_other_column_fails_at_its_seq(choice: str, side: str) -> None:
    """The forger reads ``side``'s leader DR on the column the other choice
    gives it (the same dice, re-read there): the roll fails at its sealed
    record's seq, naming the table the readings in force give it."""
    seq, forge = _sealed_roll(_export(_leader_game(choice)[0]), side, "leader")
    forged = forge(lambda roll: _reread(roll, LEADER[OTHER[choice]][side]))
    _fails_at(
        forged,
        seq,
        f"8.620: RG {'I1' if side == 'US' else 'I2'} ",
        f"'leader' roll is read on {LEADER[choice][side]} under the readings "
        f"leader-columns={choice}",
        f"but it was read on {LEADER[OTHER[choice]][side]}",
    )


def test_an_amendment_mid_campaign_reads_each_roll_under_its_own_readings() -> None:
    """Created under "us-first", amended to "german-first" between the U.S.
    leader DR and the German one: the export verifies (each roll under the
    readings in force at its RG's purchase: the German's I2 was bought before
    the amendment, so its leader DR made after it is on the "us-first"
    column); that roll moved to the "german-first" column fails, and so does
    the whole export read under "german-first" from the start (the U.S. roll
    then is on the wrong column)."""
    c, seq = _leader_game("us-first", "german-first")
    data = _export(c)
    assert isinstance(verify_bytes(data), Report)
    at, forge = _sealed_roll(data, "German", "leader")
    assert at > seq["amended"] > seq["German"]
    forged = forge(lambda roll: _reread(roll, LEADER["german-first"]["German"]))
    _fails_at(forged, at, "under the readings leader-columns=us-first")
    us_at, _ = _sealed_roll(data, "US", "leader")

    def german_first(event: dict[str, Any]) -> None:
        import hashlib

        from cgledger.domain.dice import canon

        event["payload"]["definition"]["readings"] = {"leader-columns": "german-first"}
        digest = hashlib.sha256(canon(event["payload"]["definition"])).hexdigest()
        event["payload"]["definition_hash"] = digest

    _fails_at(_forged(data, 1, german_first), us_at, f"read on {LEADER['german-first']['US']}")


def test_a_roll_the_rg_does_not_need_fails() -> None:
    """The forger relabels the German I2's leader DR as a Med Tank models DR
    (8.6203: a U.S. V3 or V4 only): no such roll of that RG exists."""
    data = _export(_leader_game("us-first")[0])
    seq, forge = _sealed_roll(data, "German", "leader")
    forged = forge(lambda roll: roll.update(need="models"))
    _fails_at(forged, seq, "RG I2 (event", "needs no 'models' roll")


# ---------------------------------------------------------------- 8.6203 determination_table


def _define_before(events: list[dict[str, Any]], at: int, table_id: str) -> int:
    """A forger's ``TableDefined`` of ``table_id`` just before event ``at``
    (the later events renumbered), unless one was recorded before it; the
    roll's new seq."""
    table = KGP.tables[table_id]
    digest = tablebook.content_hash(table)
    if any(e["type"] == "TableDefined" and e["payload"]["hash"] == digest for e in events[:at]):
        return at
    model = next(e for e in events if e["type"] == "TableDefined")
    defined = copy.deepcopy(model)
    defined["payload"] = {
        "table": table.id,
        "hash": digest,
        "definition": tablebook.definition(table),
    }
    events.insert(at - 1, defined)
    for n, e in enumerate(events, start=1):
        e["seq"] = n
    return at + 1


@pytest.mark.parametrize(
    ("rg", "line_table"),
    [("V3", None), ("V4", None), ("V3", "kgp:8.6203-II"), ("V4", "kgp:8.6203-I")],
)
def test_a_med_tank_roll_on_the_other_8_6203_table_fails(rg: str, line_table: str | None) -> None:
    """8.6203 "make a DR on the appropriate table below": V3 on table I and V4
    on table II, or the table its chart line names. The honest export
    verifies; its models DR moved to the other table fails at its seq."""
    rng = random.Random(f"8.6203 {rg} {line_table}")
    line: dict[str, Any] = {"id": rg, "name": "Med Tank Pltn", "cpp": 9}
    if line_table is not None:
        line["determination_table"] = line_table
    c = _campaign(rng, German=60, US=60, definition=_definition("kgp", GERMAN_LINES, [line]))
    bought = _buy(c, rng, "US", rg)
    (models,) = _determine(c, rng, "US", bought, 0, (2, 7))
    expected = line_table or MED_TANK[rg]
    assert models["rule"] == expected
    data = _export(c)
    assert isinstance(verify_bytes(data), Report)
    header, events = parse(data)
    at = next(e["seq"] for e in events if e["payload"].get("need") == "models")
    at = _define_before(events, at, SWAP[expected])
    roll = events[at - 1]["payload"]
    _reread(roll, SWAP[expected])
    forged = reseal(header, events)
    _fails_at(forged, at, f"RG {rg} (event", f"read on {expected}", f"read on {SWAP[expected]}")


# ---------------------------------------------------------------- 9.6182 sw_columns


@functools.cache
def _abtf_sw_game(columns: tuple[str, ...] | None) -> bytes:
    """The 9.6182 EX (``test_purchases_ex``): a Depleted German RG I1 makes
    the "*" dr (4: a PSK), then a dr for its LMG (3) and its PSK (3), its line
    placing its entries (``sw_columns``) or not."""
    rng = random.Random(f"9.6182 {columns}")
    doc = copy.deepcopy(ABTF.sample_definition)
    doc["rg_chart"]["German"][0]["units"] = [3, 2]
    if columns is not None:
        doc["rg_chart"]["German"][0]["sw_columns"] = list(columns)
    c = _campaign(rng, "abtf", name="CG I", start="18 AM", definition=doc, German=30, British=30)
    at = c.perform(_ctx("German", rng), "rg-purchases", RGPurchaseCreate(rgs=[RGItem(rg="I1(X)")]))
    rolls = _determine(c, rng, "German", at, 0, (2, 12), (1, 4), (1, 3), (1, 3))
    table = "abtf:9.6182" if columns is None else "abtf:9.6182-placed"
    assert [r["rule"] for r in rolls[2:]] == [table, table]
    header = {"campaign": c.cid, "ruleset": "abtf", "campaign_name": c.campaign_name,
              "exported_at": "2026-11-21T00:00:00Z"}  # fmt: skip
    from cgledger.projections.eventlog import export_jsonl

    return export_jsonl(header, c.history.records(0, c.version), REFEREE, c.is_revealed)


PLACED = ("LMG", "PSK/Lt. Mtr")
#: The LMG's dr (sw.0) on each table: its inputs there.
LMG_INPUTS = {
    "abtf:9.6182": {"nationality": "German", "rg": "I1", "sw": "LMG"},
    "abtf:9.6182-placed": {"threshold": 3},
}


@pytest.mark.parametrize("columns", [None, PLACED])
def test_an_sw_roll_on_the_other_9_6182_table_fails(columns: tuple[str, ...] | None) -> None:
    """9.6182: a line that places its entries rolls on abtf:9.6182-placed, one
    that does not on abtf:9.6182. The honest export verifies; the LMG's dr
    moved to the other table (its inputs there) fails at its seq."""
    data = _abtf_sw_game(columns)
    assert isinstance(verify_bytes(data), Report)
    honest = "abtf:9.6182" if columns is None else "abtf:9.6182-placed"
    other = "abtf:9.6182-placed" if columns is None else "abtf:9.6182"
    seq, forge = _sealed_roll(data, "German", "sw.0", ABTF)

    def move(roll: dict[str, Any]) -> None:
        roll["inputs"] = dict(LMG_INPUTS[other])
        _reread(roll, other, ABTF)

    _fails_at(forge(move), seq, "RG I1(X) (event", f"read on {honest}", f"read on {other}")


@pytest.mark.parametrize("columns", [None, PLACED])
def test_an_sw_roll_on_another_entry_s_inputs_fails(columns: tuple[str, ...] | None) -> None:
    """The LMG's dr re-read as the PSK's entry (threshold 2, not 3: the dr of
    3 no longer receives it): the right table, the wrong inputs."""
    data = _abtf_sw_game(columns)
    seq, forge = _sealed_roll(data, "German", "sw.0", ABTF)
    table = "abtf:9.6182" if columns is None else "abtf:9.6182-placed"
    psk = {**LMG_INPUTS[table], **({"sw": "PSK"} if columns is None else {"threshold": 2})}

    def move(roll: dict[str, Any]) -> None:
        roll["inputs"] = psk
        _reread(roll, table, ABTF)
        assert roll["value"] == "forfeit"  # the forged read: not received

    _fails_at(forge(move), seq, "'sw.0' roll on", "reads the inputs", str(psk))


# ---------------------------------------------------------------- results the viewer cannot see


@pytest.mark.parametrize(
    ("ruleset", "side", "line", "key", "tables"),
    [
        # 8.6206's leader DR of a German I2 waits for its 8.6201 Strength DR.
        (KGP, "German", GERMAN_LINES[0], "leader", {"kgp:8.6206-german"}),
        # 9.6182: a German I1's LMG dr follows a Depleted Strength and its "*" dr.
        (ABTF, "German", {"id": "I1", "name": "x", "cpp": 4, "units": [3, 2],
                          "sw_columns": list(PLACED)}, "sw.0", {"abtf:9.6182-placed"}),
        (ABTF, "German", {"id": "I1", "name": "x", "cpp": 4, "units": [3, 2]}, "sw.0",
         {"abtf:9.6182"}),
    ],
)  # fmt: skip
def test_a_roll_after_results_sealed_from_the_viewer_is_checked_on_every_result(
    ruleset: Any, side: str, line: dict[str, Any], key: str, tables: set[str]
) -> None:
    """Where the earlier rolls of the row are sealed from the viewer, the
    column's table is the one every result they may have given leads to
    (``purchases.needs_of_key``); a column the RG never has gives none."""
    from cgledger.domain import purchases as book

    rules = ruleset.rules.purchases
    row = book.new_row(3, 0, "19 AM", line["id"], 4, None)
    assert [n for n in rules.needs(side, line, row, {}) if n.key == key] == []

    def results(table: str) -> list[str]:
        return [b.result for b in ruleset.tables[table].bands]

    readings = ruleset.readings_in_force({})
    found = book.needs_of_key(rules, side, line, row, readings, key, results)
    assert {n.table for n in found} == tables
    assert book.needs_of_key(rules, side, line, row, readings, "models", results) == []
    # Known results decide it: a Full Strength RG makes no SW dr.
    row["results"]["strength"] = {"value": "F", "band": 0}
    full = book.needs_of_key(rules, side, line, row, readings, key, results)
    assert (full == []) is key.startswith("sw.")
