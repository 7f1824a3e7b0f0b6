"""Verdicts as output: the CLI/JSON result of the contract and the localized view model.

The widget's JavaScript places these strings as text; it builds no sentences
and does no arithmetic (design.md).
"""
from __future__ import annotations

import math
from dataclasses import replace

from . import charts
from .advice import Recommendation
from .errors import CalcError
from .inputs import Scenario
from .kv_spec import SizingContext
from .planner import blocks_per_request, max_memory_usage_bytes, num_blocks
from .strings import STRINGS, t
from .units import GB, GiB, fmt_int
from .verdict import Verdict, plan

__all__ = ["gib_gb", "result_dict", "recommendation_dict", "serve_command", "build_report", "error_message", "feasible_rows",
           "concurrency_points", "FEASIBLE_LENGTHS"]

FEASIBLE_LENGTHS = (4096, 8192, 16384, 32768, 65536, 131072)
_FIELD_NAMES = {"max_model_len", "gpu_memory_utilization"}


def gib_gb(n: int) -> str:
    """``4.5 GiB (4.83 GB)``: both units, since readers confuse them."""
    return f"{n / GiB:.2f} GiB ({n / GB:.2f} GB)"


def _gib(n: int) -> str:
    return f"{n / GiB:.2f} GiB"


def recommendation_dict(r: Recommendation) -> dict[str, object]:
    v = r.verdict
    return {
        "code": r.code, "anchor": r.anchor, "settings": dict(r.settings),
        "fits": None if v is None else v.fits,
        "max_model_len": None if v is None else v.max_model_len,
        "available_kv_bytes": None if v is None else v.available_kv_bytes,
        "needed_kv_bytes": None if v is None else v.needed_kv_bytes,
        "num_gpu_blocks": None if v is None else v.num_gpu_blocks,
        "gpu_kv_cache_tokens": None if v is None else v.gpu_kv_cache_tokens,
        "max_concurrency": None if v is None else v.max_concurrency,
        "estimated_max_model_len": None if v is None else v.estimated_max_model_len,
    }


def _budget_dict(b) -> dict[str, object]:
    """Per-GPU budget in bytes; ``estimated`` lists our estimates, ``given`` what the reader or vLLM fixed."""
    terms = ("weights", "activation", "non_torch", "cudagraph")
    if b.source == "profiled":
        given = ["total"] + [t_ for t_ in terms if t_ not in b.estimated]
    else:
        given = ["available"]  # a measured or fixed KV budget: the other terms are not modelled
    return {
        "source": b.source, "total_bytes": b.total_bytes, "requested_bytes": b.requested_bytes,
        "weights_bytes": b.weights_bytes, "activation_bytes": b.activation_bytes,
        "non_torch_bytes": b.non_torch_bytes, "cudagraph_bytes": b.cudagraph_bytes,
        "available_bytes": b.available_kv_bytes, "estimated": list(b.estimated), "given": given,
    }


def result_dict(s: Scenario, v: Verdict, recs: list[Recommendation]) -> dict[str, object]:
    """The ``kvcalc plan --json`` object (CLI contract; the widget's ``data-kvcalc-result``)."""
    d = v.deployment
    b = v.budget
    return {
        "fits": v.fits,
        "status": v.status,
        "model": s.model.model_id,
        "architecture": s.model.architecture,
        "gpu": d.gpu_id,
        "gpu_memory_bytes": d.gpu_memory_bytes,
        "tensor_parallel_size": d.tensor_parallel_size,
        "pipeline_parallel_size": d.pipeline_parallel_size,
        "kv_cache_dtype": d.kv_cache_dtype,
        "gpu_memory_utilization": d.effective_utilization,
        "max_num_seqs": v.max_num_seqs,
        "max_num_batched_tokens": v.max_num_batched_tokens,
        "block_size": v.block_size,
        "vllm_rules": v.deployment.rules.description,
        "max_model_len": v.max_model_len,
        "derived_max_model_len": v.derived_max_model_len,
        "kv_bytes_per_token": v.kv_bytes_per_token,
        "available_kv_bytes": v.available_kv_bytes,
        "needed_kv_bytes": v.needed_kv_bytes,
        "num_gpu_blocks": v.num_gpu_blocks,
        "gpu_kv_cache_tokens": v.gpu_kv_cache_tokens,
        "max_concurrency": v.max_concurrency,
        "estimated_max_model_len": v.estimated_max_model_len,
        "kv_cache_groups": len(v.grouping.groups),
        "budget": _budget_dict(b),
        "vllm_log": [line for line in v.vllm_lines if line != v.error_text],
        "vllm_error": v.error_text,
        "recommendations": [recommendation_dict(r) for r in recs],
    }


_FLAG_ORDER = ("tensor_parallel_size", "pipeline_parallel_size", "max_model_len", "max_num_seqs",
               "max_num_batched_tokens", "kv_cache_dtype", "gpu_memory_utilization", "kv_cache_memory_bytes",
               "block_size", "num_gpu_blocks_override", "enforce_eager", "disable_hybrid_kv_cache_manager",
               "no_async_scheduling", "kv_offloading_backend", "kv_offloading_size")


def _current_flags(s: Scenario) -> dict[str, object]:
    d = s.deployment
    flags: dict[str, object] = {}
    if d.tensor_parallel_size != 1:
        flags["tensor_parallel_size"] = d.tensor_parallel_size
    if d.pipeline_parallel_size != 1:
        flags["pipeline_parallel_size"] = d.pipeline_parallel_size
    if d.max_model_len is not None:
        flags["max_model_len"] = "auto" if d.max_model_len == -1 else d.max_model_len
    for key in ("max_num_seqs", "max_num_batched_tokens", "gpu_memory_utilization", "block_size", "num_gpu_blocks_override"):
        if getattr(d, key) is not None:
            flags[key] = getattr(d, key)
    if d.kv_cache_dtype != "auto":
        flags["kv_cache_dtype"] = d.kv_cache_dtype
    if d.kv_cache_memory_bytes is not None:
        flags["kv_cache_memory_bytes"] = d.kv_cache_memory_bytes
    for key in ("enforce_eager", "disable_hybrid_kv_cache_manager"):
        if getattr(d, key):
            flags[key] = True
    if not d.async_scheduling:
        flags["no_async_scheduling"] = True
    return flags


def serve_command(s: Scenario, changes: dict[str, object] | None = None) -> str:
    """``vllm serve`` with the reader's non-default flags, plus ``changes``."""
    flags = _current_flags(s)
    model = s.model_label
    for key, value in (changes or {}).items():
        if key == "quantization":
            model = f"{model}-AWQ"
        elif key == "gpu":
            continue
        elif key == "kv_cache_memory_bytes":
            flags.pop("gpu_memory_utilization", None)
            flags[key] = value
        else:
            flags[key] = value
    lines = [f"vllm serve {model}"]
    for key in _FLAG_ORDER:
        if key not in flags:
            continue
        value = flags[key]
        flag = "--" + key.replace("_", "-")
        lines.append(flag if value is True else f"{flag} {value}")
    return " \\\n  ".join(lines)


def concurrency_points(v: Verdict) -> list[charts.Point]:
    """Maximum concurrency at each power-of-two length up to the model's limit, for this budget.

    Drawn for failing scenarios too: it shows how short the context must be to start.
    """
    if v.status in ("no_memory", "auto_fit_failed") or v.deployment.rules.v0_engine:
        return []
    stage = v.stages[v.limiting_stage]
    blocks = v.num_gpu_blocks if v.num_gpu_blocks is not None else num_blocks(stage.grouping, stage.available_kv_bytes)
    points = []
    length = 1024
    top = max(v.derived_max_model_len, v.max_model_len)
    while length <= top:
        ctx = SizingContext(max_model_len=length, in_flight_tokens=v.in_flight_tokens)
        if max_memory_usage_bytes(stage.grouping, ctx) <= stage.available_kv_bytes:
            bpr = blocks_per_request(stage.grouping, ctx, sum_groups=v.deployment.rules.sum_group_blocks)
            points.append(charts.Point(x=length, y=blocks / bpr))
        length *= 2
    return points


def feasible_rows(s: Scenario, v: Verdict) -> tuple[list[str], list[list[str]]]:
    """Context length × KV dtype → maximum concurrency (– when vLLM would refuse)."""
    dtypes = ["auto", "fp8"] if s.deployment.kv_cache_dtype in ("auto", "fp8") else [s.deployment.kv_cache_dtype, "fp8"]
    lengths = sorted({n for n in FEASIBLE_LENGTHS if n <= v.derived_max_model_len} | ({v.max_model_len} if v.max_model_len > 0 else set()))
    rows = []
    for n in lengths:
        row = [fmt_int(n)]
        for dt in dtypes:
            try:
                w = plan(s.model, replace(s.deployment, max_model_len=n, kv_cache_dtype=dt), gpu_name=s.gpu_name)
                row.append(f"{w.max_concurrency:.2f}x" if w.fits and w.max_concurrency is not None else "–")
            except CalcError:
                row.append("–")
        rows.append(row)
    return dtypes, rows


def _budget_chart(lang: str, v: Verdict) -> str:
    b = v.budget
    est = t(lang, "fig.estimate_suffix")
    def label(key: str, name: str) -> str:
        return t(lang, f"fig.{key}") + (est if name in b.estimated else "")
    segs: list[charts.Segment] = []
    if b.source == "profiled":
        for key, name, val in (("weights", "weights", b.weights_bytes), ("activation", "activation", b.activation_bytes),
                               ("non_torch", "non_torch", b.non_torch_bytes), ("cudagraph", "cudagraph", b.cudagraph_bytes)):
            segs.append(charts.Segment(key=key, label=label(key, name), value_bytes=val, value_text=_gib(val)))
    segs.append(charts.Segment(key="kv", label=t(lang, "fig.kv"), value_bytes=max(b.available_kv_bytes, 0),
                               value_text=_gib(b.available_kv_bytes)))
    total = b.total_bytes or 0
    if b.source == "profiled" and total:
        segs.append(charts.Segment(key="headroom", label=t(lang, "fig.headroom"), value_bytes=b.headroom_bytes,
                                   value_text=_gib(b.headroom_bytes)))
    scale_total = max(total, sum(max(sg.value_bytes, 0) for sg in segs))
    return charts.budget_bar_svg(t(lang, "chart.budget.title"), segs, scale_total)


def _rec_view(lang: str, s: Scenario, r: Recommendation) -> dict[str, object]:
    params = dict(r.params)
    if r.code == "kv_cache_memory_bytes" and "value" not in params:
        if "bytes" not in params:
            title, detail = t(lang, "rec.kv_cache_memory_bytes.free.title"), t(lang, "rec.kv_cache_memory_bytes.free.detail")
        else:
            params["value"] = r.settings["kv_cache_memory_bytes"]
            title, detail = t(lang, "rec.kv_cache_memory_bytes.title", **params), t(lang, "rec.kv_cache_memory_bytes.detail", **params)
    else:
        title, detail = t(lang, f"rec.{r.code}.title", **params), t(lang, f"rec.{r.code}.detail", **params)
    v = r.verdict
    if v is None:
        outcome = t(lang, "rec.result.unknown")
    elif v.fits:
        outcome = t(lang, "rec.result.fits", concurrency=f"{v.max_concurrency:.2f}", max_model_len=fmt_int(v.max_model_len))
    else:
        outcome = t(lang, "rec.result.does_not_fit", needed=_gib(v.needed_kv_bytes), available=_gib(max(v.available_kv_bytes, 0)))
    figures = [{"label": t(lang, "widget.results"), "value": outcome}]
    if r.code == "kv_cache_memory_bytes" and v is not None and s.deployment.gpu_memory_bytes:
        b = v.budget
        base = plan(s.model, replace(s.deployment, kv_cache_memory_bytes=None), gpu_name=s.gpu_name).budget if b.source == "kv_cache_memory_bytes" else b
        if base.source == "profiled" and base.non_kv_bytes + int(r.params.get("bytes", 0)) > s.deployment.gpu_memory_bytes:
            figures.append({"label": "!", "value": t(lang, "rec.result.exceeds_gpu")})
    return {"code": r.code, "anchor": r.anchor, "title": title, "detail": detail,
            "settings": dict(r.settings), "serve_command": serve_command(s, r.settings), "figures": figures,
            "fits": None if v is None else v.fits}


def build_report(lang: str, s: Scenario, v: Verdict, recs: list[Recommendation]) -> dict[str, object]:
    """The localized view model the widget places in the page."""
    lang = lang if lang in STRINGS else "en"
    b = v.budget
    est_sfx = t(lang, "fig.estimate_suffix")
    kind = {"fits": "fits", "does_not_fit": "does_not_fit", "no_memory": "weights_do_not_fit",
            "auto_fit_failed": "auto_fit_failed"}[v.status]
    params = dict(max_model_len=fmt_int(v.max_model_len), needed=gib_gb(v.needed_kv_bytes),
                  available=gib_gb(max(v.available_kv_bytes, 0)) if v.available_kv_bytes > 0 else _gib(v.available_kv_bytes),
                  concurrency=f"{v.max_concurrency:.2f}" if v.max_concurrency is not None else "0",
                  tokens=fmt_int(v.gpu_kv_cache_tokens or 0), estimated=fmt_int(v.estimated_max_model_len))
    figures: list[dict[str, object]] = [
        {"key": "kv_per_token", "label": t(lang, "fig.kv_per_token"), "value": f"{fmt_int(v.kv_bytes_per_token)} B ({v.kv_bytes_per_token / 1024:.1f} KiB)", "estimate": False},
        {"key": "max_model_len", "label": t(lang, "fig.max_model_len"), "value": t(lang, "fig.len_value", value=fmt_int(v.max_model_len)), "estimate": False},
        {"key": "needed_kv", "label": t(lang, "fig.needed_kv"), "value": gib_gb(v.needed_kv_bytes), "estimate": False},
        {"key": "available_kv", "label": t(lang, "fig.available_kv"), "value": gib_gb(v.available_kv_bytes) if v.available_kv_bytes > 0 else _gib(v.available_kv_bytes), "estimate": bool(b.estimated)},
        {"key": "estimated_max_len", "label": t(lang, "fig.estimated_max_len"), "value": t(lang, "fig.len_value", value=fmt_int(v.estimated_max_model_len)), "estimate": bool(b.estimated)},
    ]
    if v.fits:
        figures += [
            {"key": "num_blocks", "label": t(lang, "fig.num_blocks"), "value": t(lang, "fig.blocks_value", blocks=fmt_int(v.num_gpu_blocks or 0), block_size=v.block_size), "estimate": bool(b.estimated)},
            {"key": "tokens", "label": t(lang, "fig.tokens"), "value": t(lang, "fig.tokens_value", tokens=fmt_int(v.gpu_kv_cache_tokens or 0)), "estimate": bool(b.estimated)},
            {"key": "concurrency", "label": t(lang, "fig.concurrency"), "value": t(lang, "fig.concurrency_value", concurrency=f"{v.max_concurrency:.2f}"), "estimate": bool(b.estimated)},
        ]
    if b.source == "profiled":
        for key, name, val in (("total", None, b.total_bytes), ("requested", None, b.requested_bytes),
                               ("weights", "weights", b.weights_bytes), ("activation", "activation", b.activation_bytes),
                               ("non_torch", "non_torch", b.non_torch_bytes), ("cudagraph", "cudagraph", b.cudagraph_bytes)):
            figures.append({"key": key, "label": t(lang, f"fig.{key}") + (est_sfx if name in b.estimated else ""),
                            "value": gib_gb(val or 0), "estimate": name in b.estimated})
    notes = []
    if b.estimated:
        notes.append(t(lang, "note.estimates"))
    if b.source == "measured":
        notes.append(t(lang, "note.measured"))
    if b.source == "kv_cache_memory_bytes":
        notes.append(t(lang, "note.fixed_budget"))
    if not v.hma_enabled and len(set(s.model.layer_kinds)) > 1:
        notes.append(t(lang, "note.hma_off"))
    if v.grouping.num_padding_layers:
        notes.append(t(lang, "note.padding", n=v.grouping.num_padding_layers))
    notes.append(t(lang, "note.rules", rules=v.deployment.rules.description))
    rec_views = [_rec_view(lang, s, r) for r in recs]
    recommended = next((rv for rv in rec_views if rv["fits"]), None)
    dtypes, rows = feasible_rows(s, v)
    points = concurrency_points(v)
    marker = charts.Point(x=v.max_model_len, y=v.max_concurrency) if v.fits and v.max_concurrency is not None else None
    return {
        "lang": lang,
        "verdict": {"kind": kind, "title": t(lang, f"verdict.{kind}.title"), "summary": t(lang, f"verdict.{kind}.summary", **params)},
        "figures": figures,
        "vllm_lines": list(v.vllm_lines),
        "recommendations": rec_views,
        "serve_command": serve_command(s),
        "serve_recommended": recommended["serve_command"] if recommended else None,
        "feasible": {"caption": t(lang, "table.caption.feasible"),
                     "columns": [t(lang, "table.context")] + [f"kv_cache_dtype={d}" for d in dtypes], "rows": rows},
        "charts": {
            "budget_svg": _budget_chart(lang, v),
            "concurrency_svg": charts.concurrency_svg(t(lang, "chart.concurrency.title"), t(lang, "chart.concurrency.x"),
                                                      t(lang, "chart.concurrency.y"), points, marker, t(lang, "chart.you")) if points else "",
        },
        "notes": notes,
    }


def error_message(lang: str, err: CalcError) -> str:
    """The error in the reader's language, falling back to the core's English text."""
    key = f"err.{err.code}"
    table = STRINGS.get(lang, STRINGS["en"])
    if key not in table:
        return str(err)
    params = {"field": err.field or "", "value": "", "minimum": "", "maximum": "", "limit": "", "key": "",
              "choices": "", "model_type": "", "line": "", "column": ""}
    params.update({k: ("∞" if v is None else v) for k, v in err.params.items()})
    try:
        return table[key].format(**params)
    except (KeyError, IndexError, ValueError):
        return str(err)
