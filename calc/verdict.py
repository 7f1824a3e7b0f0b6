"""One deployment planned the way vLLM's engine core plans it at start-up.

vllm/v1/core/kv_cache_utils.py ``get_kv_cache_configs`` (merge specs, group,
project onto workers, override, auto-fit, per-worker check, num_blocks, min over
workers) and vllm/v1/engine/core.py ``_initialize_kv_caches`` (capacity log).
"Does not fit" is a value here, never an exception; only bad input raises.

The steps, in vLLM's order: ``_planning`` resolves the engine defaults (for Mamba
hybrids the cache mode and the block-size alignment, hybrid.plan_mamba) and the
per-stage workers; ``_check_length`` validates the requested length;
``_auto_fit`` picks a length for ``--max-model-len auto``; ``_stage_plans`` runs
the per-worker check; ``_capacity`` counts blocks and concurrency for a start
that passes; ``_plan_v0`` is the engine before 0.8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache

from . import vllm_text
from .arch.model import LayerKind, ModelSpec
from .arch.window_rules import windows_for_release
from .budget.memory import MemoryBudget, memory_budget
from .deployment import Deployment, batch_defaults
from .errors import CalcError
from .kv import check
from .kv.backends import compute_capability, default_block_size, is_rocm, sparse_mla_kv_cache_dtype
from .kv.deepseek_v4 import check_v4_supported, indexer_line, packed_layout
from .kv.grouping import Grouping, get_kv_cache_groups, project_to_worker
from .kv.hybrid import MambaPlan, plan_mamba
from .kv.kv_dtypes import check_kv_dtype
from .kv.kv_spec import AttentionSpec, MambaSpec, SizingContext, UniformTypeSpec
from .kv.planner import (
    blocks_per_request,
    build_layer_specs,
    estimate_max_model_len,
    indexer_layer_name,
    kv_bytes_per_token,
    layer_name,
    mtp_layer_specs,
    num_blocks,
    pp_layer_counts,
)
from .kv.speculative import mtp_layer_kind
from .units import cdiv
from .versions import RuleSet

__all__ = ["StagePlan", "Verdict", "VerdictStatus", "plan", "plan_uncached"]

AUTO = -1
"""``--max-model-len auto`` (vLLM's ``-1``)."""


class VerdictStatus(StrEnum):
    """What vLLM does at start-up."""

    FITS = "fits"
    DOES_NOT_FIT = "does_not_fit"
    """The KV cache cannot hold one request of ``max_model_len``."""
    NO_MEMORY = "no_memory"
    """Nothing is left for the KV cache ("No available memory for the cache blocks")."""
    AUTO_FIT_FAILED = "auto_fit_failed"
    """``--max-model-len auto`` cannot fit even one token."""
    WEIGHTS_EXCEED_GPU = "weights_exceed_gpu"
    """The weights alone are larger than the GPU: CUDA runs out of memory while loading them,
    before vLLM measures anything or logs an available KV figure."""
    MAMBA_BLOCKS_BELOW_MAX_NUM_SEQS = "mamba_blocks_below_max_num_seqs"
    """A Mamba hybrid whose pool holds fewer blocks than ``max_num_seqs``: CUDA-graph capture stops
    (vllm/config/compilation.py, #32936; not with ``--enforce-eager``)."""


@dataclass(frozen=True, kw_only=True)
class StagePlan:
    """One pipeline stage (all its TP ranks are identical)."""

    stage: int
    """The stage's index, 0 first."""
    num_layers: int
    """Decoder layers the stage owns (``get_pp_indices``), cache-less ones included."""
    grouping: Grouping
    """The whole model's KV cache groups projected onto this stage's layers."""
    available_kv_bytes: int
    """After a ``num_gpu_blocks_override`` adjustment: what the blocks are counted from."""
    needed_kv_bytes: int
    """What one request of ``max_model_len`` needs here (the check's "KV cache is needed")."""
    estimated_max_model_len: int
    """The largest length whose need fits this stage's memory (vLLM's estimate)."""
    kv_bytes_per_token: int
    """KV bytes one token costs on one GPU of this stage, over all its layers."""
    num_blocks: int | None
    """Blocks this stage's memory holds; None when the start fails before they are counted."""
    reported_specs: Mapping[str, AttentionSpec] = field(
        default_factory=dict, compare=False, repr=False
    )
    """This stage's layers as vLLM's model runner reports them (before promotion / page
    unification)."""
    grouped_specs: Mapping[str, AttentionSpec] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The same layers after grouping."""
    null_block_bytes: int = 0
    """From #47272 (0.29.0) the check, its estimate and auto-fit plan against the memory less the
    one pool block BlockPool keeps as its null block (vllm/v1/core/kv_cache_utils.py
    ``check_memory``); 0 before."""
    reported_counts: check.SpecCounts | None = field(default=None, compare=False, repr=False)
    """``check.reported_layer_counts`` of the two spec maps (releases whose check sums layers,
    before 0.14): lets a caller that checks many lengths (the concurrency curve) sum a few distinct
    specs, not every layer."""

    @property
    def check_kv_bytes(self) -> int:
        """The memory vLLM's start-up check compares against (and prints as "available KV cache
        memory")."""
        return self.available_kv_bytes - self.null_block_bytes

    @property
    def fits(self) -> bool:
        return self.available_kv_bytes > 0 and self.needed_kv_bytes <= self.check_kv_bytes


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """What vLLM would do with this model and deployment."""

    model: ModelSpec
    """The model as planned (``normalize_config``'s ``ModelSpec``)."""
    deployment: Deployment
    """The serving set-up as planned, with its release rules."""
    status: VerdictStatus
    """What vLLM does at start-up: starts, fails the check, has no memory for blocks, …."""
    max_model_len: int
    """The length checked (after auto-fit)."""
    requested_max_model_len: int
    """What was asked for (-1 for auto)."""
    derived_max_model_len: int
    """The model's own maximum length (from its config), the default ``max_model_len``."""
    max_num_batched_tokens: int
    """The batched-token limit in force (the flag or vLLM's default)."""
    max_num_seqs: int
    """The sequence limit in force (the flag or vLLM's default)."""
    in_flight_tokens: int
    """Tokens a sliding or chunked layer must keep beyond its window (CONTRIBUTING.md §2.10)."""
    block_size: int
    """Tokens per block of the attention layers, after any hybrid alignment."""
    hma_enabled: bool
    """Whether the hybrid KV cache manager is on (sliding layers keep their own groups)."""
    grouping: Grouping
    """The whole model's KV cache groups."""
    budget: MemoryBudget
    """Where the GPU's memory goes, and what is left for the KV cache."""
    stages: tuple[StagePlan, ...]
    """One plan per pipeline stage."""
    limiting_stage: int
    """The stage with the fewest blocks (vLLM takes the minimum over workers)."""
    num_gpu_blocks: int | None
    """The blocks vLLM allocates (the minimum over stages); None when it does not start."""
    gpu_kv_cache_tokens: int | None
    """The "GPU KV cache size: N tokens" figure; None when it does not start."""
    max_concurrency: float | None
    """The "Maximum concurrency" figure; None when it does not start."""
    blocks_per_request: int
    """Blocks one request of ``max_model_len`` takes, over all groups (CONTRIBUTING.md §2.8)."""
    estimated_max_model_len: int
    """The largest length that fits (up to the model's derived maximum when it fits)."""
    vllm_lines: tuple[str, ...]
    """The lines vLLM would log, in order, as this release words them."""
    error_text: str | None
    """vLLM's error, word for word, when it does not start; None when it starts."""
    mamba: MambaPlan | None = None
    """Mamba / linear-attention hybrids: the cache mode, Mamba block and padded page vLLM
    resolved."""

    @property
    def fits(self) -> bool:
        return self.status == VerdictStatus.FITS

    @property
    def limiting(self) -> StagePlan:
        return self.stages[self.limiting_stage]

    @property
    def kv_bytes_per_token(self) -> int:
        return self.limiting.kv_bytes_per_token

    @property
    def available_kv_bytes(self) -> int:
        return self.limiting.available_kv_bytes

    @property
    def check_kv_bytes(self) -> int:
        """The limiting stage's memory as the start-up check sees it (less the null block from
        0.29.0)."""
        return self.limiting.check_kv_bytes

    @property
    def needed_kv_bytes(self) -> int:
        return self.limiting.needed_kv_bytes


@dataclass(frozen=True, kw_only=True)
class _Worker:
    """One pipeline stage as the engine core sees it: its layers and its KV memory."""

    stage: int
    """The stage's index, 0 first."""
    num_layers: int
    """Decoder layers the stage owns, cache-less ones included."""
    grouping: Grouping
    """The whole model's groups projected onto this stage's layers."""
    layer_specs: Mapping[str, AttentionSpec]
    """This stage's layers after grouping (promotions and page unification applied)."""
    reported_specs: Mapping[str, AttentionSpec]
    """The same layers as the model runner reports them (what vLLM's check saw up to 0.13)."""
    available_kv_bytes: int
    """The stage's KV memory, after any ``num_gpu_blocks_override``."""
    null_block_bytes: int = 0
    """One pool block, held back from the check and auto-fit from #47272 (0.29.0)."""

    @property
    def check_kv_bytes(self) -> int:
        return self.available_kv_bytes - self.null_block_bytes

    reported_counts: check.SpecCounts | None = None
    """``check.reported_layer_counts`` of the two, for the releases whose check sums layers (before
    0.14)."""
    kv_bytes_per_token: int = 0
    """``planner.kv_bytes_per_token`` of ``layer_specs`` (computed once per stage with the
    specs)."""


@dataclass(frozen=True, kw_only=True)
class _Planning:
    """Everything one planning reads, resolved once: the engine's defaults, groups, budget and
    workers."""

    model: ModelSpec
    """The model being planned."""
    deployment: Deployment
    """The serving set-up, with its release rules."""
    max_num_batched_tokens: int
    """The batched-token limit in force (the flag or vLLM's default)."""
    max_num_seqs: int
    """The sequence limit in force (the flag or vLLM's default)."""
    block_size: int
    """Tokens per block of the attention layers, after any hybrid alignment."""
    in_flight_tokens: int
    """Tokens a sliding or chunked layer keeps beyond its window."""
    hma_enabled: bool
    """Whether the hybrid KV cache manager is on."""
    grouping: Grouping
    """The whole model's groups."""
    model_layer_specs: Mapping[str, AttentionSpec]
    """Layer name → spec after grouping, for the whole model."""
    derived_max_model_len: int
    """The model's own maximum length, from its config."""
    requested_max_model_len: int
    """What was asked for: a length, or -1 for auto-fit."""
    budget: MemoryBudget
    """Where the GPU's memory goes, and what is left for the KV cache."""
    workers: tuple[_Worker, ...]
    """One worker per pipeline stage, with its layers and memory."""
    mamba: MambaPlan | None = None
    """Mamba / linear-attention hybrids: cache mode and block-size alignment."""

    def needed_kv_bytes(self, worker: _Worker, length: int) -> int:
        """Memory one request of ``length`` needs on ``worker``, by the release's rule
        (check.py)."""
        ctx = SizingContext(
            max_model_len=length,
            in_flight_tokens=self.in_flight_tokens,
            dcp=self.deployment.decode_context_parallel_size,
        )
        return check.needed_kv_bytes(
            self.deployment.rules,
            ctx,
            model_groups=self.grouping,
            worker_groups=worker.grouping,
            reported_specs=worker.reported_specs,
            grouped_specs=worker.layer_specs,
            reported_counts=worker.reported_counts,
        )

    def estimate(self, worker: _Worker, upper: int) -> int:
        """vLLM's binary search: the largest length in [1, upper] that ``worker`` holds."""
        if worker.available_kv_bytes <= 0:
            return 0
        return estimate_max_model_len(
            lambda n: self.needed_kv_bytes(worker, n), worker.check_kv_bytes, upper
        )


def _in_flight_tokens(dep: Deployment, max_num_batched_tokens: int) -> int:
    """vllm/config/vllm.py max_in_flight_tokens (V1 model runner)."""
    if not dep.rules.in_flight_batches:
        return max_num_batched_tokens
    pp = dep.pipeline_parallel_size
    batches = 2 if (dep.async_scheduling and pp == 1) else pp
    return batches * max_num_batched_tokens


def _model_layer_specs(grouping: Grouping) -> dict[str, AttentionSpec]:
    """Layer name → spec after grouping (promotions and page unification applied)."""
    out: dict[str, AttentionSpec] = {}
    for g in grouping.groups:
        if isinstance(g.spec, UniformTypeSpec):
            out.update(g.spec.layer_specs)
        else:
            out.update({n: g.spec for n in g.layer_names})
    return out


def _requested_length(model: ModelSpec, dep: Deployment) -> int:
    """The length to check, as vLLM's config validation accepts it (-1 for auto)."""
    rules = dep.rules
    derived = model.derived_max_model_len
    length = dep.max_model_len if dep.max_model_len is not None else derived
    if length == AUTO and not rules.auto_fit:
        raise CalcError(
            "auto_unsupported",
            f"--max-model-len auto needs vLLM 0.14 or newer (rules: {rules.description})",
            field="max_model_len",
            value="auto",
        )
    if length > derived:
        raise CalcError(
            "max_model_len_too_long",
            f"max_model_len {length} is greater than the model's derived maximum {derived}; "
            "vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1",
            field="max_model_len",
            value=length,
            limit=derived,
        )
    return length


@dataclass(frozen=True, kw_only=True)
class _StageLayers:
    """One PP stage's share of the layers, before any memory is known."""

    num_layers: int
    """Decoder layers the stage owns, cache-less ones included."""
    grouping: Grouping
    """The whole model's groups projected onto this stage's layers."""
    layer_specs: Mapping[str, AttentionSpec]
    """This stage's layers after grouping."""
    reported_specs: Mapping[str, AttentionSpec]
    """This stage's layers as the model runner reports them (what the check saw up to 0.13)."""
    reported_counts: check.SpecCounts | None
    """Distinct reported specs with their layer counts, for the releases whose check sums layers."""
    kv_bytes_per_token: int
    """``planner.kv_bytes_per_token`` of ``layer_specs``: once per stage, not once per plan."""


@dataclass(frozen=True, kw_only=True)
class _Layers:
    """The layer specs, their KV cache groups and their split over the PP stages."""

    specs: Mapping[str, AttentionSpec]
    """Every layer's KV spec as the model runner builds it (MTP layers included)."""
    grouping: Grouping
    """The whole model's KV cache groups."""
    model_layer_specs: Mapping[str, AttentionSpec]
    """Layer name → spec after grouping (promotions and page unification applied)."""
    stages: tuple[_StageLayers, ...]
    """The layers' split over the pipeline stages."""


def _stages(
    model: ModelSpec,
    pp: int,
    rules: RuleSet,
    grouping: Grouping,
    layer_specs: Mapping[str, AttentionSpec],
    reported: Mapping[str, AttentionSpec],
) -> tuple[_StageLayers, ...]:
    """One share per PP stage (TP ranks of a stage are identical); PP splits decoder layers by index
    in model order, cache-less ones included (Nemotron-H MLP/MoE blocks)."""
    stages = []
    start = 0
    for count in pp_layer_counts(model.num_layers, pp):
        # a layer's indexer cache (DeepSeek-V3.2) lives on the same stage as the layer; one stage
        # owns all
        own = (
            (
                {layer_name(i) for i in range(start, start + count)}
                | {indexer_layer_name(i) for i in range(start, start + count)}
            )
            if pp > 1
            else set(layer_specs)
        )
        start += count
        own_specs = {k: v for k, v in layer_specs.items() if k in own}
        own_reported = {k: v for k, v in reported.items() if k in own}
        counts = (
            None
            if rules.check_by_groups
            else check.reported_layer_counts(rules, own_reported, own_specs)
        )
        stages.append(
            _StageLayers(
                num_layers=count,
                grouping=project_to_worker(grouping, own),
                layer_specs=own_specs,
                reported_specs=own_reported,
                reported_counts=counts,
                kv_bytes_per_token=kv_bytes_per_token(own_specs),
            )
        )
    return tuple(stages)


def _workers(
    dep: Deployment, layers: _Layers, available: int, lines: list[str]
) -> tuple[_Worker, ...]:
    """One worker per PP stage, with the override applied. Since #41069 ``num_gpu_blocks_override``
    replaces the memory before the check; since #47272 (0.29.0) the check and auto-fit hold one pool
    block back for BlockPool's null block (``check_memory`` in get_kv_cache_configs, after the
    override), while the blocks are still counted from the whole memory."""
    workers = []
    for stage, share in enumerate(layers.stages):
        stage_available = available
        if (
            dep.num_gpu_blocks_override is not None
            and dep.rules.override_before_check
            and available > 0
        ):
            per_block = share.grouping.bytes_per_block
            lines.append(
                vllm_text.override_line(available // per_block, dep.num_gpu_blocks_override)
            )
            stage_available = dep.num_gpu_blocks_override * per_block
        null_block = (
            share.grouping.bytes_per_block
            if dep.rules.null_block_reserved and share.grouping.groups
            else 0
        )
        workers.append(
            _Worker(
                stage=stage,
                num_layers=share.num_layers,
                grouping=share.grouping,
                layer_specs=share.layer_specs,
                reported_specs=share.reported_specs,
                available_kv_bytes=stage_available,
                reported_counts=share.reported_counts,
                null_block_bytes=null_block,
                kv_bytes_per_token=share.kv_bytes_per_token,
            )
        )
    return tuple(workers)


@lru_cache(maxsize=64)
def _layers(
    model: ModelSpec,
    *,
    tensor_parallel_size: int,
    pipeline_parallel_size: int,
    kv_cache_dtype: str,
    block_size: int,
    mamba_spec: MambaSpec | None,
    hma_enabled: bool,
    rules: RuleSet,
    extra_layers: int = 0,
) -> _Layers:
    """The layer specs, their KV cache groups and stages, built once per scenario and shared by its
    what-ifs.

    Every what-if of one analysis (another GPU, another utilization, the feasible grid, the weights
    ladder) that keeps the model, the parallel sizes, the cache dtype and the block size needs the
    same specs (up to 10,000 layers): a pure function of frozen values, cached by value. Callers
    only read what it returns.
    """
    specs = build_layer_specs(
        model,
        tensor_parallel_size=tensor_parallel_size,
        kv_cache_dtype=kv_cache_dtype,
        block_size=block_size,
        mamba_spec=mamba_spec,
    )
    if extra_layers:  # MTP or EAGLE-3 drafter layers join the model's (kvcalc.speculative)
        specs.update(mtp_layer_specs(model, specs, mtp_layer_kind(model), count=extra_layers))
    grouping = get_kv_cache_groups(
        specs,
        hma_enabled=hma_enabled,
        packed_layout=packed_layout(rules),
        size_ratio=rules.hybrid_group_size_ratio,
    )
    model_specs = _model_layer_specs(grouping)
    return _Layers(
        specs=specs,
        grouping=grouping,
        model_layer_specs=model_specs,
        stages=_stages(model, pipeline_parallel_size, rules, grouping, model_specs, specs),
    )


def _draft_kv_layers(model: ModelSpec, dep: Deployment) -> int:
    """KV layers speculative decoding adds: the MTP layers, or an EAGLE-3 drafter's layers."""
    spec = dep.speculative
    if spec is None:
        return 0
    return model.num_mtp_layers if spec.method == "mtp" else spec.draft_layers


def _planning(model: ModelSpec, dep: Deployment, lines: list[str]) -> _Planning:
    """Resolve the engine's defaults, build the groups and the budget, split the model into
    workers."""
    rules = dep.rules
    check_kv_dtype(
        dep.kv_cache_dtype,
        rules=rules,
        compute_capability=compute_capability(dep),
        rocm=is_rocm(dep),
        head_size=model.head_size,
        is_mla=model.is_mla,
        has_mamba=model.mamba is not None,
    )
    batched_tokens, seqs = batch_defaults(dep)
    block_choice = default_block_size(model, dep)
    block = block_choice.block_size
    if block_choice.line:
        lines.append(block_choice.line)
    # HMA is on by default on GPUs; chunked-local models (Llama 4) turned it off until #29627
    # (0.14.0) made VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE default to 1 (vllm/envs.py,
    # vllm/config/vllm.py; CONTRIBUTING.md §2.5).
    hma = (
        rules.hybrid_groups
        and not dep.disable_hybrid_kv_cache_manager
        and (LayerKind.CHUNKED not in model.layer_kinds or rules.chunked_local_keeps_hma)
    )
    requested = _requested_length(model, dep)
    mamba: MambaPlan | None = None
    if model.mamba is not None:
        # Config time, then the executor's block-size alignment: logged before the workers profile.
        # vllm/model_executor/layers/mamba/abstract.py: num_speculative_blocks =
        # num_speculative_tokens
        mamba = plan_mamba(
            model,
            dep,
            max_model_len=requested if requested != AUTO else model.derived_max_model_len,
            num_speculative_tokens=dep.num_speculative_tokens,
        )
        lines.extend(mamba.lines)
        block = mamba.attention_block_size
    if model.is_deepseek_v4:
        check_v4_supported(
            rules,
            pipeline_parallel_size=dep.pipeline_parallel_size,
            hma_enabled=hma,
            block_size=block,
        )
    kv_cache_dtype, dtype_line = sparse_mla_kv_cache_dtype(model, dep)
    if dtype_line:
        lines.append(dtype_line)
    if model.is_deepseek_v4:
        # printed while the layers are built, before the block size is set after loading
        # (deepseek_v4.py)
        lines[:] = (
            [ln for ln in lines if ln != block_choice.line]
            + [indexer_line(rules)]
            + ([block_choice.line] if block_choice.line else [])
        )
    layers = _layers(
        model,
        tensor_parallel_size=dep.tensor_parallel_size,
        pipeline_parallel_size=dep.pipeline_parallel_size,
        kv_cache_dtype=kv_cache_dtype,
        block_size=block,
        mamba_spec=mamba.spec() if mamba is not None else None,
        hma_enabled=hma,
        rules=rules,
        extra_layers=_draft_kv_layers(model, dep),
    )
    grouping = layers.grouping
    budget = memory_budget(model, dep, max_num_batched_tokens=batched_tokens, max_num_seqs=seqs)
    if budget.is_profiled_or_measured:
        line = vllm_text.available_kv_line(budget.available_kv_bytes, rules)
        if line:
            lines.append(line)
    lines.extend(grouping.warnings)
    workers = _workers(dep, layers, budget.available_kv_bytes, lines)
    return _Planning(
        model=model,
        deployment=dep,
        max_num_batched_tokens=batched_tokens,
        max_num_seqs=seqs,
        mamba=mamba,
        block_size=block,
        in_flight_tokens=_in_flight_tokens(dep, batched_tokens),
        hma_enabled=hma,
        grouping=grouping,
        model_layer_specs=layers.model_layer_specs,
        derived_max_model_len=model.derived_max_model_len,
        requested_max_model_len=requested,
        budget=budget,
        workers=workers,
    )


@dataclass(frozen=True, kw_only=True)
class _Capacity:
    """What a start that passes the check reports."""

    num_gpu_blocks: int | None = None
    """The blocks vLLM allocates; None when the start fails."""
    gpu_kv_cache_tokens: int | None = None
    """The "GPU KV cache size" figure."""
    max_concurrency: float | None = None
    """The "Maximum concurrency" figure."""
    blocks_per_request: int = 0
    """Blocks one full-length request takes, over all groups."""
    estimated_max_model_len: int = 0
    """The largest length that fits the memory."""


def _verdict(
    p: _Planning,
    status: VerdictStatus,
    length: int,
    stages: list[StagePlan],
    lines: list[str],
    *,
    limiting: int = 0,
    error: str | None = None,
    capacity: _Capacity = _Capacity(),
) -> Verdict:
    return Verdict(
        model=p.model,
        deployment=p.deployment,
        status=status,
        max_model_len=length,
        requested_max_model_len=p.requested_max_model_len,
        derived_max_model_len=p.derived_max_model_len,
        max_num_batched_tokens=p.max_num_batched_tokens,
        max_num_seqs=p.max_num_seqs,
        in_flight_tokens=p.in_flight_tokens,
        block_size=p.block_size,
        hma_enabled=p.hma_enabled,
        grouping=p.grouping,
        budget=p.budget,
        stages=tuple(stages),
        limiting_stage=limiting,
        num_gpu_blocks=capacity.num_gpu_blocks,
        gpu_kv_cache_tokens=capacity.gpu_kv_cache_tokens,
        max_concurrency=capacity.max_concurrency,
        blocks_per_request=capacity.blocks_per_request,
        estimated_max_model_len=capacity.estimated_max_model_len,
        vllm_lines=tuple(lines + ([error] if error else [])),
        error_text=error,
        mamba=p.mamba,
    )


def _stage_plans(p: _Planning, length: int, estimate_upper: int) -> list[StagePlan]:
    """The per-worker check at ``length``, with each worker's own estimated maximum length."""
    return [
        StagePlan(
            stage=w.stage,
            num_layers=w.num_layers,
            grouping=w.grouping,
            available_kv_bytes=w.available_kv_bytes,
            null_block_bytes=w.null_block_bytes,
            needed_kv_bytes=p.needed_kv_bytes(w, length),
            estimated_max_model_len=p.estimate(w, estimate_upper),
            kv_bytes_per_token=w.kv_bytes_per_token,
            num_blocks=None,
            reported_specs=w.reported_specs,
            grouped_specs=w.layer_specs,
            reported_counts=w.reported_counts,
        )
        for w in p.workers
    ]


def _largest_length_that_fits(p: _Planning, upper: int) -> int:
    """The largest length every stage holds (what ``--max-model-len auto`` would pick)."""
    return min(p.estimate(w, upper) for w in p.workers)


def _auto_fit(p: _Planning, lines: list[str]) -> int:
    """vLLM's auto-fit: the longest length every worker holds, or 0 when none does."""
    fitted = _largest_length_that_fits(p, p.derived_max_model_len)
    if fitted:
        # the limiting worker's memory as checked; the first worker's when the whole length fits
        # (vLLM's limiting_worker_mem starts at available_memory[0])
        available = (
            p.workers[0].check_kv_bytes
            if fitted >= p.derived_max_model_len
            else min(w.check_kv_bytes for w in p.workers)
        )
        lines.append(
            vllm_text.auto_fit_line(
                derived=p.derived_max_model_len,
                fitted=fitted,
                available=available,
                rules=p.deployment.rules,
            )
        )
    return fitted


def _capacity(
    p: _Planning, plans: list[StagePlan], length: int, lines: list[str]
) -> tuple[_Capacity, int]:
    """Blocks (the minimum over workers), tokens and concurrency, as vLLM logs them; and the
    limiting stage."""
    dep, rules = p.deployment, p.deployment.rules
    override = dep.num_gpu_blocks_override
    blocks_each = [
        override if override is not None else num_blocks(s.grouping, s.available_kv_bytes)
        for s in plans
    ]
    if override is not None and not rules.override_before_check:
        lines.append(
            vllm_text.override_line(
                num_blocks(plans[0].grouping, plans[0].available_kv_bytes), override
            )
        )
    blocks = min(blocks_each)
    dcp = dep.decode_context_parallel_size
    ctx = SizingContext(max_model_len=length, in_flight_tokens=p.in_flight_tokens, dcp=dcp)
    first_worker = plans[0].grouping
    per_request = blocks_per_request(first_worker, ctx, sum_groups=rules.sum_group_blocks)
    concurrency = blocks / per_request
    if (
        rules.tokens_from_concurrency
    ):  # per-rank max_mem already divided by dcp: no multiplication (#41069)
        tokens = int(concurrency * length)
    else:
        tokens = blocks // len(first_worker.groups) * first_worker.min_block_size
        if dcp > 1:
            tokens *= dcp
            lines.append(vllm_text.dcp_multiply_line(dcp, rules))
    lines.extend(
        vllm_text.capacity_lines(
            num_tokens=tokens,
            max_model_len=length,
            concurrency=concurrency,
            rules=rules,
            num_blocks=blocks,
        )
    )
    estimated = _largest_length_that_fits(p, max(length, p.derived_max_model_len))
    capacity = _Capacity(
        num_gpu_blocks=blocks,
        gpu_kv_cache_tokens=tokens,
        max_concurrency=concurrency,
        blocks_per_request=per_request,
        estimated_max_model_len=estimated,
    )
    return capacity, blocks_each.index(blocks)


def plan_uncached(model: ModelSpec, dep: Deployment) -> Verdict:
    """Plan ``model`` on ``dep`` as vLLM's engine core would.

    ``plan`` is this function cached: the analysis asks the same what-ifs (feasible grid, advice)
    again on every keystroke in the calculator; inputs and verdicts are immutable. A search over
    many budgets (a log's capacity fit) calls this one, so its probes do not crowd the cache.
    """
    lines: list[str] = []
    model = windows_for_release(model, dep.rules)
    p = _planning(model, dep, lines)
    length = p.requested_max_model_len
    if p.budget.weights_exceed_gpu:
        length = length if length > 0 else p.derived_max_model_len
        return _verdict(p, VerdictStatus.WEIGHTS_EXCEED_GPU, length, _stage_plans(p, length, 1), [])
    if dep.rules.v0_engine:
        return _plan_v0(p, lines)
    if p.budget.available_kv_bytes <= 0 and length != AUTO:
        length = length if length > 0 else p.derived_max_model_len
        return _verdict(
            p,
            VerdictStatus.NO_MEMORY,
            length,
            _stage_plans(p, length, 1),
            lines,
            error=vllm_text.no_memory_error(dep.rules),
        )
    if length == AUTO:
        # vllm/v1/core/kv_cache_utils.py get_kv_cache_configs: auto-fit runs before the per-worker
        # check that raises "No available memory", so with no memory at all auto-fit's own error
        # comes first
        length = _auto_fit(p, lines) if p.budget.available_kv_bytes > 0 else 0
        if not length:
            derived = p.derived_max_model_len
            return _verdict(
                p,
                VerdictStatus.AUTO_FIT_FAILED,
                derived,
                _stage_plans(p, derived, derived),
                lines,
                error=vllm_text.auto_fit_error(),
            )
    plans = _stage_plans(p, length, length)
    failing = [s for s in plans if not s.fits]
    if failing and failing[0].check_kv_bytes <= 0:
        # less than one block: the null block leaves nothing, and vLLM's check says so (0.29.0+)
        return _verdict(
            p,
            VerdictStatus.NO_MEMORY,
            length,
            plans,
            lines,
            limiting=failing[0].stage,
            error=vllm_text.no_memory_error(dep.rules),
        )
    if failing:
        first = failing[0]  # vLLM raises at the first worker that fails
        error = vllm_text.kv_cache_too_small_error(
            max_model_len=length,
            needed=first.needed_kv_bytes,
            available=first.check_kv_bytes,
            estimated=first.estimated_max_model_len,
            rules=dep.rules,
        )
        # vLLM's message quotes the first failing worker's estimate; the figure we report is the
        # largest length every stage can hold (with uneven PP stages the two can differ).
        estimated = min(s.estimated_max_model_len for s in plans)
        return _verdict(
            p,
            VerdictStatus.DOES_NOT_FIT,
            length,
            plans,
            lines,
            limiting=first.stage,
            error=error,
            capacity=_Capacity(estimated_max_model_len=estimated),
        )
    capacity, limiting = _capacity(p, plans, length, lines)
    plans = [replace(s, num_blocks=capacity.num_gpu_blocks) for s in plans]
    blocks = capacity.num_gpu_blocks or 0
    if (
        p.mamba is not None
        and dep.rules.mamba_blocks_check
        and not dep.enforce_eager
        and p.max_num_seqs > blocks
    ):
        # FULL CUDA graphs (the default mode) need one Mamba block per decode sequence.
        return _verdict(
            p,
            VerdictStatus.MAMBA_BLOCKS_BELOW_MAX_NUM_SEQS,
            length,
            plans,
            lines,
            limiting=limiting,
            capacity=capacity,
            error=vllm_text.mamba_blocks_error(max_num_seqs=p.max_num_seqs, num_blocks=blocks),
        )
    return _verdict(
        p, VerdictStatus.FITS, length, plans, lines, limiting=limiting, capacity=capacity
    )


plan = lru_cache(maxsize=512)(plan_uncached)


_V0_SWAP_SPACE_BYTES = 4 << 30  # vllm/config.py CacheConfig.swap_space default (4 GiB)


def _plan_v0(p: _Planning, lines: list[str]) -> Verdict:
    """The V0 engine (before 0.8.0): blocks from memory, then ``max_model_len <= blocks ×
    block_size``.

    vllm/worker/worker.py ``determine_num_available_blocks`` / ``raise_if_cache_size_invalid``.
    Every layer reserves all tokens (no sliding-window savings in the allocator).
    """
    length = p.requested_max_model_len
    if length == AUTO:
        raise CalcError(
            "auto_unsupported",
            "--max-model-len auto needs vLLM 0.14 or newer",
            field="max_model_len",
            value="auto",
        )
    block_size = next(iter(p.workers[0].layer_specs.values())).block_size
    bytes_per_block = [
        sum(s.real_page_size_bytes for s in w.layer_specs.values()) for w in p.workers
    ]
    blocks = min(
        max(w.available_kv_bytes // b, 0) for w, b in zip(p.workers, bytes_per_block, strict=True)
    )
    plans = [
        replace(
            s,
            num_blocks=blocks,
            needed_kv_bytes=cdiv(length, block_size) * b,
            estimated_max_model_len=0,
        )
        for s, b in zip(_stage_plans(p, length, 1), bytes_per_block, strict=True)
    ]
    lines.append(vllm_text.v0_blocks_line(blocks, _V0_SWAP_SPACE_BYTES // bytes_per_block[0]))
    if blocks == 0:
        return _verdict(
            p,
            VerdictStatus.NO_MEMORY,
            length,
            plans,
            lines,
            error=vllm_text.no_memory_error(p.deployment.rules),
        )
    max_tokens = blocks * block_size
    concurrency = max_tokens / length
    lines.extend(
        vllm_text.capacity_lines(
            num_tokens=max_tokens,
            max_model_len=length,
            concurrency=concurrency,
            rules=p.deployment.rules,
        )
    )
    if length > max_tokens:
        return _verdict(
            p,
            VerdictStatus.DOES_NOT_FIT,
            length,
            plans,
            lines,
            error=vllm_text.v0_too_small_error(max_model_len=length, max_tokens=max_tokens),
            capacity=_Capacity(estimated_max_model_len=max_tokens),
        )
    return _verdict(
        p,
        VerdictStatus.FITS,
        length,
        plans,
        lines,
        capacity=_Capacity(
            num_gpu_blocks=blocks,
            gpu_kv_cache_tokens=max_tokens,
            max_concurrency=concurrency,
            blocks_per_request=cdiv(length, block_size),
            estimated_max_model_len=min(max_tokens, p.derived_max_model_len),
        ),
    )
