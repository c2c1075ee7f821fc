"""DESIGN §11: every server on one database uses the same sealing and signing
keys; a server with other keys refuses to start and says why, instead of
answering 500 later on the first sealed seed it cannot open."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cgledger.service import KeyMismatch, Ledger
from cgledger.settings import SQLITE_FILE, Settings
from cgledger.signing import check_checkpoint

pytestmark = pytest.mark.store


def _other_keys(settings: Settings, data_dir: Path) -> Settings:
    """Another server on the same database, with its own data dir (own keys)."""
    if settings.database_url:
        return settings.model_copy(update={"data_dir": data_dir})
    # SQLite: the same file, reached from another data dir.
    data_dir.mkdir(parents=True)
    (data_dir / SQLITE_FILE).symlink_to((settings.data_dir / SQLITE_FILE).resolve())
    return settings.model_copy(update={"data_dir": data_dir})


def test_a_second_server_with_the_same_keys_starts(settings: Settings) -> None:
    """It starts, and it is a server of the same database: it unseals the seeds
    the first one sealed and signs checkpoints that check against the first
    one's published key."""
    first = Ledger(settings)
    try:
        made = first.create_campaign(
            ruleset="kgp",
            campaign="CG I",
            title="keys",
            start_date=None,
            initial_cpp=None,
            idempotency_key=None,
            request_fingerprint="keys",
        )
        cid = made.campaign.cid
        seed = made.campaign.seed(0, first.sealer)
        published = first.signer.server_key()["public_key"]
    finally:
        first.close()
    second = Ledger(settings)
    try:
        campaign = second.load(cid)
        # ``seed`` raises where the seal cannot be opened or does not match its commitment.
        assert campaign.seed(0, second.sealer) == seed
        checkpoint = second.checkpoint(campaign)
        assert check_checkpoint(checkpoint, server_key=published) == checkpoint
    finally:
        second.close()


def test_a_server_with_other_keys_refuses_to_start(settings: Settings, tmp_path: Path) -> None:
    Ledger(settings).close()
    other = _other_keys(settings, tmp_path / "other")
    with pytest.raises(KeyMismatch, match=r"sealing key .* and another signing key") as refused:
        Ledger(other)
    assert str(other.data_dir.resolve()) in str(refused.value)
    # With the first server's keys given in the environment's way, it starts.
    first = settings.data_dir
    fixed = other.model_copy(
        update={
            "seed_key": (first / "seed.key").read_bytes().hex(),
            "signing_key": (first / "checkpoint.key").read_bytes().hex(),
        }
    )
    Ledger(fixed).close()


def test_one_key_wrong_is_named(settings: Settings, tmp_path: Path) -> None:
    Ledger(settings).close()
    other = _other_keys(settings, tmp_path / "other")
    only_seal = other.model_copy(
        update={"signing_key": (settings.data_dir / "checkpoint.key").read_bytes().hex()}
    )
    with pytest.raises(KeyMismatch) as refused:
        Ledger(only_seal)
    assert "sealing key" in str(refused.value)
    assert "signing key" not in str(refused.value)


def test_cgledger_serve_exits_with_the_reason(settings: Settings, tmp_path: Path) -> None:
    Ledger(settings).close()
    other = _other_keys(settings, tmp_path / "other")
    env = {**os.environ, "CGLEDGER_DATA_DIR": str(other.data_dir), "CGLEDGER_PORT": "9"}
    if settings.database_url:
        env["CGLEDGER_DATABASE_URL"] = settings.database_url
    cli = Path(sys.executable).with_name("cgledger")
    done = subprocess.run(
        [str(cli), "serve"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2, done.stderr
    assert "refusing to start" in done.stderr
    assert "Traceback" not in done.stderr
