"""``--max-model-len auto`` with no memory left: vLLM's auto-fit error, not "No available memory".

vllm/v1/core/kv_cache_utils.py ``get_kv_cache_configs`` calls ``_auto_fit_max_model_len`` before the
per-worker ``_check_enough_kv_cache_memory`` (which raises "No available memory for the cache blocks"
when the available memory is zero or below); auto-fit's binary search finds no length that fits and
raises "Cannot auto-fit max_model_len: not enough GPU memory available to serve even a single token".
"""

from __future__ import annotations

from kvcalc import plan
from kvcalc.inputs import scenario_from_inputs
from kvcalc.verdict import VerdictStatus


def _verdict(**inputs: object):
    s = scenario_from_inputs(inputs)
    return plan(s.model, s.deployment)


def test_auto_with_no_memory_raises_the_auto_fit_error() -> None:
    # Qwen3-8B's bf16 checkpoint is 16,381,470,720 B = 15.26 GiB; at utilization 0.70 an RTX 4090
    # (23.64 GiB as CUDA reports it) grants 0.70 x 23.64 = 16.55 GiB, less than the weights plus the
    # activation peak, non-torch memory and CUDA graphs (0.57 + 0.25 + 0.86 GiB, the running example's
    # estimates): 16.55 - 15.27 - 1.68 = -0.40 GiB, nothing is left for the cache.
    fixed = _verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", gpu_memory_utilization=0.70)
    assert fixed.status == VerdictStatus.NO_MEMORY
    assert fixed.error_text is not None and fixed.error_text.startswith("No available memory for the cache blocks")
    auto = _verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", gpu_memory_utilization=0.70, max_model_len="auto")
    assert auto.status == VerdictStatus.AUTO_FIT_FAILED and not auto.fits
    assert auto.error_text == ("Cannot auto-fit max_model_len: not enough GPU memory available to serve even a "
                               "single token. Try increasing `gpu_memory_utilization`.")


def test_auto_with_memory_still_fits() -> None:
    auto = _verdict(model="Qwen/Qwen3-8B", gpu="RTX-4090", max_model_len="auto")
    assert auto.fits and auto.max_model_len < 40960
