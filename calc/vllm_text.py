"""The exact lines vLLM prints, per rule set.

Format strings mirror vllm/v1/core/kv_cache_utils.py (``_check_enough_kv_cache_memory``,
``_auto_fit_max_model_len``, ``get_kv_cache_capacity``/``update_kv_cache_capacity``,
``may_override_num_blocks``) and vllm/v1/worker/gpu_worker.py
(``determine_available_memory``, ``request_memory``). Older wording is from
public logs in tests/data/logs/.
"""

from __future__ import annotations

from .units import fmt_int, format_gib, format_gib_legacy
from .versions import RuleSet

__all__ = [
    "gib",
    "available_kv_line",
    "kv_cache_too_small_error",
    "no_memory_error",
    "capacity_lines",
    "v0_too_small_error",
    "v0_blocks_line",
    "override_line",
    "auto_fit_line",
    "auto_fit_error",
    "CONSERVING_MEMORY_URL",
    "attention_block_size_line",
    "mamba_padding_line",
    "MAMBA_ALL_FALLBACK_WARNING",
    "MAMBA_NONE_WITHOUT_PREFIX_CACHING_WARNING",
    "HMA_PROMOTION_ERROR",
    "mamba_blocks_error",
    "nemotron_h_ssm_dtype_line",
    "MAMBA_PREFIX_CACHING_DISABLED",
]

CONSERVING_MEMORY_URL = "https://docs.vllm.ai/en/latest/configuration/conserving_memory/"


def gib(num_bytes: int | float, rules: RuleSet) -> str:
    return format_gib(num_bytes) if rules.format_gib else format_gib_legacy(num_bytes)


def available_kv_line(available: int, rules: RuleSet) -> str | None:
    """Printed by V1 workers since 0.9.2 (#19312); None where vLLM printed no such line."""
    if not rules.available_line:
        return None
    return f"Available KV cache memory: {gib(available, rules)} GiB"


def _docs(rules: RuleSet) -> str:
    return f" See {CONSERVING_MEMORY_URL} for more details." if rules.error_docs_link else ""


def kv_cache_too_small_error(
    *, max_model_len: int, needed: int, available: int, estimated: int, rules: RuleSet
) -> str:
    """The start-up ValueError; note the unbalanced parenthesis, as in vLLM.

    Wording by release (pr_first_release in data/vllm_releases.json): GB→GiB in
    0.8.3, the estimate in 0.8.4, its spacing in 0.9.1 and 0.14.0, the docs link
    in 0.13.0, format_gib in 0.14.0, "model's" and the CPU clause in 0.22.0.
    """
    if rules.model_s_text:
        est_msg = (
            f"Based on the available memory, the estimated maximum model length is {estimated}. "
            if estimated > 0
            else ""
        )
        return (
            f"To serve at least one request with the model's max seq len ({max_model_len}), "
            f"({format_gib(needed)} GiB KV cache is needed, which is larger than the available KV "
            f"cache memory ({format_gib(available)} GiB). {est_msg}Try increasing "
            f"`gpu_memory_utilization` (which also controls CPU memory on the CPU backend) or "
            f"decreasing `max_model_len` when initializing the engine. See "
            f"{CONSERVING_MEMORY_URL} for more details."
        )
    unit = "GiB" if rules.error_in_gib else "GB"
    head = (
        f"To serve at least one request with the models's max seq len ({max_model_len}), "
        f"({gib(needed, rules)} {unit} KV cache is needed, which is larger than the available KV "
        f"cache memory ({gib(available, rules)} {unit})."
    )
    tail = (
        "Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing "
        "the engine."
    )
    sentence = f"Based on the available memory, the estimated maximum model length is {estimated}."
    if not rules.error_has_estimate:
        middle = " "
    elif rules.estimate_trailing_space:
        middle = " " + (sentence + " " if estimated > 0 else "")
    elif rules.estimate_spaced:
        middle = " " + (sentence if estimated > 0 else "") + " "
    else:
        middle = (" " + sentence if estimated > 0 else "") + "  "
    return head + middle + tail + _docs(rules)


def no_memory_error(rules: RuleSet) -> str:
    if rules.model_s_text:
        return (
            "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` "
            "when initializing the engine (this flag also controls CPU memory reservation on the "
            f"CPU backend, despite its name). See {CONSERVING_MEMORY_URL} for more details."
        )
    return (
        "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine." + _docs(rules)
    )


def v0_too_small_error(*, max_model_len: int, max_tokens: int) -> str:
    """V0 engine (before 0.8.0): vllm/worker/worker.py raise_if_cache_size_invalid."""
    return (
        f"The model's max seq len ({max_model_len}) is larger than the maximum number of tokens "
        f"that can be stored in KV cache ({max_tokens}). Try increasing `gpu_memory_utilization` "
        f"or decreasing `max_model_len` when initializing the engine."
    )


def v0_blocks_line(gpu_blocks: int, cpu_blocks: int) -> str:
    return f"# GPU blocks: {gpu_blocks}, # CPU blocks: {cpu_blocks}"


def capacity_lines(
    *, num_tokens: int, max_model_len: int, concurrency: float, rules: RuleSet, num_blocks: int = 0
) -> list[str]:
    if rules.v0_engine:
        return [f"Maximum concurrency for {max_model_len} tokens per request: {concurrency:.2f}x"]
    if not rules.tokens_line:  # V1 in 0.7.x
        return [
            f"# GPU blocks: {num_blocks}",
            f"Maximum concurrency for {max_model_len} tokens per request: {concurrency:.2f}x",
        ]
    tokens = f"GPU KV cache size: {fmt_int(num_tokens)} tokens"
    conc = (
        f"Maximum concurrency for {fmt_int(max_model_len)} tokens per request: {concurrency:.2f}x"
    )
    if rules.one_line_capacity:
        return [f"{tokens}, {conc}"]
    return [tokens, conc]


def dcp_multiply_line(dcp: int, rules: RuleSet) -> str:
    """kv_cache_utils before #41069: the token figure is multiplied by the context-parallel size
    (0.10.2 – 0.11.x by dcp; 0.12.0 – 0.20.0 by pcp × dcp, PCP here always 1)."""
    if rules.cp_world_size_line:
        return (
            f"Multiplying the GPU KV cache size by the cp_world_size {dcp} "
            f"(pcp_world_size 1 * dcp_world_size {dcp})."
        )
    return f"Multiplying the GPU KV cache size by the dcp_world_size {dcp}."


def override_line(computed_blocks: int, override: int) -> str:
    return f"Overriding num_gpu_blocks={computed_blocks} with num_gpu_blocks_override={override}"


def auto_fit_line(
    *, derived: int, fitted: int, available: int, rules: RuleSet | None = None
) -> str:
    """kv_cache_utils ``_auto_fit_max_model_len``; from 0.32.0 both lines end "available KV cache
    memory (X GiB GPU)" (``_kv_cache_device_name``; read in the 0.31.0 and 0.32.0 wheels). ``rules``
    None: before."""
    if rules is not None and rules.auto_fit_names_kv_memory:
        memory = f"available KV cache memory ({format_gib(available)} GiB GPU)"
        if fitted >= derived:
            return f"Auto-fit max_model_len: full model context length {derived} fits in {memory}"
        return f"Auto-fit max_model_len: reduced from {derived} to {fitted} to fit in {memory}"
    if fitted >= derived:
        return (
            f"Auto-fit max_model_len: full model context length {derived} fits in available GPU "
            f"memory"
        )
    return (
        f"Auto-fit max_model_len: reduced from {derived} to {fitted} to fit in available GPU "
        f"memory ({format_gib(available)} GiB available for KV cache)"
    )


def auto_fit_error() -> str:
    return (
        "Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single "
        "token. Try increasing `gpu_memory_utilization`."
    )


# Mamba / linear-attention hybrids: vllm/platforms/interface.py ``_align_hybrid_block_size``
# (before #37467: vllm/model_executor/models/config.py, same texts) and ``MambaModelConfig``.
MAMBA_ALL_FALLBACK_WARNING = (
    "Hybrid or mamba-based model detected without support for prefix caching with "
    "Mamba cache 'all' mode: falling back to 'align' mode."
)
MAMBA_NONE_WITHOUT_PREFIX_CACHING_WARNING = (
    "Mamba cache mode is set to 'none' when prefix caching is disabled"
)
HMA_PROMOTION_ERROR = "Failed to promote local KV cache specs to one unified type."
# Before mamba_cache_mode (#30877): --enable-prefix-caching on a model without Mamba prefix caching.
MAMBA_PREFIX_CACHING_DISABLED = (
    "Hybrid or mamba-based model detected without support for prefix caching: disabling."
)


def attention_block_size_line(block_size: int) -> str:
    return (
        f"Setting attention block size to {block_size} tokens to ensure that attention page size "
        f"is >= mamba page size."
    )


def mamba_padding_line(pct: float) -> str:
    return (
        f"Padding mamba page size by {pct:.2f}% to ensure that mamba page size and attention page "
        f"size are exactly equal."
    )


def mamba_blocks_error(*, max_num_seqs: int, num_blocks: int) -> str:
    """vllm/config/compilation.py (#32936): FULL CUDA graphs need one Mamba block per decode
    sequence."""
    return (
        f"max_num_seqs ({max_num_seqs}) exceeds available Mamba cache blocks ({num_blocks}). Each "
        f"decode sequence requires one Mamba cache block, so CUDA graph capture cannot proceed. "
        f"Please lower max_num_seqs to at most {num_blocks} or increase gpu_memory_utilization."
    )


def nemotron_h_ssm_dtype_line(dtype: str) -> str:
    """vllm/model_executor/models/config.py ``NemotronHForCausalLMConfig``."""
    return f"Updating mamba_ssm_cache_dtype to '{dtype}' for NemotronH model"
