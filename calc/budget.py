"""The per-GPU memory budget vLLM leaves for the KV cache.

vllm/v1/worker/gpu_worker.py ``Worker.determine_available_memory`` and
vllm/v1/worker/utils.py ``request_memory``:
``A = ceil(total × utilization) − consumed − transient − cudagraph``.
vLLM *measures* weights, the activation peak, non-torch memory and CUDA-graph
memory at start-up; here they are estimates (``estimates.py``) unless the
reader gives the measured figures.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from . import estimates
from .deployment import Deployment
from .errors import CalcError
from .model import ModelSpec

__all__ = ["BudgetSource", "MemoryBudget", "weight_bytes", "requested_bytes", "memory_budget"]

_ELEMENT_BYTES = 2  # the model is served in 16 bits (model.py maps a float32 checkpoint to bfloat16)


class BudgetSource(StrEnum):
    """Where the available KV memory comes from."""

    PROFILED = "profiled"
    """Estimated the way vLLM's profile run measures it."""
    MEASURED = "measured"
    """The reader's "Available KV cache memory" from a log."""
    KV_CACHE_MEMORY_BYTES = "kv_cache_memory_bytes"
    """A fixed budget (``--kv-cache-memory-bytes``)."""


@dataclass(frozen=True, kw_only=True)
class MemoryBudget:
    """Where one GPU's memory goes, in bytes."""

    source: BudgetSource
    total_bytes: int | None
    gpu_memory_utilization: float
    requested_bytes: int | None
    """``ceil(total × utilization)``; what vLLM may use on this GPU."""
    weights_bytes: int
    activation_bytes: int
    non_torch_bytes: int
    cudagraph_bytes: int
    estimated: tuple[str, ...]
    """Which of weights/activation/non_torch/cudagraph are our estimates."""
    available_kv_bytes: int
    """``A``: may be ≤ 0 (then vLLM says "No available memory for the cache blocks")."""

    @property
    def is_profiled_or_measured(self) -> bool:
        """vLLM profiled memory (it logs "Available KV cache memory"), rather than taking a fixed budget."""
        return self.source != BudgetSource.KV_CACHE_MEMORY_BYTES

    @property
    def weights_exceed_gpu(self) -> bool:
        """The weights (and the CUDA context) alone are larger than the GPU: loading them runs out of memory."""
        return (self.source == BudgetSource.PROFILED and self.total_bytes is not None
                and self.weights_bytes + self.non_torch_bytes > self.total_bytes)

    @property
    def non_kv_bytes(self) -> int:
        return self.weights_bytes + self.activation_bytes + self.non_torch_bytes + self.cudagraph_bytes

    @property
    def headroom_bytes(self) -> int:
        """Memory outside vLLM's share (total − requested)."""
        if self.total_bytes is None or self.requested_bytes is None:
            return 0
        return self.total_bytes - self.requested_bytes


def weight_bytes(model: ModelSpec) -> int:
    """Checkpoint weight bytes of the whole model, from the parameter count and its quantization."""
    elem = _ELEMENT_BYTES
    embed = model.vocab_size * model.hidden_size
    q = model.quant
    if q.method == "none" or q.bits >= 16:
        return model.num_parameters * elem
    if q.experts_only:
        quantized = model.num_expert_parameters
    else:
        quantized = max(model.num_parameters - 2 * embed, 0)  # embeddings and lm_head stay 16-bit
    rest = model.num_parameters - quantized
    per_weight = q.bits / 8
    if q.group_size:
        # one 16-bit scale per group (mxfp4: one 8-bit scale per 32), plus packed zero points for AWQ/GPTQ
        scale_bytes = 1 if q.method == "mxfp4" else 2
        zero_bytes = q.bits / 8 if q.method in ("awq", "gptq") else 0
        per_weight += (scale_bytes + zero_bytes) / q.group_size
    return int(quantized * per_weight) + rest * elem


def requested_bytes(total: int, utilization: float, *, ceil: bool) -> int:
    """vllm/v1/worker/utils.py request_memory: ceil since 2026-01-07, plain product before."""
    product = total * utilization
    return math.ceil(product) if ceil else int(product)


def memory_budget(model: ModelSpec, dep: Deployment, *, max_num_batched_tokens: int, max_num_seqs: int) -> MemoryBudget:
    """The budget of the most loaded GPU (PP stages are assumed balanced)."""
    util = dep.effective_utilization
    m = dep.measured
    if dep.kv_cache_memory_bytes is not None:
        return MemoryBudget(source=BudgetSource.KV_CACHE_MEMORY_BYTES, total_bytes=dep.gpu_memory_bytes, gpu_memory_utilization=util,
                            requested_bytes=None, weights_bytes=0, activation_bytes=0, non_torch_bytes=0,
                            cudagraph_bytes=0, estimated=(), available_kv_bytes=dep.kv_cache_memory_bytes)
    if m.available_kv_bytes is not None:
        return MemoryBudget(source=BudgetSource.MEASURED, total_bytes=dep.gpu_memory_bytes, gpu_memory_utilization=util,
                            requested_bytes=None, weights_bytes=0, activation_bytes=0, non_torch_bytes=0,
                            cudagraph_bytes=0, estimated=(), available_kv_bytes=m.available_kv_bytes)
    if dep.gpu_memory_bytes is None:
        raise CalcError("missing_gpu", "give a GPU (--gpu) or its memory (--gpu-memory-gib), or the measured --available-kv-gib",
                        field="gpu")
    requested = requested_bytes(dep.gpu_memory_bytes, util, ceil=dep.rules.request_ceil)
    estimated: list[str] = []
    per_gpu_share = dep.tensor_parallel_size * dep.pipeline_parallel_size
    if m.weights_bytes is None:
        # vllm/model_executor/models/utils.py maybe_offload_to_cpu: up to --cpu-offload-gb stays on the host.
        weights = max(weight_bytes(model) // per_gpu_share - dep.cpu_offload_bytes, 0)
        estimated.append("weights")
    else:
        weights = m.weights_bytes
    elem = _ELEMENT_BYTES
    if m.activation_bytes is None:
        activation = estimates.activation_peak_bytes(
            hidden_size=model.hidden_size, intermediate_size=model.intermediate_size, vocab_size=model.vocab_size,
            num_attention_heads=model.num_attention_heads, num_layers=model.num_layers,
            max_num_batched_tokens=max_num_batched_tokens, max_num_seqs=max_num_seqs,
            tensor_parallel_size=dep.tensor_parallel_size, dtype_bytes=elem, is_moe=model.is_moe,
            num_experts_per_tok=model.num_experts_per_tok)
        estimated.append("activation")
    else:
        activation = m.activation_bytes
    if m.non_torch_bytes is None:
        non_torch = estimates.non_torch_bytes(tensor_parallel_size=dep.tensor_parallel_size,
                                              pipeline_parallel_size=dep.pipeline_parallel_size,
                                              total_gpu_memory_bytes=dep.gpu_memory_bytes)
        estimated.append("non_torch")
    else:
        non_torch = m.non_torch_bytes
    if not dep.rules.subtract_cudagraphs or dep.enforce_eager:
        cudagraph = 0  # older releases did not subtract graph memory; eager mode captures none
    elif m.cudagraph_bytes is None:
        cudagraph = estimates.cudagraph_bytes(num_layers=model.num_layers // dep.pipeline_parallel_size,
                                              hidden_size=model.hidden_size, max_num_seqs=max_num_seqs,
                                              tensor_parallel_size=dep.tensor_parallel_size,
                                              enforce_eager=dep.enforce_eager, dtype_bytes=elem)
        estimated.append("cudagraph")
    else:
        cudagraph = m.cudagraph_bytes
    available = requested - weights - activation - non_torch - cudagraph
    return MemoryBudget(source=BudgetSource.PROFILED, total_bytes=dep.gpu_memory_bytes, gpu_memory_utilization=util,
                        requested_bytes=requested, weights_bytes=weights, activation_bytes=activation,
                        non_torch_bytes=non_torch, cudagraph_bytes=cudagraph, estimated=tuple(estimated),
                        available_kv_bytes=available)
