"""The exact lines vLLM prints, per rule set.

Format strings mirror vllm/v1/core/kv_cache_utils.py (``_check_enough_kv_cache_memory``,
``_auto_fit_max_model_len``, ``get_kv_cache_capacity``/``update_kv_cache_capacity``,
``may_override_num_blocks``) and vllm/v1/worker/gpu_worker.py
(``determine_available_memory``, ``request_memory``). Older wording is from
public logs in tests/data/logs/.
"""
from __future__ import annotations

from .units import GiB, fmt_int, format_gib, format_gib_legacy
from .versions import RuleSet

__all__ = [
    "gib", "available_kv_line", "kv_cache_too_small_error", "no_memory_error", "capacity_lines", "override_line",
    "auto_fit_line", "auto_fit_error", "free_memory_error", "CONSERVING_MEMORY_URL",
]

CONSERVING_MEMORY_URL = "https://docs.vllm.ai/en/latest/configuration/conserving_memory/"


def gib(num_bytes: int | float, rules: RuleSet) -> str:
    return format_gib(num_bytes) if rules.format_gib else format_gib_legacy(num_bytes)


def available_kv_line(available: int, rules: RuleSet) -> str:
    return f"Available KV cache memory: {gib(available, rules)} GiB"


def kv_cache_too_small_error(*, max_model_len: int, needed: int, available: int, estimated: int, rules: RuleSet) -> str:
    """The start-up ValueError; note the unbalanced parenthesis, as in vLLM."""
    est_msg = (f"Based on the available memory, the estimated maximum model length is {estimated}. "
               if estimated > 0 else "")
    if rules.model_s_text:
        return (f"To serve at least one request with the model's max seq len ({max_model_len}), "
                f"({format_gib(needed)} GiB KV cache is needed, which is larger than the available KV cache memory "
                f"({format_gib(available)} GiB). {est_msg}Try increasing `gpu_memory_utilization` (which also controls "
                f"CPU memory on the CPU backend) or decreasing `max_model_len` when initializing the engine. "
                f"See {CONSERVING_MEMORY_URL} for more details.")
    return (f"To serve at least one request with the models's max seq len ({max_model_len}), "
            f"({needed / GiB:.2f} GiB KV cache is needed, which is larger than the available KV cache memory "
            f"({available / GiB:.2f} GiB). {est_msg}Try increasing `gpu_memory_utilization` or decreasing "
            f"`max_model_len` when initializing the engine.")


def no_memory_error(rules: RuleSet) -> str:
    if rules.model_s_text:
        return ("No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing "
                "the engine (this flag also controls CPU memory reservation on the CPU backend, despite its name). "
                f"See {CONSERVING_MEMORY_URL} for more details.")
    return ("No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing "
            "the engine.")


def capacity_lines(*, num_tokens: int, max_model_len: int, concurrency: float, rules: RuleSet) -> list[str]:
    tokens = f"GPU KV cache size: {fmt_int(num_tokens)} tokens"
    conc = f"Maximum concurrency for {fmt_int(max_model_len)} tokens per request: {concurrency:.2f}x"
    if rules.one_line_capacity:
        return [f"{tokens}, {conc}"]
    return [tokens, conc]


def override_line(computed_blocks: int, override: int) -> str:
    return f"Overriding num_gpu_blocks={computed_blocks} with num_gpu_blocks_override={override}"


def auto_fit_line(*, derived: int, fitted: int, available: int) -> str:
    if fitted >= derived:
        return f"Auto-fit max_model_len: full model context length {derived} fits in available GPU memory"
    return (f"Auto-fit max_model_len: reduced from {derived} to {fitted} to fit in available GPU memory "
            f"({format_gib(available)} GiB available for KV cache)")


def auto_fit_error() -> str:
    return ("Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token. "
            "Try increasing `gpu_memory_utilization`.")


def free_memory_error(*, free: int, total: int, utilization: float, requested: int, device: str = "cuda:0") -> str:
    return (f"Free memory on device {device} ({format_gib(free)}/{format_gib(total)} GiB) on startup is less than "
            f"desired GPU memory utilization ({utilization}, {format_gib(requested)} GiB). Decrease GPU memory "
            f"utilization or reduce GPU memory used by other processes.")
