"""The memory budget is kept on what it reads (kvcalc.budget.memory ``_budget_key``).

A recompute in the calculator changes one field, most often ``max_model_len``, and the advice
plans its what-ifs at the band's edges: the budget is made once for all of them, keyed on the
deployment less the edge and, where the budget cannot depend on it, less the length. A budget
found that way must equal the one computed afresh for the very deployment asked, for every catalog
model, on a V0 release, an early V1 one and the pinned main, at each edge and at two lengths (the
cache filled by the first length, then asked for the second).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from kvcalc import catalog
from kvcalc.arch.model import ModelSpec
from kvcalc.budget import memory
from kvcalc.budget.memory import MemoryBudget
from kvcalc.deployment import Deployment, batch_defaults
from kvcalc.errors import CalcError
from kvcalc.inputs import scenario_from_inputs

RELEASES = ("0.6.0", "0.10.1.1", "")  # V0, early V1, the pinned main
LENGTHS = (4096, 32768)
EDGES = ("central", "low", "high")


def _fresh(model: ModelSpec, dep: Deployment) -> MemoryBudget:
    tokens, seqs = batch_defaults(dep)
    return memory._memory_budget(
        model, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs
    ).at_edge(dep.budget_edge)


def _kept(model: ModelSpec, dep: Deployment) -> MemoryBudget:
    tokens, seqs = batch_defaults(dep)
    return memory.memory_budget(model, dep, max_num_batched_tokens=tokens, max_num_seqs=seqs)


@pytest.mark.parametrize("model_id", sorted(m.id for m in catalog.models()))
def test_a_kept_budget_is_the_budget_computed_afresh(model_id: str) -> None:
    for version in RELEASES:
        inputs = {"model": model_id, "gpu": "H100-80GB", "tensor_parallel_size": "8"}
        if version:
            inputs["vllm_version"] = version
        try:
            scenario = scenario_from_inputs(inputs)
        except CalcError:  # a family this release cannot serve
            continue
        memory._budget_of.cache_clear()
        for length in LENGTHS:
            for edge in EDGES:
                dep = replace(scenario.deployment, max_model_len=length, budget_edge=edge)
                assert _kept(scenario.model, dep) == _fresh(scenario.model, dep), (version, length, edge)


@pytest.mark.parametrize(
    ("model_id", "version"),
    [("Qwen/Qwen2.5-VL-7B-Instruct", ""),   # the encoder's profiled items follow the length
     ("meta-llama/Llama-3.1-8B-Instruct", "0.6.0")],   # V0 profiles max(max_model_len, 2048) tokens
)
def test_where_the_length_matters_the_key_keeps_it(model_id: str, version: str) -> None:
    inputs = {"model": model_id, "gpu": "H100-80GB"}
    if version:
        inputs["vllm_version"] = version
    scenario = scenario_from_inputs(inputs)
    memory._budget_of.cache_clear()
    short, long = (_kept(scenario.model, replace(scenario.deployment, max_model_len=n)) for n in (4096, 32768))
    assert short.activation_bytes != long.activation_bytes
    assert long == _fresh(scenario.model, replace(scenario.deployment, max_model_len=32768))
