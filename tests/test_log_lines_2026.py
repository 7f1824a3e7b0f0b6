"""vLLM 0.27–0.33 log lines, the load-time OOM, the mismatch warning, and the reader's hostile-input bounds.

Each log text is a vendored public log (tests/data/logs, sources.json) or a public excerpt with its URL beside it.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kvcalc.faces.cli import main
from kvcalc.faces.report import log_notes
from kvcalc.logs.diagnose import diagnose
from kvcalc.logs.logparse import parse_log

LOGS = Path(__file__).parent / "data" / "logs"


def _log(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


def _cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def _line(name: str, text: str) -> str:
    return next(x for x in _log(name).splitlines() if text in x)


# --- the new lines --------------------------------------------------------------------------------------------

def test_capacity_on_one_line() -> None:
    # v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log: "GPU KV cache size: 324,704 tokens, Maximum concurrency
    # for 4,096 tokens per request: 79.27x" (kv_cache_utils.py, one line since 2026)
    line = _line("v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log", "GPU KV cache size")
    facts = parse_log(line).facts
    assert (facts["gpu_kv_cache_tokens"], facts["max_model_len"], facts["max_concurrency"]) == (324_704, 4096, 79.27)


def test_error_without_parenthesis_and_one_decimal_figures() -> None:
    # v0291rc1_minimax_m27_awq_2xspark_tp2_quoted_kv_too_small.log (spark-vllm-docker #396, vLLM 0.29.1rc1)
    r = parse_log(_log("v0291rc1_minimax_m27_awq_2xspark_tp2_quoted_kv_too_small.log"))
    assert r.diagnosis == "kv_cache_too_small"
    assert (r.facts["needed_kv_gib"], r.facts["available_kv_gib"], r.facts["estimated_max_model_len"]) == (
        23.25, 22.5, 190_272)
    # v2026_kaito_mistral_small4_119b_h100_1m_kv_too_small.log (kaito #2132): "22.5 GiB KV cache is needed"
    assert parse_log(_log("v2026_kaito_mistral_small4_119b_h100_1m_kv_too_small.log")).facts["needed_kv_gib"] == 22.5


def test_startup_summary_line_is_info_not_the_free_memory_error() -> None:
    # llmd_v019_llama31_8b_h100_len16k.log: "Free memory on device (78.68/79.19 GiB) on startup. Desired GPU memory
    # utilization is (0.95, 75.23 GiB). Actual usage is …" is the summary after start-up, not the failed check
    line = _line("llmd_v019_llama31_8b_h100_len16k.log", "on startup. Desired GPU memory utilization is")
    r = parse_log(line)
    assert r.diagnosis == "unknown"
    assert (r.facts["free_memory_gib"], r.facts["total_gpu_memory_gib"], r.facts["requested_memory_gib"],
            r.facts["suggested_kv_cache_memory_bytes"]) == (78.68, 79.19, 75.23, 61_258_029_056)


def test_weights_and_non_torch_together() -> None:
    # v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log (0.30): "Actual usage is 3.24 GiB for consumed memory
    # (weights + non-torch), 0.46 GiB for peak activation, and 0.15 GiB for CUDAGraph memory": one figure for both
    line = _line("v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log", "consumed memory (weights + non-torch)")
    facts = parse_log(line).facts
    assert (facts["consumed_memory_gib"], facts["activation_peak_gib"], facts["cudagraph_gib"]) == (3.24, 0.46, 0.15)
    assert "model_weights_gib" not in facts and "non_torch_gib" not in facts


def test_hybrid_layout_lines() -> None:
    # v2026_xpu_hybrid_attn_block_528_pad_076.log (vLLM #37467): "Setting attention block size to 528 tokens …",
    # "Padding mamba page size by 0.76% …"
    facts = parse_log(_log("v2026_xpu_hybrid_attn_block_528_pad_076.log")).facts
    assert (facts["hybrid_attention_block_size"], facts["mamba_page_padding_pct"]) == (528, 0.76)
    # llmd_v019_gemma3_27b_h100.log: "Add 8 padding layers, may waste at most 15.38% KV cache memory"
    assert parse_log(_log("llmd_v019_gemma3_27b_h100.log")).facts["num_padding_layers"] == 8
    # r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log (RTX 5090, 2026-10-03): "Add 3 padding layers, …" and
    # "kv cache group sizes [2848, 2848, 2848, 2848]", one block size per group, as printed
    facts = parse_log(_log("r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log")).facts
    assert (facts["num_padding_layers"], facts["kv_cache_group_block_sizes"]) == (3, "2848, 2848, 2848, 2848")
    assert "kv_cache_group_block_sizes" not in parse_log("kv cache group sizes [2848, 2848").facts  # cut: not read


def test_both_kv_cache_memory_suggestions_and_the_initial_free_memory() -> None:
    # r19_v0271_qwen25_0p5b_4090wsl_util085_2k_nvcc_missing.log (0.27.1): "Replace gpu_memory_utilization config with
    # `--kv-cache-memory=19468210074` (18.13 GiB) to fit into requested memory, or `--kv-cache-memory=21679683072`
    # (20.19 GiB) to fully utilize gpu memory": both byte counts, each under its own fact
    line = _line("r19_v0271_qwen25_0p5b_4090wsl_util085_2k_nvcc_missing.log", "to fully utilize gpu memory")
    facts = parse_log(line).facts
    assert (facts["suggested_kv_cache_memory_bytes"], facts["full_kv_cache_memory_bytes"]) == (19_468_210_074,
                                                                                             21_679_683_072)
    # 21,679,683,072 B / 2**30 = 20.19 GiB, the figure in the parenthesis
    assert round(facts["full_kv_cache_memory_bytes"] / 2**30, 2) == 20.19
    # r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log: "Initial free memory 30.16 GiB, reserved 5.0 GiB memory for KV
    # Cache as specified by kv_cache_memory_bytes config and skipped memory profiling."
    facts = parse_log(_line("r19_v03xx_gdn_hybrid_mtp3_5090_kv5gib_groups.log", "Initial free memory")).facts
    assert (facts["free_memory_gib"], facts["available_kv_gib"], facts["kv_cache_memory_fixed"]) == (30.16, 5.0, True)

def test_cut_args_echo_keeps_the_settings_before_the_cut() -> None:
    # r19_v0280_qwen38_27b_w4a16_3090_fp8kv_align_131k.log (0.28.0, one RTX 3090): the saved echo ends in
    # "'cudagraph_num_of_warmups': 0, 'cudagr" with no closing brace; every top-level pair before it is vLLM's
    line = _line("r19_v0280_qwen38_27b_w4a16_3090_fp8kv_align_131k.log", "non-default args")
    facts = parse_log(line).facts
    assert (facts["gpu_memory_utilization"], facts["kv_cache_dtype"], facts["enable_prefix_caching"],
            facts["mamba_cache_mode"], facts["mamba_ssm_cache_dtype"], facts["max_num_batched_tokens"],
            facts["max_num_seqs"], facts["max_model_len"]) == (0.96, "fp8", True, "align", "float16", 2048, 64, 131072)
    # 'language_model_only': True before the cut: no encoder profile, as for a whole echo
    assert facts["limit_mm_per_prompt"] == '{"image": 0, "video": 0}'


def test_cut_args_echo_never_reads_a_cut_value_or_a_nested_key() -> None:
    # a value without the separator after it may itself be cut ("'max_num_seqs': 6" of 64): not read; a key of a
    # nested dict (the compilation config's 'mode') is not a setting of the echo
    line = ("INFO non-default args: {'model': 'Qwen/Qwen3-8B', 'compilation_config': {'mode': 3, "
            "'max_num_seqs': 2}, 'max_model_len': 8192, 'max_num_seqs': 6")
    assert parse_log(line).facts == {"model": "Qwen/Qwen3-8B", "max_model_len": 8192}
    # a string cut before its closing quote is not a value either
    assert parse_log("INFO non-default args: {'max_model_len': 4096, 'model': 'Qwen/Qw").facts == {"max_model_len": 4096}


def test_wrapped_startup_summary_is_read() -> None:
    # r19_v0291_gemma4_e2b_mi300x_32k.log (0.29.1, MI300X): the post wraps the summary mid-figure,
    # "Desired GPU memory utilization is (0.9,⏎172.52 GiB). Actual usage is 11.88 GiB … 5.59 GiB for peak⏎activation,
    # and 3.9 GiB for CUDAGraph memory."
    facts = parse_log(_log("r19_v0291_gemma4_e2b_mi300x_32k.log")).facts
    assert (facts["free_memory_gib"], facts["total_gpu_memory_gib"], facts["gpu_memory_utilization"],
            facts["requested_memory_gib"], facts["consumed_memory_gib"], facts["activation_peak_gib"],
            facts["cudagraph_gib"]) == (191.36, 191.69, 0.9, 172.52, 11.88, 5.59, 3.9)
    # and it stays the INFO summary, not the fatal free-memory check
    assert parse_log(_log("r19_v0291_gemma4_e2b_mi300x_32k.log")).diagnosis == "started"

def test_mamba_blocks_error() -> None:
    # v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log (vLLM #38632)
    r = parse_log(_log("v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log"))
    assert r.diagnosis == "mamba_blocks_below_max_num_seqs"
    assert (r.facts["max_num_seqs"], r.facts["mamba_cache_blocks"]) == (1024, 600)
    code, out, _ = _cli(["log", "-", "--lang", "es"], stdin=_log("v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log"))
    assert code == 1 and out.startswith("Diagnóstico: Menos bloques de caché Mamba")


def test_auto_fit_without_a_single_token_is_the_cache_blocks_failure() -> None:
    # vllm/v1/core/kv_cache_utils.py ``_auto_fit_max_model_len`` raises, when auto_fit_max <= 0:
    # "Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. Try increasing
    # `gpu_memory_utilization`." (the format string, one line as ValueError prints it)
    line = ("ValueError: Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single "
            "token. Try increasing `gpu_memory_utilization`.\n")
    assert parse_log(line).diagnosis == "no_memory_for_cache_blocks"


# --- the load-time OOM ----------------------------------------------------------------------------------------

# https://github.com/vllm-project/vllm/issues/28143: the OOM while creating the weights, then the traceback
LOAD_OOM = """(EngineCore_DP0 pid=12473) ERROR 11-05 12:19:32 [linear.py:210] Failed to create unquantized linear weights: CUDA out of memory. Tried to allocate 896.00 MiB. GPU 0 has a total capacity of 93.09 GiB of which 739.81 MiB is free. Including non-PyTorch memory, this process has 92.34 GiB memory in use. Of the allocated memory 91.68 GiB is allocated by PyTorch, and 1.84 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)
(EngineCore_DP0 pid=12473) ERROR 11-05 12:19:32 [core.py:708] EngineCore failed to start.
(EngineCore_DP0 pid=12473) ERROR 11-05 12:19:32 [core.py:708] Traceback (most recent call last):
(EngineCore_DP0 pid=12473) ERROR 11-05 12:19:32 [core.py:708]   File "/home/localadmin/Documents/vllm/.venv/lib/python3.10/site-packages/vllm/model_executor/layers/linear.py", line 202, in create_weights
(EngineCore_DP0 pid=12473) ERROR 11-05 12:19:32 [core.py:708]     weight = ModelWeightParameter(data=torch.empty(
"""


def test_oom_while_creating_the_weights_is_the_start_up_oom() -> None:
    r = parse_log(LOAD_OOM)
    assert r.diagnosis == "load_out_of_memory"
    assert r.facts["total_gpu_memory_gib"] == 93.09 and r.facts["oom_tried_to_allocate_mib"] == 896.0
    for lang, text in (("en", "while loading the weights"), ("es", "al cargar los pesos"), ("zh", "加载权重时")):
        code, out, _ = _cli(["log", "-", "--lang", lang], stdin=LOAD_OOM)
        assert code == 1 and text in out.splitlines()[0], lang


def test_wrapped_load_oom_of_0_27() -> None:
    # vllm/v1/worker/gpu_model_runner.py ``load_model`` (0.27+) logs f"{msg} (original error: {e})" with msg
    # "Failed to load model - not enough GPU memory. Try lowering --gpu-memory-utilization to free memory for
    # weights, increasing --tensor-parallel-size, or using --quantization. See https://docs.vllm.ai/en/latest/
    # configuration/conserving_memory/ for more tips."; the original error here is torch's text of #28143 above.
    line = ("(EngineCore pid=1) ERROR [gpu_model_runner.py] Failed to load model - not enough GPU memory. Try lowering "
            "--gpu-memory-utilization to free memory for weights, increasing --tensor-parallel-size, or using "
            "--quantization. See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more tips. "
            "(original error: CUDA out of memory. Tried to allocate 896.00 MiB. GPU 0 has a total capacity of 93.09 "
            "GiB of which 739.81 MiB is free.)\n")
    assert parse_log(line).diagnosis == "load_out_of_memory"


def test_run_time_oom_keeps_its_label() -> None:
    # the corpus' run-time OOMs load their weights first ("Model loading took …"), then run out of memory
    for name in ("llmd_v019_gpt_oss_20b_h100_sampler_oom.log", "v04_runtime_oom_qwen2_7b_2080ti.log",
                 "v080_sampler_oom_qwen25_32b_awq_tp2.log"):
        assert parse_log(_log(name)).diagnosis == "cuda_out_of_memory", name


# --- the mismatch warning -------------------------------------------------------------------------------------

def test_wrong_model_misses_the_needed_figure_and_the_estimate() -> None:
    # v010_lmcache_models_s_max_seq_len_32768.log (LMCache #1372): 4.5 GiB at 32,768 tokens = 147,456 B/token
    # (Qwen3-8B's 36 layers × 8 KV heads × 128 × 2 (K, V) × 2 B). With Llama-3.1-8B (32 × 8 × 128 × 2 × 2 =
    # 131,072 B/token) the recomputed need is 32,768 × 131,072 B = 4.00 GiB: −11.1 % of 4.5.
    code, out, _ = _cli(["log", "-", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--json"],
                        stdin=_log("v010_lmcache_models_s_max_seq_len_32768.log"))
    payload = json.loads(out)
    miss = {m["fact"]: m for m in payload["mismatches"]}
    assert (miss["needed_kv_gib"]["printed"], miss["needed_kv_gib"]["recomputed"]) == (4.5, 4.0)
    assert miss["needed_kv_gib"]["difference_pct"] == -11.11
    # the estimate: 3.58 GiB / 131,072 B per token ≈ 29,327 tokens against the logged 26,032 (3.58 / 4.5 × 32,768)
    assert miss["estimated_max_model_len"]["printed"] == 26_032
    assert 29_000 < miss["estimated_max_model_len"]["recomputed"] < 29_400
    # with the model the log's figures fit (Qwen3-8B), nothing is missed
    _, out, _ = _cli(["log", "-", "--model", "Qwen/Qwen3-8B", "--json"],
                     stdin=_log("v010_lmcache_models_s_max_seq_len_32768.log"))
    assert json.loads(out)["mismatches"] == []


def test_wrong_model_misses_the_token_capacity_and_the_note_says_so() -> None:
    # llmd_v019_llama31_8b_h100_tp1.log: 58.11 GiB, 476,016 tokens for Llama-3.1-8B. Given Qwen3-8B instead
    # (147,456 B/token, 2,359,296 B per 16-token block): 58.11 GiB = 62,395,107,164 B // 2,359,296 = 26,446 blocks
    # = 423,136 tokens, −11.1 % of the printed 476,016, far beyond the rounding (which the fit searched).
    text = _log("llmd_v019_llama31_8b_h100_tp1.log")
    _, out, _ = _cli(["log", "-", "--model", "Qwen/Qwen3-8B", "--json"], stdin=text)
    miss = {m["fact"]: m for m in json.loads(out)["mismatches"]}
    assert (miss["gpu_kv_cache_tokens"]["printed"], miss["gpu_kv_cache_tokens"]["recomputed"]) == (476_016, 423_136)
    d = diagnose(text, corrections={"model": "Qwen/Qwen3-8B"})
    for lang, words in (("en", ("476,016", "423,136", "11.1 %", "another model")),
                        ("es", ("476", "423", "11,1 %", "otro modelo")),
                        ("zh", ("476,016", "423,136", "11.1 %", "模型"))):
        notes = [n for n in log_notes(lang, d) if all(w in n for w in words)]
        assert len(notes) == 1, (lang, log_notes(lang, d))
    # the log as it ran (its own model): no warning
    assert diagnose(text).mismatches == ()


# Logs the core misses for a known reason (each is a strict xfail in test_real_logs.py with its arithmetic).
_KNOWN_MISSES = {
    "h20-v0100_qwen3_32b_8xh100_tp8_fp8kv_32k.log": "eight workers print capacity lines from different "
    "available figures; the reader keeps the least available figure and the last capacity line, of another worker",
    **{name: "the vendored Qwen3.5-27B config has no mamba_ssm_dtype (bf16 state), the log's page is the fp32 "
       "state's" for name in ("h20-v0190_qwen35_27b_4x3090_tp4_eager_32k.log",
                              "h20-v0190_qwen35_27b_4x3090_tp4_eager_util092_32k.log",
                              "h20-v0190_qwen35_27b_4x3090_tp4_eager_util092_seqs1_50k.log")},
}


@pytest.mark.parametrize("name", [
    pytest.param(p.name, marks=pytest.mark.xfail(strict=True, reason=_KNOWN_MISSES[p.name]))
    if p.name in _KNOWN_MISSES else p.name for p in sorted(LOGS.glob("*.log"))])
def test_no_corpus_log_is_warned_with_its_own_model(name: str) -> None:
    # every vendored log the core recomputes with the model it names lands on its own exact figures
    assert diagnose((LOGS / name).read_text(encoding="utf-8", errors="replace")).mismatches == ()


# --- hostile input --------------------------------------------------------------------------------------------

def test_huge_non_decimal_literals_are_dropped_not_fatal(tmp_path: Path) -> None:
    # CPython refuses str() of an int past 4,300 digits; 0x + 4,000 hex digits is such an int (16,000 bits)
    for literal in ("0x" + "f" * 4000, "0o" + "7" * 5000, "0b" + "1_" * 6000 + "1", "1" * 5000):
        line = "INFO non-default args: {'model': " + literal + ", 'max_model_len': 4096}\n"
        assert parse_log(line).facts == {"max_model_len": 4096}
        path = tmp_path / "args.log"
        path.write_text(line, encoding="utf-8")
        code, out, err = _cli(["log", str(path), "--json"])
        assert code == 0 and err == "" and json.loads(out)["facts"] == {"max_model_len": 4096}


def test_many_newlines_and_many_args_lines_are_read() -> None:
    # Reading is one regex pass for the anchor lines plus one pass per anchor line (timed in bench/, not here)
    assert parse_log("\n" * (5 << 20)).diagnosis == "unknown"
    nested = "INFO non-default args: {'a': " + "{'a': " * 60 + "1" + "}" * 61 + "\n"
    r = parse_log(nested * 20_000 + "INFO non-default args: {'model': 'Qwen/Qwen3-8B', 'max_model_len': 4096}\n")
    assert r.starts == 20_001 and r.facts == {"model": "Qwen/Qwen3-8B", "max_model_len": 4096}
