"""The output boundary in a real browser: what a reader pastes is shown as inert text.

A config whose ``_name_or_path`` carries terminal controls (OSC 52, a CR that would overwrite a
line, BEL) and markup is shown with the controls as visible escapes (``\\x1b``) and the markup as
text; a pasted log with the same is read and shown the same way; a model the core does not know
is planned with the note naming what was assumed; an encoder model and an id with a zero-width
space get their errors beside the field. No page error, failed or foreign request (conftest.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page
from test_calculator import UPDATE_TIMEOUT_MS, field, open_log, result_of, wait_ready, widget

from kvcalc.faces import web
from kvcalc.strings import STRINGS

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "calc" / "data" / "catalog.json").read_text(encoding="utf-8"))
#: Qwen/Qwen3-8B's config.json as the catalog stores it.
QWEN3_8B = next(m["config"] for m in CATALOG["models"] if m["id"] == "Qwen/Qwen3-8B")
SAMPLE_LOG = (ROOT / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
ATTACK = "\x1b]52;c;cm0gLXJmIH4K\x07\rvLLM starts<img src=x onerror=alert(1)>"

pytestmark = pytest.mark.usefixtures("page_is_clean")


def _widget_text(page: Page) -> str:
    return widget(page, "calculator").evaluate("el => el.textContent")


def _wait_status(page: Page, status: str) -> None:
    root = widget(page, "calculator")
    page.wait_for_function(f"el => el.dataset.kvcalcStatus === '{status}'", arg=root.element_handle(),
                           timeout=UPDATE_TIMEOUT_MS)


def test_config_name_controls_are_shown_as_escapes(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    cfg = json.dumps({**QWEN3_8B, "_name_or_path": "Qwen/Qwen3-8B" + ATTACK})
    field(root, "model").fill("")
    field(root, "config").fill(cfg)
    # a name a command cannot print honestly is refused beside the config field (model_name_unsafe), shown escaped
    error = root.locator('[data-kvcalc-error-for="config"]')
    error.wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    shown = _widget_text(page)
    assert not UNSAFE.findall(shown)
    assert "\\u001b]52" in error.inner_text()  # ESC written as its escape (inputs.check_model_word)
    assert root.locator("img").count() == 0


def test_log_controls_are_shown_as_escapes(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    open_log(root)
    text = SAMPLE_LOG + f"INFO 04-22 01:48:30 [core.py:1] {ATTACK}\n"
    field(root, "log").fill(text)
    root.locator('[data-kvcalc-out="diagnosis"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    _wait_status(page, "ready")
    assert not UNSAFE.findall(_widget_text(page))
    assert root.locator("img").count() == 0


@pytest.mark.parametrize("lang,prefix", [("en", "en/"), ("es", ""), ("zh", "zh/")])
def test_an_unknown_model_type_gets_the_note(page: Page, lang: str, prefix: str) -> None:
    page.goto(f"{prefix}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("")
    field(root, "config").fill(json.dumps({**QWEN3_8B, "model_type": "frobnicator"}))
    page.wait_for_function("el => (JSON.parse(el.dataset.kvcalcResult || 'null') || {}).assumed_architecture",
                           arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    assert result_of(root)["assumed_architecture"]["model_type"] == "frobnicator"
    notes = root.locator('[data-kvcalc-out="notes"]').evaluate("el => el.textContent")
    assert STRINGS[lang]["note.assumed_architecture"].split("{what}")[0] in notes
    assert "frobnicator" in notes


def test_an_encoder_model_is_refused_beside_the_config(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    cfg = json.dumps({**QWEN3_8B, "model_type": "bert", "architectures": ["BertModel"]})
    field(root, "config").fill(cfg)
    _wait_status(page, "error")
    expected = json.loads(web.compute(json.dumps({"action": "plan", "lang": "en", "inputs": {
        "config": cfg, "gpu": field(root, "gpu").input_value()}})))
    assert expected["errors"][0]["code"] == "encoder_model"
    assert root.locator('[data-kvcalc-error-for="config"]').inner_text() == expected["errors"][0]["message"]


def test_a_zero_width_space_in_the_model_id_is_refused(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "config").fill("")
    field(root, "model").fill("Qwen/\u200bQwen3-8B")
    _wait_status(page, "error")
    beside = root.locator('[data-kvcalc-error-for="model"]')
    assert beside.is_visible()
    assert "\\u200b" in beside.inner_text()
