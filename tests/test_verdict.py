"""vLLM's start-up planning, per architecture, against hand-worked arithmetic.

Every expected value is derived by hand in the comment beside it from the
rules in CONTRIBUTING.md §2 (vLLM main 6adad087…), not read back
from the code. Model facts come from each model's config.json in the catalog.
"""
from __future__ import annotations

import pytest
from factories import model, plan_with, run

from kvcalc.errors import CalcError
from kvcalc.units import GiB

# ---- Qwen3-8B: the worked example of README and tests/test_cli.py --------------------------------
# 36 layers, 8 KV heads, head_dim 128, bf16.
# page = 16 × 8 × (128 + 128) × 2 = 65,536 B; one block id = 36 × 65,536 = 2,359,296 B.


def test_qwen3_8b_bytes_per_token_and_one_request():
    v = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768)
    assert v.kv_bytes_per_token == 147_456          # 36 × 2 × 8 × 128 × 2
    assert v.needed_kv_bytes == 4_831_838_208       # 36 × 65,536 × cdiv(32768, 16)=2048
    assert v.grouping.kind == "uniform" and len(v.grouping.groups) == 1


def test_qwen3_8b_fits_in_60_gib():
    v = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768)
    assert v.fits
    assert v.num_gpu_blocks == 27_306               # 64,424,509,440 // 2,359,296
    assert v.gpu_kv_cache_tokens == 436_896         # int(27306 / 2048 × 32768) = 27,306 × 16
    assert v.max_concurrency == 27_306 / 2048       # 13.333…
    assert v.vllm_lines == (
        "Available KV cache memory: 60.0 GiB",
        "GPU KV cache size: 436,896 tokens, Maximum concurrency for 32,768 tokens per request: 13.33x",
    )


def test_qwen3_8b_fails_in_4_gib_with_vllms_exact_error():
    v = run("Qwen/Qwen3-8B", available_gib=4, max_model_len=32768)
    assert not v.fits and v.status == "does_not_fit"
    assert v.num_gpu_blocks is None
    # The default rules are 0.33.0's: the check holds the null block back (#47272, 0.29.0), so it compares
    # against 4 GiB − one block = 4,294,967,296 − 2,359,296 = 4,292,608,000 B (still printed "4.0 GiB").
    # est = 16 × (4,292,608,000 // 2,359,296) = 16 × 1819 = 29,104 (29,120 = 16 × 1820 up to 0.28,
    # tests/test_releases_2026.py)
    assert v.estimated_max_model_len == 29_104
    assert v.error_text == (
        "To serve at least one request with the model's max seq len (32768), (4.5 GiB KV cache is needed, "
        "which is larger than the available KV cache memory (4.0 GiB). Based on the available memory, the "
        "estimated maximum model length is 29104. Try increasing `gpu_memory_utilization` (which also controls "
        "CPU memory on the CPU backend) or decreasing `max_model_len` when initializing the engine. See "
        "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details."
    )


def test_equality_passes():
    # needed == A − one block exactly passes (CONTRIBUTING.md §2.7; the null block held back from 0.29.0):
    # 4,831,838,208 + 2,359,296 = 4,834,197,504 B is enough, one byte less is not
    assert run("Qwen/Qwen3-8B", available_bytes=4_834_197_504, max_model_len=32768).fits
    assert not run("Qwen/Qwen3-8B", available_bytes=4_834_197_503, max_model_len=32768).fits


def test_qwen3_8b_tp2_and_fp8_halve_bytes():
    tp2 = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, tensor_parallel_size=2)
    fp8 = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, kv_cache_dtype="fp8")
    # TP 2: 8 // 2 = 4 KV heads → 36 × 2 × 4 × 128 × 2 = 73,728; fp8: 36 × 2 × 8 × 128 × 1 = 73,728
    assert tp2.kv_bytes_per_token == fp8.kv_bytes_per_token == 73_728
    assert tp2.needed_kv_bytes == fp8.needed_kv_bytes == 2_415_919_104   # 2.25 GiB = 36 × 32,768 × 2048


def test_auto_fit_reduces_to_the_estimate():
    v = run("Qwen/Qwen3-8B", available_gib=3, max_model_len=-1)
    # derived 40,960 (max_position_embeddings); auto-fit plans against 3 GiB − one block (#47272, 0.29.0):
    # 3,221,225,472 − 2,359,296 = 3,218,866,176; est = 16 × (3,218,866,176 // 2,359,296) = 16 × 1364 = 21,824
    # (16 × 1365 = 21,840 before 0.29). The 0.32+ line names the KV cache memory: round(2.9978, 2) = 3.0 GiB GPU.
    assert v.fits and v.max_model_len == 21_824
    assert ("Auto-fit max_model_len: reduced from 40960 to 21824 to fit in available KV cache memory "
            "(3.0 GiB GPU)") in v.vllm_lines


def test_auto_fit_full_length_fits():
    v = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=-1)
    assert v.max_model_len == 40_960
    # 0.32+: 60 GiB − one 2,359,296 B block = 64,422,051,840 B → round(59.9978, 2) = 60.0 GiB
    assert ("Auto-fit max_model_len: full model context length 40960 fits in available KV cache memory "
            "(60.0 GiB GPU)") in v.vllm_lines


def test_no_available_memory():
    v = run("Qwen/Qwen3-8B", available_bytes=-1, max_model_len=4096)
    assert v.status == "no_memory" and not v.fits
    assert v.error_text.startswith("No available memory for the cache blocks. Try increasing `gpu_memory_utilization`")


# ---- GQA with TP replication: Llama-3.1-8B (8 KV heads, 32 attention heads) -----------

@pytest.mark.parametrize("tp, heads_per_gpu", [(1, 8), (2, 4), (4, 2), (8, 1), (16, 1), (32, 1)])
def test_kv_heads_stop_shrinking_past_the_kv_head_count(tp, heads_per_gpu):
    v = run("meta-llama/Llama-3.1-8B-Instruct", available_gib=20, max_model_len=8192, tensor_parallel_size=tp)
    # 32 layers × 2 × max(1, 8 // TP) × 128 × 2
    assert v.kv_bytes_per_token == 32 * 2 * heads_per_gpu * 128 * 2


def test_tp_must_divide_attention_heads():
    from kvcalc.inputs import scenario_from_inputs
    with pytest.raises(CalcError) as e:
        scenario_from_inputs({"model": "Qwen/Qwen2.5-7B-Instruct", "available_kv_gib": 10, "tensor_parallel_size": 8})
    assert e.value.code == "tp_not_divisor" and e.value.field == "tensor_parallel_size"   # 28 heads % 8 ≠ 0


# ---- Sliding window everywhere: Mistral-7B-v0.1 -------------------------------------
# 32 layers, all sliding (window 4096, no layer_types), 8 KV heads × 128, bf16: page 65,536.

def test_mistral_all_sliding_pins_only_the_window():
    v = run("mistralai/Mistral-7B-v0.1", available_gib=10, max_model_len=32768)
    # max_num_batched_tokens default 2048 (no GPU size given), async → F = 2 × 2048 = 4096
    # tokens = min(4096 − 1 + 4096, 32768) = 8191 → cdiv(8191, 16) + 1 = 513 blocks per layer
    assert v.grouping.kind == "uniform"
    assert v.needed_kv_bytes == 32 * 65_536 * 513 == 1_075_838_976
    # blocks = 10 GiB // (65,536 × 32) = 10,737,418,240 // 2,097,152 = 5,120
    assert v.num_gpu_blocks == 5_120
    assert v.max_concurrency == 5_120 / 513
    assert v.gpu_kv_cache_tokens == 327_041        # int(5120 / 513 × 32768) = int(327,041.25)


def test_mistral_batched_tokens_widen_the_window():
    v = run("mistralai/Mistral-7B-v0.1", available_gib=10, max_model_len=32768, max_num_batched_tokens=8192)
    # F = 2 × 8192 = 16,384; tokens = min(4095 + 16,384, 32,768) = 20,479 → 1280 + 1 = 1281 blocks
    assert v.needed_kv_bytes == 32 * 65_536 * 1281


def test_mistral_with_vllm_0_10_rules():
    v = run("mistralai/Mistral-7B-v0.1", available_gib=10, max_model_len=32768, version="0.10.1")
    # before #47728 F = max_num_batched_tokens = 2048: min(4095 + 2048, 32768) = 6143 → 384 + 1 = 385
    assert v.needed_kv_bytes == 32 * 65_536 * 385
    # before #41069: tokens = num_blocks // groups × block_size = 5120 // 1 × 16
    assert v.gpu_kv_cache_tokens == 81_920
    # before #48317: cdiv(32 × 385 × 65,536, 65,536 × 32) = 385 → 5120 / 385 = 13.30
    assert v.vllm_lines[-1] == "Maximum concurrency for 32,768 tokens per request: 13.30x"
    assert v.vllm_lines[-2] == "GPU KV cache size: 81,920 tokens"
    assert v.vllm_lines[0] == "Available KV cache memory: 10.00 GiB"      # %.2f before 0.14


# ---- Interleaved sliding/full: Gemma 3 27B (52 sliding + 10 full) ----------------------
# 16 KV heads × head_dim 128, bf16: page = 16 × 16 × 256 × 2 = 131,072 B.

def test_gemma3_groups_and_padding():
    v = run("google/gemma-3-27b-it", available_gib=20, max_model_len=32768)
    g = v.grouping
    # buckets 52 and 10: 52 ≥ 1.5 × 10 → group_size = 10; sliding → cdiv(52, 10) = 6 groups, full → 1
    assert g.kind == "hybrid" and len(g.groups) == 7 and g.group_size == 10
    assert sorted(len(x.layer_names) for x in g.groups) == [8, 8, 9, 9, 9, 9, 10]
    assert "Add 8 padding layers, may waste at most 15.38% KV cache memory" in v.vllm_lines   # 8 / 52


def test_gemma3_needed_blocks_and_concurrency():
    v = run("google/gemma-3-27b-it", available_gib=20, max_model_len=32768)
    # sliding group: min(1023 + 4096, 32768) = 5119 → cdiv 320 + 1 = 321 blocks; full: 2048
    # blocks per request = 6 × 321 + 2048 = 3974; needed = 10 × 131,072 × 3974
    assert v.blocks_per_request == 3974
    assert v.needed_kv_bytes == 5_208_801_280
    # 20 GiB // 131,072 // 10 = 163,840 // 10 = 16,384 blocks
    assert v.num_gpu_blocks == 16_384
    assert v.gpu_kv_cache_tokens == 135_095      # int(16,384 / 3,974 × 32,768)


def test_gemma3_without_hma_is_all_full_attention():
    v = run("google/gemma-3-27b-it", available_gib=20, max_model_len=32768, disable_hybrid_kv_cache_manager=True)
    # every layer promoted to full: 62 × 131,072 × 2048
    assert v.grouping.kind == "uniform"
    assert v.needed_kv_bytes == 62 * 131_072 * 2048
    assert v.vllm_lines[1].startswith("Hybrid KV cache manager is disabled for this hybrid model")


# ---- gpt-oss-120b: even layers sliding (window 128), odd full ---------------------------
# 8 KV heads × head_dim 64, bf16 (no dtype in config → bf16): page = 16 × 8 × 128 × 2 = 32,768.

def test_gpt_oss_two_equal_groups():
    v = run("openai/gpt-oss-120b", available_gib=20, max_model_len=131072)
    assert v.grouping.kind == "hybrid" and len(v.grouping.groups) == 2 and v.grouping.group_size == 18
    # sliding: min(127 + 4096, 131072) = 4223 → 264 + 1 = 265; full: 131072 / 16 = 8192 → 8457 blocks
    assert v.blocks_per_request == 8457
    assert v.needed_kv_bytes == 18 * 32_768 * 8457 == 4_988_141_568
    # 20 GiB // 32,768 // 18 = 655,360 // 18 = 36,408
    assert v.num_gpu_blocks == 36_408


def test_gpt_oss_derived_length_from_yarn():
    # rope yarn: original_max_position_embeddings 4096 × factor 32 = 131,072
    assert model("openai/gpt-oss-120b").derived_max_model_len == 131_072


# ---- MLA: DeepSeek-V3, TP 8 --------------------------------------------------------------
# head_size = kv_lora_rank 512 + qk_rope_head_dim 64 = 576; page = 16 × 576 × 2 = 18,432 (no K/V factor 2).

@pytest.mark.parametrize("tp", [1, 8])
def test_deepseek_v3_mla_is_not_divided_by_tp(tp):
    v = run("deepseek-ai/DeepSeek-V3", available_gib=40, max_model_len=163840, tensor_parallel_size=tp)
    assert v.kv_bytes_per_token == 70_272           # 61 × 576 × 2, on every GPU
    assert v.needed_kv_bytes == 11_513_364_480      # 61 × 18,432 × cdiv(163,840, 16)=10,240


def test_deepseek_v3_fp8_and_derived_length():
    m = model("deepseek-ai/DeepSeek-V3")
    assert m.derived_max_model_len == 163_840      # yarn: 4096 × 40
    v = plan_with(m, available_gib=40, max_model_len=163840, kv_cache_dtype="fp8", tensor_parallel_size=8)
    assert v.kv_bytes_per_token == 35_136           # 61 × 576 × 1
    assert v.needed_kv_bytes == 5_756_682_240       # 61 × 9,216 × 10,240


# ---- Pipeline parallel ---------------------------------------------------------------

def test_pp_splits_layers_and_checks_each_stage():
    v = run("meta-llama/Llama-3.1-8B-Instruct", available_gib=3, max_model_len=32768, pipeline_parallel_size=2)
    # 32 layers → [16, 16]; per stage: 16 × 65,536 × 2048 = 2 GiB ≤ 3 GiB
    assert [s.num_layers for s in v.stages] == [16, 16]
    assert v.fits and v.needed_kv_bytes == 2 * GiB
    # blocks = 3 GiB // (65,536 × 16) = 3,221,225,472 // 1,048,576 = 3072; tokens 3072 × 16
    assert v.num_gpu_blocks == 3072 and v.gpu_kv_cache_tokens == 49_152


def test_pp_between_29431_and_33698_failed_spuriously():
    v = run("meta-llama/Llama-3.1-8B-Instruct", available_gib=3, max_model_len=32768, pipeline_parallel_size=2,
            version="0.14.0")
    # from #29431 (0.14.0) until #33698 (0.17.0) (vLLM issue #32105): whole-model bytes
    # 32 × 65,536 × 2048 = 4 GiB against one stage's 3 GiB
    assert not v.fits and v.needed_kv_bytes == 4 * GiB


def test_pp_before_29431_checked_each_stage():
    v = run("meta-llama/Llama-3.1-8B-Instruct", available_gib=3, max_model_len=32768, pipeline_parallel_size=2,
            version="0.10.1")
    # 0.10.1: the stage's own 16 layers: 16 × 65,536 × 2048 = 2 GiB ≤ 3 GiB
    assert v.fits and v.needed_kv_bytes == 2 * GiB


def test_pp_uneven_split_gives_the_last_stage_fewer_layers():
    v = run("deepseek-ai/DeepSeek-V3", available_gib=40, max_model_len=4096, pipeline_parallel_size=2)
    # get_pp_indices: 61 // 2 = 30 each, remainder 1 to stage pp − 2 = 0 → [31, 30]
    assert [s.num_layers for s in v.stages] == [31, 30]
    # limiting stage is stage 0: 40 GiB // (18,432 × 31) = 42,949,672,960 // 571,392 = 75,166 blocks
    # (571,392 × 75,166 = 42,949,251,072 ≤ 42,949,672,960 < 571,392 × 75,167 = 42,949,822,464)
    assert v.num_gpu_blocks == 75_166


# ---- num_gpu_blocks_override ------------------------------------------------------------

def test_override_applies_before_the_check():
    v = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, num_gpu_blocks_override=1000)
    # A := 1000 × 2,359,296 = 2,359,296,000 < needed 4,831,838,208 → fails; from 0.29.0 the check holds the
    # null block back from the overridden memory: (1000 − 1) blocks → estimate = 16 × 999 = 15,984
    assert not v.fits and v.estimated_max_model_len == 15_984
    assert "Overriding num_gpu_blocks=27306 with num_gpu_blocks_override=1000" in v.vllm_lines


def test_override_with_old_rules_uses_raw_memory_for_the_check():
    v = run("Qwen/Qwen3-8B", available_gib=60, max_model_len=32768, num_gpu_blocks_override=1000, version="0.10.1")
    assert v.fits and v.num_gpu_blocks == 1000
    assert v.gpu_kv_cache_tokens == 16_000   # 1000 // 1 × 16


# ---- V0 engine (before 0.8.0): the log of vllm#10517 ----------------------------------

def test_v0_engine_blocks_and_error():
    # Llama-3.1-8B on an RTX 3090, log: kv_cache_size=2.89GiB → "# GPU blocks: 1478", 29000 > 1478 × 16 = 23648.
    # One V0 block = 32 layers × 65,536 = 2 MiB; 2.89 GiB rounds, so the exact figure lies in
    # [2.885, 2.895) GiB → blocks in [1477.1, 1482.2]: take A = 1478 × 2 MiB exactly.
    v = run("meta-llama/Llama-3.1-8B-Instruct", available_bytes=1478 * 2 * 1024 * 1024, max_model_len=29000,
            version="0.6.3")
    assert v.vllm_lines == (
        "# GPU blocks: 1478, # CPU blocks: 2048",                  # 4 GiB swap // 2 MiB = 2048
        "Maximum concurrency for 29000 tokens per request: 0.82x",  # 23,648 / 29,000 = 0.815
        "The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV "
        "cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing "
        "the engine.",
    )


def test_legacy_error_wording_0_10():
    v = run("Qwen/Qwen3-8B", available_gib=4, max_model_len=32768, version="0.10.1")
    assert v.error_text == (
        "To serve at least one request with the models's max seq len (32768), (4.50 GiB KV cache is needed, "
        "which is larger than the available KV cache memory (4.00 GiB). Based on the available memory, the "
        "estimated maximum model length is 29120. Try increasing `gpu_memory_utilization` or decreasing "
        "`max_model_len` when initializing the engine."
    )


# ---- The memory budget ------------------------------------------------------------------

def test_budget_requested_rounds_up_and_measured_terms_replace_estimates():
    from kvcalc import Deployment, Measured, plan
    from kvcalc.catalog import find_gpu
    h100 = find_gpu("H100-80GB").memory_bytes
    d = Deployment(gpu_memory_bytes=80 * GiB, max_model_len=32768,
                   measured=Measured(weights_bytes=16 * GiB, activation_bytes=1 * GiB, non_torch_bytes=0,
                                     cudagraph_bytes=GiB // 2))
    v = plan(model("Qwen/Qwen3-8B"), d)
    # CONTRIBUTING.md §2.9: requested = ceil(85,899,345,920 × 0.92) = 79,027,398,247 (the product is 79,027,398,246.4)
    assert v.budget.requested_bytes == 79_027_398_247
    # A = 79,027,398,247 − 16 GiB − 1 GiB − 0.5 GiB = 60,236,916,327
    assert v.available_kv_bytes == 60_236_916_327
    assert v.vllm_lines[0] == "Available KV cache memory: 56.1 GiB"
    assert v.num_gpu_blocks == 25_531                # 60,236,916,327 // 2,359,296
    assert v.gpu_kv_cache_tokens == 408_496          # 25,531 × 16
    assert h100 == 85_029_158_912                    # the catalog's H100: what vLLM logs as 79.19 GiB


def test_fixed_kv_cache_memory_bytes_skips_the_budget():
    v = run("Qwen/Qwen3-8B", max_model_len=32768, kv_cache_memory_bytes=6 * GiB)
    assert v.budget.source == "kv_cache_memory_bytes"
    assert not any(x.startswith("Available KV cache memory") for x in v.vllm_lines)
    assert v.num_gpu_blocks == 6 * GiB // 2_359_296      # 2730


def test_unknown_architecture_fails_loudly():
    from kvcalc.arch.model import normalize_config
    with pytest.raises(CalcError) as e:
        # Jamba is planned; Zamba2's shared-attention layout is refused by name.
        normalize_config({"model_type": "zamba2", "num_hidden_layers": 32, "num_attention_heads": 32, "hidden_size": 4096})
    assert e.value.code == "unsupported_architecture"
