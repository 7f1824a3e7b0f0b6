"""The one analysis entry: a scenario → everything every face shows, as one frozen record.

The CLI, the browser's JSON boundary, the log diagnosis and the guide's macros
call ``analyze`` and format its ``Analysis``; nothing downstream plans again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum

from . import catalog
from .advice import (
    QUANT_TOKENS,
    UTILIZATION_WARN_ABOVE,
    RecCode,
    Recommendation,
    free_memory_ladder,
    readable_length,
    recommend,
)
from .budget.memory import BudgetSource
from .deployment import Measured
from .errors import CalcError
from .inputs import Scenario
from .kv import check
from .kv.kv_spec import SizingContext
from .kv.planner import blocks_per_request, num_blocks
from .verdict import Verdict, VerdictStatus, plan, plan_uncached
from .vllm_flags import settings_accepted

__all__ = [
    "Analysis",
    "BandVerdict",
    "ConcurrencyPoint",
    "FeasibleGrid",
    "FEASIBLE_LENGTHS",
    "Recommendation",
    "Verdict",
    "analyze",
    "band_verdict",
    "implausibly_small",
    # the log path's entry (logs/): the planner and the advice pieces it words, through this stage
    # only
    "QUANT_TOKENS",
    "UTILIZATION_WARN_ABOVE",
    "RecCode",
    "free_memory_ladder",
    "plan",
    "plan_uncached",
    "readable_length",
]

FEASIBLE_LENGTHS = (4096, 8192, 16384, 32768, 65536, 131072)
"""The context lengths of the feasible-settings grid (plus the reader's own)."""


@dataclass(frozen=True, kw_only=True)
class ConcurrencyPoint:
    """Maximum concurrency at one ``max_model_len`` for this budget."""

    max_model_len: int
    """The context length of this point (tokens)."""
    max_concurrency: float
    """Full-length requests the KV cache holds at that length (vLLM's "Maximum concurrency")."""


@dataclass(frozen=True, kw_only=True)
class FeasibleGrid:
    """Context length × KV dtype → maximum concurrency (None where vLLM would refuse to start)."""

    kv_cache_dtypes: tuple[str, ...]
    """The grid's columns: the KV cache dtypes compared (``auto`` first)."""
    lengths: tuple[int, ...]
    """The grid's rows: the context lengths compared, in tokens."""
    max_concurrency: tuple[tuple[float | None, ...], ...]
    """One row per length, one cell per dtype."""


class BandVerdict(StrEnum):
    """The start-up answer over the whole band of an estimated budget (the JSON ``verdict``)."""

    FITS = "fits"
    """vLLM starts at both edges of the band."""
    DOES_NOT_FIT = "does_not_fit"
    """vLLM refuses to start at both edges."""
    BORDERLINE = "borderline"
    """The answer flips inside the band: it depends on what vLLM measures at start-up."""


@dataclass(frozen=True, kw_only=True)
class Analysis:
    """A scenario's verdict, its ordered what-ifs, the feasible grid and the concurrency curve."""

    scenario: Scenario
    """The inputs, resolved: the model, the deployment and where each value came from."""
    verdict: Verdict
    """``plan()``'s answer for the scenario as given."""
    recommendations: tuple[Recommendation, ...]
    """The guide's fixes as computed what-ifs, in the guide's order."""
    feasible: FeasibleGrid
    """Maximum concurrency for other lengths and KV dtypes on the same budget."""
    concurrency_curve: tuple[ConcurrencyPoint, ...]
    """Drawn for failing scenarios too: it shows how short the context must be to start."""
    band_verdict: BandVerdict = BandVerdict.FITS
    """Fits / does not fit at both edges of the estimated budget's band, or borderline."""
    estimated_available_low: int | None = None
    """Set when a measured available KV memory is below the pessimistic edge of the calculator's own
    estimate for the same model, GPU and settings: implausibly small, as when another process held
    memory."""

    @property
    def recommended(self) -> Recommendation | None:
        """The first fix whose what-if starts vLLM."""
        return next((r for r in self.recommendations if r.fits), None)


def _concurrency_curve(v: Verdict) -> tuple[ConcurrencyPoint, ...]:
    """Maximum concurrency at each power-of-two length from 1024 up to the model's limit."""
    if (
        v.status in (VerdictStatus.NO_MEMORY, VerdictStatus.AUTO_FIT_FAILED)
        or v.deployment.rules.v0_engine
    ):
        return ()
    stage = v.limiting
    blocks = (
        v.num_gpu_blocks
        if v.num_gpu_blocks is not None
        else num_blocks(stage.grouping, stage.available_kv_bytes)
    )
    points = []
    length = 1024
    top = max(v.derived_max_model_len, v.max_model_len)
    while length <= top:
        ctx = SizingContext(
            max_model_len=length,
            in_flight_tokens=v.in_flight_tokens,
            dcp=v.deployment.decode_context_parallel_size,
        )
        needed = check.needed_kv_bytes(
            v.deployment.rules,
            ctx,
            model_groups=v.grouping,
            worker_groups=stage.grouping,
            reported_specs=stage.reported_specs,
            grouped_specs=stage.grouped_specs,
            reported_counts=stage.reported_counts,
        )
        if (
            needed <= stage.check_kv_bytes
        ):  # the release's start-up check at this length (less the null block)
            per_request = blocks_per_request(
                stage.grouping, ctx, sum_groups=v.deployment.rules.sum_group_blocks
            )
            points.append(
                ConcurrencyPoint(max_model_len=length, max_concurrency=blocks / per_request)
            )
        length *= 2
    return tuple(points)


def _feasible_grid(s: Scenario, v: Verdict) -> FeasibleGrid:
    """The reader's dtype (or ``auto``) against fp8, at the standard lengths up to the model's
    limit."""
    current = s.deployment.kv_cache_dtype
    dtypes = ("auto", "fp8") if current in ("auto", "fp8") else (current, "fp8")
    lengths = sorted(
        {n for n in FEASIBLE_LENGTHS if n <= v.derived_max_model_len}
        | ({v.max_model_len} if v.max_model_len > 0 else set())
    )
    rows = []
    for n in lengths:
        row: list[float | None] = []
        for dtype in dtypes:
            try:
                w = plan(s.model, replace(s.deployment, max_model_len=n, kv_cache_dtype=dtype))
            except CalcError:
                row.append(None)
                continue
            row.append(w.max_concurrency if w.fits else None)
        rows.append(tuple(row))
    return FeasibleGrid(kv_cache_dtypes=dtypes, lengths=tuple(lengths), max_concurrency=tuple(rows))


def band_verdict(s: Scenario, v: Verdict) -> BandVerdict:
    """Plan again at the band's two edges; without a band the central answer is the answer."""
    if not v.budget.has_band:
        return BandVerdict.FITS if v.fits else BandVerdict.DOES_NOT_FIT
    starts = {
        plan(s.model, replace(s.deployment, budget_edge=edge)).fits for edge in ("low", "high")
    }
    if starts == {True}:
        return BandVerdict.FITS
    if starts == {False}:
        return BandVerdict.DOES_NOT_FIT
    return BandVerdict.BORDERLINE


def implausibly_small(s: Scenario, v: Verdict) -> int | None:
    """The pessimistic edge of the estimate when a measured "Available KV cache memory" lies below
    it.

    Every public start-up log of the validation fell inside the estimate's band (README, "What is
    exact"); one below it means something the estimate does not hold took memory: another process,
    or a second vLLM profiling on the same GPU at the same moment (the guide, "No available memory
    for the cache blocks"; #14376).
    """
    dep = s.deployment
    measured = dep.measured.available_kv_bytes
    if measured is None or not dep.gpu_memory_bytes or v.budget.source != BudgetSource.MEASURED:
        return None
    try:
        est = plan(s.model, replace(dep, measured=Measured(), budget_edge="low"))
    except CalcError:
        return None
    if est.budget.source != BudgetSource.PROFILED or est.available_kv_bytes <= 0:
        return None
    return est.available_kv_bytes if measured < est.available_kv_bytes else None


def _with_rope_hint(s: Scenario, err: CalcError) -> CalcError:
    """ "max_model_len … longer than the model's maximum": name the rope scaling the model card
    documents, when it reaches the length asked for (vLLM's derived length is then original ×
    factor, vllm/config/model.py ``_get_and_verify_max_len``); the flag as the release takes it."""
    try:
        documented = catalog.find_model(s.model_label).rope_scaling_documented
    except LookupError:
        return err
    value = err.params.get("value")
    if documented is None or not isinstance(value, int):
        return err
    factor, original = documented.get("factor"), documented.get("original_max_position_embeddings")
    if not isinstance(factor, (int, float)) or not isinstance(original, int):
        return err
    scaled = int(original * factor)
    if value > scaled:
        return err
    rope = json.dumps(dict(documented), separators=(",", ":"))
    rules = s.deployment.rules
    if rules.hf_overrides_rope_scaling:  # --rope-scaling is gone (#28006)
        flag = f"--hf-overrides '{{\"rope_scaling\":{rope}}}'"
    elif rules.rope_scaling_flag:
        flag = f"--rope-scaling '{rope}'"
    else:
        # 0.11.1-0.11.2: which flag the release takes was not read (data/vllm_releases.json)
        return err
    return CalcError(
        "max_model_len_too_long_rope",
        f"max_model_len {value} is longer than the model's maximum ({err.params.get('limit')}); "
        f"its model card extends the context with YaRN rope scaling to {scaled} tokens: add {flag}",
        field="max_model_len",
        value=value,
        limit=err.params.get("limit"),
        key=flag,
        maximum=scaled,
    )


def analyze(scenario: Scenario) -> Analysis:
    """Plan ``scenario`` and compute everything shown about it."""
    try:
        v = plan(scenario.model, scenario.deployment)
    except CalcError as err:
        if err.code == "max_model_len_too_long":
            raise _with_rope_hint(scenario, err) from None
        raise
    # a fix whose flag the reader's release does not have (--kv-cache-memory-bytes before 0.10.2) is
    # not one
    rules = scenario.deployment.rules
    recs = tuple(r for r in recommend(scenario, v) if settings_accepted(r.settings, rules))
    low = implausibly_small(scenario, v)
    if low is not None and not any(r.code == RecCode.FREE_THE_GPU for r in recs):
        recs = (
            Recommendation(
                code=RecCode.FREE_THE_GPU,
                anchor="free-memory-below-utilization",
                settings={},
                verdict=None,
                params={},
            ),
        ) + recs
    return Analysis(
        scenario=scenario,
        verdict=v,
        recommendations=recs,
        feasible=_feasible_grid(scenario, v),
        concurrency_curve=_concurrency_curve(v),
        band_verdict=band_verdict(scenario, v),
        estimated_available_low=low,
    )
