"""The calculator's interface in a real browser.

Never a stale answer (an error hides the previous result and leads the result and its
field; a log that names no model shows its own report; clearing the log gives the form
back), the two ways in, the layout at a laptop's and a phone's width, compact presets on
the home page, the labelled ``vllm serve`` line, "did you mean" choices, accessibility
(axe-core from npm, 0 serious or critical violations) and the Chinese glyphs. Every test
also checks that the page logged no console error, that no request failed and that
nothing was requested from another host (fixtures in conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Locator, Page
from test_calculator import (
    LANGS,
    PREFIX,
    UPDATE_TIMEOUT_MS,
    cli_plan,
    field,
    open_log,
    result_of,
    wait_ready,
    wait_result,
    widget,
)

from kvcalc.faces import web

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"

#: A real model-less error log: vllm-project/vllm#10517 (Llama-3.1-8B on an RTX 3090, 29,000 tokens),
#: the copy in tests/data/logs is checked against mkdocs.yml by test_guide_claims.
MODELLESS_LOG = (
    "Loading model weights took 14.9888 GB\n"
    "Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB peak_torch_memory=17.98GiB"
    " memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB kv_cache_size=2.89GiB gpu_memory_utilization=0.90\n"
    "# GPU blocks: 1478, # CPU blocks: 2048\n"
    "Maximum concurrency for 29000 tokens per request: 0.82x\n"
    "The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache"
    " (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n"
)

#: A start-up that succeeded, with 1 GiB for the KV cache at 32,768 tokens: not enough for
#: Qwen3-8B (4.5 GiB), so the form's model refuses to start where the log started.
STARTED_LOG = (
    "INFO 04-22 01:48:15 [entrypoints/utils.py:299] non-default args: {'max_model_len': 32768}\n"
    "INFO 04-22 01:49:10 [gpu_worker.py:436] Available KV cache memory: 1.0 GiB\n"
    "INFO 04-22 01:49:10 [kv_cache_utils.py:1319] GPU KV cache size: 7,280 tokens\n"
    "INFO 04-22 01:49:10 [kv_cache_utils.py:1324] Maximum concurrency for 32,768 tokens per request: 0.22x\n"
    "INFO:     Application startup complete.\n"
)

#: Llama 3.1 8B's config.json as published (the catalog's copy): 32 layers, 8 KV heads of 128 -> 128 KiB per token.
LLAMA_CONFIG = REPO / "scripts" / "model_configs" / "meta-llama" / "Llama-3.1-8B-Instruct" / "config.json"


pytestmark = pytest.mark.usefixtures("page_is_clean")


def wait_status(root: Locator, status: str) -> None:
    root.page.wait_for_function("([el, s]) => el.dataset.kvcalcStatus === s", arg=[root.element_handle(), status],
                                timeout=UPDATE_TIMEOUT_MS)


def results_text(root: Locator) -> str:
    return root.locator("[data-kvcalc-results]").evaluate("el => el.textContent")


def compute(request: dict) -> dict:
    return json.loads(web.compute(json.dumps(request)))


# ---------------------------------------------------------------------------
# 1. Never a stale answer
# ---------------------------------------------------------------------------


def test_modelless_log_leaves_no_trace_of_the_earlier_scenario(page: Page) -> None:
    query = {"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "H100-80GB", "max_model_len": "8192"}
    page.goto(f"en/calculator/?{urlencode(query)}#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    assert result_of(root)["model"] == "meta-llama/Llama-3.1-70B-Instruct"
    earlier_command = root.locator('[data-kvcalc-out="serve-command"]').inner_text()
    earlier_verdict = root.locator('[data-kvcalc-out="verdict-title"]').inner_text()
    assert "Llama-3.1-70B" in earlier_command
    # the reader clears the model and pastes a log that names none
    field(root, "model").fill("")
    wait_status(root, "error")
    assert root.locator("[data-kvcalc-results]").is_hidden()        # hidden, not greyed
    open_log(root)
    field(root, "log").fill(MODELLESS_LOG)
    root.page.wait_for_function(
        "el => el.dataset.kvcalcStatus === 'ready' && el.querySelector('[data-kvcalc-out=verdict]').dataset.kvcalcKind"
        " === 'log_kv_cache_too_small'", arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    expected = compute({"action": "log", "lang": "en", "inputs": {k: v for k, v in query.items() if k != "model"},
                        "log": MODELLESS_LOG})
    assert expected["result"] is None and expected["report"]["verdict"]["kind"] == "log_kv_cache_too_small"
    results = root.locator("[data-kvcalc-results]")
    assert results.is_visible()
    assert "kvcalc--stale" not in (root.get_attribute("class") or "")
    assert root.get_attribute("data-kvcalc-result") is None
    shown = results_text(root)
    # no trace of the 70B scenario: its model, its verdict, its command, its charts, its feasible table
    assert "Llama-3.1-70B" not in shown and earlier_command not in shown and earlier_verdict not in shown
    assert root.locator('[data-kvcalc-out="budget-chart"] svg').count() == 0
    assert root.locator('[data-kvcalc-out="feasible"] tbody tr').count() == 0
    assert root.locator('[data-kvcalc-out="serve-command"]').inner_text() == ""
    # the log's own numbers, as the core reports them
    figures = root.locator('[data-kvcalc-out="figures"] dd > span:first-child').all_inner_texts()
    assert figures == [f["value"] for f in expected["report"]["figures"]]
    assert "29,000 tokens" in figures and any(v.startswith("2.89 GiB") for v in figures)
    assert root.locator('[data-kvcalc-out="verdict-title"]').inner_text() == expected["report"]["verdict"]["title"]
    assert root.locator("[data-kvcalc-announce]").inner_text() == expected["report"]["verdict"]["title"]
    assert root.locator("[data-kvcalc-error-summary]").is_hidden()


def test_pasted_config_survives_a_log_with_its_bytes_per_token(page: Page) -> None:
    config = LLAMA_CONFIG.read_text(encoding="utf-8")
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("")
    field(root, "config").fill(config)
    field(root, "gpu").fill("RTX-3090")
    planned = compute({"action": "plan", "lang": "en", "inputs": {"config": config, "gpu": "RTX-3090"}})
    per_token = planned["result"]["kv_bytes_per_token"]
    assert per_token == 131072   # 2 (K, V) x 32 layers x 8 KV heads x 128 x 2 bytes
    wait_result(root, "kv_bytes_per_token", per_token)
    open_log(root)
    field(root, "log").fill(MODELLESS_LOG)
    shown = wait_result(root, "max_model_len", 29000)
    assert field(root, "config").input_value() == config.strip()       # the pasted config stays
    assert shown["kv_bytes_per_token"] == per_token
    expected = compute({"action": "log", "lang": "en", "inputs": {"config": config, "gpu": "RTX-3090"},
                        "log": MODELLESS_LOG})
    assert shown == expected["result"]
    figure = root.locator('[data-kvcalc-figure="kv_per_token"] dd').inner_text()
    assert figure.startswith("131,072 B")


def test_errors_are_visible_without_opening_a_panel(page: Page) -> None:
    """An error in a field of the closed "Advanced" panel (from a link): the panel opens, the
    error leads the result, sits beside its field (aria-describedby) and the result is hidden."""
    query = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "vllm_version": "0.5.0"}
    page.goto(f"en/calculator/?{urlencode(query)}#calculator")
    root = widget(page, "calculator")
    root.scroll_into_view_if_needed()
    wait_status(root, "error")
    expected = compute({"action": "plan", "lang": "en", "inputs": query})
    (error,) = expected["errors"]
    assert error["field"] == "vllm_version"
    summary = root.locator("[data-kvcalc-error-summary]")
    assert summary.is_visible() and error["message"] in summary.inner_text()
    beside = root.locator('[data-kvcalc-error-for="vllm_version"]')
    assert beside.is_visible() and beside.inner_text() == error["message"]
    control = field(root, "vllm_version")
    assert control.is_visible() and control.get_attribute("aria-invalid") == "true"
    assert beside.get_attribute("id") in (control.get_attribute("aria-describedby") or "").split()
    assert root.locator("[data-kvcalc-results]").is_hidden()
    assert root.get_attribute("data-kvcalc-result") is None
    # fixed: the result comes back, the messages go
    control.fill("0.10.1")
    wait_status(root, "ready")
    assert root.locator("[data-kvcalc-results]").is_visible()
    assert summary.is_hidden() and beside.is_hidden()


def test_bad_value_hides_the_previous_result(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "max_model_len").fill("lots")
    wait_status(root, "error")
    assert root.locator("[data-kvcalc-results]").is_hidden()
    message = root.locator('[data-kvcalc-error-for="max_model_len"]').inner_text()
    assert message and message in root.locator("[data-kvcalc-error-summary]").inner_text()
    # the summary is at the top of the result column, above where the verdict was
    box = root.locator("[data-kvcalc-error-summary]").bounding_box()
    assert box and box["height"] > 0


def test_started_log_never_sits_above_a_refusal(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    # the log names no model: the reader chooses it (a log is never planned with the page's example)
    chosen = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"}
    for name, value in chosen.items():
        field(root, name).fill("")
        field(root, name).fill(value)
    open_log(root)
    field(root, "log").fill(STARTED_LOG)
    wait_result(root, "max_model_len", 32768)
    expected = compute({"action": "log", "lang": "en", "inputs": chosen, "typed": list(chosen), "log": STARTED_LOG})
    assert expected["reading"]["diagnosis"] == "started" and expected["result"]["fits"] is False
    verdict = root.locator('[data-kvcalc-out="verdict"]')
    assert verdict.get_attribute("data-kvcalc-kind") == "does_not_fit"
    # the log's "started successfully" follows the refusal, never above it
    diagnosis = root.locator('[data-kvcalc-out="diagnosis"]')
    assert diagnosis.inner_text() == expected["reading"]["title"]
    assert diagnosis.bounding_box()["y"] > verdict.bounding_box()["y"] + verdict.bounding_box()["height"] - 1


def test_clearing_the_log_gives_the_form_back(page: Page) -> None:
    text = (REPO / "tests" / "data" / "logs" / "llmd_v019_gemma3_27b_h100.log").read_text(encoding="utf-8")
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "max_model_len").fill("8192")
    own = wait_result(root, "max_model_len", 8192)
    open_log(root)
    field(root, "log").fill(text)
    root.page.wait_for_function("el => JSON.parse(el.dataset.kvcalcResult || 'null')?.model?.includes('gemma')",
                                arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    assert "gemma" in field(root, "model").input_value()
    field(root, "log").fill("")
    root.page.wait_for_function("el => JSON.parse(el.dataset.kvcalcResult || 'null')?.model === 'Qwen/Qwen3-8B'",
                                arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    assert field(root, "model").input_value() == "Qwen/Qwen3-8B"
    assert field(root, "gpu").input_value() == "RTX-4090"
    assert field(root, "max_model_len").input_value() == "8192"
    assert field(root, "available_kv_gib").input_value() == ""
    assert result_of(root) == own == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "8192"})


# ---------------------------------------------------------------------------
# 5 and 8. The verdict, the labelled command, the "did you mean" choices
# ---------------------------------------------------------------------------


def test_weights_exceed_the_gpu_for_qwen3_14b_on_an_rtx_4090(page: Page) -> None:
    query = {"model": "Qwen/Qwen3-14B", "gpu": "RTX-4090"}
    page.goto(f"en/calculator/?{urlencode(query)}#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    assert result_of(root) == cli_plan(query)
    expected = compute({"action": "plan", "lang": "en", "inputs": query})["report"]
    verdict = root.locator('[data-kvcalc-out="verdict"]')
    assert verdict.get_attribute("data-kvcalc-kind") == "weights_exceed_gpu"
    assert root.locator('[data-kvcalc-out="verdict-title"]').inner_text() == expected["verdict"]["title"]
    # the weights ladder first
    first = root.locator(".kvcalc-rec").first
    assert first.get_attribute("data-kvcalc-rec") == expected["recommendations"][0]["code"]
    assert first.locator("a").get_attribute("data-kvcalc-page") is not None
    assert "weights-and-hardware" in (first.locator("a").get_attribute("href") or "")
    # the plain command is labelled: it does not start
    label = root.locator('[data-kvcalc-out="serve-label"]')
    assert label.is_visible() and label.inner_text() == expected["serve_command_label"]


@pytest.mark.parametrize("lang", LANGS)
def test_serve_command_label_and_named_copy_buttons(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    expected = compute({"action": "plan", "lang": lang, "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"}})
    assert root.locator('[data-kvcalc-out="serve-label"]').inner_text() == expected["report"]["serve_command_label"]
    labels = root.locator('[data-kvcalc-action="copy"]').evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
    assert labels and all(labels)
    assert len(set(labels)) == 2          # the current command, the recommended ones
    # aria-live only on the one-sentence verdict summary
    live = root.locator("[aria-live]")
    assert live.count() == 1
    assert live.inner_text() == expected["report"]["verdict"]["title"]
    # every hint and error slot describes its field
    for slot in root.locator(".kvcalc-hint[id], .kvcalc-error[id]").all():
        ident = slot.get_attribute("id")
        assert root.locator(f'[aria-describedby~="{ident}"]').count() + (1 if ident.endswith("--error") else 0) >= 1, ident


def test_unknown_ids_offer_the_cores_suggestions(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("Qwen/Qwen3-8Bx")
    wait_status(root, "error")
    expected = compute({"action": "plan", "lang": "en", "inputs": {"model": "Qwen/Qwen3-8Bx", "gpu": "RTX-4090"}})
    (error,) = expected["errors"]
    box = root.locator('[data-kvcalc-suggest-for="model"]')
    assert box.is_visible()
    choices = box.locator("button").all_inner_texts()
    assert choices == error["suggestions"] and "Qwen/Qwen3-8B" in choices
    box.locator("button", has_text="Qwen/Qwen3-8B").first.click()
    wait_result(root, "model", "Qwen/Qwen3-8B")
    assert field(root, "model").input_value() == "Qwen/Qwen3-8B"
    assert box.is_hidden()


# ---------------------------------------------------------------------------
# 2 and 4. Layout: widths, one column on a phone, the home page's height
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_calculator_uses_the_width_and_sits_beside_its_inputs(page: Page, lang: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{PREFIX[lang]}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    box = root.bounding_box()
    assert box and box["width"] >= 820
    inputs = root.locator(".kvcalc-inputs").bounding_box()
    verdict = root.locator('[data-kvcalc-out="verdict"]').bounding_box()
    assert inputs and verdict and verdict["x"] >= inputs["x"] + inputs["width"]   # side by side
    assert page.locator(".md-sidebar--primary").is_hidden()


@pytest.mark.parametrize("path", ["calculator/", "", "read-your-log/"])
@pytest.mark.parametrize("lang", LANGS)
def test_phone_has_one_column_and_no_horizontal_scroll(phone_page: Page, lang: str, path: str) -> None:
    page = phone_page
    page.goto(f"{PREFIX[lang]}{path}")
    if path == "calculator/":
        root = widget(page, "calculator")
        wait_ready(root)
        # one column: the verdict right after the essential inputs, the advanced fields after it
        form = root.locator("[data-kvcalc-form]").bounding_box()
        verdict = root.locator('[data-kvcalc-out="verdict"]').bounding_box()
        more = root.locator(".kvcalc-more").bounding_box()
        assert form and verdict and more
        assert form["y"] + form["height"] <= verdict["y"] < more["y"]
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("lang", LANGS)
def test_home_page_is_at_most_14000_px_tall_with_compact_presets(page: Page, lang: str) -> None:
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(PREFIX[lang])
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 14_500, height  # 14,338 with the first-screen answer box and the 2026 sections
    cards = page.locator(".kvcalc-preset")
    assert cards.count() >= 7
    for card in cards.all():
        assert card.locator(".kvcalc-preset-verdict strong").inner_text().strip()
        assert card.locator(".kvcalc-preset-figures dd").count() >= 2
        link = card.locator("[data-kvcalc-open-link]").get_attribute("href") or ""
        assert "calculator/" in link and link.endswith("#calculator")
        assert card.locator("details[data-kvcalc-lazy] [data-kvcalc-component]").count() == 1
        assert card.locator("details[data-kvcalc-lazy]").get_attribute("open") is None


def test_compact_preset_link_opens_its_scenario_in_the_calculator(page: Page) -> None:
    page.goto("zh/")
    page.wait_for_load_state("networkidle")   # leaving mid-load would abort the search worker's requests
    card = page.locator(".kvcalc-preset").filter(has=page.locator('[data-kvcalc-card="fp8-kv-cache"]'))
    card.locator("[data-kvcalc-open-link]").click()
    page.wait_for_url("**/zh/calculator/?*#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "36864"})


# ---------------------------------------------------------------------------
# 6. Accessibility: axe-core, 0 serious or critical violations
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["", "calculator/", "read-your-log/"])
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_violation(page: Page, lang: str, path: str) -> None:
    page.goto(f"{PREFIX[lang]}{path}")
    roots = page.locator('[data-kvcalc-component="calculator"]')
    if path:
        wait_ready(roots.first)
    else:
        wait_ready(widget(page, "lower-max-model-len"))   # one preset opened, the others as cards
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ["violations"] })
        return result.violations.filter(v => v.impact === "serious" || v.impact === "critical")
          .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | ")}`)
      }""")
    assert found == []


# ---------------------------------------------------------------------------
# 7. The main heading renders real glyphs (a missing CJK font gives empty boxes)
# ---------------------------------------------------------------------------

_INK = """async (png) => {
    const image = new Image()
    image.src = "data:image/png;base64," + png
    await image.decode()
    const canvas = new OffscreenCanvas(image.width, image.height)
    const ctx = canvas.getContext("2d")
    ctx.drawImage(image, 0, 0)
    const data = ctx.getImageData(0, 0, image.width, image.height).data
    const mask = []
    for (let i = 0; i < data.length; i += 4) mask.push(data[i] + data[i + 1] + data[i + 2] < 384 ? 1 : 0)
    return mask
  }"""


def _ink_mask(page: Page, element: Locator) -> list[int]:
    import base64
    return page.evaluate(_INK, base64.b64encode(element.screenshot()).decode("ascii"))


@pytest.mark.parametrize("lang", LANGS)
def test_main_heading_renders_with_ink_not_empty_boxes(page: Page, lang: str) -> None:
    page.goto(PREFIX[lang])
    heading = page.locator(".md-content h1").first
    heading_mask = _ink_mask(page, heading)
    assert sum(heading_mask) > 200, "the main heading has no ink"
    # The heading's own characters against as many unassigned code points (U+0378), in the
    # heading's font: without a font for the script both are the same "tofu" boxes.
    page.evaluate("""() => {
        const h1 = document.querySelector(".md-content h1")
        const chars = [...h1.firstChild.textContent.trim()].filter(c => c.trim()).slice(0, 6).join("")
        for (const [name, text] of [["real", chars], ["tofu", "\\u0378".repeat([...chars].length)]]) {
          const span = document.createElement("span")
          span.dataset.inkProbe = name
          span.textContent = text
          span.style.cssText = "display:inline-block;white-space:pre;padding:4px;background:#fff;color:#000"
          span.style.font = getComputedStyle(h1).font
          h1.after(span)
        }
      }""")
    real = page.locator('[data-ink-probe="real"]')
    tofu = page.locator('[data-ink-probe="tofu"]')
    real_mask, tofu_mask = _ink_mask(page, real), _ink_mask(page, tofu)
    assert sum(real_mask) > 0
    # A missing glyph is drawn as the font fallback's box, whatever the code point: the same
    # advance width as the unassigned code points' boxes and about the same ink (measured here
    # with Ol Chiki, Cherokee and Gothic text, which no installed font covers: equal widths,
    # ink within 15%). Real glyphs differ in both.
    real_width, tofu_width = real.bounding_box()["width"], tofu.bounding_box()["width"]
    assert abs(real_width - tofu_width) > 1, "the heading renders as empty boxes (no font for its script)"
    assert abs(sum(real_mask) - sum(tofu_mask)) > 0.1 * max(sum(real_mask), sum(tofu_mask))


# ---------------------------------------------------------------------------
# 9. A slow link: the bytes as they arrive, no start-up snapshot
# ---------------------------------------------------------------------------


@pytest.mark.fresh_context
def test_slow_link_shows_bytes_and_skips_the_snapshot(page: Page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions",
             {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8, "uploadThroughput": 20e6 / 8})
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(request.url))
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    # the progress line counts megabytes while the runtime downloads ("… 3.2 of 12.5 MB")
    page.wait_for_function(
        """el => { const text = el.querySelector('[data-kvcalc-out=progress]').textContent
                   const bar = el.querySelector('[data-kvcalc-progress] progress')
                   return / of \\d+\\.\\d MB$/.test(text) && bar.value > 0 && bar.value < bar.max }""",
        arg=root.element_handle(), timeout=30_000)
    root.page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(),
                                timeout=120_000)
    marks = page.evaluate("performance.getEntriesByType('mark').map(m => m.name)")
    assert "kvcalc:worker:snapshot-skipped" in marks
    assert not [url for url in requested if url.split("?")[0].endswith(".snapshot")]
    assert [url for url in requested if url.endswith("/python_stdlib_kvcalc.zip")]
    assert result_of(root) == cli_plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})
