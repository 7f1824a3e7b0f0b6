"""Qwen2Model's ``max_window_layers``: as transformers derives it, as vLLM checks it.

CONTRIBUTING.md §2.3.

transformers/models/qwen2/configuration_qwen2.py (and qwen3): ``sliding_window`` only when
``use_sliding_window``; without ``layer_types``, layer ``i`` slides iff a window is set and
``i >= max_window_layers``. vllm/model_executor/models/qwen2.py ``Qwen2Model.__init__`` (v0.10.1 to
main 26d725c3) asserts ``max_window_layers == num_hidden_layers`` when the layer types mix.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import CalcError

__all__ = ["QWEN2_MAX_WINDOW_LAYERS", "refuse_partial_window", "qwen2_types"]

QWEN2_MAX_WINDOW_LAYERS = 28
"""transformers ``Qwen2Config`` / ``Qwen3Config`` default ``max_window_layers``."""

_PARTIAL = (
    "Sliding window for some but all layers is not supported. This model uses sliding window but "
    "`max_window_layers` = {} is less than `num_hidden_layers` = {}. Please open an issue to "
    "discuss this feature."
)


def refuse_partial_window(max_window_layers: int, num_layers: int, why: str) -> CalcError:
    """vLLM's refusal, in qwen2.py's own words."""
    return CalcError(
        "unsupported",
        f"{_PARTIAL.format(max_window_layers, num_layers)} ({why})",
        field="config",
        key="max_window_layers",
        value=max_window_layers,
    )


def qwen2_types(
    text: Mapping[str, object], num_layers: int, window: int | None, max_layers: int
) -> list[str]:
    """The config's ``layer_types``, else as Qwen2Config derives them."""
    given = text.get("layer_types")
    if isinstance(given, (list, tuple)) and given:
        return [
            str(t) for t in given
        ]  # all of them: one per layer, or the caller refuses the config
    return [
        "sliding_attention" if window is not None and i >= max_layers else "full_attention"
        for i in range(num_layers)
    ]
