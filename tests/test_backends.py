"""The default KV block size per attention backend, GPU generation and release (calc/kv/backends.py).

Hand arithmetic for DeepSeek-V3 at TP 8 with a measured 40 GiB (42,949,672,960 B) per GPU:
MLA keeps one 576-wide latent per token and layer (kv_lora_rank 512 + qk_rope_head_dim 64),
bf16 → 1,152 B per token per layer, 61 layers in one uniform group.
  block 64: 61 × 64 × 1,152 = 4,497,408 B per block id; 42,949,672,960 // 4,497,408 = 9,549
            (9,549 × 4,497,408 = 42,945,748,992; the rest, 3,923,968, is less than a block)
  block 16: 61 × 16 × 1,152 = 1,124,352 B; 42,949,672,960 // 1,124,352 = 38,199
Before #41069 (0.20.1) the log's token count is blocks × block size: 9,549 × 64 = 611,136 and
38,199 × 16 = 611,184 — the 48-token gap a 16-token calculator shows against a Hopper log.
"""
from __future__ import annotations

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.kv.backends import default_block_size, gpu_major

V3 = {"model": "deepseek-ai/DeepSeek-V3", "tensor_parallel_size": 8, "max_model_len": 32768}


def verdict(**inputs: object):
    s = scenario_from_inputs({**V3, **inputs})
    return plan(s.model, s.deployment)


@pytest.mark.parametrize(("gpu", "major"), [("H100-80GB", 9), ("H200", 9), ("B200", 10), ("A100-80GB", 8),
                                            ("RTX-4090", 8), ("RTX-5090", 12), ("GB10", 12),
                                            ("RTX-5060-Ti-16GB", 12), ("RTX-4070-Ti", 8)])
def test_gpu_generation_from_the_catalog_name(gpu: str, major: int) -> None:
    assert gpu_major(scenario_from_inputs({**V3, "gpu": gpu}).deployment) == major


def test_mla_on_hopper_pages_64_tokens_before_0_18() -> None:
    v = verdict(gpu="H200", available_kv_gib=40, vllm_version="0.11.0")
    assert v.block_size == 64
    assert "Forcing kv cache block size to 64 for FlashMLA backend." in v.vllm_lines
    assert v.num_gpu_blocks == 9_549 and v.gpu_kv_cache_tokens == 611_136


def test_a_given_block_size_wins() -> None:
    v = verdict(gpu="H200", available_kv_gib=40, vllm_version="0.11.0", block_size=16)
    assert v.block_size == 16 and v.num_gpu_blocks == 38_199 and v.gpu_kv_cache_tokens == 611_184
    assert not any("block size to" in line for line in v.vllm_lines)


@pytest.mark.parametrize(("version", "gpu", "dtype", "block", "line"), [
    # 0.8–0.10: FlashMLA forced on Hopper; pre-Hopper MLA runs Triton with 16
    ("0.10.1", "H100-80GB", "auto", 64, "Forcing kv cache block size to 64 for FlashMLA backend."),
    ("0.10.1", "A100-80GB", "auto", 16, None),
    # 0.11–0.14: CUTLASS MLA (128) on datacenter Blackwell
    ("0.11.0", "B200", "auto", 128, "Forcing kv cache block size to 128 for CUTLASS_MLA backend."),
    # 0.15–0.17: FlashInfer-MLA forced to 64 for DeepSeek head dims
    ("0.15.0", "B200", "auto", 64, "Forcing kv cache block size to 64 for FlashInferMLA backend."),
    # 0.18+ (#35122): the backend's preference — FLASH_ATTN_MLA 16 on Hopper, FlashMLA 64 with fp8,
    # FLASHINFER_MLA 32 on Blackwell
    ("0.19.0", "H100-80GB", "auto", 16, None),
    ("0.19.0", "H100-80GB", "fp8", 64, "Setting kv cache block size to 64 for FLASHMLA backend."),
    ("0.19.0", "B200", "auto", 32, "Setting kv cache block size to 32 for FLASHINFER_MLA backend."),
    # V0 engine: 16
    ("0.7.3", "H100-80GB", "auto", 16, None),
])
def test_mla_block_size_by_release_and_gpu(version: str, gpu: str, dtype: str, block: int, line: str | None) -> None:
    s = scenario_from_inputs({**V3, "gpu": gpu, "kv_cache_dtype": dtype, "vllm_version": version})
    choice = default_block_size(s.model, s.deployment)
    assert (choice.block_size, choice.line) == (block, line)


def test_dense_models_keep_16_everywhere() -> None:
    for gpu in ("H200", "B200", "A100-80GB"):
        s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": gpu, "vllm_version": "0.11.0"})
        assert default_block_size(s.model, s.deployment).block_size == 16
