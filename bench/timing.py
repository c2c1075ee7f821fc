"""What the benchmarks share: the median of a callable's wall time."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_s(fn: Callable[[], object], times: int) -> float:
    """The median, in seconds, of ``times`` calls of ``fn``."""
    samples = []
    for _ in range(times):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)
