"""The guide's ordered advice, each step a computed what-if.

Order (the guide's "Fix the start-up error"): lower ``max_model_len`` → raise
``gpu_memory_utilization`` in small steps → fp8 KV cache → free runtime memory
(no CUDA graphs, fewer sequences) → smaller or split weights (quantized, TP, a
larger GPU, ``--cpu-offload-gb``) → a fixed ``kv_cache_memory_bytes``. KV offload
is not a fix: it cannot pass the start-up check. Other failures have their own
ladders. Variants are built with ``dataclasses.replace``, never by mutation.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from . import catalog
from .budget import BudgetSource
from .deployment import Deployment
from .errors import CalcError
from .inputs import Scenario
from .kv_spec import UNQUANTIZED_KV_DTYPES
from .model import WeightQuant
from .units import GiB, MiB, cdiv
from .verdict import Verdict, VerdictStatus, plan

__all__ = ["RecCode", "Recommendation", "recommend", "free_memory_ladder", "readable_length", "UTILIZATION_WARN_ABOVE"]


class RecCode(StrEnum):
    """Stable ids of the guide's fixes (the JSON ``code``)."""

    LOWER_MAX_MODEL_LEN = "lower_max_model_len"
    LIMIT_CONCURRENCY = "limit_concurrency"
    RAISE_GPU_MEMORY_UTILIZATION = "raise_gpu_memory_utilization"
    FP8_KV_CACHE = "fp8_kv_cache"
    KV_CACHE_MEMORY_BYTES = "kv_cache_memory_bytes"
    CPU_OFFLOAD = "cpu_offload"
    QUANTIZE_WEIGHTS = "quantize_weights"
    ADD_GPUS = "add_gpus"
    LARGER_GPU = "larger_gpu"
    ENFORCE_EAGER = "enforce_eager"
    LOWER_GPU_MEMORY_UTILIZATION = "lower_gpu_memory_utilization"
    FREE_THE_GPU = "free_the_gpu"

UTILIZATION_WARN_ABOVE = 0.95
_UTIL_STEP = 0.02


@dataclass(frozen=True, kw_only=True)
class Recommendation:
    """One rung of the ladder, with the flags it changes and what vLLM would then do."""

    code: RecCode
    anchor: str
    """The guide section id that explains it (the same in every language)."""
    settings: dict[str, object]
    """The changed ``vllm serve`` flags, snake_case (``{"max_model_len": 16384}``)."""
    verdict: Verdict | None
    """The what-if; None when its effect cannot be computed (measured at runtime)."""
    params: dict[str, object]
    """Values the localized text quotes."""
    variant: str | None = None
    """Which wording of ``code`` applies (``free``: a fixed budget suggested without a computed size)."""
    exceeds_gpu: bool = False
    """The suggested setting asks for more memory than the GPU has (weights and runtime included)."""

    @property
    def fits(self) -> bool | None:
        return None if self.verdict is None else self.verdict.fits


def readable_length(est: int) -> int:
    """A round ``max_model_len`` between 60 % and 80 % of the estimated maximum.

    Prefers a power of two, then 1.5 × a power of two, then a multiple of 1024,
    then of 256, then of 16 (the block size).
    """
    lo, hi = 0.6 * est, 0.8 * est
    candidates: list[list[int]] = [[], [], [], [], []]
    k = 16
    while k <= hi:
        if k >= lo:
            candidates[0].append(k)
        if lo <= k * 3 // 2 <= hi:
            candidates[1].append(k * 3 // 2)
        k *= 2
    for step, rank in ((1024, 2), (256, 3), (16, 4)):
        n = int(hi) // step * step
        if n >= lo and n > 0:
            candidates[rank].append(n)
    for bucket in candidates:
        if bucket:
            return max(bucket)
    return max(int(hi), 1)


def _try(s: Scenario, dep: Deployment) -> Verdict | None:
    try:
        return plan(s.model, dep)
    except CalcError:
        return None


def _lower_max_model_len(s: Scenario, v: Verdict) -> Recommendation | None:
    """A readable length at 60–80 % of the estimated maximum."""
    est = v.estimated_max_model_len
    if est <= 0 or v.fits:
        return None
    new_len = readable_length(est)
    return Recommendation(code=RecCode.LOWER_MAX_MODEL_LEN, anchor="lower-max-model-len",
                          settings={"max_model_len": new_len},
                          verdict=_try(s, replace(s.deployment, max_model_len=new_len)),
                          params={"estimated": est, "value": new_len, "low": int(0.6 * est), "high": int(0.8 * est)})


def _limit_concurrency(s: Scenario, v: Verdict) -> Recommendation | None:
    """Fewer sequences and batched tokens: a smaller profile run (activation) and CUDA-graph pool."""
    seqs, tokens = v.max_num_seqs, v.max_num_batched_tokens
    new_seqs, new_tokens = min(seqs, 16), min(tokens, 2048)
    if (new_seqs, new_tokens) == (seqs, tokens):
        return None
    settings: dict[str, object] = {}
    if new_seqs != seqs:
        settings["max_num_seqs"] = new_seqs
    if new_tokens != tokens:
        settings["max_num_batched_tokens"] = new_tokens
    # A measured budget already holds vLLM's own runtime figures: the effect is not computable.
    computable = v.budget.source == BudgetSource.PROFILED
    what_if = replace(s.deployment, max_num_seqs=new_seqs, max_num_batched_tokens=new_tokens)
    return Recommendation(code=RecCode.LIMIT_CONCURRENCY, anchor="limit-concurrency", settings=settings,
                          verdict=_try(s, what_if) if computable else None,
                          params={"flags": " ".join(f"--{k.replace('_', '-')} {val}" for k, val in settings.items())})


def _raise_utilization(s: Scenario, v: Verdict) -> Recommendation | None:
    """``gpu_memory_utilization`` in 0.01 steps up to the first that fits, never past 0.95 without a warning."""
    dep = s.deployment
    if not v.budget.is_profiled_or_measured or dep.kv_cache_memory_bytes is not None or not dep.gpu_memory_bytes:
        return None
    util = dep.effective_utilization
    step_to: tuple[float, Verdict | None] | None = None
    u = util
    while u < UTILIZATION_WARN_ABOVE - 1e-9:
        u = round(min(u + 0.01, UTILIZATION_WARN_ABOVE), 2)
        trial = _try(s, _with_util(dep, u))
        if trial is not None and trial.fits:
            step_to = (u, trial)
            break
    if step_to is None and util < UTILIZATION_WARN_ABOVE:
        u = round(min(util + _UTIL_STEP, UTILIZATION_WARN_ABOVE), 2)
        step_to = (u, _try(s, _with_util(dep, u)))
    if step_to is None:
        return None
    return Recommendation(code=RecCode.RAISE_GPU_MEMORY_UTILIZATION, anchor="gpu-memory-utilization",
                          settings={"gpu_memory_utilization": step_to[0]}, verdict=step_to[1],
                          params={"from": util, "to": step_to[0], "warn_above": UTILIZATION_WARN_ABOVE})


def _fp8_kv_cache(s: Scenario) -> Recommendation | None:
    """An fp8 KV cache halves the bytes per token of a 16-bit cache."""
    if s.deployment.kv_cache_dtype not in UNQUANTIZED_KV_DTYPES:
        return None
    return Recommendation(code=RecCode.FP8_KV_CACHE, anchor="fp8-kv-cache", settings={"kv_cache_dtype": "fp8"},
                          verdict=_try(s, replace(s.deployment, kv_cache_dtype="fp8")), params={})


def _fixed_budget(s: Scenario, v: Verdict) -> Recommendation | None:
    """A fixed KV budget: exactly what one request needs, rounded up to 256 MiB."""
    need = v.needed_kv_bytes + v.limiting.null_block_bytes  # plus the null block the check holds back (0.29.0+)
    if need <= 0:
        return None
    dep = s.deployment
    fixed = cdiv(need, 256 * MiB) * 256 * MiB
    # What the rest of vLLM takes on the GPU, from the plan without a fixed budget.
    base = v if dep.kv_cache_memory_bytes is None else _try(s, replace(dep, kv_cache_memory_bytes=None))
    exceeds = bool(base is not None and dep.gpu_memory_bytes and base.budget.source == BudgetSource.PROFILED
                   and base.budget.non_kv_bytes + fixed > dep.gpu_memory_bytes)
    return Recommendation(code=RecCode.KV_CACHE_MEMORY_BYTES, anchor="kv-cache-memory-bytes",
                          settings={"kv_cache_memory_bytes": _human_bytes(fixed)},
                          verdict=_try(s, replace(dep, kv_cache_memory_bytes=fixed)),
                          params={"bytes": fixed, "gib": round(fixed / GiB, 2)}, exceeds_gpu=exceeds)


def _enforce_eager(s: Scenario, v: Verdict) -> Recommendation | None:
    """``--enforce-eager`` captures no CUDA graphs; since #38284 their memory comes out of the KV budget."""
    dep = s.deployment
    if dep.enforce_eager:
        return None
    measured = dep.measured.available_kv_bytes is not None
    return Recommendation(code=RecCode.ENFORCE_EAGER, anchor="cuda-graph-memory",
                          settings={"enforce_eager": True},
                          verdict=None if measured else _try(s, replace(dep, enforce_eager=True)), params={})


def _quantize_weights(s: Scenario) -> Recommendation | None:
    """A 4-bit AWQ checkpoint of the same model (what-if only when the budget is estimated)."""
    if s.model.quant.method != "none":
        return None
    q_model = replace(s.model, quant=WeightQuant(method="awq", bits=4, group_size=128))
    return Recommendation(code=RecCode.QUANTIZE_WEIGHTS, anchor="weights-and-hardware",
                          settings={"quantization": "awq"},
                          verdict=None if _weights_measured(s) else _try(replace(s, model=q_model), s.deployment),
                          params={})


def _weights_measured(s: Scenario) -> bool:
    """vLLM's own weight figure is given: a what-if that changes the weights cannot be computed."""
    m = s.deployment.measured
    return m.available_kv_bytes is not None or m.weights_bytes is not None


def _add_gpus(s: Scenario) -> Recommendation | None:
    """Twice the tensor-parallel size, when the attention heads divide."""
    dep = s.deployment
    tp = dep.tensor_parallel_size * 2
    if s.model.num_attention_heads % tp or dep.measured.available_kv_bytes is not None:
        return None
    return Recommendation(code=RecCode.ADD_GPUS, anchor="weights-and-hardware",
                          settings={"tensor_parallel_size": tp},
                          verdict=None if _weights_measured(s) else _try(s, replace(dep, tensor_parallel_size=tp)),
                          params={"tp": tp})


def _cpu_offload(s: Scenario, v: Verdict) -> Recommendation | None:
    """``--cpu-offload-gb``: the fewest whole GiB of weights per GPU kept in CPU memory that let vLLM start."""
    dep = s.deployment
    b = v.budget
    if b.source != BudgetSource.PROFILED or "weights" not in b.estimated or v.fits:
        return None
    def offloading(gib: int) -> Verdict | None:
        return _try(s, replace(dep, cpu_offload_bytes=dep.cpu_offload_bytes + gib * GiB))

    # Starting needs is monotone in the offloaded bytes: binary search the whole GiB.
    lo, hi = cdiv(max(v.needed_kv_bytes - v.available_kv_bytes, 1), GiB), cdiv(b.weights_bytes, GiB)
    best = offloading(hi)
    if lo > hi or best is None or not best.fits:
        return None
    while lo < hi:
        mid = (lo + hi) // 2
        trial = offloading(mid)
        if trial is not None and trial.fits:
            hi, best = mid, trial
        else:
            lo = mid + 1
    total_gib = dep.cpu_offload_bytes // GiB + hi
    return Recommendation(code=RecCode.CPU_OFFLOAD, anchor="weights-and-hardware", settings={"cpu_offload_gb": total_gib},
                          verdict=best, params={"gib": total_gib})


def _kv_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    """"KV cache too small": the guide's order, cheapest and safest first.

    Shorter context; a little more of the GPU; an fp8 cache; less runtime memory (no CUDA
    graphs, fewer sequences); smaller or split weights; last, a fixed budget.
    """
    rungs = (_lower_max_model_len(s, v), _raise_utilization(s, v), _fp8_kv_cache(s), _enforce_eager(s, v),
             _limit_concurrency(s, v), _quantize_weights(s), _add_gpus(s), _larger_gpu(s), _cpu_offload(s, v),
             _fixed_budget(s, v))
    return [r for r in rungs if r is not None]


def _with_util(dep: Deployment, util: float) -> Deployment:
    """A utilization what-if; a measured budget moves by exactly the extra requested memory."""
    measured = dep.measured
    if measured.available_kv_bytes is not None and dep.gpu_memory_bytes:
        old = dep.effective_utilization
        delta = int(dep.gpu_memory_bytes * util) - int(dep.gpu_memory_bytes * old)
        measured = replace(measured, available_kv_bytes=measured.available_kv_bytes + delta)
    return replace(dep, gpu_memory_utilization=util, measured=measured)


def _human_bytes(n: int) -> str:
    """``--kv-cache-memory-bytes`` style: binary suffix when exact (``4G``, ``5632M``)."""
    for suffix, unit in (("G", GiB), ("M", MiB)):
        if n % unit == 0:
            return f"{n // unit}{suffix}"
    return str(n)


def _larger_gpu(s: Scenario) -> Recommendation | None:
    """The smallest catalog GPU with more memory on which the scenario starts."""
    dep = s.deployment
    if not dep.gpu_memory_bytes or dep.measured.available_kv_bytes is not None:
        return None
    for gpu in sorted(catalog.gpus(), key=lambda g: g.memory_bytes):
        if gpu.memory_bytes <= dep.gpu_memory_bytes:
            continue
        trial = _try(s, replace(dep, gpu_id=gpu.id, gpu_name=gpu.name, gpu_memory_bytes=gpu.memory_bytes,
                                   gpu_memory_source=gpu.memory_source_kind))
        if trial is not None and trial.fits:
            return Recommendation(code=RecCode.LARGER_GPU, anchor="weights-and-hardware",
                                  settings={"gpu": gpu.id}, verdict=trial, params={"gpu": gpu.id})
    return None


def _weights_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    """The weights (plus runtime memory) fill the GPU: smaller or split weights first."""
    rungs = (_quantize_weights(s), _add_gpus(s), _larger_gpu(s), _cpu_offload(s, v), _enforce_eager(s, v))
    return [r for r in rungs if r is not None]


def free_memory_ladder(*, free_bytes: int | None, total_bytes: int | None) -> list[Recommendation]:
    """"Free memory on device … is less than desired GPU memory utilization": another process holds memory."""
    recs: list[Recommendation] = []
    if free_bytes and total_bytes:
        util = int(free_bytes / total_bytes * 100 - 2) / 100  # two points under what is free, rounded down
        if util > 0:
            recs.append(Recommendation(code=RecCode.LOWER_GPU_MEMORY_UTILIZATION, anchor="free-memory-below-utilization",
                                       settings={"gpu_memory_utilization": util}, verdict=None, params={"to": util}))
    recs.append(Recommendation(code=RecCode.FREE_THE_GPU, anchor="free-memory-below-utilization",
                               settings={}, verdict=None, params={}))
    recs.append(Recommendation(code=RecCode.KV_CACHE_MEMORY_BYTES, anchor="kv-cache-memory-bytes",
                               settings={}, verdict=None, params={}, variant="free"))
    return recs


def _mamba_blocks_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    """Fewer Mamba cache blocks than ``max_num_seqs``: cap the sequences at the blocks, skip FULL
    CUDA graphs, or give the cache more memory (vLLM's own two suggestions first)."""
    blocks = v.num_gpu_blocks or 0
    rungs: list[Recommendation | None] = []
    if blocks > 0:
        rungs.append(Recommendation(code=RecCode.LIMIT_CONCURRENCY, anchor="limit-concurrency", variant="mamba",
                                    settings={"max_num_seqs": blocks},
                                    verdict=_try(s, replace(s.deployment, max_num_seqs=blocks)),
                                    params={"flags": f"--max-num-seqs {blocks}", "blocks": blocks}))
    rungs += [_raise_utilization(s, v), _enforce_eager(s, v)]
    return [r for r in rungs if r is not None]


def recommend(s: Scenario, v: Verdict) -> list[Recommendation]:
    """The ladder that fits this verdict, in the guide's order.

    An estimated budget is a band: every what-if is planned at its pessimistic edge
    (``budget_edge="low"``), so a fix counts only if vLLM starts whatever it measures.
    """
    if v.budget.has_band and s.deployment.budget_edge != "low":
        s = replace(s, deployment=replace(s.deployment, budget_edge="low"))
        v = plan(s.model, s.deployment)
    if v.status == VerdictStatus.MAMBA_BLOCKS_BELOW_MAX_NUM_SEQS:
        return _mamba_blocks_ladder(s, v)
    if v.status in (VerdictStatus.NO_MEMORY, VerdictStatus.AUTO_FIT_FAILED, VerdictStatus.WEIGHTS_EXCEED_GPU):
        return _weights_ladder(s, v)
    if not v.fits:
        return _kv_ladder(s, v)
    # It starts: fp8 is still worth it when fewer requests fit than max_num_seqs allows.
    if (v.max_concurrency or 0) < v.max_num_seqs:
        fp8 = _fp8_kv_cache(s)
        return [fp8] if fp8 is not None else []
    return []
