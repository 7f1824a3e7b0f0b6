"""How a parser's time grows with its input, not how fast this machine is.

A wall-clock bound fails on a loaded CI machine (2.41 s against a 2 s limit was seen) and
says nothing on a fast one. What the parsers must never do is grow faster than their input
(a quadratic regex on 100,000 characters takes minutes): so each test times the same kind of
input at n and 8n in this process's CPU time (time.process_time: another process's load does not
count, as it does in wall-clock time), best of five runs each, interleaved, and
asserts the ratio. A quadratic step gives 64; linear work gives 8, and up to about 24 measured
here at 100,000 → 800,000 characters (the larger strings leave the processor's caches), so
the bound is 40.
The absolute figures are measured in bench/core_bench.py.
"""
from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["growth_ratio", "GROWTH_BOUND"]

GROWTH_BOUND = 40.0
#: Below this the clock's resolution and interpreter noise decide the ratio, not the parser.
_FLOOR_S = 0.002


def growth_ratio(run: Callable[[str], object], small: str, large: str, repeats: int = 5) -> float:
    """Best time on ``large`` over best time on ``small`` (each at least ``_FLOOR_S``)."""
    best = {0: float("inf"), 1: float("inf")}
    for _ in range(repeats):
        for key, text in ((0, small), (1, large)):
            start = time.process_time()
            run(text)
            best[key] = min(best[key], time.process_time() - start)
    return max(best[1], _FLOOR_S) / max(best[0], _FLOOR_S)
