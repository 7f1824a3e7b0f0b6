"""The README's "Hostile input" and "Output" paragraphs say what the core does with hostile input: each stated
rule and number is read from the README here and checked against the core (its constants and its behaviour on
a sample input), so the paragraph cannot drift from the code. The time bounds are checked against the
benchmark that measures them (bench/hostile_bench.py) and its recorded figures, never against a clock here.
"""
from __future__ import annotations

import io
import json
import re
import shlex
import sys
from pathlib import Path

import pytest

from kvcalc import limits
from kvcalc.faces.cli import main as cli_main
from kvcalc.faces.web import compute
from kvcalc.inert_text import MAX_ANSWER_CHARS, MAX_QUOTE_CHARS, inert

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
sys.path.insert(0, str(REPO / "bench"))
import hostile_bench  # noqa: E402  (bench/ is not a package)

#: Every character the paragraphs promise to escape, beside newline and tab, which stay.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _paragraph(title: str) -> str:
    """The README paragraph that starts with ``**title**``, joined into one line."""
    start = README.index(f"\n**{title}**") + 1
    end = README.find("\n\n", start)
    return " ".join(README[start:end].split())


HOSTILE = _paragraph("Hostile input")
OUTPUT = _paragraph("Output")
BOTH = HOSTILE + " " + OUTPUT


def _number(text: str) -> int:
    """``2^31``, ``10,000`` or ``512`` as an int."""
    if "^" in text:
        base, exp = text.split("^")
        return int(base) ** int(exp)
    return int(text.replace(",", ""))


def _stated(pattern: str, text: str = HOSTILE) -> int:
    m = re.search(pattern, text)
    assert m, f"the README no longer states {pattern!r}"
    return _number(m.group(1))


_NUM = r"(2\^\d+|[\d,]+)"
#: README wording → the core's constant (calc/limits.py, calc/inert_text.py).
INPUT_BOUNDS: dict[str, tuple[str, int]] = {
    "lengths": (rf"lengths ≤ {_NUM}", limits.MAX_LEN),
    "GiB": (rf"GiB ≤ {_NUM}", limits.MAX_GIB),
    "bytes": (rf"bytes ≤ {_NUM}", limits.MAX_BYTES),
    "layers": (rf"layers ≤ {_NUM}", limits.MAX_LAYERS),
    "widths": (rf"model widths ≤ {_NUM}", limits.MAX_DIM),
    "typed numbers": (rf"typed numbers ≤ {_NUM} characters", limits.MAX_NUMBER_CHARS),
    "nesting": (rf"nest at most {_NUM} levels", limits.MAX_DEPTH),
}


@pytest.mark.parametrize("what", sorted(INPUT_BOUNDS))
def test_each_stated_input_bound_is_the_cores(what: str) -> None:
    pattern, value = INPUT_BOUNDS[what]
    assert _stated(pattern) == value


def test_the_stated_read_limits_are_the_cores() -> None:
    assert _stated(r"config (\d+) MB") * 1_000_000 == limits.MAX_CONFIG_BYTES
    mb = _stated(r"a log over (\d+) MB keeps its last")
    assert mb << 20 == limits.MAX_LOG_BYTES  # "5 MB": 5 MiB, the bytes kept (cli.py, web.py)


def test_the_stated_output_sizes_are_the_cores() -> None:
    # stated in both paragraphs, with the same numbers
    assert _stated(rf"log line is at most {_NUM} characters") == MAX_QUOTE_CHARS
    assert _stated(rf"answer at most {_NUM} characters") == MAX_ANSWER_CHARS
    assert _stated(rf"cut to {_NUM} characters", OUTPUT) == MAX_QUOTE_CHARS
    assert _stated(rf"is at most {_NUM} characters, else the structured error", OUTPUT) == MAX_ANSWER_CHARS
    assert "`answer_too_large`" in OUTPUT


#: The control characters the Output paragraph names, as it names them.
NAMED = {"ESC": "\x1b", "CSI": "\x9b", "RLO": "\u202e"}


def test_each_named_escape_is_what_the_core_writes() -> None:
    found = dict(re.findall(r"\b(ESC|CSI|RLO) (?:as )?`(\\[xu][0-9a-f]+)`", OUTPUT))
    assert set(found) == set(NAMED), found
    for name, escape in found.items():
        assert inert(f"a{NAMED[name]}b") == f"a{escape}b"
    assert inert("a\nb\tc") == "a\nb\tc"  # "but newline and tab"
    assert "every control character but newline and tab is written as its escape" in HOSTILE


ATTACKS = ("\x1b]52;c;ZWNobyBwd25lZA==\x07", "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
           "\r INFO vLLM starts fine", "\x9b31m", "\u202e")


def _osc_log() -> str:
    """The guide's sample log with the attacks the paragraph names (OSC 52, OSC 8, a CR-forged line, C1 CSI,
    RLO) at the end of every line: the lines that state facts are quoted back as evidence."""
    lines = (REPO / "kvguide_macros" / "data" / "sample.log").read_text(encoding="utf-8").splitlines()
    return "".join(f"{line} {ATTACKS[i % len(ATTACKS)]}\n" for i, line in enumerate(lines))


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def test_no_control_reaches_a_json_answer_or_the_terminal() -> None:
    answer = compute(json.dumps({"action": "log", "log": _osc_log()}))
    strings = _strings(json.loads(answer))
    assert not [s for s in strings if _UNSAFE.search(s)]
    assert any("\\x1b]52" in s for s in strings)  # seen, as its escape
    out, err = io.StringIO(), io.StringIO()
    cli_main(["log", "-"], stdout=out, stderr=err, stdin=io.StringIO(_osc_log()))
    assert not _UNSAFE.search(out.getvalue() + err.getvalue())


def test_a_quoted_value_is_cut_to_the_stated_length_and_says_how_long() -> None:
    value = "y" * 100_000
    data = json.loads(compute(json.dumps({"action": "plan", "inputs": {
        "model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "enforce_eager": value}})))
    assert data["ok"] is False
    message = json.dumps(data["errors"])
    assert "(100,000 characters)" in message
    assert "y" * (MAX_QUOTE_CHARS + 1) not in message and "y" * MAX_QUOTE_CHARS in message


def test_an_answer_stays_under_the_stated_size() -> None:
    # one 0.9 MB line stating nine facts (each used to quote the whole line: a 9 MB answer)
    answer = compute(json.dumps({"action": "log", "log": hostile_bench.LOGS["one 0.9 MB engine-config line (nine facts)"]()}))
    assert json.loads(answer)["ok"] is True
    assert len(answer) <= MAX_ANSWER_CHARS


ATTACK_NAME = "$(touch /tmp/kvguide-pwned); `id` 'q\""


def test_every_printed_command_is_shell_quoted() -> None:
    assert "every word of a printed command is shell-quoted" in HOSTILE and "`shlex.quote`" in OUTPUT
    cfg = {"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096, "num_attention_heads": 32,
           "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256,
           "max_position_embeddings": 131072, "_name_or_path": ATTACK_NAME}
    data = json.loads(compute(json.dumps({"action": "plan", "inputs": {
        "config": json.dumps(cfg), "gpu": "RTX-4090", "max_model_len": "128k"}})))
    commands = [s for s in _strings(data) if s.startswith("vllm serve ")]
    assert commands
    for command in commands:
        words = shlex.split(command)
        assert words[:3] == ["vllm", "serve", ATTACK_NAME]  # one literal word, nothing a shell would run


def test_a_name_with_a_line_break_is_refused_not_printed() -> None:
    assert "(`model_name_unsafe`)" in OUTPUT
    cfg = {"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 1,
           "num_key_value_heads": 1, "intermediate_size": 64, "vocab_size": 1000,
           "max_position_embeddings": 4096, "_name_or_path": "a\nvllm serve evil"}
    data = json.loads(compute(json.dumps({"action": "plan", "inputs": {"config": json.dumps(cfg), "gpu": "RTX-4090"}})))
    assert data["ok"] is False and data["errors"][0]["code"] == "model_name_unsafe"


# ---- time: the stated bounds are the benchmark's, and its recorded medians are within them ---------------------

def _bounds() -> tuple[float, float]:
    m = re.search(r"answers `web.compute` in under ([\d.]+) s in CPython and under ([\d.]+) s in the page's worker",
                  HOSTILE)
    assert m, "the README no longer states the time bounds"
    return float(m.group(1)), float(m.group(2))


def test_the_stated_time_bounds_are_the_benchmarks() -> None:
    assert _bounds() == (hostile_bench.BOUND_S, hostile_bench.BOUND_WORKER_S)


#: What the paragraph says is measured → a word of the benchmark's case names.
MEASURED: dict[str, str] = {"10,000 layers with every width 2^24": "every width at its maximum", "MoE": "MoE",
                            "MLA": "MLA", "PP 4": "PP 4", "pre-0.14 per-layer check": "per-layer check", "V0": "V0",
                            "60-deep `non-default args`": "60-deep", "5 MB of newlines": "newlines",
                            "one 0.9 MB line": "0.9 MB", "random bytes": "random bytes"}


@pytest.mark.parametrize("stated", sorted(MEASURED))
def test_each_stated_input_is_benchmarked(stated: str) -> None:
    assert stated in HOSTILE
    assert any(MEASURED[stated] in name for name in (*hostile_bench.CONFIGS, *hostile_bench.LOGS))


def _results_rows() -> list[list[str]]:
    text = (REPO / "bench" / "RESULTS.md").read_text(encoding="utf-8")
    section = text[text.index(hostile_bench.HEADING):]
    section = section[:section.find("\n## ", 1)] if "\n## " in section[1:] else section
    return [[c.strip() for c in line.strip("|").split("|")] for line in section.splitlines()
            if line.startswith("| ") and not line.startswith("| input")]


@pytest.mark.parametrize(("face", "column", "bound"), [("CPython", 2, hostile_bench.BOUND_S),
                                                      ("Pyodide", 4, hostile_bench.BOUND_WORKER_S)])
def test_the_recorded_medians_are_within_the_stated_bounds(face: str, column: int, bound: float) -> None:
    rows = _results_rows()
    names = {row[0] for row in rows}
    assert names == {*hostile_bench.CONFIGS, *hostile_bench.LOGS}, "re-run bench/hostile_bench.py --write"
    slow = {row[0]: float(row[column]) for row in rows if float(row[column]) >= bound}
    assert not slow, f"{face} medians over {bound} s: {slow}"


def test_the_stated_slowest_figures_are_the_recorded_ones() -> None:
    m = re.search(r"slowest ([\d.]+) s and ([\d.]+) s on this shared", HOSTILE)
    assert m, "the README no longer states the measured figures"
    rows = _results_rows()
    assert float(m.group(1)) == max(float(r[2]) for r in rows)
    assert float(m.group(2)) == max(float(r[4]) for r in rows)
