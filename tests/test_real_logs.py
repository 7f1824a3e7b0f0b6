"""Real vLLM logs (tests/data/logs, sources in sources.json) recomputed by the core.

A log prints "Available KV cache memory" rounded to 0.01 GiB, so the true figure
lies within ±0.005 GiB of it. vLLM's arithmetic from there on is exact, so the
"GPU KV cache size" the log printed must lie between what the core computes at
the two ends of that interval, and the printed concurrency must round from a
value in the computed range. This checks the block arithmetic against vLLM
itself for dense, TP, fp8 KV, sliding-window hybrids (Gemma 3, gpt-oss) and phi-4.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kvcalc import plan
from kvcalc.deployment import Measured
from kvcalc.diagnose import diagnose
from kvcalc.units import GiB

LOGS = Path(__file__).parent / "data" / "logs"

# The PP log was trimmed of stage 1's "Available KV cache memory" line; stage 1 is the
# limiting one: requested 75.23 GiB − "Total non KV cache memory: 9.6GiB" = 65.63 GiB.
AVAILABLE_OVERRIDE_GIB = {"llmd_v019_llama31_8b_h100_pp2.log": 65.63}

CASES = [
    "llmd_v019_gemma3_27b_h100.log",          # hybrid: 52 sliding + 10 full, 7 groups
    "llmd_v019_gpt_oss_20b_h100_sampler_oom.log",
    "llmd_v019_gpt_oss_20b_h100_tp2.log",     # hybrid with TP 2
    "llmd_v019_llama31_8b_h100_len32k.log",
    "llmd_v019_llama31_8b_h100_pp2.log",      # PP 2, minimum over stages
    "llmd_v019_llama31_8b_h100_tp1.log",
    "llmd_v019_llama31_8b_h100_tp2.log",
    "llmd_v019_phi4_h100.log",
    "llmd_v019_qwen25_72b_h100_tp2.log",
    "llmd_v019_qwen25_7b_kvfp8_h100.log",     # fp8 KV cache
]


@pytest.mark.parametrize("name", CASES)
def test_log_capacity_is_reproduced_to_the_block(name):
    d = diagnose((LOGS / name).read_text(encoding="utf-8", errors="replace"))
    assert d.analysis is not None, d.replan_error
    scenario = d.analysis.scenario
    facts = d.reading.facts
    assert d.inputs.get("vllm_version") == "0.19.0"
    gib = AVAILABLE_OVERRIDE_GIB.get(name, facts["available_kv_gib"])
    ends = []
    for a in (gib - 0.005, gib + 0.005):
        dep = replace(scenario.deployment, measured=Measured(available_kv_bytes=int(a * GiB)))
        ends.append(plan(scenario.model, dep))
    lo, hi = ends
    assert lo.fits and hi.fits
    assert lo.gpu_kv_cache_tokens <= facts["gpu_kv_cache_tokens"] <= hi.gpu_kv_cache_tokens
    assert round(lo.max_concurrency, 2) - 0.005 <= facts["max_concurrency"] <= round(hi.max_concurrency, 2) + 0.005
    assert lo.max_model_len == facts["max_model_len"]


def test_v0_log_blocks_lie_in_the_rounding_interval():
    # vllm#10517 (V0, 0.6.x): kv_cache_size=2.89GiB, "# GPU blocks: 1478", Llama-3.1-8B at 29000.
    from factories import run
    lo = run("meta-llama/Llama-3.1-8B-Instruct", available_bytes=int(2.885 * GiB), max_model_len=29000, version="0.6.3")
    hi = run("meta-llama/Llama-3.1-8B-Instruct", available_bytes=int(2.895 * GiB), max_model_len=29000, version="0.6.3")
    blocks = [int(x.vllm_lines[0].split()[3].rstrip(",")) for x in (lo, hi)]
    assert blocks[0] <= 1478 <= blocks[1]
