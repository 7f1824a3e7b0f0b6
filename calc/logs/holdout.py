"""The no-log budget estimate against public logs that played no part in building it.

``data/holdout.json`` records the protocol (decided 2026-12-01, before any of its rows was
estimated): logs are grouped by source (a repository, a thread, a site, an author), every source
that gave a row of ``data/validation.json`` is development, every other source is held out whole.
This module estimates each held-out row exactly as the calculator would (catalog model and GPU,
the release's rules, ``memory_budget``) and measures what a reader with a new log gets: the error
of the available KV memory, whether the logged figure lies in the band, and whether the verdict at
the log's ``max_model_len`` (fits / borderline / does not fit) would have been right.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..analysis import BandVerdict, band_verdict, plan
from ..budget.validation import (
    MIN_TERM_ROWS,
    TERMS,
    ValidationRow,
    row_deployment,
    row_model,
    term_row_counts,
    validation_row,
)
from ..data_files import read_data
from ..deployment import Measured
from ..inputs import Scenario
from ..units import GiB

__all__ = [
    "HeldOutRow",
    "HeldOutSummary",
    "Protocol",
    "heldout_rows",
    "heldout_summary",
    "protocol",
    "source_of",
    "OVER_PROMISE_GIB",
    "DATA_CENTRE_GPUS",
    "TARGET_ERROR_PCT",
    "TARGET_BAND_PCT",
    "BEYOND_BAND_PCT",
    "TermResidual",
    "term_residuals",
    "MIN_TERM_ROWS",
    "term_row_counts",
    "heldout_terms",
]

OVER_PROMISE_GIB = 0.25
"""An estimate above the logged figure by more than this promises memory vLLM will not give."""

TARGET_ERROR_PCT = 5.0
"""The held-out target: each row within this % of the logged available memory ..."""
TARGET_BAND_PCT = 10.0
"""... or inside a band whose wider side is at most this % of the estimate."""
BEYOND_BAND_PCT = 2.0
"""A logged figure more than this % (of itself) below the band's pessimistic edge: over-optimism
beyond the band."""

DATA_CENTRE_GPUS = frozenset(
    {
        "H100-80GB",
        "H100-NVL",
        "H200",
        "B200",
        "B300",
        "GH200",
        "H20",
        "A100-40GB",
        "A100-80GB",
        "V100-32GB",
        "MI300X",
        "MI325X",
        "MI355X",
    }
)
"""The rest (RTX cards, A10/A10G, A30, L4, L40S, T4, GB10) form the consumer and workstation
subset."""


_THREAD = re.compile(r"https://github\.com/([^/]+/[^/]+)/(?:issues|pull)/([0-9]+)")
_REPO = re.compile(r"https://github\.com/([^/]+/[^/]+)/")
_SITE = re.compile(r"https?://([^/]+)/")


def source_of(url: str) -> str:
    """The source a log's address belongs to under the protocol's rule: ``owner/repo#N`` for an
    issue or pull request, ``owner/repo`` for a file in a repository, the host name for a web
    page."""
    for pattern, fmt in ((_THREAD, "{}#{}"), (_REPO, "{}"), (_SITE, "{}")):
        m = pattern.match(url)
        if m:
            return fmt.format(*m.groups())
    return url


@dataclass(frozen=True, kw_only=True)
class Protocol:
    """How the held-out rows were chosen (``data/holdout.json``)."""

    decided: str
    """The date the split was recorded, before any held-out row was estimated."""
    rule: str
    """How a log's source is defined and which side each source goes to, in words."""
    development_sources: tuple[str, ...]
    """Sources the estimate was built looking at (every source of a validation row)."""
    held_out_sources: tuple[str, ...]
    """Sources no estimate term has seen."""
    batches: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(date, held-out sources) of each collection, in order: a batch is recorded before any of
    it is estimated."""


@dataclass(frozen=True, kw_only=True)
class HeldOutRow:
    """One held-out log: the validation figures plus its source and the verdict check."""

    row: ValidationRow
    """The log's validation figures (logged and estimated available KV memory, band)."""
    source: str
    """The log's source (repository, thread, site or author), as ``data/holdout.json`` names it."""
    max_model_len: int
    """The length the log's run checked, at which the verdict is compared."""
    estimated_verdict: BandVerdict
    """The calculator's answer from the estimate (over its band) at the log's ``max_model_len``."""
    logged_fits: bool
    """vLLM's start-up check with the logged available memory."""
    batch: str = ""
    """The collection date the row was recorded under (``Protocol.batches``)."""
    miss_cause: str = ""
    """Why the row misses the target (``on_target``), written after it was estimated; empty when
    it meets it."""

    @property
    def consumer(self) -> bool:
        return self.row.gpu not in DATA_CENTRE_GPUS

    @property
    def verdict_right(self) -> bool:
        """``fits`` / ``does_not_fit`` agree with the logged outcome; ``borderline`` is right when
        the logged figure lies inside the band the verdict warns about."""
        if self.estimated_verdict == BandVerdict.BORDERLINE:
            return self.row.in_band
        return (self.estimated_verdict == BandVerdict.FITS) == self.logged_fits

    @property
    def over_promise(self) -> bool:
        return self.row.error_gib > OVER_PROMISE_GIB

    @property
    def band_halfwidth_pct(self) -> float:
        """The band's wider side, in % of the central estimate (how sure the estimate claims to
        be)."""
        r = self.row
        if r.estimate_gib <= 0:
            return float("inf")
        return 100.0 * max(r.estimate_gib - r.low_gib, r.high_gib - r.estimate_gib) / r.estimate_gib

    @property
    def on_target(self) -> bool:
        """Within ``TARGET_ERROR_PCT`` of the logged figure, or inside a band no wider than
        ``TARGET_BAND_PCT``."""
        r = self.row
        narrow = self.band_halfwidth_pct <= TARGET_BAND_PCT
        return abs(r.error_pct) <= TARGET_ERROR_PCT or (r.in_band and narrow)

    @property
    def optimistic_beyond_band(self) -> bool:
        """The logged figure lies below the band's pessimistic edge by more than
        ``BEYOND_BAND_PCT``: the band itself promised memory vLLM did not give."""
        return self.row.below_low_pct > BEYOND_BAND_PCT


@dataclass(frozen=True, kw_only=True)
class HeldOutSummary:
    """What the held-out rows (or a subset) measure."""

    count: int
    """Rows measured."""
    median_abs_error_pct: float | None
    """Median of |estimate − logged| in % of the logged figure; None without rows."""
    in_band: int
    """Rows whose logged figure lies inside the estimate's band."""
    verdict_right: int
    """Rows whose verdict at the log's length agrees with the logged outcome."""
    over_promise: int
    """Rows whose estimate is above the logged figure by more than ``OVER_PROMISE_GIB``."""
    above: int
    """Rows whose estimate is above the logged figure (optimistic), of any size."""
    below: int
    """Rows whose estimate is below the logged figure (on the safe side)."""
    worst_over_gib: float
    """The largest estimate-minus-logged (0 when no row is above)."""
    worst_over_pct: float
    """The largest positive error in % (0 when no row is above)."""
    worst_under_pct: float
    """The most negative error in % (0 when no row is below)."""
    on_target: int = 0
    """Rows meeting ``HeldOutRow.on_target``."""
    optimistic_beyond_band: int = 0
    """Rows whose logged figure lies more than ``BEYOND_BAND_PCT`` below the band."""


Row = Mapping[str, Any]


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(read_data("holdout.json"))
    return doc


def protocol() -> Protocol:
    doc = _document()
    return Protocol(
        decided=str(doc["decided"]),
        rule=str(doc["rule"]),
        development_sources=tuple(map(str, doc["development_sources"])),
        held_out_sources=tuple(map(str, doc["held_out_sources"])),
        batches=tuple(
            (str(b["decided"]), tuple(map(str, b["sources"]))) for b in doc.get("batches", ())
        ),
    )


def _held_out(row: Row) -> HeldOutRow:
    model, dep = row_model(row), row_deployment(row)
    length = int(row["max_model_len"])
    dep = replace(dep, max_model_len=length)
    estimated = plan(model, dep)
    scenario = Scenario(model=model, deployment=dep, model_label=str(row["model"]))
    logged = int(round(float(row["logged_available_gib"]) * GiB))
    truth = plan(model, replace(dep, measured=Measured(available_kv_bytes=max(0, logged))))
    return HeldOutRow(
        row=validation_row({**row, "split": "held_out"}),
        source=str(row["source"]),
        max_model_len=length,
        estimated_verdict=band_verdict(scenario, estimated),
        logged_fits=truth.fits,
        batch=str(row.get("batch", "")),
        miss_cause=str(row.get("miss_cause", "")),
    )


@lru_cache(maxsize=1)
def heldout_rows() -> tuple[HeldOutRow, ...]:
    """Every held-out log, sorted by file name."""
    rows = tuple(_held_out(r) for r in _document()["rows"])
    return tuple(sorted(rows, key=lambda h: h.row.file))


def heldout_summary(rows: tuple[HeldOutRow, ...]) -> HeldOutSummary:
    """The published figures of ``rows`` (an empty subset gives a count of 0 and no median)."""
    errors = [r.row.error_pct for r in rows]
    return HeldOutSummary(
        count=len(rows),
        median_abs_error_pct=statistics.median(abs(e) for e in errors) if rows else None,
        in_band=sum(r.row.in_band for r in rows),
        verdict_right=sum(r.verdict_right for r in rows),
        over_promise=sum(r.over_promise for r in rows),
        above=sum(r.row.error_gib > 0 for r in rows),
        below=sum(r.row.error_gib < 0 for r in rows),
        worst_over_gib=max([r.row.error_gib for r in rows if r.row.error_gib > 0], default=0.0),
        worst_over_pct=max([e for e in errors if e > 0], default=0.0),
        worst_under_pct=min([e for e in errors if e < 0], default=0.0),
        on_target=sum(r.on_target for r in rows),
        optimistic_beyond_band=sum(r.optimistic_beyond_band for r in rows),
    )


# --- per-term residuals
# ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TermResidual:
    """Estimate minus logged of one budget term over the rows whose log prints it (GiB per GPU)."""

    term: str
    """The budget term (``weights``, ``activation``, ``non_torch``, ``cudagraph``)."""
    rows: int
    """Rows whose log prints the term."""
    median_gib: float
    """The median residual."""
    p5_gib: float
    """5th percentile (inclusive method); with fewer than two rows, the one residual."""
    p95_gib: float
    """95th percentile (inclusive method); with fewer than two rows, the one residual."""

    @property
    def enough(self) -> bool:
        return self.rows >= MIN_TERM_ROWS


def _estimated_terms(row: Row) -> dict[str, float]:
    from ..budget.memory import memory_budget
    from ..deployment import batch_defaults

    model, dep = row_model(row), row_deployment(row)
    tokens, seqs = batch_defaults(dep)
    b = memory_budget(model, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)
    return {
        "weights": b.weights_bytes / GiB,
        "activation": b.activation_bytes / GiB,
        "non_torch": b.non_torch_bytes / GiB,
        "cudagraph": b.cudagraph_bytes / GiB,
    }


def heldout_terms(file: str) -> tuple[dict[str, float], dict[str, float]]:
    """``(estimated, logged)`` budget terms of the held-out log ``file``, GiB per GPU (logged: the
    terms its log prints): the figures a miss's recorded cause quotes."""
    row = next(r for r in _document()["rows"] if r["file"] == file)
    logged = {str(k): float(v) for k, v in (row.get("logged_breakdown_gib") or {}).items()}
    return _estimated_terms(row), logged


def _percentiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    return cuts[0], cuts[-1]


@lru_cache(maxsize=4)
def term_residuals(split: str = "fit") -> tuple[TermResidual, ...]:
    """Per estimated term, the residuals of ``split``'s rows of data/validation.json whose log
    prints the term."""
    rows = [r for r in json.loads(read_data("validation.json"))["rows"] if r["split"] == split]
    residuals: dict[str, list[float]] = {term: [] for term in TERMS}
    for row in rows:
        logged: Mapping[str, float] = row.get("logged_breakdown_gib") or {}
        wanted = [term for term in TERMS if term in logged]
        if not wanted:
            continue
        estimated = _estimated_terms(row)
        for term in wanted:
            residuals[term].append(estimated[term] - float(logged[term]))
    out = []
    for term in TERMS:
        values = residuals[term]
        if not values:
            continue
        lo, hi = _percentiles(values)
        out.append(
            TermResidual(
                term=term,
                rows=len(values),
                median_gib=statistics.median(values),
                p5_gib=lo,
                p95_gib=hi,
            )
        )
    return tuple(out)
