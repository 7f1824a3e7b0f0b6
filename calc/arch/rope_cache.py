"""The rotary cos/sin caches vLLM allocates on every GPU while loading a model.

They are part of "Model loading took X GiB" (torch's allocated bytes after ``load_model``) but not
of the checkpoint: vllm/model_executor/layers/rotary_embedding/base.py (v0.19.0)
``RotaryEmbeddingBase`` registers a non-persistent ``cos_sin_cache`` buffer of ``(rows,
rotary_dim)`` (cos and sin halves side by side), cast to the rope's ``dtype`` (the model's unless
the model passes one). ``get_rope`` keeps one instance per distinct configuration (``_ROPE_DICT``),
so every layer shares it. Rows by scaling type (v0.19.0 ``rotary_embedding/__init__.py`` and the
classes it builds):

* ``default``, ``llama3``, ``longrope`` and the rest: ``max_position_embeddings``;
* ``linear``, ``dynamic`` (``linear_scaling_rope.py``, ``dynamic_ntk_scaling_rope.py``):
  ``max_position_embeddings × factor``;
* ``yarn``, ``deepseek_yarn`` (``yarn_scaling_rope.py``, ``deepseek_scaling_rope.py``):
  ``original_max_position_embeddings × factor``.

Gemma 3 (models/gemma3.py) builds two: its sliding layers a ``default`` rope on
``rope_local_base_freq``, its global layers the configured one. gpt-oss (models/gpt_oss.py) asks for
``dtype=torch.float32``. MLA models rotate only ``qk_rope_head_dim`` (models/deepseek_v2.py). The
cast to ``dtype`` and the rows per scaling type are the same in the v0.6.0 (``rotary_embedding.py``)
and v0.10.1 tags: no release rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .families import Rope, row_of

__all__ = ["RopeCache", "rope_caches"]

_SCALED_BY_FACTOR = frozenset({"linear", "dynamic"})
_SCALED_FROM_ORIGINAL = frozenset({"yarn", "deepseek_yarn"})
_ELEMENT_BYTES = 2


@dataclass(frozen=True)
class RopeCache:
    """One ``cos_sin_cache`` buffer: ``rows × rotary_dim`` elements of ``element_bytes``."""

    rows: int
    """Positions the buffer holds (the maximum position, scaled for some rope types)."""
    rotary_dim: int
    """Elements per position (cos and sin halves together)."""
    element_bytes: int
    """Bytes per element (the model dtype, or fp32 where vLLM keeps it)."""

    @property
    def bytes(self) -> int:
        return self.rows * self.rotary_dim * self.element_bytes


def _number(mapping: Mapping[str, object], key: str) -> float | None:
    value = mapping.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    return float(value)


def _rows(rope: Mapping[str, object], max_position: int) -> int:
    kind = str(rope.get("rope_type") or rope.get("type") or "default")
    factor = _number(rope, "factor") or 1.0
    if kind in _SCALED_BY_FACTOR:
        return int(max_position * factor)
    if kind in _SCALED_FROM_ORIGINAL:
        original = _number(rope, "original_max_position_embeddings") or max_position
        return int(original * factor)
    return max_position


def rope_caches(
    text: Mapping[str, object], model_type: str, rotary_head_size: int
) -> tuple[RopeCache, ...]:
    """The distinct cos/sin caches of a text config (module docstring); () without a position
    limit."""
    max_position = _number(text, "max_position_embeddings")
    kind = row_of(model_type).rope
    if max_position is None or rotary_head_size <= 0 or kind == Rope.NONE:
        return ()
    raw = text.get("rope_scaling") or text.get("rope_parameters")
    rope: Mapping[str, object] = raw if isinstance(raw, Mapping) else {}
    if isinstance(
        rope.get("full_attention"), Mapping
    ):  # per-layer-type parameters (transformers 5)
        configs = [v for v in rope.values() if isinstance(v, Mapping)]
    else:
        configs = [rope]
        if kind == Rope.TWO:
            configs.append({"rope_type": "default"})
    factor = _number(text, "partial_rotary_factor") or _number(rope, "partial_rotary_factor") or 1.0
    rotary_dim = int(rotary_head_size * min(factor, 1.0))
    elem = 4 if kind == Rope.FP32 else _ELEMENT_BYTES
    distinct = {(_rows(c, int(max_position)), str(sorted(c.items()))) for c in configs}
    return tuple(
        RopeCache(rows=rows, rotary_dim=rotary_dim, element_bytes=elem)
        for rows, _ in sorted(distinct)
    )
