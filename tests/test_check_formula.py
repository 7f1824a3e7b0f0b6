"""The "KV cache is needed" figure, the estimated maximum length and auto-fit, release by release (kvcalc.kv.check).

vllm/v1/core/kv_cache_utils.py at the tags of the aoshen02/vllm mirror:
- up to 0.13.0: Σ over the worker's layers of ``max_memory_usage_bytes``, on the specs the runner reported;
- 0.14.0 (#29431) – 0.18.1: ``gs × page × cdiv(max_mem(group 0), page)`` (0.14 – 0.16 on the whole model's
  groups, from 0.17.0 / #33698 on each worker's projected groups);
- 0.19.0 (#36030) on: ``gs × page × Σ_g cdiv(max_mem_g, page)``.

Catalog figures used below (scripts/model_configs): gpt-oss-20b 24 layers alternating sliding (window 128, layer 0
sliding) / full, 8 KV heads of 64, bf16 → page 16 × 8 × 128 × 2 = 32,768 B; gemma-3-27b-it 62 layers, every 6th
full (layer 0 sliding, 52 sliding window 1024 + 10 full), 16 KV heads of 128, bf16 → page 16 × 16 × 256 × 2 =
131,072 B; F = 2,048 in-flight tokens (max_num_batched_tokens) in every case below.
"""
from __future__ import annotations

import pytest
from factories import run

from kvcalc.verdict import VerdictStatus

GiB = 2**30
GPT_OSS = "openai/gpt-oss-20b"
GEMMA3 = "google/gemma-3-27b-it"
QWEN3_NEXT = "Qwen/Qwen3-Next-80B-A3B-Instruct"
LLAMA31 = "meta-llama/Llama-3.1-8B-Instruct"

# gpt-oss-20b at 131,072: sliding layer cdiv(min(127 + 2,048, L), 16) + 1 = cdiv(2,175, 16) + 1 = 137 pages;
# full layer cdiv(131,072, 16) = 8,192 pages. Groups: 12 sliding (group 0), 12 full; gs 12.
GPT_OSS_SUM = 12 * 32_768 * (137 + 8_192)        # 3,275,096,064 (3.05 GiB): Σ per layer gives the same (no padding)
GPT_OSS_GROUP0 = 12 * 32_768 * 137               # 53,870,592 (0.05 GiB)


@pytest.mark.parametrize(("version", "needed", "status", "estimate"), [
    ("0.13.0", GPT_OSS_SUM, VerdictStatus.DOES_NOT_FIT, 41_488),
    ("0.15.0", GPT_OSS_GROUP0, VerdictStatus.FITS, 131_072),
    ("0.18.0", GPT_OSS_GROUP0, VerdictStatus.FITS, 131_072),
    ("0.19.0", GPT_OSS_SUM, VerdictStatus.DOES_NOT_FIT, 41_488),
    ("0.20.1", GPT_OSS_SUM, VerdictStatus.DOES_NOT_FIT, 41_488),
])
def test_gpt_oss_20b_one_gib(version, needed, status, estimate):
    # A = 1 GiB. Summed: 393,216 × (s + c) ≤ 2^30 ⇔ s + c ≤ 2,730; above 2,175 tokens s = 137, so c ≤ 2,593,
    # L ≤ 2,593 × 16 = 41,488. 0.15 / 0.18: 53,870,592 ≤ 1 GiB at any length: the check passes and the estimate
    # is the derived 131,072 (vLLM starts with 2^30 // 393,216 = 2,730 blocks, 0.33 requests of 131,072).
    v = run(GPT_OSS, available_gib=1, max_model_len=131_072, version=version)
    assert (v.needed_kv_bytes, v.status, v.estimated_max_model_len) == (needed, status, estimate)


def test_gpt_oss_20b_error_text_0_19():
    # format_gib(3,275,096,064) = round(3.0502, 2) = 3.05
    v = run(GPT_OSS, available_gib=1, max_model_len=131_072, version="0.19.0")
    assert v.error_text is not None
    assert "(3.05 GiB KV cache is needed, which is larger than the available KV cache memory (1.0 GiB)" in v.error_text
    assert "the estimated maximum model length is 41488. " in v.error_text


@pytest.mark.parametrize(("version", "fitted"), [("0.15.0", 131_072), ("0.18.0", 131_072), ("0.19.0", 41_488)])
def test_gpt_oss_20b_auto_fit(version, fitted):
    # --max-model-len auto at 1 GiB: the same binary search (0.15 / 0.18 keep the derived length).
    v = run(GPT_OSS, available_gib=1, max_model_len=-1, version=version)
    assert v.max_model_len == fitted


@pytest.mark.parametrize(("version", "needed"), [
    ("0.15.0", 12 * 32_768 * 137),          # whole-model groups (gs 12) on each stage until #33698
    ("0.18.0", 6 * 32_768 * 137),           # stage's projection: 6 sliding + 6 full, gs 6, group 0 only
    ("0.19.0", 6 * 32_768 * (137 + 8_192)),  # 1,637,548,032
])
def test_gpt_oss_20b_pipeline_parallel(version, needed):
    # PP 2 splits the 24 layers 12 / 12: each stage holds 6 sliding + 6 full.
    v = run(GPT_OSS, available_gib=1, max_model_len=131_072, pipeline_parallel_size=2, version=version)
    assert [s.needed_kv_bytes for s in v.stages] == [needed, needed]


# gemma-3-27b-it at 131,072: sliding cdiv(min(1,023 + 2,048, L), 16) + 1 = cdiv(3,071, 16) + 1 = 193 pages, full
# 8,192. Groups: 52 sliding → 6 groups (9, 9, 9, 9, 8, 8; gs 10, 8 padding layers), then 10 full; group 0 sliding.
@pytest.mark.parametrize(("version", "needed", "estimate"), [
    ("0.13.0", 131_072 * (52 * 193 + 10 * 8_192), 115_008),  # Σ per layer: 12,052,856,832 (11.23 GiB)
    ("0.15.0", 10 * 131_072 * 193, 131_072),                 # group 0: 252,968,960 (0.24 GiB): starts
    ("0.18.0", 10 * 131_072 * 193, 131_072),
    ("0.19.0", 10 * 131_072 * (6 * 193 + 8_192), 112_544),   # 12,255,232,000 (11.41 GiB): padding counted
])
def test_gemma_3_27b_ten_gib(version, needed, estimate):
    # A = 10 GiB = 81,920 pages. 0.13: 52 × 193 + 10 c ≤ 81,920 ⇔ c ≤ 7,188 ⇔ L ≤ 115,008.
    # 0.19: 10 × (6 × 193 + c) ≤ 81,920 ⇔ c ≤ 7,034 ⇔ L ≤ 112,544.
    v = run(GEMMA3, available_gib=10, max_model_len=131_072, version=version)
    assert (v.needed_kv_bytes, v.estimated_max_model_len) == (needed, estimate)
    assert v.fits == (needed <= 10 * GiB)


# Qwen3-Next-80B-A3B: 48 layers, 3 Gated DeltaNet then 1 full attention, repeated (layer 0 GDN). Mamba cache mode
# none (prefix caching off for hybrids before 0.28): each GDN group needs 1 state page. Attention block 544, page
# 1,114,112 B (tests/test_hybrid.py); groups 12 GDN × 3 (group 0 GDN) + 12 attention, gs 12.
@pytest.mark.parametrize(("version", "needed", "estimate"), [
    ("0.13.0", 1_114_112 * (36 * 1 + 12 * 482), 41_888),   # Σ per layer: 6,484,131,840
    ("0.15.0", 12 * 1_114_112 * 1, 262_144),               # group 0 (GDN): 13,369,344
    ("0.18.0", 12 * 1_114_112 * 1, 262_144),
    ("0.19.0", 12 * 1_114_112 * (3 * 1 + 482), 41_888),    # cdiv(262,144, 544) = 482: 6,484,131,840 (6.04 GiB)
])
def test_mamba_hybrid_qwen3_next_one_gib(version, needed, estimate):
    # A = 1 GiB: 13,369,344 × (3 + c) ≤ 2^30 ⇔ 3 + c ≤ 80 ⇔ c ≤ 77 ⇔ L ≤ 77 × 544 = 41,888 (0.13 sums the same
    # pages: 36 + 12 c). 0.15 / 0.18 check one GDN page per layer of group 0 only, whatever the length.
    v = run(QWEN3_NEXT, available_gib=1, version=version, max_num_seqs=64)
    assert (v.needed_kv_bytes, v.estimated_max_model_len) == (needed, estimate)


@pytest.mark.parametrize(("version", "estimate"), [
    ("0.8.5", 65_536), ("0.13.0", 65_536), ("0.14.0", 65_536), ("0.15.0", 65_536), ("0.18.0", 65_536),
    ("0.19.0", 65_536), ("0.20.1", 65_536), ("0.28.0", 65_536),
    # from 0.29.0 (#47272) the estimate searches A − one block: 8 GiB // 2,097,152 = 4,096 blocks − 1 = 4,095
    # → 16 × 4,095 = 65,520 (a block: 32 layers × 16 × 65,536 / 16 … = 32 × 16 × 4,096 B = 2,097,152)
    ("0.29.0", 65_520), (None, 65_520),
])
def test_uniform_model_same_in_every_release(version, estimate):
    # Llama-3.1-8B: 32 layers × 8 KV heads × 128 × 2 (K, V) × 2 B = 131,072 B per token; × 131,072 = 16 GiB,
    # one group: every formula gives Σ per layer. A = 8 GiB → est 65,536 (65,520 with the null block held back).
    v = run(LLAMA31, available_gib=8, max_model_len=131_072, version=version)
    assert (v.needed_kv_bytes, v.estimated_max_model_len) == (16 * GiB, estimate)


@pytest.mark.parametrize(("version", "needed"), [
    ("0.8.2", 62 * 8_192 * 131_072),                     # runner reports sliding layers as full (before #14097)
    ("0.8.5", 131_072 * (52 * 193 + 10 * 8_192)),        # checked on the reported SlidingWindowSpec, then promoted
    ("0.13.0", 131_072 * (52 * 193 + 10 * 8_192)),
    ("0.14.0", 62 * 8_192 * 131_072),                    # by groups: the promoted one (66,571,993,088 = 62 GiB)
])
def test_hma_disabled_checks_the_reported_specs_up_to_0_13(version, needed):
    # --disable-hybrid-kv-cache-manager: up to 0.13 check_enough_kv_cache_memory runs before
    # unify_hybrid_kv_cache_specs promotes the sliding layers (v0.8.5 … v0.13.0 kv_cache_utils.py).
    v = run(GEMMA3, available_gib=10, max_model_len=131_072, version=version, disable_hybrid_kv_cache_manager=True)
    assert v.needed_kv_bytes == needed


@pytest.mark.parametrize(("version", "needed"), [
    ("0.9.2", 48 * 8_192 * 16_384),                      # chunked layers reported as full: 6 GiB
    ("0.10.1", 16_384 * (12 * 8_192 + 36 * 640)),        # ChunkedLocalAttentionSpec reported (#21093): 1,988,100,096
    ("0.13.0", 16_384 * (12 * 8_192 + 36 * 640)),
    # from 0.14.0 (#29627) chunked local attention keeps the hybrid manager: 36 chunked + 12 full layers in
    # 4 groups of 12 (3 chunked, then 1 full; group 0 is chunked, layer 0 being chunked)
    ("0.14.0", 12 * 16_384 * 640),                       # group 0 only (before #36030): 125,829,120
    ("0.18.0", 12 * 16_384 * 640),
    ("0.19.0", 12 * 16_384 * (3 * 640 + 8_192)),         # #36030: every group's blocks, 1,988,100,096
])
def test_llama4_scout_chunked_layers_by_release(version, needed):
    # Llama-4-Scout at TP 4: 48 layers (every 4th full), 8 KV heads / 4 = 2 of 128, bf16 → page 16 × 2 × 256 × 2 =
    # 16,384 B. Full: cdiv(131,072, 16) = 8,192 pages; chunked: cdiv(min(8,192 + 2,048, L), 16) = 640 pages.
    v = run("meta-llama/Llama-4-Scout-17B-16E-Instruct", available_gib=10, max_model_len=131_072,
            tensor_parallel_size=4, version=version)
    assert v.needed_kv_bytes == needed
