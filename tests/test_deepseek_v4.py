"""DeepSeek-V4: the KV layouts of vLLM 0.20.0 … main (calc/kv/deepseek_v4.py; notes: staging/notes/deepseek-v4.md).

Hand arithmetic for DeepSeek-V4-Flash (scripts/model_configs/deepseek-ai/DeepSeek-V4-Flash/config.json):
43 layers, compress_ratios 0, 0, then 4 / 128 alternating, 4 last → 2 sliding-only layers, 21 C4A, 20 C128A;
head_dim 512, sliding_window 128, index_head_dim 128 (indexer K: 128 fp8 + 128 // 128 × 4 scale bytes = 132).

Pages with --kv-cache-dtype fp8 (→ fp8_ds_mla, 584 B per stored token, pages rounded up to 576), block 256:
* SWA (every layer, 64-token blocks): 64 × 584 = 37,376 → 65 × 576 = 37,440
* C4A MLA: 256 // 4 = 64 stored tokens → 37,440;  C128A: 256 // 128 = 2 → 1,168 → 3 × 576 = 1,728
* indexer K (C4A only): 64 × 132 = 8,448 → 15 × 576 = 8,640
* C4 compressor state: 4 tokens × 2 × 2 × 512 fp32 = 32,768 → 57 × 576 = 32,832; C128: 8 × 2 × 512 × 4 = 32,768 → 32,832
* indexer compressor state: 4 × 2 × 2 × 128 × 4 = 8,192 → 15 × 576 = 8,640
Groups: MLA (21 C4A + 20 C128A + 21 indexer = 62 layers, 21 tuples), SWA (43, one page size), C4 states
(21 + 21, 21 tuples), C128 states (20). approximate_gcd([21, 43, 21, 20], from 21): d = 22 pads 1 + 1 + 1 + 2 = 5
(d = 21 pads 20 + 1 = 21) → 22 tuples; SWA cut into cdiv(43, 22) = 2 groups (22, 21) → 5 groups.
Σ pages per group: MLA 21 × 37,440 + 20 × 1,728 + 21 × 8,640 = 1,002,240; SWA 22 × 37,440 = 823,680 and
21 × 37,440 = 786,240; C4 states 21 × (32,832 + 8,640) = 870,912; C128 states 20 × 32,832 = 656,640.
Block stride = the largest = 1,002,240. Check: tuples 22 × (37,440 + 1,728 + 8,640 = 47,808) = 1,051,776 per page.

Before #48993 (v0.20.0 … v0.25.1 tags, vllm/v1/core/kv_cache_utils.py ``_get_kv_cache_groups_uniform_groups``) every
sliding/state page is padded up to the nearest MLA page size {37,440, 8,640, 1,728}: SWA 37,440 stays, C4 and C128
states 32,832 → 37,440, indexer states 8,640 stay. Σ pages then: C4 states 21 × (37,440 + 8,640) = 967,680, C128
states 20 × 37,440 = 748,800 (MLA and SWA unchanged). Pool block per release:
* 0.20.0–0.22.x (``_get_kv_cache_config_deepseek_v4``): Σ distinct MLA pages 47,808 × the longest page-size bucket
  of any group (SWA group 0: 22 layers) = 1,051,776;
* 0.23.0–0.26.x (#44454, ``_bucket_layers_by_page_size``): per page size, the most layers of that size in one group:
  37,440 × 22 (SWA 0) + 8,640 × 21 (indexer K / indexer states) + 1,728 × 20 (C128A) = 823,680 + 181,440 + 34,560
  = 1,039,680.
Concurrency before #48317 (0.27.0): cdiv(Σ_g pages_g × Σpage_g, Σpage of the MLA group 1,002,240).
"""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from factories import deployment, model

from kvcalc import plan, scenario_from_inputs
from kvcalc.arch.model import normalize_config
from kvcalc.budget.memory import weight_bytes
from kvcalc.errors import CalcError
from kvcalc.faces.report import error_message
from kvcalc.kv.deepseek_v4 import build_v4_layer_specs
from kvcalc.kv.grouping import Grouping, GroupingKind, KVCacheGroup, PackedLayout, approximate_gcd, get_kv_cache_groups
from kvcalc.kv.kv_spec import MLAAttentionSpec, SizingContext, SlidingWindowMLASpec, UniformTypeSpec
from kvcalc.kv.planner import blocks_per_request, max_memory_usage_bytes, num_blocks
from kvcalc.units import GiB, cdiv
from kvcalc.verdict import Verdict
from kvcalc.versions import rules_for

CONFIG = Path(__file__).parent.parent / "scripts" / "model_configs" / "deepseek-ai" / "DeepSeek-V4-Flash" / "config.json"
MODEL_ID = "deepseek-ai/DeepSeek-V4-Flash"


def flash():
    return normalize_config(json.loads(CONFIG.read_text(encoding="utf-8")), model_id=MODEL_ID)


def pages(kv_cache_dtype: str) -> dict[str, int]:
    """One layer of each kind: layer 2 is C4A, layer 3 is C128A."""
    specs = build_v4_layer_specs(flash(), kv_cache_dtype=kv_cache_dtype, block_size=256)
    names = {"swa": "model.layers.3.self_attn.swa_cache", "c4a": "model.layers.2.self_attn.attn",
             "c128a": "model.layers.3.self_attn.attn", "indexer": "model.layers.2.self_attn.indexer.k_cache",
             "c4_state": "model.layers.2.self_attn.compressor.state_cache",
             "c128_state": "model.layers.3.self_attn.compressor.state_cache",
             "indexer_state": "model.layers.2.self_attn.indexer.compressor.state_cache"}
    return {k: specs[v].page_size_bytes for k, v in names.items()}


def test_config_and_catalog_agree() -> None:
    m = flash()
    assert m.sparse is not None
    assert m.sparse.compress_ratios == (1, 1) + (4, 128) * 20 + (4,)  # 43 layers; entry 44 (MTP) ignored
    assert (m.head_size, m.sliding_window, m.sparse.indexer_head_size, m.sparse.index_head_dim) == (512, 128, 132, 128)
    # the catalog keeps transformers' layer_types instead of compress_ratios: same ratios
    assert model(MODEL_ID).sparse == m.sparse


def test_layer_specs_count_and_order() -> None:
    specs = build_v4_layer_specs(flash(), kv_cache_dtype="fp8_ds_mla", block_size=256)
    # 43 SWA + 41 compressed MLA + 41 compressor states + 21 indexer K + 21 indexer states = 167
    assert len(specs) == 167
    assert list(specs)[:2] == ["model.layers.0.self_attn.swa_cache", "model.layers.1.self_attn.swa_cache"]
    # registration order inside a C4A layer: indexer K, indexer compressor, SWA, attention, compressor
    assert [n.removeprefix("model.layers.2.self_attn.") for n in list(specs)[2:7]] == [
        "indexer.k_cache", "indexer.compressor.state_cache", "swa_cache", "attn", "compressor.state_cache"]


@pytest.mark.parametrize(("dtype", "expected"), [
    # fp8_ds_mla: see the module docstring
    ("fp8_ds_mla", {"swa": 37_440, "c4a": 37_440, "c128a": 1_728, "indexer": 8_640, "c4_state": 32_832,
                    "c128_state": 32_832, "indexer_state": 8_640}),
    # plain bf16 rows (FlashInfer sparse), pages rounded up to 512: SWA/C4A 64 × 512 × 2 = 65,536,
    # C128A 2 × 512 × 2 = 2,048, indexer 8,448 → 17 × 512 = 8,704, states already multiples of 512
    ("bfloat16", {"swa": 65_536, "c4a": 65_536, "c128a": 2_048, "indexer": 8_704, "c4_state": 32_768,
                  "c128_state": 32_768, "indexer_state": 8_192}),
    # plain fp8 rows: 1 byte per value → 32,768 and 1,024; indexer and fp32 states unchanged
    ("fp8", {"swa": 32_768, "c4a": 32_768, "c128a": 1_024, "indexer": 8_704, "c4_state": 32_768,
             "c128_state": 32_768, "indexer_state": 8_192}),
])
def test_page_sizes_per_kv_dtype(dtype: str, expected: dict[str, int]) -> None:
    assert pages(dtype) == expected


def test_approximate_gcd() -> None:
    assert approximate_gcd([21, 43, 21, 20], lower_bound=21) == 22   # pads 5 (21 would pad 21)
    # ties go to the larger d: [4, 6] from 4 → d 4 pads 2, 5 pads 1 + 4 = 5, 6 pads 2 → 6
    assert approximate_gcd([4, 6], lower_bound=4) == 6
    assert approximate_gcd([30, 31, 30, 31, 30], lower_bound=30) == 31  # V4-Pro-like: pads 1 + 1 + 1 = 3 (30: 58)


def test_flash_fp8_groups_and_stride() -> None:
    specs = build_v4_layer_specs(flash(), kv_cache_dtype="fp8_ds_mla", block_size=256)
    g = get_kv_cache_groups(specs)
    assert g.kind == GroupingKind.PACKED
    assert [len(x.layer_names) for x in g.groups] == [62, 22, 21, 42, 20]
    assert [x.spec.page_size_bytes for x in g.groups] == [1_002_240, 823_680, 786_240, 870_912, 656_640]
    assert g.bytes_per_block == 1_002_240
    assert num_blocks(g, 40 * GiB) == 42_853        # 42,949,672,960 // 1,002,240 (rest 682,240)


def test_flash_fp8_needed_memory_and_estimate() -> None:
    """vLLM 0.22 log of issue #44376 (tests/data/logs/v022_dsv4_flash_2xgh200_tp2_kv_too_small.log): 30,000 tokens,
    F = max_num_batched_tokens 16,384 (offline LLM on GH200): the check prints 6.66 GiB and an estimated
    length of 13528 with 5.44 GiB available. Pages per request at 30,000: MLA cdiv(30,000, 256) = 118;
    SWA cdiv(min(127 + 16,384, 30,000), 64) + 1 = 258 + 1 = 259 (two groups); C4 states
    cdiv(7 + 16,384, 4) + 1 = 4,098 + 1 = 4,099; C128 states cdiv(16,511, 8) + 1 = 2,064 + 1 = 2,065;
    Σ = 6,800 × 1,051,776 = 7,152,076,800 B = 6.661 GiB. The same formula is in v0.22.0's
    _max_memory_usage_bytes_from_groups; 13528 lies inside the window 5.44 ± 0.005 GiB gives."""
    g = get_kv_cache_groups(build_v4_layer_specs(flash(), kv_cache_dtype="fp8_ds_mla", block_size=256))

    def needed(length: int) -> int:
        return max_memory_usage_bytes(g, SizingContext(max_model_len=length, in_flight_tokens=16_384))

    assert needed(30_000) == 6_800 * 1_051_776 == 7_152_076_800
    assert round(needed(30_000) / GiB, 2) == 6.66
    # Below F the sliding caches hold the whole request: at 13,528 MLA cdiv(13,528, 256) = 53,
    # SWA 2 × (cdiv(13,528, 64) + 1 = 213), C4 states cdiv(13,528, 4) + 1 = 3,383, C128 states
    # cdiv(13,528, 8) + 1 = 1,692 → 5,554 pages = 5,841,563,904 B; at 13,529 the C4 (3,383 → 3,384) and C128
    # (1,691 → 1,692) states step → 5,556 pages = 5,843,667,456 B. So vLLM's 13528 means
    # 5.44038 GiB ≤ A < 5.44234 GiB, inside the logged 5.44 ± 0.005 GiB.
    assert needed(13_528) == 5_554 * 1_051_776 == 5_841_563_904
    assert needed(13_529) == 5_556 * 1_051_776 == 5_843_667_456
    assert int(5.435 * GiB) < needed(13_528) < needed(13_529) < int(5.445 * GiB)


def test_flash_fp8_plan_on_h200() -> None:
    """TP 2 on H200 (SM 9: FlashMLA, fp8_ds_mla), 40 GiB measured, 262,144 tokens, vllm serve defaults:
    max_num_batched_tokens 8,192, F = 2 × 8,192 = 16,384. Pages per request: MLA cdiv(262,144, 256) = 1,024,
    SWA 259 × 2, C4 states 4,099, C128 states 2,065 → 7,706 = blocks per request.
    needed = 7,706 × 1,051,776 = 8,104,985,856 B (7.55 GiB). blocks = 42,853 → concurrency 42,853 / 7,706 =
    5.561 → tokens int(5.56099… × 262,144) = 1,457,780."""
    s = scenario_from_inputs({"model": MODEL_ID, "gpu": "H200", "tensor_parallel_size": 2, "available_kv_gib": 40,
                              "max_model_len": 262_144, "kv_cache_dtype": "fp8"})
    v = plan(s.model, s.deployment)
    assert v.in_flight_tokens == 16_384
    assert v.block_size == 256
    assert v.needed_kv_bytes == 8_104_985_856
    assert v.num_gpu_blocks == 42_853
    assert v.blocks_per_request == 7_706
    assert v.gpu_kv_cache_tokens == 1_457_780
    # model construction (layer 0's attention, layer 2's indexer), then the block size set after loading
    assert v.vllm_lines[:3] == ("Using DeepSeek's fp8_ds_mla KV cache format.",
                                "Using FP8 indexer cache for Lightning Indexer.",
                                "Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA backend.")
    assert "GPU KV cache size: 1,457,780 tokens, Maximum concurrency for 262,144 tokens per request: 5.56x" \
        in v.vllm_lines


def test_vllm_packed_concurrency_case() -> None:
    """vLLM tests/v1/core/test_kv_cache_utils.py test_get_max_concurrency_packed_kv_cache_config: 4 MLA layers
    (head 576, fp32, block 16) + 2 sliding MLA (window 128), max_model_len 16,384, 1,024 batched tokens:
    per request cdiv(16,384, 16) = 1,024 + cdiv(min(127 + 1,024, 16,384), 16) + 1 = 73 → 1,097 blocks.
    Pages: MLA 16 × 576 × 4 = 36,864 (× 4 = 147,456), SWA the same (× 2 = 73,728): stride 147,456."""
    mla = {f"layer_{i}": MLAAttentionSpec(block_size=16, num_kv_heads=1, head_size=576, head_size_v=0, dtype_bytes=4)
           for i in range(4)}
    swa = {f"layer_{i}": SlidingWindowMLASpec(block_size=16, num_kv_heads=1, head_size=576, head_size_v=0,
                                              dtype_bytes=4, sliding_window=128) for i in range(4, 6)}
    g = Grouping(groups=(KVCacheGroup(layer_names=tuple(mla), spec=UniformTypeSpec(layer_specs=mla)),
                          KVCacheGroup(layer_names=tuple(swa), spec=UniformTypeSpec(layer_specs=swa))),
                  kind=GroupingKind.PACKED)
    ctx = SizingContext(max_model_len=16_384, in_flight_tokens=1_024)
    assert blocks_per_request(g, ctx, sum_groups=True) == 1_024 + 73
    assert g.bytes_per_block == 147_456
    assert num_blocks(g, 2 * GiB) == 2 * GiB // 147_456


def test_vllm_v4_pro_stride_case() -> None:
    """vLLM tests/v1/core/test_contiguous_kv_packing.py test_deepseek_v4_pro_stride: groups of pages
    full [32,768, 4,608] × 30 + [1,024] × 31, c4 states [32,768, 8,192] × 30, c128 states / SWA [32,768] × 31 / 30:
    the stride is the largest Σ, 30 × (32,768 + 8,192) = 1,228,800."""
    def group(prefix: str, sizes: list[int]) -> KVCacheGroup:
        specs = {f"{prefix}.{i}": MLAAttentionSpec(block_size=256, num_kv_heads=1, head_size=512, head_size_v=0,
                                                   dtype_bytes=1, page_size_padded=p) for i, p in enumerate(sizes)}
        return KVCacheGroup(layer_names=tuple(specs), spec=UniformTypeSpec(layer_specs=specs))

    g = Grouping(groups=(group("full", [32_768, 4_608] * 30 + [1_024] * 31), group("c4_state", [32_768, 8_192] * 30),
                          group("c128_state", [32_768] * 31), group("swa.0", [32_768] * 31),
                          group("swa.1", [32_768] * 30)), kind=GroupingKind.PACKED)
    assert g.bytes_per_block == 1_228_800
    assert num_blocks(g, 1_228_800 * 32) == 32


def test_vllm_compact_cache_case() -> None:
    """vLLM tests/v1/core/test_contiguous_kv_packing.py test_compact_cache_overlays_fp32_state_group: 2 C4A layers
    (plain fp8 page 32,768), their MXFP4 indexer (head 68: 64 × 68 = 4,352 → 9 × 512 = 4,608) and the fp32 states
    (4 × 2,048 × 4 = 32,768; indexer 4 × 512 × 4 = 8,192): groups Σ 2 × (32,768 + 4,608) = 74,752 and
    2 × (32,768 + 8,192) = 81,920 → stride 81,920, and 81,920 × 32 bytes hold 32 blocks."""
    full: dict[str, MLAAttentionSpec | SlidingWindowMLASpec] = {}
    state: dict[str, MLAAttentionSpec | SlidingWindowMLASpec] = {}
    for i in range(2):
        full[f"mla.{i}"] = MLAAttentionSpec(block_size=256, num_kv_heads=1, head_size=512, head_size_v=0, dtype_bytes=1,
                                            compress_ratio=4, page_size_padded=32_768)
        full[f"indexer.{i}"] = MLAAttentionSpec(block_size=256, num_kv_heads=1, head_size=68, head_size_v=0,
                                                dtype_bytes=1, compress_ratio=4, alignment=512)
        for name, head in ((f"mla_state.{i}", 2_048), (f"indexer_state.{i}", 512)):
            state[name] = SlidingWindowMLASpec(block_size=4, num_kv_heads=1, head_size=head, head_size_v=0,
                                               dtype_bytes=4, sliding_window=8)
    assert full["indexer.0"].real_page_size_bytes == 4_352 and full["indexer.0"].page_size_bytes == 4_608
    assert state["indexer_state.0"].page_size_bytes == 8_192
    g = get_kv_cache_groups({**full, **state})
    assert g.kind == GroupingKind.PACKED and len(g.groups) == 2
    assert g.bytes_per_block == 81_920
    assert num_blocks(g, 81_920 * 32) == 32


@pytest.mark.parametrize(("kw", "code"), [
    ({"kv_cache_dtype": "auto"}, "v4_kv_cache_dtype"),        # vLLM asserts fp8 for the fp8_ds_mla layout
    ({"kv_cache_dtype": "bfloat16"}, "v4_kv_cache_dtype"),
    ({"kv_cache_dtype": "fp8", "version": "0.19.1"}, "v4_not_served"),   # before #40860
    ({"kv_cache_dtype": "fp8", "pipeline_parallel_size": 2}, "v4_not_modelled"),
    ({"kv_cache_dtype": "fp8", "block_size": 64}, "v4_not_modelled"),
    ({"kv_cache_dtype": "fp8", "disable_hybrid_kv_cache_manager": True}, "v4_not_modelled"),
])
def test_refusals(kw: dict[str, object], code: str) -> None:
    version = kw.pop("version", None)
    d = replace(deployment(available_gib=40, version=version), max_model_len=32_768, **kw)  # type: ignore[arg-type]
    with pytest.raises(CalcError) as err:
        plan(model(MODEL_ID), d)
    assert err.value.code == code


def test_released_rules_0_27_and_later_plan() -> None:
    """vLLM 0.27.0 (first release with #48993, inferred), no GPU named: 2,048 batched tokens, F = 2 × 2,048 = 4,096.
    Pages per request at 32,768: MLA 128; SWA 2 × (cdiv(127 + 4,096, 64) + 1 = 67); C4 states
    cdiv(7 + 4,096, 4) + 1 = 1,027; C128 states cdiv(4,223, 8) + 1 = 529 → 1,818."""
    v = plan(model(MODEL_ID), replace(deployment(available_gib=40, version="0.27.0"), kv_cache_dtype="fp8",
                                      max_model_len=32_768))
    assert v.in_flight_tokens == 4_096
    assert v.num_gpu_blocks == 42_853 and v.grouping.kind == GroupingKind.PACKED
    assert v.blocks_per_request == 128 + 2 * 67 + 1_027 + 529 == 1_818
    assert cdiv(32_768, 256) == 128


def test_fp4_experts_in_the_weight_estimate() -> None:
    """expert_dtype fp4 (vllm/models/deepseek_v4/quant_config.py): routed experts 43 × 256 × 3 × 4,096 × 2,048 =
    277,025,390,592 parameters at 4 bits + one byte per 32 = 17/32 B → 147,169,738,752 B; the other linear layers
    are block fp8. The config's public source (a model-info report, SOURCES.md) lists 148.66 GB of safetensors
    files, in binary units (its 129,280 × 4,096 bf16 embedding reads "1010.00 MB"): the count lands within 2 %."""
    m = model(MODEL_ID)
    assert m.quant.experts_fp4 and m.num_expert_parameters == 277_025_390_592
    fp8_everywhere = weight_bytes(replace(m, quant=replace(m.quant, experts_fp4=False)))
    # the experts' share drops from fp8 (1 B + 4 B per 128 × 128 block) to 17/32 B per weight
    assert fp8_everywhere - weight_bytes(m) == int(277_025_390_592 * (1 + 4 / 16_384)) - 147_169_738_752
    assert abs(weight_bytes(m) / GiB - 148.66) / 148.66 < 0.02


# -- vLLM 0.20.0–0.26.x: before #48993 ------------------------------------------------------------------

def old_groups(layout: PackedLayout) -> Grouping:
    return get_kv_cache_groups(build_v4_layer_specs(flash(), kv_cache_dtype="fp8_ds_mla", block_size=256),
                               packed_layout=layout)


@pytest.mark.parametrize(("layout", "block"), [(PackedLayout.TUPLES, 1_051_776), (PackedLayout.SLOTS, 1_039_680)])
def test_old_layouts_pad_sliding_pages_and_size_the_block(layout: PackedLayout, block: int) -> None:
    """Module docstring: same groups as main, sliding/state pages padded to the MLA sizes."""
    g = old_groups(layout)
    assert g.kind == GroupingKind.PACKED
    assert [len(x.layer_names) for x in g.groups] == [62, 22, 21, 42, 20]
    assert [x.spec.page_size_bytes for x in g.groups] == [1_002_240, 823_680, 786_240, 967_680, 748_800]
    c4 = g.groups[3].spec
    assert isinstance(c4, UniformTypeSpec)
    assert c4.layer_specs["model.layers.2.self_attn.compressor.state_cache"].page_size_bytes == 37_440    # 32,832
    assert c4.layer_specs["model.layers.2.self_attn.indexer.compressor.state_cache"].page_size_bytes == 8_640
    assert g.bytes_per_block == block
    # 40 GiB = 42,949,672,960 B: // 1,051,776 = 40,835 (rest 400,000); // 1,039,680 = 41,310 (rest 492,160)
    assert num_blocks(g, 40 * GiB) == {1_051_776: 40_835, 1_039_680: 41_310}[block]


def test_old_layouts_keep_the_check() -> None:
    """The check counts pages, so padding does not move it: the 0.22 log's 6,800 × 1,051,776 B at 30,000 tokens."""
    for layout in (PackedLayout.TUPLES, PackedLayout.SLOTS):
        ctx = SizingContext(max_model_len=30_000, in_flight_tokens=16_384)
        assert max_memory_usage_bytes(old_groups(layout), ctx) == 7_152_076_800


def test_old_concurrency_formula() -> None:
    """30,000 tokens, F 16,384 (pages per group as in the 0.22 log's check): MLA 118 × 1,002,240 = 118,264,320;
    SWA 259 × 823,680 = 213,333,120 and 259 × 786,240 = 203,636,160; C4 states 4,099 × 967,680 = 3,966,520,320;
    C128 states 2,065 × 748,800 = 1,546,272,000. Σ 6,048,025,920 / 1,002,240 = 6,034.5 → 6,035 blocks per request
    (the per-group sum of #48317 would give 6,800)."""
    g = old_groups(PackedLayout.TUPLES)
    ctx = SizingContext(max_model_len=30_000, in_flight_tokens=16_384)
    assert blocks_per_request(g, ctx, sum_groups=False) == 6_035
    assert blocks_per_request(g, ctx, sum_groups=True) == 6_800


def _h200(version: str) -> Verdict:
    s = scenario_from_inputs({"model": MODEL_ID, "gpu": "H200", "tensor_parallel_size": 2, "available_kv_gib": 40,
                              "max_model_len": 262_144, "kv_cache_dtype": "fp8", "vllm_version": version})
    return plan(s.model, s.deployment)


@pytest.mark.parametrize(("version", "blocks", "tokens", "concurrency"), [
    # 40,835 / 3,993 = 10.2266… → int(10.2266… × 262,144) = 2,680,854
    ("0.22.0", 40_835, 2_680_854, "10.23x"),
    # 41,310 / 3,993 = 10.3456… → 2,712,038
    ("0.25.1", 41_310, 2_712_038, "10.35x"),
])
def test_plan_on_h200_before_0_26(version: str, blocks: int, tokens: int, concurrency: str) -> None:
    """The H200 example above on 0.22.0 / 0.25.1: before #47728 (0.26.0) F = max_num_batched_tokens = 8,192.
    Pages at 262,144: MLA 1,024; SWA cdiv(127 + 8,192, 64) + 1 = 131 (×2); C4 states cdiv(7 + 8,192, 4) + 1 = 2,051;
    C128 states cdiv(8,319, 8) + 1 = 1,041 → needed 4,378 × 1,051,776 = 4,604,675,328 B (4.29 GiB).
    Blocks per request (old formula): 1,024 × 1,002,240 + 131 × 823,680 + 131 × 786,240 + 2,051 × 967,680
    + 1,041 × 748,800 = 4,001,405,760 → / 1,002,240 = 3,992.5 → 3,993."""
    v = _h200(version)
    assert v.in_flight_tokens == 8_192
    assert v.needed_kv_bytes == 4_604_675_328
    assert v.num_gpu_blocks == blocks and v.blocks_per_request == 3_993
    assert v.gpu_kv_cache_tokens == tokens
    assert f"GPU KV cache size: {tokens:,} tokens" in v.vllm_lines
    assert f"Maximum concurrency for 262,144 tokens per request: {concurrency}" in v.vllm_lines


def test_plan_on_h200_0_26() -> None:
    """0.26.0: #47728's in-flight batches (F = 2 × 8,192 = 16,384), still the slot layout and the old concurrency:
    1,024 × 1,002,240 + 259 × (823,680 + 786,240) + 4,099 × 967,680 + 2,065 × 748,800 = 6,956,055,360
    → / 1,002,240 = 6,940.5 → 6,941 blocks per request; 41,310 / 6,941 = 5.9516 → int(… × 262,144) = 1,560,174."""
    v = _h200("0.26.0")
    assert v.in_flight_tokens == 16_384
    assert v.num_gpu_blocks == 41_310 and v.blocks_per_request == 6_941
    assert v.gpu_kv_cache_tokens == 1_560_174


def test_0_20_lines() -> None:
    """v0.20.0–v0.20.2 spell the indexer line "Lighening" (fixed by #41419, 0.21.0). v0.20.0 predates #41069: tokens
    = num_blocks // len(groups) × min block size = 40,835 // 5 × 4 = 32,668 (kv_cache_utils._report_kv_cache_config)."""
    v = _h200("0.20.0")
    assert "Using FP8 indexer cache for Lighening Indexer." in v.vllm_lines
    assert v.num_gpu_blocks == 40_835 and v.gpu_kv_cache_tokens == 32_668
    assert "Using FP8 indexer cache for Lightning Indexer." in _h200("0.21.0").vllm_lines


@pytest.mark.parametrize(("version", "text"), [
    ("0.22.0", "DeepseekV4 only supports fp8 kv-cache format for now, got auto"),   # DeepseekV4MLAAttention.__init__
    ("0.23.0", "DeepseekV4 FlashMLA fp8 layout only supports fp8 kv-cache, got auto"),   # #44569
    ("0.24.0", "DeepseekV4 fp8_ds_mla layout only supports fp8 kv-cache, got auto"),   # #43477
])
def test_kv_dtype_assertion_text_by_release(version: str, text: str) -> None:
    d = replace(deployment(available_gib=40, version=version), max_model_len=32_768, kv_cache_dtype="auto")
    with pytest.raises(CalcError, match=text) as err:
        plan(model(MODEL_ID), d)
    assert err.value.code == "v4_kv_cache_dtype"
    for lang in ("en", "es", "zh"):  # the guide's languages quote the release's own text
        assert text in error_message(lang, err.value)


def test_before_0_20_is_vllms_unsupported_architecture() -> None:
    """v0.19.1 model_executor/models/registry.py ``_raise_for_unsupported``: no DeepseekV4ForCausalLM in-tree."""
    d = replace(deployment(available_gib=40, version="0.19.1"), max_model_len=32_768, kv_cache_dtype="fp8")
    with pytest.raises(CalcError, match=r"Model architectures \['DeepseekV4ForCausalLM'\] are not supported for now"):
        plan(model(MODEL_ID), d)


def test_vllm_contiguous_packing_fixture_slots() -> None:
    """vLLM v0.25.1 tests/v1/core/test_contiguous_kv_packing.py ``_make_groups(n_c4=3, n_c128=2, n_swa=5)`` with
    ``_run``'s 100 MiB: an MLA group of 3 × 37,440 (C4A) + 3 × 8,640 (indexer) + 2 × 1,728 (C128A) and a SWA group
    of 5 × 37,440. ``_bucket_layers_by_page_size``: 37,440 × max(3, 5) + 8,640 × 3 + 1,728 × 2 = 187,200 + 25,920
    + 3,456 = 216,576 B per block; 104,857,600 // 216,576 = 484 blocks. ``test_all_layers_accounted_for``
    (5, 4, 7): 5 × 2 + 4 + 7 = 21 layers. The 0.20–0.22 rule on the same groups: 47,808 × 5 = 239,040 → 438."""
    def spec(page: int) -> MLAAttentionSpec:
        return MLAAttentionSpec(block_size=256, num_kv_heads=1, head_size=512, head_size_v=0, dtype_bytes=1,
                                page_size_padded=page)

    def groups(n_c4: int, n_c128: int, n_swa: int, layout: PackedLayout) -> Grouping:
        mla = {**{f"c4_mla.{i}": spec(37_440) for i in range(n_c4)}, **{f"c4_idx.{i}": spec(8_640) for i in range(n_c4)},
               **{f"c128_mla.{i}": spec(1_728) for i in range(n_c128)}}
        swa = {f"swa.{i}": spec(37_440) for i in range(n_swa)}
        return Grouping(groups=tuple(KVCacheGroup(layer_names=tuple(d), spec=UniformTypeSpec(layer_specs=d))
                                     for d in (mla, swa)), kind=GroupingKind.PACKED, packed_layout=layout)

    g = groups(3, 2, 5, PackedLayout.SLOTS)
    assert g.bytes_per_block == 216_576 and num_blocks(g, 100 * 1024 * 1024) == 484
    assert sum(len(x.layer_names) for x in groups(5, 4, 7, PackedLayout.SLOTS).groups) == 21
    tuples = groups(3, 2, 5, PackedLayout.TUPLES)
    assert tuples.bytes_per_block == 239_040 and num_blocks(tuples, 100 * 1024 * 1024) == 438


@pytest.mark.parametrize("version", ["0.20.0", "0.22.0", "0.26.0"])
def test_block_128_fails_vllms_page_assertion_before_0_27(version: str) -> None:
    """--block-size 128: C4A pages hold 128 // 4 = 32 tokens, 32 × 584 = 18,688 → 19,008 B, under the fixed 64-token
    SWA page (37,440 B); v0.20.0–v0.25.1 _get_kv_cache_groups_uniform_groups asserts
    max(sm_page_sizes) <= max(all_page_sizes). From #48993 nothing is padded and 128 plans."""
    d = replace(deployment(available_gib=40, version=version), max_model_len=32_768, kv_cache_dtype="fp8", block_size=128)
    with pytest.raises(CalcError, match="19,008 B") as err:
        plan(model(MODEL_ID), d)
    assert err.value.code == "v4_block_too_small"
    assert plan(model(MODEL_ID), replace(d, rules=rules_for("0.27.0"))).num_gpu_blocks
