"""The slowest inputs the limits allow, through ``kvcalc.faces.web.compute``, in CPython and in Pyodide.

The README's "Hostile input" paragraph bounds the time of any input within the documented limits
(``calc/limits.py``): the largest configs (every width 2^24 with 10,000 layers, dense, MoE and MLA;
10,000 sliding/full layers with PP 4, the pre-0.14 per-layer check and V0) and the slowest 5 MB logs
(60-deep ``non-default args`` dicts on every line, 5 MB of newlines, one 0.9 MB line stating nine
facts, random bytes, the parsers' adversarial mix, a real log repeated to 5 MB). Each request runs
``--runs`` times (default 3) with the per-scenario caches emptied before each run, in this
interpreter and in the real Pyodide runtime under Node (``node_modules/pyodide``, the wheel unpacked
as the page's worker does; ``bench/pyodide_bench.mjs``). Prints the medians; ``--write`` puts them
in ``bench/RESULTS.md`` (its "Slowest allowed inputs" section).

    .venv/bin/python bench/hostile_bench.py [--runs 3] [--no-pyodide] [--write]
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kvcalc.faces.web import compute
from kvcalc.limits import MAX_DIM, MAX_LAYERS, MAX_LEN, MAX_LOG_BYTES

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "RESULTS.md"
HEADING = "## Slowest allowed inputs (bench/hostile_bench.py)"
SAMPLE_LOG = REPO / "kvguide_macros" / "data" / "sample.log"
#: The README's bounds for any input within the limits: in CPython, and in the page's worker (Pyodide).
BOUND_S = 2.0
BOUND_WORKER_S = 3.0

#: Empties every cache that holds one scenario's work (the plan and the layer specs), so that a run
#: pays the whole computation; the data files' caches (catalog, release table) stay, as in the page.
#: Run in CPython here and in Pyodide by bench/pyodide_bench.mjs (the same text).
CLEAR_CACHES = """
import sys as _sys
import kvcalc as _kvcalc

def clear_scenario_caches():
    _kvcalc.plan.cache_clear()
    _sys.modules[_kvcalc.plan.__module__]._layers.cache_clear()
    _sys.modules["kvcalc.budget.memory"]._budget_of.cache_clear()
"""

_D = MAX_DIM
_WIDE = {"num_hidden_layers": MAX_LAYERS, "hidden_size": _D, "num_attention_heads": _D, "intermediate_size": _D,
         "vocab_size": _D, "max_position_embeddings": MAX_LEN}
_SMALL = {"model_type": "llama", "num_hidden_layers": MAX_LAYERS, "hidden_size": 64, "num_attention_heads": 1,
          "num_key_value_heads": 1, "intermediate_size": 64, "vocab_size": 1000, "max_position_embeddings": 1 << 20}
#: The largest configs the input limits allow (10,000 layers, widths 2^24, lengths 2^31); the small-width
#: ones fit, so they reach the binary searches and every what-if.
CONFIGS: dict[str, tuple[dict[str, object], dict[str, object]]] = {
    "every width at its maximum (llama)": (
        {"model_type": "llama", **_WIDE, "num_key_value_heads": _D, "head_dim": _D}, {}),
    "every width at its maximum, MoE (mixtral)": (
        {"model_type": "mixtral", **_WIDE, "num_key_value_heads": _D, "head_dim": _D, "num_local_experts": _D,
         "num_experts_per_tok": 2}, {}),
    "every width at its maximum, MoE (qwen3_moe)": (
        {"model_type": "qwen3_moe", **_WIDE, "num_key_value_heads": _D, "head_dim": _D, "num_experts": _D,
         "moe_intermediate_size": _D, "num_experts_per_tok": 8}, {}),
    "maximal MLA (deepseek_v3)": (
        {"model_type": "deepseek_v3", **_WIDE, "kv_lora_rank": _D, "qk_rope_head_dim": _D, "n_routed_experts": _D,
         "moe_intermediate_size": _D, "num_experts_per_tok": 8}, {}),
    "10,000 layers, auto length": (_SMALL, {"max_model_len": "auto"}),
    "10,000 sliding/full, PP 4": ({**_SMALL, "model_type": "gemma2", "sliding_window": 4096},
                                  {"pipeline_parallel_size": 4}),
    "10,000 sliding/full, 0.10.0 (per-layer check)": ({**_SMALL, "model_type": "gemma2", "sliding_window": 4096},
                                                      {"vllm_version": "0.10.0", "max_model_len": "100000"}),
    "10,000 layers, V0 (0.7.0)": (_SMALL, {"vllm_version": "0.7.0", "max_model_len": "100000"}),
}


def _big_line_log(size: int) -> str:
    """The sample log with its engine-config line (nine facts) padded to ``size`` characters
    (tests/test_hostile_output.py: each fact used to quote the whole line)."""
    lines = SAMPLE_LOG.read_text(encoding="utf-8").splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if "Initializing a V1 LLM engine" in line)
    lines[i] = lines[i].rstrip("\n") + ", padding='" + "p" * max(size - len(lines[i]), 0) + "'\n"
    return "".join(lines)


def _adversarial_mix(size: int) -> str:
    """Lines shaped to make a backtracking regex explode (bench/core_bench.py), repeated to ``size``."""
    rng = random.Random(7)
    line = "GiB KV memory Free memory on device (" + "9" * 2000 + " " * 2000 + "x\n"
    out: list[str] = []
    total = 0
    while total < size:
        piece = line if rng.random() < 0.5 else "vllm serve --max-model-len " + "1" * 3000 + "\n"
        out.append(piece)
        total += len(piece)
    return "".join(out)[:size]


_NESTED = "INFO non-default args: {'a': " + "{'a': " * 60 + "1" + "}" * 61 + "\n"


def _sample() -> str:
    return SAMPLE_LOG.read_text(encoding="utf-8")


#: The slowest logs within the 5 MB read limit, each made on demand (a few MB each).
LOGS: dict[str, Callable[[], str]] = {
    "5 MB of 60-deep non-default args lines (each a start)": lambda: _NESTED * (MAX_LOG_BYTES // len(_NESTED)),
    "5 MB of newlines": lambda: "\n" * MAX_LOG_BYTES,
    "one 0.9 MB engine-config line (nine facts)": lambda: _big_line_log(900_000),
    "5 MB of random bytes": lambda: random.Random(20260814).randbytes(MAX_LOG_BYTES).decode(
        "utf-8", errors="replace")[:MAX_LOG_BYTES],
    "5 MB adversarial mix (digits, spaces, long flags)": lambda: _adversarial_mix(MAX_LOG_BYTES),
    "a real log repeated to 5 MB (many starts)": lambda: _sample() * (MAX_LOG_BYTES // len(_sample())),
}


def logs() -> dict[str, str]:
    """Every log of :data:`LOGS`, made."""
    return {name: make() for name, make in LOGS.items()}


def requests() -> dict[str, str]:
    out = {name: json.dumps({"action": "plan", "inputs": {"config": json.dumps(cfg), "gpu": "H100-80GB", **extra}})
           for name, (cfg, extra) in CONFIGS.items()}
    out |= {name: json.dumps({"action": "log", "log": text}, ensure_ascii=False) for name, text in logs().items()}
    return out


def cpython_times(reqs: dict[str, str], runs: int) -> dict[str, list[dict[str, object]]]:
    """Wall and CPU time of each request, ``runs`` times, caches emptied before each."""
    space: dict[str, object] = {}
    exec(CLEAR_CACHES, space)  # the same text Pyodide runs
    clear = space["clear_scenario_caches"]
    assert callable(clear)
    times: dict[str, list[dict[str, object]]] = {}
    for name, req in reqs.items():
        times[name] = []
        for _ in range(runs):
            clear()
            t0, c0 = time.perf_counter(), time.process_time()
            answer = compute(req)
            ms, cpu_ms = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
            data = json.loads(answer)
            times[name].append({"ms": ms, "cpu_ms": cpu_ms, "chars": len(answer),
                                "error": None if data.get("ok") else data.get("error", {}).get("code")})
    return times


def pyodide_times(reqs: dict[str, str], runs: int) -> tuple[str, dict[str, list[dict[str, object]]]]:
    node = shutil.which("node")
    if node is None or not (REPO / "node_modules" / "pyodide").is_dir():
        raise SystemExit("node and node_modules/pyodide are needed (make node_modules), or pass --no-pyodide")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", tmp],
                       check=True, capture_output=True)
        (wheel,) = work.glob("kvcalc-*-py3-none-any.whl")
        (work / "requests.json").write_text(json.dumps([{"name": n, "request": r} for n, r in reqs.items()]),
                                            encoding="utf-8")
        (work / "clear.py").write_text(CLEAR_CACHES, encoding="utf-8")
        subprocess.run([node, str(REPO / "bench" / "pyodide_bench.mjs"), str(wheel), str(work / "requests.json"),
                        str(work / "times.json"), str(runs), str(work / "clear.py")], cwd=REPO, check=True)
        data = json.loads((work / "times.json").read_text(encoding="utf-8"))
    return str(data["runtime"]), data["times"]


def _median(samples: list[dict[str, object]], key: str) -> float:
    return statistics.median(float(str(s[key])) for s in samples)


def table(times: dict[str, dict[str, list[dict[str, object]]]]) -> list[str]:
    faces = list(times)
    head = "| input | answer | " + " | ".join(f"{f} wall (s) | {f} CPU (s)" for f in faces) + " |"
    lines = [head, "|---|---|" + "---:|---:|" * len(faces)]
    for name in next(iter(times.values())):
        first = times[faces[0]][name][0]
        answer = f"error `{first['error']}`" if first["error"] else "ok"
        answer += f", {int(str(first['chars'])):,} chars"
        cells = " | ".join(f"{_median(times[f][name], 'ms') / 1000:.2f} | {_median(times[f][name], 'cpu_ms') / 1000:.2f}"
                           for f in faces)
        lines.append(f"| {name} | {answer} | {cells} |")
    return lines


def write_results(section: str, heading: str = HEADING) -> None:
    """Replace (or append) one bench's section of RESULTS.md (from ``heading`` to the next ``## ``), keeping
    every other section; these sections sit below web_bench.py's hand-written one, which it keeps."""
    old = RESULTS.read_text(encoding="utf-8") if RESULTS.is_file() else ""
    if heading in old:
        start = old.index(heading)
        nxt = old.find("\n## ", start + len(heading))
        old = old[:start].rstrip("\n") + ("\n\n" + old[nxt + 1:] if nxt >= 0 else "")
    RESULTS.write_text(old.rstrip("\n") + "\n\n" + section + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-pyodide", action="store_true")
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md's section")
    args = parser.parse_args(argv)
    reqs = requests()
    load = os.getloadavg()[0]
    times = {f"CPython {platform.python_version()}": cpython_times(reqs, args.runs)}
    runtime = ""
    if not args.no_pyodide:
        runtime, times["Pyodide"] = pyodide_times(reqs, args.runs)
    slowest = ", ".join(f"{face} {max(_median(v, 'ms') for v in samples.values()) / 1000:.2f} s"
                        for face, samples in times.items())
    section = "\n".join([
        HEADING, "",
        f"Medians of {args.runs} runs, each with the per-scenario caches emptied (the plan and the layer specs), "
        f"of `kvcalc.faces.web.compute` on one request; {os.cpu_count()} CPUs shared with other jobs "
        f"(load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end); "
        f"Pyodide: {runtime or 'not run'}, under Node with the npm package, "
        "the wheel unpacked as the page's worker does. Wall time is what a reader waits; CPU time is what "
        "the load of the other jobs changes less.", "",
        *table(times), "",
        f"Slowest medians: {slowest} (the README's bounds: {BOUND_S:.0f} s in CPython, {BOUND_WORKER_S:.0f} s "
        "in the worker).",
    ])
    print(section)
    if args.write:
        write_results(section)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
