"""Many clients at once: serialization on one campaign, and scale-out with
workers on PostgreSQL, side by side with the framework floor.

    .venv/bin/python bench/load.py [--seconds 10] [--clients 32] [--no-postgres]

In one run it prints:

1. **One campaign, 32 clients** (public rolls, no If-Match), on SQLite and on
   PostgreSQL, one worker: throughput, p50, p99, p99/p50, and every status
   that was not 201. Targets (issue 12): no 409 without If-Match, p99 <= 5x p50.
2. **32 campaigns, 32 clients, PostgreSQL**, with 1 and with 2 workers
   (``cgledger serve --workers N``): throughput and its ratio (target >= 1.25x on
   this 2-core machine, where the load generator and the database share the
   cores), and the CPU seconds per request of the server processes and of the
   database processes, from which docs/scaling.md projects other machines.
   Side by side, the same for the framework floor (``bench/floor_app.py``: one
   load and one append per request with the bare library) served by the same
   uvicorn with 1 and 2 workers.

Servers are subprocesses on 127.0.0.1, each run in a throw-away database; the
clients are asyncio tasks of one process (httpx), each with its own
connection. A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter as Tally
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.cost import (  # noqa: E402
    SERVER_PIDS,
    backend,
    cgledger_server,
    free_port,
    ok,
    postgres_reachable,
    server,
    uvicorn,
)

ROLL = {"dice": 2, "purpose": "load", "secret": False}


@dataclass
class Result:
    label: str
    seconds: float
    latencies: list[float] = field(default_factory=list)
    statuses: Tally[int] = field(default_factory=Tally)
    server_cpu: float = 0.0
    db_cpu: float = 0.0
    client_cpu: float = 0.0

    @property
    def done(self) -> int:
        return sum(self.statuses.values())

    @property
    def rate(self) -> float:
        return self.done / self.seconds

    def pct(self, q: float) -> float:
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


# ------------------------------------------------------------------ CPU time


def _cpu(procs: list[psutil.Process]) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


def _tree(pid: int) -> list[psutil.Process]:
    root = psutil.Process(pid)
    return [root, *root.children(recursive=True)]


def _database() -> list[psutil.Process]:
    return [
        p for p in psutil.process_iter(["name"]) if p.info["name"] in ("postgres", "postgresql")
    ]


# ------------------------------------------------------------------ the load


async def drive(
    base: str,
    targets: list[tuple[str, dict[str, str], dict[str, Any]]],
    clients: int,
    seconds: float,
    warmup: float,
    pid: int,
    label: str,
    postgres: bool,
) -> Result:
    """``clients`` tasks, task i posting to ``targets[i % len(targets)]`` in a
    loop; measured between ``warmup`` and ``warmup + seconds``."""
    result = Result(label, seconds)
    start = time.perf_counter() + warmup
    stop = start + seconds

    host, port = base.removeprefix("http://").split(":")

    async def client(i: int) -> None:
        url, headers, body = targets[i % len(targets)]
        request = _request(url, host, headers, body)
        # Connect one by one while the others already load the server: with
        # several workers on one listening socket, a busy worker accepts less,
        # so the connections spread over the workers as they would in use.
        await asyncio.sleep(i * warmup / (2 * clients))
        reader, writer = await asyncio.open_connection(host, int(port))
        try:
            while True:
                t0 = time.perf_counter()
                if t0 >= stop:
                    return
                writer.write(request)
                status = await _response(reader)
                t1 = time.perf_counter()
                if t0 >= start and t1 <= stop:
                    result.latencies.append(t1 - t0)
                    result.statuses[status] += 1
        finally:
            writer.close()

    async def cpu_window() -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        servers, db = _tree(pid), _database() if postgres else []
        s0, d0 = _cpu(servers), _cpu(db)
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        result.server_cpu = _cpu(servers) - s0
        result.db_cpu = _cpu(db) - d0 if postgres else 0.0

    me = psutil.Process()
    c0 = _cpu([me])
    await asyncio.gather(cpu_window(), *(client(i) for i in range(clients)))
    result.client_cpu = _cpu([me]) - c0
    return result


def _request(url: str, host: str, headers: dict[str, str], body: dict[str, Any]) -> bytes:
    """One keep-alive HTTP/1.1 POST, built once and sent again and again: the
    load generator shares the two cores with the servers, so it must cost
    little (an HTTP client library costs several times more per request)."""
    payload = json.dumps(body).encode()
    lines = [
        f"POST {url} HTTP/1.1",
        f"Host: {host}",
        "Content-Type: application/json",
        f"Content-Length: {len(payload)}",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload


async def _response(reader: asyncio.StreamReader) -> int:
    """Read one response (Content-Length framed, as uvicorn sends JSON); its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for header in head.split(b"\r\n")[1:]:
        name, _, value = header.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


def run_cgledger(
    settings: Any, workers: int, campaigns: int, clients: int, seconds: float, label: str
) -> Result:
    argv, env = cgledger_server(settings, port := free_port())
    argv += ["--workers", str(workers)]
    env["CGLEDGER_CREATE_PER_MINUTE"] = "100000"
    with server(argv, env, port) as base, httpx.Client(base_url=base, timeout=60) as c:
        targets = []
        for _ in range(campaigns):
            made = ok(c.post("/v1/campaigns", json={"ruleset": "sg", "campaign": "SG"}))
            auth = {"Authorization": f"Bearer {made['tokens']['American']}"}
            targets.append((f"/v1/campaigns/{made['id']}/rolls", auth, ROLL))
        pid = SERVER_PIDS[base]
        return asyncio.run(
            drive(base, targets, clients, seconds, 2.0, pid, label, bool(settings.database_url))
        )


def run_floor(
    floor_env: dict[str, str], workers: int, counters: int, clients: int, seconds: float
) -> Result:
    port = free_port()
    argv = [*uvicorn("bench.floor_app:app", port), "--workers", str(workers)]
    with (
        server(argv, {"BENCH_FLOOR_ENV": json.dumps(floor_env)}, port) as base,
        httpx.Client(base_url=base) as c,
    ):
        targets = [
            (f"/counters/{ok(c.post('/counters'))['id']}/bumps", {}, {"note": "x"})
            for _ in range(counters)
        ]
        pid = SERVER_PIDS[base]
        return asyncio.run(
            drive(base, targets, clients, seconds, 2.0, pid, f"floor, {workers} worker(s)", True)
        )


# ------------------------------------------------------------------ report


def line(r: Result) -> str:
    errors = {s: n for s, n in sorted(r.statuses.items()) if s not in (200, 201)}
    cpu = ""
    if r.done:
        cpu = f"  cpu/req: server {r.server_cpu / r.done * 1000:.2f} ms"
        if r.db_cpu:
            cpu += f", database {r.db_cpu / r.done * 1000:.2f} ms"
        cpu += f", load generator {r.client_cpu / r.done * 1000:.2f} ms"
    return (
        f"  {r.label:<38} {r.rate:7.1f} req/s  p50 {r.pct(0.5):7.1f} ms  p99 {r.pct(0.99):7.1f} ms"
        f"  p99/p50 {r.pct(0.99) / r.pct(0.5):4.1f}  errors {errors or 'none'}{cpu}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args()
    why = None if not args.no_postgres else "--no-postgres"
    why = why or postgres_reachable()
    names = ["sqlite"] if why else ["sqlite", "postgresql"]
    print(f"bench/load.py: {args.clients} clients, {args.seconds:.0f} s per run, 2 s warm-up")
    if why:
        print(f"(PostgreSQL skipped: {why})")
    with tempfile.TemporaryDirectory() as tmp:
        print(f"\n1. One campaign, {args.clients} clients, no If-Match, one worker")
        for name in names:
            with backend(name, Path(tmp) / f"one-{name}") as (settings, _):
                r = run_cgledger(settings, 1, 1, args.clients, args.seconds, name)
                print(line(r))
                no409 = r.statuses.get(409, 0) == 0
                tail = r.pct(0.99) <= 5 * r.pct(0.5)
                print(
                    f"  targets: no 409 {'met' if no409 else 'MISSED'}; "
                    f"p99 <= 5x p50 {'met' if tail else 'MISSED'}"
                )
        if why:
            return
        print(f"\n2. {args.clients} campaigns, {args.clients} clients, PostgreSQL")
        results: dict[str, Result] = {}
        for workers in (1, 2):
            with backend("postgresql", Path(tmp) / f"scale-{workers}") as (settings, floor):
                label = f"cgledger, {workers} worker(s)"
                results[label] = run_cgledger(
                    settings, workers, args.clients, args.clients, args.seconds, label
                )
                print(line(results[label]))
                results[f"floor{workers}"] = run_floor(
                    floor, workers, args.clients, args.clients, args.seconds
                )
                print(line(results[f"floor{workers}"]))
        one, two = results["cgledger, 1 worker(s)"], results["cgledger, 2 worker(s)"]
        ratio = two.rate / one.rate
        floor_ratio = results["floor2"].rate / results["floor1"].rate
        print(
            f"  2 workers / 1 worker: cgledger {ratio:.2f}x (target >= 1.25x: "
            f"{'met' if ratio >= 1.25 else 'MISSED'}), floor {floor_ratio:.2f}x"
        )


if __name__ == "__main__":
    main()
