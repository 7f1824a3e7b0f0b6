"""The guide in a real browser: search in three languages (Chinese segmented
with jieba), the language switcher keeps the reader on the same page, the
permalink copies the section's full URL, and no page logs a console error or
requests anything from another host.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

REPO = Path(__file__).resolve().parents[2]
LANGS = ("es", "zh", "en")
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
PAGES = ("", "how-vllm-computes/", "read-your-log/", "faq/", "calculator/", "references/")
#: What the permalink confirmation says, per language ("permalink.copied" in kvguide_macros/strings.py).
COPIED = {"es": "Enlace copiado", "zh": "链接已复制", "en": "Link copied"}
RESULT_TIMEOUT_MS = 10_000


def _search(page: Page, lang: str, query: str) -> list[str]:
    """Type ``query`` into Material's search on the language's home page; return result paths."""
    page.goto(PREFIX[lang] or "./")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    page.keyboard.press("End")  # fill() alone does not always trigger the search
    links = page.locator(".md-search-result__item a.md-search-result__link")
    expect(links.first).to_be_attached(timeout=RESULT_TIMEOUT_MS)
    return [urlsplit(href).path for href in links.evaluate_all("els => els.map(a => a.href)")]


def _in_language(path: str, lang: str) -> bool:
    if lang == "es":
        return not path.startswith(("/zh/", "/en/"))
    return path.startswith(f"/{lang}/")


@pytest.mark.parametrize(
    ("lang", "query"),
    [
        ("zh", "显存"),  # a word from Chinese body text: found only with jieba's segmentation
        ("es", "memoria"),
        ("en", "memory"),
    ],
)
def test_search_finds_a_section_in_the_language(page: Page, lang: str, query: str) -> None:
    paths = _search(page, lang, query)
    assert any(_in_language(p, lang) for p in paths), f"{query!r}: no {lang} result in {paths}"


@pytest.mark.parametrize(
    ("source", "target"),
    [("es", "zh"), ("zh", "en"), ("en", "es")],
)
def test_language_switcher_keeps_the_page(page: Page, source: str, target: str) -> None:
    page.goto(f"{PREFIX[source]}how-vllm-computes/", wait_until="networkidle")   # nothing in flight to abort
    page.locator(".md-header .md-select").first.hover()
    page.locator(f".md-header a.md-select__link[hreflang={target}]").click()
    page.wait_for_load_state()
    assert urlsplit(page.url).path == f"/{PREFIX[target]}how-vllm-computes/"
    assert page.locator("html").get_attribute("lang") == target


@pytest.mark.fresh_context
@pytest.mark.parametrize("lang", LANGS)
def test_permalink_copies_the_section_url(page: Page, site_url: str, lang: str) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site_url.rstrip("/"))
    page.goto(PREFIX[lang] or "./")
    link = page.locator('a.headerlink[href="#lower-max-model-len"]')
    expect(link).to_be_visible()  # faintly shown without hovering (site.css)
    assert float(link.evaluate("a => getComputedStyle(a).opacity")) > 0
    expect(link).to_have_attribute("data-copied", COPIED[lang])
    link.click()
    expect(page.locator(".kv-permalink-copied")).to_have_text(COPIED[lang])
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{site_url}{PREFIX[lang]}#lower-max-model-len"


def _page_source_exists(path: str) -> bool:
    name = path.rstrip("/") or "index"
    return (REPO / "docs" / "es" / f"{name}.md").is_file()


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("lang", LANGS)
def test_page_loads_cleanly(
    page: Page,
    lang: str,
    path: str,
    console_errors: list[str],
    failed_requests: list[str],
    foreign_requests: list[str],
) -> None:
    if path == "calculator/" and not _page_source_exists(path):
        pytest.skip("calculator.md not written yet (the calculator engineer's page)")
    page.goto(f"{PREFIX[lang]}{path}", wait_until="networkidle")
    assert page.locator("html").get_attribute("lang") == lang
    assert re.search(r"\S", page.locator("article").inner_text())
    assert console_errors == []
    assert failed_requests == []
    assert foreign_requests == []
