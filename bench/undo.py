"""What undo by replay and time travel cost, side by side with a plain request.

    .venv/bin/python bench/undo.py [--sizes 200 1000 3000] [--repeats 15] [--postgres URL]

With ``--postgres`` (any database of the server, e.g. .../postgres), each size
runs in a database of its own that is created and dropped around it.

For each size N, builds a KGP campaign whose German line holds N RG purchases
(N state events, each its own request). Then, in one run, times:

* a purchase request (load + command + save), the baseline;
* an undo of that purchase, applied at once: it rebuilds the state from the
  N state events still in force (DESIGN §5), so it grows with N;
* loading the campaign as it is (``Ledger.load``), and as of an event in the
  middle of its history (what ``?at=`` does), both from snapshots.

Prints medians in milliseconds and the ratios. No assertion: a benchmark.
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cgledger.domain.rulesets import REGISTRY
from cgledger.domain.rulesets.kgp.rules import RGPurchaseCreate
from cgledger.service import Ledger
from cgledger.settings import Settings


def _median_ms(fn: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def _buy(ledger: Ledger, cid: str, n: int) -> int:
    done = ledger.execute(
        cid,
        "German",
        lambda c, ctx: c.perform(
            ctx,
            "rg-purchases",
            RGPurchaseCreate(side="German", rg="Z1", map_group="Sx", secret=n % 2 == 0),
        ),
        operation="rg",
        body={"n": n},
    )
    return done.seq


def _definition() -> dict[str, object]:
    """The sample definition, with an RG the chart prices at 1 CPP and does not
    limit (8.6195-8.6196), so the bench can buy as many as it needs; "Z" needs
    no determination roll (8.620)."""
    doc = copy.deepcopy(REGISTRY["kgp"].sample_definition)
    doc["rg_chart"]["German"].append({"id": "Z1", "name": "Bench RG", "cpp": 1})
    return doc


def _undo(ledger: Ledger, cid: str, seq: int) -> None:
    ledger.execute(
        cid,
        "German",
        lambda c, ctx: c.request_undo(ctx, seqs=[seq], to_seq=None, reason="bench"),
        operation="undo",
        body={"seq": seq},
    )


@contextmanager
def database(url: str | None, size: int) -> Iterator[str | None]:
    """A throw-away PostgreSQL database on the server of ``url`` (or SQLite: None)."""
    if url is None:
        yield None
        return
    name = f"cgledger_bench_{os.getpid()}_{size}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(size: int, repeats: int, url: str | None, tmp: Path) -> dict[str, float]:
    ledger = Ledger(Settings(data_dir=tmp / f"n{size}", database_url=url))
    try:
        created = ledger.create_campaign(
            ruleset="kgp",
            campaign="CG I",
            title=f"bench {size}",
            start_date=None,
            initial_cpp={"German": 10_000, "US": 0},
            idempotency_key=None,
            definition=_definition(),
            request_fingerprint="bench",
        )
        cid = created.campaign.cid
        for n in range(size):
            _buy(ledger, cid, n)
        counter = iter(range(size, size + 10 * repeats))
        purchase = _median_ms(lambda: _buy(ledger, cid, next(counter)), repeats)

        undo_samples = []
        for _ in range(repeats):
            seq = _buy(ledger, cid, next(counter))
            t0 = time.perf_counter()
            _undo(ledger, cid, seq)
            undo_samples.append(time.perf_counter() - t0)
        undo = statistics.median(undo_samples) * 1000

        head = ledger.load(cid).version
        now = _median_ms(lambda: ledger.load(cid), repeats)
        then = _median_ms(lambda: ledger.load(cid, version=head // 2 + 37), repeats)
        return {"purchase": purchase, "undo": undo, "load": now, "load_at": then}
    finally:
        ledger.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[200, 1000, 3000])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--postgres", default=None, help="postgresql:// URL of the server")
    args = ap.parse_args()
    backend = "PostgreSQL" if args.postgres else "SQLite"
    print(f"undo by replay and time travel, {backend}, medians of {args.repeats} (ms)")
    print(
        f"{'N state events':>15} {'purchase':>9} {'undo':>8} {'undo/purchase':>14} "
        f"{'load':>7} {'load ?at=':>10} {'at/load':>8}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            with database(args.postgres, size) as url:
                r = run(size, args.repeats, url, Path(tmp))
            print(
                f"{size:>15} {r['purchase']:>9.2f} {r['undo']:>8.2f} "
                f"{r['undo'] / r['purchase']:>13.2f}x {r['load']:>7.2f} {r['load_at']:>10.2f} "
                f"{r['load_at'] / r['load']:>7.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()
