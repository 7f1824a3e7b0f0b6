"""Build-time figures and Markdown tables for the guide (the macros call these).

The guide quotes no computed number by hand: each comes from the ``kvcalc``
core through here, so the prose, the tables and the calculator are the same
arithmetic. The Markdown, the choice of models and GPUs and the column
headers are the site's; the figures are the core's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from kvcalc import CalcError, Verdict, catalog, plan
from kvcalc import numfmt as num
from kvcalc.advice import readable_length
from kvcalc.analysis import FEASIBLE_LENGTHS
from kvcalc.inputs import Scenario, scenario_from_inputs
from kvcalc.units import GiB, format_gib

from .strings import t

__all__ = ["PlanFigures", "plan_figures", "vllm_error", "vllm_lines", "FixedBudgetFigures", "fixed_budget_figures",
           "equivalent_utilization", "RECOMMENDED_MAX_UTILIZATION", "kv_bytes_table", "starting_point_table",
           "concurrency_table", "KV_TABLE_MODELS", "START_MODELS", "START_GPUS"]

_HUGE = 1 << 50  # "unlimited" available memory, to read needed bytes independent of any GPU

KV_TABLE_MODELS = (
    "Qwen/Qwen3-0.6B", "Qwen/Qwen3-8B", "Qwen/Qwen3-32B", "Qwen/Qwen3-30B-A3B", "Qwen/Qwen3-235B-A22B",
    "Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.3-70B-Instruct",
    "mistralai/Mistral-7B-v0.1", "google/gemma-3-27b-it", "openai/gpt-oss-20b", "openai/gpt-oss-120b",
    "microsoft/phi-4", "deepseek-ai/DeepSeek-V3",
)
START_MODELS = ("Qwen/Qwen3-8B", "microsoft/phi-4", "Qwen/Qwen3-32B", "Qwen/Qwen3-30B-A3B")
START_GPUS = ("RTX-4090", "L40S", "A100-80GB", "H100-80GB", "H200")
START_MIN_CONCURRENCY = 4.0


@dataclass(frozen=True, kw_only=True)
class PlanFigures:
    """One scenario's figures, formatted as the guide quotes them."""

    fits: bool
    max_model_len: str
    """Plain, as vLLM prints it in its error and as ``--max-model-len`` takes it (also the next four lengths)."""
    needed_kv_gib: str
    """In the page's language (``5,06`` in Spanish); ``log_needed_kv_gib`` is vLLM's own ``5.06``."""
    available_kv_gib: str
    log_needed_kv_gib: str
    log_available_kv_gib: str
    estimated_max_model_len: str
    gpu_kv_cache_tokens: str
    max_concurrency: str
    kv_bytes_per_token: str
    kv_kib_per_token: str
    num_gpu_blocks: str
    estimate_low: str
    """60 % of the estimated maximum length: where the guide says to start."""
    estimate_high: str
    """80 % of it."""
    suggested_max_model_len: str
    """The round length the advice ladder proposes in that range."""
    max_model_len_text: str
    """The figures above as running text writes them, in the page's locale (``17 472``, ``17,472``)."""
    estimated_max_model_len_text: str
    estimate_low_text: str
    estimate_high_text: str
    suggested_max_model_len_text: str
    answer_max_model_len: str
    """About 0.7 of the estimated maximum, rounded down to whole blocks: the home page's answer box."""
    answer_max_model_len_text: str
    block_size: str
    num_gpu_blocks_plain: str
    """The block count as vLLM prints it in an error (``325``), for quoting inside code."""
    gpu_total_gib: str
    """The GPU's total as CUDA reports it, and vLLM's share of it (total × utilization), in the page's locale."""
    requested_gib: str
    gpu_memory_utilization: str
    cudagraph_gib: str
    """The core's CUDA-graph estimate (subtracted before the cache is sized)."""
    max_num_seqs: str


def _plan(inputs: dict[str, object]) -> tuple[Scenario, Verdict]:
    s = scenario_from_inputs(inputs)
    return s, plan(s.model, s.deployment)


def plan_figures(lang: str, **inputs: object) -> PlanFigures:
    """``{{ plan(model=…, gpu=…, max_model_len=…).needed_kv_gib }}`` in the guide."""
    _, v = _plan(dict(inputs))
    low, high = int(0.6 * v.estimated_max_model_len), int(0.8 * v.estimated_max_model_len)
    suggested = readable_length(v.estimated_max_model_len) if v.estimated_max_model_len else 0
    answer = int(0.7 * v.estimated_max_model_len) // v.block_size * v.block_size
    b = v.budget

    def prose(number: str) -> str:
        """vLLM's decimal point as the page's language writes it (Spanish: a comma)."""
        return number.replace(".", ",") if lang == "es" else number

    return PlanFigures(
        fits=v.fits, max_model_len=str(v.max_model_len),
        needed_kv_gib=prose(format_gib(v.needed_kv_bytes)),
        available_kv_gib=prose(format_gib(v.available_kv_bytes)),
        log_needed_kv_gib=format_gib(v.needed_kv_bytes),
        log_available_kv_gib=format_gib(v.available_kv_bytes),
        estimated_max_model_len=str(v.estimated_max_model_len),
        gpu_kv_cache_tokens=num.fmt_int(v.gpu_kv_cache_tokens or 0, lang),
        max_concurrency=num.fmt_fixed(v.max_concurrency, 2, lang) if v.max_concurrency is not None else "0",
        kv_bytes_per_token=num.fmt_int(v.kv_bytes_per_token, lang),
        kv_kib_per_token=prose(f"{v.kv_bytes_per_token / 1024:g}"),
        num_gpu_blocks=num.fmt_int(v.num_gpu_blocks or 0, lang),
        estimate_low=str(low),
        estimate_high=str(high),
        suggested_max_model_len=str(suggested),
        max_model_len_text=num.fmt_int(v.max_model_len, lang),
        estimated_max_model_len_text=num.fmt_int(v.estimated_max_model_len, lang),
        estimate_low_text=num.fmt_int(low, lang), estimate_high_text=num.fmt_int(high, lang),
        suggested_max_model_len_text=num.fmt_int(suggested, lang),
        answer_max_model_len=str(answer), answer_max_model_len_text=num.fmt_int(answer, lang),
        block_size=str(v.block_size),
        num_gpu_blocks_plain=str(v.num_gpu_blocks or 0),
        gpu_total_gib=num.fmt_fixed((b.total_bytes or 0) / GiB, 2, lang),
        requested_gib=num.fmt_fixed((b.requested_bytes or 0) / GiB, 2, lang),
        gpu_memory_utilization=f"{b.gpu_memory_utilization:.2f}",
        cudagraph_gib=num.fmt_fixed(b.cudagraph_bytes / GiB, 2, lang),
        max_num_seqs=str(v.max_num_seqs),
    )


#: The highest ``--gpu-memory-utilization`` the guide recommends on a dedicated GPU (index.md's step 2:
#: "from 0.92 to 0.94, then 0.95"); a fixed KV budget that takes more of the card leaves less headroom.
RECOMMENDED_MAX_UTILIZATION = 0.95


@dataclass(frozen=True, kw_only=True)
class FixedBudgetFigures:
    """A ``--kv-cache-memory-bytes`` budget read as the utilization it amounts to."""

    equivalent_utilization: str
    """Two decimals, as ``--gpu-memory-utilization`` takes it (``0.97``)."""
    needed_kv_gib: str
    available_kv_gib: str
    starts: bool
    """vLLM starts *and* the budget leaves the headroom the guide recommends."""
    fits: bool


def equivalent_utilization(*, total_bytes: int, non_kv_bytes: int, kv_bytes: int) -> float:
    """The ``gpu_memory_utilization`` whose budget holds the same non-KV memory and this KV cache.

    vLLM sizes the cache as total × utilization − non-KV memory (``vllm/v1/worker/gpu_worker.py``,
    ``determine_available_memory``); a fixed ``kv_cache_memory_bytes`` skips that, so the
    utilization it amounts to is (non-KV + KV) / total."""
    return (non_kv_bytes + kv_bytes) / total_bytes


def fixed_budget_figures(lang: str, **inputs: object) -> FixedBudgetFigures:
    """``{{ fixed_budget(model=…, gpu=…, kv_cache_memory_bytes="6G").equivalent_utilization }}``.

    The non-KV memory is the core's estimate for the same scenario without the fixed budget; the row
    is then planned at the equivalent utilization, so "needed" and "available" are the utilization's."""
    fixed = dict(inputs)
    kv = fixed.pop("kv_cache_memory_bytes")
    _, with_kv = _plan({**fixed, "kv_cache_memory_bytes": kv})
    _, base = _plan(fixed)
    b = base.budget
    if b.total_bytes is None or b.requested_bytes is None:
        raise ValueError("fixed_budget(): the scenario needs a GPU whose total memory is known")
    util = equivalent_utilization(total_bytes=b.total_bytes, non_kv_bytes=b.requested_bytes - b.available_kv_bytes,
                                  kv_bytes=with_kv.available_kv_bytes)
    _, at_util = _plan({**fixed, "gpu_memory_utilization": util})
    figures = plan_figures(lang, **{**fixed, "gpu_memory_utilization": util})
    return FixedBudgetFigures(equivalent_utilization=f"{util:.2f}", needed_kv_gib=figures.needed_kv_gib,
                              available_kv_gib=figures.available_kv_gib, fits=at_util.fits,
                              starts=at_util.fits and round(util, 2) <= RECOMMENDED_MAX_UTILIZATION)


def vllm_error(lang: str, **inputs: object) -> str:
    """vLLM's start-up error for the scenario, verbatim as the rules' release raises it, in a wrapping block."""
    _, v = _plan(dict(inputs))
    if v.error_text is None:
        raise ValueError(f"vllm_error(): the scenario {inputs!r} starts; it has no error to quote")
    return "``` { .text .kv-wrap }\nValueError: " + v.error_text + "\n```"


def vllm_lines(lang: str, **inputs: object) -> str:
    """The exact lines vLLM would print for the scenario, as a fenced block."""
    _, v = _plan(dict(inputs))
    return "```text\n" + "\n".join(v.vllm_lines) + "\n```"


def _derived_max_model_len(model_id: str) -> int:
    return scenario_from_inputs({"model": model_id, "available_kv_bytes": _HUGE}).model.derived_max_model_len


def _md(headers: list[str], rows: list[list[str]], align: str) -> str:
    out = ["| " + " | ".join(headers) + " |", "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


@lru_cache(maxsize=8)
def kv_bytes_table(lang: str) -> str:
    """KV bytes per token (bf16, one GPU) and one 32K request, for the catalog's common models."""
    rows = []
    for model_id in KV_TABLE_MODELS:
        try:
            entry = catalog.find_model(model_id)
        except LookupError:
            continue
        s, v = _plan({"model": entry.id, "available_kv_bytes": _HUGE, "kv_cache_dtype": "bfloat16",
                      "max_model_len": min(32768, _derived_max_model_len(entry.id))})
        m = s.model
        need_32k = num.fmt_fixed(v.needed_kv_bytes / GiB, 2, lang) if v.max_model_len == 32768 else "–"
        heads = t(lang, "table.latent") if m.is_mla else str(m.total_num_kv_heads)
        kib = f"{v.kv_bytes_per_token / 1024:g}"
        rows.append([f"`{entry.id}`", t(lang, f"arch.{m.architecture}"), str(m.num_layers), heads, str(m.head_size),
                     num.fmt_int(v.kv_bytes_per_token, lang), kib.replace(".", ",") if lang == "es" else kib, need_32k])
    headers = [t(lang, k) for k in ("table.model", "table.arch", "table.layers", "table.kv_heads", "table.head_dim",
                                    "table.bytes_per_token", "table.kib_per_token", "table.gib_32k")]
    return _md(headers, rows, "llrrrrrr")


def _starting_point(model_id: str, gpu_id: str, lang: str) -> tuple[str, str] | None:
    """(max_model_len, max_num_seqs) to start from, or None when nothing fits.

    The longest power-of-two context (up to the model's limit) at which at least
    ``START_MIN_CONCURRENCY`` full-length requests fit, else the longest that fits
    at all; ``max_num_seqs`` is the power of two at or below that concurrency.
    """
    s = scenario_from_inputs({"model": model_id, "gpu": gpu_id})
    best: tuple[int, float] | None = None
    for n in FEASIBLE_LENGTHS:
        if n > s.model.derived_max_model_len:
            break
        v = plan(s.model, replace(s.deployment, max_model_len=n))
        if not v.fits or v.max_concurrency is None:
            break
        if best is None or v.max_concurrency >= START_MIN_CONCURRENCY:
            best = (n, v.max_concurrency)
    if best is None:
        return None
    seqs = min(256, 2 ** int(math.log2(max(best[1], 1.0))))
    return num.fmt_int(best[0], lang), str(seqs)


@lru_cache(maxsize=8)
def starting_point_table(lang: str) -> str:
    """The article's lost "practical starting point" table, computed."""
    gpus = [g for g in START_GPUS if _has_gpu(g)]
    headers = [t(lang, "table.class")] + [f"{g} ({num.fmt_fixed(catalog.find_gpu(g).memory_bytes / GiB, 1, lang)} GiB)"
                                          for g in gpus]
    rows = []
    for model_id in START_MODELS:
        try:
            catalog.find_model(model_id)
        except LookupError:
            continue
        row = [f"`{model_id}`"]
        for g in gpus:
            sp = _starting_point(model_id, g, lang)
            row.append(t(lang, "table.does_not_fit") if sp is None else f"{sp[0]} / {sp[1]}")
        rows.append(row)
    caption = f"{t(lang, 'table.start_len')} / {t(lang, 'table.start_seqs')}{t(lang, 'table.caption.sep')}{t(lang, 'table.caption.start')}"
    return _md(headers, rows, "l" + "r" * len(gpus)) + "\n\n" + caption


def _has_gpu(gpu_id: str) -> bool:
    try:
        catalog.find_gpu(gpu_id)
        return True
    except LookupError:
        return False


def concurrency_table(lang: str, **inputs: object) -> str:
    """Maximum concurrency and KV tokens by context length for one model and GPU."""
    s = scenario_from_inputs(dict(inputs))
    rows = []
    for n in FEASIBLE_LENGTHS:
        if n > s.model.derived_max_model_len:
            continue
        try:
            v = plan(s.model, replace(s.deployment, max_model_len=n))
        except CalcError:
            continue
        rows.append([num.fmt_int(n, lang), f"{num.fmt_fixed(v.max_concurrency or 0, 2, lang)}x" if v.fits else "–",
                     num.fmt_int(v.gpu_kv_cache_tokens, lang) if v.fits and v.gpu_kv_cache_tokens is not None else "–",
                     t(lang, "table.yes") if v.fits else t(lang, "table.no")])
    headers = [t(lang, k) for k in ("table.context", "table.concurrency", "table.tokens", "table.fits")]
    caption = t(lang, "table.caption.concurrency", model=s.model.model_id, gpu=s.deployment.gpu_id or "GPU")
    return _md(headers, rows, "rrrl") + "\n\n" + caption
