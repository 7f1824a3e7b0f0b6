"""A pasted vLLM log → diagnosis, the form values it implies, and a recomputed plan.

Shared by ``kvcalc log`` and the calculator's "paste your log" box.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from .. import catalog
from ..analysis import (
    QUANT_TOKENS,
    UTILIZATION_WARN_ABOVE,
    Analysis,
    RecCode,
    Recommendation,
    analyze,
    free_memory_ladder,
    plan,
    readable_length,
)
from ..deployment import MODEL_DTYPES, batch_defaults
from ..errors import CalcError
from ..inputs import Scenario, scenario_from_inputs
from ..units import gib_to_bytes
from ..versions import rules_for
from ..vllm_flags import FLAG_BY_NAME
from .log_capacity import CapacityFit, FitStatus, fit_capacity
from .log_mismatch import FigureMismatch, figure_mismatches
from .logparse import LogReading, parse_log

__all__ = [
    "Diagnosis",
    "LogFigures",
    "inputs_from_reading",
    "merge_inputs",
    "missing_inputs",
    "diagnose",
    "failure_advice",
]

# Inputs that say which model is served: a log naming a model replaces all of them.
_MODEL_INPUTS = ("model", "config")

# Inputs that give the memory budget a size: any one of them will do (calc/inputs.py raises
# missing_gpu without).
_GPU_INPUTS = (
    "gpu",
    "gpu_memory_gib",
    "available_kv_gib",
    "available_kv_bytes",
    "kv_cache_memory_bytes",
)

# fact key → form input; the log's measured figures replace our estimates.
_FACT_TO_INPUT = {
    "max_model_len": "max_model_len",
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "dtype": "dtype",
    "kv_cache_dtype": "kv_cache_dtype",
    "decode_context_parallel_size": "decode_context_parallel_size",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "max_num_seqs": "max_num_seqs",
    "max_num_batched_tokens": "max_num_batched_tokens",
    "block_size": "block_size",
    "kv_cache_memory_bytes": "kv_cache_memory_bytes",
    "available_kv_gib": "available_kv_gib",
    "total_gpu_memory_gib": "gpu_memory_gib",
    "model_weights_gib": "weights_gib",
    "activation_peak_gib": "activation_gib",
    "non_torch_gib": "non_torch_gib",
    "cudagraph_gib": "cudagraph_gib",
    "mamba_cache_mode": "mamba_cache_mode",
    "mamba_ssm_cache_dtype": "mamba_ssm_cache_dtype",
    "limit_mm_per_prompt": "limit_mm_per_prompt",
}


# Measured figures vLLM prints as differences of two readings: a negative one is a reading artefact.
_MEASURED_GIB = frozenset({"weights_gib", "activation_gib", "non_torch_gib", "cudagraph_gib"})


@dataclass(frozen=True, kw_only=True)
class LogFigures:
    """The answers that follow from a log's own numbers, before any model is known.

    The error line gives the length checked, what one request needs, what was
    available and vLLM's estimated maximum length; from those, the guide's
    starting length (60–80 % of the estimate) and the bytes per token.
    """

    max_model_len: int | None = None
    """The length vLLM checked ("the model's max seq len")."""
    needed_kv_bytes: int | None = None
    """"X GiB KV cache is needed", in bytes (to vLLM's 0.01 GiB rounding)."""
    available_kv_bytes: int | None = None
    """"the available KV cache memory (Y GiB)", in bytes (to vLLM's 0.01 GiB rounding)."""
    estimated_max_model_len: int | None = None
    """vLLM's "estimated maximum model length", as printed."""
    kv_bytes_per_token: int | None = None
    """``needed ÷ max_model_len`` from the error's GiB figures (rounded to 0.01 GiB by vLLM)."""
    suggested_max_model_len: int | None = None
    """The guide's starting length, a readable length below the estimate."""

    @property
    def any(self) -> bool:
        return any(
            v is not None
            for v in (
                self.max_model_len,
                self.needed_kv_bytes,
                self.available_kv_bytes,
                self.estimated_max_model_len,
            )
        )


@dataclass(frozen=True, kw_only=True)
class Diagnosis:
    reading: LogReading
    """What the log states, line by line (its facts and the start-up read)."""
    inputs: dict[str, object]
    """Form values implied by the log (strings, as a reader would type them)."""
    analysis: Analysis | None
    """The log's scenario recomputed; None when the log does not say enough (see
    ``replan_error``)."""
    recommendations: tuple[Recommendation, ...]
    """The analysis's advice, or the free-memory ladder when another process held the GPU."""
    replan_error: CalcError | None
    """Why the log could not be recomputed (unknown model, …)."""
    figures: LogFigures
    """What the log's own numbers answer, with or without a model."""
    capacity_fit: CapacityFit | None = None
    """How the recomputed plan meets the log's capacity lines (log_capacity.py); None without such a
    pair."""
    chosen_by_vllm: frozenset[str] = frozenset()
    """Inputs read off the log whose value is the one vLLM chose itself (its default for this model,
    GPU and release): kept for the plan, left out of "your current command" (the reader did not set
    them)."""
    mismatches: tuple[FigureMismatch, ...] = ()
    """The log's exact figures the recomputation misses beyond the log's rounding
    (log_mismatch.py)."""
    inferred: tuple[str, ...] = ()
    """Inputs taken from a lower bound only (``tensor_parallel_size`` from the highest worker rank
    seen)."""
    stated: tuple[str, ...] = ()
    """The names in ``inputs`` whose value the log stated (the rest came from the form), in
    ``inputs`` order."""
    missing: tuple[str, ...] = ()
    """What a plan needs that neither the log nor the form gave: ``"model"`` and/or ``"gpu"``."""
    oom_phase: str | None = None
    """A CUDA OOM's phase (``loading``, ``profiling``, ``capture``, ``runtime``: ``_oom_phase``);
    None otherwise."""

    @property
    def title_key(self) -> str:
        """The diagnosis's string key: a CUDA OOM before start-up finished is not a run-time one."""
        kind = self.reading.diagnosis
        if kind == "cuda_out_of_memory" and self.oom_phase not in (None, "runtime"):
            return "diag.cuda_out_of_memory_startup"
        return f"diag.{kind}"


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def catalog_model_named(reading: LogReading) -> str | None:
    """The catalog id of the model the log names; None for a local path or no model."""
    model = reading.facts.get("model")
    if not isinstance(model, str):
        return None
    try:
        return catalog.find_model(model.strip().rstrip("/")).id
    except LookupError:
        return None


def inputs_from_reading(reading: LogReading) -> dict[str, object]:
    facts = reading.facts
    inputs: dict[str, object] = {}
    model = facts.get("model")
    if isinstance(model, str):
        inputs["model"] = catalog_model_named(reading) or model.strip()
    version = facts.get("vllm_version")
    if isinstance(version, str) and version.strip():
        inputs["vllm_version"] = version.strip().lstrip("v").split("+")[0]
    for fact, key in _FACT_TO_INPUT.items():
        if fact in facts and facts[fact] not in (None, ""):
            if key == "kv_cache_dtype" and str(facts[fact]) == "auto":
                continue
            if key == "dtype" and (
                str(facts[fact]) not in MODEL_DTYPES
                or (fact not in reading.stated and facts[fact] != "float32")
            ):
                # the reader's --dtype, or a 32-bit run's: a 16-bit dtype vLLM resolved itself
                # sizes nothing differently from the config's
                continue
            value = facts[fact]
            if key in _MEASURED_GIB and isinstance(value, (int, float)) and value < 0:
                # "Graph capturing finished ..., took -0.41 GiB": capture freed memory; nothing to
                # subtract
                continue
            inputs[key] = _as_text(facts[fact])
    for flag in ("enforce_eager", "skip_mm_profiling"):
        if facts.get(flag) is True:
            inputs[flag] = "1"
    if isinstance(
        facts.get("enable_prefix_caching"), bool
    ):  # False counts too: --no-enable-prefix-caching
        inputs["enable_prefix_caching"] = "true" if facts["enable_prefix_caching"] else "false"
    if "gpu_memory_gib" not in inputs and isinstance(facts.get("gpu_name"), str):
        try:
            inputs["gpu"] = catalog.find_gpu(str(facts["gpu_name"])).id
        except LookupError:
            pass
    return inputs


def _fact_int(facts: Mapping[str, object], key: str) -> int | None:
    v = facts.get(key)
    return v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None


def _fact_bytes(facts: Mapping[str, object], key: str) -> int | None:
    v = facts.get(key)
    return (
        gib_to_bytes(float(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
    )


def log_figures(reading: LogReading) -> LogFigures:
    f = reading.facts
    length, needed = _fact_int(f, "max_model_len"), _fact_bytes(f, "needed_kv_gib")
    est = _fact_int(f, "estimated_max_model_len")
    return LogFigures(
        max_model_len=length,
        needed_kv_bytes=needed,
        available_kv_bytes=_fact_bytes(f, "available_kv_gib"),
        estimated_max_model_len=est,
        kv_bytes_per_token=needed // length if needed and length else None,
        suggested_max_model_len=readable_length(est) if est else None,
    )


def _log_only_advice(reading: LogReading, figures: LogFigures) -> tuple[Recommendation, ...]:
    """The fixes a model-less log can still quantify: the length from vLLM's own estimate, then fp8;
    for the other failures, their guide section's fixes (``failure_advice``)."""
    if reading.diagnosis != "kv_cache_too_small":
        return failure_advice(reading)
    recs = []
    est, new_len = figures.estimated_max_model_len, figures.suggested_max_model_len
    tokens = _fact_int(reading.facts, "gpu_kv_cache_tokens")
    if not est and tokens and figures.max_model_len and tokens < figures.max_model_len:
        # no "estimated maximum model length" in the log (V0 and early V1 print none): the cache's
        # own capacity, "GPU KV cache size: N tokens", is the longest request that fits
        # (vllm/v1/core/kv_cache_utils.py)
        est, new_len = tokens, readable_length(tokens)
    if est and new_len:
        recs.append(
            Recommendation(
                code=RecCode.LOWER_MAX_MODEL_LEN,
                anchor="lower-max-model-len",
                settings={"max_model_len": new_len},
                verdict=None,
                params={
                    "estimated": est,
                    "value": new_len,
                    "low": int(0.6 * est),
                    "high": int(0.8 * est),
                },
            )
        )
    recs.append(
        Recommendation(
            code=RecCode.FP8_KV_CACHE,
            anchor="fp8-kv-cache",
            settings={"kv_cache_dtype": "fp8"},
            verdict=None,
            params={},
        )
    )
    return tuple(recs)


_SMALL_SEQS, _SMALL_TOKENS = 16, 2048
"""What "lower --max-num-seqs / --max-num-batched-tokens" proposes (advice.py
``_limit_concurrency``)."""


def _fewer(facts: Mapping[str, object], anchor: str, variant: str | None) -> Recommendation | None:
    """Fewer sequences and batched tokens than the log ran with (the defaults when it does not
    say)."""
    settings: dict[str, object] = {}
    seqs, tokens = _fact_int(facts, "max_num_seqs"), _fact_int(facts, "max_num_batched_tokens")
    if seqs is None or seqs > _SMALL_SEQS:
        settings["max_num_seqs"] = _SMALL_SEQS
    if tokens is None or tokens > _SMALL_TOKENS:
        settings["max_num_batched_tokens"] = _SMALL_TOKENS
    if not settings:
        return None
    flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in settings.items())
    return Recommendation(
        code=RecCode.LIMIT_CONCURRENCY,
        anchor=anchor,
        settings=settings,
        verdict=None,
        params={"flags": flags},
        variant=variant,
    )


_SERVING_SIGNS = (
    "Application startup complete",
    "Starting vLLM API server",
    "init engine (profile, create kv cache, warmup model) took",
    "AsyncLLM output_handler failed",
    "in run_busy_loop",
)
"""Lines printed once start-up finished (vllm/v1/engine/core.py,
vllm/entrypoints/openai/api_server.py), and the frames of what only runs while serving: the output
handler AsyncLLM starts on the first request (vllm/v1/engine/async_llm.py ``_run_output_handler``)
and the engine core's busy loop (``run_busy_loop``)."""
_PROFILE_SIGNS = ("_dummy_sampler_run", "profile_run", "_dummy_run", "when warming up sampler")
"""Frames of vLLM's profiling run and sampler warm-up (vllm/v1/worker/gpu_model_runner.py) in a
traceback."""


def _oom_phase(facts: Mapping[str, object], text: str) -> str:
    """Where a CUDA OOM struck, from the lines printed before it (the guide, "CUDA out of memory at
    start-up"): ``loading`` (no "Model loading took" and no profiling frame), ``profiling`` (no
    "Available KV cache memory" yet), ``capture`` (the cache sized, start-up not finished) or
    ``runtime`` (it had started)."""
    sized = "available_kv_gib" in facts or "num_gpu_blocks" in facts
    if any(sign in text for sign in _SERVING_SIGNS):
        return "runtime"
    if sized:
        return "capture"
    if "model_weights_gib" in facts or any(sign in text for sign in _PROFILE_SIGNS):
        return "profiling"
    return "loading"


def failure_advice(reading: LogReading, text: str = "") -> tuple[Recommendation, ...]:
    """The fixes of the guide section of a failure the plan cannot compute (each with its section
    id): "No available memory for the cache blocks", a CUDA OOM (by the phase it struck in), "free
    memory below utilization", the Mamba blocks below ``max_num_seqs``. Their effect is vLLM's to
    measure: no what-if."""
    f, kind = reading.facts, reading.diagnosis
    recs: list[Recommendation | None] = []
    tp = _fact_int(f, "tensor_parallel_size") or 1
    model = f.get("model")
    quantized = (
        isinstance(f.get("quantization"), str) and f.get("quantization") not in ("", "none", "None")
    ) or (
        isinstance(model, str)
        and bool(set(catalog._tokens(model.rpartition("/")[2])) & QUANT_TOKENS)
    )
    weights = (
        []
        if quantized
        else [
            Recommendation(
                code=RecCode.QUANTIZE_WEIGHTS,
                anchor="weights-and-hardware",
                settings={},
                verdict=None,
                params={},
                variant="generic",
            )
        ]
    )
    weights.append(
        Recommendation(
            code=RecCode.ADD_GPUS,
            anchor="weights-and-hardware",
            settings={"tensor_parallel_size": tp * 2},
            verdict=None,
            params={"tp": tp * 2},
        )
    )
    eager = (
        None
        if f.get("enforce_eager") is True
        else Recommendation(
            code=RecCode.ENFORCE_EAGER,
            anchor="cuda-graph-memory",
            settings={"enforce_eager": True},
            verdict=None,
            params={},
        )
    )
    if kind == "no_memory_for_cache_blocks":
        util = f.get("gpu_memory_utilization")
        if not (isinstance(util, (int, float)) and util >= UTILIZATION_WARN_ABOVE):
            recs.append(
                Recommendation(
                    code=RecCode.RAISE_GPU_MEMORY_UTILIZATION,
                    anchor="no-memory-for-cache-blocks",
                    settings={},
                    verdict=None,
                    params={},
                    variant="log",
                )
            )
        recs += [eager, _fewer(f, "limit-concurrency", None), *weights]
    elif kind == "cuda_out_of_memory":
        phase = _oom_phase(f, text)
        if phase == "loading":
            recs += weights
        elif phase == "profiling":
            recs.append(_fewer(f, "cuda-oom-at-startup", "oom"))
        elif phase == "capture":
            recs += [_fewer(f, "cuda-oom-at-startup", "oom"), eager]
        else:
            util = f.get("gpu_memory_utilization")
            if isinstance(util, (int, float)) and not isinstance(util, bool) and util > 0.1:
                to = round(float(util) - 0.03, 2)
                recs.append(
                    Recommendation(
                        code=RecCode.LOWER_GPU_MEMORY_UTILIZATION,
                        anchor="cuda-out-of-memory",
                        settings={"gpu_memory_utilization": to},
                        verdict=None,
                        params={"to": to},
                        variant="runtime",
                    )
                )
            recs += [
                _fewer(f, "concurrency-and-throughput", None),
                eager,
                Recommendation(
                    code=RecCode.FREE_THE_GPU,
                    anchor="cuda-out-of-memory",
                    settings={},
                    verdict=None,
                    params={},
                ),
            ]
    elif (
        kind == "load_out_of_memory"
    ):  # the weights did not fit while loading (logparse: a load-time OOM)
        recs += weights
    elif kind == "mamba_blocks_below_max_num_seqs":
        recs += [_mamba_cap(f), eager]
    elif kind == "free_memory_below_utilization":
        return _free_memory_advice(reading)
    return tuple(r for r in recs if r is not None)


def _mamba_cap(facts: Mapping[str, object]) -> Recommendation | None:
    """``--max-num-seqs`` at the Mamba cache blocks the error counted: vLLM's own bound ("lower
    max_num_seqs to at most N", vllm/config/compilation.py, #38270), read off the log, so no model
    is needed."""
    blocks, seqs = _fact_int(facts, "mamba_cache_blocks"), _fact_int(facts, "max_num_seqs")
    if blocks is None or (seqs is not None and seqs <= blocks):
        return None
    return Recommendation(
        code=RecCode.LIMIT_CONCURRENCY,
        anchor="mamba-cache-blocks",
        variant="mamba",
        settings={"max_num_seqs": blocks},
        verdict=None,
        params={"flags": f"--max-num-seqs {blocks}", "blocks": blocks},
    )


def _given(inputs: Mapping[str, object], key: str) -> bool:
    value = inputs.get(key)
    return value is not None and not (isinstance(value, str) and not value.strip())


def _merged(
    form: Mapping[str, object], from_log: Mapping[str, object], keep: Collection[str]
) -> tuple[dict[str, object], tuple[str, ...]]:
    """``merge_inputs`` and the names whose value is the log's."""
    kept = {k for k in keep if _given(form, k)}
    log_model = "model" in from_log and not kept & set(_MODEL_INPUTS)
    merged = {k: v for k, v in form.items() if not (k in _MODEL_INPUTS and log_model)}
    stated = []
    for key, value in from_log.items():
        if key in kept or (key == "model" and not log_model):
            continue
        merged[key] = value
        stated.append(key)
    return merged, tuple(k for k in merged if k in stated)


def merge_inputs(
    form: Mapping[str, object], from_log: Mapping[str, object], keep: Collection[str] = ()
) -> dict[str, object]:
    """The form with what the log states laid over it: the log overrides only the fields it names.

    A pasted config.json or a chosen model stays unless the log names a model. ``keep``: the form's
    inputs the reader typed, which stay even where the log states another value (a typed model or
    config keeps the log's model out).
    """
    return _merged(form, from_log, keep)[0]


def missing_inputs(inputs: Mapping[str, object]) -> tuple[str, ...]:
    """What a plan needs that ``inputs`` lacks: the model (or its config.json), the GPU (or a memory
    figure)."""
    missing = [] if any(_given(inputs, k) for k in _MODEL_INPUTS) else ["model"]
    if not any(_given(inputs, k) for k in _GPU_INPUTS):
        missing.append("gpu")
    return tuple(missing)


def _free_memory_advice(reading: LogReading) -> tuple[Recommendation, ...]:
    f = reading.facts
    free, total = f.get("free_memory_gib"), f.get("total_gpu_memory_gib")
    return tuple(
        free_memory_ladder(
            free_bytes=gib_to_bytes(float(free)) if isinstance(free, (int, float)) else None,
            total_bytes=gib_to_bytes(float(total)) if isinstance(total, (int, float)) else None,
        )
    )


def _fitted(scenario: Scenario, fit: CapacityFit | None) -> Scenario:
    """The scenario at the available bytes that reproduce the log's capacity (an EXACT or
    LEAST_WORKER fit), else as given."""
    if fit is None or fit.status not in (FitStatus.EXACT, FitStatus.LEAST_WORKER):
        return scenario
    dep = scenario.deployment
    measured = replace(dep.measured, available_kv_bytes=fit.available_kv_bytes)
    return replace(scenario, deployment=replace(dep, measured=measured))


# Input name → the fact key it is read from (the reverse of _FACT_TO_INPUT, plus the boolean flags).
_INPUT_TO_FACT = {
    **{v: k for k, v in _FACT_TO_INPUT.items()},
    **{k: k for k in ("enforce_eager", "skip_mm_profiling", "enable_prefix_caching")},
}
_ONE = ("tensor_parallel_size", "pipeline_parallel_size", "decode_context_parallel_size")


def _number(value: object) -> float | None:
    try:
        return float(str(value))
    except ValueError:
        return None


def _log_defaults(
    reading: LogReading,
    from_log: Mapping[str, object],
    form: Mapping[str, object],
    inputs: Mapping[str, object],
) -> tuple[frozenset[str], frozenset[str]]:
    """(chosen, open): the log's settings that are vLLM's own choice without a model, and those
    whose default only a plan can tell. A setting the reader's command or vLLM's non-default args
    stated, or the form gave, is never either."""
    chosen, undecided = set(), set()
    for key, value in from_log.items():
        fact = _INPUT_TO_FACT.get(key)
        if fact is None or key in form or fact in reading.stated:
            continue
        if fact in reading.defaulted or (key in _ONE and _number(value) == 1):
            chosen.add(key)
        elif reading.starts and key in FLAG_BY_NAME:
            # vllm/entrypoints/utils.py log_non_default_args lists every flag the reader set (serve
            # and LLM(...) alike); one it leaves out is vLLM's own value, whatever the entry point's
            # defaults (get_batch_defaults gives LLM(...) larger ones)
            chosen.add(key)
        elif key in ("dtype", "enable_prefix_caching"):
            chosen.add(key)  # unstated: the engine line prints the value vLLM resolved
        elif key == "gpu_memory_utilization":
            try:
                default = rules_for(
                    inputs.get("vllm_version") or None
                ).default_gpu_memory_utilization
            except CalcError:
                continue
            if _number(value) == default:
                chosen.add(key)
        elif key in ("max_model_len", "max_num_seqs", "max_num_batched_tokens", "block_size"):
            undecided.add(key)
    return frozenset(chosen), frozenset(undecided)


def _planned_defaults(
    a: Analysis, keys: frozenset[str], inputs: Mapping[str, object]
) -> frozenset[str]:
    """Of ``keys``, those whose logged value is what vLLM resolves when none is given, for this
    model, GPU and release: the config's length, ``batch_defaults`` (vllm/engine/arg_utils.py), the
    backend's block."""
    v, dep = a.verdict, a.scenario.deployment
    chosen = set()
    for key in keys:
        logged = _number(inputs.get(key))
        if key == "max_model_len":
            default: int | None = v.derived_max_model_len
        elif key in ("max_num_seqs", "max_num_batched_tokens"):
            if key == "max_num_seqs":
                default = batch_defaults(replace(dep, max_num_seqs=None))[1]
            else:
                default = batch_defaults(replace(dep, max_num_batched_tokens=None))[0]
        else:
            try:
                default = plan(a.scenario.model, replace(dep, block_size=None)).block_size
            except CalcError:
                continue
        if logged is not None and default is not None and logged == default:
            chosen.add(key)
    return frozenset(chosen)


def _corrected(
    inputs: Mapping[str, object], corrections: Mapping[str, object]
) -> dict[str, object]:
    """The reader's explicit flags over what the log states: a correction wins (a model given
    replaces a config and the other way round)."""
    out = {
        k: v
        for k, v in inputs.items()
        if not (k in _MODEL_INPUTS and any(m in corrections for m in _MODEL_INPUTS))
    }
    if "gpu" in corrections or "gpu_memory_gib" in corrections:
        out.pop("gpu", None)
        out.pop("gpu_memory_gib", None)
    out.update(corrections)
    return out


# Parallel sizes the worker prefixes bound from below (logparse ``*_at_least``), used when nothing
# states them.
_LOWER_BOUNDS = ("tensor_parallel_size", "pipeline_parallel_size")


def _with_lower_bounds(inputs: dict[str, object], reading: LogReading) -> tuple[str, ...]:
    inferred = []
    for key in _LOWER_BOUNDS:
        n = reading.facts.get(f"{key}_at_least")
        if key not in inputs and isinstance(n, int) and not isinstance(n, bool) and n > 1:
            inputs[key] = str(n)
            inferred.append(key)
    return tuple(inferred)


def diagnose(
    text: str,
    form: Mapping[str, object] | None = None,
    *,
    keep: Collection[str] = (),
    corrections: Mapping[str, object] | None = None,
) -> Diagnosis:
    """Read ``text``, lay what it states over the ``form`` (but under the ``keep`` inputs the reader
    typed) and, when that names enough, recompute the plan (at the bytes inside the log's GiB
    rounding that give its own capacity, when it printed one).

    ``corrections`` are the reader's explicit settings (``kvcalc log FILE --tensor-parallel-size
    2``): they win over the log's own values, which win over the ``form``. A log that names no
    model, with no model in the form, is never planned: no default model stands in for it
    (``missing`` says what to ask for).
    """
    reading = parse_log(text)
    from_log = inputs_from_reading(reading)
    merged, from_the_log = _merged(form or {}, from_log, keep)
    inputs = _corrected(merged, corrections or {})
    inferred = _with_lower_bounds(inputs, reading)
    stated = tuple(
        k for k in inputs if (k in from_the_log or k in inferred) and k not in (corrections or {})
    )
    missing = missing_inputs(inputs)
    # a correction is the reader's own setting, as a typed field is: never "chosen by vLLM"
    chosen, undecided = _log_defaults(
        reading, from_log, {**(form or {}), **(corrections or {})}, inputs
    )
    analysis: Analysis | None = None
    err = None
    fit = None
    try:
        scenario = scenario_from_inputs(inputs)
        fit = fit_capacity(scenario, reading.facts)
        analysis = analyze(_fitted(scenario, fit))
    except CalcError as exc:
        err = exc
    if analysis is not None:
        chosen |= _planned_defaults(analysis, undecided, inputs)
        s = analysis.scenario
        analysis = replace(analysis, scenario=replace(s, given=s.given - chosen))
    figures = log_figures(reading)
    recs = analysis.recommendations if analysis is not None else _log_only_advice(reading, figures)
    if reading.diagnosis in (
        "free_memory_below_utilization",
        "cuda_out_of_memory",
        "load_out_of_memory",
    ) or (
        reading.diagnosis in ("no_memory_for_cache_blocks", "mamba_blocks_below_max_num_seqs")
        and not recs
    ):
        # a failure the plan cannot see (another process, an OOM): the log's own section's fixes
        recs = failure_advice(reading, text)
        if analysis is not None:
            analysis = replace(analysis, recommendations=recs)
    phase = _oom_phase(reading.facts, text) if reading.diagnosis == "cuda_out_of_memory" else None
    return Diagnosis(
        reading=reading,
        inputs=inputs,
        analysis=analysis,
        recommendations=recs,
        replan_error=err,
        figures=figures,
        capacity_fit=fit,
        chosen_by_vllm=chosen,
        mismatches=figure_mismatches(reading, analysis, fit),
        inferred=inferred,
        stated=stated,
        missing=missing,
        oom_phase=phase,
    )
