"""What two parts of ``GET /page`` cost (DESIGN §12 "Cost"), as they were and
as they are, side by side in one run.

    .venv/bin/python -m bench.page_parts [--rolls 1000] [--repeats 15]

Builds in-process (FastAPI's TestClient, SQLite in a throw-away directory) a
KGP campaign on the synthetic sample definition (map group Sy: 1,200 hexes)
with Control recorded on Sy, U.S. RG bought in the open and ``--rolls``
rolls, then prints the medians of ``--repeats`` (each on the campaign loaded
afresh, as a request loads it; the load itself not counted):

1. the map of Sy on a redraw where the page holds it already: before, the
   SVG drawn only to hash it (what ``/page`` did on every redraw); after, the
   digest of what the map is drawn from (``cgledger.projections.map_digest``),
   nothing drawn; and after, when the map changed (the digest, then the map);
2. the U.S. page's open purchases: before, the log read again through
   ``GET /events``' filter (RGPurchased by the caller, up to 1,000); after,
   the aggregate's ``state_log`` and a read of each open purchase's record;
3. the whole ``GET /page?map_group=Sy&map_digest=…`` of the U.S. page over
   HTTP (in-process) with both parts as they were, and as they are.

It says whether both ways answered the same. Every loop is bounded. A
benchmark: it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cgledger.api.app import create_app  # noqa: E402
from cgledger.service import Ledger, events, page, territory  # noqa: E402
from cgledger.service.session import Caller  # noqa: E402
from cgledger.settings import Settings  # noqa: E402

GROUP = "Sy"
ROLE = "US"


# ---------------------------------------------------------------- the parts as they were


def map_before(caller: Caller, map_group: str, known: str | None) -> dict[str, Any]:
    """``page._map`` as it was: the map drawn, then hashed."""
    drawn = territory.setup_areas_svg(caller, map_group, None)
    own = hashlib.sha256(drawn.svg.encode("utf-8")).hexdigest()[:32]
    return {"map_group": map_group, "digest": own, "svg": None if own == known else drawn.svg}


def open_purchases_before(caller: Caller) -> list[int]:
    """``page._open_purchases`` as it was: the log read again."""
    if caller.role not in caller.campaign.sides:
        return []
    found = events.list_events(
        caller,
        after=0,
        limit=page.LOG_LIMIT,
        event_type=["RGPurchased"],
        actor=caller.role,
        table=None,
        date=None,
        reverted=True,
        before=None,
    )
    return [int(item["seq"]) for item in found["items"]]


@contextmanager
def as_before() -> Iterator[None]:
    with (
        mock.patch.object(page, "_map", map_before),
        mock.patch.object(page, "_open_purchases", open_purchases_before),
    ):
        yield


# ---------------------------------------------------------------- the campaign


class Game:
    def __init__(self, client: TestClient) -> None:
        body = {"ruleset": "kgp", "campaign": "CG I", "title": "bench", "initial_cpp": {"US": 40}}
        r = client.post("/v1/campaigns", json=body)
        r.raise_for_status()
        self.client = client
        self.id: str = r.json()["id"]
        self.tokens: dict[str, str] = r.json()["tokens"]
        self.url = f"/v1/campaigns/{self.id}"

    def h(self, role: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}"}

    def post(self, role: str, path: str, body: Any) -> dict[str, Any]:
        r = self.client.post(self.url + path, json=body, headers=self.h(role))
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    def get(self, role: str, path: str) -> dict[str, Any]:
        r = self.client.get(self.url + path, headers=self.h(role))
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out


def build(game: Game, rolls: int) -> None:
    """Control on Sy, three U.S. RG bought in the open (one per map group and
    one on Sy again), and ``rolls`` rolls after them."""
    areas = game.get(ROLE, f"/setup-areas?map_group={GROUP}")
    theirs = [h["hex"] for h in areas["hexes"] if h["status"] == "German"][:12]
    locations = [{"hex": hx, "level": 0, "side": ROLE} for hx in theirs]
    game.post("referee", "/control", {"map_group": GROUP, "locations": locations})
    for group in ("Sx", GROUP):
        game.post(ROLE, "/rg-purchases", {"rg": "I1", "map_group": group, "secret": False})
    for i in range(rolls):
        game.post("German" if i % 2 else ROLE, "/rolls", {"dice": 2, "purpose": f"bench {i}"})


# ---------------------------------------------------------------- timing


def median_ms(fn: Callable[[Caller], object], fresh: Callable[[], Caller], repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        caller = fresh()
        t0 = time.perf_counter()
        fn(caller)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def http_ms(game: Game, path: str, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        game.get(ROLE, path)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1000


def row(what: str, before: float, after: float) -> str:
    return f"  {what:<44} {before:>9.2f} ms {after:>9.2f} ms {before / after:>7.1f}x"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rolls", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "data", database_url=None)
        with TestClient(create_app(settings)) as client:
            game = Game(client)
            t0 = time.perf_counter()
            build(game, args.rolls)
            built = time.perf_counter() - t0
            ledger = Ledger(settings)
            try:
                report(game, ledger, args.repeats, built)
            finally:
                ledger.close()


def report(game: Game, ledger: Ledger, repeats: int, built: float) -> None:
    def fresh() -> Caller:
        return Caller(ledger, ledger.load(game.id), ROLE)

    version = fresh().campaign.version
    print(f"KGP sample, map group {GROUP} (1,200 hexes), {version} events (built in {built:.1f} s)")
    print(f"medians of {repeats}, each on the campaign loaded afresh:")
    print(f"  {'':<44} {'before':>12} {'after':>12} {'ratio':>8}")
    old = map_before(fresh(), GROUP, None)
    new = page._map(fresh(), GROUP, None)
    same_svg = old["svg"] == new["svg"]
    old_ms = median_ms(lambda c: map_before(c, GROUP, old["digest"]), fresh, repeats)
    new_ms = median_ms(lambda c: page._map(c, GROUP, new["digest"]), fresh, repeats)
    print(row("1. map unchanged (the page holds it)", old_ms, new_ms))
    changed_ms = median_ms(lambda c: page._map(c, GROUP, None), fresh, repeats)
    print(row("   map changed (after: digest, then drawn)", old_ms, changed_ms))
    bought_old = open_purchases_before(fresh())
    bought_new = page._open_purchases(fresh())
    old_ms = median_ms(open_purchases_before, fresh, repeats)
    new_ms = median_ms(page._open_purchases, fresh, repeats)
    print(row("2. open purchases", old_ms, new_ms))
    with as_before():
        known = game.get(ROLE, f"/page?map_group={GROUP}")["map"]["digest"]
        old_ms = http_ms(game, f"/page?map_group={GROUP}&map_digest={known}", repeats)
    known = game.get(ROLE, f"/page?map_group={GROUP}")["map"]["digest"]
    new_ms = http_ms(game, f"/page?map_group={GROUP}&map_digest={known}", repeats)
    print(row("3. GET /page, the map unchanged (HTTP)", old_ms, new_ms))
    print(f"same map drawn both ways: {same_svg}")
    print(f"same open purchases both ways: {bought_old == bought_new} ({bought_new})")


if __name__ == "__main__":
    main()
