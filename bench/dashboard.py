"""What the campaign page costs in requests, and how long its redraw takes
(DESIGN §12 "Cost").

    .venv/bin/python -m bench.dashboard [--repeats 7] [--quiet-ms 500] [--paths]

Starts a server (a subprocess on 127.0.0.1, SQLite in a throw-away
directory), creates a KGP campaign with the synthetic sample definition (map
groups Sx, 16 hexes, and Sy, 1,200 hexes) and opens it in two headless
Chromium pages, the U.S. and the German, each in its own browser profile as
two players would (Debian's ``chromium`` through Playwright; never a
downloaded browser). Each page's requests are counted from the network
(``page.on("request")``): static assets (the HTML and ``/ui/…``) apart from
API requests (``/v1/…`` and anything else the page asks the server). Then it
prints:

1. the first load of each page: from opening the link until the page is
   quiet;
2. the requests of a handful of typical actions, made by clicking on the
   acting page, on that page and on the opponent's page, which redraws from
   the live feed: a free roll, an RG bought in the open, a secret batch
   sealed, a RePh step completed, a Control proposal and its approval on the
   other page. An action's requests are counted from the click until both
   pages are quiet: each shows the campaign's version (its
   ``body[data-version]`` equal to the API's) and neither has had a request
   in flight for the quiet window (``--quiet-ms``; the page waits 250 ms after
   a feed event before it redraws). The live feed (``/stream``) is one
   long-lived request per page, counted once in the first load, not per
   action;
3. the redraw time on the 1,200-hex map group: from the German approving a
   U.S. Control proposal over the API until the U.S. page shows the new
   version with a new map SVG in which that hex changed; the median of
   ``--repeats``.

And the limits of DESIGN §12: at most 3 requests an action on the acting page
and on the opponent's page, at most 8 for a first load (API requests, the live
feed included). Every wait is bounded. A benchmark: it asserts nothing
(tests/test_bench_dashboard.py asserts the counts).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx2 as httpx
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.cost import cgledger_server, free_port, server  # noqa: E402
from cgledger.settings import Settings  # noqa: E402

#: DESIGN §12: requests an action may cost each page, and a first load.
PER_ACTION = 3
FIRST_LOAD = 8
#: The sample's map groups: the small one the page shows first, the 1,200-hex one.
SMALL, LARGE = "Sx", "Sy"
SIDES = ("US", "German")
BUY = "#buy-form button[type=submit]"
#: How long any one wait may take before the bench gives up.
WAIT_S = 30.0


# ---------------------------------------------------------------- what a page asks for


def kind_of(path: str) -> str:
    """``static`` (the HTML, ``/ui/…``), ``stream`` (the live feed) or ``api``
    (``/v1/…``, and anything else the page asks the server, e.g. ``/openapi.json``)."""
    if path.startswith(("/ui/", "/c/")) or path == "/":
        return "static"
    return "stream" if path.startswith("/v1/") and path.endswith("/stream") else "api"


@dataclass
class Cost:
    """The requests one page made in one window: ``api`` (the live feed
    included), of which ``stream`` the feed, and ``static``; ``paths`` are
    ``"METHOD path"`` (query left out, the campaign id as ``{id}``)."""

    api: int = 0
    stream: int = 0
    static: int = 0
    paths: list[str] = field(default_factory=list)


class Requests:
    """Every http(s) request a page makes, and which are still in flight."""

    def __init__(self, page: Any, cid: str) -> None:
        self.cid = cid
        self.errors: list[str] = []
        self.seen: list[tuple[str, str]] = []
        self.inflight: set[Any] = set()
        self.last = time.perf_counter()
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _start(self, request: Any) -> None:
        url = urlsplit(request.url)
        if url.scheme not in ("http", "https"):
            return
        kind = kind_of(url.path)
        self.seen.append((kind, f"{request.method} {url.path.replace(self.cid, '{id}')}"))
        if kind != "stream":
            self.inflight.add(request)
        self.last = time.perf_counter()

    def _end(self, request: Any) -> None:
        if request in self.inflight:
            self.inflight.discard(request)
            self.last = time.perf_counter()

    def mark(self) -> int:
        return len(self.seen)

    def since(self, mark: int) -> Cost:
        cost = Cost()
        for kind, path in self.seen[mark:]:
            cost.static += kind == "static"
            cost.api += kind != "static"
            cost.stream += kind == "stream"
            cost.paths.append(path)
        return cost


@dataclass
class ActionCost:
    """One action: who made it, what it cost the acting page and the opponent's."""

    action: str
    actor: str
    acting: Cost
    opponent: Cost


@dataclass
class Measurements:
    first_load: dict[str, Cost]
    actions: list[ActionCost]
    #: Seconds from the opponent's action sent until the page showed it, map redrawn.
    redraw_s: list[float]
    #: Seconds until the approval's answer came back (the server's share).
    answer_s: list[float]
    map_group: str
    hexes: int
    quiet_s: float
    errors: list[str] = field(default_factory=list)

    def worst(self) -> dict[str, int]:
        """The largest API counts: first load, acting page, opponent's page."""
        return {
            "first_load": max(c.api for c in self.first_load.values()),
            "acting": max(a.acting.api for a in self.actions),
            "opponent": max(a.opponent.api for a in self.actions),
        }


# ---------------------------------------------------------------- the scene


class Campaign:
    """A KGP campaign made over HTTP, read as the referee (nothing counted)."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=15)
        body = {"ruleset": "kgp", "campaign": "CG I", "initial_cpp": {"German": 20}}
        made = self.http.post("/v1/campaigns", json=body)
        if made.status_code != 201:
            raise RuntimeError(f"creating the campaign: {made.status_code} {made.text}")
        self.id: str = made.json()["id"]
        self.tokens: dict[str, str] = made.json()["tokens"]
        self.base = base

    def call(self, method: str, role: str, path: str = "", body: Any = None) -> Any:
        auth = {"Authorization": f"Bearer {self.tokens[role]}"}
        r = self.http.request(method, f"/v1/campaigns/{self.id}{path}", json=body, headers=auth)
        if r.status_code not in (200, 201):
            raise RuntimeError(f"{method} {path} as {role}: {r.status_code} {r.text}")
        return r.json()

    def version(self) -> int:
        return int(self.call("GET", "referee")["version"])

    def link(self, role: str) -> str:
        return f"{self.base}/c/{self.id}#token={self.tokens[role]}"


class Pages:
    """The two players' pages and their request logs."""

    def __init__(
        self, game: Campaign, pages: dict[str, Any], logs: dict[str, Requests], quiet_s: float
    ) -> None:
        self.game = game
        self.pages = pages
        self.logs = logs
        self.quiet_s = quiet_s

    @property
    def errors(self) -> list[str]:
        return [f"{side}: {e}" for side, log in self.logs.items() for e in log.errors]

    def idle_for(self) -> float:
        if any(log.inflight for log in self.logs.values()):
            return 0.0
        return time.perf_counter() - max(log.last for log in self.logs.values())

    def quiet(self, sides: Sequence[str] = SIDES) -> int:
        """Wait until the pages of ``sides`` show the campaign's version and
        nothing is in flight on any page for the quiet window; the version."""
        version = self.game.version()
        deadline = time.perf_counter() + WAIT_S
        pump = self.pages[sides[0]]
        while True:
            if self.idle_for() >= self.quiet_s:
                shown = [
                    self.pages[s].evaluate("() => document.body.dataset.version") for s in sides
                ]
                if all(v == str(version) for v in shown) and self.idle_for() >= self.quiet_s:
                    return version
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the pages did not settle at version {version}")
            pump.wait_for_timeout(20)  # lets Playwright deliver the pages' events

    def act(self, label: str, actor: str, selector: str) -> ActionCost:
        """Count what a click on ``selector`` on ``actor``'s page costs both
        pages; it must send a POST that succeeds."""
        page = self.pages[actor]
        marks = {side: log.mark() for side, log in self.logs.items()}
        with page.expect_response(lambda r: r.request.method == "POST") as answer:
            page.click(selector)
        if answer.value.status not in (200, 201):
            raise RuntimeError(f"{label}: {answer.value.status} {answer.value.text()}")
        self.quiet()
        (other,) = [s for s in SIDES if s != actor]
        return ActionCost(
            label,
            actor,
            self.logs[actor].since(marks[actor]),
            self.logs[other].since(marks[other]),
        )


def _hexes(game: Campaign, holder: str, count: int) -> list[str]:
    """Strategic hexes of the large map group that ``holder`` Controls at the start."""
    doc = game.call("GET", "referee", "/definition")["definition"]
    (group,) = [g for g in doc["map_groups"] if g["id"] == LARGE]
    held = sorted(hx for hx, side in group["initial_control"].items() if side == holder)
    return held[:count]


def _show_large_map(pages: Pages) -> int:
    for page in pages.pages.values():
        page.select_option("#map-group", LARGE)
        page.wait_for_selector(f"#map svg.setup-map[data-map-group={LARGE}]")
    pages.quiet()
    count: int = pages.pages["US"].locator("#map svg.setup-map g[data-hex]").count()
    return count


# ---------------------------------------------------------------- the actions


def _actions(pages: Pages, hexes: list[str]) -> list[ActionCost]:
    us, german = pages.pages["US"], pages.pages["German"]
    found = []
    us.fill("#free-purpose", "Escape of 4-6-7 in B3")
    found.append(pages.act("free roll (#free-form)", "US", "#free-form button"))
    german.select_option("#buy-form select[name=rg]", "HW1")
    german.select_option("#buy-form select[name=map_group]", SMALL)
    german.uncheck("#buy-form input[name=secret]")
    found.append(pages.act("RG bought in the open (#buy-form)", "German", BUY))
    german.check("#buy-form input[name=secret]")
    german.click(BUY)  # into the batch: nothing is sent
    german.wait_for_selector("#rg-batch li")
    found.append(pages.act("secret RG batch sealed (#seal-batch)", "German", "#seal-batch"))
    advance = "#reph tr[data-side=German] button.advance"
    found.append(pages.act("RePh step completed (button.advance)", "German", advance))
    us.fill("#control-form input[name=hexes]", hexes[0])
    us.select_option("#control-form select[name=side]", "US")
    propose = "#control-form button[type=submit]"
    found.append(pages.act("Control proposed (#control-form)", "US", propose))
    (proposal,) = pages.game.call("GET", "German", "/proposals?status=pending")["items"]
    approve = f"#requests li[data-proposal='{proposal['seq']}'] button.approve"
    german.wait_for_selector(approve)
    found.append(pages.act("Control approved (button.approve)", "German", approve))
    return found


# ---------------------------------------------------------------- the redraw


_REDRAWN = """([version, hex, was]) => {
  const svg = document.querySelector('#map svg.setup-map');
  if (!svg || svg.__benchOld || document.body.dataset.version !== version) return false;
  const g = svg.querySelector(`g[data-hex="${hex}"]`);
  return g !== null && g.getAttribute('data-status') !== was;
}"""


def _redraws(pages: Pages, hexes: list[str], repeats: int) -> tuple[list[float], list[float]]:
    """The U.S. page's redraw after each German approval of a U.S. proposal
    that changes one hex of the large map group (each hex given to the U.S.,
    then back to the German)."""
    game, us = pages.game, pages.pages["US"]
    redraw, answer = [], []
    for i in range(repeats):
        hx = hexes[i % len(hexes)]
        side = "US" if (i // len(hexes)) % 2 == 0 else "German"
        made = game.call(
            "POST", "US", "/control", {"map_group": LARGE, "locations": [{"hex": hx, "side": side}]}
        )
        pages.quiet()
        sel = f'#map svg.setup-map g[data-hex="{hx}"]'
        was = us.get_attribute(sel, "data-status")
        us.evaluate("() => { document.querySelector('#map svg.setup-map').__benchOld = true; }")
        t0 = time.perf_counter()
        game.call("POST", "German", f"/proposals/{made['seq']}/approve", {})
        t1 = time.perf_counter()
        version = str(game.version())
        us.wait_for_function(_REDRAWN, arg=[version, hx, was], polling="raf")
        redraw.append(time.perf_counter() - t0)
        answer.append(t1 - t0)
        pages.quiet()
    return redraw, answer


# ---------------------------------------------------------------- measuring


@contextmanager
def _server(base: str | None) -> Iterator[str]:
    if base is not None:
        yield base
        return
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        argv, env = cgledger_server(Settings(data_dir=Path(tmp) / "data", database_url=None), port)
        with server(argv, env, port) as url:
            yield url


def chromium() -> str | None:
    """Debian's chromium, where it is installed."""
    return shutil.which("chromium")


def measure(base: str | None = None, *, repeats: int = 7, quiet_s: float = 0.5) -> Measurements:
    """Every figure of the module docstring, on the server at ``base`` (or a
    server of its own). Needs Debian's chromium (``chromium()``)."""
    path = chromium()
    if path is None:
        raise RuntimeError("Debian's chromium is not installed (apt-get install chromium)")
    with ExitStack() as stack:
        url = stack.enter_context(_server(base))
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        stack.callback(browser.close)
        game = Campaign(url)
        stack.callback(game.http.close)
        contexts = {side: browser.new_context() for side in SIDES}
        for context in contexts.values():
            stack.callback(context.close)
            context.set_default_timeout(WAIT_S * 1000)
        # Each page is opened with its log attached, then waited for alone.
        logs: dict[str, Requests] = {}
        opened: dict[str, Any] = {}
        first: dict[str, Cost] = {}
        for side in SIDES:
            page = contexts[side].new_page()
            logs[side] = Requests(page, game.id)
            page.goto(game.link(side))
            page.wait_for_selector("body[data-ready=true]")
            opened[side] = page
            Pages(game, {side: page}, {side: logs[side]}, quiet_s).quiet((side,))
            first[side] = logs[side].since(0)
        pages = Pages(game, opened, logs, quiet_s)
        hexes = _hexes(game, "German", max(1, min(repeats, 4)) + 1)
        drawn = _show_large_map(pages)
        actions = _actions(pages, hexes[:1])
        redraw, answer = _redraws(pages, hexes[1:], repeats)
        return Measurements(
            first_load=first,
            actions=actions,
            redraw_s=redraw,
            answer_s=answer,
            map_group=LARGE,
            hexes=drawn,
            quiet_s=quiet_s,
            errors=pages.errors,
        )


# ---------------------------------------------------------------- report


def _verdict(count: int, limit: int) -> str:
    return "PASS" if count <= limit else "MISS"


def _paths(cost: Cost) -> str:
    counted = Counter(cost.paths)
    return ", ".join(f"{p}" + (f" x{n}" if n > 1 else "") for p, n in counted.items())


def report(m: Measurements, *, paths: bool = False) -> None:
    print(
        "The campaign page in headless Chromium (DESIGN §12 Cost): a KGP campaign, "
        "the U.S. and the German page each in its own browser profile; static = the HTML "
        "and /ui/…, API = /v1/… and any other request"
    )
    print("\nFirst load (from opening the link until the page is quiet):")
    print(f"{'page':<10}{'API':>5}{'of which the feed':>18}{'static':>8}")
    for side, c in m.first_load.items():
        print(f"{side:<10}{c.api:>5}{c.stream:>18}{c.static:>8}")
        if paths:
            print(f"    {_paths(c)}")
    print(
        f"\nRequests per action (from the click until both pages are quiet: each shows the "
        f"campaign's version and nothing is in flight for {m.quiet_s * 1000:.0f} ms); the "
        "live feed (/stream) is one long-lived request per page, counted once in the first "
        "load, not per action:"
    )
    w = 40
    print(
        f"{'action':<{w}}{'by':<8}{'acting API':>11}{'static':>7}{'opponent API':>13}{'static':>7}"
    )
    for a in m.actions:
        print(
            f"{a.action:<{w}}{a.actor:<8}{a.acting.api:>11}"
            f"{a.acting.static:>7}{a.opponent.api:>13}"
            f"{a.opponent.static:>7}"
        )
        if paths:
            print(f"    acting: {_paths(a.acting)}")
            print(f"    opponent: {_paths(a.opponent)}")
    n = len(m.redraw_s)
    redraw = statistics.median(m.redraw_s) * 1000
    answer = statistics.median(m.answer_s) * 1000
    print(
        f"\nRedraw on the {m.hexes:,}-hex map group {m.map_group}: from the German's approval "
        f"of a U.S. Control proposal sent until the U.S. page shows its version with the new "
        f"map, median of {n}: {redraw:.0f} ms (the approval's answer: {answer:.0f} ms; "
        f"min {min(m.redraw_s) * 1000:.0f}, max {max(m.redraw_s) * 1000:.0f} ms)"
    )
    worst = m.worst()
    print(
        f"limit: first load <= {FIRST_LOAD} API requests (the feed included): "
        f"{_verdict(worst['first_load'], FIRST_LOAD)} (worst {worst['first_load']})"
    )
    print(
        f"limit: acting page <= {PER_ACTION} requests an action: "
        f"{_verdict(worst['acting'], PER_ACTION)} (worst {worst['acting']} API)"
    )
    print(
        f"limit: opponent's page <= {PER_ACTION} requests an action: "
        f"{_verdict(worst['opponent'], PER_ACTION)} (worst {worst['opponent']} API)"
    )
    if m.errors:
        print("page errors: " + "; ".join(m.errors))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=7, help="redraws per median")
    ap.add_argument("--quiet-ms", type=int, default=500, help="the quiet window")
    ap.add_argument("--server", default=None, help="a running server's base URL")
    ap.add_argument("--paths", action="store_true", help="list each window's requests")
    args = ap.parse_args(argv)
    if chromium() is None:
        print("chromium is missing: apt-get install chromium (Debian's; ops/test does it)")
        return
    report(
        measure(args.server, repeats=args.repeats, quiet_s=args.quiet_ms / 1000), paths=args.paths
    )


if __name__ == "__main__":
    main()
