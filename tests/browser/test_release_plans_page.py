"""The newer releases' plans in a real browser: MTP speculative decoding, the nvfp4 KV cache, LoRA
slots and data + expert parallelism each give on the calculator page the figures of ``kvcalc plan
--json`` (the same result, key for key), whether opened from the URL or typed into the form's
fields, and the command the page prints keeps the reader's flags. The hand-worked figures are in
tests/test_speculative.py, test_kv_dtypes_2026.py, test_lora.py and test_expert_parallel.py; here
the page must agree with the CLI.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page
from test_calculator import UPDATE_TIMEOUT_MS, cli_plan, field, result_of, wait_ready, widget
from test_calculator_hybrid import open_advanced, wait_for

from kvcalc.vllm_flags import parse_serve_command

pytestmark = pytest.mark.usefixtures("page_is_clean")

MTP3 = '{"method": "mtp", "num_speculative_tokens": 3}'
SCENARIOS = {
    "mtp": {
        "model": "Qwen/Qwen3.5-9B",
        "gpu": "H100-80GB",
        "max_model_len": "32768",
        "speculative_config": MTP3,
    },
    "nvfp4": {"model": "Qwen/Qwen3-8B", "gpu": "RTX-5090", "kv_cache_dtype": "nvfp4"},
    "lora": {
        "model": "meta-llama/Llama-3.1-8B-Instruct",
        "gpu": "H100-80GB",
        "enable_lora": "true",
        "max_loras": "4",
        "max_lora_rank": "64",
    },
    "dp_ep": {
        "model": "Qwen/Qwen3-30B-A3B",
        "gpu": "H100-80GB",
        "data_parallel_size": "4",
        "enable_expert_parallel": "true",
    },
}
# what each scenario's own flags print in "your current command"
FLAGS = {
    "mtp": ["--speculative-config"],
    "nvfp4": ["--kv-cache-dtype nvfp4"],
    "lora": ["--enable-lora", "--max-loras 4", "--max-lora-rank 64"],
    "dp_ep": ["--data-parallel-size 4", "--enable-expert-parallel"],
}
# hand-worked elsewhere; pinned here so that an equal but wrong pair of answers cannot pass
KV_BYTES_PER_TOKEN = {"mtp": 36_864, "nvfp4": 41_472, "lora": 131_072, "dp_ep": 98_304}


def _command(page: Page) -> str:
    out = widget(page, "calculator").locator('[data-kvcalc-out="serve-command"]')
    out.wait_for(state="visible", timeout=UPDATE_TIMEOUT_MS)
    return out.inner_text()


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_opened_from_the_url_the_page_gives_the_cli_figures(page: Page, name: str) -> None:
    inputs = SCENARIOS[name]
    page.goto(f"en/calculator/?{urlencode(inputs)}#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    shown, cli = result_of(root), cli_plan(inputs)
    assert shown == cli
    assert shown["kv_bytes_per_token"] == KV_BYTES_PER_TOKEN[name]
    command = _command(page)
    for flag in FLAGS[name]:
        assert flag in command
    parse_serve_command(command)  # vLLM 0.33's argparse would take it


def test_speculative_config_keeps_its_json_in_the_command(page: Page) -> None:
    page.goto(f"en/calculator/?{urlencode(SCENARIOS['mtp'])}#calculator")
    wait_ready(widget(page, "calculator"))
    assert parse_serve_command(_command(page)).flags["speculative_config"] == MTP3


def test_typed_into_the_form_dp_and_ep_give_the_cli_figures(page: Page) -> None:
    page.goto("calculator/")  # Spanish is the site root
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("Qwen/Qwen3-30B-A3B")
    field(root, "gpu").fill("H100-80GB")
    wait_for(
        root, "JSON.parse(el.dataset.kvcalcResult || 'null')?.model === arg", "Qwen/Qwen3-30B-A3B"
    )
    open_advanced(root)
    field(root, "data_parallel_size").fill("4")
    field(root, "enable_expert_parallel").check()
    wait_for(
        root, "JSON.parse(el.dataset.kvcalcResult || 'null')?.moe_split?.expert_parallel === true"
    )
    shown = result_of(root)
    assert shown == cli_plan(SCENARIOS["dp_ep"])
    assert shown["moe_split"]["local_experts"] == 32  # 128 experts over 4 ranks
    page.wait_for_function(
        "() => new URLSearchParams(location.search).get('data_parallel_size') === '4'",
        timeout=UPDATE_TIMEOUT_MS,
    )


def test_typed_into_the_form_lora_and_nvfp4_give_the_cli_figures(page: Page) -> None:
    page.goto("zh/calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "model").fill("meta-llama/Llama-3.1-8B-Instruct")
    field(root, "gpu").fill("H100-80GB")
    wait_for(
        root,
        "JSON.parse(el.dataset.kvcalcResult || 'null')?.model === arg",
        "meta-llama/Llama-3.1-8B-Instruct",
    )
    open_advanced(root)
    field(root, "enable_lora").check()
    field(root, "max_loras").fill("4")
    field(root, "max_lora_rank").fill("64")
    wait_for(root, "JSON.parse(el.dataset.kvcalcResult || 'null')?.lora?.max_lora_rank === 64")
    assert result_of(root) == cli_plan(SCENARIOS["lora"])
    # nvfp4 on an H100 (compute capability 9.0) runs through FlashInfer's FA2 path from 0.32
    # (kvcalc.kv.kv_dtypes)
    field(root, "kv_cache_dtype").select_option("nvfp4")
    wait_for(root, "JSON.parse(el.dataset.kvcalcResult || 'null')?.kv_cache_dtype === 'nvfp4'")
    both = {**SCENARIOS["lora"], "kv_cache_dtype": "nvfp4"}
    assert result_of(root) == cli_plan(both)


@pytest.mark.parametrize(
    ("lang", "prefix", "label"),
    [
        ("en", "en/", "Data-parallel replicas"),
        ("es", "", "Réplicas de paralelismo de datos"),
        ("zh", "zh/", "数据并行副本数"),
    ],
)
def test_the_new_fields_are_labelled_in_each_language(
    page: Page, lang: str, prefix: str, label: str
) -> None:
    page.goto(f"{prefix}calculator/")
    root = widget(page, "calculator")
    wait_ready(root)
    open_advanced(root)
    for name in (
        "data_parallel_size",
        "enable_expert_parallel",
        "speculative_config",
        "enable_lora",
        "max_loras",
        "max_lora_rank",
        "draft_config",
    ):
        assert field(root, name).count() == 1, name
    dp = root.locator('[data-kvcalc-field="data_parallel_size"]')
    assert label in dp.inner_text()
    assert field(root, "kv_cache_dtype").locator('option[value="nvfp4"]').count() == 1
