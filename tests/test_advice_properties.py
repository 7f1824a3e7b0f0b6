"""Properties of the advice over random scenarios (hypothesis; strategies as in tests/test_properties.py).

* no recommendation proposes a fixed KV budget that, with the rest of vLLM's memory at the same edge of the
  band, leaves less than the guide's headroom (``UTILIZATION_WARN_ABOVE`` of the card's total);
* a what-if that can only add memory (more utilization, no CUDA graphs, fewer sequences, weights offloaded,
  a larger GPU) never shows less available memory than the reader's own plan at the same edge;
* the quantized what-if never leaves less memory than the 16-bit weights.
"""
from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kvcalc import catalog, plan, scenario_from_inputs
from kvcalc.advice import UTILIZATION_WARN_ABOVE, RecCode, pessimistic_non_kv_bytes, recommend
from kvcalc.errors import CalcError

# Unquantized single-GPU-friendly models of several families (dense, MoE, sliding window, hybrid)
MODELS = ("Qwen/Qwen3-8B", "Qwen/Qwen3-32B", "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-70B-Instruct",
          "google/gemma-3-27b-it", "microsoft/phi-4", "Qwen/Qwen3-30B-A3B", "mistralai/Mistral-Small-3.1-24B-Instruct-2503")
KNOWN = {m.id for m in catalog.models()}
MODEL_IDS = tuple(m for m in MODELS if m in KNOWN)
GPU_IDS = ("RTX-4090", "RTX-5090", "L4", "A100-80GB", "H100-80GB", "RTX-3090")
LENGTHS = (4096, 16384, 32768, 40960, 65536, 131072)
ADD_ONLY = (RecCode.RAISE_GPU_MEMORY_UTILIZATION, RecCode.ENFORCE_EAGER, RecCode.LIMIT_CONCURRENCY,
            RecCode.CPU_OFFLOAD, RecCode.LARGER_GPU, RecCode.QUANTIZE_WEIGHTS)
SOME = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, object]:
    inputs: dict[str, object] = {"model": draw(st.sampled_from(MODEL_IDS)), "gpu": draw(st.sampled_from(GPU_IDS)),
                                 "max_model_len": str(draw(st.sampled_from(LENGTHS)))}
    if draw(st.booleans()):
        inputs["gpu_memory_utilization"] = str(draw(st.sampled_from((0.5, 0.7, 0.85, 0.9, 0.93))))
    if draw(st.booleans()):
        inputs["tensor_parallel_size"] = str(draw(st.sampled_from((2, 4))))
    return inputs


def _advice(inputs: dict[str, object]):  # type: ignore[no-untyped-def]
    try:
        s = scenario_from_inputs(inputs)
        v = plan(s.model, s.deployment)
    except CalcError:
        return None
    return s, v, recommend(s, v)


@SOME
@given(inputs=scenarios())
def test_no_fixed_budget_past_the_cards_headroom(inputs: dict[str, object]) -> None:
    got = _advice(inputs)
    if got is None:
        return
    s, v, recs = got
    for r in recs:
        if r.code != RecCode.KV_CACHE_MEMORY_BYTES or not r.settings:
            continue
        base = plan(s.model, replace(s.deployment, budget_edge=r.budget_edge)) if v.budget.has_band else v
        non_kv = pessimistic_non_kv_bytes(base)
        assert non_kv is not None and base.budget.total_bytes
        budget = r.params["bytes"]
        assert isinstance(budget, int) and non_kv + budget <= UTILIZATION_WARN_ABOVE * base.budget.total_bytes


@SOME
@given(inputs=scenarios())
def test_add_only_what_ifs_never_show_less(inputs: dict[str, object]) -> None:
    got = _advice(inputs)
    if got is None:
        return
    _s, _v, recs = got
    for r in recs:
        if r.code in ADD_ONLY and r.verdict is not None and r.base_available_kv_bytes is not None:
            assert r.verdict.available_kv_bytes >= r.base_available_kv_bytes, (r.code, inputs)


@SOME
@given(inputs=scenarios())
def test_quantized_what_if_never_leaves_less_than_bf16(inputs: dict[str, object]) -> None:
    got = _advice(inputs)
    if got is None:
        return
    _s, _v, recs = got
    for r in recs:
        if r.code == RecCode.QUANTIZE_WEIGHTS and r.verdict is not None:
            assert r.base_available_kv_bytes is not None
            assert r.verdict.available_kv_bytes > r.base_available_kv_bytes, inputs
            assert r.verdict.budget.weights_bytes < _v.budget.weights_bytes
