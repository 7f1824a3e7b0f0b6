"""The estimated budget's band in the JSON contract, the view model and the advice (issue 9)."""
from __future__ import annotations

import pytest

from kvcalc import analyze, scenario_from_inputs
from kvcalc.report import build_report, result_dict
from kvcalc.units import GiB

# Llama-3.1-8B at 32,768 tokens on one RTX 4090 (latest rules): one request needs
# 32 layers x 2 x 8 heads x 128 x 2 B x 32,768 = 4 GiB; the estimate leaves about 5 GiB
# with a band of roughly 3.9-5.8 GiB, so the answer flips inside the band.
BORDERLINE = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "RTX-4090", "max_model_len": 32768}
# Same model, 8192 tokens on an H100: 1 GiB needed, tens of GiB available at either edge.
FITS = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-80GB", "max_model_len": 8192}


def _analysis(inputs: dict[str, object]):
    return analyze(scenario_from_inputs(inputs))


def test_json_adds_the_band_and_a_verdict_keeping_status_and_fits() -> None:
    d = result_dict(_analysis(BORDERLINE))
    assert d["needed_kv_bytes"] == 4 * GiB
    assert d["available_kv_bytes_low"] < d["needed_kv_bytes"] < d["available_kv_bytes"] < d["available_kv_bytes_high"]
    assert d["fits"] is True and d["status"] == "fits"  # the central estimate, as before
    assert d["verdict"] == "borderline"
    assert d["budget"]["available_bytes_low"] == d["available_kv_bytes_low"]
    ok = result_dict(_analysis(FITS))
    assert ok["verdict"] == "fits"


def test_no_band_when_nothing_is_estimated() -> None:
    measured = result_dict(_analysis({**BORDERLINE, "available_kv_gib": 3.5}))
    assert measured["available_kv_bytes_low"] == measured["available_kv_bytes"] == measured["available_kv_bytes_high"]
    assert measured["verdict"] == "does_not_fit" and measured["fits"] is False
    fixed = result_dict(_analysis({**BORDERLINE, "kv_cache_memory_bytes": "6G"}))
    assert fixed["available_kv_bytes_low"] == fixed["available_kv_bytes_high"] == 6 * GiB
    assert fixed["verdict"] == "fits"


def test_advice_counts_a_fix_only_at_the_pessimistic_edge() -> None:
    a = _analysis(BORDERLINE)
    d = result_dict(a)
    codes = [r["code"] for r in d["recommendations"]]
    # the guide's order for a KV cache that is too small (advice._kv_ladder), unchanged
    ladder = ["lower_max_model_len", "raise_gpu_memory_utilization", "fp8_kv_cache", "enforce_eager",
              "limit_concurrency", "quantize_weights", "add_gpus", "larger_gpu", "cpu_offload", "kv_cache_memory_bytes"]
    assert codes == [c for c in ladder if c in codes]
    assert codes[0] == "lower_max_model_len"
    low = d["available_kv_bytes_low"]
    for r in a.recommendations:
        if r.verdict is not None and r.verdict.budget.has_band:
            assert r.verdict.deployment.budget_edge == "low"
    # the shorter context is chosen from what the low edge holds, and it starts there
    first = a.recommendations[0]
    assert first.verdict is not None and first.verdict.fits
    assert first.verdict.available_kv_bytes == low
    assert a.recommended is first


@pytest.mark.parametrize("lang, title, band", [
    ("en", "Borderline: it depends on what vLLM measures at start-up", "likely 3.9–5.8 GiB"),
    ("es", "En el límite: depende de lo que vLLM mida al arrancar", "probablemente entre 3,9 y 5,8 GiB"),
    ("zh", "临界：取决于 vLLM 启动时实测的数值", "很可能在 3.9–5.8 GiB 之间"),
])
def test_view_model_shows_the_band_and_the_borderline_verdict(lang: str, title: str, band: str) -> None:
    report = build_report(lang, _analysis(BORDERLINE))
    assert report["verdict"]["kind"] == "borderline"
    assert report["verdict"]["title"] == title
    available = next(f for f in report["figures"] if f["key"] == "available_kv")
    assert band in available["value"] and available["estimate"] is True
    assert "kvcalc-band" in report["charts"]["budget_svg"]


def test_measured_budget_shows_no_band() -> None:
    report = build_report("en", _analysis({**FITS, "available_kv_gib": 50}))
    available = next(f for f in report["figures"] if f["key"] == "available_kv")
    assert "likely" not in available["value"]
    assert report["verdict"]["kind"] == "fits"
