"""The core's wheel for the tests that run it in Pyodide under Node.

``make web-assets`` (which ``make test`` runs first) has just built one into ``docs/assets/wheels/``;
building another costs two seconds a module. It is reused only when it holds ``calc/`` as the tree
has it now, file for file and byte for byte, so a test never runs an older core than the tree's.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BUILT = REPO / "docs" / "assets" / "wheels"
PACKAGE_GLOBS = ("**/*.py", "data/*.json")
"""What the wheel ships of ``calc/`` (pyproject.toml: the packages and their package data)."""


def _tree_files() -> dict[str, bytes]:
    calc = REPO / "calc"
    return {"kvcalc/" + path.relative_to(calc).as_posix(): path.read_bytes()
            for pattern in PACKAGE_GLOBS for path in calc.glob(pattern) if "__pycache__" not in path.parts}


def _holds_the_tree(wheel: Path) -> bool:
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name: archive.read(name) for name in archive.namelist() if name.startswith("kvcalc/")}
    return shipped == _tree_files()


def core_wheel(tmp: Path) -> Path:
    """The built wheel if it holds the tree's ``calc/``; else a wheel built from the tree into ``tmp``."""
    built = sorted(BUILT.glob("kvcalc-*-py3-none-any.whl"))
    if len(built) == 1 and _holds_the_tree(built[0]):
        return built[0]
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(REPO), "--no-deps", "-q", "-w", str(tmp)], check=True)
    (wheel,) = tmp.glob("kvcalc-*-py3-none-any.whl")
    return wheel
