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

from .deployment import DEFAULT_BLOCK_SIZE, Deployment
from .model import ModelSpec

__all__ = ["BlockSizeChoice", "default_block_size", "gpu_major"]


@dataclass(frozen=True, kw_only=True)
class BlockSizeChoice:
    """The block size and the line vLLM logs when it is not the default 16."""

    block_size: int
    line: str | None = None


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


def _forced(block: int, backend: str) -> BlockSizeChoice:
    return BlockSizeChoice(block_size=block, line=f"Forcing kv cache block size to {block} for {backend} backend.")


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
    if not model.is_mla or model.mamba is not None or dep.rules.v0_engine:
        return BlockSizeChoice(block_size=DEFAULT_BLOCK_SIZE)
    major = gpu_major(dep)
    if not dep.rules.backend_block_preference:
        return _mla_before_backend_preference(dep, major)
    # 0.18.0+: Hopper runs FLASH_ATTN_MLA (16) unless the KV cache is fp8, which only FlashMLA (64)
    # takes; datacenter Blackwell runs FLASHINFER_MLA (32); the rest TRITON_MLA (16).
    if major == 9 and dep.kv_cache_dtype.startswith("fp8"):
        return BlockSizeChoice(block_size=64, line="Setting kv cache block size to 64 for FLASHMLA backend.")
    if major == 10:
        return BlockSizeChoice(block_size=32, line="Setting kv cache block size to 32 for FLASHINFER_MLA backend.")
    return BlockSizeChoice(block_size=DEFAULT_BLOCK_SIZE)
