"""One deployment planned the way vLLM's engine core plans it at start-up.

vllm/v1/core/kv_cache_utils.py ``get_kv_cache_configs`` (merge specs, group,
project onto workers, override, auto-fit, per-worker check, num_blocks, min over
workers) and vllm/v1/engine/core.py ``_initialize_kv_caches`` (capacity log).
"Does not fit" is a value here, never an exception; only bad input raises.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from . import vllm_text
from .budget import MemoryBudget, memory_budget
from .deployment import Deployment, batch_defaults
from .errors import CalcError
from .grouping import Grouping, get_kv_cache_groups, project_to_worker
from .kv_spec import AttentionSpec, SizingContext, UniformTypeSpec
from .model import ModelSpec
from .units import cdiv
from .planner import (
    blocks_per_request, build_layer_specs, estimate_max_model_len, kv_bytes_per_token, layer_name,
    legacy_max_memory_usage_bytes,
    max_memory_usage_bytes, num_blocks, pp_layer_counts,
)

__all__ = ["StagePlan", "Verdict", "plan"]


@dataclass(frozen=True, kw_only=True)
class StagePlan:
    """One pipeline stage (all its TP ranks are identical)."""

    stage: int
    num_layers: int
    grouping: Grouping
    available_kv_bytes: int
    """After a ``num_gpu_blocks_override`` adjustment, as vLLM checks it."""
    needed_kv_bytes: int
    estimated_max_model_len: int
    kv_bytes_per_token: int
    num_blocks: int | None

    @property
    def fits(self) -> bool:
        return self.available_kv_bytes > 0 and self.needed_kv_bytes <= self.available_kv_bytes


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """What vLLM would do with this model and deployment."""

    model: ModelSpec
    deployment: Deployment
    status: str
    """``fits``, ``does_not_fit`` (KV too small), ``no_memory`` (A ≤ 0) or ``auto_fit_failed``."""
    max_model_len: int
    """The length checked (after auto-fit)."""
    requested_max_model_len: int
    """What was asked for (-1 for auto)."""
    derived_max_model_len: int
    max_num_batched_tokens: int
    max_num_seqs: int
    in_flight_tokens: int
    block_size: int
    hma_enabled: bool
    grouping: Grouping
    budget: MemoryBudget
    stages: tuple[StagePlan, ...]
    limiting_stage: int
    num_gpu_blocks: int | None
    gpu_kv_cache_tokens: int | None
    max_concurrency: float | None
    blocks_per_request: int
    estimated_max_model_len: int
    """The largest length that fits (up to the model's derived maximum when it fits)."""
    vllm_lines: tuple[str, ...]
    error_text: str | None

    @property
    def fits(self) -> bool:
        return self.status == "fits"

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
    def needed_kv_bytes(self) -> int:
        return self.limiting.needed_kv_bytes


def _in_flight_tokens(dep: Deployment, max_num_batched_tokens: int) -> int:
    """vllm/config/vllm.py max_in_flight_tokens (V1 model runner)."""
    if not dep.rules.in_flight_batches:
        return max_num_batched_tokens
    pp = dep.pipeline_parallel_size
    batches = 2 if (dep.async_scheduling and pp == 1) else pp
    return batches * max_num_batched_tokens


def _flat_specs(grouping: Grouping) -> dict[str, AttentionSpec]:
    out: dict[str, AttentionSpec] = {}
    for g in grouping.groups:
        if isinstance(g.spec, UniformTypeSpec):
            out.update(g.spec.layer_specs)
        else:
            out.update({n: g.spec for n in g.layer_names})  # type: ignore[misc]
    return out


@lru_cache(maxsize=512)
def plan(model: ModelSpec, dep: Deployment, *, gpu_name: str | None = None) -> Verdict:
    """Plan ``model`` on ``dep`` as vLLM's engine core would.

    Cached: the report asks the same what-ifs (feasible table, advice) again on
    every keystroke in the calculator; inputs and verdicts are immutable.
    """
    rules = dep.rules
    mnbt, mns = batch_defaults(dep, gpu_name)
    block = dep.effective_block_size
    in_flight = _in_flight_tokens(dep, mnbt)
    chunked_model = "chunked" in model.layer_kinds
    # HMA is on by default on GPUs; chunked-local models (Llama 4) turn it off (spec 5.2).
    hma = rules.hybrid_groups and not dep.disable_hybrid_kv_cache_manager and not chunked_model
    specs = build_layer_specs(model, tensor_parallel_size=dep.tensor_parallel_size,
                              kv_cache_dtype=dep.kv_cache_dtype, block_size=block)
    grouping = get_kv_cache_groups(specs, hma_enabled=hma)
    derived = model.derived_max_model_len
    requested_len = dep.max_model_len if dep.max_model_len is not None else derived
    if requested_len == -1 and not rules.auto_fit:
        raise CalcError("auto_unsupported", f"--max-model-len auto needs vLLM 0.14 or newer (rules: {rules.description})",
                        field="max_model_len", value="auto")
    if requested_len > derived:
        raise CalcError("max_model_len_too_long",
                        f"max_model_len {requested_len} is greater than the model's derived maximum {derived}; vLLM refuses it unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1",
                        field="max_model_len", value=requested_len, limit=derived)
    budget = memory_budget(model, dep, max_num_batched_tokens=mnbt, max_num_seqs=mns)
    lines: list[str] = []
    if budget.source in ("profiled", "measured"):
        line = vllm_text.available_kv_line(budget.available_kv_bytes, rules)
        if line:
            lines.append(line)
    lines.extend(grouping.warnings)

    # Workers: one per PP stage (TP ranks of a stage are identical).
    counts = pp_layer_counts(model.num_layers, dep.pipeline_parallel_size)
    all_layers = list(specs)
    whole_specs = _flat_specs(grouping)
    workers: list[tuple[int, Grouping, dict[str, AttentionSpec]]] = []
    start = 0
    for n in counts:
        names = set(all_layers[start:start + n])
        stage_grouping = project_to_worker(grouping, names)
        workers.append((n, stage_grouping, {k: v for k, v in whole_specs.items() if k in names}))
        start += n

    def needed_fn(stage_grouping: Grouping, stage_specs: dict[str, AttentionSpec]):
        legacy_sum = not rules.tokens_from_concurrency
        layer_specs = stage_specs if rules.per_stage_check else whole_specs
        def needed(length: int) -> int:
            ctx = SizingContext(max_model_len=length, in_flight_tokens=in_flight)
            if legacy_sum or not rules.per_stage_check:
                return legacy_max_memory_usage_bytes(layer_specs, ctx)
            return max_memory_usage_bytes(stage_grouping, ctx)
        return needed

    available = budget.available_kv_bytes
    stage_avail: list[int] = []
    for _, g, _s in workers:
        a = available
        if dep.num_gpu_blocks_override is not None and rules.override_before_check and a > 0:
            per_block = g.bytes_per_block
            lines.append(vllm_text.override_line(a // per_block, dep.num_gpu_blocks_override))
            a = dep.num_gpu_blocks_override * per_block
        stage_avail.append(a)
    needed_fns = [needed_fn(g, s) for _, g, s in workers]

    def result(status: str, length: int, stages: list[StagePlan], limiting: int, error: str | None,
               blocks: int | None = None, tokens: int | None = None, conc: float | None = None, bpr: int = 0,
               est: int = 0) -> Verdict:
        return Verdict(model=model, deployment=dep, status=status, max_model_len=length,
                       requested_max_model_len=requested_len, derived_max_model_len=derived,
                       max_num_batched_tokens=mnbt, max_num_seqs=mns, in_flight_tokens=in_flight, block_size=block,
                       hma_enabled=hma, grouping=grouping, budget=budget, stages=tuple(stages), limiting_stage=limiting,
                       num_gpu_blocks=blocks, gpu_kv_cache_tokens=tokens, max_concurrency=conc, blocks_per_request=bpr,
                       estimated_max_model_len=est, vllm_lines=tuple(lines + ([error] if error else [])),
                       error_text=error)

    def stage_plans(length: int, cap: int) -> list[StagePlan]:
        plans = []
        for i, ((n, g, s), a, fn) in enumerate(zip(workers, stage_avail, needed_fns)):
            est = estimate_max_model_len(fn, a, cap) if a > 0 else 0
            plans.append(StagePlan(stage=i, num_layers=n, grouping=g, available_kv_bytes=a, needed_kv_bytes=fn(length),
                                   estimated_max_model_len=est, kv_bytes_per_token=kv_bytes_per_token(s),
                                   num_blocks=None))
        return plans

    if rules.v0_engine:
        return _plan_v0(result, stage_plans, workers, stage_avail, requested_len, lines, rules, derived)

    if available <= 0:
        plans = stage_plans(requested_len if requested_len > 0 else derived, 1)
        return result("no_memory", requested_len if requested_len > 0 else derived, plans, 0,
                      vllm_text.no_memory_error(rules))

    length = requested_len
    if requested_len == -1:
        fitted = min(estimate_max_model_len(fn, a, derived) for fn, a in zip(needed_fns, stage_avail))
        if fitted == 0:
            plans = stage_plans(derived, derived)
            return result("auto_fit_failed", derived, plans, 0, vllm_text.auto_fit_error())
        lines.append(vllm_text.auto_fit_line(derived=derived, fitted=fitted,
                                             available=min(stage_avail)))
        length = fitted

    plans = stage_plans(length, length)
    failing = [p for p in plans if not p.fits]
    if failing:
        worst = failing[0]  # vLLM raises at the first worker that fails
        err = vllm_text.kv_cache_too_small_error(max_model_len=length, needed=worst.needed_kv_bytes,
                                                 available=worst.available_kv_bytes,
                                                 estimated=worst.estimated_max_model_len, rules=rules)
        # vLLM's message quotes the first failing worker's estimate; the figure we report is the
        # largest length every stage can hold (with uneven PP stages the two can differ).
        return result("does_not_fit", length, plans, worst.stage, err,
                      est=min(p.estimated_max_model_len for p in plans))

    blocks_each = []
    for p in plans:
        nb = dep.num_gpu_blocks_override if dep.num_gpu_blocks_override is not None else num_blocks(p.grouping, p.available_kv_bytes)
        blocks_each.append(nb)
    if dep.num_gpu_blocks_override is not None and not rules.override_before_check:
        lines.append(vllm_text.override_line(num_blocks(plans[0].grouping, plans[0].available_kv_bytes),
                                             dep.num_gpu_blocks_override))
    blocks = min(blocks_each)
    limiting = blocks_each.index(blocks)
    plans = [StagePlan(**{**p.__dict__, "num_blocks": blocks}) for p in plans]
    ctx = SizingContext(max_model_len=length, in_flight_tokens=in_flight)
    worker0 = plans[0].grouping
    bpr = blocks_per_request(worker0, ctx, sum_groups=rules.sum_group_blocks)
    conc = blocks / bpr
    if rules.tokens_from_concurrency:
        tokens = int(conc * length)
    else:
        tokens = blocks // len(worker0.groups) * worker0.min_block_size
    lines.extend(vllm_text.capacity_lines(num_tokens=tokens, max_model_len=length, concurrency=conc, rules=rules,
                                          num_blocks=blocks))
    # The largest length that fits, up to the model's limit (what --max-model-len auto would pick).
    est = min(estimate_max_model_len(fn, a, max(length, derived)) for fn, a in zip(needed_fns, stage_avail))
    return result("fits", length, plans, limiting, None, blocks=blocks, tokens=tokens, conc=conc, bpr=bpr, est=est)


_V0_SWAP_SPACE_BYTES = 4 << 30  # vllm/config.py CacheConfig.swap_space default (4 GiB)


def _plan_v0(result, stage_plans, workers, stage_avail, length, lines, rules, derived):
    """The V0 engine (before 0.8.0): blocks from memory, then ``max_model_len <= blocks × block_size``.

    vllm/worker/worker.py ``determine_num_available_blocks`` / ``raise_if_cache_size_invalid``.
    Every layer reserves all tokens (no sliding-window savings in the allocator).
    """
    if length == -1:
        raise CalcError("auto_unsupported", "--max-model-len auto needs vLLM 0.14 or newer", field="max_model_len", value="auto")
    plans = stage_plans(length, 1)
    blocks_each, per_block_each = [], []
    for (_, g, specs), a in zip(workers, stage_avail):
        per_block = sum(s.real_page_size_bytes for s in specs.values())
        per_block_each.append(per_block)
        blocks_each.append(max(a // per_block, 0) if a > 0 else 0)
    blocks = min(blocks_each)
    block_size = next(iter(workers[0][2].values())).block_size
    plans = [StagePlan(**{**p.__dict__, "num_blocks": blocks, "needed_kv_bytes": cdiv(length, block_size) * pb,
                          "estimated_max_model_len": 0}) for p, pb in zip(plans, per_block_each)]
    if blocks == 0:
        lines.append(vllm_text.v0_blocks_line(0, _V0_SWAP_SPACE_BYTES // per_block_each[0]))
        return result("no_memory", length, plans, 0, vllm_text.no_memory_error(rules))
    lines.append(vllm_text.v0_blocks_line(blocks, _V0_SWAP_SPACE_BYTES // per_block_each[0]))
    max_tokens = blocks * block_size
    conc = max_tokens / length
    lines.extend(vllm_text.capacity_lines(num_tokens=max_tokens, max_model_len=length, concurrency=conc, rules=rules))
    if length > max_tokens:
        return result("does_not_fit", length, plans, 0,
                      vllm_text.v0_too_small_error(max_model_len=length, max_tokens=max_tokens),
                      est=max_tokens)
    return result("fits", length, plans, 0, None, blocks=blocks, tokens=max_tokens, conc=conc,
                  bpr=cdiv(length, block_size), est=min(max_tokens, derived))
