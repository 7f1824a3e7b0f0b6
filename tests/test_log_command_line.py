"""Two public logs read as a new user pastes them: one that names no model, one whose ``docker run`` line
holds the whole command (sources in tests/data/logs/sources.json).

- Qwen3-32B-AWQ on an RTX 5090, a failed boot quoted with "..." in the middle of vLLM's error ("2.0 GiB KV
  cache is needed ... estimated maximum model length is 1856"): no model is planned until the reader names
  one; with it, the recomputation meets the log's figures to the block on the log's release, or says where
  it misses.
- Qwen/Qwen3-32B served with ``docker run … vllm/vllm-openai:latest Qwen/Qwen3-32B --tensor-parallel-size 2
  --gpu-memory-utilization 0.426``: planned as that model at TP 2, and "your current command" keeps both.

Hand arithmetic (Qwen3-32B and its AWQ checkpoint: 64 layers, 8 KV heads × 128, a 16-bit cache):
  per token  = 64 × 8 × 128 × 2 × 2 = 262,144 B (at TP 2, 4 KV heads each: 131,072 B)
  needed     = 8,192 × 262,144 = 2,147,483,648 B = 2.0 GiB
  1,856      = 116 blocks of 16 = 116 × 16 × 262,144 = 486,539,264 B (0.4531 GiB), inside 0.45 ± 0.005 GiB
               = 477,815,112-488,552,529 B; 117 blocks would need 490,733,568 B, outside it
  TP 2 log   = 8.22 ± 0.005 GiB / (16 × 131,072) = 4,206.1-4,211.2 → 4,206 blocks → 67,296 tokens (logged)
"""
from __future__ import annotations

import io
import json
from pathlib import Path

from kvcalc.faces.cli import main
from kvcalc.faces.web import compute_dict
from kvcalc.logs.diagnose import diagnose
from kvcalc.strings import t
from kvcalc.versions import rules_for
from kvcalc.vllm_flags import parse_serve_command

LOGS = Path(__file__).resolve().parent / "data" / "logs"
AWQ = LOGS / "v0280_qwen3_32b_awq_5090_8k_kv_too_small_excerpt.log"
DOCKER = LOGS / "v0271_qwen3_32b_2xrtxpro6000_tp2_util0426_docker_run.log"


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err, stdin=io.StringIO(""))
    assert not err.getvalue(), err.getvalue()
    return code, out.getvalue()


def commands(text: str) -> list[str]:
    """Every ``vllm serve`` command the CLI prints, its continuation lines joined."""
    found: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if current is None and stripped.startswith("vllm serve"):
            current = []
        if current is not None:
            current.append(stripped.removesuffix("\\").strip())
            if not stripped.endswith("\\"):
                found.append(" ".join(current))
                current = None
    return found


# ---- a log that names no model ------------------------------------------------------------------------------

def test_the_awq_log_is_read_through_its_elision() -> None:
    d = diagnose(AWQ.read_text(encoding="utf-8"))
    facts = d.reading.facts
    assert d.reading.diagnosis == "kv_cache_too_small"
    assert (facts["max_model_len"], facts["needed_kv_gib"], facts["available_kv_gib"],
            facts["estimated_max_model_len"]) == (8192, 2.0, 0.45, 1856)
    # what the log alone determines: 2.0 GiB over 8,192 tokens is 262,144 B a token
    assert d.figures.needed_kv_bytes == 2_147_483_648 and d.figures.kv_bytes_per_token == 262_144


def test_the_awq_log_asks_for_the_model_and_plans_none() -> None:
    d = diagnose(AWQ.read_text(encoding="utf-8"))
    assert d.analysis is None and d.missing == ("model",)  # its 0.45 GiB is a memory figure: no GPU needed
    code, out = run("log", str(AWQ), "--lang", "en")
    assert code == 1 and t("en", "cli.ask.model") in out
    assert "Qwen/Qwen3-8B" not in out and "RTX-4090" not in out
    printed = [parse_serve_command(c, rules_for(None)) for c in commands(out)]
    assert printed and all(p.model == "<your-model>" for p in printed)
    code, out = run("log", str(AWQ), "--json")
    assert json.loads(out)["plan"] is None
    for lang in ("es", "zh", "en"):
        answer = compute_dict({"action": "log", "lang": lang, "log": AWQ.read_text(encoding="utf-8"),
                               "inputs": {}, "typed": []})
        assert answer["result"] is None and answer["ask"] == t(lang, "ask.model")


def test_with_the_model_on_the_logs_release_the_figures_are_the_logs() -> None:
    code, out = run("log", str(AWQ), "--model", "Qwen/Qwen3-32B-AWQ", "--vllm-version", "0.28.0", "--json")
    payload = json.loads(out)
    plan = payload["plan"]
    assert code == 1 and plan["model"] == "Qwen/Qwen3-32B-AWQ" and plan["status"] == "does_not_fit"
    assert plan["needed_kv_bytes"] == 2_147_483_648 and plan["kv_bytes_per_token"] == 262_144
    assert plan["estimated_max_model_len"] == 1856 and plan["available_kv_bytes"] == 486_539_264
    assert payload["mismatches"] == []
    code, text = run("log", str(AWQ), "--model", "Qwen/Qwen3-32B-AWQ", "--vllm-version", "0.28.0", "--lang", "en")
    assert "estimated maximum model length is 1856" in text and "486,539,264 B" in text


def test_with_the_model_on_another_release_a_miss_is_said() -> None:
    # the newest rules, as a reader who gives only the model gets them: the log's 1,856 is met, or missed aloud
    code, out = run("log", str(AWQ), "--model", "Qwen/Qwen3-32B-AWQ", "--json")
    payload = json.loads(out)
    estimated = payload["plan"]["estimated_max_model_len"]
    missed = [m for m in payload["mismatches"] if m["fact"] == "estimated_max_model_len"]
    if estimated == 1856:
        assert not missed
    else:
        assert missed and missed[0]["printed"] == 1856 and missed[0]["recomputed"] == estimated
        code, text = run("log", str(AWQ), "--model", "Qwen/Qwen3-32B-AWQ", "--lang", "en")
        assert "1,856 tokens" in text and "Warning: the recomputation misses" in text


# ---- a docker run line ------------------------------------------------------------------------------------

def test_the_docker_run_line_names_the_model_tp_and_utilization() -> None:
    d = diagnose(DOCKER.read_text(encoding="utf-8"))
    assert d.reading.diagnosis == "started" and not d.missing
    assert (d.inputs["model"], d.inputs["tensor_parallel_size"], d.inputs["gpu_memory_utilization"],
            d.inputs["max_model_len"]) == ("Qwen/Qwen3-32B", "2", "0.426", "32768")
    assert d.analysis is not None
    v = d.analysis.verdict
    assert (v.kv_bytes_per_token, v.num_gpu_blocks, v.gpu_kv_cache_tokens) == (131_072, 4_206, 67_296)
    assert not d.mismatches


def test_your_current_command_carries_tp_2_and_the_utilization() -> None:
    code, out = run("log", str(DOCKER), "--lang", "en")
    assert code == 0
    label = out.index("Your current command (starts):")
    current = commands(out[label:])[0]
    parsed = parse_serve_command(current, rules_for(None))
    assert parsed.model == "Qwen/Qwen3-32B"
    assert parsed.flags == {"tensor_parallel_size": "2", "max_model_len": "32768", "gpu_memory_utilization": "0.426"}
    code, out = run("log", str(DOCKER), "--json")
    plan = json.loads(out)["plan"]
    assert (plan["model"], plan["tensor_parallel_size"], plan["gpu_memory_utilization"]) == ("Qwen/Qwen3-32B", 2, 0.426)
    answer = compute_dict({"action": "log", "lang": "zh", "log": DOCKER.read_text(encoding="utf-8"),
                           "inputs": {}, "typed": []})
    assert parse_serve_command(answer["report"]["serve_command"], rules_for(None)).flags == parsed.flags
