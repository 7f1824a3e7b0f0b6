"""The calculator's result markup, written once, and the build-time filler.

Every region of the result (the verdict, the figures, the charts, vLLM's
lines, the ``vllm serve`` command, the recommendations, the feasible table,
the notes, the log's diagnosis) is a template here. The widget puts them on
the page as ``<template data-kvcalc-template="…">`` elements; the page script
(``docs/javascripts/kvcalc.js``, ``fillTemplate``) clones and fills them
from the core's report in the browser, and :func:`fill` fills the very same
templates at build time for the preset shown before Pyodide is ready. Both
follow the rules below, so for the same report the pre-rendered region and
the live one are the same markup (tests/test_template_fillers.py runs both
fillers on the same fixtures, the page script's under Node;
tests/browser/test_calculator.py compares the page's regions byte for byte).

The fill rules (a template's root is one element; ``ctx`` starts as the value
a region shows, ``report.verdict`` for the verdict, and so on):

* ``data-slot-attr="ATTR=PATH …"``: set each attribute to the value at
  ``PATH``; ``ATTR=PATH@TABLE.FIELD`` looks that value up in one of the
  widget's tables (``sections``: a section id's page and URL); ``ATTR=!PATH``
  sets a boolean attribute when the value is absent. An attribute already in
  the template keeps its place; ``null``/``false`` remove it.
* ``data-slot-if="PATH"``: the element is removed when the value is absent
  (``null``, ``false``, ``""`` or ``[]``).
* ``data-slot="PATH"``: the element's text becomes the value (a list: its
  items, one per line); nothing below it is filled.
* ``data-slot-svg="PATH"``: the element holds the core's chart SVG, with
  nothing active in it (no script, no foreignObject, no ``on*`` attribute).
* ``data-slot-each="PATH:TEMPLATE"``: the element's children become one
  filled copy of ``TEMPLATE`` per item of the list, the item as ``ctx``.
* anything else: the children are filled with the same ``ctx``.

``PATH`` is ``.`` (``ctx`` itself) or dotted keys. Every ``data-slot*``
attribute is removed once its element is filled. Text and attribute values
are strings or integers; anything else fails the build, where JavaScript
and Python would print it differently.
"""

from __future__ import annotations

import copy
import html
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from typing import Any

from .strings import t

__all__ = ["REGIONS", "fill", "region", "template_elements"]

SVG_NS = "http://www.w3.org/2000/svg"

#: The result's regions in page order: (template name, what it shows in the
#: core's response). Each template's root has ``data-kvcalc-out="<name>"``.
REGIONS: tuple[tuple[str, str], ...] = (
    ("verdict", "report.verdict"),
    ("diagnosis", "reading.title"),
    ("figures", "report.figures"),
    ("budget-chart", "report.charts.budget_svg"),
    ("concurrency-chart", "report.charts.concurrency_svg"),
    ("vllm-lines", "report.vllm_lines"),
    ("serve-label", "report.serve_command_label"),
    ("serve-command", "report.serve_command"),
    ("recommendations", "report.recommendations"),
    ("feasible", "report.feasible"),
    ("notes", "report.notes"),
    ("ask", "ask"),
    ("log-lines", "log_lines"),
)


def copy_button(label: Callable[[str], str], what: str = "copy_command") -> str:
    """The copy button beside every command (its handler copies the ``<pre>`` next to it),
    named after what it copies (``what``: the ``widget.<what>`` string, its ``aria-label``)."""
    return (f'<button type="button" class="kvcalc-button" data-kvcalc-action="copy"'
            f' aria-label="{label(what)}" data-kvcalc-copied="{label("copied")}">{label("copy")}</button>')


def _templates(label: Callable[[str], str]) -> dict[str, str]:
    """Every template's markup; ``label(key)`` is the escaped ``widget.<key>`` string.

    The ``<pre>`` blocks hold their text directly, not in a ``<code>``: Material
    gives every ``pre > code`` of the page its own copy button and an id when the
    page loads, which would touch the preset but not a live result (each command
    has its copy button here).
    """
    return {
        # regions
        "diagnosis": '<p class="kvcalc-diagnosis" data-kvcalc-out="diagnosis" hidden'
                     ' data-slot-attr="hidden=!." data-slot="."></p>',
        "verdict": '<div class="kvcalc-verdict" data-kvcalc-out="verdict" data-kvcalc-kind=""'
                   ' data-slot-attr="data-kvcalc-kind=kind">'
                   '<strong data-kvcalc-out="verdict-title" data-slot="title"></strong> '
                   '<span data-kvcalc-out="verdict-summary" data-slot="summary"></span></div>',
        "figures": '<dl class="kvcalc-figures" data-kvcalc-out="figures" data-slot-each=".:figure"></dl>',
        "budget-chart": '<div data-kvcalc-out="budget-chart" data-slot-svg="."></div>',
        "concurrency-chart": '<div data-kvcalc-out="concurrency-chart" data-slot-svg="."></div>',
        "vllm-lines": '<pre class="kvcalc-lines" data-kvcalc-out="vllm-lines" data-slot="."></pre>',
        "serve-label": '<h4 class="kvcalc-subhead" data-kvcalc-out="serve-label" hidden'
                       ' data-slot-attr="hidden=!." data-slot="."></h4>',
        "serve-command": '<pre class="kvcalc-command" data-kvcalc-out="serve-command" data-slot="."></pre>',
        "recommendations": '<ol class="kvcalc-recs" data-kvcalc-out="recommendations" data-slot-each=".:rec"></ol>',
        "feasible": '<table class="kvcalc-feasible" data-kvcalc-out="feasible"><caption data-slot="caption"></caption>'
                    '<thead><tr data-slot-each="columns:feasible-column"></tr></thead>'
                    '<tbody data-slot-each="rows:feasible-row"></tbody></table>',
        "notes": '<ul class="kvcalc-notes" data-kvcalc-out="notes" data-slot-each=".:note"></ul>',
        # a log that leaves out the model or the GPU: the one line that asks for it
        "ask": '<p class="kvcalc-ask" data-kvcalc-out="ask" hidden data-slot-attr="hidden=!." data-slot="."></p>',
        # the log's own lines, as vLLM printed them (never the recomputation's)
        "log-lines": '<div class="kvcalc-log-lines" data-kvcalc-out="log-lines" hidden data-slot-attr="hidden=!.">'
                     f'<h4 class="kvcalc-subhead">{label("log_lines")}</h4>'
                     '<pre class="kvcalc-lines" data-slot="."></pre></div>',
        # items of the lists above
        "figure": '<div class="kvcalc-figure" data-kvcalc-figure="" data-slot-attr="data-kvcalc-figure=key">'
                  '<dt data-slot="label"></dt><dd><span data-slot="value"></span>'
                  f'<span class="kvcalc-estimate" data-slot-if="estimate">{label("estimate")}</span></dd></div>',
        "rec": '<li class="kvcalc-rec" data-kvcalc-rec="" data-slot-attr="data-kvcalc-rec=code">'
               '<a href="" data-kvcalc-page=""'
               ' data-slot-attr="href=anchor@sections.href data-kvcalc-page=anchor@sections.page"'
               ' data-slot="title"></a><p data-slot="detail"></p>'
               '<ul class="kvcalc-rec-figures" data-slot-each="figures:rec-figure"></ul>'
               '<div class="kvcalc-copyable" data-slot-if="serve_command">'
               '<pre class="kvcalc-command" data-kvcalc-out="rec-command" data-slot="serve_command"></pre>'
               f'{copy_button(label, "copy_rec_command")}</div></li>',
        "rec-figure": '<li><span data-slot="label"></span> <strong data-slot="value"></strong></li>',
        "feasible-column": '<th scope="col" data-slot="."></th>',
        "feasible-row": '<tr data-slot-each=".:feasible-cell"></tr>',
        "feasible-cell": '<td data-slot="."></td>',
        "note": '<li data-slot="."></li>',
    }


def _label(lang: str) -> Callable[[str], str]:
    return lambda key: html.escape(t(lang, "widget." + key), quote=True)


def template_elements(lang: str) -> str:
    """The ``<template>`` elements the page script fills (regions name their source)."""
    sources = dict(REGIONS)
    out = []
    for name, markup in _templates(_label(lang)).items():
        source = f' data-kvcalc-source="{sources[name]}"' if name in sources else ""
        out.append(f'<template data-kvcalc-template="{name}"{source}>{markup}</template>')
    return "".join(out)


# ---------------------------------------------------------------------------
# A small DOM: just enough to fill a template the way the browser does
# ---------------------------------------------------------------------------

_VOID = frozenset(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"])
_DROPS_LEADING_NEWLINE = frozenset(("pre", "textarea", "listing"))


@dataclass(eq=False)
class _Element:
    tag: str
    attrs: list[list[str]]
    """``[name, value]`` pairs in document order (a DOM keeps an attribute's place when it is set again)."""
    children: list[_Element | str | _Markup] = field(default_factory=list)

    def get(self, name: str) -> str | None:
        return next((value for key, value in self.attrs if key == name), None)

    def set(self, name: str, value: str) -> None:
        for pair in self.attrs:
            if pair[0] == name:
                pair[1] = value
                return
        self.attrs.append([name, value])

    def remove(self, name: str) -> None:
        self.attrs = [pair for pair in self.attrs if pair[0] != name]

    def html(self) -> str:
        attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in self.attrs)
        if self.tag in _VOID:
            return f"<{self.tag}{attrs}>"
        inner = "".join(c.html() if isinstance(c, (_Element, _Markup)) else html.escape(c, quote=False)
                        for c in self.children)
        if self.tag in _DROPS_LEADING_NEWLINE and inner.startswith("\n"):
            inner = "\n" + inner  # the HTML parser drops the first newline of a <pre>: keep the text's own
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"


@dataclass(frozen=True)
class _Markup:
    """Checked SVG markup, placed as it is."""

    text: str

    def html(self) -> str:
        return self.text


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = _Element("#root", [])
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = _Element(tag, [[k, v or ""] for k, v in attrs])
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if self.stack[-1].tag != tag:
            raise ValueError(f"template markup: </{tag}> closes <{self.stack[-1].tag}>")
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


@lru_cache(maxsize=8)
def _parsed(lang: str) -> dict[str, _Element]:
    out = {}
    for name, markup in _templates(_label(lang)).items():
        parser = _Parser()
        parser.feed(markup)
        parser.close()
        (root,) = parser.root.children
        assert isinstance(root, _Element), name
        out[name] = root
    return out


# ---------------------------------------------------------------------------
# The fill rules (kvcalc.js `fillTemplate` is the same, line for line)
# ---------------------------------------------------------------------------


def _get(ctx: Any, path: str) -> Any:
    if path == ".":
        return ctx
    for key in path.split("."):
        if not isinstance(ctx, Mapping):
            return None
        ctx = ctx.get(key)
    return ctx


def _present(value: Any) -> bool:
    return not (value is None or value is False or value == "" or value == [])


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "\n".join(_text(item) for item in value)
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return str(value)
    raise TypeError(f"a template slot takes text or an integer, got {value!r}")


def _checked_svg(markup: Any) -> _Markup | None:
    """The core's SVG when it is exactly what the page script would insert; else the build fails."""
    if not markup:
        return None
    root = ET.fromstring(markup)
    if root.tag != f"{{{SVG_NS}}}svg":
        raise ValueError(f"chart is not an SVG element: {root.tag}")
    for node in root.iter():
        if node.tag in (f"{{{SVG_NS}}}script", f"{{{SVG_NS}}}foreignObject"):
            raise ValueError(f"chart SVG holds a {node.tag}")
        for name, value in node.attrib.items():
            if name.lower().startswith("on") or value.strip().lower().startswith("javascript:"):
                raise ValueError(f"chart SVG has an active attribute {name}={value!r}")
    return _Markup(markup)


class _Filler:
    def __init__(self, templates: Mapping[str, _Element], tables: Mapping[str, Any]) -> None:
        self.templates = templates
        self.tables = tables

    def clone(self, name: str, ctx: Any) -> _Element:
        node = copy.deepcopy(self.templates[name])
        self.bind(node, ctx)
        return node

    def lookup(self, value: Any, where: str) -> Any:
        table, _, key = where.partition(".")
        entry = self.tables[table].get(value)
        if entry is None:
            raise KeyError(f"{value!r} is in no entry of the widget's {table!r} table "
                           f"(a recommendation's section id that no guide page holds?)")
        return entry[key]

    def bind(self, node: _Element, ctx: Any) -> bool:
        """Fill ``node``; False when it is to be removed."""
        for binding in (node.get("data-slot-attr") or "").split():
            attr, _, source = binding.partition("=")
            path, _, where = source.partition("@")
            if path.startswith("!"):
                value: Any = not _present(_get(ctx, path[1:]))
            else:
                value = _get(ctx, path)
                if where:
                    value = self.lookup(value, where)
            if value is None or value is False:
                node.remove(attr)
            else:
                node.set(attr, "" if value is True else _text(value))
        if_path = node.get("data-slot-if")
        if if_path is not None and not _present(_get(ctx, if_path)):
            return False
        slot, svg, each = node.get("data-slot"), node.get("data-slot-svg"), node.get("data-slot-each")
        if slot is not None:
            text = _text(_get(ctx, slot))
            node.children = [text] if text else []
        elif svg is not None:
            chart = _checked_svg(_get(ctx, svg))
            node.children = [chart] if chart else []
        elif each is not None:
            path, _, template = each.partition(":")
            node.children = [self.clone(template, item) for item in _get(ctx, path) or []]
        else:
            node.children = [c for c in node.children if not isinstance(c, _Element) or self.bind(c, ctx)]
        for name in ("data-slot", "data-slot-attr", "data-slot-if", "data-slot-svg", "data-slot-each"):
            node.remove(name)
        return True


def fill(lang: str, name: str, ctx: Any, tables: Mapping[str, Any]) -> str:
    """Template ``name`` filled with ``ctx``, as HTML."""
    return _Filler(_parsed(lang), tables).clone(name, ctx).html()


def region(lang: str, name: str, response: Mapping[str, Any], tables: Mapping[str, Any]) -> str:
    """Region ``name`` of the result, filled from the core's response (``web.compute``)."""
    return fill(lang, name, _get(response, dict(REGIONS)[name]), tables)
