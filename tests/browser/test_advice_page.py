"""The fixes of every failure kind reach the page: a pasted log that ends in "Free memory on device … is less
than desired GPU memory utilization" (PyTorch's CI, pytorch/pytorch#175666) or "No available memory for the
cache blocks" (vLLM 0.6.4, docker compose) shows its fixes under "what to change", each linking its guide
section, the same list the core gives (``web.compute``); a fix that changes no flag shows no command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page

from kvcalc.faces import web

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "tests" / "data" / "logs"
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
READY_TIMEOUT_MS = 60_000
UPDATE_TIMEOUT_MS = 10_000

pytestmark = pytest.mark.usefixtures("page_is_clean")


@pytest.mark.parametrize(("lang", "name"), [("en", "v2026_free_memory_pytorch_ci_l4.log"),
                                            ("zh", "v064_no_available_memory_docker_compose.log")])
def test_failure_log_shows_its_fixes(page: Page, lang: str, name: str) -> None:
    text = (LOGS / name).read_text(encoding="utf-8")
    page.goto(f"{PREFIX[lang]}calculator/")
    root = page.locator('[data-kvcalc-component="calculator"][data-kvcalc-preset="calculator"]')
    root.scroll_into_view_if_needed()
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(),
                           timeout=READY_TIMEOUT_MS)
    # the page sends a log with what the reader typed only (nothing here), never the preset's example values
    core = json.loads(web.compute(json.dumps({"action": "log", "lang": lang, "inputs": {}, "typed": [], "log": text})))
    recs = core["report"]["recommendations"]
    assert recs, core
    root.evaluate("el => { el.querySelector('details.kvcalc-log').open = true }")
    root.locator('[name="log"]').fill(text)
    root.locator('[data-kvcalc-out="diagnosis"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    # the plan shown before the paste had its own fixes: wait for the log's
    page.wait_for_function(
        """([el, title]) => { const first = el.querySelector('[data-kvcalc-out="recommendations"] > li');
                             return first !== null && first.innerText.includes(title) }""",
        arg=[root.element_handle(), recs[0]["title"]], timeout=UPDATE_TIMEOUT_MS)
    items = root.locator('[data-kvcalc-out="recommendations"] > li')
    assert items.count() == len(recs)
    for item, rec in zip(items.all(), recs, strict=True):
        assert rec["title"] in item.inner_text()
        assert item.locator(f'a[href*="#{rec["anchor"]}"]').count() >= 1
        shown = item.locator('[data-kvcalc-out="rec-command"]')
        assert (shown.count() > 0 and shown.first.is_visible()) == bool(rec["serve_command"])
