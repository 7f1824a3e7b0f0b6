"""The page's Copy button copies a command a POSIX shell reads as the reader's model, one literal word: a pasted
config whose ``_name_or_path`` holds ``$(…)``, backticks and quotes runs nothing when pasted; one with a line break
is refused beside the config field and copies nothing."""
from __future__ import annotations

import json
import shlex

import pytest
from playwright.sync_api import Page
from test_calculator import UPDATE_TIMEOUT_MS, field, wait_ready, wait_result, widget

from kvcalc import catalog
from kvcalc.faces import web
from kvcalc.vllm_flags import parse_serve_command

pytestmark = pytest.mark.usefixtures("page_is_clean")

HOSTILE = "$(touch x); `id` 'q\""


def _config(name: str) -> str:
    cfg = dict(catalog.find_model("Qwen/Qwen3-8B").config)  # the catalog's copy of its public config.json
    cfg["_name_or_path"] = name
    return json.dumps(cfg)


@pytest.mark.fresh_context
def test_copy_button_copies_one_literal_model_word(page: Page, site_url: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url.rstrip("/"))
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("")
    field(root, "config").fill(_config(HOSTILE))
    expected = json.loads(web.compute(json.dumps({"action": "plan", "lang": "en",
                                                  "inputs": {"config": _config(HOSTILE), "gpu": "RTX-4090"}})))
    wait_result(root, "model", HOSTILE)
    root.locator('[data-kvcalc-out="serve-command"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    shown = root.locator('[data-kvcalc-out="serve-command"]').inner_text()
    assert shown == expected["report"]["serve_command"]
    button = root.locator('[data-kvcalc-action="copy"]').first
    button.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == shown
    words = shlex.split(copied.replace("\\\n", ""))
    assert words[:3] == ["vllm", "serve", HOSTILE]
    parse_serve_command(copied)


def test_a_model_name_with_a_line_break_is_refused_beside_the_config(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("")
    field(root, "config").fill(_config("Qwen/Qwen3-8B\nrm -rf ~"))
    page.wait_for_function("el => el.dataset.kvcalcStatus === 'error'", arg=root.element_handle(),
                           timeout=UPDATE_TIMEOUT_MS)
    error = root.locator('[data-kvcalc-error-for="config"]')
    assert error.is_visible() and "_name_or_path" in error.inner_text()
