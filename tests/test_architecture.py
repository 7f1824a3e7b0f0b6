"""The shape of the core, checked so that it stays: one package per stage, importing one way.

- The packages import downwards only (CONTRIBUTING.md §1.1): the shared pieces at the root, then
  ``arch`` (the model), ``kv`` (the cache's shape), ``budget`` (the memory), the stages at the root
  (``inputs``, ``verdict``, ``advice``, ``analysis``), ``logs`` (a pasted log), ``faces`` (CLI, page).
  No module is exempt.
- Only ``faces`` (and ``__main__``) talk to the outside, and no module names a guide page.
- ``report`` formats an ``Analysis``; it never plans again. The faces and the log path reach the
  planner through ``analyze()`` only.
- No function in ``calc/`` is longer than about 60 lines.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CALC = Path(__file__).resolve().parent.parent / "calc"
MAX_FUNCTION_STATEMENTS = 55
# Page names of the guide (docs/<lang>/<page>.md); a section id may appear in the core, a page may not.
GUIDE_PAGES = ("how-vllm-computes", "read-your-log", "calculator", "references", "faq")
# The root modules by rank: the shared pieces every stage may use, and the stages that tie the packages.
SHARED = {"errors", "limits", "units", "numfmt", "versions", "data_files", "catalog", "deployment", "vllm_text",
          "strings", "inert_text"}
STAGES = {"__init__", "inputs", "vllm_flags", "verdict", "advice", "analysis"}
RANK = {"shared": 0, "arch": 1, "kv": 2, "budget": 3, "stages": 4, "logs": 5, "faces": 6}
# Modules that plan on their own; only ``analysis`` (and the stages below it) may import them.
PLANNING = {"verdict", "advice", "planner"}


def _modules() -> list[Path]:
    return sorted(p for p in CALC.rglob("*.py") if "data" not in p.relative_to(CALC).parts)


def _dotted(path: Path) -> str:
    """``kv/planner.py`` -> ``kv.planner``; ``verdict.py`` -> ``verdict``."""
    return ".".join(path.relative_to(CALC).with_suffix("").parts)


def _layer(dotted: str) -> str:
    head = dotted.split(".")[0]
    if head in RANK:
        return head
    if head == "__main__":
        return "faces"
    if head in SHARED:
        return "shared"
    assert head in STAGES, f"{dotted}: a root module must be listed in SHARED or STAGES"
    return "stages"


def _imported_modules(path: Path) -> set[str]:
    """The core modules ``path`` imports, as dotted names under ``kvcalc`` (lazy imports included)."""
    here = _dotted(path).split(".")[:-1]
    if path.name == "__init__.py":
        here = _dotted(path).split(".")[:-1]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                if node.module:
                    found.add(".".join([*base, *node.module.split(".")]))
                else:
                    found.update(".".join([*base, a.name]) for a in node.names)
            elif node.module and node.module.startswith("kvcalc."):
                found.add(node.module.removeprefix("kvcalc."))
        elif isinstance(node, ast.Import):
            found.update(a.name.removeprefix("kvcalc.") for a in node.names if a.name.startswith("kvcalc."))
    return found


def _leaf(dotted: str) -> str:
    return dotted.split(".")[-1]


@pytest.mark.parametrize("path", _modules(), ids=_dotted)
def test_packages_import_downwards(path: Path) -> None:
    mine = RANK[_layer(_dotted(path))]
    upward = sorted(m for m in _imported_modules(path) if RANK[_layer(m)] > mine)
    assert not upward, f"{_dotted(path)} ({_layer(_dotted(path))}) imports upwards: {upward}"


def test_every_package_is_ranked() -> None:
    packages = {p.name for p in CALC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(RANK) - {"shared", "stages"}
    roots = {p.stem for p in CALC.glob("*.py")} - {"__main__"}
    assert roots == SHARED | STAGES


@pytest.mark.parametrize("path", [p for p in _modules() if _layer(_dotted(p)) != "faces"], ids=_dotted)
def test_core_modules_import_no_face(path: Path) -> None:
    faces = {m for m in _imported_modules(path) if _layer(m) == "faces"}
    assert not faces, f"{_dotted(path)} imports a face ({faces})"


def test_report_never_plans_again() -> None:
    imported = {_leaf(m) for m in _imported_modules(CALC / "faces" / "report.py")}
    assert not imported & PLANNING


@pytest.mark.parametrize("path", [p for p in _modules() if _layer(_dotted(p)) in ("logs", "faces")], ids=_dotted)
def test_the_log_path_and_the_faces_plan_through_analyze(path: Path) -> None:
    """A log's diagnosis, its capacity fit and every face reach the planner through ``analyze()``."""
    imported = {_leaf(m) for m in _imported_modules(path)}
    assert not imported & PLANNING, f"{_dotted(path)} imports {sorted(imported & PLANNING)}"
    assert "__wrapped__" not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", _modules(), ids=_dotted)
def test_no_guide_page_named_in_the_core(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\bpage\s*=\s*[\"']", text), f"{path.name} passes a page name"
    for page in GUIDE_PAGES[:2]:
        assert page not in text, f"{path.name} names the guide page {page!r}"


def _logical_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The lines a statement of the function (nested ones included) starts on, plus the ``def``: its length
    as written, whatever the formatter does with a long call or a literal spread over lines."""
    return len({n.lineno for n in ast.walk(node) if isinstance(n, ast.stmt) and n is not node}) + 1


def _long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = _logical_lines(node)
            if length > MAX_FUNCTION_STATEMENTS:
                out.append(f"{path.name}:{node.lineno} {node.name} ({length} statement lines)")
    return out


def test_no_long_functions_in_the_core() -> None:
    long = [f for p in _modules() for f in _long_functions(p)]
    assert long == []


_VERSION_TUPLE = re.compile(r"\(0, [0-9]+, [0-9]+\)")


@pytest.mark.parametrize("path", [p for p in _modules() if p.name != "versions.py"], ids=_dotted)
def test_release_cut_offs_live_in_the_release_table(path: Path) -> None:
    """Every release boundary is a named rule of ``versions.RuleSet``, read from ``data/vllm_releases.json``:
    no module compares a version with a bare tuple (CONTRIBUTING.md §4)."""
    hits = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if _VERSION_TUPLE.search(line)]
    assert not hits, f"{path.name}: lines {hits}"
