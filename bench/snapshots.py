"""Load time of a long campaign with and without snapshots, side by side.

    .venv/bin/python bench/snapshots.py [--rolls 3000] [--loads 30] [--postgres URL]

Builds the same campaign (N free rolls, each its own request) in two ledgers
that differ only in the snapshot interval (100 events vs. never), then times
``Ledger.load`` (what every request does first) and one more roll request.
Prints milliseconds per operation and the ratio. No assertion: a benchmark,
not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cgledger.service import Ledger
from cgledger.settings import Settings


def _roll(ledger: Ledger, cid: str, n: int) -> None:
    ledger.execute(
        cid,
        "US" if n % 2 else "German",
        lambda c, ctx: c.roll(ctx, count=2, purpose="bench", secret=n % 3 == 0, client_nonce=None),
        operation="roll",
        body={"n": n},
    )


def _timed(fn: object, times: int) -> float:
    samples = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rolls", type=int, default=3000)
    ap.add_argument("--loads", type=int, default=30)
    ap.add_argument("--postgres", default=None, help="postgresql:// URL of an empty database")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for label, interval in (("snapshots every 100", 100), ("no snapshots", 10**9)):
            data = Path(tmp) / label.replace(" ", "-")
            settings = Settings(
                data_dir=data, database_url=args.postgres, snapshot_interval=interval
            )
            ledger = Ledger(settings)
            try:
                cid = ledger.create_campaign(
                    ruleset="kgp",
                    campaign="CG I",
                    title="bench",
                    start_date=None,
                    initial_cpp=None,
                    idempotency_key=None,
                    request_fingerprint="bench",
                ).campaign.cid
                t0 = time.perf_counter()
                for n in range(args.rolls):
                    _roll(ledger, cid, n)
                build = time.perf_counter() - t0
                version = ledger.load(cid).version
                load_ms = _timed(lambda led=ledger, c=cid: led.load(c), args.loads)
                more = iter(range(args.rolls, args.rolls + args.loads))
                roll_ms = _timed(
                    lambda led=ledger, c=cid, it=more: _roll(led, c, next(it)), args.loads
                )
                results[label] = (load_ms, roll_ms)
                print(
                    f"{label:>20}: {version} events built in {build:.1f} s; "
                    f"load {load_ms:8.2f} ms; one more roll {roll_ms:8.2f} ms (medians)"
                )
            finally:
                ledger.close()
        (sl, sr), (nl, nr) = results["snapshots every 100"], results["no snapshots"]
        backend = "PostgreSQL" if args.postgres else "SQLite"
        print(
            f"{backend}: without snapshots a load is {nl / sl:.1f}x slower, "
            f"a roll request {nr / sr:.1f}x slower"
        )


if __name__ == "__main__":
    main()
