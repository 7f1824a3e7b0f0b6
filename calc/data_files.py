"""The package's bundled data files, read lazily (wheel, editable install and Pyodide alike)."""
from __future__ import annotations

__all__ = ["read_data"]


def read_data(name: str) -> str:
    """Text of ``calc/data/<name>``; importlib.resources is imported on first use to keep start-up fast."""
    from importlib import resources

    return (resources.files(__package__) / "data" / name).read_text(encoding="utf-8")
