"""The guide's search index: what goes in, and one file per language (hooks.py uses both).

* **What goes in.** Material's search plugin (9.8) honours ``data-search-exclude`` only
  until the first nested element with the same tag closes: its parser compares
  elements by tag name, so the ``</div>`` of any ``<div>`` inside an excluded
  ``<div>`` ends the exclusion, and the rest of the calculator widget (every GPU of
  the list, the sample log, the result templates) was indexed as page text.
  :func:`strip_search_excluded` removes excluded elements from the HTML the
  plugin reads (the page itself keeps them); :func:`install` wraps the plugin's
  ``add_entry_from_context`` with it.
* **One file per language.** mkdocs-static-i18n merges the three languages into
  ``search/search_index.json`` (850 kB, loaded by every page of every language).
  :func:`split` writes ``search/search_index.<lang>.json`` holding one language's
  sections (UTF-8, no whitespace) and leaves ``search/search_index.json`` with the
  configuration only: Material fetches that file on every page (its search
  highlighting reads the separator), and ``javascripts/navigation.js`` gives the
  search worker the languages' sections when the reader first uses search.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

__all__ = ["LANGUAGES", "EXCLUDE", "install", "language_of", "language_index_name", "split",
           "strip_search_excluded"]

#: The guide's languages; Spanish lives at the site root.
LANGUAGES = ("es", "zh", "en")
#: The attribute that keeps an element (and everything inside it) out of search.
EXCLUDE = "data-search-exclude"

_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
                   "source", "track", "wbr"})


class _Excluded(HTMLParser):
    """Finds the character spans of elements carrying ``data-search-exclude`` (outermost only)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self._line_starts = [0]
        for index, char in enumerate(html):
            if char == "\n":
                self._line_starts.append(index + 1)
        self._html = html
        self.spans: list[tuple[int, int]] = []
        self._tag: str | None = None      # tag of the excluded element being skipped
        self._depth = 0                   # nesting of that tag inside it
        self._start = 0

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._tag is not None:
            if tag == self._tag:
                self._depth += 1
            return
        if tag in _VOID or not any(name == EXCLUDE for name, _ in attrs):
            return
        self._tag, self._depth, self._start = tag, 1, self._offset()

    def handle_endtag(self, tag: str) -> None:
        if self._tag is None or tag != self._tag:
            return
        self._depth -= 1
        if self._depth == 0:
            start = self._offset()
            end = self._html.index(">", start) + 1
            self.spans.append((self._start, end))
            self._tag = None


def strip_search_excluded(html: str) -> str:
    """``html`` without the elements that carry ``data-search-exclude`` (and their content).

    An excluded element that is never closed runs to the end of the HTML, as a browser reads it.
    """
    if EXCLUDE not in html:
        return html
    parser = _Excluded(html)
    parser.feed(html)
    parser.close()
    spans = list(parser.spans)
    if parser._tag is not None:
        spans.append((parser._start, len(html)))
    out, last = [], 0
    for start, end in spans:
        out.append(html[last:start])
        last = end
    out.append(html[last:])
    return "".join(out)


def install() -> bool:
    """Make Material's search plugin index each page without its excluded elements (once).

    Returns False when the plugin is not the one this wraps (then nothing changes).
    """
    try:
        from material.plugins.search.plugin import SearchIndex  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - Material is a dependency of the docs
        return False
    original: Callable[[Any, Any], None] = SearchIndex.add_entry_from_context
    if getattr(original, "_kvguide", False):
        return True

    def add_entry_from_context(self: Any, page: Any) -> None:
        content = page.content
        page.content = strip_search_excluded(content) if content else content
        try:
            original(self, page)
        finally:
            page.content = content

    add_entry_from_context._kvguide = True  # type: ignore[attr-defined]
    SearchIndex.add_entry_from_context = add_entry_from_context
    return True


def language_of(location: str) -> str:
    """The language of a search entry's location (``zh/faq/#x`` → zh, ``faq/`` → es)."""
    head = location.split("/", 1)[0].split("#", 1)[0]
    return head if head in LANGUAGES and head != "es" else "es"


def language_index_name(lang: str) -> str:
    return f"search_index.{lang}.json"


def split(search_dir: Path) -> dict[str, int]:
    """Split ``search_dir/search_index.json`` into one file per language; keep its config only.

    Returns the number of sections written per language. Idempotent: a second call on an
    already split index (no ``docs`` left) changes nothing.
    """
    merged_path = search_dir / "search_index.json"
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    docs = merged.get("docs") or []
    if not docs:
        return {}
    per_language: dict[str, list[dict[str, Any]]] = {lang: [] for lang in LANGUAGES}
    for doc in docs:
        per_language[language_of(str(doc.get("location", "")))].append(doc)
    for lang, entries in per_language.items():
        (search_dir / language_index_name(lang)).write_text(
            json.dumps({"docs": entries}, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    merged_path.write_text(json.dumps({"config": merged["config"], "docs": []}, ensure_ascii=False,
                                      separators=(",", ":")), encoding="utf-8")
    return {lang: len(entries) for lang, entries in per_language.items()}
