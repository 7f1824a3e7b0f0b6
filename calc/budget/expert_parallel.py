"""``--data-parallel-size`` and ``--enable-expert-parallel``: how many of a MoE's routed experts one
GPU holds.

Read from vLLM's source at the v0.9.0 … v0.25.1 tags (a public fork carrying upstream's tags) and
main:

* vllm/model_executor/layers/fused_moe/layer.py (config.py from v0.10.0)
  ``FusedMoEParallelConfig.make`` (#15956, first in v0.9.0): ``flatten_tp_across_dp`` makes the MoE
  layers' group ``dp_size × tp_size`` ranks wide. Without ``--enable-expert-parallel`` every expert
  is split by tensor parallelism over all of them ("There are 2 engine instances and the tensors are
  sharded across 4 devices"); with it ``ep_size`` is that width and ``tp_size`` 1: "each device owns
  a set of experts fully".
* the same file's ``determine_expert_map``: ``global_num_experts // ep_size`` experts per rank; from
  #21497 (v0.10.1) the first ``global_num_experts % ep_size`` ranks hold one more, before it the
  last rank held the whole remainder. The budget is that of the most loaded GPU.
* Everything else (attention, shared experts, dense MLPs, embeddings, norms, routers) is built on
  the attention's TP group: replicated on every DP rank and split over TP only. Each DP rank is its
  own engine with its own KV cache, sized and checked per GPU as without DP (vllm/v1/engine/core.py
  ``DPEngineCoreProc``).

Left out: the all-to-all buffers of the expert-parallel kernels (DeepEP, pplx; outside PyTorch's
pool) and EPLB's redundant experts (``--enable-eplb``, not an input here).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..arch.model import ModelSpec
from ..versions import RuleSet

__all__ = ["MoeSplit", "moe_split", "local_num_experts"]


@dataclass(frozen=True, kw_only=True)
class MoeSplit:
    """How the routed experts of one MoE layer are dealt over the GPUs of a DP × TP deployment."""

    ranks: int
    """The MoE group's width: data parallel size × tensor parallel size."""
    expert_parallel: bool
    """Whole experts per rank (``--enable-expert-parallel``); False: each expert split over
    ``ranks``."""
    local_experts: int
    """Experts the most loaded GPU holds (whole with EP; every expert, as a 1 / ``ranks`` slice,
    without)."""
    num_experts: int
    """The model's routed experts per MoE layer."""

    def share_bytes(self, expert_bytes: int) -> int:
        """The most loaded GPU's share of ``expert_bytes`` (every routed expert)."""
        if self.expert_parallel:
            return expert_bytes * self.local_experts // max(1, self.num_experts)
        return expert_bytes // self.ranks


def local_num_experts(num_experts: int, ep_size: int, *, balanced: bool) -> int:
    """The most loaded EP rank's experts (``determine_expert_map``; module docstring)."""
    base = num_experts // ep_size
    if balanced:
        return base + (1 if num_experts % ep_size else 0)
    return num_experts - (ep_size - 1) * base


def moe_split(
    model: ModelSpec,
    *,
    tensor_parallel_size: int,
    data_parallel_size: int,
    expert_parallel: bool,
    rules: RuleSet,
) -> MoeSplit | None:
    """None when DP and EP change nothing a GPU holds (no MoE, or DP 1 without EP: the TP share)."""
    if (
        not model.is_moe
        or model.num_experts <= 0
        or (data_parallel_size == 1 and not expert_parallel)
    ):
        return None
    ranks = max(1, tensor_parallel_size) * max(1, data_parallel_size)
    use_ep = (
        expert_parallel and ranks > 1
    )  # "use_ep = dp_size_ * tp_size_ > 1 and enable_expert_parallel"
    local = (
        local_num_experts(model.num_experts, ranks, balanced=rules.balanced_expert_map)
        if use_ep
        else model.num_experts
    )
    return MoeSplit(
        ranks=ranks, expert_parallel=use_ep, local_experts=local, num_experts=model.num_experts
    )
