"""Sliding windows by release (``kvcalc.arch.window_rules``): Qwen2Model's max_window_layers and a window
whose layer_types have no sliding layer.

Expected kinds are read off vLLM's source at each tag (aoshen02/vllm mirror; main = neuralmagic/vllm
26d725c3), never from the code:
* v0.8.5 qwen2.py: ``if cache_config.sliding_window is not None and hasattr(config, "max_window_layers"):
  raise ValueError("Sliding window for some but all layers is not supported ...")``;
* v0.9.0 / v0.10.0 (#17772): the same condition asserts ``max_window_layers == num_hidden_layers``, and
  CacheConfig.sliding_window (the model-level window) covers every layer;
* v0.10.1 – v0.25.1 (#21927): the assert only when ``is_interleaved``; arg_utils sets
  CacheConfig.sliding_window when not interleaved, so all-full layer_types still get the window;
* main (#49803, first assumed in 0.27.0): CacheConfig.sliding_window only when layer_types is absent or
  all sliding.
"""
from __future__ import annotations

import pytest

from kvcalc.arch.model import LayerKind, normalize_config
from kvcalc.arch.window_rules import windows_for_release
from kvcalc.errors import CalcError
from kvcalc.versions import rules_for

FULL, SLIDING = LayerKind.FULL, LayerKind.SLIDING
QWEN2 = {"model_type": "qwen2", "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
         "hidden_size": 3584, "max_position_embeddings": 32768, "torch_dtype": "bfloat16",
         "use_sliding_window": True, "sliding_window": 4096}


def _kinds(config: dict[str, object], version: str):
    m = windows_for_release(normalize_config(config), rules_for(version))
    return set(m.layer_kinds), m.sliding_window


@pytest.mark.parametrize(("version", "expected"), [
    ("0.9.0", ({SLIDING}, 4096)),     # assert 28 == 28 passes; the model-level window covers all 28 layers
    ("0.10.0", ({SLIDING}, 4096)),
    ("0.10.1", ({SLIDING}, 4096)),    # layer_types all full: not interleaved → CacheConfig.sliding_window 4096
    ("0.25.1", ({SLIDING}, 4096)),
    ("0.27.0", ({FULL}, None)),       # #49803: layer_types not all sliding → no model-level window
    ("latest", ({FULL}, None)),
])
def test_max_window_layers_covering_every_layer(version, expected):
    assert _kinds({**QWEN2, "max_window_layers": 28}, version) == expected


@pytest.mark.parametrize("version", ["0.6.3", "0.8.5"])
def test_any_qwen2_window_is_refused_before_0_9(version):
    for max_layers in (0, 28):
        with pytest.raises(CalcError) as e:
            _kinds({**QWEN2, "max_window_layers": max_layers}, version)
        assert e.value.code == "unsupported" and "Sliding window for some but all layers" in str(e.value)


@pytest.mark.parametrize(("version", "expected"), [
    ("0.9.0", None),                  # assert 0 == 28 fails
    ("0.10.0", None),
    ("0.10.1", ({SLIDING}, 4096)),    # i >= 0 for every layer: all sliding_attention, not interleaved
    ("latest", ({SLIDING}, 4096)),
])
def test_max_window_layers_zero(version, expected):
    config = {**QWEN2, "max_window_layers": 0}
    if expected is None:
        with pytest.raises(CalcError) as e:
            _kinds(config, version)
        assert e.value.code == "unsupported"
    else:
        assert _kinds(config, version) == expected


def test_window_without_use_sliding_window_is_never_applied():
    # Qwen2.5 configs: sliding_window 131072 with use_sliding_window false → transformers drops it
    config = {**QWEN2, "use_sliding_window": False, "sliding_window": 131072, "max_window_layers": 28}
    for version in ("0.6.3", "0.9.0", "0.25.1", "latest"):
        assert _kinds(config, version) == ({FULL}, None)


def test_all_full_layer_types_with_a_window():
    # a Llama config listing 4 full_attention layers beside sliding_window 4096: not interleaved, so
    # v0.25.1's create_engine_config passes the window to every layer; main does not (#49803)
    config = {"model_type": "llama", "num_hidden_layers": 4, "num_attention_heads": 32, "num_key_value_heads": 8,
              "hidden_size": 4096, "max_position_embeddings": 4096, "sliding_window": 4096,
              "layer_types": ["full_attention"] * 4}
    assert _kinds(config, "0.25.1") == ({SLIDING}, 4096)
    assert _kinds(config, "latest") == ({FULL}, None)


def test_gemma3_pasted_text_config_takes_the_class_defaults():
    # gemma-3-4b-it's text_config as quoted in SOURCES.md (no head counts, head_dim or positions):
    # Gemma3TextConfig defaults num_attention_heads 8, num_key_value_heads 4, head_dim 256,
    # max_position_embeddings 131072 (transformers/models/gemma3/configuration_gemma3.py)
    config = {"model_type": "gemma3", "text_config": {
        "hidden_size": 2560, "intermediate_size": 10240, "model_type": "gemma3_text", "num_hidden_layers": 34,
        "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024}, "torch_dtype": "bfloat16"}
    m = normalize_config(config)
    assert (m.num_attention_heads, m.total_num_kv_heads, m.head_size) == (8, 4, 256)
    assert m.derived_max_model_len == 131_072   # gemma3 skips the RoPE factor
    # 34 layers, full iff (i + 1) % 6 == 0: layers 5, 11, 17, 23, 29 → 5 full, 29 sliding
    assert m.layer_kinds.count(FULL) == 5 and m.layer_kinds.count(SLIDING) == 29
