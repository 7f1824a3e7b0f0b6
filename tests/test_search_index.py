"""kvguide_macros/search_index.py: what stays out of the search index, and the split per language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kvguide_macros.search_index import language_of, split, strip_search_excluded


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>a</p>", "<p>a</p>"),
        # nested elements with the excluded element's tag: the exclusion ends at the matching </div>
        ('<p>a</p><div data-search-exclude><div>x</div><div><div>y</div></div>z</div><p>b</p>',
         "<p>a</p><p>b</p>"),
        # an attribute with a value, void elements and other tags inside
        ('<h2 id="s">S</h2>\n<div class="w" data-search-exclude="">\n<input name="a"><br>'
         '<select><option>x</option></select>\n</div>\n<p>after</p>',
         '<h2 id="s">S</h2>\n\n<p>after</p>'),
        # two excluded blocks, different tags
        ('<details data-search-exclude><summary>s</summary><details>i</details></details>k'
         '<table data-search-exclude><tr><td>1</td></tr></table>m', "km"),
        # never closed: to the end, as a browser reads it
        ("<p>a</p><div data-search-exclude><div>x</div>", "<p>a</p>"),
        # a void element carrying the attribute removes nothing else
        ('<p>a<img data-search-exclude src="x">b</p>', '<p>a<img data-search-exclude src="x">b</p>'),
    ],
)
def test_strip_search_excluded(html: str, expected: str) -> None:
    assert strip_search_excluded(html) == expected


@pytest.mark.parametrize(("location", "lang"), [("", "es"), ("faq/#x", "es"), ("#top", "es"),
                                                ("zh/", "zh"), ("zh/faq/#x", "zh"), ("en/#a", "en"),
                                                ("english/", "es")])
def test_language_of(location: str, lang: str) -> None:
    assert language_of(location) == lang


def test_split(tmp_path: Path) -> None:
    config = {"lang": ["es", "en", "zh"], "separator": "[\\s]+"}
    docs = [{"location": "", "title": "Guía", "text": "é"}, {"location": "zh/", "title": "指南", "text": ""},
            {"location": "en/faq/#a", "title": "A", "text": "a"}]
    (tmp_path / "search_index.json").write_text(json.dumps({"config": config, "docs": docs}), encoding="utf-8")
    assert split(tmp_path) == {"es": 1, "zh": 1, "en": 1}
    assert json.loads((tmp_path / "search_index.json").read_text(encoding="utf-8")) == {"config": config, "docs": []}
    for lang, doc in zip(("es", "zh", "en"), docs, strict=True):
        raw = (tmp_path / f"search_index.{lang}.json").read_text(encoding="utf-8")
        assert json.loads(raw) == {"docs": [doc]}
        assert "\\u" not in raw
    assert split(tmp_path) == {}   # already split: nothing changes
    assert json.loads((tmp_path / "search_index.zh.json").read_text(encoding="utf-8")) == {"docs": [docs[1]]}
