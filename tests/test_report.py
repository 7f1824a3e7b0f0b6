"""``report``: the CLI/JSON contract (``result_dict``), ``serve_command``, ``gib_gb``, the localized
view model (``build_report``) and ``error_message``; and report.py never plans again.

Figures are the Qwen3-8B worked example (README, tests/test_cli.py), worked by
hand in the comments: Qwen/Qwen3-8B, 60 GiB available, max_model_len 32,768 →
147,456 B/token; need 2,048 blocks × 2,359,296 = 4,831,838,208 B (4.5 GiB);
60 GiB = 64,424,509,440 B // 2,359,296 = 27,306 blocks → 436,896 tokens, 13.33x.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from kvcalc import analyze, scenario_from_inputs
from kvcalc.errors import CalcError
from kvcalc.faces.report import build_report, error_message, gib_gb, recommendation_dict, result_dict, serve_command
from kvcalc.units import GiB

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("es", "zh", "en")

WORKED = {"model": "Qwen/Qwen3-8B", "available_kv_gib": 60, "max_model_len": 32768}
TOO_SMALL = {"model": "Qwen/Qwen3-8B", "available_kv_gib": 4, "max_model_len": 32768}

# The CLI contract: the keys of ``kvcalc plan --json``, exactly.
RESULT_KEYS = [
    "fits", "status", "verdict", "model", "architecture", "gpu", "gpu_memory_bytes", "tensor_parallel_size",
    "pipeline_parallel_size", "kv_cache_dtype", "gpu_memory_utilization", "max_num_seqs", "max_num_batched_tokens",
    "block_size", "vllm_rules", "max_model_len", "derived_max_model_len", "kv_bytes_per_token", "available_kv_bytes",
    "available_kv_bytes_low", "available_kv_bytes_high", "needed_kv_bytes", "num_gpu_blocks", "gpu_kv_cache_tokens",
    "max_concurrency", "estimated_max_model_len",
    "kv_cache_groups", "budget", "vllm_log", "vllm_error", "recommendations",
    "limit_mm_per_prompt", "skip_mm_profiling",           # the reader's multimodal profiling flags
    "interconnect", "interconnect_assumed",              # --interconnect, and what the budget assumed without it
    "data_parallel_size", "enable_expert_parallel", "moe_split",   # DP/EP, and how a MoE's experts were split
    "assumed_architecture",                               # None, or what an unknown config was planned as
]
RECOMMENDATION_KEYS = [
    "code", "anchor", "settings", "fits", "max_model_len", "available_kv_bytes", "needed_kv_bytes", "num_gpu_blocks",
    "gpu_kv_cache_tokens", "max_concurrency", "estimated_max_model_len", "budget_edge", "base_available_kv_bytes",
]
BUDGET_KEYS = [
    "source", "total_bytes", "requested_bytes", "weights_bytes", "activation_bytes", "non_torch_bytes",
    "cudagraph_bytes", "available_bytes", "available_bytes_low", "available_bytes_high", "estimated", "given",
    "encoder_profile",
]
REPORT_KEYS = ["lang", "verdict", "figures", "vllm_lines", "recommendations", "serve_command", "serve_command_label",
               "serve_recommended", "feasible", "charts", "notes"]


def localized(lang: str):
    """English-written figures as ``lang`` writes them (es: 1,234.5 → 1 234,5 with U+202F)."""
    if lang != "es":
        return lambda text: text
    return lambda text: text.replace(",", "\u202f").replace(".", ",")


def analysis(**inputs: object):
    return analyze(scenario_from_inputs(inputs))


# ---- result_dict: the contract's keys and the worked example's values ------------------------------------

@pytest.mark.parametrize("inputs", [WORKED, TOO_SMALL, {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB"}],
                         ids=["fits", "does_not_fit", "profiled"])
def test_result_keys_are_the_contract(inputs):
    r = result_dict(analysis(**inputs))
    assert list(r) == RESULT_KEYS
    assert list(r["budget"]) == BUDGET_KEYS
    for rec in r["recommendations"]:
        assert list(rec) == RECOMMENDATION_KEYS
    json.dumps(r)                                         # plain JSON: no dataclasses or enums left over


def test_result_values_for_the_worked_example():
    r = result_dict(analysis(**WORKED))
    assert {k: r[k] for k in RESULT_KEYS if k not in ("budget", "recommendations", "vllm_log")} == {
        "fits": True, "status": "fits", "verdict": "fits", "model": "Qwen/Qwen3-8B",
        "architecture": "gqa",                            # 8 KV heads < 32 attention heads
        "gpu": None, "gpu_memory_bytes": None,            # only the measured KV figure was given
        "tensor_parallel_size": 1, "pipeline_parallel_size": 1, "kv_cache_dtype": "auto",
        "gpu_memory_utilization": 0.92,                   # the default since 2026-04-21
        "max_num_seqs": 256, "max_num_batched_tokens": 2048,   # no GPU size: the < 70 GiB row
        "block_size": 16,
        "vllm_rules": "vLLM 0.33.0",   # the default rules: the newest release read (versions.LATEST_RELEASE)
        "max_model_len": 32_768, "derived_max_model_len": 40_960,
        "kv_bytes_per_token": 147_456,                    # 36 × 2 × 8 × 128 × 2
        "available_kv_bytes": 64_424_509_440,             # 60 × 2^30
        "available_kv_bytes_low": 64_424_509_440,         # measured: no band
        "available_kv_bytes_high": 64_424_509_440,
        "needed_kv_bytes": 4_831_838_208,
        "num_gpu_blocks": 27_306, "gpu_kv_cache_tokens": 436_896,
        "max_concurrency": 27_306 / 2_048,
        "estimated_max_model_len": 40_960,                # 2,560 blocks ≤ 27,306: the whole derived length
        "kv_cache_groups": 1,
        "vllm_error": None,
        "limit_mm_per_prompt": None, "skip_mm_profiling": False,   # not given (vLLM's defaults)
        "interconnect": "unknown", "interconnect_assumed": None,   # not given; a measured budget assumes nothing
        "data_parallel_size": 1, "enable_expert_parallel": False,  # not given: vLLM's defaults
        "moe_split": None,                                       # a dense model: no experts to split
        "assumed_architecture": None,                            # Qwen3 is a known decoder
    }
    assert r["vllm_log"] == ["Available KV cache memory: 60.0 GiB",
                             "GPU KV cache size: 436,896 tokens, Maximum concurrency for 32,768 tokens per request: 13.33x"]
    assert r["budget"] == {"source": "measured", "total_bytes": None, "requested_bytes": None, "weights_bytes": 0,
                           "activation_bytes": 0, "non_torch_bytes": 0, "cudagraph_bytes": 0,
                           "available_bytes": 64_424_509_440, "available_bytes_low": 64_424_509_440,
                           "available_bytes_high": 64_424_509_440, "estimated": [], "given": ["available"],
                           "encoder_profile": "none"}


def test_result_does_not_fit_keeps_the_error_out_of_the_log():
    r = result_dict(analysis(**TOO_SMALL))
    assert r["status"] == "does_not_fit" and r["fits"] is False
    assert r["vllm_error"].startswith("To serve at least one request with the model's max seq len (32768), "
                                      "(4.5 GiB KV cache is needed")
    assert r["vllm_error"] not in r["vllm_log"]
    assert (r["num_gpu_blocks"], r["gpu_kv_cache_tokens"], r["max_concurrency"]) == (None, None, None)
    assert r["estimated_max_model_len"] == 29_104          # 16 × (4 GiB // 2,359,296 = 1,820, − 1 null block)


def test_recommendation_dict_of_a_rung_without_what_if():
    # with a measured KV budget, fewer sequences cannot be computed (vLLM's activation figure is inside it)
    a = analysis(**TOO_SMALL)
    limit = next(r for r in a.recommendations if r.code == "limit_concurrency")
    assert recommendation_dict(limit) == {
        "code": "limit_concurrency", "anchor": "limit-concurrency",
        "settings": {"max_num_seqs": 16},
        "fits": None, "max_model_len": None, "available_kv_bytes": None, "needed_kv_bytes": None,
        "num_gpu_blocks": None, "gpu_kv_cache_tokens": None, "max_concurrency": None, "estimated_max_model_len": None,
        "budget_edge": None, "base_available_kv_bytes": None,
    }


def test_profiled_budget_lists_estimates_and_given_terms():
    # H100 total and --weights-gib given; activation, non-torch and graphs estimated
    b = result_dict(analysis(model="Qwen/Qwen3-8B", gpu="H100-80GB", weights_gib=15.27))["budget"]
    assert b["source"] == "profiled"
    assert b["total_bytes"] == 85_029_158_912            # the catalog's H100 (79.19 GiB as vLLM logs it)
    assert b["estimated"] == ["activation", "non_torch", "cudagraph"]
    assert b["given"] == ["total", "weights"]
    assert b["weights_bytes"] == round(15.27 * 2**30)


# ---- serve_command ---------------------------------------------------------------------------------------

NON_DEFAULT = {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "tensor_parallel_size": 2, "max_model_len": "32k",
               "max_num_seqs": 64, "kv_cache_dtype": "fp8", "gpu_memory_utilization": 0.9, "enforce_eager": True,
               "no_async_scheduling": True}


def test_serve_command_with_non_default_flags():
    s = scenario_from_inputs(NON_DEFAULT)
    # 32k is decimal: 32,000 (vLLM's human-readable ints); flags in the contract's order
    assert serve_command(s) == (
        "vllm serve Qwen/Qwen3-8B \\\n"
        "  --tensor-parallel-size 2 \\\n"
        "  --max-model-len 32000 \\\n"
        "  --max-num-seqs 64 \\\n"
        "  --kv-cache-dtype fp8 \\\n"
        "  --gpu-memory-utilization 0.9 \\\n"
        "  --enforce-eager \\\n"
        "  --no-async-scheduling"
    )


def test_serve_command_with_changes():
    s = scenario_from_inputs(NON_DEFAULT)
    # a fixed KV budget replaces the utilization flag
    assert serve_command(s, {"kv_cache_memory_bytes": "4608M"}) == (
        "vllm serve Qwen/Qwen3-8B \\\n  --tensor-parallel-size 2 \\\n  --max-model-len 32000 \\\n"
        "  --max-num-seqs 64 \\\n  --kv-cache-dtype fp8 \\\n  --kv-cache-memory-bytes 4608M \\\n"
        "  --enforce-eager \\\n  --no-async-scheduling"
    )
    # a quantized checkpoint changes the model only through a real id ("model"); "quantization" is not a flag
    # (vLLM reads the method from the checkpoint), and no id is invented ("-AWQ" named no repository)
    assert serve_command(s, {"quantization": "awq", "gpu": "H200"}) == serve_command(s)
    assert serve_command(s, {"model": "Qwen/Qwen3-8B-AWQ"}).startswith("vllm serve Qwen/Qwen3-8B-AWQ \\\n")
    assert "H200" not in serve_command(s, {"gpu": "H200"})


def test_serve_command_defaults_and_auto():
    assert serve_command(scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "L4"})) == "vllm serve Qwen/Qwen3-8B"
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": "auto"})
    assert serve_command(s) == "vllm serve Qwen/Qwen3-8B \\\n  --max-model-len auto"


# ---- gib_gb -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("num_bytes", "text"), [
    # 4.5 × 2^30 = 4,831,838,208 B = 4.83 × 10^9
    (4_831_838_208, "4.50 GiB (4.83 GB)"),
    # 60 × 2^30 = 64,424,509,440 B
    (64_424_509_440, "60.00 GiB (64.42 GB)"),
    # 10^9 B = 0.931 GiB
    (10**9, "0.93 GiB (1.00 GB)"),
    (0, "0.00 GiB (0.00 GB)"),
])
def test_gib_gb(num_bytes, text):
    assert gib_gb(num_bytes) == text


# ---- build_report: the localized view model ------------------------------------------------------------

TITLES = {
    "fits": {"en": "vLLM starts: the KV cache fits", "es": "vLLM arranca: la caché KV cabe",
             "zh": "vLLM 可以启动：KV 缓存放得下"},
    "does_not_fit": {"en": "vLLM refuses to start: KV cache too small",
                     "es": "vLLM no arranca: la caché KV es demasiado pequeña", "zh": "vLLM 拒绝启动：KV 缓存不够"},
    "weights_do_not_fit": {"en": "The weights alone do not fit", "es": "Los pesos no caben por sí solos",
                           "zh": "仅权重就放不下"},
    "weights_exceed_gpu": {"en": "The weights alone are larger than the GPU",
                           "es": "Los pesos por sí solos no caben en la GPU", "zh": "仅权重就超过了 GPU 显存"},
    "auto_fit_failed": {"en": "--max-model-len auto cannot fit even one token",
                        "es": "--max-model-len auto no puede ajustar ni un token",
                        "zh": "--max-model-len auto 连一个 token 都放不下"},
}
STATUS_INPUTS = {
    "fits": WORKED,
    "does_not_fit": TOO_SMALL,
    # 12 GiB GPU, 11.5 GiB of weights and runtime given: ceil(12 GiB × 0.92) = 11.04 GiB − 11.5 GiB < 0,
    # while the weights and non-torch memory (10.25 GiB) load
    "no_memory": {"model": "Qwen/Qwen3-8B", "gpu_memory_gib": 12, "weights_gib": 10, "activation_gib": 1,
                  "non_torch_gib": 0.25, "cudagraph_gib": 0.25},
    # 15 GiB of weights + 0.25 GiB non-torch > the 12 GiB GPU: CUDA runs out of memory loading them
    "weights_exceed_gpu": {"model": "Qwen/Qwen3-8B", "gpu_memory_gib": 12, "weights_gib": 15, "activation_gib": 1,
                           "non_torch_gib": 0.25, "cudagraph_gib": 0.25},
    # 1,000 bytes hold no 2,359,296-byte block
    "auto_fit_failed": {"model": "Qwen/Qwen3-8B", "available_kv_bytes": 1000, "max_model_len": "auto"},
}
KIND = {"fits": "fits", "does_not_fit": "does_not_fit", "no_memory": "weights_do_not_fit",
        "weights_exceed_gpu": "weights_exceed_gpu", "auto_fit_failed": "auto_fit_failed"}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("status", list(STATUS_INPUTS))
def test_verdict_kind_and_title_per_status(status, lang):
    a = analysis(**STATUS_INPUTS[status])
    assert a.verdict.status == status
    report = build_report(lang, a)
    assert list(report) == REPORT_KEYS and report["lang"] == lang
    kind = KIND[status]
    assert report["verdict"]["kind"] == kind
    assert report["verdict"]["title"] == TITLES[kind][lang]


def test_fits_summary_in_english():
    v = build_report("en", analysis(**WORKED))["verdict"]
    assert v["summary"] == ("One request of 32,768 tokens needs 4.50 GiB (4.83 GB) of KV cache; 60.00 GiB (64.42 GB) "
                            "is available. About 13.33 such requests fit at once (436,896 tokens).")


def test_does_not_fit_summary_in_english():
    v = build_report("en", analysis(**TOO_SMALL))["verdict"]
    # 4 GiB = 4,294,967,296 B = 4.29 GB; estimate 16 × (1,820 − 1 null block) = 29,104
    assert v["summary"] == ("One request of 32,768 tokens needs 4.50 GiB (4.83 GB) of KV cache, but only 4.00 GiB "
                            "(4.29 GB) is available. The longest context that fits is about 29,104 tokens.")


@pytest.mark.parametrize("lang", LANGS)
def test_figures_for_fits_and_for_does_not_fit(lang):
    fits = {f["key"]: f for f in build_report(lang, analysis(**WORKED))["figures"]}
    fails = {f["key"]: f for f in build_report(lang, analysis(**TOO_SMALL))["figures"]}
    common = ["kv_per_token", "max_model_len", "needed_kv", "available_kv", "estimated_max_len"]
    assert list(fits) == common + ["num_blocks", "tokens", "concurrency"]
    assert list(fails) == common                          # no blocks, tokens or concurrency when vLLM refuses
    # Spanish writes a decimal comma and groups thousands with a narrow no-break space (U+202F)
    n = localized(lang)
    assert fits["kv_per_token"]["value"] == n("147,456 B (144.0 KiB)")   # 147,456 / 1024 = 144
    assert fits["needed_kv"]["value"] == n("4.50 GiB (4.83 GB)")
    assert fits["available_kv"]["value"] == n("60.00 GiB (64.42 GB)")
    assert n("27,306") in fits["num_blocks"]["value"] and "16" in fits["num_blocks"]["value"]
    assert n("436,896") in fits["tokens"]["value"]
    assert n("13.33") in fits["concurrency"]["value"]
    assert n("29,104") in fails["estimated_max_len"]["value"]   # 16 × 1,819 (null block held back)
    # a measured budget: nothing is an estimate
    assert not any(f["estimate"] for f in fits.values())


def test_profiled_figures_mark_estimates():
    figures = {f["key"]: f for f in build_report("en", analysis(model="Qwen/Qwen3-8B", gpu="H100-80GB",
                                                                 weights_gib=15.27))["figures"]}
    assert [k for k in ("total", "requested", "weights", "activation", "non_torch", "cudagraph") if k in figures] == [
        "total", "requested", "weights", "activation", "non_torch", "cudagraph"]
    assert figures["activation"]["estimate"] and figures["activation"]["label"].endswith(" (estimate)")
    assert not figures["weights"]["estimate"] and not figures["weights"]["label"].endswith(" (estimate)")
    assert figures["total"]["value"] == gib_gb(85_029_158_912) == "79.19 GiB (85.03 GB)"


NOTES = {
    "measured": {"en": "Available KV memory taken from your input; vLLM's arithmetic from there on is exact.",
                 "es": "Memoria KV disponible tomada de su entrada; a partir de ahí la aritmética de vLLM es exacta.",
                 "zh": "可用 KV 显存取自你的输入；从这里开始的计算与 vLLM 完全一致。"},
    "fixed": {"en": "With --kv-cache-memory-bytes vLLM uses that figure per GPU and ignores gpu_memory_utilization.",
              "es": "Con --kv-cache-memory-bytes vLLM usa esa cifra por GPU e ignora gpu_memory_utilization.",
              "zh": "设置 --kv-cache-memory-bytes 后，vLLM 在每张 GPU 上使用该数值，并忽略 gpu_memory_utilization。"},
    "rules": {"en": "Rules of vLLM 0.33.0.", "es": "Reglas de vLLM 0.33.0.",
              "zh": "按 vLLM 0.33.0 的规则计算。"},
}


@pytest.mark.parametrize("lang", LANGS)
def test_notes_for_measured_and_fixed_budgets(lang):
    measured = build_report(lang, analysis(**WORKED))["notes"]
    assert measured == [NOTES["measured"][lang], NOTES["rules"][lang]]
    fixed = build_report(lang, analysis(model="Qwen/Qwen3-8B", kv_cache_memory_bytes="6G", max_model_len=32768))["notes"]
    assert fixed == [NOTES["fixed"][lang], NOTES["rules"][lang]]


def test_notes_for_hybrid_models():
    # Gemma 3 27B: 8 padding layers with HMA (52 sliding in groups of 10); with HMA off every layer is full
    on = build_report("en", analysis(model="google/gemma-3-27b-it", available_kv_gib=20, max_model_len=32768))["notes"]
    assert "vLLM pads the KV cache groups of this model with 8 layers." in on
    off = build_report("en", analysis(model="google/gemma-3-27b-it", available_kv_gib=20, max_model_len=32768,
                                      disable_hybrid_kv_cache_manager=True))["notes"]
    assert "Hybrid KV cache manager off: sliding-window layers reserve memory for every token." in off


def test_unknown_language_falls_back_to_english():
    a = analysis(**WORKED)
    assert build_report("fr", a) == build_report("en", a)


def test_report_recommendations_carry_their_serve_command():
    a = analysis(**TOO_SMALL)
    report = build_report("en", a)
    first = report["recommendations"][0]
    assert first["code"] == "lower_max_model_len" and first["settings"] == {"max_model_len": 22_528}
    assert first["serve_command"] == "vllm serve Qwen/Qwen3-8B \\\n  --max-model-len 22528"
    assert first["title"] == "Lower --max-model-len to 22528"
    # the first fix that starts vLLM is also the recommended command
    assert report["serve_recommended"] == first["serve_command"]


# ---- error_message: every language, with the error's own values ------------------------------------------

def test_error_message_from_a_real_input_error():
    with pytest.raises(CalcError) as e:
        scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "tensor_parallel_size": 3})
    # Qwen3-8B has 32 attention heads; 32 % 3 ≠ 0
    assert error_message("en", e.value) == ("The model's 32 attention heads cannot be split over 3 GPUs: "
                                            "tensor parallel size must divide them.")
    assert error_message("es", e.value) == ("Las 32 cabezas de atención del modelo no se pueden repartir entre 3 GPU: "
                                            "el tamaño del paralelismo tensorial debe dividirlas.")
    assert error_message("zh", e.value) == "模型的 32 个注意力头无法平均分到 3 张 GPU 上：张量并行数必须能整除它。"


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "kv_cache_memory_bytes: 0 is outside the allowed range (1 to ∞)."),
    ("es", "kv_cache_memory_bytes: 0 está fuera del intervalo permitido (1 a ∞)."),
    ("zh", "kv_cache_memory_bytes：0 超出允许范围（1 到 ∞）。"),
])
def test_error_message_open_range(lang, text):
    # no upper limit (maximum None) reads as ∞
    err = CalcError("out_of_range", "kv_cache_memory_bytes must be positive, got 0", field="kv_cache_memory_bytes",
                    value=0, minimum=1, maximum=None)
    assert error_message(lang, err) == text


def test_error_message_falls_back_to_the_core_text():
    err = CalcError("no_such_code", "the core's own English sentence", field="x")
    assert {error_message(lang, err) for lang in LANGS + ("fr",)} == {"the core's own English sentence"}


# ---- report.py formats, it never plans --------------------------------------------------------------------

def test_report_imports_no_planning_module():
    tree = ast.parse((ROOT / "calc" / "faces" / "report.py").read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            imported.add(module.split(".")[-1] if node.level or module.startswith("kvcalc") else module)
            if not module:                              # ``from . import x``
                imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[-1] for alias in node.names}
    assert imported, "report.py imports nothing?"
    assert not imported & {"planner", "verdict", "advice"}, imported


# ---- the estimated budget's band in the contract, the view model and the advice ------------------

# Llama-3.1-8B at 36,864 tokens on one RTX 4090 (latest rules): one request needs
# 32 layers x 2 x 8 heads x 128 x 2 B x 36,864 = 4,831,838,208 B = 4.5 GiB; the estimate leaves about 5.2 GiB
# with a band of roughly 4.3-5.9 GiB (the RTX 4090 at PyTorch's CUDA total, 23.64 GiB), so the answer
# flips inside the band.
BORDERLINE = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "RTX-4090", "max_model_len": 36864}
# Same model, 8192 tokens on an H100: 1 GiB needed, tens of GiB available at either edge.
FITS = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "H100-80GB", "max_model_len": 8192}


def _analysis(inputs: dict[str, object]):
    return analyze(scenario_from_inputs(inputs))


def test_json_adds_the_band_and_a_verdict_keeping_status_and_fits() -> None:
    d = result_dict(_analysis(BORDERLINE))
    assert d["needed_kv_bytes"] == 4_831_838_208  # 4.5 GiB, above
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
    # the guide's order for a KV cache that is too small (advice._kv_ladder): the shorter context, then the free
    # fixes that raise the available memory, ordered by what each gives back, then fp8 and the weights
    free = ["raise_gpu_memory_utilization", "enforce_eager", "limit_concurrency"]
    ladder = ["lower_max_model_len", *free, "fp8_kv_cache", "quantize_weights", "add_gpus", "larger_gpu", "cpu_offload",
              "kv_cache_memory_bytes"]
    assert sorted(codes, key=lambda c: ladder.index(c) if c not in free else 1) == codes
    gains = [r["available_kv_bytes"] for r in d["recommendations"] if r["code"] in free]
    assert gains == sorted(gains, reverse=True)
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
    ("en", "Borderline: it depends on what vLLM measures at start-up", "likely 4.3–5.9 GiB"),
    ("es", "En el límite: depende de lo que vLLM mida al arrancar", "probablemente entre 4,3 y 5,9 GiB"),
    ("zh", "临界：取决于 vLLM 启动时实测的数值", "很可能在 4.3–5.9 GiB 之间"),
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
