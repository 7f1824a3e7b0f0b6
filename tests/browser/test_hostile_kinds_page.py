"""The kinds of hostile input the CLI and JSON-boundary suites cover, in the page: integers in other bases
in a pasted log, config numbers a division cannot take, heads that do not divide, an unknown
``quant_method``, and a 0.9 MB log line that states nine facts (each once quoted whole). The page shows
the core's answer (the same message beside the field as ``kvcalc.faces.web.compute`` gives), never an internal
error, and a bounded text. No page error, failed or foreign request (conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page
from test_calculator import UPDATE_TIMEOUT_MS, field, open_log, wait_ready, widget

from kvcalc.faces import web
from kvcalc.inert_text import MAX_QUOTE_CHARS

ROOT = Path(__file__).resolve().parents[2]
CATALOG = json.loads((ROOT / "calc" / "data" / "catalog.json").read_text(encoding="utf-8"))
#: Qwen/Qwen3-8B's config.json as the catalog stores it.
QWEN3_8B = next(m["config"] for m in CATALOG["models"] if m["id"] == "Qwen/Qwen3-8B")
SAMPLE_LOG = (ROOT / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")

pytestmark = pytest.mark.usefixtures("page_is_clean")


def _wait_status(page: Page, status: str) -> None:
    root = widget(page, "calculator")
    page.wait_for_function(f"el => el.dataset.kvcalcStatus === '{status}'", arg=root.element_handle(),
                           timeout=UPDATE_TIMEOUT_MS)


def _text(page: Page) -> str:
    return str(widget(page, "calculator").evaluate("el => el.textContent"))


@pytest.mark.parametrize("literal", ["0x" + "f" * 4000, "0o" + "7" * 5000, "0b" + "1_" * 6000 + "1", "1" * 5000],
                         ids=["hex", "octal", "binary", "decimal"])
def test_a_huge_integer_in_a_logs_args_is_read_not_crashed_on(page: Page, literal: str) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    open_log(root)
    field(root, "log").fill(f"INFO non-default args: {{'model': 'Qwen/Qwen3-8B', 'max_model_len': {literal}}}\n")
    root.locator('[data-kvcalc-out="diagnosis"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    _wait_status(page, "ready")
    assert "Internal error" not in _text(page)
    assert literal[:600] not in _text(page)  # never echoed whole


@pytest.mark.parametrize("changes", [{"rope_scaling": {"type": "linear", "factor": 1e-300}},
                                     {"rope_scaling": {"rope_type": "yarn", "factor": 0}},
                                     {"num_key_value_heads": 5}], ids=["rope-denormal", "rope-zero", "heads-5"])
def test_a_config_number_the_rules_cannot_take_is_refused_beside_the_config(page: Page, changes: dict) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    cfg = json.dumps({**QWEN3_8B, **changes})
    field(root, "config").fill(cfg)
    _wait_status(page, "error")
    expected = json.loads(web.compute(json.dumps({"action": "plan", "lang": "en", "inputs": {
        "config": cfg, "gpu": field(root, "gpu").input_value()}})))
    assert expected["errors"][0]["code"] == "config_bad_value"
    assert root.locator('[data-kvcalc-error-for="config"]').inner_text() == expected["errors"][0]["message"]
    assert "Internal error" not in _text(page)


def test_an_unknown_quant_method_gets_the_note(page: Page) -> None:
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("")
    field(root, "config").fill(json.dumps({**QWEN3_8B, "quantization_config": {"quant_method": "frobq"}}))
    page.wait_for_function("el => (JSON.parse(el.dataset.kvcalcResult || 'null') || {}).assumed_architecture",
                           arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    notes = root.locator('[data-kvcalc-out="notes"]').evaluate("el => el.textContent")
    assert "frobq" in notes


def test_a_log_line_quoted_once_per_fact_stays_short_in_the_page(page: Page) -> None:
    lines = SAMPLE_LOG.splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if "Initializing a V1 LLM engine" in line)
    lines[i] = lines[i].rstrip("\n") + ", padding='" + "p" * 900_000 + "'\n"
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    open_log(root)
    field(root, "log").fill("".join(lines))
    root.locator('[data-kvcalc-out="diagnosis"]').wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS * 3)
    _wait_status(page, "ready")
    shown = _text(page)
    assert "p" * (MAX_QUOTE_CHARS + 1) not in shown  # each quote of the line is cut
    assert len(shown) < 200_000  # the 0.9 MB line is not repeated once per fact
