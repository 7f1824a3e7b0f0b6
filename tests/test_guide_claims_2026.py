"""The 2026 round of the guide's claims: the answer box, the quoted error, the fixed-budget row, the
locale of prose figures, format_gib's rule, --kv-offloading-size, and the new sections' figures.

Each test pins a sentence that states a rule or a figure to the core (or to hand arithmetic, in a
comment), reading the Markdown of docs/<lang>/ as tests/test_guide_claims.py does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kvcalc import plan
from kvcalc.inputs import scenario_from_inputs
from kvcalc.units import GiB, format_gib, format_gib_legacy
from kvcalc.verdict import VerdictStatus
from kvcalc.versions import known_releases
from kvguide_macros import tables

DOCS = Path(__file__).resolve().parent.parent / "docs"
LANGS = ("es", "zh", "en")
EXAMPLE = {"model": "Qwen/Qwen3-8B", "available_kv_gib": 4, "max_model_len": 32768}
RUNNING = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": 36864}


def verdict(**inputs: object):
    s = scenario_from_inputs(inputs)
    return plan(s.model, s.deployment)


def page(lang: str, name: str = "index.md") -> str:
    return (DOCS / lang / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_the_answer_box_follows_the_quoted_error(lang: str) -> None:
    text = page(lang)
    quote = text.index('{{ vllm_error(model="Qwen/Qwen3-8B", available_kv_gib=4, max_model_len=32768) }}')
    box = text.index("data-kvguide-answer")
    assert quote < box < text.index("## ", quote), "the answer box must sit right under the quoted error"
    body = text[box:text.index("</div>", box)]
    assert len(re.findall(r"^\d\. ", body, re.M)) == 3
    assert "estimated maximum model length is N" in body
    assert re.search(r"0[.,]7 × N|N 的 0.7 倍", body)
    assert "answer_max_model_len" in body and "#fix-the-startup-error" in body
    assert "read-your-log.md#paste-your-log" in body


def test_the_answer_box_figures() -> None:
    # 36 layers x 8 KV heads x 128 x 2 (K, V) x 2 B = 147,456 B per token, 2,359,296 B per block of 16;
    # the newest rules hold the null block back (#47272, 0.29.0): 4 GiB - 2,359,296 B = 4,292,608,000 B
    # / 2,359,296 = 1,819.4 → 1,819 whole blocks = 29,104 tokens; 0.7 x 29,104 = 20,372.8 → 1,273 blocks = 20,368.
    f = tables.plan_figures("en", **EXAMPLE)
    assert f.estimated_max_model_len == "29104" and f.estimated_max_model_len_text == "29,104"
    assert f.answer_max_model_len == "20368" and f.answer_max_model_len_text == "20,368"
    assert tables.plan_figures("es", **EXAMPLE).answer_max_model_len_text == "20\u202f368"


def test_the_quoted_error_is_the_newest_releases_text() -> None:
    newest = known_releases()[-1][0]
    current = tables.vllm_error("en", **EXAMPLE)
    assert current == tables.vllm_error("en", **EXAMPLE, vllm_version=newest)
    # 0.22.0 prints the same words; its estimate counts the null block's 16 tokens too (#47272 came in 0.29.0)
    assert current.replace("29104", "29120") == tables.vllm_error("en", **EXAMPLE, vllm_version="0.22.0")
    assert "ValueError: To serve at least one request with the model's max seq len (32768)" in current
    assert "(which also controls CPU memory on the CPU backend)" in current
    # the older variants the list shows are the older wording
    assert "models's" in tables.vllm_error("en", **EXAMPLE, vllm_version="0.21.0")
    assert "4.50 GiB" in tables.vllm_error("en", **EXAMPLE, vllm_version="0.13.0")
    assert "See https://" not in tables.vllm_error("en", **EXAMPLE, vllm_version="0.10.1")
    assert "maximum number of tokens that can be stored in KV cache" in tables.vllm_error(
        "en", **EXAMPLE, vllm_version="0.6.4")


@pytest.mark.parametrize("lang", LANGS)
def test_no_hand_typed_error_text_on_the_home_page(lang: str) -> None:
    assert "ValueError: To serve at least one request" not in page(lang), "quote the error through vllm_error()"


def test_the_fixed_budget_row_is_read_at_its_equivalent_utilization() -> None:
    # Running example: 0.92 x 23.64 GiB = 21.75 GiB budget, 4.80 GiB of it left for the cache, so 16.95 GiB
    # of non-KV memory; with a fixed 6 GiB cache: (16.95 + 6) / 23.64 = 0.971 -> 0.97, above the 0.95 the
    # guide stops at, so the row must not say "yes" although vLLM starts.
    f = tables.fixed_budget_figures("en", **RUNNING, kv_cache_memory_bytes="6G")
    assert f.equivalent_utilization == "0.97" and f.fits and not f.starts
    # Step 6's example: 4 GiB at 16K: (16.95 + 4) / 23.64 = 0.886 -> 0.89, within the guide's headroom
    g = tables.fixed_budget_figures("en", model="Qwen/Qwen3-8B", gpu="RTX-4090", max_model_len=16384,
                                    kv_cache_memory_bytes="4G")
    assert g.equivalent_utilization == "0.89" and g.starts
    assert tables.equivalent_utilization(total_bytes=100, non_kv_bytes=60, kv_bytes=30) == 0.9
    assert tables.RECOMMENDED_MAX_UTILIZATION == 0.95


@pytest.mark.parametrize("lang", LANGS)
def test_the_fix_table_marks_the_fixed_budget_through_its_equivalent_utilization(lang: str) -> None:
    (row,) = [line for line in page(lang).splitlines() if line.startswith("| `--kv-cache-memory-bytes 6G`")]
    assert "fixed_budget(" in row and ".starts" in row and ".equivalent_utilization" in row
    assert 'kv_cache_memory_bytes="6G").fits else "' not in row.split(".starts")[0]


_RAW = re.compile(r"\{\{ plan\((?:[^{}]*?)\)\.(estimated_max_model_len|estimate_low|estimate_high|"
                  r"suggested_max_model_len|max_model_len|answer_max_model_len) \}\}")


@pytest.mark.parametrize("lang", LANGS)
def test_prose_lengths_are_in_the_readers_locale(lang: str) -> None:
    """A raw length (``17472``) only inside code, where it is what vLLM prints or a flag takes."""
    for path in sorted((DOCS / lang).glob("*.md")):
        fenced = False
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            for m in ([] if fenced else _RAW.finditer(line)):
                assert line[:m.start()].count("`") % 2 == 1, f"{path.name}:{n}: use .{m.group(1)}_text in prose"


def test_the_locale_figures_are_grouped() -> None:
    f = {lang: tables.plan_figures(lang, **EXAMPLE) for lang in LANGS}
    # 60 % and 80 % of 29,104: 17,462.4 and 23,283.2, whole tokens 17,462 and 23,283
    assert (f["en"].estimate_low_text, f["en"].estimate_high_text) == ("17,462", "23,283")
    assert (f["zh"].estimate_low_text, f["es"].estimate_low_text) == ("17,462", "17\u202f462")


def test_format_gib_rule_as_the_guide_states_it() -> None:
    # round to two decimals, printed as Python prints the float: no padding, a whole number keeps ".0"
    assert format_gib(int(4.5 * GiB)) == "4.5"
    assert format_gib(10 * GiB) == "10.0"
    assert format_gib(int(4.56 * GiB) + 1) == "4.56"
    assert format_gib_legacy(int(4.5 * GiB)) == "4.50" and format_gib_legacy(10 * GiB) == "10.00"
    for lang in LANGS:
        text = page(lang, "how-vllm-computes.md")
        assert "`10.0`" in text and "`4.56`" in text and "`10.00`" in text
    assert "no trailing zeros" not in page("en", "how-vllm-computes.md")


@pytest.mark.parametrize("lang", LANGS)
def test_kv_offloading_size_is_the_total_over_tp_ranks(lang: str) -> None:
    # vllm/config/cache.py: "When TP > 1, this is the total buffer size summed across all TP ranks."
    text = page(lang)
    i = text.index("--kv-offloading-size`")
    sentence = text[i:text.index(")", text.index("vllm/config/cache.py", i))]
    assert "vllm/config/cache.py" in sentence and "TP 4" in sentence and "16 GiB" in sentence and "64" in sentence


def test_mamba_section_figures() -> None:
    base = verdict(model="Qwen/Qwen3.6-27B", gpu="H100-80GB", max_model_len=131072)
    assert base.status == VerdictStatus.MAMBA_BLOCKS_BELOW_MAX_NUM_SEQS and base.max_num_seqs == 1024
    assert base.num_gpu_blocks is not None and base.num_gpu_blocks < 1024
    # the pool's size does not follow the length (the guide: a shorter --max-model-len does not help)
    short = verdict(model="Qwen/Qwen3.6-27B", gpu="H100-80GB", max_model_len=32768)
    assert short.num_gpu_blocks == base.num_gpu_blocks and not short.fits
    fewer = verdict(model="Qwen/Qwen3.6-27B", gpu="H100-80GB", max_model_len=131072, max_num_seqs=256)
    assert fewer.fits and (fewer.num_gpu_blocks or 0) >= 256
    assert verdict(model="Qwen/Qwen3.6-27B", gpu="H100-80GB", max_model_len=131072, enforce_eager=True).fits


def test_auto_fit_section_scenario_fails_with_auto_fits_error() -> None:
    # 0.66 x 23.64 = 15.60 GiB for the 15.27 GiB of weights and 1.68 GiB of runtime memory: -1.35 GiB, and
    # still below zero at the band's optimistic edge, so the section's example fails whatever vLLM measures
    v = verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", gpu_memory_utilization=0.66, max_model_len="auto")
    assert v.status == VerdictStatus.AUTO_FIT_FAILED and v.budget.available_kv_bytes_high < 0
    assert v.error_text is not None and v.error_text.startswith("Cannot auto-fit max_model_len")


def test_unified_memory_figures() -> None:
    # GB10: 121.69 GiB as CUDA reports it; the default 0.92 asks for 0.92 x 121.69 = 111.95 GiB, leaving
    # 9.74 GiB (< 10, as the section says) for everything else on the machine.
    f = tables.plan_figures("en", model="Qwen/Qwen3-30B-A3B-FP8", gpu="GB10", max_model_len=32768)
    assert (f.gpu_total_gib, f.gpu_memory_utilization, f.requested_gib) == ("121.69", "0.92", "111.95")


def test_the_cudagraph_switch_gives_back_the_estimate() -> None:
    # Running example: 4.80 GiB available with the 0.86 GiB graph estimate subtracted; without it
    # 4.80 + 0.86 = 5.66 GiB, more than the 5.06 GiB one request needs.
    on, off = verdict(**RUNNING), verdict(**RUNNING, cudagraph_gib=0)
    assert round(on.budget.cudagraph_bytes / GiB, 2) == 0.86
    assert round(off.available_kv_bytes / GiB, 2) == 5.66 and off.fits and not on.fits


@pytest.mark.parametrize("lang", LANGS)
def test_each_new_error_is_in_the_read_your_log_table(lang: str) -> None:
    text = page(lang, "read-your-log.md")
    table = text[:text.index("\n## ")]
    for needle, anchor in (("exceeds available Mamba cache blocks", "#mamba-cache-blocks"),
                           ("Cannot auto-fit max_model_len", "#auto-fit-no-memory"),
                           ("GB10", "#unified-memory")):
        (row,) = [line for line in table.splitlines() if needle in line]
        assert anchor in row
    for section in ("{ #mamba-cache-blocks }", "{ #auto-fit-no-memory }", "{ #unified-memory }",
                    "{ #cudagraph-estimate }", "{ #which-release }"):
        assert section in text
    assert "{ #kv-cache-memory-suggestion }" in page(lang)
    assert "#38270" in text and "CUDA graph pool memory: X GiB (actual), Y GiB (estimated)" in text
