"""Per-layer KV-cache specs: the memory of one block (page) and what one request can pin.

Mirrors vllm/v1/kv_cache_interface.py (AttentionSpec, FullAttentionSpec,
MLAAttentionSpec, SlidingWindowSpec, ChunkedLocalAttentionSpec,
UniformTypeKVCacheSpecs) at vLLM main 6adad08767583f52eb4d2122111af0bf638ed5e6;
MambaSpec and the state shapes/dtypes of vllm/model_executor/layers/mamba/mamba_utils.py
as read at 7cfb97e33791a348cd5d7b622cca521d82d8399f (same rules at 6adad087 for these).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from ..arch.model import LayerKind, MambaConfig, MambaMixer
from ..errors import CalcError
from ..units import cdiv, round_up

__all__ = [
    "KV_CACHE_DTYPES",
    "UNQUANTIZED_KV_DTYPES",
    "kv_dtype_bytes",
    "SizingContext",
    "FullAttentionSpec",
    "SlidingWindowSpec",
    "ChunkedLocalAttentionSpec",
    "MLAAttentionSpec",
    "UniformTypeSpec",
    "KVSpec",
    "mergeable",
    "promote_to_full",
    "MambaCacheMode",
    "MAMBA_DTYPES",
    "MambaSpec",
    "mamba_state_shapes",
    "mamba_state_dtypes",
    "mamba_page_size_bytes",
    "SlidingWindowMLASpec",
    "round_up",
]

# The --kv-cache-dtype values of the CLI contract, plus fp8_inc and the MLA layout
# (vllm/config/cache.py CacheDType; vllm/utils/torch_utils.py STR_DTYPE_TO_TORCH_DTYPE).
# Then the quantized layouts of 0.20+ (kv_dtypes.py: the releases and GPUs that take them;
# turboquant is accepted as input and refused as not modelled, naming why).
KV_CACHE_DTYPES = (
    "auto",
    "bfloat16",
    "float16",
    "float32",
    "fp8",
    "fp8_e4m3",
    "fp8_e5m2",
    "fp8_inc",
    "fp8_ds_mla",
    "nvfp4",
    "int8_per_token_head",
    "fp8_per_token_head",
    "int4_per_token_head",
    "turboquant_k8v4",
    "turboquant_4bit_nc",
    "turboquant_k3v4_nc",
    "turboquant_3bit_nc",
    "nvfp4_4over6",
    "nvfp4_ds_mla",
    "ultraquant_4bit",
    "octave_k3v4",
    "octave_k3v3",
    "octave_k3v3_compact",
)
UNQUANTIZED_KV_DTYPES = KV_CACHE_DTYPES[:4]
"""The ones an fp8 KV cache would shrink (``auto`` follows the model's 16-bit dtype)."""
_DTYPE_BYTES = {
    "bfloat16": 2,
    "float16": 2,
    "float32": 4,
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "fp8_inc": 1,
    "fp8_ds_mla": 1,
    "nvfp4": 1,
    "int8_per_token_head": 1,
    "fp8_per_token_head": 1,
    "int4_per_token_head": 1,
    "nvfp4_4over6": 1,
}

# fp8_ds_mla stores 656 bytes per token per layer (DeepSeek-V3.2 layout).
FP8_DS_MLA_BYTES_PER_TOKEN = 656


def kv_dtype_bytes(kv_cache_dtype: str, model_dtype: str) -> int:
    """Bytes per stored element: ``auto`` follows the model dtype."""
    name = model_dtype if kv_cache_dtype == "auto" else kv_cache_dtype
    if name not in _DTYPE_BYTES:
        raise CalcError(
            "bad_choice",
            f"kv_cache_dtype must be one of {', '.join(KV_CACHE_DTYPES)}, got {kv_cache_dtype!r}",
            field="kv_cache_dtype",
            value=kv_cache_dtype,
            choices=", ".join(KV_CACHE_DTYPES),
        )
    return _DTYPE_BYTES[name]


@dataclass(frozen=True, kw_only=True)
class SizingContext:
    """What a spec needs from the engine config to size one request."""

    max_model_len: int
    """The length checked (``max_model_len``)."""
    in_flight_tokens: int = 0
    """``F``: tokens scheduled but not yet retired (sliding/chunked layers only)."""
    dcp: int = 1
    """Decode-context-parallel size."""


@dataclass(frozen=True, kw_only=True)
class FullAttentionSpec:
    """A layer that keeps K and V for every token of the request."""

    block_size: int
    """Tokens per block (``cache_config.block_size`` after backend and hybrid rules)."""
    num_kv_heads: int
    """KV heads on this GPU (already divided by tensor parallelism)."""
    head_size: int
    """Per-head size of K."""
    head_size_v: int
    """Per-head size of V."""
    dtype_bytes: int
    """Bytes per cached element of the KV cache dtype."""
    sliding_window: int | None = None
    """Recorded when a sliding layer was promoted (HMA off); still reserves all tokens."""
    attention_chunk_size: int | None = None
    """Recorded when a chunked-local layer was promoted (HMA off); still reserves all tokens."""
    page_size_padded: int | None = None
    """The page after page unification pads it (block-strided backends); None: the real page."""
    content_bytes: int | None = None
    """Bytes one KV head of one token takes, K and V together, for the quantized layouts (nvfp4, the
    per-token-head ones: scales and packing included, kv_dtypes.py); None: (head_size + head_size_v)
    × dtype."""

    kind = LayerKind.FULL

    @property
    def real_page_size_bytes(self) -> int:
        if self.content_bytes is not None:
            return self.block_size * self.num_kv_heads * self.content_bytes
        return (
            self.block_size
            * self.num_kv_heads
            * (self.head_size + self.head_size_v)
            * self.dtype_bytes
        )

    @cached_property
    def page_size_bytes(self) -> int:
        return (
            self.page_size_padded
            if self.page_size_padded is not None
            else self.real_page_size_bytes
        )

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        tokens = cdiv(ctx.max_model_len, ctx.dcp) if ctx.dcp > 1 else ctx.max_model_len
        return cdiv(tokens, self.block_size) * self.page_size_bytes

    def merge_key(self) -> tuple[object, ...]:
        # FullAttentionSpec.merge: specs may differ only in a recorded window/chunk.
        return (
            self.kind,
            self.block_size,
            self.num_kv_heads,
            self.head_size,
            self.head_size_v,
            self.dtype_bytes,
            self.page_size_padded,
            self.content_bytes,
        )


class _CompressedPage:
    """DeepSeek-V4's page rule, shared by its MLA and sliding-window specs (kv_cache_interface.py):
    one stored entry per ``compress_ratio`` tokens, ``state_content_bytes`` per entry when given
    (else the heads' K), and the page rounded up to ``alignment`` unless a padded size is set."""

    block_size: int
    num_kv_heads: int
    head_size: int
    dtype_bytes: int
    page_size_padded: int | None
    compress_ratio: int
    alignment: int | None
    state_content_bytes: int | None

    @property
    def storage_block_size(self) -> int:
        return self.block_size // self.compress_ratio

    @property
    def real_page_size_bytes(self) -> int:
        per_entry = (
            self.state_content_bytes
            if self.state_content_bytes is not None
            else (self.num_kv_heads * self.head_size * self.dtype_bytes)
        )
        return self.storage_block_size * per_entry

    @cached_property
    def page_size_bytes(self) -> int:
        if self.page_size_padded is not None:
            return self.page_size_padded
        real = self.real_page_size_bytes
        return round_up(real, self.alignment) if self.alignment is not None else real


@dataclass(frozen=True, kw_only=True)
class MLAAttentionSpec(_CompressedPage, FullAttentionSpec):
    """Multi-head latent attention: one latent vector per token, no K/V factor 2."""

    cache_dtype_str: str = "auto"
    """The ``--kv-cache-dtype`` as given: ``fp8_ds_mla`` has its own fixed per-token layout."""
    compress_ratio: int = 1
    """DeepSeek-V4: the layer stores one entry per ``compress_ratio`` tokens
    (``storage_block_size = block_size // compress_ratio``)."""
    alignment: int | None = None
    """DeepSeek-V4: the page is rounded up to a multiple of this (``_apply_alignment_padding``)."""
    state_content_bytes: int | None = None
    """DeepSeek-V4 fp8_ds_mla: bytes per stored token (584), replacing ``head_size × dtype``."""
    kind = LayerKind.MLA

    @property
    def real_page_size_bytes(self) -> int:
        # kv_cache_interface.py MLAAttentionSpec: no K/V factor 2 (head_size_v = 0 for MLA since
        # #51704).
        if self.state_content_bytes is None and self.cache_dtype_str == "fp8_ds_mla":
            return self.block_size * FP8_DS_MLA_BYTES_PER_TOKEN
        return super().real_page_size_bytes

    def merge_key(self) -> tuple[object, ...]:
        return super().merge_key() + (
            self.cache_dtype_str,
            self.compress_ratio,
            self.alignment,
            self.state_content_bytes,
        )


@dataclass(frozen=True, kw_only=True)
class SlidingWindowSpec(FullAttentionSpec):
    """A layer that keeps only the last ``sliding_window`` tokens (plus in-flight ones)."""

    kind = LayerKind.SLIDING

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        if ctx.dcp > 1:
            raise CalcError(
                "unsupported",
                "sliding window with decode context parallel is not supported by vLLM",
                field="decode_context_parallel_size",
            )
        assert self.sliding_window is not None
        tokens = min(self.sliding_window - 1 + ctx.in_flight_tokens, ctx.max_model_len)
        # +1: the window need not start on a block boundary.
        return (cdiv(tokens, self.block_size) + 1) * self.page_size_bytes

    def merge_key(self) -> tuple[object, ...]:
        return super().merge_key() + (self.sliding_window,)


@dataclass(frozen=True, kw_only=True)
class SlidingWindowMLASpec(_CompressedPage, SlidingWindowSpec):
    """DeepSeek-V4's sliding-window caches with one vector per token (kv_cache_interface.py
    ``SlidingWindowMLASpec``): the SWA KV of every layer (sparse_swa.py ``DeepseekV4SWACache``) and
    the compressors' fp32 states (compressor.py ``CompressorStateCache``)."""

    compress_ratio: int = 1
    """Tokens per stored entry (1 for the SWA KV; the compressors' ratio for their states)."""
    alignment: int | None = None
    """The page is rounded up to a multiple of this (``_apply_alignment_padding``)."""
    state_content_bytes: int | None = None
    """Bytes per stored entry (the compressors' fp32 states), replacing ``head_size × dtype``."""
    kind = LayerKind.SLIDING

    def merge_key(self) -> tuple[object, ...]:
        return super().merge_key() + (self.compress_ratio, self.alignment, self.state_content_bytes)


@dataclass(frozen=True, kw_only=True)
class ChunkedLocalAttentionSpec(FullAttentionSpec):
    """Llama 4's chunked local attention."""

    kind = LayerKind.CHUNKED

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        assert self.attention_chunk_size is not None
        tokens = min(self.attention_chunk_size + ctx.in_flight_tokens, ctx.max_model_len)
        return cdiv(tokens, self.block_size) * self.page_size_bytes

    def merge_key(self) -> tuple[object, ...]:
        return super().merge_key() + (self.attention_chunk_size,)


class MambaCacheMode(StrEnum):
    """``--mamba-cache-mode`` (vllm/config/cache.py ``MambaCacheMode``, since #30877)."""

    NONE = "none"
    """One state per request: no prefix caching of Mamba states."""
    ALIGN = "align"
    """Prefix caching: the running state plus one cached at a block boundary."""
    ALL = "all"
    """Prefix caching: a state per block of the request."""


MAMBA_DTYPES = ("auto", "float32", "float16", "bfloat16")
"""``--mamba-cache-dtype`` / ``--mamba-ssm-cache-dtype`` values (vllm/config/cache.py
``MambaDType``)."""
_MAMBA_DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}


def _divide(a: int, tp: int, what: str) -> int:
    """vllm/distributed/utils.py ``divide``: exact division, asserted."""
    if a % tp:
        raise CalcError(
            "mamba_tp_not_divisor",
            f"{what} ({a}) is not divisible by tensor parallel size ({tp}); vLLM asserts it",
            field="tensor_parallel_size",
            value=tp,
            limit=a,
            key=what,
        )
    return a // tp


def mamba_state_shapes(
    m: MambaConfig, *, tensor_parallel_size: int, num_spec: int = 0
) -> tuple[tuple[int, ...], ...]:
    """Per-GPU state shapes (vllm/model_executor/layers/mamba/mamba_utils.py
    ``MambaStateShapeCalculator``).

    Conv states are ``(K - 1 + num_spec, dim)`` in the default "SD" layout (same product as "DS").
    """
    tp = tensor_parallel_size
    k = m.conv_kernel
    if m.mixer == MambaMixer.MAMBA1:  # mamba1_state_shape
        inner = _divide(m.intermediate_size, tp, "Mamba intermediate size")
        return ((k - 1, inner), (inner, m.state_size))
    if m.mixer == MambaMixer.MAMBA2:  # mamba2_state_shape with extra_groups_for_head_shards
        groups = m.n_groups if m.n_groups % tp == 0 else m.n_groups + (tp - m.n_groups)
        conv_dim = _divide(
            m.intermediate_size + 2 * groups * m.state_size, tp, "Mamba conv dimension"
        )
        return (
            (k - 1 + num_spec, conv_dim),
            (_divide(m.num_heads, tp, "Mamba heads"), m.head_dim, m.state_size),
        )
    if m.mixer == MambaMixer.SHORT_CONV:  # short_conv_state_shape
        return ((k - 1, _divide(m.conv_dim, tp, "short conv dimension")),)
    if m.mixer == MambaMixer.GDN:  # gated_delta_net_state_shape
        conv_dim = 2 * m.num_k_heads * m.head_k_dim + m.num_v_heads * m.head_v_dim
        return (
            (k - 1 + num_spec, _divide(conv_dim, tp, "Gated DeltaNet conv dimension")),
            (_divide(m.num_v_heads, tp, "Gated DeltaNet value heads"), m.head_v_dim, m.head_k_dim),
        )
    if m.mixer == MambaMixer.KDA:  # kda_state_shape (Hk = H, Dk = D)
        inner = m.num_heads * m.head_dim
        return (
            (k - 1 + num_spec, _divide(inner + 2 * inner, tp, "KDA conv dimension")),
            (_divide(m.num_heads, tp, "KDA heads"), m.head_dim, m.head_dim),
        )
    # linear_attention_state_shape: floor division by TP
    return ((m.num_heads // tp, m.head_dim, m.head_dim),)


def mamba_state_dtypes(
    m: MambaConfig,
    *,
    model_dtype: str,
    mamba_cache_dtype: str = "auto",
    mamba_ssm_cache_dtype: str = "auto",
) -> tuple[str, ...]:
    """One dtype per state (mamba_utils.py ``MambaStateDtypeCalculator``; independent of
    --kv-cache-dtype).

    ``auto`` conv → the model dtype; ``auto`` ssm → the model's own default (Nemotron-H float32,
    Qwen3.5 ``mamba_ssm_dtype``), else the conv dtype. KDA's recurrent state is float32 always.
    """
    for name, value in (
        ("mamba_cache_dtype", mamba_cache_dtype),
        ("mamba_ssm_cache_dtype", mamba_ssm_cache_dtype),
    ):
        if value not in MAMBA_DTYPES:
            raise CalcError(
                "bad_choice",
                f"{name} must be one of {', '.join(MAMBA_DTYPES)}, got {value!r}",
                field=name,
                value=value,
                choices=", ".join(MAMBA_DTYPES),
            )
    conv = model_dtype if mamba_cache_dtype == "auto" else mamba_cache_dtype
    if m.mixer in (MambaMixer.SHORT_CONV, MambaMixer.LINEAR_ATTENTION):
        return (conv,)
    if m.mixer == MambaMixer.KDA:
        return (conv, "float32")
    ssm = mamba_ssm_cache_dtype
    if ssm == "auto":
        ssm = m.ssm_dtype or conv
    return (conv, ssm)


def mamba_page_size_bytes(shapes: tuple[tuple[int, ...], ...], dtypes: tuple[str, ...]) -> int:
    """Σ prod(shape) × bytes (MambaSpec.page_size_bytes without padding)."""
    total = 0
    for shape, dtype in zip(shapes, dtypes, strict=True):
        n = 1
        for d in shape:
            n *= d
        total += n * _MAMBA_DTYPE_BYTES[dtype]
    return total


@dataclass(frozen=True, kw_only=True)
class MambaSpec:
    """A Mamba / linear-attention layer's state (vllm/v1/kv_cache_interface.py ``MambaSpec``)."""

    block_size: int
    """Tokens per block: ``cache_config.mamba_block_size`` (the attention block in align/all
    mode, ``max_model_len`` in none mode)."""
    shapes: tuple[tuple[int, ...], ...]
    """Per-GPU state shapes (already divided by TP)."""
    dtypes: tuple[str, ...]
    """One dtype per shape."""
    page_size_padded: int | None = None
    """``cache_config.mamba_page_size_padded``: the attention page after hybrid alignment."""
    mamba_cache_mode: MambaCacheMode = MambaCacheMode.NONE
    """The resolved ``--mamba-cache-mode``: the states a request keeps (CONTRIBUTING.md §2.4)."""
    num_speculative_blocks: int = 0
    """``S``: one extra state per speculative token."""

    kind = LayerKind.MAMBA
    sliding_window = None
    attention_chunk_size = None

    @property
    def real_page_size_bytes(self) -> int:
        return mamba_page_size_bytes(self.shapes, self.dtypes)

    @cached_property
    def page_size_bytes(self) -> int:
        if self.page_size_padded is not None:
            assert self.page_size_padded >= self.real_page_size_bytes
            return self.page_size_padded
        return self.real_page_size_bytes

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        """(1 + S) pages in none mode, (2 + S) in align, (cdiv(L, block) + S) in all; no DCP
        division."""
        s = self.num_speculative_blocks
        if self.mamba_cache_mode == MambaCacheMode.ALL:
            return (cdiv(ctx.max_model_len, self.block_size) + s) * self.page_size_bytes
        if self.mamba_cache_mode == MambaCacheMode.ALIGN:
            return (2 + s) * self.page_size_bytes
        return (1 + s) * self.page_size_bytes

    def merge_key(self) -> tuple[object, ...]:
        # KVCacheSpec.merge: identical specs only.
        return (
            self.kind,
            self.block_size,
            self.shapes,
            self.dtypes,
            self.page_size_padded,
            self.mamba_cache_mode,
            self.num_speculative_blocks,
        )


AttentionSpec = (
    FullAttentionSpec
    | MLAAttentionSpec
    | SlidingWindowSpec
    | SlidingWindowMLASpec
    | ChunkedLocalAttentionSpec
    | MambaSpec
)


@dataclass(frozen=True, kw_only=True)
class UniformTypeSpec:
    """One group of same-kind layers whose pages differ (vLLM's UniformTypeKVCacheSpecs)."""

    layer_specs: Mapping[str, AttentionSpec]
    """Layer name → its own spec; a block costs the sum of their pages."""
    kind = "uniform_type"

    @property
    def block_size(self) -> int:
        return next(iter(self.layer_specs.values())).block_size

    @cached_property
    def page_size_bytes(self) -> int:
        return sum(s.page_size_bytes for s in self.layer_specs.values())

    def max_memory_usage_bytes(self, ctx: SizingContext) -> int:
        # max_i cdiv(max_mem_i, page_i) × Σ page_i
        blocks = max(
            cdiv(s.max_memory_usage_bytes(ctx), s.page_size_bytes)
            for s in self.layer_specs.values()
        )
        return blocks * self.page_size_bytes


KVSpec = (
    FullAttentionSpec
    | MLAAttentionSpec
    | SlidingWindowSpec
    | SlidingWindowMLASpec
    | ChunkedLocalAttentionSpec
    | MambaSpec
    | UniformTypeSpec
)


def mergeable(a: AttentionSpec, b: AttentionSpec) -> bool:
    """True when vLLM's ``spec.merge`` would accept both in one group.

    FullAttentionSpec.merge tolerates a recorded window (or chunk) on some layers,
    but not two different ones.
    """
    if type(a) is not type(b) or a.merge_key() != b.merge_key():
        return False
    for attr in ("sliding_window", "attention_chunk_size"):
        x, y = getattr(a, attr), getattr(b, attr)
        if x is not None and y is not None and x != y:
            return False
    return True


def promote_to_full(spec: AttentionSpec, block_size: int) -> AttentionSpec:
    """HMA off: a local layer reserves every token
    (kv_cache_utils._promote_local_kv_cache_specs)."""
    if isinstance(spec, (SlidingWindowSpec, ChunkedLocalAttentionSpec)):
        return FullAttentionSpec(
            block_size=block_size,
            num_kv_heads=spec.num_kv_heads,
            head_size=spec.head_size,
            head_size_v=spec.head_size_v,
            dtype_bytes=spec.dtype_bytes,
            sliding_window=spec.sliding_window,
            attention_chunk_size=spec.attention_chunk_size,
            page_size_padded=spec.page_size_padded,
        )
    return spec
