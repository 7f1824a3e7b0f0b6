"""EAGLE-3 (``--speculative-config`` method eagle3 with the drafter's config.json), by hand.

The drafter is read by kvcalc.kv.eagle3.

tests/data/drafts/llama3-8B-eagle3.json (source beside it): SpecForge's LlamaForCausalLMEagle3
drafter for Llama-3.1-8B: hidden 4096, 32 heads × 128, 8 KV heads, intermediate 14336, 1 layer,
draft vocabulary 31,960. vllm/model_executor/models/llama_eagle3.py (v0.25.1), parameters at TP 1:

  qkv_proj  (2 × 4096) × (4096 + 2 × 1024) = 8192 × 6144       =  50,331,648
  o_proj    4096 × 4096                                         =  16,777,216
  gate_up   4096 × 2 × 14336                                    = 117,440,512
  down      14336 × 4096                                        =  58,720,256
  norms     input, post-attention, hidden_norm 3 × 4096 + final  =      16,384
  fc        (3 × 4096) × 4096 (ReplicatedLinear)                =  50,331,648
  lm_head   31,960 rows padded to 64 → 32,000 × 4096            = 131,072,000
  total 424,689,664 × 2 B (bf16, the target's dtype) = 849,379,328
        + d2t 31,960 × 8 B = 255,680 → 849,635,008 B

TP 2: qkv 8192 × (2048 + 2 × 512) = 25,165,824; o 2048 × 4096 = 8,388,608; gate_up 4096 × 2 × 7168
= 58,720,256; down 7168 × 4096 = 29,360,128; lm_head 16,000 × 4096 = 65,536,000 → 187,170,816
split, plus 16,384 + 50,331,648 whole = 237,518,848 × 2 = 475,037,696 + 255,680 = 475,293,376 B.

KV: one more full-attention layer with the target's spec: 33 × 2 × 8 × 128 × 2 = 135,168 B per
token (32 layers: 131,072); one block id 33 × 16 × 8 × 256 × 2 = 2,162,688 B.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.analysis import Verdict
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.faces.report import serve_command
from kvcalc.faces.web import compute, localized_error

GIB = 1 << 30
MTP3 = '{"method": "mtp", "num_speculative_tokens": 3}'


def _plan(**inputs: object) -> Verdict:
    s = scenario_from_inputs(inputs)
    return plan(s.model, s.deployment)


def _error(**inputs: object) -> CalcError:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs(inputs)
    return info.value


EAGLE3 = (
    '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", '
    '"num_speculative_tokens": 3}'
)
DRAFT = (Path(__file__).parent / "data" / "drafts" / "llama3-8B-eagle3.json").read_text(
    encoding="utf-8"
)
LLAMA = "meta-llama/Llama-3.1-8B-Instruct"


def test_eagle3_drafter_weights_by_hand() -> None:
    base = dict(model=LLAMA, gpu="H100-80GB", max_model_len=32768)
    without = _plan(**base)
    with_draft = _plan(**base, speculative_config=EAGLE3, draft_config=DRAFT)
    spec = with_draft.deployment.speculative
    assert spec is not None and (spec.method, spec.draft_layers) == ("eagle3", 1)
    assert spec.draft_weight_bytes == 849_635_008
    assert with_draft.budget.draft_weights_bytes == 849_635_008
    assert with_draft.budget.weights_bytes - without.budget.weights_bytes == 849_635_008
    assert without.budget.available_kv_bytes - with_draft.budget.available_kv_bytes == 849_635_008
    tp2 = scenario_from_inputs(
        dict(base, tensor_parallel_size=2, speculative_config=EAGLE3, draft_config=DRAFT)
    )
    assert (
        tp2.deployment.speculative is not None
        and tp2.deployment.speculative.draft_weight_bytes == 475_293_376
    )


def test_eagle3_drafter_layer_joins_the_kv_group() -> None:
    base = dict(
        model=LLAMA,
        gpu="H100-80GB",
        kv_cache_memory_bytes=40 * GIB,
        max_model_len=32768,
        block_size=16,
    )
    without, with_draft = (
        _plan(**base),
        _plan(**base, speculative_config=EAGLE3, draft_config=DRAFT),
    )
    assert without.kv_bytes_per_token == 32 * 2 * 8 * 128 * 2 == 131_072
    assert with_draft.kv_bytes_per_token == 33 * 2 * 8 * 128 * 2 == 135_168
    assert len(with_draft.grouping.groups) == 1 and with_draft.grouping.bytes_per_block == 2_162_688
    # 40 GiB = 42,949,672,960 B: // 2,097,152 = 20,480 blocks; // 2,162,688 = 19,859
    # (19,859 × 2,162,688 =
    # 42,948,820,992; one more would be 42,950,983,680)
    assert (without.num_gpu_blocks, with_draft.num_gpu_blocks) == (20_480, 19_859)
    # one request of 32,768 tokens: 2,048 block ids × 2,162,688 B
    assert with_draft.needed_kv_bytes == 2048 * 2_162_688 == 4_429_185_024


def _draft(**changes: object) -> str:
    cfg = json.loads(DRAFT)
    cfg.update(changes)
    return json.dumps(cfg)


@pytest.mark.parametrize(
    ("inputs", "code", "field"),
    [
        (
            dict(
                model=LLAMA, speculative_config=EAGLE3, draft_config=_draft(num_key_value_heads=4)
            ),
            "spec_eagle3_layout",
            "draft_config",
        ),  # its own KV group: not built
        (
            dict(
                model=LLAMA,
                speculative_config=EAGLE3,
                draft_config=_draft(architectures=["LlamaForCausalLM"]),
            ),
            "spec_eagle3_layout",
            "draft_config",
        ),
        (
            dict(model="google/gemma-3-27b-it", speculative_config=EAGLE3, draft_config=DRAFT),
            "spec_eagle3_layout",
            "draft_config",
        ),  # a sliding-window target
        (
            dict(
                model=LLAMA,
                speculative_config='{"method": "eagle3", "model": "x/y"}',
                draft_config=DRAFT,
            ),
            "spec_tokens_missing",
            "speculative_config",
        ),
        (
            dict(model=LLAMA, speculative_config=EAGLE3, draft_config="{not json"),
            "draft_config_bad",
            "draft_config",
        ),
        (
            dict(model=LLAMA, speculative_config=EAGLE3, draft_config=_draft(hidden_size=0)),
            "draft_config_bad",
            "draft_config",
        ),
        (dict(model=LLAMA, draft_config=DRAFT), "draft_config_unused", "draft_config"),
        (
            dict(model=LLAMA, speculative_config=MTP3.replace("mtp", "ngram"), draft_config=DRAFT),
            "draft_config_unused",
            "draft_config",
        ),
        (
            dict(
                model=LLAMA,
                tensor_parallel_size=2,
                draft_config=DRAFT,
                speculative_config='{"method": "eagle3", "model": "x/y", '
                '"num_speculative_tokens": 3, '
                '"draft_tensor_parallel_size": 1}',
            ),
            "spec_draft_tp",
            "speculative_config",
        ),
    ],
)
def test_eagle3_refusals_in_three_languages(
    inputs: dict[str, object], code: str, field: str
) -> None:
    err = _error(gpu="H100-80GB", **inputs)
    assert err.code == code and err.field == field
    messages = {lang: str(localized_error(lang, err)["message"]) for lang in ("es", "zh", "en")}
    assert len(set(messages.values())) == 3


def test_eagle3_cli_web_and_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "config.json"
    path.write_text(DRAFT, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(
        [
            "plan",
            "--model",
            LLAMA,
            "--gpu",
            "H100-80GB",
            "--max-model-len",
            "32768",
            "--speculative-config",
            EAGLE3,
            "--draft-config",
            str(path),
            "--json",
        ],
        stdout=out,
        stderr=err,
    )
    assert code == 0, err.getvalue()
    cli = json.loads(out.getvalue())
    assert cli["kv_bytes_per_token"] == 135_168
    assert cli["speculative_config"]["draft_layers"] == 1
    assert cli["speculative_config"]["draft_weights_bytes"] == 849_635_008
    inputs = {
        "model": LLAMA,
        "gpu": "H100-80GB",
        "max_model_len": "32768",
        "speculative_config": EAGLE3,
        "draft_config": DRAFT,
    }
    answer = json.loads(compute(json.dumps({"action": "plan", "lang": "en", "inputs": inputs})))
    assert answer["ok"] is True
    assert {
        k: answer["result"][k]
        for k in ("available_kv_bytes", "num_gpu_blocks", "speculative_config")
    } == {k: cli[k] for k in ("available_kv_bytes", "num_gpu_blocks", "speculative_config")}
    command = serve_command(scenario_from_inputs(inputs))
    assert (
        command.endswith("--speculative-config '" + EAGLE3 + "'")
        and "draft" not in command.split("'")[0]
    )
    text = io.StringIO()
    main(
        [
            "plan",
            "--model",
            LLAMA,
            "--gpu",
            "H100-80GB",
            "--speculative-config",
            EAGLE3,
            "--draft-config",
            str(path),
        ],
        stdout=text,
        stderr=io.StringIO(),
    )
    assert "of which the EAGLE-3 drafter (--speculative-config) (estimate)" in text.getvalue()
    assert "Speculative decoding with EAGLE-3" in text.getvalue()
