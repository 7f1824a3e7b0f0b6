"""Record what the core answers for a fixed corpus, so that a move of code can prove it changed nothing.

The corpus: every catalog model at two settings (``kvcalc plan --json``), every scenario of
``tests/data/scenarios.json`` and every vendored log (``kvcalc log --json`` and the browser's
``web.compute`` log request, in es/zh/en by turns), and bad inputs (their error codes). Each answer is
stored as the exact text the face wrote, in ``tests/data/behaviour.json.gz``;
``tests/test_behaviour.py`` replays the corpus and compares byte for byte.

Run it (``make behaviour``) only when a change of behaviour is intended and understood: the diff of the
answers is the review of that change (``--diff`` prints which cases changed, before re-recording).
"""
from __future__ import annotations

import argparse
import contextlib
import gzip
import io
import json
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORE = ROOT / "tests" / "data" / "behaviour.json.gz"
LOGS = ROOT / "tests" / "data" / "logs"
LANGS = ("en", "es", "zh")

#: Two settings per catalog model: vLLM's defaults on a card it fits on, and a long context with fp8 KV at TP 2.
SETTINGS: tuple[tuple[str, ...], ...] = (
    ("--gpu", "H100-80GB"),
    ("--gpu", "H200", "--max-model-len", "128k", "--kv-cache-dtype", "fp8", "--tensor-parallel-size", "2"),
)
#: Bad input: each must stay an exit 2 with the same one line.
BAD: tuple[tuple[str, ...], ...] = (
    ("plan", "--model", "no/such-model", "--gpu", "H100-80GB"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "h100"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "1.5G"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--gpu-memory-utilization", "1.5"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--vllm-version", "0.5.0"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--block-size", "17"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--kv-cache-dtype", "int3"),
    ("plan", "--model", "Qwen/Qwen3-8B", "--gpu-memory-gib", "nan"),
    ("log", "/dev/zero"),
)


def _cli(argv: list[str]) -> dict[str, object]:
    """Run ``kvcalc`` in-process: its exit status, stdout and stderr, as the terminal would get them."""
    from kvcalc.faces.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return {"exit": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _web(request: dict[str, object]) -> dict[str, object]:
    from kvcalc.faces.web import compute

    return {"answer": compute(json.dumps(request))}


def _scenario_request(scenario: dict[str, object]) -> str:
    """The request text a scenario of tests/data/scenarios.json sends (as tests/test_pyodide_node.py does)."""
    if "raw" in scenario:
        return str(scenario["raw"])
    request = json.loads(json.dumps(scenario["request"]))
    if "config_file" in scenario:
        request["inputs"]["config"] = (ROOT / str(scenario["config_file"])).read_text(encoding="utf-8")
    if "log_file" in scenario:
        request["log"] = (ROOT / str(scenario["log_file"])).read_text(encoding="utf-8")
    return json.dumps(request)


def cases() -> Iterator[tuple[str, dict[str, object]]]:
    """(name, answer) for every case of the corpus, in a fixed order."""
    from kvcalc import catalog

    for model in sorted(m.id for m in catalog.models()):
        for n, setting in enumerate(SETTINGS):
            yield f"plan {model} #{n}", _cli(["plan", "--model", model, *setting, "--json"])
    from kvcalc.faces.web import compute

    corpus = json.loads((ROOT / "tests" / "data" / "scenarios.json").read_text(encoding="utf-8"))
    for scenario in corpus["scenarios"]:
        yield f"scenario {scenario['name']}", {"answer": compute(_scenario_request(scenario))}
    for log in sorted(LOGS.glob("*.log")):
        # the language follows the file's name, not its place in the folder: a log added later
        # leaves every other case as recorded
        lang = LANGS[zlib.crc32(log.name.encode("utf-8")) % len(LANGS)]
        yield f"log {log.name}", _cli(["log", str(log.relative_to(ROOT)), "--json"])
        yield f"web log {log.name}", _web({"action": "log", "lang": lang, "inputs": {},
                                           "log": log.read_text(encoding="utf-8", errors="replace")})
    for argv in BAD:
        yield "bad " + " ".join(argv), _cli(list(argv))


def load() -> dict[str, dict[str, object]]:
    with gzip.open(STORE, "rt", encoding="utf-8") as f:
        stored: dict[str, dict[str, object]] = json.load(f)
    return stored


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--diff", action="store_true", help="list the cases whose answer changed; write nothing")
    args = parser.parse_args(argv)
    import os
    os.chdir(ROOT)  # log paths are relative to the repository, as the answers quote them
    answers = dict(cases())
    if args.diff:
        stored = load()
        changed = sorted(k for k in answers.keys() | stored.keys() if answers.get(k) != stored.get(k))
        print("\n".join(changed) or "no change")
        print(f"{len(changed)} of {len(answers)} cases changed", file=sys.stderr)
        return 1 if changed else 0
    text = json.dumps(answers, ensure_ascii=False, indent=0, sort_keys=True)
    with gzip.GzipFile(STORE, "wb", mtime=0) as f:  # mtime 0: the same answers give the same bytes
        f.write(text.encode("utf-8"))
    print(f"{len(answers)} cases recorded in {STORE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
