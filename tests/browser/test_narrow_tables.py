"""No table wider than a phone: every page of the guide, in every language, at 390 × 844.

Every table a reader can reach (those inside closed ``<details>`` are opened first) must lie inside
the viewport, the document must not scroll sideways, and a table wider than its box must scroll
inside its own wrapper (an ``overflow-x: auto`` box no wider than the viewport), never be clipped.
The guide's own prose tables must not need that scroll at all: they stack or wrap at 390 px.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]
LANGS = ("es", "zh", "en")
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
#: Every page of the guide, from the docs tree (the same in every language).
PAGES = tuple("" if p.stem == "index" else f"{p.stem}/" for p in sorted((REPO / "docs" / "es").glob("*.md")))
WIDTH, HEIGHT = 390, 844

pytestmark = pytest.mark.usefixtures("page_is_clean")

#: For each visible table: its box, its scroll container (itself or the nearest ancestor that clips
#: or scrolls sideways) and whether its content overflows that container.
_MEASURE = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const out = [];
  for (const t of document.querySelectorAll('table')) {
    if (t.offsetParent === null && getComputedStyle(t).position !== 'fixed') continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    let box = t;
    while (box && box !== document.body) {
      const ox = getComputedStyle(box).overflowX;
      if (ox !== 'visible') break;
      box = box.parentElement;
    }
    const b = (box && box !== document.body ? box : document.documentElement).getBoundingClientRect();
    const container = box && box !== document.body ? box : null;
    out.push({
      head: (t.querySelector('caption, th') || t).textContent.trim().replace(/\\s+/g, ' ').slice(0, 50),
      guide: !!t.closest('article') && !t.closest('[data-kvcalc-component]'),
      left: r.left, right: r.right,
      boxLeft: b.left, boxRight: b.right,
      overflowX: container ? getComputedStyle(container).overflowX : 'none',
      content: t.scrollWidth,
      boxClient: container ? container.clientWidth : innerWidth,
      boxScroll: container ? container.scrollWidth : document.documentElement.scrollWidth,
    });
  }
  return out;
}"""


def _tables(page: Page, path: str) -> list[dict[str, Any]]:
    page.goto(path)
    page.wait_for_load_state("load")
    tables: list[dict[str, Any]] = page.evaluate(_MEASURE)
    return tables


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("path", PAGES, ids=[p.rstrip("/") or "home" for p in PAGES])
def test_no_table_is_wider_than_a_phone(page: Page, lang: str, path: str) -> None:
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    url = PREFIX[lang] + path
    tables = _tables(page, url)
    if path in ("", "validation/", "what-fits/"):  # pages that hold tables: the measure found them
        assert tables, f"{url}: no table measured"
    doc = page.evaluate("[document.documentElement.scrollWidth, document.body.scrollWidth]")
    assert max(doc) <= WIDTH, f"{url}: the page scrolls sideways ({doc} px wide)"
    for t in tables:
        where = f"{url} table «{t['head']}»"
        # the scroll box (or the table) lies inside the viewport
        assert t["boxLeft"] >= -0.5 and t["boxRight"] <= WIDTH + 0.5, f"{where}: its box leaves the viewport {t}"
        if t["boxScroll"] > t["boxClient"] + 1:
            # wider than its box: it must scroll there, not be cut off
            assert t["overflowX"] in ("auto", "scroll"), f"{where}: clipped, not scrollable {t}"
        else:
            assert t["right"] <= WIDTH + 0.5, f"{where}: wider than the viewport {t}"
        if t["guide"]:
            assert t["boxScroll"] <= t["boxClient"] + 1, f"{where}: a guide table needs a sideways scroll {t}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_matrix_scrolls_inside_its_own_box_on_a_laptop(page: Page, lang: str) -> None:
    """At 1366 px the 13-GPU matrix is wider than the column: its wrapper scrolls, not the page."""
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(PREFIX[lang] + "what-fits/")
    m = page.evaluate("""() => {
      const t = document.querySelector('table.kvfit-table');
      const w = t.parentElement;
      return {table: t.scrollWidth, box: w.clientWidth, boxScroll: w.scrollWidth,
              overflowX: getComputedStyle(w).overflowX, right: w.getBoundingClientRect().right,
              doc: document.documentElement.scrollWidth, filterInBox: !!w.querySelector('fieldset')};
    }""")
    assert m["doc"] <= 1366, f"the page scrolls sideways: {m}"
    assert m["right"] <= 1366, m
    assert m["overflowX"] in ("auto", "scroll") and m["boxScroll"] > m["box"], m
    assert not m["filterInBox"], "the GPU filter scrolls away with the table"
    page.evaluate("document.querySelector('table.kvfit-table').parentElement.scrollLeft = 10000")
    assert page.evaluate("scrollX") == 0
    last = page.locator("table.kvfit-table thead th").last.bounding_box()
    assert last is not None and last["x"] + last["width"] <= 1366 + 0.5, "the last GPU column is not reachable"
