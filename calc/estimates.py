"""Estimates of the three start-up terms vLLM measures but no config reveals.

vLLM's KV budget per GPU is ``total × utilization − weights − activation peak −
non-torch memory − CUDA graphs`` (spec section 9). Weights follow from the
checkpoint; the other three are measured by vLLM on the GPU at start-up. Without a
GPU we estimate them with the formulas below, fitted to real logs that print the
breakdown (``tests/data/logs/llmd_v019_*``: vLLM 0.19.0, H100 80GB, bf16,
``max_num_batched_tokens`` 8192, ``max_num_seqs`` 1024). ``tests/test_estimates.py``
prints measured against estimated figures per log.

Fitted accuracy on those 15 logs (see the test's table):

* activation peak: median error 7 %, worst 16 % (DeepSeek-V2-Lite, MLA + MoE);
* non-torch memory: within 0.03 GiB on every log;
* CUDA graphs: median error 9 %, worst 30 % (MoE models, 70B at TP 2).

They are estimates: a user who has a log should give the measured figures instead.
All sizes are integer bytes; GiB (2**30) appears only in the constants.
"""

from __future__ import annotations

__all__ = ["activation_peak_bytes", "non_torch_bytes", "cudagraph_bytes", "cudagraph_capture_sizes"]

_GIB = 2**30

# --- activation peak ---------------------------------------------------------
# The profile run has two peaks and vLLM reports the larger (torch peak minus what
# stays allocated):
#  * the sampler warm-up on max_num_seqs dummy requests: fp32 logits over the full
#    vocabulary plus the sampler's copies (softmax probabilities, top-k/top-p work
#    buffers). Fitted: 4.15 copies of the fp32 logits (≈16.6 bytes per request per
#    vocabulary entry). Vocabulary-parallel logits are gathered, so TP does not
#    divide this term (Llama-3.3-70B at TP 2 measured 1.96 GiB, same as 8B at TP 1).
#  * the forward pass over max_num_batched_tokens tokens: the MLP's gate/up output
#    and activation (3 × intermediate per token, divided by TP), for MoE the routed
#    copies (× experts per token), plus two hidden-size buffers. Fitted factor 1.35.
_SAMPLER_COPIES = 4.15
_FORWARD_FACTOR = 1.35


def activation_peak_bytes(
    *,
    hidden_size: int,
    intermediate_size: int,
    vocab_size: int,
    num_attention_heads: int,
    num_layers: int,
    max_num_batched_tokens: int,
    max_num_seqs: int,
    tensor_parallel_size: int,
    dtype_bytes: int,
    is_moe: bool,
    num_experts_per_tok: int,
) -> int:
    """Estimated "PyTorch activation peak" (torch peak increase) of vLLM's profile run.

    ``intermediate_size`` is the per-expert size for MoE models
    (``moe_intermediate_size`` where the config has it). ``num_attention_heads`` and
    ``num_layers`` are accepted for completeness: in the fitted data neither moved
    the peak (activations are freed layer by layer; attention buffers are smaller
    than the MLP's).
    """
    del num_attention_heads, num_layers  # not significant in the data (see docstring)
    tp = max(1, tensor_parallel_size)
    sampler = _SAMPLER_COPIES * max_num_seqs * vocab_size * 4
    routed = intermediate_size * (max(1, num_experts_per_tok) if is_moe else 1)
    forward = _FORWARD_FACTOR * max_num_batched_tokens * (3 * routed / tp + 2 * hidden_size) * dtype_bytes
    return int(max(sampler, forward))


# --- non-torch memory -----------------------------------------------------------
# Memory the process holds outside PyTorch's allocator that grows during the profile
# run: cuBLAS/cuDNN workspaces and, with tensor parallelism, NCCL communicators and
# the custom all-reduce buffers. Measured (vLLM 0.19, H100): 0.24-0.26 GiB at TP 1,
# 2.07-2.10 GiB at TP 2 (five logs), 0.07 GiB on each stage of PP 2 without TP (one
# log). Beyond TP 2 we assume +0.07 GiB per further rank (the same sweep reports
# 2.21 GiB at TP 4; that log is not in the corpus, so treat the slope as a guess).
_NT_SINGLE = 0.25
_NT_PP_STAGE = 0.07
_NT_TP2 = 2.08
_NT_PER_EXTRA_RANK = 0.07


def non_torch_bytes(*, tensor_parallel_size: int, pipeline_parallel_size: int, total_gpu_memory_bytes: int) -> int:
    """Estimated "non-torch forward increase" per GPU.

    ``total_gpu_memory_bytes`` only bounds the result: the logs (all on 79.19 GiB
    GPUs) give no evidence that the term scales with GPU size.
    """
    tp = max(1, tensor_parallel_size)
    if tp > 1:
        gib = _NT_TP2 + _NT_PER_EXTRA_RANK * (tp - 2)
    elif pipeline_parallel_size > 1:
        gib = _NT_PP_STAGE
    else:
        gib = _NT_SINGLE
    return min(int(gib * _GIB), max(0, total_gpu_memory_bytes))


# --- CUDA graphs --------------------------------------------------------------
# vLLM captures one graph per batch size (and per mode: piecewise and full); the
# pool grows with the number of layers captured. Fitted on the same logs:
# (0.54 GiB + 0.009 GiB per layer on this GPU) × 1.45 for MoE models (their fused-MoE
# kernels keep larger per-graph workspaces), for 51 capture sizes (largest 512).
# Other capture counts scale linearly with the number of sizes (an assumption: the
# logs all used 51).
_GRAPH_BASE = 0.54
_GRAPH_PER_LAYER = 0.009
_GRAPH_MOE_FACTOR = 1.45
_GRAPH_FITTED_SIZES = 51


def cudagraph_capture_sizes(max_num_seqs: int) -> list[int]:
    """vLLM's default capture sizes: 1, 2, 4, then steps of 8 to 256, then 16 up to the cap.

    The cap is ``min(2 × max_num_seqs, 512)``; for the fitted logs (1024 sequences)
    this gives the 51 sizes vLLM 0.19 printed (``PIECEWISE=51 (largest=512)``).
    """
    cap = min(2 * max(1, max_num_seqs), 512)
    sizes = [1, 2, 4] + list(range(8, 257, 8)) + list(range(272, 513, 16))
    return [s for s in sizes if s <= cap]


def cudagraph_bytes(
    *,
    num_layers: int,
    hidden_size: int,
    max_num_seqs: int,
    tensor_parallel_size: int,
    enforce_eager: bool,
    dtype_bytes: int,
    is_moe: bool = False,
) -> int:
    """Estimated CUDA-graph pool memory per GPU; 0 with ``--enforce-eager``.

    ``num_layers`` is the number of decoder layers on this GPU (its PP stage).
    ``hidden_size``, ``tensor_parallel_size`` and ``dtype_bytes`` are accepted for
    completeness; they did not improve the fit (TP 2 and TP 1 of the same model
    differed by 0.15 GiB, in either direction across models).
    """
    del hidden_size, tensor_parallel_size, dtype_bytes  # not significant in the data
    if enforce_eager:
        return 0
    gib = _GRAPH_BASE + _GRAPH_PER_LAYER * num_layers
    if is_moe:
        gib *= _GRAPH_MOE_FACTOR
    gib *= len(cudagraph_capture_sizes(max_num_seqs)) / _GRAPH_FITTED_SIZES
    return int(gib * _GIB)
