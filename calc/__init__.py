"""kvcalc: vLLM's KV-cache start-up arithmetic, to the block.

Standard library only, so the same code runs in CPython and in Pyodide.
"""
from __future__ import annotations

from .deployment import Deployment, Measured
from .errors import CalcError
from .model import ModelSpec, normalize_config
from .verdict import Verdict, plan

__all__ = ["CalcError", "Deployment", "Measured", "ModelSpec", "Verdict", "normalize_config", "plan", "__version__"]
__version__ = "0.1.0"
