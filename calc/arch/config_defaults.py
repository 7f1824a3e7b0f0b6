"""Config-class defaults a pasted raw ``config.json`` leaves out and vLLM still reads.

vLLM loads a config through its ``transformers`` class, so a key the file omits takes the class
default (the catalog resolves configs with transformers at build time, scripts/build_catalog.py).
The core runs without transformers (Pyodide), so it keeps the defaults it needs for the families
whose published configs rely on them. Values: transformers 5.24.0 (constraints.txt).
"""
from __future__ import annotations

from collections.abc import Mapping

__all__ = ["CLASS_DEFAULTS", "with_class_defaults"]

# transformers/models/gemma3/configuration_gemma3.py ``Gemma3TextConfig``: google/gemma-3-4b-it and
# gemma-3-12b-it ship text configs without head counts, head_dim and max_position_embeddings.
_GEMMA3_TEXT: Mapping[str, object] = {
    "vocab_size": 262_208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "max_position_embeddings": 131_072,
    "sliding_window": 4096, "tie_word_embeddings": True,
}

# transformers/models/opt/configuration_opt.py ``OPTConfig``: facebook/opt-* configs omit
# tie_word_embeddings, enable_bias and layer_norm_elementwise_affine (opt_layout.py reads them).
_OPT: Mapping[str, object] = {
    "vocab_size": 50_272, "hidden_size": 768, "num_hidden_layers": 12, "ffn_dim": 3072, "max_position_embeddings": 2048,
    "num_attention_heads": 12, "do_layer_norm_before": True, "_remove_final_layer_norm": False, "enable_bias": True,
    "layer_norm_elementwise_affine": True, "tie_word_embeddings": True,
}

CLASS_DEFAULTS: Mapping[str, Mapping[str, object]] = {
    "opt": _OPT,
    "gemma3_text": _GEMMA3_TEXT,
    "gemma3": _GEMMA3_TEXT,  # a text_config without its own model_type takes the wrapper's
}


def with_class_defaults(text: Mapping[str, object], model_type: str) -> dict[str, object]:
    """``text`` with the class defaults of ``model_type`` for the keys it does not give."""
    out = dict(text)
    for key, value in CLASS_DEFAULTS.get(model_type, {}).items():
        out.setdefault(key, value)
    return out
