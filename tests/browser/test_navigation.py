"""Navigation between languages in a real browser.

* The language switcher keeps the page, the ``#section`` and the calculator's
  ``?query``, from four deep links (one of them edited in the calculator first).
* Search lists the reader's language first, from each language, for three
  queries; results in other languages follow, marked with their language.
  No page loads the index before the reader uses search; the first search
  (typed at once, from a ?q= link, or from the phone's header icon) works.
* A crawl of the site built with ``SITE_URL=http://127.0.0.1:<port>/sub/`` and
  served under ``/sub/`` finds no broken internal link (the switcher's
  included: mkdocs-static-i18n writes root-absolute links that hooks.py makes
  relative).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qsl, urldefrag, urlencode, urljoin, urlsplit

import pytest
from playwright.sync_api import Page, expect

REPO = Path(__file__).resolve().parents[2]
LANGS = ("es", "zh", "en")
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
RESULT_TIMEOUT_MS = 10_000
READY_TIMEOUT_MS = 60_000
UPDATE_TIMEOUT_MS = 10_000
CALCULATOR = '[data-kvcalc-component="calculator"]'


def widget(page: Page, preset: str):
    return page.locator(f'{CALCULATOR}[data-kvcalc-preset="{preset}"]')


def field(root, name: str):
    return root.locator(f'[name="{name}"]')


def wait_ready(root) -> None:
    root.scroll_into_view_if_needed()
    root.page.wait_for_function(
        "el => el.dataset.kvcalcStatus === 'ready'", arg=root.element_handle(), timeout=READY_TIMEOUT_MS
    )


pytestmark = pytest.mark.usefixtures("page_is_clean")


def _switch(page: Page, target: str) -> None:
    """Open the header's language menu and follow the link to ``target``."""
    page.wait_for_load_state("networkidle")  # nothing in flight to abort
    page.locator(".md-header .md-select").first.hover()
    with page.expect_navigation():
        page.locator(f".md-header a.md-select__link[hreflang={target}]").click()
    page.wait_for_load_state()


QUERY = {"model": "meta-llama/Llama-3.1-8B-Instruct", "gpu": "L4", "max_model_len": "4096"}

#: (source language, path with query and fragment, target language)
DEEP_LINKS = [
    ("es", "read-your-log/#kv-cache-too-small", "zh"),
    ("zh", "faq/#tp-and-pp", "en"),
    ("en", f"?{urlencode(QUERY)}#fp8-kv-cache", "es"),
    ("zh", f"calculator/?{urlencode(QUERY)}#calculator", "es"),
]


@pytest.mark.parametrize(("source", "link", "target"), DEEP_LINKS)
def test_switcher_keeps_page_section_and_query(page: Page, source: str, link: str, target: str) -> None:
    page.goto(PREFIX[source] + link)
    before = urlsplit(page.url)
    # the switcher's links carry the address's query and fragment as soon as the page is loaded
    href = page.locator(f".md-header a.md-select__link[hreflang={target}]").first.get_attribute("href") or ""
    assert href.endswith((f"?{before.query}" if before.query else "") + f"#{before.fragment}"), href
    _switch(page, target)
    after = urlsplit(page.url)
    assert page.locator("html").get_attribute("lang") == target
    assert after.path == f"/{PREFIX[target]}{link.split('?')[0].split('#')[0]}"
    assert after.fragment == before.fragment
    assert dict(parse_qsl(after.query)) == dict(parse_qsl(before.query))
    if before.query:
        root = widget(page, before.fragment)
        for name, value in QUERY.items():
            assert field(root, name).input_value() == value, name


def test_switcher_follows_hashchange_and_calculator_edits(page: Page) -> None:
    page.goto("en/calculator/#calculator")
    root = widget(page, "calculator")
    wait_ready(root)
    field(root, "max_model_len").fill("12288")
    page.wait_for_function("() => new URLSearchParams(location.search).get('max_model_len') === '12288'",
                           timeout=UPDATE_TIMEOUT_MS)
    page.evaluate("location.hash = 'how-to-use'")  # a hashchange after load
    _switch(page, "zh")
    after = urlsplit(page.url)
    assert after.path == "/zh/calculator/" and after.fragment == "how-to-use"
    assert dict(parse_qsl(after.query))["max_model_len"] == "12288"
    again = widget(page, "calculator")
    assert field(again, "max_model_len").input_value() == "12288"
    wait_ready(again)


# ---------------------------------------------------------------------------
# Search: the reader's language first
# ---------------------------------------------------------------------------

def _language_of(path: str) -> str:
    if path.startswith("/zh/"):
        return "zh"
    if path.startswith("/en/"):
        return "en"
    return "es"


def _search(page: Page, lang: str, query: str) -> list[tuple[str, bool]]:
    """(language, marked as another language) of each listed result, in order."""
    page.goto(PREFIX[lang] or "./", wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill(query)
    page.keyboard.press("End")  # fill() alone does not always trigger the search
    items = page.locator(".md-search-result__item")
    expect(items.first).to_be_attached(timeout=RESULT_TIMEOUT_MS)
    page.wait_for_timeout(300)  # let the batch render
    rows = items.evaluate_all(
        """els => els.map(li => [new URL(li.querySelector('a').href).pathname,
                                 li.classList.contains('kv-search-other-language')])"""
    )
    return [(_language_of(path), marked) for path, marked in rows]


@pytest.mark.parametrize("query", ["max-model-len", "gpu-memory-utilization", "fp8"])
@pytest.mark.parametrize("lang", LANGS)
def test_search_lists_the_readers_language_first(page: Page, lang: str, query: str) -> None:
    results = _search(page, lang, query)
    languages = [language for language, _ in results]
    assert languages and languages[0] == lang, f"{query!r} from {lang}: {languages}"
    # all of this language's results come before any other language's
    first_other = next((i for i, language in enumerate(languages) if language != lang), len(languages))
    assert lang not in languages[first_other:], f"{query!r} from {lang}: {languages}"
    # and only the others are marked
    assert all(marked == (language != lang) for language, marked in results), results


INDEX_FILE = re.compile(r"/search/search_index\.(es|zh|en)\.json$")


@pytest.mark.fresh_context
def test_search_index_loads_on_first_use(page: Page) -> None:
    """A page loads no language's sections until the reader uses search; the first search
    (typed at once, before they arrive) then finds all three languages, the reader's first."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(urlsplit(request.url).path))
    page.goto("en/references/", wait_until="networkidle")
    page.wait_for_timeout(500)
    assert "/search/search_index.json" in requested   # Material's: the configuration only
    assert [p for p in requested if INDEX_FILE.search(p)] == [], requested
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("fp8")
    page.keyboard.press("End")
    items = page.locator(".md-search-result__item")
    expect(items.first).to_be_attached(timeout=RESULT_TIMEOUT_MS)
    page.wait_for_timeout(300)
    assert sorted(INDEX_FILE.search(p).group(1) for p in requested if INDEX_FILE.search(p)) == ["en", "es", "zh"]
    rows = items.evaluate_all("els => els.map(li => new URL(li.querySelector('a').href).pathname)")
    languages = [_language_of(path) for path in rows]
    assert languages[0] == "en" and {"es", "zh"} <= set(languages), languages


def test_search_from_the_phone_header_icon(page: Page) -> None:
    """On a phone the search field is hidden behind the header's icon: a tap loads the index."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("faq/", wait_until="networkidle")
    page.locator("label.md-header__button[for='__search']").click()
    box = page.locator("input.md-search__input")
    expect(box).to_be_visible()
    box.fill("memoria")
    page.keyboard.press("End")
    items = page.locator(".md-search-result__item")
    expect(items.first).to_be_attached(timeout=RESULT_TIMEOUT_MS)
    first = items.first.locator("a").first.get_attribute("href") or ""
    assert _language_of(urlsplit(urljoin(page.url, first)).path) == "es", first


def test_search_from_the_404_page(page: Page) -> None:
    """The site's 404 page (served at any depth by a real host) searches too."""
    page.goto("404.html", wait_until="networkidle")
    box = page.locator("input.md-search__input")
    box.click()
    box.fill("memoria")
    page.keyboard.press("End")
    items = page.locator(".md-search-result__item")
    expect(items.first).to_be_attached(timeout=RESULT_TIMEOUT_MS)


def test_search_link_with_a_query_searches_on_arrival(page: Page) -> None:
    """Material's ?q= link opens search with the query: the index loads for it."""
    page.goto("zh/faq/?q=" + "显存")
    items = page.locator(".md-search-result__item")
    expect(items.first).to_be_attached(timeout=RESULT_TIMEOUT_MS)
    first = items.first.locator("a").first.get_attribute("href") or ""
    assert _language_of(urlsplit(urljoin(page.url, first)).path) == "zh", first


# ---------------------------------------------------------------------------
# Under a sub-path: no broken internal link
# ---------------------------------------------------------------------------

class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {"a": "href", "link": "href", "script": "src", "img": "src", "source": "src"}
        want = names.get(tag)
        for key, value in attrs:
            if key == want and value:
                self.links.append(value)


@pytest.fixture(scope="module")
def sub_path_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site built with SITE_URL=…/sub/ and served from a directory whose sub/ is that build."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    root = tmp_path_factory.mktemp("served")
    base = f"http://127.0.0.1:{port}/sub/"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": base}
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(root / "sub")],
                          cwd=REPO, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(root)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base, timeout=1).close()
                break
            except OSError:
                import time
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=5)
        shutil.rmtree(root, ignore_errors=True)


def test_sub_path_crawl_finds_no_broken_internal_link(sub_path_site: str) -> None:
    base = sub_path_site
    origin = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}"
    seen: set[str] = set()
    queue = [base]
    broken: list[str] = []
    pages = 0
    # http.server ignores a query, so the ~2,800 preset links (``…/?model=…``) would each fetch the
    # body of a page already read, whose links resolve to the same targets but for their queries (a
    # relative link ignores the query of the page it is on; a bare ``?…`` replaces it). So a page is
    # fetched and its links followed once, under its address without the query; a query variant
    # of a broken address is reported as broken too.
    fetched: dict[str, str | None] = {}   # the address without its query -> its failure, or None
    links_of: dict[bytes, list[str]] = {}
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        bare = urlsplit(url)._replace(query="").geturl()
        if bare in fetched:
            if fetched[bare] is not None:
                broken.append(f"{url}: {fetched[bare]}")
            continue
        fetched[bare] = None
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                kind = response.headers.get("Content-Type", "")
                body = response.read() if "text/html" in kind else b""
        except urllib.error.HTTPError as error:
            fetched[bare] = f"HTTP {error.code}"
            broken.append(f"{url}: {fetched[bare]}")
            continue
        if not body or not url.startswith(base):
            continue
        pages += 1
        if body not in links_of:
            parser = _Links()
            parser.feed(body.decode("utf-8", "replace"))
            links_of[body] = parser.links
        for link in links_of[body]:
            target, _ = urldefrag(urljoin(url, link))
            if not target.startswith(origin):
                continue  # another host: not ours to check
            if not target.startswith(base):
                broken.append(f"{url} -> {link} (leaves {base})")
                continue
            if target not in seen:
                queue.append(target)
    assert pages >= 18, f"crawled only {pages} pages"  # six pages in three languages
    assert broken == []


@pytest.mark.parametrize("lang", LANGS)
def test_error_line_on_the_home_page_wraps(page: Page, lang: str) -> None:
    """The first code block (the start-up error) wraps: its end is on screen, no sideways scroll."""
    page.set_viewport_size({"width": 800, "height": 900})
    page.goto(PREFIX[lang] or "./", wait_until="networkidle")
    code = page.locator("article .kv-wrap pre > code").first
    expect(code).to_contain_text("estimated maximum model length")
    assert code.evaluate("c => getComputedStyle(c).whiteSpace") == "pre-wrap"
    assert code.evaluate("c => c.scrollWidth <= c.clientWidth + 1")
