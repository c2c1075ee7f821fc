"""Signed checkpoints (``cgledger.signing``) and ``cgledger verify --checkpoint``.

A checkpoint is the server's Ed25519 signature over ``(campaign, seq, head,
time)``. The hash chain alone cannot tell a log rewritten and fully re-hashed
by whoever holds the database from the original; a checkpoint kept by a player
can. The verifier tests build a real export with the ``ledger`` fixture (SQLite
and PostgreSQL), sign checkpoints over it, then rewrite, cut and forge.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import kgp_commands as kgpc
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from forge import join, parse, reseal, seal_header, split

from cgledger.cli import main
from cgledger.domain.dice import canon
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.sealing import load_or_create_key, load_or_create_secret
from cgledger.service import Ledger
from cgledger.settings import Settings
from cgledger.signing import (
    CheckpointError,
    CheckpointSigner,
    check_checkpoint,
    checkpoint_message,
    load_or_create_signing_key,
)
from cgledger.verify import Report, VerificationError, verify_bytes

#: RFC 8032, section 7.1, TEST 1: an Ed25519 seed and its public key.
RFC_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
SEED = bytes(range(32))
OTHER_SEED = bytes(range(1, 33))
HEAD = hashlib.sha256(b"some event").hexdigest()
TIME = "2024-12-19T10:00:00.000000Z"


@pytest.fixture
def signer() -> CheckpointSigner:
    return CheckpointSigner(SEED)


@pytest.fixture
def cp(signer: CheckpointSigner) -> dict[str, Any]:
    return signer.sign("c-1", 7, HEAD, TIME)


def rejected(cp: Any, match: str, **kwargs: Any) -> CheckpointError:
    with pytest.raises(CheckpointError, match=match) as info:
        check_checkpoint(cp, **kwargs)
    return info.value


# --------------------------------------------------------------------- signing


def test_the_key_is_plain_ed25519() -> None:
    assert CheckpointSigner(RFC_SEED).public_key_hex == RFC_PUBLIC


def test_sign_and_check_round_trip(signer: CheckpointSigner, cp: dict[str, Any]) -> None:
    public = signer.public_key_hex
    assert cp == {
        "campaign": "c-1",
        "seq": 7,
        "head": HEAD,
        "time": TIME,
        "algorithm": "Ed25519",
        "key": public,
        "signature": cp["signature"],
    }
    assert len(cp["signature"]) == 128
    assert check_checkpoint(cp) is cp
    assert check_checkpoint(cp, server_key=public) is cp
    assert check_checkpoint(cp, server_key=public.upper()) is cp
    assert signer.key_id == hashlib.sha256(bytes.fromhex(public)).hexdigest()[:16]
    assert signer.server_key() == {
        "algorithm": "Ed25519",
        "public_key": public,
        "key_id": signer.key_id,
    }

    # The message is the contract's, checked here independently of the module.
    message = checkpoint_message("c-1", 7, HEAD, TIME)
    body = f'{{"campaign":"c-1","head":"{HEAD}","seq":7,"time":"{TIME}"}}'
    assert message == b"cgledger/v1/checkpoint\n" + body.encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(
        bytes.fromhex(cp["signature"]), message
    )
    # Ed25519 is deterministic; another key gives another signature.
    assert signer.sign("c-1", 7, HEAD, TIME) == cp
    assert CheckpointSigner(OTHER_SEED).sign("c-1", 7, HEAD, TIME)["signature"] != cp["signature"]


def test_key_file_is_created_once_with_mode_0600_and_reused(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    seed = load_or_create_signing_key(data_dir, None)
    path = data_dir / "checkpoint.key"
    assert len(seed) == 32
    assert path.read_bytes() == seed
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in data_dir.iterdir()) == ["checkpoint.key"]  # no temp file left
    assert load_or_create_signing_key(data_dir, None) == seed
    assert CheckpointSigner(load_or_create_signing_key(data_dir, None)).public_key_hex == (
        CheckpointSigner(seed).public_key_hex
    )
    # Another data directory, another key; the seed key is a separate file.
    assert load_or_create_signing_key(tmp_path / "other", None) != seed
    assert load_or_create_key(data_dir, None) != seed
    assert (data_dir / "seed.key").stat().st_mode & 0o777 == 0o600

    path.write_bytes(seed[:31])
    with pytest.raises(ValueError, match="exactly 32 bytes"):
        load_or_create_signing_key(data_dir, None)


def test_generic_secret_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "x.key"
    secret = load_or_create_secret(path, 48)
    assert len(secret) == 48
    assert path.stat().st_mode & 0o777 == 0o600
    assert load_or_create_secret(path, 48) == secret
    with pytest.raises(ValueError, match="exactly 32 bytes"):
        load_or_create_secret(path)


def test_hex_signing_key_is_used_instead_of_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CGLEDGER_SIGNING_KEY", RFC_SEED.hex())
    settings = Settings(data_dir=tmp_path / "data")
    assert settings.signing_key == RFC_SEED.hex()
    seed = load_or_create_signing_key(settings.data_dir, settings.signing_key)
    assert seed == RFC_SEED
    assert CheckpointSigner(seed).public_key_hex == RFC_PUBLIC
    assert not (tmp_path / "data" / "checkpoint.key").exists()
    for bad in ("zz" * 32, RFC_SEED.hex()[:-2], RFC_SEED.hex() + "00"):
        with pytest.raises(ValueError, match="64 hex digits"):
            load_or_create_signing_key(tmp_path, bad)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("campaign", "c-2"),
        ("seq", 8),
        ("head", hashlib.sha256(b"another event").hexdigest()),
        ("time", "2024-12-19T10:00:00.000001Z"),
        ("key", CheckpointSigner(OTHER_SEED).public_key_hex),
    ],
)
def test_every_signed_field_changed_is_rejected(cp: dict[str, Any], field: str, value: Any) -> None:
    assert cp[field] != value
    rejected({**cp, field: value}, "does not verify")


def test_a_changed_signature_is_rejected(cp: dict[str, Any]) -> None:
    sig = cp["signature"]
    for pos in (0, 63, 64, 127):
        flipped = sig[:pos] + ("0" if sig[pos] != "0" else "1") + sig[pos + 1 :]
        rejected({**cp, "signature": flipped}, "does not verify")
    # Another key's signature over the same message, with its key: valid, but
    # not the server's (see the server_key test below).
    other = CheckpointSigner(OTHER_SEED).sign("c-1", 7, HEAD, TIME)
    rejected({**cp, "signature": other["signature"]}, "does not verify")


@pytest.mark.parametrize(
    "field", ["campaign", "seq", "head", "time", "algorithm", "key", "signature"]
)
def test_a_missing_field_is_rejected(cp: dict[str, Any], field: str) -> None:
    rejected({k: v for k, v in cp.items() if k != field}, f"missing {field}")


def test_an_extra_field_is_rejected(cp: dict[str, Any]) -> None:
    rejected({**cp, "note": "hi"}, "unexpected note")
    rejected({**cp, "meta": {}}, "unexpected meta")


@pytest.mark.parametrize(
    ("field", "value", "match"),
    [
        ("seq", True, "seq must be an integer"),
        ("seq", 0, "seq must be an integer"),
        ("seq", -1, "seq must be an integer"),
        ("seq", "7", "seq must be an integer"),
        ("seq", 7.0, "seq must be an integer"),
        ("campaign", 1, "campaign must be a string"),
        ("time", None, "time must be a string"),
        ("head", HEAD.upper(), "head must be 64 lowercase hex"),
        ("head", HEAD[:-1], "head must be 64 lowercase hex"),
        ("head", HEAD + "\n", "head must be 64 lowercase hex"),
        ("algorithm", "ed25519", "algorithm must be 'Ed25519'"),
        ("key", "00" * 31, "key must be 64 lowercase hex"),
        ("signature", "00" * 63, "signature must be 128 lowercase hex"),
        ("signature", None, "signature must be 128 lowercase hex"),
    ],
)
def test_a_malformed_field_is_rejected(
    cp: dict[str, Any], field: str, value: Any, match: str
) -> None:
    rejected({**cp, field: value}, match)


def test_bool_seq_is_rejected_even_when_the_signature_matches(signer: CheckpointSigner) -> None:
    """canon(True) is ``true``, not ``1``; a bool seq is refused before the signature."""
    cp = signer.sign("c-1", 1, HEAD, TIME)
    check_checkpoint(cp)
    rejected({**cp, "seq": True}, "seq must be an integer")


def test_not_an_object_is_rejected(cp: dict[str, Any]) -> None:
    for bad in (None, [cp], json.dumps(cp), 7):
        rejected(bad, "must be a JSON object")


def test_server_key_mismatch_is_rejected(signer: CheckpointSigner, cp: dict[str, Any]) -> None:
    other = CheckpointSigner(OTHER_SEED)
    forged = other.sign("c-1", 7, HEAD, TIME)
    check_checkpoint(forged)  # well signed, by some key...
    err = rejected(forged, "not by the server's key", server_key=signer.public_key_hex)
    assert other.key_id in str(err)
    assert signer.key_id in str(err)
    rejected(cp, "not by the server's key", server_key=other.public_key_hex)
    rejected(cp, "server key must be 64 hex", server_key="abc")


# --------------------------------------------------------------------- a real export


@dataclass
class Export:
    data: bytes
    cid: str
    records: list[dict[str, Any]]

    @property
    def n(self) -> int:
        return len(self.records)

    def head(self, seq: int) -> str:
        head: str = self.records[seq - 1]["hash"]
        return head


@pytest.fixture
def export(ledger: Ledger) -> Export:
    made = ledger.create_campaign(
        ruleset="kgp",
        campaign="CG I",
        title="checkpoints",
        start_date=None,
        initial_cpp={"German": 2},
        idempotency_key=None,
        request_fingerprint="create",
    )
    cid = made.campaign.cid

    def run(role: str, command: Any) -> int:
        return ledger.execute(cid, role, command, operation="op", body={}).seq

    # The Initial Scenario (19 AM) is played to its end (8.6121), then 19 PM begins.
    for side in ("US", "German"):
        run(REFEREE, lambda c, ctx, side=side: c.advance(ctx, side, "scenario"))
    run(REFEREE, lambda c, ctx: c.end_scenario(ctx, {"cvp": {"US": 0, "German": 0}}))
    run(REFEREE, lambda c, ctx: c.begin_cg_date(ctx, None))
    assert ledger.load(cid).cg_date == "19 PM"
    run("German", lambda c, ctx: kgpc.replenish_cpp(c, ctx, "German", None))
    for secret in (False, True, False):
        run(
            "US",
            lambda c, ctx, s=secret: c.roll(
                ctx, count=2, purpose="free", secret=s, client_nonce=None
            ),
        )
    run("US", lambda c, ctx: c.reveal_roll(ctx, c.roll_count - 2))
    campaign = ledger.load(cid)
    records = ledger.records(campaign)
    data = export_jsonl(
        {"campaign": cid, "ruleset": "kgp", "campaign_name": "CG I", "exported_at": TIME},
        records,
        REFEREE,
        campaign.is_revealed,
    )
    assert verify_bytes(data).events == len(records) == campaign.version >= 8
    return Export(data, cid, records)


def signed(ex: Export, signer: CheckpointSigner, *seqs: int) -> list[dict[str, Any]]:
    return [signer.sign(ex.cid, s, ex.head(s), f"2024-12-19T10:00:{s:02d}.000000Z") for s in seqs]


def some_seqs(ex: Export) -> tuple[int, ...]:
    return (2, ex.n // 2, ex.n)


def vfails(data: bytes, checkpoints: list[dict[str, Any]], **kw: Any) -> VerificationError:
    with pytest.raises(VerificationError) as info:
        verify_bytes(data, checkpoints=checkpoints, **kw)
    return info.value


def rewrite(ex: Export, k: int) -> bytes:
    """Event ``k`` changed (its time), then every hash, link and the header redone."""
    header, events = parse(ex.data)
    events[k - 1]["recorded_at"] = "2024-12-19T23:59:59.999999Z"
    return reseal(header, events)


@pytest.mark.store
def test_the_export_verifies_with_its_checkpoints(export: Export, signer: CheckpointSigner) -> None:
    cps = signed(export, signer, *some_seqs(export))
    report: Report = verify_bytes(export.data, checkpoints=cps)
    assert report.checkpoints_checked == 3
    assert report.checkpoint_keys == [signer.key_id]
    report = verify_bytes(export.data, checkpoints=cps[::-1], server_key=signer.public_key_hex)
    assert report.checkpoints_checked == 3
    assert verify_bytes(export.data).checkpoints_checked == 0
    # Every seq of the log, too.
    everyone = signed(export, signer, *range(1, export.n + 1))
    assert verify_bytes(export.data, checkpoints=everyone).checkpoints_checked == export.n


def test_a_rewritten_log_fails_at_the_first_checkpoint_it_breaks(
    export: Export, signer: CheckpointSigner
) -> None:
    seqs = some_seqs(export)
    cps = signed(export, signer, *seqs)
    for k in range(1, export.n + 1):
        data = rewrite(export, k)
        assert data != export.data
        verify_bytes(data)  # the chain alone cannot tell
        err = vfails(data, cps[::-1])
        expected = min(s for s in seqs if s >= k)
        assert err.seq == expected, (k, err)
        assert f"seq {expected}: the log was rewritten under the checkpoint signed at " in str(err)
        assert cps[seqs.index(expected)]["time"] in str(err)
    # A change after the last checkpoint is not covered by it.
    only_early = signed(export, signer, 2)
    assert verify_bytes(rewrite(export, 3), checkpoints=only_early).checkpoints_checked == 1


def test_a_checkpoint_beyond_the_end_of_the_export_fails(
    export: Export, signer: CheckpointSigner
) -> None:
    beyond = signer.sign(export.cid, export.n + 1, export.head(export.n), TIME)
    err = vfails(export.data, [beyond])
    assert (
        f"checkpoint at seq {export.n + 1} but the export ends at seq {export.n} "
        "(the log was cut, or the export is older than the checkpoint)"
    ) in str(err)
    # A log cut (and its header fixed up) under a checkpoint of its last event.
    header, events = parse(export.data)
    cut = seal_header(header, events[:-2])
    verify_bytes(cut)
    err = vfails(cut, signed(export, signer, export.n))
    assert f"the export ends at seq {export.n - 2}" in str(err)


def test_a_checkpoint_of_another_campaign_fails(export: Export, signer: CheckpointSigner) -> None:
    other = signer.sign("another-campaign", 2, export.head(2), TIME)
    err = vfails(export.data, [*signed(export, signer, 1), other])
    assert "checkpoint 2 is for campaign 'another-campaign'" in str(err)
    assert export.cid in str(err)


def test_a_forged_signature_fails(export: Export, signer: CheckpointSigner) -> None:
    good = signed(export, signer, *some_seqs(export))
    sig = good[1]["signature"]
    forged = {**good[1], "signature": ("1" if sig[0] == "0" else "0") + sig[1:]}
    err = vfails(export.data, [good[0], forged, good[2]])
    assert "checkpoint 2: the signature of the checkpoint at seq" in str(err)
    assert err.seq is None
    # A checkpoint whose head was moved to a rewritten log, without re-signing.
    rewritten = rewrite(export, 2)
    _, events = parse(rewritten)
    moved = {**good[0], "head": events[1]["hash"]}
    assert "does not verify" in str(vfails(rewritten, [moved]))
    # Malformed checkpoints are verification failures too.
    assert "seq must be an integer" in str(vfails(export.data, [{**good[0], "seq": True}]))
    assert "JSON object" in str(vfails(export.data, ["not a checkpoint"]))


def test_server_key_mismatch_fails(export: Export, signer: CheckpointSigner) -> None:
    """Whoever rewrites the log can sign it with a key of their own: only a
    pinned server key tells."""
    mallory = CheckpointSigner(OTHER_SEED)
    rewritten = rewrite(export, 2)
    _, events = parse(rewritten)
    forged = [mallory.sign(export.cid, 2, events[1]["hash"], TIME)]
    assert verify_bytes(rewritten, checkpoints=forged).checkpoint_keys == [mallory.key_id]
    err = vfails(rewritten, forged, server_key=signer.public_key_hex)
    assert "not by the server's key" in str(err)
    err = vfails(export.data, signed(export, signer, 2), server_key=mallory.public_key_hex)
    assert "not by the server's key" in str(err)


# --------------------------------------------------------------------- meta and undo lines


def test_a_line_with_meta_verifies_and_an_edited_meta_fails(export: Export) -> None:
    header, events = parse(export.data)
    k = 3
    events[k - 1]["meta"] = {"request_id": "req-1", "idempotency_key": None}
    data = reseal(header, events)
    assert verify_bytes(data).events == export.n
    lines = split(data)
    assert b'"meta":{"idempotency_key":null,"request_id":"req-1"}' in lines[k]

    edited = lines[k].replace(b'"req-1"', b'"req-2"')
    with pytest.raises(VerificationError, match=f"seq {k}: hash does not match") as info:
        verify_bytes(join([*lines[:k], edited, *lines[k + 1 :]]))
    assert info.value.seq == k
    dropped = json.loads(lines[k])
    del dropped["meta"]
    with pytest.raises(VerificationError, match=f"seq {k}: hash does not match"):
        verify_bytes(join([*lines[:k], canon(dropped), *lines[k + 1 :]]))


@pytest.mark.parametrize(("key", "value"), [("meta", "req-1"), ("meta", None), ("extra", {})])
def test_meta_must_be_an_object_and_no_other_field_is_allowed(
    export: Export, key: str, value: Any
) -> None:
    header, events = parse(export.data)
    events[2][key] = value  # hashed when it is meta; an unknown field the hash ignores
    with pytest.raises(VerificationError, match="seq 3: ") as info:
        verify_bytes(reseal(header, events))
    assert ("meta is not a JSON object" if key == "meta" else "unexpected") in str(info.value)


def with_undo(ex: Export, payload: dict[str, Any]) -> bytes:
    header, events = parse(ex.data)
    events.append(
        {
            **events[-1],
            "seq": ex.n + 1,
            "type": "UndoApplied",
            "actor": "US",
            "payload": payload,
            "secret_digest": "",
            "secret": None,
        }
    )
    return reseal(header, events)


def test_undo_may_name_only_earlier_events(export: Export) -> None:
    n = export.n
    ok = verify_bytes(with_undo(export, {"reverts": [n, n - 1], "restores": [1]}))
    assert ok.events == n + 1
    verify_bytes(with_undo(export, {"reverts": [], "restores": [], "note": "other fields pass"}))
    for key in ("reverts", "restores"):
        for bad in (n + 1, n + 2, 0, -1, True, "3", 2.0, None):
            payload = {"reverts": [n], "restores": []}
            payload[key] = [*payload[key], bad]
            with pytest.raises(VerificationError, match=f"seq {n + 1}: the undo {key}"):
                verify_bytes(with_undo(export, payload))
        with pytest.raises(VerificationError, match=f"seq {n + 1}: the undo's {key} is not a list"):
            verify_bytes(with_undo(export, {"reverts": [], "restores": [], key: n}))
    with pytest.raises(VerificationError, match=f"seq {n + 1}: malformed event"):
        verify_bytes(with_undo(export, {"reverts": [n]}))


# --------------------------------------------------------------------- the CLI


def cli(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    code = main(["verify", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.store
def test_cli_end_to_end(
    export: Export, signer: CheckpointSigner, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "export.jsonl"
    path.write_bytes(export.data)
    cps = signed(export, signer, *some_seqs(export))
    one = tmp_path / "one.json"
    one.write_text(json.dumps(cps[0]))
    many = tmp_path / "many.json"
    many.write_text(json.dumps(cps[1:], indent=2))
    lines = tmp_path / "cps.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n\n" for c in cps))

    code, out, err = cli(capsys, path)
    assert (code, err) == (0, "")
    assert out.startswith(f"OK {path}: {export.n} events")
    assert "checkpoints" not in out

    pinned = ("--server-key", signer.public_key_hex)
    code, out, err = cli(capsys, path, "--checkpoint", one, "--checkpoint", many, *pinned)
    assert (code, err) == (0, "")
    assert f"3 checkpoints checked (key {signer.key_id})\n" in out

    code, out, err = cli(capsys, path, "--checkpoint", lines)
    assert (code, err) == (0, "")
    assert f"3 checkpoints checked (key {signer.key_id}); not pinned" in out

    code, out, err = cli(capsys, path, "--checkpoint", json.dumps(cps[2]))
    assert (code, err) == (0, "")
    assert f"1 checkpoints checked (key {signer.key_id})" in out

    # Exit 1: a rewritten log, a foreign key, a bad checkpoint.
    rewritten = tmp_path / "rewritten.jsonl"
    rewritten.write_bytes(rewrite(export, 3))
    code, out, err = cli(capsys, rewritten, "--checkpoint", lines)
    assert (code, out) == (1, "")
    assert f"FAILED {rewritten}: seq {some_seqs(export)[1]}: the log was rewritten" in err
    assert cli(capsys, rewritten)[0] == 0

    mallory = CheckpointSigner(OTHER_SEED).public_key_hex
    code, out, err = cli(capsys, path, "--checkpoint", one, "--server-key", mallory)
    assert (code, out) == (1, "")
    assert "not by the server's key" in err
    code, out, err = cli(capsys, path, "--checkpoint", json.dumps({**cps[0], "seq": 3}))
    assert (code, out) == (1, "")
    assert "does not verify" in err

    # Exit 2: checkpoint arguments that cannot be read or parsed.
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json\n")
    scalars = tmp_path / "scalars.json"
    scalars.write_text("[1, 2]")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe")
    for args, message in [
        (("--checkpoint", tmp_path / "missing.json"), "cannot read checkpoint file"),
        (("--checkpoint", garbage), "neither JSON nor JSON Lines"),
        (("--checkpoint", "{not json"), "neither JSON nor JSON Lines"),
        (("--checkpoint", scalars), "must hold checkpoint objects"),
        (("--checkpoint", empty), "must hold checkpoint objects"),
        (("--checkpoint", binary), "cannot read checkpoint file"),
        (("--checkpoint", one, "--server-key", "xyz"), "--server-key must be 64 hex digits"),
        (("--server-key", signer.public_key_hex), "--server-key needs at least one --checkpoint"),
    ]:
        code, out, err = cli(capsys, path, *args)
        assert (code, out) == (2, ""), (args, err)
        assert err.startswith("cgledger verify: "), (args, err)
        assert message in err, (args, err)


def test_the_key_file_mode_is_private_even_with_a_permissive_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        load_or_create_signing_key(tmp_path, None)
    finally:
        os.umask(old)
    assert (tmp_path / "checkpoint.key").stat().st_mode & 0o777 == 0o600
