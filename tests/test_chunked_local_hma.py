"""Chunked local attention (Llama 4) and the hybrid KV cache manager, by release.

vllm/config/vllm.py turns the manager off for a model with ``attention_chunk_size`` unless
VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE is set; #29627 (first in 0.14.0; v0.13.0's
vllm/envs.py defaults it to "0", v0.14.0's to "1") made it default on. Figures by hand below.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from kvcalc import plan
from kvcalc.deployment import Measured
from kvcalc.inputs import scenario_from_inputs
from kvcalc.units import GiB


@pytest.mark.parametrize(("version", "blocks"), [
    # manager off: every layer one full-attention spec, 48 layers x (16 x 2 KV heads x 2 x 128 x 2 B = 16,384 B)
    # = 786,432 B per block; 16.75 GiB = 17,985,175,552 B → 22,869 blocks
    ("0.13.0", 22_869),
    # manager on: 36 chunked + 12 full layers → 4 groups of 12, 12 x 16,384 = 196,608 B per block → 91,477 blocks
    ("0.14.0", 91_477),
    ("latest", 91_477),
])
def test_llama4_scout_blocks(version: str, blocks: int) -> None:
    scenario = scenario_from_inputs({"model": "meta-llama/Llama-4-Scout-17B-16E-Instruct", "gpu": "H100-80GB",
                                     "tensor_parallel_size": "4", "max_model_len": "8192", "vllm_version": version})
    verdict = plan(scenario.model, replace(scenario.deployment, measured=Measured(available_kv_bytes=int(16.75 * GiB))))
    assert verdict.num_gpu_blocks == blocks
