"""Offline verification of a cgledger export (``cgledger verify FILE``).

Needs nothing but the file: it checks that

* every line is exactly its canonical JSON (so any edited byte shows),
* seqs run 1, 2, 3, ... and each ``prev_hash`` is the previous ``hash``,
* each ``hash`` and each visible ``secret`` digest recomputes,
* the header's event count, head and body digest match,
* every roll uses the next index, under a commitment published earlier,
* every roll whose seed is public (a public roll, or a revealed Secret roll)
  matches its commitment and recomputes to the recorded dice,
* every sealed record (``cgledger-dice/2``: ``RecordSealed``) has the public
  part of every sealed record, and once revealed, its revealed part matches its
  digest, its seed its commitment and its dice the first dice of its stream
  (``cgledger.verify_sealed``); an export holding one names that protocol in
  its header's ``protocols``,
* every table definition (``TableDefined``) matches its content hash, and every
  visible table roll re-reads, from that recorded definition and its recorded
  dice, DRMs and inputs, to the recorded Original, DRMs, Final and outcome;
  and what a ruleset's command took from its roll is checked by the ruleset
  (e.g. 8.616: the Base # off the chart and the CPP Replenished, or a "-" one
  recorded without a DR), under the readings in force at that event (DESIGN
  §14: those the CG definition chose at creation or in the last approved
  amendment before it, ``cgledger.verify_readings``),
* every determination roll the viewer sees (8.620, 9.618, SG 3.4-3.7) is on
  the table its RG's chart line and the readings in force then give its column
  (``cgledger.verify_determinations``: 8.6206's column under ``leader-columns``,
  8.6203's ``determination_table``, 9.6182's ``sw_columns``),
* every visible table roll that records the DRMs the ledger counted
  (``counted``, issue 26) lists them as the ledger's with their numbers and
  no other DRM as the ledger's, and those whose count depends only on the
  roll's CG Date, its side and the readings in force recompute to it
  (``cgledger.verify_counted``),
* every CG definition (at creation and in each approved amendment) matches
  its recorded sha256,
* every ``UndoApplied`` event names only earlier events in ``reverts`` and
  ``restores``,
* every CG-Scenario End's LVP (start, Current- and CG-LVP Totals; 8.6032-8.6033)
  re-counts from the CG definition and the Control events in force before it
  (``cgledger.projections.lvp``),
* given signed checkpoints (``cgledger.signing``), each is well formed and
  correctly signed (by ``server_key``, when one is pinned), is for this
  campaign, and the export's event at its ``seq`` hashes to its ``head``: a
  log rewritten after the server signed it fails even when the forger re-hashed
  and re-chained every event, and an export that ends before a checkpoint fails
  (the log was cut, or the export is older).

A line may carry an optional ``meta`` object (``cgledger.domain.chain``); its hash
covers it.

The first problem is reported with the ``seq`` of the first bad event.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from cgledger import verify_sealed
from cgledger.domain import dice
from cgledger.domain import tables as tablebook
from cgledger.domain.chain import LINE_FIELDS, META, event_hash, secret_digest
from cgledger.projections.lvp import LvpProjection
from cgledger.signing import CheckpointError, check_checkpoint, key_id
from cgledger.verify_readings import Readings
from cgledger.verify_report import Report, VerificationError
from cgledger.verify_sealed import Sealed
from cgledger.verify_tables import check_rule_result

__all__ = ["HEADER_FIELDS", "PROTOCOLS", "Report", "VerificationError", "verify_bytes"]


def _parse(line: bytes, where: str, seq: int | None) -> dict[str, Any]:
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise VerificationError(f"{where} is not valid JSON ({exc})", seq) from None
    if not isinstance(obj, dict):
        raise VerificationError(f"{where} is not a JSON object", seq)
    try:
        canonical = dice.canon(obj)
    except UnicodeEncodeError:  # a lone surrogate (\ud800) has no UTF-8 form
        raise VerificationError(f"{where} holds text that is not valid Unicode", seq) from None
    if canonical != line:
        raise VerificationError(f"{where} is not in canonical form (edited?)", seq)
    return obj


HEADER_FIELDS = {
    "format",
    "protocol",
    "campaign",
    "ruleset",
    "campaign_name",
    "exported_at",
    "viewer",
    "events",
    "head",
    "body_sha256",
}


#: The header's optional ``protocols`` (an extension of cgledger-export/1): an
#: export that holds sealed records names both versions of the dice protocol.
PROTOCOLS = [dice.PROTOCOL, dice.SEALED]


_FIELDS = frozenset(LINE_FIELDS)
#: A revealed seed as the protocol writes it: 32 bytes in lower-case hex.
_SEED = re.compile(r"[0-9a-f]{64}")
_FIELDS_WITH_META = _FIELDS | {META}


def verify_bytes(
    data: bytes,
    *,
    checkpoints: Sequence[dict[str, Any]] = (),
    server_key: str | None = None,
) -> Report:
    """Verify an export; with ``checkpoints``, also check it against them (and
    their signing key against ``server_key``, when given). Raises
    :class:`VerificationError` on the first problem."""
    lines = data.split(b"\n")
    if not data:
        raise VerificationError("empty export")
    if lines[-1] != b"":
        last = len(lines) - 1
        raise VerificationError(
            "the export does not end with a newline (truncated?)", last if last >= 1 else None
        )
    lines.pop()
    header = _header(lines[0])

    report = Report()
    commitments: dict[int, tuple[str, int]] = {}
    rolls: dict[int, dict[str, Any]] = {}
    revealed_seeds: dict[int, str] = {}
    sealed = Sealed()
    created: dict[str, Any] = {}
    readings = Readings()
    hashes: list[str] = []
    lvp = LvpProjection()
    for n, raw in enumerate(lines[1:], start=1):
        obj = _chained_line(raw, n, report.head)
        seq = n
        report.head = obj["hash"]
        hashes.append(obj["hash"])
        report.events += 1
        try:
            if seq == 1:
                created = _created(obj, header)
            _collect(obj, seq, commitments, rolls, revealed_seeds, sealed, report)
            readings.note(obj, seq)
            lvp.apply(obj)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise VerificationError(f"malformed event ({type(exc).__name__}: {exc})", seq) from None
        if lvp.mismatches:
            bad = lvp.mismatches[0]
            raise VerificationError(
                f"the {bad.event} records {bad.what} {bad.recorded}, but the CG definition "
                f"and the Control events before it give {bad.rebuilt} (8.6032-8.6033)",
                bad.seq,
            )
    report.lvp_rows_checked = lvp.checked

    if header.get("events") != report.events:
        raise VerificationError(
            f"the header counts {header.get('events')} events but the file has {report.events}"
        )
    if not report.events:
        raise VerificationError("the export holds no events")
    if header.get("head") != report.head:
        raise VerificationError("the header's head hash is not the last event's hash")
    body = b"".join(line + b"\n" for line in lines[1:])
    if header.get("body_sha256") != hashlib.sha256(body).hexdigest():
        raise VerificationError("the header's body digest does not match the events")
    if sealed.records and header.get("protocols") != PROTOCOLS:
        raise VerificationError(
            f"the export holds sealed records, but its header does not name {dice.SEALED}",
            min(sealed.records),
        )

    _check_checkpoints(checkpoints, server_key, created["campaign"], hashes, report)

    _check_rolls(created, readings, rolls, commitments, revealed_seeds, sealed, report)
    readings.check_after_rolls(created, sealed)
    return report


def _check_rolls(
    created: dict[str, Any],
    readings: Readings,
    rolls: dict[int, dict[str, Any]],
    commitments: dict[int, tuple[str, int]],
    revealed_seeds: dict[int, str],
    sealed: Sealed,
    report: Report,
) -> None:
    """Every roll in index order (a version 1 roll, or a sealed record with
    a roll index), then the sealed records without one, each under the
    readings in force when it was recorded."""
    # Campaign and ruleset come from the hashed CampaignCreated event, never from
    # the header, so an edited header cannot change what is checked.
    for index in sorted(rolls):
        obj = rolls[index]
        at = readings.as_of(created, obj["seq"])
        try:
            if obj["type"] == verify_sealed.RECORD:
                verify_sealed.check(at, obj, commitments, sealed, report)
            else:
                _check_roll(at, index, obj, commitments, revealed_seeds, report)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise VerificationError(
                f"malformed roll {index} ({type(exc).__name__}: {exc})", obj["seq"]
            ) from None
    for seq, obj in sealed.records.items():
        if "roll" in obj["payload"]:
            continue  # checked with the rolls
        try:
            verify_sealed.check(readings.as_of(created, seq), obj, commitments, sealed, report)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise VerificationError(
                f"malformed sealed record ({type(exc).__name__}: {exc})", seq
            ) from None


def _chained_line(raw: bytes, n: int, head: str) -> dict[str, Any]:
    """Event line ``n``: canonical, at its place, with its fields, chained onto
    ``head`` and hashing to its ``hash``."""
    obj = _parse(raw, f"line {n + 1}", n)
    seq = obj.get("seq")
    if type(seq) is not int or seq != n:
        raise VerificationError(f"expected seq {n}, found {seq!r} (missing or moved)", n)
    if obj.keys() != _FIELDS and obj.keys() != _FIELDS_WITH_META:
        raise VerificationError("unexpected or missing fields", seq)
    if META in obj and not isinstance(obj[META], dict):
        raise VerificationError(f"{META} is not a JSON object", seq)
    if obj["prev_hash"] != head:
        raise VerificationError("prev_hash does not match the previous event's hash", seq)
    if event_hash(obj) != obj["hash"]:
        raise VerificationError("hash does not match the event's content (edited?)", seq)
    if obj["secret"] is not None and secret_digest(obj["secret"]) != obj["secret_digest"]:
        raise VerificationError("the secret part does not match its digest (edited?)", seq)
    return obj


def _check_checkpoints(
    checkpoints: Sequence[dict[str, Any]],
    server_key: str | None,
    campaign: str,
    hashes: list[str],
    report: Report,
) -> None:
    """Each checkpoint must be well signed, for this campaign, within the export,
    and its ``head`` the hash of the export's event at its ``seq``. Checked in
    seq order, so a rewrite is reported at the first checkpoint it breaks."""
    checked = []
    for number, cp in enumerate(checkpoints, start=1):
        try:
            check_checkpoint(cp, server_key=server_key)
        except CheckpointError as exc:
            raise VerificationError(f"checkpoint {number}: {exc}") from None
        if cp["campaign"] != campaign:
            raise VerificationError(
                f"checkpoint {number} is for campaign {cp['campaign']!r}, "
                f"but the export is of campaign {campaign!r}"
            )
        checked.append(cp)
    for cp in sorted(checked, key=lambda c: int(c["seq"])):
        seq = cp["seq"]
        if seq > len(hashes):
            raise VerificationError(
                f"checkpoint at seq {seq} but the export ends at seq {len(hashes)} "
                "(the log was cut, or the export is older than the checkpoint)"
            )
        if hashes[seq - 1] != cp["head"]:
            raise VerificationError(
                f"the log was rewritten under the checkpoint signed at {cp['time']}: "
                f"event {seq} hashes to {hashes[seq - 1][:16]}…, but the server signed "
                f"{cp['head'][:16]}…",
                seq=seq,
            )
        report.checkpoints_checked += 1
        kid = key_id(cp["key"])
        if kid not in report.checkpoint_keys:
            report.checkpoint_keys.append(kid)


def _header(line: bytes) -> dict[str, Any]:
    header = _parse(line, "the header line", None)
    if set(header) - {"protocols"} != HEADER_FIELDS:
        raise VerificationError("the header's fields are not those of cgledger-export/1")
    if "protocols" in header and header["protocols"] != PROTOCOLS:
        raise VerificationError(f"the header's protocols are not {', '.join(PROTOCOLS)}")
    if header["format"] != "cgledger-export/1" or header["protocol"] != dice.PROTOCOL:
        raise VerificationError(f"the header does not name cgledger-export/1 and {dice.PROTOCOL}")
    return header


def _created(obj: dict[str, Any], header: dict[str, Any]) -> dict[str, Any]:
    """Event 1 must create the campaign; the header must agree with it."""
    if obj["type"] != "CampaignCreated":
        raise VerificationError("the first event is not CampaignCreated", 1)
    payload = obj["payload"]
    created = {k: payload[k] for k in ("campaign", "ruleset", "campaign_name")}
    if not all(isinstance(v, str) for v in created.values()):
        raise TypeError("campaign, ruleset and campaign_name must be strings")
    if payload["protocol"] != dice.PROTOCOL:
        raise VerificationError(f"the campaign does not use {dice.PROTOCOL}", 1)
    for key, value in created.items():
        if header.get(key) != value:
            raise VerificationError(
                f"the header's {key} {header.get(key)!r} is not the campaign's {value!r}"
            )
    return created


def _collect(
    obj: dict[str, Any],
    seq: int,
    commitments: dict[int, tuple[str, int]],
    rolls: dict[int, dict[str, Any]],
    revealed_seeds: dict[int, str],
    sealed: Sealed,
    report: Report,
) -> None:
    payload = obj["payload"]
    if obj["type"] == verify_sealed.RECORD:
        sealed.record(obj, seq)
    if obj["type"] == "CommitmentsPublished":
        first = payload["first_index"]
        for k, c in enumerate(payload["commitments"]):
            if first + k in commitments:
                raise VerificationError(f"roll index {first + k} committed twice", seq)
            commitments[first + k] = (c, seq)
    roll = payload.get("roll")
    if isinstance(roll, dict):
        index = roll.get("index")
        if index != len(rolls):
            raise VerificationError(f"roll index {index} out of order (expected {len(rolls)})", seq)
        rolls[index] = obj
        report.rolls += 1
    if obj["type"] == "TableDefined":
        digest = payload["hash"]
        if tablebook.table_hash(payload["definition"]) != digest:
            raise VerificationError("the table definition does not match its hash", seq)
        if digest in report.tables:
            raise VerificationError(f"table definition {digest[:12]} recorded twice", seq)
        report.tables[digest] = (payload["definition"], seq)
    if obj["type"] in ("CampaignCreated", "DefinitionAmended"):
        # DESIGN §7: a CG definition is recorded with its sha256 over canon.
        doc = payload.get("definition")
        recorded = payload.get("definition_hash", payload.get("hash"))
        if doc is not None and (
            not isinstance(doc, dict) or hashlib.sha256(dice.canon(doc)).hexdigest() != recorded
        ):
            raise VerificationError("the CG definition does not match its hash", seq)
    if obj["type"] == "UndoApplied":
        for key in ("reverts", "restores"):
            listed = payload[key]
            if not isinstance(listed, list):
                raise VerificationError(f"the undo's {key} is not a list", seq)
            for target in listed:
                if type(target) is not int or not 1 <= target < seq:
                    raise VerificationError(
                        f"the undo {key} {target!r}: an undo may only name earlier events", seq
                    )
    if verify_sealed.is_reveal(obj):
        sealed.reveal(obj, seq)
    elif obj["type"] == "SecretRevealed":
        if type(payload["of_seq"]) is not int or not 1 <= payload["of_seq"] < seq:
            raise VerificationError("a reveal must follow the event it reveals", seq)
        sealed.refuse_v1_reveal(payload, seq)
        if "seed" in payload:
            index = payload["index"]
            if index not in rolls or rolls[index]["seq"] != payload["of_seq"]:
                raise VerificationError(f"the reveal names roll {index!r} wrongly", seq)
            if index in revealed_seeds:
                raise VerificationError(f"roll {index} is revealed twice", seq)
            revealed_seeds[index] = payload["seed"]


def _check_roll(
    created: dict[str, Any],
    index: int,
    obj: dict[str, Any],
    commitments: dict[int, tuple[str, int]],
    revealed_seeds: dict[int, str],
    report: Report,
) -> None:
    seq = obj["seq"]
    roll = obj["payload"]["roll"]
    published = commitments.get(index)
    if published is None or published[1] >= seq:
        raise VerificationError(f"roll {index} has no commitment published before it", seq)
    if roll["commitment"] != published[0]:
        raise VerificationError(f"roll {index} does not use its published commitment", seq)
    count = roll["count"]
    if type(count) is not int or count not in (1, 2):
        raise VerificationError(f"roll {index} has {count!r} dice; 1 or 2 allowed", seq)
    if type(roll["secret"]) is not bool:
        raise VerificationError(f"roll {index} has no boolean 'secret' flag", seq)
    if roll["secret"]:
        seed_hex = revealed_seeds.get(index)
        recorded = obj["secret"]["dice"] if obj["secret"] is not None else None
        if seed_hex is not None and recorded is None:
            raise VerificationError(f"roll {index} was revealed but its dice are missing", seq)
    else:
        seed_hex = roll["seed"]
        recorded = roll["dice"]
    if recorded is None:
        report.rolls_hidden += 1
        return
    if (
        not isinstance(recorded, list)
        or len(recorded) != count
        or any(type(d) is not int or not 1 <= d <= 6 for d in recorded)
    ):
        raise VerificationError(f"roll {index} records {recorded!r}, not {count} dice", seq)
    if seed_hex is None:
        # An owner's or referee's export: the dice are visible, the seed not yet.
        report.rolls_hidden += 1
    else:
        if not isinstance(seed_hex, str) or not _SEED.fullmatch(seed_hex):
            raise VerificationError(f"the seed of roll {index} is not 64 hex digits", seq)
        seed = bytes.fromhex(seed_hex)
        if dice.commitment(created["campaign"], index, seed) != roll["commitment"]:
            raise VerificationError(f"the seed of roll {index} does not match its commitment", seq)
        expected = dice.roll(
            seed,
            campaign=created["campaign"],
            index=index,
            client_nonce=roll["client_nonce"],
            dice=count,
            purpose=roll["purpose"],
            side=roll["side"],
        )
        if expected != recorded:
            raise VerificationError(
                f"roll {index} recomputes to {expected}, but {recorded} is recorded", seq
            )
        report.rolls_recomputed += 1
    check_rule_result(created, obj, recorded, report)
