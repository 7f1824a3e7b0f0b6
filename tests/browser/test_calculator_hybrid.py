"""The hybrid (Mamba / linear-attention) settings in a real browser: ``enable_prefix_caching``,
``mamba_cache_mode`` and ``mamba_ssm_cache_dtype``, in the "Advanced" panel.

A reader sets prefix caching on and the Mamba cache mode to ``align`` for Qwen3-Next under
vLLM 0.24.0 (whose default for hybrids is off): the result becomes the CLI's for the same
flags, the URL carries them and a reload keeps them. A pasted real log (vLLM 0.24.0,
Qwen3.6-35B-A3B NVFP4 on an RTX 5090, ``'enable_prefix_caching': True``) sets the field;
what the reader chose and the log does not state stays; clearing the log gives the form
back. Every test also checks that the page logged no console error, that no request
failed and that nothing was requested from another host (fixtures in conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from playwright.sync_api import Locator, Page
from test_calculator import LANGS, PREFIX, UPDATE_TIMEOUT_MS, cli_plan, field, open_log, result_of, wait_ready, widget

from kvcalc.faces import web

REPO = Path(__file__).resolve().parents[2]
HYBRID = ("enable_prefix_caching", "mamba_cache_mode", "mamba_ssm_cache_dtype")

#: Qwen3-Next on four H100s under vLLM 0.24.0: prefix caching is off by default for hybrids
#: before #40996 (0.26.0), so turning it on changes the plan (Mamba 'align': two states per request).
QWEN3_NEXT = {"model": "Qwen/Qwen3-Next-80B-A3B-Instruct", "gpu": "H100-80GB", "tensor_parallel_size": "4",
              "max_model_len": "32768", "vllm_version": "0.24.0"}

#: A public vLLM 0.24.0 start-up log (tests/data/logs/sources.json): Qwen3.6-35B-A3B NVFP4 on an
#: RTX 5090, 'enable_prefix_caching': True, 'kv_cache_dtype': 'fp8'; it prints 569,878 tokens
#: and 4.35x. It names the model by a local path, whose folder is the catalog model's name.
QWEN36_LOG = REPO / "tests" / "data" / "logs" / "v0240_qwen36_35b_a3b_nvfp4_5090.log"
QWEN36_PATH = "~/.cache/huggingface/qwen3.6-35b-a3b-nvfp4"
QWEN36_ID = "nvidia/Qwen3.6-35B-A3B-NVFP4"


pytestmark = pytest.mark.usefixtures("page_is_clean")


def open_advanced(root: Locator) -> None:
    """Open the "Advanced" panel as a reader does, by its summary (a no-op when it is open)."""
    panel = root.locator("details[data-kvcalc-advanced]")
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    assert panel.get_attribute("open") is not None


def wait_for(root: Locator, script: str, arg: object = None) -> None:
    root.page.wait_for_function(f"([el, arg]) => el.dataset.kvcalcStatus === 'ready' && ({script})",
                                arg=[root.element_handle(), arg], timeout=UPDATE_TIMEOUT_MS)


def query_of(page: Page) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(page.url).query))


def settings(root: Locator) -> dict[str, str]:
    return {name: field(root, name).input_value() for name in HYBRID}


@pytest.mark.parametrize("lang", LANGS)
def test_prefix_caching_and_align_mode_change_the_plan_and_survive_a_reload(page: Page, lang: str) -> None:
    page.goto(f"{PREFIX[lang]}calculator/?{urlencode(QWEN3_NEXT)}#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    default = result_of(root)
    assert default == cli_plan(QWEN3_NEXT)
    assert settings(root) == {name: "" for name in HYBRID}          # vLLM's defaults
    open_advanced(root)
    prefix, mode = field(root, "enable_prefix_caching"), field(root, "mamba_cache_mode")
    assert prefix.is_visible() and mode.is_visible()
    assert prefix.locator("option").evaluate_all("options => options.map(o => o.value)") == ["", "true", "false"]
    assert mode.locator("option").evaluate_all("options => options.map(o => o.value)") == ["", "none", "align", "all"]

    prefix.select_option("true")
    mode.select_option("align")
    wait_for(root, "new URLSearchParams(location.search).get('mamba_cache_mode') === arg", "align")
    chosen = {**QWEN3_NEXT, "enable_prefix_caching": "true", "mamba_cache_mode": "align"}
    query = query_of(page)
    assert {k: query.get(k) for k in chosen} == chosen
    shown = result_of(root)
    expected = cli_plan(chosen)            # kvcalc plan ... --enable-prefix-caching --mamba-cache-mode align --json
    assert shown == expected
    # as the core says: two Mamba states per request instead of one, so each request needs more
    # and fewer fit at once (same blocks)
    assert shown["needed_kv_bytes"] > default["needed_kv_bytes"]
    assert shown["max_concurrency"] < default["max_concurrency"]
    assert shown["gpu_kv_cache_tokens"] < default["gpu_kv_cache_tokens"]
    assert shown["num_gpu_blocks"] == default["num_gpu_blocks"]
    command = root.locator('[data-kvcalc-out="serve-command"]').inner_text()
    assert "--enable-prefix-caching" in command and "--mamba-cache-mode align" in command

    # the URL alone brings the scenario back, fields and result
    page.wait_for_load_state("networkidle")   # leaving mid-load would abort the favicon request
    page.reload()
    again = widget(page, "calculator")
    assert settings(again) == {"enable_prefix_caching": "true", "mamba_cache_mode": "align", "mamba_ssm_cache_dtype": ""}
    wait_ready(again)
    assert result_of(again) == expected
    assert settings(again)["enable_prefix_caching"] == "true"     # the answer did not reset them


def test_prefix_caching_off_is_not_the_default(page: Page) -> None:
    """Off is its own value: under today's rules (prefix caching on for hybrids by default) it
    changes the plan, and it travels as ``false`` (``--no-enable-prefix-caching``); a link's
    ``1`` or ``on`` reads as on, as the core reads it."""
    latest = {k: v for k, v in QWEN3_NEXT.items() if k != "vllm_version"}
    page.goto(f"en/calculator/?{urlencode({**latest, 'enable_prefix_caching': 'on'})}#calculator")
    root = widget(page, "calculator")
    assert field(root, "enable_prefix_caching").input_value() == "true"
    wait_ready(root)
    on = result_of(root)
    assert on == cli_plan({**latest, "enable_prefix_caching": "true"}) == cli_plan(latest)
    open_advanced(root)
    field(root, "enable_prefix_caching").select_option("false")
    wait_for(root, "new URLSearchParams(location.search).get('enable_prefix_caching') === arg", "false")
    off = result_of(root)
    assert off != on
    assert off == json.loads(web.compute(json.dumps(
        {"action": "plan", "lang": "en", "inputs": {**latest, "enable_prefix_caching": "false"}})))["result"]
    assert "--no-enable-prefix-caching" in root.locator('[data-kvcalc-out="serve-command"]').inner_text()


def test_a_pasted_hybrid_log_sets_the_field_and_keeps_the_readers_own(page: Page) -> None:
    text = QWEN36_LOG.read_text(encoding="utf-8")
    assert "'enable_prefix_caching': True" in text and QWEN36_PATH in text
    page.goto("en/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    open_advanced(root)
    # the reader's own choices, none of which the log states
    field(root, "gpu").fill("RTX-5090")
    field(root, "vllm_version").fill("0.24.0")
    field(root, "mamba_ssm_cache_dtype").select_option("float32")
    wait_for(root, "new URLSearchParams(location.search).get('mamba_ssm_cache_dtype') === arg", "float32")
    own = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-5090", "vllm_version": "0.24.0", "mamba_ssm_cache_dtype": "float32"}
    assert result_of(root) == cli_plan(own)
    assert field(root, "enable_prefix_caching").input_value() == ""

    # a local path whose folder names no catalog model: the log's setting still reaches the field,
    # and the model field says what is wrong, with the catalog's close ids
    open_log(root)
    unknown = text.replace(QWEN36_PATH, "~/models/q36-moe-nvfp4")
    field(root, "log").fill(unknown)
    wait_for(root, "el.querySelector('[name=enable_prefix_caching]').value === arg", "true")
    assert field(root, "enable_prefix_caching").is_visible()
    assert root.locator('[data-kvcalc-error-for="model"]').is_visible()

    # as pasted: the log names its model by a local copy whose folder is the catalog model's name
    # (catalog.find_model), so the full plan follows, as the core computes it from the form the
    # widget sends, and as vLLM logged it
    field(root, "log").fill(text)
    wait_for(root, "JSON.parse(el.dataset.kvcalcResult || 'null')?.model === arg", QWEN36_ID)
    expected = json.loads(web.compute(json.dumps({"action": "log", "lang": "en", "inputs": own, "log": text})))
    assert expected["ok"] and expected["inputs"]["enable_prefix_caching"] == "true"
    assert settings(root) == {"enable_prefix_caching": "true", "mamba_cache_mode": "", "mamba_ssm_cache_dtype": "float32"}
    assert field(root, "vllm_version").input_value() == "0.24.0" and field(root, "gpu").input_value() == "RTX-5090"
    shown = result_of(root)
    assert shown == expected["result"]
    assert (shown["gpu_kv_cache_tokens"], round(shown["max_concurrency"], 2)) == (569_878, 4.35)   # the log's lines
    command = root.locator('[data-kvcalc-out="serve-command"]').inner_text()
    assert "--enable-prefix-caching" in command and "--mamba-ssm-cache-dtype float32" in command
    assert query_of(page)["enable_prefix_caching"] == "true"

    # the log cleared: the form is the reader's own again, prefix caching back to vLLM's default
    field(root, "log").fill("")
    wait_for(root, "JSON.parse(el.dataset.kvcalcResult || 'null')?.model === arg", "Qwen/Qwen3-8B")
    assert settings(root) == {"enable_prefix_caching": "", "mamba_cache_mode": "", "mamba_ssm_cache_dtype": "float32"}
    assert result_of(root) == cli_plan(own)
