"""kvcalc: vLLM's KV-cache start-up arithmetic, to the block.

Standard library only, so the same code runs in CPython and in Pyodide.

The public names are imported on first use (PEP 562 ``__getattr__``): ``kvcalc --help`` and the
modules that need only a part of the pipeline do not pay for importing all of it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis import Analysis, analyze
    from .arch.model import ModelSpec, normalize_config
    from .deployment import Deployment, Measured
    from .errors import CalcError
    from .inputs import Scenario, scenario_from_inputs
    from .verdict import Verdict, plan

__all__ = [
    "Analysis",
    "CalcError",
    "Deployment",
    "Measured",
    "ModelSpec",
    "Scenario",
    "Verdict",
    "analyze",
    "normalize_config",
    "plan",
    "scenario_from_inputs",
    "__version__",
]
__version__ = "0.1.0"

#: Each public name → the module that defines it.
_HOMES = {
    "Analysis": "analysis",
    "analyze": "analysis",
    "Deployment": "deployment",
    "Measured": "deployment",
    "CalcError": "errors",
    "Scenario": "inputs",
    "scenario_from_inputs": "inputs",
    "ModelSpec": "arch.model",
    "normalize_config": "arch.model",
    "Verdict": "verdict",
    "plan": "verdict",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
