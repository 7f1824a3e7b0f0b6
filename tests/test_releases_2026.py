"""vLLM's release rules of 2026 (0.20 – 0.33), each against hand-worked arithmetic.

Read in vLLM's source: the v0.20.0 … v0.25.1 tags of a public fork carrying upstream's tags and the release
wheels 0.26.0 … 0.33.0 on PyPI (calc/data/vllm_releases.json, pr_evidence, says which file and line).
"""
from __future__ import annotations

import io

import pytest
from factories import model, plan_with, run

from kvcalc import plan
from kvcalc.arch.model import normalize_config
from kvcalc.budget.estimates import cudagraph_capture_sizes
from kvcalc.budget.memory import capture_ceiling
from kvcalc.deployment import batch_defaults
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.inputs import scenario_from_inputs
from kvcalc.units import GiB
from kvcalc.versions import LATEST_RELEASE, rules_for

# A small model worked by hand: 2 layers, 2 KV heads, head size 256 / 4 = 64, bf16.
# Per token 2 layers × 2 (K, V) × 2 heads × 64 × 2 B = 1,024 B; a block of 16 tokens: one block id is
# 2 layers × 16 × 2 × (64 + 64) × 2 = 16,384 B.
TINY = {"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
        "hidden_size": 256, "intermediate_size": 1024, "vocab_size": 1000, "max_position_embeddings": 4096,
        "torch_dtype": "bfloat16"}
BLOCK = 16_384


def _tiny(**kw: object):
    return plan_with(normalize_config(TINY, model_id="tiny"), **kw)


def _scenario_plan(**inputs: object):
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", **inputs})
    return plan(s.model, s.deployment)


# ---- the null block (#47272, 0.29.0) -----------------------------------------------------------------

def test_null_block_at_the_check_small_model() -> None:
    # A = 64 blocks = 1,048,576 B; 1,024 tokens need cdiv(1,024, 16) = 64 blocks = 1,048,576 B.
    before = _tiny(available_bytes=64 * BLOCK, max_model_len=1024, version="0.28.0")
    assert before.fits and before.needed_kv_bytes == 1_048_576 and before.num_gpu_blocks == 64
    # 0.29.0: the check compares against A − one block = 1,032,192 B < 1,048,576 → vLLM refuses; the estimate
    # is the largest L with cdiv(L, 16) ≤ 63: 1,008.
    after = _tiny(available_bytes=64 * BLOCK, max_model_len=1024, version="0.29.0")
    assert not after.fits and after.status == "does_not_fit"
    assert after.check_kv_bytes == 64 * BLOCK - BLOCK == 1_032_192
    assert after.estimated_max_model_len == 1_008
    # one block more and it starts again, with 65 blocks counted from the whole memory
    more = _tiny(available_bytes=65 * BLOCK, max_model_len=1024, version="0.29.0")
    assert more.fits and more.num_gpu_blocks == 65


def test_less_than_one_block_left_is_no_memory() -> None:
    # 0.29.0: A = one block − 1 B gives check memory −1 ≤ 0 → "No available memory for the cache blocks";
    # 0.28.0 checks 16,383 B against the need of 1,024 tokens (1,048,576 B) → the ordinary error.
    new = _tiny(available_bytes=BLOCK - 1, max_model_len=1024, version="0.29.0")
    old = _tiny(available_bytes=BLOCK - 1, max_model_len=1024, version="0.28.0")
    assert new.status == "no_memory" and new.error_text is not None
    assert new.error_text.startswith("No available memory for the cache blocks.")
    assert old.status == "does_not_fit"


def test_null_block_at_auto_fit_small_model() -> None:
    # derived 4,096 needs 256 blocks > 64: auto-fit reduces. 0.28.0: cdiv(L, 16) ≤ 64 → 1,024;
    # 0.29.0: ≤ 63 → 1,008. The line quotes the checked memory: 1,048,576 and 1,032,192 B both print 0.0 GiB.
    before = _tiny(available_bytes=64 * BLOCK, max_model_len=-1, version="0.28.0")
    after = _tiny(available_bytes=64 * BLOCK, max_model_len=-1, version="0.29.0")
    assert (before.max_model_len, after.max_model_len) == (1_024, 1_008)
    assert ("Auto-fit max_model_len: reduced from 4096 to 1008 to fit in available GPU memory "
            "(0.0 GiB available for KV cache)") in after.vllm_lines


def test_null_block_error_text_qwen3_8b() -> None:
    # One block id 36 × 65,536 = 2,359,296 B. 0.28.0: A = 4 GiB → est 16 × 1,820 = 29,120;
    # 0.29.0: A − 2,359,296 = 4,292,608,000 → 16 × 1,819 = 29,104, printed as "4.0 GiB" (round(3.9978, 2)).
    old = run("Qwen/Qwen3-8B", available_gib=4, max_model_len=32768, version="0.28.0")
    new = run("Qwen/Qwen3-8B", available_gib=4, max_model_len=32768, version="0.29.0")
    assert (old.estimated_max_model_len, new.estimated_max_model_len) == (29_120, 29_104)
    assert new.error_text is not None and "available KV cache memory (4.0 GiB). Based on the available memory, " \
        "the estimated maximum model length is 29104. " in new.error_text


def test_num_gpu_blocks_override_replaces_the_memory_in_the_check() -> None:
    # Qwen3-8B, L = 32,768 needs 2,048 blocks (4,831,838,208 B). The override replaces A by 2,048 × 2,359,296
    # (#41069, 0.20.1): 0.28.0 checks exactly the need → starts with 2,048 blocks.
    old = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, num_gpu_blocks_override=2048, version="0.28.0")
    assert old.fits and old.num_gpu_blocks == 2048
    assert "Overriding num_gpu_blocks=27306 with num_gpu_blocks_override=2048" in old.vllm_lines   # 60 GiB // block
    # 0.29.0 holds the null block back from the overridden memory: 2,047 × 2,359,296 = 4,829,478,912 B < need
    # → refused; estimate 16 × 2,047 = 32,752; both figures print 4.5 GiB (round(4.4978, 2)).
    new = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, num_gpu_blocks_override=2048, version="0.29.0")
    assert not new.fits and new.check_kv_bytes == 4_829_478_912 and new.estimated_max_model_len == 32_752
    assert new.error_text is not None and new.error_text.startswith(
        "To serve at least one request with the model's max seq len (32768), (4.5 GiB KV cache is needed, which is "
        "larger than the available KV cache memory (4.5 GiB). Based on the available memory, the estimated maximum "
        "model length is 32752. ")
    # before #41069 the override does not enter the check: 0.20.0 checks the 60 GiB
    assert run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, num_gpu_blocks_override=1000,
               version="0.20.0").fits


def test_default_rules_are_the_newest_release_read() -> None:
    assert LATEST_RELEASE == "0.33.0"
    latest = rules_for(None)
    assert latest.description == "vLLM 0.33.0" and latest.null_block_reserved
    assert rules_for("0.33.0").null_block_reserved and not rules_for("0.28.0").null_block_reserved
    assert not rules_for("0.29.0rc1.dev12+gabc").null_block_reserved   # a dev build of 0.29.0 has 0.28.0's rules


# ---- CUDA-graph memory subtraction (#38284): 0.20.0, settled from the tags -------------------------------

def test_cudagraph_subtraction_is_in_0_20_0_not_its_rc() -> None:
    # v0.20.0's envs.py defaults VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS to "1" and gpu_memory_utilization to 0.92;
    # v0.20.0rc1 (built before the merge) to "0" and 0.9, although vLLM's own line says "default since v0.21.0".
    assert rules_for("0.20.0").subtract_cudagraphs and rules_for("0.20.0").default_gpu_memory_utilization == 0.92
    rc = rules_for("0.20.0rc1")
    assert not rc.subtract_cudagraphs and rc.default_gpu_memory_utilization == 0.90


# ---- capture sizes (#49390, 0.28.0) and the batched-token tiers (#51726, 0.28.0) ------------------------

def test_capture_ceiling_1024_on_datacentre_blackwell() -> None:
    # 1, 2, 4 (3) + 8 … 256 step 8 (32) + 272 … 512 step 16 (16) = 51 sizes; to 1024: + 528 … 1024 (32) = 83
    assert len(cudagraph_capture_sizes(1024)) == 51
    sizes = cudagraph_capture_sizes(1024, 16384, ceiling=1024)
    assert len(sizes) == 83 and sizes[-1] == 1024
    assert cudagraph_capture_sizes(256, ceiling=1024)[-1] == 512          # min(2 × 256, 1024)

    def ceiling(gpu: str, version: str) -> int:
        s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": gpu, "vllm_version": version})
        return capture_ceiling(s.deployment)

    assert (ceiling("B200", "0.27.1"), ceiling("B200", "0.28.0"), ceiling("B300", "0.33.0")) == (512, 1024, 1024)
    assert (ceiling("H100-80GB", "0.28.0"), ceiling("RTX-PRO-6000", "0.33.0"), ceiling("GB10", "0.33.0")) == \
        (512, 512, 512)   # 9.0, 12.0, 12.1: not family 100


def test_cudagraph_estimate_scales_with_the_capture_count_on_b200() -> None:
    # Qwen3-8B on a B200 (178.35 GiB ≥ 160: 1,024 sequences): 0.27.1 captures 51 sizes, 0.28.0 83, so the
    # estimate grows by 83 / 51 (estimates.cudagraph_bytes scales linearly with the count).
    old = _scenario_plan(gpu="B200", vllm_version="0.27.1").budget.cudagraph_bytes
    new = _scenario_plan(gpu="B200", vllm_version="0.28.0").budget.cudagraph_bytes
    assert new / old == pytest.approx(83 / 51, rel=1e-6)


def test_batched_token_tiers_by_release() -> None:
    def defaults(gpu: str, version: str) -> tuple[int, int]:
        s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": gpu, "vllm_version": version})
        return batch_defaults(s.deployment)

    # get_batch_defaults: ≥ 160 GiB → 16,384 from 0.28.0; ≥ 70 GiB (not A100) → 8,192; else 2,048 / 256
    assert defaults("B200", "0.27.1") == (8192, 1024)
    assert defaults("B200", "0.28.0") == (16384, 1024)
    assert defaults("H200", "0.28.0") == (8192, 1024)        # 139.81 GiB < 160
    assert defaults("RTX-4090", "0.33.0") == (2048, 256)


# ---- --calculate-kv-scales: deprecated from 0.19.0, gone in 0.28.0 --------------------------------------

def test_calculate_kv_scales_kept_up_to_0_27_and_in_the_command() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--kv-cache-dtype", "fp8",
                 "--calculate-kv-scales", "--vllm-version", "0.27.1"], stdout=out, stderr=err, stdin=io.StringIO())
    assert code in (0, 1) and err.getvalue() == ""
    assert "--calculate-kv-scales" in out.getvalue()


def test_calculate_kv_scales_refused_from_0_28() -> None:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "calculate_kv_scales": True,
                              "vllm_version": "0.28.0"})
    assert info.value.code == "calculate_kv_scales_removed" and info.value.field == "calculate_kv_scales"
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--calculate-kv-scales"],
                stdout=out, stderr=err, stdin=io.StringIO())
    assert code == 2 and out.getvalue() == ""
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and "--calculate-kv-scales was removed in vLLM 0.28.0" in lines[0]


# ---- --mamba-cache-mode all: gone from MambaCacheMode in 0.32.0 ----------------------------------------

def test_mamba_all_mode_refused_from_0_32() -> None:
    nemotron = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    assert run(nemotron, available_gib=60, mamba_cache_mode="all", version="0.31.0").mamba is not None
    with pytest.raises(CalcError) as info:
        run(nemotron, available_gib=60, mamba_cache_mode="all", version="0.32.0")
    assert info.value.code == "bad_choice" and info.value.params["choices"] == "none, align"
    with pytest.raises(CalcError):
        run(nemotron, available_gib=60, mamba_cache_mode="all")   # the default, 0.33.0


# ---- the auto-fit line of 0.32.0 -------------------------------------------------------------------------

def test_auto_fit_line_names_the_kv_cache_memory_from_0_32() -> None:
    # Qwen3-8B, A = 3 GiB, null block held back: 3,218,866,176 B → 16 × 1,364 = 21,824; printed 3.0 GiB
    old = run("Qwen/Qwen3-8B", available_gib=3, max_model_len=-1, version="0.31.0")
    new = run("Qwen/Qwen3-8B", available_gib=3, max_model_len=-1, version="0.32.0")
    assert old.max_model_len == new.max_model_len == 21_824
    assert ("Auto-fit max_model_len: reduced from 40960 to 21824 to fit in available GPU memory "
            "(3.0 GiB available for KV cache)") in old.vllm_lines
    assert ("Auto-fit max_model_len: reduced from 40960 to 21824 to fit in available KV cache memory "
            "(3.0 GiB GPU)") in new.vllm_lines


def test_model_spec_untouched() -> None:
    # the catalog's Qwen3-8B is the one the arithmetic above uses (scripts/model_configs/Qwen/Qwen3-8B)
    m = model("Qwen/Qwen3-8B")
    assert (m.num_layers, m.total_num_kv_heads, m.head_size) == (36, 8, 128)
    assert GiB == 1 << 30
