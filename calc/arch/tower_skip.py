"""vLLM's text-only mode: the vision tower is not built when every one of its modalities is limited
to 0.

Why it matters: "Model loading took" then holds the checkpoint minus the tower and its projector, so
the KV budget is larger by their bytes. Read in the tags of the aoshen02/vllm mirror (upstream's
tags):

* 0.10.1, #22299 "Implicit language-model-only mode via limit-mm-per-prompt" (08b751ba7):
  qwen2_vl.py, qwen2_5_vl.py (``self.visual = None`` unless ``get_limit_per_prompt("image") or
  ("video")``; ``load_weights`` skips ``visual.``), mistral3.py, llava.py, mllama4.py (Llama 4:
  ``vision_model`` and ``multi_modal_projector`` None unless the image limit is set). v0.10.0 builds
  them unconditionally.
* 0.11.0, #26000 "[MM] Add text-only mode for Qwen3-VL" (a1825fe64): qwen3_vl.py, qwen3_vl_moe.py.
* 0.15.0, #32605 (``SupportsMultiModal._mark_tower_model`` in interfaces.py: children built inside
  it become ``StageMissingLayer`` under ``no_init_weights`` when ``all(get_limit_per_prompt(m) == 0
  ...)``), applied to gemma3_mm.py by #32641 (tower and ``multi_modal_projector``) and to lfm2_vl.py
  by #32650; v0.14.1's gemma3_mm.py and lfm2_vl.py build the tower whatever the limits.
* Qwen3.5 / Qwen3.6 (qwen3_5.py): ``_mark_tower_model`` from the model's first release (0.17.0).
Gemma 4 and EXAONE 4.5 also use ``_mark_tower_model``, but their towers are not counted here (no
shape known).
"""

from __future__ import annotations

from ..versions import first_release
from .families import EVERY_RELEASE, tower_skip_pr

__all__ = ["tower_skipped"]


def tower_skipped(
    family: str,
    version: tuple[int, ...] | None,
    *,
    modalities: tuple[str, ...] | None,
    disabled: frozenset[str],
) -> bool:
    """Whether vLLM builds no vision tower: every modality the tower takes (``modalities``) is
    limited to 0, and the release (None: the pinned main commit) has the family's rule."""
    pr = tower_skip_pr(family)  # the family table's Tower.skip_pr
    if pr is None or not modalities or not set(modalities) <= disabled:
        return False
    return pr == EVERY_RELEASE or version is None or version[:3] >= first_release(pr)
