"""Decode context parallel (``--decode-context-parallel-size``): per-rank memory, the capacity log by
release, and vLLM's refusals (notes: layouts-releases.md section 4).

Hand arithmetic, DeepSeek-V3 at TP 8 on H200 (FlashMLA's 64-token pages before 0.18): one MLA latent
of 576 bf16 values = 1,152 B per token per layer; 61 layers in one uniform group, so one block id
holds 61 × 64 × 1,152 = 4,497,408 B on every rank. DCP does not change the page (MLA keeps one head
per rank); it stores ``cdiv(L, dcp)`` tokens of each request on each rank.

* 40 GiB = 42,949,672,960 B → 42,949,672,960 // 4,497,408 = 9,549 blocks
  (9,549 × 4,497,408 = 42,945,748,992; the rest 3,923,968 is less than a block).
* max_model_len 100,000 with DCP 2: per rank cdiv(100,000, 2) = 50,000 tokens → cdiv(50,000, 64) = 782
  blocks per request; needed 782 × 4,497,408 = 3,516,973,056 B; concurrency 9,549 / 782 = 12.2109… → 12.21x.
* Tokens before #41069: 9,549 × 64 = 611,136, × dcp 2 = 1,222,272 (and the "Multiplying…" line).
  From 0.20.1 (#41069): int(9,549 / 782 × 100,000) = int(1,221,099.74…) = 1,221,099, no extra line.
* 4 GiB = 4,294,967,296 B → 954 blocks (954 × 4,497,408 = 4,290,527,232, rest 4,440,064).
  Without DCP 100,000 tokens need cdiv(100,000, 64) = 1,563 blocks > 954: does not fit, the estimate
  is 954 × 64 = 61,056. With DCP 2 they need 782 ≤ 954: fits; the largest length is L with
  cdiv(cdiv(L, 2), 64) ≤ 954 → cdiv(L, 2) ≤ 61,056 → L = 122,112; tokens 954 × 64 × 2 = 122,112.
"""
from __future__ import annotations

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.errors import CalcError
from kvcalc.faces.report import serve_command
from kvcalc.logs.logparse import parse_log

V3 = {"model": "deepseek-ai/DeepSeek-V3", "gpu": "H200", "tensor_parallel_size": 8, "max_model_len": 100_000}


def verdict(**inputs: object):
    s = scenario_from_inputs({**V3, **inputs})
    return plan(s.model, s.deployment)


def test_dcp2_capacity_on_0_11_multiplies_by_dcp_world_size() -> None:
    v = verdict(decode_context_parallel_size=2, available_kv_gib=40, vllm_version="0.11.0")
    assert v.block_size == 64 and v.fits
    assert v.num_gpu_blocks == 9_549
    assert v.needed_kv_bytes == 3_516_973_056          # 782 × 4,497,408
    assert v.blocks_per_request == 782
    assert v.gpu_kv_cache_tokens == 1_222_272          # 9,549 × 64 × 2
    assert round(v.max_concurrency or 0, 2) == 12.21   # 9,549 / 782
    lines = list(v.vllm_lines)
    i = lines.index("Multiplying the GPU KV cache size by the dcp_world_size 2.")
    assert lines[i + 1].startswith("GPU KV cache size: 1,222,272 tokens")


def test_dcp2_capacity_from_0_12_names_the_cp_world_size() -> None:
    v = verdict(decode_context_parallel_size=2, available_kv_gib=40, vllm_version="0.12.0")
    assert v.gpu_kv_cache_tokens == 1_222_272
    assert "Multiplying the GPU KV cache size by the cp_world_size 2 (pcp_world_size 1 * dcp_world_size 2)." \
        in v.vllm_lines


def test_dcp2_capacity_from_0_20_1_is_concurrency_times_length() -> None:
    # 0.18+ picks its own MLA backend on Hopper: give the 64-token page explicitly
    v = verdict(decode_context_parallel_size=2, available_kv_gib=40, vllm_version="0.20.1", block_size=64)
    assert v.num_gpu_blocks == 9_549
    assert v.gpu_kv_cache_tokens == 1_221_099          # int(9,549 / 782 × 100,000)
    assert not any("Multiplying" in line for line in v.vllm_lines)


def test_dcp_is_what_makes_a_long_request_fit() -> None:
    no = verdict(available_kv_gib=4, vllm_version="0.11.0")
    assert not no.fits and no.estimated_max_model_len == 61_056        # 954 × 64
    yes = verdict(decode_context_parallel_size=2, available_kv_gib=4, vllm_version="0.11.0")
    assert yes.fits and yes.num_gpu_blocks == 954
    assert yes.gpu_kv_cache_tokens == 122_112                         # 954 × 64 × 2
    assert yes.estimated_max_model_len == 122_112                     # cdiv(L, 2) ≤ 954 × 64


def test_dcp_auto_fit_uses_the_per_rank_length() -> None:
    # 0.14.0 (auto-fit, FlashMLA 64): derived 163,840 needs cdiv(81,920, 64) = 1,280 > 954 blocks per rank;
    # the longest length is 122,112 (as above)
    v = verdict(decode_context_parallel_size=2, available_kv_gib=4, vllm_version="0.14.0", max_model_len=-1)
    assert v.max_model_len == 122_112


def test_dcp_lines_read_back_by_the_log_reader() -> None:
    v = verdict(decode_context_parallel_size=2, available_kv_gib=40, vllm_version="0.11.0")
    facts = parse_log("\n".join(v.vllm_lines)).facts
    assert facts["decode_context_parallel_size"] == 2 and facts["gpu_kv_cache_tokens"] == 1_222_272


def test_dcp_flag_in_the_serve_command() -> None:
    s = scenario_from_inputs({**V3, "decode_context_parallel_size": "2", "available_kv_gib": 40})
    assert "--decode-context-parallel-size 2" in serve_command(s)


def _refusal(inputs: dict[str, object]) -> CalcError:
    with pytest.raises(CalcError) as e:
        scenario_from_inputs(inputs)
    assert e.value.code == "dcp_refused" and e.value.field == "decode_context_parallel_size"
    return e.value


def test_tp_must_be_divisible_by_dcp() -> None:
    err = _refusal({**V3, "decode_context_parallel_size": 3})
    assert str(err).endswith("tp_size=8 must be divisible by dcp_size=3.")


def test_dcp_before_0_10_2_is_refused() -> None:
    _refusal({**V3, "decode_context_parallel_size": 2, "vllm_version": "0.10.1"})
    assert scenario_from_inputs({**V3, "decode_context_parallel_size": 2, "vllm_version": "0.10.2"}) \
        .deployment.decode_context_parallel_size == 2


LLAMA8 = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-80GB"}     # 32 heads, 8 KV heads
LLAMA70 = {"model": "meta-llama/Llama-3.3-70B-Instruct", "gpu": "H100-80GB"}   # 64 heads, 8 KV heads
QWEN7 = {"model": "Qwen/Qwen2.5-7B-Instruct", "gpu": "H100-80GB"}              # 28 heads, 4 KV heads


def test_gqa_rules_on_newer_releases() -> None:
    # tp 8 is not greater than 8 KV heads
    err = _refusal({**LLAMA8, "tensor_parallel_size": 8, "decode_context_parallel_size": 2})
    assert str(err).endswith(
        "Decode context parallelism for GQA/MQA requires `--tensor-parallel-size` (8) to be greater than the "
        "model's total number of KV heads (8). Increase `--tensor-parallel-size` or set "
        "`--decode-context-parallel-size 1`.")
    # tp 16 // 8 KV heads = 2 < dcp 4
    err = _refusal({**LLAMA70, "tensor_parallel_size": 16, "decode_context_parallel_size": 4})
    assert str(err).endswith("`--decode-context-parallel-size` (4) exceeds the maximum supported value (2) for "
                             "`--tensor-parallel-size` (16) and 8 model KV heads.")
    # 28 / 4 = 7 query heads per KV head, not divisible by 2 (tp 28 > 4, 28 // 4 = 7 ≥ 2)
    err = _refusal({**QWEN7, "tensor_parallel_size": 28, "decode_context_parallel_size": 2})
    assert str(err).endswith("The model's number of query heads per KV head (7) must be divisible by "
                             "`--decode-context-parallel-size` (2) for GQA/MQA.")
    # within all three rules: tp 16, dcp 2 (2 ≤ 2, 8 % 2 == 0)
    ok = scenario_from_inputs({**LLAMA70, "tensor_parallel_size": 16, "decode_context_parallel_size": 2})
    assert ok.deployment.decode_context_parallel_size == 2


def test_gqa_rules_not_checked_before_49777() -> None:
    s = scenario_from_inputs({**LLAMA8, "tensor_parallel_size": 8, "decode_context_parallel_size": 2,
                              "vllm_version": "0.11.0"})
    assert s.deployment.decode_context_parallel_size == 2


def test_mamba_hybrid_refuses_dcp() -> None:
    _refusal({"model": "nvidia/Nemotron-H-8B-Base-8K", "gpu": "H100-80GB", "tensor_parallel_size": 2,
              "decode_context_parallel_size": 2, "vllm_version": "0.11.0"})


def test_sliding_window_refuses_dcp_when_sized() -> None:
    # gemma-3-4b-it: 8 heads, 4 KV heads; 0.11.0 has no GQA checks, the sliding spec asserts dcp == 1
    with pytest.raises(CalcError) as e:
        verdict(model="google/gemma-3-4b-it", tensor_parallel_size=2, decode_context_parallel_size=2,
                vllm_version="0.11.0", max_model_len=8192, available_kv_gib=10)
    assert e.value.field == "decode_context_parallel_size"
