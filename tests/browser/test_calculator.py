"""The calculator in a real browser (Debian's Chromium through Playwright).

For each language: the calculator page and a guide page with presets reach
``ready`` through the self-hosted Pyodide; a deep link restores its scenario
and shows the numbers ``kvcalc plan --json`` gives; an edit updates the result
and the URL; a pasted log fills the form; pasted HTML stays text. Every test
also checks that the page logged no console error, that no request failed and
that nothing was requested from another host (fixtures in conftest.py).
"""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from playwright.sync_api import Locator, Page

from kvcalc.faces import web

REPO = Path(__file__).resolve().parents[2]
LANGS = ("es", "zh", "en")
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
#: Cold Pyodide start in headless Chromium on this 2-core machine is ~3 s.
READY_TIMEOUT_MS = 60_000
UPDATE_TIMEOUT_MS = 10_000
CALCULATOR = '[data-kvcalc-component="calculator"]'
XSS = "<img src=x onerror=alert(1)>"


pytestmark = pytest.mark.usefixtures("page_is_clean")


def cli_plan(inputs: Mapping[str, str]) -> dict:
    """``kvcalc plan … --json`` for the same inputs (flags named as the query keys)."""
    argv = [sys.executable, "-m", "kvcalc", "plan", "--json"]
    for name, value in inputs.items():
        flag = "--" + name.replace("_", "-")
        if value == "true":
            argv.append(flag)
        else:
            argv += [flag, value]
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def widget(page: Page, preset: str) -> Locator:
    return page.locator(f'{CALCULATOR}[data-kvcalc-preset="{preset}"]')


def open_widget(root: Locator) -> None:
    """A guide page's preset is a compact card: open the full widget it holds (a no-op elsewhere)."""
    root.evaluate("el => { const card = el.closest('details[data-kvcalc-lazy]'); if (card) card.open = true }")


def open_log(root: Locator) -> None:
    """The log box ("I have an error or a log") is open from the start; open it if a reader closed it."""
    root.evaluate("el => { el.querySelector('details.kvcalc-log').open = true }")


def wait_ready(root: Locator) -> None:
    open_widget(root)
    root.scroll_into_view_if_needed()
    root.page.wait_for_function(
        "el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(), timeout=READY_TIMEOUT_MS
    )


def result_of(root: Locator) -> dict:
    return json.loads(root.get_attribute("data-kvcalc-result") or "null")


def wait_result(root: Locator, key: str, value: object) -> dict:
    """Wait until the shown result has ``key == value`` (the worker answered the edit)."""
    root.page.wait_for_function(
        """([el, key, value]) => {
             const raw = el.dataset.kvcalcResult
             return el.dataset.kvcalcStatus === 'ready' && raw && JSON.parse(raw)[key] === value
           }""",
        arg=[root.element_handle(), key, value],
        timeout=UPDATE_TIMEOUT_MS,
    )
    return result_of(root)


def field(root: Locator, name: str) -> Locator:
    return root.locator(f'[name="{name}"]')


# ---------------------------------------------------------------------------
# Every language: the calculator page and a guide page reach "ready"
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_calculator_page_reaches_ready(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    assert root.get_attribute("data-kvcalc-status") == "loading"
    # the build-time result is on the page before Pyodide is ready
    assert root.locator('[data-kvcalc-out="verdict-title"]').inner_text().strip()
    wait_ready(root)
    shown = result_of(root)
    inputs = {name: field(root, name).input_value() for name in ("model", "gpu")}
    assert shown == cli_plan({k: v for k, v in inputs.items() if v})


@pytest.mark.parametrize("lang", LANGS)
def test_guide_page_preset_reaches_ready(page: Page, lang: str) -> None:
    page.goto(PREFIX[lang])
    root = widget(page, "lower-max-model-len")
    wait_ready(root)
    # the running example, Qwen3-8B on an RTX 4090 at 36,864 tokens, a failing start: the preset under
    # "lower max-model-len"
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "36864"})
    # its recommendations link to this language's article sections
    for href in root.locator(".kvcalc-rec > a").evaluate_all("links => links.map(a => a.href)"):
        parts = urlsplit(href)
        assert parts.path == "/" + PREFIX[lang] and parts.fragment, href


# ---------------------------------------------------------------------------
# One renderer: the build-time preset is the live result, to the byte
# ---------------------------------------------------------------------------

#: Presets in each language: a plan on the article, a pasted log, the standalone calculator.
SAME_MARKUP_PRESETS = [("", "lower-max-model-len"), ("zh/read-your-log/", "paste-your-log"),
                       ("en/calculator/", "calculator")]


@pytest.mark.parametrize(("path", "preset"), SAME_MARKUP_PRESETS)
def test_prerendered_result_is_the_live_result(page: Page, path: str, preset: str) -> None:
    """The result region Python filled at build time and the one the page script fills
    from the same inputs in the browser are the same markup: innerHTML compared as is."""
    page.goto(path)
    root = widget(page, preset)
    # One synchronous snapshot: while the status is "loading" the page script has drawn
    # nothing (it sets "ready" in the same task in which it draws), so this is the build's HTML.
    before = root.evaluate("""root => {
        const section = root.querySelector("[data-kvcalc-results]")
        const names = [...root.querySelectorAll("template[data-kvcalc-source]")].map(t => t.dataset.kvcalcTemplate)
        window.kvcalcPrerendered = names.map(name => section.querySelector(`[data-kvcalc-out="${name}"]`))
        return { status: root.dataset.kvcalcStatus, html: section.innerHTML, regions: names.length }
      }""")
    assert before["status"] == "loading"
    assert before["regions"] >= 10
    wait_ready(root)
    live = root.evaluate("""root => ({
        html: root.querySelector("[data-kvcalc-results]").innerHTML,
        redrawn: window.kvcalcPrerendered.every(node => node && !node.isConnected),
      })""")
    assert live["redrawn"], "the live calculator did not redraw every region"
    assert live["html"] == before["html"]


# ---------------------------------------------------------------------------
# Shareable state
# ---------------------------------------------------------------------------

DEEP_LINK = {
    "model": "Qwen/Qwen3-8B",
    "gpu": "RTX-4090",
    "max_model_len": "32768",
    "kv_cache_dtype": "fp8",
    "max_num_seqs": "8",
}


@pytest.mark.parametrize("lang", LANGS)
def test_deep_link_restores_scenario(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/?{urlencode(DEEP_LINK)}#calculator")
    root = widget(page, "calculator")
    for name, value in DEEP_LINK.items():
        assert field(root, name).input_value() == value, name
    wait_ready(root)
    assert result_of(root) == cli_plan(DEEP_LINK)


#: The multimodal profiling flags in the URL: Qwen2.5-VL-7B with one image and no video per prompt, and
#: --skip-mm-profiling (the advanced section's two fields; the values as the form sends them).
MM_LINKS = [
    {"model": "Qwen/Qwen2.5-VL-7B-Instruct", "gpu": "RTX-4090", "max_model_len": "32768",
     "limit_mm_per_prompt": '{"image": 1, "video": 0}'},
    {"model": "Qwen/Qwen2.5-VL-7B-Instruct", "gpu": "RTX-4090", "max_model_len": "32768", "skip_mm_profiling": "true"},
]


@pytest.mark.parametrize("link", MM_LINKS, ids=["limit_mm_per_prompt", "skip_mm_profiling"])
def test_deep_link_restores_the_multimodal_flags(page: Page, link: dict[str, str]) -> None:
    page.goto(f"en/calculator/?{urlencode(link)}#calculator")
    root = widget(page, "calculator")
    if "limit_mm_per_prompt" in link:
        assert field(root, "limit_mm_per_prompt").input_value() == link["limit_mm_per_prompt"]
    else:
        assert field(root, "skip_mm_profiling").is_checked()
    wait_ready(root)
    shown = result_of(root)
    assert shown == cli_plan(link)
    assert (shown["limit_mm_per_prompt"], shown["skip_mm_profiling"]) == (
        {"image": 1, "video": 0} if "limit_mm_per_prompt" in link else None, "skip_mm_profiling" in link)


def test_deep_link_targets_the_hashed_preset_on_a_guide_page(page: Page) -> None:
    query = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "L4", "max_model_len": "4096"}
    page.goto(f"en/?{urlencode(query)}#fp8-kv-cache")
    root = widget(page, "fp8-kv-cache")
    wait_ready(root)
    assert result_of(root) == cli_plan(query)
    # the other presets keep their own scenario
    assert field(widget(page, "lower-max-model-len"), "model").input_value() == "Qwen/Qwen3-8B"


@pytest.mark.parametrize("lang", LANGS)
def test_edit_updates_result_and_url(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "max_model_len").fill("8192")
    shown = wait_result(root, "max_model_len", 8192)
    query = dict(parse_qsl(urlsplit(page.url).query))
    assert query["max_model_len"] == "8192"
    assert urlsplit(page.url).fragment == "calculator"
    assert shown == cli_plan(query)
    # the URL alone restores the edited scenario, under another language prefix too
    other = PREFIX[LANGS[(LANGS.index(lang) + 1) % 3]]
    page.wait_for_load_state("networkidle")   # leaving mid-load would abort the favicon request
    page.goto(f"{other}calculator/?{urlsplit(page.url).query}#calculator")
    again = widget(page, "calculator")
    wait_ready(again)
    assert result_of(again) == shown


def test_select_and_checkbox_edits_recompute(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    before = result_of(root)["kv_bytes_per_token"]
    field(root, "kv_cache_dtype").select_option("fp8")
    root.page.wait_for_function(
        "([el, b]) => JSON.parse(el.dataset.kvcalcResult).kv_bytes_per_token !== b",
        arg=[root.element_handle(), before], timeout=UPDATE_TIMEOUT_MS,
    )
    # bf16 -> fp8 halves the KV bytes per token (2 bytes -> 1 byte per element)
    assert result_of(root)["kv_bytes_per_token"] * 2 == before
    assert dict(parse_qsl(urlsplit(page.url).query))["kv_cache_dtype"] == "fp8"


# ---------------------------------------------------------------------------
# Logs, bad input, pasted HTML
# ---------------------------------------------------------------------------

#: A v0.19.0 start-up log of Gemma 3 27B on an H100 (llm-d-planner's sweep): it names the
#: model and every figure the form needs, so the core can re-plan it.
LOG = REPO / "tests" / "data" / "logs" / "llmd_v019_gemma3_27b_h100.log"


@pytest.mark.parametrize("lang", LANGS)
def test_pasted_log_fills_the_form(page: Page, lang: str) -> None:
    text = LOG.read_text(encoding="utf-8")
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    # the widget sends with the log only what the reader typed: here nothing, the model and GPU shown being
    # the page's example (Qwen3-8B, RTX 4090), which the log replaces; the GPU's memory is the log's 79.19 GiB
    example = {name: field(root, name).input_value() for name in ("model", "gpu")}
    assert all(example.values())
    form: dict[str, str] = {}
    expected = json.loads(web.compute(json.dumps({"action": "log", "lang": lang, "inputs": form, "log": text,
                                                  "typed": []})))
    assert expected["ok"], expected
    open_log(root)
    field(root, "log").fill(text)
    diagnosis = root.locator('[data-kvcalc-out="diagnosis"]')
    diagnosis.wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    assert root.get_attribute("data-kvcalc-status") == "ready"
    filled = {k: str(v) for k, v in expected["inputs"].items() if v not in (None, "")}
    assert set(filled) - set(form), "the log's facts fill at least one more field"
    for name in filled.keys() | example.keys():
        control = field(root, name)
        shown = control.input_value() if control.get_attribute("type") != "checkbox" else (
            "true" if control.is_checked() else "")
        value = filled.get(name, "")
        assert shown == value or (name == "kv_cache_dtype" and value == "auto" and shown == ""), name
    assert result_of(root) == expected["result"]


#: vLLM 0.19.0, Llama-3.1-8B with PP 2 (llm-d-planner): "Available KV cache memory: 66.54 GiB" is stage 0's (vLLM prints
#: it once per node), "GPU KV cache size: 1,075,312 tokens" the smaller stage's (65.63 GiB by the log's own breakdown).
PP2_LOG = REPO / "tests" / "data" / "logs" / "llmd_v019_llama31_8b_h100_pp2.log"


@pytest.mark.parametrize(("lang", "other"), [("es", "65,63 GiB"), ("zh", "65.63 GiB"), ("en", "65.63 GiB")])
def test_pasted_multi_gpu_log_is_recomputed_at_the_gpu_with_the_least(page: Page, lang: str, other: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    open_log(root)
    field(root, "log").fill(PP2_LOG.read_text(encoding="utf-8"))
    root.locator('[data-kvcalc-out="diagnosis"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    wait_result(root, "gpu_kv_cache_tokens", 1_075_312)  # line 57 of the log, not the 1,090,176 of 66.54 GiB
    notes = root.locator('[data-kvcalc-out="notes"]').evaluate("el => el.textContent")
    assert other in notes
    assert field(root, "available_kv_gib").input_value() == "66.54"  # the form keeps what the log prints


@pytest.mark.parametrize("lang", LANGS)
def test_bad_input_message_beside_the_field(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "max_model_len").fill("lots")
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'error'", arg=root.element_handle(),
                           timeout=UPDATE_TIMEOUT_MS)
    expected = json.loads(web.compute(json.dumps(
        {"action": "plan", "lang": lang, "inputs": {"model": field(root, "model").input_value(),
                                                   "gpu": field(root, "gpu").input_value(),
                                                   "max_model_len": "lots"}})))
    (error,) = [e for e in expected["errors"] if e["field"] == "max_model_len"]
    assert root.locator('[data-kvcalc-error-for="max_model_len"]').inner_text() == error["message"]
    assert field(root, "max_model_len").input_value() == "lots"   # the form keeps what was typed
    field(root, "max_model_len").fill("8192")
    wait_result(root, "max_model_len", 8192)
    assert root.locator('[data-kvcalc-error-for="max_model_len"]').is_hidden()


@pytest.mark.fresh_context
def test_pasted_html_stays_text(page: Page) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    images_before = page.locator("img").count()
    field(root, "config").fill(XSS)
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'error'", arg=root.element_handle(),
                           timeout=UPDATE_TIMEOUT_MS)
    assert field(root, "config").input_value() == XSS   # kept as typed, beside its error
    assert root.locator('[data-kvcalc-error-for="config"]').is_visible()
    open_log(root)
    field(root, "log").fill(XSS)   # read as a log (diagnosis "unknown"); the form follows the log
    root.locator('[data-kvcalc-out="diagnosis"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    page.wait_for_timeout(300)   # let every answer land
    assert field(root, "log").input_value() == XSS
    assert root.locator("img").count() == 0
    assert page.locator("img").count() == images_before
    assert dialogs == []
    assert not [url for url in requested if urlsplit(url).path.endswith("/x")]


@pytest.mark.fresh_context
def test_page_without_calculator_never_loads_pyodide(page: Page) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("en/references/")
    page.wait_for_load_state("networkidle")
    assert page.locator(CALCULATOR).count() == 0
    assert not [url for url in requested if "/pyodide/" in url or url.endswith(".whl")]


# ---------------------------------------------------------------------------
# The fast paths of the start-up and of recomputing (bench/RESULTS.md)
# ---------------------------------------------------------------------------


def _start_pinned(page: Page, decision: str) -> tuple[Locator, list[str], list[str]]:
    """Open the calculator with the snapshot decision pinned (``fast`` / ``slow``): its root, the paths it
    requested and the performance marks once it is ready."""
    page.context.add_init_script(f"localStorage.setItem('kvcalc-link-pinned', '{decision}')")
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    return root, requested, page.evaluate("performance.getEntriesByType('mark').map(m => m.name)")


@pytest.mark.fresh_context
def test_worker_starts_from_the_snapshot_and_the_pages_compiled_wasm(page: Page) -> None:
    """The worker restores the build's memory snapshot (no fallback to an ordinary start)
    and instantiates the wasm the page compiled, so the wasm is fetched once (a first
    visit fetches its gzip copy, ``pyodide.asm.wasm.gz``). The link-speed decision is
    pinned "fast": on a loaded machine the measured speed of a local download varies."""
    root, requested, marks = _start_pinned(page, "fast")
    assert "kvcalc:worker:snapshot-fetched" in marks
    assert "kvcalc:worker:snapshot-failed" not in marks
    assert "kvcalc:worker:wasm-received" in marks   # instantiated from the page's module
    assert len([path for path in requested if path.endswith(("/pyodide.asm.wasm", "/pyodide.asm.wasm.gz"))]) == 1
    assert len([path for path in requested if path.endswith(".snapshot")]) == 1
    # the restored runtime answers as the CLI does (Qwen3-8B on an RTX 4090, the page's default)
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})


@pytest.mark.fresh_context
def test_worker_without_the_snapshot_answers_the_same(page: Page) -> None:
    """The other path of the same decision, pinned "slow": no snapshot is fetched, the
    worker starts Python the ordinary way (trimmed standard library) and answers as the CLI."""
    root, requested, marks = _start_pinned(page, "slow")
    assert "kvcalc:worker:snapshot-skipped" in marks
    assert "kvcalc:worker:snapshot-fetched" not in marks
    assert not [path for path in requested if path.endswith(".snapshot")]
    assert [path for path in requested if path.endswith("/python_stdlib_kvcalc.zip")]
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})


def _names(requested: list[str]) -> list[str]:
    return [path.rsplit("/", 1)[-1] for path in requested]


@pytest.mark.fresh_context
def test_runtime_comes_compressed_from_the_head(page: Page) -> None:
    """A first visit downloads the runtime's wasm, script and lock file gzipped (3.8 of 11 MB),
    never Pyodide's own copies, and the wasm's download starts in <head>, before the page's
    script runs; the page remembers how fast the link was."""
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    names = _names(requested)
    for name in ("pyodide.asm.wasm", "pyodide.asm.mjs", "pyodide-lock.json"):
        assert names.count(f"{name}.gz") == 1, (name, names)
        assert name not in names, (name, names)
    wasm_start, script_start = page.evaluate("""() => [
        performance.getEntriesByType('resource').find(r => r.name.endsWith('/pyodide.asm.wasm.gz')).startTime,
        performance.getEntriesByName('kvcalc:script-start')[0].startTime]""")
    assert wasm_start < script_start
    assert page.evaluate("localStorage.getItem('kvcalc-link')") in ("fast", "slow")
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})


@pytest.mark.fresh_context
def test_a_reader_whose_link_was_fast_gets_pyodides_own_wasm(page: Page) -> None:
    """After a fast download the page fetches the uncompressed wasm, whose compiled code
    Chromium caches under its URL (a module compiled from a decompressed stream has none)."""
    page.context.add_init_script("localStorage.setItem('kvcalc-link', 'fast')")
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    names = _names(requested)
    assert names.count("pyodide.asm.wasm") == 1 and "pyodide.asm.wasm.gz" not in names, names
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})


@pytest.mark.fresh_context
def test_compressed_files_decoded_by_the_host_still_work(page: Page) -> None:
    """A host may send the build's .gz files with Content-Encoding: gzip, so that the browser
    hands the page the decoded bytes: the page and the worker then use them as they are."""
    import gzip

    decoded: list[str] = []

    def decode(route) -> None:  # type: ignore[no-untyped-def]
        response = route.fetch()
        decoded.append(urlsplit(route.request.url).path)
        route.fulfill(response=response, body=gzip.decompress(response.body()),
                      headers={**response.headers, "content-type": "application/octet-stream"})

    page.context.route("**/*.gz", decode)
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    assert sorted(_names(decoded)) == ["pyodide-lock.json.gz", "pyodide.asm.mjs.gz", "pyodide.asm.wasm.gz"]
    marks = page.evaluate("performance.getEntriesByType('mark').map(m => m.name)")
    assert "kvcalc:worker:runtime-script-ready" in marks   # the decoded script, not Pyodide's own
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})


@pytest.mark.fresh_context
def test_guide_pages_start_no_runtime_download(page: Page) -> None:
    """Only the calculator page starts the runtime in <head>: a guide page's presets wait for the reader."""
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto("en/", wait_until="networkidle")
    assert not [path for path in requested if "/assets/pyodide/" in path], requested
    assert page.evaluate("window.__kvcalcWasm === undefined")


def test_burst_of_edits_ends_on_the_last_one(page: Page) -> None:
    """Edits made while an answer is pending are coalesced, and no stale answer lands last."""
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    root.evaluate("""root => {
        const input = root.querySelector('[name="max_model_len"]')
        for (let value = 4096; value <= 8192; value += 512) {
          input.value = String(value)
          input.dispatchEvent(new Event("input", { bubbles: true }))
        }
      }""")
    shown = wait_result(root, "max_model_len", 8192)
    page.wait_for_timeout(500)   # any answer still on its way would land now
    assert result_of(root) == shown
    assert dict(parse_qsl(urlsplit(page.url).query))["max_model_len"] == "8192"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_recommendation_links_reach_their_guide_section(page: Page, lang: str) -> None:
    # Llama-3.1-70B in bf16 on one RTX 4090: the weights alone do not fit (the core's verdict
    # weights_exceed_gpu: larger than the GPU itself): the weights ladder.
    query = {"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "RTX-4090"}
    page.goto(f"{PREFIX[lang]}calculator/?{urlencode(query)}#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    assert result_of(root)["status"] == "weights_exceed_gpu" == cli_plan(query)["status"]
    hrefs = root.locator(".kvcalc-rec > a").evaluate_all("links => links.map(a => a.href)")
    # The fixes link to the home page's sections, so a plan's ladder stays on the
    # home page; a log whose GPU lacked free memory links to read-your-log's section as well.
    open_log(root)
    field(root, "log").fill((REPO / "tests" / "data" / "logs" / "llmd_v019_codellama_34b_h100_tp2_free_memory.log")
                            .read_text(encoding="utf-8"))
    page.wait_for_function(
        "el => el.querySelector('[data-kvcalc-out=verdict]').dataset.kvcalcKind.endsWith('free_memory_below_utilization')",
        arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    hrefs += root.locator(".kvcalc-rec > a").evaluate_all("links => links.map(a => a.href)")
    pages = {urlsplit(h).path for h in hrefs}
    assert pages == {f"/{PREFIX[lang]}", f"/{PREFIX[lang]}read-your-log/"}
    for href in hrefs:
        parts = urlsplit(href)
        assert parts.path.startswith(f"/{PREFIX[lang]}"), href          # same language
        html = urllib.request.urlopen(href.split("#")[0], timeout=10).read().decode("utf-8")
        assert f'id="{parts.fragment}"' in html, href
