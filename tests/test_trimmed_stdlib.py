"""The trimmed standard library the calculator ships (``python_stdlib_kvcalc.zip``) holds
everything the core can import in the browser, checked in the real Pyodide under Node.

``scripts/build_web_assets.py`` keeps the stdlib files imported after answering every
scenario and real log, and ships the zip only if those answers are CPython's. This test
looks from the other side, at the code: every module of the wheel but the CLI's, and every
``import`` statement in them, at module level or inside a function (the lazily loaded log
reader, advice and data files), must import in a runtime started with the trimmed zip; and
that runtime answers the scenario list and every real log exactly as CPython does.
"""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from core_wheel import core_wheel

from kvcalc.faces import web

REPO = Path(__file__).resolve().parent.parent
TRIMMED = REPO / "docs" / "assets" / "pyodide" / "python_stdlib_kvcalc.zip"
RUNNER = REPO / "tests" / "node" / "import_everything.mjs"
#: Modules the browser never loads: the command line (argparse and friends stay out of the zip).
CLI_ONLY = frozenset({"kvcalc.faces.cli", "kvcalc.__main__"})


def _modules_and_imports() -> tuple[list[str], list[str]]:
    """(every kvcalc module but the CLI's, every stdlib module any of them imports anywhere)."""
    modules, imported = [], set()
    for path in sorted((REPO / "calc").rglob("*.py")):
        parts = path.relative_to(REPO / "calc").with_suffix("").parts
        name = ".".join(("kvcalc", *parts)).removesuffix(".__init__")
        if name in CLI_ONLY:
            continue
        modules.append(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module)
    stdlib = sorted(name for name in imported if name.split(".")[0] in sys.stdlib_module_names)
    return modules, stdlib


def test_the_scan_sees_lazy_imports() -> None:
    modules, stdlib = _modules_and_imports()
    assert "kvcalc.logs.logparse" in modules and "kvcalc.faces.web" in modules and "kvcalc.faces.cli" not in modules
    assert "importlib" in stdlib   # kvcalc/__init__.py imports it, for the public names it loads on first use
    assert "argparse" not in stdlib   # only the CLI uses it


@pytest.fixture(scope="module")
def trimmed_runtime(tmp_path_factory: pytest.TempPathFactory) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required (Debian: apt-get install -y nodejs npm)", pytrace=False)
    if not TRIMMED.is_file():
        pytest.fail(f"{TRIMMED.relative_to(REPO)} is missing: run `make web-assets` (make test does)", pytrace=False)
    tmp = tmp_path_factory.mktemp("trimmed")
    wheel = core_wheel(tmp)
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from build_web_assets import _stdlib_requests
    finally:
        sys.path.remove(str(REPO / "scripts"))
    modules, stdlib = _modules_and_imports()
    requests = _stdlib_requests(REPO)
    job = {"stdlib": str(TRIMMED), "wheel": str(wheel), "modules": [*stdlib, *modules], "requests": requests}
    (tmp / "job.json").write_text(json.dumps(job), encoding="utf-8")
    proc = subprocess.run([node, str(RUNNER), str(tmp / "job.json"), str(tmp / "out.json")],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out: dict = json.loads((tmp / "out.json").read_text(encoding="utf-8"))
    return {**out, "requests": requests, "modules": job["modules"]}


def test_every_import_works_with_the_trimmed_stdlib(trimmed_runtime: dict) -> None:
    assert len(trimmed_runtime["modules"]) > 30
    assert trimmed_runtime["failed"] == {}


def test_trimmed_runtime_answers_as_cpython(trimmed_runtime: dict) -> None:
    requests = trimmed_runtime["requests"]
    assert len(requests) > 100   # the scenario list and every real log
    differ = [i for i, (request, answer) in enumerate(zip(requests, trimmed_runtime["answers"], strict=True))
              if answer != web.compute(request)]
    assert differ == [], f"{len(differ)} answers differ, the first: {requests[differ[0]][:300]}"
