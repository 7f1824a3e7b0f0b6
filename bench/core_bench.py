"""Core speed: time per ``plan`` call, per ``log`` reading, per ``web.compute``, the import time and
the strict docs build.

Prints medians of many runs (these machines are noisy). Targets (CONTRIBUTING.md §6):
under 1 ms per ``plan`` call, under 50 ms to import in CPython, ``kvcalc log`` under a
second on 5 MB of random bytes, and every parser under 50 ms on each 100,000-character
adversarial string. The tests check only that these give the right answer; how fast they
are is measured here (wall-clock limits in tests flake on a shared 2-core machine).
Run: ``.venv/bin/python bench/core_bench.py [--no-site]`` (``--largest``: only the largest allowed configs and the
slowest logs, ``bench/hostile_bench.py`` in CPython; that file also runs them in Pyodide).
"""
from __future__ import annotations

import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from functools import partial
from pathlib import Path

from hostile_bench import main as hostile_main

from kvcalc import plan
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main as cli_main
from kvcalc.faces.web import compute
from kvcalc.inputs import Scenario, scenario_from_inputs
from kvcalc.limits import check_json_depth, python_literal_ok
from kvcalc.logs.diagnose import diagnose
from kvcalc.logs.logparse import parse_log
from kvcalc.units import parse_human_int
from kvcalc.versions import rules_for

#: The real vLLM log the guide's "paste your log" presets show (the site's file, not the wheel's).
SAMPLE_LOG = Path(__file__).resolve().parents[1] / "kvguide_macros" / "data" / "sample.log"

SCENARIOS: dict[str, dict[str, object]] = {
    "dense Qwen3-8B / RTX-4090 / 32K": {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "32k"},
    "MLA DeepSeek-V3 / H200 / TP8": {"model": "deepseek-ai/DeepSeek-V3", "gpu": "H200", "tensor_parallel_size": 8},
    "hybrid Gemma 3 27B / H100": {"model": "google/gemma-3-27b-it", "gpu": "H100-80GB"},
    "hybrid gpt-oss-120b / H100": {"model": "openai/gpt-oss-120b", "gpu": "H100-80GB"},
    "PP 2 Llama-3.1-70B / A100": {"model": "meta-llama/Llama-3.1-70B-Instruct", "gpu": "A100-80GB",
                                  "tensor_parallel_size": 4, "pipeline_parallel_size": 2},
}


def _median_ms(fn: Callable[[], object], runs: int, inner: int = 1) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(inner):
            fn()
        samples.append((time.perf_counter() - t0) / inner * 1000)
    return statistics.median(samples)


def _import_ms(module: str, runs: int = 11) -> tuple[float, float]:
    """Import time from the built wheel (as users and Pyodide get it), in fresh interpreters.

    An editable install adds its own finder to every import, so the wheel is unpacked
    into a temporary directory put first on ``sys.path``.
    """
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "wheel", str(root), "--no-deps", "-q", "-w", tmp], check=True,
                       capture_output=True)
        wheel = next(Path(tmp).glob("kvcalc-*.whl"))
        with zipfile.ZipFile(wheel) as zf:
            zf.extractall(Path(tmp) / "site")
        # byte-compiled, as pip installs it (with PYTHONDONTWRITEBYTECODE set, every import compiled the sources)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(tmp) / "site")], check=True, env=env)
        code = (f"import sys; sys.path.insert(0, {str(Path(tmp) / 'site')!r}); import time; t=time.perf_counter(); "
                f"import {module}; print((time.perf_counter()-t)*1000)")
        samples = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                        env=env).stdout)
                   for _ in range(runs)]
    return statistics.median(samples), max(samples)


def main(argv: list[str] | None = None) -> None:
    site = "--no-site" not in (sys.argv[1:] if argv is None else argv)
    print(f"python {sys.version.split()[0]}")
    for module in ("kvcalc", "kvcalc.faces.web", "kvcalc.faces.cli"):
        med, worst = _import_ms(module)
        print(f"import {module:11s} median {med:5.1f} ms, max {worst:5.1f} ms (11 fresh interpreters, target < 50 ms)")
    # plan() is memoized (the calculator re-asks the same what-ifs); time the uncached body.
    uncached = plan.__wrapped__
    print("\nplan() per call, uncached (median of 30 runs × 50 calls):")
    for name, inputs in SCENARIOS.items():
        s = scenario_from_inputs(inputs)

        def uncached_plan(s: Scenario = s) -> object:
            return uncached(s.model, s.deployment)

        ms = _median_ms(uncached_plan, runs=30, inner=50)
        print(f"  {name:36s} {ms:7.3f} ms (target < 1 ms)")
    print("\nweb.compute() per call, plan + advice + report (median of 15 runs):")
    for name, inputs in SCENARIOS.items():
        req = json.dumps({"action": "plan", "lang": "en", "inputs": inputs})

        def cold(req: str = req) -> None:
            plan.cache_clear()
            compute(req)

        print(f"  {name:36s} {_median_ms(cold, runs=15):7.2f} ms with an empty plan cache, "
              f"{_median_ms(partial(compute, req), runs=15):6.2f} ms repeated")
    text = SAMPLE_LOG.read_text(encoding="utf-8")
    print("\nlog reading (median of 30 runs):")
    print(f"  parse_log(sample, {len(text):,} chars)          {_median_ms(lambda: parse_log(text), runs=30):7.2f} ms")
    print(f"  diagnose(sample) incl. recompute        {_median_ms(lambda: diagnose(text), runs=30):7.2f} ms")
    with Path("/dev/urandom").open("rb") as f:
        noise = f.read(5_000_000).decode("utf-8", errors="replace")
    print(f"  parse_log(5 MB random bytes)            {_median_ms(lambda: parse_log(noise), runs=5):7.1f} ms")
    # The shapes that make backtracking regexes explode (tests/test_logparse.py, adversarial repetition).
    rng = random.Random(7)
    line = "GiB KV memory Free memory on device (" + "9" * 2000 + " " * 2000 + "x\n"
    adversarial = "".join(line if rng.random() < 0.5 else "vllm serve --max-model-len " + "1" * 3000 + "\n"
                          for _ in range(400))
    print(f"  parse_log(adversarial, {len(adversarial):,} chars)   "
          f"{_median_ms(lambda: parse_log(adversarial), runs=5):7.1f} ms")
    # 5 MB of newlines and 5 MB of nested args echoes (each line a start): reading is one regex pass for the
    # anchor lines, then one pass per anchor line (tests/test_log_lines_2026.py; target < 1 s each).
    newlines = "\n" * (5 << 20)
    print(f"  parse_log(5 MB of newlines)             {_median_ms(lambda: parse_log(newlines), runs=5):7.1f} ms")
    nested = ("INFO non-default args: {'a': " + "{'a': " * 60 + "1" + "}" * 61 + "\n") * 40_000
    print(f"  parse_log({len(nested) >> 20} MB of nested args echoes)   "
          f"{_median_ms(lambda: parse_log(nested), runs=5):7.1f} ms")
    # `kvcalc log FILE --json` end to end on 5 MiB of random bytes (tests/test_cli.py; target < 1 s).
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "noise.log"
        path.write_bytes(random.Random(20260814).randbytes(5 * 1024 * 1024))
        cli = lambda: cli_main(["log", str(path), "--json"], stdout=io.StringIO(), stderr=io.StringIO())  # noqa: E731
        print(f"  kvcalc log <5 MiB random> --json        {_median_ms(cli, runs=5):7.1f} ms (target < 1000 ms)")
    adversarial_parse()
    print()
    hostile_main(["--no-pyodide"])  # the largest allowed configs and the slowest logs (bench/hostile_bench.py)
    if site:
        print(f"\nmkdocs build --strict (3 languages)     {_site_build_s():7.2f} s (median of 3)")


def _site_build_s(runs: int = 3) -> float:
    """Wall-clock of the strict docs build, as tests/test_docs_site.py runs it (tests assert no time:
    CONTRIBUTING.md §5)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    samples = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", tmp], cwd=root, env=env,
                           check=True, capture_output=True)
            samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


N = 100_000
ADVERSARIAL = {
    "digits": "9" * N, "digit_dots": "1." * (N // 2), "rc": "0.1" + "rc" * (N // 2), "local": "0.1+" + "a." * (N // 2),
    "word": "a" * N, "pairs": "a=" * (N // 2), "quotes": "a='" * (N // 3), "escaped_quotes": '"' + '\\"' * (N // 2),
    "brackets": "[" * N, "signs": "-" * N, "gib": "Available KV cache memory: " + "1" * N,
    "engine": "Initializing a V1 LLM engine (v" + "1." * (N // 2), "args": "non-default args: {'a': " + "-" * N + "1}",
    "config_pairs": "Initializing a V1 LLM engine (v0.1) with config: " + "a" * N,
}


def adversarial_parse() -> None:
    """Slowest parser per 100,000-character adversarial string (target < 50 ms each)."""
    parsers = {
        "parse_log": parse_log, "rules_for": rules_for, "parse_human_int": lambda t: parse_human_int(t, field="x"),
        "check_json_depth": lambda t: check_json_depth(t, field="config"), "python_literal_ok": python_literal_ok,
        "compute(log)": lambda t: compute(json.dumps({"action": "log", "log": t})),
    }

    def guarded(fn: Callable[[str], object], text: str) -> Callable[[], None]:
        def run() -> None:
            try:
                fn(text)
            except CalcError:
                pass
        return run

    print("\nadversarial parse, 100,000 chars (median of 5 runs; target < 50 ms each):")
    for name, text in ADVERSARIAL.items():
        times = {p: _median_ms(guarded(fn, text), runs=5) for p, fn in parsers.items()}
        slowest = max(times, key=times.__getitem__)
        print(f"  {name:16s} slowest {slowest:18s} {times[slowest]:7.2f} ms")


if __name__ == "__main__":
    if sys.argv[1:] == ["--largest"]:
        hostile_main(["--no-pyodide"])
    else:
        main()
