"""What one GPU holds of the vision encoder's block transient under tensor parallelism.

vLLM shards the vision tower over the TP ranks by default (``--mm-encoder-tp-mode`` "weights",
vllm/config/multimodal.py; "data", which replicates the tower, is not modelled here): every rank
runs the whole dummy batch through its own share of each block. What that share splits, and what
stays whole, is read from the model files (``Qwen2VisionAttention``/``Qwen2_5_VisionAttention`` in
qwen2_vl.py and qwen2_5_vl.py, which Qwen3-VL reuses; ``SiglipAttention`` in siglip.py;
``PixtralHFAttention`` in pixtral.py; tags v0.10.2, v0.11.0, v0.11.2, v0.13.0, v0.19.0):

* split by TP: the ``QKVParallelLinear`` output (heads per partition), the per-head q, k, v copies,
  the rotary work and the attention output before the projection; the MLP's ``ColumnParallelLinear``
  (or merged gate/up) output and its activation.
* whole on every rank: the residual stream and the norm outputs the block keeps alive, the
  ``RowParallelLinear`` outputs (attention projection, MLP down projection) and the result of their
  all-reduce, which vLLM makes out of place
  (vllm/distributed/device_communicators/cuda_communicator.py ``all_reduce``: custom, pynccl and
  symmetric-memory paths all return a new tensor); the pixel values, patch and position embeddings
  and the merger outputs sit outside the block and are whole too.
* the Qwen ViTs' ``split_qkv`` first all-gathers the qkv projection to its full width on every rank
  (``all_gather_interleave`` / ``tensor_model_parallel_all_gather``: a gathered buffer plus the
  interleaved or moved copy, 2 × 3 widths) and only then takes this rank's heads. #28271 removed
  that gather from both files (first in v0.11.1); qwen2_vl.py has it again from v0.13.0
  (v0.13.0–v0.25.1 tags).

The TP-1 tally (``units_tp1`` widths per patch, calc/budget/estimates.py) is the block's largest
moment; its first 2 widths are the residual and the norm output. Under TP ``t`` the largest moment
is one of:
  * the split work:          2 + (U − 2) / t
  * the projection:          4 + (U − 3) / t  (residual, norm, projection output and its all-reduce
                                              result
                                               whole; the TP-1 projection moment holds 3 whole
                                               widths, so at most U − 3 widths of split tensors are
                                               alive beside them)
  * the qkv all-gather:      8 + 3 / t        (residual, norm, gathered and copied qkv whole; local
                                              qkv split)
and the MLP's: max(2 + k·I / t, 4 + I / t) (k = 2, or 3 with a SiLU gate; I in widths).
"""

from __future__ import annotations

from ..versions import RuleSet

__all__ = ["qkv_all_gather", "attention_units", "mlp_units"]

_QWEN2_VL = ("qwen2_vl",)
_QWEN_VL_SHARED_ATTENTION = ("qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe")


def qkv_all_gather(family: str, rules: RuleSet) -> bool:
    """Whether the family's ViT attention all-gathers the qkv projection on every TP rank in this
    release: until #28271 (0.11.1) every Qwen ViT does; qwen2_vl.py ``split_qkv`` gathers again from
    the v0.13.0 tag (and every later tag read, to v0.25.1), qwen2_5_vl.py does not."""
    if family in _QWEN2_VL:
        return rules.qwen2_vl_gathers_qkv
    if family in _QWEN_VL_SHARED_ATTENTION:
        return rules.qwen_vit_gathers_qkv
    return False  # SigLIP (Gemma 3) and Pixtral (Mistral 3): heads split, no gather


def attention_units(units_tp1: int, tensor_parallel_size: int, *, all_gather: bool) -> float:
    """Widths per patch one rank holds at the attention's largest moment (module docstring)."""
    t = max(1, tensor_parallel_size)
    if t == 1:
        return float(units_tp1)
    units = max(2 + (units_tp1 - 2) / t, 4 + (units_tp1 - 3) / t)
    return max(units, 8 + 3 / t) if all_gather else units


def mlp_units(intermediate_widths: float, tensor_parallel_size: int, *, gated: bool) -> float:
    """Widths per patch one rank holds at the MLP's largest moment: the up projection and its
    activation (split), or at TP > 1 the down projection's output and its all-reduce result (whole)
    beside the activation."""
    t = max(1, tensor_parallel_size)
    up = 2 + (3 if gated else 2) * intermediate_widths / t
    return up if t == 1 else max(up, 4 + intermediate_widths / t)
