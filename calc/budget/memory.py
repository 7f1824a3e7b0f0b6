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
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from ..arch import tower_skip
from ..arch.model import ModelSpec
from ..deployment import INTERCONNECTS, Deployment, batch_defaults, unified_memory
from ..errors import CalcError
from ..kv.backends import compute_capability, gpu_major
from ..versions import RuleSet
from . import encoder_tp, estimates, weight_share
from .expert_parallel import moe_split
from .lora import lora_slot_bytes

__all__ = [
    "BudgetSource",
    "MemoryBudget",
    "capture_ceiling",
    "weight_bytes",
    "mxfp4_expert_bytes",
    "requested_bytes",
    "memory_budget",
    "encoder_profile_known",
    "encoder_profile",
    "tower_loaded",
    "ASSUMED_INTERCONNECT",
    "interconnect_assumed",
    "draft_weights_estimate",
    "lora_estimate",
]

_ELEMENT_BYTES = (
    2  # the model is served in 16 bits (model.py maps a float32 checkpoint to bfloat16)
)


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
    """Where the available KV memory comes from: estimated, measured or a fixed budget."""
    total_bytes: int | None
    """What vLLM sees as the GPU's total (CUDA's figure; estimated from an ``nvidia-smi`` catalog
    total)."""
    gpu_memory_utilization: float
    """The fraction of the total vLLM may use (the flag, or the release's default)."""
    requested_bytes: int | None
    """``ceil(total × utilization)``; what vLLM may use on this GPU."""
    weights_bytes: int
    """The model weights one GPU holds after loading, with what loading adds."""
    activation_bytes: int
    """The profile run's peak of PyTorch memory beyond the weights."""
    non_torch_bytes: int
    """Memory outside PyTorch's allocator: CUDA context, NCCL buffers (host memory on GB10)."""
    cudagraph_bytes: int
    """What capturing CUDA graphs takes (0 with ``--enforce-eager``)."""
    estimated: tuple[str, ...]
    """Which of total/weights/activation/non_torch/cudagraph are our estimates."""
    available_kv_bytes: int
    """``A``: may be ≤ 0 (then vLLM says "No available memory for the cache blocks")."""
    available_kv_bytes_low: int
    """The band's pessimistic edge: every estimated cost at its high end (= ``available_kv_bytes``
    when nothing is estimated)."""
    available_kv_bytes_high: int
    """The band's optimistic edge: every estimated cost at its low end."""
    encoder_profile: str = "none"
    """The multimodal encoder's profiling run in the estimated activation: ``none`` (text-only model
    or a measured activation), ``estimated`` (sized from the model's largest item), ``unknown`` (V0,
    or its largest item is not known here: left out of the central figure, the band's pessimistic
    edge widened), ``skipped`` (``--skip-mm-profiling``) or ``disabled`` (every modality limited to
    0): vLLM runs no encoder at start-up."""
    draft_weights_bytes: int = 0
    """Of ``weights_bytes``: the MTP layers ``--speculative-config`` loads (estimated;
    kvcalc.speculative)."""
    lora_bytes: int = 0
    """Of ``weights_bytes``: the LoRA adapter slots ``--enable-lora`` allocates (kvcalc.lora)."""

    @property
    def is_profiled_or_measured(self) -> bool:
        """vLLM profiled memory (it logs "Available KV cache memory"), rather than taking a fixed
        budget."""
        return self.source != BudgetSource.KV_CACHE_MEMORY_BYTES

    @property
    def has_band(self) -> bool:
        return self.available_kv_bytes_low != self.available_kv_bytes_high

    @property
    def weights_exceed_gpu(self) -> bool:
        """The weights (and the CUDA context) alone are larger than the GPU: loading them runs out
        of memory."""
        return (
            self.source == BudgetSource.PROFILED
            and self.total_bytes is not None
            and self.weights_bytes + self.non_torch_bytes > self.total_bytes
        )

    @property
    def non_kv_bytes(self) -> int:
        return (
            self.weights_bytes + self.activation_bytes + self.non_torch_bytes + self.cudagraph_bytes
        )

    @property
    def headroom_bytes(self) -> int:
        """Memory outside vLLM's share (total − requested)."""
        if self.total_bytes is None or self.requested_bytes is None:
            return 0
        return self.total_bytes - self.requested_bytes

    def at_edge(self, edge: str) -> MemoryBudget:
        """This budget with its available memory moved to the band's ``low``/``high`` edge
        (``central``: itself)."""
        value = {"low": self.available_kv_bytes_low, "high": self.available_kv_bytes_high}.get(edge)
        return self if value is None else replace(self, available_kv_bytes=value)


def _embedding_parameters(model: ModelSpec) -> int:
    """Input embedding plus the output projection unless tied (both stay 16-bit in quantized
    checkpoints)."""
    return model.vocab_size * model.hidden_size * (1 if model.tie_word_embeddings else 2)


def mxfp4_expert_bytes(model: ModelSpec) -> int:
    """Bytes of MXFP4-packed expert weights (4-bit values, one 8-bit scale per 32)."""
    if model.quant.method != "mxfp4":
        return 0
    return int(model.num_expert_parameters * (0.5 + 1 / 32))


def weight_bytes(model: ModelSpec) -> int:
    """Checkpoint weight bytes of the whole model (what its safetensors hold).

    The exact ``metadata.total_size`` when the catalog has one; otherwise counted from
    the parameters as the checkpoint stores them: quantized linear layers at their bit
    width plus scales (AWQ/GPTQ int4: one 16-bit scale and a packed 4-bit zero point per
    group of 128; fp8 block-scaled: one fp32 scale per 128×128 block; MXFP4: one 8-bit
    scale per 32, experts only; NVFP4: one fp8 scale per 16), while embeddings (the
    output projection too unless tied), norms, routers and attention sinks stay 16-bit;
    a vision tower is counted from its config and stored in 16 bits.
    """
    if model.checkpoint_bytes:
        return model.checkpoint_bytes
    elem = _ELEMENT_BYTES
    vision = model.vision_parameters * elem
    q = model.quant
    if q.method == "none" or q.bits >= 16:
        return model.num_parameters * elem + vision
    fp4_experts = 0
    if q.experts_fp4:  # DeepSeek-V4: 4-bit experts + one 8-bit scale per 32, the rest below as fp8
        fp4_experts = model.num_expert_parameters
    if q.rest_bits and model.num_expert_parameters:
        # ModelOpt MIXED_PRECISION: experts at q.bits with one fp8 scale per group, every other
        # linear layer at rest_bits with one scale per tensor; embeddings (and norms) 16-bit
        experts = model.num_expert_parameters
        others = max(model.num_parameters - _embedding_parameters(model) - experts, 0)
        per_expert = q.bits / 8 + (1.0 / q.group_size if q.group_size else 0.0)
        rest16 = model.num_parameters - experts - others
        return int(experts * per_expert) + others * q.rest_bits // 8 + rest16 * elem + vision
    if q.experts_only:
        quantized = model.num_expert_parameters
    else:
        quantized = max(model.num_parameters - _embedding_parameters(model) - fp4_experts, 0)
    rest = model.num_parameters - quantized - fp4_experts
    per_weight = q.bits / 8
    if q.group_size:
        if q.method == "mxfp4":
            scale_bytes = 1.0
        elif q.method == "nvfp4":
            scale_bytes = 1.0  # fp8 (e4m3) block scale
        elif q.method == "fp8":
            scale_bytes = 4.0  # fp32 weight_scale_inv per block
        else:
            scale_bytes = 2.0
        zero_bytes = q.bits / 8 if q.method in ("awq", "gptq") else 0
        per_weight += (scale_bytes + zero_bytes) / q.group_size
    return int(quantized * per_weight) + int(fp4_experts * (0.5 + 1 / 32)) + rest * elem + vision


def expert_weight_bytes(model: ModelSpec) -> int:
    """The routed experts' bytes as ``weight_bytes`` counts them (what DP × TP or EP deals out,
    kvcalc.budget.expert_parallel), never more than the checkpoint's total."""
    experts = model.num_expert_parameters
    q = model.quant
    if not experts:
        return 0
    if q.method == "none" or q.bits >= 16:
        counted = experts * _ELEMENT_BYTES
    elif q.method == "mxfp4" or q.experts_fp4:
        counted = int(experts * (0.5 + 1 / 32))
    else:
        per_weight = q.bits / 8
        if q.group_size:
            scale = {"mxfp4": 1.0, "nvfp4": 1.0, "fp8": 4.0}.get(q.method, 2.0)
            zero = q.bits / 8 if q.method in ("awq", "gptq") else 0
            per_weight += (scale + zero) / q.group_size
        counted = int(experts * per_weight)
    return min(counted, weight_bytes(model))


def requested_bytes(total: int, utilization: float, *, ceil: bool) -> int:
    """vllm/v1/worker/utils.py request_memory: ceil since 2026-01-07, plain product before."""
    product = total * utilization
    return math.ceil(product) if ceil else int(product)


def _measured_or(
    value: int | None, estimate: Callable[[], estimates.Estimate], name: str, estimated: list[str]
) -> estimates.Estimate:
    if value is not None:
        return estimates.Estimate.exact(value)
    estimated.append(name)
    return estimate()


def memory_budget(
    model: ModelSpec, dep: Deployment, *, max_num_batched_tokens: int, max_num_seqs: int
) -> MemoryBudget:
    """The budget of the most loaded GPU (PP stages are assumed balanced), with its band.

    Returned at the deployment's ``budget_edge``: ``central`` (the estimate), or ``low``
    (the band's pessimistic edge, which the advice plans its what-ifs on).
    """
    budget = _budget_of(model, _budget_key(model, dep), max_num_batched_tokens, max_num_seqs)
    return budget.at_edge(dep.budget_edge)


def _budget_key(model: ModelSpec, dep: Deployment) -> Deployment:
    """``dep`` less what the budget does not read, so that the advice's what-ifs and the reader's
    next edit of ``max_model_len`` find the budget already made: the edge (applied after), and the
    length, which only V0's profile run and an encoder's profiled items read."""
    length_unread = (
        dep.max_model_len is not None and not dep.rules.v0_engine and model.vision is None
    )
    if dep.budget_edge == "central" and not length_unread:
        return dep
    length = None if length_unread else dep.max_model_len
    return replace(dep, budget_edge="central", max_model_len=length)


@lru_cache(maxsize=256)
def _budget_of(
    model: ModelSpec, dep: Deployment, max_num_batched_tokens: int, max_num_seqs: int
) -> MemoryBudget:
    return _memory_budget(
        model, dep, max_num_batched_tokens=max_num_batched_tokens, max_num_seqs=max_num_seqs
    )


def _given_budget(dep: Deployment, util: float) -> MemoryBudget | None:
    """A fixed ``--kv-cache-memory-bytes`` or a measured "Available KV cache memory": nothing to
    estimate."""
    if dep.kv_cache_memory_bytes is not None:
        source, kv = BudgetSource.KV_CACHE_MEMORY_BYTES, dep.kv_cache_memory_bytes
    elif dep.measured.available_kv_bytes is not None:
        source, kv = BudgetSource.MEASURED, dep.measured.available_kv_bytes
    else:
        return None
    return MemoryBudget(
        source=source,
        total_bytes=dep.gpu_memory_bytes,
        gpu_memory_utilization=util,
        requested_bytes=None,
        weights_bytes=0,
        activation_bytes=0,
        non_torch_bytes=0,
        cudagraph_bytes=0,
        estimated=(),
        available_kv_bytes=kv,
        available_kv_bytes_low=kv,
        available_kv_bytes_high=kv,
    )


def _weights_estimate(
    model: ModelSpec, dep: Deployment, max_num_batched_tokens: int
) -> estimates.Estimate:
    """One GPU's loaded weights with their band: its TP × PP share of the checkpoint (what TP leaves
    whole counted on every rank: weight_share.py), what vLLM allocates beyond it (rotary caches,
    vocabulary padding, the allocator's remainders: weight_share.load_extra_bytes) and the buffers
    the model allocates while loading. In vLLM's text-only mode (``tower_loaded`` False) the tower's
    bytes are left out of the checkpoint.

    vllm/model_executor/models/utils.py maybe_offload_to_cpu: up to ``--cpu-offload-gb``
    stays on the host, at every edge of the band alike.
    """
    tp, pp = dep.tensor_parallel_size, dep.pipeline_parallel_size
    experts = mxfp4_expert_bytes(model)
    split = moe_split(
        model,
        tensor_parallel_size=tp,
        data_parallel_size=dep.data_parallel_size,
        expert_parallel=dep.enable_expert_parallel,
        rules=dep.rules,
    )
    padding = 1.0
    if experts:
        kernel = estimates.mxfp4_kernel(
            gpu_major(dep), bundled_triton_kernels=dep.rules.bundled_triton_kernels
        )
        moe_tp = tp if split is None else (1 if split.expert_parallel else split.ranks)
        inter = (model.moe_intermediate_size or model.intermediate_size) // max(1, moe_tp)
        padding = estimates.mxfp4_padding_factor(
            kernel, hidden_size=model.hidden_size, intermediate_per_partition=inter
        )
    loaded = tower_loaded(model, dep)
    checkpoint = weight_bytes(model) - (0 if loaded else weight_share.unloaded_tower_bytes(model))
    replicated = weight_share.replicated_bytes(model, tower_loaded=loaded)
    if split is None:
        share = weight_share.share_bytes(
            checkpoint, replicated, tensor_parallel_size=tp, pipeline_parallel_size=pp
        )
        local_mxfp4 = experts // max(1, tp * pp)
    else:  # routed experts over the DP × TP MoE group, the rest over TP (expert_parallel.py)
        routed = expert_weight_bytes(model)
        rest = weight_share.share_bytes(
            checkpoint - routed, replicated, tensor_parallel_size=tp, pipeline_parallel_size=pp
        )
        share = rest + split.share_bytes(routed) // max(1, pp)
        local_mxfp4 = split.share_bytes(experts) // max(1, pp)
    extra = weight_share.load_extra_bytes(model, tensor_parallel_size=tp, pipeline_parallel_size=pp)
    mine = estimates.weights_estimate(
        share,
        exact=bool(model.checkpoint_bytes),
        extra_bytes=extra,
        mxfp4_expert_bytes=local_mxfp4,
        mxfp4_padding=padding,
    )
    buffers = weight_share.load_buffer_bytes(
        model, rules=dep.rules, max_num_batched_tokens=max_num_batched_tokens, tower_loaded=loaded
    )
    off = dep.cpu_offload_bytes
    return estimates.Estimate(
        bytes=max(mine.bytes + buffers - off, 0),
        low_bytes=max(mine.low_bytes + buffers - off, 0),
        high_bytes=max(mine.high_bytes + buffers - off, 0),
    )


_MTP_BAND = (
    0.15,
    0.15,
)  # one decoder layer counted from the config, at the model's mean bytes per parameter
_LORA_BAND = (
    0.0,
    0.05,
)  # exact tensor shapes; the caching allocator's rounding on top, not checked on a log
# (also an EAGLE-3 drafter's counted tensors)


def draft_weights_estimate(model: ModelSpec, dep: Deployment) -> estimates.Estimate:
    """One GPU's share of the MTP layers ``--speculative-config`` method mtp loads
    (vllm/v1/spec_decode/eagle.py ``load_model``; embedding and LM head shared with the target), at
    the checkpoint's mean bytes per non-embedding parameter, divided by TP. A catalog checkpoint
    total (``checkpoint_bytes``) already holds the MTP tensors vLLM skips without speculative
    decoding, so nothing is added to the central figure then; the band's pessimistic edge keeps the
    layers' bytes in case the total leaves them out."""
    spec = dep.speculative
    if spec is not None and spec.method == "eagle3":  # tensor shapes, counted (kvcalc.kv.eagle3)
        return estimates.Estimate.relative(spec.draft_weight_bytes, *_LORA_BAND)
    if spec is None or spec.method != "mtp" or not model.num_mtp_layers:
        return estimates.Estimate.exact(0)
    embed = _embedding_parameters(model)
    body_params = max(model.num_parameters - embed, 1)
    per_param = max(weight_bytes(model) - embed * _ELEMENT_BYTES, 0) / body_params
    mtp = int(model.num_mtp_layers * model.mtp_layer_parameters * per_param) // max(
        1, dep.tensor_parallel_size
    )
    if model.checkpoint_bytes:
        return estimates.Estimate(bytes=0, low_bytes=0, high_bytes=mtp)
    return estimates.Estimate.relative(mtp, *_MTP_BAND)


def lora_estimate(model: ModelSpec, dep: Deployment) -> estimates.Estimate:
    """The adapter slots (kvcalc.lora), allocated while the model loads: part of "Model loading
    took"."""
    if dep.lora is None:
        return estimates.Estimate.exact(0)
    slots = lora_slot_bytes(
        model, dep.lora, dep.rules, tensor_parallel_size=dep.tensor_parallel_size
    )
    return estimates.Estimate.relative(slots, *_LORA_BAND)


def _with_loaded_extras(
    base: estimates.Estimate, *extras: estimates.Estimate
) -> estimates.Estimate:
    return estimates.Estimate(
        bytes=base.bytes + sum(e.bytes for e in extras),
        low_bytes=base.low_bytes + sum(e.low_bytes for e in extras),
        high_bytes=base.high_bytes + sum(e.high_bytes for e in extras),
    )


def _activation_estimate(
    model: ModelSpec, dep: Deployment, max_num_batched_tokens: int, max_num_seqs: int
) -> estimates.Estimate:
    """The profile run's peak: V1 runs ``max_num_batched_tokens``; V0 its own scheduler budget."""
    v0 = dep.rules.v0_engine
    if v0:
        length = (
            dep.max_model_len
            if dep.max_model_len and dep.max_model_len > 0
            else model.derived_max_model_len
        )
        tokens = estimates.v0_profile_tokens(
            max_model_len=length,
            max_num_batched_tokens=dep.max_num_batched_tokens,
            enable_chunked_prefill=dep.enable_chunked_prefill,
        )
        seqs = dep.max_num_seqs or estimates.V0_DEFAULT_MAX_NUM_SEQS
    else:
        tokens, seqs = max_num_batched_tokens, max_num_seqs
    base = estimates.activation_estimate(
        hidden_size=model.hidden_size,
        intermediate_size=model.moe_intermediate_size or model.intermediate_size,
        vocab_size=model.vocab_size,
        num_attention_heads=model.num_attention_heads,
        num_layers=model.num_layers,
        max_num_batched_tokens=tokens,
        max_num_seqs=seqs,
        tensor_parallel_size=dep.tensor_parallel_size,
        dtype_bytes=_ELEMENT_BYTES,
        is_moe=model.is_moe,
        num_experts_per_tok=model.num_experts_per_tok,
        v0_engine=v0,
        sampler_sorts=dep.rules.sampler_sorts_vocabulary,
    )
    return _with_encoder(model, dep, base, tokens, seqs)


# Release rules of the encoder profiling run (RuleSet, data/vllm_releases.json): kept outputs padded
# to the whole budget (0.11.x) or to the item's counted size (0.12.0), Qwen3-VL video tokens counted
# as 12.5 (0.11.0 to 0.12.x), the fused rotary op of the Qwen ViTs (0.13.0), floor division of the
# items (0.10.1).


def _disabled_modalities(dep: Deployment) -> frozenset[str]:
    """Modalities the reader limited to 0 (``--limit-mm-per-prompt``): left out of vLLM's profile
    run."""
    return frozenset(modality for modality, count in dep.limit_mm_per_prompt if count <= 0)


def tower_loaded(model: ModelSpec, dep: Deployment) -> bool:
    """Whether vLLM builds the vision tower: not when every modality it takes is limited to 0 in a
    release whose model file skips it then (kvcalc.tower_skip)."""
    vision = model.vision
    return vision is None or not tower_skip.tower_skipped(
        vision.family,
        dep.rules.version,
        modalities=estimates.encoder_modalities(vision.family),
        disabled=_disabled_modalities(dep),
    )


def encoder_profile(model: ModelSpec, dep: Deployment) -> str:
    """What the estimated activation does with the multimodal encoder's profiling run
    (``MemoryBudget.encoder_profile``).

    ``none``: no vision encoder. ``unknown``: V0 (its profile run puts the dummy images inside its
    dummy sequences, vllm/multimodal/profiling.py, not modelled) or a largest item not known here.
    ``skipped``: ``--skip-mm-profiling`` (gpu_model_runner.py ``profile_run``, 0.10.1 on: "Skipping
    memory profiling for multimodal encoder and encoder cache"). ``disabled``: every modality of the
    encoder limited to 0 (vLLM's encoder budget is then 0, "Encoder cache will not be initialized",
    and no encoder runs). ``estimated``: sized from the model's largest item.
    """
    vision = model.vision
    if vision is None:
        return "none"
    modalities = estimates.encoder_modalities(vision.family)
    if modalities is not None and set(modalities) <= _disabled_modalities(dep):
        return (
            "disabled"  # V0 too: its dummy sequences then carry no multimodal data (mm_counts of 0)
        )
    if dep.rules.v0_engine:
        return "unknown"
    if dep.skip_mm_profiling:
        return "skipped"
    return (
        "estimated" if vision.hidden_size and _encoder_item(model, dep) is not None else "unknown"
    )


def encoder_profile_known(model: ModelSpec, dep: Deployment) -> bool | None:
    """None: no encoder run in the estimate (no vision encoder, skipped or disabled); True/False:
    whether its profiling run is estimated (``encoder_profile``)."""
    state = encoder_profile(model, dep)
    return None if state in ("none", "skipped", "disabled") else state == "estimated"


def _encoder_item(model: ModelSpec, dep: Deployment) -> estimates.EncoderItem | None:
    vision = model.vision
    if vision is None:
        return None
    length = (
        dep.max_model_len
        if dep.max_model_len and dep.max_model_len > 0
        else model.derived_max_model_len
    )
    return estimates.encoder_item(
        vision.family,
        patch_size=vision.patch_size,
        merge=vision.spatial_merge_size,
        image_size=vision.image_size,
        max_model_len=length,
        qwen3_video_timestamps=dep.rules.qwen3_vl_video_timestamps,
        disabled=_disabled_modalities(dep),
    )


def _kept_rows(item: estimates.EncoderItem, budget: int, rules: RuleSet) -> int:
    """Rows each kept encoder output takes in the encoder cache during the profile run (release
    rules above)."""
    if rules.encoder_outputs_padded_to_budget:
        return max(item.tokens, budget)
    if rules.encoder_outputs_padded_to_item:
        return max(item.tokens, item.counted)
    return item.tokens


def _held_with_the_cache(
    *,
    items: int,
    item: estimates.EncoderItem,
    padded_rows: int,
    row_bytes: int,
    rules: RuleSet,
    patch_values: int,
) -> int:
    """What ``profile_run`` still holds beside the encoder cache through the decoder run and the
    sampler warm-up (vllm/v1/worker/gpu_model_runner.py, tags v0.8.0, v0.10.2, v0.11.0, v0.12.0,
    v0.13.0, v0.19.0):

    * ``batched_dummy_mm_inputs``, a local until the function returns: the dummy pixel values on the
      GPU, in the model dtype from 0.9.1 (fp32 as the processor returns them before);
    * in the padding releases (0.11.x, 0.12.0), the loop ``for output in dummy_encoder_outputs``
      leaves ``output`` bound to the last unpadded output until ``output =
      self._dummy_sampler_run(...)`` returns; it is a ``split`` view (qwen3_vl.py, gemma3_mm.py,
      mistral3.py), so the whole batch's output stays.
    Both are whole on every TP rank (each rank gets every input; the outputs are all-reduced).
    """
    # #18862 (0.9.1) casts the processor's pixel values to the model dtype; fp32 before
    pixel_bytes = _ELEMENT_BYTES if rules.mm_inputs_in_model_dtype else 4
    held = items * item.patches * patch_values * pixel_bytes
    if padded_rows > item.tokens:  # only the padding releases keep more rows than the item has
        held += items * item.tokens * row_bytes
    return held


def _with_encoder(
    model: ModelSpec, dep: Deployment, base: estimates.Estimate, tokens: int, seqs: int
) -> estimates.Estimate:
    """V1's multimodal profile run (estimates.py): the encoder's dummy batch, then its outputs kept
    in the encoder cache through the decoder run and the sampler warm-up. Under TP each rank runs
    the whole batch through its share of the ViT (``--mm-encoder-tp-mode`` "weights", the default):
    encoder_tp.py says what is split and what stays whole; the kept outputs (all-reduced) are whole
    on every rank."""
    known = encoder_profile_known(model, dep)
    if known is None:
        # no encoder, or vLLM profiles without it (--skip-mm-profiling, every modality limited to 0)
        return base
    item, vision = _encoder_item(model, dep), model.vision
    if not known or item is None or vision is None:
        return estimates.widen_for_unknown_encoder(base)
    length = (
        dep.max_model_len
        if dep.max_model_len and dep.max_model_len > 0
        else model.derived_max_model_len
    )
    rules = dep.rules
    budget, items = estimates.mm_items_per_batch(
        tokens_per_item=item.counted,
        max_num_batched_tokens=tokens,
        max_num_seqs=seqs,
        max_model_len=length,
        limit_per_prompt=dep.mm_limit(item.modality),
        round_up=not rules.encoder_items_floor,
    )
    row_bytes = model.hidden_size * (1 + vision.deepstack_layers) * _ELEMENT_BYTES
    padded = _kept_rows(item, budget, rules)
    kept = items * padded * row_bytes + _held_with_the_cache(
        items=items,
        item=item,
        padded_rows=padded,
        row_bytes=row_bytes,
        rules=rules,
        patch_values=vision.in_channels * vision.temporal_patch_size * vision.patch_size**2,
    )
    run = estimates.encoder_run_bytes(
        patches=items * item.patches,
        width=vision.hidden_size,
        intermediate=vision.intermediate_size,
        gated_mlp=vision.gated_mlp,
        rotary=vision.family != "gemma3",
        fused_rotary=vision.family.startswith("qwen") and rules.fused_qwen_vit_rotary,
        patch_values=vision.in_channels * vision.temporal_patch_size * vision.patch_size**2,
        dtype_bytes=_ELEMENT_BYTES,
        tensor_parallel_size=dep.tensor_parallel_size,
        qkv_all_gather=encoder_tp.qkv_all_gather(vision.family, rules),
    )
    return estimates.combine_encoder(base, encoder_run=run, kept_outputs=kept)


def _non_torch_estimate(dep: Deployment, total_bytes: int) -> estimates.Estimate:
    # A100 comes as SXM (NVLink) and PCIe boards: its band spans both. A reader's --interconnect
    # decides.
    nvlink: bool | None = (
        None
        if dep.gpu_id in ("A100-40GB", "A100-80GB")
        else (dep.gpu_id in estimates.NVLINK_GPU_IDS if dep.gpu_id else None)
    )
    if dep.interconnect != "unknown":
        nvlink = dep.interconnect == "nvswitch"
    base = estimates.non_torch_estimate(
        tensor_parallel_size=dep.tensor_parallel_size,
        pipeline_parallel_size=dep.pipeline_parallel_size,
        total_gpu_memory_bytes=total_bytes,
        nvlink=nvlink,
        v0_engine=dep.rules.v0_engine,
        nccl_in_baseline=dep.rules.nccl_in_baseline,
    )
    if not (unified_memory(dep) and dep.rules.uma_free_is_host_available):
        return base
    # unified memory, 0.11.1 on (#26098): what the host takes during start-up is non-torch memory
    # (estimates.py)
    uma = estimates.unified_memory_estimate()
    return estimates.Estimate(
        bytes=base.bytes + uma.bytes,
        low_bytes=base.low_bytes + uma.low_bytes,
        high_bytes=base.high_bytes + uma.high_bytes,
    )


def _cudagraph_estimate(
    model: ModelSpec, dep: Deployment, max_num_batched_tokens: int, max_num_seqs: int
) -> estimates.Estimate:
    return estimates.cudagraph_estimate(
        num_layers=model.num_layers // dep.pipeline_parallel_size,
        hidden_size=model.hidden_size,
        max_num_seqs=max_num_seqs,
        tensor_parallel_size=dep.tensor_parallel_size,
        enforce_eager=dep.enforce_eager,
        dtype_bytes=_ELEMENT_BYTES,
        is_moe=model.is_moe,
        max_num_batched_tokens=max_num_batched_tokens,
        capture_ceiling=capture_ceiling(dep),
    )


def capture_ceiling(dep: Deployment) -> int:
    """The largest default CUDA-graph capture size: 1024 on compute capability 10.x from 0.28.0
    (#49390), else 512 (vllm/config/vllm.py ``_set_cudagraph_sizes``)."""
    cc = compute_capability(dep)
    return 1024 if dep.rules.capture_1024_on_sm100 and cc is not None and cc[0] == 10 else 512


ASSUMED_INTERCONNECT = "nvswitch"
"""The central figure's interconnect for a GPU given by its memory only: NVSwitch-class buffers are
the largest non-torch figure (2.08 GiB at TP 2 against 0.09 GiB over PCIe), so the central estimate
does not promise the memory a PCIe machine would leave."""


def interconnect_assumed(dep: Deployment) -> str | None:
    """The interconnect the budget assumed (``ASSUMED_INTERCONNECT``) when the reader gave neither a
    catalog GPU nor ``--interconnect``; None when it is known (a catalog GPU knows its own; GB10 is
    unified)."""
    if dep.interconnect != "unknown" or dep.gpu_id is not None or unified_memory(dep):
        return None
    return ASSUMED_INTERCONNECT


def _memory_budget(
    model: ModelSpec, dep: Deployment, *, max_num_batched_tokens: int, max_num_seqs: int
) -> MemoryBudget:
    """The budget; a GPU of unknown interconnect is estimated as ``ASSUMED_INTERCONNECT`` with a
    band that also covers the central figure of each other interconnect (each computed as if the
    reader had given it)."""
    assumed = interconnect_assumed(dep)
    if (
        assumed is None
        or dep.gpu_memory_bytes is None
        or _given_budget(dep, dep.effective_utilization) is not None
    ):
        return _known_interconnect_budget(
            model, dep, max_num_batched_tokens=max_num_batched_tokens, max_num_seqs=max_num_seqs
        )
    central = _known_interconnect_budget(
        model,
        replace(dep, interconnect=assumed),
        max_num_batched_tokens=max_num_batched_tokens,
        max_num_seqs=max_num_seqs,
    )
    if not central.estimated:
        return central
    figures = [central.available_kv_bytes]
    for other in INTERCONNECTS:
        if other in ("unknown", assumed):
            continue
        alt = replace(dep, interconnect=other)
        # the caller sized the batch from vLLM's defaults for this GPU; unified memory has its own
        # (batch_defaults)
        tokens, seqs = (
            batch_defaults(alt)
            if batch_defaults(dep) == (max_num_batched_tokens, max_num_seqs)
            else (max_num_batched_tokens, max_num_seqs)
        )
        figures.append(
            _known_interconnect_budget(
                model, alt, max_num_batched_tokens=tokens, max_num_seqs=seqs
            ).available_kv_bytes
        )
    return replace(
        central,
        available_kv_bytes_low=min(central.available_kv_bytes_low, *figures),
        available_kv_bytes_high=max(central.available_kv_bytes_high, *figures),
    )


def _known_interconnect_budget(
    model: ModelSpec, dep: Deployment, *, max_num_batched_tokens: int, max_num_seqs: int
) -> MemoryBudget:
    util = dep.effective_utilization
    given = _given_budget(dep, util)
    if given is not None:
        return given
    if dep.gpu_memory_bytes is None:
        raise CalcError(
            "missing_gpu",
            "give a GPU (--gpu) or its memory (--gpu-memory-gib), or the measured "
            "--available-kv-gib",
            field="gpu",
        )
    m, rules = dep.measured, dep.rules
    estimated: list[str] = []
    total = estimates.cuda_visible_total(dep.gpu_memory_bytes, dep.gpu_memory_source)
    if total.low_bytes != total.high_bytes:
        estimated.append("total")
    # the drafter and the LoRA slots load inside "Model loading took" (a measured figure already
    # holds them)
    draft = (
        draft_weights_estimate(model, dep)
        if m.weights_bytes is None
        else estimates.Estimate.exact(0)
    )
    lora = lora_estimate(model, dep) if m.weights_bytes is None else estimates.Estimate.exact(0)
    weights = _measured_or(
        m.weights_bytes,
        lambda: _with_loaded_extras(
            _weights_estimate(model, dep, max_num_batched_tokens), draft, lora
        ),
        "weights",
        estimated,
    )
    activation = _measured_or(
        m.activation_bytes,
        lambda: _activation_estimate(model, dep, max_num_batched_tokens, max_num_seqs),
        "activation",
        estimated,
    )
    non_torch = _measured_or(
        m.non_torch_bytes, lambda: _non_torch_estimate(dep, total.bytes), "non_torch", estimated
    )
    if rules.v0_engine or not rules.subtract_cudagraphs or dep.enforce_eager:
        # graphs come out of the KV budget only since 0.20.0 (#38284); eager captures none
        cudagraph = estimates.Estimate.exact(0)
    else:
        cudagraph = _measured_or(
            m.cudagraph_bytes,
            lambda: _cudagraph_estimate(model, dep, max_num_batched_tokens, max_num_seqs),
            "cudagraph",
            estimated,
        )
    encoder = encoder_profile(model, dep) if "activation" in estimated else "none"
    costs = (weights, activation, non_torch, cudagraph)
    requested = requested_bytes(total.bytes, util, ceil=rules.request_ceil)
    available = requested - sum(c.bytes for c in costs)
    low = requested_bytes(total.low_bytes, util, ceil=rules.request_ceil) - sum(
        c.high_bytes for c in costs
    )
    high = requested_bytes(total.high_bytes, util, ceil=rules.request_ceil) - sum(
        c.low_bytes for c in costs
    )
    return MemoryBudget(
        source=BudgetSource.PROFILED,
        total_bytes=total.bytes,
        gpu_memory_utilization=util,
        requested_bytes=requested,
        weights_bytes=weights.bytes,
        activation_bytes=activation.bytes,
        non_torch_bytes=non_torch.bytes,
        cudagraph_bytes=cudagraph.bytes,
        estimated=tuple(estimated),
        available_kv_bytes=available,
        available_kv_bytes_low=min(low, available),
        available_kv_bytes_high=max(high, available),
        encoder_profile=encoder,
        draft_weights_bytes=draft.bytes,
        lora_bytes=lora.bytes,
    )
