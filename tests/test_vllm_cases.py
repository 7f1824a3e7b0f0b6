"""vLLM's own test cases for the KV planning functions, run through kvcalc's API.

Ported from vllm-project/vllm ``tests/v1/core/test_kv_cache_utils.py`` as of
upstream main 2026-05-24 (read from the public fork local-inference-lab/vllm,
whose main is upstream's squash-merge history). Each test names the vLLM test it
comes from, keeps vLLM's expected numbers, and shows the hand arithmetic.

Helper specs as in vLLM's test module: ``new_kv_cache_spec()`` = full attention,
block 16, 2 KV heads, head size 64, float32 (4 bytes); ``new_sliding_window_spec()``
the same with window 1; ``new_mla_spec()`` = MLA, block 16, 1 head, head size 576,
float32. So the common page is P = 16 × 2 × (64 + 64) × 4 = 16,384 bytes
(vLLM's ``mem_per_block_per_layer = 16 * 2 * 64 * 4 * 2``).

Not ported, and why:
- block hashing, free-block queues, prefix-cache metrics, request hashers,
  lookahead allocation, KV events (test_none_hash … test_metrics_empty_stats,
  test_allocate_with_lookahead, test_hma_not_disabled_when_kv_events_enabled):
  run-time cache management, not start-up sizing.
- KVCacheTensor layouts (which layers share a tensor) in every
  get_kv_cache_configs test: kvcalc sizes memory, it does not lay out tensors;
  the num_blocks and group membership of those tests are ported.
- conflicting layer specs across workers (AssertionError): kvcalc builds every
  worker's specs from one model, so workers cannot disagree.
- test_auto_fit_max_model_len_with_hybrid: its later form (null block) is ported in
  tests/test_hybrid.py; its v0.19.0 form is ported below with the check by release.
- test_get_kv_cache_spec_kind_* / *_sliding_window_*: vLLM's connector-facing
  spec-kind helpers; SlidingWindowMLASpec and SinkFullAttentionSpec
  (DeepSeek-V4 layouts) are not modelled.
- test_generate_scheduler_kv_cache_config: the scheduler copy of a
  UniformTypeKVCacheSpecs config; kvcalc's blocks_per_request already
  represents a uniform-type group by one of its layers (tested below).
- test_get_kv_cache_config_one_worker, case "different hidden size that cannot
  be aligned by using different block size" (full head 64 + sliding head 96):
  the 2026-05 vLLM raises NotImplementedError; the pinned rules (CONTRIBUTING.md §2.5,
  vLLM main of 2026-08-14) pad the smaller page for FlashAttention-family backends, which
  kvcalc does. kvcalc does not model the backend, so neither side is tested.
- test_project_kv_cache_groups_to_worker identity checks (``is spec_a``):
  object identity; the projected layer names are ported.
"""
from __future__ import annotations

import pytest

from kvcalc.kv import check
from kvcalc.kv.grouping import HMA_DISABLED_WARNING, Grouping, KVCacheGroup, get_kv_cache_groups, project_to_worker
from kvcalc.kv.kv_spec import (
    ChunkedLocalAttentionSpec,
    FullAttentionSpec,
    MambaSpec,
    MLAAttentionSpec,
    SizingContext,
    SlidingWindowSpec,
    UniformTypeSpec,
    mergeable,
)
from kvcalc.kv.planner import estimate_max_model_len, max_concurrency, max_memory_usage_bytes, num_blocks
from kvcalc.versions import rules_for

GiB = 2**30
P = 16_384  # 16 × 2 × (64 + 64) × 4


def full(*, block_size: int = 16, num_kv_heads: int = 2, head_size: int = 64, dtype_bytes: int = 4,
         sliding_window: int | None = None, attention_chunk_size: int | None = None,
         page_size_padded: int | None = None) -> FullAttentionSpec:
    """vLLM's new_kv_cache_spec()."""
    return FullAttentionSpec(block_size=block_size, num_kv_heads=num_kv_heads, head_size=head_size,
                             head_size_v=head_size, dtype_bytes=dtype_bytes, sliding_window=sliding_window,
                             attention_chunk_size=attention_chunk_size, page_size_padded=page_size_padded)


def sliding(*, block_size: int = 16, num_kv_heads: int = 2, head_size: int = 64, dtype_bytes: int = 4,
            sliding_window: int = 1, page_size_padded: int | None = None) -> SlidingWindowSpec:
    """vLLM's new_sliding_window_spec()."""
    return SlidingWindowSpec(block_size=block_size, num_kv_heads=num_kv_heads, head_size=head_size,
                             head_size_v=head_size, dtype_bytes=dtype_bytes, sliding_window=sliding_window,
                             page_size_padded=page_size_padded)


def chunked(*, attention_chunk_size: int = 4, page_size_padded: int | None = None) -> ChunkedLocalAttentionSpec:
    """vLLM's new_chunked_local_attention_spec()."""
    return ChunkedLocalAttentionSpec(block_size=16, num_kv_heads=2, head_size=64, head_size_v=64, dtype_bytes=4,
                                     attention_chunk_size=attention_chunk_size, page_size_padded=page_size_padded)


def mla(cache_dtype_str: str = "auto") -> MLAAttentionSpec:
    """vLLM's new_mla_spec(): kv_lora_rank 512 + qk_rope_head_dim 64 = 576, float32."""
    return MLAAttentionSpec(block_size=16, num_kv_heads=1, head_size=576, head_size_v=576, dtype_bytes=4,
                            cache_dtype_str=cache_dtype_str)


def qwen15_full() -> FullAttentionSpec:
    """The Qwen1.5-7B layer of vLLM's estimate/concurrency tests: block 16, 32 KV heads, head 128, fp16."""
    return full(num_kv_heads=32, head_size=128, dtype_bytes=2)


def qwen15_sliding() -> SlidingWindowSpec:
    return sliding(num_kv_heads=32, head_size=128, dtype_bytes=2, sliding_window=1024)


def names(grouping: Grouping) -> list[list[str]]:
    return [list(g.layer_names) for g in grouping.groups]


def needed_fn(grouping: Grouping):
    return lambda length: max_memory_usage_bytes(grouping, SizingContext(max_model_len=length))


# --- page sizes -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("spec", "page"), [
    (full(), 16_384),                                   # 16 × 2 × (64+64) × 4
    (sliding(), 16_384),                                # same shape, window does not change the page
    (chunked(), 16_384),
    (full(head_size=128), 32_768),                      # 16 × 2 × 256 × 4 (test_get_kv_cache_config_one_worker: "× 2")
    (sliding(head_size=32), 8_192),                     # 16 × 2 × 64 × 4
    (sliding(head_size=32, block_size=32), 16_384),     # 32 × 2 × 64 × 4: the unified sliding spec
    (sliding(head_size=96), 24_576),                    # 16 × 2 × 192 × 4
    (mla(), 36_864),                                    # 16 × 1 × 576 × 4 (no K/V factor 2)
    (qwen15_full(), 262_144),                           # 16 × 32 × 256 × 2
    (sliding(page_size_padded=32 * 1024, sliding_window=1024), 32_768),  # padded page wins
])
def test_page_size_bytes(spec, page):
    # vLLM: the page sizes implied by mem_per_block_per_layer and the specs of
    # test_get_kv_cache_config_one_worker, test_unify_hybrid_kv_cache_specs, test_merge_mla_spec.
    assert spec.page_size_bytes == page


# --- max_memory_usage_bytes per spec ------------------------------------------------------------------------------

def test_max_memory_usage_full_attention_qwen15():
    # vLLM test_estimate_max_model_len comment: "16384 model_len need 8GB" for 32 layers.
    # One layer: cdiv(16384, 16) = 1024 blocks × 262,144 = 268,435,456 B; 32 layers = 8 GiB.
    spec = qwen15_full()
    assert spec.max_memory_usage_bytes(SizingContext(max_model_len=16_384)) == 268_435_456
    grouping = get_kv_cache_groups({f"layer_{i}": qwen15_full() for i in range(32)})
    assert max_memory_usage_bytes(grouping, SizingContext(max_model_len=16_384)) == 8 * GiB


def test_max_memory_usage_sliding_window_qwen15():
    # vLLM test_get_max_concurrency_for_kv_cache_config (max_num_batched_tokens 1024; in that test's era
    # F = max_num_batched_tokens): tokens = min(1024 − 1 + 1024, 16384) = 2047;
    # blocks = cdiv(2047, 16) + 1 = 128 + 1 = 129; bytes = 129 × 262,144 = 33,816,576.
    spec = qwen15_sliding()
    ctx = SizingContext(max_model_len=16_384, in_flight_tokens=1024)
    assert spec.max_memory_usage_bytes(ctx) == 129 * 262_144 == 33_816_576


def test_max_memory_usage_mla():
    # MLA reserves like full attention: max_model_len 16 → cdiv(16, 16) = 1 block × 36,864 B.
    assert mla().max_memory_usage_bytes(SizingContext(max_model_len=16)) == 36_864


# --- grouping: uniform, uniform type, hybrid ----------------------------------------------------------------------

def test_is_kv_cache_spec_uniform():
    # vLLM test_is_kv_cache_spec_uniform.
    g = get_kv_cache_groups({"layer_1": full(num_kv_heads=32), "layer_2": full(num_kv_heads=32)})
    assert g.kind == "uniform"
    # A full spec that merely records a window is still uniform with plain full attention.
    g = get_kv_cache_groups({"layer_1": full(num_kv_heads=32), "layer_2": full(num_kv_heads=32, sliding_window=1)})
    assert g.kind == "uniform"
    g = get_kv_cache_groups({"layer_1": full(num_kv_heads=32), "layer_2": sliding(num_kv_heads=32, sliding_window=1)})
    assert g.kind != "uniform"
    g = get_kv_cache_groups({"layer_1": sliding(num_kv_heads=32), "layer_2": sliding(num_kv_heads=32)})
    assert g.kind == "uniform"
    g = get_kv_cache_groups({"layer_1": sliding(num_kv_heads=32, sliding_window=1),
                             "layer_2": sliding(num_kv_heads=32, sliding_window=2)})
    assert g.kind != "uniform"


def test_generate_uniform_type_kv_cache_specs():
    # vLLM test_generate_uniform_type_kv_cache_specs: UniformTypeKVCacheSpecs.from_specs accepts
    # same-kind layers with one block size (and one window for sliding), else None.
    specs = {"layer_1": full(), "layer_2": full(head_size=128)}
    g = get_kv_cache_groups(specs)
    assert g.kind == "uniform_type"
    assert names(g) == [["layer_1", "layer_2"]]
    assert isinstance(g.groups[0].spec, UniformTypeSpec)
    assert dict(g.groups[0].spec.layer_specs) == specs
    assert g.groups[0].spec.block_size == 16
    assert get_kv_cache_groups({"layer_1": full(), "layer_2": sliding()}).kind != "uniform_type"
    assert get_kv_cache_groups({"layer_1": sliding(), "layer_2": full()}).kind != "uniform_type"
    specs = {"layer_1": sliding(), "layer_2": sliding(head_size=128)}
    g = get_kv_cache_groups(specs)
    assert g.kind == "uniform_type"
    assert dict(g.groups[0].spec.layer_specs) == specs
    assert get_kv_cache_groups({"layer_1": full(block_size=16), "layer_2": full(block_size=32)}).kind != "uniform_type"


def test_merge_kv_cache_spec():
    # vLLM test_merge_kv_cache_spec: equal specs merge; head count or kind differences do not;
    # a recorded window may be absent on some full specs.
    assert mergeable(full(num_kv_heads=32), full(num_kv_heads=32))
    assert not mergeable(full(num_kv_heads=32), full(num_kv_heads=16))
    assert not mergeable(full(num_kv_heads=32), sliding(num_kv_heads=32))
    assert not mergeable(sliding(num_kv_heads=32), full(num_kv_heads=32))
    assert mergeable(full(num_kv_heads=32, sliding_window=1), full(num_kv_heads=32, sliding_window=1))
    assert mergeable(full(num_kv_heads=32, sliding_window=1), full(num_kv_heads=32, sliding_window=None))


def test_merge_kv_cache_spec_different_recorded_windows():
    # vLLM test_merge_kv_cache_spec: full specs recording windows 1 and 2 cannot be merged (ValueError).
    assert not mergeable(full(num_kv_heads=32, sliding_window=1), full(num_kv_heads=32, sliding_window=2))


def test_merge_mla_spec():
    # vLLM test_merge_mla_spec: MLA merges with MLA of the same cache dtype only.
    assert mergeable(mla(), mla())
    assert mergeable(mla("fp8_ds_mla"), mla("fp8_ds_mla"))
    assert not mergeable(mla("fp8_ds_mla"), mla())
    assert not mergeable(full(), mla())
    assert not mergeable(mla("fp8_ds_mla"), full())


# --- test_get_kv_cache_config_one_worker: groups and num_blocks -------------------------------------------------

def test_one_worker_all_full_attention():
    # A = P × 2 × 32; one group of 2 layers: num_blocks = A // P // 2 = 32.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": full()})
    assert g.kind == "uniform"
    assert names(g) == [["layer_1", "layer_2"]]
    assert g.groups[0].spec == full()
    assert num_blocks(g, P * 2 * 32) == 32


def test_one_worker_all_sliding_window():
    g = get_kv_cache_groups({"layer_1": sliding(), "layer_2": sliding()})
    assert names(g) == [["layer_1", "layer_2"]]
    assert g.groups[0].spec == sliding()
    assert num_blocks(g, P * 2 * 32) == 32  # P × 64 // P // 2


def test_one_worker_hybrid_with_hma_disabled():
    # disable_hybrid_kv_cache_manager: the sliding layer is promoted to full attention recording window 1;
    # one group of 2 layers: num_blocks = P × 64 // P // 2 = 32.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": sliding()}, hma_enabled=False)
    assert names(g) == [["layer_1", "layer_2"]]
    assert type(g.groups[0].spec) is FullAttentionSpec
    assert HMA_DISABLED_WARNING in g.warnings
    assert num_blocks(g, P * 2 * 32) == 32


def test_one_worker_hybrid_with_hma_disabled_group_spec_records_window():
    # vLLM test_get_kv_cache_config_one_worker expects KVCacheGroupSpec([...], new_kv_cache_spec(sliding_window=1)).
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": sliding()}, hma_enabled=False)
    assert g.groups[0].spec == full(sliding_window=1)


def test_one_worker_hybrid_one_full_one_sliding():
    # HMA on: two groups of one layer each, gs = 1 → num_blocks = P × 64 // P // 1 = 64.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": sliding()})
    assert g.kind == "hybrid"
    assert names(g) == [["layer_1"], ["layer_2"]]
    assert [grp.spec for grp in g.groups] == [full(), sliding()]
    assert num_blocks(g, P * 2 * 32) == 64


def test_one_worker_two_full_four_sliding():
    # buckets 2 full, 4 sliding: min 2, max 4 (4 ≥ 1.5 × 2) → group size 2; sliding cut into
    # k = cdiv(4, 2) = 2 strided groups (3,5), (4,6). gs = 2 → num_blocks = P × 64 // P // 2 = 32.
    specs = {"layer_1": full(), "layer_2": full()} | {f"layer_{i}": sliding() for i in range(3, 7)}
    g = get_kv_cache_groups(specs)
    assert names(g) == [["layer_1", "layer_2"], ["layer_3", "layer_5"], ["layer_4", "layer_6"]]
    assert [grp.spec for grp in g.groups] == [full(), sliding(), sliding()]
    assert g.num_padding_layers == 0
    assert num_blocks(g, P * 2 * 32) == 32


def test_one_worker_three_full_seven_sliding_padded():
    # 3 full, 7 sliding: 7 ≥ 4.5 → group size 3; k = cdiv(7, 3) = 3 groups (4,7,10), (5,8), (6,9);
    # padding 3 − 7 % 3 = 2 layers, 2 / 7 × 100 = 28.57 %. num_blocks = P × 3 × 32 // P // 3 = 32.
    specs = {f"layer_{i}": full() for i in range(1, 4)} | {f"layer_{i}": sliding() for i in range(4, 11)}
    g = get_kv_cache_groups(specs)
    assert names(g) == [["layer_1", "layer_2", "layer_3"], ["layer_4", "layer_7", "layer_10"],
                        ["layer_5", "layer_8"], ["layer_6", "layer_9"]]
    assert g.num_padding_layers == 2
    assert "Add 2 padding layers, may waste at most 28.57% KV cache memory" in g.warnings
    assert num_blocks(g, P * 3 * 32) == 32


def test_one_worker_six_full_five_sliding_gpt_oss_eagle():
    # 6 full, 5 sliding: 6 < 1.5 × 5 = 7.5 → group size = max = 6; one group each; the sliding group
    # is one layer short (1 / 5 = 20.00 %). gs = 6 → num_blocks = P × 6 × 32 // P // 6 = 32.
    specs = {f"layer_{i}": full() for i in range(1, 7)} | {f"layer_{i}": sliding() for i in range(7, 12)}
    g = get_kv_cache_groups(specs)
    assert names(g) == [[f"layer_{i}" for i in range(1, 7)], [f"layer_{i}" for i in range(7, 12)]]
    assert g.num_padding_layers == 1
    assert "Add 1 padding layers, may waste at most 20.00% KV cache memory" in g.warnings
    assert num_blocks(g, P * 6 * 32) == 32


@pytest.mark.parametrize(("version", "want"), [
    # v0.12.0 … v0.17.1 (#29303): 6 < 1.25 × 5 = 6.25 → group size 6, as above (vLLM's case, added by #29303).
    ("0.12.0", [[f"layer_{i}" for i in range(1, 7)], [f"layer_{i}" for i in range(7, 12)]]),
    # v0.11.x (before #29303; hand arithmetic): always the smallest bucket, 5 → full cut into cdiv(6, 5) = 2 strided
    # groups (1, 3, 5) and (2, 4, 6), sliding one group of 5; gs 5.
    ("0.11.0", [["layer_1", "layer_3", "layer_5"], ["layer_2", "layer_4", "layer_6"],
                [f"layer_{i}" for i in range(7, 12)]]),
])
def test_one_worker_six_full_five_sliding_by_release(version, want):
    specs = {f"layer_{i}": full() for i in range(1, 7)} | {f"layer_{i}": sliding() for i in range(7, 12)}
    assert names(get_kv_cache_groups(specs, size_ratio=rules_for(version).hybrid_group_size_ratio)) == want


@pytest.mark.parametrize(("version", "want"), [
    ("0.18.0", [["f1", "f2", "f3", "f4"], ["s1", "s2", "s3", "s4", "s5"]]),       # 5 < 1.5 × 4 → gs 5 (#36684)
    ("0.17.1", [["f1", "f2", "f3", "f4"], ["s1", "s3", "s5"], ["s2", "s4"]]),     # 5 ≥ 1.25 × 4 → gs 4, 2 strided
])
def test_group_size_threshold_1_25_until_0_18(version, want):
    # 4 full + 5 sliding (hand arithmetic; v0.17.1 kv_cache_utils.py: max_num_layers < min_num_layers * 1.25).
    specs = {f"f{i}": full() for i in range(1, 5)} | {f"s{i}": sliding() for i in range(1, 6)}
    assert names(get_kv_cache_groups(specs, size_ratio=rules_for(version).hybrid_group_size_ratio)) == want


def test_one_worker_uniform_type_different_head_sizes():
    # head 128 (2P) + head 64 (P): uniform type, num_blocks = A // Σ page = (P × 3 × 32) // 3P = 32.
    specs = {"layer_1": full(head_size=128), "layer_2": full(head_size=64)}
    g = get_kv_cache_groups(specs)
    assert g.kind == "uniform_type"
    assert names(g) == [["layer_1", "layer_2"]]
    assert num_blocks(g, P * 3 * 32) == 32


def test_one_worker_page_unification_by_block_size():
    # full head 64 (P) + sliding head 32 (P / 2): the sliding block size doubles to 32 so its page is P;
    # two groups of one layer, gs = 1 → num_blocks = P × 32 // P // 1 = 32.
    g = get_kv_cache_groups({"layer_1": full(head_size=64), "layer_2": sliding(head_size=32)})
    assert names(g) == [["layer_1"], ["layer_2"]]
    assert [grp.spec for grp in g.groups] == [full(head_size=64), sliding(head_size=32, block_size=32)]
    assert num_blocks(g, P * 32) == 32


def test_one_worker_num_gpu_blocks_override():
    # num_gpu_blocks_override = 16: vLLM replaces the memory by 16 × bytes per block (2 layers × P)
    # and reports 16 blocks.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": full()})
    assert g.bytes_per_block == 2 * P
    assert num_blocks(g, 16 * g.bytes_per_block) == 16


def test_attention_free():
    # vLLM test_get_kv_cache_configs_attention_free: no specs → no groups, num_blocks = 1.
    g = get_kv_cache_groups({})
    assert g.groups == ()
    assert num_blocks(g, 0) == 1


# --- test_get_kv_cache_configs_multiple_workers / pp_sharding: per-worker blocks, min over workers ---------------

def _blocks_per_worker(worker_specs: list[dict], available: list[int]) -> int:
    """Group the whole model, project onto each worker, and take the minimum number of blocks."""
    whole: dict = {}
    for specs in worker_specs:
        whole.update(specs)
    g = get_kv_cache_groups(whole)
    return min(num_blocks(project_to_worker(g, set(specs)), a) for specs, a in zip(worker_specs, available, strict=True))


def test_multiple_workers_same_specs():
    # Two TP ranks with 2 layers each and P × 2 × 10 → 10 blocks each.
    specs = [{"layer1": full(), "layer2": full()}, {"layer1": full(), "layer2": full()}]
    assert _blocks_per_worker(specs, [P * 2 * 10, P * 2 * 10]) == 10
    # Different memory (P × 2 × 10 and P × 2 × 20): the smallest wins, min(10, 20) = 10.
    assert _blocks_per_worker(specs, [P * 2 * 10, P * 2 * 20]) == 10


def test_multiple_workers_pp_different_layers():
    # PP: worker 1 has layer1 (P × 20 // P // 1 = 20), worker 2 layer2+layer3 (P × 20 // P // 2 = 10) → 10.
    assert _blocks_per_worker([{"layer1": full()}, {"layer2": full(), "layer3": full()}],
                              [P * 2 * 10, P * 2 * 10]) == 10
    # TP + PP: {1, 2}, {1, 2}, {3}, {3}: 10, 10, 20, 20 → 10.
    specs = [{"layer1": full(), "layer2": full()}, {"layer1": full(), "layer2": full()},
             {"layer3": full()}, {"layer3": full()}]
    assert _blocks_per_worker(specs, [P * 2 * 10] * 4) == 10


def test_multiple_workers_hybrid_pp():
    # Hybrid + PP: the whole model has 2 full + 2 sliding → groups (1,2) full, (3,4) sliding (gs 2).
    # Worker 1 keeps [1,2] and [] → P × 20 // P // 2 = 10; worker 2 [] and [3,4] → 10.
    whole = {"layer1": full(), "layer2": full(), "layer3": sliding(), "layer4": sliding()}
    g = get_kv_cache_groups(whole)
    assert names(project_to_worker(g, {"layer1", "layer2"})) == [["layer1", "layer2"], []]
    assert names(project_to_worker(g, {"layer3", "layer4"})) == [[], ["layer3", "layer4"]]
    assert _blocks_per_worker([{"layer1": full(), "layer2": full()}, {"layer3": sliding(), "layer4": sliding()}],
                              [P * 2 * 10, P * 2 * 10]) == 10


def test_multiple_workers_hybrid_pp_similar_group_sizes():
    # 1 full + 2 sliding per worker: whole model 2 full (1, 4) + 4 sliding → group size 2:
    # (1,4), (2,5), (3,6); each worker sees three one-layer groups → P × 10 // P // 1 = 10.
    w1 = {"layer1": full(), "layer2": sliding(), "layer3": sliding()}
    w2 = {"layer4": full(), "layer5": sliding(), "layer6": sliding()}
    g = get_kv_cache_groups(w1 | w2)
    assert names(project_to_worker(g, set(w1))) == [["layer1"], ["layer2"], ["layer3"]]
    assert names(project_to_worker(g, set(w2))) == [["layer4"], ["layer5"], ["layer6"]]
    assert _blocks_per_worker([w1, w2], [P * 10, P * 10]) == 10


@pytest.mark.parametrize("asymmetric", [False, True])
def test_get_kv_cache_configs_pp_sharding(asymmetric):
    # max_model_len 512, one layer per PP stage; expected blocks = 512 // 16 + 1 = 33, A = P × 33
    # (worker 2 gets P × 66 when asymmetric). Per-stage check: each stage needs 1 × P × cdiv(512, 16)
    # = 32 P ≤ 33 P; per-stage blocks 33 (and 66) → min 33.
    specs = [{"layer1": full()}, {"layer2": full()}]
    available = [P * 33, P * 66] if asymmetric else [P * 33, P * 33]
    g = get_kv_cache_groups(specs[0] | specs[1])
    ctx = SizingContext(max_model_len=512)
    for worker, a in zip(specs, available, strict=True):
        stage = project_to_worker(g, set(worker))
        assert max_memory_usage_bytes(stage, ctx) == 32 * P <= a
    assert _blocks_per_worker(specs, available) == 33


# --- test_estimate_max_model_len -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("max_model_len", "want"), [(16_385, 16_384), (16_383, 16_383)])
def test_estimate_max_model_len(max_model_len, want):
    # 32 Qwen1.5-7B layers, A = 8 GiB. needed(L) = 32 × 262,144 × cdiv(L, 16):
    # needed(16384) = 32 × 262,144 × 1024 = 8 GiB ≤ A; needed(16385) = 32 × 262,144 × 1025 > A.
    # So the largest L ≤ 16385 that fits is 16384, and 16383 (≤ 8 GiB) is kept as is.
    g = get_kv_cache_groups({f"layer_{i}": qwen15_full() for i in range(32)})
    assert estimate_max_model_len(needed_fn(g), 8 * GiB, max_model_len) == want


# --- test_get_max_concurrency_for_kv_cache_config ------------------------------------------------------------------

def _concurrency_ctx() -> SizingContext:
    # max_model_len 16384, max_num_batched_tokens 1024 (F = 1024 in that test's era).
    return SizingContext(max_model_len=16_384, in_flight_tokens=1024)


@pytest.mark.parametrize("sum_groups", [True, False])
def test_max_concurrency_full_attention(sum_groups):
    # num_blocks 1536; one request = cdiv(16384, 16) = 1024 blocks → 1536 / 1024 = 1.5.
    g = Grouping(groups=(KVCacheGroup(layer_names=tuple(f"layer_{i}" for i in range(32)), spec=qwen15_full()),),
                 kind="uniform")
    assert max_concurrency(g, _concurrency_ctx(), int(1024 * 1.5), sum_groups=sum_groups) == 1.5


@pytest.mark.parametrize("sum_groups", [True, False])
def test_max_concurrency_sliding_window(sum_groups):
    # num_blocks 129 × 3; one request pins cdiv(2047, 16) + 1 = 129 blocks → 3.
    g = Grouping(groups=(KVCacheGroup(layer_names=tuple(f"layer_{i}" for i in range(32)), spec=qwen15_sliding()),),
                 kind="uniform")
    assert max_concurrency(g, _concurrency_ctx(), 129 * 3, sum_groups=sum_groups) == 3


@pytest.mark.parametrize("sum_groups", [True, False])
def test_max_concurrency_hybrid(sum_groups):
    # Full group (32 layers) + sliding group (32 layers); one request = 1024 + 129 = 1153 blocks
    # (both the summed and the older cdiv(gs × Σ max_mem, page × gs) forms give 1153);
    # num_blocks (1024 + 129) × 3 = 3459 → 3459 / 1153 = 3.
    g = Grouping(groups=(KVCacheGroup(layer_names=tuple(f"layer_{i}" for i in range(32)), spec=qwen15_full()),
                         KVCacheGroup(layer_names=tuple(f"layer_{i}" for i in range(32, 64)), spec=qwen15_sliding())),
                 kind="hybrid")
    assert max_concurrency(g, _concurrency_ctx(), (1024 + 129) * 3, sum_groups=sum_groups) == 3


# --- auto-fit and the check with num_gpu_blocks_override -----------------------------------------------------------

def test_auto_fit_max_model_len():
    # vLLM test_auto_fit_max_model_len: derived 1024, 2 layers.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": full()})
    # Plenty of memory (P × 2 × 1024): needed(1024) = 2 P × 64 ≤ A → stays 1024.
    assert estimate_max_model_len(needed_fn(g), P * 2 * 1024, 1024) == 1024
    # P × 2 × 32: needed(L) = 2 P × cdiv(L, 16) ≤ 64 P ⇔ cdiv(L, 16) ≤ 32 ⇔ L ≤ 512.
    # vLLM asserts 0 < fitted < 1024; the exact value is 512.
    fitted = estimate_max_model_len(needed_fn(g), P * 2 * 32, 1024)
    assert 0 < fitted < 1024
    assert fitted == 512


def test_auto_fit_respects_num_gpu_blocks_override():
    # vLLM test_auto_fit_max_model_len_respects_num_gpu_blocks_override: derived 16384, override 32
    # → the pool is 32 × 2 P = 64 P however much raw memory there is; 32 blocks × 16 = 512 tokens,
    # so the fit is at most 512 (exactly 512 by the arithmetic above).
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": full()})
    fitted = estimate_max_model_len(needed_fn(g), 32 * g.bytes_per_block, 16_384)
    assert 0 < fitted <= 32 * 16
    assert fitted == 512


def test_check_enough_kv_cache_memory_respects_num_gpu_blocks_override():
    # vLLM test_check_enough_kv_cache_memory_respects_num_gpu_blocks_override: max_model_len 16384 needs
    # 2 P × cdiv(16384, 16) = 2048 P; the override pool is 32 × 2 P = 64 P, so the check fails even though
    # the raw memory (P × 2 × 1024 = 2048 P) would pass.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": full()})
    needed = max_memory_usage_bytes(g, SizingContext(max_model_len=16_384))
    assert needed == 2048 * P
    assert needed > 32 * g.bytes_per_block
    assert needed <= P * 2 * 1024


# --- test_unify_hybrid_kv_cache_specs (HMA disabled) -------------------------------------------------------------

def _layer_specs(g: Grouping) -> dict:
    out: dict = {}
    for grp in g.groups:
        if isinstance(grp.spec, UniformTypeSpec):
            out.update(grp.spec.layer_specs)
        else:
            out.update({n: grp.spec for n in grp.layer_names})
    return out


def test_unify_hybrid_full_and_sliding():
    # 1. full + sliding (padded page 32 KiB, window 1024) → the sliding layer becomes full attention
    #    keeping its padded page and recording window 1024.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": sliding(page_size_padded=32 * 1024, sliding_window=1024)},
                            hma_enabled=False)
    specs = _layer_specs(g)
    assert specs["layer_1"] == full()
    assert specs["layer_2"] == full(page_size_padded=32 * 1024, sliding_window=1024)


def test_unify_hybrid_full_and_chunked():
    # 2. full + chunked local (padded, chunk 512) → full attention recording the chunk size.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": chunked(page_size_padded=32 * 1024,
                                                                   attention_chunk_size=512)}, hma_enabled=False)
    specs = _layer_specs(g)
    assert specs["layer_1"] == full()
    assert specs["layer_2"] == full(page_size_padded=32 * 1024, attention_chunk_size=512)


def test_unify_hybrid_full_sliding_and_chunked():
    # 3. all three kinds → every local layer becomes full attention.
    g = get_kv_cache_groups({"layer_1": full(),
                             "layer_2": sliding(page_size_padded=32 * 1024, sliding_window=1024),
                             "layer_3": chunked(page_size_padded=32 * 1024, attention_chunk_size=512)},
                            hma_enabled=False)
    specs = _layer_specs(g)
    assert specs["layer_1"] == full()
    assert specs["layer_2"] == full(page_size_padded=32 * 1024, sliding_window=1024)
    assert specs["layer_3"] == full(page_size_padded=32 * 1024, attention_chunk_size=512)


def test_unify_hybrid_without_full_attention_is_an_error():
    # 4. sliding + chunked with HMA off and no full-attention layer: vLLM raises ValueError.
    from kvcalc.errors import CalcError
    with pytest.raises((CalcError, ValueError)):
        get_kv_cache_groups({"layer_1": sliding(sliding_window=1024), "layer_2": chunked(attention_chunk_size=512)},
                            hma_enabled=False)


def test_project_kv_cache_groups_to_worker():
    # vLLM test_project_kv_cache_groups_to_worker: a worker keeps its own layers of each group, in order;
    # a worker owning none of a group's layers keeps an empty group; a uniform-type group keeps only the
    # worker's layer specs.
    g = Grouping(groups=(KVCacheGroup(layer_names=("layer1", "layer2", "layer3"), spec=full()),), kind="uniform")
    assert names(project_to_worker(g, {"layer1", "layer2"})) == [["layer1", "layer2"]]
    assert names(project_to_worker(g, {"layer4"})) == [[]]
    uni = UniformTypeSpec(layer_specs={"layer1": full(), "layer2": full(num_kv_heads=4), "layer3": full()})
    g = Grouping(groups=(KVCacheGroup(layer_names=("layer1", "layer2", "layer3"), spec=uni),), kind="uniform_type")
    projected = project_to_worker(g, {"layer1", "layer3"})
    assert names(projected) == [["layer1", "layer3"]]
    assert set(projected.groups[0].spec.layer_specs) == {"layer1", "layer3"}


# --- the check by release: _max_memory_usage_bytes_from_groups at the v0.14.0, v0.18.1 and v0.19.0 tags ----------
# (tests/v1/core/test_kv_cache_utils.py at those tags, read in the aoshen02/vllm mirror; 0.14.0 – 0.18.1 count
# group 0's blocks only, #36030 (0.19.0) sums every group's.)

def mamba(*, num_speculative_blocks: int = 2) -> MambaSpec:
    """vLLM's new_mamba_spec() (v0.19.0): block 16, shapes ((2, 512), (3, 32, 32)) float32, mode none:
    page (2 × 512 + 3 × 32 × 32) × 4 = 16,384 = P."""
    return MambaSpec(block_size=16, shapes=((2, 512), (3, 32, 32)), dtypes=("float32", "float32"),
                     num_speculative_blocks=num_speculative_blocks)


def checked(version: str, whole: Grouping, worker: Grouping, length: int) -> int:
    """What get_kv_cache_configs checks on one worker at ``version`` (kvcalc.kv.check)."""
    specs = {n: g.spec for g in worker.groups for n in g.layer_names}
    return check.needed_kv_bytes(rules_for(version), SizingContext(max_model_len=length, in_flight_tokens=2048),
                                 model_groups=whole, worker_groups=worker, reported_specs=specs, grouped_specs=specs)


@pytest.mark.parametrize(("version", "want"), [("0.19.0", 1024), ("0.18.1", 8192), ("0.15.0", 8192)])
def test_auto_fit_max_model_len_with_hybrid_by_release(version, want):
    # v0.19.0 test_auto_fit_max_model_len_with_hybrid: layer_1 Mamba (S = 2), layer_2 full attention, derived
    # 8192, A = P × (1024 // 16 + 1 + 2) = 67 P; vLLM expects 1024. Two one-layer groups (gs 1), Mamba first.
    # 0.19.0: needed(L) = P × ((1 + 2) + cdiv(L, 16)) ≤ 67 P ⇔ cdiv(L, 16) ≤ 64 ⇔ L ≤ 1024.
    # 0.14.0 – 0.18.1 (not a vLLM test there; hand arithmetic): group 0 is the Mamba group, needed(L) = P × 3 for
    # every L ≤ 8192, so auto-fit keeps the derived 8192 — the under-count #36030 fixed.
    g = get_kv_cache_groups({"layer_1": mamba(), "layer_2": full()})
    assert [type(x.spec).__name__ for x in g.groups] == ["MambaSpec", "FullAttentionSpec"] and g.group_size == 1
    assert estimate_max_model_len(lambda n: checked(version, g, g, n), 67 * P, 8192) == want


def test_auto_fit_max_model_len_uniform_same_in_every_release():
    # v0.14.0 / v0.18.1 / v0.19.0 test_auto_fit_max_model_len: two full layers, derived 1024, A = 2 P × 32 → 512
    # (2 P × cdiv(L, 16) ≤ 64 P ⇔ L ≤ 512); plenty (2 P × 1024) keeps 1024. One group: the formulas agree.
    g = get_kv_cache_groups({"layer_1": full(), "layer_2": full()})
    for version in ("0.13.0", "0.14.0", "0.18.1", "0.19.0"):
        assert estimate_max_model_len(lambda n, v=version: checked(v, g, g, n), 2 * P * 32, 1024) == 512
        assert estimate_max_model_len(lambda n, v=version: checked(v, g, g, n), 2 * P * 1024, 1024) == 1024


@pytest.mark.parametrize(("version", "want"), [("0.14.0", 2 * P * 1), ("0.18.1", 2 * P * 1), ("0.19.0", 2 * P * 3)])
def test_multiple_workers_hybrid_pp_check_by_release(version, want):
    # test_get_kv_cache_configs_multiple_workers, hybrid PP case (v0.14.0, v0.18.1, v0.19.0: max_model_len 16,
    # each worker A = P × 2 × 10 = 20 P; vLLM expects configs, i.e. the check passes). Groups (1, 2) full,
    # (3, 4) sliding window 1: full needs cdiv(16, 16) = 1 block, sliding cdiv(min(0 + F, 16), 16) + 1 = 2.
    # Worker 2 keeps [] and [3, 4]: its empty full group is group 0 and still counts. gs 2 (whole model at
    # 0.14.0, worker's projection from 0.17.0: both 2). 0.14.0 / 0.18.1: 2 × P × 1; 0.19.0: 2 × P × (1 + 2).
    whole = get_kv_cache_groups({"layer1": full(), "layer2": full(), "layer3": sliding(), "layer4": sliding()})
    worker2 = project_to_worker(whole, {"layer3", "layer4"})
    assert names(worker2) == [[], ["layer3", "layer4"]]
    assert checked(version, whole, worker2, 16) == want <= 20 * P
