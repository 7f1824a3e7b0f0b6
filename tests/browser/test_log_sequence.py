"""Public logs pasted one after another into the same calculator (a real browser, es, zh and en).

After each log every field holds that log's value, the reader's typed value or nothing (vLLM's
default), and its marker (``data-kvcalc-source`` and the words beside it) says which; a value the
reader typed before pasting survives every log; no result is planned with a model the reader did
not choose; a log that names no model asks for it (and for the GPU) in one line. On the "read your
log" page the preloaded sample (Llama-3.1-8B on an H100) replaced by a two-line RTX 4090 error
leaves nothing of the sample, and is never shown as "vLLM starts". The expected answers are the
core's (``web.compute``) for what the page must send: the log and only the reader's typed values.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page
from test_calculator import LANGS, PREFIX, UPDATE_TIMEOUT_MS, field, open_log, result_of, wait_ready, widget

from kvcalc import strings as core_strings
from kvcalc.faces import web
from kvguide_macros.strings import t as site_t

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "tests" / "data" / "logs"

#: Five public logs (tests/data/logs/sources.json), each unlike the one before it:
SEQUENCE = (
    "llmd_v019_llama31_8b_h100_tp1.log",             # names its model (Llama-3.1-8B, H100, 0.19.0, 8192 tokens)
    "v07_llama31_8b_oci_a10_131k_kv_too_small.log",  # names none: 131072 tokens on an A10 (22.07 GiB)
    "v2026_free_memory_pytorch_ci_l4.log",           # free-memory error on an L4: 19.77 of 22.05 GiB free
    "v0101_gpt_oss_120b_h100_negative_kv.log",       # "Available KV cache memory: -2.14 GiB": no memory for blocks
    "v07_deepseek_r1_qwen14b_2x4090_tp2.log",        # 2x RTX 4090, TP 2, util 0.98, 131072 tokens: too small
)
#: The RTX 4090 error as a reader pastes it: the issue's command and its error line (the file's first two lines).
RTX4090_TWO_LINES = "".join((LOGS / SEQUENCE[-1]).read_text(encoding="utf-8").splitlines(keepends=True)[:2])

#: Typed by the reader before the first paste; no log of the sequence may replace it.
TYPED = {"max_num_seqs": "16"}

pytestmark = pytest.mark.usefixtures("page_is_clean")


def expected_answer(lang: str, log: str, typed: dict[str, str]) -> dict:
    request = {"action": "log", "lang": lang, "log": log, "inputs": typed, "typed": list(typed)}
    answer = json.loads(web.compute(json.dumps(request)))
    assert answer["ok"], answer
    return answer


def paste(root: Locator, text: str, lines: list[str]) -> None:
    """Paste ``text`` into the log box and wait until the page shows this log's own lines."""
    open_log(root)
    field(root, "log").fill(text)
    root.page.wait_for_function(
        """([el, text]) => el.dataset.kvcalcStatus === 'ready'
             && el.querySelector('[data-kvcalc-out="log-lines"] pre')?.textContent === text""",
        arg=[root.element_handle(), "\n".join(lines)], timeout=UPDATE_TIMEOUT_MS)


def form_state(root: Locator) -> dict[str, dict[str, str]]:
    """Every form field: its value (as the core reads it), its marker and the marker's words."""
    return root.evaluate("""root => {
        const names = JSON.parse(root.querySelector("script[data-kvcalc-config]").textContent).names
        const form = root.querySelector("[data-kvcalc-form]")
        const out = {}
        for (const name of names) {
          const control = form.elements.namedItem(name)
          if (!control) continue
          const wrapper = root.querySelector(`[data-kvcalc-field="${name}"]`)
          const label = wrapper.querySelector("[data-kvcalc-source-label]")
          const described = (control.getAttribute("aria-describedby") || "").split(" ")
          out[name] = {
            value: control.type === "checkbox" ? (control.checked ? "true" : "") : control.value,
            source: wrapper.dataset.kvcalcSource, label: label.textContent, described: described.includes(label.id),
            placeholder: control.placeholder ?? null,
          }
        }
        return out
      }""")


def as_form_value(name: str, value: str) -> str:
    """A core input as its form control holds it: ``auto`` is the empty (default) dtype, a flag's ``1`` checked."""
    if name == "kv_cache_dtype" and value == "auto":
        return ""
    if name in ("enforce_eager", "skip_mm_profiling", "disable_hybrid_kv_cache_manager") and value:
        return "true"
    return value


def assert_fields(lang: str, root: Locator, answer: dict, typed: dict[str, str], where: str) -> None:
    stated = {k for k, v in answer["sources"].items() if v == "log"}
    for name, shown in form_state(root).items():
        value = answer["inputs"].get(name, "")
        source = "log" if name in stated else "typed" if name in typed else "default"
        assert shown["value"] == as_form_value(name, value), (where, name, shown)
        assert shown["source"] == source, (where, name, shown)
        assert shown["label"] == site_t(lang, f"widget.source_{source}") and shown["described"], (where, name)
        if source == "default":
            assert shown["value"] == "", (where, name)
            # an empty field shows what vLLM takes for it, as the core resolved it for this release and GPU
            if name in (answer.get("defaults") or {}):
                assert shown["placeholder"] == answer["defaults"][name], (where, name)
        if source == "typed":
            assert shown["value"] == typed[name], (where, name)


@pytest.mark.parametrize("lang", LANGS)
def test_five_logs_one_after_another(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    preset_model = field(root, "model").input_value()
    assert preset_model   # the page's example scenario, which no log may be planned with
    field(root, "max_num_seqs").fill(TYPED["max_num_seqs"])
    root.page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'"
                                " && JSON.parse(el.dataset.kvcalcResult).max_num_seqs === 16",
                                arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    for name in SEQUENCE:
        text = (LOGS / name).read_text(encoding="utf-8", errors="replace")
        answer = expected_answer(lang, text, TYPED)
        paste(root, text, answer["log_lines"])
        assert_fields(lang, root, answer, TYPED, name)
        shown = result_of(root)
        assert shown == answer["result"], name
        ask = root.locator('[data-kvcalc-out="ask"]')
        if shown is not None:
            # planned only with the log's own model (it names one), never the page's example
            assert answer["sources"]["model"] == "log" and shown["model"] == answer["inputs"]["model"] != preset_model
            assert ask.is_hidden()
        else:
            assert field(root, "model").input_value() == ""
            assert ask.is_visible() and ask.inner_text() == answer["ask"], name
        verdict = root.locator('[data-kvcalc-out="verdict-title"]').inner_text()
        assert verdict != core_strings.t(lang, "verdict.fits.title") or answer["reading"]["diagnosis"] == "started"
        announced = root.locator("[data-kvcalc-announce]").inner_text()
        assert announced == ((answer["report"] or {}).get("verdict") or {}).get("title", answer["reading"]["title"])
    # the last one, the RTX 4090 error, names no model and no GPU: one line asks for both
    assert answer["ask"] == core_strings.t(lang, "ask.model_gpu")
    assert root.locator('[data-kvcalc-out="verdict"]').get_attribute("data-kvcalc-kind") == "log_kv_cache_too_small"
    # the reader chooses them: the full plan appears, with the log's TP 2 and 131072 tokens
    typed = {**TYPED, "model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "RTX-4090"}
    field(root, "model").fill(typed["model"])
    field(root, "gpu").fill(typed["gpu"])
    full = expected_answer(lang, (LOGS / SEQUENCE[-1]).read_text(encoding="utf-8"), typed)
    root.page.wait_for_function("([el, m]) => el.dataset.kvcalcStatus === 'ready'"
                                " && JSON.parse(el.dataset.kvcalcResult || 'null')?.gpu === m",
                                arg=[root.element_handle(), "RTX-4090"], timeout=UPDATE_TIMEOUT_MS)
    assert result_of(root) == full["result"]
    assert (full["result"]["tensor_parallel_size"], full["result"]["max_model_len"]) == (2, 131072)
    assert_fields(lang, root, full, typed, "model chosen")
    assert root.locator('[data-kvcalc-out="ask"]').is_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_replacing_the_sample_with_a_two_line_4090_error(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}read-your-log/")
    root = widget(page, "paste-your-log")
    # the build marks what the sample stated as the log's
    assert root.locator('[data-kvcalc-field="model"]').get_attribute("data-kvcalc-source") == "log"
    wait_ready(root)
    assert field(root, "model").input_value() == "meta-llama/Llama-3.1-8B-Instruct"
    answer = expected_answer(lang, RTX4090_TWO_LINES, {})
    paste(root, RTX4090_TWO_LINES, answer["log_lines"])
    assert_fields(lang, root, answer, {}, "4090")
    # nothing of the sample: its model, 79.19 GiB, util 0.95, 1024 sequences, 8192 batched tokens, 0.19.0, 14.99 GiB
    for name in ("model", "gpu_memory_gib", "max_num_seqs", "max_num_batched_tokens", "vllm_version", "weights_gib"):
        assert field(root, name).input_value() == "", name
    assert field(root, "gpu_memory_utilization").input_value() == "0.98"   # the 4090 log's own
    assert field(root, "model").get_attribute("placeholder")
    assert result_of(root) is None
    verdict = root.locator('[data-kvcalc-out="verdict"]')
    assert verdict.get_attribute("data-kvcalc-kind") == "log_kv_cache_too_small"
    assert root.locator('[data-kvcalc-out="verdict-title"]').inner_text() != core_strings.t(lang, "verdict.fits.title")
    ask = root.locator('[data-kvcalc-out="ask"]')
    assert ask.is_visible() and ask.inner_text() == core_strings.t(lang, "ask.model_gpu")
    # what vLLM printed is the log's own error line
    assert "81536" in root.locator('[data-kvcalc-out="log-lines"] pre').inner_text()


def test_an_error_is_announced_not_the_previous_verdict(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    before = root.locator("[data-kvcalc-announce]").inner_text()
    assert before
    field(root, "max_model_len").fill("lots")
    root.page.wait_for_function("el => el.dataset.kvcalcStatus === 'error'", arg=root.element_handle(),
                                timeout=UPDATE_TIMEOUT_MS)
    message = root.locator('[data-kvcalc-error-for="max_model_len"]').inner_text()
    assert message and root.locator("[data-kvcalc-announce]").inner_text() == message != before
    assert root.locator('[data-kvcalc-field="max_model_len"]').get_attribute("data-kvcalc-source") == "typed"


#: Kaggle's 2x T4 run (sources.json): non-default args {'dtype': 'half', 'tensor_parallel_size': 2, ...},
#: its model a local path.
T4_HALF = "h20d-v0220_qwen3_8b_2xt4_tp2_eager_util085_8k.log"


@pytest.mark.parametrize("lang", LANGS)
def test_a_logs_dtype_is_the_form_field_and_stays_in_the_command(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    text = (LOGS / T4_HALF).read_text(encoding="utf-8")
    answer = expected_answer(lang, text, {})
    paste(root, text, answer["log_lines"])
    assert_fields(lang, root, answer, {}, T4_HALF)
    assert field(root, "dtype").input_value() == "half"
    # the reader names the model: the plan keeps TP 2 and --dtype half as the log wrote it
    typed = {"model": "Qwen/Qwen3-8B"}
    field(root, "model").fill(typed["model"])
    full = expected_answer(lang, text, typed)
    root.page.wait_for_function("([el, m]) => el.dataset.kvcalcStatus === 'ready'"
                                " && JSON.parse(el.dataset.kvcalcResult || 'null')?.model === m",
                                arg=[root.element_handle(), typed["model"]], timeout=UPDATE_TIMEOUT_MS)
    assert result_of(root) == full["result"]
    # Qwen3-8B in 16 bits: 36 layers × 8 KV heads / TP 2 × 128 × 2 × 2 B = 73,728 B per token per GPU
    assert full["result"]["kv_bytes_per_token"] == 73_728
    command = root.locator('[data-kvcalc-out="serve-command"]').inner_text()
    assert "--dtype half" in command and "--tensor-parallel-size 2" in command
    # float32 on the log's measured memory doubles the bytes per token (× 4 B instead of 2)
    panel = root.locator("details[data-kvcalc-advanced]")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    field(root, "dtype").select_option("float32")
    root.page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'"
                                " && JSON.parse(el.dataset.kvcalcResult || 'null')?.kv_bytes_per_token === 147456",
                                arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    assert "--dtype float32" in root.locator('[data-kvcalc-out="serve-command"]').inner_text()
