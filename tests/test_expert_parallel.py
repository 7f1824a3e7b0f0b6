"""``--data-parallel-size`` and ``--enable-expert-parallel``: one GPU's weights of a MoE, by hand.

Qwen/Qwen3-30B-A3B (scripts/model_configs/Qwen/Qwen3-30B-A3B/config.json, source in SOURCES.md):
48 layers, hidden 2048, 128 experts of moe_intermediate_size 768 in every layer
(decoder_sparse_step 1), bf16; checkpoint total 61,064,245,248 B (scripts/model_configs/index.json,
its index's ``metadata.total_size``).

  routed experts  48 × 128 × 3 × 2048 × 768 = 28,991,029,248 parameters × 2 B
                  = 57,982,058,496 B; the 128 experts of one layer position: / 128 = 452,984,832 B
  the rest        61,064,245,248 − 57,982,058,496 = 3,082,186,752 B (attention, embeddings, …)
  whole on every TP rank (kvcalc.weight_share): norms (2 × 48 + 1) × 2048 = 198,656, q/k norms
                  2 × 48 × 128 = 12,288, routers 48 × 128 × 2048 = 12,582,912
                  → 12,793,856 parameters = 25,587,712 B

vLLM (expert_parallel.py cites vllm/model_executor/layers/fused_moe/): the MoE layers span
DP × TP ranks, whole experts per rank with --enable-expert-parallel, a 1/(DP × TP) slice of every
expert without it; the rest stays on each DP replica, split over its TP ranks only.

  DP 4, TP 1, EP:  ep = 4, 128 / 4 = 32 experts: 57,982,058,496 × 32 / 128 = 14,495,514,624
                   share = 3,082,186,752 + 14,495,514,624 = 17,577,701,376 B
                   (DP 1: 61,064,245,248 B, so 43,486,543,872 B less per GPU)
  DP 2, TP 2, EP:  ep = 4 → the same 14,495,514,624 of experts; the rest over TP 2:
                   (3,082,186,752 − 25,587,712) / 2 + 25,587,712 = 1,553,887,232
                   share = 16,049,401,856 B. TP 2 alone: (61,064,245,248 − 25,587,712) / 2
                   + 25,587,712 = 30,544,916,480 B; its experts are 57,982,058,496 / 2, now / 4:
                   14,495,514,624 B less
  DP 3, TP 1, EP:  128 = 3 × 42 + 2. From #21497 (0.10.1) the first 2 ranks hold 43:
                   43 × 452,984,832 = 19,478,347,776 B; before it the last rank holds
                   128 − 2 × 42 = 44: 19,931,332,608 B
  DP 4, no EP:     every expert split over 4 ranks (flatten_tp_across_dp): / 4, as with EP
KV per token, unchanged by DP (each replica its own cache): 48 × 2 × 4 × 128 × 2 B = 98,304 B.
"""

from __future__ import annotations

import io
import json

import pytest

from kvcalc import plan, scenario_from_inputs
from kvcalc.analysis import Verdict
from kvcalc.errors import CalcError
from kvcalc.faces.cli import main
from kvcalc.faces.report import serve_command
from kvcalc.faces.web import compute, localized_error
from kvcalc.vllm_flags import parse_serve_command

MOE = "Qwen/Qwen3-30B-A3B"
CHECKPOINT = 61_064_245_248
EXPERTS = 57_982_058_496


def _plan(**inputs: object) -> Verdict:
    s = scenario_from_inputs({"model": MOE, "gpu": "H100-80GB", **inputs})
    return plan(s.model, s.deployment)


def _json(*flags: str) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["plan", "--model", MOE, "--gpu", "H100-80GB", *flags, "--json"],
        stdout=out,
        stderr=err,
        stdin=io.StringIO(),
    )
    assert code in (0, 1) and err.getvalue() == ""
    result = json.loads(out.getvalue())
    assert isinstance(result, dict)
    return result


def test_the_counts_the_arithmetic_starts_from() -> None:
    s = scenario_from_inputs({"model": MOE, "gpu": "H100-80GB"})
    assert s.model.num_experts == 128 and s.model.checkpoint_bytes == CHECKPOINT
    assert s.model.num_expert_parameters == 48 * 128 * 3 * 2048 * 768 == 28_991_029_248


def test_dp4_ep_weights_per_gpu_by_hand() -> None:
    one, four = _plan(), _plan(data_parallel_size=4, enable_expert_parallel=True)
    assert (
        one.budget.weights_bytes - four.budget.weights_bytes == EXPERTS * 3 // 4 == 43_486_543_872
    )
    # what vLLM adds beyond the checkpoint share (rope cache, vocabulary padding, allocator) is the
    # same at DP 1
    extras = one.budget.weights_bytes - CHECKPOINT
    assert four.budget.weights_bytes - extras == 3_082_186_752 + 14_495_514_624 == 17_577_701_376
    # the KV side is each replica's own: the same bytes per token and the same check
    assert four.kv_bytes_per_token == one.kv_bytes_per_token == 98_304
    assert four.needed_kv_bytes == one.needed_kv_bytes
    # the memory the experts gave back goes to the KV cache
    assert four.budget.available_kv_bytes - one.budget.available_kv_bytes == 43_486_543_872


def test_dp2_tp2_ep_splits_the_rest_over_tp_only() -> None:
    tp2 = _plan(tensor_parallel_size=2)
    both = _plan(tensor_parallel_size=2, data_parallel_size=2, enable_expert_parallel=True)
    assert tp2.budget.weights_bytes - both.budget.weights_bytes == 14_495_514_624
    extras = tp2.budget.weights_bytes - 30_544_916_480
    assert both.budget.weights_bytes - extras == 1_553_887_232 + 14_495_514_624 == 16_049_401_856


def test_uneven_expert_map_by_release() -> None:
    per_layer_expert = EXPERTS // 128
    assert per_layer_expert == 452_984_832
    new = _json("--data-parallel-size", "3", "--enable-expert-parallel")
    old = _json("--data-parallel-size", "3", "--enable-expert-parallel", "--vllm-version", "0.10.0")
    assert new["moe_split"] == {
        "ranks": 3,
        "expert_parallel": True,
        "local_experts": 43,
        "num_experts": 128,
        "expert_bytes_per_gpu": 43 * per_layer_expert,
    }
    assert 43 * per_layer_expert == 19_478_347_776
    assert isinstance(old["moe_split"], dict) and old["moe_split"]["local_experts"] == 44
    assert old["moe_split"]["expert_bytes_per_gpu"] == 44 * per_layer_expert == 19_931_332_608


def test_dp_without_ep_splits_every_expert() -> None:
    tp_slices = _json("--data-parallel-size", "4")
    assert tp_slices["moe_split"] == {
        "ranks": 4,
        "expert_parallel": False,
        "local_experts": 128,
        "num_experts": 128,
        "expert_bytes_per_gpu": EXPERTS // 4,
    }
    assert (
        _plan(data_parallel_size=4).budget.weights_bytes
        == _plan(data_parallel_size=4, enable_expert_parallel=True).budget.weights_bytes
    )


def test_a_dense_model_under_dp_keeps_its_weights() -> None:
    s1 = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB"})
    s4 = scenario_from_inputs(
        {
            "model": "Qwen/Qwen3-8B",
            "gpu": "H100-80GB",
            "data_parallel_size": 4,
            "enable_expert_parallel": True,
        }
    )
    assert plan(s1.model, s1.deployment).budget == plan(s4.model, s4.deployment).budget


def test_releases_before_the_moe_parallel_config_are_refused_in_three_languages() -> None:
    with pytest.raises(CalcError) as info:
        scenario_from_inputs(
            {"model": MOE, "gpu": "H100-80GB", "data_parallel_size": 2, "vllm_version": "0.8.5"}
        )
    err = info.value
    assert (
        err.code == "dp_release"
        and err.field == "data_parallel_size"
        and err.params["limit"] == "0.9.0"
    )
    messages = {lang: str(localized_error(lang, err)["message"]) for lang in ("es", "zh", "en")}
    assert len(set(messages.values())) == 3 and all("0.9.0" in m for m in messages.values())
    assert (
        scenario_from_inputs(
            {"model": MOE, "gpu": "H100-80GB", "data_parallel_size": 2, "vllm_version": "0.9.0"}
        ).deployment.data_parallel_size
        == 2
    )


def test_cli_error_is_one_line_exit_2() -> None:
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["plan", "--model", MOE, "--gpu", "H100-80GB", "--data-parallel-size", "0"],
        stdout=out,
        stderr=err,
        stdin=io.StringIO(),
    )
    assert code == 2 and out.getvalue() == "" and len(err.getvalue().splitlines()) == 1


def test_printed_command_keeps_the_flags() -> None:
    s = scenario_from_inputs(
        {
            "model": MOE,
            "gpu": "H100-80GB",
            "data_parallel_size": "4",
            "enable_expert_parallel": "true",
        }
    )
    command = serve_command(s)
    assert "--data-parallel-size 4" in command and "--enable-expert-parallel" in command
    parsed = parse_serve_command(command, s.deployment.rules)
    assert (
        parsed.flags["data_parallel_size"] == "4" and parsed.flags["enable_expert_parallel"] is True
    )


def test_web_and_cli_give_the_same_figures() -> None:
    cli = _json("--data-parallel-size", "4", "--enable-expert-parallel")
    inputs = {
        "model": MOE,
        "gpu": "H100-80GB",
        "data_parallel_size": "4",
        "enable_expert_parallel": "true",
    }
    answer = json.loads(compute(json.dumps({"action": "plan", "lang": "es", "inputs": inputs})))
    assert answer["ok"] is True
    web = answer["result"]
    for key in (
        "available_kv_bytes",
        "needed_kv_bytes",
        "num_gpu_blocks",
        "moe_split",
        "data_parallel_size",
    ):
        assert web[key] == cli[key], key
    assert web["budget"]["weights_bytes"] == cli["budget"]["weights_bytes"]  # type: ignore[index]
    assert answer["query"]["data_parallel_size"] == "4"
