"""Every fix the calculator proposes works, at the figure the result shows.

One test (or a few) per defect found by trying real cases; each figure is hand arithmetic in the comment
beside it or a number a public vLLM log printed (tests/data/logs, sources in sources.json).

Shared hand arithmetic (Qwen/Qwen3-8B: 36 layers, 8 KV heads × 128, bf16):
  one block     = 36 × 16 × 8 × 256 × 2 = 2,359,296 B
  need(40,960)  = 2,560 blocks × 2,359,296 = 6,039,797,760 B (5.625 GiB) → 256 MiB multiple: 23 × 256 = 5,888 MiB
  24 GiB GPU    = 25,769,803,776 B; at 0.92 requested = ceil(23,708,219,473.92) = 23,708,219,474
"""
from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from kvcalc import catalog, plan, scenario_from_inputs
from kvcalc.advice import (
    RecCode,
    Recommendation,
    fitting_length,
    pessimistic_non_kv_bytes,
    readable_length,
    recommend,
)
from kvcalc.analysis import analyze
from kvcalc.arch.model import WeightQuant
from kvcalc.budget.memory import weight_bytes
from kvcalc.faces.cli import _parser, main
from kvcalc.faces.report import build_log_report, build_report, result_dict
from kvcalc.faces.web import compute_dict
from kvcalc.inputs import Scenario
from kvcalc.logs.diagnose import diagnose
from kvcalc.units import GiB

LOGS = Path(__file__).resolve().parent / "data" / "logs"


def scenario(**inputs: object) -> Scenario:
    return scenario_from_inputs({"model": "Qwen/Qwen3-8B", **inputs})


def advise(s: Scenario) -> list[Recommendation]:
    return recommend(s, plan(s.model, s.deployment))


def find(recs: list[Recommendation] | tuple[Recommendation, ...], code: RecCode) -> Recommendation | None:
    return next((r for r in recs if r.code == code), None)


def measured_gpu(non_kv_gib: float, **inputs: object) -> Scenario:
    """A 24 GiB GPU whose non-KV memory is all given: weights + 1 GiB activation + 0.5 non-torch + 0.5 graphs."""
    return scenario(gpu_memory_gib=24, weights_gib=non_kv_gib - 2, activation_gib=1, non_torch_gib=0.5,
                    cudagraph_gib=0.5, **inputs)


def run_cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(""))
    return code, out.getvalue()


# ---- a fixed KV budget only within the guide's headroom -------------------------------------------------

def test_fixed_budget_within_the_headroom_is_offered_with_its_utilization():
    # non-KV 17 GiB = 18,253,611,008 B: A = 23,708,219,474 − 18,253,611,008 = 5,454,608,466 < need(40,960) → fails.
    # 5,888 MiB = 5.75 GiB; 17 + 5.75 = 22.75 GiB ≤ 0.95 × 24 = 22.8 GiB → offered; 22.75 / 24 = 0.9479 → "0.95"
    r = find(advise(measured_gpu(17, max_model_len=40960)), RecCode.KV_CACHE_MEMORY_BYTES)
    assert r is not None and r.settings == {"kv_cache_memory_bytes": "5888M"}
    assert r.params["utilization"] == "0.95" and r.variant == "checked"
    assert "0.95" in build_report("en", analyze(measured_gpu(17, max_model_len=40960))
                                  )["recommendations"][-1]["detail"]


def test_fixed_budget_past_the_headroom_is_not_offered():
    # 17.1 + 5.75 = 22.85 GiB > 22.8 GiB: within the card (24 GiB) but not within its headroom → not offered
    assert find(advise(measured_gpu(17.1, max_model_len=40960)), RecCode.KV_CACHE_MEMORY_BYTES) is None


def test_the_rtx_4090_case_gets_no_fixed_budget_larger_than_the_card():
    # kvcalc plan --model Qwen/Qwen3-8B --max-model-len 40960 --gpu-memory-utilization 0.9 --gpu RTX-4090:
    # 5,888 MiB on top of the pessimistic non-KV memory (about 17.9 GiB of the 23.64 GiB card) is more than the card
    s = scenario(gpu="RTX-4090", max_model_len=40960, gpu_memory_utilization=0.9)
    low = plan(s.model, replace(s.deployment, budget_edge="low"))
    non_kv = pessimistic_non_kv_bytes(low)
    assert non_kv is not None and non_kv + 5888 * 2**20 > low.budget.total_bytes
    assert find(advise(s), RecCode.KV_CACHE_MEMORY_BYTES) is None


# ---- the quantized what-if weighs quantized weights ----------------------------------------------------

def test_awq_weight_bytes_by_hand():
    # Qwen3-8B: 8,190,726,144 parameters; untied embeddings 151,936 × 4,096 × 2 = 1,244,659,712 stay 16-bit;
    # the other 6,946,066,432 at 4 bits plus a 16-bit scale and a 4-bit zero per 128:
    #   6,946,066,432 × (0.5 + 2.5 / 128) = 3,473,033,216 + 135,665,360 = 3,608,698,576
    #   + 1,244,659,712 × 2 = 2,489,319,424 → 6,098,018,000 B (bf16 checkpoint: 16,381,470,720)
    m = scenario(gpu="RTX-4090").model
    q = replace(m, quant=WeightQuant(method="awq", bits=4, group_size=128), checkpoint_bytes=None)
    assert weight_bytes(q) == 6_098_018_000
    base = plan(m, scenario(gpu="RTX-4090", max_model_len=40960).deployment)
    after = plan(q, scenario(gpu="RTX-4090", max_model_len=40960).deployment)
    # the same rotary cache, vocabulary padding and fitted constant: the weights differ by the checkpoints'
    # 16,381,470,720 − 6,098,018,000 = 10,283,452,720 B, save the allocator's unsplit remainders (alloc_slack.py),
    # which follow the tensors' sizes (a few MiB)
    assert abs(base.budget.weights_bytes - after.budget.weights_bytes - 10_283_452_720) <= 4 * 2**20


@pytest.mark.parametrize("inputs", [
    {"model": "Qwen/Qwen3-32B", "gpu": "RTX-4090"},
    {"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "H100-80GB", "tensor_parallel_size": 2,
     "max_model_len": 131072},
    {"model": "Qwen/Qwen3.6-27B", "gpu": "RTX-5090"},
], ids=["qwen3-32b-4090", "llama-70b-2xh100", "qwen3.6-27b-5090"])
def test_quantized_what_if_never_leaves_less_than_bf16(inputs):
    s = scenario_from_inputs(inputs)
    r = find(advise(s), RecCode.QUANTIZE_WEIGHTS)
    assert r is not None and r.verdict is not None and r.base_available_kv_bytes is not None
    # at the same edge of the band: a quarter of the weights leaves strictly more memory
    assert r.verdict.available_kv_bytes > r.base_available_kv_bytes


def test_quantized_what_if_is_the_catalogs_checkpoint_when_there_is_one():
    # the catalog has Qwen/Qwen3-32B-AWQ: the what-if is that model, planned as a direct plan of it would be
    s = scenario_from_inputs({"model": "Qwen/Qwen3-32B", "gpu": "RTX-4090"})
    r = find(advise(s), RecCode.QUANTIZE_WEIGHTS)
    assert r is not None and r.settings == {"model": "Qwen/Qwen3-32B-AWQ"} and r.variant == "catalog"
    direct = scenario_from_inputs({"model": "Qwen/Qwen3-32B-AWQ", "gpu": "RTX-4090"})
    low = plan(direct.model, replace(direct.deployment, budget_edge="low"))
    assert r.verdict is not None and r.verdict.available_kv_bytes == low.available_kv_bytes


def test_quantized_what_if_names_no_repository_the_catalog_lacks():
    s = scenario_from_inputs({"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "H100-80GB",
                              "tensor_parallel_size": 2, "max_model_len": 131072})
    r = find(advise(s), RecCode.QUANTIZE_WEIGHTS)
    assert r is not None and r.settings == {} and r.variant == "generic"
    view = next(v for v in build_report("en", analyze(s))["recommendations"] if v["code"] == "quantize_weights")
    assert "a 4-bit (AWQ/GPTQ) or fp8 checkpoint of this model" in view["detail"].replace("A 4-bit", "a 4-bit")
    assert view["serve_command"] == ""  # no command that changes nothing; never a made-up "-AWQ" id
    known = {m.id for m in catalog.models()}
    assert all(str(v) in known for v in r.settings.values())


# ---- quantized catalog entries are weighed as stored ---------------------------------------------------

def test_nvfp4_mixed_precision_checkpoint_by_hand():
    # nvidia/Qwen3.6-35B-A3B-NVFP4, quantization_config quant_algo MIXED_PRECISION: quantized_layers give the
    # experts (and shared experts, lm_head) W4A16_NVFP4, the attention projections FP8.
    # experts: 40 layers × 256 × 3 × 2,048 × 512 = 32,212,254,720 at 0.5 + 1/16 (fp8 scale per 16) = 18,119,393,280
    # embeddings 248,320 × 2,048 × 2 (untied) = 1,017,118,720 at 2 B = 2,034,237,440
    # the rest: 34,576,631,808 − 1,017,118,720 − 32,212,254,720 = 1,347,258,368 at 1 B (FP8)
    # vision tower 446,570,096 × 2 = 893,140,192 → 22,394,029,280 B (20.86 GiB), not bf16's 65.4 GiB
    s = scenario_from_inputs({"model": "nvidia/Qwen3.6-35B-A3B-NVFP4", "gpu": "RTX-5090"})
    assert s.model.quant.method == "nvfp4" and s.model.quant.rest_bits == 8
    assert weight_bytes(s.model) == 22_394_029_280
    assert plan(s.model, s.deployment).status != "weights_exceed_gpu"


def test_nvfp4_checkpoint_against_its_public_log():
    # tests/data/logs/v0240_qwen36_35b_a3b_nvfp4_5090.log (club-3090#652, vLLM 0.24.0 on an RTX 5090,
    # max_model_len 131072, fp8 KV, max_num_seqs 1, max_num_batched_tokens 8192, prefix caching, image limit 2,
    # default utilization 0.92): "Available KV cache memory: 6.01 GiB" lies inside the estimate's band
    s = scenario_from_inputs({"model": "nvidia/Qwen3.6-35B-A3B-NVFP4", "gpu": "RTX-5090", "max_model_len": 131072,
                              "kv_cache_dtype": "fp8", "vllm_version": "0.24.0", "max_num_seqs": 1,
                              "max_num_batched_tokens": 8192, "enable_prefix_caching": "true",
                              "limit_mm_per_prompt": '{"image": 2}'})
    b = plan(s.model, s.deployment).budget
    assert b.available_kv_bytes_low <= 6.01 * GiB <= b.available_kv_bytes_high


# ---- a larger GPU has more usable memory and prints no identical command ---------------------------------

def test_larger_gpu_has_more_memory_and_no_command_of_its_own():
    s = scenario_from_inputs({"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "H100-80GB",
                              "tensor_parallel_size": 2, "max_model_len": 131072})
    a = analyze(s)
    r = find(a.recommendations, RecCode.LARGER_GPU)
    assert r is not None
    assert catalog.find_gpu(str(r.settings["gpu"])).memory_bytes > catalog.find_gpu("H100-80GB").memory_bytes
    assert r.verdict is not None and r.base_available_kv_bytes is not None
    assert r.verdict.available_kv_bytes > r.base_available_kv_bytes
    view = next(v for v in build_report("en", a)["recommendations"] if v["code"] == "larger_gpu")
    assert view["serve_command"] == "" and "The command does not change" in view["detail"]
    # no recommendation prints the reader's own command as its fix
    current = build_report("en", a)["serve_command"]
    assert all(v["serve_command"] != current for v in build_report("en", a)["recommendations"])


# ---- lower --max-model-len: always offered when a shorter length starts -----------------------------------

def test_fitting_length_by_hand():
    # central 31,504, pessimistic 24,272: readable_length(31,504) → [18,902.4, 25,203.2]: 1.5 × 16,384 = 24,576,
    # which does not fit 24,272; the largest multiple of 1024 ≤ 24,272 is 23 × 1024 = 23,552 (≥ 18,902: kept).
    # readable_length alone on the pessimistic figure would give 16,384, half of what fits.
    assert readable_length(24_272) == 16_384
    assert fitting_length(24_272, 31_504) == 23_552
    # the central length fits the pessimistic edge: it stays (readable_length(20,500): [12,300, 16,400] → 16,384)
    assert fitting_length(20_000, 20_500) == 16_384
    # no band: the guide's 60–80 % rule as before (20,000 → [12,000, 16,000]: 1.5 × 8,192 = 12,288)
    assert fitting_length(20_000) == readable_length(20_000) == 12_288


def test_lower_max_model_len_aims_at_the_pessimistic_edge_with_the_results_numbers():
    s = scenario(gpu="RTX-4090", max_model_len=40960, gpu_memory_utilization=0.9)
    a = analyze(s)
    r = find(a.recommendations, RecCode.LOWER_MAX_MODEL_LEN)
    assert r is not None and r.variant == "band"
    low = plan(s.model, replace(s.deployment, budget_edge="low"))
    assert r.params["estimated"] == a.verdict.estimated_max_model_len          # the result's figure (central)
    assert r.params["edge_estimated"] == low.estimated_max_model_len
    assert r.settings == {"max_model_len": fitting_length(low.estimated_max_model_len,
                                                          a.verdict.estimated_max_model_len)}
    assert r.fits is True
    report = build_report("en", a)
    detail = report["recommendations"][0]["detail"]
    available = next(f["value"] for f in report["figures"] if f["key"] == "available_kv")
    edge_gib = f"{max(low.available_kv_bytes, 0) / GiB:.1f}"
    assert f"{a.verdict.estimated_max_model_len:,}" in detail and f"{edge_gib} GiB" in detail
    assert f"likely {edge_gib}" in available  # the same number the result shows for that edge


def test_lower_max_model_len_is_offered_as_borderline_when_only_the_central_estimate_starts():
    # Llama-3.1-70B on 2 × H100 at 131,072: the central estimate leaves room for 12,208 tokens, the pessimistic
    # edge for none. readable_length(12,208) → [7,324.8, 9,766.4] holds 8,192 (a power of two)
    s = scenario_from_inputs({"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "H100-80GB",
                              "tensor_parallel_size": 2, "max_model_len": 131072})
    a = analyze(s)
    assert a.verdict.estimated_max_model_len > 0
    r = find(a.recommendations, RecCode.LOWER_MAX_MODEL_LEN)
    assert r is not None and r.variant == "borderline"
    assert r.settings == {"max_model_len": readable_length(a.verdict.estimated_max_model_len)}
    assert "(borderline)" in build_report("en", a)["recommendations"][0]["title"]


# ---- one estimate across the result, the advice and the what-ifs -------------------------------------------

def test_what_ifs_are_compared_at_the_edge_they_were_planned_at():
    s = scenario(gpu="RTX-4090", max_model_len=40960, gpu_memory_utilization=0.9)
    a = analyze(s)
    raise_util = find(a.recommendations, RecCode.RAISE_GPU_MEMORY_UTILIZATION)
    assert raise_util is not None and raise_util.budget_edge == "low"
    low = plan(s.model, replace(s.deployment, budget_edge="low"))
    assert raise_util.base_available_kv_bytes == low.available_kv_bytes
    # 0.92 × 23.64 GiB is more than 0.9 × 23.64 GiB, the rest unchanged: more memory at the same edge
    assert raise_util.verdict is not None and raise_util.verdict.available_kv_bytes > low.available_kv_bytes
    view = next(v for v in build_report("en", a)["recommendations"] if v["code"] == "raise_gpu_memory_utilization")
    outcome = view["figures"][0]["value"]
    assert "pessimistic end" in outcome and f"{low.available_kv_bytes / GiB:.2f} GiB without this change" in outcome
    rec = next(x for x in result_dict(a)["recommendations"] if x["code"] == "raise_gpu_memory_utilization")
    assert rec["budget_edge"] == "low" and rec["base_available_kv_bytes"] == low.available_kv_bytes


# ---- every failure kind of read-your-log gets a fix, in CLI text, JSON and page ---------------------------

FAILURE_LOGS = [
    # (log, diagnosis, first fix, its section id)
    ("v07_llama31_8b_oci_a10_131k_kv_too_small.log", "kv_cache_too_small", "lower_max_model_len",
     "lower-max-model-len"),
    ("v064_no_available_memory_docker_compose.log", "no_memory_for_cache_blocks", "raise_gpu_memory_utilization",
     "no-memory-for-cache-blocks"),
    ("v2026_free_memory_pytorch_ci_l4.log", "free_memory_below_utilization", "lower_gpu_memory_utilization",
     "free-memory-below-utilization"),
    # fp32 Qwen2-7B (--dtype=float: 7.6e9 × 4 B ≈ 28 GiB) on a 21.67 GiB card, no "Model loading took": it fails
    # while the weights load → smaller or split weights
    ("v04_runtime_oom_qwen2_7b_2080ti.log", "cuda_out_of_memory", "quantize_weights", "weights-and-hardware"),
    # "CUDA out of memory occurred when warming up sampler with 1024 dummy requests": the profiling run; an AWQ
    # checkpoint already, so no quantized checkpoint is proposed
    ("v080_sampler_oom_qwen25_32b_awq_tp2.log", "cuda_out_of_memory", "limit_concurrency", "cuda-oom-at-startup"),
]


@pytest.mark.parametrize(("name", "kind", "first", "anchor"), FAILURE_LOGS, ids=[f[0] for f in FAILURE_LOGS])
def test_every_failure_kind_gets_a_fix_everywhere(name, kind, first, anchor):
    text = (LOGS / name).read_text(encoding="utf-8")
    d = diagnose(text)
    assert d.reading.diagnosis == kind
    assert d.recommendations and d.recommendations[0].code == first and d.recommendations[0].anchor == anchor
    # the JSON, the CLI text and the page (the worker's answer) all carry them
    code, out = run_cli("log", str(LOGS / name))
    assert "(#" + anchor + ")" in out
    page = compute_dict({"action": "log", "log": text, "lang": "es"})
    report = page["report"]
    assert isinstance(report, dict) and report["recommendations"]
    assert report["recommendations"][0]["anchor"] == anchor


def test_sampler_oom_of_a_quantized_checkpoint_proposes_no_quantized_checkpoint():
    d = diagnose((LOGS / "v080_sampler_oom_qwen25_32b_awq_tp2.log").read_text(encoding="utf-8"))
    assert "quantize_weights" not in [r.code for r in d.recommendations]
    # 1024 dummy requests in the log's own message; the log sets neither flag: both lowered
    assert d.recommendations[0].settings == {"max_num_seqs": 16, "max_num_batched_tokens": 2048}


def test_free_memory_advice_is_in_the_cli_text():
    # 19.77 / 22.05 GiB free: int(19.77 / 22.05 × 100 − 2) / 100 = int(87.66) / 100 = 0.87
    code, out = run_cli("log", str(LOGS / "v2026_free_memory_pytorch_ci_l4.log"))
    assert code == 1 and "Lower --gpu-memory-utilization to 0.87" in out
    assert "--gpu-memory-utilization 0.87" in out
    d = diagnose((LOGS / "v2026_free_memory_pytorch_ci_l4.log").read_text(encoding="utf-8"))
    report = build_log_report("zh", d)
    assert report is not None and len(report["recommendations"]) == 3


def test_run_time_oom_lowers_the_utilization():
    # A started server (tests/data/logs/llmd_v019_llama31_8b_h100_tp1.log prints "Application startup complete")
    # followed by the run-time OOM text read-your-log quotes from vllm#15105: the headroom ran out
    started = (LOGS / "llmd_v019_llama31_8b_h100_tp1.log").read_text(encoding="utf-8")
    oom = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.74 GiB. GPU 1 has a total capacity of "
           "23.57 GiB of which 605.88 MiB is free.")
    d = diagnose(started + "\n" + oom + "\n")
    assert d.reading.diagnosis == "cuda_out_of_memory"
    first = d.recommendations[0]
    assert first.code == "lower_gpu_memory_utilization" and first.anchor == "cuda-out-of-memory"
    util = d.reading.facts["gpu_memory_utilization"]
    assert isinstance(util, float) and first.settings == {"gpu_memory_utilization": round(util - 0.03, 2)}


# ---- the exit status of a borderline verdict (README, `kvcalc --help`) ---------------------------------------

def test_borderline_exits_with_the_central_answer():
    # Qwen3-8B at 36,864 on an RTX 4090 at 0.95 starts at the central estimate, not at the band's pessimistic edge
    argv = ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "36864",
            "--gpu-memory-utilization", "0.95", "--json")
    code, out = run_cli(*argv)
    assert '"verdict": "borderline"' in out and '"fits": true' in out and code == 0
    s = scenario(gpu="RTX-4090", max_model_len=36864, gpu_memory_utilization=0.95)
    assert not plan(s.model, replace(s.deployment, budget_edge="low")).fits
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "A borderline verdict" in readme
    assert "borderline" in _parser().format_help()


# ---- "did you mean": family and size before spelling -----------------------------------------------------------

def test_did_you_mean_ranks_family_and_size_first():
    # Qwen/Qwen2.5-14B-Instruct is not in the catalog; Qwen/Qwen2.5-14B is (family Qwen2.5, 14B): it leads,
    # before the closer spellings of other sizes (1.5B, 7B, 3B Instruct)
    with pytest.raises(catalog.NotFound) as info:
        catalog.find_model("Qwen/Qwen2.5-14B-Instruct")
    assert info.value.candidates[0] == "Qwen/Qwen2.5-14B" and len(info.value.candidates) <= 3
    assert all(c.startswith("Qwen/Qwen2.5-") for c in info.value.candidates)
    # the size is the count not glued to a letter: Qwen3-30B-A3B is 30B
    assert catalog._family_and_size("Qwen/Qwen3-30B-A3B") == ("qwen3", "30")
    assert catalog._family_and_size("Qwen/Qwen2.5-1.5B-Instruct") == ("qwen25", "1.5")


# ---- an implausibly small available figure is called out -------------------------------------------------

def test_implausibly_small_available_memory_gets_a_note_and_a_fix():
    # Qwen3-8B on an RTX 4090 (23.64 GiB): 15.3 GiB of bf16 weights (16,381,470,720 B) and the runtime terms
    # leave about 4 GiB at the pessimistic edge of the estimate; a log saying 0.5 GiB means something else held
    # memory. The note quotes both figures and the first fix is to free the GPU.
    s = scenario(gpu="RTX-4090", max_model_len=32768, available_kv_gib=0.5)
    a = analyze(s)
    assert a.estimated_available_low is not None and a.estimated_available_low > 3 * GiB
    assert a.recommendations[0].code == "free_the_gpu"
    notes = build_report("en", a)["notes"]
    assert any("0.50 GiB" in n and "nvidia-smi" in n for n in notes)


@pytest.mark.parametrize("name", ["llmd_v019_gemma2_2b_h100.log", "llmd_v019_qwen25_72b_h100_tp2.log",
                                  "llmd_v019_llama31_8b_h100_pp2.log", "v082_phi4_bnb4bit_unsloth_a100_80gb_v0.log"])
def test_public_logs_inside_the_band_are_not_called_out(name):
    # these runs had the GPU to themselves: their Available KV cache memory lies inside the estimate's band
    d = diagnose((LOGS / name).read_text(encoding="utf-8"))
    assert d.analysis is not None and d.analysis.estimated_available_low is None


# ---- a length past the model's maximum names the rope scaling its card documents --------------------------------

@pytest.mark.parametrize(("version", "flag"), [
    # #28006 removed --rope-scaling (0.13.0 refuses it, gpustack#4236): --hf-overrides, as vllm#29026 answers
    (None, """--hf-overrides '{"rope_scaling":{"factor":4.0,"original_max_position_embeddings":32768,"rope_type":"yarn"}}'"""),
    ("0.12.0", """--hf-overrides '{"rope_scaling":"""),
    # 0.8.5 parses --rope-scaling (vllm-ascend#1024 serves Qwen3 with it)
    ("0.8.5", """--rope-scaling '{"factor":4.0,"original_max_position_embeddings":32768,"rope_type":"yarn"}'"""),
])
def test_qwen3_at_128k_names_the_yarn_scaling_of_its_card(version, flag):
    # Qwen3-8B's card: natively 32,768 tokens, YaRN factor 4.0 → 32,768 × 4 = 131,072 (config max 40,960)
    argv = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--max-model-len", "131072"]
    if version:
        argv += ["--vllm-version", version]
    err = io.StringIO()
    code = main(argv, stdout=io.StringIO(), stderr=err, stdin=io.StringIO(""))
    assert code == 2 and flag in err.getvalue() and "131072 tokens" in err.getvalue()
    assert catalog.find_model("Qwen/Qwen3-8B").rope_scaling_documented is not None


def test_no_rope_hint_past_the_scaled_length_or_without_a_documented_one():
    for argv in (["--model", "Qwen/Qwen3-8B", "--max-model-len", "200000"],              # past 131,072
                 ["--model", "Qwen/Qwen3-8B", "--max-model-len", "131072", "--vllm-version", "0.11.1"],  # flag unread
                 ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "262144"]):  # no YaRN in its card
        err = io.StringIO()
        assert main(["plan", "--gpu", "H100-80GB", *argv], stdout=io.StringIO(), stderr=err,
                    stdin=io.StringIO("")) == 2
        assert "rope" not in err.getvalue() and "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" in err.getvalue()


def test_a_start_up_oom_is_not_called_a_run_time_one():
    # the sampler warm-up (v0.8.0 log) and the weights that do not load (fp32 Qwen2-7B) stop vLLM before it started
    for name in ("v080_sampler_oom_qwen25_32b_awq_tp2.log", "v04_runtime_oom_qwen2_7b_2080ti.log"):
        d = diagnose((LOGS / name).read_text(encoding="utf-8"))
        assert d.oom_phase in ("loading", "profiling") and d.title_key == "diag.cuda_out_of_memory_startup"
        code, out = run_cli("log", str(LOGS / name))
        assert "Diagnosis: CUDA out of memory at start-up" in out
    # gpt-oss-20b's sampler warm-up after the cache was sized (vLLM 0.19): still start-up, on the page too
    text = (LOGS / "llmd_v019_gpt_oss_20b_h100_sampler_oom.log").read_text(encoding="utf-8")
    page = compute_dict({"action": "log", "log": text, "lang": "en"})
    assert page["reading"]["title"] == "CUDA out of memory at start-up"
    assert page["report"]["verdict"]["title"] == "CUDA ran out of memory at start-up"
