"""Every dataclass field in calc/ has a docstring right under it (CONTRIBUTING.md §1.2).

The field docstring is a string literal on the line after the field, the house style: it is what a
reader hovering a field in an editor sees, and what keeps its unit and its vLLM name in one place.
Found by walking each module's syntax tree (``ast``), so a class needs no import to be checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CALC = Path(__file__).resolve().parents[1] / "calc"


def _is_dataclass(node: ast.ClassDef) -> bool:
    for deco in node.decorator_list:
        target = deco.func if isinstance(deco, ast.Call) else deco
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name == "dataclass":
            return True
    return False


def _is_docstring(stmt: ast.stmt | None) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def undocumented_fields(source: str) -> tuple[int, list[str]]:
    """(fields seen, ``Class.field`` of those without a docstring) for one module's source."""
    seen, missing = 0, []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.ClassDef) and _is_dataclass(node)):
            continue
        for i, stmt in enumerate(node.body):
            if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
                continue
            if "ClassVar" in ast.unparse(stmt.annotation):  # not a field
                continue
            seen += 1
            if not _is_docstring(node.body[i + 1] if i + 1 < len(node.body) else None):
                missing.append(f"{node.name}.{stmt.target.id} (line {stmt.lineno})")
    return seen, missing


def test_every_dataclass_field_in_calc_has_a_docstring() -> None:
    total, missing = 0, []
    for path in sorted(CALC.rglob("*.py")):
        seen, absent = undocumented_fields(path.read_text(encoding="utf-8"))
        total += seen
        missing += [f"{path.relative_to(CALC.parent).as_posix()}: {m}" for m in absent]
    assert total > 300, total  # the walk found the core's dataclasses
    assert not missing, "a docstring under each field (CONTRIBUTING.md §1.2):\n" + "\n".join(
        missing
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass A:\n"
            "    x: int\n    y: int = 0\n"
            '    """Y."""\n',
            ["A.x (line 4)"],
        ),
        (
            "import dataclasses\n@dataclasses.dataclass\nclass A:\n"
            "    x: int\n    def f(self) -> None:\n"
            '        """Not x\'s."""\n',
            ["A.x (line 4)"],
        ),
        (
            "from typing import ClassVar\nfrom dataclasses import dataclass\n@dataclass\nclass A:\n"
            "    k: ClassVar[int] = 1\n",
            [],
        ),
        ("class Plain:\n    x: int\n", []),
    ],
)
def test_the_walk_finds_what_it_should(source: str, expected: list[str]) -> None:
    assert undocumented_fields(source)[1] == expected
