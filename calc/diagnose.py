"""A pasted vLLM log → diagnosis, the form values it implies, and a recomputed plan.

Shared by ``kvcalc log`` and the calculator's "paste your log" box.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from . import catalog
from .advice import Recommendation, free_memory_ladder
from .analysis import Analysis, analyze
from .errors import CalcError
from .inputs import scenario_from_inputs
from .logparse import LogReading, parse_log
from .units import gib_to_bytes

__all__ = ["Diagnosis", "inputs_from_reading", "diagnose"]

# fact key → form input; the log's measured figures replace our estimates.
_FACT_TO_INPUT = {
    "max_model_len": "max_model_len", "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size", "kv_cache_dtype": "kv_cache_dtype",
    "gpu_memory_utilization": "gpu_memory_utilization", "max_num_seqs": "max_num_seqs",
    "max_num_batched_tokens": "max_num_batched_tokens", "block_size": "block_size",
    "kv_cache_memory_bytes": "kv_cache_memory_bytes", "available_kv_gib": "available_kv_gib",
    "total_gpu_memory_gib": "gpu_memory_gib", "model_weights_gib": "weights_gib",
    "activation_peak_gib": "activation_gib", "non_torch_gib": "non_torch_gib", "cudagraph_gib": "cudagraph_gib",
}


@dataclass(frozen=True, kw_only=True)
class Diagnosis:
    reading: LogReading
    inputs: dict[str, object]
    """Form values implied by the log (strings, as a reader would type them)."""
    analysis: Analysis | None
    """The log's scenario recomputed; None when the log does not say enough (see ``replan_error``)."""
    recommendations: tuple[Recommendation, ...]
    """The analysis's advice, or the free-memory ladder when another process held the GPU."""
    replan_error: CalcError | None
    """Why the log could not be recomputed (unknown model, …)."""


def _as_text(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else ""
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def inputs_from_reading(reading: LogReading) -> dict[str, object]:
    facts = reading.facts
    inputs: dict[str, object] = {}
    model = facts.get("model")
    if isinstance(model, str):
        try:
            inputs["model"] = catalog.find_model(model.strip().rstrip("/")).id
        except LookupError:
            inputs["model"] = model.strip()
    version = facts.get("vllm_version")
    if isinstance(version, str) and version.strip():
        inputs["vllm_version"] = version.strip().lstrip("v").split("+")[0]
    for fact, key in _FACT_TO_INPUT.items():
        if fact in facts and facts[fact] not in (None, ""):
            if key == "kv_cache_dtype" and str(facts[fact]) == "auto":
                continue
            inputs[key] = _as_text(facts[fact])
    if facts.get("enforce_eager") is True:
        inputs["enforce_eager"] = "1"
    if "gpu_memory_gib" not in inputs and isinstance(facts.get("gpu_name"), str):
        try:
            inputs["gpu"] = catalog.find_gpu(str(facts["gpu_name"])).id
        except LookupError:
            pass
    return inputs


def _free_memory_advice(reading: LogReading) -> tuple[Recommendation, ...]:
    f = reading.facts
    free, total = f.get("free_memory_gib"), f.get("total_gpu_memory_gib")
    return tuple(free_memory_ladder(
        free_bytes=gib_to_bytes(float(free)) if isinstance(free, (int, float)) else None,
        total_bytes=gib_to_bytes(float(total)) if isinstance(total, (int, float)) else None))


def diagnose(text: str) -> Diagnosis:
    """Read ``text``, fill the form from it and, when it names enough, recompute its plan."""
    reading = parse_log(text)
    inputs = inputs_from_reading(reading)
    analysis: Analysis | None = None
    err = None
    try:
        analysis = analyze(scenario_from_inputs(inputs))
    except CalcError as exc:
        err = exc
    recs = analysis.recommendations if analysis is not None else ()
    if reading.diagnosis == "free_memory_below_utilization":
        recs = _free_memory_advice(reading)
        if analysis is not None:
            analysis = replace(analysis, recommendations=recs)
    return Diagnosis(reading=reading, inputs=inputs, analysis=analysis, recommendations=recs, replan_error=err)
