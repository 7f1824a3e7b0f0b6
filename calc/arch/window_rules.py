"""Sliding windows vLLM applies differently by release (CONTRIBUTING.md §2.3).

Two config shapes are planned by the pinned main rules in ``kvcalc.model`` and adjusted here for
older releases:

* Qwen2Model (``qwen2``, ``qwen3``) with ``use_sliding_window``: vllm/model_executor/models/qwen2.py
  ``Qwen2Model.__init__`` refused any model-level window before #17772 (0.9.0, ValueError), then
  asserted ``max_window_layers == num_hidden_layers`` whenever one was set (0.9.0-0.10.0, where that
  window then covers every layer), and since #21927 (0.10.1) only when the layer types are
  interleaved.
* A config ``sliding_window`` whose ``layer_types`` have no sliding layer: vllm/engine/arg_utils.py
  ``create_engine_config`` passed it to every layer as ``CacheConfig.sliding_window`` (not
  interleaved, v0.10.1-v0.25.1; before #21927 always); since #49803 only when ``layer_types`` is
  absent or all sliding (neuralmagic/vllm main 26d725c3).
"""

from __future__ import annotations

from dataclasses import replace

from ..versions import RuleSet
from .model import LayerKind, ModelSpec
from .qwen2_window import refuse_partial_window

__all__ = ["windows_for_release"]


def windows_for_release(model: ModelSpec, rules: RuleSet) -> ModelSpec:
    """``model`` as ``rules``' release builds its layers (unchanged on the pinned main rules)."""
    older = model.older_windows
    if older is None:
        return model
    if older.qwen2 is not None and not rules.interleaved_layer_types:
        window, max_layers = older.qwen2
        if not rules.qwen2_sliding_window:
            raise refuse_partial_window(
                max_layers,
                model.num_layers,
                f"{rules.description} raises for any sliding window, before #17772",
            )
        if max_layers != model.num_layers:
            raise refuse_partial_window(
                max_layers, model.num_layers, f"{rules.description} asserts it, before #21927"
            )
        return _all_sliding(model, window)
    if older.unused is not None and not rules.window_needs_sliding_layer_types:
        return _all_sliding(model, older.unused)
    return model


def _all_sliding(model: ModelSpec, window: int) -> ModelSpec:
    return replace(
        model, layer_kinds=(LayerKind.SLIDING,) * model.num_layers, sliding_window=window
    )
