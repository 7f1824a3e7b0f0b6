"""Which guide page holds which section, and the one place section URLs are written.

The core names a section by its id only (a recommendation's ``anchor``, the
same in every language). The map from id to page is read from the pages
themselves, from the ``{ #id }`` marks of their Markdown, every time a
calculator is rendered, so it cannot drift from the guide.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

__all__ = ["page_href", "section_links", "section_pages"]

#: An attr_list block (``{ #id }``, ``{#id .class}``, ``{: #id key=value }``); its ``#id`` tokens.
_ATTR_LIST = re.compile(r"\{:?[ \t]*((?:[#.][\w-]+|[\w-]+=\S+)(?:[ \t]+(?:[#.][\w-]+|[\w-]+=\S+))*)[ \t]*\}")
_ID = re.compile(r"(?:^|[ \t])#([\w-]+)")
_FENCE = re.compile(r"^[ \t]*(```|~~~)")


def _ids(markdown: str) -> list[str]:
    """The ids a page's Markdown gives its sections, outside fenced code."""
    ids: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines():
        opened = _FENCE.match(line)
        if opened:
            fence = None if fence == opened.group(1) else fence or opened.group(1)
            continue
        if fence is None:
            for block in _ATTR_LIST.findall(line):
                ids += _ID.findall(block)
    return ids


def section_pages(lang_dir: Path) -> dict[str, str]:
    """``{section id: page}`` for the Markdown pages under ``lang_dir`` (``docs/<lang>/``).

    The page is the file's path without ``.md`` (``index``, ``read-your-log``).
    An id found on more than one page (``top``) names no single section and is left out.
    """
    seen: dict[str, set[str]] = {}
    for path in sorted(lang_dir.rglob("*.md")):
        page = path.relative_to(lang_dir).with_suffix("").as_posix()
        for section in _ids(path.read_text(encoding="utf-8")):
            seen.setdefault(section, set()).add(page)
    return {section: pages.pop() for section, pages in seen.items() if len(pages) == 1}


def page_href(page_url: str, lang: str, page: str) -> str:
    """Relative URL from the page at ``page_url`` to the guide page ``page`` of the same language.

    ``page_url`` is MkDocs' ``page.url``: ``""`` or ``zh/`` for an article,
    ``zh/calculator/`` with directory URLs, ``zh/calculator.html`` without.
    The default language lives at the site root, the others under ``<lang>/``.
    The page itself is ``""``, so its sections link as ``#id``.
    """
    parts = [p for p in page_url.split("/") if p]
    html_urls = bool(parts) and parts[-1].endswith(".html")
    here_dir, here_file = (parts[:-1], parts[-1]) if html_urls else (parts, "")
    root = parts[:1] if parts and parts[0] == lang else []
    segments = [] if page == "index" and not html_urls else page.split("/")
    if html_urls:
        target_dir, target_file = root + segments[:-1], segments[-1] + ".html"
    else:
        target_dir, target_file = root + segments, ""
    if (target_dir, target_file) == (here_dir, here_file):
        return ""
    rel = posixpath.relpath("/" + "/".join(target_dir), "/" + "/".join(here_dir))
    return ("" if rel == "." else rel + "/") + target_file or "./"


def section_links(page_url: str, lang: str, sections: dict[str, str]) -> dict[str, dict[str, str]]:
    """``{id: {"page": page, "href": URL of the section from this page}}`` for every section."""
    return {section: {"page": page, "href": f"{page_href(page_url, lang, page)}#{section}"}
            for section, page in sorted(sections.items())}
