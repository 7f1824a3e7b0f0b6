"""The guide's claims about what each flag does, checked against the core.

Where the prose says that a flag does or does not change vLLM's start-up check,
the page shows it with ``{{ plan(...) }}`` figures. This module pins those claims
to ``kvcalc``: the direction in which each change moves "needed" and "available",
and the verdict. It also checks the calculator presets of the home page's "fix"
sections (each starts from a scenario that does NOT fit and lists the fix it
illustrates, working), the error log under ``#read-the-logs`` and the caveat on
the rounding of logged GiB figures.

No site build is needed: the macros' arguments are read from docs/<lang>/*.md
and evaluated with the core directly.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
import yaml

from kvcalc.faces import web
from kvcalc.inputs import scenario_from_inputs
from kvcalc.logs.logparse import parse_log
from kvcalc.units import GiB
from kvcalc.verdict import plan

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
LANGS = ("es", "zh", "en")
LOGS = Path(__file__).resolve().parent / "data" / "logs"


def verdict(**inputs: object):
    s = scenario_from_inputs(inputs)
    return plan(s.model, s.deployment)


def gib(n: int) -> float:
    return round(n / GiB, 2)


# ---------------------------------------------------------------------------
# Reading the Markdown: sections by id, macro calls with their arguments
# ---------------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6}) .*\{ #([a-z0-9-]+) \}\s*$", re.M)
_CALL = re.compile(r"\b(plan|calculator)\((.*?)\)(?=\.\w+\s*\}\}|\s*\}\}|\.fits)", re.S)


def sections(lang: str, page: str = "index.md") -> dict[str, str]:
    """Section id -> its Markdown, up to the next heading of the same or a higher level."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    heads = [(m.start(), len(m.group(1)), m.group(2)) for m in _HEADING.finditer(text)]
    out = {}
    for i, (start, level, hid) in enumerate(heads):
        end = next((s for s, lv, _ in heads[i + 1:] if lv <= level), len(text))
        out[hid] = text[start:end]
    return out


def calls(markdown: str, name: str) -> list[dict[str, object]]:
    """Keyword arguments of every ``name(...)`` macro call in ``markdown``."""
    found = []
    for macro, args in _CALL.findall(markdown):
        if macro != name:
            continue
        call = ast.parse(f"f({args})", mode="eval").body
        assert isinstance(call, ast.Call) and not call.args
        kwargs = {}
        for kw in call.keywords:
            try:
                kwargs[kw.arg] = ast.literal_eval(kw.value)
            except ValueError:
                kwargs[kw.arg] = ast.unparse(kw.value)  # e.g. log=error_logs.name
        found.append(kwargs)
    return found


# ---------------------------------------------------------------------------
# H1: --max-num-seqs moves the available memory, not what one request needs
# ---------------------------------------------------------------------------

BASE = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": 36864}


def test_running_example_fails_by_default() -> None:
    v = verdict(**BASE)
    assert not v.fits
    # 36 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 147,456 B per token; × 36,864 = 5,435,817,984 B = 5.0625 GiB
    assert gib(v.needed_kv_bytes) == 5.06
    # 4.80: the RTX 4090's catalog total is CUDA's own 23.64 GiB (PyTorch's out-of-memory line,
    # ali-vilab/VGen#104), used as is, x 0.92; the weights are the checkpoint's 16,381,470,720 B plus
    # rope 40,960 x 128 x 2 = 10,485,760 + allocator slack 2 x 1 MiB (embedding and lm_head, 151,936 x 4096 x 2
    # = 1187 MiB each in 1188 MiB segments) + the load constant 1,430,528 = 14,013,440 B (estimates.py,
    # weights); with the activation, non-torch and graph estimates, 4.8002 GiB. Short of the 5.06 GiB needed.
    assert gib(v.available_kv_bytes) == 4.80


def test_max_num_seqs_16_tips_the_running_example() -> None:
    base, low = verdict(**BASE), verdict(**BASE, max_num_seqs=16)
    assert low.needed_kv_bytes == base.needed_kv_bytes, "--max-num-seqs must not change what one request needs"
    assert low.available_kv_bytes > base.available_kv_bytes, "a lower --max-num-seqs must free memory"
    assert low.fits and not base.fits


def test_default_max_num_seqs_follows_the_gpu() -> None:
    # CONTRIBUTING.md §2.10: 256 under 70 GiB and on the A100, 1024 on the H100 class and above
    assert verdict(**BASE).max_num_seqs == 256
    assert verdict(model="Qwen/Qwen3-8B", gpu="A100-80GB").max_num_seqs == 256
    assert verdict(model="Qwen/Qwen3-8B", gpu="H100-80GB").max_num_seqs == 1024


#: (change, sign of Δneeded, sign of Δavailable, fits afterwards): the rows of the
#: table under #fix-the-startup-error, in the order the guide gives them.
# The running example is Qwen3-8B at 36,864 tokens (most of its 40,960) on an RTX 4090: every fix in
# the table starts it at the central estimate (the table says "calculator estimates").
CHANGES = [
    ({"max_model_len": 32768}, -1, 0, True),
    ({"gpu_memory_utilization": 0.95}, 0, +1, True),
    ({"kv_cache_dtype": "fp8"}, -1, 0, True),
    ({"enforce_eager": True}, 0, +1, True),
    ({"max_num_seqs": 16}, 0, +1, True),
    ({"tensor_parallel_size": 2}, -1, +1, True),
    ({"kv_cache_memory_bytes": "6G"}, 0, +1, True),
]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@pytest.mark.parametrize(("change", "d_needed", "d_available", "fits"), CHANGES, ids=lambda c: str(c))
def test_each_fix_moves_the_side_the_guide_says(change: dict, d_needed: int, d_available: int, fits: bool) -> None:
    base, after = verdict(**BASE), verdict(**{**BASE, **change})
    assert _sign(after.needed_kv_bytes - base.needed_kv_bytes) == d_needed
    assert _sign(after.available_kv_bytes - base.available_kv_bytes) == d_available
    assert after.fits is fits


@pytest.mark.parametrize("lang", LANGS)
def test_the_fix_table_shows_each_change_through_the_core(lang: str) -> None:
    shown = calls(sections(lang)["fix-the-startup-error"], "plan")
    for change, *_ in [({}, 0, 0, False), *(c.values if hasattr(c, "values") else c for c in CHANGES)]:
        assert {**BASE, **change} in shown, f"docs/{lang}/index.md: no plan() for {change or 'the defaults'}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("page", "section"), [
    ("index.md", "limit-concurrency"),
    ("read-your-log.md", "kv-cache-too-small"),
    ("how-vllm-computes.md", "one-request-check"),
])
def test_max_num_seqs_claim_is_shown_with_the_core(lang: str, page: str, section: str) -> None:
    text = sections(lang, page)[section]
    shown = calls(text, "plan")
    assert BASE in shown and {**BASE, "max_num_seqs": 16} in shown, f"{lang}/{page}#{section}"
    # the old claim, in any language, must not come back
    for wrong in ("will not make the", "no hace desaparecer", "并不能消除", "plays no part", "no interviene:"):
        assert wrong not in text, f"{lang}/{page}#{section} still says {wrong!r}"


# ---------------------------------------------------------------------------
# M4: every preset of a "fix" section starts from a failure and shows the fix
# ---------------------------------------------------------------------------

#: fix section id -> the recommendation codes (any of them) it illustrates
FIX_PRESETS = {
    "lower-max-model-len": {"lower_max_model_len"},
    "gpu-memory-utilization": {"raise_gpu_memory_utilization"},
    "fp8-kv-cache": {"fp8_kv_cache"},
    "limit-concurrency": {"limit_concurrency"},
    "weights-and-hardware": {"quantize_weights", "add_gpus", "larger_gpu"},
    "kv-cache-memory-bytes": {"kv_cache_memory_bytes"},
}


def _compute(inputs: dict[str, object]) -> dict:
    request = {"action": "plan", "lang": "en", "inputs": {k: str(v) for k, v in inputs.items()}}
    response = json.loads(web.compute(json.dumps(request)))
    assert response.get("ok"), response
    return response


# The advice counts a fix only if vLLM starts at the estimate band's pessimistic edge (CONTRIBUTING.md §8).
# So the utilization preset starts from a measured budget (a log's "Available KV cache memory",
# no band), and the free-runtime-memory preset from an H100 scenario, whose 1024 default
# sequences give a large CUDA-graph pool and sampler warm-up to win back.



@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("section", [
    s for s in sorted(FIX_PRESETS)])
def test_fix_preset_starts_from_a_failure_and_shows_the_fix(lang: str, section: str) -> None:
    presets = [c for c in calls(sections(lang)[section], "calculator") if c.get("preset") == section]
    assert len(presets) == 1, f"docs/{lang}/index.md#{section}: expected one calculator(preset={section!r})"
    inputs = {k: v for k, v in presets[0].items() if k != "preset"}
    response = _compute(inputs)
    assert response["result"]["fits"] is False, f"#{section}: the preset already fits"
    recs = {r["code"]: r.get("fits") for r in response["report"]["recommendations"]}
    assert recs, f"#{section}: empty recommendations"
    working = {code for code in FIX_PRESETS[section] if recs.get(code) is True}
    assert working, f"#{section}: none of {FIX_PRESETS[section]} among {recs}"


def test_fix_sections_are_ordered_cheapest_first() -> None:
    for lang in LANGS:
        text = (DOCS / lang / "index.md").read_text(encoding="utf-8")
        order = [text.index("{ #" + hid + " }") for hid in (
            "fix-the-startup-error", "lower-max-model-len", "gpu-memory-utilization", "fp8-kv-cache",
            "limit-concurrency", "weights-and-hardware", "kv-cache-memory-bytes", "after-it-starts",
            "concurrency-and-throughput", "cpu-offload", "load-test-order", "troubleshooting-template")]
        assert order == sorted(order), f"docs/{lang}/index.md: sections out of order"


# ---------------------------------------------------------------------------
# The log under #read-the-logs: a real error log, of the model the prose names
# ---------------------------------------------------------------------------

def _mkdocs_extra() -> dict:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("!", lambda loader, suffix, node: None)  # !ENV and friends
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)["extra"]


@pytest.mark.parametrize("lang", LANGS)
def test_read_the_logs_preset_is_an_error_log_of_the_model_in_the_prose(lang: str) -> None:
    """The home page's log is a current V1 error (vLLM 0.22's wording, vllm#44376); the V0 log of
    vllm#10517 it replaced is the V0 example of read-your-log's list of releases."""
    text = sections(lang)["read-the-logs"]
    (preset,) = [c for c in calls(text, "calculator") if c.get("preset") == "read-the-logs"]
    ref = str(preset["log"])
    assert ref.startswith("error_logs."), f"{lang}: the read-the-logs preset must load an error log, got {ref!r}"
    log = _mkdocs_extra()["error_logs"][ref.split(".", 1)[1]]
    # the copy in mkdocs.yml is the real log, byte for byte (the YAML block adds the final newline)
    assert log == (LOGS / "v022_dsv4_flash_2xgh200_tp2_kv_too_small.log").read_text(encoding="utf-8").rstrip("\n") + "\n"
    assert parse_log(log).diagnosis == "kv_cache_too_small"
    # vLLM >= 0.22's text (#42479): "model's" and the CPU-backend clause, not the older "models's"
    assert "with the model's max seq len" in log and "(which also controls CPU memory on the CPU backend)" in log
    assert "models's" not in log
    # the prose right above the calculator names that log's model and GPU
    before = text[: text.index("{{ calculator(preset=\"read-the-logs\"")]
    last_paragraph = before.rstrip().rsplit("\n\n", 1)[-1]
    assert "DeepSeek-V4-Flash" in last_paragraph and "GH200" in last_paragraph, lang


@pytest.mark.parametrize("lang", LANGS)
def test_the_v0_log_is_read_your_logs_v0_example(lang: str) -> None:
    text = sections(lang, "read-your-log.md")["which-release"]
    (preset,) = [c for c in calls(text, "calculator") if c.get("preset") == "which-release"]
    log = _mkdocs_extra()["error_logs"][str(preset["log"]).split(".", 1)[1]]
    assert log == (LOGS / "v06_llama31_8b_rtx3090_max_seq_len_29k.log").read_text(encoding="utf-8").rstrip("\n") + "\n"
    assert parse_log(log).diagnosis == "kv_cache_too_small"
    before = text[: text.index("{{ calculator(preset=\"which-release\"")]
    last_paragraph = before.rstrip().rsplit("\n\n", 1)[-1]
    assert "Llama-3.1-8B" in last_paragraph and "RTX 3090" in last_paragraph, lang


# ---------------------------------------------------------------------------
# M5: the log's GiB figure is rounded to 0.01, which leaves a few blocks
# ---------------------------------------------------------------------------

def test_logged_gib_rounding_leaves_a_few_blocks() -> None:
    sample = (REPO / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")
    assert "GPU KV cache size: 476,016 tokens" in sample and "Available KV cache memory: 58.11 GiB" in sample
    v = verdict(model="meta-llama/Llama-3.1-8B-Instruct", available_kv_gib=58.11, max_model_len=32768,
                vllm_version="0.19.0")
    assert v.gpu_kv_cache_tokens == 476_032
    block_tokens = 16
    # ±0.005 GiB at 2 MiB per 16-token block of Llama-3.1-8B: at most three blocks either way
    assert 0 < abs(v.gpu_kv_cache_tokens - 476_016) <= 3 * block_tokens


def test_a_pasted_log_with_capacity_lines_is_recomputed_to_its_own_tokens() -> None:
    """read-your-log.md#paste-your-log: pasted whole, the sample log is recomputed to its own 476,016 tokens
    (the bytes within "58.11 GiB" that give 29,751 blocks: tests/test_log_capacity.py works them out), and the
    report's note says so; a GiB figure typed alone stays at the midpoint (the test above)."""
    sample = (REPO / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")
    refined = {"en": "62,394,466,303 B", "zh": "62,394,466,303 B", "es": "62\u202f394\u202f466\u202f303 B"}
    for lang in LANGS:
        answer = json.loads(web.compute(json.dumps({"action": "log", "lang": lang, "log": sample})))
        assert answer["result"]["gpu_kv_cache_tokens"] == 476_016
        assert "GPU KV cache size: 476,016 tokens" in answer["report"]["vllm_lines"]
        assert refined[lang] in answer["report"]["notes"][0]


@pytest.mark.parametrize(("lang", "printed", "other"), [("en", "66.54", "65.63"), ("es", "66,54", "65,63"),
                                                     ("zh", "66.54", "65.63")])
def test_a_multi_gpu_log_is_recomputed_at_the_gpu_with_the_least(lang: str, printed: str, other: str) -> None:
    """read-your-log.md#paste-your-log: the PP 2 log prints 66.54 GiB (one GPU per node) and its capacity is
    the other stage's, 65.63 GiB (75.23 requested - the log's "Total non KV cache memory: 9.6GiB"); the
    calculator recomputes at that GPU and the guide names both figures."""
    text = sections(lang, "read-your-log.md")["paste-your-log"]
    assert f"{printed} GiB" in text and f"{other} GiB" in text
    log = (REPO / "tests" / "data" / "logs" / "llmd_v019_llama31_8b_h100_pp2.log").read_text(encoding="utf-8")
    answer = json.loads(web.compute(json.dumps({"action": "log", "lang": lang, "log": log})))
    assert answer["result"]["gpu_kv_cache_tokens"] == 1_075_312  # line 57 of the log
    assert f"{other} GiB" in answer["report"]["notes"][0] and f"{printed} GiB" in answer["report"]["notes"][0]


@pytest.mark.parametrize("lang", LANGS)
def test_paste_your_log_states_the_rounding(lang: str) -> None:
    text = sections(lang, "read-your-log.md")["paste-your-log"]
    assert "476,016" in text
    assert {"model": "meta-llama/Llama-3.1-8B-Instruct", "available_kv_gib": 58.11, "max_model_len": 32768,
            "vllm_version": "0.19.0"} in calls(text, "plan")
    for page in ("calculator.md", "how-vllm-computes.md"):
        assert "to the block" not in (DOCS / lang / page).read_text(encoding="utf-8")


# ---------------------------------------------------------------------------
# Low items that the core can check
# ---------------------------------------------------------------------------

def test_fp8_doubles_the_tokens_in_the_pool() -> None:
    """The FAQ's table: fp8 doubles the tokens that fit (34,944 -> 69,904), not the memory."""
    bf16 = verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", max_model_len=32768)
    fp8 = verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", max_model_len=32768, kv_cache_dtype="fp8")
    # 5,154,192,022 B available (RTX 4090 at its CUDA total; the weights take the checkpoint's 16,381,470,720 B
    # + rope, allocator slack and the load constant, 14,013,440 B, as in test_running_example_fails_by_default);
    # a 16-token block of Qwen3-8B is
    # 36 layers x 2 x 8 heads x 128 x 2 B x 16 = 2,359,296 B in bf16 and 1,179,648 B in fp8:
    # 5,154,192,022 / 2,359,296 = 2184.6 -> 2,184 blocks x 16 = 34,944 tokens; / 1,179,648 = 4369.3 -> 69,904
    assert bf16.available_kv_bytes == 5_154_192_022
    assert (bf16.gpu_kv_cache_tokens, fp8.gpu_kv_cache_tokens) == (34_944, 69_904)
    assert fp8.available_kv_bytes == bf16.available_kv_bytes


def test_fixed_budget_example_fits_a_24_gb_card() -> None:
    """The --kv-cache-memory-bytes example: 4G leaves room on an RTX 4090, 8G does not."""
    budget = verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", max_model_len=16384).budget
    runtime = budget.weights_bytes + budget.activation_bytes + budget.non_torch_bytes + budget.cudagraph_bytes
    assert runtime + 4 * GiB < budget.total_bytes
    assert runtime + 8 * GiB > budget.total_bytes
    for lang in LANGS:
        text = sections(lang)["kv-cache-memory-bytes"]
        assert "--kv-cache-memory-bytes 4G" in text and "--kv-cache-memory-bytes 8G" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_pp_history_names_the_regression_window(lang: str) -> None:
    for page, section in (("how-vllm-computes.md", "tensor-and-pipeline-parallel"), ("faq.md", "tp-and-pp")):
        text = sections(lang, page)[section]
        assert "29431" in text and "33698" in text and "0.14" in text and "0.15" in text, f"{lang}/{page}#{section}"


@pytest.mark.parametrize("lang", LANGS)
def test_check_formula_history_is_in_the_version_table(lang: str) -> None:
    text = sections(lang, "how-vllm-computes.md")["version-differences"]
    assert "#36030" in text and "0.19.0" in text and "0.18" in text and "0.13" in text, lang
    # the PP regression's window: #33698 is first in 0.17.0 (vllm_releases.json), so 0.16 had it too
    assert "0.16" in text, lang


def test_core_counts_group_0_only_from_0_14_to_0_18() -> None:
    """The row's example: gpt-oss-20b at 131,072 tokens, 12 sliding (group 0) + 12 full layers, page 32,768 B.
    0.18: 12 × 32,768 × 137 = 53,870,592 B (0.05 GiB); 0.19: 12 × 32,768 × (137 + 8,192) = 3,275,096,064 (3.05 GiB)."""
    kw = {"model": "openai/gpt-oss-20b", "available_kv_gib": 1, "max_model_len": 131072}
    assert verdict(**kw, vllm_version="0.18.0").needed_kv_bytes == 53_870_592
    assert verdict(**kw, vllm_version="0.19.0").needed_kv_bytes == 3_275_096_064


def test_core_checks_each_pp_stage_before_0_14() -> None:
    """The whole-model PP check came with #29431 (0.14) and went with #33698: 0.13 checked each stage."""
    kw = {"model": "meta-llama/Llama-3.1-70B-Instruct", "available_kv_gib": 20, "max_model_len": 32768,
          "pipeline_parallel_size": 2}
    assert verdict(**kw, vllm_version="0.13.0").needed_kv_bytes == verdict(**kw).needed_kv_bytes
    # 0.14: every stage checked the whole model's 80 layers, twice the 40 of its own
    assert verdict(**kw, vllm_version="0.14.0").needed_kv_bytes == 2 * verdict(**kw).needed_kv_bytes


def test_offload_is_not_sold_as_a_start_up_fix() -> None:
    """H3: the source's "occasional very long requests / degraded path" use cases are gone."""
    for lang in LANGS:
        text = sections(lang)["cpu-offload"]
        for wrong in ("occasional", "degraded path", "de vez en cuando peticiones", "vía degradada", "偶尔有超长", "降级路径"):
            assert wrong not in text, f"docs/{lang}/index.md#cpu-offload still says {wrong!r}"


def test_multimodal_limits_do_what_the_guide_says() -> None:
    # #multimodal (index.md, three languages): '{"image": 1, "video": 0}' when one image per request is sent ("a
    # modality set to 0 is not profiled at all"), every modality at 0 for text-only use. Qwen2.5-VL-7B on an
    # RTX 4090 at 32,768 tokens: the default profiles a 2-group video (4.56 GiB), one image 2.28 GiB, none the
    # sampler's 0.57 GiB (hand arithmetic in test_estimates.py); what one request needs never changes.
    vl = {"model": "Qwen/Qwen2.5-VL-7B-Instruct", "gpu": "RTX-4090", "max_model_len": 32768}
    base = verdict(**vl)
    one = verdict(**vl, limit_mm_per_prompt='{"image": 1, "video": 0}')
    text_only = verdict(**vl, limit_mm_per_prompt='{"image": 0, "video": 0}')
    assert base.needed_kv_bytes == one.needed_kv_bytes == text_only.needed_kv_bytes
    assert base.available_kv_bytes < one.available_kv_bytes < text_only.available_kv_bytes
    assert text_only.budget.encoder_profile == "disabled"
    for lang in LANGS:
        text = (DOCS / lang / "index.md").read_text(encoding="utf-8")
        assert """--limit-mm-per-prompt '{"image": 1, "video": 0}'""" in text, lang
    # "vLLM then does not load the vision tower either (... 0.15.0 for Gemma 3 ...), 0.79 GiB for Gemma 3 27B":
    # SigLIP + projector 423,055,728 parameters (tests/test_tower_skip.py) × 2 B = 846,111,456 B = 0.788 GiB
    gemma = {"model": "google/gemma-3-27b-it", "gpu": "H100-80GB", "max_model_len": 8192}
    for version, freed in (("0.14.1", 0), ("0.15.0", 846_111_456)):
        on = verdict(**gemma, vllm_version=version).budget.weights_bytes
        off = verdict(**gemma, vllm_version=version, limit_mm_per_prompt='{"image": 0}').budget.weights_bytes
        assert on - off == freed, version
    assert round(846_111_456 / GiB, 2) == 0.79
    for lang, shown in (("en", "0.79 GiB"), ("es", "0,79 GiB"), ("zh", "0.79 GiB")):
        assert shown in sections(lang)["vision-model-limits"], lang


@pytest.mark.parametrize("lang", LANGS)
def test_a_typed_gpu_total_is_taken_as_cuda_reports_it(lang: str) -> None:
    """calculator.md: a typed total is CUDA's (the log's "Free memory on device (78.68/79.19 GiB)", from the
    vendored llm-d 0.19.0 H100 log) and is taken as it is: the same budget as the catalog's H100, whose total is
    CUDA's 85,029,158,912 B (79.19 GiB); nvidia-smi's 81,559 MiB (79.65 GiB) would give 0.46 GiB more."""
    text = (REPO / "docs" / lang / "calculator.md").read_text(encoding="utf-8")
    assert "78.68/79.19 GiB" in text and "mem_get_info" in text
    typed = verdict(model="meta-llama/Llama-3.1-8B-Instruct", gpu_memory_gib=79.19, max_model_len=8192)
    catalog = verdict(model="meta-llama/Llama-3.1-8B-Instruct", gpu="H100-80GB", max_model_len=8192)
    assert typed.budget.total_bytes == round(79.19 * GiB) and catalog.budget.total_bytes == 85_029_158_912
    assert abs(typed.available_kv_bytes - catalog.available_kv_bytes) < 0.01 * GiB
    smi = verdict(model="meta-llama/Llama-3.1-8B-Instruct", gpu_memory_gib=81_559 / 1024, max_model_len=8192)
    assert 0.4 * GiB < smi.available_kv_bytes - typed.available_kv_bytes < 0.5 * GiB  # 0.46 GiB x 0.92 (the default utilization) = 0.42


_BY_GAIN = {"en": "whichever gives back more memory in your case", "es": "lo que le devuelva más memoria en su caso",
            "zh": "哪个在你的情况下腾出的显存更多就先用哪个"}


@pytest.mark.parametrize("lang", LANGS)
def test_free_fixes_are_ordered_by_what_they_give_back(lang: str) -> None:
    """read-your-log and "Fix the start-up error": steps 2 (utilization) and 4 (runtime memory) come in the order of
    the memory they give back, and the calculator lists them so; the guide's own table shows why: on the running
    example's 24 GB card --max-num-seqs 16 gives back more than --gpu-memory-utilization 0.95."""
    assert _BY_GAIN[lang] in sections(lang, "read-your-log.md")["kv-cache-too-small"]
    seqs = verdict(**{**BASE, "max_num_seqs": 16})
    util = verdict(**{**BASE, "gpu_memory_utilization": 0.95})
    assert seqs.available_kv_bytes > util.available_kv_bytes
    response = _compute(BASE)
    codes = [r["code"] for r in response["report"]["recommendations"]]
    assert codes.index("limit_concurrency") < codes.index("raise_gpu_memory_utilization") < codes.index("fp8_kv_cache")
