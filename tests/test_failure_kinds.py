"""Every failure kind of the read-your-log table has a fix the reader can paste, in the CLI text, its JSON
and the page's answer, each read from a public log (tests/data/logs, sources in sources.json).

For each kind: the log's diagnosis (and, for a CUDA OOM, the phase it struck in) read off the log by hand,
then one fix whose ``vllm serve`` command vLLM's argparse accepts (``kvcalc.vllm_flags``) and that holds
exactly the settings the log states plus the fix's own: the expected flags are written out by hand below,
with the arithmetic of each computed value. The page itself is tested in
tests/browser/test_failure_kinds_page.py with the same table.

The table's row "Auto-fit finds no room" has no public log of its own yet ("Cannot auto-fit max_model_len:
not enough GPU memory available to serve even a single token"); logparse reads it as "No available memory
for the cache blocks" (the guide says the fixes are that section's), whose row is tested here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from test_log_command_line import commands, run

from kvcalc.faces.web import compute_dict
from kvcalc.logs.diagnose import diagnose
from kvcalc.versions import rules_for
from kvcalc.vllm_flags import parse_serve_command

LOGS = Path(__file__).resolve().parent / "data" / "logs"


@dataclass(frozen=True)
class Kind:
    row: str
    """The read-your-log table's row (its section id)."""
    log: str
    diagnosis: str
    phase: str | None
    code: str
    anchor: str
    settings: dict[str, object]
    flags: dict[str, object] = field(default_factory=dict)
    """Every flag of the fix's command: what the log states, with the fix's settings over it (by hand)."""
    model: str = "<your-model>"


KINDS = [
    # "The model's max seq len (131072) is larger than … KV cache (37696)": 60–80 % of 37,696 is 22,617–30,156;
    # the readable length inside it is 24,576 (24 Ki). The V0 engine config states gpu_memory_utilization=0.9.
    Kind("kv-cache-too-small", "v07_llama31_8b_oci_a10_131k_kv_too_small.log", "kv_cache_too_small", None,
         "lower_max_model_len", "lower-max-model-len", {"max_model_len": 24576},
         {"max_model_len": "24576", "gpu_memory_utilization": "0.9"}),
    # vLLM 0.6.4 in docker compose: the error alone, no setting stated; eager mode gives the graphs' memory back
    Kind("no-memory-for-cache-blocks", "v064_no_available_memory_docker_compose.log", "no_memory_for_cache_blocks",
         None, "enforce_eager", "cuda-graph-memory", {"enforce_eager": True}, {"enforce_eager": True}),
    # 19.77 of 22.05 GiB free: int(19.77 / 22.05 × 100 − 2) / 100 = int(87.66) / 100 = 0.87 (replaces the 0.9)
    Kind("free-memory-below-utilization", "v2026_free_memory_pytorch_ci_l4.log", "free_memory_below_utilization",
         None, "lower_gpu_memory_utilization", "free-memory-below-utilization", {"gpu_memory_utilization": 0.87},
         {"gpu_memory_utilization": "0.87"}),
    # fp32 Qwen2-7B (7.6e9 × 4 B ≈ 28 GiB) on a 21.67 GiB card, no "Model loading took": the weights, split in two;
    # the command keeps the logged --max-model-len=512 --dtype=float --enforce-eager
    Kind("cuda-oom-at-startup", "v04_runtime_oom_qwen2_7b_2080ti.log", "cuda_out_of_memory", "loading",
         "add_gpus", "weights-and-hardware", {"tensor_parallel_size": 2},
         {"tensor_parallel_size": "2", "max_model_len": "512", "dtype": "float", "enforce_eager": True}),
    # the sampler warm-up with 1024 dummy requests (profiling); the log's -tp 2 --max-model-len 15000
    # --gpu-memory-utilization 0.78 and its prefix caching stay; 16 sequences and 2,048 batched tokens
    Kind("cuda-oom-at-startup", "v080_sampler_oom_qwen25_32b_awq_tp2.log", "cuda_out_of_memory", "profiling",
         "limit_concurrency", "cuda-oom-at-startup", {"max_num_seqs": 16, "max_num_batched_tokens": 2048},
         {"tensor_parallel_size": "2", "max_model_len": "15000", "gpu_memory_utilization": "0.78",
          "enable_prefix_caching": True, "max_num_seqs": "16", "max_num_batched_tokens": "2048"}),
    # gpt-oss-20b, vLLM 0.19: the sampler's OOM after "Available KV cache memory" (the cache sized); its
    # non-default args: max_model_len 8192, utilization 0.95, prefix caching off
    Kind("cuda-oom-at-startup", "llmd_v019_gpt_oss_20b_h100_sampler_oom.log", "cuda_out_of_memory", "capture",
         "limit_concurrency", "cuda-oom-at-startup", {"max_num_seqs": 16, "max_num_batched_tokens": 2048},
         {"max_model_len": "8192", "gpu_memory_utilization": "0.95", "enable_prefix_caching": False,
          "max_num_seqs": "16", "max_num_batched_tokens": "2048"}, model="openai/gpt-oss-20b"),
    # vLLM's own "Failed to load model - not enough GPU memory" wrapper on a 31.36 GiB RTX 5090
    Kind("cuda-oom-at-startup", "v2026_gemma4_31b_nvfp4_5090_failed_to_load_model.log", "load_out_of_memory", None,
         "add_gpus", "weights-and-hardware", {"tensor_parallel_size": 2}, {"tensor_parallel_size": "2"}),
    # the OOM while AsyncLLM's output handler served requests (club-3090#16): a smaller step
    Kind("cuda-out-of-memory", "v2026_club3090_runtime_oom_output_handler.log", "cuda_out_of_memory", "runtime",
         "limit_concurrency", "concurrency-and-throughput", {"max_num_seqs": 16, "max_num_batched_tokens": 2048},
         {"max_num_seqs": "16", "max_num_batched_tokens": "2048"}),
    # "max_num_seqs (1024) exceeds available Mamba cache blocks (600) … lower max_num_seqs to at most 600"
    Kind("mamba-cache-blocks", "v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log",
         "mamba_blocks_below_max_num_seqs", None, "limit_concurrency", "mamba-cache-blocks", {"max_num_seqs": 600},
         {"max_num_seqs": "600"}),
    # GB10 (121.69 GiB unified): 104.46 free, 0.87 asks 105.87; int(104.46 / 121.69 × 100 − 2) / 100
    # = int(85.84 − 2) / 100 = 0.83
    Kind("unified-memory", "v2026_glm53_flash_2xspark_free_memory_util087.log", "free_memory_below_utilization",
         None, "lower_gpu_memory_utilization", "free-memory-below-utilization", {"gpu_memory_utilization": 0.83},
         {"gpu_memory_utilization": "0.83"}),
]
IDS = [f"{k.row}:{k.log}" for k in KINDS]

GUIDE_ROWS = ("kv-cache-too-small", "no-memory-for-cache-blocks", "free-memory-below-utilization",
              "cuda-oom-at-startup", "cuda-out-of-memory", "mamba-cache-blocks", "auto-fit-no-memory",
              "unified-memory")
NO_PUBLIC_LOG = {"auto-fit-no-memory"}


def printed_commands(text: str) -> list[str]:
    """The ``vllm serve`` commands the CLI's text prints under its numbered fixes (not the log's own lines it
    quotes before them), each with its backslash continuations joined."""
    return commands(text[text.index("\n1. "):])


def test_the_table_is_the_guides() -> None:
    # every row of docs/en/read-your-log.md's first table is here, each linking its section
    table = (LOGS.parents[2] / "docs" / "en" / "read-your-log.md").read_text(encoding="utf-8").split("\n## ")[0]
    linked = [line.rsplit("(#", 1)[1].split(")")[0] for line in table.splitlines() if line.startswith("| `")
              or line.startswith("| On a GB10")]
    assert tuple(linked) == GUIDE_ROWS
    assert {k.row for k in KINDS} == set(GUIDE_ROWS) - NO_PUBLIC_LOG


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_every_failure_kind_has_a_command_in_the_cli_text(kind: Kind) -> None:
    text = (LOGS / kind.log).read_text(encoding="utf-8")
    d = diagnose(text)
    assert (d.reading.diagnosis, d.oom_phase) == (kind.diagnosis, kind.phase)
    code, out = run("log", str(LOGS / kind.log), "--lang", "en")
    assert code == 1  # vLLM did not start
    rec = next(r for r in d.recommendations if r.code == kind.code)
    assert (rec.anchor, dict(rec.settings)) == (kind.anchor, kind.settings)
    assert f"(#{kind.anchor})" in out
    release = rules_for(str(d.inputs["vllm_version"])) if d.inputs.get("vllm_version") else rules_for(None)
    parsed = [parse_serve_command(c, release) for c in printed_commands(out)]
    assert any(p.flags == kind.flags and p.model == kind.model for p in parsed), (kind.log, out)


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_every_failure_kind_has_its_fix_in_the_json(kind: Kind) -> None:
    code, out = run("log", str(LOGS / kind.log), "--json")
    payload = json.loads(out)
    assert code == 1 and payload["diagnosis"] == kind.diagnosis
    assert any(r["code"] == kind.code and r["anchor"] == kind.anchor and r["settings"] == kind.settings
               for r in payload["recommendations"]), payload["recommendations"]


@pytest.mark.parametrize("lang", ["es", "zh", "en"])
@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_every_failure_kind_has_its_command_in_the_pages_answer(kind: Kind, lang: str) -> None:
    # what the page's worker answers for a pasted log and nothing typed (tests/browser shows it on the page)
    text = (LOGS / kind.log).read_text(encoding="utf-8")
    answer = compute_dict({"action": "log", "lang": lang, "log": text, "inputs": {}, "typed": []})
    assert answer["ok"] and answer["reading"]["diagnosis"] == kind.diagnosis
    recs = [r for r in answer["report"]["recommendations"] if r["code"] == kind.code and r["anchor"] == kind.anchor]
    assert recs and recs[0]["settings"] == kind.settings and recs[0]["title"]
    parsed = parse_serve_command(recs[0]["serve_command"], rules_for(None))
    assert parsed.flags == kind.flags and parsed.model == kind.model


def test_a_mamba_log_without_room_to_cap_gets_no_cap() -> None:
    # the cap is vLLM's bound from the error line: with max_num_seqs already at or below the blocks there is none
    # (a constructed line: the CI log with its 1024 changed to 600)
    line = (LOGS / "v2026_ci_qwen35_b200_mamba_blocks_below_max_num_seqs.log").read_text(encoding="utf-8")
    d = diagnose(line.replace("max_num_seqs (1024)", "max_num_seqs (600)"))
    assert [r.code for r in d.recommendations] == ["enforce_eager"]
