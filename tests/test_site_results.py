"""The result templates and their build-time filler (``kvguide_macros.results``):
the fill rules the page script follows too, and the build failing where the live
result could differ from the preset or a recommendation has no page to link to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kvcalc.faces.web import compute
from kvguide_macros import results, widget
from kvguide_macros.sections import section_links, section_pages

REPO = Path(__file__).resolve().parents[1]
SECTIONS = section_pages(REPO / "docs" / "en")
TABLES = {"sections": section_links("en/calculator/", "en", SECTIONS)}


def plan(inputs: dict) -> dict:
    response = json.loads(compute(json.dumps({"action": "plan", "lang": "en", "inputs": inputs})))
    assert response["ok"], response
    return response


def test_every_region_has_a_template_whose_root_names_it() -> None:
    markup = results.template_elements("en")
    for name, source in results.REGIONS:
        assert f'data-kvcalc-template="{name}" data-kvcalc-source="{source}"><' in markup
        filled = results.fill("en", name, None, TABLES)
        assert f'data-kvcalc-out="{name}"' in filled.split(">", 1)[0], filled


def test_attributes_keep_their_place_and_slots_leave_no_trace() -> None:
    verdict = results.fill("en", "verdict", {"kind": "fits", "title": "T <b>", "summary": "S & s"}, TABLES)
    assert verdict == ('<div class="kvcalc-verdict" data-kvcalc-out="verdict" data-kvcalc-kind="fits">'
                       '<strong data-kvcalc-out="verdict-title">T &lt;b&gt;</strong> '
                       '<span data-kvcalc-out="verdict-summary">S &amp; s</span></div>')


def test_absent_values_hide_and_remove() -> None:
    assert results.fill("en", "diagnosis", None, TABLES) == '<p class="kvcalc-diagnosis" data-kvcalc-out="diagnosis" hidden=""></p>'
    assert results.fill("en", "diagnosis", "Seen", TABLES) == '<p class="kvcalc-diagnosis" data-kvcalc-out="diagnosis">Seen</p>'
    figure = {"key": "k", "label": "L", "value": "V", "estimate": False}
    assert "kvcalc-estimate" not in results.fill("en", "figure", figure, TABLES)
    assert '<span class="kvcalc-estimate">estimate</span>' in results.fill("en", "figure", {**figure, "estimate": True}, TABLES)


def test_lists_lines_and_nested_templates() -> None:
    assert results.fill("en", "vllm-lines", ["a", "b"], TABLES).endswith('data-kvcalc-out="vllm-lines">a\nb</pre>')
    # the parser drops a <pre>'s first newline: the filler doubles it so the text survives
    assert results.fill("en", "serve-command", "\nx", TABLES).endswith('data-kvcalc-out="serve-command">\n\nx</pre>')
    table = results.fill("en", "feasible", {"caption": "C", "columns": ["a", "b"], "rows": [["1", "2"]]}, TABLES)
    assert table.endswith('<caption>C</caption><thead><tr><th scope="col">a</th><th scope="col">b</th></tr></thead>'
                          '<tbody><tr><td>1</td><td>2</td></tr></tbody></table>')


def test_recommendations_link_through_the_site_map() -> None:
    # Llama-3.1-70B on one RTX 4090: the weights ladder, explained in the home page's fix sections
    report = plan({"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "RTX-4090"})["report"]
    recs = results.fill("en", "recommendations", report["recommendations"], TABLES)
    assert '<a href="../#weights-and-hardware" data-kvcalc-page="index">' in recs
    assert '<a href="../#cuda-graph-memory" data-kvcalc-page="index">' in recs
    # the free-memory ladder's section lives on another page: the map sends the link there
    rec = {**report["recommendations"][0], "anchor": "free-memory-below-utilization"}
    assert ('<a href="../read-your-log/#free-memory-below-utilization" data-kvcalc-page="read-your-log">'
            in results.fill("en", "rec", rec, TABLES))


def test_a_section_on_no_page_fails_the_build() -> None:
    rec = plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"})["report"]["recommendations"][0]
    with pytest.raises(KeyError, match="no guide page"):
        results.fill("en", "rec", rec, {"sections": {}})
    without = {k: v for k, v in SECTIONS.items() if k != rec["anchor"]}
    with pytest.raises(KeyError, match=rec["anchor"]):
        widget.calculator("en", "calculator", page_url="en/calculator/", sections=without,
                          model="Qwen/Qwen3-8B", gpu="RTX-4090")


@pytest.mark.parametrize("svg", [
    '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><rect onclick="alert(1)"/></svg>',
    '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"/></svg>',
    '<div xmlns="http://www.w3.org/1999/xhtml"/>',
])
def test_a_chart_the_page_script_would_clean_fails_the_build(svg: str) -> None:
    with pytest.raises(ValueError):
        results.fill("en", "budget-chart", svg, TABLES)


def test_values_javascript_would_print_otherwise_fail_the_build() -> None:
    with pytest.raises(TypeError):
        results.fill("en", "note", 1.0, TABLES)   # Python "1.0", JavaScript "1"
