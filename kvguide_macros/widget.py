"""The calculator widget, rendered at build time by the ``calculator`` macro.

Why at build time: the page must be readable (and the preset's verdict,
figures and vLLM lines visible) before Pyodide has loaded, and where
JavaScript never runs. The result's markup is written once, as templates
(``results.py``): the preset here is those templates filled from the core's
report, and the page script (``docs/javascripts/kvcalc.js``) fills the same
templates from the same report once Pyodide answers. Every part the script
touches is found by a ``data-kvcalc-*`` attribute, never by an id.

Every value placed in the HTML is escaped with ``html.escape``; only the
chart SVG strings, which the core generates with every text node escaped
(and ``results.py`` checks), are inserted as markup.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from kvcalc import catalog
from kvcalc import strings as core_strings
from kvcalc.deployment import INTERCONNECTS, MODEL_DTYPES
from kvcalc.faces import web
from kvcalc.inputs import INPUT_KEYS
from kvcalc.kv.kv_spec import MAMBA_DTYPES, MambaCacheMode
from kvcalc.units import GiB

from . import results
from .sections import section_links
from .strings import t

__all__ = ["FULL_PRESETS", "INPUT_NAMES", "SAMPLE_LOG", "calculator", "root_prefix"]

#: The query-string / form names the widget offers: the core's inputs
#: (``kvcalc.inputs.INPUT_KEYS``), less the byte-exact ``available_kv_bytes`` (the form takes GiB) and ``no_async_scheduling``.
INPUT_NAMES: tuple[str, ...] = tuple(k for k in INPUT_KEYS if k not in ("available_kv_bytes", "no_async_scheduling"))

#: KV cache dtypes offered in the select; "" is vLLM's default (``auto``). The quantized layouts of 0.20+ that the
#: core models (calc/kv/kv_dtypes.py) follow; the core refuses them for releases or GPUs that do not take them.
KV_CACHE_DTYPES: tuple[str, ...] = ("", "bfloat16", "float16", "float32", "fp8", "fp8_e4m3", "fp8_e5m2", "nvfp4",
                                    "int8_per_token_head", "fp8_per_token_head", "int4_per_token_head", "nvfp4_4over6")

#: ``--enable-prefix-caching`` as a select, not a checkbox: "" is vLLM's default, which differs by
#: release and model (on for hybrids since #40996), so "not set" must stay distinct from "off".
PREFIX_CACHING_CHOICES: tuple[str, ...] = ("", "true", "false")

#: ``--mamba-cache-mode``: "" is vLLM's default (``none``, or ``align`` with prefix caching);
#: the other values are the core's ``MambaCacheMode``, spelled as vLLM spells them.
MAMBA_CACHE_MODES: tuple[str, ...] = ("", *(m.value for m in MambaCacheMode))

#: ``--mamba-ssm-cache-dtype``; "" is vLLM's default (``auto``), as for the KV cache dtype.
MAMBA_SSM_CACHE_DTYPES: tuple[str, ...] = ("", *(d for d in MAMBA_DTYPES if d != "auto"))

#: ``--dtype``; "" is vLLM's default (``auto``: the config's dtype).
MODEL_DTYPE_CHOICES: tuple[str, ...] = ("", *(d for d in MODEL_DTYPES if d != "auto"))

#: Fields in the "Advanced" panel (measured figures included): set by a preset, they open it.
ADVANCED_NAMES: tuple[str, ...] = (
    "block_size", "vllm_version", "kv_cache_memory_bytes", "num_gpu_blocks_override", "decode_context_parallel_size",
    "dtype",
    "enable_prefix_caching", "mamba_cache_mode", "mamba_ssm_cache_dtype", "enforce_eager",
    "disable_hybrid_kv_cache_manager", "limit_mm_per_prompt", "skip_mm_profiling", "interconnect",
    "speculative_config", "enable_lora", "max_loras", "max_lora_rank", "max_cpu_loras",
    "data_parallel_size", "enable_expert_parallel", "draft_config",
)
MEASURED_NAMES: tuple[str, ...] = ("available_kv_gib", "weights_gib", "activation_gib", "non_torch_gib", "cudagraph_gib")

#: The scenario the standalone calculator opens with when a preset names no model.
DEFAULT_SCENARIO: Mapping[str, str] = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"}

#: A real vLLM start-up log, for the "paste your log" presets (``log="sample"``).
SAMPLE_LOG = Path(__file__).resolve().parent / "data" / "sample.log"

#: Presets shown as the full widget (the calculator page's and the "paste your log" tool);
#: every other preset is a compact card with the full widget on demand.
FULL_PRESETS: frozenset[str] = frozenset({"calculator", "paste-your-log"})

_PRESET_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: ``label(key)``: the escaped ``widget.<key>`` string of the page's language.
Label = Callable[[str], str]


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def root_prefix(page_url: str) -> str:
    """Relative path from a page to the site root (``zh/calculator/`` -> ``../../``).

    ``page_url`` is MkDocs' ``page.url`` (``""`` for the home page). With
    directory URLs every segment is a directory; with ``.html`` URLs the last
    segment is the file and does not count.
    """
    parts = [p for p in page_url.split("/") if p]
    if parts and parts[-1].endswith(".html"):
        parts = parts[:-1]
    return "../" * len(parts)


def _form_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else ""
    if value is None:
        return ""
    return str(value)


def _prefix_caching_value(value: object) -> str:
    """``enable_prefix_caching`` as its select holds it: ``"true"``, ``"false"`` (an explicit
    ``--no-enable-prefix-caching``, which ``False`` means here too) or ``""`` (vLLM's default);
    any other text is passed on as is, for the core to refuse with its own message."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = _form_value(value).strip()
    low = text.lower()
    if low in ("1", "true", "yes", "on"):
        return "true"
    if low in ("0", "false", "no", "off"):
        return "false"
    return text


def _values(inputs: Mapping[str, object]) -> dict[str, str]:
    """Inputs as form values (strings), the empty ones dropped."""
    out = {k: _prefix_caching_value(v) if k == "enable_prefix_caching" else _form_value(v) for k, v in inputs.items()}
    return {k: v for k, v in out.items() if v}


def _catalog_options() -> dict[str, list[dict[str, object]]]:
    """The models and GPUs the form's lists offer."""
    return {
        "models": [{"id": m.id} for m in catalog.models()],
        "gpus": [{"id": g.id, "name": g.name, "memory_gib": round(g.memory_bytes / GiB, 2)} for g in catalog.gpus()],
    }


def _described(control: str, uid: str, name: str, ids: list[str], *, form_id: str = "") -> str:
    """``control`` with ``aria-describedby`` (its hint and its error) and, for a field laid out
    outside the ``<form>`` element, ``form="…"`` so it still belongs to the one form."""
    anchor = f'id="{uid}-{name}"'
    extra = f' aria-describedby="{" ".join(ids)}"' + (f' form="{form_id}"' if form_id else "")
    assert anchor in control, name
    return control.replace(anchor, anchor + extra, 1)


#: Where a field's value came from, as its marker says (``data-kvcalc-source``): typed by the reader (or a
#: link), stated by a pasted log, the page's example scenario, or nothing (vLLM's default for the release and GPU).
SOURCES: tuple[str, ...] = ("typed", "log", "preset", "default")


def _source(s: Label, uid: str, name: str, source: str) -> str:
    """The field's marker: where its value came from, in words (part of the field's description)."""
    assert source in SOURCES, source
    return (f'<small class="kvcalc-source" id="{uid}-{name}-source" data-kvcalc-source-label>'
            f'{s("source_" + source)}</small>')


def _field(s: Label, uid: str, name: str, control: str, *, hint: str | None = None, form_id: str = "",
           suggest: bool = False, source: str = "default") -> str:
    """One labelled field: its hint, its source marker and its error slot are its description
    (``aria-describedby``); ``suggest``: a slot for the core's "did you mean" choices (unknown model or GPU)."""
    hint_id, error_id = f"{uid}-{name}-hint", f"{uid}-{name}-error"
    ids = ([hint_id] if hint else []) + [f"{uid}-{name}-source", error_id]
    hint_html = f'<small class="kvcalc-hint" id="{hint_id}">{hint}</small>' if hint else ""
    suggest_html = (
        f'<div class="kvcalc-suggestions" data-kvcalc-suggest-for="{name}" hidden>'
        f'<span>{s("suggestions")}</span> <span data-kvcalc-suggest-list></span></div>'
    ) if suggest else ""
    return (
        f'<div class="kvcalc-field" data-kvcalc-field="{name}" data-kvcalc-source="{source}">'
        f'<label for="{uid}-{name}">{s(name)}</label>{_described(control, uid, name, ids, form_id=form_id)}'
        f'{hint_html}{_source(s, uid, name, source)}'
        f'<p class="kvcalc-error" id="{error_id}" data-kvcalc-error-for="{name}" role="alert" hidden></p>'
        f'{suggest_html}</div>'
    )


def _text(uid: str, name: str, value: str, *, placeholder: str = "", list_id: str = "",
          mode: str = "text", extra: str = "") -> str:
    list_attr = f' list="{list_id}"' if list_id else ""
    return (
        f'<input type="text" id="{uid}-{name}" name="{name}" value="{_e(value)}"'
        f' placeholder="{placeholder}" inputmode="{mode}" autocomplete="off"'
        f' spellcheck="false"{list_attr}{extra}>'
    )


def _checkbox(s: Label, uid: str, name: str, value: str, *, form_id: str = "", source: str = "default") -> str:
    checked = " checked" if value else ""
    error_id = f"{uid}-{name}-error"
    control = f'<input type="checkbox" id="{uid}-{name}" name="{name}" value="true"{checked}>'
    return (
        f'<div class="kvcalc-field kvcalc-check" data-kvcalc-field="{name}" data-kvcalc-source="{source}">'
        f'<label>{_described(control, uid, name, [f"{uid}-{name}-source", error_id], form_id=form_id)} {s(name)}</label>'
        f'{_source(s, uid, name, source)}'
        f'<p class="kvcalc-error" id="{error_id}" data-kvcalc-error-for="{name}" role="alert" hidden></p></div>'
    )


def _select(uid: str, name: str, value: str, options: tuple[tuple[str, str], ...], *, default_is: str = "",
            extra: str = "") -> str:
    """A ``<select>`` of ``(value, escaped label)`` options; ``""`` is vLLM's default, also selected
    when ``value`` is ``default_is`` (``auto``: the core's spelling of the default)."""
    chosen = "" if value == default_is and default_is else value
    opts = "".join(
        f'<option value="{_e(v)}"{" selected" if v == chosen else ""}>{label}</option>' for v, label in options)
    return f'<select id="{uid}-{name}" name="{name}"{extra}>{opts}</select>'


def _hybrid_fields(s: Label, uid: str, values: Mapping[str, str], form_id: str,
                   source: Callable[[str], str]) -> list[str]:
    """The three settings that change Mamba / linear-attention hybrid plans, named as the CLI names them."""
    vllm_default = s("vllm_default")
    prefix = _select(uid, "enable_prefix_caching", values.get("enable_prefix_caching", ""),
                     tuple(zip(PREFIX_CACHING_CHOICES, (vllm_default, s("on"), s("off")), strict=True)),
                     extra=" data-kvcalc-bool")
    mode = _select(uid, "mamba_cache_mode", values.get("mamba_cache_mode", ""),
                   tuple((m, _e(m) if m else vllm_default) for m in MAMBA_CACHE_MODES))
    ssm = _select(uid, "mamba_ssm_cache_dtype", values.get("mamba_ssm_cache_dtype", ""),
                  tuple((d, _e(d or "auto")) for d in MAMBA_SSM_CACHE_DTYPES), default_is="auto")
    return [
        _field(s, uid, "enable_prefix_caching", prefix, hint=s("enable_prefix_caching_hint"), form_id=form_id,
               source=source("enable_prefix_caching")),
        _field(s, uid, "mamba_cache_mode", mode, hint=s("mamba_cache_mode_hint"), form_id=form_id,
               source=source("mamba_cache_mode")),
        _field(s, uid, "mamba_ssm_cache_dtype", ssm, hint=s("mamba_ssm_cache_dtype_hint"), form_id=form_id,
               source=source("mamba_ssm_cache_dtype")),
    ]


def _form(s: Label, uid: str, values: Mapping[str, str], catalog: Mapping[str, Any],
          sources: Mapping[str, str] | None = None) -> tuple[str, str]:
    """The form: its essential fields (in the ``<form>``) and the advanced ones, laid out after
    the result on a phone but still the same form's fields (``form="…"``). ``sources``: where each
    set value came from (``SOURCES``; a value not listed is the page's example, an empty field vLLM's default)."""
    origin = sources or {}

    def source(name: str) -> str:
        return origin.get(name, "preset") if values.get(name) else "default"

    def sourced(name: str, control: str, **kw: Any) -> str:
        return _field(s, uid, name, control, source=source(name), **kw)

    default = s("default")
    form_id = f"{uid}-form"
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

    model = sourced("model", text("model", placeholder=s("model_placeholder"), list_id=f"{uid}-models"),
                    suggest=True)
    config = sourced(
        "config",
        f'<textarea id="{uid}-config" name="config" rows="3" spellcheck="false"'
        f' autocomplete="off">{_e(values.get("config", ""))}</textarea>',
        hint=s("config_hint"),
    )
    gpu = sourced("gpu", text("gpu", placeholder=s("gpu_custom"), list_id=f"{uid}-gpus"), suggest=True)
    simple = [
        sourced("max_model_len", text("max_model_len"), hint=s("max_model_len_hint")),
        sourced("max_num_seqs", text("max_num_seqs", num)),
        sourced("kv_cache_dtype",
                f'<select id="{uid}-kv_cache_dtype" name="kv_cache_dtype">{dtypes}</select>'),
        sourced("gpu_memory_utilization", text("gpu_memory_utilization", dec)),
        sourced("tensor_parallel_size", text("tensor_parallel_size", num, "1")),
        sourced("pipeline_parallel_size", text("pipeline_parallel_size", num, "1")),
        sourced("gpu_memory_gib", text("gpu_memory_gib", dec)),
        sourced("max_num_batched_tokens", text("max_num_batched_tokens", num)),
    ]
    advanced = [
        sourced("block_size", text("block_size", num, "16"), form_id=form_id),
        sourced("vllm_version", text("vllm_version"), form_id=form_id),
        sourced("kv_cache_memory_bytes", text("kv_cache_memory_bytes"), form_id=form_id),
        sourced("num_gpu_blocks_override", text("num_gpu_blocks_override", num), form_id=form_id),
        sourced("decode_context_parallel_size", text("decode_context_parallel_size", num, "1"), form_id=form_id),
        sourced("dtype", _select(uid, "dtype", values.get("dtype", ""),
                                 tuple((d, _e(d or "auto")) for d in MODEL_DTYPE_CHOICES), default_is="auto"),
                hint=s("dtype_hint"), form_id=form_id),
        *_hybrid_fields(s, uid, values, form_id, source),
        _checkbox(s, uid, "enforce_eager", values.get("enforce_eager", ""), form_id=form_id,
                  source=source("enforce_eager")),
        _checkbox(s, uid, "disable_hybrid_kv_cache_manager",
                  values.get("disable_hybrid_kv_cache_manager", ""), form_id=form_id,
                  source=source("disable_hybrid_kv_cache_manager")),
        sourced("limit_mm_per_prompt", text("limit_mm_per_prompt"), hint=s("limit_mm_per_prompt_hint"),
                form_id=form_id),
        _checkbox(s, uid, "skip_mm_profiling", values.get("skip_mm_profiling", ""), form_id=form_id,
                  source=source("skip_mm_profiling")),
        sourced("interconnect",
                _select(uid, "interconnect", values.get("interconnect", ""),
                        tuple((i, _e(i)) if i != "unknown" else ("", s("interconnect_unknown")) for i in INTERCONNECTS),
                        default_is="unknown"),
                hint=s("interconnect_hint"), form_id=form_id),
        sourced("speculative_config", text("speculative_config", placeholder=""),
                hint=s("speculative_config_hint"), form_id=form_id),
        sourced("draft_config",
                f'<textarea id="{uid}-draft_config" name="draft_config" rows="2" spellcheck="false"'
                f' autocomplete="off">{_e(values.get("draft_config", ""))}</textarea>',
                hint=s("draft_config_hint"), form_id=form_id),
        _checkbox(s, uid, "enable_lora", values.get("enable_lora", ""), form_id=form_id, source=source("enable_lora")),
        sourced("max_loras", text("max_loras", num, "1"), form_id=form_id),
        sourced("max_lora_rank", text("max_lora_rank", num, "16"), form_id=form_id),
        sourced("max_cpu_loras", text("max_cpu_loras", num), hint=s("max_cpu_loras_hint"), form_id=form_id),
        sourced("data_parallel_size", text("data_parallel_size", num, "1"),
                hint=s("data_parallel_size_hint"), form_id=form_id),
        _checkbox(s, uid, "enable_expert_parallel", values.get("enable_expert_parallel", ""),
                  form_id=form_id, source=source("enable_expert_parallel")),
    ]
    measured = [sourced(name, text(name, dec), form_id=form_id) for name in MEASURED_NAMES]
    has_advanced = any(values.get(n) for n in ADVANCED_NAMES + MEASURED_NAMES)
    open_attr = " open" if has_advanced else ""
    essential = (
        f'<form class="kvcalc-form" id="{form_id}" data-kvcalc-form autocomplete="off" novalidate>'
        f'<fieldset class="kvcalc-group"><legend>{s("way_plan")}</legend>'
        f'{model}{config}{gpu}<div class="kvcalc-grid">{"".join(simple)}</div></fieldset>'
        f'<datalist id="{uid}-models">{models}</datalist><datalist id="{uid}-gpus">{gpus}</datalist>'
        f'<p class="kvcalc-error" id="{uid}--error" data-kvcalc-error-for="" role="alert" hidden></p>'
        f'</form>'
    )
    more = (
        f'<details class="kvcalc-advanced"{open_attr} data-kvcalc-advanced><summary>{s("advanced")}</summary>'
        f'<div class="kvcalc-grid">{"".join(advanced)}</div>'
        f'<fieldset class="kvcalc-group"><legend>{s("measured")}</legend>'
        f'<div class="kvcalc-grid">{"".join(measured)}</div></fieldset></details>'
    )
    return essential, more


def _results(s: Label, lang: str, response: Mapping[str, Any], tables: Mapping[str, Any]) -> str:
    """The result: an error summary at its top (shown, and the result hidden, when the form
    cannot be computed), a one-sentence live verdict for screen readers, and the result
    section, each region the template filled from the core's response."""
    def region(name: str) -> str:
        return results.region(lang, name, response, tables)

    verdict = (response.get("report") or {}).get("verdict") or {}
    return (
        f'<div class="kvcalc-output">'
        f'<div class="kvcalc-error-summary" data-kvcalc-error-summary role="alert" hidden>'
        f'<strong>{s("cannot_compute")}</strong> <span data-kvcalc-out="error-summary"></span></div>'
        f'<p class="kv-offscreen" data-kvcalc-announce aria-live="polite" aria-atomic="true">'
        f'{_e(verdict.get("title", ""))}</p>'
        f'<section class="kvcalc-results" data-kvcalc-results>'
        # the verdict leads; the log's own reading follows it (a log that started never sits
        # above a plan that refuses to start)
        f'{region("verdict")}{region("diagnosis")}{region("ask")}{region("figures")}{region("log-lines")}'
        f'{region("serve-label")}'
        f'<div class="kvcalc-copyable">{region("serve-command")}{results.copy_button(s)}</div>'
        f'<h4 class="kvcalc-subhead">{s("recommendations")}</h4>{region("recommendations")}'
        f'<div class="kvcalc-charts"><figure class="kvcalc-chart"><figcaption>{s("budget_chart")}</figcaption>'
        f'{region("budget-chart")}</figure>'
        f'<figure class="kvcalc-chart"><figcaption>{s("concurrency_chart")}</figcaption>'
        f'{region("concurrency-chart")}</figure></div>'
        f'<h4 class="kvcalc-subhead">{s("vllm_lines")}</h4>{region("vllm-lines")}'
        f'<div class="kvcalc-table-wrap" tabindex="0" role="region" aria-label="{s("feasible")}">'
        f'{region("feasible")}</div>'
        f'{region("notes")}'
        f"</section></div>"
    )


#: The figures a compact preset shows (the first three present, in this order).
_KEY_FIGURES = ("needed_kv", "available_kv", "estimated_max_len", "max_concurrency", "max_model_len",
                "kv_per_token")


def _compact(s: Label, preset: str, response: Mapping[str, Any], tables: Mapping[str, Any], inputs_query: str) -> str:
    """A guide page's preset in a few lines: the verdict, the key numbers, the fix the section
    illustrates and a deep link into the calculator; the full widget follows in a ``<details>``."""
    report = response.get("report") or {}
    verdict = report.get("verdict") or {}
    figures = {f["key"]: f for f in report.get("figures") or []}
    keys = [k for k in _KEY_FIGURES if k in figures][:3]
    numbers = "".join(
        f'<div><dt>{_e(figures[k]["label"])}</dt><dd>{_e(figures[k]["value"])}</dd></div>' for k in keys)
    recs = report.get("recommendations") or []
    fix = next((r for r in recs if r.get("anchor") == preset), recs[0] if recs else None)
    fix_html = ""
    if fix is not None:
        href = tables["sections"].get(fix["anchor"], {}).get("href", "")
        fix_html = (f'<span class="kvcalc-preset-fix"><strong>{s("preset_fix")}:</strong> '
                    f'<a href="{_e(href)}">{_e(fix["title"])}</a></span> ')
    calc_href = tables["sections"].get("calculator", {}).get("href", "")
    page, _, anchor = calc_href.partition("#")
    link = f"{page}?{inputs_query}#{anchor}" if inputs_query else calc_href
    return (
        f'<div class="kvcalc-preset-card" data-kvcalc-card="{_e(preset)}">'
        f'<p class="kvcalc-preset-verdict" data-kvcalc-kind="{_e(verdict.get("kind", ""))}">'
        f'<span class="kvcalc-preset-tag">{s("preset_example")}</span> <strong>{_e(verdict.get("title", ""))}</strong></p>'
        f'<dl class="kvcalc-preset-figures">{numbers}</dl>'
        f'<p class="kvcalc-preset-actions">{fix_html}'
        f'<a class="kvcalc-preset-open" data-kvcalc-open-link href="{_e(link)}">{s("open_calculator")} →</a></p></div>'
    )


def _json_attr_safe(data: object) -> str:
    """JSON for a ``<script>`` body: ``<``, ``>`` and ``&`` escaped so nothing closes it."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def calculator(lang: str, preset: str | None = None, *, page_url: str, sections: Mapping[str, str],
               compact: bool | None = None, **inputs: object) -> str:
    """Render one calculator, its preset computed by the core at build time.

    ``page_url`` is MkDocs' ``page.url``, so asset and guide links are
    relative and the site works under any sub-path; ``sections`` maps every
    section id of the language's pages to its page (``sections.section_pages``):
    a recommendation links to its section through it, and the build fails when
    a recommendation's section is on no page. ``log="sample"`` pre-fills the
    log box with ``SAMPLE_LOG``. ``compact`` (default: every preset but ``FULL_PRESETS``)
    shows the preset as a card (verdict, key numbers, the fix, a deep link into the
    calculator) with the full widget in a ``<details>``, mounted when opened.
    """
    preset = preset or "calculator"
    if compact is None:  # a guide page's preset is compact; the calculator page and the log reader are not
        compact = preset not in FULL_PRESETS
    if not _PRESET_RE.match(preset):
        raise ValueError(f"calculator preset must be a kebab-case section id, got {preset!r}")
    log = inputs.pop("log", None)
    unknown = sorted(set(inputs) - set(INPUT_NAMES))
    if unknown:
        raise TypeError(f"calculator(): unknown input(s) {', '.join(unknown)}; expected {INPUT_NAMES}")
    if log == "sample":
        log = SAMPLE_LOG.read_text(encoding="utf-8")
    values = _values(inputs)
    if not values.get("model") and not values.get("config") and not log:
        values = {**DEFAULT_SCENARIO, **values}

    def s(key: str) -> str:
        return _e(t(lang, "widget." + key))

    if log:
        request = {"action": "log", "lang": lang, "inputs": values, "log": str(log)}
    else:
        request = {"action": "plan", "lang": lang, "inputs": values}
    response = json.loads(web.compute(json.dumps(request)))
    if not response.get("ok"):
        messages = "; ".join(e.get("message", "") for e in response.get("errors", []))
        raise ValueError(f"calculator preset {preset!r} ({lang}) is bad input: {messages}")
    sources: dict[str, str] = {}
    if log:
        values = _values({k: v for k, v in (response.get("inputs") or {}).items() if k in INPUT_NAMES})
        # what the log stated is marked as the log's; the rest of the form is the preset's example
        sources = {k: "log" for k, v in (response.get("sources") or {}).items() if v == "log"}

    uid = f"kvcalc-{preset}"
    # The tables the result templates look values up in (results.py): every section's page and URL.
    tables = {"sections": section_links(page_url, lang, dict(sections))}
    config = {
        "lang": lang,
        "preset": preset,
        "assets": root_prefix(page_url) + "assets/",
        "inputs": values,
        "names": list(INPUT_NAMES),
        # url_dropped: a link value that cannot be read
        "strings": {"load_failed": t(lang, "widget.load_failed"), "url_dropped": core_strings.t(lang, "err.url_value_dropped"),
                    "loading_bytes": t(lang, "widget.loading_bytes"),
                    **{f"source_{name}": t(lang, f"widget.source_{name}") for name in SOURCES}},
        "tables": tables,
    }
    result = response.get("result")
    result_attr = "" if result is None else f' data-kvcalc-result="{_e(json.dumps(result, sort_keys=True))}"'
    # The first way in: the paste box, open and first; the second: the planning form. Both feed one form.
    log_box = (
        f'<details class="kvcalc-log" open><summary>{s("way_log")}</summary>'
        f'<div class="kvcalc-field" data-kvcalc-field="log"><label for="{uid}-log">{s("log_hint")}</label>'
        f'<textarea id="{uid}-log" name="log" rows="5" spellcheck="false" autocomplete="off"'
        f' aria-describedby="{uid}-log-error" data-kvcalc-log>{_e(log or "")}</textarea>'
        f'<p class="kvcalc-error" id="{uid}-log-error" data-kvcalc-error-for="log" role="alert" hidden></p>'
        f'</div></details>'
    )
    essential, more = _form(s, uid, values, _catalog_options(), sources)
    # The calculator page's widget is in view at once (data-kvcalc-eager): hooks.py starts the
    # runtime's wasm download in the page's <head>, with the HTML, not after its styles and scripts.
    # The widget and its card stay out of the search index (data-search-exclude): the prose
    # around them says what they show, and form labels would only add noise (and bytes).
    eager = " data-kvcalc-eager" if preset == "calculator" else ""
    full = (
        f'<div class="kvcalc" data-kvcalc-component="calculator" data-kvcalc-status="loading"'
        f' data-kvcalc-preset="{_e(preset)}"{result_attr}{eager} data-search-exclude markdown="0">'
        f'<script type="application/json" data-kvcalc-config>{_json_attr_safe(config)}</script>'
        f'<div class="kvcalc-head"><strong class="kvcalc-title">{s("title")}</strong>'
        f'<div class="kvcalc-status" data-kvcalc-progress><progress max="3" value="0"'
        f' aria-labelledby="{uid}-progress"></progress>'
        f' <span id="{uid}-progress" data-kvcalc-out="progress">{s("loading")}</span></div>'
        f'<button type="button" class="kvcalc-button" data-kvcalc-action="copy-link"'
        f' data-kvcalc-copied="{s("copied")}">{s("copy_link")}</button></div>'
        f'<div class="kvcalc-body"><div class="kvcalc-inputs">{log_box}{essential}</div>'
        f'{_results(s, lang, response, tables)}<div class="kvcalc-more">{more}</div></div>'
        f'{results.template_elements(lang)}'
        f"</div>"
    )
    if not compact:
        return full
    return (
        f'<div class="kvcalc-preset" data-search-exclude markdown="0">'
        f'{_compact(s, preset, response, tables, urlencode(response.get("query") or {}))}'
        f'<details class="kvcalc-preset-more" data-kvcalc-lazy><summary>{s("show_calculator")}</summary>'
        f'{full}</details></div>'
    )
