"""Runtime-memory estimates against the breakdowns real vLLM logs print.

Run with ``pytest -s`` to see the table of measured vs estimated figures.

Measured figures are read by hand from the vLLM 0.19.0 logs in tests/data/logs
(H100 80GB = 79.19 GiB, max_num_batched_tokens 8192, max_num_seqs 1024, bf16):
"torch peak memory increase: A GiB; non-torch forward increase memory: N GiB" and
"Graph capturing finished in … secs, took G GiB". Model shapes are typed from each
model's public config.json on huggingface.co (<id>/blob/main/config.json; for
Gemma 3 and Mistral Small 3.1 the text_config), cited by id in the row.
"""

from __future__ import annotations

import json
import pathlib
import statistics
from typing import NamedTuple

from factories import model as catalog_model

from kvcalc import catalog
from kvcalc.arch.model import normalize_config
from kvcalc.budget.estimates import (
    NVLINK_GPU_IDS,
    Estimate,
    Mxfp4Kernel,
    activation_peak_bytes,
    cuda_visible_total,
    cudagraph_bytes,
    cudagraph_capture_sizes,
    encoder_item,
    encoder_run_bytes,
    mm_items_per_batch,
    mxfp4_kernel,
    mxfp4_padding_factor,
    non_torch_bytes,
    non_torch_estimate,
    unified_memory_estimate,
    v0_profile_tokens,
)
from kvcalc.budget.memory import memory_budget, weight_bytes
from kvcalc.budget.validation import excluded_logs, validation_rows, validation_summary
from kvcalc.catalog import find_gpu
from kvcalc.deployment import Deployment, Measured, batch_defaults
from kvcalc.errors import CalcError
from kvcalc.versions import rules_for

GIB = 2**30
H100 = int(79.19 * GIB)

# Tolerances the formulas meet on every row (documented in calc/budget/estimates.py). The
# constants were refitted on the fit half of data/validation.json; DeepSeek-V2-Lite
# (MLA + MoE, 1.93 GiB measured, 1.52 GiB estimated) is the worst row at 21 %.
ACTIVATION_REL_TOL = 0.25
NON_TORCH_ABS_TOL_GIB = 0.05
CUDAGRAPH_REL_TOL = 0.35


class Row(NamedTuple):
    log: str
    hidden: int
    intermediate: int  # per expert for MoE
    vocab: int
    heads: int
    layers_on_gpu: int
    tp: int
    pp: int
    moe: bool
    topk: int
    activation: float  # GiB, measured
    non_torch: float
    cudagraph: float


ROWS = [
    # meta-llama/Llama-3.1-8B-Instruct: hidden 4096, intermediate 14336, vocab 128256, 32 heads, 32 layers
    Row("llmd_v019_llama31_8b_h100_tp1.log", 4096, 14336, 128256, 32, 32, 1, 1, False, 1, 1.89, 0.25, 0.91),
    Row("llmd_v019_llama31_8b_h100_tp2.log", 4096, 14336, 128256, 32, 32, 2, 1, False, 1, 1.89, 2.07, 0.76),
    # PP 2: 16 layers per stage; the activation row is the last stage (the one that
    # samples: "torch peak memory increase: 2.01GiB"), graphs from the first
    # "Graph capturing finished in 3 secs, took 0.65 GiB"
    Row("llmd_v019_llama31_8b_h100_pp2.log", 4096, 14336, 128256, 32, 16, 1, 2, False, 1, 2.01, 0.07, 0.65),
    # codellama/CodeLlama-7b-hf: 4096, 11008, 32016, 32, 32
    Row("llmd_v019_codellama_7b_h100.log", 4096, 11008, 32016, 32, 32, 1, 1, False, 1, 0.77, 0.25, 0.89),
    # deepseek-ai/DeepSeek-V2-Lite-Chat: 2048, moe_intermediate_size 1408, vocab 102400, 16 heads, 27 layers, 6 experts/token
    Row("llmd_v019_deepseek_v2_lite_h100.log", 2048, 1408, 102400, 16, 27, 1, 1, True, 6, 1.93, 0.26, 1.57),
    # RedHatAI/Llama-3.3-70B-Instruct-fp8-dynamic (Llama-3.3-70B shapes): 8192, 28672, 128256, 64, 80
    Row("llmd_v019_llama33_70b_fp8_h100_tp2.log", 8192, 28672, 128256, 64, 80, 2, 1, False, 1, 1.96, 2.10, 1.79),
    # google/gemma-2-2b-it: 2304, 9216, 256000, 8, 26
    Row("llmd_v019_gemma2_2b_h100.log", 2304, 9216, 256000, 8, 26, 1, 1, False, 1, 3.62, 0.24, 0.71),
    # google/gemma-3-27b-it text_config: 5376, 21504, 262208, 32, 62
    Row("llmd_v019_gemma3_27b_h100.log", 5376, 21504, 262208, 32, 62, 1, 1, False, 1, 3.99, 0.26, 1.14),
    # Qwen/Qwen2.5-7B-Instruct: 3584, 18944, 152064, 28, 28 (this run used an fp8 KV cache)
    Row("llmd_v019_qwen25_7b_kvfp8_h100.log", 3584, 18944, 152064, 28, 28, 1, 1, False, 1, 2.21, 0.24, 0.86),
    # Qwen/Qwen2.5-72B-Instruct: 8192, 29568, 152064, 64, 80
    Row("llmd_v019_qwen25_72b_h100_tp2.log", 8192, 29568, 152064, 64, 80, 2, 1, False, 1, 2.29, 2.09, 1.61),
    # mistralai/Mixtral-8x7B-Instruct-v0.1: 4096, 14336, 32000, 32, 32, 2 experts/token
    Row("llmd_v019_mixtral_8x7b_h100_tp2.log", 4096, 14336, 32000, 32, 32, 2, 1, True, 2, 1.21, 2.07, 0.93),
    # openai/gpt-oss-20b: 2880, 2880, 201088, 64, 24, 4 experts/token
    Row("llmd_v019_gpt_oss_20b_h100_tp2.log", 2880, 2880, 201088, 64, 24, 2, 1, True, 4, 2.87, 2.07, 1.55),
    # Qwen/Qwen1.5-MoE-A2.7B: 2048, moe_intermediate_size 1408, 151936, 16, 24, 4 experts/token
    Row("llmd_v019_qwen15_moe_a27b_h100.log", 2048, 1408, 151936, 16, 24, 1, 1, True, 4, 2.47, 0.25, 1.10),
    # mistralai/Mistral-Small-3.1-24B-Instruct-2503 text_config: 5120, 32768, 131072, 32, 40
    Row("llmd_v019_mistral_small_31_24b_h100.log", 5120, 32768, 131072, 32, 40, 1, 1, False, 1, 2.03, 0.25, 1.06),
    # microsoft/phi-4: 5120, 17920, 100352, 40, 40
    Row("llmd_v019_phi4_h100.log", 5120, 17920, 100352, 40, 40, 1, 1, False, 1, 1.52, 0.25, 1.07),
]


def _estimate(row: Row) -> tuple[float, float, float]:
    act = activation_peak_bytes(
        hidden_size=row.hidden, intermediate_size=row.intermediate, vocab_size=row.vocab,
        num_attention_heads=row.heads, num_layers=row.layers_on_gpu, max_num_batched_tokens=8192,
        max_num_seqs=1024, tensor_parallel_size=row.tp, dtype_bytes=2, is_moe=row.moe,
        num_experts_per_tok=row.topk)
    nt = non_torch_bytes(tensor_parallel_size=row.tp, pipeline_parallel_size=row.pp, total_gpu_memory_bytes=H100)
    cg = cudagraph_bytes(num_layers=row.layers_on_gpu, hidden_size=row.hidden, max_num_seqs=1024,
                         tensor_parallel_size=row.tp, enforce_eager=False, dtype_bytes=2, is_moe=row.moe)
    return act / GIB, nt / GIB, cg / GIB


def test_logs_exist() -> None:
    logs = pathlib.Path(__file__).parent / "data" / "logs"
    for row in ROWS:
        text = (logs / row.log).read_text(encoding="utf-8")
        assert f"torch peak memory increase: {row.activation:g}GiB" in text
        assert f"took {row.cudagraph:.2f} GiB" in text


def test_estimates_against_logs() -> None:
    act_err, nt_err, cg_err = [], [], []
    print(f"\n{'log':42s} {'act meas':>8s} {'est':>6s} {'err':>5s} | {'nt meas':>7s} {'est':>5s} |"
          f" {'graph':>5s} {'est':>5s} {'err':>5s}")
    for row in ROWS:
        act, nt, cg = _estimate(row)
        a = (act - row.activation) / row.activation
        g = (cg - row.cudagraph) / row.cudagraph
        act_err.append(abs(a))
        nt_err.append(abs(nt - row.non_torch))
        cg_err.append(abs(g))
        print(f"{row.log[10:-4]:42s} {row.activation:8.2f} {act:6.2f} {a:+5.0%} | {row.non_torch:7.2f} {nt:5.2f} |"
              f" {row.cudagraph:5.2f} {cg:5.2f} {g:+5.0%}")
    print(f"activation: median {statistics.median(act_err):.1%}, max {max(act_err):.1%}")
    print(f"non-torch:  median {statistics.median(nt_err):.3f} GiB, max {max(nt_err):.3f} GiB")
    print(f"cudagraph:  median {statistics.median(cg_err):.1%}, max {max(cg_err):.1%}")
    assert max(act_err) <= ACTIVATION_REL_TOL
    assert max(nt_err) <= NON_TORCH_ABS_TOL_GIB
    assert max(cg_err) <= CUDAGRAPH_REL_TOL
    assert len(ROWS) >= 10


def test_activation_hand_arithmetic() -> None:
    # Llama-3.1-8B, 8192 batched tokens, 1024 sequences, TP 1, bf16:
    # sampler = 3.9 x 1024 x 128256 x 4 = 3.9 x 525,336,576 = 2,048,812,646.4
    # forward = 1.22 x 8192 x (3 x 14336 + 2 x 4096) x 2 = 1.22 x 838,860,800 = 1,023,410,176
    # the larger one wins
    got = activation_peak_bytes(hidden_size=4096, intermediate_size=14336, vocab_size=128256,
                                num_attention_heads=32, num_layers=32, max_num_batched_tokens=8192,
                                max_num_seqs=1024, tensor_parallel_size=1, dtype_bytes=2, is_moe=False,
                                num_experts_per_tok=1)
    assert got == 2_048_812_646
    # CodeLlama-7B, 256 sequences: sampler = 3.9 x 256 x 32016 x 4 = 127,859,097.6;
    # forward = 1.22 x 8192 x (3 x 11008 + 8192) x 2 = 1.22 x 675,282,944 = 823,845,191.68 wins
    got = activation_peak_bytes(hidden_size=4096, intermediate_size=11008, vocab_size=32016,
                                num_attention_heads=32, num_layers=32, max_num_batched_tokens=8192,
                                max_num_seqs=256, tensor_parallel_size=1, dtype_bytes=2, is_moe=False,
                                num_experts_per_tok=1)
    assert got == 823_845_191


def test_v0_profile_run_hand_arithmetic() -> None:
    # V0 without chunked prefill profiles max(max_model_len, 2048) tokens; chunked prefill
    # (default only above 32k) profiles 2048; an explicit --max-num-batched-tokens wins.
    assert v0_profile_tokens(max_model_len=29000, max_num_batched_tokens=None) == 29000
    assert v0_profile_tokens(max_model_len=1024, max_num_batched_tokens=None) == 2048
    assert v0_profile_tokens(max_model_len=131072, max_num_batched_tokens=None) == 2048
    assert v0_profile_tokens(max_model_len=131072, max_num_batched_tokens=None, enable_chunked_prefill=False) == 131072
    assert v0_profile_tokens(max_model_len=8192, max_num_batched_tokens=4096) == 4096
    # Llama-3.1-8B at 29,000 tokens, 256 sequences: forward = 1.13 x 29000 x (3 x 14336 + 2 x 4096) x 2
    # = 1.13 x 29000 x 102,400 = 1.13 x 2,969,600,000 = 3,355,648,000; one fp32 logits row per sequence
    # = 256 x 128256 x 4 = 131,334,144; the forward wins (vLLM 0.6.4 on an RTX 3090 measured 2.99 GiB
    # = 3.21e9: the V0 factor 1.13 comes from the A10 fit row, this log is in the validation half).
    got = activation_peak_bytes(hidden_size=4096, intermediate_size=14336, vocab_size=128256,
                                num_attention_heads=32, num_layers=32, max_num_batched_tokens=29000,
                                max_num_seqs=256, tensor_parallel_size=1, dtype_bytes=2, is_moe=False,
                                num_experts_per_tok=1, v0_engine=True)
    assert got == 3_355_648_000


def test_non_torch_and_graph_rules() -> None:
    # TP 1: 0.25 GiB = 268,435,456 B; TP 4 on NVLink: 2.15 GiB; TP 2 over PCIe before 0.11: 0.30 GiB
    assert non_torch_bytes(tensor_parallel_size=1, pipeline_parallel_size=1, total_gpu_memory_bytes=H100) == 268_435_456
    assert non_torch_bytes(tensor_parallel_size=4, pipeline_parallel_size=1, total_gpu_memory_bytes=H100) == int(2.15 * GIB)
    assert non_torch_bytes(tensor_parallel_size=2, pipeline_parallel_size=1, total_gpu_memory_bytes=H100,
                           nvlink=False) == int(0.30 * GIB)
    # never more than the GPU has
    assert non_torch_bytes(tensor_parallel_size=8, pipeline_parallel_size=1, total_gpu_memory_bytes=GIB) == GIB
    # eager mode captures no graphs
    assert cudagraph_bytes(num_layers=32, hidden_size=4096, max_num_seqs=256, tensor_parallel_size=1,
                           enforce_eager=True, dtype_bytes=2) == 0
    # capture sizes: 1, 2, 4 + 8..256 step 8 (32) + 272..512 step 16 (16) = 51 at the cap 512
    assert len(cudagraph_capture_sizes(1024)) == 51
    assert cudagraph_capture_sizes(4) == [1, 2, 4, 8]  # cap = 2 x 4 = 8
    # fewer sequences, fewer graphs, less memory; 256 sequences: cap 512 as well
    small = cudagraph_bytes(num_layers=32, hidden_size=4096, max_num_seqs=16, tensor_parallel_size=1,
                            enforce_eager=False, dtype_bytes=2)
    full = cudagraph_bytes(num_layers=32, hidden_size=4096, max_num_seqs=1024, tensor_parallel_size=1,
                           enforce_eager=False, dtype_bytes=2)
    assert 0 < small < full
    # full: (0.54 + 0.009 x 32) GiB = 0.828 GiB
    assert full == int(0.828 * GIB)


# vllm#29070 (4x A30, NVLink bridge pairs, no NVSwitch; TP 4; 0.11.1.dev12; util 0.8; VLLM_LOGGING_LEVEL=DEBUG):
# "Total non KV cache memory: 1.56GiB; torch peak memory increase: 0.22GiB; non-torch forward increase memory:
# 0.09GiB; weights memory: 1.24GiB", "Available KV cache memory: 17.24 GiB", CUDA total 23.50 GiB (its OOM line).
_A30_TP4_LOG = "v0111dev_opt27b_4xa30_tp4_util08_debug.log"


def test_a30_tp4_breakdown_adds_up_by_hand() -> None:
    # 1.24 + 0.22 + 0.09 = 1.55, 1.56 logged (each term rounded to 0.01); 0.8 x 23.50 - 1.56 = 18.80 - 1.56 = 17.24
    text = (LOGS / _A30_TP4_LOG).read_text(encoding="utf-8")
    assert "non-torch forward increase memory: 0.09GiB" in text and "Available KV cache memory: 17.24 GiB" in text
    assert abs(1.24 + 0.22 + 0.09 - 1.56) <= 0.015
    assert round(0.8 * 23.50 - 1.56, 2) == 17.24


def test_non_torch_at_tp4_without_nvswitch_after_0_11_matches_the_a30_log() -> None:
    # From 0.11.0 (#25359, gpu_worker.py init_device) NCCL, PyNccl and custom all-reduce are set up before the
    # start-up snapshot: the A30 TP 4 log prints 0.09 GiB of non-torch memory (the figure this term is fitted on,
    # data/validation.json fit_term non_torch_tp); 0.11.1.dev12 plans with 0.11.0's rules.
    rules = rules_for("0.11.1.dev12")
    assert rules.nccl_in_baseline
    est = non_torch_bytes(tensor_parallel_size=4, pipeline_parallel_size=1, total_gpu_memory_bytes=int(23.50 * GIB),
                          nvlink=False, nccl_in_baseline=rules.nccl_in_baseline) / GIB
    assert abs(est - 0.09) <= NON_TORCH_ABS_TOL_GIB
    # the same through the budget of the catalog A30 (not an NVSwitch board): 0.09 GiB = int(0.09 x 2^30)
    a30 = find_gpu("A30")
    assert a30.id not in NVLINK_GPU_IDS
    dep = Deployment(gpu_id=a30.id, gpu_name=a30.name, gpu_memory_bytes=a30.memory_bytes, tensor_parallel_size=4,
                     gpu_memory_utilization=0.8, max_num_batched_tokens=8192, max_num_seqs=256, rules=rules)
    b = memory_budget(catalog_model("facebook/opt-2.7b"), dep, max_num_batched_tokens=8192, max_num_seqs=256)
    assert b.non_torch_bytes == int(0.09 * GIB)


def test_non_torch_at_tp_by_release_and_interconnect() -> None:
    # PCIe / NVLink pairs: 0.30 GiB up to 0.10.2 (0.6.6/0.7 fit: L40S TP 8 0.36, RTX 4090 TP 2 0.25), band 0.15-0.60;
    # 0.09 from 0.11.0 (#25359; the A30 fit row), band 0.05 (smallest public figure) to 0.30 (the pre-0.11 figure).
    def pcie(version: str) -> Estimate:
        return non_torch_estimate(tensor_parallel_size=2, pipeline_parallel_size=1, total_gpu_memory_bytes=H100,
                                  nvlink=False, nccl_in_baseline=rules_for(version).nccl_in_baseline)
    old, new = pcie("0.10.2"), pcie("0.11.0")
    assert (old.bytes, old.low_bytes, old.high_bytes) == (int(0.30 * GIB), int(0.15 * GIB), int(0.60 * GIB))
    assert (new.bytes, new.low_bytes, new.high_bytes) == (int(0.09 * GIB), int(0.05 * GIB), int(0.30 * GIB))
    assert not rules_for("0.10.2").nccl_in_baseline and rules_for("0.19.0").nccl_in_baseline
    # NVSwitch boards keep their buffers after #25359: the 0.19 H100 logs measure 2.07 (TP 2) and 2.17-2.21 (TP 4)
    for tp, gib in ((2, 2.08), (4, 2.15)):
        nv = non_torch_estimate(tensor_parallel_size=tp, pipeline_parallel_size=1, total_gpu_memory_bytes=H100,
                                nvlink=True, nccl_in_baseline=True)
        assert nv.bytes == int(gib * GIB)
    # A100 (SXM or PCIe, unknown): the NVLink figure, the band reaching down to the release's PCIe figure
    a100 = non_torch_estimate(tensor_parallel_size=4, pipeline_parallel_size=1, total_gpu_memory_bytes=H100,
                              nvlink=None, nccl_in_baseline=True)
    assert (a100.bytes, a100.low_bytes) == (int(2.15 * GIB), int(0.09 * GIB))


# --- the whole budget against every validated log ---------------------------------
# Targets on the validation half (CONTRIBUTING.md §8): median |error| <= 3 %, every log within 5 %,
# no logged figure below the band's low edge by more than 2 %. The misses are listed by
# name so an improvement never fails the test and a new miss always does:
#  * Llama-3.1-8B at 32,000 tokens on an L4 (0.11, fit half): -6.4 %, on the safe side (weights 14.9901 GiB
#    against 14.9889 logged). The
#    sorting sampler at 128 sequences (9.5 x 0.061 GiB) predicts 0.58 GiB of activation where
#    the log leaves room for about 0.35 GiB; the L4's total is an nvidia-smi figure corrected
#    by the 0.40-0.85 GiB band, so the two cannot be told apart from this log.
#  * neuralmagic's Qwen2.5-14B-Instruct-FP8-dynamic on a GB10 at 0.15 (NVIDIA's 0.13 build, fit half, one of the
#    four rows the unified-memory term is fitted on): -0.21 GiB estimated against -1.30 logged ("No available
#    memory for the cache blocks"), +84 % of a figure near zero. Weights (15.25 vs 15.22 GiB) and the sorting
#    sampler are as in the same model's row at 0.4 (-0.8 %); this start took 2.70 GiB of host memory where the
#    term's centre is 1.58: it sets the band's pessimistic edge (estimates.py, unified memory), and the logged
#    figure is inside the band (-2.43 to 1.02).
#  * Qwen2.5-1.5B on a T4 (0.30, V2 runner, fit half): graphs 0.15 GiB vs 0.79 estimated; weights 2.98 GiB logged
#    against 2.89 (the 98 MiB that sets the load constant's upper band edge).
#  * Qwen3-30B-A3B-FP8 on a GB10 at 0.3 (NVIDIA's 0.13 build, fit half): +5.6 %, 4.27 GiB estimated against 4.04.
#    Its weights are 29.03 GiB against 29.04 logged; the rest is the unified-memory term: this start left
#    1.80 GiB of host memory where the term's centre, the median of the four GB10 fit rows, is 1.58
#    (test_unified_memory_term_is_the_gb10_fit_rows_median_and_spread).
# Rows within the targets, worked for reference:
#  (gpt-oss-120b on one H100, 0.10.1, validation: weights 65.93 GiB against 65.97 logged with the rotary cache and
#    the additive load constant (estimates.py, weights); the row is -2.19 GiB, -2.5 %.)
#  (Llama-4-Scout at TP 4, fit half: its llama3 rope caches 10,485,760 positions x 128 x 2 B = 2.5 GiB
#    (rope_cache.py); weights 53.08 GiB against 53.12 logged, the row +1.5 %.)
#  (Qwen3-VL-30B-A3B on 4x RTX 3090 at TP 4, 0.11.0, validation: 2.32 GiB estimated against 2.31 logged,
#    +0.3 %, band 1.09-3.14. The weights are counted as vLLM lays them out
#    (test_qwen3_vl_weights_per_gpu_at_tp4_match_the_log: 14.7676 GiB against 14.7708 logged); the activation
#    follows the v0.11.0 source (test_encoder_run_per_tp_rank_splits_heads_and_mlp_but_not_the_gathered_qkv):
#    4.05 GiB = 153,600 padded rows 2.34 + the unpadded output still bound to ``output`` 0.19 + the held pixel
#    values 0.14 + the sorting sampler 1.38. The log leaves 21.22 - 14.77 - 2.31 = 4.14 GiB for activation +
#    non-torch, about 0.09 GiB of non-torch, which is the PCIe TP term from 0.11.0 (#25359, gpu_worker.py
#    init_device, first in v0.11.0rc1: PyNccl, custom all-reduce and NCCL are set up before the start-up
#    snapshot, so only what the profile run adds counts), fitted on the one fit-half row that prints it (4x A30
#    at TP 4, 0.11.1.dev12, DEBUG: fit_term non_torch_tp; this validation row was not used).)
#  (The A30 fit row itself: 17.01 GiB estimated against 17.24 logged, -1.3 %, logged above the band 16.54-17.20 on
#    the safe side. Weights 1.2447 GiB (share 1.2428 + padding, allocator slack, load constant; 1.24 logged) and
#    non-torch 0.09 (0.09 logged) match; the activation does
#    not: the sorting sampler warm-up, 9.5 x 256 x 50,272 x 4 B = 0.455 GiB, against "torch peak memory increase:
#    0.22GiB", which is the size of the forward alone (8192 x (3 x 10,240 / 4 + 2 x 2560) x 2 B x 1.22 = 0.24 GiB).
#    The dev build's sampler cannot be read (5ded9e9aa is in no mirror): left as is, not refitted on one row.)
KNOWN_BEYOND_5PCT = {
    "v0110_llama31_8b_l4_len32000.log", "v0300_qwen25_1p5b_t4_fp16_util085_4k_v2runner.log",
    "v0130nv2601_qwen25_14b_fp8dyn_gb10_util015_fp8kv_32k_no_memory.log",
    "v0130nv2601_qwen3_30b_a3b_fp8_gb10_util03_fp8kv_32k.log",
}
# The GB10 gpt-oss-20b row (validation), with the unified-memory term fitted on the four GB10 fit rows:
# 13.06 GiB estimated against 12.94 logged (+0.9 %), band 10.65-14.35: in neither set.
KNOWN_BELOW_BAND: set[str] = set()


def _print_table(title: str, rows) -> None:
    print(f"\n{title}")
    print(f"{'log':52s} {'model':44s} {'GPU x n':12s} {'release':7s} {'logged':>7s} {'est':>7s} "
          f"{'band':>16s} {'error':>8s}")
    for r in rows:
        band = f"{r.low_gib:.2f}-{r.high_gib:.2f}"
        print(f"{r.file:52s} {r.model[:44]:44s} {r.gpu + ' x' + str(r.num_gpus):12s} {r.vllm_version:7s} "
              f"{r.logged_gib:7.2f} {r.estimate_gib:7.2f} {band:>16s} {r.error_pct:+7.1f}%")
    s = validation_summary(rows)
    print(f"{s.count} logs: median |error| {s.median_abs_error_pct:.1f} %, worst {s.worst_error_pct:+.1f} % "
          f"({s.worst_file}), over-optimistic {s.over_optimistic}, in band {s.in_band}, "
          f"below the band by > 2 %: {s.below_band_over_2pct}")


def test_budget_against_logs_fit_and_validation_halves() -> None:
    fit, val = validation_rows("fit"), validation_rows("validation")
    _print_table("FIT half (constants tuned here)", fit)
    _print_table("VALIDATION half (reported)", val)
    for name, why in excluded_logs():
        print(f"excluded: {name}: {why}")
    assert len(fit) >= 15 and len(val) >= 15
    assert {r.file for r in fit}.isdisjoint(r.file for r in val)
    summary = validation_summary(val)
    assert summary.median_abs_error_pct < 0.35  # README and the page print 0.3 %: a worse median fails
    assert summary.in_band == summary.count     # "all inside the band", as published
    assert {r.file for r in val if abs(r.error_pct) > 5.0} <= KNOWN_BEYOND_5PCT
    assert {r.file for r in val if r.below_low_pct > 2.0} <= KNOWN_BELOW_BAND
    assert {r.file for r in fit if abs(r.error_pct) > 5.0} <= KNOWN_BEYOND_5PCT


def test_validation_rows_cite_vendored_logs() -> None:
    logs = pathlib.Path(__file__).parent / "data" / "logs"
    index = {e["file"]: e for e in json.loads((logs / "sources.json").read_text(encoding="utf-8"))}
    for r in validation_rows():
        text = (logs / r.file).read_text(encoding="utf-8")
        assert index[r.file]["source_url"] == r.source_url
        # the logged figure is in the log text unless the row derives it (stated in its note)
        assert f"{r.logged_gib:.2f}".rstrip("0").rstrip(".") in text or r.note, r.file


def test_split_rule_alternates_by_sorted_file_name() -> None:
    # The rows of the fit alternate by sorted file name; logs collected after the constants were
    # fitted (after_fit in data/validation.json) all go to the validation half; logs collected to fit
    # one named term (fit_term: the GB10 unified-memory term) all go to the fit half.
    rows = validation_rows()
    assert [r.file for r in rows] == sorted(r.file for r in rows)
    before = [r for r in rows if not r.after_fit and not r.fit_term]
    assert [r.split for r in before] == ["fit" if i % 2 == 0 else "validation" for i in range(len(before))]
    assert all(r.split == "validation" for r in rows if r.after_fit)
    assert all(r.split == "fit" and not r.after_fit for r in rows if r.fit_term)
    assert {r.fit_term for r in rows if r.fit_term} == {"unified_memory", "non_torch_tp"}


# --- bands --------------------------------------------------------------------------
def _h100_budget(**kw: object):
    gpu = find_gpu("H100-80GB")
    dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes, rules=rules_for("0.19.0"),
                     max_model_len=8192, **kw)  # type: ignore[arg-type]
    tokens, seqs = batch_defaults(dep)
    return memory_budget(catalog_model("meta-llama/Llama-3.1-8B-Instruct"), dep, max_num_batched_tokens=tokens,
                         max_num_seqs=seqs)


def test_band_brackets_the_estimate_and_vanishes_when_measured() -> None:
    b = _h100_budget()
    assert b.available_kv_bytes_low < b.available_kv_bytes < b.available_kv_bytes_high
    fixed = _h100_budget(kv_cache_memory_bytes=4 * GIB)
    assert fixed.available_kv_bytes_low == fixed.available_kv_bytes == fixed.available_kv_bytes_high == 4 * GIB
    measured = _h100_budget(measured=Measured(available_kv_bytes=5 * GIB))
    assert measured.available_kv_bytes_low == measured.available_kv_bytes_high == 5 * GIB
    # every term measured: nothing left to estimate, no band (the H100 total is CUDA's own figure)
    all_measured = _h100_budget(measured=Measured(weights_bytes=15 * GIB, activation_bytes=2 * GIB,
                                                  non_torch_bytes=GIB // 4))
    assert all_measured.available_kv_bytes_low == all_measured.available_kv_bytes_high
    # the low edge is what the advice plans on
    low = _h100_budget(budget_edge="low")
    assert low.available_kv_bytes == b.available_kv_bytes_low


def test_nvidia_smi_totals_are_corrected_to_cuda() -> None:
    # An nvidia-smi total overstates what CUDA gives vLLM by 0-1.1 GiB (RTX 4060 Ti: almost nothing; RTX 4090: 24564 MiB = 23.99 GiB
    # against PyTorch's 23.64; L40S: 46068 MiB = 44.99 GiB against 44.39-44.42 in vLLM's logs; B300: 275040 MiB =
    # 268.59 GiB against 267.69; GH200: 97871 MiB = 95.58 GiB against about 94.5 usable); central gap 0.55 GiB.
    # No catalog GPU carries an nvidia-smi total (CUDA's own totals: scripts/gpus.json): the RTX 4080's nvidia-smi 16376 MiB
    # (17,171,480,576 B) is given by hand, as a user entering nvidia-smi's figure would. (Its CUDA total, PyTorch's
    # total_memory=16049MB = 16,828,596,224 B, is 327 MiB below nvidia-smi; the V100-32GB's gap is 0.27 GiB and
    # the RTX 4060 Ti's almost none, so the band's top edge is the nvidia-smi figure itself.)
    smi = 16376 * 2**20
    est = cuda_visible_total(smi, "nvidia-smi")
    assert est.bytes == smi - int(0.55 * GIB)
    assert est.low_bytes == smi - int(1.10 * GIB)
    assert est.high_bytes == smi
    assert est.low_bytes < 16049 * 2**20 <= est.high_bytes
    assert find_gpu("RTX-4080").memory_bytes == 16049 * 2**20
    # A CUDA total (the L40S's 44.39 GiB from a vLLM log, the H100's 79.19 GiB, the RTX 4090's 23.64 GiB
    # from PyTorch's out-of-memory line, the RTX 4080's 16049 MiB from PyTorch's device properties) is used as it is.
    for gpu in ("L40S", "H100-80GB", "RTX-4090", "RTX-4080"):
        g = find_gpu(gpu)
        assert g.memory_source_kind == "cuda"
        assert cuda_visible_total(g.memory_bytes, g.memory_source_kind).bytes == g.memory_bytes


# --- weights from the checkpoint ------------------------------------------------------
CONFIGS = pathlib.Path(__file__).parent / "data" / "configs"


def test_weight_bytes_gpt_oss_120b_mxfp4() -> None:
    # Hand count from openai/gpt-oss-120b config.json (36 layers, hidden 2880, 128 experts of
    # width 2880, 64 query / 8 KV heads of 64, vocab 201088, untied):
    #  experts per layer, MXFP4 (4-bit values + one 8-bit scale per 32 = 17/32 B per weight):
    #    128 x 3 x 2880 x 2880 = 3,185,049,600 weights -> 1,692,057,600 B
    #  expert biases (bf16): 128 x (5760 + 2880) = 1,105,920 -> 2,211,840 B
    #  attention (bf16): q 2880x4096 + 4096, k and v 2880x512 + 512 each, o 4096x2880 + 2880,
    #    sinks 64 = 26,550,144; norms 2 x 2880; router 2880x128 + 128 -> 26,924,672 -> 53,849,344 B
    #  per layer 1,748,118,784 B x 36 = 62,932,276,224 B
    #  embedding + unembedding 2 x 201088 x 2880 x 2 B = 2,316,533,760 B; final norm 5,760 B
    #  total 65,248,815,744 B (60.77 GiB). The same count for gpt-oss-20b (24 layers, 32
    #  experts) gives 13,761,264,768 B, the total of its published tensor table
    #  (/work/staging/configs/weights.json: "模型信息报告", find_string hit id 62806644834).
    # The count here leaves out the expert biases and routers' biases: within 0.2 %.
    got = weight_bytes(catalog_model("openai/gpt-oss-120b"))
    assert abs(got - 65_248_815_744) / 65_248_815_744 < 0.002
    got20 = weight_bytes(catalog_model("openai/gpt-oss-20b"))
    assert abs(got20 - 13_761_264_768) / 13_761_264_768 < 0.002


def test_mxfp4_padding_per_kernel_and_release() -> None:
    # vLLM pads MXFP4 expert matrices for its MoE kernel (fused_moe/oracle/mxfp4.py
    # mxfp4_round_up_hidden_size_and_intermediate_size; quantization/mxfp4.py before 0.12).
    # gpt-oss: hidden 2880, expert width 2880.
    #  Marlin: hidden -> 3072 (256), width -> 2944 (128): 3072 x 2944 / (2880 x 2880)
    #          = 9,043,968 / 8,294,400 = 1.090370...
    #  TRT-LLM (SM100): 3072 x 3072 / 8,294,400 = 1.137777...
    #  Triton (Hopper from 0.12): 3072 x 2880 / 8,294,400 = 1.066666...
    assert mxfp4_padding_factor(Mxfp4Kernel.MARLIN, hidden_size=2880, intermediate_per_partition=2880) == 9_043_968 / 8_294_400
    assert mxfp4_padding_factor(Mxfp4Kernel.FLASHINFER_TRTLLM, hidden_size=2880,
                                intermediate_per_partition=2880) == 3072 * 3072 / 8_294_400
    assert mxfp4_padding_factor(Mxfp4Kernel.TRITON, hidden_size=2880, intermediate_per_partition=2880) == 3072 / 2880
    # TP 2: each partition is 1440 wide -> Marlin rounds it to 1536 (+6.7 %): 3072 x 1536 / (2880 x 1440)
    assert mxfp4_padding_factor(Mxfp4Kernel.MARLIN, hidden_size=2880, intermediate_per_partition=1440) == (
        3072 * 1536 / (2880 * 1440))
    # Hopper ran Marlin until the wheels bundled triton_kernels (0.12.0, #28788); Ampere always
    hopper_old = mxfp4_kernel(9, bundled_triton_kernels=rules_for("0.11.2").bundled_triton_kernels)
    hopper_new = mxfp4_kernel(9, bundled_triton_kernels=rules_for("0.12.0").bundled_triton_kernels)
    assert (hopper_old, hopper_new) == (Mxfp4Kernel.MARLIN, Mxfp4Kernel.TRITON)
    assert mxfp4_kernel(8, bundled_triton_kernels=True) is Mxfp4Kernel.MARLIN
    assert mxfp4_kernel(10, bundled_triton_kernels=True) is Mxfp4Kernel.FLASHINFER_TRTLLM


def test_gpt_oss_120b_weights_on_h100_with_marlin_match_the_log() -> None:
    # vLLM 0.10.1 on an H100 (issue #23278, tests/data/logs/v0101_gpt_oss_120b_h100_negative_kv.log):
    # "Model loading took 65.9651 GiB". Hand count of the Marlin-padded layout (bf16 biases):
    #  per layer: w13 128 x 5888 x 3072 / 2 = 1,157,627,904 + scales / 32 = 72,351,744 + bias
    #  128 x 5888 x 2 = 1,507,328; w2 128 x 3072 x 2944 / 2 = 578,813,952 + 36,175,872 + 786,432
    #  = 1,847,263,232 B; x 36 = 66,501,476,352. Attention, router, norms (as in the count
    #  above) 53,851,440 x 36 = 1,938,651,840; embedding + unembedding 2,316,533,760.
    #  Sum 70,756,661,952 B = 65.90 GiB. vLLM adds the float32 yarn cos/sin cache (gpt_oss.py get_rope
    #  dtype=torch.float32): 4096 x 32 = 131,072 rows x 64 x 4 B = 33,554,432, and the load constant 1,430,528
    #  (estimates.py): 70,791,646,912 B = 65.93 GiB, 0.04 GiB under the logged 65.97 (-0.05 %; before, the
    #  +0.3 % of the checkpoint put it at 66.08, +0.17 %).
    gpu = find_gpu("H100-80GB")
    dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes, rules=rules_for("0.10.1"))
    tokens, seqs = batch_defaults(dep)
    b = memory_budget(catalog_model("openai/gpt-oss-120b"), dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)
    assert abs(b.weights_bytes / GIB - 65.9651) / 65.9651 < 0.001
    assert abs(b.weights_bytes - 70_791_646_912) / 70_791_646_912 < 0.001


def test_sampler_warm_up_sorts_the_vocabulary_before_0_17() -> None:
    # Before #33538 (0.17.0) the warm-up's top-k/top-p sorted all logits (topk_topp_sampler.py);
    # at the peak: bf16 logits 0.5 + fp32 logits 1 + sorted values 1 + int64 indices 2 + the sort's
    # int64 reverse indices 2 + cub's alternate key and value buffers 1 + 2 = 9.5 copies.
    # gpt-oss-120b, 1024 sequences: 9.5 x 1024 x 201,088 x 4 = 9.5 x 823,656,448 = 7,824,736,256 B
    # (7.29 GiB; the 0.11 log leaves 7.27 GiB for it: 75.23 - 66.00 - 0.25 - 1.71).
    # From 0.17.0 a Triton kernel avoids the sort: 3.9 x 823,656,448 = 3,212,260,147.2.
    kw = dict(hidden_size=2880, intermediate_size=2880, vocab_size=201088, num_attention_heads=64, num_layers=36,
              max_num_batched_tokens=1024, max_num_seqs=1024, tensor_parallel_size=1, dtype_bytes=2, is_moe=True,
              num_experts_per_tok=4)
    assert activation_peak_bytes(**kw, sampler_sorts=True) == 7_824_736_256  # type: ignore[arg-type]
    assert activation_peak_bytes(**kw) == 3_212_260_147  # type: ignore[arg-type]
    assert rules_for("0.16.0").sampler_sorts_vocabulary and rules_for("0.11.2").sampler_sorts_vocabulary
    assert not rules_for("0.17.0").sampler_sorts_vocabulary and not rules_for(None).sampler_sorts_vocabulary


def test_weight_bytes_awq_int4() -> None:
    # Qwen/Qwen3-32B-AWQ: the checkpoint's tensor table sums to 19,325,298,688 B (int32 qweight
    # and qzeros, fp16 scales; /work/staging/configs/weights.json, find_string hit id 62727925985).
    # Count: linear weights at 0.5 B + (2 B scale + 0.5 B zero point) / 128 per weight, the
    # untied embedding and lm_head (151936 x 5120 each) and the norms at 2 B.
    got = weight_bytes(catalog_model("Qwen/Qwen3-32B-AWQ"))
    assert abs(got - 19_325_298_688) / 19_325_298_688 < 0.001


def test_weight_bytes_fp8_block_scaled() -> None:
    # Qwen/Qwen3-30B-A3B-FP8 (weight_block_size [128, 128]; no published total found), by hand:
    # per layer, fp8 weights + one fp32 scale per 128x128 block:
    #   q 4096x2048 = 8,388,608 + 32x16x4 = 2,048; k and v 512x2048 = 1,048,576 + 4x16x4 = 256 each;
    #   o 2048x4096 = 8,388,608 + 2,048; 128 experts x (3 x 768 x 2048 = 4,718,592 + 3 x 96 x 4 = 1,152);
    #   router 2048x128 in bf16 = 524,288; norms 2 x 2048 x 2 + q/k norms 2 x 128 x 2 = 8,704
    #   -> 623,539,200 B x 48 layers = 29,929,881,600 B
    # embedding and lm_head 2 x 151936 x 2048 x 2 B = 1,244,659,712 B; final norm 4,096 B
    # total 31,174,545,408 B. The count stores routers and norms in fp8 too: within 0.1 %.
    got = weight_bytes(catalog_model("Qwen/Qwen3-30B-A3B-FP8"))
    assert abs(got - 31_174_545_408) / 31_174_545_408 < 0.001


def test_weight_bytes_vision_language_models() -> None:
    # Published tensor tables (all bf16; /work/staging/configs/weights.json):
    # Qwen3-VL-30B-A3B-Instruct 31,070,754,032 parameters = 62,141,508,064 B (find_string hit id
    # 62501178117); Qwen3-VL-8B-Instruct 8,767,123,696 = 17,534,247,392 B (hit id 62543607479).
    # The configs (tests/data/configs, copied from the same reports, SOURCES-new.md) give the
    # text model and the vision tower (27 blocks of 1152/4304, patch 16 x 2 frames, 2304
    # positions, one merger + 3 deep-stack mergers into the text width): without the tower the
    # estimate would miss 0.54 B (30B-A3B) and 0.58 B (8B) parameters, 1.0-1.1 GiB.
    for name, published in (("Qwen3-VL-30B-A3B-Instruct", 62_141_508_064), ("Qwen3-VL-8B-Instruct", 17_534_247_392)):
        spec = normalize_config(json.loads((CONFIGS / f"{name}.json").read_text(encoding="utf-8")), model_id=name)
        assert spec.vision_parameters > 500_000_000
        assert abs(weight_bytes(spec) - published) / published < 0.001, name


def test_qwen3_vl_weights_per_gpu_at_tp4_match_the_log() -> None:
    # What TP leaves whole on every rank (weight_share.py; vLLM v0.11.0 qwen3_vl.py, qwen3_moe.py, linear.py),
    # counted from Qwen3-VL-30B-A3B-Instruct's published tensor table (882 bf16 tensors, 62,141,508,064 B;
    # find_string hit id 62501178117) and its config (tests/data/configs/Qwen3-VL-30B-A3B-Instruct.json):
    #  text: input/post-attention norms + final norm (2 x 48 + 1) x 2048 = 198,656; q_norm/k_norm
    #    2 x 48 x 128 = 12,288; router gate 48 x [128, 2048] = 12,582,912 -> 12,793,856
    #  tower: patch_embed [1152, 3, 2, 16, 16] + bias 1152 = 1,769,472 + 1,152 = 1,770,624; pos_embed
    #    [2304, 1152] = 2,654,208; 27 blocks x (norm1, norm2 weight + bias, attn.proj.bias, mlp.linear_fc2.bias)
    #    6 x 1152 = 186,624; merger norm 2 x 1152 + linear_fc2.bias 2048 = 4,352; 3 deep-stack mergers
    #    x (norm 2 x 4608 + linear_fc2.bias 2048) = 33,792 -> 4,649,600
    #  17,443,456 parameters = 34,886,912 B whole on each of the 4 ranks:
    #  (62,141,508,064 - 34,886,912) // 4 + 34,886,912 = 15,526,655,288 + 34,886,912 = 15,561,542,200 B
    #  + one plain MRoPE cos/sin cache 262,144 x 128 x 2 = 67,108,864 (rope_cache.py; vocabulary 151,936 = 64 x
    #    2374 needs no padding; MoE layers: no allocator slack counted) + the load constant 1,430,528
    #  = 15,630,081,592
    #  + MRoPE cache enlarged 4x (mrope.py), 3 more copies: 3 x 262,144 x 128 x 2 = 201,326,592
    #  + deep-stack buffers 3 x 2048 tokens x 2048 x 2 = 25,165,824
    #  = 15,856,574,008 B = 14.7676 GiB; the log: "Model loading took 14.7708 GiB" on each of the 4 workers.
    from kvcalc.budget.weight_share import replicated_parameters, share_bytes
    spec = catalog_model("Qwen/Qwen3-VL-30B-A3B-Instruct")
    assert replicated_parameters(spec) == 17_443_456
    assert share_bytes(62_141_508_064, 34_886_912, tensor_parallel_size=4, pipeline_parallel_size=1) == 15_561_542_200
    b = _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.11.0", gpu_id="RTX-3090", tensor_parallel_size=4,
                       max_model_len=65536, gpu_memory_utilization=0.9)
    assert b.weights_bytes == 15_856_574_008
    text = (LOGS / "v0110_qwen3vl_30b_a3b_4x3090_tp4_65k.log").read_text(encoding="utf-8")
    assert text.count("Model loading took 14.7708 GiB") == 4
    assert abs(b.weights_bytes / GIB - 14.7708) / 14.7708 < 0.005
    # PP divides the replicated part as well (balanced stages): (100 - 10) // (2 x 2) + 10 // 2 = 22 + 5
    assert share_bytes(100, 10, tensor_parallel_size=2, pipeline_parallel_size=2) == 27
    # before 0.7.2 the MRoPE cache was not enlarged: the deep-stack buffers alone
    from kvcalc.budget.weight_share import load_buffer_bytes
    assert load_buffer_bytes(spec, rules=rules_for("0.7.1"), max_num_batched_tokens=2048, tower_loaded=True) == 25_165_824
    # with every modality limited to 0 vLLM builds no tower (self.visual = None, load_weights skips "visual.";
    # qwen3_vl_moe.py v0.11.0, #26000), so neither the tower's weights nor the deep-stack buffers are loaded.
    # The tower: 538,609,520 parameters (model.py count; the exact total 31,070,754,032 minus the text count
    # 30,532,110,336 is 538,643,696) = 1,077,219,040 B, of which the 4,649,600 whole parameters above = 9,299,200 B:
    #  (62,141,508,064 - 1,077,219,040 - (34,886,912 - 9,299,200)) // 4 + 25,587,712
    #  = 61,038,701,312 // 4 + 25,587,712 = 15,259,675,328 + 25,587,712 = 15,285,263,040 B
    #  + rope cache 67,108,864 + load constant 1,430,528 + MRoPE enlargement 201,326,592 = 15,555,129,024
    #  (15,630,081,592 + 201,326,592 = 15,831,408,184 while the tower was still counted: 276,279,160 B more)
    assert _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.11.0", gpu_id="RTX-3090", tensor_parallel_size=4,
                          max_model_len=65536, limit_mm_per_prompt=(("image", 0), ("video", 0))
                          ).weights_bytes == 15_285_263_040 + 67_108_864 + 1_430_528 + 201_326_592 == 15_555_129_024


def test_rope_caches_per_model_by_hand() -> None:
    # vllm/model_executor/layers/rotary_embedding (v0.19.0): one (rows, rotary_dim) cos/sin buffer per distinct
    # rope, in the model dtype (gpt_oss.py asks for float32); rows per scaling type (kvcalc.arch.rope_cache).
    from kvcalc.budget.weight_share import rope_cache_bytes

    def caches(model_id: str) -> list[tuple[int, int, int]]:
        return [(c.rows, c.rotary_dim, c.element_bytes) for c in catalog_model(model_id).rotary.caches]

    # Llama-3.1 (llama3 rope: rows = max_position_embeddings): 131,072 x 128 x 2 B = 33,554,432
    assert caches("meta-llama/Llama-3.1-8B-Instruct") == [(131_072, 128, 2)]
    # Gemma-3-27B: global layers linear x 8 -> 1,048,576 rows x 128 x 2 = 268,435,456; sliding layers the
    # default rope on rope_local_base_freq, 131,072 x 128 x 2 = 33,554,432; 301,989,888 together
    assert sorted(caches("google/gemma-3-27b-it")) == [(131_072, 128, 2), (1_048_576, 128, 2)]
    assert rope_cache_bytes(catalog_model("google/gemma-3-27b-it")) == 301_989_888
    # gpt-oss: yarn, original 4,096 x factor 32 = 131,072 rows x 64 x 4 B (float32) = 33,554,432
    assert caches("openai/gpt-oss-120b") == [(131_072, 64, 4)]
    # DeepSeek-V2-Lite (MLA): deepseek_yarn 4,096 x 40 = 163,840 rows x qk_rope_head_dim 64 x 2 = 20,971,520
    assert caches("deepseek-ai/DeepSeek-V2-Lite-Chat") == [(163_840, 64, 2)]
    # Llama-4-Scout: llama3 rope on max_position_embeddings 10,485,760 x 128 x 2 = 2,684,354,560 (2.5 GiB)
    assert rope_cache_bytes(catalog_model("meta-llama/Llama-4-Scout-17B-16E-Instruct")) == 2_684_354_560


def test_allocator_slack_by_hand() -> None:
    # PyTorch c10/cuda/CUDACachingAllocator.cpp: a request over 10 MiB gets a segment rounded up to 2 MiB and
    # keeps a remainder of 1 MiB or less (should_split: remaining > kSmallSize).
    from kvcalc.budget.alloc_slack import allocator_slack_bytes, segment_slack
    mib = 1 << 20
    assert segment_slack(int(129.5 * mib)) == mib // 2  # 130 MiB segment, 0.5 MiB kept
    assert segment_slack(231 * mib) == mib  # 232 MiB segment, exactly 1 MiB kept
    assert segment_slack(int(24.5 * mib)) == 0  # 26 MiB segment, 1.5 MiB split off
    assert segment_slack(int(4.5 * mib)) == 0  # packed in a shared 20 MiB segment: left out
    # Qwen2.5-7B, per layer (bf16): qkv (28 + 2 x 4) x 128 x 3584 x 2 = 33,030,144 (31.5 MiB -> 0.5 kept);
    # o 3584 x 3584 x 2 = 25,690,112 (24.5 -> 0); gate_up 2 x 18944 x 3584 x 2 = 271,581,184 (259 -> 1 kept);
    # down 135,790,592 (129.5 -> 0.5 kept): 2 MiB x 28 layers = 58,720,256; embedding and lm_head 152,064 x
    # 3584 x 2 = 1,089,994,752 each (1039.5 MiB -> 0.5 kept): 1,048,576. Total 59,768,832.
    assert allocator_slack_bytes(catalog_model("Qwen/Qwen2.5-7B-Instruct"), tensor_parallel_size=1,
                                 pipeline_parallel_size=1) == 59_768_832
    # Llama-3.1-8B: 48, 32, 224, 112 MiB and 1002 MiB matrices, all even: nothing kept
    assert allocator_slack_bytes(catalog_model("meta-llama/Llama-3.1-8B-Instruct"), tensor_parallel_size=1,
                                 pipeline_parallel_size=1) == 0


def test_vocabulary_padding_by_hand() -> None:
    # vocab_parallel_embedding.py pad_vocab_size(vocab, 64), split over TP; a tied head shares the embedding.
    # CodeLlama-7B (the config copied into its validation row: vocab 32,016, hidden 4096, untied):
    # 32,064 - 32,016 = 48 rows x 4096 x 2 B x 2 matrices = 786,432 B; at TP 2: 393,216
    from kvcalc.budget.weight_share import vocab_padding_bytes
    row = next(r for r in json.loads((pathlib.Path(__file__).parents[1] / "calc" / "data" / "validation.json")
                                     .read_text(encoding="utf-8"))["rows"] if r["file"] == "llmd_v019_codellama_7b_h100.log")
    spec = normalize_config(row["config"], model_id="codellama/CodeLlama-7b-hf")
    assert (spec.vocab_size, spec.hidden_size, spec.tie_word_embeddings) == (32_016, 4096, False)
    assert vocab_padding_bytes(spec, tensor_parallel_size=1, pipeline_parallel_size=1) == 786_432
    assert vocab_padding_bytes(spec, tensor_parallel_size=2, pipeline_parallel_size=1) == 393_216
    # Llama-3.1's 128,256 = 64 x 2004 rows: nothing added
    assert vocab_padding_bytes(catalog_model("meta-llama/Llama-3.1-8B-Instruct"), tensor_parallel_size=1,
                               pipeline_parallel_size=1) == 0


def test_loaded_weights_match_the_logged_model_loading_lines() -> None:
    # checkpoint share + rope caches + vocabulary padding + allocator slack + 1,430,528 (estimates.py), by hand,
    # against "Model loading took X GiB" in the vendored logs (tests/data/logs, sources in validation.json):
    #  Llama-3.1-8B, 0.11.0, L4: 16,060,522,496 + 33,554,432 + 0 + 0 + 1,430,528 = 16,095,507,456 (14.9901;
    #    v0110_llama31_8b_l4_len32000.log: 14.9889)
    #  Meta-Llama-3-8B, 0.11.2, H200 (max_position 8192): 16,060,522,496 + 8192 x 128 x 2 = 2,097,152
    #    + 1,430,528 = 16,064,050,176 (14.9608; v0112_llama3_8b_h200_len1024.log: 14.9596)
    #  Qwen2.5-7B, 0.19.0: 15,231,233,024 + 32,768 x 128 x 2 = 8,388,608 + 59,768,832 + 1,430,528
    #    = 15,300,820,992 (14.2500; llmd_v019_qwen25_7b_kvfp8_h100.log: 14.25)
    #  Phi-4, 0.19.0: 29,319,014,400 + 16,384 x 128 x 2 = 4,194,304 + 40 layers x (qkv 75 MiB and down 175 MiB
    #    keep 1 MiB each) 83,886,080 + 1,430,528 = 29,408,525,312 (27.3888; llmd_v019_phi4_h100.log: 27.39)
    #  Qwen2.5-72B at TP 2, 0.19.0: (145,412,407,296 - 2,637,824 whole) // 2 + 2,637,824 = 72,707,522,560
    #    + 8,388,608 + 80 layers x (down 8192 x 14,784 x 2 = 231 MiB keeps 1) 83,886,080 + 1,430,528
    #    = 72,801,227,776 (67.8014; llmd_v019_qwen25_72b_h100_tp2.log: 67.8)
    #  Gemma-3-4B, 0.19.0: 8,600,158,944 + 1,048,576 x 256 x 2 + 131,072 x 256 x 2 = 603,979,776 + 0
    #    + 1,430,528 = 9,205,569,248 (8.5734; llmd_v019_gemma3_4b_h100.log: 8.58)
    #  Gemma-3-27B, 0.19.0: 54,864,813,280 + 301,989,888 + 62 layers x (gate_up 441 MiB keeps 1) 65,011,712
    #    + 1,430,528 = 55,233,245,408 (51.4400; llmd_v019_gemma3_27b_h100.log: 51.45)
    cases = (
        ("meta-llama/Llama-3.1-8B-Instruct", "L4", "0.11.0", 1, 16_095_507_456, "v0110_llama31_8b_l4_len32000.log",
         "14.9889"),
        ("meta-llama/Meta-Llama-3-8B-Instruct", "H200", "0.11.2", 1, 16_064_050_176,
         "v0112_llama3_8b_h200_len1024.log", "14.9596"),
        ("Qwen/Qwen2.5-7B-Instruct", "H100-80GB", "0.19.0", 1, 15_300_820_992, "llmd_v019_qwen25_7b_kvfp8_h100.log",
         "14.25"),
        ("microsoft/phi-4", "H100-80GB", "0.19.0", 1, 29_408_525_312, "llmd_v019_phi4_h100.log", "27.39"),
        ("Qwen/Qwen2.5-72B-Instruct", "H100-80GB", "0.19.0", 2, 72_801_227_776, "llmd_v019_qwen25_72b_h100_tp2.log",
         "67.8"),
        ("google/gemma-3-4b-it", "H100-80GB", "0.19.0", 1, 9_205_569_248, "llmd_v019_gemma3_4b_h100.log", "8.58"),
        ("google/gemma-3-27b-it", "H100-80GB", "0.19.0", 1, 55_233_245_408, "llmd_v019_gemma3_27b_h100.log", "51.45"),
    )
    for model_id, gpu_id, version, tp, expected, log, logged in cases:
        spec = catalog_model(model_id)
        if spec.checkpoint_bytes is None:  # Meta-Llama-3-8B-Instruct: the same 16,060,522,496 B as 3.1
            spec = normalize_config(catalog.find_model(model_id).config, model_id=model_id,
                                    checkpoint_bytes=16_060_522_496)
        gpu = find_gpu(gpu_id)
        dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes,
                         tensor_parallel_size=tp, max_model_len=4096, rules=rules_for(version))
        tokens, seqs = batch_defaults(dep)
        b = memory_budget(spec, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)
        assert b.weights_bytes == expected, model_id
        assert f"Model loading took {logged} GiB" in (LOGS / log).read_text(encoding="utf-8"), log
        # within the logs' 0.01 GiB rounding and the constant's band (16 MiB)
        assert abs(expected - float(logged) * GIB) <= 16 * (1 << 20), model_id


def test_exact_checkpoint_total_is_used() -> None:
    # meta-llama/Llama-3.1-8B-Instruct: model.safetensors.index.json metadata.total_size 16,060,522,496
    spec = catalog_model("meta-llama/Llama-3.1-8B-Instruct")
    assert spec.checkpoint_bytes == 16_060_522_496 == weight_bytes(spec)


def test_graph_memory_by_release_eager_and_capture_sizes() -> None:
    # #38284: subtracted before the KV sizing from 0.20.0 on; never in V0, never with --enforce-eager.
    assert _h100_budget().cudagraph_bytes == 0                       # 0.19.0
    gpu = find_gpu("H100-80GB")
    spec = catalog_model("meta-llama/Llama-3.1-8B-Instruct")

    def graphs(version: str, **kw: object) -> int:
        dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes, rules=rules_for(version),
                         max_model_len=8192, **kw)  # type: ignore[arg-type]
        tokens, seqs = batch_defaults(dep)
        return memory_budget(spec, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs).cudagraph_bytes

    assert graphs("0.20.0") == int(0.828 * GIB)  # (0.54 + 0.009 x 32) GiB, 51 sizes at 1024 sequences
    assert graphs("0.20.0", enforce_eager=True) == 0
    assert graphs("0.6.4") == 0
    # the capture sizes stop at max_num_batched_tokens: 1, 2, 4, 8 ... 96 = 15 sizes at 100 tokens
    assert cudagraph_capture_sizes(1024, 100) == [1, 2, 4] + list(range(8, 97, 8))


# --- the multimodal encoder profiling run ------------------------------------------------
LOGS = pathlib.Path(__file__).parent / "data" / "logs"


def _vision_budget(model: str, version: str, gpu_id: str = "H100-80GB", **kw: object):
    gpu = find_gpu(gpu_id)
    dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes,
                     gpu_memory_source=gpu.memory_source_kind, rules=rules_for(version), **kw)  # type: ignore[arg-type]
    tokens, seqs = batch_defaults(dep)
    return memory_budget(catalog_model(model), dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)


def test_encoder_budget_and_items_match_the_logged_lines() -> None:
    # "Encoder cache will be initialized with a budget of N tokens, and profiled with K <modality> items":
    # budget = max(max_num_batched_tokens, tokens per item); items = min(budget // tokens per item,
    # max_num_seqs x max(1, min(limit, max_model_len // tokens per item))), at least 1.
    # Gemma 3 (0.19, H100, 8192 tokens, 1024 sequences): 256 tokens per image -> 8192 // 256 = 32 items.
    assert encoder_item("gemma3", patch_size=14, merge=1, image_size=896, max_model_len=8192).tokens == 256
    assert mm_items_per_batch(tokens_per_item=256, max_num_batched_tokens=8192, max_num_seqs=1024,
                              max_model_len=8192) == (8192, 32)
    # Mistral Small 3.1: Pixtral at 1540 px, patch 14, merge 2: (1540 // 28)^2 = 55^2 = 3025 tokens,
    # 110^2 = 12100 patches; 8192 // 3025 = 2 items.
    pixtral = encoder_item("mistral3", patch_size=14, merge=2, image_size=1540, max_model_len=8192)
    assert (pixtral.tokens, pixtral.patches) == (3025, 12100)
    assert mm_items_per_batch(tokens_per_item=3025, max_num_batched_tokens=8192, max_num_seqs=1024,
                              max_model_len=8192) == (8192, 2)
    # Qwen2-VL-2B at 2048 batched tokens and max_model_len 4096 (0.10.2): max_pixels 12,845,056 / 28^2 =
    # 16,384 tokens, 4 patches each; budget max(2048, 16384) = 16384, one item (even past max_model_len).
    qwen2 = encoder_item("qwen2_vl", patch_size=14, merge=2, image_size=0, max_model_len=4096)
    assert (qwen2.modality, qwen2.tokens, qwen2.patches) == ("image", 16384, 65536)
    assert mm_items_per_batch(tokens_per_item=16384, max_num_batched_tokens=2048, max_num_seqs=256,
                              max_model_len=4096) == (16384, 1)
    for name, budget, items in (("llmd_v019_gemma3_27b_h100.log", 8192, "32 image"),
                                ("llmd_v019_mistral_small_31_24b_h100.log", 8192, "2 image"),
                                ("v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log", 16384, "1 image")):
        text = (LOGS / name).read_text(encoding="utf-8")
        assert f"budget of {budget} tokens, and profiled with {items} items" in text, name
    # With --limit-mm-per-prompt {"image": 1}, --max-num-seqs 5, max_model_len 4096 and max_pixels 1,003,520
    # (980 tokens of 32 x 32 px), a public Qwen3-VL-8B log (a dev build, not vendored: a KV connector run)
    # printed "budget of 8192 tokens, and profiled with 5 image items": min(8192 // 980 = 8, 5 x min(1, 4)).
    assert mm_items_per_batch(tokens_per_item=980, max_num_batched_tokens=8192, max_num_seqs=5,
                              max_model_len=4096, limit_per_prompt=1) == (8192, 5)
    # before 0.10.1 the items were cdiv(budget, tokens): 3 Pixtral images in 8192, where floor gives 2 (a public
    # excerpt of a Mistral-format serve dated 04-08, release not shown, not vendored, prints "budget of 8192
    # tokens, and profiled with 3 image items": consistent with cdiv, not with floor)
    assert mm_items_per_batch(tokens_per_item=3025, max_num_batched_tokens=8192, max_num_seqs=1024,
                              max_model_len=8192, round_up=True) == (8192, 3)
    # --limit-mm-per-prompt 0: no item is profiled
    assert mm_items_per_batch(tokens_per_item=256, max_num_batched_tokens=8192, max_num_seqs=1024,
                              max_model_len=8192, limit_per_prompt=0) == (8192, 0)


def test_largest_item_per_family() -> None:
    # Qwen2.5-VL videos take as many image-size frames as max_model_len holds, at most 14 (7 groups of 2):
    # 128,000 // 16,384 = 7 groups -> 114,688 tokens (the V0 log in vllm-project/vllm#12604 prints
    # "{'image': 16384, 'video': 114688}" at 128000); 32,768 -> 2 groups = 32,768 tokens.
    long = encoder_item("qwen2_5_vl", patch_size=14, merge=2, image_size=0, max_model_len=128000)
    assert (long.modality, long.tokens, long.patches) == ("video", 114688, 458752)
    assert encoder_item("qwen2_5_vl", patch_size=14, merge=2, image_size=0, max_model_len=32768).tokens == 32768
    # Qwen3-VL: longest_edge 16,777,216 / 32^2 = 16,384 image tokens; the 2-frame video at 25,165,824 / 2
    # pixels is 12,288: the image wins at every length.
    qwen3 = encoder_item("qwen3_vl_moe", patch_size=16, merge=2, image_size=0, max_model_len=262144)
    assert (qwen3.modality, qwen3.tokens, qwen3.patches) == ("image", 16384, 65536)
    # Llama 4's tile count (the processor's max_patches) is not in its config: unknown
    assert encoder_item("llama4", patch_size=14, merge=1, image_size=336, max_model_len=8192) is None


def test_encoder_run_hand_arithmetic_against_the_qwen2_vl_log() -> None:
    # Qwen2-VL tower (transformers 5.24 Qwen2VLVisionConfig defaults: embed_dim 1280, mlp_ratio 4 -> 5120,
    # QuickGELU, patch 14 x 2 frames, 3 channels -> 1176 pixel values per patch), 65,536 patches:
    # per patch max(13 x 1280 = 16,640 attention, 2 x 1280 + 2 x 5120 = 12,800 MLP) x 2 B = 33,280 B;
    # 1.16 x 65,536 x 33,280 = 1.16 x 2,181,038,080 = 2,530,004,172.8 -> 2,530,004,172;
    # fp32 pixel values 65,536 x 1176 x 4 = 308,281,344; total 2,838,285,516 B = 2.643 GiB.
    # The log: "2.65 GiB for peak activation" (vLLM 0.10.2; its sorting sampler at 256 sequences and
    # 151,936 entries is 9.5 x 0.145 = 1.38 GiB, so the encoder sets the peak). This is the row the
    # factor 1.16 was fitted on: the test pins the arithmetic, not an independent check.
    got = encoder_run_bytes(patches=65536, width=1280, intermediate=5120, gated_mlp=False, rotary=True,
                            patch_values=1176, dtype_bytes=2)
    assert got == 2_838_285_516
    text = (LOGS / "v0102_qwen2vl_2b_rtx4080_wsl_util08_4k.log").read_text(encoding="utf-8")
    assert "2.65 GiB for peak activation" in text
    assert abs(got / GIB - 2.65) / 2.65 < 0.01
    # SigLIP (Gemma 3: 1152/4304, no rotary, 3 x 14^2 = 588 values per patch), 32 images x 4096 patches:
    # max(9 x 1152 = 10,368, 2 x 1152 + 2 x 4304 = 10,912) x 2 = 21,824 B; 1.16 x 131,072 x 21,824 =
    # 3,318,197,780.48 -> 3,318,197,780; + 131,072 x 588 x 4 = 308,281,344 -> 3,626,479,124 (3.38 GiB).
    assert encoder_run_bytes(patches=131072, width=1152, intermediate=4304, gated_mlp=False, rotary=False,
                             patch_values=588, dtype_bytes=2) == 3_626_479_124


def test_gemma3_peak_is_the_sampler_plus_the_kept_encoder_outputs() -> None:
    # Gemma-3-27B on an H100, 0.19, max_model_len 8192: the 32 kept outputs, 32 x 256 x 5376 x 2 B =
    # 88,080,384, sit under the sampler warm-up 3.9 x 1024 x 262,208 x 4 = 4,188,615,475.2 -> 4,188,615,475
    # (the forward, 1.22 x 8192 x (3 x 21504 + 2 x 5376) x 2 = 1.50e9, and the encoder run, 3.63e9, are
    # smaller): 4,276,695,859 B = 3.983 GiB, logged "torch peak memory increase: 3.99GiB". The logged peaks of
    # the 4B / 12B / 27B runs (3.89 / 3.94 / 3.99 GiB, same vocabulary) grow with the text width as the
    # kept outputs do (2560 / 3840 / 5376 x 32 x 256 x 2 B = 0.039 / 0.059 / 0.082 GiB).
    # profile_run also holds batched_dummy_mm_inputs until it returns (gpu_model_runner.py, every V1 tag read):
    # the 32 dummy images' pixel values, cast to bf16 since 0.9.1 (#18862), 32 x 3 x 896 x 896 x 2 =
    # 154,140,672 B (0.144 GiB). Independent check from the text-only Gemma 2 logs of the same sweep (vocabulary
    # 256,000, 0.9766 GiB of fp32 logits at 1024 sequences): 2B 3.62 and 27B 3.66 GiB logged = 3.71 / 3.75 logits
    # copies; at Gemma 3's 262,208 entries that is 3.71 / 3.75 GiB, and 3.89 - 3.71 - 0.039 = 0.14 (4B),
    # 3.99 - 3.75 - 0.082 = 0.16 (27B) GiB are left: the pixel values. The estimate's sampler (3.9 copies, the
    # fit-half median with Gemma 3's pixel values inside it) makes the total 4,188,615,475 + 88,080,384 +
    # 154,140,672 = 4,430,836,531 B (4.13 GiB, 0.14 above the log).
    b = _vision_budget("google/gemma-3-27b-it", "0.19.0", max_model_len=8192, gpu_memory_utilization=0.95)
    assert b.activation_bytes == 4_430_836_531
    assert b.encoder_profile == "estimated"
    # 0.11.x pads each kept output to the whole budget: 32 x 8192 x 5376 x 2 = 2,818,572,288 B kept, over the
    # sorting sampler of that release (9.5 x 1,074,003,968 = 10,203,037,696), plus the pixel values
    # (154,140,672) and the unpadded batch output the loop variable ``output`` still holds (a split view of
    # 32 x 256 x 5376 x 2 = 88,080,384 B): 13,263,831,040 B.
    old = _vision_budget("google/gemma-3-27b-it", "0.11.0", max_model_len=8192, gpu_memory_utilization=0.95)
    assert old.activation_bytes == 13_263_831_040
    # 0.12.0 does not pad a 256-token image (its counted size): 32 x 256 rows and the pixel values over the
    # same sorting sampler
    newer = _vision_budget("google/gemma-3-27b-it", "0.12.0", max_model_len=8192, gpu_memory_utilization=0.95)
    assert newer.activation_bytes == 10_203_037_696 + 88_080_384 + 154_140_672
    # before 0.9.1 (#18862) vLLM left the processor's fp32 pixel values as they were: 32 x 3 x 896 x 896 x 4 =
    # 308,281,344 B held; 0.9.0 (V1, sorting sampler, no padding): 10,203,037,696 + 88,080,384 + 308,281,344
    cast = _vision_budget("google/gemma-3-27b-it", "0.9.1", max_model_len=8192, gpu_memory_utilization=0.95)
    uncast = _vision_budget("google/gemma-3-27b-it", "0.9.0", max_model_len=8192, gpu_memory_utilization=0.95)
    assert cast.activation_bytes == 10_203_037_696 + 88_080_384 + 154_140_672
    assert uncast.activation_bytes == 10_599_399_424


def test_qwen_vl_encoder_run_sets_the_peak_on_small_batches() -> None:
    # Qwen3-VL-30B-A3B on an A100-80GB (defaults there: 2048 tokens, 256 sequences), 0.19: one 16,384-token
    # image, 65,536 patches of the 1152/4304 tower. From 0.13.0 q and k are rotated by the fused op in bf16
    # (11 width units): max(11 x 1152 = 12,672, 2 x 1152 + 2 x 4304 = 10,912) x 2 = 25,344 B;
    # 1.16 x 65,536 x 25,344 = 1.16 x 1,660,944,384 = 1,926,695,485.44 -> 1,926,695,485; pixel values
    # 65,536 x (3 x 2 x 16^2 = 1536) x 4 = 402,653,184: 2,329,348,669 B (2.17 GiB). Kept: 16,384 x 2048 x
    # (1 + 3 deep-stack) x 2 = 268,435,456 and the held bf16 pixel values 65,536 x 1536 x 2 = 201,326,592 over the
    # sampler 3.9 x 256 x 151,936 x 4 = 606,820,761.6: smaller.
    b = _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.19.0", gpu_id="A100-80GB")
    assert b.activation_bytes == 2_329_348_669
    # the text-only path of the same model would have kept the sampler's 0.57 GiB
    assert b.activation_bytes > 3 * 606_820_761
    # 0.12.0 counts the video item as 12,288 x 12.5 = 153,600 tokens and pads its kept output to that many rows
    # (``max_mm_tokens_per_item``): 153,600 x 2048 x 4 x 2 = 2,516,582,400 B over the sorting sampler 9.5 x 256 x
    # 151,936 x 4 = 1,478,033,408, plus what profile_run still holds: the pixel values 49,152 x 1536 x 2 =
    # 150,994,944 and the unpadded output (loop variable ``output``) 12,288 x 8192 x 2 = 201,326,592:
    # 4,346,937,344 B (the encoder run on 49,152 patches, 1.87 GiB, is smaller)
    assert _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.12.0", gpu_id="A100-80GB").activation_bytes == 4_346_937_344
    # before 0.13.0 the rotation ran in fp32 (13 units, as in the Qwen2-VL fit row)
    assert encoder_run_bytes(patches=65536, width=1152, intermediate=4304, gated_mlp=False, rotary=True,
                             patch_values=1536, dtype_bytes=2) > encoder_run_bytes(
        patches=65536, width=1152, intermediate=4304, gated_mlp=False, rotary=True, patch_values=1536, dtype_bytes=2,
        fused_rotary=True)


def test_encoder_run_per_tp_rank_splits_heads_and_mlp_but_not_the_gathered_qkv() -> None:
    # vLLM shards the ViT over the TP ranks (mm_encoder_tp_mode "weights", vllm/config/multimodal.py v0.11.0 and
    # v0.19.0): heads (QKVParallelLinear) and the MLP's fc1 are split; residual, norm output, the RowParallel
    # outputs and their out-of-place all-reduce result (cuda_communicator.py all_reduce) are whole; the Qwen ViTs'
    # split_qkv all-gathers qkv to full width on every rank (qwen2_5_vl.py all_gather_interleave until v0.11.0,
    # removed by #28271 in v0.11.1; qwen2_vl.py tensor_model_parallel_all_gather, absent only in v0.11.1-v0.12.x).
    from kvcalc.budget.encoder_tp import attention_units, mlp_units, qkv_all_gather
    assert qkv_all_gather("qwen3_vl_moe", rules_for("0.11.0")) and not qkv_all_gather("qwen3_vl_moe", rules_for("0.11.1"))
    assert qkv_all_gather("qwen2_5_vl", rules_for("0.10.2")) and not qkv_all_gather("qwen2_5_vl", rules_for(None))
    assert qkv_all_gather("qwen2_vl", rules_for("0.10.2")) and not qkv_all_gather("qwen2_vl", rules_for("0.12.0"))
    assert qkv_all_gather("qwen2_vl", rules_for("0.13.0")) and qkv_all_gather("qwen2_vl", rules_for(None))
    assert not qkv_all_gather("gemma3", rules_for("0.11.0")) and not qkv_all_gather("mistral3", rules_for(None))
    # TP 1 keeps the fitted tallies: 13 / 11 / 9 widths; 2 + 2 x 4304 / 1152 for the MLP
    assert attention_units(13, 1, all_gather=True) == 13.0
    assert mlp_units(4304 / 1152, 1, gated=False) == 2 + 2 * 4304 / 1152
    # Qwen3-VL at TP 4 in 0.11.0 (13 widths, gather): split work 2 + 11/4 = 4.75, projection 4 + 10/4 = 6.5,
    # gather 8 + 3/4 = 8.75 -> 8.75. Without the gather (0.11.1 on, fused rotary from 0.13: 11 widths) at TP 2:
    # 2 + 9/2 = 6.5, 4 + 8/2 = 8 -> 8. SigLIP (9 widths) at TP 4: 2 + 7/4 = 3.75, 4 + 6/4 = 5.5 -> 5.5.
    assert attention_units(13, 4, all_gather=True) == 8.75
    assert attention_units(11, 2, all_gather=False) == 8.0
    assert attention_units(9, 4, all_gather=False) == 5.5
    # MLP at TP 4, intermediate 4304 = 3.7361 widths: up 2 + 2 x 3.7361 / 4 = 3.868, down 4 + 3.7361 / 4 = 4.934
    assert abs(mlp_units(4304 / 1152, 4, gated=False) - (4 + 4304 / 1152 / 4)) < 1e-12
    # The 0.11.0 TP-4 validation row (Qwen3-VL-30B-A3B, 4x RTX 3090): the one video item, 12,288 tokens = 49,152
    # patches. Per rank: 8.75 x 1152 x 2 B = 20,160 B per patch; 1.16 x 49,152 x 20,160 = 1.16 x 990,904,320 =
    # 1,149,449,011.2 -> 1,149,449,011; + 49,152 x 1536 x 4 = 301,989,888 -> 1,451,438,899 B (1.35 GiB; counted
    # whole it was 1.87 GiB). The kept phase stays the peak there: 153,600 x 2048 x 4 x 2 = 2,516,582,400 padded
    # rows, the held pixel values 49,152 x 1536 x 2 = 150,994,944 and unpadded output 12,288 x 8192 x 2 =
    # 201,326,592, over the sorting sampler's 9.5 x 256 x 151,936 x 4 = 1,478,033,408: 4,346,937,344 B.
    assert encoder_run_bytes(patches=49152, width=1152, intermediate=4304, gated_mlp=False, rotary=True,
                             patch_values=1536, dtype_bytes=2, tensor_parallel_size=4,
                             qkv_all_gather=True) == 1_451_438_899
    row = _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.11.0", gpu_id="RTX-3090", tensor_parallel_size=4,
                         max_model_len=65536, gpu_memory_utilization=0.9)
    assert row.activation_bytes == 4_346_937_344
    # Where the run is the peak, TP lowers it: Qwen3-VL-30B-A3B on 2 x A100-80GB, 0.19 (2048 tokens, 256
    # sequences), the 16,384-token image (65,536 patches): 8 x 1152 x 2 = 18,432 B per patch; 1.16 x 65,536 x
    # 18,432 = 1.16 x 1,207,959,552 = 1,401,233,080.32 -> 1,401,233,080; + 65,536 x 1536 x 4 = 402,653,184 ->
    # 1,803,886,264 B (1.68 GiB; 2,329,348,669 at TP 1, test above), over kept 268,435,456 + pixel values
    # 201,326,592 + sampler 606,820,761.
    tp2 = _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.19.0", gpu_id="A100-80GB", tensor_parallel_size=2)
    assert tp2.activation_bytes == 1_803_886_264


def test_unknown_encoder_widens_the_band_and_says_so() -> None:
    # LFM2.5-VL: no tower or processor size known here; the central activation is the text model's,
    # the pessimistic edge doubles the central figure's room, and the budget reports "unknown".
    gpu = find_gpu("RTX-4090")
    dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes, rules=rules_for("0.19.0"))
    tokens, seqs = batch_defaults(dep)
    vl = memory_budget(catalog_model("LiquidAI/LFM2.5-VL-1.6B"), dep, max_num_batched_tokens=tokens,
                       max_num_seqs=seqs)
    assert vl.encoder_profile == "unknown"
    text_only = _h100_budget()
    assert text_only.encoder_profile == "none"
    # a measured activation needs no caveat
    measured = _vision_budget("google/gemma-3-27b-it", "0.19.0", max_model_len=8192,
                              measured=Measured(activation_bytes=4 * GIB))
    assert measured.encoder_profile == "none" and measured.activation_bytes == 4 * GIB
    # V0 puts the dummy images inside its profile sequences (not modelled): said, and the band widened
    v0 = _vision_budget("google/gemma-3-27b-it", "0.7.0", max_model_len=8192)
    assert v0.encoder_profile == "unknown"


def test_qwen25_vl_video_profile_against_the_023_log() -> None:
    # Qwen2.5-VL-7B on an A100-80GB, vLLM 0.23.0, defaults but --gpu-memory-utilization 0.22 (an excluded log: its
    # public copy cannot be linked). max_model_len 128000 -> one video item of 7 groups x 16,384 = 114,688 tokens,
    # 458,752 patches ("budget of 114688 tokens, and profiled with 1 video items"). Encoder run with the fused
    # rotation (11 x 1280 = 14,080 > 2 x 1280 + 3 x 3420 = 12,820): 1.16 x 458,752 x 28,160 = 1.16 x 12,918,456,320
    # = 14,985,409,331.2 -> 14,985,409,331; + 458,752 x 1176 x 4 = 2,157,969,408 -> 17,143,378,739 B (15.97 GiB). The log implies about 15.2 GiB (ceil(0.22 x
    # 79.15 GiB) - 15.67 weights - 0.53 graphs - ~0.25 non-torch + 14.28). The weights are 1.35 GiB under the logged
    # 15.67 (the catalog's Qwen2.5-VL-7B count has no vision tower), which the activation's 0.7 GiB excess offsets:
    # -13.91 GiB estimated against -14.28 logged, inside the band (14.32 GiB of weights with MRoPE's enlarged cache:
    # 3 x 128,000 x 128 x 2 = 98,304,000 B more than before).
    text = (LOGS / "v0230_qwen25vl_7b_a100_util022_default_len_video_profile.log").read_text(encoding="utf-8")
    assert "budget of 114688 tokens, and profiled with 1 video items" in text
    assert "Available KV cache memory: -14.28 GiB" in text
    b = _vision_budget("Qwen/Qwen2.5-VL-7B-Instruct", "0.23.0", gpu_id="A100-80GB", gpu_memory_utilization=0.22)
    assert b.activation_bytes == 17_143_378_739
    assert b.available_kv_bytes_low / GIB < -14.28 < b.available_kv_bytes_high / GIB
    assert abs(b.available_kv_bytes / GIB + 14.28) < 0.5


def test_qwen3_vl_image_profile_against_the_013_h100_nvl_log() -> None:
    # A Qwen3-VL MoE checkpoint of Qwen3-VL-30B-A3B's size (58.23 GiB loaded) on an H100 NVL, vLLM 0.13.0,
    # max_model_len 8192 (an excluded log: custom name, unlinkable copy). From 0.13.0 the video item no longer
    # counts 12.5 per token, so the 16,384-token image is profiled ("budget of 16384 tokens, and profiled with 1
    # image items"). The peak is the sorting sampler (before 0.17.0) at 1024 sequences, 9.5 x 1024 x 151,936 x 4
    # = 5,912,133,632 B, plus the kept image, 16,384 x 2048 x 4 x 2 = 268,435,456, and the pixel values profile_run
    # still holds, 65,536 x 1536 x 2 = 201,326,592: 6,381,895,680 B (5.94 GiB); the encoder run (2.17 GiB) is
    # smaller. 19.27 GiB estimated against 19.40 logged on CUDA's 93.10 GiB total (19.21 on nvidia-smi's
    # 95830 MiB less 0.55 GiB)
    # (weights 58.33 GiB with MRoPE's enlarged cache and the deep-stack buffers, weight_share.py; 58.23 loaded).
    text = (LOGS / "v0130_qwen3vl_moe_custom_h100nvl_8k.log").read_text(encoding="utf-8")
    assert "budget of 16384 tokens, and profiled with 1 image items" in text
    assert "Available KV cache memory: 19.40 GiB" in text
    b = _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.13.0", gpu_id="H100-NVL", max_model_len=8192)
    assert b.activation_bytes == 6_381_895_680
    assert b.available_kv_bytes_low / GIB < 19.40 < b.available_kv_bytes_high / GIB
    assert abs(b.available_kv_bytes / GIB - 19.40) / 19.40 < 0.03


def test_qwen2_vl_vision_config_key_names() -> None:
    # Qwen2-VL's vision_config calls the ViT width embed_dim (1280) and the merger's output hidden_size; its MLP
    # is mlp_ratio x embed_dim. Values: transformers 5.24 Qwen2VLVisionConfig defaults (installed source); the
    # text part is the catalog's Qwen2.5-3B-Instruct config, only so that the config parses.
    from kvcalc.catalog import find_model
    text = dict(find_model("Qwen/Qwen2.5-3B-Instruct").config)
    vision = {"depth": 32, "embed_dim": 1280, "hidden_size": text["hidden_size"], "mlp_ratio": 4, "patch_size": 14,
              "temporal_patch_size": 2, "spatial_merge_size": 2, "model_type": "qwen2_vl"}
    spec = normalize_config({**text, "model_type": "qwen2_vl", "vision_config": vision}, model_id="qwen2-vl-test")
    assert spec.vision is not None
    assert (spec.vision.family, spec.vision.hidden_size, spec.vision.intermediate_size) == ("qwen2_vl", 1280, 5120)
    assert (spec.vision.patch_size, spec.vision.temporal_patch_size, spec.vision.spatial_merge_size) == (14, 2, 2)


def test_unified_memory_term_is_the_gb10_fit_rows_median_and_spread() -> None:
    # What each GB10 fit row leaves for activation + non-torch memory (requested - "Model loading took" - the
    # CUDA-graph estimate it printed - "Available KV cache memory", all from the vendored logs), minus the
    # sampler warm-up and the 0.25 GiB estimates.py models: the host memory vLLM counted as its own
    # (vllm/utils/mem_utils.py MemorySnapshot.measure, #26098). Sampler: copies x 256 sequences x vocabulary x
    # 4 B, 3.9 copies from 0.17.0 and 9.5 before (the MLP forward over 2048 tokens is smaller in all four).
    def sampler(copies: float, vocab: int) -> float:
        return copies * 256 * vocab * 4 / GIB

    residuals = [
        121.69 * 0.95 - 64.69 - 0.93 - 47.55 - (sampler(3.9, 248320) + 0.25),  # Qwen3.6-35B-A3B, cold 19 s
        121.69 * 0.30 - 29.0435 - 4.04 - (sampler(9.5, 151936) + 0.25),  # Qwen3-30B-A3B-FP8, cold 86 s
        121.69 * 0.40 - 15.2227 - 30.46 - (sampler(9.5, 152064) + 0.25),  # Qwen2.5-14B FP8, cached compile
        121.69 * 0.15 - 15.2227 + 1.30 - (sampler(9.5, 152064) + 0.25),  # the same at 0.15, cold 15 s
    ]
    assert [round(r, 2) for r in residuals] == [1.26, 1.80, 1.37, 2.70]
    assert round(statistics.median(residuals), 2) == 1.58
    uma = unified_memory_estimate()
    assert (uma.low_bytes, uma.bytes, uma.high_bytes) == (int(1.26 * GIB), int(1.58 * GIB), int(2.70 * GIB))
    # the validation row (gpt-oss-20b, 0.13): 121.69 x 0.25 - 13.7193 - 12.94 - (9.5 x 256 x 201,088 x 4 B
    # = 1.82 GiB + 0.25) = 1.69 GiB, inside the band
    held_out = 121.69 * 0.25 - 13.7193 - 12.94 - (sampler(9.5, 201088) + 0.25)
    assert round(held_out, 2) == 1.69 and 1.26 <= held_out <= 2.70


def test_unified_memory_term_applies_on_gb10_from_0_11_1() -> None:
    # The term is non-torch memory: added to the TP-1 0.25 GiB (band 0.15-0.40) on a GB10 from v0.11.1 (the
    # first tag whose MemorySnapshot reads psutil on capability (12, 1)); not before, not on a discrete GPU,
    # and not when the reader gives the measured non-torch figure.
    gb10, h100 = find_gpu("GB10"), find_gpu("H100-80GB")
    model = catalog_model("openai/gpt-oss-20b")

    def budget(gpu, version: str, **kw: object):
        dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes,
                         gpu_memory_source=gpu.memory_source_kind, rules=rules_for(version), max_model_len=8192,
                         **kw)  # type: ignore[arg-type]
        tokens, seqs = batch_defaults(dep)
        return memory_budget(model, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)

    assert budget(gb10, "0.13.0").non_torch_bytes == int(0.25 * GIB) + int(1.58 * GIB)
    assert budget(gb10, "0.11.1").non_torch_bytes == int(0.25 * GIB) + int(1.58 * GIB)
    assert budget(gb10, "0.11.0").non_torch_bytes == int(0.25 * GIB)
    assert budget(h100, "0.13.0").non_torch_bytes == int(0.25 * GIB)
    assert budget(gb10, "0.13.0", measured=Measured(non_torch_bytes=3 * GIB)).non_torch_bytes == 3 * GIB
    # the band's edges carry the term's: 0.40 + 2.70 GiB at the pessimistic one, 0.15 + 1.26 at the other
    with_term, without = budget(gb10, "0.13.0"), budget(gb10, "0.11.0")
    assert without.available_kv_bytes_low - with_term.available_kv_bytes_low == int(2.70 * GIB)
    assert without.available_kv_bytes_high - with_term.available_kv_bytes_high == int(1.26 * GIB)


def test_gb10_takes_the_small_batch_defaults_and_warns() -> None:
    # vllm/engine/arg_utils.py get_batch_defaults reads GPU 0's total through NVML
    # (vllm/platforms/cuda.py get_device_total_memory); on a GB10 NVML has no memory total, the
    # call raises and vLLM takes 0, so 2048 tokens and 256 sequences apply although the GPU has
    # 121.69 GiB ("Chunked prefill is enabled with max_num_batched_tokens=2048" in both GB10 logs
    # of 0.13 in tests/data/logs, neither passing the flag). An H100 (79.19 GiB >= 70) gets 8192/1024.
    gb10, h100 = find_gpu("GB10"), find_gpu("H100-80GB")
    for gpu, want in ((gb10, (2048, 256)), (h100, (8192, 1024))):
        dep = Deployment(gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes, rules=rules_for("0.13.0"))
        assert batch_defaults(dep) == want
    import contextlib
    import io

    from kvcalc.faces.cli import main as cli_main  # the note reaches the reader in all three languages
    for lang, word in (("en", "unified memory"), ("es", "memoria unificada"), ("zh", "统一内存")):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli_main(["plan", "--model", "openai/gpt-oss-20b", "--gpu", "GB10", "--max-model-len", "8192",
                      "--lang", lang])
        assert word in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # a discrete GPU gets no such note
        cli_main(["plan", "--model", "openai/gpt-oss-20b", "--gpu", "H100-80GB", "--max-model-len", "8192"])
    assert "unified memory" not in out.getvalue()


# --- --limit-mm-per-prompt and --skip-mm-profiling in the encoder profiling run ----------------------
# Qwen2.5-VL-7B-Instruct on an RTX 4090, vLLM 0.19.0, --max-model-len 32768 (defaults there: 2048 tokens, 256
# sequences). Its tower: width 1280, intermediate 3420 with a SiLU gate, patch 14 x 2 frames, merge 2; from
# 0.13.0 q and k are rotated by the fused op (11 width units): per patch max(11 x 1280 = 14,080 attention,
# 2 x 1280 + 3 x 3420 = 12,820 MLP) x 2 B = 28,160 B, plus 3 x 2 x 14^2 = 1176 fp32 pixel values.
# The text model without the encoder: the sampler warm-up 3.9 x 256 x 152,064 x 4 B = 3.9 x 155,713,536 =
# 607,282,790.4 -> 607,282,790 (the forward of 2048 tokens is smaller).
_QWEN25_BASE = 607_282_790
# Default (999 per modality): the video item is the larger, 32,768 // 16,384 = 2 groups = 32,768 tokens,
# 131,072 patches; budget max(2048, 32,768) = 32,768 -> 1 item ("profiled with 1 video items").
# 1.16 x 131,072 x 28,160 = 1.16 x 3,690,987,520 = 4,281,545,523.2 -> 4,281,545,523; pixel values
# 131,072 x 1176 x 4 = 616,562,688: 4,898,108,211 B (4.56 GiB), over kept + base (32,768 x 3584 x 2 =
# 234,881,024 + 607,282,790).
_QWEN25_VIDEO_RUN = 4_898_108_211
# {"video": 0}: the image is profiled, 16,384 tokens, 65,536 patches: 1.16 x 65,536 x 28,160 =
# 1.16 x 1,845,493,760 = 2,140,772,761.6 -> 2,140,772,761; + 65,536 x 1176 x 4 = 308,281,344 ->
# 2,449,054,105 B (2.28 GiB).
_QWEN25_IMAGE_RUN = 2_449_054_105


def _qwen25(**kw: object):
    return _vision_budget("Qwen/Qwen2.5-VL-7B-Instruct", "0.19.0", gpu_id="RTX-4090", max_model_len=32768, **kw)


def test_mm_limits_change_the_encoder_run_as_vllm_profiles_it() -> None:
    default = _qwen25()
    assert default.activation_bytes == _QWEN25_VIDEO_RUN and default.encoder_profile == "estimated"
    # {"image": 1}: the video (999) is still the largest item left, one per batch as before: unchanged
    assert _qwen25(limit_mm_per_prompt=(("image", 1),)).activation_bytes == _QWEN25_VIDEO_RUN
    # {"video": 0}: vLLM profiles the other modality, the image
    assert _qwen25(limit_mm_per_prompt=(("video", 0),)).activation_bytes == _QWEN25_IMAGE_RUN
    # {"image": 0, "video": 0}: every modality off, encoder budget 0 ("Encoder cache will not be initialized"):
    # no encoder run, no kept outputs, the text model's peak alone
    off = _qwen25(limit_mm_per_prompt=(("image", 0), ("video", 0)))
    assert off.activation_bytes == _QWEN25_BASE and off.encoder_profile == "disabled"
    # --skip-mm-profiling: the encoder run and the encoder cache are skipped ("Skipping memory profiling for
    # multimodal encoder and encoder cache"): the same peak; the note says no memory is kept back for them
    skipped = _qwen25(skip_mm_profiling=True)
    assert skipped.activation_bytes == _QWEN25_BASE and skipped.encoder_profile == "skipped"
    # each drop comes back, byte for byte, as available KV memory
    assert off.available_kv_bytes - default.available_kv_bytes == _QWEN25_VIDEO_RUN - _QWEN25_BASE
    # V0 (0.7.x): its profile sequences carry the dummy images (not modelled: band widened), unless every
    # modality is 0, when they carry none
    v0 = _vision_budget("Qwen/Qwen2.5-VL-7B-Instruct", "0.7.3", gpu_id="RTX-4090", max_model_len=32768)
    v0_off = _vision_budget("Qwen/Qwen2.5-VL-7B-Instruct", "0.7.3", gpu_id="RTX-4090", max_model_len=32768,
                            limit_mm_per_prompt=(("image", 0), ("video", 0)))
    assert (v0.encoder_profile, v0_off.encoder_profile) == ("unknown", "disabled")
    assert v0_off.activation_bytes == v0.activation_bytes and v0_off.available_kv_bytes_low > v0.available_kv_bytes_low


def test_mm_limit_caps_the_items_per_batch() -> None:
    # Gemma 3 on an H100 (0.19, 8192 tokens): 8192 // 256 = 32 image items when 1024 sequences x
    # min(999, 8192 // 256 = 32) allow them; with 4 sequences and {"image": 2}: min(32, 4 x 2) = 8.
    assert mm_items_per_batch(tokens_per_item=256, max_num_batched_tokens=8192, max_num_seqs=4, max_model_len=8192,
                              limit_per_prompt=2) == (8192, 8)
    # and the budget path passes the reader's count: Gemma 3 has images only, so {"image": 0} turns the run off
    b = _vision_budget("google/gemma-3-27b-it", "0.19.0", max_model_len=8192, gpu_memory_utilization=0.95,
                       limit_mm_per_prompt=(("image", 0),))
    # the sampler warm-up alone (test_gemma3_peak_is_the_sampler_plus_the_kept_encoder_outputs): 4,188,615,475
    assert b.activation_bytes == 4_188_615_475 and b.encoder_profile == "disabled"
    # a limit for a modality the model does not take is ignored, as vLLM's allowed_mm_limits does
    assert _vision_budget("google/gemma-3-27b-it", "0.19.0", max_model_len=8192, gpu_memory_utilization=0.95,
                          limit_mm_per_prompt=(("video", 0),)).activation_bytes == 4_430_836_531


def test_qwen3_vl_video_limit_follows_the_counted_item() -> None:
    # 0.12.0 profiles Qwen3-VL's video (counted 153,600 tokens, test above); {"video": 0} leaves the image,
    # 16,384 tokens: with 0.12.0's unfused rotation (13 units) 1.16 x 65,536 x max(13 x 1152, 10,912) x 2 =
    # 1.16 x 65,536 x 29,952 = 1.16 x 1,962,934,272 = 2,277,003,755.52 -> 2,277,003,755; + 65,536 x 1536 x 4 =
    # 402,653,184 -> 2,679,656,939 B, over kept (16,384 x 2048 x 4 x 2 = 268,435,456) + the sorting sampler
    # (1,478,033,408).
    b = _vision_budget("Qwen/Qwen3-VL-30B-A3B-Instruct", "0.12.0", gpu_id="A100-80GB",
                       limit_mm_per_prompt=(("video", 0),))
    assert b.activation_bytes == 2_679_656_939


def test_the_caveats_claim_holds_for_every_catalog_vision_model() -> None:
    # The encoder note tells readers that --limit-mm-per-prompt 0 (or --skip-mm-profiling) lowers the profile's
    # memory: for every multimodal catalog model on two GPUs and three releases, turning the encoder off never
    # raises the activation peak and never lowers the available KV memory; where the run is estimated it
    # strictly lowers the peak (the kept outputs alone are > 0).
    checked = 0
    for entry in catalog.models():
        if catalog_model(entry.id).vision is None:
            continue
        for gpu_id in ("RTX-4090", "H100-80GB"):
            for version in ("0.11.0", "0.19.0", None):
                kw: dict[str, object] = {"max_model_len": 8192}
                try:
                    base = _vision_budget(entry.id, version or "latest", gpu_id=gpu_id, **kw)
                except CalcError:  # a model this release does not serve
                    continue
                off = _vision_budget(entry.id, version or "latest", gpu_id=gpu_id,
                                     limit_mm_per_prompt=(("image", 0), ("video", 0)), **kw)
                skip = _vision_budget(entry.id, version or "latest", gpu_id=gpu_id, skip_mm_profiling=True, **kw)
                for lowered in (off, skip):
                    assert lowered.activation_bytes <= base.activation_bytes, (entry.id, gpu_id, version)
                    assert lowered.available_kv_bytes >= base.available_kv_bytes, (entry.id, gpu_id, version)
                    assert lowered.available_kv_bytes_low >= base.available_kv_bytes_low, (entry.id, gpu_id, version)
                    if base.encoder_profile == "estimated":
                        assert lowered.activation_bytes < base.activation_bytes, (entry.id, gpu_id, version)
                checked += 1
    assert checked >= 40  # 21 vision models x 2 GPUs x 3 releases at the time of writing, less what a release refuses
