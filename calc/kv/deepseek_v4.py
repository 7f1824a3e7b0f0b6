"""DeepSeek-V4's KV caches: five kinds of per-layer pages packed into one block slab.

Mirrors vLLM main (6adad087…, unchanged in the numbers at 2f41c894):
- vllm/models/deepseek_v4/attention.py ``DeepseekV4Attention.get_kv_cache_spec`` (the compressed MLA
  cache of C4A/C128A layers), ``_resolve_dsv4_kv_cache_dtype``, ``DeepseekV4IndexerCache``;
- vllm/v1/attention/backends/mla/sparse_swa.py ``DeepseekV4SWACache`` (every layer's sliding window,
  64-token blocks) and ``DeepseekSparseSWABackend`` (preferred block 256);
- vllm/models/deepseek_v4/compressor.py ``CompressorStateCache`` (fp32 compressor states);
- vllm/v1/kv_cache_interface.py ``MLAAttentionSpec`` / ``SlidingWindowMLASpec`` (``compress_ratio``,
  ``storage_block_size``, ``alignment``, ``state_content_bytes``);
- vllm/v1/core/kv_cache_utils.py ``group_and_unify_kv_cache_specs``, ``_get_packed_kv_cache_layout``
  (grouping.py, planner.py).
V4 came with #40860 (0.20.0). The same specs and pages (fp8_ds_mla, alignment 576) are in the
v0.20.0 … v0.25.1 tags; what changed is the pool block (grouping.PackedLayout): Σ MLA page sizes ×
layer tuples until 0.22.x, Σ page size × slots from #44454 (0.23.0), the packed stride from #48993
(merged 2026-07-22, first release inferred 0.27.0), the last one without padding the sliding pages
to the MLA ones.
"""

from __future__ import annotations

from ..arch.model import ModelSpec, SparseAttention
from ..errors import CalcError
from ..versions import RuleSet
from .grouping import PackedLayout
from .kv_spec import AttentionSpec, MLAAttentionSpec, SlidingWindowMLASpec

__all__ = [
    "SWA_BLOCK_SIZE",
    "V4_PREFERRED_BLOCK_SIZE",
    "FP8_DS_MLA_V4_BYTES",
    "BLOCK_SIZE_LINE",
    "FP8_DS_MLA_LINE",
    "INDEXER_LINE",
    "v4_kv_cache_dtype",
    "check_v4_supported",
    "build_v4_layer_specs",
    "packed_layout",
    "indexer_line",
]

SWA_BLOCK_SIZE = 64
"""DeepseekV4SWACache.block_size: fixed, so that a SWA page matches a C4A page of a 256-token
block."""
V4_PREFERRED_BLOCK_SIZE = 256
"""DeepseekSparseSWABackend.get_preferred_block_size."""
FP8_DS_MLA_V4_BYTES = 584
"""fp8_ds_mla per stored token: 448 B fp8 NoPE + 128 B bf16 RoPE + 8 B scales."""
_FP8_DS_MLA_ALIGNMENT = 576  # FlashMLA packing
_PLAIN_ALIGNMENT = 512  # plain bf16/fp8 rows (FlashInfer sparse, #44577)
_STATE_BLOCK = {4: 4, 128: 8}  # CompressorStateCache.block_size per compress ratio
_INDEXER_COMPRESS_RATIO = 4  # only C4A layers have an indexer
BLOCK_SIZE_LINE = "Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA backend."
FP8_DS_MLA_LINE = "Using DeepSeek's fp8_ds_mla KV cache format."
INDEXER_LINE = "Using FP8 indexer cache for Lightning Indexer."
"""DeepseekV4Indexer (attention.py); MXFP4 with --attention-config.use_fp4_indexer_cache, not
modelled."""
_INDEXER_LINE_0_20 = "Using FP8 indexer cache for Lighening Indexer."
"""v0.20.0-v0.20.2 (model_executor/layers/deepseek_v4_attention.py), spelling fixed by #41419
(0.21.0)."""
_ARCH = "DeepseekV4ForCausalLM"


def packed_layout(rules: RuleSet) -> PackedLayout:
    """The release's DeepSeek-V4 pool-block rule (grouping.PackedLayout)."""
    if rules.deepseek_v4_packed:
        return PackedLayout.STRIDE
    return PackedLayout.SLOTS if rules.deepseek_v4_slots else PackedLayout.TUPLES


def indexer_line(rules: RuleSet) -> str:
    return INDEXER_LINE if rules.v4_indexer_line_spelled else _INDEXER_LINE_0_20


def check_v4_supported(
    rules: RuleSet, *, pipeline_parallel_size: int, hma_enabled: bool, block_size: int
) -> None:
    """Refuse what vLLM does not serve, and what the calculator does not model (said as such)."""
    if not rules.deepseek_v4:
        # v0.19.1 model_executor/models/registry.py _raise_for_unsupported: no in-tree class before
        # #40860
        raise CalcError(
            "v4_not_served",
            f"Model architectures ['{_ARCH}'] are not supported for now. ({rules.description} "
            "has no DeepSeek-V4 model: it came with vLLM 0.20.0)",
            field="vllm_version",
            value=rules.description,
        )
    for name, value, modelled in (
        ("pipeline_parallel_size", pipeline_parallel_size, pipeline_parallel_size == 1),
        ("disable_hybrid_kv_cache_manager", True, hma_enabled),
        ("block_size", block_size, block_size % 128 == 0),
    ):
        # PP: the V2 model runner's in-flight batches and the per-stage tuple projection are not
        # modelled; block sizes below 128 leave C128A layers an empty page.
        if not modelled:
            raise CalcError(
                "v4_not_modelled",
                f"DeepSeek-V4 with {name} = {value} is not modelled by the calculator",
                field=name,
                value=value,
            )


def v4_kv_cache_dtype(kv_cache_dtype: str, rules: RuleSet) -> tuple[str, str | None]:
    """``_resolve_dsv4_kv_cache_dtype`` on the default attention classes (FlashMLA on SM 9/10,
    FlashInfer SM120 on SM 12), which all use the fp8_ds_mla layout: fp8 becomes fp8_ds_mla (with
    its log line); anything else fails vLLM's assertion, whose text (by release) is returned in the
    error. Before #44569 (0.20.0-0.22.x) ``DeepseekV4MLAAttention.__init__`` did the same with
    FlashMLA only."""
    if kv_cache_dtype == "fp8_ds_mla":
        return kv_cache_dtype, None
    if kv_cache_dtype.startswith("fp8"):
        return "fp8_ds_mla", FP8_DS_MLA_LINE
    if rules.v4_dtype_assert_ds_mla:
        text = "DeepseekV4 fp8_ds_mla layout only supports fp8 kv-cache, got"
    elif rules.v4_dtype_assert_flashmla:
        text = "DeepseekV4 FlashMLA fp8 layout only supports fp8 kv-cache, got"
    else:
        text = "DeepseekV4 only supports fp8 kv-cache format for now, got"
    raise CalcError(
        "v4_kv_cache_dtype",
        f"{text} {kv_cache_dtype} (vLLM's assertion); use --kv-cache-dtype fp8",
        field="kv_cache_dtype",
        value=kv_cache_dtype,
        assertion=text,
    )


def _sliding(
    block: int, head: int, dtype_bytes: int, window: int, ds: bool, content: int | None
) -> SlidingWindowMLASpec:
    return SlidingWindowMLASpec(
        block_size=block,
        num_kv_heads=1,
        head_size=head,
        head_size_v=0,
        dtype_bytes=dtype_bytes,
        sliding_window=window,
        state_content_bytes=content,
        alignment=_FP8_DS_MLA_ALIGNMENT if ds else _PLAIN_ALIGNMENT,
    )


def _compressed(
    block: int,
    head: int,
    dtype_bytes: int,
    ratio: int,
    ds: bool,
    content: int | None,
    cache_dtype: str,
) -> MLAAttentionSpec:
    return MLAAttentionSpec(
        block_size=block,
        num_kv_heads=1,
        head_size=head,
        head_size_v=0,
        dtype_bytes=dtype_bytes,
        compress_ratio=ratio,
        state_content_bytes=content,
        cache_dtype_str=cache_dtype,
        alignment=_FP8_DS_MLA_ALIGNMENT if ds else _PLAIN_ALIGNMENT,
    )


def build_v4_layer_specs(
    model: ModelSpec, *, kv_cache_dtype: str, block_size: int
) -> dict[str, AttentionSpec]:
    """Every KV-owning module of every decoder layer, in vLLM's registration order.

    ``kv_cache_dtype``: ``fp8_ds_mla`` (584 B per token, pages aligned to 576), else the plain-row
    layout of the FlashInfer sparse backend (``bfloat16``/``auto``: 2 B, ``fp8``: 1 B per value,
    pages aligned to 512). States are fp32; the FP8 indexer K cache is uint8 (132 B per token).
    """
    ds = kv_cache_dtype == "fp8_ds_mla"
    e = 1 if ds or kv_cache_dtype.startswith("fp8") else 2
    content = FP8_DS_MLA_V4_BYTES if ds else None
    head, window = model.head_size, model.sliding_window or 0
    specs: dict[str, AttentionSpec] = {}
    sparse = model.sparse if model.sparse is not None else SparseAttention()
    for i, ratio in enumerate(sparse.compress_ratios):
        attn = f"model.layers.{i}.self_attn"
        if ratio == _INDEXER_COMPRESS_RATIO:
            # DeepseekV4Indexer: its K cache (fp8 keys + fp32 scales) and its own compressor (head
            # 128)
            specs[f"{attn}.indexer.k_cache"] = _compressed(
                block_size, sparse.indexer_head_size, 1, ratio, ds, None, "auto"
            )
            specs[f"{attn}.indexer.compressor.state_cache"] = _state(
                sparse.index_head_dim, ratio, ds
            )
        specs[f"{attn}.swa_cache"] = _sliding(SWA_BLOCK_SIZE, head, e, window, ds, content)
        if ratio > 1:
            specs[f"{attn}.attn"] = _compressed(
                block_size, head, e, ratio, ds, content, kv_cache_dtype
            )
            specs[f"{attn}.compressor.state_cache"] = _state(head, ratio, ds)
    return specs


def _state(head_dim: int, ratio: int, ds: bool) -> SlidingWindowMLASpec:
    """CompressorStateCache: kv and score states (``2 × coff × head_dim`` fp32 values per token,
    coff = 2 when the windows overlap (C4), else 1), window ``coff × ratio``, 4- or 8-token
    blocks."""
    if ratio not in _STATE_BLOCK:
        raise CalcError(
            "config_bad_value",
            f"config.json: compress ratio {ratio} is not one vLLM supports (0, 4 or 128)",
            field="config",
            key="compress_ratios",
            value=ratio,
        )
    coff = 2 if ratio == 4 else 1
    return _sliding(_STATE_BLOCK[ratio], 2 * coff * head_dim, 4, coff * ratio, ds, None)
