"""The guide's ordered advice, each step a computed what-if.

Order (the guide's "Fix the start-up error"): lower ``max_model_len`` → raise
``gpu_memory_utilization`` in small steps or free runtime memory (no CUDA graphs,
fewer sequences), whichever gives back more memory first → fp8 KV cache → smaller
or split weights (quantized, TP, a larger GPU, ``--cpu-offload-gb``) → a fixed
``kv_cache_memory_bytes``. KV offload
is not a fix: it cannot pass the start-up check. Other failures have their own
ladders. Variants are built with ``dataclasses.replace``, never by mutation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache

from . import catalog
from .arch.model import WeightQuant, normalize_config
from .budget.memory import BudgetSource, requested_bytes
from .deployment import Deployment
from .errors import CalcError
from .inputs import Scenario
from .kv.kv_spec import UNQUANTIZED_KV_DTYPES
from .units import GiB, MiB, cdiv
from .verdict import Verdict, VerdictStatus, plan

__all__ = [
    "RecCode",
    "Recommendation",
    "recommend",
    "free_memory_ladder",
    "readable_length",
    "UTILIZATION_WARN_ABOVE",
    "fitting_length",
    "quantized_siblings",
    "pessimistic_non_kv_bytes",
]


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
    """Which fix this is: the stable id the JSON, the CLI and the page share."""
    anchor: str
    """The guide section id that explains it (the same in every language)."""
    settings: dict[str, object]
    """The changed ``vllm serve`` flags, snake_case (``{"max_model_len": 16384}``)."""
    verdict: Verdict | None
    """The what-if; None when its effect cannot be computed (measured at runtime)."""
    params: dict[str, object]
    """Values the localized text quotes."""
    variant: str | None = None
    """Which wording of ``code`` applies (``free``: a fixed budget suggested without a computed
    size)."""
    exceeds_gpu: bool = False
    """The suggested setting asks for more memory than the GPU has (weights and runtime
    included)."""
    budget_edge: str = "central"
    """Where in the estimate's band ``verdict`` was planned: ``low`` (its pessimistic edge) or
    ``central``."""
    base_available_kv_bytes: int | None = None
    """The reader's own available KV memory at that same edge: what the what-if is compared with."""

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


def fitting_length(limit: int, central: int | None = None) -> int:
    """A round ``max_model_len`` that starts at ``limit`` (the band's pessimistic estimate).

    The 60–80 % rule of ``readable_length`` is the guide's margin for an estimate; applied to the
    pessimistic edge of the calculator's band it would take that margin twice (Qwen3-8B on an
    RTX 4090 at 40,960: 16,384 where 31,504 fit at the central estimate). So: the 60–80 % length of
    the ``central`` estimate when it fits within ``limit``, else the roundest length at or below
    ``limit`` (a multiple of 1024, then 256, then 16).
    """
    if central is not None and central > limit:
        preferred = readable_length(central)
        if preferred <= limit:
            return preferred
        for step in (1024, 256, 16):
            n = limit // step * step
            if n >= 0.6 * central and n > 0:
                return n
        return max(limit // 16 * 16, min(limit, 16), 1)
    return readable_length(limit)


def _try(s: Scenario, dep: Deployment) -> Verdict | None:
    try:
        return plan(s.model, dep)
    except CalcError:
        return None


def _lower_max_model_len(
    s: Scenario, v: Verdict, central: Verdict | None = None
) -> Recommendation | None:
    """A shorter ``max_model_len`` whenever one starts.

    ``v`` is the plan at the band's pessimistic edge, ``central`` the one the result shows. Where
    the pessimistic edge leaves room for some tokens the length aims there (``fitting_length``);
    where only the central estimate does, the length is offered as borderline: it starts if vLLM
    measures near it.
    """
    if v.fits:
        return None
    est = v.estimated_max_model_len
    shown = central.estimated_max_model_len if central is not None else est
    edge = v.deployment.budget_edge
    if est > 0:
        new_len = fitting_length(est, shown if shown != est else None)
        variant = "band" if shown != est else None
    elif shown > 0 and central is not None:
        new_len, variant = readable_length(shown), "borderline"
    else:
        return None
    if new_len >= v.max_model_len:
        return None
    params: dict[str, object] = {
        "estimated": shown,
        "value": new_len,
        "low": int(0.6 * shown),
        "high": int(0.8 * shown),
    }
    if variant is not None:
        params["edge_estimated"] = max(est, 0)
        params["edge_gib"] = round(max(v.available_kv_bytes, 0) / GiB, 1)
    return Recommendation(
        code=RecCode.LOWER_MAX_MODEL_LEN,
        anchor="lower-max-model-len",
        settings={"max_model_len": new_len},
        verdict=_try(s, replace(s.deployment, max_model_len=new_len)),
        params=params,
        variant=variant,
        budget_edge=edge,
        base_available_kv_bytes=v.available_kv_bytes,
    )


def _limit_concurrency(s: Scenario, v: Verdict) -> Recommendation | None:
    """Fewer sequences and batched tokens: a smaller profile run (activation) and CUDA-graph
    pool."""
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
    return Recommendation(
        code=RecCode.LIMIT_CONCURRENCY,
        anchor="limit-concurrency",
        settings=settings,
        verdict=_try(s, what_if) if computable else None,
        params={"flags": " ".join(f"--{k.replace('_', '-')} {val}" for k, val in settings.items())},
    )


def _raise_utilization(s: Scenario, v: Verdict) -> Recommendation | None:
    """``gpu_memory_utilization`` in 0.01 steps up to the first that fits, never past 0.95 without a
    warning."""
    dep = s.deployment
    if (
        not v.budget.is_profiled_or_measured
        or dep.kv_cache_memory_bytes is not None
        or not dep.gpu_memory_bytes
    ):
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
    return Recommendation(
        code=RecCode.RAISE_GPU_MEMORY_UTILIZATION,
        anchor="gpu-memory-utilization",
        settings={"gpu_memory_utilization": step_to[0]},
        verdict=step_to[1],
        params={"from": util, "to": step_to[0], "warn_above": UTILIZATION_WARN_ABOVE},
    )


def _fp8_kv_cache(s: Scenario) -> Recommendation | None:
    """An fp8 KV cache halves the bytes per token of a 16-bit cache."""
    if s.deployment.kv_cache_dtype not in UNQUANTIZED_KV_DTYPES:
        return None
    return Recommendation(
        code=RecCode.FP8_KV_CACHE,
        anchor="fp8-kv-cache",
        settings={"kv_cache_dtype": "fp8"},
        verdict=_try(s, replace(s.deployment, kv_cache_dtype="fp8")),
        params={},
    )


def pessimistic_non_kv_bytes(v: Verdict) -> int | None:
    """What the rest of vLLM takes on one GPU, at the plan's edge of the band: ``requested −
    available``.

    Profiled: the estimate's own terms (at the pessimistic edge, every estimated cost at its high
    end). Measured (a log's "Available KV cache memory" with the GPU's total and utilization): what
    the profile run took. None when the GPU's memory is not known.
    """
    b, dep = v.budget, v.deployment
    if b.source == BudgetSource.PROFILED and b.requested_bytes is not None:
        return b.requested_bytes - b.available_kv_bytes
    if b.source == BudgetSource.MEASURED and dep.gpu_memory_bytes:
        requested = requested_bytes(
            dep.gpu_memory_bytes, dep.effective_utilization, ceil=dep.rules.request_ceil
        )
        return requested - b.available_kv_bytes
    return None


def _fixed_budget(s: Scenario, v: Verdict) -> Recommendation | None:
    """A fixed KV budget: exactly what one request needs, rounded up to 256 MiB.

    Offered only when the rest of vLLM plus that budget stays within ``UTILIZATION_WARN_ABOVE`` of
    the GPU's total, the headroom the guide keeps for CUDA graphs, other processes and spikes (the
    ceiling of "raise --gpu-memory-utilization"): vLLM does not check a fixed budget against the GPU
    (vllm/v1/worker/gpu_worker.py ``determine_available_memory`` returns it as given), so a larger
    one starts and then fails with a CUDA OOM. The text quotes the utilization it amounts to.
    """
    need = (
        v.needed_kv_bytes + v.limiting.null_block_bytes
    )  # plus the null block the check holds back (0.29.0+)
    if need <= 0:
        return None
    dep = s.deployment
    fixed = cdiv(need, 256 * MiB) * 256 * MiB
    # What the rest of vLLM takes on the GPU, from the plan without a fixed budget.
    base = (
        v
        if dep.kv_cache_memory_bytes is None
        else _try(s, replace(dep, kv_cache_memory_bytes=None))
    )
    non_kv = pessimistic_non_kv_bytes(base) if base is not None else None
    params: dict[str, object] = {"bytes": fixed, "gib": round(fixed / GiB, 2)}
    variant = None
    if non_kv is not None and dep.gpu_memory_bytes:
        total = (
            base.budget.total_bytes
            if base is not None and base.budget.total_bytes
            else dep.gpu_memory_bytes
        )
        if non_kv + fixed > UTILIZATION_WARN_ABOVE * total:
            return None
        params["utilization"] = f"{cdiv((non_kv + fixed) * 100, total) / 100:.2f}"
        variant = "checked"
    return Recommendation(
        code=RecCode.KV_CACHE_MEMORY_BYTES,
        anchor="kv-cache-memory-bytes",
        settings={"kv_cache_memory_bytes": _human_bytes(fixed)},
        verdict=_try(s, replace(dep, kv_cache_memory_bytes=fixed)),
        params=params,
        variant=variant,
    )


def _enforce_eager(s: Scenario, v: Verdict) -> Recommendation | None:
    """``--enforce-eager`` captures no CUDA graphs; since #38284 their memory comes out of the KV
    budget."""
    dep = s.deployment
    if dep.enforce_eager:
        return None
    measured = dep.measured.available_kv_bytes is not None
    return Recommendation(
        code=RecCode.ENFORCE_EAGER,
        anchor="cuda-graph-memory",
        settings={"enforce_eager": True},
        verdict=None if measured else _try(s, replace(dep, enforce_eager=True)),
        params={},
    )


QUANT_TOKENS = frozenset(
    {
        "awq",
        "gptq",
        "fp8",
        "nvfp4",
        "mxfp4",
        "fp4",
        "int4",
        "int8",
        "w4a16",
        "w8a8",
        "w8a16",
        "dynamic",
        "4bit",
        "8bit",
        "bnb",
    }
)
"""Name tokens a quantized checkpoint adds to its base model's name (``Qwen3-32B-AWQ``,
``…-A3B-NVFP4``)."""


@lru_cache(maxsize=64)
def quantized_siblings(model_id: str) -> tuple[catalog.CatalogModel, ...]:
    """Catalog checkpoints of the same base model stored quantized: same name plus only quantization
    tokens, and a ``quantization_config`` (a catalog fact, never a guessed repository). Cached: a
    pure function of the id and the bundled catalog, asked again on every recompute of a
    scenario."""
    base = catalog._tokens(model_id.rpartition("/")[2])
    if not base:
        return ()
    out = []
    for other in catalog.model_ids():
        tokens = catalog._tokens(other.rpartition("/")[2])
        extra = tokens[len(base) :]
        if (
            other != model_id
            and tokens[: len(base)] == base
            and extra
            and set(extra) <= QUANT_TOKENS
        ):
            m = catalog.model_by_id(other)
            if isinstance(m.config.get("quantization_config"), Mapping):
                out.append(m)
    return tuple(out)


def _quantize_weights(s: Scenario) -> Recommendation | None:
    """A quantized checkpoint of the same model: the catalog's own (its stored weights), else a
    4-bit AWQ checkpoint counted from the parameters (4-bit weights, a 16-bit scale and a 4-bit zero
    per group of 128: budget.weight_bytes). No what-if when vLLM measured the weights."""
    if s.model.quant.method != "none":
        return None
    if _weights_measured(s):
        return Recommendation(
            code=RecCode.QUANTIZE_WEIGHTS,
            anchor="weights-and-hardware",
            settings={},
            verdict=None,
            params={},
            variant="generic",
        )
    best: tuple[Verdict, str] | None = None
    for m in quantized_siblings(s.model.model_id):
        spec = normalize_config(
            m.config,
            model_id=m.id,
            num_parameters=m.num_parameters,
            checkpoint_bytes=m.weights_bytes,
        )
        trial = _try(replace(s, model=spec, model_label=m.id), s.deployment)
        if trial is not None and (
            best is None or trial.available_kv_bytes > best[0].available_kv_bytes
        ):
            best = (trial, m.id)
    if best is not None:
        return Recommendation(
            code=RecCode.QUANTIZE_WEIGHTS,
            anchor="weights-and-hardware",
            settings={"model": best[1]},
            verdict=best[0],
            params={"model": best[1]},
            variant="catalog",
        )
    # the checkpoint's exact bf16 total no longer applies: the 4-bit one is counted from the
    # parameters
    q_model = replace(
        s.model, quant=WeightQuant(method="awq", bits=4, group_size=128), checkpoint_bytes=None
    )
    return Recommendation(
        code=RecCode.QUANTIZE_WEIGHTS,
        anchor="weights-and-hardware",
        settings={},
        verdict=_try(replace(s, model=q_model), s.deployment),
        params={},
        variant="generic",
    )


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
    return Recommendation(
        code=RecCode.ADD_GPUS,
        anchor="weights-and-hardware",
        settings={"tensor_parallel_size": tp},
        verdict=None if _weights_measured(s) else _try(s, replace(dep, tensor_parallel_size=tp)),
        params={"tp": tp},
    )


def _cpu_offload(s: Scenario, v: Verdict) -> Recommendation | None:
    """``--cpu-offload-gb``: the fewest whole GiB of weights per GPU kept in CPU memory that let
    vLLM start."""
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
    return Recommendation(
        code=RecCode.CPU_OFFLOAD,
        anchor="weights-and-hardware",
        settings={"cpu_offload_gb": total_gib},
        verdict=best,
        params={"gib": total_gib},
    )


def _by_gain(v: Verdict, rungs: list[Recommendation | None]) -> list[Recommendation]:
    """The free rungs that raise the available memory, most memory given back first (the guide, "Fix
    the start-up error": steps 2 and 4 in the order of what they give back); ties and rungs whose
    effect vLLM measures keep the guide's order, after the computed ones."""
    present = [r for r in rungs if r is not None]

    def gain(r: Recommendation) -> tuple[int, int]:
        if r.verdict is None:
            return (1, 0)
        return (0, -(r.verdict.available_kv_bytes - v.available_kv_bytes))

    return sorted(present, key=gain)


def _kv_ladder(s: Scenario, v: Verdict, central: Verdict | None = None) -> list[Recommendation]:
    """ "KV cache too small": the guide's order, cheapest and safest first.

    Shorter context; more available memory for free (a little more of the GPU, no CUDA graphs,
    fewer sequences: whichever gives back more first); an fp8 cache; smaller or split weights;
    last, a fixed budget.
    """
    free = _by_gain(v, [_raise_utilization(s, v), _enforce_eager(s, v), _limit_concurrency(s, v)])
    rungs = (
        _lower_max_model_len(s, v, central),
        *free,
        _fp8_kv_cache(s),
        _quantize_weights(s),
        _add_gpus(s),
        _larger_gpu(s, v),
        _cpu_offload(s, v),
        _fixed_budget(s, v),
    )
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


def _larger_gpu(s: Scenario, v: Verdict) -> Recommendation | None:
    """The smallest catalog GPU with more usable memory on which the scenario starts.

    "Usable": what vLLM may take of it, its CUDA total (``estimates.cuda_visible_total``) less what
    a unified-memory host keeps (its non-torch estimate); a card counts only when the what-if leaves
    more KV memory than the reader's GPU at the same edge of the band. The command does not change
    (vLLM has no flag for the GPU): the text says so and the fix carries no command of its own.
    """
    dep = s.deployment
    if (
        not dep.gpu_memory_bytes
        or dep.measured.available_kv_bytes is not None
        or v.budget.total_bytes is None
    ):
        return None
    mine = v.budget.total_bytes - v.budget.non_torch_bytes
    for gpu in sorted(catalog.gpus(), key=lambda g: g.memory_bytes):
        if gpu.memory_bytes <= dep.gpu_memory_bytes:
            continue
        trial = _try(
            s,
            replace(
                dep,
                gpu_id=gpu.id,
                gpu_name=gpu.name,
                gpu_memory_bytes=gpu.memory_bytes,
                gpu_memory_source=gpu.memory_source_kind,
            ),
        )
        if trial is None or not trial.fits or trial.budget.total_bytes is None:
            continue
        if (
            trial.budget.total_bytes - trial.budget.non_torch_bytes <= mine
            or trial.available_kv_bytes <= v.available_kv_bytes
        ):
            continue
        return Recommendation(
            code=RecCode.LARGER_GPU,
            anchor="weights-and-hardware",
            variant="usable",
            settings={"gpu": gpu.id},
            verdict=trial,
            params={
                "gpu": gpu.id,
                "gib": round(gpu.memory_bytes / GiB, 2),
                "current": dep.gpu_id or f"{dep.gpu_memory_bytes / GiB:.2f} GiB",
            },
        )
    return None


def _weights_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    """The weights (plus runtime memory) fill the GPU: smaller or split weights first.

    "No available memory for the cache blocks" with weights that load: a utilization set low is the
    free fix vLLM's own message names (the guide, "No available memory for the cache blocks", first
    fix), so it leads.
    """
    raise_util = _raise_utilization(s, v) if v.status == VerdictStatus.NO_MEMORY else None
    rungs = (
        raise_util,
        _quantize_weights(s),
        _add_gpus(s),
        _larger_gpu(s, v),
        _cpu_offload(s, v),
        _enforce_eager(s, v),
    )
    return [r for r in rungs if r is not None]


def free_memory_ladder(*, free_bytes: int | None, total_bytes: int | None) -> list[Recommendation]:
    """ "Free memory on device … is less than desired GPU memory utilization": another process holds
    memory."""
    recs: list[Recommendation] = []
    if free_bytes and total_bytes:
        util = (
            int(free_bytes / total_bytes * 100 - 2) / 100
        )  # two points under what is free, rounded down
        if util > 0:
            recs.append(
                Recommendation(
                    code=RecCode.LOWER_GPU_MEMORY_UTILIZATION,
                    anchor="free-memory-below-utilization",
                    settings={"gpu_memory_utilization": util},
                    verdict=None,
                    params={"to": util},
                )
            )
    recs.append(
        Recommendation(
            code=RecCode.FREE_THE_GPU,
            anchor="free-memory-below-utilization",
            settings={},
            verdict=None,
            params={},
        )
    )
    recs.append(
        Recommendation(
            code=RecCode.KV_CACHE_MEMORY_BYTES,
            anchor="kv-cache-memory-bytes",
            settings={},
            verdict=None,
            params={},
            variant="free",
        )
    )
    return recs


def _mamba_blocks_ladder(s: Scenario, v: Verdict) -> list[Recommendation]:
    """Fewer Mamba cache blocks than ``max_num_seqs``: cap the sequences at the blocks, skip FULL
    CUDA graphs, or give the cache more memory (vLLM's own two suggestions first)."""
    blocks = v.num_gpu_blocks or 0
    rungs: list[Recommendation | None] = []
    if blocks > 0:
        rungs.append(
            Recommendation(
                code=RecCode.LIMIT_CONCURRENCY,
                anchor="limit-concurrency",
                variant="mamba",
                settings={"max_num_seqs": blocks},
                verdict=_try(s, replace(s.deployment, max_num_seqs=blocks)),
                params={"flags": f"--max-num-seqs {blocks}", "blocks": blocks},
            )
        )
    rungs += [_raise_utilization(s, v), _enforce_eager(s, v)]
    return [r for r in rungs if r is not None]


def recommend(s: Scenario, v: Verdict) -> list[Recommendation]:
    """The ladder that fits this verdict, in the guide's order.

    An estimated budget is a band: every what-if is planned at its pessimistic edge
    (``budget_edge="low"``), so a fix counts only if vLLM starts whatever it measures; each
    recommendation carries that edge and the reader's own available memory at it, so a what-if is
    never compared with the central figure.
    """
    central = v
    if v.budget.has_band and s.deployment.budget_edge != "low":
        s = replace(s, deployment=replace(s.deployment, budget_edge="low"))
        v = plan(s.model, s.deployment)
    recs = _ladder(s, v, central)
    edge = s.deployment.budget_edge
    return [
        replace(r, budget_edge=edge, base_available_kv_bytes=v.available_kv_bytes)
        if r.verdict is not None
        else r
        for r in recs
    ]


def _ladder(s: Scenario, v: Verdict, central: Verdict) -> list[Recommendation]:
    if v.status == VerdictStatus.MAMBA_BLOCKS_BELOW_MAX_NUM_SEQS:
        return _mamba_blocks_ladder(s, v)
    weights = (
        VerdictStatus.NO_MEMORY,
        VerdictStatus.AUTO_FIT_FAILED,
        VerdictStatus.WEIGHTS_EXCEED_GPU,
    )
    if v.status in weights and central.status not in (
        VerdictStatus.DOES_NOT_FIT,
        VerdictStatus.FITS,
    ):
        return _weights_ladder(s, v)
    if not v.fits:
        return _kv_ladder(s, v, central)
    # It starts: fp8 is still worth it when fewer requests fit than max_num_seqs allows.
    if (v.max_concurrency or 0) < v.max_num_seqs:
        fp8 = _fp8_kv_cache(s)
        return [fp8] if fp8 is not None else []
    return []
