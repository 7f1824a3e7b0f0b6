"""The shape of the core, checked so that it stays: one way through the code.

- The core knows no page of the guide: only the faces (``cli``, ``web``,
  ``__main__``) talk to the outside, and no module names a guide page.
- ``report`` formats an ``Analysis``; it never plans again (no ``planner``,
  ``verdict`` or ``advice`` import).
- No function in ``calc/`` is longer than about 60 lines.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

CALC = Path(__file__).resolve().parent.parent / "calc"
FACES = {"cli", "web", "__main__"}
MAX_FUNCTION_LINES = 60
# Page names of the guide (docs/<lang>/<page>.md); a section id may appear in the core, a page may not.
GUIDE_PAGES = ("how-vllm-computes", "read-your-log", "calculator", "references", "faq")


def _modules() -> list[Path]:
    return sorted(p for p in CALC.glob("*.py"))


def _imported_modules(path: Path) -> set[str]:
    """The sibling modules ``path`` imports (``from .x import``, ``from . import x``, ``import kvcalc.x``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:
                found.add(node.module.split(".")[0])
            elif node.level == 1:
                found.update(alias.name for alias in node.names)
            elif node.module and node.module.startswith("kvcalc."):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("kvcalc."))
    return found


@pytest.mark.parametrize("path", [p for p in _modules() if p.stem not in FACES], ids=lambda p: p.stem)
def test_core_modules_import_no_face(path: Path) -> None:
    assert not (_imported_modules(path) & FACES), f"{path.name} imports a face ({_imported_modules(path) & FACES})"


def test_report_never_plans_again() -> None:
    assert not (_imported_modules(CALC / "report.py") & {"planner", "verdict", "advice"})


def test_analysis_is_the_faces_entry() -> None:
    """The faces call analyze(); none of them wires plan() and recommend() itself."""
    for face in ("cli.py", "web.py", "diagnose.py"):
        imports = _imported_modules(CALC / face)
        assert "verdict" not in imports and "advice" not in imports or face == "diagnose.py", face
    assert "analysis" in _imported_modules(CALC / "diagnose.py")


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.stem)
def test_no_guide_page_named_in_the_core(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"\bpage\s*=\s*[\"']", text), f"{path.name} passes a page name"
    for page in GUIDE_PAGES[:2]:
        assert page not in text, f"{path.name} names the guide page {page!r}"


def _long_functions(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                out.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_long_functions_in_the_core() -> None:
    long = [f for p in _modules() for f in _long_functions(p)]
    assert long == []


_VERSION_TUPLE = re.compile(r"\(0, [0-9]+, [0-9]+\)")


@pytest.mark.parametrize("path", [p for p in _modules() if p.name != "versions.py"], ids=lambda p: p.name)
def test_release_cut_offs_live_in_the_release_table(path: Path) -> None:
    """Every release boundary is a named rule of ``versions.RuleSet``, read from ``data/vllm_releases.json``:
    no module compares a version with a bare tuple (CONTRIBUTING.md §4)."""
    hits = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if _VERSION_TUPLE.search(line)]
    assert not hits, f"{path.name}: lines {hits}"
