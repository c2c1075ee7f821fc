"""``bench/territory.py --quick`` runs and prints what the issue asks for: Setup
Areas per ruleset and scale with the time per hex and its ratio to 1x, the
10 ms target at 1x, and the LVP projection's rebuild rate beside the bare
library's with the 100k events/s target. Structure only: no timing is
asserted (a benchmark's figures depend on the machine). It runs in its own
interpreter, as a user runs it: inside a test worker whose heap the suite
has grown, its collector-on timings ran four times slower."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_quick_run_prints_every_table_and_target() -> None:
    run = [sys.executable, "-m", "bench.territory", "--quick"]
    done = subprocess.run(run, check=False, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    lines = out.splitlines()
    number = r"[0-9][0-9,]*(?:\.[0-9]+)?"
    for ruleset in ("kgp", "abtf"):
        rows = [ln for ln in lines if re.match(rf"{ruleset}\s+[0-9]+x\s", ln)]
        assert [ln.split()[1] for ln in rows] == ["1x", "4x"], out
        assert [int(ln.split()[2]) for ln in rows] == [1200, 4800]
        for row in rows:
            # hexes, areas, index, control, setup, us/hex, ratio, paused, us/hex, ratio
            assert re.fullmatch(
                rf"{ruleset}\s+[0-9]+x(\s+{number}){{7}}x(\s+{number}){{2}}\s+{number}x", row
            ), row
        assert rows[0].split()[8] == "1.00x"
        assert rows[0].split()[-1] == "1.00x"
        assert re.search(
            rf"^target: {ruleset} Setup Areas at 1x \(1200 hexes\) <= 10 ms: (PASS|MISS) "
            rf"\({number} ms\)$",
            out,
            re.M,
        ), out
        assert re.search(rf"^target: {ruleset} linear in hexes .*: (PASS|MISS) ", out, re.M)
    header = re.search(
        r"^LVP projection: a kgp campaign of ([0-9]+) events \(600 ControlRecorded, "
        r"([0-9]+) CG-Scenario Ends, ([0-9]+) LVP rows\)",
        out,
        re.M,
    )
    assert header is not None, out
    assert int(header[1]) > 600
    assert int(header[2]) >= 2
    assert header[3] == header[2]
    for name, paired in (
        ("cgledger, from its events (read, decode, apply)", True),
        ("bare, from its events", False),
        ("cgledger, apply only (decoded events)", True),
        ("bare, apply only", False),
        ("LVP projection, from its records (read, decode, fold)", True),
        ("LVP projection, fold only (decoded records)", True),
    ):
        (row,) = [ln for ln in lines if ln.startswith(name + " ")]
        tail = rf"\s+{number}\s+{number}" + (rf"\s+{number}x" if paired else "")
        assert re.fullmatch(re.escape(name) + tail, row.rstrip()), row
    targets = re.findall(
        r"^target: the LVP projection rebuilds at >= 100k events/s: (PASS|MISS) \(", out, re.M
    )
    assert len(targets) == 1, out
