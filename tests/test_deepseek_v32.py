"""DeepSeek-V3.2 sparse attention: the indexer K cache beside each MLA layer (notes section 2).

Hand arithmetic from the config below (DeepSeek-V3.2's own dimensions, 61 layers), TP 8 on H200,
40 GiB = 42,949,672,960 B measured per GPU, 64-token pages:
* indexer head = index_head_dim + index_head_dim // 128 × 4 = 128 + 4 = 132 B per token (uint8);
  its page 64 × 132 = 8,448 B.
* MLA latent 512 + 64 = 576: bf16 page 64 × 576 × 2 = 73,728 B; fp8_ds_mla page 64 × 656 = 41,984 B.
* per token per layer 1,152 + 132 = 1,284 B (bf16) / 656 + 132 = 788 B (fp8_ds_mla);
  per token 61 × 1,284 = 78,324 B / 61 × 788 = 48,068 B.
* one uniform-type group of 122 layers (61 MLA + 61 indexer: same type and block size, different pages);
  a block id costs Σ pages = 61 × (73,728 + 8,448) = 5,012,736 B (bf16) / 61 × (41,984 + 8,448) = 3,076,352 B.
* blocks 42,949,672,960 // 5,012,736 = 8,568 (rest 550,912) → tokens 8,568 × 64 = 548,352 (before #41069);
  fp8_ds_mla: // 3,076,352 = 13,961 (rest 722,688) → 13,961 × 64 = 893,504.
"""
from __future__ import annotations

import json

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.arch.model import normalize_config
from kvcalc.errors import CalcError
from kvcalc.kv.grouping import GroupingKind

V32_CONFIG = {
    "architectures": ["DeepseekV32ForCausalLM"], "model_type": "deepseek_v32", "num_hidden_layers": 61,
    "hidden_size": 7168, "num_attention_heads": 128, "num_key_value_heads": 128, "kv_lora_rank": 512,
    "q_lora_rank": 1536, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128,
    "index_head_dim": 128, "index_n_heads": 64, "index_topk": 2048, "intermediate_size": 18432,
    "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8,
    "first_k_dense_replace": 3, "vocab_size": 129280, "max_position_embeddings": 163840, "torch_dtype": "bfloat16",
}


def verdict(**inputs: object):
    s = scenario_from_inputs({"config": json.dumps(V32_CONFIG), "gpu": "H200", "tensor_parallel_size": 8,
                              "available_kv_gib": 40, "max_model_len": 100_000, **inputs})
    return plan(s.model, s.deployment)


def test_indexer_head_size_from_the_config() -> None:
    m = normalize_config(V32_CONFIG)
    assert m.sparse is not None and m.sparse.indexer_head_size == 132          # 128 + 128 // 128 × 4
    v3 = {k: v for k, v in V32_CONFIG.items() if not k.startswith("index_")}
    assert normalize_config({**v3, "model_type": "deepseek_v3"}).sparse is None


def test_bf16_one_uniform_type_group_with_the_indexer() -> None:
    v = verdict(vllm_version="0.11.1")          # #27121: auto stays bf16
    assert v.block_size == 64
    assert "Forcing kv cache block size to 64 for FlashMLASparse backend." in v.vllm_lines
    assert v.grouping.kind == GroupingKind.UNIFORM_TYPE and len(v.grouping.groups) == 1
    assert len(v.grouping.groups[0].layer_names) == 122
    assert v.grouping.bytes_per_block == 5_012_736   # 61 × (73,728 + 8,448)
    assert v.kv_bytes_per_token == 78_324            # 61 × 1,284
    assert v.num_gpu_blocks == 8_568
    assert v.gpu_kv_cache_tokens == 548_352          # 8,568 × 64
    assert v.needed_kv_bytes == 1_563 * 5_012_736    # cdiv(100,000, 64) = 1,563 blocks of every layer


def test_fp8_ds_mla_default_on_0_11_0() -> None:
    v = verdict(vllm_version="0.11.0")          # auto → fp8_ds_mla
    assert "Using custom fp8 kv-cache format for DeepSeekV3.2" in v.vllm_lines
    assert v.kv_bytes_per_token == 48_068            # 61 × 788
    assert v.grouping.bytes_per_block == 3_076_352   # 61 × (41,984 + 8,448)
    assert v.num_gpu_blocks == 13_961 and v.gpu_kv_cache_tokens == 893_504


@pytest.mark.parametrize(("version", "gpu", "dtype", "per_token", "line"), [
    # 0.11.1–0.17: only an fp8 request becomes fp8_ds_mla
    ("0.11.1", "H200", "auto", 78_324, None),
    ("0.11.1", "H200", "fp8", 48_068, "Using custom fp8 kv-cache format for DeepSeekV3.2"),
    ("0.11.1", "H200", "bfloat16", 78_324, "Using bfloat16 kv-cache for DeepSeekV3.2"),
    # 0.18+: by backend — bf16 on SM 90/100 by default, fp8_ds_mla on SM 120
    ("0.19.0", "H200", "auto", 78_324, None),
    ("0.19.0", "H200", "fp8", 48_068, "Using fp8_ds_mla KV cache format for FLASHMLA_SPARSE backend."),
    # SM 100 with fp8: FLASHINFER_MLA_SPARSE keeps plain fp8, 576 + 132 = 708 B per layer → 61 × 708 = 43,188
    ("0.19.0", "B200", "fp8", 43_188, "Using standard fp8 KV cache format. To use DeepSeek's fp8_ds_mla KV "
                                      "cache format, please set `--attention-backend FLASHMLA_SPARSE`"),
    ("0.19.0", "RTX-5090", "auto", 48_068,
     "Using fp8_ds_mla KV cache format for FLASHINFER_MLA_SPARSE_SM120 backend."),
])
def test_kv_dtype_default_by_release(version: str, gpu: str, dtype: str, per_token: int, line: str | None) -> None:
    v = verdict(vllm_version=version, gpu=gpu, kv_cache_dtype=dtype, tensor_parallel_size=1 if gpu == "RTX-5090" else 8)
    assert v.kv_bytes_per_token == per_token
    assert v.block_size == 64
    if line:
        assert line in v.vllm_lines


def test_v32_before_0_11_is_refused() -> None:
    with pytest.raises(CalcError) as e:
        verdict(vllm_version="0.10.2")
    assert e.value.field == "vllm_version"


def test_dcp_divides_the_indexer_too() -> None:
    # DCP 2 at 0.11.1: per rank cdiv(100,000, 2) = 50,000 tokens → 782 blocks per layer cache;
    # tokens 8,568 × 64 × 2 = 1,096,704
    v = verdict(vllm_version="0.11.1", decode_context_parallel_size=2)
    assert v.needed_kv_bytes == 782 * 5_012_736
    assert v.gpu_kv_cache_tokens == 1_096_704


def test_disabling_hma_changes_nothing_for_the_uniform_type_group() -> None:
    # kv_cache_utils.unify_hybrid_kv_cache_specs returns early for uniform-type specs
    v = verdict(vllm_version="0.11.1", disable_hybrid_kv_cache_manager="1")
    assert v.grouping.kind == GroupingKind.UNIFORM_TYPE and v.num_gpu_blocks == 8_568
