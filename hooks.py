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
"""

from __future__ import annotations

import re
from html import escape as html_escape
from typing import Any
from urllib.parse import urlsplit

from kvguide_macros.strings import t

__all__ = ["on_post_page", "on_post_template", "relative_language_links", "add_navigation_script"]

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
# Navigation between languages (issue 10): relative switcher links, and the
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


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Remove hreflang alternates, localize permalink labels, make language links relative,
    name the search dialog."""
    lang = str(config["theme"]["language"])
    output = name_search_dialog(_localize_permalinks(_ALTERNATE.sub("", output), lang), lang)
    return _navigation(output, page, config)


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    """Remove hreflang alternates from static templates (``404.html``)."""
    return _ALTERNATE.sub("", output_content)
