"""The input boundary (``kvcalc.inputs``): every raw value a reader types.

Each bad value must give one ``CalcError`` with a stable ``code`` and the
``field`` it came from (the widget highlights that field). Good values are
checked against figures worked out by hand.

Catalog facts used below (Qwen/Qwen3-8B config.json): 36 layers, 32 attention
heads, 8 KV heads, head_dim 128, max_position_embeddings 40960.
"""
from __future__ import annotations

import json

import pytest

from kvcalc.errors import CalcError
from kvcalc.inputs import INPUT_KEYS, canonical_query, parse_bool, scenario_from_inputs
from kvcalc.verdict import plan

BASE = {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB"}


def _error(inputs: dict[str, object]) -> CalcError:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs(inputs)
    return info.value


def _bad(key: str, value: object) -> CalcError:
    return _error({**BASE, key: value})


# --- each input key's validation ----------------------------------------------------------

BAD_CASES = [
    ("gpu_memory_gib", "0", "out_of_range"),            # must be > 0
    ("gpu_memory_gib", "-24", "out_of_range"),
    ("gpu_memory_gib", "5000", "out_of_range"),         # above 4096 GiB
    ("gpu_memory_gib", "lots", "not_a_number"),
    ("gpu_memory_gib", "nan", "not_a_number"),
    ("tensor_parallel_size", "0", "out_of_range"),
    ("tensor_parallel_size", "two", "not_an_integer"),
    ("tensor_parallel_size", "1.5", "not_an_integer"),
    ("tensor_parallel_size", "2048", "out_of_range"),   # above 1024
    ("pipeline_parallel_size", "0", "out_of_range"),
    ("pipeline_parallel_size", "37", "out_of_range"),   # Qwen3-8B has 36 layers: 37 stages cannot each hold one
    ("max_model_len", "0", "out_of_range"),
    ("max_model_len", "-7", "out_of_range"),
    ("max_model_len", "long", "not_an_integer"),
    ("max_model_len", "1.5K", "binary_suffix_decimal"),
    ("max_num_seqs", "0", "out_of_range"),
    ("max_num_seqs", "many", "not_an_integer"),
    ("max_num_batched_tokens", "-1", "out_of_range"),
    ("max_num_batched_tokens", "20000000", "out_of_range"),  # above 2^24 = 16,777,216
    ("dtype", "fp16", "bad_choice"),                    # vLLM's ModelDType: half or float16
    ("dtype", "float64", "bad_choice"),
    ("dtype", "float32", "dtype_float32_budget"),       # 32-bit: a measured budget only
    ("kv_cache_dtype", "int3", "bad_choice"),
    ("kv_cache_dtype", "FP8", "bad_choice"),            # vLLM's choices are case-sensitive
    ("kv_cache_dtype", "fp8_ds_mla", "bad_choice"),     # MLA-only layout on a GQA model
    ("gpu_memory_utilization", "0", "out_of_range"),
    ("gpu_memory_utilization", "1.2", "out_of_range"),
    ("gpu_memory_utilization", "90%", "not_a_number"),
    ("kv_cache_memory_bytes", "0", "out_of_range"),
    ("kv_cache_memory_bytes", "-4G", "not_an_integer"),  # human_readable_int's pattern has no sign
    ("kv_cache_memory_bytes", "1.5G", "binary_suffix_decimal"),
    ("kv_cache_memory_bytes", "eight gigs", "not_an_integer"),
    ("block_size", "24", "bad_choice"),                 # not in vLLM's BlockSize literal
    ("block_size", "0", "out_of_range"),
    ("block_size", "x", "not_an_integer"),
    ("num_gpu_blocks_override", "0", "out_of_range"),
    ("num_gpu_blocks_override", "some", "not_an_integer"),
    ("vllm_version", "banana", "bad_version"),
    ("vllm_version", "0.5.4", "version_too_old"),       # older than 0.6.0: not modelled
    ("available_kv_gib", "-1", "out_of_range"),
    ("available_kv_gib", "sixty", "not_a_number"),
    ("available_kv_bytes", "1.5K", "binary_suffix_decimal"),
    ("available_kv_bytes", "sixty", "not_an_integer"),
    ("enable_prefix_caching", "maybe", "not_a_boolean"),
    ("mamba_cache_mode", "ALIGN", "bad_choice"),           # vLLM's choices are lower case: none, align, all
    ("interconnect", "nvlink", "bad_choice"),              # nvswitch, pcie, unified or unknown
    ("mamba_ssm_cache_dtype", "fp8", "bad_choice"),        # MambaDType: auto, float32, float16, bfloat16
    ("weights_gib", "-0.5", "out_of_range"),
    ("activation_gib", "x", "not_a_number"),
    ("non_torch_gib", "-1", "out_of_range"),
    ("cudagraph_gib", "inf", "not_a_number"),
    ("cpu_offload_gb", "-1", "out_of_range"),
    ("cpu_offload_gb", "nan", "not_a_number"),
    ("decode_context_parallel_size", "0", "out_of_range"),
    ("decode_context_parallel_size", "2", "dcp_refused"),     # tp 1 is not divisible by dcp 2
    ("enforce_eager", "maybe", "not_a_boolean"),
    ("disable_hybrid_kv_cache_manager", "2", "not_a_boolean"),
    ("no_async_scheduling", "nope", "not_a_boolean"),
    # --limit-mm-per-prompt: a JSON object of counts >= 0 per modality (vllm/config/multimodal.py)
    ("limit_mm_per_prompt", "image=2", "mm_limit_pairs_release"),   # the key=value form left in 0.10.0
    ("limit_mm_per_prompt", "[1, 2]", "mm_limit_bad"),              # not an object
    ("limit_mm_per_prompt", '"image"', "mm_limit_pairs_release"),   # a JSON string is not read as JSON by vLLM
    ("limit_mm_per_prompt", '{"image": 2', "mm_limit_bad"),         # not valid JSON
    ("limit_mm_per_prompt", '{"image": -1}', "out_of_range"),       # count >= 0 (BaseDummyOptions)
    ("limit_mm_per_prompt", '{"image": 1e400}', "mm_limit_bad"),    # not a whole number
    ("limit_mm_per_prompt", '{"image": 2.5}', "mm_limit_bad"),
    ("limit_mm_per_prompt", '{"image": true}', "mm_limit_bad"),
    ("limit_mm_per_prompt", '{"image": "2"}', "mm_limit_bad"),
    ("limit_mm_per_prompt", '{"image": ' + "9" * 400 + "}", "out_of_range"),
    ("limit_mm_per_prompt", '{"image": {"count": {"n": 1}}}', "too_deep"),  # at most {"image": {"count": 1}}
    ("limit_mm_per_prompt", '{"image": {"count": 1, "width": 512}}', "mm_limit_options"),  # dummy sizes: not modelled
    ("limit_mm_per_prompt", '{"": 1}', "mm_limit_bad"),             # not a modality name
    ("limit_mm_per_prompt", '{"image": 1, ' + ", ".join(f'"m{i}": 1' for i in range(20)) + "}", "mm_limit_bad"),
    ("skip_mm_profiling", "perhaps", "not_a_boolean"),
    ("calculate_kv_scales", "perhaps", "not_a_boolean"),
    # --speculative-config (kvcalc.kv.speculative) and LoRA (vllm/config/lora.py); Qwen3-8B has no MTP layers
    ("speculative_config", '{"method": "mtp"', "spec_config_bad"),
    ("speculative_config", '{"method": "mtp"}', "spec_no_mtp_layers"),
    ("enable_lora", "perhaps", "not_a_boolean"),
    ("max_loras", "0", "out_of_range"),                     # max_loras >= 1
    ("max_lora_rank", "48", "bad_choice"),                  # MaxLoRARanks: 1, 8, 16, 32, 64, 128, 256, 320, 512
    ("max_cpu_loras", "x", "not_an_integer"),
    ("data_parallel_size", "0", "out_of_range"),
    ("data_parallel_size", "two", "not_an_integer"),
    ("enable_expert_parallel", "perhaps", "not_a_boolean"),
    ("draft_config", "{}", "draft_config_unused"),    # without --speculative-config method eagle3
]


@pytest.mark.parametrize(("key", "value", "code"), BAD_CASES)
def test_bad_value_names_code_and_field(key: str, value: object, code: str) -> None:
    err = _bad(key, value)
    assert err.code == code
    assert err.field == key
    assert str(err)  # an English message for the CLI


def test_every_input_key_is_covered_by_a_validation_case() -> None:
    # A new input key must get a bad-value case above (model/gpu/config have their own tests).
    covered = {k for k, _, _ in BAD_CASES} | {"model", "gpu", "config"}
    assert set(INPUT_KEYS) <= covered


def test_tp_not_dividing_attention_heads() -> None:
    # Qwen3-8B: 32 attention heads; 32 % 3 = 2 → vLLM's verify_with_model_config refuses TP 3.
    err = _bad("tensor_parallel_size", "3")
    assert (err.code, err.field) == ("tp_not_divisor", "tensor_parallel_size")
    assert err.params["limit"] == 32 and err.params["value"] == 3
    # 32 % 16 = 0: TP 16 above the 8 KV heads is allowed (KV heads are replicated).
    assert scenario_from_inputs({**BASE, "tensor_parallel_size": "16"}).deployment.tensor_parallel_size == 16


def test_unknown_model_and_gpu() -> None:
    err = _error({"model": "acme/NoSuchModel-7B", "gpu": "H100-80GB"})
    assert (err.code, err.field) == ("unknown_model", "model")
    assert err.params["value"] == "acme/NoSuchModel-7B"
    err = _bad("gpu", "GTX-480")
    assert (err.code, err.field) == ("unknown_gpu", "gpu")


def test_missing_model_and_missing_gpu() -> None:
    err = _error({"gpu": "H100-80GB"})
    assert (err.code, err.field) == ("missing_model", "model")
    err = _error({"model": "Qwen/Qwen3-8B"})
    assert (err.code, err.field) == ("missing_gpu", "gpu")
    # blanks count as missing
    err = _error({"model": "   ", "gpu": "H100-80GB"})
    assert err.code == "missing_model"


def test_unknown_input_key() -> None:
    err = _bad("max_model_length", "4096")
    assert (err.code, err.field) == ("unknown_input", "max_model_length")
    # "lang" travels with the widget's inputs and is not an error
    assert scenario_from_inputs({**BASE, "lang": "es"}).model.model_id == "Qwen/Qwen3-8B"


def test_catalog_lookups_ignore_case() -> None:
    s = scenario_from_inputs({"model": "qwen/QWEN3-8b", "gpu": "h100-80gb"})
    assert s.model.model_id == "Qwen/Qwen3-8B"
    assert s.deployment.gpu_id == "H100-80GB"
    assert s.model_label == "Qwen/Qwen3-8B"


def test_good_values_are_converted() -> None:
    s = scenario_from_inputs({
        "model": "Qwen/Qwen3-8B", "gpu_memory_gib": "24", "tensor_parallel_size": "2", "pipeline_parallel_size": "2",
        "max_model_len": "32K", "max_num_seqs": "64", "max_num_batched_tokens": "4k", "kv_cache_dtype": "fp8_e5m2",
        "gpu_memory_utilization": "0,85", "kv_cache_memory_bytes": "4G", "block_size": "32",
        "num_gpu_blocks_override": "1000", "vllm_version": "0.10.2", "available_kv_gib": "10",
        "weights_gib": "7.5", "activation_gib": "1", "non_torch_gib": "0.25", "cudagraph_gib": "0.5",
        "enforce_eager": "yes", "disable_hybrid_kv_cache_manager": "on", "no_async_scheduling": "1",
    })
    d = s.deployment
    assert d.gpu_memory_bytes == 25_769_803_776          # 24 × 2^30
    assert (d.tensor_parallel_size, d.pipeline_parallel_size) == (2, 2)
    assert d.max_model_len == 32_768                      # 32 × 1024
    assert (d.max_num_seqs, d.max_num_batched_tokens) == (64, 4000)  # 4k = 4 × 1000
    assert d.kv_cache_dtype == "fp8_e5m2"
    assert d.gpu_memory_utilization == 0.85
    assert d.kv_cache_memory_bytes == 4_294_967_296       # 4 × 2^30
    assert d.block_size == 32
    assert d.num_gpu_blocks_override == 1000
    assert d.rules.version == (0, 10, 2)  # --kv-cache-memory-bytes is first in v0.10.2's arg_utils.py
    m = d.measured
    assert m.available_kv_bytes == 10_737_418_240         # 10 × 2^30
    assert m.weights_bytes == 8_053_063_680               # 7.5 × 2^30
    assert m.activation_bytes == 1_073_741_824
    assert m.non_torch_bytes == 268_435_456               # 2^28
    assert m.cudagraph_bytes == 536_870_912               # 2^29
    assert d.enforce_eager and d.disable_hybrid_kv_cache_manager and not d.async_scheduling


def test_available_kv_bytes_wins_over_gib() -> None:
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "available_kv_gib": "60", "available_kv_bytes": "25.6k"})
    assert s.deployment.measured.available_kv_bytes == 25_600


def test_defaults_when_missing() -> None:
    s = scenario_from_inputs(dict(BASE))
    d = s.deployment
    assert (d.tensor_parallel_size, d.pipeline_parallel_size) == (1, 1)
    assert d.max_model_len is None and d.kv_cache_dtype == "auto" and d.block_size is None
    assert d.rules.version is None  # the pinned rules
    assert d.gpu_memory_bytes == 85_029_158_912  # catalog H100-80GB as CUDA reports it (79.19 GiB)
    assert s.deployment.gpu_name and "H100" in s.deployment.gpu_name
    assert not d.enforce_eager and d.async_scheduling


def test_max_model_len_auto() -> None:
    assert scenario_from_inputs({**BASE, "max_model_len": "auto"}).deployment.max_model_len == -1
    assert scenario_from_inputs({**BASE, "max_model_len": "-1"}).deployment.max_model_len == -1


@pytest.mark.parametrize(("raw", "expected"), [
    (True, True), (False, False), ("1", True), ("true", True), ("Yes", True), ("ON", True),
    ("0", False), ("false", False), ("no", False), ("off", False), ("", False), (" TRUE ", True),
])
def test_parse_bool(raw: object, expected: bool) -> None:
    assert parse_bool(raw, field="enforce_eager") is expected


def test_booleans_in_inputs() -> None:
    on = scenario_from_inputs({**BASE, "enforce_eager": True, "no_async_scheduling": "true",
                               "disable_hybrid_kv_cache_manager": "1"}).deployment
    assert on.enforce_eager and not on.async_scheduling and on.disable_hybrid_kv_cache_manager
    off = scenario_from_inputs({**BASE, "enforce_eager": False, "no_async_scheduling": "off",
                                "disable_hybrid_kv_cache_manager": "0"}).deployment
    assert not off.enforce_eager and off.async_scheduling and not off.disable_hybrid_kv_cache_manager


# --- pasted config.json -------------------------------------------------------------------

def test_config_not_json_reports_line_and_column() -> None:
    text = '{\n  "model_type": "llama",\n  oops\n}'
    # json: line 3 is '  oops'; the first bad character 'o' is column 3.
    err = _error({"config": text, "gpu": "H100-80GB"})
    assert (err.code, err.field) == ("config_not_json", "config")
    assert (err.params["line"], err.params["column"]) == (3, 3)


@pytest.mark.parametrize("text", ["[1, 2]", "3", '"a string"', "null"])
def test_config_not_object(text: str) -> None:
    err = _error({"config": text, "gpu": "H100-80GB"})
    assert (err.code, err.field) == ("config_not_object", "config")


def test_config_too_large() -> None:
    text = '{"pad": "' + "x" * 2_000_001 + '"}'
    err = _error({"config": text, "gpu": "H100-80GB"})
    assert (err.code, err.field) == ("config_too_large", "config")


def test_config_missing_key() -> None:
    err = _error({"config": json.dumps({"model_type": "llama", "hidden_size": 4096}), "gpu": "H100-80GB"})
    assert (err.code, err.field) == ("config_missing_key", "config")


def test_config_wins_over_model() -> None:
    cfg = {"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4, "hidden_size": 256}
    s = scenario_from_inputs({"config": json.dumps(cfg), "model": "Qwen/Qwen3-8B", "gpu": "H100-80GB"})
    assert s.model.num_layers == 2
    assert s.model_label == "<your-model>"


NESTED = {
    "model_type": "llava",
    "architectures": ["LlavaForConditionalGeneration"],
    "torch_dtype": "bfloat16",
    "vision_config": {"model_type": "clip_vision_model", "hidden_size": 1024, "num_attention_heads": 16,
                      "num_hidden_layers": 24},
    "text_config": {
        "model_type": "llama", "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
        "hidden_size": 1024, "head_dim": 64, "intermediate_size": 4096, "vocab_size": 32000,
        "max_position_embeddings": 8192,
    },
}


def test_nested_text_config_is_the_language_model() -> None:
    s = scenario_from_inputs({"config": json.dumps(NESTED), "available_kv_bytes": str(1 << 30), "max_model_len": "1024"})
    m = s.model
    # The text model, not the 24-layer vision tower; declared head_dim 64 wins over 1024 / 8 = 128.
    assert (m.num_layers, m.total_num_kv_heads, m.head_size, m.num_attention_heads) == (4, 2, 64, 8)
    assert m.derived_max_model_len == 8192
    v = plan(m, s.deployment)
    # per token: 4 layers × 2 KV heads × 64 × 2 (K and V) × 2 bytes = 2,048 B
    assert v.kv_bytes_per_token == 2048
    # one request of 1024 tokens: cdiv(1024, 16) = 64 blocks × (16 × 2,048 = 32,768 B) = 2,097,152 B
    assert v.needed_kv_bytes == 2_097_152
    # 2^30 // 32,768 = 32,768 blocks
    assert v.num_gpu_blocks == 32_768


def test_config_may_be_a_dict() -> None:
    s = scenario_from_inputs({"config": NESTED["text_config"], "gpu": "H100-80GB"})
    assert s.model.num_layers == 4


# --- --limit-mm-per-prompt and --skip-mm-profiling, as each release reads them ----------------

VL = {"model": "Qwen/Qwen2.5-VL-7B-Instruct", "gpu": "RTX-4090"}


@pytest.mark.parametrize(("text", "version", "expected"), [
    ('{"image": 2, "video": 0}', None, (("image", 2), ("video", 0))),
    ('  {"video": 0}  ', "0.19.0", (("video", 0),)),
    ('{"image": {"count": 1}}', "0.11.1", (("image", 1),)),      # BaseDummyOptions from v0.11.1
    ('{"image": {}}', "0.19.0", (("image", 999),)),              # count defaults to 999
    ('{"image": 1, "image": 3}', None, (("image", 3),)),         # json.loads keeps the last
    ('{"audio": 0}', None, (("audio", 0),)),                     # a modality the model lacks: kept, ignored
    ("image=2,video=0", "0.9.2", (("image", 2), ("video", 0))),  # nullable_kvs, deprecated until 0.10.0
    ("IMAGE = 2", "0.8.4", (("image", 2),)),                     # lower-cased and stripped as nullable_kvs does
    ('{"image": 2}', "0.9.2", (("image", 2),)),                  # JSON from 0.8.5
])
def test_limit_mm_per_prompt_is_read_as_the_release_reads_it(text: str, version: str | None,
                                                               expected: tuple[tuple[str, int], ...]) -> None:
    inputs = {**VL, "limit_mm_per_prompt": text} | ({"vllm_version": version} if version else {})
    assert scenario_from_inputs(inputs).deployment.limit_mm_per_prompt == expected


@pytest.mark.parametrize(("text", "version", "code"), [
    ('{"image": 2}', "0.8.4", "mm_limit_json_release"),            # before 0.8.5: nullable_kvs only
    ("image=2", "0.10.0", "mm_limit_pairs_release"),               # parse_type(json.loads) only from 0.10.0
    ('{"image": {"count": 1}}', "0.11.0", "mm_limit_options_release"),  # dict[str, int] before 0.11.1
    ("image=1,image=2", "0.9.2", "mm_limit_bad"),                  # nullable_kvs: "Conflicting values"
    ("image", "0.9.2", "mm_limit_bad"),                            # "Each item should be in the form KEY=VALUE"
])
def test_limit_mm_per_prompt_refused_where_the_release_refuses_it(text: str, version: str, code: str) -> None:
    err = _error({**VL, "limit_mm_per_prompt": text, "vllm_version": version})
    assert (err.code, err.field) == (code, "limit_mm_per_prompt")


def test_skip_mm_profiling_arrives_in_0_10_1() -> None:
    # vllm/engine/arg_utils.py adds --skip-mm-profiling in v0.10.1rc1 (absent from v0.10.0: argparse refuses it)
    from kvcalc.faces.report import error_message

    err = _error({**VL, "skip_mm_profiling": "1", "vllm_version": "0.10.0"})
    assert (err.code, err.field) == ("skip_mm_profiling_release", "skip_mm_profiling")
    for lang in ("en", "es", "zh"):
        message = error_message(lang, err)
        assert "0.10.1" in message and "0.10.0" in message and "\n" not in message, (lang, message)
    assert scenario_from_inputs({**VL, "skip_mm_profiling": "1", "vllm_version": "0.10.1"}).deployment.skip_mm_profiling
    assert scenario_from_inputs({**VL, "skip_mm_profiling": True}).deployment.skip_mm_profiling
    assert not scenario_from_inputs({**VL, "skip_mm_profiling": "0", "vllm_version": "0.9.2"}).deployment.skip_mm_profiling


def test_mm_errors_speak_the_readers_language() -> None:
    from kvcalc.faces.report import error_message

    for text, version in (('{"image": -1}', None), ("[1]", None), ('{"image": {"count": 1, "width": 9}}', None),
                          ('{"image": 2}', "0.8.4"), ("image=2", None), ('{"image": {"count": 1}}', "0.11.0")):
        err = _error({**VL, "limit_mm_per_prompt": text} | ({"vllm_version": version} if version else {}))
        texts = {lang: error_message(lang, err) for lang in ("en", "es", "zh")}
        assert len(set(texts.values())) == 3 and all("\n" not in m and "limit_mm_per_prompt" in m for m in texts.values())


# --- canonical_query ----------------------------------------------------------------------

def test_canonical_query_order_and_content() -> None:
    inputs = {
        "no_async_scheduling": False, "enforce_eager": True, "max_model_len": " 32k ", "gpu": "RTX-4090",
        "model": "Qwen/Qwen3-8B", "config": "{}", "kv_cache_dtype": "", "tensor_parallel_size": 2,
        "weights_gib": None, "gpu_memory_utilization": 0.9, "lang": "es",
    }
    q = canonical_query(inputs)
    # contract order (INPUT_KEYS), no config text, no blanks/None/False, True → "1", values stripped, no lang
    assert list(q.items()) == [
        ("model", "Qwen/Qwen3-8B"), ("gpu", "RTX-4090"), ("tensor_parallel_size", "2"), ("max_model_len", "32k"),
        ("gpu_memory_utilization", "0.9"), ("enforce_eager", "1"),
    ]
    assert all(isinstance(v, str) for v in q.values())


def test_canonical_query_is_ordered_by_input_keys() -> None:
    full = {k: "1" for k in reversed(INPUT_KEYS)}
    assert list(canonical_query(full)) == [k for k in INPUT_KEYS if k != "config"]
    assert canonical_query({}) == {}


def test_auto_max_model_len_needs_0_14() -> None:
    # --max-model-len auto arrived with vLLM PR #29431 (github.com/vllm-project/vllm/pull/29431), first in 0.14.0
    # (calc/data/vllm_releases.json pr_first_release; vllm-ascend PR #6181 follows it "vLLM version: v0.14.0").
    from kvcalc.faces.report import error_message

    s = scenario_from_inputs({**BASE, "max_model_len": "auto", "vllm_version": "0.13.0"})
    with pytest.raises(CalcError) as info:
        plan(s.model, s.deployment)
    assert (info.value.code, info.value.field) == ("auto_unsupported", "max_model_len")
    for lang in ("en", "es", "zh"):
        message = error_message(lang, info.value)
        assert "0.14" in message and "0.13" not in message, (lang, message)
    s = scenario_from_inputs({**BASE, "max_model_len": "auto", "vllm_version": "0.14.0"})
    assert plan(s.model, s.deployment).max_model_len > 0
