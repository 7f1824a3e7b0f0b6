"""The quantized KV cache dtypes of vLLM 0.20+ (calc/kv/kv_dtypes.py), worked by hand for Qwen3-8B.

Qwen3-8B (scripts/model_configs/Qwen/Qwen3-8B/config.json): 36 layers, 8 KV heads, head_dim 128, bf16.
Bytes one KV head of one token takes, K and V together (vLLM's page-size code, vllm_releases.json):
  bf16                  (128 + 128) × 2                         = 512
  nvfp4                 2 × (128 // 2 + 128 // 16) = 2 × (64 + 8) = 144   (fp4 data + one fp8 scale per 16)
  int8/fp8_per_token_head (128 + 128) × 1 + 2 × 4 (fp32 scales)  = 264
  int4_per_token_head   (128 // 2 + 128 // 2) × 1 + 2 × 4        = 136
Per token: × 8 heads × 36 layers; one block id (16 tokens): × 16.
"""
from __future__ import annotations

import io
import json

import pytest
from factories import plan_with

from kvcalc import plan
from kvcalc.arch.model import normalize_config
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.faces.report import error_message
from kvcalc.inputs import scenario_from_inputs
from kvcalc.kv.kv_dtypes import turboquant_slot_bytes
from kvcalc.kv.kv_spec import KV_CACHE_DTYPES

PER_TOKEN = {"auto": 36 * 8 * 512, "nvfp4": 36 * 8 * 144, "int8_per_token_head": 36 * 8 * 264,
             "fp8_per_token_head": 36 * 8 * 264, "int4_per_token_head": 36 * 8 * 136}


def _plan(**inputs: object):
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", **inputs})
    return plan(s.model, s.deployment)


@pytest.mark.parametrize(("dtype", "per_token", "block_id"), [
    ("auto", 147_456, 2_359_296),                    # 36 × 8 × 512; × 16
    ("nvfp4", 41_472, 663_552),                      # 36 × 8 × 144 = 41,472; × 16 = 663,552
    ("int8_per_token_head", 76_032, 1_216_512),      # 36 × 8 × 264 = 76,032; × 16
    ("fp8_per_token_head", 76_032, 1_216_512),
    ("int4_per_token_head", 39_168, 626_688),        # 36 × 8 × 136 = 39,168; × 16
])
def test_bytes_per_token_and_page(dtype: str, per_token: int, block_id: int) -> None:
    v = _plan(available_kv_gib="60", kv_cache_dtype=dtype, max_model_len="32768")
    assert v.kv_bytes_per_token == per_token == PER_TOKEN[dtype]
    assert v.grouping.bytes_per_block == block_id
    page = v.grouping.groups[0].spec.page_size_bytes
    assert page == block_id // 36                      # one layer's page: 16 tokens × 8 heads × content
    # one request of 32,768 tokens: cdiv(32,768, 16) = 2,048 block ids
    assert v.needed_kv_bytes == 2048 * block_id


def test_nvfp4_is_about_3_5_times_bf16() -> None:
    # 512 / 144 = 3.56 × the tokens of bf16 in the same memory (reported as "about 3×")
    assert PER_TOKEN["auto"] / PER_TOKEN["nvfp4"] == pytest.approx(3.5556, abs=1e-4)


def test_rtx_5090_plans_nvfp4() -> None:
    # 0.33.0 (the default): FlashInfer runs nvfp4 on compute capability 12.0 through FA2 (head size 128, no sinks)
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-5090", "--kv-cache-dtype", "nvfp4", "--json"],
                stdout=out, stderr=err, stdin=io.StringIO())
    result = json.loads(out.getvalue())
    assert code == 0 and err.getvalue() == "" and result["fits"] is True
    assert result["kv_bytes_per_token"] == 41_472 and result["kv_cache_dtype"] == "nvfp4"


def _refused(**inputs: object) -> CalcError:
    with pytest.raises(CalcError) as info:
        _plan(**inputs)
    return info.value


def test_releases_that_take_each_dtype() -> None:
    # CacheDType: nvfp4 and the int8/fp8 per-token-head modes from v0.20.0, int4_per_token_head from v0.25.0
    e = _refused(available_kv_gib="10", kv_cache_dtype="int4_per_token_head", vllm_version="0.24.0")
    assert e.code == "kv_dtype_release" and e.params["limit"] == "0.25.0"
    assert _plan(available_kv_gib="10", kv_cache_dtype="int4_per_token_head", vllm_version="0.25.0").kv_bytes_per_token \
        == 39_168
    e = _refused(available_kv_gib="10", kv_cache_dtype="int8_per_token_head", vllm_version="0.19.1")
    assert e.code == "kv_dtype_release" and e.params["limit"] == "0.20.0"
    # the per-token-head scales were budgeted in the page from the start (0.20–0.27 page_size_bytes, 0.28+ inline)
    assert _plan(available_kv_gib="10", kv_cache_dtype="fp8_per_token_head", vllm_version="0.20.0").kv_bytes_per_token \
        == 76_032


def test_nvfp4_gpu_and_release_gates() -> None:
    # 0.20.x: FlashInferMetadataBuilder raises NotImplementedError("nvfp4 KV cache is not yet supported")
    assert _refused(gpu="B200", kv_cache_dtype="nvfp4", vllm_version="0.20.2").code == "kv_dtype_not_implemented"
    # 0.21.0 – 0.31.x: compute capability 10.x only (TRT-LLM)
    assert _plan(gpu="B200", kv_cache_dtype="nvfp4", vllm_version="0.21.0").kv_bytes_per_token == 41_472
    e = _refused(gpu="H100-80GB", kv_cache_dtype="nvfp4", vllm_version="0.31.0")
    assert e.code == "kv_dtype_gpu" and (e.params["key"], e.params["limit"]) == ("9.0", "10.x")
    assert _refused(gpu="RTX-5090", kv_cache_dtype="nvfp4", vllm_version="0.31.0").code == "kv_dtype_gpu"
    # 0.32.0+: 8.0 – 12.1 through FA2 as well; not Turing, not ROCm
    assert _plan(gpu="H100-80GB", kv_cache_dtype="nvfp4", vllm_version="0.32.0").kv_bytes_per_token == 41_472
    assert _plan(gpu="A100-80GB", kv_cache_dtype="nvfp4").fits in (True, False)
    e = _refused(gpu="T4", kv_cache_dtype="nvfp4")
    assert e.code == "kv_dtype_gpu" and (e.params["key"], e.params["limit"]) == ("7.5", "8.0–12.1")
    assert _refused(gpu="MI300X", kv_cache_dtype="nvfp4").code == "kv_dtype_rocm"


def test_nvfp4_head_size_64_only_on_blackwell_datacentre() -> None:
    # supports_combination (0.32+): on 8.x/9.x/12.x "fa2 prefill misreads an NVFP4 KV cache at head_size 64"
    tiny = normalize_config({"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4,
                             "num_key_value_heads": 2, "hidden_size": 256, "intermediate_size": 1024,
                             "vocab_size": 1000, "max_position_embeddings": 4096, "torch_dtype": "bfloat16"},
                            model_id="tiny")
    assert tiny.head_size == 64
    with pytest.raises(CalcError) as info:
        plan_with(tiny, available_gib=1, kv_cache_dtype="nvfp4", gpu_name="NVIDIA GeForce RTX 5090")
    assert info.value.code == "kv_dtype_head_size"
    # on a B200 (10.0) TRT-LLM runs it: 2 layers × 2 heads × 2 × (32 + 4) = 288 B per token
    v = plan_with(tiny, available_gib=1, kv_cache_dtype="nvfp4", gpu_name="NVIDIA B200")
    assert v.kv_bytes_per_token == 288


def test_not_modelled_layouts_are_refused_with_the_reason() -> None:
    for name in ("turboquant_k8v4", "turboquant_4bit_nc", "turboquant_k3v4_nc", "turboquant_3bit_nc"):
        assert _refused(available_kv_gib="10", kv_cache_dtype=name).code == "kv_dtype_turboquant"
    with pytest.raises(CalcError) as info:   # MLA: one latent vector per token, not K and V heads
        sc = scenario_from_inputs({"model": "deepseek-ai/DeepSeek-V3", "available_kv_gib": "10",
                                   "kv_cache_dtype": "nvfp4"})
        plan(sc.model, sc.deployment)
    assert info.value.code == "kv_dtype_layout"
    with pytest.raises(CalcError) as info:   # a Mamba hybrid
        sc = scenario_from_inputs({"model": "Qwen/Qwen3-Next-80B-A3B-Instruct", "available_kv_gib": "10",
                                   "kv_cache_dtype": "int8_per_token_head"})
        plan(sc.model, sc.deployment)
    assert info.value.code == "kv_dtype_layout"
    # a name vLLM 0.33 does not have stays a bad choice naming the list
    e = _refused(available_kv_gib="10", kv_cache_dtype="int2_per_token_head")
    assert e.code == "bad_choice" and "int4_per_token_head" in str(e)


def test_choices_and_messages_in_three_languages() -> None:
    assert KV_CACHE_DTYPES[:9] == ("auto", "bfloat16", "float16", "float32", "fp8", "fp8_e4m3", "fp8_e5m2",
                                   "fp8_inc", "fp8_ds_mla")   # the old contract first, unchanged
    assert {"nvfp4", "int8_per_token_head", "fp8_per_token_head", "int4_per_token_head"} <= set(KV_CACHE_DTYPES)
    e = _refused(gpu="T4", kv_cache_dtype="nvfp4")
    texts = {lang: error_message(lang, e) for lang in ("en", "es", "zh")}
    assert "7.5" in texts["en"] and "8.0–12.1" in texts["es"] and "nvfp4" in texts["zh"]
    assert len(set(texts.values())) == 3


def test_cli_takes_every_listed_dtype_and_refuses_turboquant_with_the_reason() -> None:
    # argparse choices are the core's list, in its order (the old nine first)
    for name in ("turboquant_3bit_nc", "turboquant_k3v4_nc"):
        out, err = io.StringIO(), io.StringIO()
        code = main(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--kv-cache-dtype", name],
                    stdout=out, stderr=err, stdin=io.StringIO())
        lines = err.getvalue().splitlines()
        assert code == 2 and out.getvalue() == "" and len(lines) == 1 and "is not modelled yet" in lines[0]


def test_nvfp4_4over6_and_the_other_names_of_0_33() -> None:
    # nvfp4_4over6 (0.28.0): the nvfp4 page (every nvfp4* but nvfp4_ds_mla maps to KVQuantMode.NVFP4), 41,472 B
    # per token on Qwen3-8B, and only on compute capability 10.x (the 0.32+ FA2 path takes plain nvfp4 only)
    assert _plan(gpu="B200", kv_cache_dtype="nvfp4_4over6").kv_bytes_per_token == 41_472
    e = _refused(gpu="RTX-5090", kv_cache_dtype="nvfp4_4over6")
    assert e.code == "kv_dtype_gpu" and (e.params["key"], e.params["limit"]) == ("12.0", "10.x")
    e = _refused(gpu="B200", kv_cache_dtype="nvfp4_4over6", vllm_version="0.27.1")
    assert e.code == "kv_dtype_release" and e.params["limit"] == "0.28.0"
    # accepted by 0.33 (CacheDType) but not modelled: refused with that reason, after the release check
    for name, since in (("nvfp4_ds_mla", "0.30.0"), ("ultraquant_4bit", "0.32.0"), ("octave_k3v4", "0.33.0"),
                        ("octave_k3v3", "0.33.0"), ("octave_k3v3_compact", "0.33.0")):
        assert name in KV_CACHE_DTYPES
        assert _refused(available_kv_gib="10", kv_cache_dtype=name).code == "kv_dtype_not_modelled"
        older = ".".join(since.split(".")[:1] + [str(int(since.split(".")[1]) - 1)] + ["0"])
        e = _refused(available_kv_gib="10", kv_cache_dtype=name, vllm_version=older)
        assert e.code == "kv_dtype_release" and e.params["limit"] == since


@pytest.mark.parametrize(("dtype", "head_size", "slot"), [
    # TurboQuantConfig (vllm/model_executor/layers/quantization/turboquant/config.py,
    # v0.20.0 … v0.25.1): key = d (fp8) or ceil(d × bits / 8) + 2 (fp16 norm);
    # value = ceil(d × bits / 8) + 4 (fp16 scale + zero); slot = key + value rounded up to even.
    ("turboquant_k8v4", 128, 196),      # 128 + (64 + 4) = 196
    ("turboquant_4bit_nc", 128, 134),   # (64 + 2) + (64 + 4) = 134
    ("turboquant_k3v4_nc", 128, 118),   # (48 + 2) + (64 + 4) = 118
    ("turboquant_3bit_nc", 128, 102),   # (48 + 2) + (48 + 4) = 102
    ("turboquant_k3v4_nc", 256, 230),   # (96 + 2) + (128 + 4) = 230
    ("turboquant_k8v4", 80, 124),       # 80 + (40 + 4) = 124
    ("turboquant_k8v4", 66, 104),       # 66 + (ceil(264 / 8) = 33, + 4) = 103 → even: 104
    ("turboquant_3bit_nc", 72, 60),     # ceil(216 / 8) = 27: (27 + 2) + (27 + 4) = 60, already even
])
def test_turboquant_slot_bytes_by_hand(dtype: str, head_size: int, slot: int) -> None:
    assert turboquant_slot_bytes(dtype, head_size=head_size) == slot


def test_turboquant_refusal_names_the_quantized_layers_bytes() -> None:
    # Qwen3-8B (head 128): a quantized layer's token is 8 KV heads × 118 B = 944 B against
    # 8 × 512 = 4,096 B in bf16; the refusal states the per-head figure in each language
    e = _refused(available_kv_gib="10", kv_cache_dtype="turboquant_k3v4_nc")
    assert e.code == "kv_dtype_turboquant" and e.params["key"] == "118"
    for lang in ("en", "es", "zh"):
        assert "118 B" in error_message(lang, e)
