"""``--enable-lora``: the adapter slots' GPU bytes, by hand from the copied configs and vllm/lora/layers/.

Per wrapped linear layer (kvcalc.budget.lora cites the files) the stacks hold ``max_loras × rank × (A's input + B's
output)`` elements per slice, bf16 (the model dtype). Let ``n = max_loras × rank``.

meta-llama/Llama-3.1-8B-Instruct (hidden 4096, 32 heads × 128, 8 KV heads, intermediate 14336, vocab 128256,
32 layers; LlamaForCausalLM wraps embed_tokens and lm_head), TP 1, per layer in units of n:
  qkv_proj   A 3 × 4096 = 12,288   B 4096 + 1024 + 1024 = 6,144   → 18,432
  o_proj     A 4096                B 4096                         →  8,192
  gate_up    A 2 × 4096 = 8,192    B 2 × 14336 = 28,672           → 36,864
  down_proj  A 14336               B 4096                         → 18,432
  layer total 81,920 × 32 layers = 2,621,440
  embed_tokens A 128,256 + B 4,096 = 132,352; lm_head (logits processor) A 4,096 + B 128,256 = 132,352
  total 2,886,144 × n.
With max_loras 4, rank 64 (n = 256): 2,886,144 × 256 = 738,852,864 elements × 2 B = 1,477,705,728 B (1.38 GiB).

TP 2 (column layers keep their output shard, row layers their input shard; embeddings whole):
  qkv A 12,288 + B 2048 + 512 + 512 = 15,360; o A 2048 + B 4096 = 6,144; gate_up A 8,192 + B 14,336 = 22,528;
  down A 7168 + B 4096 = 11,264 → 55,296 × 32 = 1,769,472 + 264,704 = 2,034,176 × 256 × 2 B = 1,041,498,112 B.

Qwen/Qwen2.5-7B-Instruct (hidden 3584, 28 heads × 128, 4 KV heads, intermediate 18944, 28 layers;
Qwen2ForCausalLM lists no embedding_modules), max_loras 2, rank 16 (n = 32), TP 1:
  qkv A 3 × 3584 = 10,752 + B 3584 + 512 + 512 = 4,608 → 15,360; o 3584 + 3584 = 7,168;
  gate_up 2 × 3584 + 2 × 18944 = 45,056; down 18944 + 3584 = 22,528 → 90,112 × 28 = 2,523,136
  × 32 × 2 B = 161,480,704 B.
"""
from __future__ import annotations

import io
import json

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.analysis import Verdict
from kvcalc.budget.lora import lora_slot_bytes
from kvcalc.budget.memory import lora_estimate
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.faces.web import compute, localized_error

LLAMA = "meta-llama/Llama-3.1-8B-Instruct"


def _plan(**inputs: object) -> Verdict:
    s = scenario_from_inputs(inputs)
    return plan(s.model, s.deployment)


def _slots(**inputs: object) -> int:
    s = scenario_from_inputs(inputs)
    assert s.deployment.lora is not None
    return lora_slot_bytes(s.model, s.deployment.lora, s.deployment.rules,
                           tensor_parallel_size=s.deployment.tensor_parallel_size)


def test_llama_slots_by_hand() -> None:
    assert _slots(model=LLAMA, gpu="H100-80GB", enable_lora=True, max_loras=4, max_lora_rank=64) == 1_477_705_728
    assert _slots(model=LLAMA, gpu="H100-80GB", enable_lora=True, max_loras=4, max_lora_rank=64,
                  tensor_parallel_size=2) == 1_041_498_112


def test_qwen2_wraps_no_embeddings() -> None:
    assert _slots(model="Qwen/Qwen2.5-7B-Instruct", gpu="H100-80GB", enable_lora=True, max_loras=2,
                  max_lora_rank=16) == 161_480_704


def test_defaults_are_one_slot_of_rank_16() -> None:
    # vllm/config/lora.py: max_loras 1, max_lora_rank 16 → n = 16: 2,886,144 × 16 × 2 B = 92,356,608 B
    assert _slots(model=LLAMA, gpu="H100-80GB", enable_lora=True) == 92_356_608


def test_slots_come_out_of_the_budget_as_a_banded_estimate() -> None:
    base = dict(model=LLAMA, gpu="H100-80GB", max_model_len=32768)
    without = _plan(**base)
    with_lora = _plan(**base, enable_lora=True, max_loras=4, max_lora_rank=64)
    assert with_lora.budget.lora_bytes == 1_477_705_728
    assert with_lora.budget.weights_bytes - without.budget.weights_bytes == 1_477_705_728
    assert without.budget.available_kv_bytes - with_lora.budget.available_kv_bytes == 1_477_705_728
    s = scenario_from_inputs(dict(base, enable_lora=True, max_loras=4, max_lora_rank=64))
    est = lora_estimate(s.model, s.deployment)
    assert est.low_bytes == est.bytes < est.high_bytes  # shapes exact; the allocator's rounding on top
    assert "weights" in with_lora.budget.estimated


def test_measured_weights_already_hold_the_slots() -> None:
    """vLLM loads the slots inside "Model loading took": a measured figure is not added to."""
    base = dict(model=LLAMA, gpu="H100-80GB", weights_gib="16.4")
    assert _plan(**base).budget.weights_bytes == _plan(**base, enable_lora=True, max_loras=4).budget.weights_bytes


def test_sizes_without_enable_lora_are_ignored_as_vllm_ignores_them() -> None:
    base = dict(model=LLAMA, gpu="H100-80GB")
    assert scenario_from_inputs(dict(base, max_loras=8, max_lora_rank=64)).deployment.lora is None


def test_max_cpu_loras_is_host_memory_only() -> None:
    base = dict(model=LLAMA, gpu="H100-80GB", enable_lora=True, max_loras=4, max_lora_rank=64)
    assert _plan(**base).budget.available_kv_bytes == _plan(**base, max_cpu_loras=64).budget.available_kv_bytes


def test_qwen3_embeddings_from_0_16() -> None:
    """#29816 added embed_tokens / lm_head to Qwen3ForCausalLM's embedding_modules (first in the v0.16.0 tag).
    Qwen3-8B: vocab 151936, hidden 4096 → (151,936 + 4,096) × 2 = 312,064 more units of n."""
    base = dict(model="Qwen/Qwen3-8B", gpu="H100-80GB", enable_lora=True, max_loras=1, max_lora_rank=8)
    before, after = _slots(**base, vllm_version="0.15.1"), _slots(**base, vllm_version="0.16.0")
    assert after - before == (151_936 + 4_096) * 2 * 8 * 2


@pytest.mark.parametrize(("inputs", "code", "field"), [
    (dict(model=LLAMA, vllm_version="0.11.0"), "lora_release", "enable_lora"),
    (dict(model="Qwen/Qwen3-30B-A3B"), "lora_layout", "enable_lora"),
    (dict(model="deepseek-ai/DeepSeek-V3", tensor_parallel_size=8), "lora_layout", "enable_lora"),
    (dict(model="google/gemma-3-4b-it"), "lora_layout", "enable_lora"),
    (dict(model="codellama/CodeLlama-7b-hf", pipeline_parallel_size=2), "lora_pp", "enable_lora"),
    (dict(model="meta-llama/Llama-3.2-1B-Instruct"), "lora_tied", "enable_lora"),
    (dict(model="microsoft/phi-4"), "lora_model_type", "enable_lora"),
    (dict(model=LLAMA, max_lora_rank=48), "bad_choice", "max_lora_rank"),
    (dict(model=LLAMA, max_loras=4, max_cpu_loras=2), "out_of_range", "max_cpu_loras"),
])
def test_refusals_in_three_languages(inputs: dict[str, object], code: str, field: str) -> None:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs(dict(gpu="H200", enable_lora=True, **inputs))
    err = info.value
    assert (err.code, err.field) == (code, field)
    messages = {lang: str(localized_error(lang, err)["message"]) for lang in ("es", "zh", "en")}
    assert len(set(messages.values())) == 3


def test_cli_and_web_give_the_same_figures() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", "--model", LLAMA, "--gpu", "H100-80GB", "--enable-lora", "--max-loras", "4",
                 "--max-lora-rank", "64", "--json"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    cli = json.loads(out.getvalue())
    assert cli["lora"] == {"max_loras": 4, "max_lora_rank": 64, "max_cpu_loras": 4, "slot_bytes": 1_477_705_728}
    inputs = {"model": LLAMA, "gpu": "H100-80GB", "enable_lora": "1", "max_loras": "4", "max_lora_rank": "64"}
    web = json.loads(compute(json.dumps({"action": "plan", "lang": "es", "inputs": inputs})))
    assert web["ok"] is True
    assert web["result"]["available_kv_bytes"] == cli["available_kv_bytes"]
    assert web["result"]["lora"] == cli["lora"]
    assert web["query"]["enable_lora"] == "1" and web["query"]["max_lora_rank"] == "64"
    text = io.StringIO()
    main(["plan", "--model", LLAMA, "--gpu", "H100-80GB", "--enable-lora", "--max-loras", "4", "--max-lora-rank",
          "64", "--lang", "zh"], stdout=text, stderr=err)
    assert "LoRA 适配器槽位" in text.getvalue()


def test_printed_commands_carry_only_the_lora_flags_given() -> None:
    from kvcalc.faces.report import serve_command

    s = scenario_from_inputs(dict(model=LLAMA, gpu="H100-80GB", enable_lora=True, max_lora_rank=64))
    command = serve_command(s)
    assert command.endswith("--enable-lora \\\n  --max-lora-rank 64")
    assert "--max-loras" not in command  # the default the reader did not type is not printed
