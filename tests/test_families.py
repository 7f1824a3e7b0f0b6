"""The family table (``kvcalc.arch.families``): one row per architecture, and the only place a model
type is tested by name.

The checks: every row names the vLLM model file it mirrors; the rows' facts are what the code used to
keep in a dozen family-keyed sets (each expected set below is written out from the vLLM files it names,
not read back from the table); every catalog model has a row; a new family whose layer kinds are
already modelled is one row (planned like its twin, with no "unknown architecture" note); and no
module outside the table compares a ``model_type``.
"""
from __future__ import annotations

import re
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from kvcalc import catalog
from kvcalc.arch import families
from kvcalc.arch.families import FAMILIES, Kind, LayerPattern, LoraLayout, Mlp, Rope
from kvcalc.arch.model import _HYBRID_READERS, normalize_config
from kvcalc.deployment import Deployment
from kvcalc.verdict import plan_uncached

ROOT = Path(__file__).resolve().parents[1]
GiB = 1 << 30


@pytest.mark.parametrize("model_type", sorted(FAMILIES))
def test_every_row_names_its_vllm_model_file(model_type: str) -> None:
    row = FAMILIES[model_type]
    assert re.fullmatch(r"[a-z0-9_]+\.py", row.vllm_file), row.vllm_file
    if row.kind == Kind.HYBRID:
        assert row.hybrid_reader in _HYBRID_READERS, f"{model_type}: no reader {row.hybrid_reader!r}"
    else:
        assert not row.hybrid_reader
    if row.layer_pattern == LayerPattern.EVERY_NTH_FULL:
        assert row.sliding_pattern > 1


def _types(pred: object) -> set[str]:
    return {t for t, row in FAMILIES.items() if pred(row)}  # type: ignore[operator]


def test_the_rows_hold_the_family_facts_of_the_vllm_files() -> None:
    # fc1 -> act -> fc2 without a gate: phi.py, gpt2.py, gpt_bigcode.py, opt.py, starcoder2.py, falcon.py
    # (FalconForCausalLM also serves RefinedWeb / RefinedWebModel configs), gpt_neox.py, bloom.py, mpt.py
    assert _types(lambda r: r.mlp == Mlp.PLAIN) == {
        "phi", "gpt2", "gpt_bigcode", "opt", "starcoder2", "falcon", "RefinedWeb", "RefinedWebModel", "gpt_neox",
        "bloom", "mpt"}
    # learned or ALiBi positions: opt.py, gpt2.py, gpt_bigcode.py, bloom.py, mpt.py; jamba.py has no rope
    assert _types(lambda r: r.rope == Rope.NONE) == {"opt", "gpt2", "gpt_bigcode", "bloom", "mpt", "jamba"}
    assert _types(lambda r: r.rope == Rope.FP32) == {"gpt_oss"}
    assert _types(lambda r: r.rope == Rope.TWO) == {"gemma3", "gemma3_text", "gemma3n", "gemma3n_text"}
    # Qwen2Model's max_window_layers (qwen2.py; qwen3.py: Qwen3Model(Qwen2Model))
    assert _types(lambda r: r.layer_pattern == LayerPattern.QWEN2) == {"qwen2", "qwen3"}
    assert _types(lambda r: r.layer_pattern == LayerPattern.ALTERNATE) == {"gemma2", "gpt_oss"}
    assert {t: FAMILIES[t].sliding_pattern for t in _types(lambda r: r.layer_pattern == LayerPattern.EVERY_NTH_FULL)} \
        == {"gemma3": 6, "gemma3_text": 6, "cohere2": 4}   # Gemma3TextConfig default 6, Cohere2Config 4
    # MTP modules: deepseek_mtp.py (deepseek_v3, deepseek_v32), glm4_moe_mtp.py, glm4_moe_lite_mtp.py,
    # qwen3_next_mtp.py, qwen3_5_mtp.py
    assert _types(lambda r: r.mtp) == {"deepseek_v3", "deepseek_v32", "glm4_moe", "glm4_moe_lite", "qwen3_next",
                                       "qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text"}
    assert _types(lambda r: r.lora != LoraLayout.NOT_READ) == {"llama", "granite", "qwen3", "qwen2", "gemma2",
                                                              "gemma3_text"}
    assert {t: r.removed for t, r in FAMILIES.items() if r.removed} == {
        "bamba": ("0.23.0", "45990"), "minimax": ("0.23.0", "45993"), "minimax_text_01": ("0.23.0", "45993"),
        "minimax_m1": ("0.23.0", "45993")}


def test_the_towers_hold_the_wrapper_facts() -> None:
    towers = {t: r.tower for t, r in FAMILIES.items() if r.tower is not None}
    # #22299 (0.10.1): qwen2_vl.py, qwen2_5_vl.py, mistral3.py, mllama4.py; #26000 (0.11.0): qwen3_vl*.py;
    # #32641 / #32650 (0.15.0): gemma3_mm.py, lfm2_vl.py; qwen3_5.py from its first release
    assert {t: w.skip_pr for t, w in towers.items()} == {
        "qwen2_vl": "22299", "qwen2_5_vl": "22299", "mistral3": "22299", "llama4": "22299", "qwen3_vl": "26000",
        "qwen3_vl_moe": "26000", "gemma3": "32641", "lfm2_vl": "32650", "qwen3_5": families.EVERY_RELEASE,
        "qwen3_5_moe": families.EVERY_RELEASE}
    assert {t for t, w in towers.items() if w.modalities == ("image", "video")} == {
        "qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe", "qwen3_5", "qwen3_5_moe"}
    assert {t for t, w in towers.items() if w.mrope} == {"qwen2_vl", "qwen2_5_vl", "qwen3_vl", "qwen3_vl_moe"}


def test_every_catalog_model_has_a_row() -> None:
    missing = {}
    for m in catalog.models():
        for key in ("model_type", "wrapper_model_type"):
            mt = m.config.get(key)
            if isinstance(mt, str) and families.family(mt) is None:
                missing[m.id] = mt
    assert missing == {}


def _llama_config() -> dict[str, object]:
    return dict(catalog.find_model("meta-llama/Llama-3.1-8B-Instruct").config)


def test_a_new_family_is_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """A family whose layers are Llama's: without a row it is planned as a standard decoder with a note;
    with one row (its twin's facts) the note goes and the plan is the twin's, block for block."""
    config = {**_llama_config(), "model_type": "newfam_test", "architectures": ["NewFamTestForCausalLM"]}
    dep = Deployment(gpu_memory_bytes=80 * GiB)
    unknown = normalize_config(config, model_id="newfam-unknown")
    assert ("model_type", "newfam_test") in unknown.assumed
    row = replace(FAMILIES["llama"], vllm_file="newfam_test.py")
    monkeypatch.setitem(FAMILIES, "newfam_test", row)  # type: ignore[arg-type]
    known = normalize_config(config, model_id="newfam-known")
    assert known.assumed == ()
    twin = normalize_config(_llama_config(), model_id="newfam-known")
    blocks = plan_uncached(twin, dep).num_gpu_blocks
    assert blocks and plan_uncached(known, dep).num_gpu_blocks == blocks


def test_no_module_but_the_table_compares_a_model_type() -> None:
    found = subprocess.run(["git", "grep", "-nE", r"model_type ==|model_type in", "--", "calc/"], cwd=ROOT,
                           capture_output=True, text=True).stdout.splitlines()
    assert [line for line in found if not line.startswith("calc/arch/families.py:")] == []
