"""facebook/opt-2.7b as vLLM lays it out (vllm/model_executor/models/opt.py), against hand counts and the
vLLM#29070 DEBUG log (4x A30, TP 4, 0.11.1.dev12: "weights memory: 1.24GiB", "GPU KV cache size: 226,000
tokens"; tests/data/logs/v0111dev_opt27b_4xa30_tp4_util08_debug.log). Config: scripts/model_configs/
facebook/opt-2.7b/config.json (hidden 2560, 32 layers, 32 heads, ffn_dim 10240, 2048 positions, vocab 50272).
"""

from __future__ import annotations

import json
import pathlib

from kvcalc import catalog, plan, scenario_from_inputs
from kvcalc.arch.model import normalize_config
from kvcalc.budget import weight_share
from kvcalc.budget.memory import weight_bytes

GIB = 2**30
_CONFIG = pathlib.Path(__file__).parent.parent / "scripts" / "model_configs" / "facebook" / "opt-2.7b" / "config.json"


def _opt():
    entry = catalog.find_model("facebook/opt-2.7b")
    return normalize_config(entry.config, model_id=entry.id)


def test_opt_parameters_by_hand() -> None:
    # per layer: q, k, v, out 4 x 2560^2 + 4 x 2560 biases = 26,224,640; fc1 2560 x 10240 + 10240 and
    # fc2 10240 x 2560 + 2560 = 52,441,600; two LayerNorms 2 x 2 x 2560 = 10,240 -> 78,676,480; x 32 = 2,517,647,360.
    # tokens 50272 x 2560 = 128,696,320 (tied head); positions (2048 + 2) x 2560 = 5,248,000; final LayerNorm 5,120.
    # 2,517,647,360 + 128,696,320 + 5,248,000 + 5,120 = 2,651,596,800.
    m = _opt()
    assert m.num_parameters == 2_651_596_800
    assert weight_bytes(m) == 2 * 2_651_596_800  # float16
    # KV: head 2560 / 32 = 80, one KV head per query head (no GQA)
    assert (m.head_size, m.total_num_kv_heads, m.intermediate_size) == (80, 32, 10_240)


def test_pasted_opt_config_counts_like_the_catalog() -> None:
    # the raw file omits tie_word_embeddings / enable_bias: OPTConfig's defaults (tied, biased) apply
    raw = normalize_config(json.loads(_CONFIG.read_text(encoding="utf-8")), model_id="facebook/opt-2.7b")
    assert raw.num_parameters == 2_651_596_800 and raw.tie_word_embeddings


def test_opt_weights_per_gpu_at_tp4_match_the_a30_log() -> None:
    # whole on every rank: LayerNorm weights and biases 65 x 2 x 2560 = 332,800, out_proj and fc2 biases
    # 64 x 2560 = 163,840, positions 5,248,000 -> 5,744,640; the rest split 4 ways:
    # (2,651,596,800 - 5,744,640) / 4 + 5,744,640 = 661,463,040 + 5,744,640 = 667,207,680 parameters
    # x 2 B = 1,334,415,360 B = 1.2428 GiB; the log: "weights memory: 1.24GiB".
    m = _opt()
    assert weight_share.replicated_parameters(m) == 5_744_640
    share = weight_share.share_bytes(weight_bytes(m), weight_share.replicated_bytes(m), tensor_parallel_size=4,
                                     pipeline_parallel_size=1)
    assert share == 1_334_415_360
    assert round(share / GIB, 2) == 1.24


def test_opt_kv_cache_at_tp4_matches_the_a30_log() -> None:
    # per GPU and token: 32 layers x (K + V) x 32 / 4 = 8 heads x 80 x 2 B = 81,920 B; a block of 16 = 1,310,720 B.
    # "GPU KV cache size: 226,000 tokens" = 14,125 blocks, i.e. 14,125 x 1,310,720 = 18,513,920,000 B
    # (17.2424 GiB) up to 14,126 blocks (17.2437 GiB): both print as the logged "17.24 GiB".
    s = scenario_from_inputs({"model": "facebook/opt-2.7b", "tensor_parallel_size": 4,
                              "available_kv_gib": 18_513_920_000 / GIB, "vllm_version": "0.11.1.dev12"})
    v = plan(s.model, s.deployment)
    assert v.kv_bytes_per_token == 81_920
    assert v.num_gpu_blocks == 14_125 and v.num_gpu_blocks * v.block_size == 226_000
