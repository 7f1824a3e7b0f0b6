"""``--dtype``: the model's serving dtype (vllm/config/model.py ModelDType, _STR_DTYPE_TO_TORCH_DTYPE).

The reader's ``--dtype`` is kept in every printed command (a log's ``'dtype': 'half'`` too); a 16-bit
choice sizes nothing differently, ``float``/``float32`` doubles an ``auto`` KV cache and is planned
only from a measured budget (the estimate's terms are fitted on 16-bit runs). What a log's engine line
prints as vLLM resolved it (its dtype, its prefix caching) is planned with but never printed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kvcalc.analysis import analyze
from kvcalc.errors import CalcError
from kvcalc.faces.report import serve_command
from kvcalc.faces.web import compute_dict
from kvcalc.inputs import scenario_from_inputs
from kvcalc.logs.diagnose import diagnose
from kvcalc.strings import t
from kvcalc.versions import rules_for
from kvcalc.vllm_flags import parse_serve_command

LOGS = Path(__file__).parent / "data" / "logs"
QWEN3_8B = {"model": "Qwen/Qwen3-8B", "max_model_len": "4096"}


@pytest.mark.parametrize("dtype", ["half", "float16", "bfloat16", "auto"])
def test_a_16_bit_dtype_keeps_the_bytes_and_the_flag(dtype: str) -> None:
    # Qwen3-8B: 36 layers × 8 KV heads × 128 × 2 (K and V) × 2 B = 147,456 B per token in 16 bits
    s = scenario_from_inputs({**QWEN3_8B, "gpu": "T4", "dtype": dtype})
    assert analyze(s).verdict.kv_bytes_per_token == 147_456
    command = serve_command(s)
    assert f"--dtype {dtype}" in command
    assert parse_serve_command(command, rules_for(None)).flags["dtype"] == dtype


@pytest.mark.parametrize("dtype", ["float", "float32"])
def test_float32_doubles_the_kv_cache_on_a_measured_budget(dtype: str) -> None:
    # 36 × 8 × 128 × 2 × 4 B = 294,912 B per token; 4 GiB = 4,294,967,296 B over 16 tokens × 294,912 B
    # = 4,718,592 B per block → 910 blocks (910.2), 14,560 tokens
    s = scenario_from_inputs({**QWEN3_8B, "available_kv_gib": "4", "dtype": dtype})
    v = analyze(s).verdict
    assert v.kv_bytes_per_token == 294_912
    assert v.num_gpu_blocks == 910
    assert f"--dtype {dtype}" in serve_command(s)
    # an fp8 KV cache stays 1 byte per element whatever the model dtype: 36 × 8 × 128 × 2 × 1 B
    fp8 = scenario_from_inputs({**QWEN3_8B, "available_kv_gib": "4", "dtype": dtype, "kv_cache_dtype": "fp8"})
    assert analyze(fp8).verdict.kv_bytes_per_token == 73_728


def test_float32_without_a_measured_budget_is_refused_by_name() -> None:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs({**QWEN3_8B, "gpu": "T4", "dtype": "float32"})
    assert (info.value.code, info.value.field) == ("dtype_float32_budget", "dtype")
    # a fixed KV budget is a measured one
    s = scenario_from_inputs({**QWEN3_8B, "gpu": "T4", "dtype": "float32", "kv_cache_memory_bytes": "4G"})
    assert analyze(s).verdict.kv_bytes_per_token == 294_912


def test_no_dtype_prints_no_flag() -> None:
    assert "--dtype" not in serve_command(scenario_from_inputs({**QWEN3_8B, "gpu": "T4"}))


def test_a_logs_stated_dtype_stays_in_its_command_as_written() -> None:
    # Kaggle's 2x T4 run: non-default args {'dtype': 'half', ...}; the engine line prints
    # dtype=torch.float16, the resolved value, but the command keeps the reader's spelling
    text = (LOGS / "h20d-v0220_qwen3_8b_2xt4_tp2_eager_util085_8k.log").read_text(encoding="utf-8")
    d = diagnose(text, corrections={"model": "Qwen/Qwen3-8B"})
    assert d.inputs["dtype"] == "half"
    assert d.analysis is not None
    assert "--dtype half" in serve_command(d.analysis.scenario)


def test_an_unstated_16_bit_engine_dtype_is_no_input() -> None:
    # gemma-3-27b-it on an H100, 0.19.0: dtype=torch.bfloat16 only in the engine line (vLLM's choice)
    text = (LOGS / "llmd_v019_gemma3_27b_h100.log").read_text(encoding="utf-8")
    assert "dtype" not in diagnose(text).inputs


def test_prefix_caching_is_printed_only_when_the_log_states_it() -> None:
    # 4x L40S, Qwen2.5-72B, 0.19.0: non-default args {'model', 'max_model_len': 8192, 'served_model_name',
    # 'tensor_parallel_size': 4}; the engine line's enable_prefix_caching=True is vLLM's own default
    text = (LOGS / "h20c-v0190_qwen25_72b_4xl40s_tp4_8k.log").read_text(encoding="utf-8")
    d = diagnose(text)
    assert d.analysis is not None and "enable_prefix_caching" in d.chosen_by_vllm
    command = serve_command(d.analysis.scenario)
    assert "prefix-caching" not in command
    assert parse_serve_command(command, rules_for("0.19.0")).flags == {"tensor_parallel_size": "4",
                                                                        "max_model_len": "8192"}
    # gemma-3-27b-it on an H100, 0.19.0: non-default args {..., 'enable_prefix_caching': False}
    text = (LOGS / "llmd_v019_gemma3_27b_h100.log").read_text(encoding="utf-8")
    d = diagnose(text)
    assert d.analysis is not None
    assert "--no-enable-prefix-caching" in serve_command(d.analysis.scenario)


def test_a_logs_command_is_its_non_default_args() -> None:
    # Kaggle's 2x T4 LLM(...) run: non-default args {'trust_remote_code': True, 'dtype': 'half',
    # 'max_model_len': 8192, 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.85,
    # 'disable_log_stats': True, 'enforce_eager': True, 'model': ...}; "Chunked prefill is enabled with
    # max_num_batched_tokens=8192" is LLM(...)'s own default on a small GPU, not the reader's
    text = (LOGS / "h20d-v0220_qwen3_8b_2xt4_tp2_eager_util085_8k.log").read_text(encoding="utf-8")
    d = diagnose(text, corrections={"model": "Qwen/Qwen3-8B"})
    assert d.analysis is not None
    flags = parse_serve_command(serve_command(d.analysis.scenario), rules_for("0.22.0")).flags
    assert flags == {"dtype": "half", "max_model_len": "8192", "tensor_parallel_size": "2",
                     "gpu_memory_utilization": "0.85", "enforce_eager": True}


def test_an_args_echo_holding_a_config_object_is_read() -> None:
    # GB10, 0.13.0+nv26.01: non-default args {'model_tag': ..., 'host': '0.0.0.0', 'model': ...,
    # 'max_model_len': 32768, 'gpu_memory_utilization': 0.15, 'kv_cache_dtype': 'fp8',
    # 'enable_prefix_caching': True, 'structured_outputs_config': StructuredOutputsConfig(backend=...), ...}
    text = (LOGS / "v0130nv2601_qwen25_14b_fp8dyn_gb10_util015_fp8kv_32k_no_memory.log").read_text(encoding="utf-8")
    d = diagnose(text)
    assert {"max_model_len", "gpu_memory_utilization", "kv_cache_dtype", "enable_prefix_caching"} <= d.reading.stated
    assert d.reading.facts["gpu_memory_utilization"] == 0.15
    assert d.inputs["kv_cache_dtype"] == "fp8"


def test_a_log_planned_as_another_chosen_model_says_so() -> None:
    # 4x L40S, Qwen2.5-72B (a catalog model) planned as the Qwen3-8B typed for an earlier log
    text = (LOGS / "h20c-v0190_qwen25_72b_4xl40s_tp4_8k.log").read_text(encoding="utf-8")
    for lang in ("en", "es", "zh"):
        answer = compute_dict({"action": "log", "lang": lang, "log": text, "inputs": {"model": "Qwen/Qwen3-8B"},
                               "typed": ["model"]})
        note = t(lang, "note.chosen_model_over_log", logged="Qwen/Qwen2.5-72B-Instruct", planned="Qwen/Qwen3-8B")
        assert answer["report"]["notes"][0] == note
        # not typed: the log's own model is planned, and nothing needs saying
        own = compute_dict({"action": "log", "lang": lang, "log": text})
        assert own["result"]["model"] == "Qwen/Qwen2.5-72B-Instruct"
        assert note not in own["report"]["notes"]
    # a log naming a local path: the chosen model is the reader's name for it
    text = (LOGS / "h20d-v0220_qwen3_8b_2xt4_tp2_eager_util085_8k.log").read_text(encoding="utf-8")
    answer = compute_dict({"action": "log", "lang": "en", "log": text, "inputs": {"model": "Qwen/Qwen3-8B"},
                           "typed": ["model"]})
    assert not any("The log names" in n for n in answer["report"]["notes"])
