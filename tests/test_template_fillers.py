"""The result templates have two fillers, one per side, and they fill alike (CONTRIBUTING.md §1.1).

``kvguide_macros/results.py`` fills the templates at build time (the preset shown before Pyodide is
ready); ``docs/javascripts/kvcalc.js`` (``fillTemplate``) fills the same templates in the browser.
Both get the same fixtures here, under Node for the page script (``tests/node/fill_templates.mjs``):
every region of the result for real answers of ``kvcalc.faces.web.compute`` (a plan that fits, one
that does not, a borderline one, a hybrid with grouping warnings, a pasted log, a log that names no
model, bad input) in es, zh and en, and small templates that reach each fill rule's edge (absent,
false, true, empty list, integer, a lookup table, an attribute set again). The filled trees (tags,
attributes in document order, text) must be equal.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from kvcalc.faces.web import compute
from kvguide_macros import results
from kvguide_macros.sections import section_links, section_pages

REPO = Path(__file__).resolve().parents[1]
HARNESS = REPO / "tests" / "node" / "fill_templates.mjs"
LANGS = ("es", "zh", "en")
SAMPLE_LOG = (REPO / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")

REQUESTS: dict[str, dict[str, Any]] = {
    "fits": {
        "action": "plan",
        "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "max_model_len": "32768"},
    },
    "does_not_fit": {
        "action": "plan",
        "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "40960"},
    },
    "borderline": {
        "action": "plan",
        "inputs": {
            "model": "Qwen/Qwen3-8B",
            "gpu": "RTX-4090",
            "max_model_len": "36864",
            "gpu_memory_utilization": "0.95",
        },
    },
    "hybrid": {"action": "plan", "inputs": {"model": "google/gemma-3-27b-it", "gpu": "H100-80GB"}},
    "log": {"action": "log", "log": SAMPLE_LOG},
    "log_without_model": {"action": "log", "log": "INFO Available KV cache memory: 4.0 GiB\n"},
    "bad_input": {"action": "plan", "inputs": {"model": "nope/unknown-model", "gpu": "H100-80GB"}},
}

#: Small templates for the rules' edges; each is filled with each of EDGE_CONTEXTS.
EDGE_TEMPLATES = {
    "edge": (
        '<div class="k" data-slot-attr="title=a hidden=!b data-n=n class=c href=s@sections.href">'
        '<span data-slot="a"></span><em data-slot-if="b">b <i data-slot="b"></i></em>'
        '<ul data-slot-each="items:edge-item"></ul><ol data-slot-each="names:edge-name"></ol>'
        '<p data-slot-if="e">never</p>'
        '<pre data-slot="lines"></pre><b data-slot="n"></b> tail</div>'
    ),
    "edge-item": (
        '<li data-slot-attr="data-x=x"><q data-slot="x"></q><s data-slot-if="y">y</s></li>'
    ),
    "edge-name": '<li data-slot=".">name</li>',
}
EDGE_CONTEXTS: list[Any] = [
    {
        "a": "text & <tags>",
        "b": "yes",
        "n": 3,
        "c": True,
        "s": "calculator",
        "names": ["one", "two"],
        "e": [],
        "lines": ["line 1", "line 2"],
    },
    {"a": "", "b": False, "n": 0, "c": False, "s": "calculator", "items": [], "e": "", "lines": []},
    {"a": None, "b": None, "c": None, "s": "calculator", "e": None, "lines": None},
    {
        "a": "x",
        "b": [],
        "n": -1,
        "c": "kept",
        "s": "calculator",
        "items": [{"x": 1, "y": True}, {"x": "two"}],
        "e": False,
        "names": ["only"],
        "lines": "one line",
    },
]


def _tree(node: Any) -> dict[str, Any]:
    if isinstance(node, str):
        return {"text": node}
    if isinstance(node, results._Markup):
        return {"raw": node.text}
    return {
        "tag": node.tag,
        "attrs": [list(pair) for pair in node.attrs],
        "children": [_tree(c) for c in node.children],
    }


def _parsed(markup: str) -> results._Element:
    parser = results._Parser()
    parser.feed(markup)
    parser.close()
    (root,) = parser.root.children
    assert isinstance(root, results._Element)
    return root


def _tables(lang: str) -> dict[str, Any]:
    page = "calculator/" if lang == "es" else f"{lang}/calculator/"
    return {"sections": section_links(page, lang, section_pages(REPO / "docs" / lang))}


def _fixtures() -> list[dict[str, Any]]:
    """One fixture per (language, answer or edge context, region): templates, tables, ctx and the
    build-time filler's tree."""
    out: list[dict[str, Any]] = []
    for lang in LANGS:
        templates = results._parsed(lang)
        tables = _tables(lang)
        for answer, request in REQUESTS.items():
            response = json.loads(compute(json.dumps({**request, "lang": lang})))
            for name, path in results.REGIONS:
                ctx = results._get(response, path)
                filled = results._Filler(templates, tables).clone(name, ctx)
                out.append(
                    {
                        "id": f"{lang}/{answer}/{name}",
                        "lang": lang,
                        "name": name,
                        "ctx": ctx,
                        "expected": _tree(filled),
                    }
                )
    edge = {name: _parsed(markup) for name, markup in EDGE_TEMPLATES.items()}
    for i, ctx in enumerate(EDGE_CONTEXTS):
        filled = results._Filler(edge, _tables("en")).clone("edge", ctx)
        out.append(
            {
                "id": f"edge/{i}",
                "lang": "edge",
                "name": "edge",
                "ctx": ctx,
                "expected": _tree(filled),
            }
        )
    return out


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required (Debian: apt-get install -y nodejs npm)", pytrace=False)
    fixtures = _fixtures()
    tmp = tmp_path_factory.mktemp("fill")
    by_lang: dict[str, Any] = {}
    for lang in (*LANGS, "edge"):
        templates = (
            {n: _tree(_parsed(m)) for n, m in EDGE_TEMPLATES.items()}
            if lang == "edge"
            else {n: _tree(t) for n, t in results._parsed(lang).items()}
        )
        cases = [
            {"id": f["id"], "name": f["name"], "ctx": f["ctx"]}
            for f in fixtures
            if f["lang"] == lang
        ]
        (tmp / f"{lang}.json").write_text(
            json.dumps(
                {
                    "templates": templates,
                    "tables": _tables("en" if lang == "edge" else lang),
                    "cases": cases,
                }
            ),
            encoding="utf-8",
        )
        proc = subprocess.run(
            [node, str(HARNESS), str(tmp / f"{lang}.json"), str(tmp / f"{lang}.out.json")],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        by_lang.update(
            {
                row["id"]: row["tree"]
                for row in json.loads((tmp / f"{lang}.out.json").read_text("utf-8"))
            }
        )
    return fixtures, by_lang


def test_the_fixtures_reach_every_region_and_rule(
    filled: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    fixtures, _ = filled
    names = {f["name"] for f in fixtures if f["lang"] == "en"}
    assert names == {name for name, _ in results.REGIONS}
    # every region is filled with something somewhere (one always empty would test nothing)
    nonempty = {f["name"] for f in fixtures if f["expected"]["children"]}
    assert nonempty == names | {"edge"}
    markup = "".join(EDGE_TEMPLATES.values()) + "".join(
        results._templates(results._label("en")).values()
    )
    for rule in (
        "data-slot=",
        "data-slot-attr=",
        "data-slot-if=",
        "data-slot-svg=",
        "data-slot-each=",
        "=!",
        "@",
    ):
        assert rule in markup, rule


def test_the_page_script_fills_as_the_build_does(
    filled: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    fixtures, by_id = filled
    differ = [f["id"] for f in fixtures if by_id[f["id"]] != f["expected"]]
    assert not differ, (
        f"{len(differ)} of {len(fixtures)} fixtures differ, first {differ[:5]}: "
        + json.dumps(
            {
                "js": by_id[differ[0]],
                "python": next(f["expected"] for f in fixtures if f["id"] == differ[0]),
            }
        )[:3000]
    )


def test_the_comparison_sees_a_difference(
    filled: tuple[list[dict[str, Any]], dict[str, Any]],
) -> None:
    # the trees carry attribute order and text: a swapped pair or a changed character differs
    fixtures, by_id = filled
    first = next(f for f in fixtures if f["id"] == "edge/0")
    js = json.loads(json.dumps(by_id["edge/0"]))
    assert js == first["expected"]
    js["attrs"] = list(reversed(js["attrs"]))
    assert js != first["expected"]
