"""Build ``calc/data/catalog.json`` from vendored Hugging Face configs and GPU facts.

Why this exists: the KV core must read a model the way vLLM reads it, and vLLM
reads it through ``transformers``' config classes (defaults filled in, derived
``layer_types``, ``sliding_window`` dropped when ``use_sliding_window`` is off,
``rope_scaling`` folded into ``rope_parameters``). ``transformers`` is far too big
to ship to the browser, so this script runs it once, offline, on the real
``config.json`` files in ``scripts/model_configs/`` and writes the resolved facts
into a small JSON file that the stdlib-only package ships.

Inputs:
    scripts/model_configs/index.json            model ids, families, parameter counts, checkpoint
                                                weight bytes (``weights_bytes``, optional, with its source)
    scripts/model_configs/<org>/<name>/config.json   the real Hugging Face configs
    scripts/gpus.json                           GPU memory as the driver reports it

Usage:
    python scripts/build_catalog.py                 # rewrite calc/data/catalog.json
    python scripts/build_catalog.py --output X.json # write elsewhere (the test does this)
    python scripts/build_catalog.py --check         # exit 1 if the committed file is stale
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
CONFIG_ROOT = SCRIPTS / "model_configs"
INDEX_PATH = CONFIG_ROOT / "index.json"
GPUS_PATH = SCRIPTS / "gpus.json"
DEFAULT_OUTPUT = ROOT / "calc" / "data" / "catalog.json"
SCHEMA = 1

# Integer/bool/list facts copied as transformers resolves them, when the resolved
# config has the attribute and it is not None. Names are Hugging Face's.
_PLAIN_KEYS: tuple[str, ...] = (
    "num_hidden_layers",
    "num_attention_heads",
    "hidden_size",
    "intermediate_size",
    "vocab_size",
    "tie_word_embeddings",
    "max_position_embeddings",
    "original_max_position_embeddings",
    "use_sliding_window",
    "max_window_layers",
    # MLA (DeepSeek-V2/V3/R1, Kimi K2)
    "kv_lora_rank",
    "q_lora_rank",
    "qk_rope_head_dim",
    "qk_nope_head_dim",
    "v_head_dim",
    # DeepSeek-V3.2 sparse attention indexer
    "index_head_dim",
    "index_n_heads",
    "index_topk",
    # MoE
    "num_experts",
    "num_local_experts",
    "n_routed_experts",
    "num_experts_per_tok",
    "enable_moe_block",  # Gemma 4 MoE: a dense MLP and the MoE block in every layer (gemma4.py)
    "moe_intermediate_size",
    "n_shared_experts",
    "first_k_dense_replace",
    "moe_layer_freq",
    "shared_expert_intermediate_size",
    "decoder_sparse_step",
    "mlp_only_layers",
    "num_nextn_predict_layers",
    # Llama 4
    "attention_chunk_size",
    "no_rope_layers",
    "interleave_moe_layer_step",
    "intermediate_size_mlp",
)

# Mamba / linear-attention hybrids: the keys vLLM's get_mamba_state_shape_from_config and the
# layer-type logic read (notes on hybrid planning, section 2.3). Copied only for these model
# types so no other model's entry changes.
_HYBRID_MODEL_TYPES = frozenset({
    "qwen3_next", "qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text", "nemotron_h", "granitemoehybrid",
    "jamba", "bamba", "lfm2", "lfm2_moe", "kimi_linear", "minimax", "minimax_text_01", "minimax_m1",
})
_HYBRID_KEYS: tuple[str, ...] = (
    # Qwen3-Next / Qwen3.5 Gated DeltaNet
    "full_attention_interval",
    "linear_num_key_heads",
    "linear_num_value_heads",
    "linear_key_head_dim",
    "linear_value_head_dim",
    "linear_conv_kernel_dim",
    "mamba_ssm_dtype",
    "mtp_num_hidden_layers",
    # Nemotron-H Mamba2
    "hybrid_override_pattern",
    "mamba_num_heads",
    "mamba_head_dim",
    "n_groups",
    "ssm_state_size",
    "conv_kernel",
    "chunk_size",
    "mamba_chunk_size",
    "mamba_ssm_cache_dtype",
    "moe_shared_expert_intermediate_size",
    # Granite-4.0-H / Bamba / Jamba
    "layers_block_type",
    "attn_layer_period",
    "attn_layer_offset",
    "attn_layer_indices",
    "expert_layer_period",
    "expert_layer_offset",
    "mamba_expand",
    "mamba_n_groups",
    "mamba_n_heads",
    "mamba_d_head",
    "mamba_d_state",
    "mamba_d_conv",
    # LFM2 short conv, Kimi Linear KDA, MiniMax linear attention
    "conv_dim",
    "conv_L_cache",
    "full_attn_idxs",
    "linear_attn_config",
    "attn_type_list",
)

# OPT (vllm/model_executor/models/opt.py, v0.11.0): the keys its layers are built from that no other family
# uses: fc1/fc2 width, the embedding width and its projections, biases, and whether the final LayerNorm exists.
# Copied only for model_type "opt" so no other model's entry changes.
_OPT_KEYS: tuple[str, ...] = (
    "ffn_dim",
    "word_embed_proj_dim",
    "enable_bias",
    "layer_norm_elementwise_affine",
    "do_layer_norm_before",
    "_remove_final_layer_norm",
)

# Every alias vLLM reads for the total KV-head count (spec section 3.2).
_KV_HEAD_KEYS: tuple[str, ...] = (
    "n_head_kv",
    "num_kv_heads",
    "num_key_value_heads",
    "multi_query_group_num",
    "num_attention_groups",
)

_ROPE_KEYS: tuple[str, ...] = ("rope_type", "factor", "original_max_position_embeddings")


def _jsonable(value: Any) -> Any:
    """Turn config values (tuples, dtype objects, config objects) into plain JSON."""
    if hasattr(value, "to_dict"):
        value = value.to_dict()
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def _dtype_name(value: Any) -> str | None:
    """``torch.bfloat16`` / ``'bfloat16'`` -> ``'bfloat16'``; None stays None."""
    if value is None:
        return None
    return str(value).removeprefix("torch.")


def _rope_scaling(text_cfg: Any) -> dict[str, Any] | None:
    """The scaling part of ``rope_parameters`` (v5's alias of ``rope_scaling``).

    Gemma 3 keeps one dict per layer type; the full-attention one carries the
    scaling that matters for the context length. ``rope_type == "default"``
    without a factor means no scaling.
    """
    params = getattr(text_cfg, "rope_parameters", None)
    if params is None:
        params = getattr(text_cfg, "rope_scaling", None)
    if not params:
        return None
    params = _jsonable(params)
    if "full_attention" in params and isinstance(params["full_attention"], dict):
        params = params["full_attention"]
    rope_type = params.get("rope_type") or params.get("type")
    picked = {k: params[k] for k in _ROPE_KEYS if params.get(k) is not None}
    if rope_type is not None:
        picked["rope_type"] = rope_type
    if picked.get("rope_type") in (None, "default") and "factor" not in picked:
        return None
    return picked


def _load(config_dir: Path) -> Any:
    """AutoConfig on a local folder; remote-code configs fall back to their base class.

    Kimi K2 declares ``model_type: kimi_k2`` with ``auto_map`` to a DeepSeek-V3
    config class; vLLM loads it as ``DeepseekV3Config`` too. We never run remote code.
    """
    import transformers
    from transformers import AutoConfig

    try:
        return AutoConfig.from_pretrained(str(config_dir), trust_remote_code=False)
    except ValueError:
        raw = json.loads((config_dir / "config.json").read_text(encoding="utf-8"))
        class_ref = raw.get("auto_map", {}).get("AutoConfig", "")
        class_name = class_ref.rsplit(".", 1)[-1]
        config_class = getattr(transformers, class_name, None)
        if config_class is None:
            raise
        return config_class.from_pretrained(str(config_dir))


def _per_layer_config(text_cfg: Any) -> dict[str, Any] | None:
    """Per-layer attention of a heterogeneous config (transformers >= 5.15: Gemma 4).

    Gemma 4's full-attention layers are wider (``global_head_dim``, ``num_global_key_value_heads``);
    transformers folds them into ``per_layer_config`` (layer index -> ``head_dim`` /
    ``num_key_value_heads``) and then refuses to read those keys globally unless
    ``allow_global_per_layer_attribute_access`` is set. The global values are the sliding layers';
    the core reads both (kvcalc.arch.model ``_gemma4_layer_attention``), as vLLM's ``gemma4_layer_config``
    does. None for every homogeneous config, so no other entry changes.
    """
    if not getattr(text_cfg, "is_heterogeneous", False):
        return None
    text_cfg.allow_global_per_layer_attribute_access = True
    per_layer = text_cfg.to_dict().get("per_layer_config")
    return _jsonable(per_layer) if per_layer else None


def _class_default(config: Any, key: str) -> int | None:
    """The integer default of ``key`` in the config class's signature (None: no fixed default).

    A key the raw config.json omits takes this value in transformers, and vLLM reads it from the
    resolved config (vllm/transformers_utils/model_arch_config_convertor.py ``get_head_size``, v0.19.0).
    """
    import inspect

    param = inspect.signature(type(config).__init__).parameters.get(key)
    default = None if param is None else param.default
    return default if isinstance(default, int) and not isinstance(default, bool) else None


def resolve_config(config_dir: Path) -> dict[str, Any]:
    """The normalized facts the KV core needs, as transformers resolves them."""
    raw = json.loads((config_dir / "config.json").read_text(encoding="utf-8"))
    raw_text = raw.get("text_config") or raw
    top = _load(config_dir)
    text = top.get_text_config()
    per_layer = _per_layer_config(text)

    facts: dict[str, Any] = {
        "model_type": raw_text.get("model_type") or raw.get("model_type"),
        "architectures": list(raw.get("architectures") or []),
    }
    if text is not top:
        facts["wrapper_model_type"] = raw.get("model_type")
    for key in _PLAIN_KEYS:
        value = getattr(text, key, None)
        if value is not None:
            facts[key] = _jsonable(value)
    if facts["model_type"] in _HYBRID_MODEL_TYPES:
        for key in _HYBRID_KEYS:
            value = getattr(text, key, None)
            if value is not None:
                facts[key] = _jsonable(value)
    if facts["model_type"] == "opt":
        for key in _OPT_KEYS:
            value = getattr(text, key, None)
            if value is not None:
                facts[key] = _jsonable(value)
    for key in _KV_HEAD_KEYS:
        value = getattr(text, key, None)
        if value is not None:
            facts[key] = value
    # head_dim when the config declares it or its class has a fixed default (Gemma3TextConfig: 256),
    # which vLLM reads as hf_text_config.head_dim (get_head_size). Not when transformers derives one
    # (llama: hidden/heads, deepseek_v3: qk_rope_head_dim), which would hide "declared" vs "derived",
    # nor for MLA, whose head size get_head_size takes from kv_lora_rank before head_dim.
    if "head_dim" in raw_text and raw_text["head_dim"] is not None:
        facts["head_dim"] = getattr(text, "head_dim", raw_text["head_dim"])
    elif _class_default(text, "head_dim") is not None and getattr(text, "kv_lora_rank", None) is None:
        facts["head_dim"] = getattr(text, "head_dim", None)
    if per_layer is not None:
        facts["per_layer_config"] = per_layer
        facts["num_kv_shared_layers"] = getattr(text, "num_kv_shared_layers", 0) or 0
    facts["rope_scaling"] = _rope_scaling(text)
    facts["sliding_window"] = getattr(text, "sliding_window", None)
    layer_types = getattr(text, "layer_types", None)
    if layer_types is not None:
        facts["layer_types"] = list(layer_types)
    facts["dtype"] = _dtype_name(getattr(text, "dtype", None)) or _dtype_name(getattr(top, "dtype", None))
    quant = getattr(top, "quantization_config", None) or getattr(text, "quantization_config", None)
    if quant:
        facts["quantization_config"] = _jsonable(quant)
    return facts


def build_catalog() -> dict[str, Any]:
    """The whole catalog document, deterministic for a given input and transformers."""
    import transformers

    index = json.loads(INDEX_PATH.read_text(encoding="utf-8"))
    models = []
    for entry in index["models"]:
        config_dir = CONFIG_ROOT / entry["id"]
        models.append(
            {
                "id": entry["id"],
                "family": entry["family"],
                "num_parameters": entry.get("num_parameters"),
                "parameters_source": entry.get("parameters_source"),
                "weights_bytes": entry.get("weights_bytes"),
                "weights_source": entry.get("weights_source"),
                "config": resolve_config(config_dir),
                # the context extension the model card documents (YaRN), with its source; vLLM applies it only
                # when asked (--hf-overrides), so it stays out of the config
                **({"rope_scaling_documented": entry["rope_scaling_documented"],
                    "rope_scaling_source": entry["rope_scaling_source"]} if "rope_scaling_documented" in entry else {}),
            }
        )
    gpus_doc = json.loads(GPUS_PATH.read_text(encoding="utf-8"))
    gpus = []
    for gpu in gpus_doc["gpus"]:
        memory_bytes = int(gpu["memory_bytes"])
        gpus.append(
            {
                "id": gpu["id"],
                "name": gpu["name"],
                "vendor": gpu["vendor"],
                "segment": gpu["segment"],
                "memory_bytes": memory_bytes,
                "memory_gib": round(memory_bytes / 2**30, 2),
                "memory_source_kind": gpu["memory_source_kind"],
                "source": gpu["source"],
            }
        )
    return {
        "schema": SCHEMA,
        "generated_by": "scripts/build_catalog.py",
        "transformers_version": transformers.__version__,
        "models": models,
        "gpus": gpus,
    }


def render(catalog: Mapping[str, Any]) -> str:
    """Stable text: sorted keys, indent 1, trailing newline (byte-for-byte comparable)."""
    return json.dumps(catalog, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true", help="compare with --output instead of writing")
    args = parser.parse_args(argv)
    text = render(build_catalog())
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(f"{args.output} is out of date; run scripts/build_catalog.py", file=sys.stderr)
            return 1
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
