"""The package's bundled data files (wheel, editable install and Pyodide alike).

Read through the package's own path: a wheel is always unpacked (pip, and the calculator's worker,
which unpacks it into Pyodide's file system), so ``__file__`` names a real folder, and
``importlib.resources`` would add ~10 ms of imports to the CLI's start for the same bytes
(``pathlib`` alone, with the ``urllib.parse`` and ``ipaddress`` it imports, ~2.5 ms).
"""

from __future__ import annotations

import os

__all__ = ["read_data"]

_DATA = os.path.join(os.path.dirname(os.path.realpath(__file__)), "data")


def read_data(name: str) -> str:
    """Text of ``calc/data/<name>``."""
    with open(os.path.join(_DATA, name), encoding="utf-8") as f:
        return f.read()
