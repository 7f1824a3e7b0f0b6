"""The core's wheel inside the real Pyodide runtime gives CPython's answers.

Builds the ``py3-none-any`` wheel, unpacks it into Pyodide (the npm package
pinned in ``package-lock.json``) under Node, and runs every request of
``tests/data/scenarios.json`` through ``kvcalc.faces.web.compute`` there and here:
the JSON must be identical, scenario by scenario. This is what makes the
calculator in the page show the CLI's numbers.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from core_wheel import core_wheel

from kvcalc.faces import web

REPO = Path(__file__).resolve().parent.parent
SCENARIOS = REPO / "tests" / "data" / "scenarios.json"
RUNNER = REPO / "tests" / "node" / "run_scenarios.mjs"
MIN_SCENARIOS = 50


def _request_json(scenario: dict) -> str:
    """The request string a scenario sends (files inlined, ``raw`` sent as is)."""
    if "raw" in scenario:
        return scenario["raw"]
    request = json.loads(json.dumps(scenario["request"]))
    if "config_file" in scenario:
        request["inputs"]["config"] = (REPO / scenario["config_file"]).read_text(encoding="utf-8")
    if "log_file" in scenario:
        request["log"] = (REPO / scenario["log_file"]).read_text(encoding="utf-8")
    return json.dumps(request)


def _scenarios() -> list[dict]:
    return json.loads(SCENARIOS.read_text(encoding="utf-8"))["scenarios"]


@pytest.fixture(scope="module")
def pyodide_answers(tmp_path_factory: pytest.TempPathFactory) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required (Debian: apt-get install -y nodejs npm)", pytrace=False)
    if not (REPO / "node_modules" / "pyodide" / "package.json").is_file():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=REPO, check=True)
    tmp = tmp_path_factory.mktemp("pyodide")
    wheel = core_wheel(tmp)
    requests = [{"name": s["name"], "request": _request_json(s)} for s in _scenarios()]
    (tmp / "requests.json").write_text(json.dumps(requests), encoding="utf-8")
    proc = subprocess.run(
        [node, str(RUNNER), str(wheel), str(tmp / "requests.json"), str(tmp / "answers.json")],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    data = json.loads((tmp / "answers.json").read_text(encoding="utf-8"))
    return {"runtime": data["runtime"], "answers": {a["name"]: a["response"] for a in data["answers"]}}


def test_scenario_list_covers_the_contract() -> None:
    scenarios = _scenarios()
    names = [s["name"] for s in scenarios]
    assert len(names) == len(set(names)), "scenario names must be unique"
    assert len(scenarios) >= MIN_SCENARIOS
    text = " ".join(names)
    # dense, GQA with TP replication, Mistral sliding, Gemma 3, gpt-oss, DeepSeek-V3 TP 8,
    # fp8, PP, auto-fit, override, kv_cache_memory_bytes, bad input, logs
    for needle in ("dense", "replicated", "mistral", "gemma3", "gpt-oss", "deepseek-v3 h200 tp8",
                   "fp8", "pp ", "auto", "override", "kv bytes", "bad ", "log "):
        assert needle in text, needle


def test_runtime_is_pyodide(pyodide_answers: dict) -> None:
    runtime = pyodide_answers["runtime"]
    assert runtime.startswith("cpython 3.14") and " emscripten " in runtime, runtime
    # imported from the unpacked wheel, not from this checkout
    assert "/site-packages/kvcalc/faces/web.py" in runtime, runtime


@pytest.mark.parametrize("scenario", _scenarios(), ids=lambda s: s["name"])
def test_pyodide_equals_cpython(scenario: dict, pyodide_answers: dict) -> None:
    request = _request_json(scenario)
    expected = json.loads(web.compute(request))
    got = json.loads(pyodide_answers["answers"][scenario["name"]])
    assert got == expected
    if scenario["name"].startswith("bad "):
        assert got["ok"] is False and got["errors"], "a bad-input scenario must be refused"
