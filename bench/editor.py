"""How fast the CG definition editor redraws a click on the 1,200-hex sample
map group (DESIGN §15, issue 28: "the editor redraws a click in under 100
ms").

    .venv/bin/python -m bench.editor [--repeats 21] [--server URL]

Starts a server (a subprocess on 127.0.0.1, SQLite in a throw-away
directory, as bench/dashboard.py does), opens ``/editor`` in headless
Chromium (Debian's ``chromium`` through Playwright; never a downloaded
browser), loads the KGP sample and shows its map group Sy (1,200 hexes).
Then, with the brush "initial Control", it clicks Strategic Locations one
after another (each click gives the hex to the other side, or takes its
Control away: every click changes the map), and prints the median and the
slowest of:

1. **click → painted**: from the click event until the frame that shows the
   hex's new marks has been painted (measured in the page: the click is
   dispatched at the hex's centre, then one animation frame and a task after
   it); the figure the issue's target is about;
2. **script**: the part of it spent in the page's own click handler;
3. **mouse → marks**: a real mouse click from Playwright until the page's
   DOM shows the hex's new marks (round trips to the browser included);
4. **click → Setup Areas**: until the definition is checked by the server
   and the Setup Areas of the new initial Control are drawn (the page waits
   for typing to pause, 300 ms, before it asks: included).

A benchmark: it asserts nothing (tests/test_bench_editor.py checks that it
runs and what it prints).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.dashboard import _server, chromium  # noqa: E402

#: The issue's target for a click's redraw.
TARGET_MS = 100.0
LARGE = "Sy"
WAIT_MS = 30_000

#: In the page: click at the centre of hex ``id`` and time the redraw.
_CLICK = """async (id) => {
  const g = document.querySelector(`#editor-map g[data-hex="${id}"]`);
  const box = g.querySelector("polygon.cell").getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  const before = g.dataset.marks || "";
  const target = document.getElementById("editor-map");
  const t0 = performance.now();
  target.dispatchEvent(new PointerEvent("pointerdown", { clientX: x, clientY: y, bubbles: true }));
  target.dispatchEvent(new MouseEvent("click", { clientX: x, clientY: y, bubbles: true }));
  const t1 = performance.now();
  await new Promise((done) => requestAnimationFrame(() => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => done();
    ch.port2.postMessage(0);
  }));
  const t2 = performance.now();
  return { script: t1 - t0, painted: t2 - t0, changed: (g.dataset.marks || "") !== before };
}"""


@dataclass
class Measurements:
    hexes: int = 0
    painted_ms: list[float] = field(default_factory=list)
    script_ms: list[float] = field(default_factory=list)
    mouse_ms: list[float] = field(default_factory=list)
    areas_ms: list[float] = field(default_factory=list)
    unchanged: int = 0
    errors: list[str] = field(default_factory=list)


def _checks(page: Any) -> int:
    return int(page.get_attribute("#validation", "data-checks") or 0)


def _wait_checked(page: Any, before: int) -> str:
    page.wait_for_function(
        "n => { const v = document.getElementById('validation');"
        " return Number(v.dataset.checks || 0) > n && v.dataset.state !== 'pending'; }",
        arg=before,
        timeout=WAIT_MS,
    )
    return str(page.get_attribute("#validation", "data-state"))


def _strategic(page: Any) -> list[str]:
    """The Strategic Locations of the map shown, in map order."""
    found: list[str] = page.eval_on_selector_all(
        "#editor-map g[data-marks]",
        "gs => gs.filter(g => g.dataset.marks.startsWith('Strategic')).map(g => g.dataset.hex)",
    )
    return found


def measure(base: str | None = None, *, repeats: int = 21) -> Measurements:
    """The figures of the module docstring, on the server at ``base`` (or a
    server of its own). Needs Debian's chromium (``chromium()``)."""
    path = chromium()
    if path is None:
        raise RuntimeError("Debian's chromium is not installed (apt-get install chromium)")
    out = Measurements()
    with _server(base) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(WAIT_MS)
            page.on("pageerror", lambda e: out.errors.append(str(e)))
            page.goto(url + "/editor")
            page.wait_for_selector("body[data-ready=true]")
            page.select_option("#ruleset", "kgp")
            before = _checks(page)
            page.click("#sample-load")
            _wait_checked(page, before)
            before = _checks(page)
            page.select_option("#group-select", LARGE)
            _wait_checked(page, before)
            out.hexes = page.locator("#editor-map g[data-hex]").count()
            page.check("input[name=brush][value=control]")
            page.select_option("#brush-control", "German")
            page.locator("#editor-map").scroll_into_view_if_needed()
            spots = _strategic(page)
            for i in range(repeats):
                hx = spots[i % len(spots)]
                before = _checks(page)
                t0 = time.perf_counter()
                got = page.evaluate(_CLICK, hx)
                _wait_checked(page, before)
                out.areas_ms.append((time.perf_counter() - t0) * 1000)
                out.painted_ms.append(got["painted"])
                out.script_ms.append(got["script"])
                out.unchanged += 0 if got["changed"] else 1
            for i in range(repeats):
                hx = spots[(i + repeats) % len(spots)]
                g = page.locator(f'#editor-map g[data-hex="{hx}"] polygon.cell')
                box = g.bounding_box()
                assert box is not None, hx
                before_marks = page.get_attribute(f'#editor-map g[data-hex="{hx}"]', "data-marks")
                t0 = time.perf_counter()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                page.wait_for_function(
                    "([id, was]) => (document.querySelector(`#editor-map g[data-hex='${id}']`)"
                    "?.dataset.marks || '') !== was",
                    arg=[hx, before_marks or ""],
                    timeout=WAIT_MS,
                )
                out.mouse_ms.append((time.perf_counter() - t0) * 1000)
        finally:
            browser.close()
    return out


def _line(name: str, xs: list[float]) -> str:
    median, slowest = statistics.median(xs), max(xs)
    return f"  {name:<22} median {median:7.1f} ms   slowest {slowest:7.1f} ms   ({len(xs)} clicks)"


def report(m: Measurements) -> None:
    print(
        f"The CG definition editor in headless Chromium: the KGP sample's map group {LARGE} "
        f"({m.hexes} hexes), brush 'initial Control', a click on a Strategic Location each time"
    )
    print(_line("click -> painted", m.painted_ms))
    print(_line("script (handler)", m.script_ms))
    print(_line("mouse -> marks", m.mouse_ms))
    print(_line("click -> Setup Areas", m.areas_ms) + "  (a 300 ms pause for typing included)")
    median = statistics.median(m.painted_ms)
    verdict = "PASS" if median < TARGET_MS else "MISS"
    target = f"a click redrawn in < {TARGET_MS:.0f} ms on {m.hexes} hexes"
    print(f"target: {target}: {verdict} ({median:.1f} ms)")
    if m.unchanged:
        print(f"warning: {m.unchanged} clicks changed no marks")
    if m.errors:
        print("page errors: " + "; ".join(m.errors))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=21, help="clicks per figure")
    ap.add_argument("--server", default=None, help="a running server's base URL")
    args = ap.parse_args(argv)
    if chromium() is None:
        print("chromium is missing: apt-get install chromium (Debian's; ops/test does it)")
        return
    report(measure(args.server, repeats=args.repeats))


if __name__ == "__main__":
    main()
