"""The guide's dated claims, each tied to the rule of the core it states (docs/{es,zh,en}).

Each claim is found by a phrase of its sentence in every language, and the release the sentence
names must be the first release of the rule in calc/data/vllm_releases.json, whose behaviour the
core then shows on both sides of the boundary (the rules themselves are worked by hand in
tests/test_releases_2026.py):

* CUDA-graph memory subtracted by default: #38284, 0.20.0 (index "CUDA graphs" paragraph,
  read-your-log's CUDA-graph section, the release table's first row);
* the capture ceiling 1024 on B200 / B300 (compute capability 10.x): #49390, 0.28.0 (index's
  --max-num-seqs paragraph, how-vllm-computes' check paragraph, the release table);
* the 16384 batched-token tier from 160 GiB: #51726, 0.28.0 (index's --max-num-batched-tokens
  paragraph, the release table);
* --calculate-kv-scales deprecated from 0.19.0, removed in 0.28.0 (index's fp8 paragraph, the
  release table).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from kvcalc.budget.memory import capture_ceiling
from kvcalc.deployment import batch_defaults
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.inputs import scenario_from_inputs
from kvcalc.versions import rules_for

DOCS = Path(__file__).resolve().parent.parent / "docs"
LANGS = ("es", "zh", "en")
_VERSION = re.compile(r"(?<![\d.])0\.\d+(?:\.\d+)?(?![\d.]*\d)")


def _versions(text: str) -> set[str]:
    """The releases a text names (``v0.28.0``, ``0.28``, ``0.28.0``), as X.Y.Z."""
    return {v if v.count(".") == 2 else v + ".0" for v in _VERSION.findall(text)}


def _paragraph(lang: str, page: str, *needles: str) -> str:
    """The one paragraph (or table row) of ``page`` holding every needle."""
    text = (DOCS / lang / page).read_text(encoding="utf-8")
    found = [p for p in re.split(r"\n\s*\n|\n(?=\|)", text) if all(n in p for n in needles)]
    assert len(found) == 1, (lang, page, needles, len(found))
    return found[0]


def _label(key: str) -> str:
    return rules_for(None).first_release_label(key)


# Each claim: (page, phrases that find it in es, zh, en) -> the rule whose first release it names.
CLAIMS: dict[str, tuple[str, dict[str, tuple[str, ...]], str]] = {
    "cudagraph_default_index": (
        "index.md",
        {
            "en": ("CUDA graphs make decoding faster",),
            "es": ("Los grafos CUDA aceleran la decodificación",),
            "zh": ("CUDA Graph 能加快解码",),
        },
        "38284",
    ),
    "cudagraph_default_log": (
        "read-your-log.md",
        {lang: ("#38284", "](https://github.com/vllm-project/vllm/pull/38284)") for lang in LANGS},
        "38284",
    ),
    "cudagraph_default_table": (
        "how-vllm-computes.md",
        {lang: ("| ", "(#38284)") for lang in ("es", "en")} | {"zh": ("| ", "（#38284）")},
        "38284",
    ),
    "capture_ceiling_index": (
        "index.md",
        {lang: ("min(2 × `max_num_seqs`, 512)", "1024", "B300") for lang in LANGS},
        "49390",
    ),
    "capture_ceiling_check": (
        "how-vllm-computes.md",
        {
            lang: ("min(2 × `max_num_seqs`, 512)", "1024", "B300", "--max-num-seqs")
            for lang in LANGS
        },
        "49390",
    ),
    "capture_ceiling_table": (
        "how-vllm-computes.md",
        {lang: ("#49390",) for lang in LANGS},
        "49390",
    ),
    "tier_16384_index": (
        "index.md",
        {
            "en": ("`--max-num-batched-tokens` sets", "16384"),
            "es": ("`--max-num-batched-tokens` fija", "16\u202f384"),
            "zh": ("`--max-num-batched-tokens` 决定", "16384"),
        },
        "51726",
    ),
    "tier_16384_table": ("how-vllm-computes.md", {lang: ("#51726",) for lang in LANGS}, "51726"),
    "kv_scales_index": (
        "index.md",
        {lang: ("`--calculate-kv-scales`", "llm-compressor") for lang in LANGS},
        "calculate_kv_scales_removed",
    ),
    "kv_scales_table": (
        "how-vllm-computes.md",
        {lang: ("| `--calculate-kv-scales`",) for lang in ("en", "es")}
        | {"zh": ("| 移除 `--calculate-kv-scales`",)},
        "calculate_kv_scales_removed",
    ),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("claim", list(CLAIMS))
def test_each_dated_sentence_names_the_rules_first_release(claim: str, lang: str) -> None:
    page, needles, key = CLAIMS[claim]
    text = _paragraph(lang, page, *needles[lang])
    assert _label(key) in _versions(text), (claim, lang, _label(key), _versions(text))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ["index.md", "how-vllm-computes.md"])
def test_the_deprecation_release_of_calculate_kv_scales(lang: str, page: str) -> None:
    needle = "`--calculate-kv-scales`"
    text = (
        _paragraph(lang, page, needle, "llm-compressor")
        if page == "index.md"
        else _paragraph(lang, page, "| ", needle)
    )
    assert {
        _label("calculate_kv_scales_deprecated"),
        _label("calculate_kv_scales_removed"),
    } <= _versions(text)


def test_the_rules_the_sentences_name() -> None:
    assert (_label("38284"), _label("49390"), _label("51726")) == ("0.20.0", "0.28.0", "0.28.0")
    assert (_label("calculate_kv_scales_deprecated"), _label("calculate_kv_scales_removed")) == (
        "0.19.0",
        "0.28.0",
    )


def test_cudagraph_memory_is_subtracted_from_the_release_the_guide_names() -> None:
    def cudagraph(version: str) -> int:
        s = scenario_from_inputs(
            {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "vllm_version": version}
        )
        from kvcalc import plan

        return plan(s.model, s.deployment).budget.cudagraph_bytes

    assert cudagraph("0.19.1") == 0 < cudagraph(_label("38284"))


def test_capture_ceiling_and_tier_change_at_the_release_the_guide_names() -> None:
    def dep(gpu: str, version: str):  # type: ignore[no-untyped-def]
        return scenario_from_inputs(
            {"model": "Qwen/Qwen3-8B", "gpu": gpu, "vllm_version": version}
        ).deployment

    assert (
        capture_ceiling(dep("B200", "0.27.1")) == 512
        and capture_ceiling(dep("B200", _label("49390"))) == 1024
    )
    assert capture_ceiling(dep("B300", _label("49390"))) == 1024
    assert capture_ceiling(dep("H100-80GB", "0.33.0")) == 512
    # the B200 (178.35 GiB as CUDA reports it) is the "from 160 GiB" card of the sentence; the
    # H100 and H200 stay
    assert (
        batch_defaults(dep("B200", "0.27.1"))[0] == 8192
        and batch_defaults(dep("B200", _label("51726")))[0] == 16384
    )
    assert batch_defaults(dep("H200", "0.33.0"))[0] == 8192


def test_calculate_kv_scales_is_warned_then_refused_at_the_releases_the_guide_names() -> None:
    def notes(version: str) -> str:
        out = io.StringIO()
        code = main(
            [
                "plan",
                "--model",
                "Qwen/Qwen3-8B",
                "--gpu",
                "RTX-4090",
                "--kv-cache-dtype",
                "fp8",
                "--calculate-kv-scales",
                "--vllm-version",
                version,
            ],
            stdout=out,
            stderr=io.StringIO(),
            stdin=io.StringIO(),
        )
        assert code in (0, 1)
        return out.getvalue()

    assert "deprecated" not in notes("0.18.1")
    assert "--calculate-kv-scales is deprecated from vLLM 0.19.0" in notes(
        _label("calculate_kv_scales_deprecated")
    )
    assert "removed in 0.28.0" in notes("0.27.1")
    with pytest.raises(CalcError) as info:
        scenario_from_inputs(
            {
                "model": "Qwen/Qwen3-8B",
                "gpu": "RTX-4090",
                "calculate_kv_scales": True,
                "vllm_version": _label("calculate_kv_scales_removed"),
            }
        )
    assert info.value.code == "calculate_kv_scales_removed"
