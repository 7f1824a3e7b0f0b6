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

import pathlib
import statistics
from typing import NamedTuple

from kvcalc.estimates import activation_peak_bytes, cudagraph_bytes, cudagraph_capture_sizes, non_torch_bytes

GIB = 2**30
H100 = int(79.19 * GIB)

# Tolerances the formulas meet on every row (documented in calc/estimates.py).
ACTIVATION_REL_TOL = 0.20
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
    print(f"\n{'log':42s} {'act meas':>8s} {'est':>6s} {'err':>5s} | {'nt meas':>7s} {'est':>5s} | {'graph':>5s} {'est':>5s} {'err':>5s}")
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
    # sampler = 4.15 x 1024 x 128256 x 4 = 4.15 x 525,336,576 = 2,180,146,790.4
    # forward = 1.35 x 8192 x (3 x 14336 + 2 x 4096) x 2 = 1.35 x 838,860,800 = 1,132,462,080
    # the larger one wins
    got = activation_peak_bytes(hidden_size=4096, intermediate_size=14336, vocab_size=128256,
                                num_attention_heads=32, num_layers=32, max_num_batched_tokens=8192,
                                max_num_seqs=1024, tensor_parallel_size=1, dtype_bytes=2, is_moe=False,
                                num_experts_per_tok=1)
    assert got == 2_180_146_790
    # CodeLlama-7B, 256 sequences: sampler = 4.15 x 256 x 32016 x 4 = 136,052,428.8;
    # forward = 1.35 x 8192 x (3 x 11008 + 8192) x 2 = 1.35 x 675,282,944 = 911,631,974.4 wins
    got = activation_peak_bytes(hidden_size=4096, intermediate_size=11008, vocab_size=32016,
                                num_attention_heads=32, num_layers=32, max_num_batched_tokens=8192,
                                max_num_seqs=256, tensor_parallel_size=1, dtype_bytes=2, is_moe=False,
                                num_experts_per_tok=1)
    assert got == 911_631_974


def test_non_torch_and_graph_rules() -> None:
    # TP 1: 0.25 GiB = 268,435,456 B; TP 4: 2.08 + 2 x 0.07 = 2.22 GiB
    assert non_torch_bytes(tensor_parallel_size=1, pipeline_parallel_size=1, total_gpu_memory_bytes=H100) == 268_435_456
    assert non_torch_bytes(tensor_parallel_size=4, pipeline_parallel_size=1, total_gpu_memory_bytes=H100) == int(2.22 * GIB)
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
