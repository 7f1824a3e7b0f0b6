"""The KV block size vLLM picks when the reader gives none: it follows the attention backend.

Non-MLA models keep 16 on CUDA in every release. MLA models take their backend's
page: FlashMLA's 64 on Hopper, CUTLASS MLA's 128 or FlashInfer-MLA's 64/32 on
Blackwell, as each release chose them (vllm/platforms/cuda.py
``check_and_update_config`` up to 0.17; since #35122 (0.18.0)
``Platform.update_block_size_for_backend`` with the backend's
``get_preferred_block_size``, vllm/v1/attention/backends/mla/). Hybrid Mamba
models align their own block (``hybrid.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..arch.model import ModelSpec
from ..deployment import DEFAULT_BLOCK_SIZE, Deployment
from ..errors import CalcError
from .deepseek_v4 import BLOCK_SIZE_LINE as V4_BLOCK_SIZE_LINE
from .deepseek_v4 import V4_PREFERRED_BLOCK_SIZE, v4_kv_cache_dtype

__all__ = [
    "BlockSizeChoice",
    "default_block_size",
    "gpu_major",
    "sparse_mla_kv_cache_dtype",
    "compute_capability",
    "is_rocm",
]


@dataclass(frozen=True, kw_only=True)
class BlockSizeChoice:
    """The block size and the line vLLM logs when it is not the default 16."""

    block_size: int
    """Tokens per KV cache block the attention backend takes."""
    line: str | None = None
    """vLLM's log line announcing a non-default block size; None for 16."""


# Product-name fragments → CUDA compute capability major (9 Hopper, 10 datacenter Blackwell,
# 12 consumer/workstation Blackwell); anything else is treated as pre-Hopper (8.x or older).
_MAJOR_BY_NAME = (
    (("gh200", "h100", "h200", "h800", "h20"), 9),
    (("gb200", "gb300", "b200", "b300"), 10),
    (("gb10", "dgx spark", "rtx pro 6000", "rtx-pro-6000", "5090", "5080", "5070", "5060"), 12),
)


def gpu_major(dep: Deployment) -> int:
    """The GPU's compute capability major, from its catalog name (8 when unknown or pre-Hopper)."""
    name = f"{dep.gpu_name or ''} {dep.gpu_id or ''}".lower()
    for fragments, major in _MAJOR_BY_NAME:
        if any(f in name for f in fragments):
            return major
    return 8


# The catalog's CUDA GPUs → compute capability (NVIDIA's CUDA GPU table), for the backends'
# capability checks (the nvfp4 KV cache, kv_dtypes.py); longest fragments first so "rtx pro 6000" is
# not read as "rtx 6000 ada".
_CAPABILITY_BY_NAME = (
    (("gb10",), (12, 1)),
    (("rtx pro 6000", "5090", "5080", "5070", "5060"), (12, 0)),
    (("b300",), (10, 3)),
    (("gb200", "b200"), (10, 0)),
    (("gh200", "h100", "h200", "h800", "h20"), (9, 0)),
    (("4090", "4080", "4070", "4060", "rtx 6000 ada", "l40s", "l4"), (8, 9)),
    (("3090", "3080", "3070", "3060", "a10", "a40", "a5000", "a6000"), (8, 6)),
    (("a100", "a30"), (8, 0)),
    (("t4",), (7, 5)),
    (("v100",), (7, 0)),
)


def compute_capability(dep: Deployment) -> tuple[int, int] | None:
    """The GPU's CUDA compute capability from its catalog product name; None for a custom size or
    ROCm."""
    if dep.gpu_name is None or is_rocm(dep):
        return None
    return _capability_of(dep.gpu_name)


@lru_cache(maxsize=64)
def _capability_of(gpu_name: str) -> tuple[int, int] | None:
    """The table look-up, once per product name (every what-if of a plan asks it again)."""
    name = gpu_name.lower()
    for fragments, cc in _CAPABILITY_BY_NAME:
        if any(f in name for f in fragments):
            return cc
    return None


def is_rocm(dep: Deployment) -> bool:
    """An AMD Instinct GPU (vLLM's ROCm platform)."""
    return (dep.gpu_name or "").lower().startswith("amd")


def _forced(block: int, backend: str) -> BlockSizeChoice:
    return BlockSizeChoice(
        block_size=block, line=f"Forcing kv cache block size to {block} for {backend} backend."
    )


def _mla_before_backend_preference(dep: Deployment, major: int) -> BlockSizeChoice:
    """0.8.0–0.17.x: the platform forced the MLA backend's page (vllm/platforms/cuda.py)."""
    rules = dep.rules
    if major == 10 and rules.flashinfer_mla_blackwell:
        return _forced(64, "FlashInferMLA")  # DeepSeek head dims (qk_nope_head_dim 128)
    if major == 10 and rules.cutlass_mla_blackwell:
        return _forced(128, "CUTLASS_MLA")
    if major in (9, 10) and rules.flashmla_forced_block:
        return _forced(64, "FlashMLA")
    return BlockSizeChoice(block_size=DEFAULT_BLOCK_SIZE)


def default_block_size(model: ModelSpec, dep: Deployment) -> BlockSizeChoice:
    """The block size vLLM runs with: the reader's, else the attention backend's preference."""
    if dep.block_size:
        return BlockSizeChoice(block_size=dep.block_size)
    if model.is_deepseek_v4:
        # The first attention layer's backend is DEEPSEEK_SPARSE_SWA (sparse_swa.py): it prefers
        # 256.
        return BlockSizeChoice(block_size=V4_PREFERRED_BLOCK_SIZE, line=V4_BLOCK_SIZE_LINE)
    if not model.is_mla or model.mamba is not None or dep.rules.v0_engine:
        return BlockSizeChoice(block_size=DEFAULT_BLOCK_SIZE)
    if model.sparse and model.sparse.indexer_head_size:
        return _sparse_mla_block_size(dep)
    major = gpu_major(dep)
    if not dep.rules.backend_block_preference:
        return _mla_before_backend_preference(dep, major)
    # 0.18.0+: Hopper runs FLASH_ATTN_MLA (16) unless the KV cache is fp8, which only FlashMLA (64)
    # takes; datacenter Blackwell runs FLASHINFER_MLA (32); the rest TRITON_MLA (16).
    if major == 9 and dep.kv_cache_dtype.startswith("fp8"):
        return BlockSizeChoice(
            block_size=64, line="Setting kv cache block size to 64 for FLASHMLA backend."
        )
    if major == 10:
        return BlockSizeChoice(
            block_size=32, line="Setting kv cache block size to 32 for FLASHINFER_MLA backend."
        )
    return BlockSizeChoice(block_size=DEFAULT_BLOCK_SIZE)


def _sparse_mla_block_size(dep: Deployment) -> BlockSizeChoice:
    """DeepSeek-V3.2 (sparse MLA with the indexer, whose backend takes only 64-token pages on CUDA):
    0.11–0.17 forced 64 ("FlashMLASparse"); since 0.18 every sparse CUDA backend's preference is 64
    (FLASHMLA_SPARSE, FLASH_ATTN_MLA_SPARSE, FLASHINFER_MLA_SPARSE_SM120; the indexer's [64] on
    SM100 too). The 0.18+ line names the backend chosen, which is not modelled here: no line."""
    if dep.rules.backend_block_preference:
        return BlockSizeChoice(block_size=64)
    return _forced(64, "FlashMLASparse")


_V32_CUSTOM_FP8 = "Using custom fp8 kv-cache format for DeepSeekV3.2"
_V32_BF16 = "Using bfloat16 kv-cache for DeepSeekV3.2"
_STANDARD_FP8 = (
    "Using standard fp8 KV cache format. To use DeepSeek's fp8_ds_mla KV cache format, please set "
    "`--attention-backend FLASHMLA_SPARSE`"
)


def sparse_mla_kv_cache_dtype(model: ModelSpec, dep: Deployment) -> tuple[str, str | None]:
    """The KV cache dtype DeepSeek-V3.2's MLA layers run with, and vLLM's line about it.

    0.11.0 (#25896, DeepseekV32ForCausalLM.verify_and_update_config): ``auto`` and fp8 → fp8_ds_mla
    (656 B per token and layer); 0.11.1–0.17 (#27121): only fp8 → fp8_ds_mla, ``auto`` stays bf16;
    0.18+ (#35891, mla_attention.py ``_canonicalize_sparse_mla_kv_cache_dtype``): per backend —
    FLASHINFER_MLA_SPARSE_SM120 (SM 12) turns ``auto``/``fp8``/``fp8_e4m3`` into fp8_ds_mla,
    FLASHINFER_MLA_SPARSE (SM 10) keeps a plain fp8 cache, FLASHMLA_SPARSE (SM 9) takes fp8 as
    fp8_ds_mla. The indexer cache is uint8 whatever this returns.
    """
    dtype, rules = dep.kv_cache_dtype, dep.rules
    if model.is_deepseek_v4:
        return v4_kv_cache_dtype(dtype, rules)
    if not (model.sparse and model.sparse.indexer_head_size):
        return dtype, None
    if not rules.deepseek_v32:
        raise CalcError(
            "unsupported",
            f"DeepSeek-V3.2's sparse attention needs vLLM 0.11.0 or newer "
            f"(rules: {rules.description})",
            field="vllm_version",
        )
    if dtype == "fp8_ds_mla":
        return dtype, None
    fp8 = dtype.startswith("fp8")
    if not rules.sparse_kv_dtype_by_backend:
        if fp8 or (dtype == "auto" and not rules.v32_fp8_default_off):
            return "fp8_ds_mla", _V32_CUSTOM_FP8
        if dtype == "bfloat16":
            return "auto", _V32_BF16
        return dtype, None
    major = gpu_major(dep)
    if major == 12 and dtype in ("auto", "fp8", "fp8_e4m3"):
        return (
            "fp8_ds_mla",
            "Using fp8_ds_mla KV cache format for FLASHINFER_MLA_SPARSE_SM120 backend.",
        )
    if fp8 and major == 10:
        return dtype, _STANDARD_FP8
    if fp8:
        return "fp8_ds_mla", "Using fp8_ds_mla KV cache format for FLASHMLA_SPARSE backend."
    return dtype, None
