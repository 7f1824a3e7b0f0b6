"""Test factories with vLLM-like defaults (design.md: tests mirror modules)."""
from __future__ import annotations

from dataclasses import replace

from kvcalc import Deployment, Measured, plan
from kvcalc.arch.model import ModelSpec, normalize_config
from kvcalc.catalog import find_model
from kvcalc.units import GiB
from kvcalc.verdict import Verdict
from kvcalc.versions import rules_for


def model(model_id: str) -> ModelSpec:
    entry = find_model(model_id)
    return normalize_config(entry.config, model_id=entry.id, num_parameters=entry.num_parameters,
                            checkpoint_bytes=entry.weights_bytes)


def deployment(*, available_gib: float | None = None, available_bytes: int | None = None, version: str | None = None,
               **kw: object) -> Deployment:
    """A deployment with a measured "Available KV cache memory" (skips the runtime estimates)."""
    if available_bytes is None and available_gib is not None:
        available_bytes = int(available_gib * GiB)
    return Deployment(measured=Measured(available_kv_bytes=available_bytes), rules=rules_for(version), **kw)  # type: ignore[arg-type]


def run(model_id: str, **kw: object) -> Verdict:
    return plan(model(model_id), deployment(**kw))


def plan_with(m: ModelSpec, **kw: object) -> Verdict:
    return plan(m, deployment(**kw))


__all__ = ["model", "deployment", "run", "plan_with", "replace"]
