"""The browser's entry point ``kvcalc.faces.web.compute``: JSON in, JSON out, never an exception.

The Web Worker calls it with whatever the page sends; a raise would kill the
worker, and an error must come back localized with the field to highlight.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from kvcalc.analysis import analyze
from kvcalc.faces.cli import main
from kvcalc.faces.report import result_dict
from kvcalc.faces.web import compute
from kvcalc.inputs import canonical_query, scenario_from_inputs

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = ROOT / "kvguide_macros" / "data" / "sample.log"
XSS = "<img src=x onerror=alert(1)>"


def call(request: object) -> dict:
    text = compute(request if isinstance(request, str) else json.dumps(request))
    assert isinstance(text, str)
    response = json.loads(text)
    assert isinstance(response, dict) and isinstance(response["ok"], bool)
    if not response["ok"]:
        assert response["errors"], response
        for e in response["errors"]:
            assert {"code", "field", "message"} <= set(e)
            assert e["code"] and e["message"]
    return response


# --- never raises -------------------------------------------------------------------------

GARBAGE = [
    "", "not json", "{", "null", "[]", "42", '"a string"', "true", "[1, 2, 3]",
    '{"action": "dance"}', '{"action": ["plan"]}', '{"action": null}', '{"action": 7}',
    '{"action": "plan", "inputs": []}', '{"action": "plan", "inputs": "model=x"}', '{"action": "plan", "inputs": 5}',
    '{"action": "plan", "inputs": {"model": {"a": [1, 2]}, "gpu": [1]}}',
    '{"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": NaN}}',
    '{"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "L4", "gpu_memory_utilization": Infinity}}',
    '{"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": 1e400}}',
    '{"action": "plan", "inputs": {"config": {"text_config": {"text_config": 5}}, "gpu": "L4"}}',
    '{"action": "plan", "inputs": {"config": "{\\"model_type\\": 1}", "gpu": "L4"}}',
    '{"action": "plan", "inputs": {"config": [{}], "gpu": "L4"}}',
    '{"action": "log", "log": {"a": 1}}', '{"action": "log", "log": ["x", null]}', '{"action": "log", "log": 3}',
    '{"action": "plan", "lang": ["es"], "inputs": {}}', '{"action": "plan", "lang": {"x": 1}}',
    '{"action": "plan", "inputs": {"' + "k" * 10_000 + '": 1}}',
    "[" * 100_000,                                    # nesting deeper than json's recursion limit
    '{"a": ' * 100_000 + "1" + "}" * 100_000,
    '{"action": "plan", "inputs": {"config": ' + '{"text_config": ' * 5_000 + "1" + "}" * 5_000 + ', "gpu": "L4"}}',
]


@pytest.mark.parametrize("request_text", GARBAGE, ids=range(len(GARBAGE)))
def test_compute_never_raises(request_text: str) -> None:
    call(request_text)


@pytest.mark.parametrize("request_obj", [None, 123, 4.5, b'{"action": "plan"}', ["plan"]], ids=repr)
def test_compute_never_raises_on_non_text(request_obj: object) -> None:
    text = compute(request_obj)  # type: ignore[arg-type]
    assert json.loads(text)["ok"] is False or isinstance(request_obj, bytes)


def test_malformed_requests_are_bad_request() -> None:
    for text in ("not json", "[]", "42", '{"action": "dance"}', '{"action": "plan", "inputs": "model=x"}'):
        response = call(text)
        assert response["ok"] is False
        assert response["errors"][0]["code"] == "bad_request", text


# Wrong types inside a pasted config are the reader's input errors, not the calculator's.
HOSTILE_CONFIGS = [
    {"model_type": "gemma3_text", "num_hidden_layers": 12, "num_attention_heads": 8, "hidden_size": 1024,
     "sliding_window": 512, "sliding_window_pattern": "six"},
    {"model_type": "llama", "num_hidden_layers": 4, "num_attention_heads": 4, "hidden_size": 256,
     "num_experts_per_tok": "two"},
    {"model_type": "llama", "num_hidden_layers": 4, "num_attention_heads": 4, "hidden_size": 256,
     "rope_scaling": {"rope_type": "linear", "factor": 1e308}},
    {"model_type": "mixtral", "num_hidden_layers": 4, "num_attention_heads": 4, "hidden_size": 256,
     "num_local_experts": "eight"},
]


@pytest.mark.parametrize("config", HOSTILE_CONFIGS, ids=range(len(HOSTILE_CONFIGS)))
def test_bad_config_values_are_input_errors_not_internal(config: dict) -> None:
    response = call({"action": "plan", "inputs": {"config": json.dumps(config), "gpu": "L4"}})
    assert response["ok"] is False
    err = response["errors"][0]
    assert err["code"] != "internal", err
    assert err["field"] == "config"


@pytest.mark.parametrize(("key", "value"), [("available_kv_gib", "1e300"), ("weights_gib", "1e300"),
                                            ("gpu_memory_gib", "1e300")])
def test_huge_numbers_are_input_errors_not_internal(key: str, value: str) -> None:
    inputs = {"model": "Qwen/Qwen3-8B", "gpu_memory_gib": "80", key: value}
    response = call({"action": "plan", "inputs": inputs})
    if response["ok"]:
        return  # a huge figure may legitimately be computed with; it must just not crash
    err = response["errors"][0]
    assert err["code"] != "internal", err
    assert err["field"] == key


# --- localized errors ---------------------------------------------------------------------

def test_errors_are_localized_with_field() -> None:
    inputs = {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "max_model_len": "1.5K"}
    errs = {lang: call({"action": "plan", "lang": lang, "inputs": inputs})["errors"][0] for lang in ("es", "zh", "en")}
    assert {e["code"] for e in errs.values()} == {"binary_suffix_decimal"}
    assert {e["field"] for e in errs.values()} == {"max_model_len"}
    messages = [e["message"] for e in errs.values()]
    assert len(set(messages)) == 3, messages
    assert all("1.5K" in m for m in messages)  # the offending value is quoted in every language
    assert re.search(r"[\u4e00-\u9fff]", errs["zh"]["message"])


def test_unknown_language_falls_back_to_english() -> None:
    inputs = {"model": "acme/Nope", "gpu": "L4"}
    fr = call({"action": "plan", "lang": "fr", "inputs": inputs})["errors"][0]
    en = call({"action": "plan", "lang": "en", "inputs": inputs})["errors"][0]
    assert fr == en


def test_missing_lang_is_english_and_action_defaults_to_plan() -> None:
    response = call({"inputs": {"model": "Qwen/Qwen3-8B", "available_kv_gib": "60", "max_model_len": "32768"}})
    assert response["ok"] is True
    assert response["report"]["lang"] == "en"


# --- the result is the CLI's result -------------------------------------------------------

INPUTS = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "16384", "kv_cache_dtype": "fp8",
          "max_num_seqs": "32"}
ARGV = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "16384", "--kv-cache-dtype", "fp8",
        "--max-num-seqs", "32", "--json"]


def test_result_equals_result_dict_and_cli_json() -> None:
    web = call({"action": "plan", "lang": "es", "inputs": INPUTS})
    assert web["ok"] is True
    direct = json.loads(json.dumps(result_dict(analyze(scenario_from_inputs(INPUTS)))))
    assert web["result"] == direct
    out = io.StringIO()
    main(ARGV, stdout=out, stderr=io.StringIO())
    assert web["result"] == json.loads(out.getvalue())
    assert web["query"] == canonical_query(INPUTS)


def test_result_does_not_depend_on_language() -> None:
    results = [call({"action": "plan", "lang": lang, "inputs": INPUTS})["result"] for lang in ("es", "zh", "en")]
    assert results[0] == results[1] == results[2]


def test_worked_example_through_compute() -> None:
    # 60 GiB // (16 × 147,456 B) = 27,306 blocks; × 16 = 436,896 tokens; 27,306 / 2,048 = 13.33
    r = call({"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "available_kv_gib": "60",
                                           "max_model_len": "32768"}})["result"]
    assert (r["num_gpu_blocks"], r["gpu_kv_cache_tokens"]) == (27_306, 436_896)
    assert r["max_concurrency"] == pytest.approx(27_306 / 2_048)


# --- no markup from user input in the SVG charts ---------------------------------------------

def _svgs(response: dict) -> list[str]:
    report = response.get("report") or {}
    return [v for k, v in (report.get("charts") or {}).items() if k.endswith("_svg")]


def _assert_no_injection(response: dict) -> None:
    for svg in _svgs(response):
        assert XSS not in svg
        assert "<img" not in svg and "onerror" not in svg
        tags = set(re.findall(r"<\s*([A-Za-z][\w:-]*)", svg))
        assert tags <= {"svg", "title", "text", "rect", "line", "path", "circle", "g", "tspan"}, tags


def test_markup_as_model_name() -> None:
    response = call({"action": "plan", "inputs": {"model": XSS, "gpu": "H100-80GB"}})
    assert response["ok"] is False and response["errors"][0]["field"] == "model"
    _assert_no_injection(response)


def test_markup_as_config_text_and_name() -> None:
    bad = call({"action": "plan", "inputs": {"config": XSS, "gpu": "H100-80GB"}})
    assert bad["ok"] is False and bad["errors"][0]["code"] == "config_not_json"
    config = {"_name_or_path": XSS, "model_type": "llama", "num_hidden_layers": 32, "num_attention_heads": 32,
              "num_key_value_heads": 8, "hidden_size": 4096, "intermediate_size": 14336, "vocab_size": 128256,
              "max_position_embeddings": 8192, "torch_dtype": "bfloat16"}
    response = call({"action": "plan", "inputs": {"config": json.dumps(config), "gpu": "H100-80GB"}})
    assert response["ok"] is True
    assert _svgs(response), "a plan that fits draws its charts"
    _assert_no_injection(response)


def test_markup_in_log() -> None:
    for text in (XSS, SAMPLE_LOG.read_text(encoding="utf-8").replace("meta-llama/Llama-3.1-8B-Instruct", XSS)):
        _assert_no_injection(call({"action": "log", "log": text}))


# --- the log action -------------------------------------------------------------------------

def test_log_action_fills_inputs_from_sample_log() -> None:
    response = call({"action": "log", "lang": "es", "log": SAMPLE_LOG.read_text(encoding="utf-8")})
    assert response["ok"] is True
    assert response["reading"]["diagnosis"] == "started"
    inputs = response["inputs"]
    # every figure below is printed in kvguide_macros/data/sample.log
    expected = {
        "model": "meta-llama/Llama-3.1-8B-Instruct", "vllm_version": "0.19.0", "max_model_len": "32768",
        "gpu_memory_utilization": "0.95", "max_num_seqs": "1024", "max_num_batched_tokens": "8192",
        "available_kv_gib": "58.11", "gpu_memory_gib": "79.19", "weights_gib": "14.99",
        "activation_gib": "1.89", "non_torch_gib": "0.25", "cudagraph_gib": "0.91",
    }
    for key, value in expected.items():
        assert inputs.get(key) == value, key
    assert response["query"] == canonical_query(inputs)
    r = response["result"]
    # Llama-3.1-8B: 32 layers × 8 KV heads × 128 × 2 × 2 B = 131,072 B/token; block = 16 × 131,072 = 2,097,152 B
    # 58.11 GiB = round(58.11 × 2^30) = 62,395,137,393 B // 2,097,152 = 29,752 blocks at the midpoint, but the
    # log's own 476,016 tokens = 29,751 × 16 (0.19: tokens = blocks × block size): "58.11" covers
    # 58.105–58.115 GiB = 62,389,768,684–62,400,506,101 B, and 29,751 blocks take 62,392,369,152–62,394,466,303 B
    # (29,751 × 2,097,152 up to 29,752 × 2,097,152 − 1). The log is recomputed at the byte figure in both
    # nearest the midpoint, 62,394,466,303 B (kvcalc.logs.log_capacity).
    assert r["available_kv_bytes"] == 62_394_466_303
    assert r["num_gpu_blocks"] == 29_751
    assert r["gpu_kv_cache_tokens"] == 476_016
    # concurrency 29,751 / cdiv(32,768, 16) = 29,751 / 2,048 = 14.5268…
    assert r["max_concurrency"] == pytest.approx(29_751 / 2_048)
    assert f"{r['max_concurrency']:.2f}" == "14.53"  # what the log printed
    # the report says why (in the reader's language), and the form keeps the log's GiB as printed
    assert any("62\u202f394\u202f466\u202f303 B" in note for note in response["report"]["notes"])
    assert response["report"]["lang"] == "es"
    english = call({"action": "log", "lang": "en", "log": SAMPLE_LOG.read_text(encoding="utf-8")})
    assert response["reading"]["title"] != english["reading"]["title"]


def test_log_action_unknown_text() -> None:
    response = call({"action": "log", "log": "hello world"})
    assert response["ok"] is True
    assert response["reading"]["diagnosis"] == "unknown"
    assert response["result"] is None and response["report"] is None


def test_log_failure_the_plan_cannot_see_leads_the_report() -> None:
    # vLLM 0.19, gpt-oss-20b on an H100: the start-up KV check passed, then the sampler warm-up
    # ran out of CUDA memory. The recomputed plan fits, so the verdict must come from the log.
    text = (Path(__file__).parent / "data" / "logs" / "llmd_v019_gpt_oss_20b_h100_sampler_oom.log").read_text()
    titles = set()
    for lang in ("es", "zh", "en"):
        answer = json.loads(compute(json.dumps({"action": "log", "lang": lang, "log": text})))
        assert answer["reading"]["diagnosis"] == "cuda_out_of_memory"
        assert answer["result"]["fits"] is True
        assert answer["report"]["verdict"]["kind"] == "cuda_out_of_memory"
        titles.add(answer["report"]["verdict"]["title"])
    assert len(titles) == 3
