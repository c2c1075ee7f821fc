"""Application layer on both backends: persistence, snapshots, restarts, the
seed key, and seeds never stored in plaintext."""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

import pytest

from cgledger.domain.campaign import Campaign
from cgledger.service import Ledger, StoreHistory
from cgledger.settings import SQLITE_FILE, Settings

pytestmark = pytest.mark.store


def _create(ledger: Ledger, **kw: Any) -> Campaign:
    created = ledger.create_campaign(
        ruleset=kw.get("ruleset", "kgp"),
        campaign=kw.get("campaign", "CG I"),
        title="t",
        start_date=kw.get("start_date"),
        initial_cpp=kw.get("initial_cpp"),
        idempotency_key=None,
        request_fingerprint="x",
    )
    return created.campaign


def _roll(ledger: Ledger, cid: str, role: str, *, secret: bool) -> int:
    done = ledger.execute(
        cid,
        role,
        lambda c, ctx: c.roll(ctx, count=2, purpose="free", secret=secret, client_nonce=None),
        operation="roll",
        body={},
    )
    return done.seq


def test_snapshots_are_taken_and_give_the_same_state(settings: Settings) -> None:
    settings = settings.model_copy(update={"snapshot_interval": 10})
    led = Ledger(settings)
    try:
        cid = _create(led).cid
        first = led.load(cid).version
        for n in range(25):
            _roll(led, cid, "US" if n % 2 else "German", secret=n % 3 == 0)
        live = led.load(cid)
        assert led.store.snapshots is not None
        snaps = list(led.store.snapshots.get(live.id))
        # One right after the creation (its event holds the CG definition),
        # then every 10 events.
        assert [s.originator_version for s in snaps] == [first, 10, 20]
        # Rebuilt from events alone (no snapshot): the same state.
        from_events = led.store.repository.get(live.id, version=live.version)
        assert _state(from_events) == _state(live)
    finally:
        led.close()


def test_campaign_survives_a_restart(settings: Settings) -> None:
    first = Ledger(settings)
    try:
        campaign = _create(first)
        _roll(first, campaign.cid, "German", secret=True)
        before = _state(first.load(campaign.cid))
    finally:
        first.close()
    second = Ledger(settings)
    try:
        after = second.load(campaign.cid)
        assert _state(after) == before
        # The same seed key was reloaded from the data directory: rolls continue.
        _roll(second, campaign.cid, "US", secret=False)
        assert second.load(campaign.cid).roll_count == 2
    finally:
        second.close()


@pytest.mark.parametrize("secret", [True, False])
def test_unrevealed_seeds_are_not_in_the_database_in_plaintext(tmp_path: Any, secret: bool) -> None:
    """DESIGN §2: seeds are sealed until published; only a public roll's or a
    revealed roll's seed may appear in the stored events."""
    led = Ledger(Settings(data_dir=tmp_path, snapshot_interval=2))
    try:
        campaign = _create(led)
        _roll(led, campaign.cid, "German", secret=secret)
        _roll(led, campaign.cid, "German", secret=True)  # snapshot taken at version 4
        live = led.load(campaign.cid)
        seeds = [live.seed(i, led.sealer).hex() for i in range(live.committed)]
    finally:
        led.close()
    db = sqlite3.connect(tmp_path / SQLITE_FILE)
    stored = b"".join(
        bytes(row[0]) for row in db.execute("SELECT state FROM stored_events")
    ).decode("utf-8", "replace")
    stored += b"".join(
        bytes(row[0]) for row in db.execute("SELECT state FROM stored_snapshots")
    ).decode("utf-8", "replace")
    assert db.execute("SELECT count(*) FROM stored_snapshots").fetchone()[0] >= 1
    published = [s for s in seeds if s in stored]
    assert published == ([] if secret else seeds[:1])
    assert all(s.encode().hex() not in stored for s in seeds[1:])


def test_key_from_environment_overrides_file(tmp_path: Any) -> None:
    key = "ab" * 32
    led = Ledger(Settings(data_dir=tmp_path, seed_key=key))
    try:
        assert not (tmp_path / "seed.key").exists()
        campaign = _create(led)
        assert len(campaign.seed(0, led.sealer)) == 32
    finally:
        led.close()


def test_token_hashes_only(ledger: Ledger) -> None:
    created = ledger.create_campaign(
        ruleset="sg",
        campaign="SG",
        title="",
        start_date=None,
        initial_cpp=None,
        idempotency_key=None,
        request_fingerprint="x",
    )
    state = json.dumps(vars(ledger.load(created.campaign.cid)), default=str)
    for token in created.tokens.values():
        assert token not in state
        assert created.campaign.role_for_token(token) is not None
    assert set(created.tokens) == {"American", "German", "referee"}


def test_auth_is_checked_before_the_body(client: Any) -> None:
    """DESIGN §3: a request without a valid token gets 401, even with a bad body."""
    from conftest import Game

    game = Game(client, {"ruleset": "kgp", "campaign": "CG I"})
    r = client.post(f"{game.url}/rolls", json={"dice": 3, "purpose": ""})
    assert r.status_code == 401
    assert r.headers["www-authenticate"] == "Bearer"
    r = client.post(f"{game.url}/rolls", json={"dice": 3, "purpose": ""}, headers=game.h("US"))
    assert r.status_code == 422


def _state(campaign: Campaign) -> dict[str, object]:
    """The aggregate's state, without the history the Ledger attaches on load."""
    return {k: v for k, v in vars(campaign).items() if k != "_history"}


def test_a_campaign_without_keyed_entries_gets_them_on_first_load(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A campaign recorded before ``cgledger.domain.history``'s keys existed (as every
    campaign from before the engine issue was) gets all its keys on its first
    load, on both backends: old rolls, batches and reveals are found again."""
    led = Ledger(settings)
    try:
        with monkeypatch.context() as m:
            m.setattr(StoreHistory, "entries", lambda self, after: [])  # write no keys
            m.setattr(Ledger, "_backfill", lambda self, cid, history: None)
            campaign = _create(led)
            secret = [_roll(led, campaign.cid, "US", secret=True) for _ in range(100)]
            led.execute(
                campaign.cid, "US", lambda c, ctx: c.reveal(ctx, secret[-1]), operation="r", body={}
            )
        assert list(led.store.events.get(uuid.uuid5(campaign.id, "roll/0"))) == []
    finally:
        led.close()
    fresh = Ledger(settings)  # a new process: it has not checked this campaign yet
    try:
        loaded = fresh.load(campaign.cid)
        assert loaded.roll_seq(0) == secret[0]
        assert loaded.is_revealed(secret[-1])
        assert not loaded.is_revealed(secret[0])
        # Roll 0 is in the first batch, which the aggregate no longer holds:
        # only its keyed entry finds the commitment that the reveal checks.
        fresh.execute(
            campaign.cid, "US", lambda c, ctx: c.reveal(ctx, secret[0]), operation="r", body={}
        )
        assert fresh.load(campaign.cid).is_revealed(secret[0])
        assert len(list(fresh.store.events.get(uuid.uuid5(campaign.id, "indexed")))) == 1
    finally:
        fresh.close()


def test_a_new_process_reads_keyed_entries_before_writing_any(settings: Settings) -> None:
    """A server that starts and first answers a read must resolve the stored
    topic of the keyed entries it has not written itself."""
    import subprocess
    import sys

    led = Ledger(settings)
    try:
        campaign = _create(led)
        seq = _roll(led, campaign.cid, "US", secret=False)
    finally:
        led.close()
    script = (
        "import sys; from cgledger.service import Ledger; from cgledger.settings import Settings;"
        "led = Ledger(Settings.model_validate_json(sys.argv[1]));"
        "print(led.load(sys.argv[2]).roll_seq(0))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, settings.model_dump_json(), campaign.cid],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(seq)
