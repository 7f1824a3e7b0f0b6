"""A pasted log recomputed to its own block count (``kvcalc.logs.log_capacity``), worked by hand.

Llama-3.1-8B (scripts/model_configs/meta-llama/Llama-3.1-8B-Instruct: 32 layers, 8 KV heads, head_dim 128,
bf16) on vLLM 0.19.0, where "GPU KV cache size" = blocks × 16 (before #41069):
  bytes per token  = 32 × 8 × 128 × 2 (K and V) × 2 B                         = 131,072
  bytes per block  = 16 × 131,072                                              = 2,097,152 (2^21)
  "58.11 GiB"      = 58.105 … 58.115 GiB = ceil(58.105 × 2^30) … floor(58.115 × 2^30)
                   = 62,389,768,684 … 62,400,506,101 B   (58.105 × 2^30 = 62,389,768,683.52)
  midpoint         = round(58.11 × 2^30) = 62,395,137,393 B → // 2^21 = 29,752 blocks → 476,032 tokens
  the log's 476,016 tokens = 29,751 × 16 → 29,751 blocks:
                   29,751 × 2^21 = 62,392,369,152 … 29,752 × 2^21 − 1 = 62,394,466,303 B
  both intervals   → 62,392,369,152 … 62,394,466,303; nearest the midpoint: 62,394,466,303 B
  concurrency      = 29,751 / cdiv(8,192, 16) = 29,751 / 512 = 58.107… → "58.11x" (logged 58.11x)
"""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from kvcalc import plan
from kvcalc.faces.cli import main
from kvcalc.logs.diagnose import diagnose
from kvcalc.logs.log_capacity import FitStatus

LOGS = Path(__file__).parent / "data" / "logs"
TP1 = (LOGS / "llmd_v019_llama31_8b_h100_tp1.log").read_text(encoding="utf-8")
PP2 = (LOGS / "llmd_v019_llama31_8b_h100_pp2.log").read_text(encoding="utf-8")


def test_hand_worked_llama_8b_lands_on_the_logged_block() -> None:
    d = diagnose(TP1)
    fit = d.capacity_fit
    assert fit is not None and fit.status == FitStatus.EXACT
    assert (fit.low_bytes, fit.high_bytes) == (62_389_768_684, 62_400_506_101)
    assert fit.available_kv_bytes == 62_394_466_303
    assert d.analysis is not None
    v = d.analysis.verdict
    assert (v.available_kv_bytes, v.num_gpu_blocks, v.gpu_kv_cache_tokens) == (62_394_466_303, 29_751, 476_016)
    assert "GPU KV cache size: 476,016 tokens" in v.vllm_lines
    assert "Maximum concurrency for 8,192 tokens per request: 58.11x" in v.vllm_lines
    # one byte more is the 29,752nd block: the figure is the top of the logged block's interval
    above = plan(v.model, replace(v.deployment, measured=replace(v.deployment.measured,
                                                                 available_kv_bytes=62_394_466_304)))
    assert above.num_gpu_blocks == 29_752


def test_the_form_inputs_keep_the_log_figure_as_printed() -> None:
    # the calculator's form and its link carry what the log states; only the recomputed plan is refined
    assert diagnose(TP1).inputs["available_kv_gib"] == "58.11"


# vLLM 0.19.0 with PP 2: vLLM prints "Available KV cache memory" once per node (logger.info_once(...,
# scope="local"), vllm/v1/worker/gpu_worker.py); this log shows stage 0's (line 46: 66.54 GiB), and the
# capacity (line 57: 1,075,312 tokens) is the minimum over the stages.
# Stage 0 holds 16 of the 32 layers: 16 × 16 × 8 × 128 × 2 × 2 = 1,048,576 B per block (2^20).
#   66.54 GiB = round(66.54 × 2^30) = 71,446,780,969 B // 2^20 = 68,136 blocks (66.54 × 1,024 = 68,136.96 MiB)
#   logged 1,075,312 / 16 = 67,207 blocks → 929 blocks fewer: 67,207–67,207.99 MiB = 65.632–65.633 GiB, which
#   prints as 65.63, stage 1's figure by the log's own breakdown (requested 75.23 GiB − "Total non KV cache
#   memory: 9.6GiB" = 65.63 GiB; tests/test_real_logs.py).
@pytest.mark.parametrize(("lang", "text"), [
    ("en", "the log's 67,207 blocks mean about 65.63 GiB on that GPU, 929 blocks fewer than 66.54 GiB gives"),
    ("es", "los 67\u202f207 bloques del registro equivalen a unos 65,63 GiB en esa GPU, 929 bloques menos"),
    ("zh", "日志中的 67,207 个块相当于那块 GPU 上约 65.63 GiB，比 66.54 GiB 能给出的少 929 个块"),
])
def test_a_multi_gpu_log_is_recomputed_at_its_least_worker(lang: str, text: str, tmp_path: Path) -> None:
    d = diagnose(PP2)
    fit = d.capacity_fit
    assert fit is not None and fit.status == FitStatus.LEAST_WORKER
    assert (fit.logged_blocks, fit.recomputed_blocks) == (67_207, 68_136)
    assert 67_207 * 2**20 <= fit.available_kv_bytes < 67_208 * 2**20
    assert d.analysis is not None and d.analysis.verdict.gpu_kv_cache_tokens == 1_075_312  # the log's own line
    path = tmp_path / "pp2.log"
    path.write_text(PP2, encoding="utf-8")
    out = io.StringIO()
    assert main(["log", str(path), "--lang", lang], stdout=out, stderr=io.StringIO()) == 0
    assert text in out.getvalue()


# The tp1 log (one GPU) with its token count changed to 475,840 = 29,740 × 16 and its concurrency to
# 29,740 / 512 blocks per request (8,192 / 16) = 58.0859 → "58.09x", a constructed input: one GPU
# has no other worker to explain fewer blocks. 2 MiB per block (32 × 16 × 8 × 128 × 2 × 2 = 2,097,152 B);
# 58.11 GiB = 59,504.64 MiB → 29,752 blocks at the midpoint (58.105–58.115 GiB: 29,749–29,754), 12 more.
@pytest.mark.parametrize(("lang", "text"), [
    ("en", "disagree with the recomputation by 12 blocks (log 29,740, recomputed 29,752)"),
    ("es", "no coinciden con el recálculo por 12 bloques (registro 29\u202f740, recálculo 29\u202f752)"),
    ("zh", "相差 12 个块（日志 29,740，重新计算 29,752）"),
])
def test_a_log_whose_figures_disagree_says_by_how_many_blocks(lang: str, text: str, tmp_path: Path) -> None:
    log = TP1.replace("GPU KV cache size: 476,016 tokens", "GPU KV cache size: 475,840 tokens").replace(
        "per request: 58.11x", "per request: 58.09x")
    d = diagnose(log)
    fit = d.capacity_fit
    assert fit is not None and fit.status == FitStatus.DISAGREES
    assert (fit.logged_blocks, fit.recomputed_blocks) == (29_740, 29_752)
    assert d.analysis is not None and d.analysis.verdict.available_kv_bytes == round(58.11 * 2**30)  # midpoint
    path = tmp_path / "tp1.log"
    path.write_text(log, encoding="utf-8")
    out = io.StringIO()
    assert main(["log", str(path), "--lang", lang], stdout=out, stderr=io.StringIO()) == 0
    assert text in out.getvalue()


def test_a_capacity_no_memory_gives_is_unreachable() -> None:
    # The tp1 log with its token count changed to 476,020 (not a multiple of 16: no block count gives it
    # under 0.19's blocks × 16), a constructed input, not a real log.
    d = diagnose(TP1.replace("GPU KV cache size: 476,016 tokens", "GPU KV cache size: 476,020 tokens"))
    assert d.capacity_fit is not None and d.capacity_fit.status == FitStatus.UNREACHABLE
    assert d.analysis is not None and d.analysis.verdict.gpu_kv_cache_tokens == 476_032  # midpoint: 29,752 × 16


def test_no_capacity_line_no_fit() -> None:
    # the error of tests/test_cli.py's TOO_SMALL_LOG without its estimate prints no capacity: nothing to fit
    log = ("ValueError: To serve at least one request with the model's max seq len (40960), (5.62 GiB KV cache is "
           "needed, which is larger than the available KV cache memory (4.0 GiB).")
    assert diagnose(log, {"model": "Qwen/Qwen3-8B"}).capacity_fit is None


def test_the_estimate_of_a_failed_check_is_fitted_like_a_capacity() -> None:
    # With its estimate (29,120) the same error is fitted: Qwen3-8B, 2,359,296 B per block; 29,120 = 1,820 blocks
    # of 16 plus the null block = 1,821 x 2,359,296 = 4,296,278,016 B, inside 4.0 ± 0.005 GiB
    # (4,289,598,587-4,300,336,005); at the midpoint 4,294,967,296 B only 1,820 blocks: 16 x 1,819 = 29,104
    log = ("ValueError: To serve at least one request with the model's max seq len (40960), (5.62 GiB KV cache is "
           "needed, which is larger than the available KV cache memory (4.0 GiB). Based on the available memory, the "
           "estimated maximum model length is 29120.")
    d = diagnose(log, {"model": "Qwen/Qwen3-8B"})
    assert d.capacity_fit is not None and d.capacity_fit.status == FitStatus.EXACT
    assert d.capacity_fit.available_kv_bytes == 4_296_278_016
    assert d.analysis is not None and d.analysis.verdict.estimated_max_model_len == 29_120 and not d.mismatches


def test_a_tp4_excerpt_is_recomputed_at_the_worker_its_capacity_line_came_from() -> None:
    # vllm#21348 (0.9.2 / 0.10.0, Qwen3-235B-A22B-FP8 at TP 4): "Available KV cache memory: 8.11 GiB" and
    # "GPU KV cache size: 178,880 tokens" from two different workers (before #25164 each worker printed both
    # lines from its own memory; tests/test_real_logs.py keeps the strict xfail for the within-rounding check).
    # One block id: 94 layers x 16 x 1 KV head (4 / TP 4) x 128 x 2 (K, V) x 2 B = 770,048 B.
    # 178,880 / 16 = 11,180 blocks: 11,180 x 770,048 = 8,609,136,640 B up to 11,181 x 770,048 - 1 =
    # 8,609,906,687 B (8.018-8.019 GiB), against 11,301-11,315 blocks for 8.11 ± 0.005 GiB.
    text = (LOGS / "v1_qwen3_235b_fp8_h100_tp4_capacity.log").read_text(encoding="utf-8")
    d = diagnose(text, {"model": "Qwen/Qwen3-235B-A22B-FP8"})
    fit = d.capacity_fit
    assert fit is not None and fit.status == FitStatus.LEAST_WORKER and fit.logged_blocks == 11_180
    assert 8_609_136_640 <= fit.available_kv_bytes <= 8_609_906_687
    assert d.analysis is not None and d.analysis.verdict.gpu_kv_cache_tokens == 178_880
