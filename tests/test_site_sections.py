"""Which guide page holds which section (``kvguide_macros.sections``): the map is
read from the pages' ``{ #id }`` marks, every section a recommendation names is on
exactly one page in every language, and the URLs written from a page reach it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kvcalc.faces.web import compute
from kvguide_macros.sections import _ids, page_href, section_links, section_pages

REPO = Path(__file__).resolve().parents[1]
LANGS = ("es", "zh", "en")
LOGS = REPO / "tests" / "data" / "logs"


def _anchors_in_core_source() -> set[str]:
    """Every section id the core's source names (``anchor="…"``)."""
    anchors: set[str] = set()
    for path in (REPO / "calc").rglob("*.py"):
        anchors |= set(re.findall(r'(?<![\w-])anchor="([a-z0-9-]+)"', path.read_text(encoding="utf-8")))
    return anchors


def _anchors_the_core_recommends() -> dict[str, str]:
    """``{code: anchor}`` of every recommendation of the ladders: KV cache too small,
    weights do not fit, a larger GPU, and another process holding GPU memory (a log)."""
    requests = [{"action": "plan", "inputs": inputs} for inputs in (
        {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"},
        {"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "RTX-4090"},
        {"model": "Qwen/Qwen3-32B", "gpu": "RTX-4090"},
    )]
    # vLLM's free-memory error, after the command that names a catalog model (so the core re-plans it)
    free_memory = (LOGS / "v2026_free_memory_pytorch_ci_l4.log").read_text(encoding="utf-8")
    requests.append({"action": "log", "log": "vllm serve Qwen/Qwen3-8B --gpu-memory-utilization 0.9\n" + free_memory})
    found: dict[str, str] = {}
    for request in requests:
        response = json.loads(compute(json.dumps({"lang": "en", **request})))
        assert response["ok"], response
        for rec in (response.get("report") or {}).get("recommendations", []):
            found[rec["code"]] = rec["anchor"]
    return found


def test_source_scan_and_scenarios_find_the_anchors() -> None:
    # guards the scans below against a regex or a scenario list that finds nothing
    assert {"lower-max-model-len", "weights-and-hardware", "free-memory-below-utilization"} <= _anchors_in_core_source()
    codes = _anchors_the_core_recommends()
    assert {"lower_max_model_len", "quantize_weights", "larger_gpu", "add_gpus", "free_the_gpu"} <= set(codes)
    assert set(codes.values()) <= _anchors_in_core_source()


@pytest.mark.parametrize("lang", LANGS)
def test_every_recommendation_anchor_is_on_one_page(lang: str) -> None:
    sections = section_pages(REPO / "docs" / lang)
    anchors = _anchors_in_core_source() | set(_anchors_the_core_recommends().values())
    assert sorted(a for a in anchors if a not in sections) == []


def test_the_map_is_the_same_in_every_language() -> None:
    maps = {lang: section_pages(REPO / "docs" / lang) for lang in LANGS}
    assert maps["zh"] == maps["es"] == maps["en"]


def test_map_of_the_guide() -> None:
    sections = section_pages(REPO / "docs" / "en")
    assert sections["lower-max-model-len"] == "index"
    assert sections["no-memory-for-cache-blocks"] == "read-your-log"
    assert sections["tensor-and-pipeline-parallel"] == "how-vllm-computes"
    assert "top" not in sections   # on every page: names no single section


def test_ids_are_read_from_attr_lists_outside_code() -> None:
    markdown = "\n".join([
        "# Title { #top }",
        "## Spaced { #spaced }",
        "## Tight {#tight}",
        "## With a class { #classy .wide }",
        "Paragraph.",
        "{: #para-id }",
        "{{ calculator(preset=\"not-an-id\") }}",
        "```bash",
        "echo '{ #in-code }'",
        "```",
        "{## a Jinja comment ##}",
    ])
    assert _ids(markdown) == ["top", "spaced", "tight", "classy", "para-id"]


@pytest.mark.parametrize(("page_url", "lang", "page", "href"), [
    # directory URLs (the site's setting): Spanish at the root, the others under /zh/, /en/
    ("", "es", "index", ""),
    ("", "es", "read-your-log", "read-your-log/"),
    ("zh/", "zh", "read-your-log", "read-your-log/"),
    ("zh/calculator/", "zh", "index", "../"),
    ("zh/calculator/", "zh", "read-your-log", "../read-your-log/"),
    ("calculator/", "es", "calculator", ""),
    ("en/faq/", "en", "how-vllm-computes", "../how-vllm-computes/"),
    # use_directory_urls: false
    ("zh/calculator.html", "zh", "index", "index.html"),
    ("zh/calculator.html", "zh", "read-your-log", "read-your-log.html"),
    ("index.html", "es", "index", ""),
    ("index.html", "es", "faq", "faq.html"),
])
def test_page_href(page_url: str, lang: str, page: str, href: str) -> None:
    assert page_href(page_url, lang, page) == href


def test_section_links() -> None:
    links = section_links("zh/calculator/", "zh", {"cpu-offload": "index", "calculator": "calculator"})
    assert links == {"calculator": {"page": "calculator", "href": "#calculator"},
                     "cpu-offload": {"page": "index", "href": "../#cpu-offload"}}
