"""Mamba / linear-attention hybrids: state pages, block-size alignment, cache modes, capacity.

Hand-worked from the catalog's config values with the rules in the hybrid notes (vLLM main
7cfb97e3; the same rules at the pinned 6adad087): vllm/model_executor/layers/mamba/mamba_utils.py
(state shapes and dtypes), vllm/platforms/interface.py ``_align_hybrid_block_size``,
vllm/model_executor/models/config.py ``MambaModelConfig``, vllm/v1/kv_cache_interface.py
``MambaSpec``, vllm/v1/core/kv_cache_utils.py (groups, check, capacity). The cases of vLLM's own
tests are at the end. A = 60 GiB = 64,424,509,440 B where a test says so.
"""
from __future__ import annotations

import pytest
from factories import deployment, model, plan_with, replace, run

from kvcalc.arch.model import LayerKind, MambaMixer, normalize_config
from kvcalc.errors import CalcError
from kvcalc.inputs import scenario_from_inputs
from kvcalc.kv.grouping import GroupingKind, get_kv_cache_groups
from kvcalc.kv.hybrid import plan_mamba
from kvcalc.kv.kv_spec import FullAttentionSpec, MambaCacheMode, MambaSpec, SizingContext
from kvcalc.kv.planner import blocks_per_request, estimate_max_model_len, max_memory_usage_bytes

QWEN3_NEXT = "Qwen/Qwen3-Next-80B-A3B-Instruct"
NEMOTRON = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
QWEN36 = "Qwen/Qwen3.6-27B"
KIMI = "moonshotai/Kimi-Linear-48B-A3B-Instruct"
JAMBA = "ai21labs/AI21-Jamba-1.5-Mini"

SETTING = "Setting attention block size to {} tokens to ensure that attention page size is >= mamba page size."
PADDING = "Padding mamba page size by {} to ensure that mamba page size and attention page size are exactly equal."
# NemotronHForCausalLMConfig: --mamba-ssm-cache-dtype auto becomes the config's mamba_ssm_cache_dtype (float32).
NEMOTRON_SSM = "Updating mamba_ssm_cache_dtype to 'float32' for NemotronH model"


def _mamba(model_id: str, **kw: object):
    m = model(model_id)
    dep = deployment(available_gib=60, **kw)
    return plan_mamba(m, dep, max_model_len=m.derived_max_model_len)


# --- layer kinds from the configs ------------------------------------------------------------

def test_layer_kinds_of_the_catalog_hybrids() -> None:
    # Qwen3-Next: full_attention_interval 4 -> layers 3, 7, ..., 47 full (12), 36 Gated DeltaNet.
    q = model(QWEN3_NEXT)
    assert q.layer_kinds.count(LayerKind.FULL) == 12 and q.layer_kinds.count(LayerKind.MAMBA) == 36
    assert [i for i, k in enumerate(q.layer_kinds) if k == LayerKind.FULL][:3] == [3, 7, 11]
    assert q.mamba is not None and q.mamba.mixer == MambaMixer.GDN and q.mamba.ssm_dtype is None
    # Nemotron-3-Nano: hybrid_override_pattern 23 M, 6 *, 23 E (MoE, no cache).
    n = model(NEMOTRON)
    assert (n.layer_kinds.count(LayerKind.MAMBA), n.layer_kinds.count(LayerKind.FULL),
            n.layer_kinds.count(LayerKind.NONE)) == (23, 6, 23)
    assert n.mamba is not None and n.mamba.mixer == MambaMixer.MAMBA2 and n.mamba.ssm_dtype == "float32"
    # Kimi-Linear: full_attn_layers [4, 8, 12, 16, 20, 24, 27] (1-based) are MLA, the other 20 KDA.
    k = model(KIMI)
    assert [i for i, x in enumerate(k.layer_kinds) if x == LayerKind.MLA] == [3, 7, 11, 15, 19, 23, 26]
    assert k.layer_kinds.count(LayerKind.MAMBA) == 20 and k.head_size == 576
    # Jamba-1.5-Mini: attention where i % 8 == 4.
    j = model(JAMBA)
    assert [i for i, x in enumerate(j.layer_kinds) if x == LayerKind.FULL] == [4, 12, 20, 28]
    assert model(QWEN36).mamba.ssm_dtype == "float32"  # text_config mamba_ssm_dtype
    assert {m.architecture for m in (q, n, k, j)} == {"mamba"}


def test_raw_config_and_catalog_agree() -> None:
    # The pasted config.json (hybrid_override_pattern) and the catalog's transformers-resolved
    # layer_types ("linear_attention", "moe", "full_attention") give the same layers.
    import json
    from pathlib import Path
    raw = json.loads(Path(__file__).resolve().parent.parent.joinpath(
        "scripts/model_configs/nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16/config.json").read_text())
    assert normalize_config(raw).layer_kinds == model(NEMOTRON).layer_kinds
    assert normalize_config(raw).mamba == model(NEMOTRON).mamba


# --- block-size alignment (notes section 8, recomputed) ---------------------------------------

def test_qwen3_next_alignment_tp1() -> None:
    # GDN conv_dim = 2*16*128 + 32*128 = 8192 -> conv (3, 8192) bf16 = 49,152 B;
    # temporal (32, 128, 128) bf16 (no ssm hook for Qwen3-Next) = 1,048,576 B -> page 1,097,728.
    # attn_tok = 2 KV heads * (256 + 256) * 2 B = 2,048. block = 16 * cdiv(1,097,728, 16 * 2,048)
    # = 16 * cdiv(1,097,728, 32,768) = 16 * 34 = 544; attention page 544 * 2,048 = 1,114,112;
    # padding 16,384 / 1,097,728 = 1.4925% -> "1.49%". Prefix caching on (default) -> align.
    p = _mamba(QWEN3_NEXT)
    assert p.shapes == ((3, 8192), (32, 128, 128)) and p.dtypes == ("bfloat16", "bfloat16")
    assert p.mamba_page_size_bytes == 1_097_728
    assert (p.attention_block_size, p.mamba_page_size_padded) == (544, 1_114_112)
    assert p.mamba_cache_mode == MambaCacheMode.ALIGN and p.mamba_block_size == 544
    assert p.lines == (SETTING.format(544), PADDING.format("1.49%"))


def test_qwen3_next_alignment_tp4() -> None:
    # conv (3, 8192/4 = 2048) = 12,288 B; temporal (32/4 = 8, 128, 128) = 262,144 B -> 274,432.
    # attn_tok = max(1, 2 // 4) = 1 head * 512 * 2 = 1,024; block = 16 * cdiv(274,432, 16,384) = 16 * 17 = 272;
    # page 272 * 1,024 = 278,528; padding 4,096 / 274,432 = 1.4925% -> "1.49%".
    p = _mamba(QWEN3_NEXT, tensor_parallel_size=4)
    assert p.mamba_page_size_bytes == 274_432
    assert (p.attention_block_size, p.mamba_page_size_padded) == (272, 278_528)
    assert p.lines == (SETTING.format(272), PADDING.format("1.49%"))


def test_nemotron_h_alignment_tp1_and_tp4() -> None:
    # Mamba2: I = 64*64 = 4096, G = 8, N = 128, K = 4, H = 64, P = 64; ssm float32 (config key).
    # TP1: conv (3, 4096 + 2*8*128 = 6144) bf16 = 36,864; temporal (64, 64, 128) f32 = 2,097,152
    # -> 2,134,016. attn_tok = 2 * 256 * 2 = 1,024; block = 16 * cdiv(2,134,016, 16,384) = 16 * 131 = 2,096;
    # page 2,146,304; padding 12,288 / 2,134,016 = 0.5758% -> "0.58%".
    p = _mamba(NEMOTRON)
    assert p.dtypes == ("bfloat16", "float32") and p.mamba_page_size_bytes == 2_134_016
    assert (p.attention_block_size, p.mamba_page_size_padded) == (2096, 2_146_304)
    assert p.lines == (NEMOTRON_SSM, SETTING.format(2096), PADDING.format("0.58%"))
    # TP4: 8 groups % 4 == 0 (no extra groups): conv (3, 1536) = 9,216; temporal (16, 64, 128) f32 = 524,288
    # -> 533,504. attn_tok = 1 * 256 * 2 = 512; block = 16 * cdiv(533,504, 8,192) = 16 * 66 = 1,056;
    # page 540,672; padding 7,168 / 533,504 = 1.3436% -> "1.34%".
    p4 = _mamba(NEMOTRON, tensor_parallel_size=4)
    assert p4.mamba_page_size_bytes == 533_504
    assert (p4.attention_block_size, p4.mamba_page_size_padded) == (1056, 540_672)
    assert p4.lines == (NEMOTRON_SSM, SETTING.format(1056), PADDING.format("1.34%"))


def test_nemotron_h_all_mode_aligns_to_the_chunk() -> None:
    # "all" (Nemotron-H supports Mamba prefix caching): chunk = lcm(chunk_size 128, 16) = 128;
    # tokens per state = cdiv(2,134,016, 1,024) = 2,084 -> block = 128 * cdiv(2,084, 128) = 128 * 17 = 2,176,
    # Mamba block too; page 2,228,224; padding 94,208 / 2,134,016 = 4.4146% -> "4.41%".
    # (0.31.0: the last release with 'all', removed from MambaCacheMode in 0.32.0)
    p = _mamba(NEMOTRON, mamba_cache_mode="all", version="0.31.0")
    assert p.mamba_cache_mode == MambaCacheMode.ALL
    assert (p.attention_block_size, p.mamba_block_size, p.mamba_page_size_padded) == (2176, 2176, 2_228_224)
    assert p.lines == (NEMOTRON_SSM, SETTING.format(2176), PADDING.format("4.41%"))
    # TP4: cdiv(533,504, 512) = 1,042 -> 128 * 9 = 1,152; page 589,824; 56,320 / 533,504 = 10.557% -> "10.56%".
    p4 = _mamba(NEMOTRON, mamba_cache_mode="all", tensor_parallel_size=4, version="0.31.0")
    assert p4.attention_block_size == 1152 and p4.lines[2] == PADDING.format("10.56%")


def test_all_mode_falls_back_to_align_without_model_support() -> None:
    # Qwen3-Next is not SupportsMambaPrefixCaching: 'all' -> 'align' with vLLM's warning first.
    p = _mamba(QWEN3_NEXT, mamba_cache_mode="all", version="0.31.0")   # 'all' exists up to 0.31.x
    assert p.mamba_cache_mode == MambaCacheMode.ALIGN and p.attention_block_size == 544
    assert p.lines[0] == ("Hybrid or mamba-based model detected without support for prefix caching with "
                          "Mamba cache 'all' mode: falling back to 'align' mode.")


def test_qwen36_ssm_state_dtype() -> None:
    # Qwen3.6-27B: conv_dim = 2*16*128 + 48*128 = 10,240 -> conv (3, 10,240) bf16 = 61,440;
    # temporal (48, 128, 128) float32 (mamba_ssm_dtype) = 3,145,728 -> 3,207,168.
    # attn_tok = 4 * 512 * 2 = 4,096; block = 16 * cdiv(3,207,168, 65,536) = 16 * 49 = 784;
    # page 3,211,264; padding 4,096 / 3,207,168 = 0.1277% -> "0.13%".
    p = _mamba(QWEN36)
    assert p.mamba_page_size_bytes == 3_207_168 and p.attention_block_size == 784
    assert p.lines[1] == PADDING.format("0.13%")
    # --mamba-ssm-cache-dtype bfloat16: temporal 1,572,864 -> 1,634,304; 16 * cdiv(1,634,304, 65,536) = 16 * 25 = 400;
    # page 1,638,400; 4,096 / 1,634,304 = 0.2506% -> "0.25%".
    b = _mamba(QWEN36, mamba_ssm_cache_dtype="bfloat16")
    assert b.dtypes == ("bfloat16", "bfloat16") and b.mamba_page_size_bytes == 1_634_304
    assert b.attention_block_size == 400 and b.lines[1] == PADDING.format("0.25%")
    # --kv-cache-dtype fp8 changes only the attention side: attn_tok 2,048 -> 16 * cdiv(3,207,168, 32,768) = 16 * 98 = 1,568.
    assert _mamba(QWEN36, kv_cache_dtype="fp8").attention_block_size == 1568


def test_kimi_linear_mla_aligns_to_128() -> None:
    # KDA, H = 32, D = 128, K = 4, TP 2: conv (3, 3*32*128/2 = 6,144) bf16 = 36,864;
    # recurrent (16, 128, 128) float32 always = 1,048,576 -> 1,085,440. MLA attn_tok = 576 * 2 = 1,152.
    # kalign = max(16, 128) = 128: block = 128 * cdiv(1,085,440, 147,456) = 128 * 8 = 1,024;
    # page 1,179,648; padding 94,208 / 1,085,440 = 8.679% -> "8.68%".
    p = _mamba(KIMI, tensor_parallel_size=2)
    assert p.dtypes == ("bfloat16", "float32") and p.mamba_page_size_bytes == 1_085_440
    assert p.attention_block_size == 1024 and p.lines == (SETTING.format(1024), PADDING.format("8.68%"))
    # Before #37467 (0.20.0) the alignment was 64 for MLA: 64 * cdiv(1,085,440, 73,728) = 64 * 15 = 960.
    old = plan_mamba(model(KIMI), deployment(available_gib=60, tensor_parallel_size=2, version="0.11.0"),
                     max_model_len=120000)
    assert old.attention_block_size == 960 and old.mamba_cache_mode == MambaCacheMode.NONE


def test_user_block_size() -> None:
    # --block-size 64: kalign = max(16, 64) = 64 -> 64 * cdiv(1,097,728, 64 * 2,048 = 131,072) = 64 * 9 = 576
    # (raised, logged); page 1,179,648; 81,920 / 1,097,728 = 7.4627% -> "7.46%".
    p = _mamba(QWEN3_NEXT, block_size=64)
    assert p.attention_block_size == 576 and p.lines == (SETTING.format(576), PADDING.format("7.46%"))
    # Before #37467 the user's block did not enter the alignment: 16-aligned 544 > 64 -> 544.
    old = _mamba(QWEN3_NEXT, block_size=64, version="0.19.0")
    assert old.attention_block_size == 544
    # A user block that already holds a Mamba page is kept, no "Setting" line. Jamba-1.5-Mini
    # (Mamba1, I = 2*4096 = 8192, N = 16, K = 4): conv (3, 8192) + ssm (8192, 16), both bf16
    # = 49,152 + 262,144 = 311,296; attn_tok = 8 * 256 * 2 = 4,096. Default: 16 * cdiv(311,296, 65,536) = 80.
    assert _mamba(JAMBA).attention_block_size == 80
    # --block-size 128: kalign 128 -> 128 * cdiv(311,296, 524,288) = 128, not above 128: kept.
    # Page 524,288; padding 212,992 / 311,296 = 68.42%.
    kept = _mamba(JAMBA, block_size=128)
    assert kept.attention_block_size == 128 and kept.lines == (PADDING.format("68.42%"),)


# --- cache mode and per-request memory --------------------------------------------------------

def test_mamba_spec_per_request_memory_by_mode() -> None:
    # page 1,114,112 (padded), block 544, L = 262,144: none (1 + S), align (2 + S), all (cdiv(L, 544) + S = 482 + S).
    ctx = SizingContext(max_model_len=262_144)
    base = MambaSpec(block_size=544, shapes=((3, 8192), (32, 128, 128)), dtypes=("bfloat16", "bfloat16"),
                     page_size_padded=1_114_112)
    page = 1_114_112
    assert base.real_page_size_bytes == 1_097_728 and base.page_size_bytes == page
    expected = {MambaCacheMode.NONE: 1, MambaCacheMode.ALIGN: 2, MambaCacheMode.ALL: 482}
    for mode, pages in expected.items():
        assert replace(base, mamba_cache_mode=mode).max_memory_usage_bytes(ctx) == pages * page
        # two speculative tokens: S = 2 more pages in every mode
        assert replace(base, mamba_cache_mode=mode, num_speculative_blocks=2).max_memory_usage_bytes(ctx) == (pages + 2) * page
    # No DCP division for Mamba states.
    assert replace(base, mamba_cache_mode=MambaCacheMode.ALL).max_memory_usage_bytes(
        SizingContext(max_model_len=262_144, dcp=2)) == 482 * page


def test_prefix_caching_default_by_release() -> None:
    # #40996 (first in 0.28.0, read in the wheels: 0.26.0-0.27.1 keep "Hybrid models support prefix caching but
    # keep it opt-in for now"): generative hybrids get prefix caching, so 'align'; before, 'none'.
    assert _mamba(QWEN3_NEXT, version="0.28.0").mamba_cache_mode == MambaCacheMode.ALIGN
    assert _mamba(QWEN3_NEXT, version="0.27.1").mamba_cache_mode == MambaCacheMode.NONE
    old = _mamba(QWEN3_NEXT, version="0.25.1")
    assert (old.enable_prefix_caching, old.mamba_cache_mode, old.mamba_block_size) == (False, MambaCacheMode.NONE, 262_144)
    assert old.attention_block_size == 544  # the alignment does not depend on the mode (none/align)
    # Explicit flags win over the default; a mode without prefix caching falls back with vLLM's warning.
    off = _mamba(QWEN3_NEXT, enable_prefix_caching=False, mamba_cache_mode="align")
    assert off.mamba_cache_mode == MambaCacheMode.NONE
    assert off.lines[0] == "Mamba cache mode is set to 'none' when prefix caching is disabled"
    assert _mamba(QWEN3_NEXT, version="0.25.1", enable_prefix_caching=True).mamba_cache_mode == MambaCacheMode.ALIGN


def test_qwen36_35b_prefix_caching_asked_on_0_24_is_align() -> None:
    # vLLM 0.24.0 (before #40996: hybrids default to no prefix caching), --enable-prefix-caching asked:
    # MambaModelConfig.verify_and_update_config -> 'align' (Qwen3.5 GDN lacks SupportsMambaPrefixCaching),
    # MambaSpec.max_memory_usage_bytes = (2 + 0) * page per GDN layer (v0.24.0 vllm/v1/kv_cache_interface.py).
    # nvidia/Qwen3.6-35B-A3B-NVFP4, fp8 KV, max_model_len 131,072 (tests/data/logs/v0240_qwen36_35b_a3b_nvfp4_5090.log):
    # 30 GDN + 10 full -> group_size 10: 3 GDN groups + 1 attention group.
    # GDN page: conv (3, 8,192) bf16 = 49,152 + temporal (32, 128, 128) float32 = 2,097,152 -> 2,146,304;
    # fp8 attention 2 * 2 * 256 * 1 = 1,024 B/token -> block 16 * cdiv(2,146,304, 16,384) = 16 * 131 = 2,096,
    # page 2,146,304 (no padding). Block id 10 * 2,146,304 = 21,463,040; A = 300 block ids exactly.
    # Align: cdiv(131,072, 2,096) + 3 * 2 = 63 + 6 = 69 per request -> 300 / 69 = 4.3478x,
    # int(300 * 131,072 / 69) = 569,878 (the log's figure). None: 63 + 3 = 66 -> 4.5454x, 595,781.
    kw: dict[str, object] = {"available_bytes": 300 * 21_463_040, "version": "0.24.0", "kv_cache_dtype": "fp8",
                             "max_model_len": 131_072, "max_num_seqs": 1}
    a = run("nvidia/Qwen3.6-35B-A3B-NVFP4", enable_prefix_caching=True, **kw)
    assert a.mamba is not None and a.mamba.mamba_cache_mode == MambaCacheMode.ALIGN and a.block_size == 2096
    assert [len(g.layer_names) for g in a.grouping.groups] == [10, 10, 10, 10]
    assert a.grouping.bytes_per_block == 21_463_040
    assert (a.num_gpu_blocks, a.blocks_per_request, a.gpu_kv_cache_tokens) == (300, 69, 569_878)
    assert a.vllm_lines[-1] == "Maximum concurrency for 131,072 tokens per request: 4.35x"
    n = run("nvidia/Qwen3.6-35B-A3B-NVFP4", **kw)  # 0.24.0's default: no prefix caching, 'none'
    assert n.mamba is not None and n.mamba.mamba_cache_mode == MambaCacheMode.NONE
    assert (n.num_gpu_blocks, n.blocks_per_request, n.gpu_kv_cache_tokens) == (300, 66, 595_781)


def test_mamba_cache_mode_needs_0_15() -> None:
    # mamba_cache_mode arrived with #30877 (0.15.0).
    with pytest.raises(CalcError) as e:
        _mamba(QWEN3_NEXT, version="0.14.0", mamba_cache_mode="align")
    assert e.value.field == "mamba_cache_mode"


# --- whole plans: groups, capacity, concurrency, the check -----------------------------------

def test_qwen3_next_capacity_tp1() -> None:
    # Groups: 36 GDN / 12 attention -> group_size 12 (36 >= 1.5 * 12): 3 GDN groups + 1 attention group, no padding.
    # One block id = 12 * 1,114,112 = 13,369,344 B; num_blocks = 64,424,509,440 // 13,369,344 = 4,818.
    # Align: blocks per request = cdiv(262,144, 544) + 3 * 2 = 482 + 6 = 488 -> 4,818 / 488 = 9.8729x,
    # tokens int(4,818 * 262,144 / 488) = 2,588,134. Needed = 13,369,344 * 488 = 6,524,239,872 B (6.08 GiB).
    v = run(QWEN3_NEXT, available_gib=60)
    assert v.fits and v.grouping.kind == GroupingKind.HYBRID
    assert [len(g.layer_names) for g in v.grouping.groups] == [12, 12, 12, 12]
    assert v.grouping.bytes_per_block == 13_369_344 and v.block_size == 544
    assert (v.num_gpu_blocks, v.blocks_per_request, v.gpu_kv_cache_tokens) == (4818, 488, 2_588_134)
    assert v.needed_kv_bytes == 6_524_239_872
    assert v.vllm_lines == (
        SETTING.format(544), PADDING.format("1.49%"), "Available KV cache memory: 60.0 GiB",
        "GPU KV cache size: 2,588,134 tokens, Maximum concurrency for 262,144 tokens per request: 9.87x")
    # Attention bytes per token only (the GDN states do not grow): 12 layers * 2,048 = 24,576.
    assert v.kv_bytes_per_token == 24_576


def test_qwen3_next_capacity_tp4_and_none_mode() -> None:
    # TP4: one block id = 12 * 278,528 = 3,342,336; 64,424,509,440 // 3,342,336 = 19,275;
    # per request cdiv(262,144, 272) + 6 = 964 + 6 = 970 -> 19.8711x, int(19,275 * 262,144 / 970) = 5,209,098.
    v = run(QWEN3_NEXT, available_gib=60, tensor_parallel_size=4)
    assert (v.num_gpu_blocks, v.blocks_per_request, v.gpu_kv_cache_tokens) == (19_275, 970, 5_209_098)
    assert v.vllm_lines[-1].endswith("19.87x")
    # No prefix caching ('none'): 482 + 3 * 1 = 485 per request -> 4,818 / 485 = 9.934x, int(...) = 2,604,143.
    n = run(QWEN3_NEXT, available_gib=60, enable_prefix_caching=False)
    assert (n.num_gpu_blocks, n.blocks_per_request, n.gpu_kv_cache_tokens) == (4818, 485, 2_604_143)
    assert n.vllm_lines[-1] == "GPU KV cache size: 2,604,143 tokens, Maximum concurrency for 262,144 tokens per request: 9.93x"


def test_nemotron_h_capacity() -> None:
    # 23 Mamba / 6 attention -> group_size 6: Mamba groups 6, 6, 6, 5 (1 padding layer, 1/23 = 4.35%) + 1 attention.
    # One block id = 6 * 2,146,304 = 12,877,824; 64,424,509,440 // 12,877,824 = 5,002;
    # per request cdiv(262,144, 2,096) + 4 * 2 = 126 + 8 = 134 -> 37.328x, int(5,002 * 262,144 / 134) = 9,785,405.
    v = run(NEMOTRON, available_gib=60)
    assert "Add 1 padding layers, may waste at most 4.35% KV cache memory" in v.vllm_lines
    assert (v.num_gpu_blocks, v.blocks_per_request, v.gpu_kv_cache_tokens) == (5002, 134, 9_785_405)
    assert v.vllm_lines[-1] == "GPU KV cache size: 9,785,405 tokens, Maximum concurrency for 262,144 tokens per request: 37.33x"
    # TP4: 6 * 540,672 = 3,244,032 -> 19,859 blocks; cdiv(262,144, 1,056) + 8 = 249 + 8 = 257 -> 77.27x.
    v4 = run(NEMOTRON, available_gib=60, tensor_parallel_size=4)
    assert (v4.num_gpu_blocks, v4.blocks_per_request) == (19_859, 257) and v4.vllm_lines[-1].endswith("77.27x")
    # 'all' mode: block 2,176, page 2,228,224, block id 6 * 2,228,224 = 13,369,344 -> 4,818 blocks;
    # every group holds cdiv(262,144, 2,176) = 121 blocks: 5 * 121 = 605 per request -> 7.963x.
    a = run(NEMOTRON, available_gib=60, mamba_cache_mode="all", version="0.31.0")   # 'all' is gone from 0.32.0
    assert (a.num_gpu_blocks, a.blocks_per_request) == (4818, 605) and a.vllm_lines[-1].endswith("7.96x")


def test_nemotron_h_pipeline_parallel_splits_all_52_layers() -> None:
    # PP 2 splits the 52 decoder layers 26 / 26 (MoE blocks included). Stage 0 holds 12 M + 3 *,
    # stage 1 11 M + 3 *; the strided Mamba groups keep 3, 3, 3, 3 and 3, 3, 3, 2 layers, attention 3 and 3:
    # block id = 3 * 2,146,304 = 6,438,912 -> 64,424,509,440 // 6,438,912 = 10,005 on both;
    # 134 per request -> 74.664x, int(10,005 * 262,144 / 134) = 19,572,766.
    v = run(NEMOTRON, available_gib=60, pipeline_parallel_size=2)
    assert [s.num_layers for s in v.stages] == [26, 26]
    assert (v.num_gpu_blocks, v.gpu_kv_cache_tokens) == (10_005, 19_572_766)


def test_check_and_estimated_length() -> None:
    # A = 1 GiB: 1,073,741,824 // 13,369,344 = 80 block ids; the default (0.33.0) rules hold one back for the
    # null block (#47272, 0.29.0): the check compares against 1,073,741,824 − 13,369,344 = 1,060,372,480 B
    # (79 ids, printed round(0.98755, 2) = "0.99 GiB"); the 3 GDN groups pin 2 each (align), leaving 73 attention
    # blocks -> est = 73 * 544 = 39,712 (needed(39,712) = 79 ids = 1,056,178,176 <= 1,060,372,480; needed(39,713)
    # = 80 ids > it). 80 ids and 40,256 before 0.29 (tests/test_releases_2026.py). Needed at 262,144 =
    # 6,524,239,872 B -> "6.08 GiB".
    v = run(QWEN3_NEXT, available_gib=1)
    assert not v.fits and v.estimated_max_model_len == 39_712
    assert v.error_text == (
        "To serve at least one request with the model's max seq len (262144), (6.08 GiB KV cache is needed, which is "
        "larger than the available KV cache memory (0.99 GiB). Based on the available memory, the estimated maximum "
        "model length is 39712. Try increasing `gpu_memory_utilization` (which also controls CPU memory on the CPU "
        "backend) or decreasing `max_model_len` when initializing the engine. See "
        "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.")
    # (max_num_seqs 64: the default 256 is above the 80 Mamba cache blocks, see the next-but-one test)
    auto = run(QWEN3_NEXT, available_gib=1, max_model_len=-1, max_num_seqs=64)
    assert auto.fits and auto.max_model_len == 39_712   # 73 × 544, as above; the 0.32+ line
    assert ("Auto-fit max_model_len: reduced from 262144 to 39712 to fit in available KV cache memory "
            "(0.99 GiB GPU)") in auto.vllm_lines
    # The Mamba groups are a fixed cost: below 6 usable block ids nothing fits (6 ids less the null block:
    # 6 * 13,369,344 = 80,216,064 B).
    tiny = run(QWEN3_NEXT, available_bytes=6 * 13_369_344)
    assert not tiny.fits and tiny.estimated_max_model_len == 0


def test_fp8_kv_cache_only_touches_attention() -> None:
    # fp8: attn_tok 1,024 -> block 16 * cdiv(1,097,728, 16,384) = 16 * 67 = 1,072, page 1,097,728 (no padding line);
    # the GDN state stays bf16. Block id 12 * 1,097,728 = 13,172,736 -> 4,890 blocks;
    # cdiv(262,144, 1,072) + 6 = 245 + 6 = 251 per request -> 19.48x.
    v = run(QWEN3_NEXT, available_gib=60, kv_cache_dtype="fp8")
    assert v.vllm_lines[0] == SETTING.format(1072) and not any(x.startswith("Padding") for x in v.vllm_lines)
    assert (v.num_gpu_blocks, v.blocks_per_request) == (4890, 251) and v.vllm_lines[-1].endswith("19.48x")


# --- refusals and inputs ----------------------------------------------------------------------

def test_vllm_refusals() -> None:
    # HMA off: unify_hybrid_kv_cache_specs cannot promote Mamba layers.
    with pytest.raises(CalcError, match="Failed to promote local KV cache specs to one unified type."):
        run(QWEN3_NEXT, available_gib=60, disable_hybrid_kv_cache_manager=True)
    # vLLM asserts exact TP division of the state dimensions (GDN conv_dim 8,192 over 3 GPUs).
    with pytest.raises(CalcError) as e:
        run(QWEN3_NEXT, available_gib=60, tensor_parallel_size=3)
    assert e.value.code == "mamba_tp_not_divisor"
    # Bamba and MiniMax-Text-01 were removed (#45990, #45993): served up to 0.23.0 only.
    bamba = normalize_config({"model_type": "bamba", "num_hidden_layers": 4, "num_attention_heads": 8, "hidden_size": 512,
                              "num_key_value_heads": 2, "attn_layer_indices": [2], "mamba_n_heads": 16, "mamba_d_head": 64,
                              "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_n_groups": 1, "mamba_expand": 2})
    with pytest.raises(CalcError) as e:
        plan_with(bamba, available_gib=10)
    assert e.value.code == "model_removed" and "0.23.0" in str(e.value)
    assert plan_with(bamba, available_gib=10, version="0.23.0").fits


def test_unsupported_stateful_models_are_named() -> None:
    for mt in ("falcon_h1", "zamba2", "mamba2", "plamo2"):
        with pytest.raises(CalcError) as e:
            normalize_config({"model_type": mt, "num_hidden_layers": 4, "num_attention_heads": 8, "hidden_size": 512})
        assert e.value.code == "unsupported_architecture" and mt in str(e.value)


def test_inputs_and_cli_flags() -> None:
    s = scenario_from_inputs({"model": QWEN3_NEXT, "available_kv_gib": "60", "enable_prefix_caching": "false",
                              "mamba_cache_mode": "align", "mamba_ssm_cache_dtype": "float32"})
    d = s.deployment
    assert (d.enable_prefix_caching, d.mamba_cache_mode, d.mamba_ssm_cache_dtype) == (False, "align", "float32")
    import io

    from kvcalc.faces.cli import main
    out = io.StringIO()
    assert main(["plan", "--model", QWEN3_NEXT, "--available-kv-gib", "60", "--no-enable-prefix-caching", "--json"],
                stdout=out) == 0
    assert "2,604,143 tokens" in out.getvalue()


# --- vLLM's own tests (tests/v1/core/test_kv_cache_utils.py helpers; notes section 7) ----------
# new_kv_cache_spec(): FullAttention block 16, 2 KV heads, head 64, float32 -> 16 * 2 * 128 * 4 = 16,384 B.
# new_mamba_spec(): block 16, shapes ((2, 512), (3, 32, 32)) float32, S = 2, mode none -> (1,024 + 3,072) * 4 = 16,384 B.

def _attn(**kw: object) -> FullAttentionSpec:
    args = dict(block_size=16, num_kv_heads=2, head_size=64, head_size_v=64, dtype_bytes=4)
    args.update(kw)
    return FullAttentionSpec(**args)  # type: ignore[arg-type]


def _mamba_spec(**kw: object) -> MambaSpec:
    args = dict(block_size=16, shapes=((2, 512), (3, 32, 32)), dtypes=("float32", "float32"), num_speculative_blocks=2)
    args.update(kw)
    return MambaSpec(**args)  # type: ignore[arg-type]


def test_vllm_new_mamba_spec_page() -> None:
    assert _attn().page_size_bytes == 16_384 and _mamba_spec().page_size_bytes == 16_384


def test_vllm_auto_fit_max_model_len_with_hybrid() -> None:
    # test_auto_fit_max_model_len_with_hybrid: layer_1 Mamba (S = 2), layer_2 full attention, max_model_len 8192,
    # A = 16,384 * (1024 // 16 + 1 + 2 + 1) = 16,384 * 68. One group each, group_size 1.
    # needed(L) = 16,384 * (cdiv(L, 16) + 3). At vLLM N (#47272, null block) the search compares against
    # A - 16,384 * 1 = 67 pages: cdiv(L, 16) <= 64 -> 1,024, the test's expectation.
    g = get_kv_cache_groups({"layer_1": _mamba_spec(), "layer_2": _attn()})
    assert g.kind == GroupingKind.HYBRID and g.group_size == 1

    def needed(n: int) -> int:
        return max_memory_usage_bytes(g, SizingContext(max_model_len=n))

    available = 16_384 * 68
    assert estimate_max_model_len(needed, available - g.bytes_per_block, 8192) == 1024
    # The pinned rules (6adad087, before #47272) compare against A itself: cdiv(L, 16) <= 65 -> 1,040.
    assert estimate_max_model_len(needed, available, 8192) == 1040


def test_vllm_uniform_type_block_table_width() -> None:
    # test_uniform_type_spec_block_table_width_matches_layer_spec[mamba-2-3]: two new_mamba_spec() layers,
    # max_model_len 1024, DCP 2 -> one uniform group, 1 + S = 3 blocks per request (no DCP division).
    g = get_kv_cache_groups({"a": _mamba_spec(), "b": _mamba_spec()})
    assert g.kind == GroupingKind.UNIFORM
    assert blocks_per_request(g, SizingContext(max_model_len=1024, dcp=2), sum_groups=True) == 3


def _specs_after_grouping(specs: dict) -> dict:
    g = get_kv_cache_groups(specs)
    return {name: grp.spec for grp in g.groups for name in grp.layer_names}


def test_vllm_unify_kv_cache_spec_page_size_mamba() -> None:
    # case 1: mamba 16,384 + attention 16,384 + draft attention (4 KV heads) 32,768:
    # the Mamba page is padded to 32,768 (block 16 kept), the main attention block doubles to 32, the draft is unchanged.
    out = _specs_after_grouping({"mamba": _mamba_spec(), "attn": _attn(), "draft": _attn(num_kv_heads=4)})
    assert (out["mamba"].page_size_bytes, out["mamba"].block_size) == (32_768, 16)
    assert out["attn"].block_size == 32 and out["draft"] == _attn(num_kv_heads=4)
    # case 2: shapes ((2, 256), (3, 32, 32)) = (512 + 3,072) * 4 = 14,336, already padded to 16,384 -> 32,768.
    out = _specs_after_grouping({"mamba": _mamba_spec(shapes=((2, 256), (3, 32, 32)), page_size_padded=16_384),
                                 "draft": _attn(num_kv_heads=4)})
    assert out["mamba"].page_size_bytes == 32_768
    # case 3: shapes ((6144,),) float32 = 24,576 (does not divide 32,768) -> padded to 32,768.
    out = _specs_after_grouping({"mamba": _mamba_spec(shapes=((6144,),), dtypes=("float32",)),
                                 "draft": _attn(num_kv_heads=4)})
    assert out["mamba"].page_size_bytes == 32_768
    # case 4 (attention block 24 = 24,576 B beside 32,768: NotImplementedError in vLLM's test, whose spec has no
    # block-stride backend) is not expressible: the calculator assumes FlashAttention-family backends, which pad.
    # case 5: mamba 16,384 + attention 16,384 -> unchanged.
    out = _specs_after_grouping({"mamba": _mamba_spec(), "attn": _attn()})
    assert out == {"mamba": _mamba_spec(), "attn": _attn()}


def test_vllm_hidden_state_group_pages() -> None:
    # test_hidden_state_group_preserves_hybrid_prefix_cache_granularity (the page part; hidden-state groups and
    # connectors are not modelled): FullAttention block 544, 1 KV head, head 512, bf16 = 544 * 1 * 1,024 * 2
    # = 1,114,112; MambaSpec block 544, shape (557,056,) bf16 = 1,114,112: one page, no unification.
    attn = FullAttentionSpec(block_size=544, num_kv_heads=1, head_size=512, head_size_v=512, dtype_bytes=2)
    mamba = MambaSpec(block_size=544, shapes=((557_056,),), dtypes=("bfloat16",), mamba_cache_mode=MambaCacheMode.ALIGN)
    assert attn.page_size_bytes == mamba.page_size_bytes == 1_114_112
    g = get_kv_cache_groups({"attn": attn, "mamba": mamba})
    assert g.page_size_bytes == 1_114_112 and g.min_block_size == 544


def test_max_num_seqs_above_mamba_blocks_stops_cuda_graph_capture() -> None:
    # Qwen3.6-27B, TP 2, fp8 KV, A = 5.33 GiB = 5,723,043,921 B (a 2x RTX 3090 log's figure, without its MTP drafter):
    # conv (3, 10,240/2 = 5,120) bf16 = 30,720 + temporal (24, 128, 128) f32 = 1,572,864 -> 1,603,584;
    # attn_tok = 2 * 512 * 1 = 1,024 -> block 16 * cdiv(1,603,584, 16,384) = 16 * 98 = 1,568; page 1,605,632.
    # 48 GDN / 16 attention -> 4 groups of 16: block id 25,690,112 -> 5,723,043,921 // 25,690,112 = 222 blocks;
    # per request cdiv(262,144, 1,568) + 3 * 2 = 168 + 6 = 174 -> 1.2759x, int(222 * 262,144 / 174) = 334,459.
    # max_num_seqs defaults to 256 (< 70 GiB GPU) > 222 blocks: FULL CUDA graphs cannot be captured (#32936).
    v = run(QWEN36, available_gib=5.33, tensor_parallel_size=2, kv_cache_dtype="fp8", max_model_len=262_144)
    assert v.status == "mamba_blocks_below_max_num_seqs" and not v.fits
    assert (v.num_gpu_blocks, v.blocks_per_request, v.gpu_kv_cache_tokens) == (222, 174, 334_459)
    assert v.vllm_lines[-2] == "GPU KV cache size: 334,459 tokens, Maximum concurrency for 262,144 tokens per request: 1.28x"
    assert v.error_text == (
        "max_num_seqs (256) exceeds available Mamba cache blocks (222). Each decode sequence requires one Mamba "
        "cache block, so CUDA graph capture cannot proceed. Please lower max_num_seqs to at most 222 or increase "
        "gpu_memory_utilization.")
    from kvcalc.advice import recommend
    from kvcalc.inputs import Scenario
    recs = recommend(Scenario(model=v.model, deployment=v.deployment, model_label=QWEN36), v)
    assert recs[0].settings == {"max_num_seqs": 222} and recs[0].fits
    # Not with --max-num-seqs 2 (the logs' setting), not with --enforce-eager, not before 0.20.0.
    for kw in ({"max_num_seqs": 2}, {"enforce_eager": True}, {"version": "0.19.0"}):
        assert run(QWEN36, available_gib=5.33, tensor_parallel_size=2, kv_cache_dtype="fp8", max_model_len=262_144,
                   **kw).fits, kw


def test_before_mamba_cache_mode_prefix_caching_is_disabled() -> None:
    # vLLM 0.13.0 (before #30877), Qwen3-Next, TP 2, fp8 KV, --enable-prefix-caching, max_model_len 32,768:
    # Qwen3-Next lacks Mamba prefix caching -> disabled (one state per request).
    # conv (3, 4,096) bf16 = 24,576 + temporal (16, 128, 128) bf16 = 524,288 -> 548,864;
    # attn_tok = 1 * 512 * 1 = 512 -> block 16 * cdiv(548,864, 8,192) = 16 * 67 = 1,072, page 548,864: no padding.
    # Block id 12 * 548,864 = 6,586,368; A = 2,866 block ids. Tokens the old way (before #41069):
    # 2,866 // 4 groups * 1,072 = 767,552; per request cdiv(32,768, 1,072) + 3 = 31 + 3 = 34 -> 84.29x.
    v = run(QWEN3_NEXT, available_bytes=2866 * 6_586_368, version="0.13.0", tensor_parallel_size=2,
            kv_cache_dtype="fp8", max_model_len=32_768, enable_prefix_caching=True, max_num_seqs=8)
    assert v.mamba.mamba_cache_mode == MambaCacheMode.NONE and not v.mamba.enable_prefix_caching
    assert v.vllm_lines == (
        "Hybrid or mamba-based model detected without support for prefix caching: disabling.",
        SETTING.format(1072), "Available KV cache memory: 17.58 GiB", "GPU KV cache size: 767,552 tokens",
        "Maximum concurrency for 32,768 tokens per request: 84.29x")
    # Nemotron-H supported it: prefix caching cached a state per block (today's 'all'), chunk-aligned block 2,176.
    n = run(NEMOTRON, available_gib=60, version="0.13.0", enable_prefix_caching=True)
    assert n.mamba.mamba_cache_mode == MambaCacheMode.ALL and n.block_size == 2176


def test_state_shapes_per_mixer() -> None:
    from kvcalc.arch.model import MambaConfig
    from kvcalc.kv.kv_spec import mamba_state_shapes
    # Mamba2 with G = 1 < TP 4: extra_groups_for_head_shards pads G to 4. I = 3,072, N = 128, H = 48, P = 64, K = 4:
    # conv (3, (3,072 + 2*4*128) / 4 = 1,024), temporal (48/4 = 12, 64, 128); at TP 1: (3, 3,072 + 2*1*128 = 3,328).
    m2 = MambaConfig(mixer=MambaMixer.MAMBA2, intermediate_size=3072, n_groups=1, num_heads=48, head_dim=64,
                     state_size=128, conv_kernel=4)
    assert mamba_state_shapes(m2, tensor_parallel_size=4) == ((3, 1024), (12, 64, 128))
    assert mamba_state_shapes(m2, tensor_parallel_size=1) == ((3, 3328), (48, 64, 128))
    # two speculative tokens add conv rows: (3 + 2, ...)
    assert mamba_state_shapes(m2, tensor_parallel_size=1, num_spec=2)[0] == (5, 3328)
    # Mamba1 (Jamba: I = 8,192, N = 16, K = 4) at TP 2: (3, 4,096), (4,096, 16).
    m1 = MambaConfig(mixer=MambaMixer.MAMBA1, intermediate_size=8192, state_size=16, conv_kernel=4)
    assert mamba_state_shapes(m1, tensor_parallel_size=2) == ((3, 4096), (4096, 16))
    # Short conv (LFM2: C = 2,048, K = 3) at TP 2: one state (2, 1,024).
    sc = MambaConfig(mixer=MambaMixer.SHORT_CONV, conv_dim=2048, conv_kernel=3)
    assert mamba_state_shapes(sc, tensor_parallel_size=2) == ((2, 1024),)
    # Linear attention (MiniMax: H = 64, D = 128): floor division, 64 // 3 = 21 heads.
    la = MambaConfig(mixer=MambaMixer.LINEAR_ATTENTION, num_heads=64, head_dim=128)
    assert mamba_state_shapes(la, tensor_parallel_size=3) == ((21, 128, 128),)


def test_other_hybrid_families_normalize() -> None:
    # Granite-4.0-H style layer_types; a config whose layers are all attention is not hybrid (granite-4.0-micro).
    granite = {"model_type": "granitemoehybrid", "num_hidden_layers": 4, "num_attention_heads": 12, "hidden_size": 1536,
               "num_key_value_heads": 4, "layer_types": ["mamba", "mamba", "attention", "mamba"], "mamba_n_heads": 48,
               "mamba_d_head": 64, "mamba_d_state": 128, "mamba_d_conv": 4, "mamba_n_groups": 1, "mamba_expand": 2}
    g = normalize_config(granite)
    assert g.layer_kinds == (LayerKind.MAMBA, LayerKind.MAMBA, LayerKind.FULL, LayerKind.MAMBA)
    assert g.mamba.intermediate_size == 3072 and g.mamba.supports_all_mode
    micro = normalize_config({**granite, "layer_types": ["attention"] * 4})
    assert micro.mamba is None and set(micro.layer_kinds) == {LayerKind.FULL}
    # LFM2: "conv" layers keep a short-conv state of conv_dim channels.
    lfm2 = normalize_config({"model_type": "lfm2", "num_hidden_layers": 3, "num_attention_heads": 16, "hidden_size": 1024,
                             "num_key_value_heads": 8, "layer_types": ["conv", "full_attention", "conv"],
                             "conv_L_cache": 3, "conv_dim": 1024, "max_position_embeddings": 128000})
    assert lfm2.layer_kinds == (LayerKind.MAMBA, LayerKind.FULL, LayerKind.MAMBA)
    assert lfm2.mamba.mixer == MambaMixer.SHORT_CONV and lfm2.mamba.conv_dim == 1024
    # MiniMax-Text-01: attn_type_list 0 = lightning (linear) attention, 1 = softmax attention.
    mm = normalize_config({"model_type": "minimax", "num_hidden_layers": 4, "num_attention_heads": 64, "hidden_size": 6144,
                           "num_key_value_heads": 8, "head_dim": 128, "attn_type_list": [0, 0, 0, 1]})
    assert mm.layer_kinds == (LayerKind.MAMBA,) * 3 + (LayerKind.FULL,) and mm.mamba.head_dim == 128
    # A small LFM2 plans end to end: conv (2, 1,024) bf16 = 4,096 B; head 1,024 / 16 = 64,
    # attn_tok = 8 heads * (64 + 64) * 2 = 2,048 B/token
    # -> block 16 * cdiv(4,096, 32,768) = 16 (no raise, no line); page 32,768, padding 28,672 / 4,096 = 700.00%.
    v = plan_with(lfm2, available_gib=1, max_model_len=4096)
    assert v.block_size == 16 and v.vllm_lines[0] == PADDING.format("700.00%")
