"""Backup and restore (``ops/backup``, ``ops/restore``): a campaign with public
and Secret rolls and a reveal is backed up, restored into a fresh database and
data dir, answers the same, its export verifies, a sealed roll can still be
revealed, and the next roll follows on."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from cgledger.backup import MANIFEST, BackupError, backup, restore
from cgledger.domain.visibility import REFEREE
from cgledger.projections.eventlog import export_jsonl
from cgledger.service import Ledger
from cgledger.settings import Settings
from cgledger.verify import verify_bytes

pytestmark = pytest.mark.store

ROOT = Path(__file__).resolve().parent.parent


def _roll(led: Ledger, cid: str, secret: bool) -> int:
    done = led.execute(
        cid,
        "US",
        lambda c, ctx: c.roll(ctx, count=2, purpose="b", secret=secret, client_nonce=None),
        operation="roll",
        body={"secret": secret, "n": uuid.uuid4().hex},
    )
    return done.seq


def _campaign(settings: Settings) -> tuple[str, list[int], int]:
    led = Ledger(settings)
    try:
        cid = led.create_campaign(
            ruleset="kgp",
            campaign="CG I",
            title="backup",
            start_date=None,
            initial_cpp=None,
            idempotency_key=None,
            request_fingerprint="b",
        ).campaign.cid
        rolls = [_roll(led, cid, secret=i % 2 == 1) for i in range(6)]
        led.execute(cid, "US", lambda c, ctx: c.reveal(ctx, rolls[1]), operation="r", body={})
        return cid, rolls, led.load(cid).version
    finally:
        led.close()


def _export(led: Ledger, cid: str) -> bytes:
    campaign = led.load(cid)
    header = {"campaign": cid, "ruleset": "kgp", "campaign_name": "CG I", "exported_at": "t"}
    return export_jsonl(header, led.records(campaign), REFEREE, campaign.is_revealed)


@pytest.fixture
def target(settings: Settings, tmp_path: Path) -> Iterator[Settings]:
    """A fresh database and data dir of the same kind as ``settings``."""
    data = tmp_path / "restored"
    if not settings.database_url:
        yield Settings(data_dir=data)
        return
    name = f"cgledger_restore_{uuid.uuid4().hex[:8]}"
    admin_url = urlunsplit(urlsplit(settings.database_url)._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = urlunsplit(urlsplit(settings.database_url)._replace(path=f"/{name}"))
            yield Settings(data_dir=data, database_url=url)
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restored_backup_answers_the_same_and_verifies(
    settings: Settings, target: Settings, tmp_path: Path
) -> None:
    cid, rolls, version = _campaign(settings)
    before = Ledger(settings)
    try:
        exported = _export(before, cid)
    finally:
        before.close()
    manifest = backup(settings, tmp_path / "backup")
    assert "keys" in manifest["warning"]
    restore(target, tmp_path / "backup")
    after = Ledger(target)  # starts: the restored keys match the restored database
    try:
        assert after.load(cid).version == version
        assert _export(after, cid) == exported
        assert verify_bytes(_export(after, cid)).events == version
        # A sealed seed opens with the restored key; the next roll follows on.
        after.execute(cid, "US", lambda c, ctx: c.reveal(ctx, rolls[3]), operation="r", body={})
        assert after.load(cid).is_revealed(rolls[3])
        assert _roll(after, cid, secret=False) == version + 2
        assert verify_bytes(_export(after, cid)).events == version + 2
    finally:
        after.close()


def test_restore_refuses_a_target_with_data_and_an_altered_backup(
    settings: Settings, target: Settings, tmp_path: Path
) -> None:
    _campaign(settings)
    backup(settings, tmp_path / "backup")
    restore(target, tmp_path / "backup")
    with pytest.raises(BackupError, match=r"not empty|exists"):
        restore(target, tmp_path / "backup")
    with pytest.raises(BackupError, match="not empty"):
        backup(settings, tmp_path / "backup")
    seed = tmp_path / "backup" / "seed.key"
    seed.write_bytes(bytes(32))
    with pytest.raises(BackupError, match="altered"):
        restore(target, tmp_path / "backup", force=True)


def test_the_ops_scripts_back_up_and_restore(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    cid, _, version = _campaign(settings)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CGLEDGER_")}
    script = subprocess.run(
        [str(ROOT / "ops" / "backup"), str(tmp_path / "b")],
        env={**env, "CGLEDGER_DATA_DIR": str(settings.data_dir)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert script.returncode == 0, script.stderr
    assert "WARNING" in script.stderr
    assert (tmp_path / "b" / MANIFEST).exists()
    script = subprocess.run(
        [str(ROOT / "ops" / "restore"), str(tmp_path / "b")],
        env={**env, "CGLEDGER_DATA_DIR": str(tmp_path / "again")},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert script.returncode == 0, script.stderr
    led = Ledger(Settings(data_dir=tmp_path / "again"))
    try:
        assert led.load(cid).version == version
    finally:
        led.close()
    script = subprocess.run(
        [str(ROOT / "ops" / "restore"), str(tmp_path / "b")],
        env={**env, "CGLEDGER_DATA_DIR": str(tmp_path / "again")},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert script.returncode == 2
    assert "exists" in script.stderr
