"""Hostile input never crashes, hangs or freezes anything (README "Hostile input").

* a corpus of hostile inputs (huge and non-finite numbers, quadratic-regex bait, deep
  nesting, unbounded and irregular reads, bad encodings, loose ids, and more) given to
  the CLI's ``main`` in-process: exit 2 (or the status the input really deserves), at
  most one line on stderr, no traceback, under 200 MB allocated each (``tracemalloc``
  peak), stopped by a 20 s alarm; a handful of them (``END_TO_END``) also as a real
  process, under 200 MB peak RSS (``os.wait4`` gives the child's own ``ru_maxrss``);
* the same kinds given to the JSON boundary: never raises, never ``internal``, always
  strict JSON (``json.loads`` with a ``parse_constant`` that raises);
* every parser on 100,000-character adversarial strings (linear time);
* a hypothesis property over ``compute()`` with generated requests, configs and logs.
"""
from __future__ import annotations

import io
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scaling import GROWTH_BOUND, growth_ratio

from kvcalc import catalog
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.faces.web import compute
from kvcalc.inputs import INPUT_KEYS
from kvcalc.limits import MAX_DEPTH, check_json_depth, python_literal_ok
from kvcalc.logs.logparse import parse_log
from kvcalc.units import parse_float, parse_human_int, parse_max_model_len
from kvcalc.versions import parse_version, rules_for

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = (ROOT / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")
#: vLLM's one-request check failing: the last line of a failed start-up (exit 1 from `kvcalc log`).
FATAL = ("ValueError: To serve at least one request with the models's max seq len (32768), (4.5 GiB KV cache is "
         "needed, which is larger than the available KV cache memory (4.0 GiB). Based on the available memory, the "
         "estimated maximum model length is 29120. Try increasing `gpu_memory_utilization` or decreasing "
         "`max_model_len` when initializing the engine.\n")
CLI_PEAK_BYTES = 200 * 2**20
BIG = "9" * 400
GOOD = ["--model", "Qwen/Qwen3-8B", "--gpu", "L4"]


def _reject_constant(name: str) -> object:
    raise AssertionError(f"non-strict JSON constant {name}")


def strict_loads(text: str) -> object:
    """``json.loads`` that refuses NaN/Infinity (what the page's JSON.parse accepts)."""
    text.encode("utf-8")  # valid UTF-8: no lone surrogates
    return json.loads(text, parse_constant=_reject_constant)


def call(request: object) -> dict:
    text = compute(request if isinstance(request, str) else json.dumps(request))
    response = strict_loads(text)
    assert isinstance(response, dict)
    for e in response.get("errors", []):
        assert e["code"] != "internal", e
    return response


# ---------------------------------------------------------------------------------------
# Configs, logs and files of the corpus
# ---------------------------------------------------------------------------------------

DENSE = {"model_type": "llama", "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
         "hidden_size": 4096, "intermediate_size": 14336, "vocab_size": 128256, "max_position_embeddings": 131072,
         "_name_or_path": "my/llama"}


def cfg(**changes: object) -> str:
    """DENSE with ``changes``; values that are JSON text (``Infinity``, 400 digits) go in raw."""
    body = dict(DENSE)
    raw: dict[str, str] = {}
    for k, v in changes.items():
        if isinstance(v, str) and v.startswith("RAW:"):
            raw[k] = v[4:]
            body.pop(k, None)
        else:
            body[k] = v
    text = json.dumps(body)
    for k, v in raw.items():
        text = text[:-1] + f', "{k}": {v}' + "}"
    return text


HOSTILE_CONFIGS = {
    "sliding_inf": cfg(sliding_window="RAW:Infinity"),
    "sliding_nan": cfg(sliding_window="RAW:NaN"),
    "maxpos_1e400": cfg(max_position_embeddings="RAW:1e400"),
    "maxpos_neg_inf": cfg(max_position_embeddings="RAW:-Infinity"),
    "head_dim_400_digits": cfg(head_dim=f"RAW:{BIG}"),
    "layers_1e400": cfg(num_hidden_layers="RAW:1e400"),
    "layers_too_many": cfg(num_hidden_layers=10_001),
    "hidden_nan": cfg(hidden_size="RAW:NaN"),
    "vocab_neg_inf": cfg(vocab_size="RAW:-Infinity"),
    "kv_heads_zero": cfg(num_key_value_heads=0),
    "intermediate_1e30": cfg(intermediate_size=10**30),
    "int_5000_digits": cfg(num_attention_heads="RAW:" + "7" * 5000),
    "bits_four": cfg(quantization_config={"quant_method": "awq", "bits": "four"}),
    "bits_inf": cfg(quantization_config={"quant_method": "gptq", "bits": "RAW:Infinity"}),
    "group_size_huge": cfg(quantization_config={"quant_method": "gptq", "bits": 4, "group_size": 10**40}),
    "rope_factor_nan": cfg(rope_scaling={"rope_type": "yarn", "factor": float("nan")}),
    "rope_scaled_past_limit": cfg(max_position_embeddings=2**31, rope_scaling={"rope_type": "dynamic", "factor": 1e6}),
    "yarn_original_huge": cfg(rope_scaling={"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 10**20}),
    "chunk_inf": cfg(model_type="llama4", attention_chunk_size="RAW:Infinity"),
    "kv_n_heads_text": cfg(model_type="dbrx", attn_config={"kv_n_heads": "eight"}),
    "mla_rank_huge": cfg(model_type="deepseek_v3", kv_lora_rank=10**30, qk_rope_head_dim=64),
    "dtype_object": cfg(torch_dtype={"a": [1, 2]}),
    "model_type_list": cfg(model_type=["llama"]),
    "layer_types_bogus": cfg(layer_types=[[1]] * 32),
    "mlp_only_not_list": cfg(mlp_only_layers=7),
    "nested_brackets": "[" * 5000 + "]" * 5000,
    "nested_objects": '{"a": ' * 5000 + "1" + "}" * 5000,
    "nested_unclosed": "[" * 100_000,
    "nested_text_config": '{"text_config": ' * 70 + cfg() + "}" * 70,
    "json_array": "[1, 2, 3]",
    "json_null": "null",
    "json_nan_top": "NaN",
    "not_json": "<img src=x onerror=alert(1)>",
    "empty": "",
    "whitespace": "   \n\t ",
}
# Configs a real deployment could never have but that are still well-formed: the plan runs.
RUNNABLE_CONFIGS = {"surrogate_name": cfg(_name_or_path="RAW:\"\\udc80\\ud800 name\"")}


def deep_minus_log() -> str:
    return ("INFO 08-14 10:00:00 [utils.py:1] non-default args: {'model': 'Qwen/Qwen3-8B', 'max_model_len': "
            + "-" * 19_000 + "1}\n")


HOSTILE_LOGS = {
    "tokens_5000_digits": f"INFO [kv_cache_utils.py:1] GPU KV cache size: {'1' * 5000} tokens\n",
    "gib_400_digits": f"INFO [gpu_worker.py:1] Available KV cache memory: {BIG}.5 GiB\n",
    "concurrency_400_digits": f"INFO Maximum concurrency for 4096 tokens per request: {BIG}.00x\n",
    "util_nan_command": "$ vllm serve Qwen/Qwen3-8B --gpu-memory-utilization nan --max-model-len 4096\n",
    "util_inf_command": "$ vllm serve Qwen/Qwen3-8B --gpu-memory-utilization inf\n",
    "max_len_huge_command": f"$ vllm serve Qwen/Qwen3-8B --max-model-len {BIG}k\n",
    "deep_minus_args": deep_minus_log(),
    "deep_bracket_args": "non-default args: {'a': " + "[" * 19_000 + "]" * 19_000 + "}\n",
    "fstring_args": "non-default args: {'a': f'{" + "[" * 5000 + "]" * 5000 + "}'}\n",
    "power_args": "non-default args: {'a': " + "2**" * 5000 + "2}\n",
    "sum_args": "non-default args: {'a': " + "1+" * 20_000 + "1}\n",
    "huge_int_args": "non-default args: {'max_model_len': " + "9" * 5000 + "}\n",
    "inf_float_args": "non-default args: {'gpu_memory_utilization': 1e999, 'max_model_len': 4096}\n",
    "version_100k": "INFO Initializing a V1 LLM engine (v0." + "1rc" * 33_000 + ") with config: model='x'\n",
    "config_pair_100k": "Initializing a V1 LLM engine (v0.10.1) with config: " + "a" * 100_000 + "\n",
    "engine_len_huge": f"Initializing a V1 LLM engine (v0.10.1) with config: model='Qwen/Qwen3-8B', max_seq_len={BIG}\n",
    "lone_cr": "\r" * 100_000,
    "nul_bytes": "\x00" * 100_000,
    "kv_error_huge": ("ValueError: To serve at least one request with the models's max seq len (" + "9" * 5000
                      + "), (" + BIG + " GiB KV cache is needed, which is larger than the available KV cache memory ("
                      + BIG + " GiB).\n"),
    "free_memory_huge": (f"ValueError: Free memory on device ({BIG}/{BIG} GiB) on startup is less than desired GPU "
                         f"memory utilization (0.9, {BIG} GiB).\n"),
    "oom_huge": f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {BIG} GiB. GPU 0 has a total capacity of {BIG} GiB\n",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("hostile")
    out: dict[str, Path] = {}
    for name, text in {**HOSTILE_CONFIGS, **RUNNABLE_CONFIGS, **{f"log_{k}": v for k, v in HOSTILE_LOGS.items()}}.items():
        out[name] = d / f"{name}.txt"
        out[name].write_text(text, encoding="utf-8", errors="surrogatepass")
    out["fifo"] = d / "fifo"
    os.mkfifo(out["fifo"])
    out["dir_without_config"] = d / "empty_dir"
    out["dir_without_config"].mkdir()
    out["sparse_200mb"] = d / "sparse_200mb"
    # a reader that read it whole before the 2 MB check would hold 200 MB
    with open(out["sparse_200mb"], "wb") as f:
        f.truncate(200 * 10**6)
    out["log_6mb_fatal_at_end"] = d / "log_6mb.txt"
    with open(out["log_6mb_fatal_at_end"], "w", encoding="utf-8") as f:
        f.write("INFO filler line of a long start-up log\n" * (6 * 2**20 // 40))
        f.write(SAMPLE_LOG + FATAL)
    out["latin1_config"] = d / "latin1.json"
    out["latin1_config"].write_bytes(cfg().replace("my/llama", "caf\u00e9").encode("latin-1"))  # é = 0xE9: not UTF-8
    out["binary"] = d / "binary.bin"
    out["binary"].write_bytes(bytes(range(256)) * 64)
    out["good_config"] = d / "good.json"
    out["good_config"].write_text(cfg(), encoding="utf-8")
    return out


# ---------------------------------------------------------------------------------------
# The CLI corpus: (id, argv after `kvcalc`, stdin: None | bytes | a path, allowed exit codes)
# ---------------------------------------------------------------------------------------

def _flag_cases() -> list[tuple[str, list[str], object, set[int]]]:
    cases: list[tuple[str, list[str], object, set[int]]] = []
    numbers = {
        "max_len_400_digits_k": ["--max-model-len", BIG + "k"],
        "max_len_1e400": ["--max-model-len", "1e400"],
        "max_len_past_2_31": ["--max-model-len", str(2**31 + 1)],
        "max_len_zero": ["--max-model-len", "0"],
        "max_len_neg_k": ["--max-model-len", "-4k"],
        "max_len_binary_decimal": ["--max-model-len", "1.5K"],
        "kv_bytes_10_400": ["--kv-cache-memory-bytes", str(10**400)],
        "kv_bytes_1e400_float": ["--kv-cache-memory-bytes", "1e400"],
        "kv_bytes_negative": ["--kv-cache-memory-bytes", "-4G"],
        "kv_bytes_past_limit": ["--kv-cache-memory-bytes", "2048T"],
        "override_10_400": ["--num-gpu-blocks-override", str(10**400)],
        "override_past_2_31": ["--num-gpu-blocks-override", str(2**31 + 1)],
        "util_nan": ["--gpu-memory-utilization", "nan"],
        "util_inf": ["--gpu-memory-utilization", "inf"],
        "util_neg_inf": ["--gpu-memory-utilization", "-inf"],
        "util_1e400": ["--gpu-memory-utilization", "1e400"],
        "util_400_digits": ["--gpu-memory-utilization", "0." + BIG],
        "available_gib_nan": ["--available-kv-gib", "NaN"],
        "available_gib_1e400": ["--available-kv-gib", "1e400"],
        "available_gib_negative": ["--available-kv-gib", "-1"],
        "available_bytes_negative": ["--available-kv-bytes", "-5"],
        "available_bytes_10_400": ["--available-kv-bytes", str(10**400)],
        "weights_inf": ["--weights-gib", "Infinity"],
        "activation_past_limit": ["--activation-gib", str(2**21)],
        "non_torch_nan": ["--non-torch-gib", "nan"],
        "cudagraph_neg_inf": ["--cudagraph-gib", "-inf"],
        "tp_1e400": ["--tensor-parallel-size", "1e400"],
        "tp_zero": ["--tensor-parallel-size", "0"],
        "tp_not_divisor": ["--tensor-parallel-size", "3"],
        "pp_past_layers": ["--pipeline-parallel-size", "1000"],
        "block_size_huge": ["--block-size", BIG],
        "block_size_odd": ["--block-size", "7"],
        "max_num_seqs_negative": ["--max-num-seqs", "-1"],
        "max_num_seqs_huge": ["--max-num-seqs", BIG],
        "batched_tokens_huge": ["--max-num-batched-tokens", "1T"],
        "version_100k_dev": ["--vllm-version", "0.10.1.dev" + "0" * 100_000],
        "version_100k_local": ["--vllm-version", "0.10.1+" + "a." * 50_000 + "a"],
        "version_before_0_6": ["--vllm-version", "0.5.4"],
        "version_rc_of_0_6": ["--vllm-version", "0.6.0rc1"],
        "version_garbage": ["--vllm-version", "banana"],
        "gpu_memory_inf": ["--gpu", "", "--gpu-memory-gib", "inf"],
        "mm_limit_nested": ["--limit-mm-per-prompt", '{"image": ' * 5000 + "1" + "}" * 5000],
        "mm_limit_10_400": ["--limit-mm-per-prompt", '{"image": ' + str(10**400) + "}"],
        "mm_limit_1e400": ["--limit-mm-per-prompt", '{"image": 1e400}'],
        "mm_limit_negative": ["--limit-mm-per-prompt", '{"image": -1}'],
        "mm_limit_array": ["--limit-mm-per-prompt", "[1, 2, 3]"],
        "mm_limit_string": ["--limit-mm-per-prompt", '"image"'],
        "mm_limit_100k": ["--limit-mm-per-prompt", "{" + '"a": 1, ' * 12_500 + '"b": 1}'],
        "mm_limit_pairs_100k": ["--limit-mm-per-prompt", "a=1," * 25_000 + "b=1"],
        "mm_limit_options": ["--limit-mm-per-prompt", '{"image": {"count": 1, "width": 99999999999}}'],
        "skip_mm_before_0_10_1": ["--skip-mm-profiling", "--vllm-version", "0.9.2"],
    }
    for name, flags in numbers.items():
        argv = ["plan", *GOOD, *flags]
        if "--gpu-memory-gib" in flags:
            argv = ["plan", "--model", "Qwen/Qwen3-8B", *flags[2:]]
        cases.append((name, argv, None, {2}))
    ids = {
        "gpu_h": ["--gpu", "h"], "gpu_H1": ["--gpu", "H1"], "gpu_h100_ambiguous": ["--gpu", "h100"],
        "gpu_empty": ["--gpu", ""], "gpu_blank": ["--gpu", "   "], "gpu_10k_chars": ["--gpu", "x" * 10_000],
        "gpu_control_chars": ["--gpu", "\x01\x02"], "gpu_unicode": ["--gpu", "Н100"],
    }
    for name, flags in ids.items():
        cases.append((name, ["plan", "--model", "Qwen/Qwen3-8B", *flags], None, {2}))
    for name, model in {"model_unknown": "Qwen/Qwen3-9B", "model_ambiguous": "qwen/qwen3",
                        "model_100k": "q" * 100_000, "model_short": "q"}.items():
        cases.append((name, ["plan", "--model", model, "--gpu", "L4"], None, {2}))
    cases.append(("usage_bad_lang", ["plan", *GOOD, "--lang", "xx"], None, {2}))
    cases.append(("usage_no_command", [], None, {2}))
    cases.append(("usage_unknown_flag", ["plan", *GOOD, "--frobnicate"], None, {2}))
    return cases


def _file_cases() -> list[tuple[str, list[str], object, set[int]]]:
    cases: list[tuple[str, list[str], object, set[int]]] = []
    for name in HOSTILE_CONFIGS:
        cases.append((f"config_{name}", ["plan", "--config", f"@{name}", "--gpu", "L4"], None, {2}))
    for name in RUNNABLE_CONFIGS:
        cases.append((f"config_{name}", ["plan", "--config", f"@{name}", "--gpu", "L4", "--json"], None, {0, 1}))
    for name in HOSTILE_LOGS:
        cases.append((f"log_{name}", ["log", f"@log_{name}", "--json"], None, {0, 1}))
        cases.append((f"log_stdin_{name}", ["log", "-", "--json"], f"@log_{name}", {0, 1}))
    cases += [
        ("config_dev_zero", ["plan", "--config", "/dev/zero", "--gpu", "L4"], None, {2}),
        ("config_dev_urandom", ["plan", "--config", "/dev/urandom", "--gpu", "L4"], None, {2}),
        ("config_dev_null", ["plan", "--config", "/dev/null", "--gpu", "L4"], None, {2}),
        ("config_fifo", ["plan", "--config", "@fifo", "--gpu", "L4"], None, {2}),
        ("config_dir_without_config", ["plan", "--config", "@dir_without_config", "--gpu", "L4"], None, {2}),
        ("config_sparse_200mb", ["plan", "--config", "@sparse_200mb", "--gpu", "L4"], None, {2}),
        ("config_missing", ["plan", "--config", "/nonexistent/config.json", "--gpu", "L4"], None, {2}),
        ("config_latin1", ["plan", "--config", "@latin1_config", "--gpu", "L4"], None, {2}),
        ("config_binary", ["plan", "--config", "@binary", "--gpu", "L4"], None, {2}),
        ("config_stdin_dev_zero", ["plan", "--config", "-", "--gpu", "L4"], "/dev/zero", {2}),
        ("log_dev_zero", ["log", "/dev/zero"], None, {2}),
        ("log_dev_urandom", ["log", "/dev/urandom"], None, {2}),
        ("log_fifo", ["log", "@fifo"], None, {2}),
        ("log_directory", ["log", "@dir_without_config"], None, {2}),
        ("log_missing", ["log", "/nonexistent.log"], None, {2}),
        ("log_stdin_dev_zero", ["log", "-"], "/dev/zero", {2}),
        ("log_stdin_dev_urandom", ["log", "-"], "/dev/urandom", {2}),
        ("log_binary_stdin", ["log", "-", "--json"], bytes(range(256)) * 256, {0, 1}),
        ("log_binary_file", ["log", "@binary", "--json"], None, {0, 1}),
        ("log_sparse_200mb", ["log", "@sparse_200mb", "--json"], None, {0, 1}),
        # Over 5 MiB: the fatal line at the end is kept (vLLM's failed KV check: exit 1).
        ("log_6mb_keeps_end", ["log", "@log_6mb_fatal_at_end", "--json"], None, {1}),
        ("log_6mb_keeps_end_stdin", ["log", "-", "--json"], "@log_6mb_fatal_at_end", {1}),
    ]
    return cases


CLI_CORPUS = _flag_cases() + _file_cases()


def test_corpus_is_large_enough() -> None:
    # at least 80 hostile inputs, of all nine kinds
    assert len(CLI_CORPUS) >= 80 and len({c[0] for c in CLI_CORPUS}) == len(CLI_CORPUS)


def _resolve(arg: str, files: dict[str, Path]) -> str:
    return str(files[arg[1:]]) if arg.startswith("@") else arg


#: Runs ``python -m kvcalc`` as its own child and reports that child's peak RSS. Linux keeps, across
#: ``exec``, the high-water RSS of the address space a process had before it (the test process's, when
#: the CLI is forked straight from pytest: 221 MB once the suite had grown), so the CLI is started from
#: this small launcher and ``os.wait4`` on it gives the CLI's own figure.
_LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "kvcalc", *sys.argv[2:]])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as f:
    f.write(str(usage.ru_maxrss * 1024))
sys.exit(os.waitstatus_to_exitcode(status))
"""

#: The cases also run end to end as a real process (fd 0 a device or a pipe of bytes, the 200 MB
#: sparse file, the 6 MB log on standard input, a usage error, a non-finite flag); every case of the
#: corpus runs in-process through ``kvcalc.faces.cli.main``, where the subprocess adds nothing.
END_TO_END = ("config_stdin_dev_zero", "log_stdin_dev_urandom", "log_binary_stdin",
              "log_sparse_200mb", "log_6mb_keeps_end_stdin", "usage_no_command", "util_nan")


def _stdin_path(stdin: object, files: dict[str, Path], tmp_path: Path) -> Path:
    if stdin is None:
        return Path(os.devnull)
    if isinstance(stdin, bytes):
        path = tmp_path / "in"
        path.write_bytes(stdin)
        return path
    return Path(_resolve(str(stdin), files))


def run_cli(argv: list[str], stdin: object, files: dict[str, Path], tmp_path: Path) -> tuple[int, str, str, float, int]:
    """Run ``python -m kvcalc`` with a watchdog; (exit, stdout, stderr, seconds, peak RSS bytes)."""
    out_path, err_path, rss_path = tmp_path / "out", tmp_path / "err", tmp_path / "rss"
    stdin_path = _stdin_path(stdin, files, tmp_path)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    with open(stdin_path, "rb") as stdin_file, open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-S", "-c", _LAUNCHER, str(rss_path),
                                 *[_resolve(a, files) for a in argv]],
                                stdin=stdin_file, stdout=out, stderr=err, cwd=ROOT, env=env, start_new_session=True)
        watchdog = threading.Timer(20, lambda: os.killpg(proc.pid, signal.SIGKILL))
        watchdog.start()
        try:
            proc.wait()
        finally:
            watchdog.cancel()
        elapsed = time.perf_counter() - start
    peak = int(rss_path.read_text()) if rss_path.exists() else sys.maxsize  # killed: no figure, a failure
    return (proc.returncode, out_path.read_bytes().decode("utf-8"), err_path.read_bytes().decode("utf-8"), elapsed,
            peak)


class _Hung(BaseException):
    """The in-process watchdog's alarm: a BaseException, so no ``except Exception`` hides it."""


def _alarm(_signum: int, _frame: object) -> None:
    raise _Hung("the CLI ran past the 20 s watchdog")


def run_in_process(argv: list[str], stdin: object, files: dict[str, Path],
                   tmp_path: Path) -> tuple[int, str, str, int]:
    """``kvcalc.faces.cli.main`` as the process would run it: standard input an open file (its
    descriptor is what the CLI checks), output through UTF-8 text streams decoded strictly afterwards;
    (exit, stdout, stderr, peak bytes Python allocated during the call, ``tracemalloc``). A hang is
    stopped by SIGALRM."""
    out, err = io.BytesIO(), io.BytesIO()
    out_text = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    err_text = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    previous = signal.signal(signal.SIGALRM, _alarm)
    with open(_stdin_path(stdin, files, tmp_path), encoding="utf-8") as stdin_file:
        tracemalloc.start()
        signal.alarm(20)
        try:
            code = main([_resolve(a, files) for a in argv], stdout=out_text, stderr=err_text,
                        stdin=stdin_file)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8"), peak


def _assert_clean(argv: list[str], codes: set[int], code: int, out: str, err: str,
                  peak: int) -> None:
    assert code in codes, (code, err[-2000:])
    assert "Traceback" not in err and "internal error" not in err.lower(), err[-2000:]
    lines = err.splitlines()
    if code == 2:
        assert len(lines) == 1 and lines[0].startswith("kvcalc: error: "), err[-2000:]
    else:
        assert all(line.startswith("kvcalc: note: ") for line in lines), err[-2000:]
        if "--json" in argv:
            strict_loads(out)
    assert peak < CLI_PEAK_BYTES, peak


@pytest.mark.parametrize(("name", "argv", "stdin", "codes"), CLI_CORPUS,
                         ids=[c[0] for c in CLI_CORPUS])
def test_cli_refuses_hostile_input_cleanly(name: str, argv: list[str], stdin: object,
                                           codes: set[int], files: dict[str, Path],
                                           tmp_path: Path) -> None:
    # in-process: the peak is what Python allocated for the call (not the interpreter's own pages)
    code, out, err, peak = run_in_process(argv, stdin, files, tmp_path)
    _assert_clean(argv, codes, code, out, err, peak)


END_TO_END_CASES = [c for c in CLI_CORPUS if c[0] in END_TO_END]


def test_end_to_end_cases_are_in_the_corpus() -> None:
    assert len(END_TO_END_CASES) == len(END_TO_END)


@pytest.mark.parametrize(("name", "argv", "stdin", "codes"), END_TO_END_CASES,
                         ids=[c[0] for c in END_TO_END_CASES])
def test_cli_process_refuses_hostile_input_cleanly(name: str, argv: list[str], stdin: object,
                                                   codes: set[int], files: dict[str, Path],
                                                   tmp_path: Path) -> None:
    code, out, err, _seconds, peak = run_cli(argv, stdin, files, tmp_path)
    # no wall-clock bound here (a loaded machine took 2.41 s): a hang is killed by run_cli's
    # watchdog (exit -9, not an expected code); the parsers' growth is checked below
    _assert_clean(argv, codes, code, out, err, peak)


def test_cli_messages_say_what_is_wrong(files: dict[str, Path], tmp_path: Path) -> None:
    def err_of(argv: list[str], stdin: object = None) -> str:
        return run_in_process(argv, stdin, files, tmp_path)[2]

    assert "is not a regular file" in err_of(["log", "/dev/zero"])
    assert "nested 5000 levels deep; at most 64" in err_of(["plan", "--config", "@nested_brackets", "--gpu", "L4"])
    assert "H100-80GB, H100-NVL" in err_of(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "h100"])
    assert "Did you mean" in err_of(["plan", "--model", "Qwen/Qwen3-9B", "--gpu", "L4"])
    assert "older than 0.6.0" in err_of(["plan", *GOOD, "--vllm-version", "0.5.4"])
    assert "'sliding_window'" in err_of(["plan", "--config", "@sliding_inf", "--gpu", "L4"]) \
        or "sliding_window" in err_of(["plan", "--config", "@sliding_inf", "--gpu", "L4"])
    assert "last 5 MB" in err_of(["log", "@log_6mb_fatal_at_end"])


def test_cli_output_is_valid_utf8_with_a_lone_surrogate(files: dict[str, Path], tmp_path: Path) -> None:
    code, out, _, _, _ = run_cli(["plan", "--config", "@surrogate_name", "--gpu", "L4", "--json"], None, files, tmp_path)
    # run_cli decoded stdout as strict UTF-8; the surrogates became U+FFFD
    assert strict_loads(out)["model"] == "\ufffd\ufffd name"


# ---------------------------------------------------------------------------------------
# The JSON boundary
# ---------------------------------------------------------------------------------------

def plan_request(**inputs: object) -> dict:
    return {"action": "plan", "lang": "en", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "L4", **inputs}}


WEB_CORPUS: list[object] = [
    *(plan_request(config=text, model=None) for text in HOSTILE_CONFIGS.values()),
    *({"action": "log", "lang": lang, "log": text} for text in HOSTILE_LOGS.values() for lang in ("en",)),
    plan_request(max_model_len=BIG + "k"), plan_request(kv_cache_memory_bytes=10**400),
    plan_request(num_gpu_blocks_override=str(10**400)), plan_request(gpu_memory_utilization="nan"),
    plan_request(gpu_memory_utilization=1e308), plan_request(available_kv_bytes=-5),
    plan_request(available_kv_gib="1e400"), plan_request(vllm_version="0.1" + "rc" * 50_000),
    plan_request(gpu="h"), plan_request(gpu="H1"), plan_request(gpu="h100"), plan_request(gpu=["L4"]),
    plan_request(model={"a": 1}), plan_request(model="q" * 100_000), plan_request(max_model_len=[1]),
    plan_request(kv_cache_dtype={"x": 1}), plan_request(vllm_version=7), plan_request(block_size=1e400),
    plan_request(**{"x" * 100_000: 1}), plan_request(tensor_parallel_size=2.5), plan_request(max_num_seqs=True),
    plan_request(limit_mm_per_prompt='{"image": ' * 100_000), plan_request(limit_mm_per_prompt={"image": 10**400}),
    plan_request(limit_mm_per_prompt={"image": {"count": -1}}), plan_request(limit_mm_per_prompt=[1]),
    plan_request(limit_mm_per_prompt={"x" * 100_000: 1}), plan_request(limit_mm_per_prompt=1e308),
    plan_request(skip_mm_profiling={"a": 1}), plan_request(skip_mm_profiling="1", vllm_version="0.8.0"),
    {"action": "plan", "lang": "en", "inputs": {"config": json.loads(cfg()) | {"sliding_window": 1e308}, "gpu": "L4"}},
    {"action": "log", "lang": "en", "log": ""}, {"action": "log", "lang": "en", "log": "   \n"},
    {"action": "log", "lang": "en", "log": 5}, {"action": "plan", "lang": 5},
    '{"action": "plan", "inputs": {"max_model_len": ' + "9" * 5000 + "}}",
    '{"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "L4", "gpu_memory_utilization": NaN}}',
    "[" * 100_000, '{"a": ' * 100_000, "{" * 65 + "}" * 65, "\ud800", "",
]


@pytest.mark.parametrize("request_obj", WEB_CORPUS, ids=range(len(WEB_CORPUS)))
def test_json_boundary_answers_every_hostile_request(request_obj: object) -> None:
    response = call(request_obj)
    assert response["ok"] in (True, False)


def test_json_boundary_log_keeps_its_end_and_says_so() -> None:
    filler = "INFO filler line of a long start-up log\n" * (6 * 2**20 // 40)
    response = call({"action": "log", "lang": "es", "log": filler + SAMPLE_LOG + FATAL})
    assert response["reading"]["diagnosis"] == "kv_cache_too_small"   # the fatal line at the very end
    assert response["notices"][0]["code"] == "log_truncated"
    assert "5 MB" in response["notices"][0]["message"]


def test_json_boundary_nesting_error_is_the_same_everywhere() -> None:
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    (error,) = call(plan_request(config=deep, model=None))["errors"]
    # 65 levels: one more than the limit of 64
    assert error["code"] == "too_deep" and error["field"] == "config"
    assert "65" in error["message"] and "64" in error["message"]
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    (error,) = call(plan_request(config=ok, model=None))["errors"]
    assert error["code"] == "config_not_object"   # 64 levels are read (and refused for not being an object)


def test_unknown_ids_carry_suggestions_in_json() -> None:
    (error,) = call(plan_request(gpu="RTX-4091"))["errors"]
    assert error["code"] == "unknown_gpu" and "RTX-4090" in error["suggestions"] and len(error["suggestions"]) <= 3
    (error,) = call(plan_request(gpu="h100"))["errors"]
    assert error["code"] == "ambiguous_gpu" and error["suggestions"] == ["H100-80GB", "H100-NVL"]


# ---------------------------------------------------------------------------------------
# Linear-time parsing
# ---------------------------------------------------------------------------------------

N = 100_000
ADVERSARIAL = {
    "digits": "9" * N, "dots": "." * N, "digit_dots": "1." * (N // 2), "rc": "0.1" + "rc" * (N // 2),
    "dev_zeros": "0.10.1.dev" + "0" * N, "local": "0.1+" + "a." * (N // 2), "spaces": " " * N,
    "word": "a" * N, "pairs": "a=" * (N // 2), "quotes": "a='" * (N // 3), "escaped_quotes": '"' + '\\"' * (N // 2),
    "brackets": "[" * N, "signs": "-" * N, "gib": "Available KV cache memory: " + "1" * N,
    "kv_error": "max seq len (" + "1" * N, "gib_spaces": "model weights take" + " " * N + "x",
    "engine": "Initializing a V1 LLM engine (v" + "1." * (N // 2), "blocks": "# GPU blocks: " + "1" * N,
    "util_table": "worker gpu_memory_utilization" + " " * N + "x", "keyval": "total_gpu_memory=" * (N // 17),
    "banner": "█" + " " * N + "version", "ansi": "\x1b[" + "1;" * (N // 2), "size": "1" * N + "G",
}


def _adversarial(name: str, n: int) -> str:
    """The adversarial string ``name`` built at about ``n`` characters (its pattern repeated)."""
    return _ADVERSARIAL_MAKERS[name](n)


_ADVERSARIAL_MAKERS: dict[str, Callable[[int], str]] = {
    "digits": lambda n: "9" * n, "dots": lambda n: "." * n, "digit_dots": lambda n: "1." * (n // 2),
    "rc": lambda n: "0.1" + "rc" * (n // 2), "dev_zeros": lambda n: "0.10.1.dev" + "0" * n,
    "local": lambda n: "0.1+" + "a." * (n // 2), "spaces": lambda n: " " * n, "word": lambda n: "a" * n,
    "pairs": lambda n: "a=" * (n // 2), "quotes": lambda n: "a='" * (n // 3),
    "escaped_quotes": lambda n: '"' + '\\"' * (n // 2), "brackets": lambda n: "[" * n, "signs": lambda n: "-" * n,
    "gib": lambda n: "Available KV cache memory: " + "1" * n, "kv_error": lambda n: "max seq len (" + "1" * n,
    "gib_spaces": lambda n: "model weights take" + " " * n + "x",
    "engine": lambda n: "Initializing a V1 LLM engine (v" + "1." * (n // 2),
    "blocks": lambda n: "# GPU blocks: " + "1" * n,
    "util_table": lambda n: "worker gpu_memory_utilization" + " " * n + "x",
    "keyval": lambda n: "total_gpu_memory=" * (n // 17), "banner": lambda n: "█" + " " * n + "version",
    "ansi": lambda n: "\x1b[" + "1;" * (n // 2), "size": lambda n: "1" * n + "G",
}


def test_adversarial_makers_build_the_corpus() -> None:
    assert {name: _adversarial(name, N) for name in ADVERSARIAL} == ADVERSARIAL


def _quietly(parse: Callable[[str], object]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return parse(text)
        except (CalcError, LookupError):
            return None
    return run


_PARSERS: dict[str, Callable[[str], object]] = {
    "parse_log": parse_log, "parse_log twice": lambda t: parse_log(t + "\n" + t),
    "parse_version": parse_version, "rules_for": rules_for,
    "parse_human_int": lambda t: parse_human_int(t, field="x"), "parse_max_model_len": parse_max_model_len,
    "parse_float": lambda t: parse_float(t, field="x"),
    "check_json_depth": lambda t: check_json_depth(t, field="config"), "python_literal_ok": python_literal_ok,
    "find_gpu": lambda t: catalog.find_gpu(t[:300]),
    "compute(log)": lambda t: compute(json.dumps({"action": "log", "log": t})),
    "compute(config)": lambda t: compute(json.dumps(plan_request(config=t, model=None))),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_every_parser_is_linear_on_adversarial_text(name: str) -> None:
    """Each parser on an adversarial string of 100,000 and of 800,000 characters: 8x the input
    must take well under 64x the time (what a quadratic regex would take); see tests/scaling.py.

    The absolute target (50 ms at 100,000 characters) is measured in bench/core_bench.py
    ("adversarial parse"): a wall-clock assert would depend on how loaded the machine is.
    """
    small, large = _adversarial(name, N), _adversarial(name, 8 * N)
    ratios = {parser: growth_ratio(_quietly(parse), small, large) for parser, parse in _PARSERS.items()}
    assert max(ratios.values()) < GROWTH_BOUND, (name, ratios)


# ---------------------------------------------------------------------------------------
# The property: compute() on generated requests, configs and logs
# ---------------------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30), st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 2**31, 2**31 + 1, 2**50, 2**53, 10**400, 1e308]),
)
TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "4G", "1.5G", "25.6k", "32K", "auto", "-1", "0", "0.9",
                     BIG, BIG + "k", "h100", "h", "H1", "L4", "Qwen/Qwen3-8B", "qwen3", "0.9.2rc2.dev1802+geb9d4de9e",
                     "0.10.1.1", "0.5.4", "latest", "true", "\ud800"]),
)
VALUES = st.one_of(NUMBERS, TEXTS, st.booleans(), st.none(), st.lists(st.integers(), max_size=2))
CONFIG_KEYS = ["model_type", "num_hidden_layers", "num_attention_heads", "num_key_value_heads", "hidden_size",
               "head_dim", "intermediate_size", "vocab_size", "max_position_embeddings", "sliding_window",
               "layer_types", "kv_lora_rank", "qk_rope_head_dim", "num_experts", "moe_intermediate_size",
               "rope_scaling", "quantization_config", "torch_dtype", "sliding_window_pattern", "attention_chunk_size"]
CONFIG_VALUES = st.one_of(VALUES, st.just({"rope_type": "yarn", "factor": 4.0}),
                          st.just({"quant_method": "awq", "bits": "four"}), st.just(["sliding_attention"] * 4))


@st.composite
def configs(draw: st.DrawFn) -> dict:
    base = dict(DENSE) if draw(st.booleans()) else {}
    base["num_hidden_layers"] = draw(st.integers(1, 64))
    for key in draw(st.lists(st.sampled_from(CONFIG_KEYS), max_size=4, unique=True)):
        base[key] = draw(CONFIG_VALUES)
    return base


LOG_LINES = st.sampled_from([
    "Available KV cache memory: {n} GiB", "GPU KV cache size: {n} tokens",
    "Maximum concurrency for {n} tokens per request: {n}x", "$ vllm serve Qwen/Qwen3-8B --max-model-len {n}",
    "vllm serve Qwen/Qwen3-8B --gpu-memory-utilization {n} --kv-cache-memory {n}",
    "non-default args: {{'max_model_len': {n}, 'gpu_memory_utilization': {n}}}",
    "Initializing a V1 LLM engine (v{n}) with config: model='Qwen/Qwen3-8B', max_seq_len={n}",
    "To serve at least one request with the models's max seq len ({n}), ({n} GiB KV cache is needed, "
    "which is larger than the available KV cache memory ({n} GiB).",
    "Free memory on device ({n}/{n} GiB) on startup is less than desired GPU memory utilization ({n}, {n} GiB).",
])
LOG_NUMBERS = st.one_of(st.integers(-(10**40), 10**40).map(str), st.floats().map(repr),
                        st.sampled_from(["nan", "inf", BIG, "1e400", "-1", "0", "4k", "1.5G", "-" * 70 + "1"]))


@st.composite
def logs(draw: st.DrawFn) -> str:
    lines = []
    for template in draw(st.lists(LOG_LINES, min_size=1, max_size=4)):
        lines.append(template.format(n=draw(LOG_NUMBERS)))
    return "\n".join(lines)


@st.composite
def requests(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(["plan", "config", "log"]))
    lang = draw(st.sampled_from(["en", "es", "zh", "xx"]))
    if kind == "log":
        return {"action": "log", "lang": lang, "log": draw(logs())}
    inputs = {"model": "Qwen/Qwen3-8B", "gpu": "L4"}
    if kind == "config":
        inputs = {"config": json.dumps(draw(configs())), "gpu_memory_gib": "80"}
    for key in draw(st.lists(st.sampled_from(INPUT_KEYS[2:]), max_size=3, unique=True)):
        inputs[key] = draw(VALUES)
    return {"action": "plan", "lang": lang, "inputs": inputs}


@settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
@given(requests())
def test_compute_property_no_exception_no_internal_no_nonfinite(request: dict) -> None:
    text = compute(json.dumps(request))   # json.dumps writes NaN/Infinity: the request may hold them
    response = strict_loads(text)
    assert isinstance(response, dict) and response["ok"] in (True, False)
    for e in response.get("errors", []):
        assert e["code"] != "internal", e


def test_fifo_is_refused_without_opening_it(files: dict[str, Path]) -> None:
    # os.stat first: a FIFO would block open() until a writer came
    assert stat.S_ISFIFO(os.stat(files["fifo"]).st_mode)
