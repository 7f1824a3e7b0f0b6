"""Read a pasted vLLM start-up log: what went wrong, and every number vLLM printed.

vLLM's start-up log is the best evidence a user has: it states the memory budget
vLLM measured, the KV capacity it planned and, on failure, which check failed. This
module turns such a log (V0 and V1 formats, releases 0.3 to 2026, any mix of
prefixes) into a :class:`LogReading`: one diagnosis, the facts found and the line
each fact came from.

Design notes
------------
* Standard library only (runs in Pyodide).
* Robust to ANSI colours, ``(EngineCore_DP0 pid=…)`` / ``(Worker_TP0 pid=…)`` /
  ``vllm-1  | `` prefixes, timestamps, Markdown quote markers, ``\\r\\n`` and bare
  ``\\r`` line ends, and error lines that a terminal or GitHub wrapped.
* Fast on garbage: a line is only given to a regex when it contains one of a few
  literal anchors (cheap substring tests); every regex is linear (no nested or
  overlapping quantifiers, and each starts with a literal), so 5 MB of random bytes
  is read in well under a second and a 100,000-character adversarial line in
  milliseconds (tests/test_hostile.py, bench/core_bench.py).
* Bounded facts: a number longer than 32 characters, a non-finite one (a 400-digit
  GiB figure) or one beyond the input limits (``limits.py``) is dropped, never
  passed on as ``Infinity``; a text fact is at most 512 characters. The
  ``non-default args`` dict is given to ``ast.literal_eval`` only when it is a plain
  literal at most 64 levels deep (``limits.python_literal_ok``).
* The diagnosis precedence is fixed (see ``_FATAL_ORDER``): a fatal error always
  wins over signs that the engine started, and the most specific vLLM check wins
  over a generic CUDA out-of-memory that may only be its consequence.

Sources of the formats: vLLM ``vllm/v1/core/kv_cache_utils.py`` (error and
capacity texts), ``vllm/v1/worker/gpu_worker.py`` and ``vllm/worker/worker.py``
(memory profiling lines), ``vllm/engine/llm_engine.py`` / ``vllm/v1/engine/core.py``
(engine config line); real examples in ``tests/data/logs/``.
"""

from __future__ import annotations

import ast
import json
import math
import re
import shlex
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..errors import CalcError
from ..limits import MAX_GIB, MAX_NUMBER_CHARS, python_literal_ok
from ..units import parse_human_int

__all__ = ["LogReading", "parse_log", "DIAGNOSES", "FACT_KEYS"]

DIAGNOSES: tuple[str, ...] = (
    "kv_cache_too_small",
    "no_memory_for_cache_blocks",
    "free_memory_below_utilization",
    "cuda_out_of_memory",
    "engine_failed",
    "started",
    "unknown",
    # CUDA out of memory while the weights load (before any KV cache is sized): the start-up OOM.
    "load_out_of_memory",
    # A pasted command or LLM(...) call with no line vLLM printed: its settings, planned before a
    # run.
    "pre_flight",
    # A hybrid's Mamba state blocks fewer than max_num_seqs (vllm/config/compilation.py, #38270).
    "mamba_blocks_below_max_num_seqs",
)

# Most specific first: vLLM's own checks name the root cause; a CUDA OOM text may be
# a consequence (or an unrelated later crash) and is used only when nothing else is.
_FATAL_ORDER: tuple[str, ...] = (
    "kv_cache_too_small",
    "no_memory_for_cache_blocks",
    "mamba_blocks_below_max_num_seqs",
    "free_memory_below_utilization",
    "load_out_of_memory",
    "cuda_out_of_memory",
    # vLLM's own "EngineCore failed to start." / "Engine core initialization failed": the engine did
    # not start, for a reason none of the checks above names (the root cause is elsewhere in the
    # log).
    "engine_failed",
)


# Every fact key the reader can produce, in the order a report lists them: what ran, how it was
# configured, the memory budget, then the capacity. ``kvcalc log --json`` keeps these keys as they
# are; readers see them labelled (logfacts.py). tests/test_logfacts.py checks the list against this
# module.
FACT_KEYS: tuple[str, ...] = (
    "vllm_version",
    "model",
    "gpu_name",
    "max_model_len",
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
    "total_gpu_memory_gib",
    "free_memory_gib",
    "requested_memory_gib",
    "model_weights_gib",
    "consumed_memory_gib",
    "activation_peak_gib",
    "peak_torch_memory_gib",
    "non_torch_gib",
    "cudagraph_estimate_gib",
    "cudagraph_gib",
    "available_kv_gib",
    "suggested_kv_cache_memory_bytes",
    "needed_kv_gib",
    "estimated_max_model_len",
    "num_gpu_blocks",
    "gpu_kv_cache_tokens",
    "max_concurrency",
    "oom_tried_to_allocate_mib",
    # Added with the worker prefixes and the hybrid layout lines (0.27+):
    "tensor_parallel_size_at_least",
    "pipeline_parallel_size_at_least",
    "world_size_at_least",
    "hybrid_attention_block_size",
    "mamba_page_padding_pct",
    "num_padding_layers",
    "mamba_cache_blocks",
    # the block size of each KV cache group, as recent releases print them once the groups are
    # formed
    "kv_cache_group_block_sizes",
    # the start-up summary's second --kv-cache-memory: the KV cache that would use the whole free
    # memory
    "full_kv_cache_memory_bytes",
)


@dataclass(frozen=True, kw_only=True)
class LogReading:
    """What one vLLM log says."""

    diagnosis: str
    """One of :data:`DIAGNOSES`."""
    facts: Mapping[str, object] = field(default_factory=dict)
    """Only the keys found; values are int, float, str or bool (GiB as printed)."""
    evidence: tuple[tuple[str, str], ...] = ()
    """``(fact key or "diagnosis", the log line it came from)``, in key order."""
    stated: frozenset[str] = frozenset()
    """Fact keys the reader set: read from their command line or vLLM's echo of its non-default args
    (whatever line then gave the value); a printed command of the log's run carries them."""
    defaulted: frozenset[str] = frozenset()
    """Fact keys vLLM says it chose itself ("Defaulting max_num_seqs to 1024 …",
    vllm/engine/arg_utils.py)."""
    starts: int = 0
    """How many starts the log holds (``non-default args`` echoes); the facts are the last one's."""
    models: tuple[str, ...] = ()
    """Every model the log names (each earlier start's, a command's), the one the facts use last."""


# --------------------------------------------------------------------------- #
# Line clean-up
# --------------------------------------------------------------------------- #

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

# Cheap literal anchors: a line is examined further only if it holds one of them.
_ANCHORS: tuple[str, ...] = (
    "GiB",
    "GB",
    "KV",
    "blocks",
    "memory",
    "vllm",
    "vLLM",
    "serve",
    "max_seq_len",
    "max_model_len",
    "max-model-len",
    "non-default args",
    "concurrency",
    "out of memory",
    "OutOfMemory",
    "version",
    "GPU 0:",
    "max_num_",
    "Defaulting",
    "api_server",
    "init engine",
    "EngineCore failed",
    "initialization failed",
    "process failed",
    "Free memory",
    "LLM engine (v",
    "Worker_",
    "VllmWorker",
    "Setting attention block size",
    "padding layers",
    "Padding mamba page",
    "kv cache group sizes",
    "Mamba cache blocks",
    "auto-fit",
    "load_model",
    "load_weights",
    "model_loader",
    "load model",
    "weights took",
    "loading took",
    "LLM(",
    "command:",
    "args:",
    "create_weights",
    "initialize_model",
)


# One pass of C-level search over the whole text finds the lines worth reading (5 MB of newlines is
# read in milliseconds, not a Python test per line).
def _literal_trie(words: tuple[str, ...] | list[str]) -> str:
    """A regex for any of ``words`` as a trie of literals (alternatives share their prefixes), so
    the regex engine tests one character per branch instead of every word at every position; no
    quantifier."""
    if "" in words:
        rest = [w for w in words if w]
        return f"(?:{_literal_trie(rest)})?" if rest else ""
    groups: dict[str, list[str]] = {}
    for w in words:
        groups.setdefault(w[0], []).append(w[1:])
    parts = [re.escape(c) + _literal_trie(tails) for c, tails in sorted(groups.items())]
    return parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"


_ANCHOR_RE = re.compile(_literal_trie(sorted(set(_ANCHORS))))

# Priorities: a later, stronger source replaces a weaker one (equal: first wins).
_P_RESOLVED = (
    0  # a setting the core resolves itself, as the engine line prints it resolved (prefix caching)
)
_P_COMMAND = 1  # what the user typed (vllm serve …, LLM(…))
_P_ARGS = 2  # vLLM's echo of non-default args
_P_LOG = 3  # a value vLLM printed while starting
_P_ENGINE = 4  # the engine's resolved config line
_P_ERROR = 5  # the value a failed check used


#: Engine-line settings printed as vLLM resolved them, under what the reader asked (args, command):
#: a 0.13 Qwen3-Next asked for prefix caching prints False after "disabling" (the core resolves it
#: and prints vLLM's warning itself); ``--dtype half`` prints as ``dtype=torch.float16`` (the
#: reader's spelling is the one a printed command keeps).
_RESOLVED = frozenset({"enable_prefix_caching", "dtype"})


class _Facts:
    """Fact collector that remembers the source line and its priority."""

    def __init__(self) -> None:
        self.values: dict[str, object] = {}
        self.lines: dict[str, str] = {}
        self.prio: dict[str, int] = {}
        self.stated: set[str] = set()
        self.defaulted: set[str] = set()

    def put(self, key: str, value: object, line: str, prio: int) -> None:
        value = _bounded(key, value)
        if value is None:
            return
        if prio in (_P_COMMAND, _P_ARGS):
            self.stated.add(key)
        if key in self.values and self.prio[key] >= prio:
            return
        self.values[key] = value
        self.lines[key] = line.strip()
        self.prio[key] = prio


_MAX_FACT_CHARS = 512
_MAX_NUMBER_CHARS = 32
_MAX_INT = 1 << 53
_MAX_RATIO = float(1 << 40)


def _bounded(key: str, value: object) -> object:
    """A fact as the core may pass it on: finite, within the input limits, short; else None
    (dropped)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if -_MAX_INT <= value <= _MAX_INT else None
    if isinstance(value, float):
        limit = float(MAX_GIB) if key.endswith("_gib") else _MAX_RATIO
        return value if math.isfinite(value) and -limit <= value <= limit else None
    if isinstance(value, str):
        return value if len(value) <= _MAX_FACT_CHARS else None
    return None


def _num(text: str) -> float | None:
    """A printed number (``1,234.5``); None when it is too long to be real or not finite."""
    if len(text) > _MAX_NUMBER_CHARS:
        return None
    value = float(text.replace(",", ""))
    return value if math.isfinite(value) else None


def _int(text: str) -> int | None:
    """A printed integer (``1,234``); None beyond 18 digits (no count vLLM prints is longer)."""
    digits = text.replace(",", "")
    return int(digits) if len(digits) <= 18 else None


# --------------------------------------------------------------------------- #
# Patterns (each linear: literal text, character classes, no nested repeats)
# --------------------------------------------------------------------------- #

_F = r"(-?\d+(?:\.\d+)?)"  # a printed number, maybe negative
_I = r"(\d[\d,]*)"  # an integer, maybe with thousands separators

# Errors -------------------------------------------------------------------- #
_KV_ERR_V1 = re.compile(
    r"max seq len \((\d+)\),\s?\(?\s?"
    + _F
    + r" ?GiB KV cache is needed, which is larger than the available(?: KV cache memory)? \(?"
    + _F
    + " ?GiB"
)
_KV_ERR_V1_LEN = re.compile(r"request with the models?'s max seq len \((\d+)\)")
# The same error quoted with its middle elided ("2.0 GiB KV cache is needed ... estimated maximum
# model length is 1856."): the length and the needed figure still stand side by side.
_KV_ERR_V1_NEEDED = re.compile(
    r"max seq len \((\d+)\),\s?\(?\s?" + _F + r" ?GiB KV cache is needed"
)
_KV_ERR_EST = re.compile(r"estimated maximum model length is (\d+)")
_KV_ERR_V0 = re.compile(
    r"max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in KV "
    r"cache \((\d+)\)"
)
_FREE_ERR = re.compile(
    r"Free memory on device(?: \S+)? \("
    + _F
    + "/"
    + _F
    + r" GiB\)(?: on startup)? is less than desired GPU memory utilization \("
    + _F
    + ", "
    + _F
    + " GiB\\)"
)
_OOM_TOTAL = re.compile(r"total capac\w* of " + _F + r" GiB")
_OOM_TRIED = re.compile(r"Tried to allocate " + _F + r" (MiB|GiB|KiB)")

# Capacity ------------------------------------------------------------------ #
_AVAILABLE = re.compile(r"Available KV cache memory: " + _F + r" ?GiB")
_KV_SIZE = re.compile(r"GPU KV cache size: " + _I + r" tokens")
_CONCURRENCY = re.compile(r"Maximum concurrency for " + _I + r" tokens per request: " + _F + "x")
_BLOCKS = re.compile(r"# (?:GPU|gpu|cuda|CUDA) blocks: (\d+)|^GPU blocks: (\d+)")
# kv_cache_utils ``_auto_fit_max_model_len`` (0.14.0+, #29431); ``%s`` is format_gib.
_AUTO_FIT = re.compile(
    r"Auto-fit max_model_len: reduced from (\d+) to (\d+) to fit in available GPU memory \("
    + _F
    + r" GiB available for KV cache\)"
)
# vllm/v1/metrics/loggers.py ``log_engine_initialized`` (0.9.0 – 0.11.0 INFO, later DEBUG or "N
# Engines:").
_CACHE_CONFIG_INFO = re.compile(
    r"cache_config_info with initialization after num_gpu_blocks is: (\d+)"
)
# kv_cache_utils: 0.10.2 – 0.11.x multiply by dcp; 0.12.0 – 0.20.0 by pcp × dcp (removed by #41069).
_DCP_MULTIPLY = re.compile(r"Multiplying the GPU KV cache size by the dcp_world_size (\d+)")
_CP_MULTIPLY = re.compile(
    r"Multiplying the GPU KV cache size by the cp_world_size (\d+) \(pcp_world_size (\d+) \* "
    r"dcp_world_size (\d+)\)"
)
_RESERVED_FIXED = re.compile(
    r"reserved " + _F + r" GiB memory for KV Cache as specified by kv_cache_memory_bytes"
)
# The same line's first figure: the free memory vLLM measured before it loaded anything
# (gpu_worker.py, when kv_cache_memory_bytes skips the profiling): "Initial free memory 30.16 GiB,
# reserved 5.0 GiB memory for …"
_INITIAL_FREE = re.compile(r"Initial free memory " + _F + r" GiB, reserved ")

# Memory breakdown ---------------------------------------------------------- #
_WEIGHTS_TAKE = re.compile(r"model weights take\s+" + _F + r" ?GiB")
_NON_TORCH_TAKES = re.compile(r"non_torch_memory(?: takes)?\s+" + _F + r" ?GiB")
_ACT_TAKES = re.compile(r"PyTorch activation peak memory(?: takes)?\s+" + _F + r" ?GiB")
_REST_KV = re.compile(r"the rest of the memory reserved for KV Cache is\s+" + _F + r" ?GiB")
_AVAIL_TABLE = re.compile(r"available_kv_cache_memory\s+" + _F + r" ?GiB")
_TOTAL_X_UTIL = re.compile(
    r"total_gpu_memory \("
    + _F
    + r" ?GiB\) x gpu_memory_utilization \("
    + _F
    + r"\) = "
    + _F
    + r" ?GiB"
)
_TOTAL_TABLE = re.compile(r"total_gpu_memory\s+" + _F + r" ?GiB")
_UTIL_TABLE = re.compile(r"gpu_memory_utilization\s+" + _F + r"\s*$")
_INSTANCE_TABLE = re.compile(r"the current vLLM instance can use\s+" + _F + r" ?GiB")
_KEYVAL_PROFILE = re.compile(
    r"\b(total_gpu_memory|non_torch_memory|kv_cache_size|gpu_memory_utilization|peak_torch_memory)="
    + _F
)
_V019_PROFILE = re.compile(
    r"torch peak memory increase: "
    + _F
    + r" ?GiB; non-torch forward increase memory: "
    + _F
    + r" ?GiB; weights memory: "
    + _F
    + r" ?GiB"
)
_ACTUAL_OLD = re.compile(
    r"Actual usage is "
    + _F
    + r" GiB for weight, "
    + _F
    + r" GiB for peak activation, "
    + _F
    + r" GiB for non-torch memory, and "
    + _F
    + r" GiB for CUDAGraph memory"
)
_ACTUAL_NEW = re.compile(
    r"Actual usage is "
    + _F
    + r" GiB for consumed memory \(weights \+ non-torch\), "
    + _F
    + r" GiB for peak activation, and "
    + _F
    + r" GiB for CUDAGraph memory"
)
_FREE_STARTUP = re.compile(
    r"Free memory on device \("
    + _F
    + "/"
    + _F
    + r" GiB\) on startup\. Desired GPU memory utilization is \("
    + _F
    + ", "
    + _F
    + r" GiB\)"
)
_STARTUP_SUMMARY = "on startup. Desired GPU memory utilization is ("
_SUGGEST = re.compile(r"--kv-cache-memory=(\d+)")
# The summary's second suggestion: "or `--kv-cache-memory=21679683072` (20.19 GiB) to fully utilize
# gpu memory"
_SUGGEST_FULL = re.compile(
    r"or `--kv-cache-memory=(\d{1,20})` \(" + _F + r" GiB\) to fully utilize gpu memory"
)
_CURRENT_KV = re.compile(r"Current kv cache memory in use is " + _F + r" GiB")
_MODEL_LOADING = re.compile(
    r"(?:Model loading took|Loading model weights took) " + _F + r" ?(?:GiB|GB)"
)
_GRAPH_TOOK = re.compile(r"Graph capturing finished in \d+ secs?, took " + _F + r" GiB")
_GRAPH_POOL = re.compile(r"CUDA graph pool memory: " + _F + r" GiB \(actual\)")
_GRAPH_EST = re.compile(r"Estimated CUDA graph memory: " + _F + r" GiB total")
_UTIL_EQUIV = re.compile(
    r"The current --gpu-memory-utilization="
    + _F
    + r" is equivalent to --gpu-memory-utilization="
    + _F
)

# Config -------------------------------------------------------------------- #
# "an LLM engine" (0.6.x V0), "a V0 LLM engine" (0.7 – 0.10 when V0 runs), "a V1 LLM engine" (0.7+).
_ENGINE_VERSION = re.compile(r"Initializing an? (?:V[01] )?LLM engine \(v([0-9][0-9A-Za-z.+_-]*)\)")
# The API server's line (≤ 0.14), the logo's "version" line (0.15+) and its plain form without the
# logo ("vLLM server version %s, serving model %s", VLLM_DISABLE_LOG_LOGO=1).
_BANNER_VERSION = re.compile(
    r"(?:vLLM API server version|vLLM server version|█\s+version) "
    r"v?([0-9]+\.[0-9]+[0-9A-Za-z.+_-]*)"
)
# Starts only at the beginning of a word, so a long run of word characters is scanned once.
_CONFIG_PAIR = re.compile(r"(?<!\w)(\w+)=('[^']*'|[^,\s)]+)")
_USING_LEN = re.compile(r"Using max model len (\d+)")
_CHUNKED = re.compile(r"max_num_batched_tokens=(\d+)")
_DEFAULTING = re.compile(r"Defaulting (max_num_batched_tokens|max_num_seqs) to (\d+)")
_GPU_NAME = re.compile(r"GPU 0: (NVIDIA [A-Za-z0-9 ._-]{2,60}|AMD [A-Za-z0-9 ._-]{2,60})")

_ENGINE_KEYS = {
    "model": "model",
    "max_seq_len": "max_model_len",
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "kv_cache_dtype": "kv_cache_dtype",
    "quantization": "quantization",
    "enforce_eager": "enforce_eager",
    "dtype": "dtype",
    "block_size": "block_size",
}

_ARG_KEYS = {
    "model": "model",
    "max_model_len": "max_model_len",
    "tensor_parallel_size": "tensor_parallel_size",
    "pipeline_parallel_size": "pipeline_parallel_size",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "kv_cache_dtype": "kv_cache_dtype",
    "quantization": "quantization",
    "enforce_eager": "enforce_eager",
    "dtype": "dtype",
    "block_size": "block_size",
    "max_num_seqs": "max_num_seqs",
    "max_num_batched_tokens": "max_num_batched_tokens",
    "kv_cache_memory_bytes": "kv_cache_memory_bytes",
    "decode_context_parallel_size": "decode_context_parallel_size",
    # The Mamba cache settings (vllm/config/cache.py): a hybrid's blocks per request depend on them.
    "enable_prefix_caching": "enable_prefix_caching",
    "mamba_cache_mode": "mamba_cache_mode",
    "mamba_ssm_cache_dtype": "mamba_ssm_cache_dtype",
    # The multimodal profile run (vllm/config/multimodal.py): which encoder items vLLM profiles, or
    # none.
    "limit_mm_per_prompt": "limit_mm_per_prompt",
    "skip_mm_profiling": "skip_mm_profiling",
}

# Command-line flags (dashes or underscores) → fact key; None value = boolean flag.
_FLAGS = {
    "--model": "model",
    "--max-model-len": "max_model_len",
    "--tensor-parallel-size": "tensor_parallel_size",
    "-tp": "tensor_parallel_size",
    "--pipeline-parallel-size": "pipeline_parallel_size",
    "-pp": "pipeline_parallel_size",
    "--gpu-memory-utilization": "gpu_memory_utilization",
    "--kv-cache-dtype": "kv_cache_dtype",
    "--quantization": "quantization",
    "-q": "quantization",
    "--dtype": "dtype",
    "--block-size": "block_size",
    "--max-num-seqs": "max_num_seqs",
    "--max-num-batched-tokens": "max_num_batched_tokens",
    "--kv-cache-memory": "kv_cache_memory_bytes",
    "--kv-cache-memory-bytes": "kv_cache_memory_bytes",
    "--decode-context-parallel-size": "decode_context_parallel_size",
    "-dcp": "decode_context_parallel_size",
    "--mamba-cache-mode": "mamba_cache_mode",
    "--mamba-ssm-cache-dtype": "mamba_ssm_cache_dtype",
    "--limit-mm-per-prompt": "limit_mm_per_prompt",
}
# Boolean flags → (fact key, value); vLLM's argparse pairs each with its --no- form.
_BOOL_FLAGS = {
    "--enforce-eager": ("enforce_eager", True),
    "--enable-prefix-caching": ("enable_prefix_caching", True),
    "--no-enable-prefix-caching": ("enable_prefix_caching", False),
    "--skip-mm-profiling": ("skip_mm_profiling", True),
}
_BOOL_KEYS = frozenset({"enforce_eager", "enable_prefix_caching", "skip_mm_profiling"})
_INT_KEYS = {
    "max_model_len",
    "tensor_parallel_size",
    "pipeline_parallel_size",
    "max_num_seqs",
    "max_num_batched_tokens",
    "block_size",
    "kv_cache_memory_bytes",
    "decode_context_parallel_size",
}


# --------------------------------------------------------------------------- #
# Value helpers
# --------------------------------------------------------------------------- #


def _size_value(text: str) -> int | None:
    """``32768``, ``32k`` (×1000), ``32K`` (×1024), ``-1``: vLLM's ``human_readable_int``
    (``units.parse_human_int``, the core's one size parser); None for what vLLM would refuse."""
    text = text.strip().strip("'\"")
    try:
        return parse_human_int(text, field="log")
    except CalcError:
        return None


def _typed(key: str, raw: object) -> object:
    """Coerce a config value to the fact's type; None for absent/unknown values."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        return raw
    if key in _INT_KEYS:
        if isinstance(raw, int):
            return raw
        return _size_value(str(raw))
    if key == "gpu_memory_utilization":
        try:
            value = (
                float(raw)
                if isinstance(raw, (int, float))
                else (float(str(raw)) if len(str(raw)) <= _MAX_NUMBER_CHARS else None)
            )
        except (TypeError, ValueError, OverflowError):
            return None
        return value if value is not None and math.isfinite(value) else None
    if key in _BOOL_KEYS:
        return str(raw).strip("'\"") == "True"
    if key == "limit_mm_per_prompt" and isinstance(
        raw, dict
    ):  # the args echo's dict, as the flag's JSON
        try:
            return json.dumps(raw)
        except (TypeError, ValueError):
            return None
    text = str(raw).strip().strip("'\"")
    if text in ("", "None") or (
        text == "none" and key != "mamba_cache_mode"
    ):  # 'none' is a Mamba cache mode
        return None
    if key == "dtype" and text.startswith("torch."):
        text = text[len("torch.") :]
    return text


# --------------------------------------------------------------------------- #
# Per-line readers
# --------------------------------------------------------------------------- #


def _read_engine_config(line: str, facts: _Facts) -> None:
    m = _ENGINE_VERSION.search(line)
    if m:
        facts.put("vllm_version", m.group(1), line, _P_ENGINE)
    if "with config:" not in line:
        return
    body = line.split("with config:", 1)[1]
    for key, raw in _CONFIG_PAIR.findall(body):
        name = key if key == "enable_prefix_caching" else _ENGINE_KEYS.get(key)
        if name is None:
            continue
        facts.put(name, _typed(name, raw), line, _P_RESOLVED if name in _RESOLVED else _P_ENGINE)


# A string literal (kept as it is) or a number literal outside strings, in one linear scan.
_PY_TOKEN = re.compile(
    r"'[^'\\\n]*(?:\\.[^'\\\n]*)*'?|\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"?|(?<![\w.])[0-9][0-9A-Za-z_.]*"
)


def _drop_long_numbers(literal: str) -> str:
    """Every number literal longer than ``limits.MAX_NUMBER_CHARS`` becomes ``None`` before Python
    builds it: ``0x`` + 4,000 hex digits (or ``0o``, ``0b``, with underscores) is an int past
    CPython's 4,300-digit ``str()`` limit, which the decimal-only guard of ``ast.literal_eval`` does
    not see."""

    def keep(m: re.Match[str]) -> str:
        text = m.group()
        return "None" if text[0].isdigit() and len(text) > MAX_NUMBER_CHARS else text

    return _PY_TOKEN.sub(keep, literal)


def _read_non_default_args(line: str, facts: _Facts) -> None:
    start = line.find("{", line.find("non-default args"))
    end = line.rfind("}")
    if start < 0:
        return
    if end <= start or end - start > 20000:
        end = start  # no closing brace in reach: only the scalar pairs of the cut echo are read
    literal = _drop_long_numbers(line[start : end + 1])
    args: object
    if not python_literal_ok(literal):
        # not for the parser (deep nesting kills Pyodide's C stack; a config object's repr such as
        # StructuredOutputsConfig(backend='auto') is no literal): its top-level scalars still count
        args = _cut_args(line[start : start + 20000])
    else:
        try:
            args = ast.literal_eval(literal)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError, OverflowError):
            args = _cut_args(line[start : start + 20000])
    if not isinstance(args, dict):
        return
    if args.get("language_model_only") is True:
        args["limit_mm_per_prompt"] = _language_model_only_limits(args.get("limit_mm_per_prompt"))
    for key, raw in args.items():
        name = _ARG_KEYS.get(str(key))
        if name is not None:
            facts.put(name, _typed(name, raw), line, _P_ARGS)


# One token of a Python ``repr``: a quoted string (escapes kept), a bracket or separator, or a bare
# scalar. The alternatives start with disjoint characters and none nests a quantifier: linear.
_REPR_TOKEN = re.compile(
    r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"|[{}\[\]():,]|[^\s,:'\"{}\[\]()]{1,64}"
)
_OPEN, _CLOSE = "{[(", "}])"


def _cut_args(text: str) -> dict[str, object]:
    """The top-level ``'key': scalar`` pairs of a ``non-default args`` echo cut before its closing
    brace.

    A console, a log collector or a paste often cuts this long line (one quoted in a public report
    ends in ``'cudagr``); the settings before the cut are still vLLM's own, so they are read. A pair
    counts only when a separator follows its value, so a value cut in the middle is never read."""
    tokens = [m.group() for m in _REPR_TOKEN.finditer(text)]
    pairs: dict[str, object] = {}
    depth = 0
    for k, token in enumerate(tokens):
        if token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth -= 1
        elif (
            depth == 1
            and 0 < k < len(tokens) - 3
            and tokens[k - 1] in ("{", ",")
            and token[0] == "'"
            and tokens[k + 1] == ":"
            and tokens[k + 3] in (",", "}")
            and tokens[k + 2] not in _OPEN
        ):
            value = tokens[k + 2]
            pairs[token[1:-1]] = {"True": True, "False": False, "None": None}.get(value, value)
    return pairs


def _language_model_only_limits(given: object) -> dict[str, int]:
    """``--language-model-only`` (0.17.0, #34120; vllm/config/multimodal.py ``get_limit_per_prompt``
    returns 0 for every modality): the echoed limits, each set to 0, with image and video at 0
    too."""
    keys = [str(k) for k in given] if isinstance(given, dict) else []
    return {k: 0 for k in [*keys, "image", "video"]}


#: One word of a POSIX shell line as ``shlex.split`` reads it: unquoted runs, '…', "…" (backslash
#: escapes only ``"`` and ``\\`` inside), and backslash escapes; possessive, so a long run is one
#: linear step.
_SHELL_PIECE = re.compile(r"""[^ \t\r\n'"\\]++|'[^']*+'|"(?:[^"\\]++|\\.)*+"|\\.""", re.DOTALL)
_SHELL_BLANKS = re.compile(r"[ \t\r\n]++")
_DOUBLE_QUOTED_ESCAPE = re.compile(r'\\([\\"])')


def _shell_words(command: str) -> list[str]:
    """``shlex.split(command)``, in a few regex steps instead of shlex's character loop (which took
    1 s on 5 MB of long command lines). Raises ValueError where shlex does (an unclosed quote, a
    final backslash)."""
    words: list[str] = []
    pos, end = 0, len(command)
    while True:
        blank = _SHELL_BLANKS.match(command, pos)
        if blank:
            pos = blank.end()
        if pos >= end:
            return words
        word: list[str] = []
        while (piece := _SHELL_PIECE.match(command, pos)) is not None:
            text = piece.group()
            if text[0] == "'":
                word.append(text[1:-1])
            elif text[0] == '"':
                word.append(_DOUBLE_QUOTED_ESCAPE.sub(r"\1", text[1:-1]))
            elif text[0] == "\\":
                word.append(text[1])
            else:
                word.append(text)
            pos = piece.end()
        if pos < end and command[pos] not in " \t\r\n":
            raise ValueError("no closing quotation or escaped character")
        words.append("".join(word))


def _read_command(command: str, source: str, facts: _Facts) -> None:
    """Read a ``vllm serve …`` or ``python -m vllm.entrypoints… …`` command."""
    try:
        tokens = _shell_words(command)
    except ValueError:
        tokens = command.split()
    tokens = [t.strip("`") for t in tokens]
    image = next((k for k, tok in enumerate(tokens) if _IMAGE.search(tok)), None)
    if (
        image is not None
    ):  # docker run … vllm/vllm-openai:TAG …: the arguments after the image are vLLM's
        tokens = tokens[image + 1 :]
        # the image's entrypoint is ``vllm serve`` (vLLM's docker/Dockerfile ENTRYPOINT), so a first
        # argument that is no flag and no command of its own is the model, given positionally
        if (
            tokens
            and not tokens[0].startswith("-")
            and "serve" not in tokens
            and not tokens[0].startswith(("python", "vllm"))
        ):
            facts.put("model", tokens[0], source, _P_COMMAND)
    if "serve" in tokens:
        i = tokens.index("serve")
        if i + 1 < len(tokens) and not tokens[i + 1].startswith("-"):
            facts.put("model", tokens[i + 1], source, _P_COMMAND)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        flag, eq, inline = tok.partition("=")
        flag = flag.replace("_", "-") if flag.startswith("--") else flag
        if flag in _BOOL_FLAGS:
            facts.put(*_BOOL_FLAGS[flag], source, _P_COMMAND)
        elif flag in _FLAGS:
            value = inline if eq else (tokens[i + 1] if i + 1 < len(tokens) else None)
            if not eq:
                i += 1
            if value is not None:
                name = _FLAGS[flag]
                facts.put(name, _typed(name, value), source, _P_COMMAND)
        i += 1


def _put_figures(
    facts: _Facts, line: str, m: re.Match[str] | None, *keys: str, prio: int = _P_LOG
) -> None:
    """Group ``n`` of a matched line (a printed GiB figure or ratio) as the fact ``keys[n - 1]``."""
    if m:
        for group, key in enumerate(keys, 1):
            facts.put(key, _num(m.group(group)), line, prio)


# 0.19's ``key=value`` profile line → fact key.
_KEYVAL_FACTS = {
    "total_gpu_memory": "total_gpu_memory_gib",
    "non_torch_memory": "non_torch_gib",
    "kv_cache_size": "available_kv_gib",
    "gpu_memory_utilization": "gpu_memory_utilization",
    "peak_torch_memory": "peak_torch_memory_gib",
}


def _read_memory_lines(line: str, facts: _Facts) -> None:
    """The budget and capacity lines of every era.

    The readers run in a fixed order, as do the patterns inside each: a fact given twice at
    the same priority keeps the first value, and the evidence lists facts in the order found.
    """
    # Each reader is gated by a word every one of its patterns holds, so a line runs only the
    # regexes it could match.
    if "GiB" in line or "GB" in line:
        if "memory" in line or "take" in line or "instance can use" in line:
            _read_memory_profile(line, facts)
        if "memory" in line or "Actual usage" in line:
            _read_usage_summary(line, facts)
        if "took" in line or "graph" in line or "Graph" in line or "kv_cache_memory_bytes" in line:
            _read_weights_and_graphs(line, facts)
    if "utilization" in line:
        _read_utilization(line, facts)
    if (
        "KV cache size" in line
        or "concurrency" in line
        or "blocks" in line
        or "cache_config_info" in line
        or "Multiplying" in line
    ):
        _read_kv_capacity(line, facts)
    if (
        "max model len" in line
        or "Auto-fit" in line
        or "max_num_batched_tokens=" in line
        or "Defaulting" in line
    ):
        _read_engine_limits(line, facts)
    _read_gpu_name(line, facts)


def _read_gpu_name(line: str, facts: _Facts) -> None:
    if "GPU 0:" in line:
        m = _GPU_NAME.search(line)
        if m:
            facts.put("gpu_name", m.group(1).strip(), line, _P_LOG)


def _read_memory_profile(line: str, facts: _Facts) -> None:
    """The worker's memory profiling: what weights, activations and non-torch allocations took and
    what is left for the KV cache (V1 sentence and table, V0 sentence, 0.19 ``key=value`` and
    summary)."""
    _put_figures(facts, line, _AVAILABLE.search(line), "available_kv_gib")
    _put_figures(facts, line, _WEIGHTS_TAKE.search(line), "model_weights_gib")
    _put_figures(facts, line, _NON_TORCH_TAKES.search(line), "non_torch_gib")
    _put_figures(facts, line, _ACT_TAKES.search(line), "activation_peak_gib")
    _put_figures(
        facts, line, _REST_KV.search(line) or _AVAIL_TABLE.search(line), "available_kv_gib"
    )
    _read_requested_memory(line, facts)
    if "=" in line and ("total_gpu_memory=" in line or "kv_cache_size=" in line):
        for key, value in _KEYVAL_PROFILE.findall(line):
            facts.put(_KEYVAL_FACTS[key], _num(value), line, _P_LOG)
    _put_figures(
        facts,
        line,
        _V019_PROFILE.search(line),
        "activation_peak_gib",
        "non_torch_gib",
        "model_weights_gib",
    )


def _read_requested_memory(line: str, facts: _Facts) -> None:
    """What this instance may use, total_gpu_memory × gpu_memory_utilization: one sentence with all
    three figures or, in the profiling table, one row each."""
    m = _TOTAL_X_UTIL.search(line)
    if m:
        _put_figures(
            facts, line, m, "total_gpu_memory_gib", "gpu_memory_utilization", "requested_memory_gib"
        )
        return
    m = _TOTAL_TABLE.search(line)
    if m and "=" not in line:
        _put_figures(facts, line, m, "total_gpu_memory_gib")
    _put_figures(facts, line, _INSTANCE_TABLE.search(line), "requested_memory_gib")


def _read_usage_summary(line: str, facts: _Facts) -> None:
    """gpu_worker's summary once CUDA graphs are captured: free memory on start-up, what each part
    actually used, and the ``--kv-cache-memory`` that would give the same KV cache."""
    _put_figures(
        facts,
        line,
        _FREE_STARTUP.search(line),
        "free_memory_gib",
        "total_gpu_memory_gib",
        "gpu_memory_utilization",
        "requested_memory_gib",
    )
    _put_figures(
        facts,
        line,
        _ACTUAL_OLD.search(line),
        "model_weights_gib",
        "activation_peak_gib",
        "non_torch_gib",
        "cudagraph_gib",
    )
    _put_figures(
        facts,
        line,
        _ACTUAL_NEW.search(line),
        "consumed_memory_gib",
        "activation_peak_gib",
        "cudagraph_gib",
    )
    if "Replace gpu_memory_utilization" in line:
        m = _SUGGEST.search(line)
        if m:
            facts.put("suggested_kv_cache_memory_bytes", _int(m.group(1)), line, _P_LOG)
        m = _SUGGEST_FULL.search(line)
        if m:
            facts.put("full_kv_cache_memory_bytes", _int(m.group(1)), line, _P_LOG)
    _put_figures(facts, line, _CURRENT_KV.search(line), "available_kv_gib")


def _read_weights_and_graphs(line: str, facts: _Facts) -> None:
    """Model loading and CUDA graph capture, and a KV cache fixed by ``kv_cache_memory_bytes``."""
    # Lower priority than the profiler's own figure (same quantity).
    _put_figures(facts, line, _MODEL_LOADING.search(line), "model_weights_gib", prio=_P_ARGS)
    _put_figures(facts, line, _GRAPH_TOOK.search(line) or _GRAPH_POOL.search(line), "cudagraph_gib")
    _put_figures(facts, line, _GRAPH_EST.search(line), "cudagraph_estimate_gib")
    m = _RESERVED_FIXED.search(line)
    if m:
        _put_figures(facts, line, m, "available_kv_gib")
        facts.put("kv_cache_memory_fixed", True, line, _P_LOG)
        _put_figures(facts, line, _INITIAL_FREE.search(line), "free_memory_gib")


def _read_utilization(line: str, facts: _Facts) -> None:
    """gpu_memory_utilization as the worker's table prints it, and the equivalent value vLLM
    suggests once CUDA graph memory is profiled (no GiB figure on these lines)."""
    m = _UTIL_TABLE.search(line)
    if m and "worker" in line:
        _put_figures(facts, line, m, "gpu_memory_utilization")
    _put_figures(
        facts,
        line,
        _UTIL_EQUIV.search(line),
        "gpu_memory_utilization",
        "gpu_memory_utilization_without_cudagraph_profiling",
    )


def _read_kv_capacity(line: str, facts: _Facts) -> None:
    """The capacity vLLM planned: KV cache size in tokens, maximum concurrency, number of blocks."""
    m = _KV_SIZE.search(line)
    if m:
        facts.put("gpu_kv_cache_tokens", _int(m.group(1)), line, _P_LOG)
    m = _CONCURRENCY.search(line)
    if m:
        facts.put("max_model_len", _int(m.group(1)), line, _P_LOG - 1)
        facts.put("max_concurrency", _num(m.group(2)), line, _P_LOG)
    m = _BLOCKS.search(line)
    if m:
        facts.put("num_gpu_blocks", _int(m.group(1) or m.group(2)), line, _P_LOG)
    m = _CACHE_CONFIG_INFO.search(line) if "cache_config_info" in line else None
    if m:  # cache_config.num_gpu_blocks, the null block included (same count as "# GPU blocks")
        facts.put("num_gpu_blocks", _int(m.group(1)), line, _P_LOG)
    if "Multiplying the GPU KV cache size" in line:
        _read_cp_multiply(line, facts)


def _read_cp_multiply(line: str, facts: _Facts) -> None:
    """The context-parallel factor vLLM multiplied the token capacity by (0.10.2 – 0.20.0)."""
    m = _DCP_MULTIPLY.search(line)
    if m:
        facts.put("decode_context_parallel_size", _int(m.group(1)), line, _P_LOG)
    m = _CP_MULTIPLY.search(line)
    if m:
        facts.put("prefill_context_parallel_size", _int(m.group(2)), line, _P_LOG)
        facts.put("decode_context_parallel_size", _int(m.group(3)), line, _P_LOG)


def _read_engine_limits(line: str, facts: _Facts) -> None:
    """The limits the engine resolved: max model len, and the scheduler's batch limits."""
    m = _USING_LEN.search(line)
    if m:
        facts.put("max_model_len", _int(m.group(1)), line, _P_ENGINE)
    m = _AUTO_FIT.search(line) if "Auto-fit" in line else None
    if m:  # the length vLLM chose (it replaces the -1 / "auto" the user asked for)
        facts.put("derived_max_model_len", _int(m.group(1)), line, _P_LOG)
        facts.put("max_model_len", _int(m.group(2)), line, _P_ENGINE)
        facts.put("available_kv_gib", _num(m.group(3)), line, _P_LOG)
    if "max_num_batched_tokens=" in line and "Chunked prefill" in line:
        m = _CHUNKED.search(line)
        if m:
            facts.put("max_num_batched_tokens", _int(m.group(1)), line, _P_LOG)
    m = _DEFAULTING.search(line)
    if m:
        facts.put(m.group(1), _int(m.group(2)), line, _P_LOG)
        facts.defaulted.add(m.group(1))


# --------------------------------------------------------------------------- #
# Fatal errors
# --------------------------------------------------------------------------- #

_MIB_PER_UNIT = {"KiB": 1 / 1024, "MiB": 1.0, "GiB": 1024.0}


_FATAL_GATE = re.compile(
    "|".join(
        re.escape(w)
        for w in (
            "KV cache is needed",
            "request with the model",
            "that can be stored in KV cache",
            "Cannot auto-fit",
            "No available memory for the cache blocks",
            "is less than desired GPU memory utilization",
            "Free memory",
            "EngineCore failed to start",
            "Engine core initialization failed",
            "process failed during engine core",
            "out of memory",
            "OutOfMemoryError",
            "exceeds available Mamba cache blocks",
        )
    )
)


def _read_fatal_errors(lines: list[str], i: int, facts: _Facts, fatal: dict[str, str]) -> None:
    """The checks that stop vLLM's start-up; the first line of each kind is its evidence."""
    line = lines[i]
    if not _FATAL_GATE.search(line):
        return
    if "KV cache is needed" in line or "request with the model" in line:
        _read_v1_kv_error(lines, i, facts, fatal)
    if "that can be stored in KV cache" in line:
        m = _search_wrapped(_KV_ERR_V0, lines, i)
        if m:
            fatal.setdefault("kv_cache_too_small", line)
            facts.put("max_model_len", _int(m.group(1)), line, _P_ERROR)
            facts.put("gpu_kv_cache_tokens", _int(m.group(2)), line, _P_ERROR)
    if "Cannot auto-fit max_model_len" in line:
        # kv_cache_utils ``_auto_fit_max_model_len``: "not enough GPU memory available to serve even
        # a single token" means no block at all, the cache-blocks failure, not a length that is too
        # long.
        glued, spaced = _window(lines, i, 2)
        single = "even a single token" in spaced or "evenasingletoken" in glued.replace(" ", "")
        fatal.setdefault("no_memory_for_cache_blocks" if single else "kv_cache_too_small", line)
    if "exceeds available Mamba cache blocks" in line:
        fatal.setdefault("mamba_blocks_below_max_num_seqs", line)
    if "No available memory for the cache blocks" in line:
        fatal.setdefault("no_memory_for_cache_blocks", line)
    if "is less than desired GPU memory utilization" in line or "Free memory" in line:
        _read_free_memory_error(lines, i, facts, fatal)
    if (
        "EngineCore failed to start" in line
        or "Engine core initialization failed" in line
        or "process failed during engine core initialization" in line
    ):
        fatal.setdefault("engine_failed", line)
    if "out of memory" in line and ("CUDA" in line or "cuda" in line) or "OutOfMemoryError" in line:
        _read_cuda_oom(line, facts, fatal)


_FREE_ERR_TEXT = "is less than desired GPU memory utilization"


def _read_free_memory_error(lines: list[str], i: int, facts: _Facts, fatal: dict[str, str]) -> None:
    """The free-memory check (gpu_worker / ``request_memory``), also when a terminal or a quote
    wrapped it over several lines: a line starting the message is joined with the lines that
    continue it."""
    line = lines[i]
    if _FREE_ERR_TEXT in line:
        found = True
    elif "Free memory on" in line and "Desired GPU memory utilization is" not in line:
        glued, spaced = _window(lines, i)
        found = _FREE_ERR_TEXT in spaced or _FREE_ERR_TEXT in glued
    else:
        return
    if not found:
        return
    fatal.setdefault("free_memory_below_utilization", line)
    _put_figures(
        facts,
        line,
        _search_wrapped(_FREE_ERR, lines, i),
        "free_memory_gib",
        "total_gpu_memory_gib",
        "gpu_memory_utilization",
        "requested_memory_gib",
        prio=_P_ERROR,
    )


def _read_v1_kv_error(lines: list[str], i: int, facts: _Facts, fatal: dict[str, str]) -> None:
    """V1's "max seq len … KV cache is needed" check (kv_cache_utils), searched across wrapped
    lines: the length, needed and available GiB, and vLLM's estimated maximum model length."""
    line = lines[i]
    m = _search_wrapped(_KV_ERR_V1, lines, i)
    ml = _search_wrapped(_KV_ERR_V1_LEN, lines, i)
    if not (m or ml):
        return
    fatal.setdefault("kv_cache_too_small", line)
    if m:
        facts.put("max_model_len", _int(m.group(1)), line, _P_ERROR)
        facts.put("needed_kv_gib", _num(m.group(2)), line, _P_ERROR)
        facts.put("available_kv_gib", _num(m.group(3)), line, _P_ERROR)
    elif ml:
        facts.put("max_model_len", _int(ml.group(1)), line, _P_ERROR)
        mn = _search_wrapped(_KV_ERR_V1_NEEDED, lines, i)
        if mn:
            facts.put("needed_kv_gib", _num(mn.group(2)), line, _P_ERROR)
    me = _search_wrapped(_KV_ERR_EST, lines, i)
    if me:
        facts.put("estimated_max_model_len", _int(me.group(1)), line, _P_ERROR)


def _read_cuda_oom(line: str, facts: _Facts, fatal: dict[str, str]) -> None:
    """torch's CUDA out-of-memory text: the device total (a weak source) and the allocation that
    failed."""
    fatal.setdefault("cuda_out_of_memory", line)
    m = _OOM_TOTAL.search(line)
    if m:
        facts.put("total_gpu_memory_gib", _num(m.group(1)), line, _P_COMMAND)
    m = _OOM_TRIED.search(line)
    if m:
        tried = _num(m.group(1))
        facts.put(
            "oom_tried_to_allocate_mib",
            None if tried is None else tried * _MIB_PER_UNIT[m.group(2)],
            line,
            _P_LOG,
        )


def _read_version_and_args(line: str, facts: _Facts, *, read_args: bool = True) -> None:
    """The vLLM version (engine line or banner), the engine config and the echo of non-default
    args."""
    if "LLM engine" in line:
        _read_engine_config(line, facts)
    elif "version" in line:
        m = _BANNER_VERSION.search(line)
        if m:
            facts.put("vllm_version", m.group(1), line, _P_LOG)
    if read_args and "non-default args" in line:
        _read_non_default_args(line, facts)


# --------------------------------------------------------------------------- #
# Worker prefixes, hybrid layout lines, the weight-loading phase
# --------------------------------------------------------------------------- #

# vllm/v1/executor/multiproc_executor.py ``setup_proc_title_and_log_prefix``: "Worker" + "_DP{r}" +
# "_PP{r}"
# + "_PCP{r}" + "_TP{r}" + "_DCP{r}" + "_EP{r}", each part only when that size is above 1. Older
# releases named the process ``VllmWorker rank=N`` (a rank over the whole world). A rank r seen says
# the size is at least r + 1.
_WORKER_PP = re.compile(r"\(Worker(?:_DP\d{1,4})?_PP(\d{1,4})")
_WORKER_TP = re.compile(r"\(Worker(?:_DP\d{1,4})?(?:_PP\d{1,4})?(?:_PCP\d{1,4})?_TP(\d{1,4})")
_WORKER_RANK = re.compile(r"\(VllmWorker(?:Process)? rank=(\d{1,5})")

# vllm/platforms/interface.py / vllm/model_executor/models/config.py (hybrid models),
# kv_cache_utils.py.
_ATTN_BLOCK = re.compile(r"Setting attention block size to (\d{1,9}) tokens")
_MAMBA_PAD = re.compile(r"Padding mamba page size by (\d{1,4}(?:\.\d{1,6})?)%")
_PADDING_LAYERS = re.compile(r"Add (\d{1,6}) padding layers")
# "kv cache group sizes [2848, 2848, 2848, 2848]": a Python list, one block size per group; at most
# 64 are read.
_GROUP_SIZES = re.compile(r"kv cache group sizes \[((?:\d{1,7}, ){0,63}\d{1,7})\]")
# vllm/config/compilation.py (#38270): the hybrid's state blocks cap the decode batch.
_MAMBA_BLOCKS_ERR = re.compile(
    r"max_num_seqs \((\d{1,9})\) exceeds available Mamba cache blocks \((\d{1,12})\)"
)


def _read_worker_prefix(line: str, facts: _Facts) -> None:
    """The highest TP / PP rank a worker prefix shows: a lower bound on the size, never the size
    itself."""
    if "Worker" not in line:
        return
    for pattern, key in (
        (_WORKER_TP, "tensor_parallel_size_at_least"),
        (_WORKER_PP, "pipeline_parallel_size_at_least"),
        (_WORKER_RANK, "world_size_at_least"),
    ):
        m = pattern.search(line)
        if m:
            seen = int(m.group(1)) + 1
            old = facts.values.get(key)
            if seen > 1 and (
                not isinstance(old, int) or seen > old
            ):  # rank 0 says nothing: every size has one
                facts.values.pop(key, None)
                facts.put(key, seen, line, _P_LOG)


def _read_hybrid_layout(line: str, facts: _Facts) -> None:
    """A hybrid model's layout lines (attention block size, Mamba page padding, padding layers)
    and the Mamba block cap on max_num_seqs."""
    m = _ATTN_BLOCK.search(line) if "attention block size" in line else None
    if m:
        facts.put("hybrid_attention_block_size", _int(m.group(1)), line, _P_LOG)
    m = _MAMBA_PAD.search(line) if "Padding mamba" in line else None
    if m:
        facts.put("mamba_page_padding_pct", _num(m.group(1)), line, _P_LOG)
    m = _GROUP_SIZES.search(line) if "kv cache group sizes" in line else None
    if m:
        facts.put("kv_cache_group_block_sizes", m.group(1), line, _P_LOG)
    m = _PADDING_LAYERS.search(line) if "padding layers" in line else None
    if m:
        facts.put("num_padding_layers", _int(m.group(1)), line, _P_LOG)
    m = _MAMBA_BLOCKS_ERR.search(line) if "Mamba cache blocks" in line else None
    if m:
        facts.put("max_num_seqs", _int(m.group(1)), line, _P_ERROR)
        facts.put("mamba_cache_blocks", _int(m.group(2)), line, _P_ERROR)


# Lines that show the weights being loaded: a traceback through the loader, or vLLM's own wrapper of
# the OOM (vllm/v1/worker/gpu_model_runner.py ``load_model``, 0.27+: "Failed to load model - not
# enough GPU memory. … (original error: CUDA out of memory. …)").
_LOADING_SIGNS = (
    "in load_model",
    "in load_weights",
    "model_loader",
    "Failed to load model",
    "in create_weights",
    "initialize_model",
    "Failed to create",
)
_LOADED_SIGNS = ("Model loading took", "Loading model weights took", "Loading weights took")
_LOAD_WINDOW = 120
_LOAD_GATE = re.compile(
    "|".join(
        re.escape(w) for w in (*_LOADING_SIGNS, *_LOADED_SIGNS, "out of memory", "OutOfMemory")
    )
)


class _LoadPhase:
    """Where the weights were loading: an OOM after a loading sign and before any "loading took"
    line is the start-up OOM of the weights, not a run-time one."""

    def __init__(self) -> None:
        self.loading: list[int] = []
        self.loaded_at: int | None = None
        self.oom_at: int | None = None
        self.wrapped: str | None = None

    def see(self, i: int, line: str) -> None:
        if not _LOAD_GATE.search(line):
            return
        if (
            "Failed to load model" in line
            and "not enough GPU memory" in line
            and self.wrapped is None
        ):
            self.wrapped = line
        if any(sign in line for sign in _LOADING_SIGNS):
            self.loading.append(i)
        if self.loaded_at is None and any(sign in line for sign in _LOADED_SIGNS):
            self.loaded_at = i
        if self.oom_at is None and (
            "out of memory" in line
            and ("CUDA" in line or "cuda" in line)
            or "OutOfMemoryError" in line
        ):
            self.oom_at = i

    def relabel(self, fatal: dict[str, str]) -> None:
        if self.wrapped is not None:
            fatal.setdefault("load_out_of_memory", self.wrapped)
            fatal.pop("cuda_out_of_memory", None)
            return
        oom = self.oom_at
        if (
            oom is None
            or "cuda_out_of_memory" not in fatal
            or (self.loaded_at is not None and self.loaded_at < oom)
        ):
            return
        if any(oom - _LOAD_WINDOW <= i <= oom + _LOAD_WINDOW for i in self.loading):
            fatal["load_out_of_memory"] = fatal.pop("cuda_out_of_memory")


# --------------------------------------------------------------------------- #
# Driver
# --------------------------------------------------------------------------- #

# Line prefixes that are not vLLM's: Markdown / e-mail quotes (``> ``, ``> > ``), ``docker
# compose``'s ``vllm-1 | ``, ``docker logs -t`` / kubectl / CI timestamps, ``mpirun --tag-output``'s
# ``[1,0]<stdout>:``; the quote bars GitHub and blogs render (``▎``, ``│``). Each is matched at the
# start of a line only (no scan), at most twice over (``vllm-1 | > …``), and only on the lines read
# (an anchor line and the three after it).
_PREFIXES: tuple[re.Pattern[str], ...] = (
    re.compile(r"[ \t]*[>\u258e\u2502\u2503][>\u258e\u2502\u2503 \t]*"),  # > ▎ │ ┃
    re.compile(r"\[\d{1,6},\d{1,6}\]<std(?:out|err)>: ?"),
    re.compile(
        r"\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[0-9.,]{0,10}Z?\] ?"
    ),  # Buildkite's [2025-12-15T20:52:30Z]
    re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d[0-9.,]{0,10}(?:Z|[+-]\d\d:?\d\d)? "),
    re.compile(r"[A-Za-z0-9][\w.-]{0,63} {1,8}\| ?"),
)
_QUOTE_START = frozenset(" \t>\u258e\u2502\u2503")


def _clean(line: str) -> str:
    """The line without the prefixes above (vLLM's own ``(EngineCore pid=…)`` / ``INFO`` stay); the
    first character says which prefix may be there, so a plain line costs one or two tests."""
    for _ in range(2):
        if not line:
            return line
        c = line[0]
        if c in _QUOTE_START:
            m = _PREFIXES[0].match(line)
        elif c == "[":
            m = _PREFIXES[1].match(line) or _PREFIXES[2].match(line)
        elif c.isdigit() and line[4:5] == "-":
            m = _PREFIXES[3].match(line)
        else:
            m = None
        if m is None and "|" in line[:72] and c.isalnum():
            m = _PREFIXES[4].match(line)
        if m is None or not m.end():
            return line
        line = line[m.end() :]
    return line


# Does any line start like one of the prefixes? One C-level pass; a log without any is not cleaned
# line by line.
_ANY_PREFIX = re.compile(
    r"^(?:[ \t]*[>\u258e\u2502\u2503]|\[\d|\d{4}-|[A-Za-z0-9][\w.-]{0,63} {1,8}\|)", re.M
)


def _clean_around(lines: list[str], indices: list[int], after: int = 3) -> None:
    """Remove the prefixes of every line that is read: each anchor line and the lines a wrapped
    message continues on (in place, each line once)."""
    if not _ANY_PREFIX.search("\n".join(lines)):
        return
    done = -1
    for i in indices:
        for j in range(max(i, done + 1), min(i + after + 1, len(lines))):
            lines[j] = _clean(lines[j])
        done = max(done, min(i + after, len(lines) - 1))


def _lines(text: str) -> list[str]:
    text = _ANSI.sub("", text) if "\x1b" in text else text
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _candidates(lines: list[str]) -> list[int]:
    """Indices of the lines holding an anchor, found by one regex pass over the joined text (linear,
    and a line is visited once however many anchors it holds)."""
    text = "\n".join(lines)
    found: list[int] = []
    index, pos = 0, 0
    m = _ANCHOR_RE.search(text)
    while m is not None:
        index += text.count("\n", pos, m.start())
        found.append(index)
        end = text.find("\n", m.start())
        if end < 0:
            break
        pos = end
        m = _ANCHOR_RE.search(text, end)
    return found


def _window(lines: list[str], i: int, size: int = 4) -> tuple[str, str]:
    """The line and its successors joined two ways, to undo wrapping."""
    part = [lines[j].strip() for j in range(i, min(i + size, len(lines)))]
    return "".join(part), " ".join(part)


def _search_wrapped(pattern: re.Pattern[str], lines: list[str], i: int) -> re.Match[str] | None:
    m = pattern.search(lines[i])
    if m:
        return m
    glued, spaced = _window(lines, i)
    return pattern.search(glued) or pattern.search(spaced)


_MAX_COMMANDS = 64
_MAX_COMMAND_CHARS = 20_000
_MAX_CONTINUATION = 200

# What starts vLLM's server: the CLI, the module, the official image (its entrypoint is the server,
# so the arguments after the image name are vLLM's), a compose / Kubernetes ``command:`` or
# ``args:`` list.
_COMMAND_SIGNS = ("vllm serve", "vllm.entrypoints", "vllm-openai", "command:", "args:")
_IMAGE = re.compile(r"(?:^|/)vllm-openai(?::[\w.+-]{1,128})?(?:@sha256:[0-9a-f]{1,64})?$")
_YAML_ITEM = re.compile(r"^\s{0,40}- {1,8}(\S.{0,2000})$")


_COMMAND_RE = re.compile("|".join(re.escape(sign) for sign in _COMMAND_SIGNS))


# A line vLLM's logger printed ("WARNING 02-12 19:46:23 [argparse_utils.py:195] With `vllm serve`,
# you should provide the model as a positional argument … instead of via the `--model` option."):
# prose, not a command.
_LOGGER_LINE = re.compile(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d")


def _is_command_line(line: str) -> bool:
    if len(line) > _MAX_COMMAND_CHARS or not _COMMAND_RE.search(line) or _LOGGER_LINE.search(line):
        return False
    if "command:" in line or "args:" in line:
        return bool(_yaml_key(line))
    return True


def _yaml_key(line: str) -> str | None:
    """``command:`` / ``args:`` as a YAML key (a compose service or a Kubernetes container), else
    None."""
    key, sep, _rest = line.strip().lstrip("- ").partition(":")
    return key if sep and key in ("command", "args") else None


def _commands(lines: list[str], indices: list[int]) -> list[tuple[str, str]]:
    """``vllm serve`` / api_server / ``docker run … vllm/vllm-openai …`` commands with their
    backslash continuations joined (also the lines before, when the command starts on an earlier
    line), and compose / Kubernetes ``command:`` lists (flow ``[...]`` or block ``- item`` style) as
    one command line each."""
    found: list[tuple[str, str]] = []
    done = -1
    for i in indices:
        if len(found) >= _MAX_COMMANDS:
            break
        if i <= done or not _is_command_line(lines[i]):
            continue
        line = lines[i]
        if _yaml_key(line):
            command, done = _yaml_command(lines, i)
            if command:
                found.append((command, line))
            continue
        first = i
        while (
            first > 0
            and i - first < _MAX_CONTINUATION
            and lines[first - 1].rstrip().endswith("\\")
            and len(lines[first - 1]) <= _MAX_COMMAND_CHARS
        ):
            first -= 1
        parts = [_clean(lines[j]).rstrip() for j in range(first, i + 1)]
        j = i
        while (
            parts[-1].endswith("\\")
            and j + 1 < len(lines)
            and len(parts) < _MAX_CONTINUATION
            and len(lines[j + 1]) <= _MAX_COMMAND_CHARS
        ):
            j += 1
            parts.append(_clean(lines[j]).rstrip())
        done = j
        command = " ".join(p[:-1].strip() if p.endswith("\\") else p.strip() for p in parts)
        if "--" in command or command.lstrip("$ `").startswith("vllm serve"):
            found.append((command, line))
    return found


def _yaml_command(lines: list[str], i: int) -> tuple[str, int]:
    """A ``command:`` / ``args:`` value as one shell-like line: ``command: --model X``, a flow list
    ``["--model", "X"]`` or the block list on the lines below; and the last line it took."""
    value = lines[i].split(":", 1)[1].strip()
    if value.startswith("["):
        end = value.rfind("]")
        flow = _flow_items(value[1:end] if end > 0 else value[1:])
        return " ".join(shlex.quote(item) for item in flow), i
    if value and value not in ("|", ">", "|-", ">-"):
        return value, i
    items: list[str] = []
    j = i
    while j + 1 < len(lines) and len(items) < _MAX_CONTINUATION:
        m = _YAML_ITEM.match(_clean(lines[j + 1]))
        if not m:
            break
        j += 1
        items.append(_unquote(m.group(1).strip()))
    return " ".join(shlex.quote(item) for item in items), j


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" else text


_FLOW_ITEM = re.compile(r"\"([^\"\\]*)\"|'([^']*)'|([^,\"'\s][^,]*)")


def _flow_items(text: str) -> list[str]:
    """The items of a YAML / JSON flow list body: ``"--model", "X", 2``."""
    return [(a or b or c or "").strip() for a, b, c in _FLOW_ITEM.findall(text)][
        : _MAX_CONTINUATION * 2
    ]


# ``LLM(model=..., tensor_parallel_size=2, ...)`` (vllm/entrypoints/llm.py): the keyword arguments
# are the engine arguments by their Python names, as the ``non-default args`` echo prints them.
_LLM_CALL = re.compile(r"(?<![\w.])(?:vllm\.)?LLM\(")
_KWARG = re.compile(
    r"(?<!\w)([A-Za-z_]\w{0,63})\s{0,8}=\s{0,8}(\"[^\"\n]{0,512}\"|'[^'\n]{0,512}'|[^,()\s]{1,64})"
)
_MAX_CALL_LINES = 40


def _llm_calls(lines: list[str], indices: list[int]) -> list[tuple[str, str]]:
    """The argument text of each ``LLM(...)`` call, up to its closing parenthesis (over at most 40
    lines)."""
    found: list[tuple[str, str]] = []
    for i in indices:
        line = lines[i]
        if "LLM(" not in line or len(line) > _MAX_COMMAND_CHARS or len(found) >= _MAX_COMMANDS:
            continue
        m = _LLM_CALL.search(line)
        if not m:
            continue
        body, depth = [], 1
        text = line[m.end() :]
        j = i
        while True:
            for k, ch in enumerate(text):
                depth += {"(": 1, ")": -1}.get(ch, 0)
                if depth == 0:
                    body.append(text[:k])
                    break
            else:
                body.append(text)
                if (
                    j + 1 < len(lines)
                    and j - i < _MAX_CALL_LINES
                    and len(lines[j + 1]) <= _MAX_COMMAND_CHARS
                ):
                    j += 1
                    text = lines[j]
                    continue
            break
        found.append((" ".join(body), line))
    return found


_POSITIONAL_MODEL = re.compile(r"\s{0,40}(\"[^\"\n]{1,512}\"|'[^'\n]{1,512}')")
_LITERAL_WORD = re.compile(r"-?[0-9][0-9A-Za-z_.]{0,40}")


def _read_llm_call(call: str, source: str, facts: _Facts) -> None:
    """The literal arguments of ``LLM(...)``: the model (first positional argument or ``model=``),
    and each engine argument given as a string, a number or True / False; a variable's name says
    nothing and is skipped."""
    m = _POSITIONAL_MODEL.match(call)
    if m:
        facts.put("model", m.group(1)[1:-1], source, _P_COMMAND)
    for key, raw in _KWARG.findall(call):
        name = _ARG_KEYS.get(key)
        if name is None:
            continue
        value: object
        if raw[:1] in "'\"":
            value = raw[1:-1]
        elif raw in ("True", "False"):
            value = raw == "True"
        elif _LITERAL_WORD.fullmatch(raw):
            value = raw
        else:
            continue
        facts.put(name, _typed(name, value), source, _P_COMMAND)


# Lines vLLM prints only once the KV cache is planned: the engine got past its memory checks.
_STARTED_SIGNS: tuple[str, ...] = (
    "Available KV cache memory",
    "GPU KV cache size",
    "Maximum concurrency for",
    "the rest of the memory reserved for KV Cache",
    "available_kv_cache_memory",
    "init engine (profile, create kv cache, warmup model) took",  # vllm/v1/engine/core.py
)
_STARTED_RE = re.compile("|".join(re.escape(sign) for sign in _STARTED_SIGNS))


class _Pass:
    """What one pass over a stretch of the log found (an accumulator, like ``_Facts``)."""

    def __init__(self) -> None:
        self.facts = _Facts()
        self.fatal: dict[str, str] = {}
        self.started: str | None = None
        self.load = _LoadPhase()


_MAX_EARLIER_STARTS = 16


def _read_lines(lines: list[str], indices: list[int], *, read_args: bool = True) -> _Pass:
    out = _Pass()
    seen: set[str] = set()
    for i in indices:
        line = lines[i]
        _read_fatal_errors(lines, i, out.facts, out.fatal)
        out.load.see(i, line)
        if (
            line in seen
            # a repeated line (each TP worker prints its own) gives nothing new to the one-line
            # readers
        ):
            continue
        seen.add(line)
        _read_version_and_args(line, out.facts, read_args=read_args)
        _read_memory_lines(line, out.facts)
        if _STARTUP_SUMMARY in line and _FREE_STARTUP.search(line) is None:
            # the summary wrapped by a terminal or a post, mid-sentence ("is (0.9,⏎172.52 GiB)")
            _read_usage_summary(_window(lines, i)[1], out.facts)
        _read_hybrid_layout(line, out.facts)
        _read_worker_prefix(line, out.facts)
        if out.started is None and _STARTED_RE.search(line):
            out.started = line
    out.load.relabel(out.fatal)
    return out


# Facts an earlier start of the same log may still give when the last start does not print them
# again: what ran and where, never a setting or a figure of the earlier start.
_CARRIED_OVER = ("vllm_version", "gpu_name")


def _read_carried_over(lines: list[str], indices: list[int]) -> _Facts:
    """The earlier starts' lines read by the only readers that give :data:`_CARRIED_OVER` (the
    version and the GPU's name), in the order and with the repeats skipped as :func:`_read_lines`
    does: the same values, without running every reader over what may be most of a 5 MB log."""
    facts = _Facts()
    seen: set[str] = set()
    for i in indices:
        line = lines[i]
        if line in seen:
            continue
        seen.add(line)
        _read_version_and_args(line, facts, read_args=False)
        _read_gpu_name(line, facts)
    return facts


def parse_log(text: str) -> LogReading:
    """Diagnose a pasted vLLM log and collect the numbers it printed.

    A log holding several starts (each echoes its ``non-default args``) is read for its last start:
    that is the one whose outcome the log ends with. The models the starts name are all kept
    (``models``)."""
    lines = _lines(text)
    indices = _candidates(lines)
    _clean_around(lines, indices)
    starts = [i for i in indices if "non-default args" in lines[i]]
    cut = starts[-1] if len(starts) > 1 else 0
    last = _read_lines(lines, [i for i in indices if i >= cut])
    facts, fatal = last.facts, last.fatal
    models: list[str] = []
    if cut:
        for start in starts[
            -1 - _MAX_EARLIER_STARTS : -1
        ]:  # each earlier start's model, from its args echo alone
            echo = _Facts()
            _read_non_default_args(lines[start], echo)
            model = echo.values.get("model")
            if isinstance(model, str) and model not in models:
                models.append(model)
        before = _read_carried_over(lines, [i for i in indices if i < cut])
        for key in _CARRIED_OVER:
            if key in before.values and key not in facts.values:
                facts.put(key, before.values[key], before.lines[key], before.prio[key])

    commands = _commands(lines, [i for i in indices if i >= cut]) or (
        _commands(lines, indices) if cut else []
    )
    typed: list[str] = []  # the models the commands and LLM(...) calls name, each read alone
    for command, source in commands:
        _read_command(command, source, facts)
        typed.append(_model_of(_read_command, command, source))
    for call, source in _llm_calls(lines, indices):
        _read_llm_call(call, source, facts)
        typed.append(_model_of(_read_llm_call, call, source))
    for name in typed:
        if name and name not in models:
            models.append(name)
    model = facts.values.get("model")
    if isinstance(model, str):
        models = [m for m in models if m != model.strip()] + [model.strip()]

    _infer_failed_checks(facts, fatal)
    diagnosis, evidence_line = _diagnose(fatal, last.started)
    if diagnosis == "unknown" and (commands or facts.values.get("model")) and _only_settings(facts):
        diagnosis, evidence_line = (
            "pre_flight",
            (commands[0][1] if commands else facts.lines.get("model")),
        )
    evidence: list[tuple[str, str]] = []
    if evidence_line is not None:
        evidence.append(("diagnosis", evidence_line.strip()))
    evidence.extend((key, facts.lines[key]) for key in facts.values)
    return LogReading(
        diagnosis=diagnosis,
        facts=dict(facts.values),
        evidence=tuple(evidence),
        stated=frozenset(facts.stated) & frozenset(facts.values),
        defaulted=frozenset(facts.defaulted) - frozenset(facts.stated),
        starts=len(starts),
        models=tuple(models),
    )


def _model_of(read: Callable[[str, str, _Facts], None], text: str, source: str) -> str:
    """The model one command (or call) names, read into facts of its own; "" when it names none."""
    alone = _Facts()
    read(text, source, alone)
    model = alone.values.get("model")
    return model.strip() if isinstance(model, str) else ""


# Facts a command or an ``LLM(...)`` call gives by itself: a paste holding nothing else was never
# run.
_SETTING_KEYS = frozenset(
    {*_FLAGS.values(), *(key for key, _value in _BOOL_FLAGS.values()), *_ARG_KEYS.values()}
)


def _only_settings(facts: _Facts) -> bool:
    """Every fact is a setting typed by the user (command line priority): no line vLLM printed."""
    return bool(facts.values) and all(
        key in _SETTING_KEYS and facts.prio[key] <= _P_COMMAND for key in facts.values
    )


def _infer_failed_checks(facts: _Facts, fatal: dict[str, str]) -> None:
    """Signs of a failed check that vLLM raises right after printing them (a log cut short
    before the error): 0 GPU blocks, or no KV cache memory left."""
    if "no_memory_for_cache_blocks" in fatal:
        return
    if facts.values.get("num_gpu_blocks") == 0:
        fatal["no_memory_for_cache_blocks"] = facts.lines["num_gpu_blocks"]
        return
    available = facts.values.get("available_kv_gib")
    if isinstance(available, float) and available <= 0 and "kv_cache_too_small" not in fatal:
        fatal["no_memory_for_cache_blocks"] = facts.lines["available_kv_gib"]


def _diagnose(fatal: Mapping[str, str], started: str | None) -> tuple[str, str | None]:
    """The diagnosis and its evidence line: the first fatal error in :data:`_FATAL_ORDER`, else
    "started" when the KV cache was planned, else "unknown"."""
    for name in _FATAL_ORDER:
        if name in fatal:
            return name, fatal[name]
    if started is not None:
        return "started", started
    return "unknown", None
