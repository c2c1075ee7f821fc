"""``cgledger serve``: one worker on SQLite, N workers on PostgreSQL sharing
one database and one key set, and a clear refusal of N workers on SQLite."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest

from cgledger.settings import Settings

CLI = str(Path(sys.executable).with_name("cgledger"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _env(settings: Settings, port: int) -> dict[str, str]:
    env = {**os.environ, "CGLEDGER_DATA_DIR": str(settings.data_dir), "CGLEDGER_PORT": str(port)}
    env.pop("CGLEDGER_DATABASE_URL", None)
    if settings.database_url:
        env["CGLEDGER_DATABASE_URL"] = settings.database_url
    return env


def test_several_workers_on_sqlite_are_refused_with_the_reason(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    done = subprocess.run(
        [CLI, "serve", "--workers", "2"],
        env=_env(settings, _free_port()),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "postgresql://" in done.stderr


@pytest.mark.postgres
def test_two_workers_share_one_postgres_database(pg_database: str, pg_data_dir: Path) -> None:
    settings = Settings(data_dir=pg_data_dir, database_url=pg_database)
    port = _free_port()
    server = subprocess.Popen(
        [CLI, "serve", "--workers", "2"],
        env=_env(settings, port),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/v1/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the workers did not start"
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            time.sleep(0.2)
        with httpx.Client(base_url=base, timeout=10) as client:
            made = client.post("/v1/campaigns", json={"ruleset": "sg", "campaign": "SG"})
            assert made.status_code == 201, made.text
            token = made.json()["tokens"]["American"]
            url = f"/v1/campaigns/{made.json()['id']}"
            auth = {"Authorization": f"Bearer {token}"}
            # Many requests over fresh connections reach both workers; each
            # reads and writes the one campaign with the one key set.
            for i in range(20):
                with httpx.Client(base_url=base, timeout=10) as fresh:
                    roll = {"dice": 2, "purpose": f"{i}", "secret": True}
                    r = fresh.post(url + "/rolls", json=roll, headers=auth)
                    assert r.status_code == 201, r.text
            assert client.get(url, headers=auth).json()["rolls"] == 20
            # The workers' metrics add up (prometheus_client multiprocess mode),
            # whichever worker answers the scrape.
            metrics = client.get("/metrics").text
            secret = [
                line
                for line in metrics.splitlines()
                if line.startswith('cgledger_rolls_total{kind="secret"}')
            ]
            assert secret, metrics[:2000]
            assert float(secret[0].rsplit(" ", 1)[1]) == 20
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stderr is not None:
            server.stderr.close()


def test_an_open_live_feed_does_not_hold_up_a_shutdown(tmp_path: Path) -> None:
    """A dashboard left open keeps a live feed that never ends by itself; on
    SIGTERM the server still stops, after at most its grace period."""
    import signal

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    env = _env(Settings(data_dir=tmp_path / "data"), port)
    proc = subprocess.Popen(
        [CLI, "serve"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{base}/v1/health", timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        made = httpx.post(f"{base}/v1/campaigns", json={"ruleset": "kgp", "campaign": "CG I"})
        assert made.status_code == 201
        game = made.json()
        with httpx.Client(timeout=30) as http:
            feed = http.build_request(
                "GET",
                f"{base}/v1/campaigns/{game['id']}/stream",
                headers={"Authorization": f"Bearer {game['tokens']['US']}"},
            )
            response = http.send(feed, stream=True)
            assert response.status_code == 200
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)  # 5 s of grace, then the feed is cut
            response.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
