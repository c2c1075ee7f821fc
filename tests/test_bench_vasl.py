"""``bench/vasl.py --quick`` runs and prints what issue 28 asks for: a
board archive of about 1,200 hexes with LOSData, the time to decode it, to
import it in-process and over HTTP, and the 2 s target. Structure only: no
timing is asserted (a benchmark's figures depend on the machine)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT))
    import bench.vasl as module

    return module


def test_quick_run_prints_the_sizes_the_steps_and_the_target(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    bench.main(["--quick"])
    out = capsys.readouterr().out
    number = r"[0-9][0-9,]*(?:\.[0-9]+)?"
    head = re.search(
        rf"^board: 40 x 30 = ([0-9]+) hexes; terrain grid ([0-9]+) x ([0-9]+) pixels; LOSData "
        rf"({number}) bytes \(({number}) decompressed\); archive ({number}) bytes",
        out,
        re.M,
    )
    assert head is not None, out
    hexes, width, height = (int(head[i]) for i in (1, 2, 3))
    assert hexes == 40 * 30 + 20
    # The decompressed LOSData is what its header says: the pixels, the stairways.
    assert int(head[5].replace(",", "")) == 16 + 2 * width * height + hexes
    lines = out.splitlines()
    for step in (
        "LOSData decode",
        "import_board (in-process)",
        "POST /v1/definition-tools/vasl-board",
    ):
        (row,) = [ln for ln in lines if ln.startswith(step + " ")]
        assert re.fullmatch(re.escape(step) + rf"\s+{number}", row), row
    assert re.search(
        rf"^target: a {hexes}-hex VASL archive with LOSData imports in under 2 s: "
        rf"(PASS|MISS) \({number} ms over HTTP\)$",
        out,
        re.M,
    ), out
