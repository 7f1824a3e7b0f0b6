"""An ``Analysis`` as output: the CLI/JSON result of the contract and the localized view model.

Formats only: it never plans again (``analysis.analyze`` computed every what-if).
The widget's JavaScript places these strings as text; it builds no sentences
and does no arithmetic (design.md).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..analysis import Analysis, BandVerdict, FeasibleGrid, Recommendation, Verdict
from ..arch.model import ASSUMED_DECODER
from ..budget.expert_parallel import MoeSplit, moe_split
from ..budget.memory import (
    BudgetSource,
    MemoryBudget,
    draft_weights_estimate,
    expert_weight_bytes,
    interconnect_assumed,
    lora_estimate,
)
from ..budget.validation import MIN_TERM_ROWS, term_row_counts
from ..deployment import Deployment, unified_memory
from ..errors import CalcError
from ..inert_text import MAX_QUOTE_CHARS, quote
from ..inputs import Scenario, check_model_word
from ..limits import shorten
from ..numfmt import fmt_fixed, fmt_int, fmt_printed, gib_gb_text, gib_text
from ..strings import STRINGS, lang_or_default, t
from ..units import GiB, MiB
from ..versions import RuleSet, rules_for
from ..vllm_flags import FLAG_BY_NAME, FLAGS, accepts, flag_text, typed_value

if TYPE_CHECKING:  # the log reader loads only when a log is pasted
    from ..logs.diagnose import Diagnosis

__all__ = [
    "available_band",
    "gib_gb",
    "result_dict",
    "recommendation_dict",
    "serve_command",
    "build_report",
    "build_log_report",
    "log_notes",
    "capacity_fit_notes",
    "with_capacity_fit_notes",
    "error_message",
    "assumed_architecture",
]

_UNKNOWN_MODEL = "<your-model>"
GIB_BYTES = 1 << 30

_BUDGET_TERMS = ("weights", "activation", "non_torch", "cudagraph")
_VERDICT_KIND = {
    "fits": "fits",
    "does_not_fit": "does_not_fit",
    "no_memory": "weights_do_not_fit",
    "auto_fit_failed": "auto_fit_failed",
    "weights_exceed_gpu": "weights_exceed_gpu",
    "mamba_blocks_below_max_num_seqs": "mamba_blocks_below_max_num_seqs",
}


def gib_gb(n: int, lang: str = "en") -> str:
    """``4.50 GiB (4.83 GB)``: both units, since readers confuse them."""
    return gib_gb_text(n, lang)


def _signed_gib_gb(n: int, lang: str) -> str:
    """Both units when positive; a deficit in GiB only."""
    return gib_gb_text(n, lang) if n > 0 else gib_text(n, lang)


def _times(x: float, lang: str) -> str:
    return f"{fmt_fixed(x, 2, lang)}x"


def recommendation_dict(r: Recommendation) -> dict[str, object]:
    v = r.verdict
    return {
        "code": r.code,
        "anchor": r.anchor,
        "settings": dict(r.settings),
        "fits": None if v is None else v.fits,
        "max_model_len": None if v is None else v.max_model_len,
        "available_kv_bytes": None if v is None else v.available_kv_bytes,
        "needed_kv_bytes": None if v is None else v.needed_kv_bytes,
        "num_gpu_blocks": None if v is None else v.num_gpu_blocks,
        "gpu_kv_cache_tokens": None if v is None else v.gpu_kv_cache_tokens,
        "max_concurrency": None if v is None else v.max_concurrency,
        "estimated_max_model_len": None if v is None else v.estimated_max_model_len,
        "budget_edge": None if v is None else r.budget_edge,
        "base_available_kv_bytes": None if v is None else r.base_available_kv_bytes,
    }


def _budget_dict(b: MemoryBudget) -> dict[str, object]:
    """Per-GPU budget in bytes; ``estimated`` lists our estimates, ``given`` what the reader or vLLM
    fixed."""
    if b.source == BudgetSource.PROFILED:
        given = ["total"] + [term for term in _BUDGET_TERMS if term not in b.estimated]
    else:
        given = ["available"]  # a measured or fixed KV budget: the other terms are not modelled
    return {
        "source": b.source,
        "total_bytes": b.total_bytes,
        "requested_bytes": b.requested_bytes,
        "weights_bytes": b.weights_bytes,
        "activation_bytes": b.activation_bytes,
        "non_torch_bytes": b.non_torch_bytes,
        "cudagraph_bytes": b.cudagraph_bytes,
        "available_bytes": b.available_kv_bytes,
        "available_bytes_low": b.available_kv_bytes_low,
        "available_bytes_high": b.available_kv_bytes_high,
        "estimated": list(b.estimated),
        "given": given,
        "encoder_profile": b.encoder_profile,
    }


def available_band(v: Verdict) -> tuple[int, int]:
    """The limiting worker's available KV memory at the band's (low, high) edges.

    The budget's band moved onto ``v.available_kv_bytes`` (which a ``num_gpu_blocks_override``
    may have replaced: then there is no band).
    """
    b = v.budget
    d = v.deployment
    if not b.has_band or (d.num_gpu_blocks_override is not None and d.rules.override_before_check):
        return v.available_kv_bytes, v.available_kv_bytes
    return (
        v.available_kv_bytes - (b.available_kv_bytes - b.available_kv_bytes_low),
        v.available_kv_bytes + (b.available_kv_bytes_high - b.available_kv_bytes),
    )


def result_dict(a: Analysis) -> dict[str, object]:
    """The ``kvcalc plan --json`` object (CLI contract; the widget's ``data-kvcalc-result``)."""
    s, v = a.scenario, a.verdict
    d = v.deployment
    low, high = available_band(v)
    return {
        "fits": v.fits,
        "status": v.status,
        "verdict": a.band_verdict,
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
        "vllm_rules": d.rules.description,
        "max_model_len": v.max_model_len,
        "derived_max_model_len": v.derived_max_model_len,
        "kv_bytes_per_token": v.kv_bytes_per_token,
        "available_kv_bytes": v.available_kv_bytes,
        "available_kv_bytes_low": low,
        "available_kv_bytes_high": high,
        "needed_kv_bytes": v.needed_kv_bytes,
        "num_gpu_blocks": v.num_gpu_blocks,
        "gpu_kv_cache_tokens": v.gpu_kv_cache_tokens,
        "max_concurrency": v.max_concurrency,
        "estimated_max_model_len": v.estimated_max_model_len,
        "kv_cache_groups": len(v.grouping.groups),
        "budget": _budget_dict(v.budget),
        "vllm_log": [line for line in v.vllm_lines if line != v.error_text],
        "vllm_error": v.error_text,
        "recommendations": [recommendation_dict(r) for r in a.recommendations],
        "limit_mm_per_prompt": dict(d.limit_mm_per_prompt) or None,
        "skip_mm_profiling": d.skip_mm_profiling,
        "interconnect": d.interconnect,
        "interconnect_assumed": interconnect_assumed(d)
        if "non_torch" in v.budget.estimated
        else None,
        **_spec_lora_dict(v),
        "data_parallel_size": d.data_parallel_size,
        "enable_expert_parallel": d.enable_expert_parallel,
        "moe_split": _moe_split_dict(v),
        "assumed_architecture": assumed_architecture(s),
    }


def _release(s: Scenario) -> RuleSet:
    return s.deployment.rules


def _flag_value(s: Scenario, name: str) -> object | None:
    """The scenario's value of one given flag, as vLLM reads it; None: nothing to print."""
    d = s.deployment
    if name == "max_model_len":
        return (
            None
            if d.max_model_len is None
            else ("auto" if d.max_model_len == -1 else d.max_model_len)
        )
    if name == "no_async_scheduling":
        return not d.async_scheduling
    if name == "cpu_offload_gb":
        return d.cpu_offload_bytes / GIB_BYTES
    if name == "limit_mm_per_prompt":
        return _limit_mm_text(d) if d.limit_mm_per_prompt else None
    if (
        name == "speculative_config"
    ):  # the reader's JSON as typed (flag_text quotes it for the shell)
        return d.speculative.text if d.speculative is not None else None
    if name == "enable_lora":
        return d.lora is not None
    if name in ("max_loras", "max_lora_rank", "max_cpu_loras"):  # only the sizes the reader typed
        return dict(d.lora.given).get(name) if d.lora is not None else None
    value: object = getattr(d, name)
    return value


def _spec_lora_dict(v: Verdict) -> dict[str, object]:
    """``speculative_config`` and ``lora`` keys, present only when the reader set them."""
    d = v.deployment
    out: dict[str, object] = {}
    if (
        d.speculative is not None
    ):  # the estimates whether or not a measured figure replaced the weights
        draft = draft_weights_estimate(v.model, d)
        out["speculative_config"] = {
            "method": d.speculative.method,
            "num_speculative_tokens": d.speculative.num_speculative_tokens,
            "num_mtp_layers": v.model.num_mtp_layers if d.speculative.method == "mtp" else 0,
            "draft_layers": d.speculative.draft_layers,
            "draft_weights_bytes": draft.bytes,
            "draft_weights_bytes_high": draft.high_bytes,
        }
    if d.lora is not None:
        out["lora"] = {
            "max_loras": d.lora.max_loras,
            "max_lora_rank": d.lora.max_lora_rank,
            "max_cpu_loras": d.lora.max_cpu_loras or d.lora.max_loras,
            "slot_bytes": lora_estimate(v.model, d).bytes,
        }
    return out


def _split_of(v: Verdict) -> MoeSplit | None:
    d = v.deployment
    return moe_split(
        v.model,
        tensor_parallel_size=d.tensor_parallel_size,
        data_parallel_size=d.data_parallel_size,
        expert_parallel=d.enable_expert_parallel,
        rules=d.rules,
    )


def _moe_split_dict(v: Verdict) -> dict[str, object] | None:
    """How the routed experts are dealt over DP × TP (kvcalc.budget.expert_parallel); None when
    DP and EP change nothing."""
    split = _split_of(v)
    if split is None:
        return None
    return {
        "ranks": split.ranks,
        "expert_parallel": split.expert_parallel,
        "local_experts": split.local_experts,
        "num_experts": split.num_experts,
        "expert_bytes_per_gpu": split.share_bytes(expert_weight_bytes(v.model)),
    }


def assumed_architecture(s: Scenario) -> dict[str, object] | None:
    """What a script can test: the config names a ``model_type``, an ``architectures`` entry or a
    ``quant_method`` the core does not know, so the plan assumed a standard decoder; None
    otherwise."""
    if not s.model.assumed:
        return None
    return {
        "code": "assumed_architecture",
        "model_type": s.model.model_type,
        "unknown": [{"key": k, "value": v} for k, v in s.model.assumed],
        "assumed": ASSUMED_DECODER,
    }


def _current_flags(s: Scenario) -> dict[str, object]:
    """The flags the reader gave (``Scenario.given``), with the scenario's values, snake_case."""
    flags: dict[str, object] = {}
    for flag in FLAGS:
        if flag.name in s.given:
            value = _flag_value(s, flag.name)
            if value is not None:
                flags[flag.name] = value
    return flags


def _limit_mm_text(d: Deployment) -> str:
    """``--limit-mm-per-prompt`` as the release reads it: JSON, or ``image=2,video=0`` before
    0.8.5."""
    if not d.rules.mm_limit_json:
        return ",".join(f"{k}={v}" for k, v in d.limit_mm_per_prompt)
    return json.dumps(dict(d.limit_mm_per_prompt))


def _serve_line(model: str, flags: Mapping[str, object], release: RuleSet | None = None) -> str:
    """``vllm serve`` with the flags in the table's order (vllm_flags.py), every word quoted for a
    POSIX shell."""
    check_model_word(model, field="model")
    rules = release or rules_for(None)
    lines = [f"vllm serve {shlex.quote(model)}"]
    for flag in FLAGS:
        # a flag the release lacks reaches here only with its neutral value (inputs refuse the
        # others)
        if flag.name in flags and accepts(flag, rules):
            words = flag_text(flag, flags[flag.name], rules)
            if words is not None:
                lines.append(" ".join(words))
    return " \\\n  ".join(lines)


def serve_command(s: Scenario, changes: Mapping[str, object] | None = None) -> str:
    """``vllm serve`` with the flags the reader gave, plus ``changes`` (a fix's settings).

    ``changes["model"]`` replaces the model id (a quantized checkpoint from the catalog);
    ``quantization`` is not a flag (vLLM reads the method from the checkpoint's config) and ``gpu``
    is hardware.
    """
    flags = _current_flags(s)
    model = s.model_label
    for key, value in (changes or {}).items():
        if key == "model":
            model = str(value)
        elif key in ("quantization", "gpu"):
            continue
        elif key == "kv_cache_memory_bytes":
            flags.pop("gpu_memory_utilization", None)  # a fixed budget replaces the utilization
            flags[key] = value
        elif key in FLAG_BY_NAME:
            flags[key] = value
        else:
            raise ValueError(f"serve_command: {key!r} is not a flag of vllm_flags.FLAGS")
    return _serve_line(model, flags, _release(s))


def _feasible_view(lang: str, grid: FeasibleGrid) -> dict[str, object]:
    rows = [
        [fmt_int(n, lang)] + ["–" if c is None else _times(c, lang) for c in cells]
        for n, cells in zip(grid.lengths, grid.max_concurrency, strict=True)
    ]
    return {
        "caption": t(lang, "feasible.caption"),
        "columns": [t(lang, "feasible.context")]
        + [f"kv_cache_dtype={d}" for d in grid.kv_cache_dtypes],
        "rows": rows,
    }


def _budget_chart(lang: str, v: Verdict) -> str:
    """Where one GPU's memory goes, with what one request needs marked against the KV segment."""
    from . import charts  # only a face that draws loads the SVG writer (and `html`)

    b = v.budget
    est = t(lang, "fig.estimate_suffix")
    segs: list[charts.Segment] = []
    if b.source == BudgetSource.PROFILED:
        for key, val in zip(
            _BUDGET_TERMS,
            (b.weights_bytes, b.activation_bytes, b.non_torch_bytes, b.cudagraph_bytes),
            strict=True,
        ):
            label = t(lang, f"fig.{key}") + (est if key in b.estimated else "")
            segs.append(
                charts.Segment(
                    key=key, label=label, value_bytes=val, value_text=gib_text(val, lang)
                )
            )
    segs.append(
        charts.Segment(
            key="kv",
            label=t(lang, "fig.kv"),
            value_bytes=max(b.available_kv_bytes, 0),
            value_text=gib_text(b.available_kv_bytes, lang),
        )
    )
    total = b.total_bytes or 0
    if b.source == BudgetSource.PROFILED and total:
        segs.append(
            charts.Segment(
                key="headroom",
                label=t(lang, "fig.headroom"),
                value_bytes=b.headroom_bytes,
                value_text=gib_text(b.headroom_bytes, lang),
            )
        )
    needed = None
    if v.needed_kv_bytes > 0 and b.available_kv_bytes > 0:
        needed = charts.Marker(
            at_bytes=v.needed_kv_bytes,
            label=t(lang, "chart.budget.needed", needed=gib_text(v.needed_kv_bytes, lang)),
        )
    non_kv = sum(max(sg.value_bytes, 0) for sg in segs if sg.key not in ("kv", "headroom"))
    scale_total = max(total, sum(max(sg.value_bytes, 0) for sg in segs), non_kv + v.needed_kv_bytes)
    band = None
    low, high = available_band(v)
    if low != high:
        # the KV segment's end moves with the estimate: shade where it likely lies
        band = (non_kv + max(low, 0), non_kv + max(high, 0))
    return charts.budget_bar_svg(
        t(lang, "chart.budget.title"), segs, scale_total, needed=needed, band=band
    )


def _concurrency_chart(lang: str, a: Analysis) -> str:
    from . import charts

    v = a.verdict
    if not a.concurrency_curve and v.status != "does_not_fit":
        return ""
    points = [charts.Point(x=p.max_model_len, y=p.max_concurrency) for p in a.concurrency_curve]
    marker = (
        charts.Point(x=v.max_model_len, y=v.max_concurrency)
        if v.fits and v.max_concurrency is not None
        else None
    )
    label = t(lang, "chart.you_at", length=charts.short_tokens(v.max_model_len))
    return charts.concurrency_svg(
        t(lang, "chart.concurrency.title"),
        t(lang, "chart.concurrency.x"),
        t(lang, "chart.concurrency.y"),
        points,
        marker,
        label,
        reader_x=v.max_model_len if v.max_model_len > 0 else None,
    )


def _rec_text(lang: str, r: Recommendation) -> tuple[str, str]:
    """The title and detail of a fix; a fixed budget with a computed size quotes it."""
    key = f"rec.{r.code}" + (f".{r.variant}" if r.variant else "")
    params = dict(r.params)
    if r.code == "kv_cache_memory_bytes" and r.variant != "free":
        params["value"] = r.settings["kv_cache_memory_bytes"]
    # The title quotes flag values in vLLM's syntax; the explanation writes token counts as the
    # reader does.
    prose = {
        k: fmt_int(v, lang) if type(v) is int and k != "value" else v for k, v in params.items()
    }
    for k in ("edge_gib", "gib"):
        value = params.get(k)
        if r.variant in ("band", "borderline", "usable") and isinstance(value, float):
            prose[k] = fmt_fixed(value, 1 if k == "edge_gib" else 2, lang)
    return t(lang, f"{key}.title", **params), t(lang, f"{key}.detail", **prose)


def _rec_outcome(lang: str, v: Verdict | None, r: Recommendation | None = None) -> str:
    if v is None:
        return t(lang, "rec.result.unknown")
    if (
        not v.fits
        and r is not None
        and r.budget_edge == "low"
        and r.base_available_kv_bytes is not None
        and v.status != "mamba_blocks_below_max_num_seqs"
    ):
        # planned at the band's pessimistic edge: compared with the reader's figure at that same
        # edge
        return t(
            lang,
            "rec.result.does_not_fit_edge",
            needed=gib_text(v.needed_kv_bytes, lang),
            available=gib_text(max(v.available_kv_bytes, 0), lang),
            base=gib_text(max(r.base_available_kv_bytes, 0), lang),
        )
    if v.fits:
        return t(
            lang,
            "rec.result.fits",
            concurrency=fmt_fixed(v.max_concurrency or 0, 2, lang),
            max_model_len=fmt_int(v.max_model_len, lang),
        )
    if v.status == "mamba_blocks_below_max_num_seqs":
        return t(
            lang,
            "rec.result.mamba_blocks",
            blocks=fmt_int(v.num_gpu_blocks or 0, lang),
            max_num_seqs=fmt_int(v.max_num_seqs, lang),
        )
    return t(
        lang,
        "rec.result.does_not_fit",
        needed=gib_text(v.needed_kv_bytes, lang),
        available=gib_text(max(v.available_kv_bytes, 0), lang),
    )


def _rec_view(lang: str, s: Scenario, r: Recommendation) -> dict[str, object]:
    title, detail = _rec_text(lang, r)
    figures = [{"label": t(lang, "rec.result.label"), "value": _rec_outcome(lang, r.verdict, r)}]
    if r.exceeds_gpu and r.verdict is not None:
        figures.append({"label": "!", "value": t(lang, "rec.result.exceeds_gpu")})
    command = serve_command(s, r.settings)
    if command == serve_command(s):
        # a fix that changes no flag (another GPU, another checkpoint) prints no command of its own
        command = ""
    return {
        "code": r.code,
        "anchor": r.anchor,
        "title": title,
        "detail": detail,
        "settings": dict(r.settings),
        "serve_command": command,
        "figures": figures,
        "fits": None if r.verdict is None else r.verdict.fits,
    }


def _figure(key: str, label: str, value: str, estimate: bool) -> dict[str, object]:
    return {"key": key, "label": label, "value": value, "estimate": estimate}


def _available_text(v: Verdict, lang: str) -> str:
    """``5.10 GiB (5.48 GB), likely 4.7–5.4 GiB`` when the budget is an estimate's band."""
    value = _signed_gib_gb(v.available_kv_bytes, lang)
    low, high = available_band(v)
    if low == high or high <= 0:
        return value  # no band, or nothing left at either edge: the deficit speaks for itself
    return t(
        lang,
        "fig.available_band",
        value=value,
        low=fmt_fixed(max(low, 0) / GIB_BYTES, 1, lang),
        high=fmt_fixed(high / GIB_BYTES, 1, lang),
    )


def _figures(lang: str, v: Verdict) -> list[dict[str, object]]:
    """The result's key figures, then (for a profiled budget) where the GPU's memory goes."""
    b = v.budget
    est = bool(b.estimated)
    per_token = v.kv_bytes_per_token
    figures = [
        _figure(
            "kv_per_token",
            t(lang, "fig.kv_per_token"),
            f"{fmt_int(per_token, lang)} B ({fmt_fixed(per_token / 1024, 1, lang)} KiB)",
            False,
        ),
        _figure(
            "max_model_len",
            t(lang, "fig.max_model_len"),
            t(lang, "fig.len_value", value=fmt_int(v.max_model_len, lang)),
            False,
        ),
        _figure("needed_kv", t(lang, "fig.needed_kv"), gib_gb_text(v.needed_kv_bytes, lang), False),
    ]
    if v.status != "weights_exceed_gpu":  # loading fails first: vLLM never gets to a KV figure
        figures += [
            _figure("available_kv", t(lang, "fig.available_kv"), _available_text(v, lang), est),
            _figure(
                "estimated_max_len",
                t(lang, "fig.estimated_max_len"),
                t(lang, "fig.len_value", value=fmt_int(v.estimated_max_model_len, lang)),
                est,
            ),
        ]
    if v.fits:
        figures += [
            _figure(
                "num_blocks",
                t(lang, "fig.num_blocks"),
                t(
                    lang,
                    "fig.blocks_value",
                    blocks=fmt_int(v.num_gpu_blocks or 0, lang),
                    block_size=v.block_size,
                ),
                est,
            ),
            _figure(
                "tokens",
                t(lang, "fig.tokens"),
                t(lang, "fig.tokens_value", tokens=fmt_int(v.gpu_kv_cache_tokens or 0, lang)),
                est,
            ),
            _figure(
                "concurrency",
                t(lang, "fig.concurrency"),
                t(
                    lang,
                    "fig.concurrency_value",
                    concurrency=fmt_fixed(v.max_concurrency or 0, 2, lang),
                ),
                est,
            ),
        ]
    if b.source == BudgetSource.PROFILED:
        suffix = t(lang, "fig.estimate_suffix")
        for key, val in (
            ("total", b.total_bytes),
            ("requested", b.requested_bytes),
            ("weights", b.weights_bytes),
            ("activation", b.activation_bytes),
            ("non_torch", b.non_torch_bytes),
            ("cudagraph", b.cudagraph_bytes),
        ):
            estimated = key in b.estimated
            figures.append(
                _figure(
                    key,
                    t(lang, f"fig.{key}") + (suffix if estimated else ""),
                    gib_gb_text(val or 0, lang),
                    estimated,
                )
            )
            if (
                key == "weights"
            ):  # what --speculative-config / --enable-lora load with the model (part of it)
                figures += _loaded_parts(lang, v, suffix)
    return figures


def _loaded_parts(lang: str, v: Verdict, suffix: str) -> list[dict[str, object]]:
    """The drafter's and the LoRA slots' share of "Model weights", when set."""
    b, spec = v.budget, v.deployment.speculative
    drafter = "draft_weights_eagle3" if spec and spec.method == "eagle3" else "draft_weights"
    parts = (("draft_weights", drafter, b.draft_weights_bytes), ("lora", "lora", b.lora_bytes))
    return [
        _figure(part, t(lang, f"fig.{label}") + suffix, gib_gb_text(size, lang), True)
        for part, label, size in parts
        if size
    ]


def _notes(lang: str, a: Analysis) -> list[str]:
    v = a.verdict
    b = v.budget
    notes = []
    if a.scenario.model.assumed:
        what = ", ".join(f'{key} "{quote(value, 80)}"' for key, value in a.scenario.model.assumed)
        notes.append(t(lang, "note.assumed_architecture", what=what))
    if b.estimated:
        notes.append(t(lang, "note.estimates"))
    if b.has_band:
        notes.append(t(lang, "note.band"))
    if b.encoder_profile in ("estimated", "unknown", "skipped"):
        notes.append(t(lang, f"note.encoder_{b.encoder_profile}"))
    if b.estimated and unified_memory(v.deployment):
        notes.append(t(lang, "note.unified_memory"))
    if (
        b.source == BudgetSource.PROFILED
        and "non_torch" in b.estimated
        and interconnect_assumed(v.deployment)
    ):
        notes.append(
            t(lang, "note.interconnect_assumed", non_torch=gib_text(b.non_torch_bytes, lang))
        )
    if b.source == BudgetSource.PROFILED:
        counts = term_row_counts()
        for term, size in (
            ("weights", b.weights_bytes),
            ("activation", b.activation_bytes),
            ("non_torch", b.non_torch_bytes),
            ("cudagraph", b.cudagraph_bytes),
        ):
            if term in b.estimated and size > 0 and counts.get(term, 0) < MIN_TERM_ROWS:
                notes.append(
                    t(
                        lang,
                        "note.term_few_rows",
                        term=t(lang, f"fig.{term}"),
                        rows=counts.get(term, 0),
                    )
                )
    if b.source == BudgetSource.MEASURED:
        notes.append(t(lang, "note.measured"))
    if a.estimated_available_low is not None:
        notes.append(
            t(
                lang,
                "note.available_implausible",
                available=fmt_fixed(v.budget.available_kv_bytes / GIB_BYTES, 2, lang),
                low=fmt_fixed(a.estimated_available_low / GIB_BYTES, 2, lang),
            )
        )
    if b.source == BudgetSource.KV_CACHE_MEMORY_BYTES:
        notes.append(t(lang, "note.fixed_budget"))
    if not v.hma_enabled and len(set(a.scenario.model.layer_kinds)) > 1:
        notes.append(t(lang, "note.hma_off"))
    if v.grouping.num_padding_layers:
        notes.append(t(lang, "note.padding", n=v.grouping.num_padding_layers))
    if v.mamba is not None and v.mamba.mamba_cache_mode != "all":
        page = v.mamba.mamba_page_size_padded or v.mamba.mamba_page_size_bytes
        states = (2 if v.mamba.mamba_cache_mode == "align" else 1) + v.mamba.num_speculative_blocks
        notes.append(
            t(
                lang,
                "note.mamba",
                mode=v.mamba.mamba_cache_mode,
                block=v.mamba.attention_block_size,
                page=gib_text(page, lang)
                if page >= GiB
                else f"{fmt_fixed(page / MiB, 2, lang)} MiB",
                states=states,
            )
        )
    notes += _spec_lora_notes(lang, a)
    notes.append(t(lang, "note.rules", rules=v.deployment.rules.description))
    return notes


def _spec_lora_notes(lang: str, a: Analysis) -> list[str]:
    """What --speculative-config and --enable-lora add, and what is left out (kvcalc.speculative,
    kvcalc.lora)."""
    v, model = a.verdict, a.scenario.model
    d = v.deployment
    notes = []
    spec = d.speculative
    if spec is not None and spec.method == "mtp":
        draft = draft_weights_estimate(model, d)
        notes.append(
            t(
                lang,
                "note.spec_mtp",
                layers=model.num_mtp_layers,
                tokens=spec.num_speculative_tokens,
                weights=gib_text(draft.bytes, lang),
                high=gib_text(draft.high_bytes, lang),
            )
        )
    elif spec is not None and spec.method == "eagle3":
        notes.append(
            t(
                lang,
                "note.spec_eagle3",
                layers=spec.draft_layers,
                tokens=spec.num_speculative_tokens,
                weights=gib_text(spec.draft_weight_bytes, lang),
            )
        )
    elif spec is not None:
        notes.append(t(lang, "note.spec_ngram", tokens=spec.num_speculative_tokens))
    if spec is not None and v.mamba is not None:
        notes.append(t(lang, "note.spec_mamba", tokens=spec.num_speculative_tokens))
    if d.calculate_kv_scales and d.rules.calculate_kv_scales_deprecated:
        notes.append(
            t(
                lang,
                "note.calculate_kv_scales_deprecated",
                since=d.rules.first_release_label("calculate_kv_scales_deprecated"),
                removed=d.rules.first_release_label("calculate_kv_scales_removed"),
            )
        )
    split = _split_of(v)
    if split is not None:
        how = (
            t(lang, "note.expert_parallel.ep", local=split.local_experts, experts=split.num_experts)
            if split.expert_parallel
            else t(lang, "note.expert_parallel.tp", ranks=split.ranks)
        )
        notes.append(
            t(
                lang,
                "note.expert_parallel",
                dp=d.data_parallel_size,
                tp=d.tensor_parallel_size,
                ranks=split.ranks,
                how=how,
            )
        )
    if d.lora is not None:
        notes.append(
            t(
                lang,
                "note.lora",
                loras=d.lora.max_loras,
                rank=d.lora.max_lora_rank,
                slots=gib_text(lora_estimate(model, d).bytes, lang),
                cpu=d.lora.max_cpu_loras or d.lora.max_loras,
            )
        )
    return notes


def _verdict_view(lang: str, v: Verdict, band: BandVerdict = BandVerdict.FITS) -> dict[str, str]:
    kind = "borderline" if band == BandVerdict.BORDERLINE else _VERDICT_KIND[v.status]
    b = v.budget
    low, high = available_band(v)
    params = dict(
        max_model_len=fmt_int(v.max_model_len, lang),
        needed=gib_gb_text(v.needed_kv_bytes, lang),
        available=_signed_gib_gb(v.available_kv_bytes, lang),
        concurrency=fmt_fixed(v.max_concurrency or 0, 2, lang),
        tokens=fmt_int(v.gpu_kv_cache_tokens or 0, lang),
        estimated=fmt_int(v.estimated_max_model_len, lang),
        weights=gib_text(b.weights_bytes, lang),
        total=gib_text(b.total_bytes or 0, lang),
        blocks=fmt_int(v.num_gpu_blocks or 0, lang),
        max_num_seqs=fmt_int(v.max_num_seqs, lang),
        low=fmt_fixed(max(low, 0) / GIB_BYTES, 1, lang),
        high=fmt_fixed(max(high, 0) / GIB_BYTES, 1, lang),
    )
    return {
        "kind": kind,
        "title": t(lang, f"verdict.{kind}.title"),
        "summary": t(lang, f"verdict.{kind}.summary", **params),
    }


def build_report(lang: str, a: Analysis, *, with_charts: bool = True) -> dict[str, object]:
    """The localized view model the widget places in the page; the CLI's text face, which draws
    no chart, asks ``with_charts=False`` and gets empty SVG strings."""
    lang = lang_or_default(lang)
    s, v = a.scenario, a.verdict
    recommended = a.recommended
    return {
        "lang": lang,
        "verdict": _verdict_view(lang, v, a.band_verdict),
        "figures": _figures(lang, v),
        "vllm_lines": list(v.vllm_lines),
        "recommendations": [_rec_view(lang, s, r) for r in a.recommendations],
        "serve_command": serve_command(s),
        "serve_command_label": t(lang, "serve.current.starts" if v.fits else "serve.current.fails"),
        "serve_recommended": serve_command(s, recommended.settings) if recommended else None,
        "feasible": _feasible_view(lang, a.feasible),
        "charts": {
            "budget_svg": _budget_chart(lang, v) if with_charts else "",
            "concurrency_svg": _concurrency_chart(lang, a) if with_charts else "",
        },
        "notes": _notes(lang, a),
    }


def _log_figures(lang: str, d: Diagnosis) -> list[dict[str, object]]:
    f = d.figures
    figures = []
    if f.max_model_len:
        figures.append(
            _figure(
                "max_model_len",
                t(lang, "fig.max_model_len"),
                t(lang, "fig.len_value", value=fmt_int(f.max_model_len, lang)),
                False,
            )
        )
    if f.needed_kv_bytes is not None:
        figures.append(
            _figure(
                "needed_kv", t(lang, "fig.needed_kv"), gib_gb_text(f.needed_kv_bytes, lang), False
            )
        )
    if f.available_kv_bytes is not None:
        figures.append(
            _figure(
                "available_kv",
                t(lang, "fig.available_kv"),
                _signed_gib_gb(f.available_kv_bytes, lang),
                False,
            )
        )
    if f.estimated_max_model_len:
        figures.append(
            _figure(
                "estimated_max_len",
                t(lang, "fig.estimated_max_len"),
                t(lang, "fig.len_value", value=fmt_int(f.estimated_max_model_len, lang)),
                False,
            )
        )
    if f.kv_bytes_per_token:
        figures.append(
            _figure(
                "kv_per_token",
                t(lang, "fig.kv_per_token_from_log"),
                f"≈ {fmt_int(f.kv_bytes_per_token, lang)} B",
                True,
            )
        )
    return figures


def _log_flags(d: Diagnosis) -> dict[str, object]:
    """A model-less log's settings as the values vLLM reads (``enable_prefix_caching`` "false" →
    False): what the reader gave, never what vLLM chose itself (``Diagnosis.chosen_by_vllm``); a
    value the release would refuse is left out (the plan, once a model is chosen, says why)."""
    release = _log_release(d)
    flags: dict[str, object] = {}
    for flag in FLAGS:
        raw = d.inputs.get(flag.name)
        if (
            raw is None
            or flag.name in d.chosen_by_vllm
            or (isinstance(raw, str) and not raw.strip())
        ):
            continue
        try:
            value = typed_value(flag, raw, release)
        except CalcError:
            continue
        if value is not None and accepts(flag, release):
            flags[flag.name] = value
    return flags


def _log_release(d: Diagnosis) -> RuleSet:
    """The rules of the log's release (the newest when it names none, or one the core cannot
    read)."""
    try:
        return rules_for(d.inputs.get("vllm_version") or None)
    except CalcError:
        return rules_for(None)


def build_log_report(lang: str, d: Diagnosis) -> dict[str, object] | None:
    """A log without a model the core can plan (none named, or one it cannot plan): what its own
    numbers answer, and a request to choose the model.

    None when the log holds no number to show and no fix (another process's memory has its fixes
    without a model).
    """
    lang = lang_or_default(lang)
    if not d.figures.any and not d.recommendations:
        return None
    kind = d.reading.diagnosis
    flags = _log_flags(d)
    release = _log_release(d)
    recs = []
    for r in d.recommendations:
        title, detail = _rec_text(lang, r)
        recs.append(
            {
                "code": r.code,
                "anchor": r.anchor,
                "title": title,
                "detail": detail,
                "settings": dict(r.settings),
                "serve_command": _serve_line(_UNKNOWN_MODEL, {**flags, **r.settings}, release)
                if r.settings
                else "",
                "figures": [
                    {
                        "label": t(lang, "rec.result.label"),
                        "value": t(lang, "rec.result.choose_model"),
                    }
                ],
                "fits": None,
            }
        )
    return {
        "lang": lang,
        "verdict": {
            "kind": f"log_{kind}",
            "title": t(lang, d.title_key),
            "summary": t(lang, "verdict.log_only.summary"),
        },
        "figures": _log_figures(lang, d),
        "vllm_lines": list(
            dict.fromkeys(quote(line, lang=lang) for _key, line in d.reading.evidence)
        ),
        "recommendations": recs,
        "serve_command": "",
        "serve_command_label": "",
        "serve_recommended": None,
        "feasible": {"caption": "", "columns": [], "rows": []},
        "charts": {"budget_svg": "", "concurrency_svg": ""},
        # a model the log names but the core cannot plan says so; what neither the log nor the form
        # gives (the model, the GPU) is asked for in one line by each face (Diagnosis.missing)
        "notes": (
            [t(lang, "note.model_not_planned")] if "model" in d.stated and not d.missing else []
        )
        + log_notes(lang, d),
    }


def capacity_fit_notes(lang: str, d: Diagnosis) -> list[str]:
    """How the recomputed plan meets the log's own capacity (log_capacity.py): refined within the
    log's rounding, or off by some blocks, or out of reach of this model and these settings."""
    return _chosen_model_notes(lang, d) + _capacity_fit_notes(lang, d) + log_notes(lang, d)


def log_notes(lang: str, d: Diagnosis) -> list[str]:
    """The reading's own notes (several starts or models, a bounded parallel size, pre-flight) and
    the warnings where the recomputation misses the log's exact figures (log_mismatch.py)."""
    from ..logs.log_mismatch import mismatch_notes, reading_notes  # only a pasted log needs them

    return mismatch_notes(lang, d.mismatches) + reading_notes(lang, d.reading, d.inferred)


def _chosen_model_notes(lang: str, d: Diagnosis) -> list[str]:
    """A log that names a catalog model planned as another one the reader chose (typed for an
    earlier log, or ``--model``): every figure is the chosen model's, so the note names both. A log
    naming a local path says nothing: the chosen model is the reader's name for it."""
    from ..logs.diagnose import catalog_model_named  # only a pasted log needs it

    if d.analysis is None or "model" in d.stated:
        return []
    logged = catalog_model_named(d.reading)
    planned = d.analysis.scenario.model_label
    if logged is None or logged == planned:
        return []
    return [t(lang, "note.chosen_model_over_log", logged=logged, planned=quote(planned, lang=lang))]


def _capacity_fit_notes(lang: str, d: Diagnosis) -> list[str]:
    fit = d.capacity_fit
    if fit is None or d.analysis is None:
        return []
    gib = fmt_printed(fit.logged_gib, lang)
    v = d.analysis.verdict
    if (
        fit.status == "exact"
        and not v.fits
        and not (v.num_gpu_blocks or v.limiting.num_blocks)
        and v.estimated_max_model_len
    ):  # a failed check: the estimate it printed is the capacity fitted
        return [
            t(
                lang,
                "note.log_refined_estimate",
                gib=gib,
                bytes=fmt_int(fit.available_kv_bytes, lang),
                tokens=fmt_int(v.estimated_max_model_len, lang),
            )
        ]
    if fit.status == "exact":
        return [
            t(
                lang,
                "note.log_refined",
                gib=gib,
                bytes=fmt_int(fit.available_kv_bytes, lang),
                blocks=fmt_int(
                    d.analysis.verdict.num_gpu_blocks
                    or d.analysis.verdict.limiting.num_blocks
                    or 0,
                    lang,
                ),
            )
        ]
    if (
        fit.status == "least_worker"
        and fit.logged_blocks is not None
        and fit.recomputed_blocks is not None
    ):
        return [
            t(
                lang,
                "note.log_least_worker",
                gib=gib,
                logged=fmt_int(fit.logged_blocks, lang),
                blocks=fmt_int(fit.recomputed_blocks - fit.logged_blocks, lang),
                implied=fmt_fixed(fit.available_kv_bytes / GiB, 2, lang),
            )
        ]
    if (
        fit.status == "disagrees"
        and fit.logged_blocks is not None
        and fit.recomputed_blocks is not None
    ):
        return [
            t(
                lang,
                "note.log_disagrees",
                blocks=fmt_int(abs(fit.logged_blocks - fit.recomputed_blocks), lang),
                logged=fmt_int(fit.logged_blocks, lang),
                recomputed=fmt_int(fit.recomputed_blocks, lang),
                gib=gib,
            )
        ]
    return [t(lang, "note.log_unreachable", gib=gib)]


def with_capacity_fit_notes(
    report: dict[str, object], lang: str, d: Diagnosis
) -> dict[str, object]:
    """The recomputed plan's report with the capacity-fit note leading its notes."""
    notes = report.get("notes")
    report["notes"] = capacity_fit_notes(lang, d) + (list(notes) if isinstance(notes, list) else [])
    return report


def error_message(lang: str, err: CalcError) -> str:
    """The error in the reader's language, falling back to the core's English text."""
    key = f"err.{err.code}"
    table = STRINGS[lang_or_default(lang)]
    fallback = quote(
        str(err), 4 * MAX_QUOTE_CHARS, lang
    )  # the English text may quote a value whole
    if key not in table:
        return fallback
    params = {
        "field": err.field or "",
        "value": "",
        "minimum": "",
        "maximum": "",
        "limit": "",
        "key": "",
        "choices": "",
        "model_type": "",
        "line": "",
        "column": "",
        "assertion": "",
    }
    # a value already cut by inputs.py keeps its "… (N characters)": room for it before a second cut
    params.update(
        {
            k: quote(
                "∞" if v is None else v if isinstance(v, str) else shorten(v, 4 * MAX_QUOTE_CHARS),
                MAX_QUOTE_CHARS + 64,
                lang,
            )
            for k, v in err.params.items()
        }
    )
    try:
        return table[key].format(**params)
    except (KeyError, IndexError, ValueError):
        return fallback
