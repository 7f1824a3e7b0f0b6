"""The validation page's tables: the budget estimate against every public log used, computed at build time.

The rows and the split come from the core (``kvcalc.validation``), so the page
can never drift from the code the calculator runs; this module only lays them
out as Markdown in the page's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from kvcalc.numfmt import fmt_fixed, fmt_int
from kvcalc.validation import ValidationRow, excluded_logs, validation_rows, validation_summary

from .strings import t

__all__ = ["SummaryFigures", "validation_table", "validation_summary_table", "excluded_table", "summary_figures"]


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
    """Logs read but not used, with the reason (in the data file's English)."""
    return _md([t(lang, "validation.log"), t(lang, "validation.reason")],
               [[f"`{name}`", reason] for name, reason in excluded_logs()], "ll")


def summary_figures(lang: str) -> SummaryFigures:
    s = validation_summary(validation_rows("validation"))
    return SummaryFigures(count=fmt_int(s.count, lang), median=fmt_fixed(s.median_abs_error_pct, 1, lang),
                          worst=fmt_fixed(s.worst_error_pct, 1, lang))
