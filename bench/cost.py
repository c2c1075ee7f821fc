"""What a request costs, side by side with the bare library, and whether it
grows with the campaign's history.

    .venv/bin/python bench/cost.py [--events 10000] [--requests 1000] [--no-postgres]

Runs on SQLite, and on PostgreSQL where it is reachable at
``CGLEDGER_TEST_POSTGRES_URL`` (default postgresql://postgres@127.0.0.1:5432/postgres),
each in a throw-away database created and dropped around it. For each backend,
in one run, it prints:

1. the bare ``eventsourcing`` library appending one event per transaction
   (``save()`` per event): the storage limit for one writer;
2. the framework floor: ``bench/floor_app.py``, a minimal FastAPI endpoint that
   loads one aggregate (snapshots every 50 events) and appends one event per
   request, served by the same uvicorn and driven by the same client;
3. REST rolls per second from one client (``POST /v1/campaigns/{id}/rolls``),
   and its ratio to both lines above;
4. the latency (median, p95) of a roll, of ``GET /v1/campaigns/{id}`` and of
   the roster on a fresh campaign and on one of ``--events`` events, measured
   alternately against the same server, and their ratio;
5. the aggregate's snapshot size and the stored bytes per event (events, keyed
   entries, snapshots) at 1,000 and at ``--events`` events.

And the two targets of the engine issue: a REST roll at least 0.5x the floor,
and every request on the long campaign within 1.2x of the fresh one. Servers
run as subprocesses on 127.0.0.1; every loop is bounded. A benchmark, not a
test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx2 as httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.floor_app import Counter, Store  # noqa: E402
from cgledger.domain.history import index_entries  # noqa: E402
from cgledger.service import Ledger  # noqa: E402
from cgledger.settings import Settings  # noqa: E402

PG_URL = os.environ.get(
    "CGLEDGER_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
ROLL = {"dice": 2, "purpose": "bench", "secret": False}


# ---------------------------------------------------------------- backends


@contextmanager
def backend(name: str, tmp: Path) -> Iterator[tuple[Settings, dict[str, str]]]:
    """cgledger's settings and the floor's eventsourcing env, on one fresh database."""
    if name == "sqlite":
        settings = Settings(data_dir=tmp / "data", database_url=None)
        floor = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(tmp / "floor.sqlite3"),
            "SQLITE_LOCK_TIMEOUT": "10",
        }
        yield settings, floor
        return
    db = f"cgledger_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    with psycopg.connect(PG_URL, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'CREATE DATABASE "{db}"')
        try:
            url = urlunsplit(urlsplit(PG_URL)._replace(path=f"/{db}"))
            settings = Settings(data_dir=tmp / "data", database_url=url)
            floor = {
                **settings.eventsourcing_env(),
                # Its own tables, beside cgledger's in the same database.
                "POSTGRES_SCHEMA": "public",
                "FLOOR_POSTGRES_SCHEMA": "public",
            }
            floor["POSTGRES_DBNAME"] = db
            yield settings, floor
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{db}" WITH (FORCE)')


def postgres_reachable() -> str | None:
    try:
        psycopg.connect(PG_URL, connect_timeout=3).close()
    except psycopg.OperationalError as exc:
        return str(exc).strip().splitlines()[0]
    return None


# ---------------------------------------------------------------- servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: The pid of the server process behind each base URL (bench/load.py sums the
#: CPU time of it and of its worker children).
SERVER_PIDS: dict[str, int] = {}


@contextmanager
def server(argv: list[str], env: dict[str, str], port: int) -> Iterator[str]:
    """A server subprocess on 127.0.0.1:port, ready when its OpenAPI answers."""
    proc = subprocess.Popen(  # noqa: S603 - our own venv's executables
        argv,
        cwd=ROOT,
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                err = proc.stderr.read().decode() if proc.stderr else ""
                raise RuntimeError(f"server {argv} did not start: {err[-2000:]}")
            time.sleep(0.1)
        SERVER_PIDS[base] = proc.pid
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stderr is not None:
            proc.stderr.close()


def uvicorn(app: str, port: int) -> list[str]:
    return [sys.executable, "-m", "uvicorn", app, "--port", str(port), "--log-level", "warning"]


def cgledger_server(settings: Settings, port: int) -> tuple[list[str], dict[str, str]]:
    env = {"CGLEDGER_DATA_DIR": str(settings.data_dir), "CGLEDGER_PORT": str(port)}
    if settings.database_url:
        env["CGLEDGER_DATABASE_URL"] = settings.database_url
    return [str(Path(sys.executable).parent / "cgledger"), "serve"], env


# ---------------------------------------------------------------- measuring


def rate(call: Callable[[], None], n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        call()
    return n / (time.perf_counter() - t0)


def ok(r: httpx.Response) -> dict[str, Any]:
    if r.status_code not in (200, 201):
        raise RuntimeError(f"{r.request.method} {r.request.url}: {r.status_code} {r.text[:300]}")
    body: dict[str, Any] = r.json()
    return body


def bare_append(env: dict[str, str], n: int) -> float:
    store = Store(env=env)
    try:
        counter = Counter()
        store.save(counter)

        def one() -> None:
            counter.bump("x")
            store.save(counter)

        return rate(one, n)
    finally:
        store.close()


def floor_rate(env: dict[str, str], n: int) -> float:
    port = free_port()
    with (
        server(
            uvicorn("bench.floor_app:app", port), {"BENCH_FLOOR_ENV": json.dumps(env)}, port
        ) as base,
        httpx.Client(base_url=base) as client,
    ):
        cid = ok(client.post("/counters"))["id"]
        for _ in range(100):
            ok(client.post(f"/counters/{cid}/bumps", json={"note": "warm"}))
        return rate(
            lambda: ok(client.post(f"/counters/{cid}/bumps", json={"note": "x"})) and None, n
        )


# ---------------------------------------------------------------- the long campaign


def build(settings: Settings, events: int) -> tuple[str, str, dict[int, dict[str, float]], float]:
    """A KGP campaign of ``events`` events, built in-process: public and Secret
    rolls of both sides, with a reveal now and then. Returns its id, the US
    token, the storage figures at 1,000 events and at the end, and the seconds
    it took."""
    ledger = Ledger(settings)
    t0 = time.perf_counter()
    figures: dict[int, dict[str, float]] = {}
    try:
        created = ledger.create_campaign(
            ruleset="kgp",
            campaign="CG I",
            title="long",
            start_date=None,
            initial_cpp=None,
            idempotency_key=None,
            request_fingerprint="bench",
        )
        assert created.tokens is not None
        cid = created.campaign.cid
        n = 0
        version = created.campaign.version
        while version < events:
            side = "US" if n % 2 else "German"
            secret = n % 3 == 0
            done = ledger.execute(
                cid,
                side,
                lambda c, ctx, s=secret: c.roll(
                    ctx, count=2, purpose="bench", secret=s, client_nonce=None
                ),
                operation="roll",
                body={"n": n},
            )
            if secret and n % 9 == 0:
                index = done.campaign.roll_count - 1
                done = ledger.execute(
                    cid,
                    side,
                    lambda c, ctx, i=index: c.reveal_roll(ctx, i),
                    operation="reveal",
                    body={"i": index},
                )
            version = done.campaign.version
            if version >= 1000 and 1000 not in figures:
                figures[1000] = storage(ledger, cid)
            n += 1
        figures[version] = storage(ledger, cid)
        return cid, created.tokens["US"], figures, time.perf_counter() - t0
    finally:
        ledger.close()


def storage(ledger: Ledger, cid: str) -> dict[str, float]:
    """Bytes stored for the campaign: its events, its keyed entries, its snapshots."""
    campaign = ledger.load(cid)
    recorder = ledger.store.recorder
    events = recorder.select_events(campaign.id)
    index = 0
    for stored in events:
        record = ledger.store.mapper.to_domain_event(stored).record  # type: ignore[attr-defined]
        for name, _ in index_entries(record):
            for entry in recorder.select_events(uuid.uuid5(campaign.id, name)):
                index += len(entry.state)
    snapshots = ledger.store.snapshots
    assert snapshots is not None
    snaps = snapshots.recorder.select_events(campaign.id)
    return {
        "version": campaign.version,
        "events": sum(len(e.state) for e in events),
        "index": index,
        "snapshots": sum(len(s.state) for s in snaps),
        "snapshot": len(snaps[-1].state) if snaps else 0,
    }


# ---------------------------------------------------------------- one backend


def run(name: str, tmp: Path, events: int, requests: int, samples: int) -> dict[str, Any]:
    out: dict[str, Any] = {"backend": name}
    with backend(name, tmp) as (settings, floor_env):
        out["bare"] = bare_append(floor_env, requests * 2)
        out["floor"] = floor_rate(floor_env, requests)
        cid, token, out["storage"], out["build_s"] = build(settings, events)
        port = free_port()
        argv, env = cgledger_server(settings, port)
        with server(argv, env, port) as base, httpx.Client(base_url=base) as client:
            fresh = ok(client.post("/v1/campaigns", json={"ruleset": "kgp", "campaign": "CG I"}))
            campaigns = {
                "fresh": (f"/v1/campaigns/{fresh['id']}", fresh["tokens"]["US"]),
                "long": (f"/v1/campaigns/{cid}", token),
            }
            url, tok = campaigns["fresh"]
            h = {"Authorization": f"Bearer {tok}"}
            for _ in range(50):
                ok(client.post(f"{url}/rolls", json=ROLL, headers=h))
            out["rolls"] = rate(
                lambda: ok(client.post(f"{url}/rolls", json=ROLL, headers=h)) and None, requests
            )
            # A new campaign for the latencies, so "fresh" is fresh.
            fresh = ok(client.post("/v1/campaigns", json={"ruleset": "kgp", "campaign": "CG I"}))
            campaigns["fresh"] = (f"/v1/campaigns/{fresh['id']}", fresh["tokens"]["US"])
            out["latency"] = latencies(client, campaigns, samples)
    return out


def latencies(
    client: httpx.Client, campaigns: dict[str, tuple[str, str]], samples: int
) -> dict[str, dict[str, list[float]]]:
    kinds: dict[str, Callable[[str, dict[str, str]], httpx.Response]] = {
        "roll": lambda u, h: client.post(f"{u}/rolls", json=ROLL, headers=h),
        "GET campaign": lambda u, h: client.get(u, headers=h),
        "roster": lambda u, h: client.get(f"{u}/roster", params={"side": "US"}, headers=h),
    }
    found: dict[str, dict[str, list[float]]] = {k: {c: [] for c in campaigns} for k in kinds}
    for _ in range(samples):  # alternate, so both see the same machine
        for kind, call in kinds.items():
            for which, (url, tok) in campaigns.items():
                h = {"Authorization": f"Bearer {tok}"}
                t0 = time.perf_counter()
                ok(call(url, h))
                found[kind][which].append((time.perf_counter() - t0) * 1000)
    return found


# ---------------------------------------------------------------- report


def p95(xs: list[float]) -> float:
    return sorted(xs)[int(0.95 * (len(xs) - 1))]


def report(r: dict[str, Any], events: int) -> None:
    print(f"\n== {r['backend']}")
    print(f"bare library, save() per event      {r['bare']:9.0f} events/s")
    print(f"framework floor (load + append)     {r['floor']:9.0f} req/s")
    print(
        f"REST roll, one client               {r['rolls']:9.0f} req/s   "
        f"{r['rolls'] / r['floor']:.2f}x floor, {r['rolls'] / r['bare']:.2f}x bare"
    )
    long_version = max(r["storage"])
    print(f"(long campaign of {long_version} events built in {r['build_s']:.0f} s)")
    print(f"{'latency, ms':<16}{'fresh p50':>10}{'p95':>8}{'long p50':>10}{'p95':>8}{'ratio':>8}")
    ratios = []
    for kind, by in r["latency"].items():
        f50, l50 = statistics.median(by["fresh"]), statistics.median(by["long"])
        ratios.append(l50 / f50)
        print(
            f"{kind:<16}{f50:>10.2f}{p95(by['fresh']):>8.2f}{l50:>10.2f}{p95(by['long']):>8.2f}"
            f"{l50 / f50:>7.2f}x"
        )
    print(
        f"{'storage':<12}{'snapshot B':>11}{'events B/ev':>12}{'keys B/ev':>10}{'snaps B/ev':>11}"
    )
    for _, s in sorted(r["storage"].items()):
        v = s["version"]
        print(
            f"{int(v):>6} ev   {int(s['snapshot']):>11}{s['events'] / v:>12.0f}"
            f"{s['index'] / v:>10.0f}{s['snapshots'] / v:>11.0f}"
        )
    floor_ok = r["rolls"] / r["floor"] >= 0.5
    flat_ok = all(x <= 1.2 for x in ratios)
    print(
        f"target: REST roll >= 0.5x floor: {'PASS' if floor_ok else 'MISS'} "
        f"({r['rolls'] / r['floor']:.2f}x)"
    )
    print(
        f"target: {events}-event campaign within 1.2x of fresh: {'PASS' if flat_ok else 'MISS'} "
        f"(worst {max(ratios):.2f}x)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=10_000, help="length of the long campaign")
    ap.add_argument("--requests", type=int, default=1000, help="requests per rate measurement")
    ap.add_argument("--samples", type=int, default=200, help="latency samples per request kind")
    ap.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = ap.parse_args()
    names = ["sqlite"]
    if not args.no_postgres:
        why = postgres_reachable()
        if why is None:
            names.append("postgres")
        else:
            print(f"PostgreSQL skipped: not reachable at {PG_URL} ({why})")
    print(
        f"cgledger request cost: {args.requests} requests per rate, {args.samples} latency "
        f"samples, a long campaign of {args.events} events; one sequential client"
    )
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            report(run(name, Path(tmp), args.events, args.requests, args.samples), args.events)


if __name__ == "__main__":
    main()
