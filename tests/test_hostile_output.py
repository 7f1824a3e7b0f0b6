"""What a reader pastes can never run, crash, flood or stall anything (the output boundary).

Over every kind of hostile input (control characters in a config, a log or argv; megabyte values;
zero and denormal config numbers; integers in other bases; closed, full and narrow streams; models
the core does not know; invisible ids), at every face (``kvcalc.faces.cli.main`` in-process, a handful of
subprocesses for the streams, ``kvcalc.faces.web.compute``): no traceback, no answer over
``MAX_ANSWER_CHARS``, no control character in any text written, and every refusal's error code
checked. No wall-clock assertion: speed is measured in bench/core_bench.py.
"""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kvcalc.errors import CalcError
from kvcalc.faces import report, web
from kvcalc.faces.cli import main
from kvcalc.faces.web import compute
from kvcalc.inert_text import MAX_ANSWER_CHARS, MAX_QUOTE_CHARS, has_invisible_or_control, inert, inert_json, quote
from kvcalc.inputs import scenario_from_inputs
from kvcalc.strings import STRINGS
from kvcalc.units import parse_human_int, parse_int

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_LOG = (ROOT / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8")
CATALOG = json.loads((ROOT / "calc" / "data" / "catalog.json").read_text(encoding="utf-8"))
#: Qwen/Qwen3-8B's config.json as the catalog stores it (scripts/model_configs/Qwen/, resolved by transformers).
QWEN3_8B = next(m["config"] for m in CATALOG["models"] if m["id"] == "Qwen/Qwen3-8B")
#: What no output may hold: C0 controls but newline and tab, DEL, C1, bidi embeddings/overrides/isolates, LS/PS.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
CONTROLS = ([chr(c) for c in range(0x20) if chr(c) not in "\n\t"] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)]
            + ["\u2028", "\u2029"] + [chr(c) for c in range(0x202A, 0x202F)] + [chr(c) for c in range(0x2066, 0x206A)])
#: Terminal attacks a pasted log or a config name can carry.
ATTACKS = {
    "osc52_clipboard": "\x1b]52;c;cm0gLXJmIH4K\x07",
    "osc8_hyperlink": "\x1b]8;;https://example.invalid/\x1b\\click\x1b]8;;\x1b\\",
    "cr_fake_line": "\rvLLM starts: the KV cache fits",
    "bel": "\x07\x07\x07",
    "nul": "a\x00b",
    "csi_clear": "\x1b[2J\x1b[H",
    "c1_csi": "\x9b31m",
    "rlo": "\u202eevil\u202c",
}
LANGS = ("en", "es", "zh")


def run(argv: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin) if stdin is not None else io.StringIO(""))
    return code, out.getvalue(), err.getvalue()


def assert_inert(text: str) -> None:
    assert "Traceback" not in text
    found = UNSAFE.findall(text)
    assert not found, f"control characters written: {sorted(set(map(repr, found)))}"


def strings_of(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in [str(k), *strings_of(v)]]
    if isinstance(obj, list):
        return [s for v in obj for s in strings_of(v)]
    return []


def ask(request: dict[str, object]) -> dict[str, object]:
    """``web.compute`` on ``request``: strict JSON, at most MAX_ANSWER_CHARS, every string inert, never internal."""
    answer = compute(json.dumps(request))
    assert len(answer) <= MAX_ANSWER_CHARS
    assert_inert(answer)
    data = json.loads(answer, parse_constant=lambda c: pytest.fail(f"non-finite {c}"))
    for s in strings_of(data):
        assert_inert(s)
    if not data["ok"]:
        assert data["errors"][0]["code"] != "internal", data["errors"][0]
    return data


def error_code(request: dict[str, object]) -> str:
    data = ask(request)
    assert data["ok"] is False, "expected a refusal"
    return str(data["errors"][0]["code"])


def fragment(lang: str, code: str) -> str:
    """The longest literal piece of the error template ``err.<code>`` in ``lang``: what its CLI line must hold."""
    pieces = re.split(r"\{[^}]*\}", STRINGS[lang][f"err.{code}"])
    return max(pieces, key=len).strip()


def assert_cli_error(code: int, out: str, err: str, lang: str, error: str) -> None:
    assert code == 2
    assert out == ""
    assert err.startswith("kvcalc: error: ") and err.count("\n") == 1, err
    assert fragment(lang, error) in err, (fragment(lang, error), err)
    assert_inert(err)


def config_text(**changes: object) -> str:
    cfg = dict(QWEN3_8B)
    cfg.update(changes)
    return json.dumps(cfg)


# ---- the boundary itself ---------------------------------------------------------------------------------

@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_inert_writes_every_control_as_its_escape(char: str) -> None:
    out = inert(f"a{char}b")
    assert_inert(out)
    code = ord(char)
    assert out == (f"a\\x{code:02x}b" if code < 0x100 else f"a\\u{code:04x}b")
    assert inert(out) == out  # idempotent: a second boundary changes nothing


def test_inert_keeps_newline_tab_and_text() -> None:
    assert inert("línea\tuno\n中文 ✓") == "línea\tuno\n中文 ✓"
    assert inert("\udc80") == "\ufffd"  # a lone surrogate cannot be written as UTF-8


@pytest.mark.parametrize("lang", LANGS)
def test_quote_cuts_at_the_stated_length_and_says_how_long(lang: str) -> None:
    text = "x" * 1_000_000
    shown = quote(text, lang=lang)
    assert shown.startswith("x" * MAX_QUOTE_CHARS)
    assert len(shown) < MAX_QUOTE_CHARS + 40
    assert "1,000,000" in shown
    assert quote("short", lang=lang) == "short"


def test_inert_json_escapes_every_string_and_key() -> None:
    text = inert_json({"\x1bkey": ["\x07", {"n": "\r"}], "ok": 1})
    assert_inert(json.loads(text)["\\x1bkey"][0])
    assert json.loads(text) == {"\\x1bkey": ["\\x07", {"n": "\\x0d"}], "ok": 1}


# ---- control characters from a config, a log, argv --------------------------------------------------------

@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_config_name_controls_never_reach_the_terminal(char: str) -> None:
    """A name that would go into ``vllm serve <name>`` with a control, bidi or line-separator character is
    refused (it cannot be printed as one honest shell word): exit 2, one inert line naming it escaped."""
    code, out, err = run(["plan", "--config", "-", "--gpu", "H100-80GB"],
                         stdin=config_text(_name_or_path=f"evil{char}name"))
    assert code == 2, err
    assert out == ""
    assert_inert(err)
    assert err.count("\n") == 1 and err.startswith("kvcalc: error: ") and "evil" in err


@pytest.mark.parametrize("name", sorted(ATTACKS))
@pytest.mark.parametrize("lang", LANGS)
def test_config_name_attacks_in_text_and_json(name: str, lang: str) -> None:
    cfg = config_text(_name_or_path=f"Qwen/Qwen3-8B{ATTACKS[name]}")
    # every attack carries a control or bidi character: the name is refused before anything is printed
    assert has_invisible_or_control(ATTACKS[name])
    code, out, err = run(["plan", "--config", "-", "--gpu", "H100-80GB", "--lang", lang], stdin=cfg)
    assert (code, out) == (2, "")
    assert_inert(err)
    code, out, err = run(["plan", "--config", "-", "--gpu", "H100-80GB", "--json"], stdin=cfg)
    assert (code, out) == (2, "")
    assert_inert(err)
    data = ask({"action": "plan", "lang": lang, "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assert data["ok"] is False
    assert [e["code"] for e in data["errors"]] == ["model_name_unsafe"]
    for s in strings_of(data):
        assert_inert(s)


def _log_with(attack: str) -> str:
    lines = SAMPLE_LOG.splitlines(keepends=True)
    return "".join(line.replace("meta-llama/Llama-3.1-8B-Instruct", f"meta-llama/Llama{attack}") if i < 8 else line
                   for i, line in enumerate(lines)) + f"INFO 04-22 01:48:30 [core.py:1] {attack} done\n"


@pytest.mark.parametrize("name", sorted(ATTACKS))
@pytest.mark.parametrize("lang", LANGS)
def test_log_attacks_never_reach_the_terminal(name: str, lang: str) -> None:
    text = _log_with(ATTACKS[name])
    for extra in ([], ["--json"]):
        code, out, err = run(["log", "-", "--lang", lang, *extra], stdin=text)
        assert code in (0, 1, 2)
        assert_inert(out)
        assert_inert(err)
        if extra:
            for s in strings_of(json.loads(out)):
                assert_inert(s)
    data = ask({"action": "log", "lang": lang, "log": text})
    assert data["ok"] is True


@pytest.mark.parametrize("flag", ["--model", "--gpu", "--max-model-len", "--vllm-version", "--lang", "--kv-cache-dtype"])
@pytest.mark.parametrize("name", ["osc52_clipboard", "cr_fake_line", "c1_csi", "nul"])
def test_argv_controls_in_error_lines_are_escaped(flag: str, name: str) -> None:
    argv = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB"]
    if flag in argv:
        argv[argv.index(flag) + 1] = f"x{ATTACKS[name]}"
    else:
        argv += [flag, f"x{ATTACKS[name]}"]
    code, out, err = run(argv)
    assert code == 2
    assert out == ""
    assert err.startswith("kvcalc: error: ") and err.count("\n") == 1
    assert_inert(err)


# ---- bounded answers ---------------------------------------------------------------------------------------

BOOLEANS = ("enforce_eager", "disable_hybrid_kv_cache_manager", "no_async_scheduling", "skip_mm_profiling",
            "enable_prefix_caching")
CHOICES = ("mamba_cache_mode", "mamba_ssm_cache_dtype", "kv_cache_dtype")


@pytest.mark.parametrize("size", [10_000, 2_000_000])
@pytest.mark.parametrize("field", BOOLEANS)
def test_a_huge_boolean_gets_a_short_answer(field: str, size: int) -> None:
    data = ask({"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", field: "y" * size}})
    assert data["errors"][0]["code"] == "not_a_boolean"
    assert len(json.dumps(data)) < 4 * MAX_QUOTE_CHARS
    assert f"{size:,}" in data["errors"][0]["message"]


@pytest.mark.parametrize("size", [10_000, 2_000_000])
@pytest.mark.parametrize("field", CHOICES)
def test_a_huge_choice_gets_a_short_answer(field: str, size: int) -> None:
    model = "Qwen/Qwen3-Next-80B-A3B-Instruct" if field.startswith("mamba") else "Qwen/Qwen3-8B"
    data = ask({"action": "plan", "inputs": {"model": model, "gpu": "H100-80GB", field: "z" * size}})
    assert data["errors"][0]["code"] == "bad_choice"
    assert len(json.dumps(data)) < 4 * MAX_QUOTE_CHARS


def test_fifteen_megabytes_of_enforce_eager() -> None:
    answer = compute(json.dumps({"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB",
                                                              "enforce_eager": "1" + "0" * 15_000_000}}))
    assert len(answer) < 4 * MAX_QUOTE_CHARS
    assert json.loads(answer)["errors"][0]["code"] == "not_a_boolean"


@pytest.mark.parametrize("flag,error", [("--max-model-len", "number_too_long"), ("--tensor-parallel-size", "number_too_long"),
                                        ("--gpu-memory-utilization", "number_too_long"), ("--model", "unknown_model"),
                                        ("--gpu", "unknown_gpu"), ("--vllm-version", "bad_version")])
def test_a_huge_cli_value_gets_one_short_line(flag: str, error: str) -> None:
    argv = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB"]
    if flag in argv:
        argv[argv.index(flag) + 1] = "9" * 1_000_000
    else:
        argv += [flag, "9" * 1_000_000]
    code, out, err = run(argv)
    assert_cli_error(code, out, err, "en", error)
    assert len(err) < 4 * MAX_QUOTE_CHARS + 100


def test_argparse_choice_errors_are_bounded() -> None:
    code, out, err = run(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--lang", "q" * 2_000_000])
    assert code == 2 and out == ""
    assert len(err) < 4 * MAX_QUOTE_CHARS + 100
    assert "characters" in err


def _big_line_log(size: int) -> str:
    """The sample log with its engine-config line (which states many facts) padded to ``size`` characters."""
    lines = SAMPLE_LOG.splitlines(keepends=True)
    i = next(k for k, line in enumerate(lines) if "Initializing a V1 LLM engine" in line)
    pad = size - len(lines[i])
    lines[i] = lines[i].rstrip("\n") + ", padding='" + "p" * max(pad, 0) + "'\n"
    return "".join(lines)


@pytest.mark.parametrize("lang", LANGS)
def test_a_line_quoted_once_per_fact_is_quoted_short(lang: str) -> None:
    text = _big_line_log(900_000)
    data = ask({"action": "log", "lang": lang, "log": text})
    assert data["ok"] is True
    evidence = data["reading"]["evidence"]
    assert len(evidence) >= 5  # the line states many facts: each one cites it
    big = [line for _key, line in evidence if line.startswith("(EngineCore")]
    assert big and all(len(line) < MAX_QUOTE_CHARS + 40 for line in big)
    assert all(len(line) < MAX_QUOTE_CHARS + 40 for line in data["report"]["vllm_lines"])
    code, out, _ = run(["log", "-", "--lang", lang], stdin=text)
    assert len(out) < 100_000
    code, out, _ = run(["log", "-", "--json"], stdin=text)
    assert len(out) < 100_000


def _huge_answer(request: object) -> dict[str, object]:
    """A stand-in for an answer no input reaches today (every quoted part is cut): 200,000 short lines."""
    return {"ok": True, "report": {"vllm_lines": ["INFO line"] * 200_000}}


def test_an_answer_over_the_limit_is_a_structured_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "compute_dict", _huge_answer)
    answer = compute(json.dumps({"action": "plan", "inputs": {}}))
    assert len(answer) < 2_000
    assert json.loads(answer)["errors"][0]["code"] == "answer_too_large"


@pytest.mark.parametrize("lang", LANGS)
def test_the_too_large_message_is_localized(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "compute_dict", _huge_answer)
    data = json.loads(compute(json.dumps({"action": "plan", "lang": lang, "inputs": {}})))
    assert data["errors"][0]["message"] == STRINGS[lang]["err.answer_too_large"].format(limit=f"{MAX_ANSWER_CHARS:,}")


def test_a_cli_json_answer_over_the_limit_exits_2(monkeypatch: pytest.MonkeyPatch) -> None:
    # the CLI imports the report when a command runs: patched where it is defined (kvcalc/faces/cli.py)
    monkeypatch.setattr(report, "result_dict", lambda a: {"vllm_log": ["INFO line"] * 200_000})
    code, out, err = run(["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "H100-80GB", "--json"])
    assert_cli_error(code, out, err, "en", "answer_too_large")


# ---- numbers: divisions by config values, integer literals --------------------------------------------------

@pytest.mark.parametrize("rope_type", ["linear", "dynamic", "yarn"])
@pytest.mark.parametrize("factor", [0, -1, -0.5, 1e-300, 5e-324, 1e-310, 1e-9])
def test_rope_factors_that_scale_to_nothing_are_refused(rope_type: str, factor: float) -> None:
    cfg = config_text(rope_scaling={"type": rope_type, "factor": factor}, max_position_embeddings=40960)
    data = ask({"action": "plan", "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assert data["errors"][0]["code"] == "config_bad_value"
    assert "rope_scaling" in data["errors"][0]["message"]
    code, out, err = run(["plan", "--config", "-", "--gpu", "H100-80GB"], stdin=cfg)
    assert_cli_error(code, out, err, "en", "config_bad_value")
    assert "rope_scaling" in err


@pytest.mark.parametrize("key", ["head_dim", "num_key_value_heads", "sliding_window", "num_attention_heads",
                                 "hidden_size", "intermediate_size", "vocab_size", "num_hidden_layers",
                                 "max_position_embeddings", "rope_theta"])
@pytest.mark.parametrize("value", [0, -1, 1e-300, 5e-324])
def test_zero_negative_and_denormal_config_numbers_never_crash(key: str, value: float) -> None:
    data = ask({"action": "plan", "inputs": {"config": config_text(**{key: value}), "gpu": "H100-80GB"}})
    if not data["ok"]:
        assert data["errors"][0]["code"] in ("config_bad_value", "config_missing_key"), data["errors"][0]


INT_FIELDS = ("tensor_parallel_size", "pipeline_parallel_size", "max_num_seqs", "max_num_batched_tokens",
              "block_size", "num_gpu_blocks_override", "kv_cache_memory_bytes", "decode_context_parallel_size",
              "max_model_len")


@pytest.mark.parametrize("text", ["0x" + "f" * 5000, "0x10", "0b101", "0o17", "1" * 5000, "-0x1", "١٢"])
@pytest.mark.parametrize("field", INT_FIELDS)
def test_integers_in_other_bases_are_refused_before_they_are_built(field: str, text: str) -> None:
    data = ask({"action": "plan", "inputs": {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", field: text}})
    assert data["errors"][0]["code"] in ("not_an_integer", "number_too_long"), data["errors"][0]
    if len(text) > 40:
        assert data["errors"][0]["code"] == "number_too_long"


@pytest.mark.parametrize("text", ["0x" + "f" * 5000, "9" * 100_000, "0b" + "1" * 5000])
def test_parse_int_refuses_by_length_first(text: str) -> None:
    with pytest.raises(CalcError) as exc:
        parse_int(text, field="block_size")
    assert exc.value.code == "number_too_long"
    with pytest.raises(CalcError):
        parse_human_int(text, field="x")


# ---- streams and encodings (the real process) --------------------------------------------------------------

CLI = [sys.executable, "-m", "kvcalc"]
PLAN = ["plan", "--model", "Qwen/Qwen3-8B", "--gpu", "RTX-4090", "--max-model-len", "32k"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONIOENCODING", "LC_", "PYTHONUTF8"))}
    return {**env, **extra}


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"PYTHONIOENCODING": "latin-1"},
                                 {"LC_ALL": "C", "PYTHONUTF8": "0"}], ids=["ascii", "latin-1", "C-locale"])
@pytest.mark.parametrize("lang", ["zh", "es"])
def test_a_narrow_encoding_gets_escapes_not_a_traceback(env: dict[str, str], lang: str) -> None:
    r = subprocess.run([*CLI, *PLAN, "--lang", lang], capture_output=True, env=_env(**env), timeout=120)
    assert r.returncode == 0
    assert b"Traceback" not in r.stderr and r.stderr == b""
    r.stdout.decode("ascii" if env.get("PYTHONIOENCODING") == "ascii" else "latin-1")
    if lang == "zh" and env.get("PYTHONIOENCODING") == "ascii":
        assert b"\\u" in r.stdout


def test_a_narrow_encoding_error_line_gets_escapes() -> None:
    r = subprocess.run([*CLI, "plan", "--model", "nope-model", "--gpu", "H100-80GB", "--lang", "zh"],
                       capture_output=True, env=_env(PYTHONIOENCODING="ascii"), timeout=120)
    assert r.returncode == 2
    assert r.stderr.startswith(b"kvcalc: error: ") and r.stderr.count(b"\n") == 1
    assert b"Traceback" not in r.stderr


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_closed_stdout_exits_2_with_one_line(json_flag: list[str]) -> None:
    r = subprocess.run([*CLI, *PLAN, *json_flag], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120,
                       preexec_fn=lambda: os.close(1))
    assert r.returncode == 2
    assert r.stderr.decode().startswith("kvcalc: error: ") and r.stderr.count(b"\n") == 1
    assert b"Traceback" not in r.stderr


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_full_stdout_exits_2_with_one_line(json_flag: list[str]) -> None:
    with open("/dev/full", "w") as full:
        r = subprocess.run([*CLI, *PLAN, *json_flag], stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert r.returncode == 2
    assert r.stderr.decode() == "kvcalc: error: " + STRINGS["en"]["err.output_failed"].format(
        value="No space left on device") + "\n"


@pytest.mark.parametrize("argv", [["log", "-"], ["log", "-", "--json"], ["plan", "--config", "-", "--gpu", "H100-80GB"]])
def test_a_closed_stdin_is_bad_input(argv: list[str]) -> None:
    r = subprocess.run([*CLI, *argv], stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                       preexec_fn=lambda: os.close(0))
    assert r.returncode == 2
    code = "config_unreadable" if "--config" in argv else "log_unreadable"
    assert fragment("en", code) in r.stderr.decode()
    assert b"Traceback" not in r.stderr and r.stderr.count(b"\n") == 1


def test_an_error_with_stderr_closed_still_exits_2() -> None:
    r = subprocess.run([*CLI, "plan", "--model", "nope-model", "--gpu", "H100-80GB"], capture_output=False,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120, preexec_fn=lambda: os.close(2))
    assert r.returncode == 2
    assert r.stdout == b""


def test_closed_stdin_in_process() -> None:
    out, err = io.StringIO(), io.StringIO()
    closed = io.StringIO("x")
    closed.close()
    assert main(["log", "-"], stdout=out, stderr=err, stdin=closed) == 2
    assert fragment("en", "log_unreadable") in err.getvalue()


# ---- architectures the core does not know -----------------------------------------------------------------

ENCODERS = {
    "bert": {"model_type": "bert", "architectures": ["BertModel"]},
    "roberta": {"model_type": "roberta", "architectures": ["RobertaForMaskedLM"]},
    "xlm-roberta": {"model_type": "xlm-roberta"},
    "t5": {"model_type": "t5", "architectures": ["T5ForConditionalGeneration"], "is_encoder_decoder": True},
    "bart": {"model_type": "bart"},
    "whisper": {"model_type": "whisper", "architectures": ["WhisperForConditionalGeneration"]},
    "clip": {"model_type": "clip", "architectures": ["CLIPModel"]},
    "siglip": {"model_type": "siglip"},
    "modernbert": {"model_type": "modernbert"},
    "is_encoder_decoder": {"model_type": "frobnicator", "is_encoder_decoder": True},
    "bert_under_llama": {"model_type": "llama", "architectures": ["BertForMaskedLM"]},
    "t5_arch_under_llama": {"model_type": "llama", "architectures": ["T5EncoderModel"]},
}


@pytest.mark.parametrize("name", sorted(ENCODERS))
@pytest.mark.parametrize("lang", LANGS)
def test_encoder_models_are_refused(name: str, lang: str) -> None:
    cfg = config_text(**ENCODERS[name])
    data = ask({"action": "plan", "lang": lang, "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assert data["errors"][0]["code"] == "encoder_model"
    code, out, err = run(["plan", "--config", "-", "--gpu", "H100-80GB", "--lang", lang], stdin=cfg)
    assert_cli_error(code, out, err, lang, "encoder_model")


@pytest.mark.parametrize("arch", ["MambaForCausalLM", "Mamba2ForCausalLM", "RwkvForCausalLM", "FalconMambaForCausalLM"])
def test_a_state_architecture_declared_under_llama_is_refused(arch: str) -> None:
    cfg = config_text(model_type="llama", architectures=[arch])
    assert error_code({"action": "plan", "inputs": {"config": cfg, "gpu": "H100-80GB"}}) == "unsupported_architecture"


@pytest.mark.parametrize("mt", ["rwkv", "mamba"])
def test_rwkv_and_mamba_stay_refused(mt: str) -> None:
    assert error_code({"action": "plan", "inputs": {"config": config_text(model_type=mt), "gpu": "H100-80GB"}}) \
        == "unsupported_architecture"


UNKNOWN = {
    "model_type": ({"model_type": "frobnicator", "architectures": ["Qwen3ForCausalLM"]}, ("model_type", "frobnicator")),
    "architectures": ({"architectures": ["FrobnicatorForCausalLM"]}, ("architectures", "FrobnicatorForCausalLM")),
    "quant_method": ({"quantization_config": {"quant_method": "frobq", "bits": 3}}, ("quant_method", "frobq")),
}


@pytest.mark.parametrize("what", sorted(UNKNOWN))
@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_architecture_is_planned_with_a_note(what: str, lang: str) -> None:
    changes, (key, value) = UNKNOWN[what]
    cfg = config_text(**changes)
    data = ask({"action": "plan", "lang": lang, "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assumed = data["result"]["assumed_architecture"]
    assert assumed["code"] == "assumed_architecture"
    assert assumed["assumed"] == "standard decoder: full attention, gated MLP, rope"
    assert {"key": key, "value": value} in assumed["unknown"]
    head = STRINGS[lang]["note.assumed_architecture"].split("{what}")[0]
    note = next(n for n in data["report"]["notes"] if n.startswith(head))
    assert value in note
    code, out, _ = run(["plan", "--config", "-", "--gpu", "H100-80GB", "--lang", lang], stdin=cfg)
    assert code in (0, 1)
    assert head in out and value in out
    code, out, _ = run(["plan", "--config", "-", "--gpu", "H100-80GB", "--json"], stdin=cfg)
    assert json.loads(out)["assumed_architecture"] == assumed


def test_an_invented_model_type_name_is_quoted_inert() -> None:
    cfg = config_text(model_type="frob\x1b]52;c;eA==\x07")
    data = ask({"action": "plan", "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assert data["result"]["assumed_architecture"]["model_type"] == "frob\\x1b]52;c;eA==\\x07"


@pytest.mark.parametrize("model_id", [m["id"] for m in CATALOG["models"]])
def test_every_catalog_model_is_known(model_id: str) -> None:
    s = scenario_from_inputs({"model": model_id, "gpu": "H100-80GB"})
    assert s.model.assumed == (), s.model.assumed


@pytest.mark.parametrize("heads,kv_heads", [(32, 5), (32, 3), (7, 2), (64, 48)])
def test_heads_that_do_not_divide_are_bad_input(heads: int, kv_heads: int) -> None:
    cfg = config_text(num_attention_heads=heads, num_key_value_heads=kv_heads, head_dim=128)
    data = ask({"action": "plan", "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assert data["errors"][0]["code"] == "config_bad_value"
    assert "num_key_value_heads" in data["errors"][0]["message"]
    code, out, err = run(["plan", "--config", "-", "--gpu", "H100-80GB"], stdin=cfg)
    assert_cli_error(code, out, err, "en", "config_bad_value")


@pytest.mark.parametrize("layers,types", [(1, 10_000), (36, 35), (36, 37), (2, 1)])
def test_layer_types_of_another_length_are_bad_input(layers: int, types: int) -> None:
    cfg = config_text(num_hidden_layers=layers, layer_types=["full_attention"] * types)
    data = ask({"action": "plan", "inputs": {"config": cfg, "gpu": "H100-80GB"}})
    assert data["errors"][0]["code"] == "config_bad_value"
    assert "layer_types" in data["errors"][0]["message"]


@pytest.mark.parametrize("mt", ["gemma2", "llama", "qwen3_next"])
def test_layer_types_too_long_for_any_family(mt: str) -> None:
    cfg = config_text(model_type=mt, num_hidden_layers=4, layer_types=["full_attention"] * 5, sliding_window=128)
    assert error_code({"action": "plan", "inputs": {"config": cfg, "gpu": "H100-80GB"}}) == "config_bad_value"


# ---- invisible ids --------------------------------------------------------------------------------------------

INVISIBLE = {"rlo": "\u202e", "lro": "\u202d", "zwsp": "\u200b", "zwj": "\u200d", "zwnj": "\u200c", "bom": "\ufeff",
             "lrm": "\u200e", "soft_hyphen": "\u00ad", "word_joiner": "\u2060", "rli": "\u2067", "tag": "\U000e0041",
             "bel": "\x07"}


@pytest.mark.parametrize("name", sorted(INVISIBLE))
@pytest.mark.parametrize("field,value", [("model", "Qwen/Qwen3-8B"), ("gpu", "H100-80GB")])
def test_ids_with_invisible_characters_are_refused(name: str, field: str, value: str) -> None:
    hidden = value[:4] + INVISIBLE[name] + value[4:]
    assert has_invisible_or_control(hidden)
    inputs = {"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", field: hidden}
    data = ask({"action": "plan", "inputs": inputs})
    assert data["errors"][0]["code"] == "invisible_id"
    assert data["errors"][0]["field"] == field
    code, out, err = run(["plan", "--model", inputs["model"], "--gpu", inputs["gpu"]])
    assert_cli_error(code, out, err, "en", "invisible_id")
    assert "\\u" in err or "\\x" in err  # the hidden character is shown, as its escape


@pytest.mark.parametrize("text", ["Qwen/Qwen3-8B", "H100-80GB", "中文模型", "modèle-ñ", "a b"])
def test_visible_ids_are_not_flagged(text: str) -> None:
    assert not has_invisible_or_control(text)


# ---- the largest allowed config answers (speed is measured in bench/, here only that it answers) -----------

def test_the_largest_allowed_config_answers() -> None:
    cfg = {"model_type": "llama", "num_hidden_layers": 10_000, "hidden_size": 1 << 24, "num_attention_heads": 1 << 24,
           "num_key_value_heads": 1 << 24, "intermediate_size": 1 << 24, "vocab_size": 1 << 24, "head_dim": 1 << 24,
           "max_position_embeddings": 1 << 31}
    data = ask({"action": "plan", "inputs": {"config": json.dumps(cfg), "gpu": "H100-80GB"}})
    assert data["ok"] is True
    assert data["result"]["status"] == "weights_exceed_gpu"
