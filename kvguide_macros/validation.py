"""The validation page's tables: the budget estimate against every public log used, computed at build time.

The rows and the split come from the core (``kvcalc.budget.validation``), so the page
can never drift from the code the calculator runs; this module only lays them
out as Markdown in the page's language.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from kvcalc.budget.validation import ValidationRow, excluded_logs, validation_rows, validation_summary
from kvcalc.logs.holdout import (
    HeldOutRow,
    HeldOutSummary,
    heldout_rows,
    heldout_summary,
    heldout_terms,
    protocol,
    source_of,
    term_residuals,
)
from kvcalc.numfmt import fmt_fixed, fmt_int
from kvcalc.strings import t as core_t

from .strings import t
from .validation_reasons import reason

__all__ = ["SummaryFigures", "validation_table", "validation_summary_table", "excluded_table", "summary_figures",
           "HeldOutFigures", "heldout_table", "heldout_summary_table", "heldout_figures", "heldout_sentence",
           "heldout_protocol", "heldout_misses", "DevelopmentOverlap", "development_overlap",
           "term_residuals_table"]


@dataclass(frozen=True, kw_only=True)
class SummaryFigures:
    """The validation half's figures as the prose quotes them."""

    count: str
    median: str
    worst: str


def _md(headers: list[str], rows: list[list[str]], align: str) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines)


def _breakable(name: str) -> str:
    """A log's file name with a line-break opportunity after each ``_`` and ``.`` (``<wbr>``): on a phone
    the long names wrap at their word boundaries instead of widening the table."""
    return html.escape(name).replace("_", "_<wbr>").replace(".", ".<wbr>")


def _gib(lang: str, x: float) -> str:
    return fmt_fixed(x, 2, lang)


def _row(lang: str, r: ValidationRow) -> list[str]:
    gpus = f"{r.gpu} × {r.num_gpus}" if r.num_gpus > 1 else r.gpu
    error = f"{fmt_fixed(r.error_pct, 1, lang)} %" if r.logged_gib else "–"
    if r.error_gib > 0:
        error = "+" + error
    return [f"[{r.file}]({r.source_url})", r.model, gpus, r.vllm_version, _gib(lang, r.logged_gib),
            _gib(lang, r.estimate_gib), f"{_gib(lang, r.low_gib)}–{_gib(lang, r.high_gib)}", error]


def validation_table(lang: str, split: str) -> str:
    """Every log of one half (``fit`` or ``validation``) with the estimate, its band and the error."""
    headers = [t(lang, f"validation.{k}") for k in ("log", "model", "gpu", "release", "logged", "estimate", "band", "error")]
    return _md(headers, [_row(lang, r) for r in validation_rows(split)], "llllrrrr")


def validation_summary_table(lang: str) -> str:
    """Median, worst and over-optimistic counts for each half."""
    headers = [t(lang, f"validation.{k}") for k in ("half", "count", "median", "worst", "over", "below_band", "in_band")]
    rows = []
    for split in ("fit", "validation"):
        s = validation_summary(validation_rows(split))
        rows.append([t(lang, f"validation.split.{split}"), fmt_int(s.count, lang),
                     f"{fmt_fixed(s.median_abs_error_pct, 2, lang)} %", f"{fmt_fixed(s.worst_error_pct, 1, lang)} %",
                     fmt_int(s.over_optimistic, lang), fmt_int(s.below_band_over_2pct, lang), fmt_int(s.in_band, lang)])
    return _md(headers, rows, "lrrrrrr")


def excluded_table(lang: str) -> str:
    """Logs read but not used, with the reason in the page's language (``validation_reasons``)."""
    return _md([t(lang, "validation.log"), t(lang, "validation.reason")],
               [[f"<code>{_breakable(name)}</code>", reason(lang, name, why)] for name, why in excluded_logs()], "ll")


def summary_figures(lang: str) -> SummaryFigures:
    s = validation_summary(validation_rows("validation"))
    return SummaryFigures(count=fmt_int(s.count, lang), median=fmt_fixed(s.median_abs_error_pct, 1, lang),
                          worst=fmt_fixed(s.worst_error_pct, 1, lang))


# --- held-out logs (kvcalc.logs.holdout) ---------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class HeldOutFigures:
    """The held-out figures as the prose quotes them (the page's rounding)."""

    count: str
    sources: str
    consumer: str
    median: str
    in_band: str
    above: str
    below: str
    over: str
    worst_over_gib: str
    worst_under: str
    right: str
    on_target: str = ""
    """Rows within 5 % of the log or inside a band no wider than ±10 % (kvcalc.logs.holdout
    TARGET_*)."""
    beyond: str = ""
    """Rows more than 2 % beyond the band on the optimistic side."""


def _source_cell(lang: str, file: str, url: str) -> str:
    """A link where the source has an address; the index hit id as text where it has none."""
    if url.startswith("https://"):
        return f"[{file}]({url})"
    hit = url.removeprefix("find_string hit id ").split(" ", 1)[0]
    return f"{file} ({t(lang, 'validation.holdout.index_hit', hit=hit)})"


def _yes(lang: str, value: bool) -> str:
    return t(lang, "validation.holdout.yes" if value else "validation.holdout.no")


def _heldout_row(lang: str, h: HeldOutRow) -> list[str]:
    r = h.row
    gpus = f"{r.gpu} × {r.num_gpus}" if r.num_gpus > 1 else r.gpu
    sign = "+" if r.error_gib > 0 else ""
    return [_source_cell(lang, r.file, r.source_url), r.model, gpus, r.vllm_version, fmt_int(h.max_model_len, lang),
            _gib(lang, r.logged_gib), _gib(lang, r.estimate_gib), f"{_gib(lang, r.low_gib)}–{_gib(lang, r.high_gib)}",
            sign + _gib(lang, r.error_gib), f"{sign}{fmt_fixed(r.error_pct, 1, lang)} %", _yes(lang, r.in_band),
            t(lang, f"validation.holdout.verdict.{h.estimated_verdict.value}"), _yes(lang, h.verdict_right)]


def heldout_table(lang: str) -> str:
    """Every held-out log: logged and estimated GiB, the error in GiB and %, the band, and the verdict check."""
    keys = ("log", "model", "gpu", "release", "max_model_len", "logged", "estimate", "band", "error_gib", "error_pct",
            "in_band", "verdict", "right")
    return _md([t(lang, f"validation.holdout.{k}") for k in keys], [_heldout_row(lang, h) for h in heldout_rows()],
               "llllrrrrrrlll")


def _summary_cells(lang: str, label: str, s: HeldOutSummary) -> list[str]:
    median = f"{fmt_fixed(s.median_abs_error_pct, 1, lang)} %" if s.median_abs_error_pct is not None else "–"
    return [label, fmt_int(s.count, lang), median, fmt_int(s.in_band, lang), fmt_int(s.verdict_right, lang),
            fmt_int(s.above, lang), fmt_int(s.below, lang), fmt_int(s.over_promise, lang),
            _gib(lang, s.worst_over_gib), f"{fmt_fixed(s.worst_under_pct, 1, lang)} %"]


def heldout_summary_table(lang: str) -> str:
    """All held-out rows and the consumer / workstation subset."""
    keys = ("subset", "count", "median", "in_band", "right", "above", "below", "over", "worst_over", "worst_under")
    rows = heldout_rows()
    consumer = tuple(h for h in rows if h.consumer)
    return _md([t(lang, f"validation.holdout.{k}") for k in keys],
               [_summary_cells(lang, t(lang, "validation.holdout.subset.all"), heldout_summary(rows)),
                _summary_cells(lang, t(lang, "validation.holdout.subset.consumer"), heldout_summary(consumer))], "lrrrrrrrrr")


def heldout_figures(lang: str) -> HeldOutFigures:
    rows = heldout_rows()
    s = heldout_summary(rows)
    return HeldOutFigures(count=fmt_int(s.count, lang), sources=fmt_int(len({h.source for h in rows}), lang),
                          consumer=fmt_int(sum(h.consumer for h in rows), lang),
                          median=fmt_fixed(s.median_abs_error_pct or 0.0, 1, lang), in_band=fmt_int(s.in_band, lang),
                          above=fmt_int(s.above, lang), below=fmt_int(s.below, lang), over=fmt_int(s.over_promise, lang),
                          worst_over_gib=_gib(lang, s.worst_over_gib), worst_under=fmt_fixed(s.worst_under_pct, 1, lang),
                          right=fmt_int(s.verdict_right, lang),
                          on_target=fmt_int(s.on_target, lang),
                          beyond=fmt_int(s.optimistic_beyond_band, lang))


def heldout_sentence(lang: str) -> str:
    """The held-out summary in one sentence (plus the caveat when no consumer card is held out)."""
    f = heldout_figures(lang)
    text = t(lang, "validation.holdout.sentence", **vars(f))
    text += " " + t(lang, "validation.holdout.target", **vars(f))
    if f.consumer == fmt_int(0, lang):
        text += " " + t(lang, "validation.holdout.no_consumer")
    return text


def heldout_misses(lang: str) -> str:
    """The closing note: each held-out row that misses the target, with its error and recorded
    cause."""
    misses = [h for h in heldout_rows() if not h.on_target]
    if not misses:
        return t(lang, "validation.holdout.misses_none")
    items = [f"- {_breakable(h.row.file)} ({_signed_pct(lang, h.row.error_pct)}): "
             + cause(lang, h) for h in misses]
    return t(lang, "validation.holdout.misses") + "\n\n" + "\n".join(items)


def cause(lang: str, h: HeldOutRow) -> str:
    """A miss's recorded cause in ``lang``, its figures filled from the core: the row's error and
    budget terms (``{weights_est}``, ``{weights_log}``, ``{weights_diff}``, ``{activation_est}``,
    ``{error_gib}``, ``{error_pct}``, ``{max_model_len}``; a cause uses those it names)."""
    if not h.miss_cause:
        return "–"
    estimated, logged = heldout_terms(h.row.file)
    weights_log = logged.get("weights", 0.0)
    return t(lang, f"validation.holdout.cause.{h.miss_cause}",
             weights_est=_gib(lang, estimated["weights"]), weights_log=_gib(lang, weights_log),
             weights_diff=_gib(lang, abs(estimated["weights"] - weights_log)),
             activation_est=_gib(lang, estimated["activation"]), error_gib=_gib(lang, abs(h.row.error_gib)),
             error_pct=_signed_pct(lang, h.row.error_pct), max_model_len=fmt_int(h.max_model_len, lang))


def _signed_pct(lang: str, x: float) -> str:
    return ("+" if x > 0 else "") + fmt_fixed(x, 1, lang) + " %"


def heldout_protocol(lang: str) -> str:
    """The protocol in the page's language: the date, the number of sources on each side."""
    p = protocol()
    dates = [d for d, _ in p.batches] or [p.decided]
    decided = ", ".join(dict.fromkeys(d[:10] for d in dates))
    return t(lang, "validation.holdout.protocol", decided=decided,
             development=fmt_int(len(p.development_sources), lang),
             held_out=fmt_int(len(p.held_out_sources), lang))


@dataclass(frozen=True, kw_only=True)
class DevelopmentOverlap:
    """Why the validation half is development, not held out: the rows it shares with the fit half
    (counts, formatted)."""

    validation: str
    """Validation rows."""
    same_source: str
    """Validation rows whose source also gave fit rows."""
    fit_same_source: str
    """Fit rows from those shared sources."""
    same_model: str
    """Validation rows whose model is also a fit row's."""


def development_overlap(lang: str) -> DevelopmentOverlap:
    fit, val = validation_rows("fit"), validation_rows("validation")
    fit_sources, val_sources = {source_of(r.source_url) for r in fit}, {source_of(r.source_url) for r in val}
    fit_models = {r.model for r in fit}
    return DevelopmentOverlap(validation=fmt_int(len(val), lang),
                              same_source=fmt_int(sum(source_of(r.source_url) in fit_sources for r in val), lang),
                              fit_same_source=fmt_int(sum(source_of(r.source_url) in val_sources for r in fit), lang),
                              same_model=fmt_int(sum(r.model in fit_models for r in val), lang))


def term_residuals_table(lang: str) -> str:
    """Per estimated term: how many fit rows print it and the spread of estimate − logged (5th–95th percentile)."""
    keys = ("term", "rows", "median", "p5", "p95", "note")
    rows = [[core_t(lang, f"fig.{r.term}"), fmt_int(r.rows, lang), _signed(lang, r.median_gib), _signed(lang, r.p5_gib),
             _signed(lang, r.p95_gib), t(lang, "validation.term.enough" if r.enough else "validation.term.few")]
            for r in term_residuals("fit")]
    return _md([t(lang, f"validation.term.{k}") for k in keys], rows, "lrrrrl")


def _signed(lang: str, x: float) -> str:
    """Two decimals with the sign of what they show (a residual under 0.005 GiB prints as 0.00)."""
    if abs(x) < 0.005:
        return _gib(lang, 0.0)
    return ("+" if x > 0 else "") + _gib(lang, x)
