"""Gemma 4: wider full-attention layers, and the full-attention block doubled by page unification (CONTRIBUTING.md §2.5).

vLLM builds each Gemma 4 layer from ``gemma4_layer_config`` (vllm/transformers_utils/configs/gemma4.py at
main 2f41c894; in vllm/model_executor/models/gemma4.py since #38826, first in 0.19.0): a
``full_attention`` layer uses ``global_head_dim`` and, with ``attention_k_eq_v``,
``num_global_key_value_heads``. Its page is then smaller than a sliding layer's, and
``unify_kv_cache_spec_page_size`` (vllm/v1/core/kv_cache_utils.py) raises the smaller page's block size
until the pages match: the "doubled" full-attention block of 32. No Gemma-specific block rule exists.

The configs below are synthetic Gemma-4-like text configs with the keys Gemma 4's config.json uses
(vLLM's own tests/config/test_model_arch_config.py builds its Gemma 4 cases the same way); the numbers
are chosen so that the full page is half the sliding page, as in the 26B-A4B layout (8 sliding KV heads
of 256, 2 full KV heads of 512).

Hand arithmetic, bf16, TP 1, 12 layers = 2 × (5 sliding + 1 full), window 1024:
  sliding layer: 2 (K, V) × 8 heads × 256 × 2 B = 8,192 B per token; page at block 16 = 131,072 B
  full layer:    2 × 2 heads × 512 × 2 B = 4,096 B per token; page at block 16 = 65,536 B
  → unified: 131,072 % 65,536 == 0, ratio 2 → full block 16 × 2 = 32 (page 131,072 B)
  bytes per token = 10 × 8,192 + 2 × 4,096 = 90,112 (every layer at 8 heads × 256 would give 12 × 8,192 = 98,304)
  groups: 10 sliding, 2 full; 10 ≥ 1.5 × 2 → group_size 2 → 5 sliding groups + 1 full group;
  one block id = 2 × 131,072 = 262,144 B; 1 GiB → 1,073,741,824 // 262,144 = 4,096 blocks
  one request of 1,024 tokens: full group cdiv(1,024, 32) = 32 blocks; each sliding group
  min(1,023 + in-flight, 1,024) = 1,024 tokens → cdiv(1,024, 16) + 1 = 65 blocks;
  5 × 65 + 32 = 357 blocks per request → concurrency 4,096 / 357 = 11.47
  (had the full block stayed 16: 5 × 65 + 64 = 389 → 10.53).
"""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.arch.model import normalize_config
from kvcalc.kv.kv_spec import FullAttentionSpec, SlidingWindowSpec
from kvcalc.kv.planner import build_layer_specs, layer_name

_TYPES = (["sliding_attention"] * 5 + ["full_attention"]) * 2


def gemma4_like(**text_overrides: object) -> dict[str, object]:
    text: dict[str, object] = {
        "model_type": "gemma4_text", "num_hidden_layers": 12, "num_attention_heads": 16, "num_key_value_heads": 8,
        "head_dim": 256, "global_head_dim": 512, "num_global_key_value_heads": 2, "attention_k_eq_v": True,
        "hidden_size": 2048, "intermediate_size": 8192, "vocab_size": 262144, "sliding_window": 1024,
        "layer_types": _TYPES, "max_position_embeddings": 262144, "num_kv_shared_layers": 0, "dtype": "bfloat16"}
    text.update(text_overrides)
    return {"model_type": "gemma4", "architectures": ["Gemma4ForConditionalGeneration"], "text_config": text}


def test_full_attention_layers_take_the_global_head_dim_and_kv_heads() -> None:
    m = normalize_config(gemma4_like())
    # layers 5 and 11 are full attention: head 512, 2 KV heads; the sliding ones keep 256 × 8
    assert m.per_layer is not None
    assert m.per_layer.attention == ((5, 512, 2), (11, 512, 2))
    assert m.attention_of(5) == (512, 2) and m.attention_of(0) == (256, 8)
    # without attention_k_eq_v the full layers keep num_key_value_heads (gemma4_layer_config)
    assert normalize_config(gemma4_like(attention_k_eq_v=False)).per_layer.attention == ((5, 512, 8), (11, 512, 8))
    # transformers >= 5.15 writes the same facts as per_layer_config (what the catalog build stores)
    per_layer = {"5": {"head_dim": 512, "num_key_value_heads": 2}, "11": {"head_dim": 512, "num_key_value_heads": 2}}
    resolved = gemma4_like(per_layer_config=per_layer, global_head_dim=None, num_global_key_value_heads=None)
    assert normalize_config(resolved).per_layer.attention == m.per_layer.attention
    # other families are not touched, whatever keys they carry
    gemma3 = gemma4_like(model_type="gemma3_text")
    gemma3["model_type"] = "gemma3"
    assert normalize_config(gemma3).per_layer is None


def test_layer_specs_follow_each_layer() -> None:
    specs = build_layer_specs(normalize_config(gemma4_like()), tensor_parallel_size=1, kv_cache_dtype="auto",
                              block_size=16)
    sliding, full = specs[layer_name(0)], specs[layer_name(5)]
    assert isinstance(sliding, SlidingWindowSpec) and type(full) is FullAttentionSpec
    assert (sliding.num_kv_heads, sliding.head_size, sliding.page_size_bytes) == (8, 256, 131_072)
    assert (full.num_kv_heads, full.head_size, full.head_size_v, full.page_size_bytes) == (2, 512, 512, 65_536)


def _plan(tp: int = 1, **inputs: object):
    s = scenario_from_inputs({"config": json.dumps(gemma4_like()), "available_kv_gib": 1, "max_model_len": 1024,
                              "tensor_parallel_size": tp, **inputs})
    return plan(s.model, s.deployment)


def test_full_attention_block_doubles_to_match_the_sliding_page() -> None:
    v = _plan()
    groups = v.grouping.groups
    assert len(groups) == 6 and v.grouping.group_size == 2
    assert {g.spec.block_size for g in groups if type(g.spec) is FullAttentionSpec} == {32}
    assert {g.spec.block_size for g in groups if isinstance(g.spec, SlidingWindowSpec)} == {16}
    assert v.grouping.page_size_bytes == 131_072 and v.grouping.bytes_per_block == 262_144
    assert v.block_size == 16                       # cache_config.block_size: the smallest group's
    assert v.kv_bytes_per_token == 90_112           # 10 × 8,192 + 2 × 4,096
    assert v.num_gpu_blocks == 4_096                # 2^30 // 262,144
    assert v.blocks_per_request == 357              # 5 × 65 + 32
    assert v.max_concurrency is not None and round(v.max_concurrency, 2) == 11.47


def test_tensor_parallel_can_make_the_pages_equal() -> None:
    # TP 4: sliding 8 // 4 = 2 heads → 16 × 2 × 512 × 2 = 32,768 B; full max(1, 2 // 4) = 1 head
    # → 16 × 1 × 1,024 × 2 = 32,768 B: equal pages, nothing to unify, the full block stays 16
    v = _plan(tp=4)
    assert {g.spec.block_size for g in v.grouping.groups} == {16}
    assert v.grouping.page_size_bytes == 32_768
    # TP 2: sliding 4 heads → 65,536 B; full 1 head → 32,768 B → full block 32 again
    assert {g.spec.block_size for g in _plan(tp=2).grouping.groups if type(g.spec) is FullAttentionSpec} == {32}


@pytest.mark.skipif(importlib.util.find_spec("transformers") is None, reason="transformers not installed")
def test_catalog_build_keeps_the_per_layer_attention(tmp_path: Path) -> None:
    # transformers (>= 5.15) folds global_head_dim / num_global_key_value_heads into per_layer_config and
    # refuses global reads of those keys; scripts/build_catalog.py stores per_layer_config ("05", "11"),
    # and the core reads the same layers from it as from the raw config.json
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import build_catalog

    (tmp_path / "config.json").write_text(json.dumps(gemma4_like()), encoding="utf-8")
    facts = build_catalog.resolve_config(tmp_path)
    assert facts["per_layer_config"] == {"05": {"head_dim": 512, "num_key_value_heads": 2},
                                         "11": {"head_dim": 512, "num_key_value_heads": 2}}
    assert (facts["head_dim"], facts["num_key_value_heads"], facts["num_kv_shared_layers"]) == (256, 8, 0)
    assert normalize_config(facts).per_layer.attention == normalize_config(gemma4_like()).per_layer.attention


def test_real_gemma4_26b_a4b_config() -> None:
    # google/gemma-4-26B-A4B-it as vendored (scripts/model_configs, source in SOURCES.md): 30 layers,
    # layer_types 5 sliding (window 1024) : 1 full, so 25 sliding + 5 full; sliding 8 KV heads x 256,
    # full layers num_global_key_value_heads 2 x global_head_dim 512 (attention_k_eq_v). bf16, TP 1, 1 GiB, 1,024 tokens:
    #   sliding page 2 x 8 x 256 x 2 B x 16 = 131,072 B; full page 2 x 2 x 512 x 2 B x 16 = 65,536 B -> full block 32
    #   bytes per token 25 x 8,192 + 5 x 4,096 = 204,800 + 20,480 = 225,280
    #   grouping: 25 sliding vs 5 full, 25 >= 1.5 x 5 -> group_size 5: 5 sliding groups + 1 full group;
    #   one block id = 5 x 131,072 = 655,360 B; 1,073,741,824 // 655,360 = 1,638 blocks
    #   per request: full cdiv(1,024, 32) = 32, each sliding group cdiv(1,024, 16) + 1 = 65 -> 5 x 65 + 32 = 357
    #   concurrency 1,638 / 357 = 4.588 -> 4.59
    s = scenario_from_inputs({"model": "google/gemma-4-26B-A4B-it", "available_kv_gib": 1, "max_model_len": 1024})
    assert s.model.per_layer.attention == tuple((i, 512, 2) for i in (5, 11, 17, 23, 29))
    assert [k.value for k in s.model.layer_kinds].count("full") == 5
    v = plan(s.model, s.deployment)
    groups = v.grouping.groups
    assert len(groups) == 6 and v.grouping.group_size == 5
    assert sum(1 for g in groups if type(g.spec) is FullAttentionSpec) == 1
    assert {g.spec.block_size for g in groups if type(g.spec) is FullAttentionSpec} == {32}
    assert {g.spec.block_size for g in groups if isinstance(g.spec, SlidingWindowSpec)} == {16}
    assert v.grouping.page_size_bytes == 131_072 and v.grouping.bytes_per_block == 655_360
    assert v.kv_bytes_per_token == 225_280
    assert v.num_gpu_blocks == 1_638
    assert v.blocks_per_request == 357
    assert v.max_concurrency is not None and round(v.max_concurrency, 2) == 4.59


def test_gemma4_moe_counts_the_dense_mlp_beside_the_experts() -> None:
    # vllm/model_executor/models/gemma4.py Gemma4DecoderLayer: self.mlp (intermediate_size) in every layer, and
    # with enable_moe_block the router + Gemma4MoE beside it. google/gemma-4-26B-A4B-it:
    #   experts 30 layers x 128 x 3 x 2,816 x 704 = 22,837,985,280
    #   dense MLP 30 x 3 x 2,816 x 2,112 = 535,265,280 on top of the MoE block
    from kvcalc import catalog

    facts = dict(catalog.find_model("google/gemma-4-26B-A4B-it").config)
    assert facts["enable_moe_block"] is True
    with_dense = normalize_config(facts, model_id="google/gemma-4-26B-A4B-it")
    without = normalize_config({k: v for k, v in facts.items() if k != "enable_moe_block"})
    assert with_dense.num_expert_parameters == without.num_expert_parameters == 22_837_985_280
    assert with_dense.num_parameters - without.num_parameters == 535_265_280
