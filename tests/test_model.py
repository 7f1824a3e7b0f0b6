"""``model.normalize_config``: a config.json resolved the way vLLM reads it.

Every expected value is worked by hand from vLLM's rules (CONTRIBUTING.md §2.3, §2.4 and
``vllm/config/model.py``; vLLM main 6adad087…) with the arithmetic in
the comment beside it, never read back from the code. Small inline dicts are test
inputs, not claims about real models; where a real model is named, its facts come
from the catalog's config (``kvcalc.catalog.find_model(id).config``) or the vendored
config.json under ``scripts/model_configs/`` and the comment quotes the values used.

Where vLLM reads a config through ``transformers``, the transformers rule is quoted:
Qwen2Config / Qwen3Config derive ``layer_types`` as "sliding iff sliding_window is set
(use_sliding_window) and i >= max_window_layers"; Gemma3TextConfig makes layer i full iff
``(i + 1) % sliding_window_pattern == 0`` (default 6); Gemma2Config and GptOssConfig make
even layers sliding.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kvcalc.arch.model import LayerKind, ModelSpec, WeightQuant, normalize_config
from kvcalc.catalog import find_model
from kvcalc.errors import CalcError

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "scripts" / "model_configs"

FULL, SLIDING, CHUNKED, MLA = LayerKind.FULL, LayerKind.SLIDING, LayerKind.CHUNKED, LayerKind.MLA


def cfg(**over: object) -> dict[str, object]:
    """A small Llama-like config with vLLM-like defaults; ``over`` replaces or adds keys (None drops one)."""
    base: dict[str, object] = {
        "model_type": "llama", "num_hidden_layers": 4, "num_attention_heads": 32, "num_key_value_heads": 8,
        "hidden_size": 4096, "intermediate_size": 11008, "vocab_size": 32000, "max_position_embeddings": 4096,
        "torch_dtype": "bfloat16",
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


def norm(config: dict[str, object]) -> ModelSpec:
    return normalize_config(config)


def catalog(model_id: str) -> ModelSpec:
    entry = find_model(model_id)
    return normalize_config(entry.config, model_id=entry.id, num_parameters=entry.num_parameters)


def vendored(model_id: str) -> dict[str, object]:
    """The raw config.json as published (scripts/model_configs/SOURCES.md gives each file's source)."""
    return json.loads((CONFIGS / model_id / "config.json").read_text(encoding="utf-8"))


def kinds(*runs: tuple[LayerKind, int]) -> tuple[LayerKind, ...]:
    """``kinds((FULL, 2), (SLIDING, 3))`` → (full, full, sliding, sliding, sliding)."""
    return tuple(k for kind, n in runs for k in [kind] * n)


# ---- head size (CONTRIBUTING.md §2.3) ------------------------------------------------------------------------

@pytest.mark.parametrize(("over", "head_size"), [
    # no head_dim: hidden_size // num_attention_heads = 4096 // 32
    ({}, 128),
    # a declared head_dim wins over hidden/heads (4096 // 32 = 128 ≠ 256)
    ({"head_dim": 256}, 256),
    # head_dim 0 or null means "not given": 4096 // 32
    ({"head_dim": 0}, 128),
    ({"head_dim": None}, 128),
    # hidden_size_per_head is the next fallback (before hidden // heads)
    ({"hidden_size_per_head": 96}, 96),
    # hidden 3584 / 28 heads (Qwen2.5-7B-shaped) = 128
    ({"hidden_size": 3584, "num_attention_heads": 28, "num_key_value_heads": 4}, 128),
])
def test_head_size_inline(over, head_size):
    m = norm(cfg(**over))
    assert m.head_size == head_size
    assert m.head_size_v == head_size          # value head size defaults to the key head size


@pytest.mark.parametrize(("model_id", "head_size"), [
    # gemma-2-9b-it: head_dim 256 while hidden_size 3584 / 16 heads = 224: the declared 256 wins
    ("google/gemma-2-9b-it", 256),
    # Mistral-Small-3.1-24B: head_dim 128 while hidden_size 5120 / 32 heads = 160
    ("mistralai/Mistral-Small-3.1-24B-Instruct-2503", 128),
    # Llama-3.1-8B declares no head_dim: 4096 / 32 = 128
    ("meta-llama/Llama-3.1-8B-Instruct", 128),
    # Qwen3-8B: head_dim 128 (= 4096 / 32 too)
    ("Qwen/Qwen3-8B", 128),
])
def test_head_size_catalog(model_id, head_size):
    assert catalog(model_id).head_size == head_size


@pytest.mark.parametrize("model_id", ["google/gemma-3-4b-it", "google/gemma-3-12b-it"])
def test_gemma3_default_head_dim(model_id):
    # gemma-3-4b-it / 12b-it config.json text_config has no head_dim; transformers' Gemma3TextConfig
    # default is head_dim=256 (SOURCES.md: litgpt's entries give head_size=256 for both), which vLLM uses.
    assert catalog(model_id).head_size == 256


# ---- KV heads (CONTRIBUTING.md §2.3) -----------------------------------------------------------------------------

@pytest.mark.parametrize(("over", "kv_heads", "architecture"), [
    # GQA: num_key_value_heads 8 of 32 attention heads
    ({}, 8, "gqa"),
    # MHA: no KV-head key at all → num_attention_heads = 32
    ({"num_key_value_heads": None}, 32, "mha"),
    # MQA: one KV head
    ({"num_key_value_heads": 1}, 1, "gqa"),
    # the alternative names vLLM reads, in its order: n_head_kv, num_kv_heads, num_key_value_heads,
    # multi_query_group_num, num_attention_groups
    ({"num_key_value_heads": None, "n_head_kv": 4}, 4, "gqa"),
    ({"num_key_value_heads": None, "num_kv_heads": 2}, 2, "gqa"),
    ({"num_key_value_heads": None, "multi_query_group_num": 2}, 2, "gqa"),   # ChatGLM
    ({"num_key_value_heads": None, "num_attention_groups": 4}, 4, "gqa"),
    # the first name in vLLM's list wins: n_head_kv 4 before num_key_value_heads 8
    ({"n_head_kv": 4}, 4, "gqa"),
    # Falcon without new_decoder_architecture and with multi_query → 1
    ({"model_type": "falcon", "num_key_value_heads": None, "multi_query": True}, 1, "gqa"),
    # Falcon with new_decoder_architecture reads num_kv_heads
    ({"model_type": "falcon", "num_key_value_heads": None, "new_decoder_architecture": True, "num_kv_heads": 8},
     8, "gqa"),
    # MPT/DBRX: attn_config.kv_n_heads
    ({"model_type": "dbrx", "num_key_value_heads": None, "attn_config": {"kv_n_heads": 8}}, 8, "gqa"),
])
def test_kv_heads(over, kv_heads, architecture):
    m = norm(cfg(**over))
    assert m.total_num_kv_heads == kv_heads
    assert m.architecture == architecture


def test_kv_heads_catalog():
    # Qwen2.5-7B-Instruct: num_key_value_heads 4 of 28 attention heads
    assert catalog("Qwen/Qwen2.5-7B-Instruct").total_num_kv_heads == 4
    # phi-4: num_key_value_heads 10 of 40
    assert catalog("microsoft/phi-4").total_num_kv_heads == 10


# ---- which layers slide (CONTRIBUTING.md §2.3) -------------------------------------------------------------------

QWEN2 = dict(model_type="qwen2", num_hidden_layers=28, num_attention_heads=28, num_key_value_heads=4,
             hidden_size=3584, max_position_embeddings=32768)


def test_qwen2_sliding_window_ignored_without_use_sliding_window():
    # Qwen2.5 configs carry sliding_window 131072 with use_sliding_window false: transformers sets
    # sliding_window = None, every layer is full attention.
    m = norm(cfg(**QWEN2, sliding_window=131072, use_sliding_window=False, max_window_layers=28))
    assert m.layer_kinds == kinds((FULL, 28)) and m.sliding_window is None
    # the catalog's Qwen2.5-7B-Instruct: use_sliding_window false, layer_types all full_attention
    c = catalog("Qwen/Qwen2.5-7B-Instruct")
    assert c.layer_kinds == kinds((FULL, 28)) and c.sliding_window is None
    # Qwen3-8B: use_sliding_window false, sliding_window null → 36 full layers
    assert catalog("Qwen/Qwen3-8B").layer_kinds == kinds((FULL, 36))


def test_qwen2_use_sliding_window_from_layer_zero():
    # use_sliding_window true, max_window_layers 0: i >= 0 for every layer → all 28 sliding, so
    # layer_types are all sliding_attention and vLLM applies the model-level window 4096 to all.
    m = norm(cfg(**QWEN2, sliding_window=4096, use_sliding_window=True, max_window_layers=0))
    assert m.layer_kinds == kinds((SLIDING, 28)) and m.sliding_window == 4096
    assert m.architecture == "sliding"


def test_qwen2_layer_types_given():
    # layer_types as transformers writes them for max_window_layers 20 of 28 (layers 20–27 sliding).
    # Not 20 full + 8 sliding layers: vLLM does not build that: Qwen2Model asserts
    # max_window_layers == num_hidden_layers whenever the layer types mix (main 26d725c3 qwen2.py
    # ``len(set(layer_types)) > 1``; v0.10.1–v0.25.1 ``is_interleaved``), so 20 ≠ 28 is refused.
    types = ["full_attention"] * 20 + ["sliding_attention"] * 8
    with pytest.raises(CalcError) as e:
        norm(cfg(**QWEN2, sliding_window=4096, use_sliding_window=True, max_window_layers=20, layer_types=types))
    assert e.value.code == "unsupported" and e.value.field == "config"
    # With max_window_layers 28 the assert passes, but Qwen2Attention passes no per-layer window and
    # create_engine_config sets CacheConfig.sliding_window only when every layer type is sliding (#49803):
    # all 28 layers full attention.
    m = norm(cfg(**QWEN2, sliding_window=4096, use_sliding_window=True, max_window_layers=28, layer_types=types))
    assert m.layer_kinds == kinds((FULL, 28)) and m.sliding_window is None


def test_qwen2_max_window_layers_covering_every_layer_is_full_attention():
    # i >= 28 never holds for i in 0..27 → layer_types all full_attention → no layer slides
    m = norm(cfg(**QWEN2, sliding_window=4096, use_sliding_window=True, max_window_layers=28))
    assert m.layer_kinds == kinds((FULL, 28)) and m.sliding_window is None


def test_qwen2_partial_max_window_layers_is_refused():
    with pytest.raises(CalcError) as e:
        norm(cfg(**QWEN2, sliding_window=4096, use_sliding_window=True, max_window_layers=20))
    assert e.value.code == "unsupported" and e.value.field == "config"


def test_gemma2_alternates_from_layer_zero():
    # Gemma2Config: layer i sliding iff (i + 1) % 2 != 0 → even layers sliding, odd full
    m = norm(cfg(model_type="gemma2", num_hidden_layers=6, sliding_window=4096, head_dim=256))
    assert m.layer_kinds == (SLIDING, FULL, SLIDING, FULL, SLIDING, FULL)
    assert m.sliding_window == 4096 and m.architecture == "hybrid"
    # gemma-2-9b-it: 42 layers, layer_types alternating from sliding_attention, sliding_window 4096
    c = catalog("google/gemma-2-9b-it")
    assert c.layer_kinds == (SLIDING, FULL) * 21 and c.sliding_window == 4096


@pytest.mark.parametrize(("pattern", "num_layers", "full_layers"), [
    # pattern 6 (Gemma 3's default): full iff (i + 1) % 6 == 0 → layers 5 and 11 of 12
    (6, 12, {5, 11}),
    # pattern 4: layers 3 and 7 of 8
    (4, 8, {3, 7}),
    # no sliding_window_pattern key: transformers' default 6 → layers 5, 11 of 14 (12 sliding, 2 full)
    (None, 14, {5, 11}),
])
def test_gemma3_pattern(pattern, num_layers, full_layers):
    m = norm(cfg(model_type="gemma3_text", num_hidden_layers=num_layers, sliding_window=1024, head_dim=256,
                 sliding_window_pattern=pattern))
    assert m.layer_kinds == tuple(FULL if i in full_layers else SLIDING for i in range(num_layers))
    assert m.sliding_window == 1024


def test_gemma3_27b_every_sixth_layer_full():
    # gemma-3-27b-it: 62 layers, layer_types from pattern 6 → full at 5, 11, …, 59 = 60 / 6 = 10 layers;
    # 62 − 10 = 52 sliding; sliding_window 1024
    m = catalog("google/gemma-3-27b-it")
    assert [i for i, k in enumerate(m.layer_kinds) if k == FULL] == list(range(5, 62, 6))
    assert m.layer_kinds.count(SLIDING) == 52 and m.sliding_window == 1024


def test_gpt_oss_even_layers_slide():
    # GptOssConfig: even layers sliding (window 128), odd full
    m = norm(cfg(model_type="gpt_oss", num_hidden_layers=4, sliding_window=128, head_dim=64))
    assert m.layer_kinds == (SLIDING, FULL, SLIDING, FULL) and m.sliding_window == 128
    # gpt-oss-20b: 24 layers from layer_types (sliding, full, …), sliding_window 128
    c = catalog("openai/gpt-oss-20b")
    assert c.layer_kinds == (SLIDING, FULL) * 12 and c.sliding_window == 128


def test_mistral_v01_model_level_window_covers_every_layer():
    # Mistral-7B-v0.1: sliding_window 4096 and no layer_types → the window applies to all 32 layers
    m = catalog("mistralai/Mistral-7B-v0.1")
    assert m.layer_kinds == kinds((SLIDING, 32)) and m.sliding_window == 4096
    assert m.architecture == "sliding"
    # Mistral-7B-Instruct-v0.3: sliding_window null → all full attention
    assert catalog("mistralai/Mistral-7B-Instruct-v0.3").layer_kinds == kinds((FULL, 32))


@pytest.mark.parametrize("window", [0, None])
def test_sliding_window_zero_or_null_means_none(window):
    # "sliding_window: 0 in a config means no sliding window" (CONTRIBUTING.md §2.3)
    m = norm(cfg(model_type="mistral", sliding_window=window))
    assert m.layer_kinds == kinds((FULL, 4)) and m.sliding_window is None


def test_llama4_chunked_local_and_nope():
    # Llama 4: RoPE layers use chunked local attention, NoPE layers (no_rope_layers[i] == 0) full attention.
    # no_rope_layers absent: transformers' default interval 4 → layer i NoPE iff (i + 1) % 4 == 0
    m = norm(cfg(model_type="llama4_text", num_hidden_layers=8, attention_chunk_size=8192, head_dim=128))
    assert m.layer_kinds == (CHUNKED, CHUNKED, CHUNKED, FULL) * 2
    assert m.attention_chunk_size == 8192 and m.sliding_window is None
    # explicit no_rope_layers [1, 0, 1, 1]: only layer 1 is NoPE
    m = norm(cfg(model_type="llama4_text", attention_chunk_size=8192, no_rope_layers=[1, 0, 1, 1]))
    assert m.layer_kinds == (CHUNKED, FULL, CHUNKED, CHUNKED)


def test_llama4_scout_catalog():
    # Llama-4-Scout: 48 layers, layer_types chunked_attention ×3 then full_attention, repeated 12 times;
    # attention_chunk_size 8192 → 36 chunked + 12 full
    m = catalog("meta-llama/Llama-4-Scout-17B-16E-Instruct")
    assert m.layer_kinds == (CHUNKED, CHUNKED, CHUNKED, FULL) * 12
    assert m.attention_chunk_size == 8192 and m.architecture == "hybrid"


def test_llama4_layer_types_keep_the_chunk_size():
    # A pasted config listing layer_types (as transformers writes Llama 4's: chunked_attention x3 then
    # full_attention): the chunked layers still use attention_chunk_size 8192 (vllm/model_executor/models/llama4.py),
    # which the hybrid KV cache manager needs for their ChunkedLocalAttentionSpec (on by default since 0.14.0).
    types = ["chunked_attention"] * 3 + ["full_attention"]
    m = norm(cfg(model_type="llama4_text", attention_chunk_size=8192, layer_types=types))
    assert m.layer_kinds == (CHUNKED, CHUNKED, CHUNKED, FULL) and m.attention_chunk_size == 8192
    with pytest.raises(CalcError) as e:
        norm(cfg(model_type="llama4_text", layer_types=types))
    assert e.value.code == "config_missing_key"


# ---- MLA (CONTRIBUTING.md §2.3, §2.4) ---------------------------------------------------------------------------

MLA_CFG = dict(model_type="deepseek_v2", num_hidden_layers=4, num_attention_heads=16, num_key_value_heads=16,
               hidden_size=2048, kv_lora_rank=512, qk_rope_head_dim=64, qk_nope_head_dim=128, v_head_dim=128)


def test_mla_head_size_is_latent_plus_rope():
    m = norm(cfg(**MLA_CFG))
    assert m.is_mla and m.architecture == "mla"
    assert m.head_size == 576 == m.head_size_v     # kv_lora_rank 512 + qk_rope_head_dim 64
    assert m.total_num_kv_heads == 1                # one latent vector, whatever num_key_value_heads says
    assert m.layer_kinds == kinds((MLA, 4))


@pytest.mark.parametrize("model_id", ["deepseek-ai/DeepSeek-V3", "moonshotai/Kimi-K2-Instruct"])
def test_mla_catalog(model_id):
    # DeepSeek-V3 (deepseek_v3) and Kimi-K2 (kimi_k2): kv_lora_rank 512, qk_rope_head_dim 64, 61 layers
    m = catalog(model_id)
    assert m.is_mla and m.head_size == 576 and m.total_num_kv_heads == 1
    assert m.layer_kinds == kinds((MLA, 61))


def test_mla_needs_both_the_model_type_and_kv_lora_rank():
    # a model_type outside vLLM's MLA list is ordinary attention even with kv_lora_rank: 2048 / 16 = 128
    m = norm(cfg(**{**MLA_CFG, "model_type": "llama"}))
    assert not m.is_mla and m.head_size == 128 and m.total_num_kv_heads == 16
    # deepseek_v2 without kv_lora_rank is not MLA either (vLLM's is_deepseek_mla needs it)
    m = norm(cfg(**{**MLA_CFG, "kv_lora_rank": None}))
    assert not m.is_mla and m.head_size == 128


# ---- derived max_model_len (vllm/config/model.py, CONTRIBUTING.md §2.12) -------------------------------------------------------------------

@pytest.mark.parametrize(("over", "derived"), [
    # max_position_embeddings alone
    ({"max_position_embeddings": 40960}, 40_960),
    # the smallest of the length keys vLLM reads: max_position_embeddings 8192, seq_length 4096
    ({"max_position_embeddings": 8192, "seq_length": 4096}, 4_096),
    # GPT-2 style n_positions
    ({"max_position_embeddings": None, "n_positions": 1024}, 1_024),
    # no length key at all: vLLM assumes 2048
    ({"max_position_embeddings": None}, 2_048),
    # model_max_length caps the derived value: min(8192, 6000)
    ({"max_position_embeddings": 8192, "model_max_length": 6000}, 6_000),
    # linear RoPE scaling multiplies: 4096 × 2
    ({"rope_scaling": {"rope_type": "linear", "factor": 2.0}}, 8_192),
    # the old "type" key is read the same way; dynamic multiplies too: 4096 × 4
    ({"rope_scaling": {"type": "dynamic", "factor": 4.0}}, 16_384),
    # llama3, longrope and su are not multiplied: 131072 stays
    ({"max_position_embeddings": 131072, "rope_scaling": {"rope_type": "llama3", "factor": 8.0,
                                                          "original_max_position_embeddings": 8192}}, 131_072),
    ({"max_position_embeddings": 131072, "rope_scaling": {"rope_type": "longrope", "factor": 32.0}}, 131_072),
    ({"max_position_embeddings": 131072, "rope_scaling": {"type": "su", "factor": 32.0}}, 131_072),
    # yarn: original_max_position_embeddings × factor = 4096 × 40 (max_position_embeddings ignored)
    ({"max_position_embeddings": 163840, "rope_scaling": {"rope_type": "yarn", "factor": 40,
                                                          "original_max_position_embeddings": 4096}}, 163_840),
    # yarn with a fractional factor: int(32768 × 2.5)
    ({"max_position_embeddings": 32768, "rope_scaling": {"rope_type": "yarn", "factor": 2.5,
                                                         "original_max_position_embeddings": 32768}}, 81_920),
])
def test_derived_max_model_len_inline(over, derived):
    assert norm(cfg(**over)).derived_max_model_len == derived


def test_gemma3_rope_factor_is_not_applied_again():
    # Gemma 3's 131,072 is already scaled: vLLM skips the linear factor 8 for gemma3 model types
    m = norm(cfg(model_type="gemma3_text", sliding_window=1024, max_position_embeddings=131072,
                 rope_scaling={"rope_type": "linear", "factor": 8.0}))
    assert m.derived_max_model_len == 131_072


@pytest.mark.parametrize(("model_id", "derived"), [
    # Qwen3-8B: max_position_embeddings 40960, no rope scaling
    ("Qwen/Qwen3-8B", 40_960),
    # Llama-3.1-8B: 131072 with rope_type llama3 (factor 8 not applied)
    ("meta-llama/Llama-3.1-8B-Instruct", 131_072),
    # DeepSeek-V3: yarn, original 4096 × factor 40 = 163,840
    ("deepseek-ai/DeepSeek-V3", 163_840),
    # Kimi-K2: yarn, original 4096 × factor 32 = 131,072
    ("moonshotai/Kimi-K2-Instruct", 131_072),
    # gpt-oss-20b: yarn, original 4096 × factor 32 = 131,072
    ("openai/gpt-oss-20b", 131_072),
    # gemma-3-27b-it: 131072 with linear factor 8, not re-applied for gemma3
    ("google/gemma-3-27b-it", 131_072),
    # Llama-4-Scout: max_position_embeddings 10,485,760 with llama3 scaling (not multiplied)
    ("meta-llama/Llama-4-Scout-17B-16E-Instruct", 10_485_760),
    # Mistral-Nemo: max_position_embeddings 128000
    ("mistralai/Mistral-Nemo-Base-2407", 128_000),
])
def test_derived_max_model_len_catalog(model_id, derived):
    assert catalog(model_id).derived_max_model_len == derived


# ---- dtype (CONTRIBUTING.md §2.3) ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("over", "dtype"), [
    ({"torch_dtype": "bfloat16"}, "bfloat16"),
    ({"torch_dtype": "float16"}, "float16"),
    # transformers v5 writes "dtype"
    ({"torch_dtype": None, "dtype": "float16"}, "float16"),
    # a float32 checkpoint is served in 16 bits: bfloat16 on GPUs that support it
    ({"torch_dtype": "float32"}, "bfloat16"),
    # no dtype at all: vLLM treats it as float32 → bfloat16
    ({"torch_dtype": None}, "bfloat16"),
])
def test_dtype(over, dtype):
    assert norm(cfg(**over)).dtype == dtype


def test_dtype_catalog():
    # Qwen3-32B-AWQ: dtype float16; gpt-oss-20b: dtype null → bfloat16
    assert catalog("Qwen/Qwen3-32B-AWQ").dtype == "float16"
    assert catalog("openai/gpt-oss-20b").dtype == "bfloat16"


def test_unknown_dtype_is_a_config_error():
    with pytest.raises(CalcError) as e:
        norm(cfg(torch_dtype="int3"))
    assert (e.value.code, e.value.field, e.value.params["key"]) == ("config_bad_value", "config", "dtype")


# ---- multimodal wrappers: text_config -------------------------------------------------------------------

def test_text_config_wrapper():
    # the language model lives in text_config; the wrapper's dtype (here float16) applies when the text
    # config has none, and a top-level quantization_config reaches the text config
    wrapper = {"model_type": "mistral3", "torch_dtype": "float16",
               "quantization_config": {"quant_method": "fp8"},
               "text_config": cfg(model_type="mistral", num_hidden_layers=40, head_dim=128, hidden_size=5120,
                                  torch_dtype=None)}
    m = norm(wrapper)
    assert (m.model_type, m.num_layers, m.head_size, m.total_num_kv_heads) == ("mistral", 40, 128, 8)
    assert m.dtype == "float16"
    assert m.quant.method == "fp8"


def test_text_config_wrapper_without_model_type_takes_the_wrappers():
    wrapper = {"model_type": "llava", "text_config": cfg(model_type=None)}
    assert norm(wrapper).model_type == "llava"


def test_gemma3_27b_raw_wrapper():
    # The published gemma-3-27b-it config.json (scripts/model_configs, SOURCES.md): model_type gemma3,
    # torch_dtype bfloat16 on the wrapper, text_config: 62 layers, head_dim 128, 32 heads, 16 KV heads,
    # sliding_window 1024, no layer_types and no sliding_window_pattern (default 6 → 52 sliding + 10 full).
    m = norm(vendored("google/gemma-3-27b-it"))
    assert (m.num_layers, m.head_size, m.total_num_kv_heads, m.dtype) == (62, 128, 16, "bfloat16")
    assert m.layer_kinds.count(SLIDING) == 52 and m.layer_kinds.count(FULL) == 10


def test_gemma3_27b_raw_wrapper_derived_length():
    # Gemma3TextConfig default max_position_embeddings 131072; gemma3 skips the RoPE factor → 131,072
    assert norm(vendored("google/gemma-3-27b-it")).derived_max_model_len == 131_072


# ---- weight quantization --------------------------------------------------------------------------------

@pytest.mark.parametrize(("quantization_config", "expected"), [
    # none: 16-bit weights
    (None, WeightQuant(method="none", bits=16, group_size=0)),
    # AWQ as Qwen3-32B-AWQ declares it: bits 4, group_size 128
    ({"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True},
     WeightQuant(method="awq", bits=4, group_size=128)),
    # GPTQ 8-bit, groups of 32
    ({"quant_method": "gptq", "bits": 8, "group_size": 32, "desc_act": False},
     WeightQuant(method="gptq", bits=8, group_size=32)),
    # fp8 (block-wise as in Qwen3-32B-FP8 / DeepSeek-V3): 8 bits, one fp32 scale per 128 x 128 = 16,384 weights
    ({"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]},
     WeightQuant(method="fp8", bits=8, group_size=16_384)),
    # fp8 without blocks (per-tensor or per-channel scales): no groups
    ({"quant_method": "fp8", "fmt": "e4m3"}, WeightQuant(method="fp8", bits=8, group_size=0)),
    # mxfp4 (gpt-oss): 4-bit values in OCP MX blocks of 32 sharing one scale, experts only
    ({"quant_method": "mxfp4"}, WeightQuant(method="mxfp4", bits=4, group_size=32, experts_only=True)),
])
def test_quantization(quantization_config, expected):
    assert norm(cfg(quantization_config=quantization_config)).quant == expected


@pytest.mark.parametrize(("model_id", "method", "bits"), [
    # Qwen3-32B-AWQ: quant_method awq, bits 4, group_size 128
    ("Qwen/Qwen3-32B-AWQ", "awq", 4),
    # Qwen3-32B-FP8: quant_method fp8
    ("Qwen/Qwen3-32B-FP8", "fp8", 8),
    # gpt-oss-20b: quant_method mxfp4
    ("openai/gpt-oss-20b", "mxfp4", 4),
    # Qwen3-8B: no quantization_config
    ("Qwen/Qwen3-8B", "none", 16),
])
def test_quantization_catalog(model_id, method, bits):
    q = catalog(model_id).quant
    assert (q.method, q.bits) == (method, bits)


# ---- bad configs: CalcError with code and field ---------------------------------------------------------

@pytest.mark.parametrize(("config", "code", "key"), [
    # not an object at all
    ([], "config_not_object", None),
    ("{}", "config_not_object", None),
    # the keys the KV size cannot do without
    (cfg(model_type=None), "config_missing_key", "model_type"),
    (cfg(num_hidden_layers=None), "config_missing_key", "num_hidden_layers"),
    (cfg(num_attention_heads=None), "config_missing_key", "num_attention_heads"),
    (cfg(hidden_size=None), "config_missing_key", "hidden_size"),
    # wrong types and ranges
    (cfg(num_hidden_layers="32"), "config_bad_value", "num_hidden_layers"),
    (cfg(num_hidden_layers=True), "config_bad_value", "num_hidden_layers"),
    (cfg(num_hidden_layers=1.5), "config_bad_value", "num_hidden_layers"),
    (cfg(num_hidden_layers=1_000_000), "config_bad_value", "num_hidden_layers"),   # > 10,000 layers
    (cfg(num_key_value_heads=0), "config_bad_value", "num_key_value_heads"),
    # hidden 4100 / 32 heads = 128.125 is not whole and no head_dim is given
    (cfg(hidden_size=4100), "config_bad_value", "head_dim"),
    # layer_types shorter than num_hidden_layers (3 < 4)
    (cfg(layer_types=["full_attention"] * 3), "config_bad_value", "layer_types"),
    # sliding layers without a window
    (cfg(layer_types=["sliding_attention", "full_attention"] * 2), "config_missing_key", "sliding_window"),
    # a RoPE factor far out of range
    (cfg(rope_scaling={"rope_type": "linear", "factor": 1e308}), "config_bad_value", "rope_scaling"),
    # MLA model without qk_rope_head_dim
    (cfg(**{**MLA_CFG, "qk_rope_head_dim": None}), "config_missing_key", "qk_rope_head_dim"),
])
def test_bad_config(config, code, key):
    with pytest.raises(CalcError) as e:
        normalize_config(config)  # type: ignore[arg-type]
    assert e.value.code == code
    assert e.value.field == "config"
    assert e.value.params.get("key") == key
    assert isinstance(e.value, ValueError)          # the domain error subclasses ValueError


@pytest.mark.parametrize("config", [
    # Mamba / linear-attention families vLLM supports but the core does not plan (yet): refused by name
    cfg(model_type="falcon_h1"),
    cfg(model_type="zamba2"),
    cfg(model_type="mamba2"),
])
def test_unsupported_architectures_fail_loudly(config):
    with pytest.raises(CalcError) as e:
        normalize_config(config)
    assert e.value.code == "unsupported_architecture" and e.value.field == "config"
    assert e.value.params["model_type"] == config["model_type"]


@pytest.mark.parametrize("config", [
    # hybrids the core plans, given without their state keys: refused, never planned as full attention
    cfg(model_type="qwen3_next"),
    cfg(model_type="nemotron_h", hybrid_override_pattern="M-M-M*"),
])
def test_hybrids_without_their_state_keys_fail_loudly(config):
    with pytest.raises(CalcError) as e:
        normalize_config(config)
    assert e.value.code in ("config_missing_key", "unsupported_architecture") and e.value.field == "config"


# ---- what a ModelSpec carries ---------------------------------------------------------------------------

def test_model_spec_is_frozen_and_keeps_the_given_id():
    m = normalize_config(cfg(), model_id="acme/tiny", num_parameters=123)
    assert m.model_id == "acme/tiny" and m.num_parameters == 123
    assert m.num_layers == 4 and m.num_attention_heads == 32 and m.hidden_size == 4096
    with pytest.raises(AttributeError):
        m.num_layers = 8  # type: ignore[misc]
