"""A pasted log laid over the form (kvcalc.logs.diagnose): what the log states becomes the plan's inputs."""
from __future__ import annotations

from pathlib import Path

from kvcalc import plan
from kvcalc.inputs import scenario_from_inputs
from kvcalc.logs.diagnose import inputs_from_reading
from kvcalc.logs.logparse import parse_log

LOGS = Path(__file__).parent / "data" / "logs"


def test_prefix_caching_from_the_log_reaches_the_plan() -> None:
    # tests/data/logs/v0240_qwen36_35b_a3b_nvfp4_5090.log asks 'enable_prefix_caching': True on vLLM 0.24.0
    # (hybrids default to off there): 'align', 63 + 3 * 2 = 69 blocks per request, 300 / 69 = 4.35x,
    # int(300 / 69 * 131,072) = 569,878 tokens, the logged figures (arithmetic in tests/test_hybrid.py).
    # The log names a local path: the catalog checkpoint and the version (cut from the excerpt) are given here.
    inputs = inputs_from_reading(parse_log((LOGS / "v0240_qwen36_35b_a3b_nvfp4_5090.log").read_text(encoding="utf-8")))
    assert inputs["enable_prefix_caching"] == "true"
    s = scenario_from_inputs({**inputs, "model": "nvidia/Qwen3.6-35B-A3B-NVFP4", "vllm_version": "0.24.0"})
    v = plan(s.model, s.deployment)
    assert (v.num_gpu_blocks, v.blocks_per_request, v.gpu_kv_cache_tokens) == (300, 69, 569_878)


def test_prefix_caching_turned_off_stays_off() -> None:
    # --no-enable-prefix-caching must reach the plan as "false", not vanish as an empty flag.
    inputs = inputs_from_reading(parse_log("vllm serve m --no-enable-prefix-caching --mamba-cache-mode none\n"))
    assert (inputs["enable_prefix_caching"], inputs["mamba_cache_mode"]) == ("false", "none")
    assert "enable_prefix_caching" not in inputs_from_reading(parse_log("vllm serve m --max-model-len 4096\n"))
