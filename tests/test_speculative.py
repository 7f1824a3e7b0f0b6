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


# ---- EAGLE-3 with the drafter's pasted config.json (kvcalc.eagle3) ---------------------------------------
# tests/data/drafts/llama3-8B-eagle3.json (source beside it): SpecForge's LlamaForCausalLMEagle3 drafter for
# Llama-3.1-8B: hidden 4096, 32 heads × 128, 8 KV heads, intermediate 14336, 1 layer, draft vocabulary 31,960.
# vllm/model_executor/models/llama_eagle3.py (v0.25.1), parameters at TP 1:
#   qkv_proj  (2 × 4096) × (4096 + 2 × 1024) = 8192 × 6144        =  50,331,648
#   o_proj    4096 × 4096                                          =  16,777,216
#   gate_up   4096 × 2 × 14336                                     = 117,440,512
#   down      14336 × 4096                                         =  58,720,256
#   norms     input, post-attention, hidden_norm 3 × 4096 + final 4096 = 16,384
#   fc        (3 × 4096) × 4096 (ReplicatedLinear)                 =  50,331,648
#   lm_head   31,960 rows padded to 64 → 32,000 × 4096             = 131,072,000
#   total 424,689,664 × 2 B (bf16, the target's dtype) = 849,379,328 + d2t 31,960 × 8 B = 255,680 → 849,635,008 B
# TP 2: qkv 8192 × (2048 + 2 × 512) = 25,165,824; o 2048 × 4096 = 8,388,608; gate_up 4096 × 2 × 7168 =
#   58,720,256; down 7168 × 4096 = 29,360,128; lm_head 16,000 × 4096 = 65,536,000 → 187,170,816 split, plus
#   16,384 + 50,331,648 whole = 237,518,848 × 2 = 475,037,696 + 255,680 = 475,293,376 B.
# KV: one more full-attention layer with the target's spec: 33 × 2 × 8 × 128 × 2 = 135,168 B per token (32 layers:
#   131,072); one block id 33 × 16 × 8 × 256 × 2 = 2,162,688 B.
EAGLE3 = ('{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}')
with open("tests/data/drafts/llama3-8B-eagle3.json", encoding="utf-8") as _f:
    DRAFT = _f.read()
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
    tp2 = scenario_from_inputs(dict(base, tensor_parallel_size=2, speculative_config=EAGLE3, draft_config=DRAFT))
    assert tp2.deployment.speculative is not None and tp2.deployment.speculative.draft_weight_bytes == 475_293_376


def test_eagle3_drafter_layer_joins_the_kv_group() -> None:
    base = dict(model=LLAMA, gpu="H100-80GB", kv_cache_memory_bytes=40 * GIB, max_model_len=32768, block_size=16)
    without, with_draft = _plan(**base), _plan(**base, speculative_config=EAGLE3, draft_config=DRAFT)
    assert without.kv_bytes_per_token == 32 * 2 * 8 * 128 * 2 == 131_072
    assert with_draft.kv_bytes_per_token == 33 * 2 * 8 * 128 * 2 == 135_168
    assert len(with_draft.grouping.groups) == 1 and with_draft.grouping.bytes_per_block == 2_162_688
    # 40 GiB = 42,949,672,960 B: // 2,097,152 = 20,480 blocks; // 2,162,688 = 19,859 (19,859 × 2,162,688 =
    # 42,948,820,992; one more would be 42,950,983,680)
    assert (without.num_gpu_blocks, with_draft.num_gpu_blocks) == (20_480, 19_859)
    # one request of 32,768 tokens: 2,048 block ids × 2,162,688 B
    assert with_draft.needed_kv_bytes == 2048 * 2_162_688 == 4_429_185_024


def _draft(**changes: object) -> str:
    cfg = json.loads(DRAFT)
    cfg.update(changes)
    return json.dumps(cfg)


@pytest.mark.parametrize(("inputs", "code", "field"), [
    (dict(model=LLAMA, speculative_config=EAGLE3, draft_config=_draft(num_key_value_heads=4)),
     "spec_eagle3_layout", "draft_config"),     # its own KV group: not built
    (dict(model=LLAMA, speculative_config=EAGLE3, draft_config=_draft(architectures=["LlamaForCausalLM"])),
     "spec_eagle3_layout", "draft_config"),
    (dict(model="google/gemma-3-27b-it", speculative_config=EAGLE3, draft_config=DRAFT), "spec_eagle3_layout",
     "draft_config"),                           # a sliding-window target
    (dict(model=LLAMA, speculative_config='{"method": "eagle3", "model": "x/y"}', draft_config=DRAFT),
     "spec_tokens_missing", "speculative_config"),
    (dict(model=LLAMA, speculative_config=EAGLE3, draft_config="{not json"), "draft_config_bad", "draft_config"),
    (dict(model=LLAMA, speculative_config=EAGLE3, draft_config=_draft(hidden_size=0)), "draft_config_bad",
     "draft_config"),
    (dict(model=LLAMA, draft_config=DRAFT), "draft_config_unused", "draft_config"),
    (dict(model=LLAMA, speculative_config=MTP3.replace("mtp", "ngram"), draft_config=DRAFT), "draft_config_unused",
     "draft_config"),
    (dict(model=LLAMA, tensor_parallel_size=2, draft_config=DRAFT,
          speculative_config='{"method": "eagle3", "model": "x/y", "num_speculative_tokens": 3, '
                             '"draft_tensor_parallel_size": 1}'), "spec_draft_tp", "speculative_config"),
])
def test_eagle3_refusals_in_three_languages(inputs: dict[str, object], code: str, field: str) -> None:
    err = _error(gpu="H100-80GB", **inputs)
    assert err.code == code and err.field == field
    messages = {lang: str(localized_error(lang, err)["message"]) for lang in ("es", "zh", "en")}
    assert len(set(messages.values())) == 3


def test_eagle3_cli_web_and_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "config.json"
    path.write_text(DRAFT, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(["plan", "--model", LLAMA, "--gpu", "H100-80GB", "--max-model-len", "32768", "--speculative-config",
                 EAGLE3, "--draft-config", str(path), "--json"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    cli = json.loads(out.getvalue())
    assert cli["kv_bytes_per_token"] == 135_168
    assert cli["speculative_config"]["draft_layers"] == 1
    assert cli["speculative_config"]["draft_weights_bytes"] == 849_635_008
    inputs = {"model": LLAMA, "gpu": "H100-80GB", "max_model_len": "32768", "speculative_config": EAGLE3,
              "draft_config": DRAFT}
    answer = json.loads(compute(json.dumps({"action": "plan", "lang": "en", "inputs": inputs})))
    assert answer["ok"] is True
    assert {k: answer["result"][k] for k in ("available_kv_bytes", "num_gpu_blocks", "speculative_config")} == \
        {k: cli[k] for k in ("available_kv_bytes", "num_gpu_blocks", "speculative_config")}
    from kvcalc.report import serve_command

    command = serve_command(scenario_from_inputs(inputs))
    assert command.endswith("--speculative-config '" + EAGLE3 + "'") and "draft" not in command.split("'")[0]
    text = io.StringIO()
    main(["plan", "--model", LLAMA, "--gpu", "H100-80GB", "--speculative-config", EAGLE3, "--draft-config",
          str(path)], stdout=text, stderr=io.StringIO())
    assert "of which the EAGLE-3 drafter (--speculative-config) (estimate)" in text.getvalue()
    assert "Speculative decoding with EAGLE-3" in text.getvalue()
