"""``--speculative-config``: MTP layers in the KV plan and the weights, n-gram, and the refusals.

Every expected figure is worked by hand from the copied configs (scripts/model_configs/, sources in its
SOURCES.md) and vLLM's rules (kvcalc.kv.speculative cites the files):

* deepseek-ai/DeepSeek-V3: 61 MLA layers, ``num_nextn_predict_layers`` 1, ``kv_lora_rank`` 512 +
  ``qk_rope_head_dim`` 64 = 576 values per token per layer, bf16 KV → 1,152 B. With MTP: 61 + 1 = 62 layers
  → 62 × 1,152 = 71,424 B per token (61 × 1,152 = 70,272 without). With ``--block-size 64`` (given, so the
  arithmetic does not rest on the backend's default) one layer's page is 64 × 1,152 = 73,728 B; the 62 layers share one uniform group, so a block of the pool costs
  62 × 73,728 = 4,571,136 B (61 × 73,728 = 4,497,408 without).
* Qwen/Qwen3.5-9B: 8 full-attention layers of 4 KV heads × 256 (``full_attention_interval`` 4 of 32),
  ``mtp_num_hidden_layers`` 1 → 2 × 4 × 256 × 2 B = 4,096 B per layer per token: 8 × 4,096 = 32,768 B without
  MTP, 9 × 4,096 = 36,864 B with it.
"""
from __future__ import annotations

import io
import json

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.analysis import Verdict
from kvcalc.budget.memory import draft_weights_estimate
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.faces.web import compute, localized_error
from kvcalc.inputs import Scenario

MTP3 = '{"method": "mtp", "num_speculative_tokens": 3}'
GIB = 1 << 30


def _run(s: Scenario) -> Verdict:
    return plan(s.model, s.deployment)


def _plan(**inputs: object) -> Verdict:
    return _run(scenario_from_inputs(inputs))


def _error(**inputs: object) -> CalcError:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs(inputs)
    return info.value


def test_deepseek_v3_mtp_adds_one_mla_layer_to_the_kv_plan() -> None:
    base = dict(model="deepseek-ai/DeepSeek-V3", gpu="H200", tensor_parallel_size=8, kv_cache_memory_bytes=40 * GIB,
                max_model_len=32768, block_size=64)
    without, with_mtp = _plan(**base), _plan(**base, speculative_config=MTP3)
    assert without.kv_bytes_per_token == 61 * 576 * 2 == 70_272
    assert with_mtp.kv_bytes_per_token == 62 * 576 * 2 == 71_424
    assert with_mtp.block_size == 64
    assert len(with_mtp.grouping.groups) == 1  # the MTP layer joins the target's group
    # a fixed 40 GiB = 42,949,672,960 B: 42,949,672,960 // 4,497,408 = 9,549; // 4,571,136 = 9,395
    assert without.num_gpu_blocks == 9_549
    assert with_mtp.num_gpu_blocks == 9_395
    # one request of 32,768 tokens: 32,768 / 64 = 512 blocks × 73,728 B × 62 layers = 2,340,421,632 B
    assert with_mtp.needed_kv_bytes == 512 * 73_728 * 62 == 2_340_421_632


def test_deepseek_v3_mtp_weights() -> None:
    """One MTP layer of DeepSeek-V3 counted from its config (no leading dense layers: it is an MoE layer):
    attention q 7168×1536 + 1536×128×192 = 48,758,784; kv_a 7168×576 = 4,128,768; kv_b 512×128×256 = 16,777,216;
    o 128×128×7168 = 117,440,512 → 187,105,280. MoE: 256 × 3 × 7168 × 2048 = 11,274,289,152 routed + 7168 × 256 =
    1,835,008 router + 3 × 7168 × 2048 = 44,040,192 shared → 11,320,164,352. Two norms 14,336. Then eh_proj
    2 × 7168 × 7168 = 102,760,448 and enorm/hnorm 14,336: 11,610,058,752 parameters (the model card's "14B MTP
    module" also holds the MTP's own embedding and head, 2 × 129,280 × 7168 = 1,853,358,080, which vLLM shares
    with the target). fp8 block-scaled: 1 B per weight + a 4 B scale per 128 × 128 = 16,384 weights →
    11,610,058,752 + 11,610,058,752 × 4 / 16,384 (2,834,487) = 11,612,893,239 B, over TP 8: 1,451,611,654 B."""
    s = scenario_from_inputs(dict(model="deepseek-ai/DeepSeek-V3", gpu="H200", tensor_parallel_size=8,
                                  speculative_config=MTP3))
    assert s.model.num_mtp_layers == 1
    assert s.model.mtp_layer_parameters == 11_610_058_752
    draft = draft_weights_estimate(s.model, s.deployment)
    assert abs(draft.bytes - 1_451_611_654) <= 16  # float rounding of the mean bytes per parameter
    assert draft.low_bytes < draft.bytes < draft.high_bytes  # an estimate: banded
    without = _plan(model="deepseek-ai/DeepSeek-V3", gpu="H200", tensor_parallel_size=8)
    with_mtp = _run(s)
    assert with_mtp.budget.weights_bytes - without.budget.weights_bytes == draft.bytes
    assert with_mtp.budget.draft_weights_bytes == draft.bytes
    assert without.budget.available_kv_bytes - with_mtp.budget.available_kv_bytes == draft.bytes


def test_qwen35_mtp_full_attention_layer_and_mamba_speculative_states() -> None:
    base = dict(model="Qwen/Qwen3.5-9B", gpu="H100-80GB", max_model_len=32768)
    without, with_mtp = _plan(**base), _plan(**base, speculative_config=MTP3)
    assert without.kv_bytes_per_token == 8 * 4096 == 32_768
    assert with_mtp.kv_bytes_per_token == 9 * 4096 == 36_864
    assert without.mamba is not None and without.mamba.num_speculative_blocks == 0
    # vllm/model_executor/layers/mamba/abstract.py: num_speculative_blocks = num_speculative_tokens
    assert with_mtp.mamba is not None and with_mtp.mamba.num_speculative_blocks == 3
    # the catalog's exact checkpoint total holds the MTP tensors: nothing added centrally, the band keeps them
    s = scenario_from_inputs(dict(base, speculative_config=MTP3))
    draft = draft_weights_estimate(s.model, s.deployment)
    assert draft.bytes == 0 and draft.high_bytes > 0


def test_ngram_adds_no_weights_and_no_kv() -> None:
    base = dict(model="meta-llama/Llama-3.1-8B-Instruct", gpu="H100-80GB", max_model_len=32768)
    without = _plan(**base)
    ngram = _plan(**base, speculative_config='{"method": "ngram", "num_speculative_tokens": 4, "prompt_lookup_max": 4}')
    assert ngram.kv_bytes_per_token == without.kv_bytes_per_token == 32 * 2 * 8 * 128 * 2
    assert ngram.num_gpu_blocks == without.num_gpu_blocks
    assert ngram.budget.available_kv_bytes == without.budget.available_kv_bytes


def test_mtp_aliases_and_default_token_count() -> None:
    s = scenario_from_inputs(dict(model="deepseek-ai/DeepSeek-V3", gpu="H200", tensor_parallel_size=8,
                                  speculative_config='{"method": "deepseek_mtp"}'))
    assert s.deployment.speculative is not None
    assert s.deployment.speculative.method == "mtp"
    assert s.deployment.speculative.num_speculative_tokens == 1  # n_predict = num_nextn_predict_layers


def _deepseek_config(nextn: int) -> str:
    with open("scripts/model_configs/deepseek-ai/DeepSeek-V3/config.json", encoding="utf-8") as f:
        cfg = json.load(f)
    cfg["num_nextn_predict_layers"] = nextn  # the copied config with two MTP layers, to test vLLM's divisibility
    return json.dumps(cfg)


def test_mtp_tokens_must_be_a_multiple_of_the_mtp_layers() -> None:
    cfg = _deepseek_config(2)
    err = _error(config=cfg, gpu="H200", tensor_parallel_size=8,
                 speculative_config='{"method": "mtp", "num_speculative_tokens": 3}')
    assert err.code == "spec_tokens_not_divisible"
    # 4 tokens reuse the 2 MTP layers: 61 + 2 = 63 layers × 1,152 B = 72,576 B per token
    v = _plan(config=cfg, gpu="H200", tensor_parallel_size=8, kv_cache_memory_bytes=40 * GIB,
              speculative_config='{"method": "mtp", "num_speculative_tokens": 4}')
    assert v.kv_bytes_per_token == 63 * 1152 == 72_576


@pytest.mark.parametrize(("inputs", "code"), [
    (dict(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config=MTP3), "spec_no_mtp_layers"),
    (dict(model="meta-llama/Llama-3.1-8B-Instruct",
          speculative_config='{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", '
                             '"num_speculative_tokens": 3}'), "spec_draft"),
    (dict(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config='{"model": "meta-llama/Llama-3.2-1B-Instruct", '
                                                                       '"num_speculative_tokens": 3}'), "spec_draft"),
    (dict(model="meta-llama/Llama-3.1-8B-Instruct", speculative_config='{"method": "suffix"}'), "spec_method"),
    (dict(model="deepseek-ai/DeepSeek-V4-Flash", speculative_config=MTP3), "spec_deepseek_v4"),
    (dict(model="LGAI-EXAONE/EXAONE-4.5-33B", speculative_config=MTP3), "spec_model_type"),
    (dict(model="deepseek-ai/DeepSeek-V3", pipeline_parallel_size=2, speculative_config=MTP3), "spec_pp"),
    (dict(model="Qwen/Qwen3.5-9B", vllm_version="0.7.0", speculative_config=MTP3), "spec_v0"),
    (dict(model="Qwen/Qwen3-Next-80B-A3B-Instruct", speculative_config='{"method": "mtp"}'), "spec_tokens_missing"),
    (dict(model="Qwen/Qwen3.5-9B", speculative_config="mtp"), "spec_config_bad"),
    (dict(model="Qwen/Qwen3.5-9B", speculative_config="[1, 2]"), "spec_config_bad"),
    (dict(model="Qwen/Qwen3.5-9B", speculative_config='{"method": "mtp", "bogus": 1}'), "spec_config_key"),
    (dict(model="Qwen/Qwen3.5-9B", speculative_config='{"method": "mtp", "num_speculative_tokens": 0}'),
     "out_of_range"),
    (dict(model="Qwen/Qwen3.5-9B", speculative_config='{"method": "ngram"}'), "spec_config_bad"),
])
def test_refusals_in_three_languages(inputs: dict[str, object], code: str) -> None:
    err = _error(gpu="H200", tensor_parallel_size=8 if "DeepSeek" in str(inputs["model"]) else 1, **inputs)
    assert err.code == code and err.field == "speculative_config"
    messages = {lang: str(localized_error(lang, err)["message"]) for lang in ("es", "zh", "en")}
    assert len(set(messages.values())) == 3  # each language has its own text
    assert all("{" + "field}" not in m for m in messages.values())


def test_cli_plan_and_json() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", "--model", "Qwen/Qwen3.5-9B", "--gpu", "H100-80GB", "--max-model-len", "32768",
                 "--speculative-config", MTP3, "--json"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    result = json.loads(out.getvalue())
    assert result["kv_bytes_per_token"] == 36_864
    assert result["speculative_config"]["method"] == "mtp"
    assert result["speculative_config"]["num_speculative_tokens"] == 3
    assert result["speculative_config"]["num_mtp_layers"] == 1
    out = io.StringIO()
    code = main(["plan", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "H100-80GB",
                 "--speculative-config", '{"method": "eagle3", "model": "x/y"}', "--lang", "es"], stdout=out,
                stderr=err)
    assert code == 2
    assert "x/y" in err.getvalue().splitlines()[-1] and "catálogo" in err.getvalue()


def test_text_report_names_the_mtp_terms() -> None:
    out = io.StringIO()
    main(["plan", "--model", "deepseek-ai/DeepSeek-V3", "--gpu", "H200", "--tensor-parallel-size", "8",
          "--speculative-config", MTP3], stdout=out, stderr=io.StringIO())
    text = out.getvalue()
    assert "of which MTP layers (--speculative-config) (estimate)" in text
    assert "Speculative decoding with MTP" in text


def test_web_compute_gives_the_cli_figures() -> None:
    inputs = {"model": "deepseek-ai/DeepSeek-V3", "gpu": "H200", "tensor_parallel_size": "8",
              "kv_cache_memory_bytes": str(40 * GIB), "max_model_len": "32768", "block_size": "64",
              "speculative_config": MTP3}
    answer = json.loads(compute(json.dumps({"action": "plan", "lang": "zh", "inputs": inputs})))
    assert answer["ok"] is True
    assert answer["result"]["kv_bytes_per_token"] == 71_424
    assert answer["result"]["num_gpu_blocks"] == 9_395
    assert answer["query"]["speculative_config"] == MTP3  # rides the URL
    bad = json.loads(compute(json.dumps({"action": "plan", "lang": "es",
                                         "inputs": dict(inputs, speculative_config='{"method": "medusa"}')})))
    assert bad["ok"] is False and bad["errors"][0]["field"] == "speculative_config"


def test_printed_commands_carry_the_speculative_config_unchanged() -> None:
    from kvcalc.faces.report import serve_command

    s = scenario_from_inputs(dict(model="Qwen/Qwen3.5-9B", gpu="H100-80GB", speculative_config=MTP3))
    assert serve_command(s).endswith("--speculative-config '" + MTP3 + "'")
    assert "--speculative-config" not in serve_command(scenario_from_inputs(dict(model="Qwen/Qwen3.5-9B",
                                                                                 gpu="H100-80GB")))
