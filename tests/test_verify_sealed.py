"""``cgledger verify`` on sealed records (``cgledger-dice/2``, DESIGN §2a,
/work/spec/sealed.md), before the server writes them: synthetic exports are
built here event by event, chained with ``cgledger.domain.chain`` and written
by the server's own export writer (``cgledger.projections.eventlog``), then
verified whole and forged every way the protocol says a verifier must refuse.

:class:`Log` is the small helper (test_docs.py builds its exports with it too):
a KGP campaign, 64 committed seeds, a public v1 roll, sealed records with and
without a roll index (an RG batch's 8.6201 Strength DR and 8.6204 SW dr in one
record), reveals.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from forge import parse, reseal

from cgledger import cli
from cgledger.domain import dice
from cgledger.domain import tables as tablebook
from cgledger.domain.chain import GENESIS, event_hash, secret_digest
from cgledger.domain.rulesets import REGISTRY
from cgledger.projections.eventlog import export_jsonl
from cgledger.verify import Report, VerificationError, verify_bytes

CID = "5ea1ed00-0000-4000-8000-000000000025"
SEEDS = [hashlib.sha256(f"sealed test seed {i}".encode()).digest() for i in range(64)]
KGP = REGISTRY["kgp"]
STRENGTH = KGP.table("kgp:8.6201")
SW = KGP.table("kgp:8.6204")
ROLES = ("US", "German", "referee")


class Log:
    """A synthetic campaign log, each event chained as the server chains it."""

    def __init__(self, campaign: str = CID) -> None:
        self.cid = campaign
        self.records: list[dict[str, Any]] = []
        self.revealed: set[int] = set()
        self.rolls = 0
        self.append(
            "CampaignCreated",
            "referee",
            {
                "campaign": self.cid,
                "ruleset": "kgp",
                "campaign_name": "CG I",
                "protocol": dice.PROTOCOL,
                "sides": ["US", "German"],
            },
        )
        self.append(
            "CommitmentsPublished",
            "referee",
            {
                "first_index": 0,
                "commitments": [dice.commitment(self.cid, i, s) for i, s in enumerate(SEEDS)],
            },
        )
        for table in (STRENGTH, SW):
            self.append(
                "TableDefined",
                "German",
                {
                    "table": table.id,
                    "hash": tablebook.content_hash(table),
                    "definition": tablebook.definition(table),
                },
            )

    def append(
        self, type_: str, actor: str, payload: dict[str, Any], secret: dict[str, Any] | None = None
    ) -> int:
        seq = len(self.records) + 1
        record = {
            "seq": seq,
            "type": type_,
            "recorded_at": f"2025-01-01T00:00:{seq:02d}Z",
            "actor": actor,
            "payload": payload,
            "secret": secret,
            "secret_digest": secret_digest(secret),
            "prev_hash": self.records[-1]["hash"] if self.records else GENESIS,
        }
        record["hash"] = event_hash(record)
        self.records.append(record)
        return seq

    def public_roll(self, side: str = "US", count: int = 2, purpose: str = "free") -> int:
        """A version 1 public roll: it takes the next roll index too."""
        index, nonce = self.rolls, f"public-{self.rolls}"
        self.rolls += 1
        seed = SEEDS[index]
        got = dice.roll(
            seed,
            campaign=self.cid,
            index=index,
            client_nonce=nonce,
            dice=count,
            purpose=purpose,
            side=side,
        )
        roll = {
            "index": index,
            "commitment": dice.commitment(self.cid, index, seed),
            "side": side,
            "purpose": purpose,
            "count": count,
            "client_nonce": nonce,
            "nonce_source": "client",
            "secret": False,
            "after_undo": None,
            "dice": got,
            "seed": seed.hex(),
        }
        return self.append("DiceRolled", side, {"owner": side, "roll": roll})

    def sealed(
        self,
        owner: str = "German",
        *,
        rolls: tuple[tuple[str, tablebook.Table | None, int], ...] = (),
        with_roll: bool = True,
        nonce: str = "sealed-nonce-ü",
        fields: dict[str, Any] | None = None,
        forge_dice: Callable[[list[int]], list[int]] | None = None,
    ) -> int:
        """A ``RecordSealed``: its rolls (purpose, table or None, dice) take
        the dice of its stream in order; ``forge_dice`` replaces them (a
        server that did not use the stream, everything else consistent)."""
        public: dict[str, Any] = {
            "protocol": dice.SEALED,
            "owner": owner,
            "side": owner,
            "cg_date": "19 PM",
            "step": "8.620",
        }
        secret: dict[str, Any] = {"kind": "RGDetermined", **(fields or {"rgs": ["G1"]})}
        stream: list[int] = []
        if with_roll:
            index = self.rolls
            self.rolls += 1
            public["roll"] = {
                "index": index,
                "commitment": dice.commitment(self.cid, index, SEEDS[index]),
                "side": owner,
                "secret": True,
                "protocol": dice.SEALED,
                "after_undo": None,
            }
            n = sum(count for _, _, count in rolls)
            stream = dice.sealed_dice(
                SEEDS[index], campaign=self.cid, index=index, client_nonce=nonce, side=owner, n=n
            )
            secret.update(client_nonce=nonce, nonce_source="client")
        if forge_dice is not None:
            stream = forge_dice(stream)
        made = []
        for purpose, table, count in rolls:
            got, stream = stream[:count], stream[count:]
            roll: dict[str, Any] = {"purpose": purpose, "count": count, "dice": got, "table": None}
            if table is not None:
                roll.update(
                    table=tablebook.table_ref(table), inputs={}, **tablebook.resolve(table, got)
                )
            made.append(roll)
        secret.update(
            rolls=made, salt=hashlib.sha256(str(len(self.records)).encode()).hexdigest()[:32]
        )
        return self.append("RecordSealed", owner, public, secret)

    def reveal(self, of: int, actor: str | None = None, **changes: Any) -> int:
        """The version 2 ``SecretRevealed`` of record ``of`` (``changes``
        edit its payload before it is chained: a forger's reveal)."""
        record = self.records[of - 1]
        roll = record["payload"].get("roll")
        secret = record["secret"]
        payload = {
            "of_seq": of,
            "of_owner": record["payload"]["owner"],
            "protocol": dice.SEALED,
            "index": roll and roll["index"],
            "commitment": roll and roll["commitment"],
            "seed": roll and SEEDS[roll["index"]].hex(),
            "client_nonce": roll and secret["client_nonce"],
            "sealed": copy.deepcopy(secret),
        }
        payload.update(changes)
        self.revealed.add(of)
        return self.append("SecretRevealed", actor or record["payload"]["owner"], payload)

    def export(self, viewer: str = "US") -> bytes:
        """As the server writes it for ``viewer`` (its redaction and header)."""
        header = {
            "campaign": self.cid,
            "ruleset": "kgp",
            "campaign_name": "CG I",
            "exported_at": "2025-01-01T01:00:00Z",
        }
        return export_jsonl(header, self.records, viewer, lambda seq: seq in self.revealed)


#: An RG batch's determination: the Strength DR, then the Depleted platoon's SW dr.
BATCH = (("kgp:8.6201 RG Strength", STRENGTH, 2), ("kgp:8.6204 Depleted Pltn SW dr", SW, 1))


def story() -> tuple[Log, dict[str, int]]:
    """A public roll, a revealed sealed batch, a sealed purchase without a
    roll (revealed), a sealed record still sealed, another public roll."""
    log = Log()
    at = {"public": log.public_roll()}
    at["batch"] = log.sealed(rolls=(*BATCH, ("free dr", None, 1)))
    at["purchase"] = log.sealed(with_roll=False, fields={"kind": "RGPurchased", "rgs": ["G1"]})
    at["hidden"] = log.sealed("US", rolls=(("free DR", None, 2),), nonce="n2")
    at["reveal_batch"] = log.reveal(at["batch"])
    at["reveal_purchase"] = log.reveal(at["purchase"])
    at["late"] = log.public_roll("German", 1)
    return log, at


def refused(data: bytes, seq: int | None, *words: str) -> VerificationError:
    with pytest.raises(VerificationError) as caught:
        verify_bytes(data)
    assert caught.value.seq == seq, str(caught.value)
    for word in words:
        assert word in str(caught.value), str(caught.value)
    return caught.value


# ------------------------------------------------------------------ genuine


@pytest.mark.parametrize("viewer", ROLES)
def test_a_genuine_export_verifies_for_every_viewer(viewer: str) -> None:
    log, _ = story()
    report = verify_bytes(log.export(viewer))
    assert report.events == len(log.records)
    assert report.rolls == 4  # two public, two sealed with a roll index
    assert report.sealed_records == 3
    assert report.sealed_revealed == 2
    assert report.sealed_hidden == 1
    # Both public rolls and the revealed batch from its seed; the U.S. record
    # stays sealed even from its owner (its seed is not revealed).
    assert (report.rolls_recomputed, report.rolls_hidden) == (3, 1)
    # The Strength DR and the SW dr re-read from their recorded tables.
    assert report.rule_results_checked == 2


def test_the_header_names_both_protocols_only_when_there_are_sealed_records() -> None:
    log, _ = story()
    header, _events = parse(log.export())
    assert header["protocol"] == dice.PROTOCOL
    assert header["protocols"] == [dice.PROTOCOL, dice.SEALED]
    plain = Log()
    plain.public_roll()
    header, _events = parse(plain.export())
    assert "protocols" not in header
    verify_bytes(plain.export())


def test_an_unrevealed_record_is_hidden_from_the_opponent_and_counted() -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    us = parse(log.export("US"))[1][seq - 1]
    assert us["secret"] is None
    assert set(us["payload"]) == {"protocol", "owner", "side", "cg_date", "step", "roll"}
    report = verify_bytes(log.export("US"))
    assert (report.sealed_hidden, report.rolls_hidden, report.rule_results_checked) == (1, 1, 0)
    # The owner sees its secret part: the tables re-read, the seed still secret.
    report = verify_bytes(log.export("German"))
    assert (report.sealed_hidden, report.rolls_hidden, report.rule_results_checked) == (1, 1, 2)


def test_a_record_without_a_roll_takes_no_index_and_a_roll_after_it_the_next() -> None:
    log = Log()
    log.sealed(with_roll=False, fields={"kind": "FortificationsPurchased", "items": ["x"]})
    first = log.sealed(rolls=(("free dr", None, 1),))
    log.public_roll()
    events = parse(log.export())[1]
    assert events[first - 1]["payload"]["roll"]["index"] == 0
    assert events[-1]["payload"]["roll"]["index"] == 1
    assert verify_bytes(log.export()).rolls == 2


def test_a_long_stream_crosses_its_first_block() -> None:
    """Twenty DRs in one record: 40 dice, past the 32 bytes of one HMAC block."""
    log = Log()
    seq = log.sealed(rolls=tuple((f"DR {k}", None, 2) for k in range(20)))
    log.reveal(seq)
    assert verify_bytes(log.export()).sealed_revealed == 1


def test_the_cli_says_what_it_checked_and_refuses_with_the_seq(tmp_path: Path) -> None:
    log, _ = story()
    good = tmp_path / "good.jsonl"
    good.write_bytes(log.export())
    code, out, err = _cli(good)
    assert code == 0, err
    assert "3 sealed records (cgledger-dice/2): 2 revealed" in out
    forged = Log()
    seq = forged.sealed(rolls=BATCH, forge_dice=lambda d: [7 - x for x in d])
    forged.reveal(seq)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(forged.export())
    code, out, err = _cli(bad)
    assert code == 1
    assert f"seq {seq}: the dice of sealed roll 0 do not follow its stream" in err


def _cli(path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["verify", str(path)])
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ the dice


@pytest.mark.parametrize(
    "forge",
    [
        lambda d: [7 - x for x in d],
        lambda d: [d[0] % 6 + 1, *d[1:]],
        lambda d: [*d[:-1], d[-1] % 6 + 1],
        lambda d: [d[1], d[0], *d[2:]],  # the coloured die second
        lambda d: [*d[1:], d[0]],  # the rolls' dice, not the stream's first
    ],
    ids=["all", "first", "last", "swapped", "shifted"],
)
def test_dice_that_do_not_follow_the_stream_are_refused(forge: Any) -> None:
    """A server that recorded other dice than the stream's, everything else
    (digest, chain, reveal, table results) consistent with them."""
    log = Log()
    log.public_roll()
    rolls = (("free DR", None, 2), ("free dr", None, 1), ("another DR", None, 2))
    seq = log.sealed(rolls=rolls, forge_dice=forge)
    log.reveal(seq)
    refused(log.export(), seq, "do not follow its stream")


def test_the_dice_are_the_streams_first_not_any_of_its_dice() -> None:
    """Dice from later in the stream (its 3rd and 4th) are refused."""
    first = dice.sealed_dice(
        SEEDS[0], campaign=CID, index=0, client_nonce="sealed-nonce-ü", side="German", n=4
    )
    assert first[2:] != first[:2]
    log = Log()
    seq = log.sealed(rolls=(("free DR", None, 2),), forge_dice=lambda d: first[2:])
    log.reveal(seq)
    refused(log.export(), seq, "do not follow its stream")


def test_another_nonce_or_side_gives_another_stream() -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    log.reveal(seq, client_nonce="other")
    refused(log.export(), seq, "client_nonce")
    # A record whose roll names another side than the dice were drawn for.
    log = Log()
    seq = log.sealed(rolls=(("free DR", None, 2), ("free DR", None, 2)))
    header, events = parse(log.export("referee"))
    events[seq - 1]["payload"]["roll"]["side"] = "referee"
    data = _with_reveal(header, events, seq)
    refused(data, seq, "do not follow its stream")


def _with_reveal(header: dict[str, Any], events: list[dict[str, Any]], of: int) -> bytes:
    """Append a genuine-looking reveal of ``of`` to edited events and reseal."""
    record = events[of - 1]
    roll = record["payload"]["roll"]
    events.append(
        {
            "seq": len(events) + 1,
            "type": "SecretRevealed",
            "recorded_at": "2025-01-02T00:00:00Z",
            "actor": "referee",
            "secret": None,
            "secret_digest": "",
            "prev_hash": "",
            "hash": "",
            "payload": {
                "of_seq": of,
                "of_owner": record["payload"]["owner"],
                "protocol": dice.SEALED,
                "index": roll["index"],
                "commitment": roll["commitment"],
                "seed": SEEDS[roll["index"]].hex(),
                "client_nonce": record["secret"]["client_nonce"],
                "sealed": record["secret"],
            },
        }
    )
    return reseal(header, events)


# ------------------------------------------------------------------ the sealed part


def test_a_revealed_part_that_is_not_the_recorded_one_is_refused() -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    part = copy.deepcopy(log.records[seq - 1]["secret"])
    part["rgs"] = ["G2"]  # what the record did not hold
    reveal = log.reveal(seq, sealed=part)
    refused(log.export(), reveal, "does not match the digest", f"event {seq}")


@pytest.mark.parametrize("where", ["record", "reveal", "both"])
def test_a_forger_who_edits_the_dice_after_the_fact_is_caught(where: str) -> None:
    """The opponent (no server keys) edits the revealed dice and re-hashes:
    either the digest or the stream gives it away."""
    log, at = story()
    header, events = parse(log.export("US"))
    seq, reveal = at["batch"], at["reveal_batch"]

    def flip(part: dict[str, Any]) -> None:
        part["rolls"][2]["dice"][0] = part["rolls"][2]["dice"][0] % 6 + 1

    if where in ("record", "both"):
        flip(events[seq - 1]["secret"])
    if where in ("reveal", "both"):
        flip(events[reveal - 1]["payload"]["sealed"])
    data = reseal(header, events)
    if where == "both":  # digest recomputed by the forger: only the stream tells
        refused(data, seq, "do not follow its stream")
    else:
        refused(data, reveal)


def test_a_table_roll_read_wrongly_inside_a_record_is_refused() -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    record = log.records[seq - 1]
    record["secret"]["rolls"][0]["final"] += 1
    header, events = parse(log.export("German"))
    refused(reseal(header, events), seq, "kgp:8.6201", "final")
    # The purpose must name the table the roll was read on.
    log = Log()
    seq = log.sealed(rolls=(("kgp:8.62 Strength", STRENGTH, 2),))
    refused(log.export("German"), seq, "inconsistently")


def test_a_table_roll_with_a_definition_recorded_after_it_is_refused() -> None:
    log = Log()
    table = KGP.table("kgp:8.6202")
    seq = log.sealed(rolls=(("kgp:8.6202 quality", table, 1),))
    log.append(
        "TableDefined",
        "US",
        {
            "table": table.id,
            "hash": tablebook.content_hash(table),
            "definition": tablebook.definition(table),
        },
    )
    refused(log.export("German"), seq, "no definition of it was recorded before")


@pytest.mark.parametrize(
    "edit",
    [
        lambda r: r.update(dice=[0, 7]),
        lambda r: r.update(dice=["3", "4"]),
        lambda r: r.update(dice=[]),
        lambda r: r.update(count=1),
        lambda r: r.pop("count"),
    ],
    ids=["faces", "strings", "none", "count", "no count"],
)
def test_rolls_that_are_not_dice_are_refused(edit: Any) -> None:
    log = Log()
    seq = log.sealed(rolls=(("free DR", None, 2),))
    edit(log.records[seq - 1]["secret"]["rolls"][0])
    header, events = parse(log.export("German"))
    refused(reseal(header, events), seq, "sealed roll 1")


def test_a_record_without_a_roll_index_lists_no_dice() -> None:
    log = Log()
    seq = log.sealed(with_roll=False, rolls=(("free dr", None, 1),), forge_dice=lambda d: [4])
    log.reveal(seq)
    refused(log.export(), seq, "without a roll index lists dice")


# ------------------------------------------------------------------ the seed


def test_a_seed_that_does_not_match_the_commitment_is_refused() -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    log.reveal(seq, seed=SEEDS[5].hex())
    refused(log.export(), seq, "does not match the commitment of roll 0")


def test_a_seed_that_gives_the_recorded_dice_but_opens_nothing_is_refused() -> None:
    """The forger picks a seed, draws the record's dice from it, and records
    them: the dice follow that seed's stream, but it is not the committed one."""
    fake = hashlib.sha256(b"not committed").digest()
    log = Log()
    drawn = dice.sealed_dice(
        fake, campaign=CID, index=0, client_nonce="sealed-nonce-ü", side="German", n=2
    )
    seq = log.sealed(rolls=(("free DR", None, 2),), forge_dice=lambda d: drawn)
    log.reveal(seq, seed=fake.hex())
    refused(log.export(), seq, "does not match the commitment")


@pytest.mark.parametrize("seed", ["", "00", "zz" * 32, "AB" * 32, None])
def test_a_seed_that_is_not_64_hex_digits_is_refused(seed: str | None) -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    reveal = log.reveal(seq, seed=seed)
    refused(log.export(), reveal, "64 hex digits")


def test_a_commitment_not_published_before_the_record_is_refused() -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    header, events = parse(log.export("German"))
    events[seq - 1]["payload"]["roll"]["commitment"] = "ab" * 32
    refused(reseal(header, events), seq, "does not use its published commitment")
    header, events = parse(log.export("German"))
    events.insert(1, events.pop(seq - 1))  # the record before the commitments
    for k, event in enumerate(events, start=1):
        event["seq"] = k
    refused(reseal(header, events), 2, "no commitment published before it")


# ------------------------------------------------------------------ the reveal


def test_a_reveal_naming_an_event_that_is_not_a_sealed_record_is_refused() -> None:
    log, at = story()
    header, events = parse(log.export())
    events[at["reveal_batch"] - 1]["payload"]["of_seq"] = at["public"]
    refused(reseal(header, events), at["reveal_batch"], "not a sealed record")


def test_a_reveal_naming_another_sealed_record_is_refused() -> None:
    log, at = story()
    header, events = parse(log.export())
    # The batch's reveal pointed at the U.S. record (another index, another owner).
    events[at["reveal_batch"] - 1]["payload"]["of_seq"] = at["hidden"]
    refused(reseal(header, events), at["reveal_batch"], "owner")
    header, events = parse(log.export())
    events[at["reveal_batch"] - 1]["payload"].update(of_seq=at["hidden"], of_owner="US")
    refused(reseal(header, events), at["reveal_batch"], "names roll 1", "used roll 2")
    # The batch, revealed already, a second time by the purchase's reveal.
    header, events = parse(log.export())
    events[at["reveal_purchase"] - 1]["payload"]["of_seq"] = at["batch"]
    refused(reseal(header, events), at["reveal_purchase"], "revealed twice")
    # A reveal without a roll (a purchase's) of a record with one.
    fresh = Log()
    batch = fresh.sealed(rolls=BATCH)
    purchase = fresh.sealed(with_roll=False)
    reveal = fresh.reveal(purchase)
    header, events = parse(fresh.export())
    events[reveal - 1]["payload"]["of_seq"] = batch
    refused(reseal(header, events), reveal, "names roll None")
    # The batch's reveal pointed at the purchase (no roll index).
    header, events = parse(log.export())
    events[at["reveal_batch"] - 1]["payload"]["of_seq"] = at["purchase"]
    refused(reseal(header, events), at["reveal_batch"], "has no roll index")


def test_a_reveal_with_the_right_roll_but_another_records_part_is_refused() -> None:
    """Two records of the same owner: the reveal of one carries the other's
    sealed part (its own seed and index)."""
    log = Log()
    one = log.sealed(rolls=(("free DR", None, 2),))
    two = log.sealed(rolls=(("free DR", None, 2),), nonce="two")
    reveal = log.reveal(one, sealed=copy.deepcopy(log.records[two - 1]["secret"]))
    refused(log.export(), reveal, "does not match the digest")


def test_a_reveal_before_its_record_twice_or_by_version_1_is_refused() -> None:
    log, at = story()
    header, events = parse(log.export())
    events[at["reveal_batch"] - 1]["payload"]["of_seq"] = at["reveal_batch"] + 1
    refused(reseal(header, events), at["reveal_batch"], "must follow")
    # Twice.
    log = Log()
    seq = log.sealed(rolls=BATCH)
    log.reveal(seq)
    second = log.reveal(seq)
    refused(log.export(), second, "revealed twice")
    # A version 1 reveal (no protocol) of a sealed record.
    log = Log()
    seq = log.sealed(rolls=BATCH)
    v1 = log.append(
        "SecretRevealed",
        "German",
        {"of_seq": seq, "of_owner": "German", "index": 0, "seed": SEEDS[0].hex()},
    )
    refused(log.export(), v1, "only a cgledger-dice/2 reveal opens it")
    # A reveal with a key more (or fewer) than the protocol's.
    log = Log()
    seq = log.sealed(rolls=BATCH)
    reveal = log.reveal(seq, dice=[1, 2])
    refused(log.export(), reveal, "reveal has the keys")


# ------------------------------------------------------------------ the public part


@pytest.mark.parametrize(
    "edit",
    [
        lambda p: p.update(purpose="kgp:8.6204 Depleted Pltn SW dr"),
        lambda p: p.update(kind="RGDetermined"),
        lambda p: p["roll"].update(count=3),
        lambda p: p["roll"].update(client_nonce="n"),
        lambda p: p["roll"].update(secret=False),
        lambda p: p["roll"].update(protocol=dice.PROTOCOL),
        lambda p: p.update(protocol=dice.PROTOCOL),
        lambda p: p.pop("step"),
        lambda p: p.update(roll=None),
        lambda p: p.update(owner=None),
    ],
    ids=[
        "purpose",
        "kind",
        "count",
        "nonce",
        "not secret",
        "roll v1",
        "v1",
        "no step",
        "null roll",
        "no owner",
    ],
)
def test_a_public_part_that_tells_more_or_other_than_the_protocol_is_refused(edit: Any) -> None:
    log = Log()
    seq = log.sealed(rolls=BATCH)
    header, events = parse(log.export("US"))
    edit(events[seq - 1]["payload"])
    refused(reseal(header, events), seq)


def test_an_export_of_sealed_records_must_say_so_in_its_header() -> None:
    log, at = story()
    header, events = parse(log.export())
    del header["protocols"]
    refused(reseal(header, events), at["batch"], "header does not name cgledger-dice/2")
    for wrong in ([dice.SEALED], [dice.SEALED, dice.PROTOCOL], "cgledger-dice/2", None):
        refused(reseal({**header, "protocols": wrong}, events), None, "protocols")


def test_roll_indices_run_across_both_versions() -> None:
    log = Log()
    log.public_roll()
    seq = log.sealed(rolls=BATCH)
    header, events = parse(log.export("German"))
    events[seq - 1]["payload"]["roll"]["index"] = 0
    refused(reseal(header, events), seq, "out of order")


def test_a_malformed_sealed_part_is_refused_not_crashed() -> None:
    for part in ({"salt": "x"}, {"rolls": "x", "salt": "x"}, {"rolls": [1], "salt": "x"}):
        log = Log()
        seq = log.sealed(rolls=BATCH)
        log.records[seq - 1]["secret"] = part
        header, events = parse(log.export("German"))
        with pytest.raises(VerificationError) as caught:
            verify_bytes(reseal(header, events))
        assert caught.value.seq == seq


def test_the_report_type_is_the_one_tests_import() -> None:
    assert isinstance(verify_bytes(Log().export()), Report)
