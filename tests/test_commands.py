"""Every ``vllm serve`` command the core prints is one vLLM's argparse accepts for the reader's release, is safe
to paste in a POSIX shell, and changes only what its fix changes.

Each command is read back by ``kvcalc.vllm_flags.parse_serve_command`` (``shlex.split``, then the flag table
read from ``vllm/engine/arg_utils.py`` at the release tags): the scenario corpus, every vendored log, every
catalog model at a few settings, the guide's presets, in the CLI's text and the web boundary's JSON.
"""
from __future__ import annotations

import ast
import io
import json
import re
import shlex
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from kvcalc import catalog
from kvcalc.errors import CalcError
from kvcalc.faces import web
from kvcalc.faces.cli import main
from kvcalc.faces.report import build_log_report, build_report, serve_command
from kvcalc.inputs import INPUT_KEYS, scenario_from_inputs
from kvcalc.logs.diagnose import diagnose
from kvcalc.versions import RuleSet, rules_for
from kvcalc.vllm_flags import FLAGS, CommandError, FlagKind, parse_serve_command

REPO = Path(__file__).resolve().parents[1]
LOGS = sorted((REPO / "tests/data/logs").glob("*.log"))
SCENARIOS = json.loads((REPO / "tests/data/scenarios.json").read_text(encoding="utf-8"))["scenarios"]


def _release(version: object) -> RuleSet:
    """The rules a printed command is read against: the reader's release (the newest when none is known)."""
    try:
        return rules_for(version or None)
    except CalcError:
        return rules_for(None)


# --------------------------------------------------------------------------- #
# What a printed command holds
# --------------------------------------------------------------------------- #

def _check_report(report: Mapping[str, Any] | None, release: RuleSet, where: str) -> int:
    """Parse the report's current command, its recommended one and each fix's; each fix's differs from the
    current one only in the fix's settings. Returns how many commands were parsed."""
    if not report:
        return 0
    count = 0
    current = None
    if report.get("serve_command"):
        current = parse_serve_command(report["serve_command"], release)
        count += 1
    if report.get("serve_recommended"):
        parse_serve_command(report["serve_recommended"], release)
        count += 1
    for rec in report.get("recommendations", []):
        if not rec["serve_command"]:
            continue  # a fix that changes no flag (a larger GPU, freeing the GPU) prints no command
        parsed = parse_serve_command(rec["serve_command"], release)
        count += 1
        if current is None:
            continue
        settings = rec["settings"]
        for name in set(parsed.flags) | set(current.flags):
            if name in settings or (name == "gpu_memory_utilization" and "kv_cache_memory_bytes" in settings):
                continue
            assert parsed.flags.get(name) == current.flags.get(name), (where, rec["code"], name)
        if "model" not in settings:
            assert parsed.model == current.model, (where, rec["code"])
        for name in settings:
            if name in {f.name for f in FLAGS} and FLAGS_BY[name].kind != FlagKind.BOOL:
                assert name in parsed.flags, (where, rec["code"], name)
    return count


FLAGS_BY = {f.name: f for f in FLAGS}


def _scenario_requests() -> Iterator[tuple[str, str]]:
    for sc in SCENARIOS:
        if "raw" in sc:
            yield sc["name"], sc["raw"]
            continue
        request = json.loads(json.dumps(sc["request"]))
        if "config_file" in sc:
            request["inputs"]["config"] = (REPO / sc["config_file"]).read_text(encoding="utf-8")
        if "log_file" in sc:
            request["log"] = (REPO / sc["log_file"]).read_text(encoding="utf-8")
        yield sc["name"], json.dumps(request)


def _response_release(response: Mapping[str, Any], request: Mapping[str, Any]) -> RuleSet:
    inputs = response.get("inputs") or request.get("inputs") or {}
    return _release(inputs.get("vllm_version") if isinstance(inputs, Mapping) else None)


ANSWERED: list[str] = []


def _check_web(request_json: str, where: str) -> int:
    response = json.loads(web.compute(request_json))
    if not response.get("ok"):
        return 0
    ANSWERED.append(where)
    try:
        request = json.loads(request_json)
    except ValueError:
        request = {}
    return _check_report(response.get("report"), _response_release(response, request), where)


def _catalog_requests() -> Iterator[tuple[str, dict[str, object]]]:
    for m in catalog.models():
        yield f"{m.id} H100", {"model": m.id, "gpu": "H100-80GB"}
        yield f"{m.id} 4090 32k fp8", {"model": m.id, "gpu": "RTX-4090", "max_model_len": "32768",
                                       "kv_cache_dtype": "fp8", "enable_prefix_caching": "false"}
        yield f"{m.id} A100 TP 2 0.10.1", {"model": m.id, "gpu": "A100-80GB", "tensor_parallel_size": "2",
                                           "gpu_memory_utilization": "0.85", "vllm_version": "0.10.1",
                                           "enforce_eager": "true"}
        yield f"{m.id} L4 0.6.3", {"model": m.id, "gpu": "L4", "vllm_version": "0.6.3", "block_size": "32",
                                   "max_model_len": "8192", "enable_prefix_caching": "false",
                                   "max_num_batched_tokens": "8192"}


_PRESET = re.compile(r"\{\{\s*calculator\((.*?)\)\s*\}\}", re.S)


def _preset_requests() -> Iterator[tuple[str, dict[str, object]]]:
    """The guide's presets: each ``{{ calculator(...) }}`` call whose arguments are literals (the sample log
    is read from kvguide_macros/data/sample.log)."""
    from kvguide_macros.widget import DEFAULT_SCENARIO, SAMPLE_LOG

    seen = set()
    for page in sorted((REPO / "docs").rglob("*.md")):
        for m in _PRESET.finditer(page.read_text(encoding="utf-8")):
            call = ast.parse(f"f({m.group(1)})", mode="eval").body
            assert isinstance(call, ast.Call)
            try:
                kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}
            except ValueError:
                continue  # a log from the page's variables: the vendored logs are checked below
            kwargs.pop("preset", None)
            log = kwargs.pop("log", None)
            inputs = {k: str(v) for k, v in kwargs.items()}
            if not inputs and not log:
                inputs = dict(DEFAULT_SCENARIO)
            request: dict[str, object] = {"action": "plan", "lang": "en", "inputs": inputs}
            if log == "sample":
                request = {"action": "log", "lang": "en", "inputs": inputs, "log": SAMPLE_LOG.read_text("utf-8")}
            key = json.dumps(request, sort_keys=True)
            if key not in seen:
                seen.add(key)
                yield f"{page.name} {m.group(1)[:40]}", request


def test_every_printed_command_parses_for_its_release() -> None:
    """At least 500 scenarios, all of them answered with commands vLLM accepts."""
    scenarios = commands = 0
    for name, request_json in _scenario_requests():
        commands += _check_web(request_json, name)
        scenarios += 1
    for name, inputs in _catalog_requests():
        commands += _check_web(json.dumps({"action": "plan", "lang": "en", "inputs": inputs}), name)
        scenarios += 1
    for name, request in _preset_requests():
        commands += _check_web(json.dumps(request), name)
        scenarios += 1
    for path in LOGS:
        text = path.read_text(encoding="utf-8", errors="replace")
        commands += _check_web(json.dumps({"action": "log", "lang": "es", "log": text}), path.name)
        d = diagnose(text)
        release = _release(d.inputs.get("vllm_version"))
        report = build_report("zh", d.analysis) if d.analysis is not None else build_log_report("zh", d)
        commands += _check_report(report, release, path.name)
        scenarios += 1
    assert scenarios >= 500, scenarios
    assert len(ANSWERED) >= 450, len(ANSWERED)  # the rest are refusals (a model too large for the GPU's
    # TP, …), which print no command; and a fix that changes no flag (a larger GPU, freeing the GPU) prints
    # none either since the advice withdrew commands equal to the current one (1,964 counted then)
    assert commands >= 1900, commands


def _cli_commands(text: str) -> list[str]:
    """The ``vllm serve`` commands the CLI's text prints (the current one at the margin, each fix's indented by
    three), each with its line continuations; a log's own lines it quotes (indented by two) are not ours."""
    out, lines = [], text.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(("vllm serve", "   vllm serve")):
            block = [line]
            while block[-1].endswith("\\") and i + len(block) < len(lines):
                block.append(lines[i + len(block)])
            out.append("\n".join(block).strip())
    return out


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", LOGS[::3], ids=lambda p: p.name)
def test_cli_log_text_commands_parse(path: Path) -> None:
    code, out, err = _run(["log", str(path)])
    assert code in (0, 1), err
    release = _release(diagnose(path.read_text(encoding="utf-8", errors="replace")).inputs.get("vllm_version"))
    for command in _cli_commands(out):
        parse_serve_command(command, release)


@pytest.mark.parametrize("argv", [
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "36864"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "auto", "--no-enable-prefix-caching"],
    ["plan", "--model", "google/gemma-3-27b-it", "--gpu", "H100-80GB", "--max-model-len", "131072",
     "--limit-mm-per-prompt", '{"image": 1, "video": 0}', "--lang", "es"],
    ["plan", "--model", "microsoft/phi-4", "--gpu", "RTX-4090", "--vllm-version", "0.6.3", "--no-enable-prefix-caching",
     "--max-model-len", "16384"],
    ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "L4", "--vllm-version", "0.8.4", "--limit-mm-per-prompt", "image=2",
     "--max-model-len", "40960", "--lang", "zh"],
])
def test_cli_plan_text_commands_parse(argv: list[str]) -> None:
    code, out, err = _run(argv)
    assert code in (0, 1), err
    version = argv[argv.index("--vllm-version") + 1] if "--vllm-version" in argv else None
    commands = _cli_commands(out)
    assert commands
    for command in commands:
        parse_serve_command(command, _release(version))


# --------------------------------------------------------------------------- #
# Booleans, releases, values
# --------------------------------------------------------------------------- #

def test_booleans_print_as_vllm_declares_them() -> None:
    base = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_model_len": "36864"}
    off = serve_command(scenario_from_inputs({**base, "enable_prefix_caching": "false"}))
    assert "--no-enable-prefix-caching" in off and "false" not in off
    assert shlex.split(off)[-1] == "--no-enable-prefix-caching"
    assert "--enable-prefix-caching" in serve_command(scenario_from_inputs({**base, "enable_prefix_caching": "1"}))
    # v0.6.4's arg_utils.py: '--enable-prefix-caching', action='store_true' (default False): no --no- form, and
    # off is already its default; v0.6.5 declares it with argparse.BooleanOptionalAction
    old = serve_command(scenario_from_inputs({**base, "enable_prefix_caching": "false", "vllm_version": "0.6.4"}))
    assert "prefix" not in old
    new = serve_command(scenario_from_inputs({**base, "enable_prefix_caching": "false", "vllm_version": "0.6.5"}))
    assert new.endswith("--no-enable-prefix-caching")
    # --async-scheduling first in v0.10.0 (SchedulerConfig.async_scheduling: bool → BooleanOptionalAction)
    s = scenario_from_inputs({**base, "no_async_scheduling": "1", "vllm_version": "0.10.0"})
    assert serve_command(s).endswith("--no-async-scheduling")


def test_the_log_only_path_prints_booleans_as_flags() -> None:
    """The log-only report prints ``--no-enable-prefix-caching``, never ``--enable-prefix-caching false``
    (the form's text), which vLLM's BooleanOptionalAction leaves as a stray positional and exits on."""
    path = REPO / "tests/data/logs/llmd_v019_codellama_34b_h100_tp2_free_memory.log"
    d = diagnose(path.read_text(encoding="utf-8"))
    report = build_log_report("en", d) or {}
    commands = [r["serve_command"] for r in report.get("recommendations", []) if r["serve_command"]]
    assert commands
    for command in commands:
        words = shlex.split(command)
        assert "false" not in words and "--no-enable-prefix-caching" in words
        parse_serve_command(command, rules_for("0.19.0"))


def test_flags_a_release_lacks_are_refused_at_input() -> None:
    base = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090"}
    with pytest.raises(CalcError) as err:
        # --kv-cache-memory-bytes first in v0.10.2's arg_utils.py
        scenario_from_inputs({**base, "kv_cache_memory_bytes": "4G", "vllm_version": "0.10.1"})
    assert err.value.code == "flag_release" and err.value.params["key"] == "--kv-cache-memory-bytes"
    with pytest.raises(CalcError) as err:
        # CacheDType of v0.17.0 has no float16 (added in v0.18.0); bfloat16 came in v0.11.0
        scenario_from_inputs({**base, "kv_cache_dtype": "float16", "vllm_version": "0.17.0"})
    assert err.value.code == "bad_choice"
    with pytest.raises(CalcError):
        scenario_from_inputs({**base, "kv_cache_dtype": "bfloat16", "vllm_version": "0.10.2"})
    with pytest.raises(CalcError):
        # v0.9.0's BlockSize is 1 … 128; 256 from v0.11.1
        scenario_from_inputs({**base, "block_size": "256", "vllm_version": "0.9.0"})
    assert scenario_from_inputs({**base, "block_size": "256", "vllm_version": "0.11.1"}).deployment.block_size == 256


def test_a_fix_whose_flag_the_release_lacks_is_not_offered() -> None:
    # Qwen3-8B at 32,768 tokens (4.5 GiB) on a 24 GiB GPU at 0.9 with 18 GiB measured outside the cache:
    # 21.6 - 18 = 3.6 GiB does not fit; the fixed budget (4.5 GiB + the null block → 4.75 GiB; 18 + 4.75 =
    # 22.75 ≤ 0.95 × 24 = 22.8, the guide's headroom) is a fix from v0.10.2 on only
    inputs = {"model": "Qwen/Qwen3-8B", "gpu_memory_gib": "24", "weights_gib": "16", "activation_gib": "1",
              "non_torch_gib": "0.5", "cudagraph_gib": "0.5", "max_model_len": "32768", "gpu_memory_utilization": "0.9"}
    old = json.loads(web.compute(json.dumps({"action": "plan", "inputs": {**inputs, "vllm_version": "0.9.2"}})))
    new = json.loads(web.compute(json.dumps({"action": "plan", "inputs": {**inputs, "vllm_version": "0.10.2"}})))
    assert "kv_cache_memory_bytes" not in {r["code"] for r in old["result"]["recommendations"]}
    assert "kv_cache_memory_bytes" in {r["code"] for r in new["result"]["recommendations"]}


def test_auto_length_as_the_release_reads_it() -> None:
    # human_readable_int_or_auto (``auto`` or -1) is --max-model-len's type from v0.14.0
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "L4", "max_model_len": "auto"})
    assert serve_command(s).endswith("--max-model-len auto")


# --------------------------------------------------------------------------- #
# Your current command: exactly what the reader ran
# --------------------------------------------------------------------------- #

def _current(log: str) -> tuple[str, dict[str, object]]:
    d = diagnose((REPO / "tests/data/logs" / log).read_text(encoding="utf-8"))
    assert d.analysis is not None
    command = build_report("en", d.analysis)["serve_command"]
    assert isinstance(command, str)
    return command, parse_serve_command(command, _release(d.inputs.get("vllm_version"))).flags


def test_current_command_carries_the_logs_parallelism_and_utilization() -> None:
    # llmd_v019_llama31_8b_h100_tp2.log: "non-default args: {..., 'max_model_len': 8192,
    # 'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.95, 'enable_prefix_caching': False}"
    _, flags = _current("llmd_v019_llama31_8b_h100_tp2.log")
    assert flags == {"tensor_parallel_size": "2", "max_model_len": "8192", "gpu_memory_utilization": "0.95",
                     "enable_prefix_caching": False}
    # the same with 'pipeline_parallel_size': 2
    _, flags = _current("llmd_v019_llama31_8b_h100_pp2.log")
    assert flags["pipeline_parallel_size"] == "2" and flags["gpu_memory_utilization"] == "0.95"
    assert "tensor_parallel_size" not in flags


def test_vllms_own_batch_defaults_are_not_the_readers() -> None:
    # llmd_v019_codellama_7b_h100.log: "Defaulting max_num_batched_tokens to 8192 …", "Defaulting max_num_seqs
    # to 1024 for OPENAI_API_SERVER usage context." (an H100's defaults, vllm/engine/arg_utils.py); its
    # non-default args name neither
    command, flags = _current("llmd_v019_codellama_7b_h100.log")
    assert "--max-num-seqs" not in command and "--max-num-batched-tokens" not in command
    assert flags == {"max_model_len": "8192", "gpu_memory_utilization": "0.95", "enable_prefix_caching": False}
    # the plan still runs with vLLM's figures
    d = diagnose((REPO / "tests/data/logs/llmd_v019_codellama_7b_h100.log").read_text(encoding="utf-8"))
    assert d.analysis is not None and d.analysis.verdict.max_num_seqs == 1024
    # v0190_granite4_h_1b_rtx3060_12gb_util06_4k_eager_hybrid.log's non-default args set 'max_num_seqs': 2 and
    # 'max_num_batched_tokens': 2048: those are the reader's
    _, flags = _current("v0190_granite4_h_1b_rtx3060_12gb_util06_4k_eager_hybrid.log")
    assert flags["max_num_seqs"] == "2" and flags["max_num_batched_tokens"] == "2048"


def test_current_command_lists_only_given_inputs() -> None:
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "max_model_len": "8192"})
    assert serve_command(s) == "vllm serve Qwen/Qwen3-8B \\\n  --max-model-len 8192"
    # a default the reader typed is theirs
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "tensor_parallel_size": "1"})
    assert serve_command(s) == "vllm serve Qwen/Qwen3-8B \\\n  --tensor-parallel-size 1"
    assert set(s.given) <= set(INPUT_KEYS)


# --------------------------------------------------------------------------- #
# Hostile model names
# --------------------------------------------------------------------------- #

def _config(name: str) -> str:
    cfg = dict(catalog.find_model("Qwen/Qwen3-8B").config)  # the catalog's copy of its public config.json
    cfg["_name_or_path"] = name
    return json.dumps(cfg)


QUOTED = ["$(touch x); `id` 'q\"", "a b", "x;rm -rf ~", "it's", "\"dq\"", "$HOME/m", "`id`", "a|b&c>d<e",
          "m*?[]{}", "~user/m", "#hash", "tab\\t", "日本語/モデル", "back\\slash", "!bang", "(paren)"]
REFUSED = ["line\nbreak", "car\rriage", "nul\x00x", "esc\x1b[31m", "bidi\u202eevil", "zero\u200bwidth",
           "ls\u2028sep", "bom\ufeff", "-m", "--help", "del\x7f", "tab\there", "lrm\u200emark", "iso\u2066late"]


@pytest.mark.parametrize("name", QUOTED)
def test_hostile_model_names_are_one_literal_word(name: str) -> None:
    response = json.loads(web.compute(json.dumps({"action": "plan", "lang": "en",
                                                  "inputs": {"config": _config(name), "gpu": "RTX-4090"}})))
    assert response["ok"], response
    report = response["report"]
    for command in [report["serve_command"], *(r["serve_command"] for r in report["recommendations"]
                                                if r["serve_command"])]:
        words = shlex.split(command)
        assert words[2] == name.strip()
        parse_serve_command(command)


@pytest.mark.parametrize("name", REFUSED)
def test_unsafe_model_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(CalcError) as err:
        scenario_from_inputs({"config": _config(name), "gpu": "RTX-4090"})
    assert err.value.code == "model_name_unsafe" and err.value.field == "config"
    for lang in ("en", "es", "zh"):
        response = json.loads(web.compute(json.dumps({"action": "plan", "lang": lang,
                                                      "inputs": {"config": _config(name), "gpu": "RTX-4090"}})))
        assert not response["ok"] and response["errors"][0]["code"] == "model_name_unsafe"
        message = response["errors"][0]["message"]
        assert "\n" not in message and "\x1b" not in message and "\u202e" not in message
        assert "_name_or_path" in message
    path = tmp_path / "config.json"
    path.write_text(_config(name), encoding="utf-8")
    code, out, err_text = _run(["plan", "--config", str(path), "--gpu", "RTX-4090"])
    assert code == 2 and out == "" and err_text.count("\n") == 1 and err_text.startswith("kvcalc: error: ")
    assert "Traceback" not in err_text


# --------------------------------------------------------------------------- #
# The parser can fail
# --------------------------------------------------------------------------- #

@pytest.mark.parametrize(("command", "version"), [
    ("vllm serve m --enable-prefix-caching false", None),          # the stray "false"
    ("vllm serve m --no-enable-prefix-caching", "0.6.4"),        # store_true then
    ("vllm serve m --kv-cache-memory-bytes 4G", "0.10.1"),       # not declared yet
    ("vllm serve m --kv-cache-memory-bytes 1.5G", None),           # human_readable_int refuses it
    ("vllm serve m --max-model-len auto", "0.13.0"),             # human_readable_int_or_auto from 0.14.0
    ("vllm serve m --max-model-len 32k", "0.8.4"),               # type=int then
    ("vllm serve m --kv-cache-dtype float32", None),
    ("vllm serve m --block-size 256", "0.11.0"),
    ("vllm serve m --tensor-parallel-size two", None),
    ("vllm serve m --limit-mm-per-prompt image=2", "0.10.0"),    # JSON from 0.8.5
    ("vllm serve m --gpu-memory-utilization", None),
    ("vllm serve m --quantization awq", None),                     # not a flag the core prints
    ("vllm serve a b", None),
    ("vllm serve $(id) --max-model-len 1", None),
    ("vllm serve 'open", None),
    ("vllm serve m\n--max-model-len 1", None),
    ("vllm serve --max-model-len 1", None),
    ("vllm serve m --max-num-seqs 1 --max-num-seqs 2", None),
])
def test_the_parser_refuses_what_vllm_refuses(command: str, version: str | None) -> None:
    with pytest.raises(CommandError):
        parse_serve_command(command, rules_for(version))


def test_the_table_names_inputs_once_each() -> None:
    assert len({f.name for f in FLAGS}) == len(FLAGS) and len({f.cli for f in FLAGS}) == len(FLAGS)
    assert {f.name for f in FLAGS} <= set(INPUT_KEYS)


def test_inverted_flag_false_prints_nothing() -> None:
    # no_async_scheduling false means "not disabled": printing --async-scheduling would force it on where the
    # release's default is off
    s = scenario_from_inputs({"model": "Qwen/Qwen3-8B", "gpu": "L4", "no_async_scheduling": "false"})
    assert serve_command(s) == "vllm serve Qwen/Qwen3-8B"


def test_model_less_log_prints_typed_values() -> None:
    """Without a model the command is built from the form's and the log's text: each value as vLLM reads it."""
    log = (REPO / "tests/data/logs/v08_models_s_max_seq_len_1m_quoted.log").read_text(encoding="utf-8")
    form = {"gpu_memory_utilization": "0,85", "enable_prefix_caching": "off", "enforce_eager": "yes",
            "kv_cache_dtype": "not-a-dtype"}
    d = diagnose(log, form)
    assert d.analysis is None
    report = build_log_report("en", d) or {}
    release = _release(d.inputs.get("vllm_version"))
    commands = [r["serve_command"] for r in report["recommendations"]]
    assert commands
    for command in commands:
        flags = parse_serve_command(command, release).flags
        assert flags["gpu_memory_utilization"] == "0.85" and flags["enforce_eager"] is True
        assert flags["enable_prefix_caching"] is False
        assert "not-a-dtype" not in command


def test_a_neutral_value_of_a_flag_the_release_lacks_is_left_out() -> None:
    # --decode-context-parallel-size is first in v0.10.2: "1" asks for nothing, anything else is refused
    base = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "vllm_version": "0.9.2", "max_model_len": "8192"}
    s = scenario_from_inputs({**base, "decode_context_parallel_size": "1"})
    assert serve_command(s) == "vllm serve Qwen/Qwen3-8B \\\n  --max-model-len 8192"
    with pytest.raises(CalcError):
        scenario_from_inputs({**base, "mamba_ssm_cache_dtype": "float32"})  # first in v0.10.1
    assert serve_command(scenario_from_inputs({**base, "mamba_ssm_cache_dtype": "auto"})).endswith("8192")


def test_an_explicit_false_prints_the_no_form_where_argparse_has_it() -> None:
    base = {"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "enforce_eager": False,
            "disable_hybrid_kv_cache_manager": False}
    command = serve_command(scenario_from_inputs(base))
    assert command.endswith("--no-enforce-eager \\\n  --no-disable-hybrid-kv-cache-manager")
    parse_serve_command(command)
    # v0.8.5: '--enforce-eager', action='store_true' (off by default, no --no- form); the hybrid manager's flag
    # (first in v0.9.1) is absent, and false asks for nothing
    old = serve_command(scenario_from_inputs({**base, "vllm_version": "0.8.5"}))
    assert old == "vllm serve Qwen/Qwen3-8B"
