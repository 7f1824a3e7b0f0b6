"""kvcalc: vLLM's KV-cache start-up arithmetic, to the block.

Standard library only, so the same code runs in CPython and in Pyodide.
"""
from __future__ import annotations

from .analysis import Analysis, analyze
from .arch.model import ModelSpec, normalize_config
from .deployment import Deployment, Measured
from .errors import CalcError
from .inputs import Scenario, scenario_from_inputs
from .verdict import Verdict, plan

__all__ = ["Analysis", "CalcError", "Deployment", "Measured", "ModelSpec", "Scenario", "Verdict", "analyze",
           "normalize_config", "plan", "scenario_from_inputs", "__version__"]
__version__ = "0.1.0"
