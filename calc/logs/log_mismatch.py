"""Where the recomputed plan misses the exact figures a pasted log printed, and the log's own notes.

Why: ``diagnose`` lays the log's facts over the form and recomputes the plan; when the reader
supplies another model than the run's (or the log hides a flag), the recomputation prints other
figures than the log did, and the report would silently show ours. A figure vLLM prints exactly
(needed GiB to 0.01, the estimated maximum length, the token capacity, the block count) that the
plan misses beyond the log's own rounding gets a warning with the size of the miss and its likely
causes.

Rounding allowed (vllm/utils/mem_utils.py ``format_gib``: ``round(b / GiB, 2)``; ``%.2f`` before
2026): the needed GiB ± 0.005 GiB; the estimated length (vllm/v1/core/kv_cache_utils.py
``estimate_max_model_len``, a bisection on the length against the available bytes, which the log
rounds to 0.01 GiB) ± the tokens that 0.005 GiB holds plus one block; tokens, blocks and the
estimate through the capacity fit (log_capacity.py), which already searched the whole rounding
interval: a fit that is not EXACT or LEAST_WORKER is a miss.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ..analysis import Analysis
from ..numfmt import fmt_fixed, fmt_int, fmt_printed
from ..strings import t
from ..units import GiB
from .log_capacity import CapacityFit, FitStatus
from .logfacts import FACT_LABELS
from .logparse import LogReading

__all__ = [
    "FigureMismatch",
    "figure_mismatches",
    "mismatch_notes",
    "reading_notes",
    "mismatch_dicts",
]

_HALF_CENT_GIB = (
    GiB // 200 + 1
)  # 0.005 GiB, the log's rounding of a GiB figure (and a byte for the edge)


@dataclass(frozen=True, kw_only=True)
class FigureMismatch:
    key: str
    """The fact key of the printed figure (``needed_kv_gib``, ``estimated_max_model_len``, …)."""
    printed: float
    """The figure as the log prints it."""
    recomputed: float
    """The same figure recomputed from the log's facts and the reader's corrections."""
    tolerance: float
    """The largest difference the log's own rounding explains, in the figure's unit."""

    @property
    def difference_pct(self) -> float:
        return 100.0 * (self.recomputed - self.printed) / self.printed if self.printed else math.inf


def _number(facts: Mapping[str, object], key: str) -> float | None:
    value = facts.get(key)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def figure_mismatches(
    reading: LogReading, analysis: Analysis | None, fit: CapacityFit | None
) -> tuple[FigureMismatch, ...]:
    """The printed exact figures the recomputed plan misses beyond the log's rounding, in fact-key
    order."""
    if analysis is None:
        return ()
    v, facts = analysis.verdict, reading.facts
    out: list[FigureMismatch] = []
    needed = _number(facts, "needed_kv_gib")
    if needed is not None and needed > 0:
        recomputed = v.needed_kv_bytes / GiB
        if abs(recomputed - needed) * GiB > _HALF_CENT_GIB:
            out.append(
                FigureMismatch(
                    key="needed_kv_gib",
                    printed=needed,
                    recomputed=round(recomputed, 2),
                    tolerance=0.005,
                )
            )
    estimated = _number(facts, "estimated_max_model_len")
    missed = fit is not None and fit.status in (FitStatus.DISAGREES, FitStatus.UNREACHABLE)
    if (
        estimated is not None
        and estimated > 0
        and missed
        and v.estimated_max_model_len != estimated
    ):
        # the capacity fit searched the whole rounding of the available GiB for this estimate: a
        # miss is exact
        out.append(
            FigureMismatch(
                key="estimated_max_model_len",
                printed=estimated,
                recomputed=float(v.estimated_max_model_len),
                tolerance=0.0,
            )
        )
    elif (
        estimated is not None
        and estimated > 0
        and v.available_kv_bytes > 0
        and v.max_model_len > 0
        and not missed
    ):
        per_token = max(v.needed_kv_bytes / v.max_model_len, 1.0)
        block = max((g.spec.block_size for g in v.grouping.groups), default=v.block_size)
        tolerance = _HALF_CENT_GIB / per_token + block
        if abs(v.estimated_max_model_len - estimated) > tolerance:
            out.append(
                FigureMismatch(
                    key="estimated_max_model_len",
                    printed=estimated,
                    recomputed=float(v.estimated_max_model_len),
                    tolerance=round(tolerance),
                )
            )
    if fit is not None and fit.status in (FitStatus.DISAGREES, FitStatus.UNREACHABLE):
        for key, recomputed_value in (
            ("gpu_kv_cache_tokens", v.gpu_kv_cache_tokens),
            ("num_gpu_blocks", v.num_gpu_blocks),
        ):
            printed = _number(facts, key)
            if printed is not None and recomputed_value is not None and printed != recomputed_value:
                out.append(
                    FigureMismatch(
                        key=key, printed=printed, recomputed=float(recomputed_value), tolerance=0.0
                    )
                )
    return tuple(out)


def _value(key: str, x: float, lang: str) -> str:
    if key.endswith("_gib"):
        return f"{fmt_printed(x, lang)} GiB"
    return (
        t(lang, "fig.tokens_value", tokens=fmt_int(int(x), lang))
        if key != "num_gpu_blocks"
        else fmt_int(int(x), lang)
    )


def mismatch_notes(lang: str, mismatches: tuple[FigureMismatch, ...]) -> list[str]:
    """One warning per missed figure: printed vs recomputed, the difference in %, the likely
    causes."""
    notes = []
    for m in mismatches:
        pct = m.difference_pct
        pct_text = (
            f"{'+' if pct > 0 else '−' if pct < 0 else ''}{fmt_fixed(abs(pct), 1, lang)} %"
            if math.isfinite(pct)
            else "∞"
        )
        notes.append(
            t(
                lang,
                "note.log_mismatch",
                figure=t(lang, FACT_LABELS[m.key]),
                printed=_value(m.key, m.printed, lang),
                recomputed=_value(m.key, m.recomputed, lang),
                pct=pct_text,
            )
        )
    return notes


def mismatch_dicts(mismatches: tuple[FigureMismatch, ...]) -> list[dict[str, object]]:
    """The warnings for ``--json`` (key ``mismatches``): the fact, both figures, the difference in
    %."""
    return [
        {
            "fact": m.key,
            "printed": m.printed,
            "recomputed": m.recomputed,
            "tolerance": m.tolerance,
            "difference_pct": round(m.difference_pct, 2)
            if math.isfinite(m.difference_pct)
            else None,
        }
        for m in mismatches
    ]


def reading_notes(lang: str, reading: LogReading, inferred: tuple[str, ...]) -> list[str]:
    """What the reading itself should say: several starts, several models, a parallel size only
    bounded below by the worker prefixes, a pre-flight plan."""
    notes = []
    if reading.diagnosis == "pre_flight":
        notes.append(t(lang, "note.pre_flight"))
    if reading.starts > 1:
        notes.append(t(lang, "note.two_starts", n=reading.starts))
    if len(reading.models) > 1:
        notes.append(
            t(lang, "note.two_models", models=", ".join(reading.models), used=reading.models[-1])
        )
    for key in inferred:
        n = reading.facts.get(f"{key}_at_least")
        if isinstance(n, int):
            notes.append(
                t(
                    lang,
                    "note.parallel_at_least",
                    what=t(lang, f"fact.{key}").lower() if lang != "zh" else t(lang, f"fact.{key}"),
                    n=n,
                )
            )
    return notes
