"""Raw inputs (CLI flags, form fields, query strings) → a validated scenario.

Every value a reader types passes through here, so every bad value gets one
``CalcError`` with the field it came from. Names are vLLM's engine-argument
names in snake_case, as in the CLI contract and the calculator's URL.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TypeVar

from . import catalog
from .arch.model import LayerKind, ModelSpec, normalize_config
from .budget.lora import MAX_LORA_RANKS, LoraSettings, check_lora_supported
from .deployment import INTERCONNECTS, MODEL_DTYPES, Deployment, Measured
from .errors import CalcError
from .inert_text import MAX_QUOTE_CHARS, has_invisible_or_control, quote, reveal
from .kv.kv_dtypes import dated_here
from .kv.kv_spec import KV_CACHE_DTYPES, MAMBA_DTYPES, MambaCacheMode
from .kv.speculative import SpeculativeConfig, parse_speculative_config
from .limits import (
    MAX_BYTES,
    MAX_CONFIG_BYTES,
    MAX_GIB,
    MAX_ID_CHARS,
    MAX_LEN,
    check_json_depth,
    shorten,
)
from .units import gib_to_bytes, parse_float, parse_int, parse_max_model_len
from .versions import LATEST_RELEASE, RuleSet, first_release, rules_for
from .vllm_flags import FLAG_BY_NAME, FlagKind, accepts, choices_at

__all__ = [
    "INPUT_KEYS",
    "Scenario",
    "scenario_from_inputs",
    "canonical_query",
    "parse_bool",
    "BLOCK_SIZES",
    "check_model_word",
]

# The query-string / form names, in form order: the names saved links and `kvcalc.web` requests
# use, so a rename breaks them (CONTRIBUTING.md §7).
INPUT_KEYS = (
    "model",
    "config",
    "gpu",
    "gpu_memory_gib",
    "tensor_parallel_size",
    "pipeline_parallel_size",
    "max_model_len",
    "max_num_seqs",
    "max_num_batched_tokens",
    "dtype",
    "kv_cache_dtype",
    "gpu_memory_utilization",
    "kv_cache_memory_bytes",
    "block_size",
    "num_gpu_blocks_override",
    "vllm_version",
    "available_kv_gib",
    "available_kv_bytes",
    "weights_gib",
    "activation_gib",
    "non_torch_gib",
    "cudagraph_gib",
    "enforce_eager",
    "disable_hybrid_kv_cache_manager",
    "no_async_scheduling",
    "enable_prefix_caching",
    "mamba_cache_mode",
    "mamba_ssm_cache_dtype",
    "cpu_offload_gb",
    "decode_context_parallel_size",
    "limit_mm_per_prompt",
    "skip_mm_profiling",
    "interconnect",
    "calculate_kv_scales",
    "speculative_config",
    "enable_lora",
    "max_loras",
    "max_lora_rank",
    "max_cpu_loras",
    "data_parallel_size",
    "enable_expert_parallel",
    "draft_config",
)
_Entry = TypeVar("_Entry")
BLOCK_SIZES = (1, 8, 16, 32, 64, 128, 256)  # vllm/config/cache.py BlockSize
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_MAX_LABEL_CHARS = 256  # a pasted config's _name_or_path, as shown in reports and commands


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """A model and how it is served: everything ``plan`` needs."""

    model: ModelSpec
    """The model, from the catalog or a pasted config."""
    deployment: Deployment
    """How it is served: the flags, the GPU, the release rules and any measured figures."""
    model_label: str
    """What ``vllm serve`` would be given (catalog id, or a placeholder for pasted configs)."""
    given: frozenset[str] = frozenset()
    """The input names the reader gave (present after merging form and log): the flags of "your
    current command", which never lists a default the reader did not set."""


def _present(inputs: Mapping[str, object], key: str) -> bool:
    v = inputs.get(key)
    return v is not None and not (isinstance(v, str) and not v.strip())


def _quoted(value: object) -> str:
    """A refused value as an error quotes it: at most ``MAX_QUOTE_CHARS`` characters, inert."""
    return quote(value if isinstance(value, str) else shorten(value, MAX_QUOTE_CHARS))


def parse_bool(value: object, *, field: str) -> bool:
    if isinstance(value, bool):
        return value
    text = value.strip().lower() if isinstance(value, str) else shorten(value).lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    shown = _quoted(value)
    raise CalcError(
        "not_a_boolean", f"{field}: expected true or false, got {shown!r}", field=field, value=shown
    )


def _model(inputs: Mapping[str, object]) -> tuple[ModelSpec, str]:
    if _present(inputs, "config"):
        raw = inputs["config"]
        if isinstance(raw, str):
            if len(raw) > MAX_CONFIG_BYTES:
                raise CalcError(
                    "config_too_large",
                    "config.json is larger than 2 MB; paste only config.json",
                    field="config",
                )
            check_json_depth(
                raw, field="config"
            )  # before json.loads: deep nesting kills Pyodide's stack
            try:
                raw = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise CalcError(
                    "config_not_json",
                    f"config.json is not valid JSON (line {exc.lineno}, column {exc.colno}): "
                    f"{exc.msg}",
                    field="config",
                    line=exc.lineno,
                    column=exc.colno,
                ) from None
            except (ValueError, RecursionError):  # an integer of more than 4300 digits
                raise CalcError(
                    "config_not_json",
                    "config.json holds a number too long to read",
                    field="config",
                    line=1,
                    column=1,
                ) from None
        if not isinstance(raw, Mapping):
            raise CalcError(
                "config_not_object", "config.json must be a JSON object", field="config"
            )
        name_raw = raw.get("_name_or_path")
        name = (name_raw.strip() if isinstance(name_raw, str) else "")[
            :_MAX_LABEL_CHARS
        ] or "<your-model>"
        check_model_word(name, field="config")
        return normalize_config(raw, model_id=name), name
    if _present(inputs, "model"):
        entry = _lookup(catalog.find_model, inputs, "model")
        return _catalog_model(entry.id), entry.id
    raise CalcError(
        "missing_model",
        "give a model (--model, a catalog id) or a config.json (--config)",
        field="model",
    )


@lru_cache(maxsize=128)
def _catalog_model(model_id: str) -> ModelSpec:
    """A catalog model's ``ModelSpec``: a pure function of the bundled entry, read once per id
    (every recompute of the calculator asks for it again; the one frozen object also keys the plan
    caches at once)."""
    entry = catalog.model_by_id(model_id)
    return normalize_config(
        entry.config,
        model_id=entry.id,
        num_parameters=entry.num_parameters,
        checkpoint_bytes=entry.weights_bytes,
    )


def _lookup(find: Callable[[str], _Entry], inputs: Mapping[str, object], key: str) -> _Entry:
    """A catalog entry by id; a miss becomes ``unknown_<key>`` (with up to three suggestions) or
    ``ambiguous_<key>`` (with the candidates), both listed in ``params["suggestions"]``."""
    raw = inputs[key]
    value = raw.strip() if isinstance(raw, str) else ""
    if not value or len(value) > MAX_ID_CHARS:
        raise CalcError(
            f"unknown_{key}",
            f"unknown {key} {shorten(raw)!r}",
            field=key,
            value=shorten(raw),
            suggestions=[],
        )
    if has_invisible_or_control(
        value
    ):  # a right-to-left override or a zero-width space would print as another id
        shown = reveal(value)
        raise CalcError(
            "invisible_id",
            f"{key}: the id {shown!r} holds an invisible or control character",
            field=key,
            value=shown,
        )
    try:
        return find(value)
    except catalog.NotFound as exc:
        code = f"ambiguous_{key}" if exc.ambiguous else f"unknown_{key}"
        raise CalcError(
            code,
            str(exc),
            field=key,
            value=shorten(value),
            suggestions=list(exc.candidates),
            choices=", ".join(exc.candidates),
        ) from None


def _gib(inputs: Mapping[str, object], key: str) -> int | None:
    if not _present(inputs, key):
        return None
    return gib_to_bytes(parse_float(inputs[key], field=key, minimum=0.0, maximum=float(MAX_GIB)))


def _choice(inputs: Mapping[str, object], key: str, choices: tuple[str, ...]) -> str:
    raw = inputs[key]
    value = raw.strip() if isinstance(raw, str) else shorten(raw, MAX_QUOTE_CHARS)
    if value not in choices:
        shown = _quoted(value)
        raise CalcError(
            "bad_choice",
            f"{key} must be one of {', '.join(choices)}, got {shown!r}",
            field=key,
            value=shown,
            choices=", ".join(choices),
        )
    return value


def _optional_int(
    inputs: Mapping[str, object], key: str, *, maximum: int, minimum: int = 1
) -> int | None:
    return (
        parse_int(inputs[key], field=key, minimum=minimum, maximum=maximum)
        if _present(inputs, key)
        else None
    )


def _flag(inputs: Mapping[str, object], key: str) -> bool:
    return parse_bool(inputs.get(key, False), field=key)


def _gpu(inputs: Mapping[str, object]) -> tuple[str | None, str | None, int | None, str]:
    """(catalog id, product name, total bytes, where the total comes from): a typed memory size
    (read as the CUDA total) wins over a catalog GPU."""
    if _present(inputs, "gpu_memory_gib"):
        return (
            None,
            None,
            gib_to_bytes(
                parse_float(
                    inputs["gpu_memory_gib"],
                    field="gpu_memory_gib",
                    minimum=0.0,
                    maximum=4096.0,
                    exclusive_minimum=True,
                )
            ),
            "cuda",
        )
    if _present(inputs, "gpu"):
        gpu = _lookup(catalog.find_gpu, inputs, "gpu")
        return gpu.id, gpu.name, gpu.memory_bytes, gpu.memory_source_kind
    return None, None, None, "cuda"


def _parallelism(inputs: Mapping[str, object], model: ModelSpec) -> tuple[int, int]:
    """TP and PP sizes as vLLM's config validation accepts them (vllm/config/parallel.py)."""
    tp = _optional_int(inputs, "tensor_parallel_size", maximum=1024) or 1
    pp = _optional_int(inputs, "pipeline_parallel_size", maximum=1024) or 1
    if model.num_attention_heads % tp:
        raise CalcError(
            "tp_not_divisor",
            f"total number of attention heads ({model.num_attention_heads}) "
            f"must be divisible by tensor parallel size ({tp})",
            field="tensor_parallel_size",
            value=tp,
            limit=model.num_attention_heads,
        )
    if pp > model.num_layers:
        raise CalcError(
            "out_of_range",
            f"pipeline_parallel_size {pp} is larger than the model's {model.num_layers} layers",
            field="pipeline_parallel_size",
            value=pp,
            maximum=model.num_layers,
            minimum=1,
        )
    return tp, pp


def _dcp_refused(dcp: int, tp: int, vllm_message: str) -> CalcError:
    return CalcError(
        "dcp_refused",
        f"vLLM refuses --decode-context-parallel-size {dcp}: {vllm_message}",
        field="decode_context_parallel_size",
        value=dcp,
        limit=tp,
        key=vllm_message,
    )


def _decode_context_parallel(
    inputs: Mapping[str, object], model: ModelSpec, tp: int, rules: RuleSet
) -> int:
    """``--decode-context-parallel-size`` as vLLM's config validation accepts it.

    vllm/config/parallel.py (``tp % dcp``), vllm/config/model.py ``verify_with_parallel_config``
    (the GQA/MQA rules, #49777, non-MLA models only); Mamba and chunked-local managers assert
    ``dcp == 1`` (sliding windows assert it when sized: kv_spec.SlidingWindowSpec).
    """
    dcp = _optional_int(inputs, "decode_context_parallel_size", maximum=1024) or 1
    if dcp == 1:
        return 1
    if not rules.decode_context_parallel:
        raise _dcp_refused(dcp, tp, "decode context parallel needs vLLM 0.10.2 or newer")
    if tp % dcp:
        raise _dcp_refused(dcp, tp, f"tp_size={tp} must be divisible by dcp_size={dcp}.")
    if model.mamba is not None or LayerKind.CHUNKED in model.layer_kinds:
        raise _dcp_refused(
            dcp, tp, "Mamba and chunked local attention do not support decode context parallel."
        )
    if rules.dcp_gqa_checks and not model.is_mla:
        _check_dcp_gqa(dcp, tp, model)
    return dcp


def _check_dcp_gqa(dcp: int, tp: int, model: ModelSpec) -> None:
    """#49777's three texts, in vLLM's order."""
    kv = model.total_num_kv_heads
    if tp <= kv:
        raise _dcp_refused(
            dcp,
            tp,
            f"Decode context parallelism for GQA/MQA requires `--tensor-parallel-size` ({tp}) "
            f"to be greater than the model's total number of KV heads ({kv}). Increase "
            "`--tensor-parallel-size` or set `--decode-context-parallel-size 1`.",
        )
    if dcp > tp // kv:
        raise _dcp_refused(
            dcp,
            tp,
            f"`--decode-context-parallel-size` ({dcp}) exceeds the maximum supported value "
            f"({tp // kv}) for `--tensor-parallel-size` ({tp}) and {kv} model KV heads.",
        )
    q_per_kv = model.num_attention_heads // kv
    if q_per_kv % dcp:
        raise _dcp_refused(
            dcp,
            tp,
            f"The model's number of query heads per KV head ({q_per_kv}) must be divisible by "
            f"`--decode-context-parallel-size` ({dcp}) for GQA/MQA.",
        )


#: The dtype each ``--dtype`` serves the weights, activations and an ``auto`` KV cache in
#: (vllm/config/model.py _STR_DTYPE_TO_TORCH_DTYPE); ``auto`` keeps the config's (model.py).
_SERVED_DTYPE = {
    "half": "float16",
    "float16": "float16",
    "bfloat16": "bfloat16",
    "float": "float32",
    "float32": "float32",
}


def _served_dtype(
    inputs: Mapping[str, object], model: ModelSpec, measured: Measured, kv_bytes: int | None
) -> tuple[str, ModelSpec]:
    """(``--dtype`` as given, the model served in it). A 32-bit model is planned only on a measured
    budget: the estimate's weights, activation and encoder terms are fitted on 16-bit runs."""
    if not _present(inputs, "dtype"):
        return "auto", model
    given = _choice(inputs, "dtype", MODEL_DTYPES)
    served = _SERVED_DTYPE.get(given, model.dtype)
    if served == "float32" and measured.available_kv_bytes is None and kv_bytes is None:
        raise CalcError(
            "dtype_float32_budget",
            f"dtype {given}: the memory budget is estimated for 16-bit weights and activations "
            "only; give the log's available KV cache memory (--available-kv-gib) or "
            "--kv-cache-memory-bytes",
            field="dtype",
            value=given,
        )
    return given, model if served == model.dtype else replace(model, dtype=served)


def _kv_cache_dtype(inputs: Mapping[str, object], model: ModelSpec) -> str:
    raw = inputs.get("kv_cache_dtype") or "auto"
    dtype = raw.strip() if isinstance(raw, str) else shorten(raw)
    if dtype not in KV_CACHE_DTYPES:
        dtype = shorten(dtype)
        raise CalcError(
            "bad_choice",
            f"kv_cache_dtype must be one of {', '.join(KV_CACHE_DTYPES)}, got {dtype!r}",
            field="kv_cache_dtype",
            value=dtype,
            choices=", ".join(KV_CACHE_DTYPES),
        )
    if dtype == "fp8_ds_mla" and not model.is_mla:
        raise CalcError(
            "bad_choice",
            "kv_cache_dtype fp8_ds_mla applies to MLA models only",
            field="kv_cache_dtype",
            value=dtype,
            choices=", ".join(KV_CACHE_DTYPES),
        )
    return dtype


def _block_size(inputs: Mapping[str, object]) -> int | None:
    block = _optional_int(inputs, "block_size", maximum=1 << 20)
    if block is not None and block not in BLOCK_SIZES:
        raise CalcError(
            "bad_choice",
            f"block_size must be one of {', '.join(map(str, BLOCK_SIZES))}, got {block}",
            field="block_size",
            value=block,
            choices=", ".join(map(str, BLOCK_SIZES)),
        )
    return block


def _measured(inputs: Mapping[str, object]) -> Measured:
    """Figures read off a real run; ``available_kv_bytes`` is never negative (a log's negative
    figure means no memory)."""
    available = _gib(inputs, "available_kv_gib")
    if _present(inputs, "available_kv_bytes"):
        available = parse_int(
            inputs["available_kv_bytes"], field="available_kv_bytes", minimum=0, maximum=MAX_BYTES
        )
    return Measured(
        available_kv_bytes=available,
        weights_bytes=_gib(inputs, "weights_gib"),
        activation_bytes=_gib(inputs, "activation_gib"),
        non_torch_bytes=_gib(inputs, "non_torch_gib"),
        cudagraph_bytes=_gib(inputs, "cudagraph_gib"),
    )


# --limit-mm-per-prompt as vLLM's engine arguments read it (vllm/engine/arg_utils.py, release tags):
#  * before 0.8.5 only "image=16,video=2" (``nullable_kvs``: keys lower-cased, integer values, a key
#    given twice with two values refused);
#  * 0.8.5 to 0.9.2 a JSON object, or that form (deprecated);
#  * from 0.10.0 a JSON object only (``parse_type(json.loads)``);
#  * from 0.11.1 a modality may take a dict, {"count": 1, "width": 512, ...}
#    (vllm/config/multimodal.py ``BaseDummyOptions``, count ≥ 0, default 999): the count is read;
#    the dummy-size options change the profiled item and are refused here as not modelled.
# Modalities a model does not take are ignored by vLLM (``allowed_mm_limits``), and so here.
# (RuleSet: mm_limit_json, mm_limit_pairs, mm_limit_options; skip_mm_profiling,
# vllm/engine/arg_utils.py from v0.10.1rc1, which argparse refuses before.)
_MM_DEFAULT_COUNT = 999
_MM_MAX_CHARS = 1000
_MM_MAX_ENTRIES = 16
_MM_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,31}")
_MM_PAIR_VALUE = re.compile(r"[+-]?[0-9]{1,12}")


def _mm_bad(value: object, why: str) -> CalcError:
    return CalcError(
        "mm_limit_bad",
        f"limit_mm_per_prompt: {why}; give a JSON object of whole numbers per modality, "
        'such as {"image": 2, "video": 0}',
        field="limit_mm_per_prompt",
        value=shorten(value),
    )


def _release_text(rules: RuleSet) -> str:
    """The release as its rules know it (``0.10.2``; LATEST_RELEASE, 0.33.0, for the default rules),
    for messages."""
    return ".".join(map(str, rules.version[:3])) if rules.version is not None else LATEST_RELEASE


def _mm_count(key: str, value: object, rules: RuleSet) -> int:
    """One modality's count: an integer, or (0.11.1 on) a dict whose only key read is ``count``."""
    if isinstance(value, Mapping):
        if not rules.mm_limit_options:
            raise CalcError(
                "mm_limit_options_release",
                f"limit_mm_per_prompt: a dict per modality needs vLLM 0.11.1 or "
                f"newer; {_release_text(rules)} takes whole numbers only",
                field="limit_mm_per_prompt",
                value=_release_text(rules),
            )
        extra = sorted(str(k) for k in value if k != "count")
        if extra:
            raise CalcError(
                "mm_limit_options",
                f"limit_mm_per_prompt: the dummy-size options ({shorten(', '.join(extra))}) "
                "change the profiled item and are not modelled; give the count only",
                field="limit_mm_per_prompt",
                key=shorten(", ".join(extra)),
            )
        value = value.get("count", _MM_DEFAULT_COUNT)
    if isinstance(value, bool) or not isinstance(value, int):
        raise _mm_bad(value, f"the limit for {key!r} is not a whole number")
    if not 0 <= value <= MAX_LEN:
        raise CalcError(
            "out_of_range",
            f"limit_mm_per_prompt: {shorten(value)} is outside 0 to {MAX_LEN}",
            field="limit_mm_per_prompt",
            value=shorten(value),
            minimum=0,
            maximum=MAX_LEN,
        )
    return value


def _mm_pairs(text: str) -> dict[str, object]:
    """The "image=16,video=2" form (vllm/engine/arg_utils.py ``nullable_kvs``, before 0.10.0)."""
    out: dict[str, object] = {}
    for item in text.split(","):
        parts = [part.lower().strip() for part in item.split("=")]
        if len(parts) != 2 or not _MM_PAIR_VALUE.fullmatch(parts[1]):
            raise _mm_bad(text, "each item must be KEY=VALUE with a whole number")
        key, value = parts[0], int(parts[1])
        if out.get(key, value) != value:
            raise _mm_bad(text, f"conflicting values for {shorten(key)!r}")
        out[key] = value
    return out


def _mm_object(text: str) -> object:
    check_json_depth(text, field="limit_mm_per_prompt", limit=2)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise _mm_bad(text, "not valid JSON") from None


def _limit_mm_per_prompt(
    inputs: Mapping[str, object], rules: RuleSet
) -> tuple[tuple[str, int], ...]:
    """``--limit-mm-per-prompt`` as the selected release reads it (the rules above)."""
    if not _present(inputs, "limit_mm_per_prompt"):
        return ()
    raw = inputs["limit_mm_per_prompt"]
    if isinstance(raw, Mapping):
        parsed: object = raw
    else:
        text = str(raw).strip()
        if len(text) > _MM_MAX_CHARS:
            raise _mm_bad(text, f"longer than {_MM_MAX_CHARS} characters")
        as_json = text.startswith(("{", "["))
        version = _release_text(rules)
        if as_json and not rules.mm_limit_json and text.startswith("{"):
            raise CalcError(
                "mm_limit_json_release",
                f"limit_mm_per_prompt: vLLM {version} reads only the "
                "image=2,video=0 form (JSON from 0.8.5)",
                field="limit_mm_per_prompt",
                value=version,
            )
        if not as_json and not rules.mm_limit_pairs:
            raise CalcError(
                "mm_limit_pairs_release",
                f"limit_mm_per_prompt: vLLM {version} reads only a JSON object "
                '(the image=2,video=0 form was removed in 0.10.0), such as {"image": 2, "video": '
                "0}",
                field="limit_mm_per_prompt",
                value=version,
            )
        parsed = _mm_object(text) if as_json else _mm_pairs(text)
    if not isinstance(parsed, Mapping) or len(parsed) > _MM_MAX_ENTRIES:
        raise _mm_bad(raw, f"not an object of at most {_MM_MAX_ENTRIES} modalities")
    for key in parsed:
        if not isinstance(key, str) or not _MM_KEY.fullmatch(key):
            raise _mm_bad(key, f"{shorten(key)!r} is not a modality name")
    return tuple((key, _mm_count(key, value, rules)) for key, value in parsed.items())


def _skip_mm_profiling(inputs: Mapping[str, object], rules: RuleSet) -> bool:
    skip = _flag(inputs, "skip_mm_profiling")
    if skip and not rules.skip_mm_profiling:
        version = _release_text(rules)
        raise CalcError(
            "skip_mm_profiling_release",
            f"--skip-mm-profiling needs vLLM 0.10.1 or newer; vLLM {version} "
            "refuses the flag (unrecognized arguments)",
            field="skip_mm_profiling",
            value=version,
        )
    return skip


def _calculate_kv_scales(inputs: Mapping[str, object], rules: RuleSet) -> bool:
    """``--calculate-kv-scales``: deprecated from 0.19.0 (vllm/config/cache.py warns it "will be
    removed in v0.19"), gone from vllm/engine/arg_utils.py in 0.28.0 (read in the 0.27.1 and 0.28.0
    wheels), where vLLM's parser refuses it. It changes no memory figure: the scales live in the
    layers."""
    flag = _flag(inputs, "calculate_kv_scales")
    if flag and rules.calculate_kv_scales_removed:
        raise CalcError(
            "calculate_kv_scales_removed",
            f"--calculate-kv-scales was removed in vLLM 0.28.0 (rules: {rules.description}): vLLM "
            f"refuses it (unrecognized arguments); the scales come from the checkpoint, else 1.0",
            field="calculate_kv_scales",
            value=rules.description,
        )
    return flag


def _hybrid_settings(inputs: Mapping[str, object]) -> tuple[bool | None, str | None, str]:
    """(enable_prefix_caching, mamba_cache_mode, mamba_ssm_cache_dtype), None/auto meaning vLLM's
    defaults (vllm/config/cache.py)."""
    prefix = (
        parse_bool(inputs["enable_prefix_caching"], field="enable_prefix_caching")
        if _present(inputs, "enable_prefix_caching")
        else None
    )
    mode = (
        _choice(inputs, "mamba_cache_mode", tuple(MambaCacheMode))
        if _present(inputs, "mamba_cache_mode")
        else None
    )
    ssm = (
        _choice(inputs, "mamba_ssm_cache_dtype", MAMBA_DTYPES)
        if _present(inputs, "mamba_ssm_cache_dtype")
        else "auto"
    )
    return prefix, mode, ssm


def _speculative(
    inputs: Mapping[str, object], model: ModelSpec, tp: int, pp: int, rules: RuleSet
) -> SpeculativeConfig | None:
    """``--speculative-config`` (kvcalc.speculative), with an EAGLE-3 drafter's ``draft_config``."""
    draft = inputs["draft_config"] if _present(inputs, "draft_config") else None
    spec = None
    if _present(inputs, "speculative_config"):
        spec = parse_speculative_config(
            inputs["speculative_config"],
            model,
            pipeline_parallel_size=pp,
            v0_engine=rules.v0_engine,
            draft_config=draft,
            tensor_parallel_size=tp,
        )
    if draft is not None and (spec is None or spec.method != "eagle3"):
        raise CalcError(
            "draft_config_unused",
            "draft_config is read only with --speculative-config method eagle3",
            field="draft_config",
        )
    return spec


def _lora(
    inputs: Mapping[str, object], model: ModelSpec, pp: int, rules: RuleSet
) -> LoraSettings | None:
    """``--enable-lora`` and its sizes (vllm/config/lora.py: ``max_loras`` ≥ 1, ``max_lora_rank``
    one of MaxLoRARanks, ``max_cpu_loras`` ≥ ``max_loras``). The values are read whatever
    ``--enable-lora`` says (the argument parser types them); without it vLLM builds no LoRA config
    (vllm/engine/arg_utils.py ``create_engine_config``) and they size nothing, as here."""
    loras = _optional_int(inputs, "max_loras", maximum=1024) or 1
    rank = _optional_int(inputs, "max_lora_rank", maximum=1024) or 16
    if rank not in MAX_LORA_RANKS:
        raise CalcError(
            "bad_choice",
            f"max_lora_rank must be one of {', '.join(map(str, MAX_LORA_RANKS))}, got {rank}",
            field="max_lora_rank",
            value=rank,
            choices=", ".join(map(str, MAX_LORA_RANKS)),
        )
    cpu = _optional_int(inputs, "max_cpu_loras", maximum=1 << 20)
    if not _flag(inputs, "enable_lora"):
        return None
    if cpu is not None and cpu < loras:
        # vllm/config/lora.py: "max_cpu_loras ({cpu}) must be >= max_loras ({loras})"
        raise CalcError(
            "out_of_range",
            f"max_cpu_loras ({cpu}) must be >= max_loras ({loras})",
            field="max_cpu_loras",
            value=cpu,
            minimum=loras,
            maximum=1 << 20,
        )
    check_lora_supported(model, rules, pipeline_parallel_size=pp)
    given = tuple(
        (k, int(str(inputs[k]).strip()))
        for k in ("max_loras", "max_lora_rank", "max_cpu_loras")
        if _present(inputs, k)
    )
    return LoraSettings(max_loras=loras, max_lora_rank=rank, max_cpu_loras=cpu, given=given)


def _data_parallel(
    inputs: Mapping[str, object], rules: RuleSet, tp: int, pp: int
) -> tuple[int, bool]:
    """``--data-parallel-size`` and ``--enable-expert-parallel`` (kvcalc.budget.expert_parallel),
    modelled from the release that shards MoE layers over DP × TP (#15956)."""
    dp = _optional_int(inputs, "data_parallel_size", maximum=1024) or 1
    ep = _flag(inputs, "enable_expert_parallel")
    if (dp > 1 or ep) and not rules.moe_parallel_config:
        field = "data_parallel_size" if dp > 1 else "enable_expert_parallel"
        first = rules.first_release_label("15956")
        raise CalcError(
            "dp_release",
            f"data and expert parallelism are modelled from vLLM "
            f"{first} on (rules: {rules.description})",
            field=field,
            value=rules.description,
            limit=first,
        )
    if dp * tp * pp > 4096:
        raise CalcError(
            "out_of_range",
            f"data_parallel_size {dp} × tensor × pipeline parallel size is more than 4096 GPUs",
            field="data_parallel_size",
            value=dp,
            minimum=1,
            maximum=max(1, 4096 // (tp * pp)),
        )
    return dp, ep


def scenario_from_inputs(inputs: Mapping[str, object]) -> Scenario:
    """Validate raw inputs; missing ones mean vLLM's defaults."""
    unknown = [k for k in inputs if k not in INPUT_KEYS and k not in ("lang",)]
    if unknown:
        name = shorten(unknown[0])
        raise CalcError("unknown_input", f"unknown input {name!r}", field=name, value=name)
    model, label = _model(inputs)
    gpu_id, gpu_name, gpu_bytes, gpu_source = _gpu(inputs)
    prefix_caching, mamba_mode, ssm_dtype = _hybrid_settings(inputs)
    tp, pp = _parallelism(inputs, model)
    rules = rules_for(inputs["vllm_version"] if _present(inputs, "vllm_version") else None)
    dcp = _decode_context_parallel(inputs, model, tp, rules)
    dp, ep = _data_parallel(inputs, rules, tp, pp)
    kv_bytes = _optional_int(inputs, "kv_cache_memory_bytes", maximum=MAX_BYTES)
    measured = _measured(inputs)
    # the model as served: parallelism and the checks above do not depend on its dtype
    dtype, model = _served_dtype(inputs, model, measured, kv_bytes)
    if measured.available_kv_bytes is None and kv_bytes is None and gpu_bytes is None:
        raise CalcError(
            "missing_gpu",
            "give a GPU (--gpu) or its memory (--gpu-memory-gib), or the measured "
            "--available-kv-gib",
            field="gpu",
        )
    dep = Deployment(
        gpu_id=gpu_id,
        gpu_name=gpu_name,
        gpu_memory_bytes=gpu_bytes,
        gpu_memory_source=gpu_source,
        tensor_parallel_size=tp,
        pipeline_parallel_size=pp,
        decode_context_parallel_size=dcp,
        max_model_len=parse_max_model_len(inputs["max_model_len"])
        if _present(inputs, "max_model_len")
        else None,
        max_num_seqs=_optional_int(inputs, "max_num_seqs", maximum=1 << 20),
        max_num_batched_tokens=_optional_int(inputs, "max_num_batched_tokens", maximum=1 << 24),
        dtype=dtype,
        kv_cache_dtype=_kv_cache_dtype(inputs, model),
        gpu_memory_utilization=(
            parse_float(
                inputs["gpu_memory_utilization"],
                field="gpu_memory_utilization",
                minimum=0.0,
                maximum=1.0,
                exclusive_minimum=True,
            )
            if _present(inputs, "gpu_memory_utilization")
            else None
        ),
        kv_cache_memory_bytes=kv_bytes,
        block_size=_block_size(inputs),
        num_gpu_blocks_override=_optional_int(inputs, "num_gpu_blocks_override", maximum=MAX_LEN),
        disable_hybrid_kv_cache_manager=_flag(inputs, "disable_hybrid_kv_cache_manager"),
        async_scheduling=not _flag(inputs, "no_async_scheduling"),
        enforce_eager=_flag(inputs, "enforce_eager"),
        cpu_offload_bytes=_gib(inputs, "cpu_offload_gb") or 0,
        limit_mm_per_prompt=_limit_mm_per_prompt(inputs, rules),
        skip_mm_profiling=_skip_mm_profiling(inputs, rules),
        rules=rules,
        enable_prefix_caching=prefix_caching,
        mamba_cache_mode=mamba_mode,
        mamba_ssm_cache_dtype=ssm_dtype,
        measured=measured,
        interconnect=_choice(inputs, "interconnect", INTERCONNECTS)
        if _present(inputs, "interconnect")
        else "unknown",
        calculate_kv_scales=_calculate_kv_scales(inputs, rules),
        speculative=_speculative(inputs, model, tp, pp, rules),
        lora=_lora(inputs, model, pp, rules),
        data_parallel_size=dp,
        enable_expert_parallel=ep,
    )
    given = frozenset(k for k in inputs if k in INPUT_KEYS and _present(inputs, k))
    _check_flags_at_release(given, dep)
    return Scenario(model=model, deployment=dep, model_label=label, given=given)


def _check_flags_at_release(given: frozenset[str], dep: Deployment) -> None:
    """A flag the reader gave must be one their release's ``vllm serve`` accepts (vllm_flags.py): a
    command printed with it would stop at argparse."""
    release = dep.rules
    version = ".".join(map(str, release.version)) if release.version is not None else "latest"
    for name in sorted(given):
        flag = FLAG_BY_NAME.get(name)
        if flag is None:
            continue
        if not accepts(flag, release) and (
            _flag_is_set(dep, name)
            if flag.kind == FlagKind.BOOL
            else str(getattr(dep, name, "")) != flag.neutral
        ):
            first = ".".join(map(str, first_release(flag.since))) if flag.since else "0.6.0"
            raise CalcError(
                "flag_release",
                f"{flag.cli} needs vLLM {first} or newer; vLLM {version} refuses it "
                "(unrecognized arguments)",
                field=name,
                value=version,
                minimum=first,
                key=flag.cli,
            )
        choices = choices_at(flag, release) if flag.kind == FlagKind.CHOICE else ()
        value = str(getattr(dep, name)) if choices else ""
        if name == "kv_cache_dtype" and dated_here(value):
            continue  # kv_dtypes.check_kv_dtype refuses it naming the release that first takes it
        if choices and value not in choices:
            raise CalcError(
                "bad_choice",
                f"{name} must be one of {', '.join(choices)} for vLLM {version}, got {value!r}",
                field=name,
                value=value,
                choices=", ".join(choices),
            )


def _flag_is_set(dep: Deployment, name: str) -> bool:
    """A boolean input that asks for something (``no_async_scheduling`` true, ``enforce_eager``
    true)."""
    if name == "no_async_scheduling":
        return not dep.async_scheduling
    return bool(getattr(dep, name, False))


# Characters that must never reach a printed command: a line break splits it, control characters and
# bidi overrides / zero-width characters hide what it runs (Unicode categories Cc, Cf, Zl, Zp).
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def check_model_word(name: str, *, field: str) -> None:
    """A model id placed in ``vllm serve <model>``: one word once shell-quoted, never a flag, never
    text that a terminal shows differently from what it runs."""
    if name.isascii() and name.isprintable() and not name.startswith("-"):
        # printable ASCII holds no character of the unsafe categories (checked for every command
        # printed)
        return
    if name.startswith("-") or any(unicodedata.category(ch) in _UNSAFE_CATEGORIES for ch in name):
        shown = shorten(
            "".join(
                f"\\u{ord(ch):04x}" if unicodedata.category(ch) in _UNSAFE_CATEGORIES else ch
                for ch in name
            )
        )
        raise CalcError(
            "model_name_unsafe",
            f"the model name {shown!r} holds a line break, a control or invisible "
            "character, or starts with '-': it cannot be placed in a command; fix _name_or_path in "
            "config.json",
            field=field,
            value=shown,
        )


def canonical_query(inputs: Mapping[str, object]) -> dict[str, str]:
    """The non-empty inputs as query-string values, in contract order (a shareable link)."""
    out: dict[str, str] = {}
    for key in INPUT_KEYS:
        if key == "config" or not _present(inputs, key):
            continue
        v = inputs[key]
        if isinstance(v, bool):
            if not v:
                continue
            v = "1"
        out[key] = str(v).strip()
    return out
