"""The guide's ordered advice, each step a computed what-if.

Order (the article's ladder): lower ``max_model_len`` → limit concurrency and
batching → raise ``gpu_memory_utilization`` in small steps → fp8 KV cache →
a fixed ``kv_cache_memory_bytes`` or CPU offload. Other failures have their
own ladders. Variants are built with ``dataclasses.replace``, never by mutation.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import catalog
from .deployment import Deployment
from .errors import CalcError
from .inputs import Scenario
from .model import WeightQuant
from .units import GiB, MiB, cdiv
from .verdict import Verdict, plan

__all__ = ["Recommendation", "recommend", "readable_length", "UTILIZATION_WARN_ABOVE"]

UTILIZATION_WARN_ABOVE = 0.95
_UTIL_STEP = 0.02


@dataclass(frozen=True, kw_only=True)
class Recommendation:
    """One rung of the ladder, with the flags it changes and what vLLM would then do."""

    code: str
    """Stable id: ``lower_max_model_len``, ``limit_concurrency``, ``raise_gpu_memory_utilization``, …"""
    anchor: str
    """The id of the guide section that explains it (the same in every language; the site knows its page)."""
    settings: dict[str, object]
    """The changed ``vllm serve`` flags, snake_case (``{"max_model_len": 16384}``)."""
    verdict: Verdict | None
    """The what-if; None when its effect cannot be computed (measured at runtime)."""
    params: dict[str, object]
    """Values the localized text quotes."""

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
    for step, bucket in ((1024, 2), (256, 3), (16, 4)):
        n = int(hi) // step * step
        if n >= lo and n > 0:
            candidates[bucket].append(n)
    for bucket in candidates:
        if bucket:
            return max(bucket)
    return max(int(hi), 1)


def _try(s: Scenario, dep: Deployment) -> Verdict | None:
    try:
        return plan(s.model, dep, gpu_name=s.gpu_name)
    except CalcError:
        return None


def _kv_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    dep = s.deployment
    recs: list[Recommendation] = []
    est = v.estimated_max_model_len
    # 1. lower max_model_len
    if est > 0 and not v.fits:
        new_len = readable_length(est)
        recs.append(Recommendation(code="lower_max_model_len", anchor="lower-max-model-len",
                                   settings={"max_model_len": new_len},
                                   verdict=_try(s, replace(dep, max_model_len=new_len)),
                                   params={"estimated": est, "value": new_len, "low": int(0.6 * est), "high": int(0.8 * est)}))
    # 2. limit concurrency and batching: shrinks the profile run (activation) and the CUDA-graph pool.
    seqs, tokens = v.max_num_seqs, v.max_num_batched_tokens
    new_seqs = min(seqs, 16)
    new_tokens = min(tokens, 2048)
    if (new_seqs, new_tokens) != (seqs, tokens):
        settings: dict[str, object] = {}
        if new_seqs != seqs:
            settings["max_num_seqs"] = new_seqs
        if new_tokens != tokens:
            settings["max_num_batched_tokens"] = new_tokens
        measured_budget = v.budget.source != "profiled"
        recs.append(Recommendation(code="limit_concurrency", anchor="limit-concurrency", settings=settings,
                                   verdict=None if measured_budget else _try(s, replace(dep, max_num_seqs=new_seqs, max_num_batched_tokens=new_tokens)),
                                   params={"flags": " ".join(f"--{k.replace('_', '-')} {val}" for k, val in settings.items())}))
    # 3. gpu_memory_utilization in small steps, never past 0.95 without a warning.
    if v.budget.source in ("profiled", "measured") and dep.kv_cache_memory_bytes is None and dep.gpu_memory_bytes:
        util = dep.effective_utilization
        step_to = None
        u = util
        while u < UTILIZATION_WARN_ABOVE - 1e-9:
            u = round(min(u + 0.01, UTILIZATION_WARN_ABOVE), 2)
            trial = _with_util(dep, v, u)
            tv = _try(s, trial)
            if tv is not None and tv.fits:
                step_to = (u, tv)
                break
        if step_to is None and util < UTILIZATION_WARN_ABOVE:
            u = round(min(util + _UTIL_STEP, UTILIZATION_WARN_ABOVE), 2)
            step_to = (u, _try(s, _with_util(dep, v, u)))
        if step_to is not None:
            recs.append(Recommendation(code="raise_gpu_memory_utilization", anchor="gpu-memory-utilization",
                                       settings={"gpu_memory_utilization": step_to[0]}, verdict=step_to[1],
                                       params={"from": util, "to": step_to[0], "warn_above": UTILIZATION_WARN_ABOVE}))
    # 4. fp8 KV cache (halves the bytes per token of a 16-bit cache).
    if dep.kv_cache_dtype in ("auto", "bfloat16", "float16", "float32") and s.model.dtype != "float8":
        recs.append(Recommendation(code="fp8_kv_cache", anchor="fp8-kv-cache",
                                   settings={"kv_cache_dtype": "fp8"}, verdict=_try(s, replace(dep, kv_cache_dtype="fp8")),
                                   params={}))
    # 5a. a fixed KV budget: exactly what one request needs, rounded up to 256 MiB.
    need = v.needed_kv_bytes
    if need > 0:
        fixed = cdiv(need, 256 * MiB) * 256 * MiB
        recs.append(Recommendation(code="kv_cache_memory_bytes", anchor="kv-cache-memory-bytes",
                                   settings={"kv_cache_memory_bytes": _human_bytes(fixed)},
                                   verdict=_try(s, replace(dep, kv_cache_memory_bytes=fixed)),
                                   params={"bytes": fixed, "gib": round(fixed / GiB, 2)}))
    # 5b. CPU offload: extends capacity, does not lift the start-up check.
    recs.append(Recommendation(code="cpu_offload", anchor="cpu-offload",
                               settings={"kv_offloading_backend": "native", "kv_offloading_size": 16}, verdict=None,
                               params={}))
    return recs


def _with_util(dep: Deployment, v: Verdict, util: float) -> Deployment:
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


def _weights_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    """"No available memory for the cache blocks": the weights (plus activation) fill the budget."""
    dep = s.deployment
    recs: list[Recommendation] = []
    if s.model.quant.method == "none":
        q_model = replace(s.model, quant=WeightQuant(method="awq", bits=4, group_size=128))
        qv = _try(replace(s, model=q_model), dep)
        recs.append(Recommendation(code="quantize_weights", anchor="no-memory-for-cache-blocks",
                                   settings={"quantization": "awq"}, verdict=qv, params={}))
    tp = dep.tensor_parallel_size * 2
    if s.model.num_attention_heads % tp == 0 and dep.measured.available_kv_bytes is None:
        recs.append(Recommendation(code="add_gpus", anchor="tensor-and-pipeline-parallel",
                                   settings={"tensor_parallel_size": tp},
                                   verdict=_try(s, replace(dep, tensor_parallel_size=tp)), params={"tp": tp}))
    if dep.gpu_memory_bytes and dep.measured.available_kv_bytes is None:
        for gpu in sorted(catalog.gpus(), key=lambda g: g.memory_bytes):
            if gpu.memory_bytes <= dep.gpu_memory_bytes:
                continue
            gv = _try(replace(s, gpu_name=gpu.name), replace(dep, gpu_id=gpu.id, gpu_memory_bytes=gpu.memory_bytes))
            if gv is not None and gv.fits:
                recs.append(Recommendation(code="larger_gpu", anchor="no-memory-for-cache-blocks",
                                           settings={"gpu": gpu.id}, verdict=gv, params={"gpu": gpu.id}))
                break
    if not dep.enforce_eager:
        recs.append(Recommendation(code="enforce_eager", anchor="no-memory-for-cache-blocks",
                                   settings={"enforce_eager": True},
                                   verdict=None if dep.measured.available_kv_bytes is not None else _try(s, replace(dep, enforce_eager=True)),
                                   params={}))
    return recs


def free_memory_ladder(s: Scenario | None, *, free_bytes: int | None, total_bytes: int | None) -> list[Recommendation]:
    """"Free memory on device … is less than desired GPU memory utilization": another process holds memory."""
    recs: list[Recommendation] = []
    if free_bytes and total_bytes:
        util = int(free_bytes / total_bytes * 100 - 2) / 100  # two points under what is free, rounded down
        if util > 0:
            recs.append(Recommendation(code="lower_gpu_memory_utilization", anchor="free-memory-below-utilization",
                                       settings={"gpu_memory_utilization": util},
                                       verdict=None, params={"to": util}))
    recs.append(Recommendation(code="free_the_gpu", anchor="free-memory-below-utilization",
                               settings={}, verdict=None, params={}))
    recs.append(Recommendation(code="kv_cache_memory_bytes", anchor="kv-cache-memory-bytes",
                               settings={}, verdict=None, params={}))
    return recs


def recommend(s: Scenario, v: Verdict) -> list[Recommendation]:
    """The ladder that fits this verdict, in the guide's order."""
    if v.status == "no_memory":
        return _weights_ladder(s, v)
    if v.status == "auto_fit_failed":
        return _weights_ladder(s, v)
    if v.fits:
        recs: list[Recommendation] = []
        conc = v.max_concurrency or 0
        if v.max_num_seqs > conc * 1.0 and conc < v.max_num_seqs:
            recs.extend(r for r in _kv_ladder(s, v) if r.code in ("fp8_kv_cache",))
        return recs
    return _kv_ladder(s, v)
