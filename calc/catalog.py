"""The bundled model and GPU catalog (``data/catalog.json``).

Why: readers pick "Qwen/Qwen3-8B on an RTX 4090" without pasting a config or
knowing how much memory their driver reports. The JSON is produced offline by
``scripts/build_catalog.py`` with ``transformers`` (resolved configs) and is
read here with the standard library only, so it works from a wheel and in
Pyodide alike.
"""

from __future__ import annotations

from .data_files import read_data

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

__all__ = [
    "CatalogGpu",
    "CatalogModel",
    "find_gpu",
    "find_model",
    "gpus",
    "models",
]


@dataclass(frozen=True, kw_only=True)
class CatalogModel:
    """One served model with its resolved Hugging Face config facts."""

    id: str
    """Hugging Face id, e.g. ``Qwen/Qwen3-8B``."""
    family: str
    """Display family, e.g. ``Qwen3``, ``Gemma 3``."""
    num_parameters: int | None
    """Exact total from the safetensors index or model card; None = estimate from config."""
    config: Mapping[str, object] = field(repr=False)
    """Resolved config facts with Hugging Face key names (read-only view)."""
    weights_bytes: int | None = None
    """Exact safetensors ``metadata.total_size`` when a copied index gives it; None = counted."""


@dataclass(frozen=True, kw_only=True)
class CatalogGpu:
    """One GPU model with the total memory its driver reports."""

    id: str
    """Catalog id as in the CLI contract, e.g. ``H100-80GB``, ``RTX-4090``."""
    name: str
    """Full product name, e.g. ``NVIDIA H100 80GB HBM3``."""
    vendor: str
    """``nvidia`` or ``amd``."""
    segment: str
    """``consumer``, ``workstation`` or ``datacenter``."""
    memory_bytes: int
    """Total device memory as ``torch.cuda.mem_get_info()[1]`` reports it (not marketing GB)."""
    memory_source_kind: str = "nvidia-smi"
    """``cuda`` when the figure is a CUDA/HIP total; ``nvidia-smi``/``rocm-smi`` when only the SMI
    total (a few hundred MiB above what vLLM sees) was found."""


def _freeze(value: Any) -> Any:
    """Read-only views so a shared catalog entry cannot be mutated by a caller."""
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@lru_cache(maxsize=1)
def _document() -> Mapping[str, Any]:
    text = read_data("catalog.json")
    return json.loads(text)


@lru_cache(maxsize=1)
def models() -> tuple[CatalogModel, ...]:
    """All catalog models, in the catalog's stable order."""
    return tuple(
        CatalogModel(
            id=entry["id"],
            family=entry["family"],
            num_parameters=entry.get("num_parameters"),
            config=_freeze(entry["config"]),
            weights_bytes=entry.get("weights_bytes"),
        )
        for entry in _document()["models"]
    )


@lru_cache(maxsize=1)
def gpus() -> tuple[CatalogGpu, ...]:
    """All catalog GPUs, in the catalog's stable order."""
    return tuple(
        CatalogGpu(
            id=entry["id"],
            name=entry["name"],
            vendor=entry["vendor"],
            segment=entry["segment"],
            memory_bytes=int(entry["memory_bytes"]),
            memory_source_kind=entry.get("memory_source_kind", "nvidia-smi"),
        )
        for entry in _document()["gpus"]
    )


def _suggest(wanted: str, choices: list[str]) -> str:
    import difflib  # only on a miss: keeps the import of the package fast

    close = difflib.get_close_matches(wanted, choices, n=3, cutoff=0.5)
    return f"; did you mean {', '.join(close)}?" if close else ""


def find_model(model_id: str) -> CatalogModel:
    """The catalog model with this Hugging Face id (case-insensitive).

    Raises LookupError naming close matches when there is none.
    """
    wanted = model_id.strip().lower()
    for model in models():
        if model.id.lower() == wanted:
            return model
    ids = [m.id for m in models()]
    by_lower = {i.lower(): i for i in ids}
    import difflib  # only on a miss

    close = difflib.get_close_matches(wanted, list(by_lower), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(by_lower[c] for c in close)}?" if close else ""
    raise LookupError(f"model {model_id!r} is not in the catalog{hint}")


_SEPARATORS = re.compile(r"[\s_\-]+")
_MEMORY_SUFFIX = re.compile(r"\d+gb")


def _gpu_key(text: str) -> str:
    """Spelling-insensitive key: ``"rtx 4090"``, ``"RTX_4090"``, ``"rtx-4090"`` match."""
    return _SEPARATORS.sub("", text.strip().lower())


def find_gpu(gpu_id: str) -> CatalogGpu:
    """The catalog GPU with this id, ignoring case, spaces, ``_`` and ``-``.

    A bare name that is unique among the ids (``"h100"`` -> ``H100-80GB``) also
    matches. Raises LookupError naming close matches when there is none.
    """
    key = _gpu_key(gpu_id)
    catalog = gpus()
    for gpu in catalog:
        if _gpu_key(gpu.id) == key:
            return gpu
    for gpu in catalog:
        if _gpu_key(gpu.name) == key or _gpu_key(gpu.name.removeprefix("NVIDIA ").removeprefix("AMD ")) == key:
            return gpu
    prefixed = [gpu for gpu in catalog if key and _gpu_key(gpu.id).startswith(key)]
    if len(prefixed) == 1:
        return prefixed[0]
    # "h100" means the plain memory variant (H100-80GB), not H100-NVL.
    sized = [g for g in prefixed if _MEMORY_SUFFIX.fullmatch(_gpu_key(g.id)[len(key):])]
    if len(sized) == 1:
        return sized[0]
    if len(prefixed) > 1:
        raise LookupError(
            f"GPU {gpu_id!r} is ambiguous; choose one of {', '.join(g.id for g in prefixed)}"
        )
    hint = _suggest(gpu_id.strip().upper(), [g.id for g in catalog])
    raise LookupError(f"GPU {gpu_id!r} is not in the catalog{hint}")
