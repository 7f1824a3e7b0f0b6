"""The package's bundled data files (wheel, editable install and Pyodide alike).

Read through the package's own path: a wheel is always unpacked (pip, and the calculator's worker,
which unpacks it into Pyodide's file system), so ``__file__`` names a real folder, and
``importlib.resources`` would add ~10 ms of imports to the CLI's start for the same bytes.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["read_data"]

_DATA = Path(__file__).resolve().parent / "data"


def read_data(name: str) -> str:
    """Text of ``calc/data/<name>``."""
    return (_DATA / name).read_text(encoding="utf-8")
