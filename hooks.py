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
from typing import Any

from kvguide_macros.strings import t

__all__ = ["on_post_page", "on_post_template"]

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


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Remove hreflang alternates and localize permalink labels."""
    lang = str(config["theme"]["language"])
    return _localize_permalinks(_ALTERNATE.sub("", output), lang)


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    """Remove hreflang alternates from static templates (``404.html``)."""
    return _ALTERNATE.sub("", output_content)
