"""Where each input comes from when a log is pasted, and a log that names no model.

The calculator sends with a log only what the reader typed (``typed`` names them); the core
lays the log's facts over the rest and says, per input, whether the value is the log's or the
form's (``sources``). A log that names no model, with none typed, is never planned: the answer
is what the log alone determines and one line asking for the model (and the GPU when missing).
Every log here is a public one vendored in tests/data/logs (sources.json).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kvcalc import strings
from kvcalc.faces.cli import main
from kvcalc.faces.web import compute
from kvcalc.inert_text import MAX_QUOTE_CHARS
from kvcalc.logs.diagnose import diagnose, inputs_from_reading, merge_inputs, missing_inputs
from kvcalc.logs.logparse import parse_log

LOGS = Path(__file__).parent / "data" / "logs"
SAMPLE_LOG = Path(__file__).resolve().parents[1] / "kvguide_macros" / "data" / "sample.log"
LANGS = ("es", "zh", "en")

#: vLLM 0.19.0, Llama-3.1-8B on an H100 (llm-d-planner's sweep): names the model, max_model_len 8192,
#: "total_memory=79.19GiB", "Model loading took 14.99 GiB".
NAMED = "llmd_v019_llama31_8b_h100_tp1.log"
#: vLLM 0.7, Llama-3.1-8B on an OCI A10: names no model; 131072 tokens, total_gpu_memory (22.07GiB) x 0.90.
UNNAMED = "v07_llama31_8b_oci_a10_131k_kv_too_small.log"
#: PyTorch CI on an L4: "Free memory on device cuda:1 (19.77/22.05 GiB) on startup is less than desired GPU
#: memory utilization (0.9, 19.84 GiB)"; no model, no max_model_len.
FREE_MEMORY = "v2026_free_memory_pytorch_ci_l4.log"
#: vLLM 0.10.1, gpt-oss-120b on an H100: "Available KV cache memory: -2.14 GiB", then the engine fails.
NEGATIVE = "v0101_gpt_oss_120b_h100_negative_kv.log"
#: vLLM 0.7 on 2x RTX 4090: the command and the error line (the issue's first two lines); the model is a local
#: path given as the positional argument, which names no catalog model, and no line says which GPU.
RTX4090 = "v07_deepseek_r1_qwen14b_2x4090_tp2.log"


def _log(name: str, *, lines: int | None = None) -> str:
    text = (LOGS / name).read_text(encoding="utf-8", errors="replace")
    return "".join(text.splitlines(keepends=True)[:lines]) if lines else text


def call(log: str, lang: str = "en", inputs: dict[str, str] | None = None, typed: list[str] | None = None) -> dict:
    request: dict[str, object] = {"action": "log", "lang": lang, "log": log, "inputs": inputs or {}}
    if typed is not None:
        request["typed"] = typed
    answer = json.loads(compute(json.dumps(request)))
    assert answer["ok"], answer
    return answer


# ---------------------------------------------------------------------------
# sources: which inputs the log stated
# ---------------------------------------------------------------------------


def test_sources_name_every_input_the_log_stated_and_only_those() -> None:
    answer = call(_log(NAMED), inputs={"max_num_seqs": "8"}, typed=["max_num_seqs"])
    stated = inputs_from_reading(parse_log(_log(NAMED)))
    assert answer["sources"] == {k: ("form" if k == "max_num_seqs" else "log") for k in answer["inputs"]}
    assert {k for k, v in answer["sources"].items() if v == "log"} == set(stated) - {"max_num_seqs"}
    # the log's own figures, as printed: "total_memory=79.19GiB", "Model loading took 14.99 GiB", "max_model_len 8192"
    assert (answer["inputs"]["gpu_memory_gib"], answer["inputs"]["weights_gib"]) == ("79.19", "14.99")
    assert answer["inputs"]["max_model_len"] == "8192"


def test_a_typed_value_stays_over_the_logs() -> None:
    # the log ran at 8192 tokens; the reader typed 4096 (a what-if): the typed value is planned
    answer = call(_log(NAMED), inputs={"max_model_len": "4096"}, typed=["max_model_len"])
    assert answer["inputs"]["max_model_len"] == "4096" and answer["sources"]["max_model_len"] == "form"
    assert answer["result"]["max_model_len"] == 4096
    # not typed (the CLI's flags, an older page): the log's value wins, as before
    assert call(_log(NAMED), inputs={"max_model_len": "4096"})["inputs"]["max_model_len"] == "8192"


def test_a_typed_model_keeps_the_logs_model_out() -> None:
    log = {"model": "meta-llama/Llama-3.1-8B-Instruct", "max_model_len": "8192"}
    assert merge_inputs({"model": "Qwen/Qwen3-8B"}, log, keep=("model",))["model"] == "Qwen/Qwen3-8B"
    assert merge_inputs({"config": "{}"}, log, keep=("config",)) == {"config": "{}", "max_model_len": "8192"}
    assert merge_inputs({"model": "Qwen/Qwen3-8B"}, log)["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    # an empty typed value keeps nothing: the log fills the field
    assert merge_inputs({"model": ""}, log, keep=("model",))["model"] == "meta-llama/Llama-3.1-8B-Instruct"
    d = diagnose(_log(NAMED), {"model": "Qwen/Qwen3-8B"}, keep=("model",))
    assert d.analysis is not None and d.analysis.scenario.model_label == "Qwen/Qwen3-8B"
    assert "model" not in d.stated and "max_model_len" in d.stated


def test_typed_must_be_a_list_of_names() -> None:
    answer = json.loads(compute(json.dumps({"action": "log", "log": _log(NAMED), "typed": "model"})))
    assert answer["ok"] is False and answer["errors"][0]["code"] == "bad_request"


def test_logs_pasted_one_after_another_leave_nothing_behind() -> None:
    """What the page sends with each log is what the reader typed (here one value): each answer holds that
    value and the log's own facts, never an earlier log's (max_model_len 8192, available_kv_gib -2.14)."""
    typed = {"max_num_seqs": "16"}
    for name in (NAMED, UNNAMED, FREE_MEMORY, NEGATIVE, RTX4090):
        answer = call(_log(name), inputs=typed, typed=list(typed))
        stated = {k: v for k, v in inputs_from_reading(parse_log(_log(name))).items() if k not in typed}
        assert answer["inputs"] == {**typed, **stated}, name
        assert {k for k, v in answer["sources"].items() if v == "log"} == set(stated), name
    # the free-memory log states no length: the first log's 8192 is gone; the next states no available memory
    assert "max_model_len" not in call(_log(FREE_MEMORY))["inputs"]
    assert call(_log(NEGATIVE))["inputs"]["available_kv_gib"] == "-2.14"
    assert "available_kv_gib" not in call(_log(RTX4090))["inputs"]


# ---------------------------------------------------------------------------
# A log that names no model
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_log_naming_no_model_is_not_planned_and_asks_for_it(lang: str) -> None:
    answer = call(_log(UNNAMED), lang)
    assert "model" not in answer["inputs"] and answer["result"] is None
    assert answer["ask"] == strings.t(lang, "ask.model")          # the GPU's memory is the log's 22.07 GiB
    assert "replan_error" not in answer                              # asked once, not again beside the field
    report = answer["report"]
    assert report["verdict"]["kind"] == "log_kv_cache_too_small" and report["serve_command"] == ""
    assert report["notes"] == []            # never "could not plan the model this log names"
    # what the log alone says: its length (131072) and "the rest of the memory reserved for KV Cache is 4.60GiB",
    # the fixes it can quantify, its own lines as printed
    assert [f["key"] for f in report["figures"]] == ["max_model_len", "available_kv"]
    assert report["figures"][1]["value"].startswith(("4.60 GiB", "4,60 GiB"))
    assert all("<your-model>" in r["serve_command"] for r in report["recommendations"])
    assert any("max seq len (131072)" in line for line in answer["log_lines"])
    assert all(line in _log(UNNAMED) for line in answer["log_lines"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_4090_error_asks_for_the_model_and_the_gpu_in_one_line(lang: str) -> None:
    two_lines = _log(RTX4090, lines=2)
    answer = call(two_lines, lang)
    assert answer["reading"]["diagnosis"] == "kv_cache_too_small" and answer["result"] is None
    assert answer["ask"] == strings.t(lang, "ask.model_gpu")
    assert answer["report"]["verdict"]["kind"] == "log_kv_cache_too_small"   # never "vLLM starts"
    # the reader chooses the model: the GPU is still missing, and the note does not blame the log's model
    chosen = call(two_lines, lang, inputs={"model": "Qwen/Qwen3-14B"}, typed=["model"])
    assert chosen["ask"] == strings.t(lang, "ask.gpu") and chosen["result"] is None
    assert chosen["report"]["notes"] == []
    # and the GPU: the full plan, at the log's 131072 tokens and TP 2 (a model whose config allows 131072:
    # Llama-3.1-8B's max_position_embeddings; Qwen3-14B's 40960 is refused)
    model = "meta-llama/Llama-3.1-8B-Instruct"
    full = call(two_lines, lang, inputs={"model": model, "gpu": "RTX-4090"}, typed=["model", "gpu"])
    assert full["ask"] is None and full["result"]["model"] == model
    assert full["result"]["max_model_len"] == 131072 and full["result"]["tensor_parallel_size"] == 2


def test_missing_inputs() -> None:
    assert missing_inputs({}) == ("model", "gpu")
    assert missing_inputs({"model": "Qwen/Qwen3-8B", "gpu": " "}) == ("gpu",)
    assert missing_inputs({"config": "{}", "available_kv_gib": "4"}) == ()
    assert missing_inputs({"gpu_memory_gib": "22.07"}) == ("model",)
    assert missing_inputs({"model": "x", "kv_cache_memory_bytes": "4G"}) == ()


def test_a_model_less_free_memory_log_keeps_its_ladder() -> None:
    # the fixes for another process's memory need no model: the log's verdict and its ladder, from its own figures
    answer = call(_log(FREE_MEMORY))
    report = answer["report"]
    assert answer["result"] is None and answer["ask"] == strings.t("en", "ask.model")
    assert report["verdict"]["kind"] == "free_memory_below_utilization"
    assert "19.77 GiB" in report["verdict"]["summary"] and "19.84 GiB" in report["verdict"]["summary"]
    assert [r["anchor"] for r in report["recommendations"]]


def test_unreadable_text_asks_for_nothing() -> None:
    answer = call("hello world")
    assert answer["reading"]["diagnosis"] == "unknown" and answer["ask"] is None and answer["log_lines"] == []


def test_the_log_lines_are_the_logs_even_when_it_is_recomputed() -> None:
    text = SAMPLE_LOG.read_text(encoding="utf-8")
    answer = call(text)
    assert answer["result"] is not None
    assert any(line.endswith("GPU KV cache size: 476,016 tokens") for line in answer["log_lines"])  # sample.log
    # each is a line of the log, or its first MAX_QUOTE_CHARS characters with "… (N characters)" (inert_text.quote)
    assert all((line[:MAX_QUOTE_CHARS] if len(line) > MAX_QUOTE_CHARS else line) in text for line in answer["log_lines"])


# ---------------------------------------------------------------------------
# kvcalc log: the same rule
# ---------------------------------------------------------------------------


def _cli(argv: list[str], stdin: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdout=out, stderr=io.StringIO(), stdin=io.StringIO(stdin))
    return code, out.getvalue()


@pytest.mark.parametrize("lang", LANGS)
def test_kvcalc_log_asks_for_model_and_gpu_in_one_line(lang: str) -> None:
    two_lines = _log(RTX4090, lines=2)
    code, out = _cli(["log", "-", "--lang", lang], two_lines)
    assert code == 1                                                  # vLLM refused to start
    assert out.rstrip().splitlines()[-1] == strings.t(lang, "cli.ask.model_gpu")
    assert out.count(strings.t(lang, "cli.ask.model_gpu")) == 1
    assert strings.t(lang, "cli.log.not_recomputed") not in out
    assert strings.t(lang, "note.model_not_planned") not in out and strings.t(lang, "note.choose_model") not in out
    code, out = _cli(["log", "-", "--lang", lang, "--model", "Qwen/Qwen3-14B"], two_lines)
    assert out.rstrip().splitlines()[-1] == strings.t(lang, "cli.ask.gpu")
    code, out = _cli(["log", "-", "--lang", lang, "--json"], two_lines)
    assert json.loads(out)["plan"] is None and "model" not in json.loads(out)["inputs"]


# ---------------------------------------------------------------------------
# An empty field is vLLM's default for the release and GPU in force
# ---------------------------------------------------------------------------


def test_defaults_are_vllms_for_the_release_and_gpu() -> None:
    def plan(inputs: dict[str, str]) -> dict:
        answer = json.loads(compute(json.dumps({"action": "plan", "inputs": inputs})))
        assert answer["ok"], answer
        return answer

    # vLLM 0.19.0 on an H100 prints them (sample.log): "Defaulting max_num_batched_tokens to 8192 for
    # OPENAI_API_SERVER usage context", "Defaulting max_num_seqs to 1024 ..."; Qwen3-8B's config.json has
    # max_position_embeddings 40960; gpu_memory_utilization 0.9 before #38284
    h100 = plan({"model": "Qwen/Qwen3-8B", "gpu": "H100-80GB", "vllm_version": "0.19.0"})["defaults"]
    assert (h100["max_num_batched_tokens"], h100["max_num_seqs"], h100["max_model_len"]) == ("8192", "1024", "40960")
    assert h100["gpu_memory_utilization"] == "0.9" and h100["block_size"] == "16"
    # below 70 GiB of device memory the same rule gives 2048 and 256 (vllm/engine/arg_utils.py)
    rtx = plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "vllm_version": "0.19.0"})["defaults"]
    assert (rtx["max_num_batched_tokens"], rtx["max_num_seqs"]) == ("2048", "256")
    # a field the reader set has no default to show
    assert "max_num_seqs" not in plan({"model": "Qwen/Qwen3-8B", "gpu": "RTX-4090", "max_num_seqs": "8"})["defaults"]
    # a log's stated values are not defaults; what it leaves out is
    assert call(SAMPLE_LOG.read_text(encoding="utf-8"))["defaults"] == {"block_size": "16"}
