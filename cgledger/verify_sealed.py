"""Sealed records (``cgledger-dice/2``, DESIGN §2a) in an export, for
``cgledger verify``; docs/dice-protocol.md §8 states the same checks for an
independent verifier.

A ``RecordSealed`` event shows everyone the same public keys whatever it holds
(``protocol``, ``owner``, ``side``, ``cg_date``, ``step`` and, on a kind that
draws dice, ``roll``: ``index``, ``commitment``, ``side``, ``secret``,
``protocol``, ``after_undo``); what it recorded is its secret part, fixed by
``secret_digest`` in the hash chain. A roll-bearing record takes the next roll
index like any roll (``cgledger.verify`` keeps that count for both versions).

Its ``SecretRevealed`` (payload ``protocol`` ``cgledger-dice/2``) publishes the
seed, the client nonce and the secret part (``sealed``). Checked here:

* the reveal follows the record it names, which is a sealed record revealed
  once, of the owner and the roll index and commitment the reveal names;
* the revealed part hashes to the record's ``secret_digest``;
* with a roll index: the index's commitment was published before the record,
  the seed opens it, the reveal's client nonce is the sealed part's, and the
  dice of ``sealed.rolls``, concatenated in order, are the first dice of the
  stream of (seed, campaign, nonce, index, ``roll.side``); without one, the
  record lists no dice;
* each roll on a table re-reads from the recorded definition
  (``cgledger.verify_tables``), where the viewer sees the secret part; an act
  of one table roll that records its result at the top of its part too (what
  the views show) records that roll's.

A record not yet revealed is counted as hidden (with its roll, also among the
rolls whose seed is still secret).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from cgledger import verify_counted
from cgledger.domain import dice
from cgledger.domain.chain import secret_digest
from cgledger.domain.rulesets import REGISTRY
from cgledger.verify_report import Report, VerificationError
from cgledger.verify_tables import reread

#: The one public type of every sealed record, and of its reveal.
RECORD = "RecordSealed"
REVEAL = "SecretRevealed"
PUBLIC_KEYS = frozenset({"protocol", "owner", "side", "cg_date", "step"})
ROLL_KEYS = frozenset({"index", "commitment", "side", "secret", "protocol", "after_undo"})
REVEAL_KEYS = frozenset(
    {"of_seq", "of_owner", "protocol", "index", "commitment", "seed", "client_nonce", "sealed"}
)
#: What a version 2 reveal of a record without a roll index leaves null.
_ROLL_FIELDS = ("index", "commitment", "seed", "client_nonce")
_HEX64 = re.compile(r"[0-9a-f]{64}")
#: What an act of one table roll records of it at the top of its sealed part.
_ROLL_RESULT = ("table", "inputs", "original", "drm", "final", "outcome")


def is_reveal(obj: dict[str, Any]) -> bool:
    """A version 2 reveal: a ``SecretRevealed`` whose payload names the protocol."""
    return bool(obj["type"] == REVEAL and obj["payload"].get("protocol") == dice.SEALED)


@dataclass
class Sealed:
    """The sealed records of an export (by seq) and their reveals (by the
    seq of the record: the reveal's payload and its own seq), as read in
    seq order."""

    records: dict[int, dict[str, Any]] = field(default_factory=dict)
    reveals: dict[int, tuple[dict[str, Any], int]] = field(default_factory=dict)

    def record(self, obj: dict[str, Any], seq: int) -> None:
        """A ``RecordSealed``: its public part has exactly the keys, and the
        value shapes, of every sealed record."""
        p = obj["payload"]
        if set(p) not in (PUBLIC_KEYS, PUBLIC_KEYS | {"roll"}):
            raise VerificationError(
                f"a sealed record's public part has the keys {sorted(p)}; {dice.SEALED} "
                "allows protocol, owner, side, cg_date, step and, with a roll index, roll",
                seq,
            )
        if p["protocol"] != dice.SEALED:
            raise VerificationError(f"a sealed record names {p['protocol']!r}", seq)
        if not all(isinstance(p[k], str) for k in ("owner", "side", "cg_date")) or not (
            p["step"] is None or isinstance(p["step"], str)
        ):
            raise VerificationError("a sealed record's owner, side, CG Date or step", seq)
        if not _HEX64.fullmatch(obj["secret_digest"]):
            raise VerificationError("a sealed record without the digest of its secret part", seq)
        if "roll" in p:
            roll = p["roll"]
            if not isinstance(roll, dict) or set(roll) != ROLL_KEYS:
                keys = sorted(roll) if isinstance(roll, dict) else roll
                raise VerificationError(
                    f"a sealed record's roll has the keys {keys!r}; "
                    f"{dice.SEALED} allows {', '.join(sorted(ROLL_KEYS))}",
                    seq,
                )
            if (
                roll["protocol"] != dice.SEALED
                or roll["secret"] is not True
                or type(roll["index"]) is not int
                or not isinstance(roll["commitment"], str)
                or not isinstance(roll["side"], str)
            ):
                raise VerificationError(
                    f"a sealed roll is not of {dice.SEALED} (protocol, secret: true, an index, "
                    "its commitment and the side that rolled)",
                    seq,
                )
        self.records[seq] = obj

    def reveal(self, obj: dict[str, Any], seq: int) -> None:
        """A version 2 ``SecretRevealed``: it names the record it reveals
        rightly, and publishes that record's sealed part, digest and all."""
        p = obj["payload"]
        if set(p) != REVEAL_KEYS:
            raise VerificationError(
                f"a {dice.SEALED} reveal has the keys {sorted(p)}, not {sorted(REVEAL_KEYS)}", seq
            )
        of = p["of_seq"]
        if type(of) is not int or not 1 <= of < seq:
            raise VerificationError("a reveal must follow the event it reveals", seq)
        record = self.records.get(of)
        if record is None:
            raise VerificationError(
                f"the reveal names event {of}, which is not a sealed record", seq
            )
        if of in self.reveals:
            raise VerificationError(f"sealed record {of} is revealed twice", seq)
        public = record["payload"]
        if p["of_owner"] != public["owner"]:
            raise VerificationError(
                f"the reveal names {p['of_owner']!r} the owner of event {of}, "
                f"whose owner is {public['owner']!r}",
                seq,
            )
        roll = public.get("roll")
        if roll is None:
            if any(p[k] is not None for k in _ROLL_FIELDS):
                raise VerificationError(
                    f"the reveal names a roll, but event {of} has no roll index", seq
                )
        else:
            if p["index"] != roll["index"] or p["commitment"] != roll["commitment"]:
                raise VerificationError(
                    f"the reveal names roll {p['index']!r}, but event {of} used roll "
                    f"{roll['index']} under another commitment",
                    seq,
                )
            if not isinstance(p["seed"], str) or not _HEX64.fullmatch(p["seed"]):
                raise VerificationError(
                    f"the seed of roll {roll['index']} is not 64 hex digits", seq
                )
            if not isinstance(p["client_nonce"], str):
                raise VerificationError(f"the reveal of roll {roll['index']} has no nonce", seq)
        part = p["sealed"]
        if not isinstance(part, dict) or secret_digest(part) != record["secret_digest"]:
            raise VerificationError(
                f"the revealed sealed part does not match the digest recorded with event {of} "
                "(edited, or not that record's?)",
                seq,
            )
        if record["secret"] is not None and record["secret"] != part:
            raise VerificationError(f"the reveal and event {of} show other secret parts", seq)
        self.reveals[of] = (p, seq)

    def refuse_v1_reveal(self, payload: dict[str, Any], seq: int) -> None:
        """A version 1 reveal (no ``protocol``) cannot open a sealed record."""
        if payload["of_seq"] in self.records:
            raise VerificationError(
                f"event {payload['of_seq']} is a sealed record: only a {dice.SEALED} reveal "
                "opens it",
                seq,
            )


def check(
    created: dict[str, Any],
    obj: dict[str, Any],
    commitments: dict[int, tuple[str, int]],
    sealed: Sealed,
    report: Report,
) -> None:
    """Check one sealed record (after the whole export is read, so its
    reveal, if any, is known)."""
    seq = obj["seq"]
    campaign = created["campaign"]
    roll = obj["payload"].get("roll")
    report.sealed_records += 1
    if roll is not None:
        index = roll["index"]
        published = commitments.get(index)
        if published is None or published[1] >= seq:
            raise VerificationError(f"roll {index} has no commitment published before it", seq)
        if roll["commitment"] != published[0]:
            raise VerificationError(f"roll {index} does not use its published commitment", seq)
    found = sealed.reveals.get(seq)
    part = found[0]["sealed"] if found is not None else obj["secret"]
    if part is None:  # sealed from this viewer
        report.sealed_hidden += 1
        report.rolls_hidden += 0 if roll is None else 1
        return
    rolls = _rolls(part, seq)
    _check_act_result(part, rolls, seq)
    drawn = [d for r in rolls for d in r["dice"]]
    if roll is None and drawn:
        raise VerificationError("a sealed record without a roll index lists dice", seq)
    if found is None:
        # The owner's or the referee's export: the secret part is visible, the seed not yet.
        report.sealed_hidden += 1
        report.rolls_hidden += 0 if roll is None else 1
    else:
        if roll is not None:
            _check_stream(campaign, roll, part, found, drawn, seq)
            report.rolls_recomputed += 1
        report.sealed_revealed += 1
    carried = part.get("tables")
    ruleset = REGISTRY.get(created["ruleset"])
    if ruleset is not None and "rule" in part and len(rolls) == 1 and "outcome" in part:
        # A rule command's own roll (8.616's Base # and CPP, 8.622's CPP): what it took.
        public = obj["payload"]
        values = {**part, "side": public["side"], "cg_date": public["cg_date"]}
        problem = ruleset.rules.verify_result(created, values)
        if problem is not None:
            raise VerificationError(problem, seq)
    verify_counted.check_sealed(created, obj, part, report)  # a secret table roll's
    for r in rolls:
        if r.get("table") is not None:
            ref = r["table"]
            named = _names(r.get("purpose"), ref["id"])
            reread(seq, ref, r["dice"], r, report, named=named, carried=carried)
        if ruleset is not None and "for_purchase" in r and "need" in r:
            # What a determination roll wrote in its RG's row (8.620, 9.618).
            public = obj["payload"]
            values = {**r, "side": public["side"], "cg_date": public["cg_date"]}
            problem = ruleset.rules.verify_result(created, values)
            if problem is not None:
                raise VerificationError(problem, seq)


def _check_stream(
    campaign: str,
    roll: dict[str, Any],
    part: dict[str, Any],
    found: tuple[dict[str, Any], int],
    drawn: list[int],
    seq: int,
) -> None:
    """The revealed seed opens the roll's commitment, and the record's dice
    are the first dice of its stream."""
    reveal, at = found
    index = roll["index"]
    seed = bytes.fromhex(reveal["seed"])
    if dice.commitment(campaign, index, seed) != roll["commitment"]:
        raise VerificationError(
            f"the seed revealed at seq {at} does not match the commitment of roll {index}", seq
        )
    nonce = part.get("client_nonce")
    if nonce != reveal["client_nonce"]:
        raise VerificationError(
            f"the sealed part's client_nonce {nonce!r} is not the one revealed at seq {at}", seq
        )
    expected = dice.sealed_dice(
        seed, campaign=campaign, index=index, client_nonce=nonce, side=roll["side"], n=len(drawn)
    )
    if expected != drawn:
        k = next(k for k, (a, b) in enumerate(zip(expected, drawn, strict=True)) if a != b)
        raise VerificationError(
            f"the dice of sealed roll {index} do not follow its stream: die {k + 1} is "
            f"{drawn[k]}, the stream gives {expected[k]} (the stream: {expected}, "
            f"the record: {drawn})",
            seq,
        )


def _check_act_result(part: dict[str, Any], rolls: list[dict[str, Any]], seq: int) -> None:
    """An act of one table roll (a table roll, 8.616's DR, 8.622's dr) also
    records that roll's result at the top of its part, which is what the views
    show and the state applies: it must be its one roll's, which is re-read."""
    found = [k for k in _ROLL_RESULT if k in part]
    if not found:
        return
    if len(rolls) != 1:
        raise VerificationError(
            f"the sealed part records a roll's {found[0]} but lists {len(rolls)} rolls", seq
        )
    ref = rolls[0].get("table")
    table = ref.get("id") if isinstance(ref, dict) else None
    for key in found:
        if part[key] != rolls[0].get(key):
            raise VerificationError(
                f"the sealed part's {key} is not that of its roll on {table} (edited?)", seq
            )


def _rolls(part: dict[str, Any], seq: int) -> list[dict[str, Any]]:
    """The rolls of a sealed part, in the order made, each with its dice."""
    rolls = part.get("rolls")
    if not isinstance(rolls, list) or not all(isinstance(r, dict) for r in rolls):
        raise VerificationError("the sealed part's rolls are not a list of objects", seq)
    for n, r in enumerate(rolls, start=1):
        got = r.get("dice")
        if (
            not isinstance(got, list)
            or not got
            or any(type(d) is not int or not 1 <= d <= 6 for d in got)
        ):
            raise VerificationError(f"sealed roll {n} records {got!r}, not dice", seq)
        if r.get("count") != len(got):
            raise VerificationError(
                f"sealed roll {n} counts {r.get('count')!r} dice but records {len(got)}", seq
            )
    return rolls


def _names(purpose: object, table: str) -> object:
    """The table a roll's purpose names (it starts with the table id), for
    :func:`reread` to hold against the table the roll was read on."""
    if isinstance(purpose, str) and re.match(re.escape(table) + r"(?![\w.])", purpose):
        return table
    return purpose
