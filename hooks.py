"""MkDocs hooks for kvguide (mkdocs.yml: ``hooks: [hooks.py]``).

Two post-processing steps on every rendered page, in every language pass of
mkdocs-static-i18n (it re-runs the whole build per language, so
``config["theme"]["language"]`` is ``es``, ``zh`` or ``en`` here):

* strip ``<link rel="alternate" href=… hreflang=…>`` from ``<head>`` (pages and
  the 404 template, which otherwise carries the last page's alternates): Material's
  JavaScript fetches ``<alternate>/sitemap.xml`` for each of them, which 404s on
  every page load and fills the console with errors. The header's language
  switcher uses ``<a hreflang>`` and keeps working.
* localize the heading permalinks: the toc extension gives every ``¶`` the same
  English title; here it gets a label in the page's language and the text that
  ``javascripts/permalink.js`` shows once it has copied the section's URL
  (``permalink.*`` in the site's strings, ``kvguide_macros/strings.py``).

And two steps for search (``kvguide_macros/search_index.py``): elements marked
``data-search-exclude`` (the calculator widgets, the validation page's rows) stay
out of the index, and after the last language pass the merged index is split into
one file per language, which ``javascripts/navigation.js`` loads when the reader
first uses search.
"""

from __future__ import annotations

import re
from html import escape as html_escape
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mkdocs.plugins import event_priority

from kvguide_macros import search_index
from kvguide_macros.strings import t

__all__ = ["label_table_cells", "on_config", "on_post_build", "on_post_page", "on_post_template", "relative_language_links",
           "add_navigation_script", "drop_unused_calculator_assets", "start_runtime_download"]

_ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*"\s*/?>')

# The toc extension's default permalink_title, as it appears in the HTML.
_HEADERLINK = re.compile(r'<a class="headerlink" href="(#[^"]*)" title="Permanent link">')


def _localize_permalinks(html: str, lang: str) -> str:
    title, copied = t(lang, "permalink.title"), t(lang, "permalink.copied")

    def replace(match: re.Match[str]) -> str:
        return (
            f'<a class="headerlink" href="{match.group(1)}" title="{title}" '
            f'aria-label="{title}" data-copied="{copied}">'
        )

    return _HEADERLINK.sub(replace, html)


# ---------------------------------------------------------------------------
# Navigation between languages: relative switcher links, and the
# script that keeps ?query and #section on a language switch and ranks the
# reader's language first in search (docs/javascripts/navigation.js).
# ---------------------------------------------------------------------------

# An <a> of the language switcher: mkdocs-static-i18n writes the home pages'
# links root-absolute ("/zh/"), which 404s when the site lives under a sub-path.
_SWITCHER_LINK = re.compile(r'<a href="(/[^"]*)"(?=[^>]*\shreflang=")')

#: The navigation script, relative to the site root (a copy of docs/javascripts/).
NAVIGATION_SCRIPT = "javascripts/navigation.js"


def _root_prefix(page_url: str) -> str:
    """Relative path from a page (MkDocs ``page.url``, e.g. ``en/faq/``) to the site root."""
    depth = len([part for part in page_url.split("/") if part])
    return "../" * depth


def _site_path(config: Any) -> str:
    site_url = str(config.get("site_url") or "/")
    return "/" + urlsplit(site_url).path.strip("/") + "/" if urlsplit(site_url).path.strip("/") else "/"


def relative_language_links(html: str, page_url: str, site_path: str = "/") -> str:
    """Rewrite root-absolute ``<a href="/…" hreflang>`` links as links relative to the page."""
    prefix = _root_prefix(page_url)

    def replace(match: re.Match[str]) -> str:
        href = match.group(1)
        if href.startswith(site_path):
            href = href[len(site_path):]
        else:
            href = href.lstrip("/")
        return f'<a href="{prefix + href or "./"}"'

    return _SWITCHER_LINK.sub(replace, html)


def add_navigation_script(html: str, page_url: str) -> str:
    """Load the navigation script in ``<head>``: it must run before Material's bundle creates the search worker."""
    tag = f'<script src="{_root_prefix(page_url)}{NAVIGATION_SCRIPT}"></script>'
    if tag in html or "</head>" not in html:
        return html
    return html.replace("</head>", f"  {tag}\n  </head>", 1)


def _navigation(output: str, page: Any, config: Any) -> str:
    page_url = str(getattr(page, "url", "") or "")
    return add_navigation_script(relative_language_links(output, page_url, _site_path(config)), page_url)


_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'


def name_search_dialog(html: str, lang: str) -> str:
    """Give Material's search dialog an accessible name (axe: aria-dialog-name)."""
    return html.replace(_SEARCH_DIALOG, _SEARCH_DIALOG[:-1] + f' aria-label="{html_escape(t(lang, "search.dialog"))}">', 1)


# The calculator's page script and styles (mkdocs.yml's extra_javascript / extra_css, on every page).
_CALCULATOR_ASSETS = re.compile(
    r'\s*<script src="[^"]*javascripts/kvcalc\.js" type="module"></script>'
    r'|\s*<link rel="stylesheet" href="[^"]*stylesheets/kvcalc\.css">'
)
#: What marks a calculator (a widget or a guide page's preset card) in a page's HTML.
CALCULATOR_MARK = 'data-kvcalc-component="calculator"'


def drop_unused_calculator_assets(html: str) -> str:
    """Without a calculator on the page, do not load the calculator's script and styles (41 kB)."""
    if CALCULATOR_MARK in html:
        return html
    return _CALCULATOR_ASSETS.sub("", html)


#: The calculator page's widget (in view at once) carries this; see start_runtime_download.
EAGER_MARK = "data-kvcalc-eager"

#: Runs in <head>, before the styles: starts the download of the runtime's wasm as the HTML
#: arrives (the page script, docs/javascripts/kvcalc.js, takes this response; same choice as
#: its wasmDownload: the gzip copy unless this reader's last download was fast).
_WASM_EARLY = (
    '<script>(()=>{{try{{let f=false;try{{f=localStorage.getItem("kvcalc-link")==="fast"}}catch(e){{}}'
    'const u=new URL("{assets}pyodide/pyodide.asm.wasm"+(f?"":".gz"),location.href).href;'
    'window.__kvcalcWasm={{url:u,gz:!f,started:performance.now(),response:fetch(u)}}}}catch(e){{}}}})()</script>'
)


def start_runtime_download(html: str, page_url: str) -> str:
    """On a page whose calculator starts at once, start the wasm's download first thing in <head>."""
    if EAGER_MARK not in html or "__kvcalcWasm=" in html:
        return html
    script = _WASM_EARLY.format(assets=_root_prefix(page_url) + "assets/")
    return html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n    ' + script, 1)


_TABLE = re.compile(r"<table>\n<thead>\n<tr>\n(.*?)</tr>\n</thead>\n<tbody>\n(.*?)</tbody>\n</table>", re.S)
_TH = re.compile(r"<th(?: [^>]*)?>(.*?)</th>", re.S)
_TD = re.compile(r"<td(?=[ >])")
_TAG = re.compile(r"<[^>]+>")


def label_table_cells(html: str) -> str:
    """Give each cell of a Markdown table its column's header as ``data-label``, so that on a phone
    (docs/stylesheets/site.css) a table's rows can stack as cards that still name each figure."""
    def one(m: re.Match[str]) -> str:
        heads = [html_escape(_TAG.sub("", h).strip(), quote=True) for h in _TH.findall(m.group(1))]
        if len(heads) < 2:
            return m.group(0)

        def row(r: str) -> str:
            cells = iter(heads)
            return _TD.sub(lambda _: f'<td data-label="{next(cells, "")}"', r)
        body = "".join(row(r) for r in re.split(r"(?<=</tr>\n)", m.group(2)))
        return m.group(0).replace(m.group(2), body, 1).replace("<table>", '<table data-kv-stack>', 1)
    return _TABLE.sub(one, html)


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Remove hreflang alternates, localize permalink labels, make language links relative,
    name the search dialog, leave out the calculator's assets where there is no calculator."""
    lang = str(config["theme"]["language"])
    output = name_search_dialog(_localize_permalinks(_ALTERNATE.sub("", output), lang), lang)
    output = drop_unused_calculator_assets(_navigation(label_table_cells(output), page, config))
    return start_runtime_download(output, str(getattr(page, "url", "") or ""))


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    """Remove hreflang alternates from static templates (``404.html``) and the calculator's assets;
    the 404 page loads the navigation script too (its search needs it for the index), by a
    root-absolute path like the page's other assets (it is served at any depth)."""
    output = drop_unused_calculator_assets(_ALTERNATE.sub("", output_content))
    if template_name == "404.html" and "</head>" in output and NAVIGATION_SCRIPT not in output:
        tag = f'<script src="{_site_path(config)}{NAVIGATION_SCRIPT}"></script>'
        output = output.replace("</head>", f"  {tag}\n  </head>", 1)
    return output


def on_config(config: Any) -> Any:
    """Keep ``data-search-exclude`` elements out of Material's search index (see search_index.py)."""
    search_index.install()
    return config


@event_priority(-200)   # after mkdocs-static-i18n (-100) has built every language and merged the index
def on_post_build(config: Any) -> None:
    """Split the merged search index into one file per language, once the last language is built."""
    i18n = config.plugins.get("i18n")
    if i18n is not None and getattr(i18n, "building", False):
        return   # an inner language pass: the merged index is written after it
    search_dir = Path(config["site_dir"]) / "search"
    if (search_dir / "search_index.json").is_file():
        search_index.split(search_dir)
