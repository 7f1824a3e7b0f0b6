"""The ``kvcalc`` command line (README "The kvcalc command"): exit codes, ``--json`` keys,
the Qwen3-8B worked example, ``kvcalc log``, and the readable report.

In-process through ``kvcalc.faces.cli.main`` and, for the installed entry points, as
real subprocesses (``python -m kvcalc`` and the ``kvcalc`` console script).

Hand arithmetic used throughout (Qwen/Qwen3-8B: 36 layers, 8 KV heads, head_dim 128, bf16):
  bytes per token  = 36 × 8 × 128 × 2 (K and V) × 2 B           = 147,456
  bytes per block  = 16 × 147,456                                = 2,359,296
  60 GiB           = 60 × 2^30                                   = 64,424,509,440
  blocks           = 64,424,509,440 // 2,359,296                 = 27,306  (27,306.67)
  tokens           = 27,306 × 16                                 = 436,896
  one 32,768 req.  = cdiv(32,768, 16) = 2,048 blocks × 2,359,296 = 4,831,838,208 B = 4.5 GiB
  concurrency      = 27,306 / 2,048                              = 13.3330078125
"""
from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from kvcalc import catalog
from kvcalc.faces.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = ROOT / "kvguide_macros" / "data" / "sample.log"
WORKED = ["plan", "--model", "Qwen/Qwen3-8B", "--available-kv-gib", "60", "--max-model-len", "32768"]
# Does not fit: 4 GiB available for the full derived 40,960 tokens.
#   needed     = cdiv(40,960, 16) = 2,560 blocks × 2,359,296 = 6,039,797,760 B = 5.625 GiB → format_gib "5.62" (ties to even)
#   blocks     = 4,294,967,296 // 2,359,296 = 1,820 (1,820 × 2,359,296 = 4,293,918,720)
#   estimate   = 1,820 × 16 = 29,120 tokens
TOO_SMALL = ["plan", "--model", "Qwen/Qwen3-8B", "--available-kv-gib", "4"]

CONTRACT_KEYS = ("fits", "max_model_len", "kv_bytes_per_token", "available_kv_bytes", "needed_kv_bytes",
                 "num_gpu_blocks", "gpu_kv_cache_tokens", "max_concurrency", "estimated_max_model_len",
                 "vllm_log", "vllm_error", "budget", "recommendations")


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


def run_json(argv: list[str], stdin: str = "") -> tuple[int, dict]:
    code, out, err = run(argv + ["--json"], stdin)
    assert err == ""
    return code, json.loads(out)


def _subprocess(cmd: list[str], stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    # stdin never inherited: a command that read the terminal would hang the test run
    if stdin is None:
        return subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120, cwd=cwd)
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=120, cwd=cwd)


def _console_script() -> Path:
    bindir = Path(sys.executable).parent
    script = bindir / ("kvcalc.exe" if sys.platform == "win32" else "kvcalc")
    assert script.exists(), f"console script not installed next to {sys.executable}"
    return script


# --- the worked example -------------------------------------------------------------------

def _check_worked(result: dict) -> None:
    assert result["fits"] is True
    assert result["max_model_len"] == 32_768
    assert result["kv_bytes_per_token"] == 147_456
    assert result["available_kv_bytes"] == 64_424_509_440
    assert result["needed_kv_bytes"] == 4_831_838_208
    assert result["num_gpu_blocks"] == 27_306
    assert result["gpu_kv_cache_tokens"] == 436_896
    assert result["max_concurrency"] == pytest.approx(27_306 / 2_048)
    # 40,960 (max_position_embeddings) needs 2,560 blocks ≤ 27,306: the whole derived length fits
    assert result["estimated_max_model_len"] == 40_960


def test_worked_example_in_process() -> None:
    code, result = run_json(WORKED)
    assert code == 0
    _check_worked(result)


def test_worked_example_vllm_lines() -> None:
    _, result = run_json(WORKED)
    lines = result["vllm_log"]
    text = "\n".join(lines)
    assert "Available KV cache memory: 60.0 GiB" in lines            # format_gib(60 GiB) = "60.0"
    assert "GPU KV cache size: 436,896 tokens" in text
    assert "Maximum concurrency for 32,768 tokens per request: 13.33x" in text  # 13.333… → %.2f


def test_worked_example_python_m(tmp_path: Path) -> None:
    proc = _subprocess([sys.executable, "-m", "kvcalc", *WORKED, "--json"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    _check_worked(json.loads(proc.stdout))


def test_worked_example_console_script(tmp_path: Path) -> None:
    proc = _subprocess([str(_console_script()), *WORKED, "--json"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    _check_worked(json.loads(proc.stdout))


# --- the --json contract ------------------------------------------------------------------

@pytest.mark.parametrize("argv", [WORKED, TOO_SMALL], ids=["fits", "does_not_fit"])
def test_json_has_every_contract_key(argv: list[str]) -> None:
    _, result = run_json(argv)
    missing = [k for k in CONTRACT_KEYS if k not in result]
    assert not missing, f"--json lacks contract keys {missing}"


def test_json_budget_object() -> None:
    # budget: total, requested, weights, activation, non_torch, cudagraph, available (bytes), each estimated or given
    _, result = run_json(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--weights-gib", "15.27"])
    budget = result["budget"]
    for name in ("total", "requested", "weights", "activation", "non_torch", "cudagraph", "available"):
        assert f"{name}_bytes" in budget, f"budget lacks {name}_bytes"
    assert "weights" not in budget["estimated"]   # given with --weights-gib
    assert "activation" in budget["estimated"]    # not given: estimated


def test_json_does_not_fit() -> None:
    code, result = run_json(TOO_SMALL)
    assert code == 1
    assert result["fits"] is False
    assert result["max_model_len"] == 40_960
    assert result["needed_kv_bytes"] == 6_039_797_760
    assert result["available_kv_bytes"] == 4_294_967_296
    # 16 × ((4 GiB − one 2,359,296 B block) // 2,359,296) = 16 × 1,819 = 29,104 (the null block, 0.29.0+)
    assert result["estimated_max_model_len"] == 29_104
    assert result["num_gpu_blocks"] is None
    assert result["gpu_kv_cache_tokens"] is None
    assert result["max_concurrency"] is None
    error = result["vllm_error"]
    assert error.startswith("To serve at least one request with the model's max seq len (40960), "
                            "(5.62 GiB KV cache is needed, which is larger than the available KV cache memory "
                            "(4.0 GiB). Based on the available memory, the estimated maximum model length is 29104. ")


def test_json_recommendations_shape_and_first_rung() -> None:
    _, result = run_json(TOO_SMALL)
    recs = result["recommendations"]
    assert recs, "a deployment that does not fit gets advice"
    for r in recs:
        assert isinstance(r["code"], str) and r["code"]
        assert isinstance(r["anchor"], str) and r["anchor"]
        assert isinstance(r["settings"], dict)
    # First rung: 60–80 % of 29,120 = 17,472–23,296; no 2^k nor 1.5 × 2^k in that range
    # (16,384 < 17,472; 24,576 and 32,768 > 23,296), so the largest multiple of 1024 ≤ 23,296: 22 × 1024 = 22,528.
    first = recs[0]
    assert (first["code"], first["anchor"], first["settings"]) == ("lower_max_model_len", "lower-max-model-len",
                                                                    {"max_model_len": 22_528})
    # what-if: cdiv(22,528, 16) = 1,408 blocks ≤ 1,820 → fits; 1,820 / 1,408 = 1.29261…
    assert first["fits"] is True
    assert first["num_gpu_blocks"] == 1_820
    assert first["max_concurrency"] == pytest.approx(1_820 / 1_408)


# --- exit status 2: bad input -------------------------------------------------------------

BAD_ARGV = [
    ["plan", "--model", "Qwen/Qwen3-8B", "--available-kv-gib", "60", "--max-model-len", "1.5K"],
    ["plan", "--model", "acme/NoSuchModel", "--gpu", "H100-80GB"],
    ["plan", "--model", "Qwen/Qwen3-8B"],                                     # no GPU and no measured figure
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "GTX-480"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--tensor-parallel-size", "3"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--max-model-len", "1000000"],  # > 40,960
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--gpu-memory-utilization", "1.5"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--kv-cache-dtype", "int3"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--vllm-version", "banana"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--bogus-flag"],
    ["plan", "--config", "/nonexistent/kvcalc/config.json", "--gpu", "L4"],
    ["plan"],
    [],
    ["frobnicate"],
    ["log", "/nonexistent/kvcalc/vllm.log"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--lang", "es", "--max-num-seqs", "0"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--lang", "zh", "--block-size", "24"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--available-kv-gib", "1e300"],  # 1e300 × 2^30 overflows a float
]


@pytest.mark.parametrize("argv", BAD_ARGV, ids=lambda a: " ".join(a) or "<empty>")
def test_bad_input_exit_2_one_line(argv: list[str]) -> None:
    code, out, err = run(argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert len(err.strip()) > len("kvcalc: error: ")
    assert "Traceback" not in err


def test_bad_input_message_is_localized() -> None:
    es = run(BAD_ARGV[-2])[2]
    en = run([a for a in BAD_ARGV[-2] if a not in ("--lang", "es")])[2]
    assert es != en


def test_bad_config_json_names_line(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{\n  "model_type": "llama",\n}\n', encoding="utf-8")
    code, out, err = run(["plan", "--config", str(path), "--gpu", "L4"])
    # a trailing comma: json stops at the "}" that opens line 3, column 1
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "line 3, column 1" in err


# End to end, one bad input per launcher (every BAD_ARGV runs in-process above): the exit status and
# the one stderr line survive the real entry points.
@pytest.mark.parametrize(("launcher", "argv"), [("python_m", BAD_ARGV[0]), ("console_script", BAD_ARGV[9])])
def test_bad_input_subprocess(launcher: str, argv: list[str], tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "kvcalc"] if launcher == "python_m" else [str(_console_script())]
    proc = _subprocess(cmd + argv, cwd=tmp_path)
    assert proc.returncode == 2, (argv, proc.stderr)
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr


# exit 0 through both launchers is test_worked_example_python_m / _console_script
@pytest.mark.parametrize("launcher", ["python_m", "console_script"])
def test_exit_status_fits_and_not(launcher: str, tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "kvcalc"] if launcher == "python_m" else [str(_console_script())]
    proc = _subprocess(cmd + TOO_SMALL, cwd=tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr


# --- --config with a directory --------------------------------------------------------------

TINY = {"model_type": "llama", "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
        "hidden_size": 256, "intermediate_size": 1024, "vocab_size": 1000, "max_position_embeddings": 4096,
        "torch_dtype": "bfloat16"}
# per token: 2 layers × 2 KV heads × (256 / 4 = 64) × 2 × 2 B = 1,024 B; per block 16 × 1,024 = 16,384 B
# 1,064,960 B = 65 blocks, one held back for the null block (0.29.0+); 1,024 tokens need cdiv(1024, 16) = 64
# blocks: fits exactly.


def test_config_directory(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps(TINY), encoding="utf-8")
    code, result = run_json(["plan", "--config", str(tmp_path), "--available-kv-bytes", "1064960",
                             "--max-model-len", "1024"])
    assert code == 0
    assert result["kv_bytes_per_token"] == 1_024
    assert result["needed_kv_bytes"] == 1_048_576
    assert result["num_gpu_blocks"] == 65               # blocks are counted from the whole memory
    assert result["gpu_kv_cache_tokens"] == 1_040       # int(65 / 64 × 1,024)
    assert result["max_concurrency"] == pytest.approx(65 / 64)
    assert result["estimated_max_model_len"] == 1_024   # 1,025 would need 65 usable blocks, 64 are


def test_config_file_one_token_too_many(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    code, result = run_json(["plan", "--config", str(path), "--available-kv-bytes", "1M", "--max-model-len", "1025"])
    assert code == 1  # cdiv(1025, 16) = 65 blocks × 16,384 = 1,064,960 > 1,048,576
    assert result["needed_kv_bytes"] == 1_064_960


@pytest.mark.parametrize("bad", [{"sliding_window_pattern": "six", "model_type": "gemma3_text", "sliding_window": 512},
                                 {"num_experts_per_tok": "two"}], ids=["pattern", "experts"])
def test_config_with_wrong_types_exit_2(tmp_path: Path, bad: dict) -> None:
    (tmp_path / "config.json").write_text(json.dumps({**TINY, **bad}), encoding="utf-8")
    code, out, err = run(["plan", "--config", str(tmp_path), "--gpu", "L4"])
    assert code == 2 and out == "" and err.count("\n") == 1


def test_empty_config_file_is_a_config_error(tmp_path: Path) -> None:
    # The reader did give --config; "choose a model" would send them the wrong way.
    from kvcalc.strings import STRINGS

    (tmp_path / "config.json").write_text("", encoding="utf-8")
    code, out, err = run(["plan", "--config", str(tmp_path), "--gpu", "L4"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert STRINGS["en"]["err.missing_model"] not in err, err


def test_config_directory_without_config_json(tmp_path: Path) -> None:
    code, out, err = run(["plan", "--config", str(tmp_path), "--gpu", "L4"])
    assert code == 2 and out == "" and err.count("\n") == 1


# --- the readable report --------------------------------------------------------------------

def test_text_report_shows_gib_and_gb() -> None:
    code, out, err = run(WORKED)
    assert code == 0 and err == ""
    # 4,831,838,208 B = 4.50 GiB = 4.83 GB (10^9); 64,424,509,440 B = 60.00 GiB = 64.42 GB
    assert "4.50 GiB (4.83 GB)" in out
    assert "60.00 GiB (64.42 GB)" in out
    assert "27,306" in out and "436,896" in out and "13.33" in out
    assert "vllm serve Qwen/Qwen3-8B" in out


def test_text_report_table_is_aligned() -> None:
    out = run(WORKED)[1]
    lines = out.splitlines()
    needed = next(line for line in lines if line.rstrip().endswith("4.50 GiB (4.83 GB)"))
    blocks = next(line for line in lines if "27,306 blocks" in line)
    assert needed.index("4.50 GiB") == blocks.index("27,306 blocks")


def test_text_report_languages() -> None:
    en, es, zh = (run(WORKED + ["--lang", lang])[1] for lang in ("en", "es", "zh"))
    assert len({en, es, zh}) == 3
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh)


# --- kvcalc log -------------------------------------------------------------------------------

def _check_sample(payload: dict) -> None:
    assert payload["diagnosis"] == "started"
    facts = payload["facts"]
    # printed in kvguide_macros/data/sample.log
    assert facts["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    assert facts["vllm_version"] == "0.19.0"
    assert facts["max_model_len"] == 32_768
    assert facts["available_kv_gib"] == 58.11
    assert facts["gpu_kv_cache_tokens"] == 476_016
    assert facts["max_concurrency"] == 14.53
    assert facts["model_weights_gib"] == 14.99
    assert facts["gpu_memory_utilization"] == 0.95
    assert facts["total_gpu_memory_gib"] == 79.19
    assert isinstance(payload["recommendations"], list)
    for r in payload["recommendations"]:
        assert {"code", "anchor", "settings"} <= set(r)


def test_log_file() -> None:
    code, payload = run_json(["log", str(SAMPLE_LOG)])
    assert code == 0
    assert {"diagnosis", "facts", "recommendations"} <= set(payload)
    _check_sample(payload)


def test_log_stdin() -> None:
    code, payload = run_json(["log", "-"], stdin=SAMPLE_LOG.read_text(encoding="utf-8"))
    assert code == 0
    _check_sample(payload)


def test_log_default_is_stdin_subprocess(tmp_path: Path) -> None:
    proc = _subprocess([sys.executable, "-m", "kvcalc", "log", "--json"], stdin=SAMPLE_LOG.read_text(encoding="utf-8"),
                       cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    _check_sample(json.loads(proc.stdout))


def _facts_block(out: str) -> list[str]:
    """The "What the log states" rows of a ``kvcalc log`` text report (line 3 up to the first blank line)."""
    lines = out.splitlines()
    return lines[3:lines.index("", 3)]


def _row(rows: list[str], *cells: str) -> bool:
    """Whether a row holds exactly these cells, separated by two or more spaces."""
    import re

    return any(re.split(r" {2,}", r.strip()) == list(cells) for r in rows)


def test_log_text_output() -> None:
    """Readable like ``plan``: the diagnosis in words, the facts labelled with units, the recomputed plan and its command."""
    code, out, err = run(["log", str(SAMPLE_LOG)])
    assert code == 0 and err == ""
    assert out.startswith("Diagnosis: Started successfully\n\nWhat the log states:\n")
    rows = _facts_block(out)
    # a fact under the plan's own label, with its unit (sample.log: "Available KV cache memory: 58.11 GiB")
    assert _row(rows, "Available KV cache memory (per GPU)", "58.11 GiB"), rows
    assert _row(rows, "GPU KV cache size", "476,016 tokens"), rows
    # the JSON keys stay in --json only: no raw snake_case key labels a row
    assert not any(r.split()[0] in ("available_kv_gib", "gpu_kv_cache_tokens", "enable_prefix_caching") for r in rows)
    assert "vllm serve meta-llama/Llama-3.1-8B-Instruct" in out


def test_log_text_in_spanish_and_with_a_model_for_a_model_less_log() -> None:
    # the error line alone names no model: --model completes it, and the text follows --lang
    code, out, _ = run(["log", "-", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--lang", "es"],
                       stdin=TOO_SMALL_LOG)
    assert code == 1
    assert out.startswith("Diagnóstico: Caché KV demasiado pequeña") and "vllm serve Qwen/Qwen3-8B" in out


# The error Qwen3-8B with 4 GiB would raise (see TOO_SMALL above), as vLLM ≥ 0.22 prints it.
TOO_SMALL_LOG = (
    "(EngineCore_DP0 pid=77) ERROR 05-02 10:00:00 [core.py:700] ValueError: To serve at least one request with the "
    "model's max seq len (40960), (5.62 GiB KV cache is needed, which is larger than the available KV cache memory "
    "(4.0 GiB). Based on the available memory, the estimated maximum model length is 29120. Try increasing "
    "`gpu_memory_utilization` (which also controls CPU memory on the CPU backend) or decreasing `max_model_len` when "
    "initializing the engine. See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.\n"
)


def test_log_kv_cache_too_small_exits_1() -> None:
    code, payload = run_json(["log", "-"], stdin=TOO_SMALL_LOG)
    assert code == 1
    assert payload["diagnosis"] == "kv_cache_too_small"
    facts = payload["facts"]
    assert facts["max_model_len"] == 40_960
    assert facts["needed_kv_gib"] == 5.62
    assert facts["available_kv_gib"] == 4.0
    assert facts["estimated_max_model_len"] == 29_120


def test_log_empty_is_unknown() -> None:
    code, payload = run_json(["log", "-"], stdin="")
    assert code == 0
    assert payload["diagnosis"] == "unknown"
    assert payload["facts"] == {}


def test_log_5mb_random_bytes_is_unknown(tmp_path: Path) -> None:
    # Speed (target: under a second) is measured by bench/core_bench.py, not asserted here.
    path = tmp_path / "noise.log"
    path.write_bytes(random.Random(20260814).randbytes(5 * 1024 * 1024))
    out, err = io.StringIO(), io.StringIO()
    code = main(["log", str(path), "--json"], stdout=out, stderr=err)
    assert json.loads(out.getvalue())["diagnosis"] == "unknown"
    assert code == 0 and err.getvalue() == ""


# --- kvcalc models / kvcalc gpus ----------------------------------------------------

def test_gpus_lists_the_catalog_as_text_and_json() -> None:
    out = io.StringIO()
    assert main(["gpus", "--json"], stdout=out) == 0
    rows = json.loads(out.getvalue())
    assert [r["id"] for r in rows] == [g.id for g in catalog.gpus()]
    h100 = next(r for r in rows if r["id"] == "H100-80GB")
    assert h100["memory_bytes"] == 85_029_158_912 and h100["name"] == "NVIDIA H100 80GB HBM3"
    out = io.StringIO()
    assert main(["gpus"], stdout=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["id", "name", "memory"] and len(lines) == len(rows) + 1
    # 85,029,158,912 / 2^30 = 79.1875 → "79.19 GiB"
    assert any(line.startswith("H100-80GB") and line.endswith("79.19 GiB") for line in lines)


def test_models_lists_the_catalog_as_text_and_json() -> None:
    out = io.StringIO()
    assert main(["models", "--json"], stdout=out) == 0
    rows = json.loads(out.getvalue())
    assert [r["id"] for r in rows] == [m.id for m in catalog.models()]
    assert {"id", "family", "num_parameters"} == set(rows[0])
    out = io.StringIO()
    assert main(["models"], stdout=out) == 0
    # Llama-3.1-70B: 70,553,706,496 parameters / 1e9 = 70.55… → "70.6B"
    assert any(line.startswith("meta-llama/Llama-3.1-70B-Instruct") and line.endswith("70.6B")
               for line in out.getvalue().splitlines())


def test_decode_context_parallel_flag() -> None:
    # DeepSeek-V3, TP 8, DCP 2, H200, 40 GiB measured, 0.11.0: 9,549 blocks × 64 × 2 = 1,222,272 tokens
    # (arithmetic in tests/test_dcp.py)
    code, result = run_json(["plan", "--model", "deepseek-ai/DeepSeek-V3", "--gpu", "H200",
                             "--tensor-parallel-size", "8", "--decode-context-parallel-size", "2",
                             "--available-kv-gib", "40", "--vllm-version", "0.11.0", "--max-model-len", "100000"])
    assert code == 0
    assert result["gpu_kv_cache_tokens"] == 1_222_272
    assert "Multiplying the GPU KV cache size by the dcp_world_size 2." in result["vllm_log"]


def test_log_engine_failed_exits_1() -> None:
    # "Available KV cache memory: 1.71 GiB" then "EngineCore failed to start.": not a start
    log = Path(__file__).parent / "data" / "logs" / "v011_gpt_oss_120b_h100_kv171.log"
    code, payload = run_json(["log", str(log)])
    assert code == 1 and payload["diagnosis"] == "engine_failed"
    code, out, _ = run(["log", str(log)])
    assert "The engine failed to start" in out


# --- --limit-mm-per-prompt and --skip-mm-profiling -------------------------------------------------
# Qwen2.5-VL-7B on an RTX 4090, vLLM 0.19.0, 32,768 tokens (hand arithmetic in test_estimates.py): the encoder's
# video run is the activation peak, 4,898,108,211 B; without the encoder the sampler warm-up, 607,282,790 B.
VL_PLAN = ["plan", "--model", "Qwen/Qwen2.5-VL-7B-Instruct", "--gpu", "RTX-4090", "--max-model-len", "32768",
           "--vllm-version", "0.19.0"]


@pytest.mark.parametrize(("flags", "activation", "limits", "skip"), [
    ([], 4_898_108_211, None, False),
    (["--limit-mm-per-prompt", '{"image": 1}'], 4_898_108_211, {"image": 1}, False),
    (["--limit-mm-per-prompt", '{"video": 0}'], 2_449_054_105, {"video": 0}, False),
    (["--limit-mm-per-prompt", '{"image": 0, "video": 0}'], 607_282_790, {"image": 0, "video": 0}, False),
    (["--skip-mm-profiling"], 607_282_790, None, True),
])
def test_mm_flags_round_trip_through_the_cli(flags: list[str], activation: int, limits: dict | None,
                                             skip: bool) -> None:
    code, result = run_json(VL_PLAN + flags)
    assert code == 0
    assert result["budget"]["activation_bytes"] == activation
    assert result["limit_mm_per_prompt"] == limits and result["skip_mm_profiling"] is skip
    # the `vllm serve` line echoes the flags as vLLM reads them, and a log reader gets them back from it
    from kvcalc.logs.logparse import parse_log

    code, text, _ = run(VL_PLAN + flags)
    command = text[text.rindex("vllm serve"):].split("\n\n")[0]  # "Your current command"
    if limits is not None:
        assert "--limit-mm-per-prompt '" + json.dumps(limits) + "'" in command
        # every recommended command keeps the reader's flag
        assert text.count("--limit-mm-per-prompt '") == text.count("vllm serve")
    assert ("--skip-mm-profiling" in command) is skip
    facts = parse_log(command.replace("\\\n", " ")).facts
    assert facts.get("limit_mm_per_prompt") == (json.dumps(limits) if limits is not None else None)
    assert bool(facts.get("skip_mm_profiling")) is skip


def test_mm_limit_echo_uses_the_old_spelling_before_0_8_5() -> None:
    # vLLM 0.8.4's --limit-mm-per-prompt is nullable_kvs: the echo writes image=0,video=0, not JSON
    code, text, _ = run(["plan", "--model", "Qwen/Qwen2.5-VL-7B-Instruct", "--gpu", "RTX-4090", "--vllm-version", "0.8.4",
                         "--limit-mm-per-prompt", "image=0,video=0"])
    assert code in (0, 1) and "--limit-mm-per-prompt image=0,video=0" in text


@pytest.mark.parametrize(("flags", "needle"), [
    (["--limit-mm-per-prompt", '{"image": {"image": {"image": 1}}}'], "nested"),
    (["--limit-mm-per-prompt", '{"image": ' + "9" * 300 + "}"], "outside the allowed range"),
    (["--limit-mm-per-prompt", '{"image": -2}'], "outside the allowed range"),
    (["--limit-mm-per-prompt", "[0]"], "JSON object"),
    (["--limit-mm-per-prompt", "image=0"], "JSON object"),
    (["--skip-mm-profiling", "--vllm-version", "0.10.0"], "0.10.1"),
])
def test_bad_mm_flags_exit_2_with_one_line(flags: list[str], needle: str) -> None:
    code, out, err = run(VL_PLAN[:5] + flags)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and needle in err, err
    _, _, err_es = run(VL_PLAN[:5] + flags + ["--lang", "es"])
    assert len(err_es.strip().splitlines()) == 1 and err_es != err


def test_log_args_carry_the_mm_flags() -> None:
    # vLLM's "non-default args" echo prints the parsed dicts; the log reader passes them to the plan
    from kvcalc.logs.diagnose import inputs_from_reading
    from kvcalc.logs.logparse import parse_log

    line = ("INFO 09-01 10:00:00 [utils.py:326] non-default args: {'model': 'Qwen/Qwen2.5-VL-7B-Instruct', "
            "'max_model_len': 32768, 'limit_mm_per_prompt': {'image': 0, 'video': 0}, 'skip_mm_profiling': True}\n")
    inputs = inputs_from_reading(parse_log(line))
    assert inputs["limit_mm_per_prompt"] == '{"image": 0, "video": 0}' and inputs["skip_mm_profiling"] == "1"
    code, out, err = run(["log", "-", "--gpu", "RTX-4090", "--json"], stdin=line)
    plan_result = json.loads(out)["plan"]
    assert plan_result["limit_mm_per_prompt"] == {"image": 0, "video": 0} and plan_result["skip_mm_profiling"] is True
    assert plan_result["budget"]["activation_bytes"] == 607_282_790


# --- kvcalc log reads like plan -----------------------------------------------------

NNBSP = "\u202f"  # Spanish thousands separator (numfmt.THOUSANDS_SPACE)


@pytest.mark.parametrize(("lang", "expected"), [
    # every value below is printed in kvguide_macros/data/sample.log: "Available KV cache memory: 58.11 GiB",
    # "GPU KV cache size: 476,016 tokens", 'enable_prefix_caching': False, 'max_model_len': 32768, "0.95"
    ("en", [("Available KV cache memory (per GPU)", "58.11 GiB"), ("GPU KV cache size", "476,016 tokens"),
            ("Prefix caching", "no", "--enable-prefix-caching"), ("max_model_len checked", "32,768 tokens", "--max-model-len"),
            ("GPU memory utilization", "0.95", "--gpu-memory-utilization"), ("Maximum concurrency at max_model_len", "14.53x")]),
    ("es", [("Memoria disponible para la caché KV (por GPU)", "58,11 GiB"),
            ("Tamaño de la caché KV en GPU", f"476{NNBSP}016 tokens"),
            ("Caché de prefijos", "no", "--enable-prefix-caching"),
            ("max_model_len comprobado", f"32{NNBSP}768 tokens", "--max-model-len"),
            ("Utilización de la memoria de la GPU", "0,95", "--gpu-memory-utilization"),
            ("Concurrencia máxima con max_model_len", "14,53x")]),
    ("zh", [("可用 KV 缓存显存（每张 GPU）", "58.11 GiB"), ("GPU KV 缓存容量", "476,016 个 token"),
            ("前缀缓存", "否", "--enable-prefix-caching"), ("检查所用的 max_model_len", "32,768 个 token", "--max-model-len"),
            ("GPU 显存利用率", "0.95", "--gpu-memory-utilization"), ("max_model_len 下的最大并发", "14.53x")]),
])
def test_log_facts_are_labelled_and_localized(lang: str, expected: list[tuple[str, ...]]) -> None:
    code, out, err = run(["log", str(SAMPLE_LOG), "--lang", lang])
    assert code == 0 and err == ""
    rows = _facts_block(out)
    for cells in expected:
        assert _row(rows, *cells), (cells, rows)
    assert not any("_gib" in r or "True" in r or "False" in r for r in rows)


def test_log_json_keys_do_not_change() -> None:
    """Other programs read ``kvcalc log --json``: the same top-level keys, the facts under their snake_case keys."""
    _, payload = run_json(["log", str(SAMPLE_LOG)])
    # "mismatches" was added (never renamed): the log's exact figures the recomputation misses
    assert set(payload) == {"diagnosis", "facts", "inputs", "recommendations", "plan", "mismatches"}
    assert {"available_kv_gib", "gpu_kv_cache_tokens", "enable_prefix_caching"} <= set(payload["facts"])
    assert payload["facts"]["enable_prefix_caching"] is False
    assert set(payload["plan"]) == set(run_json(WORKED)[1])


def test_log_recomputed_plan_has_serve_command_and_guide_links() -> None:
    code, out, _ = run(["log", str(SAMPLE_LOG)])
    _, payload = run_json(["log", str(SAMPLE_LOG)])
    assert code == 0 and payload["plan"] is not None
    assert "Your current command (starts):\nvllm serve meta-llama/Llama-3.1-8B-Instruct" in out
    anchors = [r["anchor"] for r in payload["recommendations"]]
    assert anchors and all(f"(#{a})" in out for a in anchors)


def test_log_model_flag_completes_a_model_less_log() -> None:
    # TOO_SMALL_LOG names no model and no GPU; its "available KV cache memory (4.0 GiB)" is the budget
    code, payload = run_json(["log", "-", "--model", "Qwen/Qwen3-8B"], stdin=TOO_SMALL_LOG)
    plan_result = payload["plan"]
    assert code == 1 and plan_result["model"] == "Qwen/Qwen3-8B"
    # the check TOO_SMALL works out by hand: 2,560 blocks × 2,359,296 = 6,039,797,760 B needed; the log's own
    # estimate 29,120 = 16 × 1,820 blocks (+ the null block: 1,821 × 2,359,296 = 4,296,278,016 B, inside its
    # 4.0 ± 0.005 GiB; the midpoint 4,294,967,296 B would give 16 × (1,820 − 1) = 29,104)
    assert plan_result["needed_kv_bytes"] == 6_039_797_760 and plan_result["estimated_max_model_len"] == 29_120


def test_log_config_flag_completes_a_model_less_log() -> None:
    # the same check from Qwen3-8B's config.json (scripts/model_configs, sources in SOURCES.md) instead of the catalog id
    config = ROOT / "scripts" / "model_configs" / "Qwen" / "Qwen3-8B"
    code, out, _ = run(["log", "-", "--config", str(config)], stdin=TOO_SMALL_LOG)
    _, payload = run_json(["log", "-", "--config", str(config)], stdin=TOO_SMALL_LOG)
    assert code == 1 and payload["plan"]["needed_kv_bytes"] == 6_039_797_760
    assert "vllm serve" in out and "29,120" in out


def test_log_gpu_flag_completes_a_log_without_memory_figures() -> None:
    # only the command: a model, no GPU and no memory line; --gpu gives the budget to estimate
    log = "$ vllm serve Qwen/Qwen3-8B --max-model-len 32768\n"
    code, payload = run_json(["log", "-"], stdin=log)
    assert payload["plan"] is None
    code, payload = run_json(["log", "-", "--gpu", "H100-80GB"], stdin=log)
    assert payload["plan"]["gpu"] == "H100-80GB" and payload["plan"]["max_model_len"] == 32_768
    assert payload["plan"]["budget"]["source"] == "profiled"


def test_log_naming_a_model_outside_the_catalog_says_so() -> None:
    # The GB10 log (NVIDIA's 0.13 build) names huihui-ai's gpt-oss-20b derivative, not in the catalog: the note
    # must not claim that the log names no model, and the reason comes with it.
    path = Path(__file__).parent / "data" / "logs" / "v0130nv2601_gpt_oss_20b_mxfp4_gb10_util025_8k.log"
    for lang, text in (("en", "could not plan the model this log names"), ("es", "no pudo planificar el modelo"),
                       ("zh", "无法为日志中的模型制定方案")):
        out = io.StringIO()
        assert main(["log", str(path), "--lang", lang], stdout=out, stderr=io.StringIO()) == 0
        assert text in out.getvalue()
        assert "names no model" not in out.getvalue() and "no nombra el modelo" not in out.getvalue()
