"""The figure in vLLM's start-up check ("X GiB KV cache is needed, which is larger than the
available KV cache memory"), release by release.

The same figure drives the estimated maximum length (a binary search on it) and, from 0.14,
``--max-model-len auto``. Read in vllm/v1/core/kv_cache_utils.py at the tags of the
aoshen02/vllm mirror:

* 0.8.3 – 0.13.x: ``check_enough_kv_cache_memory`` per worker, Σ over that worker's layers of
  ``spec.max_memory_usage_bytes``, on the specs the model runner reported, before
  ``get_kv_cache_groups`` promotes local layers (HMA off) or unifies pages; the runner reports
  sliding layers as such from #14097 (0.8.3), chunked ones from #21093 (0.10.0), full attention
  before.
* #29431 (0.14.0): ``_max_memory_usage_bytes_from_groups`` on the whole model's groups against
  min(available); ``gs × page × cdiv(max_mem(group 0), page)``, one uniform-type group Σ per layer.
* #33698 (0.17.0): the same on each worker's projected groups
  (``_project_kv_cache_groups_to_worker``).
* #36030 (0.19.0): ``blocks_needed`` sums cdiv(max_mem_g, page) over every group.
* DeepSeek-V4 (0.20.0+): the layer-tuple branch (planner.max_memory_usage_bytes).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..versions import RuleSet
from .grouping import Grouping, GroupingKind
from .kv_spec import AttentionSpec, ChunkedLocalAttentionSpec, SizingContext, SlidingWindowSpec
from .planner import legacy_max_memory_usage_bytes, max_memory_usage_bytes

__all__ = ["needed_kv_bytes", "reported_layer_counts"]

SpecCounts = tuple[tuple[AttentionSpec, int], ...]


def needed_kv_bytes(
    rules: RuleSet,
    ctx: SizingContext,
    *,
    model_groups: Grouping,
    worker_groups: Grouping,
    reported_specs: Mapping[str, AttentionSpec],
    grouped_specs: Mapping[str, AttentionSpec],
    reported_counts: SpecCounts | None = None,
) -> int:
    """Memory vLLM says one request of ``ctx.max_model_len`` needs on one worker.

    ``reported_specs``: the worker's layers as the model runner reports them; ``grouped_specs``:
    the same layers after grouping (local layers promoted when HMA is off); ``reported_counts``:
    :func:`reported_layer_counts` of the two, when the caller asks for many lengths (a binary
    search).
    """
    if worker_groups.kind == GroupingKind.PACKED:
        return max_memory_usage_bytes(worker_groups, ctx)
    if not rules.check_by_groups:
        if reported_counts is None:
            return legacy_max_memory_usage_bytes(
                _as_reported(rules, reported_specs, grouped_specs), ctx
            )
        # Σ over layers, with the layers that share a spec counted together: the same integer sum
        return sum(n * spec.max_memory_usage_bytes(ctx) for spec, n in reported_counts)
    groups = worker_groups if rules.per_stage_check else model_groups
    return max_memory_usage_bytes(groups, ctx, sum_groups=rules.check_sums_group_blocks)


def reported_layer_counts(
    rules: RuleSet, raw: Mapping[str, AttentionSpec], grouped: Mapping[str, AttentionSpec]
) -> SpecCounts:
    """The specs the pre-0.14 check saw (``_as_reported``), each with the number of layers that have
    it: 10,000 layers hold a handful of distinct specs, so each length the binary search tries costs
    a few terms."""
    by_object: dict[
        int, tuple[AttentionSpec, int]
    ] = {}  # layers mostly share spec objects: count those first
    for spec in _as_reported(rules, raw, grouped).values():
        seen = by_object.get(id(spec))
        by_object[id(spec)] = (spec, seen[1] + 1 if seen else 1)
    counts: dict[AttentionSpec, int] = {}
    for spec, n in by_object.values():
        counts[spec] = counts.get(spec, 0) + n
    return tuple(counts.items())


def _as_reported(
    rules: RuleSet, raw: Mapping[str, AttentionSpec], grouped: Mapping[str, AttentionSpec]
) -> dict[str, AttentionSpec]:
    """The specs ``check_enough_kv_cache_memory`` saw: the runner's own, before any promotion or
    page unification. A sliding layer is reported as SlidingWindowSpec from #14097 (0.8.3), a
    chunked one as ChunkedLocalAttentionSpec from #21093 (0.10.0); before, as full attention (the
    promoted spec)."""
    sliding_as_full, chunked_as_full = (
        not rules.runner_reports_sliding,
        not rules.runner_reports_chunked,
    )
    if not (sliding_as_full or chunked_as_full):
        return dict(raw)
    out: dict[str, AttentionSpec] = {}
    for name, spec in raw.items():
        as_full = (sliding_as_full and isinstance(spec, SlidingWindowSpec)) or (
            chunked_as_full and isinstance(spec, ChunkedLocalAttentionSpec)
        )
        out[name] = grouped[name] if as_full else spec
    return out
