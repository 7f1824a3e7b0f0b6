"""The calculator widget, rendered at build time by the ``calculator`` macro.

Why at build time: the page must be readable (and the preset's verdict,
figures and vLLM lines visible) before Pyodide has loaded, and where
JavaScript never runs. The browser script (``docs/javascripts/kvcalc.js``)
later re-renders the same regions from the same core's report, so the HTML
structure here and the DOM code there must stay in step: every region is
found by a ``data-kvcalc-*`` attribute, never by an id.

Every value placed in the HTML is escaped with ``html.escape``; only the
chart SVG strings, which the core generates with every text node escaped,
are inserted as markup.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from kvcalc.inputs import INPUT_KEYS

__all__ = ["INPUT_NAMES", "WIDGET_STRING_KEYS", "calculator", "root_prefix"]

#: The query-string / form names the widget offers: the core's inputs (issue 4's contract),
#: less the byte-exact ``available_kv_bytes`` (the form takes GiB), ``no_async_scheduling`` and
#: the Mamba-hybrid cache settings (no form fields yet; the CLI and the URL take them).
INPUT_NAMES: tuple[str, ...] = tuple(
    k for k in INPUT_KEYS if k not in ("available_kv_bytes", "no_async_scheduling", "enable_prefix_caching",
                                       "mamba_cache_mode", "mamba_ssm_cache_dtype")
)

#: KV cache dtypes offered in the select; "" is vLLM's default (``auto``).
KV_CACHE_DTYPES: tuple[str, ...] = ("", "bfloat16", "float16", "float32", "fp8", "fp8_e4m3", "fp8_e5m2")

#: The scenario the standalone calculator opens with when a preset names no model.
DEFAULT_SCENARIO: Mapping[str, str] = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"}

#: Labels this widget takes from ``kvcalc.tables.ui_strings(lang)``.
WIDGET_STRING_KEYS: tuple[str, ...] = tuple(
    "widget." + key for key in (
        "title deployment results model model_placeholder config config_hint gpu gpu_custom "
        "gpu_memory_gib tensor_parallel_size pipeline_parallel_size max_model_len "
        "max_model_len_hint max_num_seqs max_num_batched_tokens kv_cache_dtype "
        "gpu_memory_utilization advanced block_size vllm_version measured available_kv_gib "
        "weights_gib activation_gib non_torch_gib cudagraph_gib kv_cache_memory_bytes "
        "num_gpu_blocks_override enforce_eager disable_hybrid_kv_cache_manager log log_hint "
        "default loading ready load_failed copy copied copy_link vllm_lines recommendations "
        "serve_current feasible budget_chart concurrency_chart notes diagnosis estimate"
    ).split()
)

_PRESET_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def root_prefix(page_url: str | None) -> str:
    """Relative path from a page to the site root (``zh/calculator/`` -> ``../../``).

    ``page_url`` is MkDocs' ``page.url`` (``""`` for the home page). With
    directory URLs every segment is a directory; with ``.html`` URLs the last
    segment is the file and does not count.
    """
    if page_url is None:
        return "../"
    parts = [p for p in page_url.split("/") if p]
    if parts and parts[-1].endswith(".html"):
        parts = parts[:-1]
    return "../" * len(parts)


def _guide_href(page_url: str | None, lang: str) -> str:
    """Relative URL of the language's article page (``index.md``) from this page."""
    if page_url is None:
        return "../"
    parts = [p for p in page_url.split("/") if p]
    html_urls = bool(parts) and parts[-1].endswith(".html")
    if html_urls:
        parts = parts[:-1]
    depth_in_lang = len(parts) - (1 if parts and parts[0] == lang else 0)
    return ("../" * depth_in_lang or "./") + ("index.html" if html_urls else "")


def _form_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else ""
    if value is None:
        return ""
    return str(value)


class _Strings:
    """Label lookup that fails the build on a missing key (no silent English)."""

    def __init__(self, table: Mapping[str, str], lang: str) -> None:
        missing = [k for k in WIDGET_STRING_KEYS if k not in table]
        if missing:
            raise KeyError(f"kvcalc.tables.ui_strings({lang!r}) lacks {', '.join(missing)}")
        self._table = table

    def __call__(self, key: str) -> str:
        return _e(self._table["widget." + key])


def _field(s: _Strings, uid: str, name: str, control: str, *, hint: str | None = None) -> str:
    hint_html = f'<small class="kvcalc-hint">{hint}</small>' if hint else ""
    return (
        f'<div class="kvcalc-field" data-kvcalc-field="{name}">'
        f'<label for="{uid}-{name}">{s(name)}</label>{control}{hint_html}'
        f'<p class="kvcalc-error" data-kvcalc-error-for="{name}" role="alert" hidden></p></div>'
    )


def _text(uid: str, name: str, value: str, *, placeholder: str = "", list_id: str = "",
          mode: str = "text", extra: str = "") -> str:
    list_attr = f' list="{list_id}"' if list_id else ""
    return (
        f'<input type="text" id="{uid}-{name}" name="{name}" value="{_e(value)}"'
        f' placeholder="{placeholder}" inputmode="{mode}" autocomplete="off"'
        f' spellcheck="false"{list_attr}{extra}>'
    )


def _checkbox(s: _Strings, uid: str, name: str, value: str) -> str:
    checked = " checked" if value else ""
    return (
        f'<div class="kvcalc-field kvcalc-check" data-kvcalc-field="{name}">'
        f'<label><input type="checkbox" id="{uid}-{name}" name="{name}" value="true"{checked}> '
        f'{s(name)}</label>'
        f'<p class="kvcalc-error" data-kvcalc-error-for="{name}" role="alert" hidden></p></div>'
    )


def _form(s: _Strings, uid: str, values: Mapping[str, str], catalog: Mapping[str, Any]) -> str:
    default = s("default")
    models = "".join(f'<option value="{_e(m["id"])}"></option>' for m in catalog["models"])
    gpus = "".join(
        f'<option value="{_e(g["id"])}">{_e(g["name"])} · {_e(g["memory_gib"])} GiB</option>'
        for g in catalog["gpus"]
    )
    dtype = values.get("kv_cache_dtype", "")
    dtypes = "".join(
        f'<option value="{d}"{" selected" if d == dtype or (d == "" and dtype == "auto") else ""}>'
        f'{d or "auto"}</option>'
        for d in KV_CACHE_DTYPES
    )
    num = "numeric"
    dec = "decimal"

    def text(name: str, mode: str = "text", placeholder: str | None = None, **kw: str) -> str:
        return _text(uid, name, values.get(name, ""), mode=mode,
                     placeholder=default if placeholder is None else placeholder, **kw)

    model = _field(s, uid, "model", text("model", placeholder=s("model_placeholder"),
                                         list_id=f"{uid}-models"))
    config = _field(
        s, uid, "config",
        f'<textarea id="{uid}-config" name="config" rows="3" spellcheck="false"'
        f' autocomplete="off">{_e(values.get("config", ""))}</textarea>',
        hint=s("config_hint"),
    )
    gpu = _field(s, uid, "gpu", text("gpu", placeholder=s("gpu_custom"), list_id=f"{uid}-gpus"))
    simple = [
        _field(s, uid, "gpu_memory_gib", text("gpu_memory_gib", dec)),
        _field(s, uid, "tensor_parallel_size", text("tensor_parallel_size", num, "1")),
        _field(s, uid, "pipeline_parallel_size", text("pipeline_parallel_size", num, "1")),
        _field(s, uid, "max_model_len", text("max_model_len"), hint=s("max_model_len_hint")),
        _field(s, uid, "max_num_seqs", text("max_num_seqs", num)),
        _field(s, uid, "max_num_batched_tokens", text("max_num_batched_tokens", num)),
        _field(s, uid, "kv_cache_dtype",
               f'<select id="{uid}-kv_cache_dtype" name="kv_cache_dtype">{dtypes}</select>'),
        _field(s, uid, "gpu_memory_utilization", text("gpu_memory_utilization", dec)),
    ]
    advanced = [
        _field(s, uid, "block_size", text("block_size", num, "16")),
        _field(s, uid, "vllm_version", text("vllm_version")),
        _field(s, uid, "kv_cache_memory_bytes", text("kv_cache_memory_bytes")),
        _field(s, uid, "num_gpu_blocks_override", text("num_gpu_blocks_override", num)),
        _checkbox(s, uid, "enforce_eager", values.get("enforce_eager", "")),
        _checkbox(s, uid, "disable_hybrid_kv_cache_manager",
                  values.get("disable_hybrid_kv_cache_manager", "")),
    ]
    measured = [
        _field(s, uid, name, text(name, dec))
        for name in ("available_kv_gib", "weights_gib", "activation_gib", "non_torch_gib", "cudagraph_gib")
    ]
    has_advanced = any(values.get(n) for n in (
        "block_size", "vllm_version", "kv_cache_memory_bytes", "num_gpu_blocks_override",
        "enforce_eager", "disable_hybrid_kv_cache_manager", "available_kv_gib", "weights_gib",
        "activation_gib", "non_torch_gib", "cudagraph_gib"))
    open_attr = " open" if has_advanced else ""
    return (
        f'<form class="kvcalc-form" data-kvcalc-form autocomplete="off" novalidate>'
        f'<fieldset class="kvcalc-group"><legend>{s("deployment")}</legend>'
        f'{model}{config}{gpu}<div class="kvcalc-grid">{"".join(simple)}</div></fieldset>'
        f'<details class="kvcalc-advanced"{open_attr}><summary>{s("advanced")}</summary>'
        f'<div class="kvcalc-grid">{"".join(advanced)}</div>'
        f'<fieldset class="kvcalc-group"><legend>{s("measured")}</legend>'
        f'<div class="kvcalc-grid">{"".join(measured)}</div></fieldset></details>'
        f'<datalist id="{uid}-models">{models}</datalist><datalist id="{uid}-gpus">{gpus}</datalist>'
        f'<p class="kvcalc-error" data-kvcalc-error-for="" role="alert" hidden></p>'
        f'</form>'
    )


def _copyable(s: _Strings, text: str, kind: str) -> str:
    return (
        f'<div class="kvcalc-copyable"><pre class="kvcalc-command" data-kvcalc-out="{kind}">'
        f'<code>{_e(text)}</code></pre><button type="button" class="kvcalc-button"'
        f' data-kvcalc-action="copy" data-kvcalc-copied="{s("copied")}">{s("copy")}</button></div>'
    )


def _recommendations(s: _Strings, recs: Sequence[Mapping[str, Any]], guide: str) -> str:
    items = []
    for rec in recs:
        figures = "".join(
            f'<li><span>{_e(f["label"])}</span> <strong>{_e(f["value"])}</strong></li>'
            for f in rec.get("figures", [])
        )
        command = _copyable(s, rec["serve_command"], "rec-command") if rec.get("serve_command") else ""
        items.append(
            f'<li class="kvcalc-rec" data-kvcalc-rec="{_e(rec["code"])}">'
            f'<a href="{_e(_page_href(guide, rec.get("page")))}#{_e(rec["anchor"])}" '
            f'data-kvcalc-page="{_e(rec.get("page") or "index")}">{_e(rec["title"])}</a>'
            f'<p>{_e(rec.get("detail", ""))}</p><ul class="kvcalc-rec-figures">{figures}</ul>{command}</li>'
        )
    return "".join(items)


def _page_href(guide: str, page: str | None) -> str:
    """The guide page a recommendation's section lives on, relative to the article's URL."""
    if not page or page == "index":
        return guide
    if guide.endswith("index.html"):  # use_directory_urls: false
        return f"{guide[:-len('index.html')]}{page}.html"
    return f"{guide}{page}/"


def _feasible(table: Mapping[str, Any] | None) -> str:
    if not table:
        return ""
    head = "".join(f'<th scope="col">{_e(c)}</th>' for c in table.get("columns", []))
    rows = "".join(
        "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>"
        for row in table.get("rows", [])
    )
    return (f'<caption>{_e(table.get("caption", ""))}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody>")


def _results(s: _Strings, report: Mapping[str, Any] | None, guide: str, diagnosis: str) -> str:
    r: Mapping[str, Any] = report or {}
    verdict = r.get("verdict") or {}
    kind = _e(verdict.get("kind", ""))
    figures = "".join(
        f'<div class="kvcalc-figure" data-kvcalc-figure="{_e(f["key"])}"><dt>{_e(f["label"])}</dt>'
        f'<dd>{_e(f["value"])}'
        + (f' <span class="kvcalc-estimate">{s("estimate")}</span>' if f.get("estimate") else "")
        + "</dd></div>"
        for f in r.get("figures", [])
    )
    lines = "\n".join(r.get("vllm_lines", []))
    notes = "".join(f"<li>{_e(n)}</li>" for n in r.get("notes", []))
    charts = r.get("charts") or {}
    hidden_diag = "" if diagnosis else " hidden"
    return (
        f'<section class="kvcalc-results" data-kvcalc-results aria-live="polite">'
        f'<p class="kvcalc-diagnosis" data-kvcalc-out="diagnosis"{hidden_diag}>{_e(diagnosis)}</p>'
        f'<div class="kvcalc-verdict" data-kvcalc-out="verdict" data-kvcalc-kind="{kind}">'
        f'<strong data-kvcalc-out="verdict-title">{_e(verdict.get("title", ""))}</strong> '
        f'<span data-kvcalc-out="verdict-summary">{_e(verdict.get("summary", ""))}</span></div>'
        f'<dl class="kvcalc-figures" data-kvcalc-out="figures">{figures}</dl>'
        f'<div class="kvcalc-charts"><figure class="kvcalc-chart"><figcaption>{s("budget_chart")}</figcaption>'
        f'<div data-kvcalc-out="budget-chart">{charts.get("budget_svg", "")}</div></figure>'
        f'<figure class="kvcalc-chart"><figcaption>{s("concurrency_chart")}</figcaption>'
        f'<div data-kvcalc-out="concurrency-chart">{charts.get("concurrency_svg", "")}</div></figure></div>'
        f'<h4 class="kvcalc-subhead">{s("vllm_lines")}</h4>'
        f'<pre class="kvcalc-lines" data-kvcalc-out="vllm-lines"><code>{_e(lines)}</code></pre>'
        f'<h4 class="kvcalc-subhead">{s("serve_current")}</h4>'
        f'{_copyable(s, r.get("serve_command", ""), "serve-command")}'
        f'<h4 class="kvcalc-subhead">{s("recommendations")}</h4>'
        f'<ol class="kvcalc-recs" data-kvcalc-out="recommendations">'
        f'{_recommendations(s, r.get("recommendations", []), guide)}</ol>'
        f'<div class="kvcalc-table-wrap"><table class="kvcalc-feasible" data-kvcalc-out="feasible">'
        f'{_feasible(r.get("feasible"))}</table></div>'
        f'<ul class="kvcalc-notes" data-kvcalc-out="notes">{notes}</ul>'
        f"</section>"
    )


def _json_attr_safe(data: object) -> str:
    """JSON for a ``<script>`` body: ``<``, ``>`` and ``&`` escaped so nothing closes it."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def calculator(lang: str, preset: str | None = None, *, page_url: str | None = None,
               **inputs: object) -> str:
    """Render one calculator, its preset computed by the core at build time.

    ``page_url`` is MkDocs' ``page.url`` (the macros module passes it) so the
    asset and guide links are relative and the site works under any sub-path.
    ``log="sample"`` pre-fills the log box with the core's sample log.
    """
    from kvcalc import tables, web  # imported late: the macros module loads before the core is needed

    preset = preset or "calculator"
    if not _PRESET_RE.match(preset):
        raise ValueError(f"calculator preset must be a kebab-case section id, got {preset!r}")
    log = inputs.pop("log", None)
    unknown = sorted(set(inputs) - set(INPUT_NAMES))
    if unknown:
        raise TypeError(f"calculator(): unknown input(s) {', '.join(unknown)}; expected {INPUT_NAMES}")
    if log == "sample":
        log = tables.sample_log()
    values = {k: _form_value(v) for k, v in inputs.items() if _form_value(v)}
    if not values.get("model") and not values.get("config") and not log:
        values = {**DEFAULT_SCENARIO, **values}

    strings = tables.ui_strings(lang)
    s = _Strings(strings, lang)
    catalog = tables.catalog_options()
    if log:
        request = {"action": "log", "lang": lang, "inputs": values, "log": str(log)}
    else:
        request = {"action": "plan", "lang": lang, "inputs": values}
    response = json.loads(web.compute(json.dumps(request)))
    if not response.get("ok"):
        messages = "; ".join(e.get("message", "") for e in response.get("errors", []))
        raise ValueError(f"calculator preset {preset!r} ({lang}) is bad input: {messages}")
    diagnosis = ""
    if log:
        values = {k: _form_value(v) for k, v in (response.get("inputs") or {}).items()
                  if k in INPUT_NAMES and _form_value(v)}
        reading = response.get("reading") or {}
        diagnosis = str(reading.get("title") or reading.get("diagnosis") or "")

    uid = f"kvcalc-{preset}"
    guide = _guide_href(page_url, lang)
    config = {
        "lang": lang,
        "preset": preset,
        # null when the macro was not given page.url: the script then resolves
        # both from its own URL (it lives at <site root>/javascripts/).
        "assets": None if page_url is None else root_prefix(page_url) + "assets/",
        "guide": None if page_url is None else guide,
        "inputs": values,
        "names": list(INPUT_NAMES),
        "strings": {key: strings["widget." + key] for key in ("loading", "load_failed", "estimate")},
    }
    result = response.get("result")
    result_attr = "" if result is None else f' data-kvcalc-result="{_e(json.dumps(result, sort_keys=True))}"'
    log_box = (
        f'<details class="kvcalc-log"{" open" if log else ""}><summary>{s("log")}</summary>'
        f'<div class="kvcalc-field" data-kvcalc-field="log"><label for="{uid}-log">{s("log_hint")}</label>'
        f'<textarea id="{uid}-log" name="log" rows="5" spellcheck="false" autocomplete="off"'
        f' data-kvcalc-log>{_e(log or "")}</textarea>'
        f'<p class="kvcalc-error" data-kvcalc-error-for="log" role="alert" hidden></p></div></details>'
    )
    return (
        f'<div class="kvcalc" data-kvcalc-component="calculator" data-kvcalc-status="loading"'
        f' data-kvcalc-preset="{_e(preset)}"{result_attr} markdown="0">'
        f'<script type="application/json" data-kvcalc-config>{_json_attr_safe(config)}</script>'
        f'<div class="kvcalc-head"><strong class="kvcalc-title">{s("title")}</strong>'
        f'<div class="kvcalc-status" data-kvcalc-progress><progress max="3" value="0"></progress>'
        f' <span data-kvcalc-out="progress">{s("loading")}</span></div>'
        f'<button type="button" class="kvcalc-button" data-kvcalc-action="copy-link"'
        f' data-kvcalc-copied="{s("copied")}">{s("copy_link")}</button></div>'
        f'<div class="kvcalc-body">{_form(s, uid, values, catalog)}{log_box}'
        f'{_results(s, response.get("report"), guide, diagnosis)}</div>'
        f"</div>"
    )
