"""Cross-layer KV sharing (Gemma 3n, Gemma 4): a layer with a KV-sharing target owns no KV cache.

vLLM's GPUModelRunner.get_kv_cache_spec gives such a layer no spec; planning, grouping, pages and
bytes per token are computed as if it did not exist (notes section 3).

Hand arithmetic for the inline Gemma-3n-like config below: 30 layers, the pattern 4 sliding + 1 full
(full at 4, 9, 14, 19, 24, 29), ``num_kv_shared_layers`` 10 → layers 20–29 share; layers 0–19 carry KV:
16 sliding and 4 full (4, 9, 14, 19). bf16, 2 KV heads of 256 at TP 1:
  per token per layer 2 (K, V) × 2 × 256 × 2 B = 2,048 B; bytes per token 20 × 2,048 = 40,960
  (30 × 2,048 = 61,440 if nothing were shared).
Grouping (HMA): 16 sliding and 4 full layers; 16 ≥ 1.5 × 4, so group_size = min = 4 → 16 / 4 = 4
sliding groups + 1 full group = 5 groups of 4 layers. A 16-token page is 16 × 2,048 = 32,768 B, one
block id spans 4 layers: 131,072 B; 1 GiB = 1,073,741,824 B → 1,073,741,824 // 131,072 = 8,192 blocks.
(Unshared: 24 sliding + 6 full, group_size 6, 196,608 B per block id → 5,461 blocks.)
"""
from __future__ import annotations

import json

from kvcalc import plan, scenario_from_inputs
from kvcalc.arch.model import normalize_config
from kvcalc.kv.planner import build_layer_specs, layer_name

_TYPES = (["sliding_attention"] * 4 + ["full_attention"]) * 6


def gemma3n_like(shared: int = 10) -> dict[str, object]:
    text = {"model_type": "gemma3n_text", "num_hidden_layers": 30, "num_attention_heads": 8,
            "num_key_value_heads": 2, "head_dim": 256, "hidden_size": 2048, "intermediate_size": 8192,
            "vocab_size": 262144, "sliding_window": 512, "layer_types": _TYPES, "max_position_embeddings": 32768,
            "num_kv_shared_layers": shared, "torch_dtype": "bfloat16"}
    return {"model_type": "gemma3n", "architectures": ["Gemma3nForConditionalGeneration"], "text_config": text}


def test_shared_layers_are_marked() -> None:
    m = normalize_config(gemma3n_like())
    assert m.per_layer is not None and m.per_layer.kv_shared == tuple(range(20, 30))
    assert normalize_config(gemma3n_like(0)).per_layer is None


def test_shared_layers_get_no_spec() -> None:
    m = normalize_config(gemma3n_like())
    specs = build_layer_specs(m, tensor_parallel_size=1, kv_cache_dtype="auto", block_size=16)
    assert len(specs) == 20
    assert layer_name(19) in specs and layer_name(20) not in specs


def _plan(shared: int):
    s = scenario_from_inputs({"config": json.dumps(gemma3n_like(shared)), "available_kv_gib": 1,
                              "max_model_len": 4096})
    return plan(s.model, s.deployment)


def test_grouping_and_capacity_count_only_the_layers_with_kv() -> None:
    v = _plan(10)
    assert v.kv_bytes_per_token == 40_960                       # 20 × 2,048
    assert len(v.grouping.groups) == 5 and v.grouping.group_size == 4
    assert v.num_gpu_blocks == 8_192                            # 2^30 // (4 × 32,768)
    unshared = _plan(0)
    assert unshared.kv_bytes_per_token == 61_440                # 30 × 2,048
    assert unshared.grouping.group_size == 6 and unshared.num_gpu_blocks == 5_461
