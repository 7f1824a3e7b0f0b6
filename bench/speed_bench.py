"""The speed targets of the core's faces: ``plan()`` uncached, the CLI's start, the browser's recompute.

- ``plan()`` with every cache that holds a scenario's work emptied before each call (the plan, the layer
  specs, the layer names), and, for information, the plan body alone with the layer specs kept (what a
  recompute in the calculator pays when only the length changed);
- the CLI's start: wall time of ``kvcalc --help`` and ``kvcalc plan …`` as subprocesses, the built wheel
  installed by pip in a bare venv (the development venv's editable install adds its own import finder),
  beside ``python -c pass`` in that venv;
- the browser's recompute: ``bench/web_bench.py --only recompute`` (real Chromium and the built site, 20
  edits of ``max_model_len`` per run, from the ``input`` event to the rendered result), run with
  ``--browser``.

Medians of ``--runs`` runs (default 11); ``--write`` puts them in ``bench/RESULTS.md`` (its "Speed
targets" section).

    .venv/bin/python bench/speed_bench.py [--runs 11] [--browser] [--write]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from core_bench import SCENARIOS
from hostile_bench import CLEAR_CACHES, write_results

from kvcalc import plan
from kvcalc.inputs import scenario_from_inputs
from kvcalc.kv.planner import indexer_layer_name, layer_name

REPO = Path(__file__).resolve().parent.parent
HEADING = "## Speed targets (bench/speed_bench.py)"

PLAN_ARGS = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "32k"]


def _clearer() -> Callable[[], None]:
    """Every cache a plan fills: the scenario's (hostile_bench.CLEAR_CACHES) and the layer names'."""
    space: dict[str, object] = {}
    exec(CLEAR_CACHES, space)
    clear = space["clear_scenario_caches"]
    assert callable(clear)

    def clear_all() -> None:
        clear()
        layer_name.cache_clear()
        indexer_layer_name.cache_clear()
    return clear_all


def plan_ms(runs: int, inner: int = 50) -> dict[str, tuple[float, float]]:
    """Per scenario: median ms per ``plan()`` with every cache emptied, and with the layer specs kept."""
    out: dict[str, tuple[float, float]] = {}
    body = plan.__wrapped__
    clear_all = _clearer()
    for name, inputs in SCENARIOS.items():
        s = scenario_from_inputs(inputs)
        cold, warm = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            for _ in range(inner):
                clear_all()
                plan(s.model, s.deployment)
            cold.append((time.perf_counter() - t0) / inner * 1000)
            t0 = time.perf_counter()
            for _ in range(inner):
                body(s.model, s.deployment)
            warm.append((time.perf_counter() - t0) / inner * 1000)
        out[name] = statistics.median(cold), statistics.median(warm)
    return out


def cli_ms(runs: int) -> dict[str, float]:
    """Median wall ms of each command in a fresh interpreter, the wheel installed by pip in a bare venv.

    A bare venv (``--without-pip``, nothing else in it) with the built wheel installed as a reader's
    ``pip install`` leaves it (byte-compiled, the ``kvcalc`` console script): the development venv's
    editable install adds an import finder that every start pays for, ``python -c pass`` included.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", tmp], check=True,
                       capture_output=True)
        venv = Path(tmp) / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
        wheel = next(Path(tmp).glob("kvcalc-*.whl"))
        subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
                        "--no-deps", "--no-index", str(wheel)], check=True, capture_output=True, env=env)
        python, kvcalc = str(venv / "bin" / "python"), str(venv / "bin" / "kvcalc")
        commands = {"`python -c pass` (the interpreter alone)": [python, "-c", "pass"],
                    "`kvcalc --help`": [kvcalc, "--help"],
                    "`kvcalc " + " ".join(PLAN_ARGS) + "`": [kvcalc, *PLAN_ARGS]}
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):  # interleaved, so the machine's load hits all alike
            for name, argv in commands.items():
                t0 = time.perf_counter()
                proc = subprocess.run(argv, capture_output=True, env=env, cwd=tmp)
                samples[name].append((time.perf_counter() - t0) * 1000)
                assert proc.returncode in (0, 1), proc.stderr
    return {name: statistics.median(values) for name, values in samples.items()}


def browser_recompute(runs: int) -> str:
    """``bench/web_bench.py --only recompute`` with 20 edits per run: its printed recompute section."""
    proc = subprocess.run([sys.executable, str(REPO / "bench" / "web_bench.py"), "--only", "recompute", "--runs",
                           str(runs), "--edits", "20"], capture_output=True, text=True, check=True, cwd=REPO)
    text = proc.stdout
    start = text.index("## Recompute latency")
    ends = [i for i in (text.find("\n## ", start + 1), text.find("\nraw ready times", start)) if i >= 0]
    return text[start:min(ends, default=len(text))].split("\n", 1)[1].strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--browser", action="store_true", help="also the browser's recompute (needs `make site`)")
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md's section")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    plans = plan_ms(args.runs)
    cli = cli_ms(args.runs)
    lines = [HEADING, "", f"CPython {sys.version.split()[0]}, {os.cpu_count()} CPUs shared with other jobs (load "
             f"average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end); medians of {args.runs} runs.", "",
             "| `plan()` per call | every cache emptied (ms, target ≤ 0.3) | layer specs kept (ms) |", "|---|---:|---:|",
             *[f"| {name} | {cold:.3f} | {warm:.3f} |" for name, (cold, warm) in plans.items()], "",
             "| command (fresh interpreter, wall) | ms (target ≤ 80) |", "|---|---:|",
             *[f"| {name} | {ms:.0f} |" for name, ms in cli.items()], ""]
    if args.browser:
        lines += ["Browser recompute (`bench/web_bench.py --only recompute --edits 20`, target ≤ 10 ms median):", "",
                  browser_recompute(min(args.runs, 5)), ""]
    section = "\n".join(lines).rstrip("\n")
    print(section)
    if args.write:
        write_results(section, HEADING)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
