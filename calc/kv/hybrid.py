"""Mamba / linear-attention hybrids before the KV specs: the cache mode and the block-size
alignment.

Mirrors vllm/model_executor/models/config.py ``MambaModelConfig.verify_and_update_config``
(``mamba_cache_mode`` from prefix caching) and vllm/platforms/interface.py
``Platform.update_block_size_for_backend`` / ``_align_hybrid_block_size`` (the attention block
raised until one attention page holds one Mamba state, the Mamba page padded to match), as read
at vLLM main 7cfb97e3 (same rules at the pinned 6adad087). Older releases: the alignment lived in
``HybridAttentionMambaModelConfig.verify_and_update_config`` (before #37467, 0.20.0) with a fixed
kernel alignment (16; 64 for MLA), and before ``mamba_cache_mode`` (#30877, 0.15.0) prefix caching
on a model that supports it cached a state per block (today's "all").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import vllm_text
from ..arch.families import row_of
from ..arch.model import LayerKind, ModelSpec
from ..deployment import Deployment
from ..errors import CalcError
from ..units import cdiv
from .kv_spec import (
    FullAttentionSpec,
    MambaCacheMode,
    MambaSpec,
    MLAAttentionSpec,
    kv_dtype_bytes,
    mamba_page_size_bytes,
    mamba_state_dtypes,
    mamba_state_shapes,
)

__all__ = [
    "MambaPlan",
    "plan_mamba",
    "attention_bytes_per_token",
    "MIN_KERNEL_BLOCK_SIZE",
    "MLA_HYBRID_ALIGNMENT",
]

MIN_KERNEL_BLOCK_SIZE = 16
"""Smallest kernel block of FlashAttention, FlashInfer and Triton (``MultipleOf(16)`` / ``[16, 32,
64]``)."""
MLA_HYBRID_ALIGNMENT = 128
"""``_align_hybrid_block_size``: MLA hybrids align the attention block to 128 (#50000)."""
_OLD_MLA_ALIGNMENT = 64
"""Before #37467: ``kernel_block_alignment_size`` 64 for MLA (128 only with
VLLM_ATTENTION_BACKEND=CUTLASS_MLA; a Kimi-Linear 0.11 log confirms 64). From #37467 to #50000 it is
the MLA backend's smallest kernel block: FlashMLA's 64 (the Hopper default) is assumed; TritonMLA
would give 16, CUTLASS MLA 128."""


@dataclass(frozen=True, kw_only=True)
class MambaPlan:
    """How vLLM resolved a hybrid model's Mamba cache before building the KV specs."""

    enable_prefix_caching: bool
    """Whether prefix caching is on for the hybrid (the flag, or the release's default)."""
    mamba_cache_mode: MambaCacheMode
    """The resolved ``--mamba-cache-mode`` (``none`` turned into ``align`` with prefix caching)."""
    attention_block_size: int
    """``cache_config.block_size`` after the alignment."""
    mamba_block_size: int
    """``cache_config.mamba_block_size``: the attention block (align, all) or ``max_model_len``
    (none)."""
    mamba_page_size_bytes: int
    """One layer's state per GPU, unpadded."""
    mamba_page_size_padded: int | None
    """``cache_config.mamba_page_size_padded``: the attention page, when it differs."""
    num_speculative_blocks: int
    """Extra states per request for speculative tokens (``S``)."""
    shapes: tuple[tuple[int, ...], ...]
    """One Mamba layer's per-GPU state shapes (already divided by TP)."""
    dtypes: tuple[str, ...]
    """One dtype per shape (the conv and SSM state dtypes)."""
    lines: tuple[str, ...]
    """What vLLM logs while resolving these, in its order."""

    def spec(self) -> MambaSpec:
        return MambaSpec(
            block_size=self.mamba_block_size,
            shapes=self.shapes,
            dtypes=self.dtypes,
            page_size_padded=self.mamba_page_size_padded,
            mamba_cache_mode=self.mamba_cache_mode,
            num_speculative_blocks=self.num_speculative_blocks,
        )


def attention_bytes_per_token(model: ModelSpec, dep: Deployment) -> int:
    """``attn_tok``: the page of one token of one attention layer on one GPU.

    ``FullAttentionSpec(block_size=1, ...)`` or ``MLAAttentionSpec(block_size=1, ...)`` as
    ``_align_hybrid_block_size`` builds it (identity ``customize_spec`` for 16-bit and fp8 caches).
    """
    kv = dep.kv_cache_dtype
    e = kv_dtype_bytes(kv if kv != "fp8_ds_mla" else "fp8", model.dtype)
    if LayerKind.MLA in model.layer_kinds:
        return MLAAttentionSpec(
            block_size=1,
            num_kv_heads=1,
            head_size=model.head_size,
            head_size_v=model.head_size,
            dtype_bytes=e,
            cache_dtype_str=kv,
        ).real_page_size_bytes
    heads = max(1, model.total_num_kv_heads // dep.tensor_parallel_size)
    return FullAttentionSpec(
        block_size=1,
        num_kv_heads=heads,
        head_size=model.head_size,
        head_size_v=model.head_size_v,
        dtype_bytes=e,
    ).real_page_size_bytes


def _cache_mode(model: ModelSpec, dep: Deployment, lines: list[str]) -> tuple[bool, MambaCacheMode]:
    """Prefix caching and ``mamba_cache_mode`` as ``MambaModelConfig.verify_and_update_config``
    leaves them."""
    rules = dep.rules
    assert model.mamba is not None
    prefix = dep.enable_prefix_caching
    if prefix is None:
        # ModelConfig.is_prefix_caching_supported: generative hybrids on since #40996.
        prefix = rules.hybrid_prefix_caching_default
    asked = dep.mamba_cache_mode
    if asked is not None and asked not in tuple(MambaCacheMode):
        raise CalcError(
            "bad_choice",
            f"mamba_cache_mode must be one of none, align, all, got {asked!r}",
            field="mamba_cache_mode",
            value=asked,
            choices="none, align, all",
        )
    if asked == MambaCacheMode.ALL and rules.mamba_all_mode_removed:
        # vllm/config/cache.py MambaCacheMode = Literal["align", "none"] from 0.32.0: the parser
        # refuses 'all'
        raise CalcError(
            "bad_choice",
            f"mamba_cache_mode 'all' was removed in vLLM 0.32.0 (rules: {rules.description}); "
            "use align or none",
            field="mamba_cache_mode",
            value=asked,
            choices="none, align",
        )
    if not rules.mamba_cache_modes:
        if asked is not None:
            raise CalcError(
                "unsupported",
                f"--mamba-cache-mode needs vLLM 0.15.0 or newer (rules: {rules.description})",
                field="mamba_cache_mode",
                value=asked,
            )
        # Before #30877 prefix caching on a model that supports it cached a state per block;
        # otherwise vLLM disabled prefix caching for the model.
        if prefix and model.mamba.supports_all_mode:
            return True, MambaCacheMode.ALL
        if prefix:
            lines.append(vllm_text.MAMBA_PREFIX_CACHING_DISABLED)
        return False, MambaCacheMode.NONE
    mode = MambaCacheMode(asked or MambaCacheMode.NONE)
    if prefix:
        if mode == MambaCacheMode.NONE:
            mode = MambaCacheMode.ALIGN
        elif mode == MambaCacheMode.ALL and not model.mamba.supports_all_mode:
            lines.append(vllm_text.MAMBA_ALL_FALLBACK_WARNING)
            mode = MambaCacheMode.ALIGN
        return True, mode
    if mode != MambaCacheMode.NONE:
        lines.append(vllm_text.MAMBA_NONE_WITHOUT_PREFIX_CACHING_WARNING)
    return False, MambaCacheMode.NONE


def _kernel_alignment(model: ModelSpec, dep: Deployment, block_size: int) -> int:
    """``kalign``: the attention block must be a multiple of it."""
    rules = dep.rules
    mla = LayerKind.MLA in model.layer_kinds
    if not rules.platform_block_alignment:
        return _OLD_MLA_ALIGNMENT if mla else MIN_KERNEL_BLOCK_SIZE
    kalign = max(MIN_KERNEL_BLOCK_SIZE, block_size)
    if mla:
        kalign = max(
            kalign, MLA_HYBRID_ALIGNMENT if rules.mla_hybrid_align_128 else _OLD_MLA_ALIGNMENT
        )
    return kalign


def plan_mamba(
    model: ModelSpec, dep: Deployment, *, max_model_len: int, num_speculative_tokens: int = 0
) -> MambaPlan:
    """Resolve the cache mode, align the attention block to the Mamba page and pad the Mamba
    page."""
    rules = dep.rules
    m = model.mamba
    if m is None:
        raise ValueError("plan_mamba needs a model with Mamba / linear-attention layers")
    removed = row_of(model.model_type).removed  # the family table: (last release, removing PR)
    if removed is not None and rules.removed_bamba_minimax:
        last, pr = removed
        raise CalcError(
            "model_removed",
            f"{model.model_type}: vLLM removed this model (#{pr}); the last release that serves "
            f"it is {last}",
            field="vllm_version",
            model_type=model.model_type,
            value=last,
        )
    if rules.v0_engine or not rules.hybrid_groups:
        raise CalcError(
            "unsupported",
            f"{model.model_type}: Mamba / linear-attention hybrids are planned with the hybrid "
            f"KV cache manager of vLLM 0.9.2 and newer (rules: {rules.description})",
            field="vllm_version",
            model_type=model.model_type,
        )
    if dep.disable_hybrid_kv_cache_manager:
        # kv_cache_utils.unify_hybrid_kv_cache_specs -> _promote_local_kv_cache_specs: nothing to
        # promote.
        raise CalcError(
            "unsupported",
            vllm_text.HMA_PROMOTION_ERROR,
            field="disable_hybrid_kv_cache_manager",
            model_type=model.model_type,
        )
    lines: list[str] = []
    if row_of(model.model_type).nemotron_ssm_dtype and dep.mamba_ssm_cache_dtype == "auto":
        # NemotronHForCausalLMConfig.verify_and_update_config runs before the hybrid hook.
        lines.append(vllm_text.nemotron_h_ssm_dtype_line(m.ssm_dtype or "float32"))
    prefix, mode = _cache_mode(model, dep, lines)
    spec_blocks = num_speculative_tokens
    shapes = mamba_state_shapes(
        m, tensor_parallel_size=dep.tensor_parallel_size, num_spec=num_speculative_tokens
    )
    dtypes = mamba_state_dtypes(
        m,
        model_dtype=model.dtype,
        mamba_cache_dtype=dep.mamba_cache_dtype,
        mamba_ssm_cache_dtype=dep.mamba_ssm_cache_dtype,
    )
    mamba_page = mamba_page_size_bytes(shapes, dtypes)
    # Phase 1: the backend's preferred block (16 for FA/FlashInfer/Triton) unless the user gave one.
    block = dep.effective_block_size
    mamba_block = max_model_len if mode == MambaCacheMode.NONE else block
    padded: int | None = None
    if model.is_hybrid_mamba and mamba_page > 0:
        attn_tok = attention_bytes_per_token(model, dep)
        kalign = _kernel_alignment(model, dep, block)
        if mode == MambaCacheMode.ALL:
            chunk = math.lcm(m.chunk_size, kalign)
            attn_block = chunk * cdiv(cdiv(mamba_page, attn_tok), chunk)
            mamba_block = attn_block
        else:
            attn_block = kalign * cdiv(mamba_page, kalign * attn_tok)
        if block < attn_block:
            block = attn_block
            lines.append(vllm_text.attention_block_size_line(block))
        if mode == MambaCacheMode.ALIGN:
            mamba_block = block
        attn_page = block * attn_tok
        if attn_page != mamba_page:
            padded = attn_page
            lines.append(vllm_text.mamba_padding_line(100 * (attn_page - mamba_page) / mamba_page))
    return MambaPlan(
        enable_prefix_caching=prefix,
        mamba_cache_mode=mode,
        attention_block_size=block,
        mamba_block_size=mamba_block,
        mamba_page_size_bytes=mamba_page,
        mamba_page_size_padded=padded,
        num_speculative_blocks=spec_blocks,
        shapes=shapes,
        dtypes=dtypes,
        lines=tuple(lines),
    )
