"""The built guide: a strict MkDocs build, three languages with the same
structure and section ids, nothing fetched from another host, every internal
link and anchor resolving, macro tables equal to the core's output, and no
paragraph left in the wrong language.

The site is built once per module into a temporary directory with
``mkdocs build --strict`` (anchor validation on), exactly as ``make site`` does.
"""

from __future__ import annotations

import ast
import functools
import importlib
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
from languages import is_chinese_paragraph, is_spanish_paragraph, wrong_language

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
LANGS = ("es", "zh", "en")
#: URL prefix of each language in the built site (Spanish at the root).
PREFIX = {"es": "", "zh": "zh/", "en": "en/"}
#: The guide's pages (docs/<lang>/<file>); the same tree in every language.
PAGES = (
    "index.md",
    "how-vllm-computes.md",
    "read-your-log.md",
    "faq.md",
    "calculator.md",
    "references.md",
)
#: Section ids of the article (index.md) that readers link from GitHub issues.
ARTICLE_IDS = (
    "kv-cache-error",
    "why-kv-fills-memory",
    "read-the-logs",
    "lower-max-model-len",
    "limit-concurrency",
    "gpu-memory-utilization",
    "fp8-kv-cache",
    "kv-cache-memory-bytes",
    "cpu-offload",
    "troubleshooting-template",
    "common-misconceptions",
    "summary",
)
SITE_URL = "http://127.0.0.1:8000/"


# ---------------------------------------------------------------------------
# A small DOM over html.parser (no third-party HTML library needed)
# ---------------------------------------------------------------------------

_VOID = frozenset(
    ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]
)


@dataclass(eq=False)
class Node:
    """One element of the parsed page; ``children`` mixes Nodes and text."""

    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def iter(self) -> list[Node]:
        """This node and every element below it, in document order."""
        out: list[Node] = [self]
        for child in self.children:
            if isinstance(child, Node):
                out.extend(child.iter())
        return out

    def find_all(self, *tags: str) -> list[Node]:
        return [n for n in self.iter() if n.tag in tags]

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def text(self, skip: frozenset[str] = frozenset()) -> str:
        """Text content, leaving out subtrees whose tag is in ``skip``."""
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in skip and "headerlink" not in child.classes():
                parts.append(child.text(skip))
        return "".join(parts)


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self._open = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self._open)
        self._open.children.append(node)
        if tag not in _VOID:
            self._open = node

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._open.children.append(Node(tag, {k: v or "" for k, v in attrs}, parent=self._open))

    def handle_endtag(self, tag: str) -> None:
        node: Node | None = self._open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self._open = node.parent

    def handle_data(self, data: str) -> None:
        self._open.children.append(data)


def parse_html(html: str) -> Node:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root


def article_of(root: Node) -> Node:
    """The page's content (Material's ``<article class="md-content__inner">``)."""
    for node in root.find_all("article"):
        if "md-content__inner" in node.classes():
            return node
    raise AssertionError("no <article class='md-content__inner'> in the page")


def normalize_space(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------------------
# Language detectors (tested on examples below)
# ---------------------------------------------------------------------------

#: The detectors themselves live in tests/languages.py (shared with the browser tests).

@pytest.mark.parametrize(
    ("text", "chinese", "spanish"),
    [
        # Plain prose in each language.
        ("当上下文长度很大、并发很高时，显存会被 KV 缓存占满。", True, False),
        ("La memoria de la GPU se llena con la caché KV cuando la longitud de contexto es grande.", False, True),
        ("GPU memory fills with the KV cache when the context length is long.", False, False),
        # Chinese prose that quotes vLLM flags and an English log line stays Chinese, not Spanish.
        ("先把 --max-model-len 调低，再看日志里的 Maximum concurrency for 32,768 tokens per request。", True, False),
        # vLLM's English error inside a Chinese page is fine: neither Chinese nor Spanish.
        ("ValueError: To serve at least one request with the models's max seq len (32768), "
         "(4.5 GiB KV cache is needed, which is larger than the available KV cache memory (3.2 GiB).",
         False, False),
        # A Spanish sentence that quotes one Chinese term is still a Spanish paragraph, not a Chinese one.
        ("En los foros chinos se habla de 显存 para la memoria de la GPU.", False, True),
        # An untranslated Spanish step left in a Chinese page.
        ("降低 max_model_len：reduzca la longitud de contexto hasta que quepa una petición en la caché.", False, True),
        # Short mixed labels are neither.
        ("Qwen/Qwen3-8B", False, False),
        ("最大并发", False, False),
    ],
)
def test_language_detectors(text: str, chinese: bool, spanish: bool) -> None:
    assert is_chinese_paragraph(text) is chinese
    assert is_spanish_paragraph(text) is spanish


@pytest.mark.parametrize(
    ("text", "lang", "wrong"),
    [
        # The validation page's reason left in English on the Chinese page.
        ("The weights are read from the checkpoint index, so the estimate is only as good as the profile.",
         "zh", "en"),
        ("权重取自检查点索引，因此估计的准确度取决于分析运行。", "zh", None),
        # Chinese prose quoting vLLM's English line is Chinese.
        ("日志最后一行是 “Cannot auto-fit max_model_len: not enough GPU memory available to serve even a "
         "single token”，说明权重之后没有空间。", "zh", None),
        # A model id, a command, a GPU label: no language.
        ("meta-llama/Llama-3.1-8B-Instruct", "zh", None),
        ("NVIDIA RTX PRO 6000 Blackwell · 94.97 GiB", "es", None),
        ("vllm serve Qwen/Qwen3-8B --max-model-len 20368", "en", None),
        # English prose on the Spanish page, Spanish prose on the English page.
        ("Lower the context length until one request fits in the cache, then raise it again.", "es", "en"),
        ("Reduzca la longitud de contexto hasta que quepa una petición en la caché.", "en", "es"),
        # A Spanish sentence citing an English issue title by its quoted title is Spanish.
        ("#16118 «[Feature]: Estimate max-model-len when the KV cache memory is not enough»: el origen de "
         "la frase del error.", "es", None),
        ("La memoria de la GPU se llena con la caché KV cuando la longitud de contexto es grande.", "es", None),
        ("GPU memory fills with the KV cache when the context length is long.", "en", None),
        ("当上下文长度很大、并发很高时，显存会被 KV 缓存占满。", "en", "zh"),
    ],
)
def test_wrong_language_detector(text: str, lang: str, wrong: str | None) -> None:
    assert wrong_language(text, lang) == wrong


# ---------------------------------------------------------------------------
# The build
# ---------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BuiltSite:
    root: Path
    """The output directory of ``mkdocs build``."""

    def page_path(self, lang: str, page: str) -> Path:
        stem = page.removesuffix(".md")
        sub = "" if stem == "index" else f"{stem}/"
        return self.root / f"{PREFIX[lang]}{sub}index.html"

    def page(self, lang: str, page: str) -> Node:
        return parse_html(self.page_path(lang, page).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": SITE_URL}
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        problems = [line for line in proc.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
        pytest.fail(
            "mkdocs build --strict failed:\n" + "\n".join(problems or proc.stderr.splitlines()[-30:]),
            pytrace=False,
        )
    return BuiltSite(root=out)


def test_strict_build_writes_every_language(site: BuiltSite) -> None:
    # The fixture fails the run if `mkdocs build --strict` does; its speed is timed by bench/core_bench.py.
    for lang in PREFIX:
        assert site.page_path(lang, "index.md").is_file(), lang


def test_docs_tree_is_the_same_in_every_language() -> None:
    trees = {
        lang: sorted(p.relative_to(DOCS / lang).as_posix() for p in (DOCS / lang).rglob("*.md"))
        for lang in LANGS
    }
    assert trees["zh"] == trees["es"]
    assert trees["en"] == trees["es"]
    assert set(PAGES) <= set(trees["es"])


@pytest.mark.parametrize("page", PAGES)
def test_page_has_same_headings_in_every_language(site: BuiltSite, page: str) -> None:
    headings: dict[str, list[tuple[str, str]]] = {}
    for lang in LANGS:
        path = site.page_path(lang, page)
        assert path.is_file(), f"{path.relative_to(site.root)} was not built"
        article = article_of(site.page(lang, page))
        headings[lang] = [
            (h.tag, h.attrs.get("id", "")) for h in article.find_all("h1", "h2", "h3", "h4", "h5", "h6")
        ]
    assert headings["zh"] == headings["es"], f"{page}: zh headings differ from es"
    assert headings["en"] == headings["es"], f"{page}: en headings differ from es"


def _inside_widget(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if "data-kvcalc-component" in parent.attrs:
            return True
        parent = parent.parent
    return False


@pytest.mark.parametrize("page", PAGES)
def test_heading_ids_are_english_kebab_case(site: BuiltSite, page: str) -> None:
    article = article_of(site.page("es", page))
    for h in article.find_all("h2", "h3", "h4", "h5", "h6"):
        if _inside_widget(h):
            continue  # the calculator's own headings are not guide sections
        hid = h.attrs.get("id", "")
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", hid), f"{page}: heading {normalize_space(h.text())!r} has id {hid!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_article_section_ids_present(site: BuiltSite, lang: str) -> None:
    ids = {n.attrs["id"] for n in site.page(lang, "index.md").iter() if "id" in n.attrs}
    missing = [i for i in ARTICLE_IDS if i not in ids]
    assert not missing, f"/{PREFIX[lang]} lacks section ids {missing}"


# ---------------------------------------------------------------------------
# Links, assets, hosts
# ---------------------------------------------------------------------------

#: Attributes through which a browser fetches something on its own.
_FETCHING = {
    "script": ("src",),
    "img": ("src", "srcset"),
    "iframe": ("src",),
    "frame": ("src",),
    "source": ("src", "srcset"),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "input": ("src",),
    "link": ("href",),
}
_NOT_FETCHED_LINK_RELS = {"canonical", "alternate", "author", "license", "prev", "next"}
_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""")


def _html_files(site: BuiltSite) -> list[Path]:
    return sorted(site.root.rglob("*.html"))


def _is_foreign(url: str) -> bool:
    parts = urlsplit(url.strip())
    if parts.scheme in ("", "data", "blob"):
        return bool(parts.netloc)  # protocol-relative //host/… is foreign
    if parts.scheme in ("http", "https"):
        return parts.netloc != urlsplit(SITE_URL).netloc
    return True


def _urls_of(node: Node, attr: str) -> list[str]:
    value = node.attrs.get(attr, "")
    if attr == "srcset":
        return [item.split()[0] for item in value.split(",") if item.strip()]
    return [value] if value else []


def test_nothing_is_fetched_from_another_host(site: BuiltSite) -> None:
    foreign: list[str] = []
    for path in _html_files(site):
        root = parse_html(path.read_text(encoding="utf-8"))
        for node in root.iter():
            for attr in _FETCHING.get(node.tag, ()):
                if node.tag == "link" and set(node.attrs.get("rel", "").split()) & _NOT_FETCHED_LINK_RELS:
                    continue
                foreign += [f"{path.relative_to(site.root)}: <{node.tag} {attr}={u}>" for u in _urls_of(node, attr) if _is_foreign(u)]
            style = node.attrs.get("style", "")
            for m in _CSS_URL.finditer(style):
                url = m.group(1) or m.group(2)
                if _is_foreign(url):
                    foreign.append(f"{path.relative_to(site.root)}: style url({url})")
    for css in site.root.rglob("*.css"):
        for m in _CSS_URL.finditer(css.read_text(encoding="utf-8", errors="replace")):
            url = m.group(1) or m.group(2)
            if _is_foreign(url):
                foreign.append(f"{css.relative_to(site.root)}: url({url})")
    assert not foreign, "resources from other hosts:\n" + "\n".join(foreign)


def test_no_hreflang_alternates_in_head(site: BuiltSite) -> None:
    """hooks.py strips them: Material would fetch <alternate>/sitemap.xml for each and log 404s."""
    offending = [
        path.relative_to(site.root).as_posix()
        for path in _html_files(site)
        if any(
            "alternate" in n.attrs.get("rel", "").split() and "hreflang" in n.attrs
            for n in parse_html(path.read_text(encoding="utf-8")).find_all("link")
        )
    ]
    assert not offending, f"<link rel=alternate hreflang> left in {offending}"


def _resolve(site: BuiltSite, page: Path, href: str) -> tuple[Path, str] | None:
    """Map a same-site href to (file, fragment); None for other hosts and schemes."""
    parts = urlsplit(href)
    base_path = urlsplit(SITE_URL).path  # "/" or a sub-path such as "/kvguide/"
    if parts.scheme in ("http", "https"):
        if parts.netloc != urlsplit(SITE_URL).netloc:
            return None
        url_path = parts.path
    elif parts.scheme or parts.netloc:
        return None  # mailto:, javascript:, //host
    else:
        page_url = base_path + page.relative_to(site.root).as_posix()
        url_path = urlsplit(urljoin(page_url, parts.path)).path if parts.path else page_url
    # A path outside the site maps to a name that cannot exist, so it is reported.
    rel = url_path.removeprefix(base_path) if url_path.startswith(base_path) else "../" + url_path
    target = site.root / unquote(rel)
    if url_path.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target, unquote(parts.fragment)


@functools.cache
def ids_of(path: Path) -> frozenset[str]:
    """The ids (and ``<a name>``) a built page offers as link targets."""
    root = parse_html(path.read_text(encoding="utf-8"))
    return frozenset({n.attrs["id"] for n in root.iter() if "id" in n.attrs} | {
        n.attrs["name"] for n in root.find_all("a") if "name" in n.attrs
    })


def test_internal_links_and_anchors_resolve(site: BuiltSite) -> None:
    broken: list[str] = []
    for path in _html_files(site):
        if path.name == "404.html" and path.parent == site.root:
            continue  # served at any depth; its links are absolute
        root = parse_html(path.read_text(encoding="utf-8"))
        refs = [("a", n.attrs.get("href", "")) for n in root.find_all("a")]
        refs += [(n.tag, u) for n in root.find_all("script", "img", "source", "iframe") for u in _urls_of(n, "src")]
        refs += [("link", n.attrs.get("href", "")) for n in root.find_all("link")
                 if not set(n.attrs.get("rel", "").split()) & _NOT_FETCHED_LINK_RELS]
        for tag, href in refs:
            if not href:
                continue
            resolved = _resolve(site, path, href)
            if resolved is None:
                continue
            target, fragment = resolved
            where = f"{path.relative_to(site.root)}: <{tag}> {href}"
            if not target.is_file():
                broken.append(f"{where} → missing {os.path.relpath(target, site.root)}")
            elif fragment and target.suffix == ".html" and fragment not in ids_of(target):
                broken.append(f"{where} → no id {fragment!r} in {os.path.relpath(target, site.root)}")
    assert not broken, "broken internal links:\n" + "\n".join(broken)


def test_calculator_section_links_land_on_a_section(site: BuiltSite) -> None:
    """Every section URL a calculator's config offers its recommendations (the site's
    map of section ids to pages, kvguide_macros/sections.py) reaches that id."""
    checked, broken = 0, []
    for path in _html_files(site):
        for script in parse_html(path.read_text(encoding="utf-8")).find_all("script"):
            if "data-kvcalc-config" not in script.attrs:
                continue
            for section, entry in json.loads(script.text())["tables"]["sections"].items():
                resolved = _resolve(site, path, entry["href"])
                assert resolved is not None, entry
                target, fragment = resolved
                checked += 1
                if fragment != section or not target.is_file() or section not in ids_of(target):
                    broken.append(f"{path.relative_to(site.root)}: {section} → {entry['href']}")
    assert checked > 100, "no calculator config with a section map found"
    assert not broken, "section links that miss their section:\n" + "\n".join(broken)


def test_calculator_markup_is_not_read_as_markdown(site: BuiltSite) -> None:
    """Markdown leaves every widget as the macro wrote it: vLLM's lines keep their backticks
    (a block that Markdown did not take for HTML would turn them into <code>)."""
    checked = 0
    for path in _html_files(site):
        html = path.read_text(encoding="utf-8")
        for match in re.finditer(r'<pre class="kvcalc-lines"[^>]*>(.*?)</pre>', html, re.S):
            checked += 1
            assert "<code>" not in match.group(1), path.relative_to(site.root)
    assert checked >= 30


# ---------------------------------------------------------------------------
# Macro tables equal the core's output
# ---------------------------------------------------------------------------

_TABLE_MACRO = re.compile(r"\{\{\s*(kv_bytes_table|starting_point_table|concurrency_table)\s*\((.*?)\)\s*\}\}", re.S)


def _table_cells(root: Node) -> list[list[list[str]]]:
    """Every table as rows of normalized cell texts."""
    return [
        [[normalize_space(c.text()) for c in row.find_all("th", "td")] for row in table.find_all("tr")]
        for table in root.find_all("table")
    ]


def _render_markdown(md_text: str) -> Node:
    import markdown

    return parse_html(markdown.markdown(md_text, extensions=["tables", "attr_list", "md_in_html"]))


def _macro_calls(lang: str) -> list[tuple[str, str, dict[str, object]]]:
    """(page, macro name, keyword arguments) of every table macro in docs/<lang>/."""
    calls = []
    for path in sorted((DOCS / lang).rglob("*.md")):
        for name, args in _TABLE_MACRO.findall(path.read_text(encoding="utf-8")):
            call = ast.parse(f"f({args})", mode="eval").body
            assert isinstance(call, ast.Call) and not call.args, f"{path}: {name} takes keyword arguments only"
            kwargs = {kw.arg: ast.literal_eval(kw.value) for kw in call.keywords if kw.arg}
            calls.append((path.relative_to(DOCS / lang).as_posix(), name, kwargs))
    return calls


@pytest.mark.parametrize("lang", LANGS)
def test_guide_shows_the_core_tables(lang: str) -> None:
    names = {name for _, name, _ in _macro_calls(lang)}
    assert {"kv_bytes_table", "starting_point_table"} <= names, f"docs/{lang}/ lacks {names ^ {'kv_bytes_table', 'starting_point_table'}}"


@pytest.mark.parametrize("lang", LANGS)
def test_macro_tables_equal_core_output(site: BuiltSite, lang: str) -> None:
    tables = importlib.import_module("kvguide_macros.tables")  # the site's tables, over the kvcalc core
    calls = _macro_calls(lang)
    assert calls, f"no table macro in docs/{lang}/"
    for page, name, kwargs in calls:
        expected = _table_cells(_render_markdown(getattr(tables, name)(lang, **kwargs)))
        assert expected, f"kvguide_macros.tables.{name}({lang!r}) rendered no table"
        built = _table_cells(article_of(site.page(lang, page)))
        for table in expected:
            assert table in built, f"{PREFIX[lang]}{page}: {name}({kwargs}) differs from the core's table"


# ---------------------------------------------------------------------------
# No paragraph in the wrong language
# ---------------------------------------------------------------------------

_PROSE_TAGS = ("p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th")
#: Every block a reader reads as a sentence or a label, on the whole page (navigation, header, footer,
#: the calculator's form and its build-time result included).
_BLOCK_TAGS = (*_PROSE_TAGS, "caption", "figcaption", "summary", "label", "legend", "option", "button", "dt", "dd",
               "blockquote", "title")
#: Attributes a reader sees or hears (a placeholder, a screen reader's label, a tooltip).
_TEXT_ATTRS = ("placeholder", "aria-label", "title", "alt", "data-label")
_NOT_PROSE = frozenset({"code", "pre", "script", "style", "kbd", "samp", "textarea"})
#: Every page of the guide (the tree is the same in every language), and the 404 page at the root.
ALL_PAGES = tuple(sorted(p.name for p in (DOCS / "es").glob("*.md")))


def _prose(node: Node) -> list[str]:
    out = []
    for element in node.find_all(*_PROSE_TAGS):
        # A <li> holding a <p> is checked through the <p>.
        text = normalize_space(element.text(_NOT_PROSE))
        if text:
            out.append(text)
    return out


def _blocks(root: Node) -> list[str]:
    """The page's text blocks outside code, and its readable attributes."""
    out = []
    for element in root.iter():
        if element.tag in _BLOCK_TAGS and not any(a.tag in _NOT_PROSE for a in _ancestors(element)):
            text = normalize_space(element.text(_NOT_PROSE))
            if text:
                out.append(text)
        out.extend(normalize_space(element.attrs[a]) for a in _TEXT_ATTRS if element.attrs.get(a))
    return out


def _ancestors(node: Node) -> list[Node]:
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("page", ALL_PAGES)
def test_no_block_in_another_language(site: BuiltSite, lang: str, page: str) -> None:
    """No paragraph, list item, cell, heading or label of one language's page written in another."""
    wrong = [f"[{w}] {t}" for t in _blocks(site.page(lang, page)) if (w := wrong_language(t, lang))]
    assert not wrong, f"/{PREFIX[lang]}{page}: blocks in another language:\n" + "\n".join(sorted(set(wrong)))


def test_no_block_in_another_language_on_the_404_page(site: BuiltSite) -> None:
    root = parse_html((site.root / "404.html").read_text(encoding="utf-8"))
    wrong = [t for t in _blocks(root) if wrong_language(t, "es")]
    assert not wrong, wrong


@pytest.mark.parametrize("lang", ("es", "en"))
@pytest.mark.parametrize("page", ALL_PAGES)
def test_no_chinese_paragraph_in_spanish_or_english(site: BuiltSite, lang: str, page: str) -> None:
    wrong = [t for t in _prose(article_of(site.page(lang, page))) if is_chinese_paragraph(t)]
    assert not wrong, f"/{PREFIX[lang]}{page}: Chinese text:\n" + "\n".join(wrong)


@pytest.mark.parametrize("page", ALL_PAGES)
def test_no_spanish_paragraph_in_chinese(site: BuiltSite, page: str) -> None:
    wrong = [t for t in _prose(article_of(site.page("zh", page))) if is_spanish_paragraph(t)]
    assert not wrong, f"/zh/{page}: Spanish text:\n" + "\n".join(wrong)


# ---------------------------------------------------------------------------
# Page weight: the search index per language, widgets and figure rows out of
# it, the calculator's assets only where a calculator is
# ---------------------------------------------------------------------------

def _index(site: BuiltSite, name: str) -> dict[str, object]:
    return json.loads((site.root / "search" / name).read_text(encoding="utf-8"))


def _docs(site: BuiltSite, lang: str) -> list[dict[str, str]]:
    docs = _index(site, f"search_index.{lang}.json")["docs"]
    assert isinstance(docs, list)
    return docs


def test_search_index_is_split_per_language(site: BuiltSite) -> None:
    # Material fetches search/search_index.json on every page: configuration only, no sections.
    merged = _index(site, "search_index.json")
    assert merged["docs"] == []
    config = merged["config"]
    assert isinstance(config, dict) and sorted(config["lang"]) == sorted(LANGS)
    for lang in LANGS:
        docs = _docs(site, lang)
        locations = [doc["location"] for doc in docs]
        assert locations, lang
        assert all((loc.startswith(PREFIX[lang]) if lang != "es" else not loc.startswith(("zh/", "en/")))
                   for loc in locations), (lang, locations)
        # every page of the language is searchable, by its title at least
        for page in (*PAGES, "validation.md"):
            stem = page.removesuffix(".md")
            url = PREFIX[lang] + ("" if stem == "index" else f"{stem}/")
            assert url in locations, (lang, url)
        # the file is UTF-8, not \\u-escaped
        raw = (site.root / "search" / f"search_index.{lang}.json").read_bytes()
        assert b"\\u00" not in raw and b"\\u4" not in raw, lang


@pytest.mark.parametrize("lang", LANGS)
def test_calculator_widgets_stay_out_of_search(site: BuiltSite, lang: str) -> None:
    # data-search-exclude on a widget held only until the first nested </div> with Material's own parser;
    # the GPU list of the form, its sample log and the result templates must not be page text in search.
    text = "\n".join(doc["text"] for doc in _docs(site, lang))
    for widget_text in ("RTX 3090 · 23.58 GiB", "entrypoints/utils.py", "fp8_e4m3fp8_e5m2"):
        assert widget_text not in text, (lang, widget_text)
    # the prose around the widgets stays
    sections = {doc["location"].removeprefix(PREFIX[lang]): doc for doc in _docs(site, lang)}
    assert "<code>--kv-cache-dtype</code>" in sections["#fp8-kv-cache"]["text"]
    assert "Available KV cache memory" in sections["read-your-log/#paste-your-log"]["text"]


@pytest.mark.parametrize("lang", LANGS)
def test_validation_rows_stay_out_of_search_with_their_headings(site: BuiltSite, lang: str) -> None:
    from kvcalc.budget.validation import validation_rows

    sections = {doc["location"].removeprefix(PREFIX[lang]): doc for doc in _docs(site, lang)}
    for split, anchor in (("validation", "validation-half"), ("fit", "fit-half")):
        section = sections[f"validation/#{anchor}"]
        assert section["title"], anchor   # the heading is searchable
        for row in validation_rows(split):
            assert row.file not in section["text"], (anchor, row.file)
    # the rows are still on the page
    html = site.page_path(lang, "validation.md").read_text(encoding="utf-8")
    assert all(row.file in html for row in validation_rows("validation"))


def test_calculator_assets_only_on_pages_with_a_calculator(site: BuiltSite) -> None:
    for path in _html_files(site):
        html = path.read_text(encoding="utf-8")
        has_calculator = 'data-kvcalc-component="calculator"' in html
        loads = ("javascripts/kvcalc.js" in html, "stylesheets/kvcalc.css" in html)
        assert loads == (has_calculator, has_calculator), path.relative_to(site.root)
    # pages of both kinds exist
    assert "javascripts/kvcalc.js" in site.page_path("en", "calculator.md").read_text(encoding="utf-8")
    assert "javascripts/kvcalc.js" not in site.page_path("en", "references.md").read_text(encoding="utf-8")


def test_runtime_download_starts_in_the_head_of_the_calculator_pages_only(site: BuiltSite) -> None:
    calculator_pages = {site.page_path(lang, "calculator.md") for lang in LANGS}
    for path in _html_files(site):
        html = path.read_text(encoding="utf-8")
        head = html[: html.find("</head>")]
        starts = "window.__kvcalcWasm=" in head
        assert starts == (path in calculator_pages), path.relative_to(site.root)
        if starts:   # first thing in <head>, before any style sheet or script
            assert head.index("__kvcalcWasm") < min(head.index('rel="stylesheet"'), head.index("<script src="))
            assert "/assets/pyodide/pyodide.asm.wasm" in head or "assets/pyodide/pyodide.asm.wasm" in head
