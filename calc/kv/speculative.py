"""``--speculative-config``: what speculative decoding adds to memory and to the KV plan.

Read from vLLM's source (v0.25.1 tag and main):

* vllm/config/speculative.py: the JSON's ``method`` (the MTP aliases ``deepseek_mtp``,
  ``qwen3_5_mtp``, … are renamed ``mtp``; no method with a ``model`` means ``draft_model``, with
  ``"ngram"`` as model ``ngram``); ``num_speculative_tokens`` defaults to the checkpoint's
  ``n_predict`` (its MTP layers) and, above it, must be a multiple of it (the MTP layers are reused,
  ``spec_step_idx % num_mtp_layers`` in vllm/model_executor/models/deepseek_mtp.py).
* vllm/model_executor/models/deepseek_mtp.py, qwen3_5_mtp.py, qwen3_next_mtp.py: each MTP layer is
  one decoder layer of the target (DeepSeek: MLA, ``model.layers.{num_hidden_layers + i}``;
  Qwen3.5/3.6 and Qwen3-Next: ``layer_type="full_attention"``), so its attention has the target's KV
  spec and vllm/v1/worker/gpu_model_runner.py ``get_kv_cache_spec`` lists it with the target's
  layers: it joins the same KV cache groups (vllm/v1/core/kv_cache_utils.py
  ``_get_kv_cache_groups_uniform_page_size``, whose 1.5 ratio was chosen for "speculative decoding
  drafters that add extra layers to one attention type").
* vllm/v1/spec_decode/eagle.py ``load_model``: the drafter is loaded inside the same
  ``DeviceMemoryProfiler`` as the target (gpu_model_runner.py ``load_model``: "Model loading took"
  includes it) and shares the target's embedding and LM head.
* vllm/model_executor/layers/mamba/abstract.py ``get_kv_cache_spec``: every Mamba / linear-attention
  layer keeps ``num_speculative_tokens`` extra states (``MambaSpec.num_speculative_blocks``), for
  any method.
* n-gram (prompt lookup) runs on the CPU: no weights, no KV cache.

EAGLE-3 is modelled when the reader pastes the drafter's ``config.json`` (``draft_config``;
kvcalc.kv.eagle3): its decoder layers join the target's KV cache group as full-attention layers and
its parameters are counted. Not modelled, and refused: EAGLE, EAGLE-3 without the drafter's config,
draft models,
Medusa, MLP speculators, suffix decoding, DFlash/DSpark, custom classes, MTP on DeepSeek-V4 (its own
EAGLE group annotation) and on model types whose MTP module is not read here, and any of it with
pipeline parallelism (the drafter lives on the last stage). Left out: the drafter's share of the
profile run and of CUDA-graph capture, and the sliding-window managers' ``extra_retained_tokens`` (a
run-time recycling rule that does not enter planning).
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from ..arch.families import row_of
from ..arch.model import LayerKind, ModelSpec
from ..deployment import SpeculativeConfig
from ..errors import CalcError
from ..limits import MAX_ID_CHARS, check_json_depth, shorten
from .eagle3 import read_eagle3_draft

__all__ = [
    "SpeculativeConfig",
    "parse_speculative_config",
    "MTP_ALIASES",
    "MAX_SPEC_TOKENS",
    "mtp_layer_kind",
]

# vllm/config/speculative.py MTPModelTypes (v0.25.1): all renamed to "mtp".
MTP_ALIASES = frozenset(
    {
        "mtp",
        "deepseek_mtp",
        "mimo_mtp",
        "mimo_v2_mtp",
        "glm4_moe_mtp",
        "glm4_moe_lite_mtp",
        "glm_ocr_mtp",
        "ernie_mtp",
        "nemotron_h_mtp",
        "exaone_moe_mtp",
        "exaone4_5_mtp",
        "qwen3_next_mtp",
        "qwen3_5_mtp",
        "longcat_flash_mtp",
        "minimax_m3_mtp",
        "bailing_hybrid_mtp",
        "pangu_ultra_moe_mtp",
        "step3p5_mtp",
        "hy_v3_mtp",
        "gemma4_mtp",
    }
)
# The vLLM methods that need a draft checkpoint or that this calculator does not size
# (SpeculativeMethod).
_NOT_MODELLED = frozenset(
    {
        "eagle",
        "eagle3",
        "draft_model",
        "medusa",
        "mlp_speculator",
        "suffix",
        "custom_class",
        "extract_hidden_states",
        "dflash",
        "dspark",
        "ngram_gpu",
    }
)
_KEYS = frozenset(
    {
        "method",
        "num_speculative_tokens",
        "model",
        "prompt_lookup_max",
        "prompt_lookup_min",
        "draft_tensor_parallel_size",
        "quantization",
        "max_model_len",
        "disable_padded_drafter_batch",
        "enforce_eager",
        "revision",
        "code_revision",
        "parallel_drafting",
    }
)
MAX_SPEC_TOKENS = 64
_MAX_CHARS = 2000


def _bad(text: object, why: str) -> CalcError:
    return CalcError(
        "spec_config_bad",
        f"speculative_config: {why}; give a JSON object such as "
        '{"method": "mtp", "num_speculative_tokens": 3}',
        field="speculative_config",
        value=shorten(text),
    )


def _refused(code: str, method: str, why: str, **params: object) -> CalcError:
    """``spec_<code>``: one message per reason in strings.py (es/zh/en)."""
    return CalcError(
        f"spec_{code}",
        f"speculative_config: method {method!r} is not modelled: {why}",
        field="speculative_config",
        value=shorten(method),
        **params,
    )


def _object(raw: object) -> tuple[Mapping[str, object], str]:
    if isinstance(raw, Mapping):
        return raw, json.dumps(dict(raw), separators=(", ", ": "))
    text = str(raw).strip()
    if len(text) > _MAX_CHARS:
        raise _bad(text[:40], f"longer than {_MAX_CHARS} characters")
    check_json_depth(text, field="speculative_config", limit=4)
    try:
        parsed = json.loads(text)
    except (ValueError, RecursionError):
        raise _bad(text, "not valid JSON") from None
    if not isinstance(parsed, Mapping):
        raise _bad(text, "not a JSON object")
    return parsed, text


def _whole(obj: Mapping[str, object], key: str, *, maximum: int) -> int | None:
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise CalcError(
            "out_of_range",
            f"speculative_config: {key} must be a whole number from 1 to {maximum}, "
            f"got {shorten(value)}",
            field="speculative_config",
            value=shorten(value),
            minimum=1,
            maximum=maximum,
        )
    return value


def _method(obj: Mapping[str, object]) -> str:
    """vllm/config/speculative.py ``__post_init__``: the method named, else from ``model``."""
    method, model = obj.get("method"), obj.get("model")
    if method is not None and not isinstance(method, str):
        raise _bad(method, "method must be a string")
    if model is not None and (not isinstance(model, str) or len(model) > MAX_ID_CHARS):
        raise _bad(model, "model must be a model id")
    if method is None:
        if model is None:
            raise _bad(
                json.dumps(dict(obj))[:80], "give a method (mtp, ngram, eagle3, …) or a draft model"
            )
        method = "ngram" if model in ("ngram", "[ngram]") else "draft_model"
    return "mtp" if method in MTP_ALIASES else method


def mtp_layer_kind(model: ModelSpec) -> LayerKind:
    """Each MTP layer's attention: MLA on DeepSeek, full attention on the others (their MTP decoder
    layers are built with ``layer_type="full_attention"``)."""
    return LayerKind.MLA if model.is_mla else LayerKind.FULL


def _check_mtp(model: ModelSpec, num: int | None, text: str) -> int:
    if model.is_deepseek_v4:
        raise _refused(
            "deepseek_v4", "mtp", "DeepSeek-V4's MTP layer has its own KV cache group annotation"
        )
    if model.num_mtp_layers <= 0:
        raise CalcError(
            "spec_no_mtp_layers",
            f"speculative_config: {model.model_id} has no MTP layers (num_nextn_predict_layers / "
            "mtp_num_hidden_layers is 0 or missing), so vLLM has none to load",
            field="speculative_config",
            value=shorten(model.model_id),
        )
    row = row_of(model.model_type)
    if not row.mtp:
        raise _refused(
            "model_type",
            "mtp",
            f"the MTP module of model type {model.model_type} is not read here",
            model_type=model.model_type,
        )
    n_predict = model.num_mtp_layers
    if num is None and row.mtp_default_tokens:
        # the config has no num_nextn_predict_layers, so no n_predict to default to
        # (vllm/config/speculative.py)
        raise CalcError(
            "spec_tokens_missing",
            "speculative_config: num_speculative_tokens must be provided with "
            "speculative model unless the draft model config contains an n_predict parameter.",
            field="speculative_config",
            value=model.model_id,
        )
    if num is None:
        return n_predict  # "Default to max value defined in draft model config."
    if num > n_predict and num % n_predict:
        # vllm/config/speculative.py: "num_speculative_tokens:{n} must be divisible by
        # n_predict={k}"
        raise CalcError(
            "spec_tokens_not_divisible",
            f"speculative_config: num_speculative_tokens:{num} must be "
            f"divisible by n_predict={n_predict}",
            field="speculative_config",
            value=num,
            limit=n_predict,
        )
    return num


def _eagle3(
    obj: Mapping[str, object],
    model: ModelSpec,
    num: int | None,
    text: str,
    draft_config: object,
    tensor_parallel_size: int,
) -> SpeculativeConfig:
    """EAGLE-3 with the drafter's pasted config (kvcalc.kv.eagle3)."""
    if num is None:
        # vllm/config/speculative.py: an EAGLE-3 config has no n_predict to default to
        raise CalcError(
            "spec_tokens_missing",
            "speculative_config: num_speculative_tokens must be "
            "provided with speculative model unless the draft model config contains an "
            "n_predict parameter.",
            field="speculative_config",
            value=shorten(obj.get("model") or "eagle3"),
        )
    draft_tp = obj.get("draft_tensor_parallel_size")
    if draft_tp is not None and draft_tp != tensor_parallel_size:
        raise _refused(
            "draft_tp",
            "eagle3",
            "an EAGLE drafter runs at the target's tensor parallel size",
            key=shorten(draft_tp),
        )
    draft = read_eagle3_draft(draft_config, model, tensor_parallel_size=tensor_parallel_size)
    element = 4 if model.dtype == "float32" else 2
    return SpeculativeConfig(
        method="eagle3",
        num_speculative_tokens=num,
        text=text,
        draft_layers=draft.num_layers,
        draft_weight_bytes=draft.weight_bytes(element),
    )


def parse_speculative_config(
    raw: object,
    model: ModelSpec,
    *,
    pipeline_parallel_size: int,
    v0_engine: bool,
    draft_config: object | None = None,
    tensor_parallel_size: int = 1,
) -> SpeculativeConfig:
    """``--speculative-config`` as vLLM reads it, for the methods modelled; the others get a clear
    refusal. ``draft_config``: the EAGLE-3 drafter's config.json (vLLM reads it from ``model``)."""
    obj, text = _object(raw)
    unknown = sorted(str(k) for k in obj if k not in _KEYS)
    if unknown:
        raise CalcError(
            "spec_config_key",
            f"speculative_config: {shorten(', '.join(unknown))} is not a key the calculator reads",
            field="speculative_config",
            key=shorten(", ".join(unknown)),
        )
    method = _method(obj)
    num = _whole(obj, "num_speculative_tokens", maximum=MAX_SPEC_TOKENS)
    if v0_engine:
        raise _refused("v0", method, "the V0 engine's speculative decoding is not modelled")
    if method == "eagle3" and draft_config is not None and pipeline_parallel_size == 1:
        return _eagle3(obj, model, num, text, draft_config, tensor_parallel_size)
    if method in _NOT_MODELLED:
        draft = obj.get("model")
        if isinstance(draft, str):
            raise _refused(
                "draft",
                method,
                f"it needs the draft checkpoint {shorten(draft)}, whose config is not in "
                "the catalog",
                key=shorten(draft),
            )
        raise _refused("method", method, "only mtp and ngram are sized")
    if method not in ("mtp", "ngram"):
        raise _bad(method, f"unknown method {shorten(method)!r}")
    if pipeline_parallel_size > 1:
        raise _refused(
            "pp", method, "speculative decoding with pipeline parallelism is not modelled"
        )
    if method == "ngram":
        if num is None:
            # vllm/config/speculative.py: "num_speculative_tokens must be provided with speculative
            # model …"
            raise _bad(text, "ngram needs num_speculative_tokens")
        return SpeculativeConfig(method="ngram", num_speculative_tokens=num, text=text)
    return SpeculativeConfig(
        method="mtp", num_speculative_tokens=_check_mtp(model, num, text), text=text
    )
