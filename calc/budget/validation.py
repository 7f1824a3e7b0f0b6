"""The budget estimate against public vLLM logs: the rows the guide's validation page shows.

``data/validation.json`` holds, per log, the hand-read set-up (model, GPU × n,
release, flags) and the available KV memory the log printed (per GPU, the
limiting one). ``validation_rows`` re-estimates each with the core exactly as the
calculator would (catalog GPU, release rules, ``memory_budget``) and reports the
error. The rows are split by a stated rule (sorted by file name, alternating: even
positions ``fit``, odd ``validation``): the estimate's constants were tuned on the
fit half only; the validation half measures them. Logs collected after the fit
(``after_fit``) all join the validation half; logs collected to fit one named
term (``fit_term``, e.g. ``unified_memory``) all join the fit half.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .. import catalog
from ..arch.model import ModelSpec, normalize_config
from ..data_files import read_data
from ..deployment import Deployment, batch_defaults
from ..units import GiB
from ..versions import rules_for
from .memory import memory_budget

__all__ = [
    "ValidationRow",
    "ValidationSummary",
    "validation_rows",
    "validation_summary",
    "excluded_logs",
    "row_model",
    "row_deployment",
    "validation_row",
    "MIN_TERM_ROWS",
    "TERMS",
    "term_row_counts",
]


@dataclass(frozen=True, kw_only=True)
class ValidationRow:
    """One log: its set-up, what vLLM printed and what the calculator estimates (GiB per GPU)."""

    file: str
    """The log in tests/data/logs (and its ``sources.json`` entry)."""
    source_url: str
    """Where the log was published (its URL in ``sources.json``)."""
    model: str
    """The catalog model id the log ran."""
    gpu: str
    """The catalog GPU id the log ran on."""
    num_gpus: int
    """GPUs of the run (TP × PP)."""
    tensor_parallel_size: int
    """The run's tensor-parallel size."""
    pipeline_parallel_size: int
    """The run's pipeline-parallel size."""
    vllm_version: str
    """The release the log names (its rules are the estimate's)."""
    engine: str
    """``v0`` or ``v1``."""
    split: str
    """``fit`` or ``validation``."""
    after_fit: bool
    """Collected after the constants were fitted: always in the validation half."""
    fit_term: str
    """The estimate term this log was collected to fit (always in the fit half); empty for the
    alternating rows."""
    logged_gib: float
    """"Available KV cache memory" as the log prints it."""
    estimate_gib: float
    """The calculator's central estimate of the same figure."""
    low_gib: float
    """The estimate band's pessimistic edge."""
    high_gib: float
    """The estimate band's optimistic edge."""
    note: str
    """Why the row lands where it does, when that needs saying (empty otherwise)."""

    @property
    def error_gib(self) -> float:
        """Estimate minus logged: positive = over-optimistic."""
        return self.estimate_gib - self.logged_gib

    @property
    def error_pct(self) -> float:
        """``error_gib`` relative to the logged figure (unstable when the logged figure is near
        zero)."""
        return 100.0 * self.error_gib / abs(self.logged_gib) if self.logged_gib else float("inf")

    @property
    def below_low_pct(self) -> float:
        """How far the logged figure lies below the band's pessimistic edge, in % of the logged
        figure (0 inside)."""
        gap = self.low_gib - self.logged_gib
        return (
            max(0.0, 100.0 * gap / abs(self.logged_gib))
            if self.logged_gib
            else (float("inf") if gap > 0 else 0.0)
        )

    @property
    def in_band(self) -> bool:
        return self.low_gib <= self.logged_gib <= self.high_gib


@dataclass(frozen=True, kw_only=True)
class ValidationSummary:
    """Error statistics of one split."""

    count: int
    """Rows in the split."""
    median_abs_error_pct: float
    """Median of |estimate − logged| in % of the logged figure."""
    worst_error_pct: float
    """The error (signed) of largest magnitude."""
    worst_file: str
    """The log with the worst error."""
    over_optimistic: int
    """Rows whose central estimate is above the logged figure."""
    below_band_over_2pct: int
    """Rows whose logged figure is below the band's low edge by more than 2 %."""
    in_band: int
    """Rows whose logged figure lies inside the band."""


Row = Mapping[str, Any]
"""One row of ``data/validation.json`` (plain JSON, read only here)."""


@lru_cache(maxsize=1)
def _document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(read_data("validation.json"))
    return doc


def _model(row: Row) -> ModelSpec:
    label = str(row["model"])
    if row.get("config"):
        return normalize_config(
            row["config"], model_id=label, num_parameters=row.get("num_parameters")
        )
    entry = catalog.find_model(str(row["catalog_model"]))
    overrides: Mapping[str, Any] = row.get("config_overrides") or {}
    config = {**entry.config, **overrides}
    return normalize_config(
        config,
        model_id=label,
        num_parameters=None if overrides else entry.num_parameters,
        checkpoint_bytes=None if overrides else entry.weights_bytes,
    )


def _deployment(row: Row) -> Deployment:
    gpu = catalog.find_gpu(str(row["gpu"]))
    flags: Mapping[str, Any] = row.get("inputs") or {}
    limits: Mapping[str, Any] = flags.get("limit_mm_per_prompt") or {}
    return Deployment(
        gpu_id=gpu.id,
        gpu_name=gpu.name,
        gpu_memory_bytes=gpu.memory_bytes,
        gpu_memory_source=gpu.memory_source_kind,
        tensor_parallel_size=int(row.get("tensor_parallel_size", 1)),
        pipeline_parallel_size=int(row.get("pipeline_parallel_size", 1)),
        max_model_len=flags.get("max_model_len"),
        max_num_seqs=flags.get("max_num_seqs"),
        max_num_batched_tokens=flags.get("max_num_batched_tokens"),
        kv_cache_dtype=str(flags.get("kv_cache_dtype", "auto")),
        gpu_memory_utilization=flags.get("gpu_memory_utilization"),
        enforce_eager=bool(flags.get("enforce_eager", False)),
        limit_mm_per_prompt=tuple((str(k), int(v)) for k, v in limits.items()),
        rules=rules_for(str(row["vllm_version"])),
    )


def _row(row: Row) -> ValidationRow:
    model, dep = _model(row), _deployment(row)
    tokens, seqs = batch_defaults(dep)
    b = memory_budget(model, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)
    tp, pp = dep.tensor_parallel_size, dep.pipeline_parallel_size
    return ValidationRow(
        file=str(row["file"]),
        source_url=str(row["source_url"]),
        model=str(row["model"]),
        gpu=str(row["gpu"]),
        num_gpus=tp * pp,
        tensor_parallel_size=tp,
        pipeline_parallel_size=pp,
        vllm_version=str(row["vllm_version"]),
        engine=str(row["engine"]),
        split=str(row["split"]),
        after_fit=bool(row.get("after_fit", False)),
        fit_term=str(row.get("fit_term", "")),
        logged_gib=float(row["logged_available_gib"]),
        estimate_gib=b.available_kv_bytes / GiB,
        low_gib=b.available_kv_bytes_low / GiB,
        high_gib=b.available_kv_bytes_high / GiB,
        note=str(row.get("note", "")),
    )


def row_model(row: Row) -> ModelSpec:
    """The model of a row in this file's schema (also ``data/holdout.json``'s)."""
    return _model(row)


def row_deployment(row: Row) -> Deployment:
    """The deployment of a row in this file's schema, with the release's rules."""
    return _deployment(row)


def validation_row(row: Row) -> ValidationRow:
    """A row in this file's schema estimated as the calculator would."""
    return _row(row)


@lru_cache(maxsize=1)
def _all_rows() -> tuple[ValidationRow, ...]:
    return tuple(_row(r) for r in _document()["rows"])


def validation_rows(split: str | None = None) -> tuple[ValidationRow, ...]:
    """Every validated log (``split`` ``fit``/``validation`` to keep one half), sorted by file
    name."""
    rows = _all_rows()
    return rows if split is None else tuple(r for r in rows if r.split == split)


def validation_summary(rows: tuple[ValidationRow, ...]) -> ValidationSummary:
    """Median and worst error, over-optimistic count and band misses of ``rows``."""
    errors = [abs(r.error_pct) for r in rows]
    worst = max(rows, key=lambda r: abs(r.error_pct))
    import statistics  # only the validation page and the tests summarize: kept off the CLI's start

    return ValidationSummary(
        count=len(rows),
        median_abs_error_pct=statistics.median(errors),
        worst_error_pct=worst.error_pct,
        worst_file=worst.file,
        over_optimistic=sum(r.error_gib > 0 for r in rows),
        below_band_over_2pct=sum(r.below_low_pct > 2.0 for r in rows),
        in_band=sum(r.in_band for r in rows),
    )


def excluded_logs() -> tuple[tuple[str, str], ...]:
    """(file, reason) of the public logs looked at but left out of the table."""
    return tuple((str(e["file"]), str(e["reason"])) for e in _document()["excluded"])


MIN_TERM_ROWS = 5
"""Fewer logs than this printing a term: its residual spread is not a band, and the page says so."""

TERMS = ("weights", "activation", "non_torch", "cudagraph")
"""The estimated terms a log may print, in data/validation.json's ``logged_breakdown_gib`` keys."""


@lru_cache(maxsize=1)
def term_row_counts() -> Mapping[str, int]:
    """How many fit rows of data/validation.json print each term: the report's few-rows note asks it
    on every plan, so it reads the file's breakdowns and runs no estimate."""
    counts = dict.fromkeys(TERMS, 0)
    for row in _document()["rows"]:
        if row["split"] == "fit":
            for term in row.get("logged_breakdown_gib") or {}:
                if term in counts:
                    counts[term] += 1
    return counts
