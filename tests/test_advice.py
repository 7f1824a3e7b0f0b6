"""``advice.recommend`` and its ladders on whole scenarios (``scenario_from_inputs`` + ``plan``).

The ladder order is the guide's "Fix the start-up error" ("KV cache too small": lower
max_model_len → raise gpu_memory_utilization, --enforce-eager, limit concurrency (by the memory each
gives back) → fp8 KV cache → quantized weights → more GPUs → larger GPU → --cpu-offload-gb →
kv_cache_memory_bytes; "no memory" / weights larger than the GPU: quantize → more GPUs →
larger GPU → --cpu-offload-gb → eager; "free memory": lower utilization → free the GPU →
fixed budget). KV offload is no rung: it cannot pass the start-up check. Every figure is worked by hand from vLLM's
rules (CONTRIBUTING.md §2.7 and §2.9) in the comment beside it.

Hand arithmetic shared by the scenarios (Qwen/Qwen3-8B: 36 layers, 8 KV heads × 128, bf16):
  one block id  = 36 × 16 × 8 × 256 × 2                   = 2,359,296 B
  need(32,768)  = cdiv(32,768, 16) = 2,048 blocks × 2,359,296 = 4,831,838,208 B (4.5 GiB)
  need(40,960)  = 2,560 × 2,359,296                        = 6,039,797,760 B (5.625 GiB)
  24 GiB GPU    = 25,769,803,776 B; requested = ceil(total × utilization)
    0.92 → ceil(23,708,219,473.92) = 23,708,219,474
    0.93 → ceil(23,965,917,511.68) = 23,965,917,512
    0.94 → ceil(24,223,615,549.44) = 24,223,615,550
    0.95 → ceil(24,481,313,587.20) = 24,481,313,588
"""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.advice import RecCode, Recommendation, free_memory_ladder, readable_length, recommend
from kvcalc.inputs import Scenario
from kvcalc.units import GiB, MiB

ROOT = Path(__file__).resolve().parents[1]
QWEN3_8B = "Qwen/Qwen3-8B"
NEED_32K = 4_831_838_208
NEED_40K = 6_039_797_760


def scenario(**inputs: object) -> Scenario:
    return scenario_from_inputs({"model": QWEN3_8B, **inputs})


def measured_gpu(non_kv_gib: float, **inputs: object) -> Scenario:
    """A 24 GiB GPU whose non-KV memory is all given (weights + 1 GiB activation + 0.5 + 0.5): nothing estimated."""
    return scenario(gpu_memory_gib=24, weights_gib=non_kv_gib - 2, activation_gib=1, non_torch_gib=0.5,
                    cudagraph_gib=0.5, **inputs)


def advise(s: Scenario) -> list[Recommendation]:
    return recommend(s, plan(s.model, s.deployment))


def codes(recs: list[Recommendation]) -> list[str]:
    return [r.code for r in recs]


def by_code(recs: list[Recommendation], code: RecCode) -> Recommendation:
    return next(r for r in recs if r.code == code)


# ---- readable_length: 60–80 % of the estimate, rounded for people ------------------------------------

@pytest.mark.parametrize(("estimate", "length"), [
    # a power of two in [0.6 e, 0.8 e] wins: 40,960 → [24,576, 32,768] holds 32,768 (and 1.5 × 16,384 = 24,576)
    (40_960, 32_768),
    # 100 → [60, 80] holds 64
    (100, 64),
    # then 1.5 × a power of two: 10,000 → [6,000, 8,000]: 4,096 and 8,192 outside, 1.5 × 4,096 = 6,144 inside
    # (preferred over the larger multiple of 1024, 7,168)
    (10_000, 6_144),
    # 1,000 → [600, 800]: 512 and 1,024 outside, 1.5 × 512 = 768
    (1_000, 768),
    # then the largest multiple of 1024: 29,120 → [17,472, 23,296]: 16,384 and 32,768 outside,
    # 24,576 and 12,288 outside; 23,296 // 1024 × 1024 = 22,528
    (29_120, 22_528),
    # 29,696 → [17,817.6, 23,756.8] → 23 × 1024 = 23,552
    (29_696, 23_552),
    # then of 256: 3,600 → [2,160, 2,880]: no 2^k (2,048 / 4,096), no 1.5 × 2^k (1,536 / 3,072),
    # 2,880 // 1024 × 1024 = 2,048 < 2,160; 2,880 // 256 × 256 = 2,816
    (3_600, 2_816),
    # then of 16 (the block size): 900 → [540, 720]: 512 / 1,024, 384 / 768 outside, 0 × 1024,
    # 720 // 256 × 256 = 512 < 540; 720 // 16 × 16 = 720
    (900, 720),
    # nothing round fits below 16 tokens: int(0.8 × 10) = 8
    (10, 8),
])
def test_readable_length(estimate, length):
    assert readable_length(estimate) == length


# ---- "KV cache too small": the ladder ---------------------------------------------------------------

def test_kv_ladder_order_with_a_profiled_budget():
    # non-KV 18 GiB = 19,327,352,832; A = 23,708,219,474 − 19,327,352,832 = 4,380,866,642 < 4,831,838,208
    s = measured_gpu(18, max_model_len=32768)
    v = plan(s.model, s.deployment)
    assert v.status == "does_not_fit" and v.available_kv_bytes == 4_380_866_642
    recs = recommend(s, v)
    # every runtime term is measured: no --cpu-offload-gb rung (the offloaded weights' effect is vLLM's to measure)
    # The free rungs that add memory come by what they give back (the guide's step 2 and 4, reordered from
    # "utilization, fp8, eager, concurrency"): --enforce-eager returns the measured 0.5 GiB of graphs
    # (536,870,912 B); 0.94 adds requested(0.94) − requested(0.92) = 24,223,615,550 − 23,708,219,474 = 515,396,076 B;
    # fewer sequences change no measured figure (0 B). Then fp8, which lowers the other side.
    assert codes(recs) == ["lower_max_model_len", "enforce_eager", "raise_gpu_memory_utilization", "limit_concurrency",
                           "fp8_kv_cache", "quantize_weights", "add_gpus", "larger_gpu", "kv_cache_memory_bytes"]


def test_lower_max_model_len_rung():
    s = measured_gpu(18, max_model_len=32768)
    r = by_code(advise(s), RecCode.LOWER_MAX_MODEL_LEN)
    # est: the check holds the null block back (0.29.0+): 4,380,866,642 − 2,359,296 = 4,378,507,346;
    # // 2,359,296 = 1,855 blocks (1,856 × 2,359,296 = 4,378,853,376 > it) → 1,855 × 16 = 29,680
    # readable_length(29,680) = 23,552 (as for 29,696 above: 23,552 lies in [17,808, 23,744])
    assert r.settings == {"max_model_len": 23_552}
    assert r.params == {"estimated": 29_680, "value": 23_552, "low": 17_808, "high": 23_744}   # int(0.6 e), int(0.8 e)
    # what-if: cdiv(23,552, 16) = 1,472 blocks ≤ 1,855 usable → starts; the pool still counts 1,856 blocks
    # (the whole memory): 1,856 / 1,472 requests
    assert r.fits is True
    assert r.verdict.num_gpu_blocks == 1_856
    assert r.verdict.max_concurrency == 1_856 / 1_472


def test_limit_concurrency_rung():
    s = measured_gpu(18, max_model_len=32768)
    r = by_code(advise(s), RecCode.LIMIT_CONCURRENCY)
    # a 24 GiB GPU (< 70 GiB) defaults to max_num_batched_tokens 2048, max_num_seqs 256:
    # min(256, 16) = 16 changes, min(2048, 2048) does not
    assert r.settings == {"max_num_seqs": 16}
    assert r.params == {"flags": "--max-num-seqs 16"}
    # every runtime term is measured here, so the what-if budget is unchanged: still 4,380,866,642 < need
    assert r.fits is False


def test_limit_concurrency_cannot_be_computed_from_a_measured_kv_budget():
    # "Available KV cache memory" given: vLLM's own figures already include the activation peak
    r = by_code(advise(scenario(available_kv_gib=4, max_model_len=32768)), RecCode.LIMIT_CONCURRENCY)
    assert r.verdict is None and r.fits is None


def test_raise_utilization_in_hundredths_to_the_first_that_fits():
    s = measured_gpu(18, max_model_len=32768)
    r = by_code(advise(s), RecCode.RAISE_GPU_MEMORY_UTILIZATION)
    # 0.93: 23,965,917,512 − 19,327,352,832 = 4,638,564,680 < 4,831,838,208
    # 0.94: 24,223,615,550 − 19,327,352,832 = 4,896,262,718 ≥ 4,831,838,208 → first fit
    assert r.settings == {"gpu_memory_utilization": 0.94}
    assert r.params == {"from": 0.92, "to": 0.94, "warn_above": 0.95}
    assert r.anchor == "gpu-memory-utilization"
    assert r.fits is True and r.verdict.available_kv_bytes == 4_896_262_718


def test_raise_utilization_capped_at_095():
    # non-KV 18.5 GiB = 19,864,223,744; even 0.95 leaves 24,481,313,588 − 19,864,223,744 = 4,617,089,844 < need:
    # no step up to 0.95 fits, so the rung suggests 0.92 + 0.02 = 0.94 (A = 24,223,615,550 − 19,864,223,744
    # = 4,359,391,806, still short)
    s = measured_gpu(18.5, max_model_len=32768)
    r = by_code(advise(s), RecCode.RAISE_GPU_MEMORY_UTILIZATION)
    assert r.settings == {"gpu_memory_utilization": 0.94}
    assert r.fits is False and r.verdict.available_kv_bytes == 4_359_391_806


@pytest.mark.parametrize("utilization", [0.95, 0.97])
def test_no_raise_rung_at_or_above_095(utilization):
    # at 0.95: A = 4,617,089,844 < need (non-KV 18.5 GiB); at 0.97: ceil(24,996,709,662.72) − 19,864,223,744
    # = 5,132,485,919 ≥ need would fit, so use 40,960 tokens (need 6,039,797,760) to keep it failing
    s = measured_gpu(18.5, max_model_len=32768 if utilization == 0.95 else 40960,
                     gpu_memory_utilization=utilization)
    recs = advise(s)
    assert plan(s.model, s.deployment).status == "does_not_fit"
    assert "raise_gpu_memory_utilization" not in codes(recs)


def test_fp8_rung_halves_the_bytes():
    r = by_code(advise(measured_gpu(18, max_model_len=32768)), RecCode.FP8_KV_CACHE)
    assert r.settings == {"kv_cache_dtype": "fp8"} and r.anchor == "fp8-kv-cache"
    # fp8: 36 × 16 × 8 × 256 × 1 = 1,179,648 B per block; need 2,048 × 1,179,648 = 2,415,919,104 ≤ 4,380,866,642
    assert r.fits is True and r.verdict.needed_kv_bytes == 2_415_919_104


def test_fixed_budget_is_the_need_rounded_up_to_256_mib():
    # need(32,768) = 4,831,838,208 = 4,608 MiB, plus the null block the check holds back (0.29.0+):
    # 4,831,838,208 + 2,359,296 = 4,834,197,504 → cdiv(·, 256 MiB) = 19 → 19 × 268,435,456 = 5,100,273,664 = 4864M
    # (4608M exactly, 18 × 256 MiB, before 0.29: tests/test_releases_2026.py)
    r = by_code(advise(measured_gpu(18, max_model_len=32768)), RecCode.KV_CACHE_MEMORY_BYTES)
    assert r.settings == {"kv_cache_memory_bytes": "4864M"}
    # 18 GiB non-KV + 4.75 GiB = 22.75 GiB ≤ 0.95 × 24 GiB = 22.8 GiB (the guide's headroom, advice.UTILIZATION_WARN_ABOVE);
    # it amounts to 22.75 / 24 = 0.9479 of the GPU, quoted rounded up: 0.95
    assert r.params == {"bytes": 5_100_273_664, "gib": 4.75, "utilization": "0.95"}
    assert r.fits is True
    assert r.exceeds_gpu is False


def test_fixed_budget_rounds_up_and_flags_a_gpu_too_small():
    # need(40,960) = 6,039,797,760 = 5,760 MiB = 22.5 × 256 MiB → 23 × 256 MiB = 5,888 MiB = 6,174,015,488 B
    # 19,864,223,744 (non-KV) + 6,174,015,488 = 26,038,239,232 > 25,769,803,776 (24 GiB), let alone
    # 0.95 × 24 GiB = 24,481,313,587: a budget that cannot fit the GPU is not proposed (vLLM does not
    # check a fixed budget, so it would start and then run out of memory)
    s = measured_gpu(18.5)
    assert "kv_cache_memory_bytes" not in codes(advise(s))


def test_fixed_budget_in_whole_gib():
    # 13,654 tokens: cdiv(13,654, 16) = 854 blocks × 2,359,296 = 2,014,838,784 B = 1,921.5 MiB
    # → cdiv(1,921.5, 256) = 8 × 256 MiB = 2,048 MiB = 2 GiB exactly → "2G"
    r = by_code(advise(scenario(available_kv_gib=1, max_model_len=13654)), RecCode.KV_CACHE_MEMORY_BYTES)
    assert r.settings == {"kv_cache_memory_bytes": "2G"}
    assert r.params["bytes"] == 2 * GiB == 8 * 256 * MiB


def test_enforce_eager_frees_the_graph_memory_from_the_kv_budget():
    # graphs measured at 0.5 GiB: eager adds exactly 536,870,912 B → 4,380,866,642 + 536,870,912 = 4,917,737,554 ≥ need
    r = by_code(advise(measured_gpu(18, max_model_len=32768)), RecCode.ENFORCE_EAGER)
    assert r.settings == {"enforce_eager": True}
    assert r.verdict.available_kv_bytes == 4_917_737_554 and r.fits is True


def test_weight_changing_rungs_have_no_what_if_when_the_weights_are_measured():
    recs = advise(measured_gpu(18, max_model_len=32768))
    for code in (RecCode.QUANTIZE_WEIGHTS, RecCode.ADD_GPUS):
        assert by_code(recs, code).verdict is None


def test_cpu_offload_gb_is_the_fewest_whole_gib_that_start():
    # RTX 4090, 40,960 tokens, estimated budget: need 6,039,797,760 B (5.625 GiB). Offloading k GiB of weights
    # lowers the GPU's weights by exactly k GiB and nothing else, so A(k) = A(0) + k × 1,073,741,824;
    # the smallest k with A(k) ≥ need is cdiv(need − A(0), 1 GiB).
    # The budget is an estimate with a band: the advice plans every what-if at its pessimistic edge
    # (CONTRIBUTING.md §8), so A(0) is the low edge's figure and offloading moves every edge by the same k GiB.
    s = scenario(gpu="RTX-4090", max_model_len=40960)
    v = plan(s.model, s.deployment)
    assert not v.fits
    low = plan(s.model, replace(s.deployment, budget_edge="low"))
    assert low.available_kv_bytes == v.budget.available_kv_bytes_low < v.available_kv_bytes
    k = -(-(NEED_40K - low.available_kv_bytes) // GiB)
    r = by_code(recommend(s, v), RecCode.CPU_OFFLOAD)
    assert r.anchor == "weights-and-hardware" and r.settings == {"cpu_offload_gb": k} and r.params == {"gib": k}
    assert r.verdict.available_kv_bytes == low.available_kv_bytes + k * GiB and r.fits is True


def test_kv_ladder_with_a_measured_budget():
    # "Available KV cache memory: 4.0 GiB" for 32,768 tokens: no GPU size, so no utilization rung
    s = scenario(available_kv_gib=4, max_model_len=32768)
    recs = advise(s)
    # no utilization, GPU or offload rung: nothing but the KV figure is known
    # the free rungs' effect is vLLM's to measure here: they keep the guide's order, before fp8 (it was after)
    assert codes(recs) == ["lower_max_model_len", "enforce_eager", "limit_concurrency", "fp8_kv_cache",
                           "quantize_weights", "kv_cache_memory_bytes"]
    # est = 16 × (4 GiB // 2,359,296 = 1,820) = 29,120 → 22,528
    assert recs[0].settings == {"max_model_len": 22_528}


def test_no_fp8_rung_when_the_cache_is_already_fp8():
    # fp8 KV: 1,179,648 B per block; 2 GiB // 1,179,648 = 1,820 blocks < 2,048 needed → does not fit
    recs = advise(scenario(available_kv_gib=2, max_model_len=32768, kv_cache_dtype="fp8"))
    assert "fp8_kv_cache" not in codes(recs)
    assert codes(recs)[0] == "lower_max_model_len"


# ---- when it starts ----------------------------------------------------------------------------------

def test_fits_with_fewer_requests_than_max_num_seqs_suggests_fp8():
    # 60 GiB: 27,306 blocks / 2,048 = 13.33 requests < max_num_seqs 256 → fp8 doubles that
    recs = advise(scenario(available_kv_gib=60, max_model_len=32768))
    assert codes(recs) == ["fp8_kv_cache"]
    assert recs[0].fits is True


@pytest.mark.parametrize("extra", [{"kv_cache_dtype": "fp8"}, {"max_num_seqs": 8}])
def test_fits_with_nothing_to_add(extra):
    # fp8 already; or 13.33 (fp8: 54,613 / 2,048 = 26.67) ≥ max_num_seqs 8
    assert advise(scenario(available_kv_gib=60, max_model_len=32768, **extra)) == []


# ---- "No available memory for the cache blocks": the weights ladder ------------------------------------------

def weights_do_not_fit(**inputs: object) -> Scenario:
    # 12 GiB GPU: requested = ceil(12,884,901,888 × 0.92 = 11,854,109,736.96) = 11,854,109,737;
    # weights 15 + activation 1 + non-torch 0.25 + graphs 0.25 = 16.5 GiB = 17,716,740,096 → A < 0
    return scenario(gpu_memory_gib=12, max_model_len=32768, weights_gib=15, activation_gib=1, non_torch_gib=0.25,
                    cudagraph_gib=0.25, **inputs)


def test_no_memory_when_the_weights_fit_the_gpu_but_leave_nothing():
    # weights 10 + activation 1 + non-torch 0.25 + graphs 0.25 = 11.5 GiB = 12,348,030,976 B >
    # requested 11,854,109,737 → A = −493,921,239; weights + non-torch = 10.25 GiB < the 12 GiB GPU: they load
    s = scenario(gpu_memory_gib=12, max_model_len=32768, weights_gib=10, activation_gib=1, non_torch_gib=0.25,
                 cudagraph_gib=0.25)
    v = plan(s.model, s.deployment)
    assert v.status == "no_memory" and v.available_kv_bytes == -493_921_239
    # read-your-log "No available memory for the cache blocks", fixes free ones first: 1. raise the utilization
    # (0.92 here, below 0.95), then the weights
    assert codes(recommend(s, v)) == ["raise_gpu_memory_utilization", "quantize_weights", "add_gpus", "larger_gpu",
                                      "enforce_eager"]


def test_weights_ladder_order():
    # weights 15 GiB + non-torch 0.25 GiB > the 12 GiB GPU: loading the weights runs out of memory
    s = weights_do_not_fit()
    v = plan(s.model, s.deployment)
    assert v.status == "weights_exceed_gpu"
    recs = recommend(s, v)
    assert codes(recs) == ["quantize_weights", "add_gpus", "larger_gpu", "enforce_eager"]
    # each fix links to the home page section that explains it (the diagnosis lives on read-your-log)
    assert [r.anchor for r in recs] == ["weights-and-hardware", "weights-and-hardware", "weights-and-hardware",
                                        "cuda-graph-memory"]
    # no quantized Qwen3-8B in the catalog: the fix names no repository (never a made-up "…-AWQ")
    assert by_code(recs, RecCode.QUANTIZE_WEIGHTS).settings == {}
    assert by_code(recs, RecCode.QUANTIZE_WEIGHTS).variant == "generic"
    # 32 attention heads % (2 × TP 1) == 0
    assert by_code(recs, RecCode.ADD_GPUS).settings == {"tensor_parallel_size": 2}
    assert by_code(recs, RecCode.ENFORCE_EAGER).settings == {"enforce_eager": True}


def test_larger_gpu_is_the_smallest_catalog_gpu_that_starts():
    # the next catalog GPUs by memory, with the same 16.5 GiB = 17,716,740,096 B non-KV and 0.92:
    #   A10  23,696,375,808 × 0.92 → ceil 21,800,665,744 → A = 4,083,925,648 < 4,831,838,208 (CUDA's totals, scripts/gpus.json)
    #   A10G 23,684,186,112 × 0.92 → ceil 21,789,451,224 → A = 4,072,711,128 < need
    #   L4   23,654,532,383 × 0.92 → ceil 21,762,169,793 → A = 4,045,429,697 < need
    #   A30  25,232,932,864 × 0.92 = 23,214,298,234.88 → ceil 23,214,298,235 → A = 5,497,558,139 ≥ need
    #     → starts (the A30 joined the catalog with CUDA's 23.50 GiB, between the A10's and the RTX A5000's)
    #   RTX-A5000 25,297,357,373 × 0.92 = 23,273,568,783.16 → ceil 23,273,568,784 → A = 5,556,828,688 (larger)
    #   RTX-3090 25,318,832,210 × 0.92 → ceil 23,293,325,634 → A = 5,576,585,538 (larger: not the pick)
    r = by_code(advise(weights_do_not_fit()), RecCode.LARGER_GPU)
    assert r.settings == {"gpu": "A30"}
    assert r.fits is True and r.verdict.available_kv_bytes == 5_497_558_139


def test_enforce_eager_what_if_drops_the_graph_memory():
    r = by_code(advise(weights_do_not_fit()), RecCode.ENFORCE_EAGER)
    # eager: no CUDA graphs → 11,854,109,737 − 16.25 GiB (17,448,304,640) = −5,594,194,903: still nothing left
    assert r.verdict.budget.cudagraph_bytes == 0
    assert r.verdict.available_kv_bytes == -5_594_194_903 and r.fits is False


@pytest.mark.parametrize(("tp", "offered"), [
    # Qwen2.5-7B has 28 attention heads: TP 2 → 4 divides 28 → offered; TP 4 → 8 does not (28 % 8 = 4)
    (2, True),
    (4, False),
])
def test_add_gpus_only_when_the_heads_divide(tp, offered):
    # 4 GiB GPU: ceil(4,294,967,296 × 0.92) = 3,951,369,913 − 7 GiB given → A < 0
    s = scenario_from_inputs({"model": "Qwen/Qwen2.5-7B-Instruct", "gpu_memory_gib": 4, "tensor_parallel_size": tp,
                              "max_model_len": 4096, "weights_gib": 5, "activation_gib": 1, "non_torch_gib": 0.5,
                              "cudagraph_gib": 0.5})
    recs = advise(s)
    # weights 5 GiB + non-torch 0.5 GiB > the 4 GiB GPU
    assert plan(s.model, s.deployment).status == "weights_exceed_gpu"
    assert ("add_gpus" in codes(recs)) is offered
    if offered:
        assert by_code(recs, RecCode.ADD_GPUS).settings == {"tensor_parallel_size": 4}


def test_auto_fit_failure_takes_the_weights_ladder():
    # 1,000 bytes cannot hold one 2,359,296-byte block: auto-fit fails. With a measured KV budget there is
    # no GPU to enlarge or split, and eager's effect cannot be computed.
    s = scenario(available_kv_bytes=1000, max_model_len="auto")
    v = plan(s.model, s.deployment)
    assert v.status == "auto_fit_failed"
    recs = recommend(s, v)
    assert codes(recs) == ["quantize_weights", "enforce_eager"]
    assert by_code(recs, RecCode.ENFORCE_EAGER).verdict is None


# ---- "Free memory on device … is less than desired GPU memory utilization" ---------------------------------

@pytest.mark.parametrize(("free", "total", "utilization"), [
    # the RTX 3090 reports 25,318,832,210 B (23.58 GiB); 20.5 GiB free = 22,011,707,392 B:
    # 22,011,707,392 / 25,318,832,210 = 0.86938… → int(86.938… − 2) / 100 = 0.84
    (22_011_707_392, 25_318_832_210, 0.84),
    # 10 of 80 GiB free: int(12.5 − 2) / 100 = 0.10
    (10 * GiB, 80 * GiB, 0.10),
    # 70 of 80 GiB: int(87.5 − 2) = 85 → 0.85
    (70 * GiB, 80 * GiB, 0.85),
])
def test_free_memory_ladder(free, total, utilization):
    recs = free_memory_ladder(free_bytes=free, total_bytes=total)
    assert codes(recs) == ["lower_gpu_memory_utilization", "free_the_gpu", "kv_cache_memory_bytes"]
    assert recs[0].settings == {"gpu_memory_utilization": utilization}
    assert recs[0].params == {"to": utilization}
    assert {r.anchor for r in recs[:2]} == {"free-memory-below-utilization"}
    assert recs[2].anchor == "kv-cache-memory-bytes" and recs[2].variant == "free" and recs[2].settings == {}
    assert all(r.verdict is None for r in recs)


@pytest.mark.parametrize(("free", "total"), [
    # 1 of 80 GiB: int(1.25 − 2) = int(−0.75) = 0 → no utilization to suggest
    (1 * GiB, 80 * GiB),
    # unknown figures
    (None, None),
    (10 * GiB, None),
])
def test_free_memory_ladder_without_a_utilization(free, total):
    assert codes(free_memory_ladder(free_bytes=free, total_bytes=total)) == ["free_the_gpu", "kv_cache_memory_bytes"]


# ---- every recommendation: a RecCode and a guide section id ----------------------------------------------

def _guide_section_ids() -> set[str]:
    ids: set[str] = set()
    for page in (ROOT / "docs" / "en").glob("*.md"):
        ids |= set(re.findall(r"\{ ?#([a-z0-9-]+) ?\}", page.read_text(encoding="utf-8")))
    return ids


def _all_recommendations() -> list[Recommendation]:
    scenarios = [measured_gpu(18, max_model_len=32768), measured_gpu(18.5), scenario(available_kv_gib=4),
                 scenario(gpu="RTX-4090", max_model_len=40960),
                 scenario(available_kv_gib=60, max_model_len=32768), weights_do_not_fit(),
                 scenario(available_kv_bytes=1000, max_model_len="auto")]
    recs = [r for s in scenarios for r in advise(s)]
    return recs + free_memory_ladder(free_bytes=10 * GiB, total_bytes=80 * GiB)


def test_every_recommendation_has_a_code_and_a_guide_anchor():
    ids = _guide_section_ids()
    recs = _all_recommendations()
    assert {r.code for r in recs} == set(RecCode)          # these scenarios reach every rung
    for r in recs:
        assert isinstance(r.code, RecCode) and RecCode(r.code) is r.code
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", r.anchor), r.anchor
        assert r.anchor in ids, f"{r.code}: #{r.anchor} is not a section of the guide"
        assert all(re.fullmatch(r"[a-z][a-z0-9_]*", k) for k in r.settings)   # snake_case engine arguments
