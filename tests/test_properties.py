"""Properties of the planner over the catalog's models (hypothesis).

* needed memory never decreases with ``max_model_len``;
* more available memory never yields fewer GPU blocks;
* the estimated maximum length always fits, and for uniform attention models
  one token (or one block) more never does unless it is capped at the derived maximum;
* any input dict yields a result or a ``CalcError`` with a code, never another exception.
"""
from __future__ import annotations

import json
from functools import cache

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from kvcalc import catalog
from kvcalc.analysis import analyze
from kvcalc.arch.model import ModelSpec, normalize_config
from kvcalc.errors import CalcError
from kvcalc.faces.report import build_report, result_dict
from kvcalc.inputs import INPUT_KEYS, scenario_from_inputs
from kvcalc.kv.kv_spec import mamba_state_shapes
from kvcalc.verdict import Verdict, plan

HUGE = str(1 << 50)  # 1 PiB per GPU (the input limit): every catalog model fits at any length
MODEL_IDS = tuple(m.id for m in catalog.models())
GPU_IDS = tuple(g.id for g in catalog.gpus())
VERSIONS = (None, "0.7.3", "0.10.1", "0.11.0", "0.14.0", "0.19.0", "0.26.0")
VERSIONS_HMA = tuple(v for v in VERSIONS if v != "0.7.3")
# DeepSeek-V3.2's sparse attention arrived in vLLM 0.11.0: vLLM refuses it before.
VERSIONS_SPARSE = tuple(v for v in VERSIONS if v is None or tuple(map(int, v.split("."))) >= (0, 11, 0))
# DeepSeek-V4 is planned from 0.20.0 (#40860; pool block by release: 0.20-0.22, 0.23-0.26, 0.27+) with an fp8
# cache, PP 1, the hybrid manager on and blocks that are multiples of 128; vLLM refuses other KV dtypes and the
# core refuses the rest (tests/test_deepseek_v4.py).
VERSIONS_V4 = (None, "0.20.0", "0.22.0", "0.23.0", "0.26.0", "0.27.0")
# Log-uniform per-GPU KV memory from 1 MiB to 128 GiB: small budgets are where lengths get cut.
AVAILABLE = st.integers(20, 36).flatmap(lambda e: st.integers(1 << e, 1 << (e + 1)))
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def spec(model_id: str) -> ModelSpec:
    m = catalog.find_model(model_id)
    return normalize_config(m.config, model_id=m.id, num_parameters=m.num_parameters)


def run(inputs: dict[str, object]) -> Verdict:
    s = scenario_from_inputs(inputs)
    return plan(s.model, s.deployment)


@st.composite
def deployments(draw: st.DrawFn) -> dict[str, object]:
    """A valid deployment of a catalog model, without memory or length."""
    model_id = draw(st.sampled_from(MODEL_IDS))
    m = spec(model_id)
    tp = draw(st.sampled_from([t for t in (1, 2, 4, 8, 16) if m.num_attention_heads % t == 0 and _states_split(m, t)]))
    pp = draw(st.sampled_from([p for p in (1, 2, 3, 4) if p <= m.num_layers]))
    inputs: dict[str, object] = {"model": model_id, "tensor_parallel_size": str(tp), "pipeline_parallel_size": str(pp),
                                 "kv_cache_dtype": draw(st.sampled_from(["auto", "fp8", "bfloat16"])),
                                 "block_size": str(draw(st.sampled_from([16, 32, 64])))}
    # Mamba hybrids need vLLM's hybrid KV cache manager (0.9.2+, HMA on): vLLM refuses the rest.
    versions = VERSIONS_SPARSE if m.model_type == "deepseek_v32" else (VERSIONS if m.mamba is None else VERSIONS_HMA)
    if m.is_deepseek_v4:
        versions = VERSIONS_V4
        # before #48993 (0.27.0) block 128 fails vLLM's page assertion (tests/test_deepseek_v4.py): 256 only
        version = draw(st.sampled_from(versions))
        blocks = [128, 256] if version in (None, "0.27.0") else [256]
        inputs.update(pipeline_parallel_size="1", kv_cache_dtype=draw(st.sampled_from(["fp8", "fp8_ds_mla"])),
                      block_size=str(draw(st.sampled_from(blocks))))
    else:
        version = draw(st.sampled_from(versions))
    if version:
        inputs["vllm_version"] = version
    # what the release's argparse refuses is not a deployment (kvcalc.vllm_flags, read from the tags'
    # vllm/engine/arg_utils.py): --disable-hybrid-kv-cache-manager is first in 0.9.1, a bfloat16 cache in 0.11.0
    release = tuple(map(int, version.split("."))) if version else None
    if release is not None and release < (0, 11, 0) and inputs["kv_cache_dtype"] == "bfloat16":
        inputs["kv_cache_dtype"] = "auto"
    if m.mamba is None and not m.is_deepseek_v4 and (release is None or release >= (0, 9, 1)) and draw(st.booleans()):
        inputs["disable_hybrid_kv_cache_manager"] = "1"
    if m.mamba is not None:
        # One sequence: the Mamba-block check after planning (max_num_seqs > blocks) is length-independent
        # and tested on its own (test_hybrid.py); these properties are about the KV arithmetic.
        inputs["max_num_seqs"] = "1"
    return inputs


def _states_split(m: ModelSpec, tp: int) -> bool:
    """vLLM asserts that TP divides every Mamba state dimension."""
    if m.mamba is None:
        return True
    try:
        mamba_state_shapes(m.mamba, tensor_parallel_size=tp)
    except CalcError:
        return False
    return True


def _derived(inputs: dict[str, object]) -> int:
    return spec(str(inputs["model"])).derived_max_model_len


# --- needed memory is monotone in the length ---------------------------------------------

@FAST
@given(dep=deployments(), data=st.data())
def test_needed_never_decreases_with_length(dep: dict[str, object], data: st.DataObject) -> None:
    derived = _derived(dep)
    short = data.draw(st.integers(1, derived), label="short")
    long = data.draw(st.integers(short, derived), label="long")
    a = run({**dep, "available_kv_bytes": HUGE, "max_model_len": str(short)})
    b = run({**dep, "available_kv_bytes": HUGE, "max_model_len": str(long)})
    assert a.fits and b.fits
    assert 0 < a.needed_kv_bytes <= b.needed_kv_bytes


# --- more memory, never fewer blocks --------------------------------------------------------

@FAST
@given(dep=deployments(), data=st.data())
def test_more_memory_never_fewer_blocks(dep: dict[str, object], data: st.DataObject) -> None:
    length = data.draw(st.integers(1, min(_derived(dep), 65_536)), label="max_model_len")
    small = data.draw(st.integers(1 << 20, 200 << 30), label="small")
    large = data.draw(st.integers(small, 400 << 30), label="large")
    a = run({**dep, "available_kv_bytes": str(small), "max_model_len": str(length)})
    b = run({**dep, "available_kv_bytes": str(large), "max_model_len": str(length)})
    if a.fits:
        assert b.fits
        assert a.num_gpu_blocks is not None and b.num_gpu_blocks is not None
        assert a.num_gpu_blocks <= b.num_gpu_blocks
        assert a.gpu_kv_cache_tokens <= b.gpu_kv_cache_tokens
    assert a.estimated_max_model_len <= b.estimated_max_model_len


# --- the estimated maximum length -----------------------------------------------------------

# Found by hand, kept as an explicit example: DeepSeek-V3 (61 MLA layers) on PP 3 splits
# [20, 21, 20]; page per layer = 16 × 576 × 2 B = 18,432 B. With 1 GiB per GPU:
#   stage 0: 1,073,741,824 // (20 × 18,432 = 368,640) = 2,912 blocks → 46,592 tokens
#   stage 1: 1,073,741,824 // (21 × 18,432 = 387,072) = 2,774 blocks → 44,384 tokens
# so the largest length that fits every stage is 44,384, and 46,592 must not be reported as fitting.
@FAST
@example(dep={"model": "deepseek-ai/DeepSeek-V3", "tensor_parallel_size": "1", "pipeline_parallel_size": "3",
              "kv_cache_dtype": "auto", "block_size": "16"},
         available=1 << 30, length=163_840)
@given(dep=deployments(), available=AVAILABLE, length=st.integers(1, 1 << 24))
def test_estimated_max_model_len_fits(dep: dict[str, object], available: int, length: int) -> None:
    derived = _derived(dep)
    length = min(length, derived)
    v = run({**dep, "available_kv_bytes": str(available), "max_model_len": str(length)})
    est = v.estimated_max_model_len
    assume(est > 0)
    assert est <= derived
    again = run({**dep, "available_kv_bytes": str(available), "max_model_len": str(est)})
    assert again.fits, f"estimated_max_model_len {est} does not fit: {again.error_text}"


@FAST
@given(dep=deployments(), available=AVAILABLE, length=st.integers(1, 1 << 24))
def test_one_more_block_than_the_estimate_does_not_fit(dep: dict[str, object], available: int, length: int) -> None:
    m = spec(str(dep["model"]))
    assume(set(m.layer_kinds) in ({"full"}, {"mla"}))  # uniform attention: one group, one page size
    derived = m.derived_max_model_len
    length = min(length, derived)
    v = run({**dep, "available_kv_bytes": str(available), "max_model_len": str(length)})
    est = v.estimated_max_model_len
    assume(0 < est < derived)  # est == derived: capped at the model's maximum, nothing more to try
    block = int(str(dep["block_size"]))
    for more in {est + 1, min(est + block, derived)}:
        w = run({**dep, "available_kv_bytes": str(available), "max_model_len": str(more)})
        assert not w.fits, f"{more} tokens fit although the estimate is {est}"


def test_estimate_examples_by_hand() -> None:
    # Qwen3-8B, 4 GiB: 4,294,967,296 // 2,359,296 B per block = 1,820 blocks, one held back for the null block
    # (0.29.0+, the default rules) → 1,819 × 16 = 29,104 tokens (see test_cli)
    base = {"model": "Qwen/Qwen3-8B", "available_kv_gib": "4"}
    assert run({**base, "max_model_len": "40960"}).estimated_max_model_len == 29_104
    assert run({**base, "max_model_len": "29104"}).fits
    assert not run({**base, "max_model_len": "29105"}).fits  # cdiv(29,105, 16) = 1,820 > 1,819


# --- any input: a result or a CalcError -------------------------------------------------------

_PLAUSIBLE = st.sampled_from(["auto", "-1", "0", "1", "16", "32k", "32K", "1.5K", "4G", "25.6k", "0.9", "0,9", "1e300",
                              "nan", "inf", "-0", "true", "yes", "off", "", " ", "latest", "0.10.1", "fp8", "fp8_ds_mla",
                              "<img src=x onerror=alert(1)>", "{}", "[]", "null", '{"model_type": "llama"}'])
_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(1 << 70), 1 << 70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), _PLAUSIBLE, st.sampled_from(MODEL_IDS), st.sampled_from(GPU_IDS),
)


def _full_pipeline(inputs: dict[str, object]) -> None:
    """What the CLI and the widget do with an input dict; only CalcError may escape."""
    a = analyze(scenario_from_inputs(inputs))
    json.dumps(result_dict(a), allow_nan=False)
    build_report("es", a)


def _check(inputs: dict[str, object]) -> None:
    try:
        _full_pipeline(inputs)
    except CalcError as err:
        assert isinstance(err.code, str) and err.code
        assert str(err)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs=st.dictionaries(st.sampled_from(INPUT_KEYS), _VALUES, max_size=8))
def test_random_inputs_give_result_or_calc_error(inputs: dict[str, object]) -> None:
    _check(inputs)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=st.sampled_from(MODEL_IDS), gpu=st.sampled_from(GPU_IDS),
       extra=st.dictionaries(st.sampled_from(INPUT_KEYS[2:]), _VALUES, max_size=5))
def test_random_inputs_on_a_valid_base(model: str, gpu: str, extra: dict[str, object]) -> None:
    # Start from a valid model and GPU so that random values reach the planner, not just validation.
    _check({"model": model, "gpu": gpu, **{k: v for k, v in extra.items() if k != "config"}})


_CONFIG_KEYS = ("model_type", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "hidden_size",
                "head_dim", "max_position_embeddings", "sliding_window", "sliding_window_pattern", "layer_types",
                "rope_scaling", "torch_dtype", "quantization_config", "num_experts_per_tok", "num_local_experts",
                "intermediate_size", "vocab_size", "kv_lora_rank", "qk_rope_head_dim", "use_sliding_window",
                "text_config", "attention_chunk_size", "tie_word_embeddings", "moe_intermediate_size")
_JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(1 << 40), 1 << 40),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(model=st.sampled_from(MODEL_IDS), changes=st.dictionaries(st.sampled_from(_CONFIG_KEYS), _JSON_VALUES,
                                                                  min_size=1, max_size=3))
def test_random_config_values_give_result_or_calc_error(model: str, changes: dict[str, object]) -> None:
    # A real config with a few values replaced by junk, pasted as text.
    config = {**dict(catalog.find_model(model).config), **changes}
    _check({"config": json.dumps(config, default=list), "available_kv_gib": "40", "max_model_len": "4096"})


# --- the estimated budget's band (CONTRIBUTING.md §8) ------------------------------------------------------

@FAST
@given(dep=deployments(), gpu=st.sampled_from(GPU_IDS), data=st.data())
def test_band_brackets_the_estimate_and_the_verdict_agrees(dep: dict[str, object], gpu: str,
                                                           data: st.DataObject) -> None:
    length = data.draw(st.integers(1, min(_derived(dep), 65_536)), label="max_model_len")
    try:
        a = analyze(scenario_from_inputs({**dep, "gpu": gpu, "max_model_len": str(length)}))
    except CalcError:
        return  # e.g. a release that refuses the set-up: only bad input raises
    b = a.verdict.budget
    assert b.available_kv_bytes_low <= b.available_kv_bytes <= b.available_kv_bytes_high
    d = result_dict(a)
    assert d["available_kv_bytes_low"] <= d["available_kv_bytes"] <= d["available_kv_bytes_high"]
    # the band's verdict never contradicts the central one: it is that answer or borderline
    assert d["verdict"] in ({"fits", "borderline"} if d["fits"] else {"does_not_fit", "borderline"})
    # a fix the advice counts as working starts at the band's pessimistic edge
    for r in a.recommendations:
        if r.verdict is not None and r.verdict.fits and r.verdict.budget.has_band:
            assert r.verdict.deployment.budget_edge == "low"
