"""``grouping.get_kv_cache_groups`` / ``project_to_worker`` on model-shaped layer maps.

Hand-worked from vLLM's grouping rules (CONTRIBUTING.md §2.5; vLLM main
6adad087… ``vllm/v1/core/kv_cache_utils.py``): decision order, page-size
unification, equal-size groups with strided membership and padding.

vLLM's own cases from ``tests/v1/core/test_kv_cache_utils.py`` that this API can express
(uniform / uniform-type / hybrid one-worker configs, merge rules, HMA-disabled promotion,
projection onto workers, PP sharding) are ported in tests/test_vllm_cases.py; the rest of
that file (runtime block pools, prefix hashing, DeepSeek-V4 packed layouts, lock-step MLA,
Mamba) has no counterpart here. The cases below are CONTRIBUTING.md's examples and the
model shapes the catalog serves, not repeats of those ports.

Page sizes (CONTRIBUTING.md §2.4): page = block_size × kv_heads × (head_size + head_size_v) × dtype_bytes.
"""
from __future__ import annotations

import pytest

from kvcalc.errors import CalcError
from kvcalc.kv.grouping import (
    HMA_DISABLED_WARNING,
    PADDING_WARNING,
    Grouping,
    GroupingKind,
    get_kv_cache_groups,
    project_to_worker,
)
from kvcalc.kv.kv_spec import (
    ChunkedLocalAttentionSpec,
    FullAttentionSpec,
    MLAAttentionSpec,
    SizingContext,
    SlidingWindowSpec,
    UniformTypeSpec,
)


def full(*, heads: int = 8, head: int = 128, block: int = 16, e: int = 2) -> FullAttentionSpec:
    """A bf16 full-attention layer with 8 KV heads of 128 (Llama-3.1-8B / Qwen3-8B shaped): page 65,536."""
    return FullAttentionSpec(block_size=block, num_kv_heads=heads, head_size=head, head_size_v=head, dtype_bytes=e)


def sliding(*, window: int = 1024, heads: int = 8, head: int = 128, block: int = 16, e: int = 2) -> SlidingWindowSpec:
    return SlidingWindowSpec(block_size=block, num_kv_heads=heads, head_size=head, head_size_v=head, dtype_bytes=e,
                             sliding_window=window)


def chunked(*, chunk: int = 8192, heads: int = 8, head: int = 128) -> ChunkedLocalAttentionSpec:
    return ChunkedLocalAttentionSpec(block_size=16, num_kv_heads=heads, head_size=head, head_size_v=head,
                                     dtype_bytes=2, attention_chunk_size=chunk)


def mla() -> MLAAttentionSpec:
    """DeepSeek-V3 layer: kv_lora_rank 512 + qk_rope_head_dim 64 = 576, one latent head, bf16."""
    return MLAAttentionSpec(block_size=16, num_kv_heads=1, head_size=576, head_size_v=576, dtype_bytes=2)


def name(i: int) -> str:
    return f"model.layers.{i}.self_attn.attn"


def layers(specs: list) -> dict:
    return {name(i): s for i, s in enumerate(specs)}


def indices(group_names: tuple[str, ...]) -> list[int]:
    return [int(n.split(".")[2]) for n in group_names]


def gemma3_27b(*, window: int = 1024) -> dict:
    """62 layers, full iff (i + 1) % 6 == 0 (10 full, 52 sliding); 16 KV heads × 128: page 131,072."""
    return layers([full(heads=16) if (i + 1) % 6 == 0 else sliding(heads=16, window=window) for i in range(62)])


# ---- uniform: one group ---------------------------------------------------------------------------------

def test_uniform_dense_model_is_one_group():
    g = get_kv_cache_groups(layers([full()] * 36))          # Qwen3-8B: 36 identical layers
    assert g.kind == GroupingKind.UNIFORM and len(g.groups) == 1
    assert indices(g.groups[0].layer_names) == list(range(36))   # every layer, in model order
    assert g.groups[0].spec == full()
    assert g.page_size_bytes == 65_536                       # 16 × 8 × (128 + 128) × 2
    assert g.group_size == 36
    assert g.bytes_per_block == 2_359_296                    # 65,536 × 36 = 2.25 MiB per block id
    assert g.min_block_size == 16
    assert g.warnings == () and g.num_padding_layers == 0


def test_uniform_mla_model():
    g = get_kv_cache_groups(layers([mla()] * 61))           # DeepSeek-V3: 61 MLA layers
    assert g.kind == GroupingKind.UNIFORM
    assert g.page_size_bytes == 18_432                       # 16 × 1 × 576 × 2 (no K/V factor 2)
    assert g.bytes_per_block == 1_124_352                    # 18,432 × 61


def test_uniform_all_sliding_same_window():
    # Mistral-7B-v0.1: 32 sliding layers with one window → one uniform group of sliding specs
    g = get_kv_cache_groups(layers([sliding(window=4096)] * 32))
    assert g.kind == GroupingKind.UNIFORM and len(g.groups) == 1
    assert type(g.groups[0].spec) is SlidingWindowSpec and g.groups[0].spec.sliding_window == 4096


# ---- uniform type: same kind, different pages ------------------------------------------------------------

def test_uniform_type_mixed_head_sizes():
    # 2 full layers of head 128 (page 65,536) and 2 of head 64 (16 × 8 × 128 × 2 = 32,768):
    # same kind and block size → one UniformTypeSpec group
    specs = layers([full(), full(head=64), full(), full(head=64)])
    g = get_kv_cache_groups(specs)
    assert g.kind == GroupingKind.UNIFORM_TYPE and len(g.groups) == 1
    spec = g.groups[0].spec
    assert isinstance(spec, UniformTypeSpec) and dict(spec.layer_specs) == specs
    assert spec.page_size_bytes == 196_608                   # 2 × 65,536 + 2 × 32,768
    assert g.bytes_per_block == 196_608                      # one block id = one page of every layer
    # one request of 100 tokens: every layer needs cdiv(100, 16) = 7 blocks → 7 × 196,608
    assert spec.max_memory_usage_bytes(SizingContext(max_model_len=100)) == 1_376_256


def test_uniform_type_needs_one_window_for_sliding_layers():
    # sliding layers of different head sizes but one window → uniform type
    same = get_kv_cache_groups(layers([sliding(), sliding(head=64)]))
    assert same.kind == GroupingKind.UNIFORM_TYPE
    # different windows are not one type: hybrid
    assert get_kv_cache_groups(layers([sliding(window=512), sliding(window=1024, head=64)])).kind == GroupingKind.HYBRID


# ---- hybrid: sliding + full ---------------------------------------------------------------------------

def test_hybrid_gemma3_27b_groups():
    g = get_kv_cache_groups(gemma3_27b())
    # buckets in first-appearance order: sliding (52, layer 0 is sliding), full (10)
    # 52 ≥ 1.5 × 10 → group_size = min = 10; sliding → cdiv(52, 10) = 6 groups, full → 1 group
    assert g.kind == GroupingKind.HYBRID and len(g.groups) == 7 and g.group_size == 10
    # group i takes bucket[i::6]: len(range(i, 52, 6)) = 9, 9, 9, 9, 8, 8
    assert [len(x.layer_names) for x in g.groups] == [9, 9, 9, 9, 8, 8, 10]
    # strided: sliding layer k is model layer k + k // 5, so group 0 = S[0], S[6], …, S[48]
    assert indices(g.groups[0].layer_names) == [0, 7, 14, 21, 28, 36, 43, 50, 57]
    assert indices(g.groups[6].layer_names) == list(range(5, 62, 6))          # the 10 full layers
    assert [type(x.spec) for x in g.groups] == [SlidingWindowSpec] * 6 + [FullAttentionSpec]
    assert g.page_size_bytes == 131_072                       # 16 × 16 × 256 × 2, every layer alike
    assert g.bytes_per_block == 1_310_720                     # 131,072 × gs 10
    # padding: 10 − 52 % 10 = 8 layers, 8 / 52 × 100 = 15.3846… → "15.38"
    assert g.num_padding_layers == 8
    assert g.warnings == ("Add 8 padding layers, may waste at most 15.38% KV cache memory",)


def test_hybrid_gpt_oss_two_equal_groups():
    # gpt-oss-120b: 36 layers alternating sliding (window 128) / full, 8 KV heads × 64: 18 + 18
    g = get_kv_cache_groups(layers([sliding(window=128, head=64) if i % 2 == 0 else full(head=64)
                                    for i in range(36)]))
    # max 18 < 1.5 × 18 → group_size = max = 18; one group each, no padding
    assert len(g.groups) == 2 and g.group_size == 18 and g.num_padding_layers == 0 and g.warnings == ()
    assert indices(g.groups[0].layer_names) == list(range(0, 36, 2))
    assert indices(g.groups[1].layer_names) == list(range(1, 36, 2))
    assert g.page_size_bytes == 32_768                        # 16 × 8 × 128 × 2


@pytest.mark.parametrize(("n_full", "n_sliding", "group_size", "sizes", "padding"), [
    # 4 full, 5 sliding: 5 < 1.5 × 4 = 6 → group_size = max = 5; full bucket 4 → one group short by 1
    (4, 5, 5, [4, 5], 1),
    # 4 full, 6 sliding: 6 ≥ 6 → group_size = min = 4; sliding → cdiv(6, 4) = 2 groups (3, 3), padding 4 − 2 = 2
    (4, 6, 4, [4, 3, 3], 2),
    # 2 full, 9 sliding: group_size 2; sliding → 5 groups (2, 2, 2, 2, 1), padding 2 − 1 = 1
    (2, 9, 2, [2, 2, 2, 2, 2, 1], 1),
])
def test_hybrid_group_size_rule(n_full, n_sliding, group_size, sizes, padding):
    # full layers first, so the full bucket comes first in group order
    g = get_kv_cache_groups(layers([full()] * n_full + [sliding()] * n_sliding))
    assert g.group_size == group_size
    assert [len(x.layer_names) for x in g.groups] == sizes
    assert g.num_padding_layers == padding


def test_padding_warning_text():
    # vLLM: "Add %d padding layers, may waste at most %.2f%% KV cache memory"
    assert PADDING_WARNING.format(n=2, pct=2 / 6 * 100) == "Add 2 padding layers, may waste at most 33.33% KV cache memory"


def test_page_unification_scales_the_smaller_block():
    # full head 128: page 65,536; sliding head 32: 16 × 8 × 64 × 2 = 16,384; 65,536 % 16,384 == 0 →
    # the sliding layer's block size × 4 = 64 tokens, page 64 × 8 × 64 × 2 = 65,536
    g = get_kv_cache_groups(layers([full(), sliding(head=32)]))
    assert g.kind == GroupingKind.HYBRID
    assert g.groups[1].spec == sliding(head=32, block=64)
    assert g.groups[1].spec.page_size_bytes == 65_536
    assert g.min_block_size == 16


def test_page_unification_pads_when_not_a_multiple():
    # sliding head 96: 16 × 8 × 192 × 2 = 49,152; 65,536 % 49,152 ≠ 0 → FlashAttention-family
    # backends read by block stride, so the page is padded to 65,536 (CONTRIBUTING.md §2.5); block size unchanged
    g = get_kv_cache_groups(layers([full(), sliding(head=96)]))
    spec = g.groups[1].spec
    assert spec.block_size == 16 and spec.real_page_size_bytes == 49_152 and spec.page_size_bytes == 65_536


def test_page_unification_impossible_is_an_error():
    # a page already padded (to 40,000) that still does not divide the largest page cannot be unified
    padded = SlidingWindowSpec(block_size=16, num_kv_heads=8, head_size=96, head_size_v=96, dtype_bytes=2,
                               sliding_window=1024, page_size_padded=40_000)
    with pytest.raises(CalcError) as e:
        get_kv_cache_groups(layers([full(), padded]))
    assert e.value.code == "unsupported"


# ---- HMA disabled: local layers promoted to full attention ------------------------------------------------

def test_hma_disabled_promotes_sliding_layers():
    g = get_kv_cache_groups(gemma3_27b(), hma_enabled=False)
    # promoted, every layer reserves all tokens: one uniform group of 62, recording the window 1024
    assert g.kind == GroupingKind.UNIFORM and len(g.groups) == 1 and g.group_size == 62
    assert g.groups[0].spec == FullAttentionSpec(block_size=16, num_kv_heads=16, head_size=128, head_size_v=128,
                                                 dtype_bytes=2, sliding_window=1024)
    assert g.warnings == (HMA_DISABLED_WARNING,)
    assert HMA_DISABLED_WARNING == (
        "Hybrid KV cache manager is disabled for this hybrid model, This means we do not enable any optimizations "
        "for saving KV cache memory (e.g., dropping the KV cache outside the sliding window). The compute of layers "
        "like sliding window is still saved.")
    assert g.num_padding_layers == 0


def test_hma_disabled_promoted_layers_take_the_full_block_size():
    # a sliding layer with its own (smaller-kernel) block size 32 takes the full layers' 16
    g = get_kv_cache_groups(layers([full(), sliding(block=32)]), hma_enabled=False)
    assert g.groups[0].spec.block_size == 16 and g.kind == GroupingKind.UNIFORM


@pytest.mark.parametrize("specs", [[full()] * 4, [sliding(window=4096)] * 4], ids=["all_full", "all_sliding"])
def test_hma_disabled_leaves_uniform_models_alone(specs):
    # already uniform: nothing to promote, no warning (Mistral-7B-v0.1 stays sliding)
    g = get_kv_cache_groups(layers(specs), hma_enabled=False)
    assert g.kind == GroupingKind.UNIFORM and g.warnings == ()
    assert type(g.groups[0].spec) is type(specs[0])


# ---- chunked local attention (Llama 4) ----------------------------------------------------------------

def llama4_scout() -> dict:
    """48 layers: chunked local (chunk 8192) except every 4th (NoPE) full; 8 KV heads × 128, bf16."""
    return layers([full() if (i + 1) % 4 == 0 else chunked() for i in range(48)])


def test_chunked_local_with_hma_off_is_full_attention():
    # HMA is off by default for chunked-local models: all 48 layers reserve every token
    g = get_kv_cache_groups(llama4_scout(), hma_enabled=False)
    assert g.kind == GroupingKind.UNIFORM and g.group_size == 48
    assert g.groups[0].spec == FullAttentionSpec(block_size=16, num_kv_heads=8, head_size=128, head_size_v=128,
                                                 dtype_bytes=2, attention_chunk_size=8192)
    assert g.warnings == (HMA_DISABLED_WARNING,)


def test_chunked_local_with_hma_on_is_hybrid():
    # VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1: buckets chunked 36, full 12;
    # 36 ≥ 1.5 × 12 → group_size 12; chunked → 3 groups of 12, full → 1; no padding
    g = get_kv_cache_groups(llama4_scout())
    assert g.kind == GroupingKind.HYBRID and g.group_size == 12
    assert [len(x.layer_names) for x in g.groups] == [12, 12, 12, 12]
    assert [type(x.spec) for x in g.groups] == [ChunkedLocalAttentionSpec] * 3 + [FullAttentionSpec]
    assert g.num_padding_layers == 0
    # one request of 32,768 with F = 4096: chunked group min(8192 + 4096, 32768) = 12,288 → 768 blocks (no +1)
    ctx = SizingContext(max_model_len=32_768, in_flight_tokens=4096)
    assert g.groups[0].spec.max_memory_usage_bytes(ctx) == 768 * 65_536


def test_sliding_and_chunked_without_full_layers_cannot_be_unified_with_hma_off():
    # nothing to promote to: vLLM raises ("failed to convert the KV cache specs to one unified type")
    with pytest.raises(CalcError) as e:
        get_kv_cache_groups(layers([sliding(), chunked()]), hma_enabled=False)
    assert e.value.field == "disable_hybrid_kv_cache_manager"


# ---- empty ---------------------------------------------------------------------------------------------

def test_attention_free_model_has_no_groups():
    g = get_kv_cache_groups({})
    assert g == Grouping(groups=(), kind=GroupingKind.EMPTY)
    assert g.group_size == 0 and g.page_size_bytes == 0


# ---- projection onto a worker (PP stage) ----------------------------------------------------------------

def test_project_gemma3_onto_the_first_pp_stage():
    # PP 2: get_pp_indices gives [31, 31]; stage 0 owns layers 0–30
    g = get_kv_cache_groups(gemma3_27b())
    stage0 = project_to_worker(g, {name(i) for i in range(31)})
    # same 7 groups, each keeping its own layers below 31, in order
    assert len(stage0.groups) == 7 and stage0.kind == GroupingKind.HYBRID
    assert indices(stage0.groups[0].layer_names) == [0, 7, 14, 21, 28]
    # sliding layers below 31 are S[0..25]: group i keeps len(range(i, 26, 6)) = 5, 5, 4, 4, 4, 4;
    # full layers below 31: 5, 11, 17, 23, 29
    assert [len(x.layer_names) for x in stage0.groups] == [5, 5, 4, 4, 4, 4, 5]
    assert stage0.group_size == 5
    assert stage0.bytes_per_block == 655_360                 # 131,072 × 5
    assert stage0.warnings == g.warnings                      # vLLM logs the padding once, for the whole model


def test_project_uniform_type_keeps_only_the_workers_layer_specs():
    g = get_kv_cache_groups(layers([full(), full(head=64), full(), full(head=64)]))
    stage = project_to_worker(g, {name(0), name(1)})
    spec = stage.groups[0].spec
    assert isinstance(spec, UniformTypeSpec) and set(spec.layer_specs) == {name(0), name(1)}
    assert stage.bytes_per_block == 98_304                   # 65,536 + 32,768


def test_project_onto_a_worker_without_layers_of_a_group():
    g = get_kv_cache_groups(layers([full(), full(), sliding(), sliding()]))
    # groups (0, 1) full and (2, 3) sliding; a worker with only the full layers keeps an empty sliding group
    stage = project_to_worker(g, {name(0), name(1)})
    assert [indices(x.layer_names) for x in stage.groups] == [[0, 1], []]
    assert stage.group_size == 2
