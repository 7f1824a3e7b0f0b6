"""The log's facts as a reader reads them: a label in the reader's language, the value with its
unit, and the ``vllm serve`` flag that sets it.

Why: the facts' keys (``available_kv_gib``) are the JSON contract of ``kvcalc log --json``; a reader
comparing a log with the plan wants the plan's own wording ("Available KV cache memory (per GPU)"),
numbers as their language writes them (``58,11 GiB``, ``476 016``) and yes/no rather than
``True``/``False``. A fact that is an engine argument names its flag, as the plan's ``vllm serve``
line does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..numfmt import fmt_int, fmt_printed, gib_text
from ..strings import t
from .logparse import FACT_KEYS

__all__ = ["FactRow", "FACT_LABELS", "fact_rows"]

# fact key → string key; the plan's figure label where the plan shows the same quantity.
FACT_LABELS: dict[str, str] = {
    "available_kv_gib": "fig.available_kv",
    "gpu_kv_cache_tokens": "fig.tokens",
    "num_gpu_blocks": "fig.num_blocks",
    "max_concurrency": "fig.concurrency",
    "estimated_max_model_len": "fig.estimated_max_len",
    "needed_kv_gib": "fig.needed_kv",
    "model_weights_gib": "fig.weights",
    "activation_peak_gib": "fig.activation",
    "non_torch_gib": "fig.non_torch",
    "cudagraph_gib": "fig.cudagraph",
    "total_gpu_memory_gib": "fig.total",
    "requested_memory_gib": "fig.requested",
    "max_model_len": "fig.max_model_len",
    **{
        key: f"fact.{key}"
        for key in (
            "vllm_version",
            "model",
            "gpu_name",
            "derived_max_model_len",
            "tensor_parallel_size",
            "pipeline_parallel_size",
            "decode_context_parallel_size",
            "prefill_context_parallel_size",
            "dtype",
            "quantization",
            "kv_cache_dtype",
            "block_size",
            "gpu_memory_utilization",
            "gpu_memory_utilization_without_cudagraph_profiling",
            "max_num_seqs",
            "max_num_batched_tokens",
            "enable_prefix_caching",
            "enforce_eager",
            "mamba_cache_mode",
            "mamba_ssm_cache_dtype",
            "limit_mm_per_prompt",
            "skip_mm_profiling",
            "kv_cache_memory_bytes",
            "kv_cache_memory_fixed",
            "free_memory_gib",
            "consumed_memory_gib",
            "peak_torch_memory_gib",
            "cudagraph_estimate_gib",
            "suggested_kv_cache_memory_bytes",
            "oom_tried_to_allocate_mib",
            "tensor_parallel_size_at_least",
            "pipeline_parallel_size_at_least",
            "world_size_at_least",
            "hybrid_attention_block_size",
            "mamba_page_padding_pct",
            "num_padding_layers",
            "mamba_cache_blocks",
            "kv_cache_group_block_sizes",
            "full_kv_cache_memory_bytes",
        )
    },
}

# Facts that are vLLM engine arguments (vllm/engine/arg_utils.py): shown with their flag.
_FLAGS = frozenset(
    {
        "max_model_len",
        "tensor_parallel_size",
        "pipeline_parallel_size",
        "decode_context_parallel_size",
        "dtype",
        "quantization",
        "kv_cache_dtype",
        "block_size",
        "gpu_memory_utilization",
        "max_num_seqs",
        "max_num_batched_tokens",
        "enable_prefix_caching",
        "enforce_eager",
        "mamba_cache_mode",
        "mamba_ssm_cache_dtype",
        "limit_mm_per_prompt",
        "skip_mm_profiling",
        "kv_cache_memory_bytes",
    }
)
_TOKENS = frozenset(
    {
        "gpu_kv_cache_tokens",
        "max_model_len",
        "derived_max_model_len",
        "estimated_max_model_len",
        "max_num_batched_tokens",
        "hybrid_attention_block_size",
    }
)
_BYTES = frozenset(
    {"kv_cache_memory_bytes", "suggested_kv_cache_memory_bytes", "full_kv_cache_memory_bytes"}
)


@dataclass(frozen=True, kw_only=True)
class FactRow:
    key: str
    """The fact's JSON key (unchanged)."""
    label: str
    """The fact's name in the reader's language."""
    value: str
    """The value as the log states it, formatted for the reader's language."""
    flag: str
    """``--max-model-len`` for an engine argument, else empty."""


def _number(key: str, value: int | float, lang: str) -> str:
    text = fmt_int(value, lang) if isinstance(value, int) else fmt_printed(value, lang)
    if key.endswith("_gib"):
        return f"{text} GiB"
    if key.endswith("_mib"):
        return f"{text} MiB"
    if key in _TOKENS:
        return t(lang, "fig.tokens_value", tokens=text)
    if key == "max_concurrency":
        return t(lang, "fig.concurrency_value", concurrency=text)
    if key in _BYTES and isinstance(value, int):
        return f"{text} B ({gib_text(value, lang)})"
    return text


def fact_value(key: str, value: object, lang: str) -> str:
    """The value as the reader's language writes it, with its unit; text facts (model, dtype) as
    printed."""
    if isinstance(value, bool):
        return t(lang, "fact.yes" if value else "fact.no")
    if isinstance(value, (int, float)):
        return _number(key, value, lang)
    return str(value)


def fact_rows(lang: str, facts: Mapping[str, object]) -> list[FactRow]:
    """One labelled row per fact, in ``FACT_KEYS`` order (what ran, its settings, the memory, the
    capacity); an unknown key keeps its own name as label, last."""
    order = {key: i for i, key in enumerate(FACT_KEYS)}
    keys = sorted(facts, key=lambda k: order.get(k, len(order)))
    return [
        FactRow(
            key=key,
            label=t(lang, FACT_LABELS[key]) if key in FACT_LABELS else key,
            value=fact_value(key, facts[key], lang),
            flag="--" + key.replace("_", "-") if key in _FLAGS else "",
        )
        for key in keys
    ]
