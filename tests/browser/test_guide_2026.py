"""The guide's first screen, its phone layout and the "what fits" page in a real browser.

* The home page's answer box and its jump to the paste box are on the first screen at 1366 × 900 and
  within two screens at 390 × 844, in every language; the home calculator holds a current V1 error.
* (Tables at 390 px: tests/browser/test_narrow_tables.py, every page of every language.)
* The what-fits matrix: the GPU filter hides columns without a reload, and five cells' links open their
  scenario in the calculator with the same result as ``kvcalc plan``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]

LANGS = ("es", "zh", "en")
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
READY_TIMEOUT_MS = 60_000

pytestmark = pytest.mark.usefixtures("page_is_clean")


def _bottom(page: Page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["y"] + box["height"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("width", "height", "screens"), [(1366, 900, 1), (390, 844, 2)], ids=["laptop", "phone"])
def test_the_answer_box_is_above_the_fold(page: Page, lang: str, width: int, height: int, screens: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(PREFIX[lang])
    box = page.locator("[data-kvguide-answer]")
    assert box.count() == 1
    assert box.locator("ol > li").count() == 3
    quote_bottom = _bottom(page, "article .kv-wrap")
    top = box.bounding_box()
    assert top is not None and top["y"] >= quote_bottom, "the answer box sits under the quoted error"
    assert _bottom(page, "[data-kvguide-answer]") <= screens * height
    paste = box.locator("a[data-kvguide-paste]")
    assert _bottom(page, "[data-kvguide-answer] a[data-kvguide-paste]") <= screens * height
    assert (paste.get_attribute("href") or "").endswith("read-your-log/#paste-your-log")
    # the worked number is the core's: 0.7 x 29,120 rounded down to whole blocks of 16 = 20,384
    # 0.7 x 29,104 (the newest rules hold the null block back) = 20,372.8 → 1,273 blocks of 16 = 20,368
    assert "20368" in box.locator("pre").inner_text()


@pytest.mark.parametrize("lang", LANGS)
def test_the_paste_jump_lands_on_the_open_paste_box(page: Page, lang: str) -> None:
    page.goto(PREFIX[lang])
    page.locator("[data-kvguide-answer] a[data-kvguide-paste]").click()
    page.wait_for_url("**/read-your-log/#paste-your-log")
    log_box = page.locator('[data-kvcalc-preset="paste-your-log"] textarea[data-kvcalc-log]')
    assert log_box.is_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_calculator_holds_a_v1_error(page: Page, lang: str) -> None:
    page.goto(PREFIX[lang])
    log = page.locator('[data-kvcalc-preset="read-the-logs"] textarea[data-kvcalc-log]').input_value()
    assert "To serve at least one request with the model's max seq len (30000)" in log
    assert "(which also controls CPU memory on the CPU backend)" in log and "# GPU blocks" not in log


@pytest.mark.parametrize("lang", LANGS)
def test_the_gpu_filter_hides_columns_without_a_reload(page: Page, lang: str) -> None:
    page.goto(PREFIX[lang] + "what-fits/")
    page.evaluate("window.__kvfitMark = 1")
    page.locator('input[data-kvfit-filter][value="H100-80GB"]').uncheck()
    assert page.locator('td[data-kvfit-gpu="H100-80GB"]').first.is_hidden()
    assert page.locator('td[data-kvfit-gpu="H200"]').first.is_visible()
    page.locator("[data-kvfit-none]").click()
    page.locator('input[data-kvfit-filter][value="GB10"]').check()
    assert page.locator("th[data-kvfit-gpu]:visible").count() == 1
    assert page.evaluate("window.__kvfitMark") == 1, "the filter reloaded the page"
    page.goto(PREFIX[lang] + "what-fits/#rtx-4090")
    page.wait_for_function("document.querySelectorAll('th[data-kvfit-gpu]:not([hidden])').length === 1")
    assert page.locator("th[data-kvfit-gpu]:not([hidden])").get_attribute("id") == "rtx-4090"


def cli_plan(inputs: dict[str, str]) -> dict:
    argv = [sys.executable, "-m", "kvcalc", "plan", "--json"]
    for name, value in inputs.items():
        argv += ["--" + name.replace("_", "-"), value]
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


#: Five cells: dense at TP 1, an fp8 KV cell, a TP 2 borderline cell, a Mamba-check cell, a weights-do-not-fit cell.
CELLS = [("Qwen/Qwen3-8B", "RTX-4090", "auto"), ("meta-llama/Llama-3.1-8B-Instruct", "L4", "fp8"),
         ("meta-llama/Llama-3.3-70B-Instruct", "H100-80GB", "auto"), ("Qwen/Qwen3.5-27B", "H100-80GB", "fp8"),
         ("deepseek-ai/DeepSeek-V3", "GB10", "auto")]


@pytest.mark.parametrize(("model", "gpu", "dtype"), CELLS, ids=["|".join(c) for c in CELLS])
def test_a_cells_link_reproduces_its_scenario(page: Page, model: str, gpu: str, dtype: str) -> None:
    page.goto("en/what-fits/")
    row = page.locator(f'tr[data-kvfit-model="{model}"]')
    link = row.locator(f'td[data-kvfit-gpu="{gpu}"] [data-kvfit-dtype="{dtype}"] a')
    shown = link.inner_text()
    kind = link.get_attribute("data-kvfit-kind")
    href = link.get_attribute("href") or ""
    query = dict(parse_qsl(urlsplit(href).query))
    link.click()
    page.wait_for_url("**/calculator/**")
    root = page.locator('[data-kvcalc-component="calculator"][data-kvcalc-preset="calculator"]')
    for name, value in query.items():
        assert root.locator(f'[name="{name}"]').input_value() == value, name
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(),
                           timeout=READY_TIMEOUT_MS)
    result = json.loads(root.get_attribute("data-kvcalc-result") or "null")
    assert result == cli_plan(query)
    # what the reader sees: the verdict's kind, and the cell's figure in the verdict and the key figures
    verdict = root.locator('[data-kvcalc-out="verdict"]')
    seen = " ".join(root.locator('[data-kvcalc-out="verdict"], [data-kvcalc-out="figures"]').all_inner_texts())
    if "max_model_len" in query:
        figure = f"{result['max_model_len']:,}"
        assert figure in shown and figure in seen, (shown, seen)
    if kind == "mamba":  # the KV check passes, the Mamba state pool stops vLLM: the same blocks on both pages
        blocks = f"{result['num_gpu_blocks']:,}"
        assert result["status"] == "mamba_blocks_below_max_num_seqs" and blocks in shown and blocks in seen
        assert verdict.get_attribute("data-kvcalc-kind") not in ("fits", "borderline"), seen
    elif kind in ("full", "fits"):
        assert verdict.get_attribute("data-kvcalc-kind") in ("fits", "borderline"), seen
    else:  # "weights do not fit": the calculator does not start either
        assert result["status"] in ("weights_exceed_gpu", "no_memory", "auto_fit_failed")
        assert verdict.get_attribute("data-kvcalc-kind") not in ("fits", "borderline"), seen
