"""KV cache groups: which layers share a block table, and how pages are unified.

Mirrors vllm/v1/core/kv_cache_utils.py ``get_kv_cache_groups``,
``is_kv_cache_spec_uniform``, ``_get_kv_cache_groups_uniform_type``,
``unify_kv_cache_spec_page_size``, ``_get_kv_cache_groups_uniform_page_size`` and
``_promote_local_kv_cache_specs`` (vLLM main 6adad087…); DeepSeek-V4's pre-#48993 pool blocks and
page padding from the v0.20.0 … v0.25.1 tags (``PackedLayout``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property

from ..errors import CalcError
from ..units import cdiv
from .kv_spec import (
    AttentionSpec,
    ChunkedLocalAttentionSpec,
    FullAttentionSpec,
    KVSpec,
    MambaSpec,
    MLAAttentionSpec,
    SlidingWindowMLASpec,
    SlidingWindowSpec,
    UniformTypeSpec,
    mergeable,
    promote_to_full,
)

__all__ = [
    "GroupingKind",
    "PackedLayout",
    "KVCacheGroup",
    "Grouping",
    "get_kv_cache_groups",
    "project_to_worker",
    "HMA_DISABLED_WARNING",
    "PADDING_WARNING",
    "num_layer_tuples",
    "approximate_gcd",
]

# vllm/v1/core/kv_cache_utils.py, logged when local layers are promoted.
HMA_DISABLED_WARNING = (
    "Hybrid KV cache manager is disabled for this hybrid model, This means we do not enable any "
    "optimizations for saving KV cache memory (e.g., dropping the KV cache outside the sliding "
    "window). The compute of layers like sliding window is still saved."
)
PADDING_WARNING = "Add {n} padding layers, may waste at most {pct:.2f}% KV cache memory"


class GroupingKind(StrEnum):
    """Which of vLLM's grouping paths produced the groups."""

    EMPTY = "empty"
    """No attention layers (attention-free models)."""
    UNIFORM = "uniform"
    """One spec for every layer: one group."""
    UNIFORM_TYPE = "uniform_type"
    """One kind of layer with different pages: one group, a page per layer."""
    HYBRID = "hybrid"
    """Several kinds: page-unified groups of equal size."""
    PACKED = "packed"
    """DeepSeek-V4: one uniform-type group per kind, overlaid in one packed block slab."""


class PackedLayout(StrEnum):
    """How a DeepSeek-V4 block id is sized in the pool (vllm/v1/core/kv_cache_utils.py, by release).

    Before STRIDE, ``_get_kv_cache_groups_uniform_groups`` padded every sliding/state page up to the
    nearest MLA page size (``page_size_padded``), so the layers of all groups fall into the MLA
    group's page-size buckets.
    """

    TUPLES = "tuples"
    """0.20.0-0.22.x (#40860, ``_get_kv_cache_config_deepseek_v4``): Σ of the MLA group's distinct
    page sizes × the most layers any group has of one page size (``num_layer_tuples``)."""
    SLOTS = "slots"
    """0.23.0-0.26.x (#44454, ``_bucket_layers_by_page_size``): Σ over page sizes of size × slots, a
    page size's slots being the most layers of that size any one group has."""
    STRIDE = "stride"
    """0.27.0+ (#48993, ``_get_packed_kv_cache_layout``): no padding; the largest group's Σ
    pages."""


@dataclass(frozen=True, kw_only=True)
class KVCacheGroup:
    """Layers sharing one block table; every group draws from one block pool."""

    layer_names: tuple[str, ...]
    """The layers in the group, by vLLM's names (``model.layers.3.self_attn.attn``)."""
    spec: KVSpec
    """The one KV spec every layer of the group shares."""


@dataclass(frozen=True, kw_only=True)
class Grouping:
    """The groups for a model (or one worker's projection of them)."""

    groups: tuple[KVCacheGroup, ...]
    """The groups, in vLLM's order (group 0 first)."""
    kind: GroupingKind
    """Which of vLLM's grouping paths produced them."""
    warnings: tuple[str, ...] = ()
    """vLLM's warnings while grouping ("Add N padding layers …"), as it logs them."""
    num_padding_layers: int = 0
    """Padding layers vLLM adds so each group has ``group_size`` layers ("Add N padding layers")."""
    packed_layout: PackedLayout = PackedLayout.STRIDE
    """PACKED only: the release's pool-block rule."""

    @cached_property
    def group_size(self) -> int:
        """``gs``: the most layers any group holds (one page of each per block id)."""
        return max((len(g.layer_names) for g in self.groups), default=0)

    @cached_property
    def page_size_bytes(self) -> int:
        """The common page (hybrid groups are unified to one page size)."""
        return self.groups[0].spec.page_size_bytes if self.groups else 0

    @cached_property
    def bytes_per_block(self) -> int:
        """Pool bytes one block id costs (kv_cache_utils._pool_bytes_per_block)."""
        if self.kind == GroupingKind.UNIFORM_TYPE:
            return self.groups[0].spec.page_size_bytes
        if self.kind == GroupingKind.PACKED:
            return _packed_block_bytes(self.groups, self.packed_layout)
        return self.page_size_bytes * self.group_size

    @property
    def min_block_size(self) -> int:
        return min(g.spec.block_size for g in self.groups)


def _is_uniform(specs: list[AttentionSpec]) -> bool:
    first = specs[0]
    return all(s is first or mergeable(first, s) for s in specs[1:])


def _merged(specs: list[AttentionSpec]) -> AttentionSpec:
    """The group's spec: the first layer's, recording any window or chunk another layer carries."""
    first = specs[0]
    if type(first) is not FullAttentionSpec:
        return first
    window = next((s.sliding_window for s in specs if s.sliding_window is not None), None)
    chunk = next(
        (s.attention_chunk_size for s in specs if s.attention_chunk_size is not None), None
    )
    return replace(first, sliding_window=window, attention_chunk_size=chunk)


def _uniform_type(specs: Mapping[str, AttentionSpec]) -> bool:
    """UniformTypeKVCacheSpecs.from_specs: same kind and block size (same window for sliding)."""
    values = list(specs.values())
    first = values[0]
    for s in values[1:]:
        if type(s) is not type(first) or s.block_size != first.block_size:
            return False
        if s.sliding_window != first.sliding_window and isinstance(s, SlidingWindowSpec):
            return False
        if s.attention_chunk_size != first.attention_chunk_size and isinstance(
            s, ChunkedLocalAttentionSpec
        ):
            return False
    return True


def _unify_page_size(specs: dict[str, AttentionSpec]) -> dict[str, AttentionSpec]:
    """Raise smaller pages to the largest: scale the block size when it divides, else pad."""
    largest = max(s.page_size_bytes for s in specs.values())
    out: dict[str, AttentionSpec] = {}
    done: dict[int, AttentionSpec] = {}  # layers sharing one spec object share its unified spec too
    for name, s in specs.items():
        page = s.page_size_bytes
        if page == largest:
            out[name] = s
        elif id(s) in done:
            out[name] = done[id(s)]
        elif isinstance(s, MambaSpec):
            # A smaller Mamba page is padded, its block size kept (#45207; the hybrid alignment
            # normally makes every page equal already).
            out[name] = replace(s, page_size_padded=largest)
        elif largest % page == 0:
            out[name] = replace(s, block_size=s.block_size * (largest // page))
        elif s.page_size_padded is None:
            # FlashAttention-family backends read KV by block stride: the page can be padded.
            out[name] = replace(s, page_size_padded=largest)
        else:
            raise CalcError(
                "unsupported", "KV cache page sizes of this model cannot be unified", field=None
            )
        done[id(s)] = out[name]
    return out


def _hybrid_groups(
    specs: dict[str, AttentionSpec], size_ratio: float | None
) -> tuple[tuple[KVCacheGroup, ...], int, tuple[str, ...]]:
    """Equal-size groups: bucket by spec, cut buckets into groups of ``group_size``, strided.

    ``group_size`` is the smallest bucket, or the largest when it is under ``size_ratio`` × the
    smallest (``_get_kv_cache_groups_uniform_page_size``: no such rule before #29303, 1.25 until
    #36684, then 1.5)."""
    buckets: list[tuple[AttentionSpec, list[str]]] = []
    for name, s in specs.items():
        for spec, names in buckets:
            if spec is s or mergeable(spec, s):
                names.append(name)
                break
        else:
            buckets.append((s, [name]))
    sizes = [len(names) for _, names in buckets]
    min_n, max_n = min(sizes), max(sizes)
    group_size = max_n if size_ratio is not None and max_n < size_ratio * min_n else min_n
    groups: list[KVCacheGroup] = []
    padding = 0
    warnings: list[str] = []
    for spec, names in buckets:
        n = len(names)
        k = cdiv(n, group_size)
        for i in range(k):
            groups.append(KVCacheGroup(layer_names=tuple(names[i::k]), spec=spec))
        if n % group_size:
            pad = group_size - n % group_size
            padding += pad
            warnings.append(PADDING_WARNING.format(n=pad, pct=pad / n * 100))
    return tuple(groups), padding, tuple(warnings)


def num_layer_tuples(spec: UniformTypeSpec) -> int:
    """UniformTypeKVCacheSpecs.get_num_layer_tuples: how many layers share the most common page
    size."""
    return max(Counter(s.page_size_bytes for s in spec.layer_specs.values()).values())


def approximate_gcd(values: list[int], lower_bound: int) -> int:
    """kv_cache_utils._approximate_gcd: the d in [lower_bound, max] that pads Σ round_up(x, d) least
    (ties go to the larger d)."""
    best_d, best_pad = lower_bound, -1
    for d in range(lower_bound, max(values) + 1):
        pad = sum((d - x % d) % d for x in values)
        if best_pad < 0 or pad <= best_pad:
            best_d, best_pad = d, pad
    return best_d


def _padded_to_mla(spec: AttentionSpec, mla_sizes: list[int], block_size: int) -> AttentionSpec:
    """Before #48993 (_get_kv_cache_groups_uniform_groups): a sliding/state page is padded up to the
    nearest MLA page size; vLLM asserts ``max(sm_page_sizes) <= max(all_page_sizes)``."""
    page = spec.page_size_bytes
    larger = [x for x in mla_sizes if x >= page]
    if not larger:
        # DeepSeek-V4 at --block-size 128: 32-token C4A pages (19,008 B) under the 64-token SWA page
        # (37,440 B)
        raise CalcError(
            "v4_block_too_small",
            f"vLLM's assertion fails (max(sm_page_sizes) <= max(all_page_sizes)): at block size "
            f"{block_size} a {page:,} B sliding-window page exceeds the largest MLA page "
            f"({mla_sizes[-1]:,} B); use --block-size 256",
            field="block_size",
            value=block_size,
        )
    return spec if min(larger) == page else replace(spec, page_size_padded=min(larger))


def _packed_groups(
    specs: Mapping[str, AttentionSpec], layout: PackedLayout
) -> tuple[KVCacheGroup, ...] | None:
    """DeepSeek-V4 (kv_cache_utils.group_and_unify_kv_cache_specs +
    _get_kv_cache_groups_uniform_groups): all MLA layers in one uniform-type group; the sliding ones
    bucketed by (block, window) and cut into groups of at most ``num_layer_tuples`` layer tuples,
    strided (pages padded to the MLA sizes before #48993). None when the model is not of that kind
    (no SlidingWindowMLASpec, or a single page size)."""
    if not any(isinstance(s, SlidingWindowMLASpec) for s in specs.values()):
        return None
    if len({s.page_size_bytes for s in specs.values()}) <= 1:
        return None
    mla = {n: s for n, s in specs.items() if isinstance(s, MLAAttentionSpec)}
    buckets: dict[tuple[int, int | None], dict[str, AttentionSpec]] = {}
    for n, s in specs.items():
        if isinstance(s, SlidingWindowMLASpec):
            buckets.setdefault((s.block_size, s.sliding_window), {})[n] = s
    if not mla or len(mla) + sum(len(b) for b in buckets.values()) != len(specs):
        raise CalcError(
            "unsupported",
            "this mix of MLA and sliding-window MLA layers is not one vLLM packs",
            field=None,
        )
    mla_spec = UniformTypeSpec(layer_specs=mla)
    # counted on the unpadded pages, as vLLM does before its padding loop
    tuples = approximate_gcd(
        [num_layer_tuples(mla_spec)]
        + [num_layer_tuples(UniformTypeSpec(layer_specs=b)) for b in buckets.values()],
        lower_bound=num_layer_tuples(mla_spec),
    )
    mla_sizes = sorted({s.page_size_bytes for s in mla.values()})
    groups = [KVCacheGroup(layer_names=tuple(mla), spec=mla_spec)]
    for raw in buckets.values():
        bucket = (
            raw
            if layout == PackedLayout.STRIDE
            else {n: _padded_to_mla(s, mla_sizes, mla_spec.block_size) for n, s in raw.items()}
        )
        by_size: dict[int, list[str]] = {}
        for n, s in bucket.items():
            by_size.setdefault(s.page_size_bytes, []).append(n)
        if len({len(v) for v in by_size.values()}) != 1:
            raise CalcError(
                "unsupported",
                "vLLM asserts equal layer counts per page size in a packed group",
                field=None,
            )
        layer_tuples = list(zip(*by_size.values(), strict=True))
        k = cdiv(len(layer_tuples), tuples)
        for i in range(k):
            names = tuple(n for t in layer_tuples[i::k] for n in t)
            groups.append(
                KVCacheGroup(
                    layer_names=names,
                    spec=UniformTypeSpec(layer_specs={n: bucket[n] for n in names}),
                )
            )
    return tuple(groups)


def _packed_block_bytes(groups: tuple[KVCacheGroup, ...], layout: PackedLayout) -> int:
    """Pool bytes one block id costs (the release's ``_pool_bytes_per_block``, the ``num_blocks``
    divisor)."""
    if layout == PackedLayout.STRIDE:
        # _get_packed_kv_cache_layout: each group laid out densely, groups overlap; the stride is
        # the largest group's Σ pages.
        return max(g.spec.page_size_bytes for g in groups)
    counts = []
    for g in groups:
        assert isinstance(g.spec, UniformTypeSpec)
        counts.append(Counter(s.page_size_bytes for s in g.spec.layer_specs.values()))
    if layout == PackedLayout.TUPLES:
        # sum(full_mla_spec.get_page_sizes()) × the longest page-size bucket of any group
        return sum(counts[0].keys()) * max(max(c.values()) for c in counts)
    # _bucket_layers_by_page_size: one slot per layer of that size in the group that has the most
    return sum(ps * max(c[ps] for c in counts) for ps in {ps for c in counts for ps in c})


def get_kv_cache_groups(
    layer_specs: Mapping[str, AttentionSpec],
    *,
    hma_enabled: bool = True,
    packed_layout: PackedLayout = PackedLayout.STRIDE,
    size_ratio: float | None = 1.5,
) -> Grouping:
    """The whole model's groups, in vLLM's decision order (CONTRIBUTING.md §2.5); ``packed_layout``
    is the release's DeepSeek-V4 block rule, ``size_ratio`` its group-size rule
    (``_hybrid_groups``)."""
    specs = dict(layer_specs)
    if not specs:
        return Grouping(groups=(), kind=GroupingKind.EMPTY)
    warnings: tuple[str, ...] = ()
    # unify_hybrid_kv_cache_specs returns early for uniform and uniform-type specs (DeepSeek-V3.2's
    # MLA + indexer layers), so disabling HMA changes nothing for them.
    if not hma_enabled and not _is_uniform(list(specs.values())) and not _uniform_type(specs):
        if not any(type(s) is FullAttentionSpec for s in specs.values()):
            # kv_cache_utils.unify_hybrid_kv_cache_specs: nothing to promote the local layers to.
            raise CalcError(
                "unsupported",
                "Hybrid KV cache manager is disabled but failed to convert the KV cache "
                "specs to one unified type.",
                field="disable_hybrid_kv_cache_manager",
            )
        full_block = min(
            (s.block_size for s in specs.values() if type(s) is FullAttentionSpec),
            default=next(iter(specs.values())).block_size,
        )
        promoted = {n: promote_to_full(s, full_block) for n, s in specs.items()}
        if promoted != specs:
            warnings = (HMA_DISABLED_WARNING,)
        specs = promoted
    values = list(specs.values())
    if _is_uniform(values):
        return Grouping(
            groups=(KVCacheGroup(layer_names=tuple(specs), spec=_merged(values)),),
            kind=GroupingKind.UNIFORM,
            warnings=warnings,
        )
    if _uniform_type(specs):
        return Grouping(
            groups=(
                KVCacheGroup(layer_names=tuple(specs), spec=UniformTypeSpec(layer_specs=specs)),
            ),
            kind=GroupingKind.UNIFORM_TYPE,
            warnings=warnings,
        )
    packed = _packed_groups(specs, packed_layout)
    if packed is not None:
        return Grouping(
            groups=packed, kind=GroupingKind.PACKED, warnings=warnings, packed_layout=packed_layout
        )
    unified = _unify_page_size(specs)
    groups, padding, pad_warnings = _hybrid_groups(unified, size_ratio)
    return Grouping(
        groups=groups,
        kind=GroupingKind.HYBRID,
        warnings=warnings + pad_warnings,
        num_padding_layers=padding,
    )


def project_to_worker(grouping: Grouping, worker_layers: set[str]) -> Grouping:
    """One worker's view: each group keeps only the layers that worker owns
    (kv_cache_utils._project_kv_cache_groups_to_worker)."""
    groups = []
    for g in grouping.groups:
        names = tuple(n for n in g.layer_names if n in worker_layers)
        spec = g.spec
        if isinstance(spec, UniformTypeSpec):
            spec = UniformTypeSpec(layer_specs={n: spec.layer_specs[n] for n in names})
        groups.append(KVCacheGroup(layer_names=names, spec=spec))
    return replace(grouping, groups=tuple(groups))
