"""The log reader reads every setting a pasted log shows: command lines in each form, line prefixes, worker
ranks, several starts and models, and the reader's own flags (which win over the log).

Every log text below is copied from the public issue named beside it (whole lines, as GitHub shows them), or is
a file vendored in tests/data/logs (sources.json).
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kvcalc.faces.cli import main
from kvcalc.faces.report import log_notes
from kvcalc.logs.diagnose import diagnose
from kvcalc.logs.logparse import parse_log

LOGS = Path(__file__).parent / "data" / "logs"


def _log(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


def _cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, stdin=io.StringIO(stdin))
    return code, out.getvalue(), err.getvalue()


# --- command forms ------------------------------------------------------------------------------------------

# https://github.com/vllm-project/vllm/issues/6746 (comment by pseudotensor, 2024-07-25): a docker run over
# backslash continuations; the flags after the image are vLLM's, those before it docker's.
DOCKER_RUN = """docker run -d --restart=always \\
    --runtime=nvidia \\
    --gpus '"device=0,1,2,3,4,5,6,7"' \\
    --shm-size=10.24gb \\
    -p 5020:5020 \\
        -e NCCL_IGNORE_DISABLED_P2P=1 \\
    -e HUGGING_FACE_HUB_TOKEN=$HUGGING_FACE_HUB_TOKEN \\
    -e VLLM_NCCL_SO_PATH=/usr/local/lib/python3.10/dist-packages/nvidia/nccl/lib/libnccl.so.2 \\
    -v /etc/passwd:/etc/passwd:ro \\
    -v /etc/group:/etc/group:ro \\
    -u `id -u`:`id -g` \\
    -v "${HOME}"/.cache:$HOME/.cache/ -v "${HOME}"/.config:$HOME/.config/   -v "${HOME}"/.triton:$HOME/.triton/  \\
    --network host \\
    --name llama31-405b \\
    vllm/vllm-openai:latest \\
        --port=5020 \\
        --host=0.0.0.0 \\
        --model=meta-llama/Meta-Llama-3.1-405B-Instruct-FP8 \\
        --seed 1234 \\
        --tensor-parallel-size=8 \\
        --max-log-len=100 \\
        --max_num_seqs=32 \\
        --gpu-memory-utilization 0.98 \\
        --enable_chunked_prefill=True \\
        --download-dir=$HOME/.cache/huggingface/hub &>> logs.vllm_server.llama31_405b2.txt
"""


def test_docker_run_command() -> None:
    facts = parse_log(DOCKER_RUN).facts
    assert facts == {"model": "meta-llama/Meta-Llama-3.1-405B-Instruct-FP8", "tensor_parallel_size": 8,
                     "max_num_seqs": 32, "gpu_memory_utilization": 0.98}


def test_python_module_command() -> None:
    # https://github.com/vllm-project/vllm/issues/17431 (the "error case" command)
    text = ("/home/python_vllm_env_085/bin/python -m vllm.entrypoints.openai.api_server     --model "
            "/root/yjpzmodel/basemodel/Qwen3-8B     --served-model-name Qwen3-8B --gpu-memory-utilization 0.4 "
            "--port 8001\n")
    assert parse_log(text).facts == {"model": "/root/yjpzmodel/basemodel/Qwen3-8B", "gpu_memory_utilization": 0.4}


def test_vllm_serve_with_the_model_after_the_flags_and_underscored_flags() -> None:
    # https://github.com/vllm-project/vllm/issues/13061: flags with underscores and '=', the model last
    text = ("vllm serve --trust-remote-code --tensor_parallel_size 2 --gpu_memory_utilization=0.98  "
            "/root/autodl-tmp/deepseek-ai/DeepSeek-R1-Distill-Qwen-14B\n")
    facts = parse_log(text).facts
    assert (facts["tensor_parallel_size"], facts["gpu_memory_utilization"]) == (2, 0.98)


def test_compose_command_quoted_in_a_comment() -> None:
    # https://github.com/vllm-project/vllm/issues/20305 (comment by polaroi8d, 2026-06-03): a docker compose file
    # quoted with "> " in a GitHub reply; the command: value is vLLM's arguments (the image's entrypoint).
    text = """> ```
>   vllm-gptoss20b:
>     image: docker.io/vllm/vllm-openai:v0.11.2
>     container_name: vllm-gptoss20b
>     command: --model openai/gpt-oss-20b --port 8000
>     volumes:
>       - ./.cache/huggingface:/root/.cache/huggingface
"""
    reading = parse_log(text)
    assert reading.facts == {"model": "openai/gpt-oss-20b"}
    assert reading.diagnosis == "pre_flight"


def test_compose_block_list_after_args() -> None:
    # https://github.com/vllm-project/vllm/issues/2248 (comment by bmcfeeters, 2024-03-26): an OpenShift serving
    # runtime's list of vLLM arguments. The six item lines and the image line are verbatim; the comment's excerpt
    # starts at the first item, so the "args:" key (where a Kubernetes container holds such a list) is added.
    text = """        args:
        - --gpu-memory-utilization
        - "0.98"
        - --enforce-eager
        - --max-model-len
        - "2048"
      image: docker.io/vllm/vllm-openai:v0.3.3
"""
    assert parse_log(text).facts == {"gpu_memory_utilization": 0.98, "enforce_eager": True, "max_model_len": 2048}


def test_compose_flow_list() -> None:
    # A flow list holds the same items as the block list above (#2248), JSON-quoted as compose writes them.
    text = 'command: ["--gpu-memory-utilization", "0.98", "--enforce-eager", "--max-model-len", "2048"]\n'
    assert parse_log(text).facts == {"gpu_memory_utilization": 0.98, "enforce_eager": True, "max_model_len": 2048}


def test_llm_python_calls() -> None:
    # https://github.com/vllm-project/vllm/issues/7028: one line, keyword arguments, a boolean
    one = ('llm = LLM(model="hiuman/Vistral-7B-Chat-quantize", quantization="AWQ",enforce_eager=True, '
           'gpu_memory_utilization=0.1)\n')
    assert parse_log(one).facts == {"model": "hiuman/Vistral-7B-Chat-quantize", "quantization": "AWQ",
                                    "enforce_eager": True, "gpu_memory_utilization": 0.1}
    # https://github.com/vllm-project/vllm/issues/2248 (comment by gorjanradevski, 2024-11-03): over several
    # lines, a variable as the model (not a literal: not read), pipeline_parallel_size=8
    many = """llm = LLM(
    model=model_name,
    tokenizer_mode="mistral",
    load_format="mistral",
    config_format="mistral",
    tensor_parallel_size=1,
    pipeline_parallel_size=8,
    dtype="float16",
    enable_chunked_prefill=False, # https://github.com/vllm-project/vllm/i
"""
    facts = parse_log(many).facts
    assert (facts["tensor_parallel_size"], facts["pipeline_parallel_size"], facts["dtype"]) == (1, 8, "float16")
    assert "model" not in facts  # a variable's name is not a model: the reader gives it with --model
    # https://github.com/vllm-project/vllm/pull/5714: the model as the first positional argument
    one_liner = "python -c 'from vllm import LLM;LLM(\"meta-llama/Meta-Llama-3-70B-Instruct\")'\n"
    assert parse_log(one_liner).facts == {"model": "meta-llama/Meta-Llama-3-70B-Instruct"}


# --- line prefixes --------------------------------------------------------------------------------------------

def test_container_prefix() -> None:
    # https://github.com/vllm-project/vllm/issues/10439: docker compose's "vllm-1  | " before every line
    text = ("vllm-1  | ERROR 11-18 18:07:28 engine.py:366] ValueError: No available memory for the cache blocks. "
            "Try increasing `gpu_memory_utilization` when initializing the engine.\n")
    assert parse_log(text).diagnosis == "no_memory_for_cache_blocks"


def test_quoted_error_with_a_bar_quote_and_no_parenthesis_before_the_needed_figure() -> None:
    # https://github.com/eugr/spark-vllm-docker/issues/396 (vLLM 0.29.1rc1): the error quoted with "▎ ", wrapped,
    # "23.25 GiB KV cache is needed" without the "(" older releases print, and "22.5" with one decimal.
    text = """▎ Available KV cache memory: 22.5 GiB
▎ ValueError: To serve at least one request with the model's max seq len (196608),
▎ 23.25 GiB KV cache is needed, which is larger than the available KV cache memory (22.5 GiB).
▎ Based on the available memory, the estimated maximum model length is 190272.
"""
    r = parse_log(text)
    assert r.diagnosis == "kv_cache_too_small"
    assert (r.facts["max_model_len"], r.facts["needed_kv_gib"], r.facts["available_kv_gib"],
            r.facts["estimated_max_model_len"]) == (196608, 23.25, 22.5, 190272)


def test_markdown_quote_of_a_wrapped_error() -> None:
    # The same public lines (#396) quoted the GitHub way, "> ": the continuation lines join across the quote.
    text = """> ValueError: To serve at least one request with the model's max seq len (196608),
> 23.25 GiB KV cache is needed, which is larger than the available KV cache memory (22.5 GiB).
> Based on the available memory, the estimated maximum model length is 190272.
"""
    r = parse_log(text)
    assert r.diagnosis == "kv_cache_too_small" and r.facts["estimated_max_model_len"] == 190272


def test_bracketed_ci_timestamp_and_worker_pp_tp_prefix() -> None:
    # https://github.com/vllm-project/vllm/issues/30813: Buildkite's "[2025-12-15T20:52:30Z] " before
    # "(Worker_PP1_TP1 pid=36155)": PP rank 1 and TP rank 1 say at least 2 and 2, no more.
    text = ("[2025-12-15T20:52:30Z] (Worker_PP1_TP1 pid=36155) ERROR 12-15 12:52:30 [multiproc_executor.py:824]     "
            "return forward_call(*args, **kwargs)\n")
    facts = parse_log(text).facts
    assert (facts["tensor_parallel_size_at_least"], facts["pipeline_parallel_size_at_least"]) == (2, 2)
    assert "tensor_parallel_size" not in facts


def test_timestamp_and_mpi_prefixes_are_removed() -> None:
    # The docker-logs timestamp and mpirun's tag in front of a vendored vLLM line (llmd_v019_llama31_8b_h100_tp1.log,
    # "Available KV cache memory: 58.11 GiB"): the line is read as without them.
    line = next(x for x in _log("llmd_v019_llama31_8b_h100_tp1.log").splitlines() if "Available KV cache memory" in x)
    for prefix in ("2025-04-22T01:47:59.123456789Z ", "[1,0]<stdout>:", "vllm-1  | > "):
        assert parse_log(prefix + line + "\n").facts["available_kv_gib"] == 58.11, prefix


# --- worker ranks ---------------------------------------------------------------------------------------------

def test_worker_ranks_give_lower_bounds() -> None:
    # tests/data/logs: TP 2 logs print "(Worker_TP1 pid=…)", the PP 2 log "(Worker_PP1 pid=…)"
    assert parse_log(_log("llmd_v019_llama31_8b_h100_tp2.log")).facts["tensor_parallel_size_at_least"] == 2
    assert parse_log(_log("llmd_v019_llama31_8b_h100_pp2.log")).facts["pipeline_parallel_size_at_least"] == 2
    # https://github.com/vllm-project/vllm/issues/15182: "(VllmWorker rank=5 pid=3073)", a rank over all GPUs
    text = ("(VllmWorker rank=5 pid=3073)   File \"/opt/venv/lib/python3.12/site-packages/vllm/v1/worker/"
            "gpu_worker.py\", line 136, in load_model\n")
    assert parse_log(text).facts["world_size_at_least"] == 6


def test_a_lower_bound_fills_tp_only_when_nothing_states_it_and_says_so() -> None:
    # v011_kimi_linear_48b_awq_2x3090_tp2.log names no TP size; its "(Worker_TP1 …)" lines give at least 2
    d = diagnose(_log("v011_kimi_linear_48b_awq_2x3090_tp2.log"))
    assert d.inputs["tensor_parallel_size"] == "2" and d.inferred == ("tensor_parallel_size",)
    assert any("at least 2" in n for n in log_notes("en", d))
    d = diagnose(_log("v011_kimi_linear_48b_awq_2x3090_tp2.log"), corrections={"tensor_parallel_size": "4"})
    assert d.inputs["tensor_parallel_size"] == "4" and d.inferred == ()


# --- several starts, several models ---------------------------------------------------------------------------

def test_two_starts_the_last_wins_and_two_models_are_named() -> None:
    # Two vendored public logs one after the other, as a log file appended by a restart would hold them:
    # Llama-3.1-8B at 8192 (llmd_v019_llama31_8b_h100_tp1.log), then Qwen2.5-7B with fp8 KV
    # (llmd_v019_qwen25_7b_kvfp8_h100.log). The facts are the second start's.
    first, second = _log("llmd_v019_llama31_8b_h100_tp1.log"), _log("llmd_v019_qwen25_7b_kvfp8_h100.log")
    alone = parse_log(second)
    r = parse_log(first + second)
    assert r.starts == 2
    assert r.facts == alone.facts
    assert r.models == ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct")
    for lang, text in (("en", "several models"), ("es", "varios modelos"), ("zh", "多个模型")):
        notes = log_notes(lang, diagnose(first + second))
        assert any(text in n and "Qwen/Qwen2.5-7B-Instruct" in n for n in notes), lang


# --- the reader's flags ---------------------------------------------------------------------------------------

def test_kvcalc_log_tensor_parallel_size_flag_fills_tp(tmp_path: Path) -> None:
    # https://github.com/vllm-project/vllm/issues/10439's error line names no TP; the flag supplies it
    path = tmp_path / "vllm.log"
    path.write_text("vllm-1  | ERROR 11-18 18:07:28 engine.py:366] ValueError: No available memory for the cache "
                    "blocks. Try increasing `gpu_memory_utilization` when initializing the engine.\n", encoding="utf-8")
    code, out, _ = _cli(["log", str(path), "--tensor-parallel-size", "2", "--json"])
    payload = json.loads(out)
    assert payload["inputs"]["tensor_parallel_size"] == "2" and code == 1


def test_an_explicit_flag_wins_over_the_log() -> None:
    # llmd_v019_llama31_8b_h100_tp1.log runs max_model_len 8192 at utilization 0.95: the reader's flags win
    text = _log("llmd_v019_llama31_8b_h100_tp1.log")
    _, out, _ = _cli(["log", "-", "--max-model-len", "4096", "--gpu-memory-utilization", "0.9", "--kv-cache-dtype",
                      "fp8", "--json"], stdin=text)
    payload = json.loads(out)
    assert payload["facts"]["max_model_len"] == 8192  # the facts stay what the log printed
    assert (payload["inputs"]["max_model_len"], payload["inputs"]["gpu_memory_utilization"],
            payload["inputs"]["kv_cache_dtype"]) == ("4096", "0.9", "fp8")
    assert payload["plan"]["max_model_len"] == 4096


def test_log_help_documents_that_flags_win(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["log", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "it wins over the value the log states" in out and "--tensor-parallel-size" in out


def test_pre_flight_command_is_planned(tmp_path: Path) -> None:
    # The vllm serve command of https://github.com/vllm-project/vllm/issues/13061, pasted alone with a GPU and the
    # catalog model it distils (Qwen2.5-14B): no line vLLM printed, so it is planned before it runs, and exits as
    # `kvcalc plan` does.
    text = ("vllm serve --trust-remote-code --tensor_parallel_size 2 --gpu_memory_utilization=0.98  "
            "/root/autodl-tmp/deepseek-ai/DeepSeek-R1-Distill-Qwen-14B\n")
    assert parse_log(text).diagnosis == "pre_flight"
    code, out, _ = _cli(["log", "-", "--model", "Qwen/Qwen2.5-14B", "--gpu", "RTX-4090",
                         "--json"], stdin=text)
    payload = json.loads(out)
    assert payload["diagnosis"] == "pre_flight" and payload["plan"]["tensor_parallel_size"] == 2
    assert code == (0 if payload["plan"]["fits"] else 1)
    for lang, text_ in (("en", "Pre-flight"), ("es", "Antes de arrancar"), ("zh", "启动前")):
        _, out, _ = _cli(["log", "-", "--model", "Qwen/Qwen2.5-14B", "--gpu", "RTX-4090",
                          "--lang", lang], stdin=text)
        assert text_ in out.splitlines()[0], lang


def test_a_command_and_the_args_naming_two_models_are_both_named() -> None:
    # llmd_v019_llama31_8b_h100_tp1.log echoes 'model': 'meta-llama/Llama-3.1-8B-Instruct'; the command of
    # https://github.com/vllm-project/vllm/issues/17431 pasted above it names a Qwen3-8B path: vLLM's echo wins,
    # and the note names both.
    command = ("/home/python_vllm_env_085/bin/python -m vllm.entrypoints.openai.api_server     --model "
               "/root/yjpzmodel/basemodel/Qwen3-8B     --served-model-name Qwen3-8B --gpu-memory-utilization 0.4 "
               "--port 8001\n")
    r = parse_log(command + _log("llmd_v019_llama31_8b_h100_tp1.log"))
    assert r.facts["model"] == "meta-llama/Llama-3.1-8B-Instruct" and r.starts == 1
    assert r.models == ("/root/yjpzmodel/basemodel/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct")


def test_vllms_own_warning_about_vllm_serve_is_not_a_command() -> None:
    # v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log: "WARNING 05-05 07:16:13 [argparse_utils.py:191]
    # With `vllm serve`, you should provide the model as a positional argument … instead of via the `--model`
    # option." once gave the model "option."
    line = _line_of("v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log", "With `vllm serve`")
    assert parse_log(line).facts == {}
    assert parse_log(_log("v0192rc1dev134_qwen36_35b_a3b_gb10_util095_131k_lmonly.log")).models == (
        "Qwen/Qwen3.6-35B-A3B",)


def _line_of(name: str, text: str) -> str:
    return next(x for x in _log(name).splitlines() if text in x) + "\n"
