"""A pasted log recomputed to its own block count: the available bytes inside the log's 0.01 GiB
rounding that give the capacity the log printed.

Why: vLLM prints ``Available KV cache memory: %s GiB`` rounded to 0.01 GiB (vllm/utils/mem_utils.py
``format_gib``, ``round(b / GiB, 2)``; ``%.2f`` before 2026-01-08), but the capacity it prints next
is exact (vllm/v1/core/kv_cache_utils.py: ``num_blocks = A // per-block bytes``; tokens ``blocks //
groups × block_size`` (× DCP) before #41069, ``int(concurrency × max_model_len)`` from 0.20.1;
concurrency ``blocks / blocks per request``; V0 ``# GPU blocks`` from vllm/worker/worker.py). The
midpoint of the printed GiB can fall a block off (``58.11 GiB`` → 476,032 tokens where the log says
476,016).

How: every capacity figure grows with the available bytes, so the bytes that reproduce the log form
one interval. It is found by bisection through the core's own ``plan`` (``verdict._capacity`` holds
each release's rule, so no rule is restated here) and intersected with the GiB rounding interval;
the plan then uses the byte figure in both that lies nearest the midpoint. When the two do not meet,
the midpoint stays and the difference is reported in blocks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from ..analysis import Verdict, plan_uncached
from ..deployment import Deployment
from ..inputs import Scenario
from ..units import GiB, cdiv, gib_to_bytes
from .logparse import parse_log

__all__ = ["CAPACITY_KEYS", "CapacityFit", "FitStatus", "fit_capacity", "printed_capacity"]

CAPACITY_KEYS: tuple[str, ...] = (
    "num_gpu_blocks",
    "gpu_kv_cache_tokens",
    "max_concurrency",
    "estimated_max_model_len",
)
"""The log's capacity facts: ``# GPU blocks`` / ``cache_config_info … num_gpu_blocks is``, ``GPU KV
cache size``, ``Maximum concurrency`` (printed ``%.2f``), and the failed check's "estimated maximum
model length" (vllm/v1/core/kv_cache_utils.py ``estimate_max_model_len``, exact, and growing with
the available bytes)."""

_WIDE_BYTES = 1 << 50  # the search for the log's own block count when the GiB interval holds none


class FitStatus(StrEnum):
    EXACT = "exact"
    """Bytes inside the GiB rounding give every logged capacity figure."""
    DISAGREES = "disagrees"
    """Another block count than the GiB rounding allows: ``logged_blocks`` vs
    ``recomputed_blocks``."""
    UNREACHABLE = "unreachable"
    """No available memory at all gives the logged figures with this model and these settings."""
    LEAST_WORKER = "least_worker"
    """Fewer blocks than the printed GiB allows, on several GPUs: the printed line is one worker's,
    the capacity the least-provisioned worker's; the plan uses the bytes that give the logged
    capacity."""


@dataclass(frozen=True, kw_only=True)
class CapacityFit:
    status: FitStatus
    """How the logged figures and the printed GiB agree (``FitStatus``)."""
    logged_gib: float
    """The log's ``Available KV cache memory``, as printed."""
    available_kv_bytes: int
    """What the plan uses: the refined bytes (EXACT) or the midpoint of the printed GiB."""
    low_bytes: int
    """The smallest bytes that print as ``logged_gib``."""
    high_bytes: int
    """The bytes that print as ``logged_gib`` (both ends included)."""
    logged_blocks: int | None = None
    """The blocks the log's capacity line implies (None: no capacity line)."""
    recomputed_blocks: int | None = None
    """At the midpoint; with ``logged_blocks``, the disagreement of a DISAGREES fit."""


def printed_capacity(v: Verdict) -> dict[str, float]:
    """The capacity the plan prints, read back with the log reader (the same format as the log's); a
    figure the release's lines do not carry (V0 prints no token line once it fits) comes from the
    plan itself."""
    text = "\n".join((*v.vllm_lines, *((v.error_text,) if v.error_text else ())))
    facts = parse_log(text).facts
    out: dict[str, float] = {}
    for key in CAPACITY_KEYS:
        value = facts.get(key, getattr(v, key))
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = round(value, 2) if key == "max_concurrency" else value
    return out


def _blocks(v: Verdict) -> int | None:
    if v.num_gpu_blocks is not None:
        return v.num_gpu_blocks
    return v.limiting.num_blocks  # V0's failed check keeps the blocks it counted


def _first(pred: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The smallest A in [lo, hi] with ``pred(A)``, for a predicate that stays true once true."""
    if lo > hi or not pred(hi):
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _last(pred: Callable[[int], bool], lo: int, hi: int) -> int | None:
    """The largest A in [lo, hi] with ``pred(A)``, for a predicate that stays false once false."""
    if lo > hi or not pred(lo):
        return None
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if pred(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _gib_interval(gib: float) -> tuple[int, int]:
    """The whole bytes whose ``round(b / GiB, 2)`` is ``gib``: ``gib`` ± 0.005 GiB, in exact integer
    arithmetic on the printed decimal (``58.11`` = 5811 / 100)."""
    text = repr(gib)
    if "e" in text:  # not a figure vLLM prints: float arithmetic is close enough
        return math.ceil((gib - 0.005) * GiB), math.floor((gib + 0.005) * GiB)
    whole, _, decimals = text.partition(".")
    num, den = int(whole + decimals), 10 ** len(decimals)  # gib = num / den
    low_num, high_num = (
        (200 * num - den) * GiB,
        (200 * num + den) * GiB,
    )  # (gib ∓ 1/200) × GiB × 200 den
    return cdiv(low_num, 200 * den), high_num // (200 * den)


def _applies(scenario: Scenario, facts: Mapping[str, object]) -> float | None:
    """The logged GiB when the plan's budget is exactly that figure and the log printed a
    capacity."""
    gib = facts.get("available_kv_gib")
    if not isinstance(gib, float) or gib <= 0 or not any(k in facts for k in CAPACITY_KEYS):
        return None
    dep = scenario.deployment
    if dep.kv_cache_memory_bytes is not None or dep.measured.available_kv_bytes != gib_to_bytes(
        gib
    ):
        return None  # a fixed budget, or bytes the reader gave: nothing rounded to refine
    return gib


def fit_capacity(scenario: Scenario, facts: Mapping[str, object]) -> CapacityFit | None:
    """The available bytes that reproduce the log's capacity; None when the log gives no GiB and
    capacity pair."""
    gib = _applies(scenario, facts)
    if gib is None:
        return None
    target = {
        k: float(v)
        for k in CAPACITY_KEYS
        if isinstance(v := facts.get(k), (int, float)) and not isinstance(v, bool)
    }
    model, dep = scenario.model, scenario.deployment

    def at(
        available: int,
    ) -> Verdict:  # uncached: the probes would crowd the calculator's what-ifs out
        return plan_uncached(
            model, replace(dep, measured=replace(dep.measured, available_kv_bytes=available))
        )

    def reached(available: int) -> bool:  # every logged figure reached (a missing one is not)
        shown = printed_capacity(at(available))
        return all(k in shown and shown[k] >= t for k, t in target.items())

    def within(available: int) -> bool:  # no logged figure exceeded
        shown = printed_capacity(at(available))
        return all(shown.get(k, -1.0) <= t for k, t in target.items())

    low, high = _gib_interval(gib)
    mid = gib_to_bytes(gib)
    # The figure nearest the midpoint: the midpoint itself, else the edge of the matching bytes on
    # its side (one bisection; the figures only grow with the bytes, so a match on the other side is
    # impossible).
    if not within(mid):
        nearest = _last(within, low, mid - 1)
        found = nearest is not None and reached(nearest)
    else:
        nearest = mid if reached(mid) else _first(reached, mid + 1, high)
        found = nearest is not None and within(nearest)
    if found and nearest is not None:
        return CapacityFit(
            status=FitStatus.EXACT,
            logged_gib=gib,
            available_kv_bytes=nearest,
            low_bytes=low,
            high_bytes=high,
        )
    recomputed = _blocks(at(mid))
    first = _first(reached, 0, _WIDE_BYTES)
    matching = (
        first if first is not None and within(first) else None
    )  # the fewest bytes that give the log's lines
    logged = _logged_blocks(facts, at, matching)
    status = (
        FitStatus.UNREACHABLE
        if logged is None or recomputed is None or logged == recomputed
        else FitStatus.DISAGREES
    )
    least = (
        _least_worker_bytes(dep, within, matching, mid) if status == FitStatus.DISAGREES else None
    )
    if least is not None and logged is not None and recomputed is not None and logged < recomputed:
        return CapacityFit(
            status=FitStatus.LEAST_WORKER,
            logged_gib=gib,
            available_kv_bytes=least,
            low_bytes=low,
            high_bytes=high,
            logged_blocks=logged,
            recomputed_blocks=recomputed,
        )
    return CapacityFit(
        status=status,
        logged_gib=gib,
        available_kv_bytes=mid,
        low_bytes=low,
        high_bytes=high,
        logged_blocks=logged,
        recomputed_blocks=recomputed,
    )


def _least_worker_bytes(
    dep: Deployment, within: Callable[[int], bool], matching: int | None, mid: int
) -> int | None:
    """On several GPUs, the middle of the bytes below the printed figure that give the logged
    capacity.

    vLLM prints ``Available KV cache memory`` once per node (``logger.info_once(...,
    scope="local")``, vllm/v1/worker/gpu_worker.py, 0.11.1+; each worker printed its own before
    #25164), but sizes the cache for the worker with the least (``get_kv_cache_configs``: the
    smallest ``num_blocks`` of all workers).
    """
    if (
        dep.tensor_parallel_size * dep.pipeline_parallel_size <= 1
        or matching is None
        or matching > mid
    ):
        return None
    last = _last(within, matching, mid) or matching
    return (matching + last) // 2


def _logged_blocks(
    facts: Mapping[str, object], at: Callable[[int], Verdict], matching: int | None
) -> int | None:
    """The block count behind the log's capacity: printed (``# GPU blocks``), or the one at
    ``matching``, the fewest bytes that give its tokens and concurrency; None when no memory gives
    them."""
    blocks = facts.get("num_gpu_blocks")
    if isinstance(blocks, int) and not isinstance(blocks, bool):
        return blocks
    return None if matching is None else _blocks(at(matching))
