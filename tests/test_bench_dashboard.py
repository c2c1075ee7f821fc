"""DESIGN §12 "Cost", measured in headless Chromium by ``bench/dashboard.py``:
a player's action costs the acting page at most three API requests and the
opponent's page, redrawing from the live feed, at most three too; a first
load makes at most eight (the live feed included). Counts only: the bench's
timings depend on the machine and are not asserted.

One measurement (its own server, two players' pages, one redraw on the
1,200-hex map group) serves every test of the module. Where chromium is
missing the tests skip and say why (under ``CI=true`` they fail instead)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    mp = pytest.MonkeyPatch()
    mp.syspath_prepend(str(ROOT))
    import bench.dashboard as module

    mp.undo()
    return module


@pytest.fixture(scope="module")
def measured(bench: ModuleType) -> Any:
    if bench.chromium() is None:
        reason = "Debian's chromium is not installed"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(f"{reason}; `ops/test` installs it as root (apt-get install -y chromium)")
    return bench.measure(repeats=1, quiet_s=0.4)


def test_every_action_was_measured_on_both_pages(measured: Any) -> None:
    """What the counts below rest on: each action is one POST by the acting
    page, the opponent's page sends none, the live feed stays one request per
    page (opened at load, none per action), and no page raised an error."""
    assert [(a.action.split(" (")[0], a.actor) for a in measured.actions] == [
        ("free roll", "US"),
        ("RG bought in the open", "German"),
        ("secret RG batch sealed", "German"),
        ("RePh step completed", "German"),
        ("Control proposed", "US"),
        ("Control approved", "German"),
    ]
    for a in measured.actions:
        posts = [p for p in a.acting.paths if p.startswith("POST ")]
        assert len(posts) == 1, (a.action, a.acting.paths)
        assert not [p for p in a.opponent.paths if p.startswith("POST ")], a.opponent.paths
        assert a.acting.stream == a.opponent.stream == 0, a
    for side, load in measured.first_load.items():
        assert load.stream == 1, (side, load.paths)
        assert load.static >= 1, (side, load.paths)  # the HTML at least
    assert measured.hexes == 1200
    assert len(measured.redraw_s) == 1
    assert measured.errors == []


def test_a_first_load_makes_at_most_eight_api_requests(bench: ModuleType, measured: Any) -> None:
    for side, load in measured.first_load.items():
        assert load.api <= bench.FIRST_LOAD, (side, load.paths)


def test_an_action_costs_the_acting_page_at_most_three(bench: ModuleType, measured: Any) -> None:
    over = {a.action: a.acting.paths for a in measured.actions if a.acting.api > bench.PER_ACTION}
    assert over == {}


def test_an_action_costs_the_opponents_page_at_most_three(bench: ModuleType, measured: Any) -> None:
    over = {
        a.action: a.opponent.paths for a in measured.actions if a.opponent.api > bench.PER_ACTION
    }
    assert over == {}


def test_the_report_prints_the_table_and_the_limits(
    bench: ModuleType, measured: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    bench.report(measured)
    out = capsys.readouterr().out
    for side in ("US", "German"):
        assert re.search(rf"^{side}\s+[0-9]+\s+1\s+[0-9]+$", out, re.M), out
    rows = [
        ln
        for ln in out.splitlines()
        if re.search(r"\s(US|German)\s+[0-9]+\s+[0-9]+\s+[0-9]+\s+[0-9]+$", ln)
    ]
    assert len(rows) == len(measured.actions), out
    assert "counted once in the first load, not per action" in out
    assert re.search(r"^Redraw on the 1,200-hex map group Sy: .* median of 1: [0-9]+ ms", out, re.M)
    for what in ("first load <= 8", "acting page <= 3", "opponent's page <= 3"):
        assert re.search(rf"^limit: {what} .*: (PASS|MISS) \(worst [0-9]+", out, re.M), out
