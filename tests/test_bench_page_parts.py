"""``bench/page_parts.py`` runs and prints, side by side, what the page's map
(held and changed) and its open purchases cost as they were and as they are,
and GET /page over HTTP both ways; both ways answer the same. Structure only:
no timing is asserted (a benchmark's figures depend on the machine)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(ROOT))
    import bench.page_parts as module

    return module


def test_a_short_run_prints_each_part_before_and_after(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    bench.main(["--rolls", "4", "--repeats", "2"])
    out = capsys.readouterr().out
    ms = r"[0-9]+\.[0-9]{2} ms"
    rows = re.findall(rf"^ +(\S.*?)\s+{ms}\s+{ms}\s+[0-9]+\.[0-9]x$", out, re.M)
    assert [r.split()[0] for r in rows] == ["1.", "map", "2.", "3."], out
    assert "same map drawn both ways: True" in out
    assert re.search(r"same open purchases both ways: True \(\[\d+, \d+\]\)", out), out
