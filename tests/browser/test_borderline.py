"""In the page: an estimated budget is a band, and a verdict that flips inside it is
"borderline" in every language, with the band beside the available memory.

Qwen3-8B on an RTX 4090 at 32,768 tokens needs 4.5 GiB (147,456 B per token × 32,768); the
estimate leaves about 4.6 GiB, but the band reaches below 4.5 GiB, so vLLM may start or refuse.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page

from kvcalc.faces import web

PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
READY_TIMEOUT_MS = 60_000
SCENARIO = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "32768"}


pytestmark = pytest.mark.usefixtures("page_is_clean")


def _core(lang: str) -> dict:
    return json.loads(web.compute(json.dumps({"action": "plan", "lang": lang, "inputs": SCENARIO})))


@pytest.mark.parametrize("lang", ["es", "zh", "en"])
def test_borderline_verdict_and_band_in_the_page(page: Page, lang: str) -> None:
    core = _core(lang)
    assert core["result"]["verdict"] == "borderline"
    low, high = core["result"]["available_kv_bytes_low"], core["result"]["available_kv_bytes_high"]
    assert low < core["result"]["needed_kv_bytes"] <= core["result"]["available_kv_bytes"] <= high
    page.goto(f"{PREFIX[lang]}calculator/?{urlencode(SCENARIO)}")
    root = page.locator('[data-kvcalc-component="calculator"]').first
    root.scroll_into_view_if_needed()
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(),
                           timeout=READY_TIMEOUT_MS)
    assert json.loads(root.get_attribute("data-kvcalc-result") or "null")["verdict"] == "borderline"
    text = root.inner_text()
    assert core["report"]["verdict"]["title"] in text            # "Borderline: …" in the page's language
    available = next(f["value"] for f in core["report"]["figures"] if f["key"] == "available_kv")
    assert available in text                                      # "4.58 GiB (4.92 GB), likely 3.4–5.4 GiB"
