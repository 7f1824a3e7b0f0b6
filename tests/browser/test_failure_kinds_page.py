"""Every failure kind of the read-your-log table, pasted into that page's calculator ("Paste your log"), in
es, zh and en: the fix of tests/test_failure_kinds.py's table shows under "what to change" with its guide
link and a ``vllm serve`` command whose flags are the ones written out by hand there. Then the two logs of
tests/test_log_command_line.py: the Qwen3-32B-AWQ log asks for its model and, once it is typed in the form
(with the log's release), shows the log's own 1,856 tokens; the ``docker run`` log shows Qwen3-32B at TP 2
with the utilization in "your current command".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page
from test_calculator import LANGS, PREFIX, UPDATE_TIMEOUT_MS, field, result_of, wait_ready, widget
from test_failure_kinds import KINDS
from test_log_sequence import expected_answer, paste

from kvcalc import strings as core_strings
from kvcalc.versions import rules_for
from kvcalc.vllm_flags import parse_serve_command

REPO = Path(__file__).resolve().parents[2]
LOGS = REPO / "tests" / "data" / "logs"
AWQ = "v0280_qwen3_32b_awq_5090_8k_kv_too_small_excerpt.log"
DOCKER = "v0271_qwen3_32b_2xrtxpro6000_tp2_util0426_docker_run.log"

pytestmark = pytest.mark.usefixtures("page_is_clean")


def command_text(pre: Locator) -> str:
    """A shown command as one line (its backslash continuations joined), as a shell reads it."""
    lines = [line.strip() for line in pre.inner_text().splitlines()]
    return " ".join(line.removesuffix("\\").strip() for line in lines if line)


def read_your_log(page: Page, lang: str) -> Locator:
    page.goto(f"{PREFIX[lang]}read-your-log/")
    root = widget(page, "paste-your-log")
    wait_ready(root)
    return root


@pytest.mark.parametrize("lang", LANGS)
def test_every_failure_kind_shows_its_fix_and_command(page: Page, lang: str) -> None:
    root = read_your_log(page, lang)
    for kind in KINDS:
        text = (LOGS / kind.log).read_text(encoding="utf-8")
        answer = expected_answer(lang, text, {})
        assert answer["reading"]["diagnosis"] == kind.diagnosis
        rec = next(r for r in answer["report"]["recommendations"] if r["code"] == kind.code
                   and r["anchor"] == kind.anchor)
        paste(root, text, answer["log_lines"])
        item = root.locator('[data-kvcalc-out="recommendations"] > li').filter(has_text=rec["title"])
        item.first.wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
        assert item.first.locator(f'a[href*="#{kind.anchor}"]').count() >= 1, kind.log
        shown = item.first.locator('[data-kvcalc-out="rec-command"]')
        assert shown.is_visible(), kind.log
        parsed = parse_serve_command(command_text(shown), rules_for(None))
        assert (parsed.model, parsed.flags) == (kind.model, kind.flags), kind.log


@pytest.mark.parametrize("lang", LANGS)
def test_the_awq_log_asks_for_its_model_then_shows_its_own_figures(page: Page, lang: str) -> None:
    root = read_your_log(page, lang)
    text = (LOGS / AWQ).read_text(encoding="utf-8")
    answer = expected_answer(lang, text, {})
    paste(root, text, answer["log_lines"])
    assert result_of(root) is None and field(root, "model").input_value() == ""
    ask = root.locator('[data-kvcalc-out="ask"]')
    assert ask.is_visible() and ask.inner_text() == core_strings.t(lang, "ask.model")
    # the reader names the model and the log's release (the file pins vllm/vllm-openai:v0.28.0)
    typed = {"model": "Qwen/Qwen3-32B-AWQ", "vllm_version": "0.28.0"}
    field(root, "vllm_version").fill(typed["vllm_version"])
    field(root, "model").fill(typed["model"])
    full = expected_answer(lang, text, typed)
    root.page.wait_for_function("([el, m]) => el.dataset.kvcalcStatus === 'ready'"
                                " && JSON.parse(el.dataset.kvcalcResult || 'null')?.model === m"
                                " && JSON.parse(el.dataset.kvcalcResult).vllm_rules.endsWith('0.28.0')",
                                arg=[root.element_handle(), typed["model"]], timeout=UPDATE_TIMEOUT_MS)
    shown = result_of(root)
    assert shown == full["result"]
    assert (shown["estimated_max_model_len"], shown["needed_kv_bytes"]) == (1856, 2_147_483_648)
    assert not full["mismatches"] and ask.is_hidden()


@pytest.mark.parametrize("lang", LANGS)
def test_the_docker_run_log_is_planned_at_tp_2(page: Page, lang: str) -> None:
    root = read_your_log(page, lang)
    text = (LOGS / DOCKER).read_text(encoding="utf-8")
    answer = expected_answer(lang, text, {})
    paste(root, text, answer["log_lines"])
    root.page.wait_for_function("el => JSON.parse(el.dataset.kvcalcResult || 'null')?.model === 'Qwen/Qwen3-32B'",
                                arg=root.element_handle(), timeout=UPDATE_TIMEOUT_MS)
    shown = result_of(root)
    assert (shown["tensor_parallel_size"], shown["gpu_memory_utilization"], shown["gpu_kv_cache_tokens"]) == \
        (2, 0.426, 67_296)
    current = parse_serve_command(command_text(root.locator('[data-kvcalc-out="serve-command"]')), rules_for(None))
    assert current.model == "Qwen/Qwen3-32B"
    assert current.flags == {"tensor_parallel_size": "2", "max_model_len": "32768", "gpu_memory_utilization": "0.426"}
