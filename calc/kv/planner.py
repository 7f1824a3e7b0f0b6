"""vLLM's KV planning arithmetic: per-layer specs, needed memory, blocks, the
estimated maximum length and the reported concurrency.

Mirrors vllm/v1/core/kv_cache_utils.py (``_max_memory_usage_bytes_from_groups``,
``get_num_blocks``, ``_estimate_max_model_len_from_groups``,
``get_max_concurrency_for_kv_cache_config``) and
vllm/distributed/utils.py ``get_pp_indices`` at vLLM main 6adad087….
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache

from ..arch.model import LayerKind, ModelSpec
from ..units import cdiv
from .deepseek_v4 import build_v4_layer_specs
from .grouping import Grouping, GroupingKind, num_layer_tuples
from .kv_dtypes import content_bytes
from .kv_spec import (
    AttentionSpec,
    ChunkedLocalAttentionSpec,
    FullAttentionSpec,
    MambaSpec,
    MLAAttentionSpec,
    SizingContext,
    SlidingWindowMLASpec,
    SlidingWindowSpec,
    UniformTypeSpec,
    kv_dtype_bytes,
)

__all__ = [
    "layer_name",
    "indexer_layer_name",
    "pp_layer_counts",
    "build_layer_specs",
    "max_memory_usage_bytes",
    "legacy_max_memory_usage_bytes",
    "num_blocks",
    "estimate_max_model_len",
    "blocks_per_request",
    "max_concurrency",
    "kv_bytes_per_token",
    "mtp_layer_specs",
]


@lru_cache(maxsize=1 << 15)
def layer_name(i: int) -> str:
    """vLLM's attention layer name (a pure function of the index: cached, every plan names every
    layer)."""
    return f"model.layers.{i}.self_attn.attn"


@lru_cache(maxsize=1 << 15)
def indexer_layer_name(i: int) -> str:
    """DeepSeek-V3.2's indexer K cache of layer ``i`` (its own attention layer in vLLM)."""
    return f"model.layers.{i}.self_attn.indexer.k_cache"


def pp_layer_counts(num_layers: int, pp: int) -> list[int]:
    """get_pp_indices: equal shares, the remainder to stages pp-2, pp-3, … (never the last)."""
    counts = [num_layers // pp] * pp
    for i in range(2, num_layers % pp + 2):
        counts[-i] += 1
    return counts


def build_layer_specs(
    model: ModelSpec,
    *,
    tensor_parallel_size: int,
    kv_cache_dtype: str,
    block_size: int,
    sliding_block_size: int | None = None,
    mamba_spec: MambaSpec | None = None,
) -> dict[str, AttentionSpec]:
    """The whole model's per-layer specs as one GPU of a TP group sees them.

    Mamba / linear-attention layers all get ``mamba_spec`` (``MambaBase.get_kv_cache_spec``);
    layers without cache (Nemotron-H MLP/MoE blocks) get none.
    """
    if model.is_deepseek_v4:
        return build_v4_layer_specs(model, kv_cache_dtype=kv_cache_dtype, block_size=block_size)
    e = kv_dtype_bytes(kv_cache_dtype if kv_cache_dtype != "fp8_ds_mla" else "fp8", model.dtype)
    specs: dict[str, AttentionSpec] = {}
    per_layer = model.per_layer
    shared = set(
        per_layer.kv_shared if per_layer else ()
    )  # cross-layer KV sharing: planned as if absent
    indexer = (
        model.sparse.indexer_head_size if model.sparse else 0
    )  # DeepSeek-V3.2's indexer K cache
    mla = model.is_mla  # a scan of every layer: once, not once per layer
    # Layers of one kind and width share one (frozen) spec object: built once, not once per layer.
    built: dict[tuple[LayerKind, int, int], AttentionSpec] = {}
    # model.attention_of(i) for every layer, as one look-up each
    widths = {
        i: (head, kv_heads)
        for i, head, kv_heads in reversed(per_layer.attention if per_layer else ())
    }
    default_width = (model.head_size, model.total_num_kv_heads)
    for i, kind in enumerate(model.layer_kinds):
        if kind == LayerKind.NONE or i in shared:
            continue
        if kind == LayerKind.MAMBA:
            if mamba_spec is None:
                raise ValueError("a model with Mamba layers needs mamba_spec (hybrid.plan_mamba)")
            specs[layer_name(i)] = mamba_spec
            continue
        # Per layer (Gemma 4's full-attention layers are wider). MLA keeps one latent "head" per
        # GPU, never divided by TP; otherwise max(1, heads // TP).
        head, kv_heads = widths.get(i, default_width)
        known = built.get((kind, head, kv_heads))
        if known is not None and not (kind == LayerKind.MLA and indexer):
            specs[layer_name(i)] = known
            continue
        heads = 1 if mla else max(1, kv_heads // tensor_parallel_size)
        head_v = model.head_size_v if head == model.head_size else head
        common = dict(num_kv_heads=heads, head_size=head, head_size_v=head_v, dtype_bytes=e)
        content = content_bytes(kv_cache_dtype, head_size=head, head_size_v=head_v)
        if kind == LayerKind.MLA:
            spec: AttentionSpec = MLAAttentionSpec(
                block_size=block_size, cache_dtype_str=kv_cache_dtype, **common
            )
            if indexer:
                # DeepseekV32IndexerCache.get_kv_cache_spec: MLAAttentionSpec(head_size=132,
                # dtype=uint8)
                specs[layer_name(i)] = spec
                specs[indexer_layer_name(i)] = MLAAttentionSpec(
                    block_size=block_size,
                    num_kv_heads=1,
                    head_size=indexer,
                    head_size_v=0,
                    dtype_bytes=1,
                    cache_dtype_str="uint8",
                )
                continue
        elif kind == LayerKind.SLIDING:
            spec = SlidingWindowSpec(
                block_size=sliding_block_size or block_size,
                sliding_window=model.sliding_window,
                content_bytes=content,
                **common,
            )
        elif kind == LayerKind.CHUNKED:
            spec = ChunkedLocalAttentionSpec(
                block_size=block_size,
                attention_chunk_size=model.attention_chunk_size,
                content_bytes=content,
                **common,
            )
        else:
            spec = FullAttentionSpec(block_size=block_size, content_bytes=content, **common)
        specs[layer_name(i)] = built[(kind, head, kv_heads)] = spec
    return specs


def mtp_layer_specs(
    model: ModelSpec,
    specs: Mapping[str, AttentionSpec],
    mtp_kind: LayerKind,
    *,
    count: int | None = None,
) -> dict[str, AttentionSpec]:
    """The MTP layers' own KV caches: ``model.layers.{num_hidden_layers + i}`` with the spec of the
    target's last layer of their kind (vllm/model_executor/models/deepseek_mtp.py builds each as a
    target decoder layer, with DeepSeek-V3.2's indexer cache; qwen3_5_mtp.py / qwen3_next_mtp.py as
    a full-attention layer), listed after the target's layers (vllm/v1/worker/gpu_model_runner.py
    ``get_kv_cache_spec``) and grouped with them. ``count`` (default: the MTP layers) also sizes an
    EAGLE-3 drafter's layers, named the same way (kvcalc.kv.eagle3)."""
    last = max(
        (
            i
            for i, kind in enumerate(model.layer_kinds)
            if kind == mtp_kind and layer_name(i) in specs
        ),
        default=None,
    )
    if last is None:
        raise ValueError("an MTP layer needs a target layer of its kind")
    out: dict[str, AttentionSpec] = {}
    extra = model.num_mtp_layers if count is None else count
    for i in range(model.num_layers, model.num_layers + extra):
        out[layer_name(i)] = specs[layer_name(last)]
        if indexer_layer_name(last) in specs:
            out[indexer_layer_name(i)] = specs[indexer_layer_name(last)]
    return out


def max_memory_usage_bytes(
    grouping: Grouping, ctx: SizingContext, *, sum_groups: bool = True
) -> int:
    """Memory one request of ``ctx.max_model_len`` needs on this worker
    (``_max_memory_usage_bytes_from_groups``).

    Hybrid groups: ``gs × page × blocks``. ``blocks`` is Σ over groups of cdiv(max_mem_g, page)
    since #36030 (v0.19.0); from #29431 (v0.14.0) to v0.18.1 it was group 0's alone
    (``sum_groups=False``), so a model whose first layer is sliding or Mamba was checked for that
    group's few blocks only.
    """
    if not grouping.groups:
        return 0
    if grouping.kind == GroupingKind.UNIFORM_TYPE:
        spec = grouping.groups[0].spec
        assert isinstance(spec, UniformTypeSpec)
        return sum(s.max_memory_usage_bytes(ctx) for s in spec.layer_specs.values())
    if grouping.kind == GroupingKind.PACKED:
        return _packed_max_memory_usage_bytes(grouping, ctx)
    page = grouping.page_size_bytes
    counted = grouping.groups if sum_groups else grouping.groups[:1]
    # the groups cut from one bucket share its spec object: each distinct spec is sized once per
    # length
    per_spec: dict[int, int] = {}
    blocks = 0
    for g in counted:
        n = per_spec.get(id(g.spec))
        if n is None:
            n = per_spec[id(g.spec)] = cdiv(g.spec.max_memory_usage_bytes(ctx), page)
        blocks += n
    return grouping.group_size * page * blocks


def _packed_max_memory_usage_bytes(grouping: Grouping, ctx: SizingContext) -> int:
    """DeepSeek-V4 (``_max_memory_usage_bytes_from_groups``, all groups uniform-type): every group
    reserves the global number of layer tuples, each tuple costing Σ of the MLA group's distinct
    page sizes: Σ_g tuples × max_pages_g × tuple_bytes."""
    specs = [g.spec for g in grouping.groups]
    assert all(isinstance(s, UniformTypeSpec) for s in specs)
    uniform = [s for s in specs if isinstance(s, UniformTypeSpec)]
    tuple_bytes = sum({s.page_size_bytes for s in uniform[0].layer_specs.values()})
    tuples = max(num_layer_tuples(s) for s in uniform)
    total = 0
    for spec in uniform:
        pages = max(
            cdiv(s.max_memory_usage_bytes(ctx), s.page_size_bytes)
            for s in spec.layer_specs.values()
        )
        total += tuples * pages * tuple_bytes
    return total


def legacy_max_memory_usage_bytes(
    layer_specs: Mapping[str, AttentionSpec], ctx: SizingContext
) -> int:
    """Before the group-based check (#29431, v0.14.0): Σ over layers of each layer's max memory
    (v0.13.0 ``check_enough_kv_cache_memory`` / ``max_memory_usage_bytes``)."""
    return sum(s.max_memory_usage_bytes(ctx) for s in layer_specs.values())


def num_blocks(grouping: Grouping, available_bytes: int) -> int:
    """``A // page // gs`` (uniform, hybrid) or ``A // Σ page_i`` (uniform type), never below 0."""
    if not grouping.groups:
        return 1  # attention-free: the pool still holds the null block
    per_block = grouping.bytes_per_block
    if grouping.kind in (GroupingKind.UNIFORM_TYPE, GroupingKind.PACKED):
        # PACKED: _get_kv_cache_config_packed, A // block_stride
        return max(available_bytes // per_block, 0)
    return max(available_bytes // grouping.page_size_bytes // grouping.group_size, 0)


def estimate_max_model_len(
    needed: Callable[[int], int], available_bytes: int, current_max: int
) -> int:
    """Largest L in [1, current_max] with needed(L) <= A, by binary search (0 if none)."""
    if needed(1) > available_bytes:
        return 0
    if needed(current_max) <= available_bytes:
        return current_max
    lo, hi = 1, current_max
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if needed(mid) <= available_bytes:
            lo = mid
        else:
            hi = mid - 1
    return lo


def blocks_per_request(grouping: Grouping, ctx: SizingContext, *, sum_groups: bool) -> int:
    """Block ids one full-length request pins (the concurrency denominator)."""
    groups = grouping.groups
    if grouping.kind == GroupingKind.UNIFORM_TYPE:
        spec = groups[0].spec
        assert isinstance(spec, UniformTypeSpec)
        first = next(iter(spec.layer_specs.values()))  # represented by one of its layers
        return cdiv(first.max_memory_usage_bytes(ctx), first.page_size_bytes)
    if sum_groups:
        return sum(cdiv(g.spec.max_memory_usage_bytes(ctx), g.spec.page_size_bytes) for g in groups)
    # Before #48317: cdiv(gs × Σ max_mem_g, page × gs)
    gs = grouping.group_size
    per_request = gs * sum(g.spec.max_memory_usage_bytes(ctx) for g in groups)
    return cdiv(per_request, groups[0].spec.page_size_bytes * gs)


def max_concurrency(
    grouping: Grouping, ctx: SizingContext, blocks: int, *, sum_groups: bool = True
) -> float:
    return blocks / blocks_per_request(grouping, ctx, sum_groups=sum_groups)


def kv_bytes_per_token(layer_specs: Mapping[str, AttentionSpec]) -> int:
    """Bytes one token adds across all layers of one GPU, at full length (page ÷ block size).

    Mamba states do not grow with the request: they are left out, as are DeepSeek-V4's
    sliding-window caches and compressor states (bounded per request); its compressed layers count
    page ÷ block size.
    """
    total = 0
    for s in layer_specs.values():
        if isinstance(s, (MambaSpec, SlidingWindowMLASpec)):
            continue
        total += s.page_size_bytes // s.block_size
    return total
