"""``kvcalc plan`` and ``kvcalc log``: exit 0 fits, 1 does not fit, 2 bad input.

Flag names mirror vLLM's engine arguments. The core never prints; this module
is the only place that writes to stdout/stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NoReturn, TextIO

from .analysis import analyze
from .errors import CalcError
from .inputs import scenario_from_inputs
from .kv_spec import KV_CACHE_DTYPES, MAMBA_DTYPES, MambaCacheMode
from .report import build_report, error_message, recommendation_dict, result_dict

__all__ = ["main", "entry"]

_FAILED_DIAGNOSES = {"kv_cache_too_small", "no_memory_for_cache_blocks", "free_memory_below_utilization", "cuda_out_of_memory"}


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="kvcalc", description="vLLM's KV-cache start-up arithmetic, to the block.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    pl = sub.add_parser("plan", help="size one deployment")
    m = pl.add_mutually_exclusive_group(required=True)
    m.add_argument("--model", help="catalog model id, e.g. Qwen/Qwen3-8B")
    m.add_argument("--config", help="a config.json file, or a directory holding one")
    g = pl.add_mutually_exclusive_group()
    g.add_argument("--gpu", help="catalog GPU id, e.g. RTX-4090, H100-80GB")
    g.add_argument("--gpu-memory-gib", help="total memory of one GPU as the driver reports it")
    for flag in ("--tensor-parallel-size", "--pipeline-parallel-size", "--max-model-len", "--max-num-seqs",
                 "--max-num-batched-tokens", "--gpu-memory-utilization", "--kv-cache-memory-bytes", "--block-size",
                 "--num-gpu-blocks-override", "--vllm-version", "--available-kv-bytes", "--available-kv-gib",
                 "--weights-gib", "--activation-gib", "--non-torch-gib", "--cudagraph-gib"):
        pl.add_argument(flag)
    pl.add_argument("--kv-cache-dtype", choices=KV_CACHE_DTYPES)
    pl.add_argument("--disable-hybrid-kv-cache-manager", action="store_true")
    pl.add_argument("--no-async-scheduling", action="store_true")
    pl.add_argument("--enforce-eager", action="store_true")
    pl.add_argument("--enable-prefix-caching", action=argparse.BooleanOptionalAction, default=None)
    pl.add_argument("--mamba-cache-mode", choices=tuple(MambaCacheMode))
    pl.add_argument("--mamba-ssm-cache-dtype", choices=MAMBA_DTYPES)
    pl.add_argument("--lang", default="en", choices=("en", "es", "zh"))
    pl.add_argument("--json", action="store_true", help="print one JSON object")
    lg = sub.add_parser("log", help="read a pasted vLLM log")
    lg.add_argument("path", nargs="?", default="-", help="log file, or - for standard input")
    lg.add_argument("--lang", default="en", choices=("en", "es", "zh"))
    lg.add_argument("--json", action="store_true")
    return p


def _read_config(path: str) -> str:
    p = Path(path)
    if p.is_dir():
        p = p / "config.json"
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CalcError("config_not_json", f"{p} is not UTF-8 text", field="config", line=1, column=1) from None
    except OSError as exc:
        raise CalcError("config_unreadable", f"cannot read {p}: {exc.strerror or exc}", field="config", value=str(p)) from None
    if not text.strip():
        raise CalcError("config_not_json", f"{p} is empty", field="config", line=1, column=1)
    return text


def _table(rows: list[tuple[str, str]]) -> str:
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"  {k.ljust(width)}  {v}" for k, v in rows)


def _text_report(report: dict[str, Any]) -> str:
    out = [report["verdict"]["title"], report["verdict"]["summary"], ""]
    out.append(_table([(f["label"], str(f["value"])) for f in report["figures"]]))
    out += ["", "vLLM:"] + [f"  {line}" for line in report["vllm_lines"]]
    if report["recommendations"]:
        out.append("")
        for i, r in enumerate(report["recommendations"], 1):
            out.append(f"{i}. {r['title']}")
            out.append(f"   {r['detail']}")
            for fig in r["figures"]:
                out.append(f"   {fig['value']}")
            out.append("   " + r["serve_command"].replace("\n", "\n   "))
    out += ["", report["serve_command"], ""] + [f"* {n}" for n in report["notes"]]
    return "\n".join(out)


def _plan(args: argparse.Namespace, out: TextIO) -> int:
    keys = ("model", "gpu", "gpu_memory_gib", "tensor_parallel_size", "pipeline_parallel_size", "max_model_len",
            "max_num_seqs", "max_num_batched_tokens", "kv_cache_dtype", "gpu_memory_utilization",
            "kv_cache_memory_bytes", "block_size", "num_gpu_blocks_override", "vllm_version", "available_kv_bytes",
            "available_kv_gib", "weights_gib", "activation_gib", "non_torch_gib", "cudagraph_gib")
    inputs: dict[str, object] = {k: getattr(args, k) for k in keys if getattr(args, k) is not None}
    if args.config:
        inputs["config"] = _read_config(args.config)
    for flag in ("disable_hybrid_kv_cache_manager", "no_async_scheduling", "enforce_eager"):
        if getattr(args, flag):
            inputs[flag] = True
    if args.enable_prefix_caching is not None:  # --no-enable-prefix-caching must survive as "false"
        inputs["enable_prefix_caching"] = "true" if args.enable_prefix_caching else "false"
    for key in ("mamba_cache_mode", "mamba_ssm_cache_dtype"):
        if getattr(args, key) is not None:
            inputs[key] = getattr(args, key)
    a = analyze(scenario_from_inputs(inputs))
    if args.json:
        out.write(json.dumps(result_dict(a), ensure_ascii=False) + "\n")
    else:
        out.write(_text_report(build_report(args.lang, a)) + "\n")
    return 0 if a.verdict.fits else 1


def _log(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    from .diagnose import diagnose  # only `kvcalc log` needs the log reader

    if args.path == "-":
        text = stdin.read()
    else:
        try:
            raw = Path(args.path).read_bytes()
        except OSError as exc:
            raise CalcError("log_unreadable", f"cannot read {args.path}: {exc.strerror or exc}", field="log",
                            value=args.path) from None
        text = raw.decode("utf-8", errors="replace")
    d = diagnose(text)
    recs = [recommendation_dict(r) for r in d.recommendations]
    payload = {"diagnosis": d.reading.diagnosis, "facts": dict(d.reading.facts), "inputs": d.inputs,
               "recommendations": recs,
               "plan": result_dict(d.analysis) if d.analysis is not None else None}
    if args.json:
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
    else:
        lines = [f"diagnosis: {d.reading.diagnosis}"]
        lines.append(_table([(k, str(v)) for k, v in d.reading.facts.items()]) if d.reading.facts else "  (no facts found)")
        if d.analysis is not None:
            lines += ["", "recomputed:"] + [f"  {x}" for x in d.analysis.verdict.vllm_lines]
        elif d.replan_error is not None:
            lines += ["", f"not recomputed: {error_message(args.lang, d.replan_error)}"]
        for i, r in enumerate(recs, 1):
            lines.append(f"{i}. {r['code']} {r['settings']} (see #{r['anchor']})")
        out.write("\n".join(lines) + "\n")
    return 1 if d.reading.diagnosis in _FAILED_DIAGNOSES else 0


def main(argv: list[str] | None = None, *, stdout: TextIO | None = None, stderr: TextIO | None = None,
         stdin: TextIO | None = None) -> int:
    out, err, inp = stdout or sys.stdout, stderr or sys.stderr, stdin or sys.stdin
    lang = "en"
    try:
        args = _parser().parse_args(argv)
        lang = getattr(args, "lang", "en")
        if args.command == "plan":
            return _plan(args, out)
        return _log(args, out, inp)
    except _UsageError as exc:
        err.write(f"kvcalc: error: {exc}\n")
        return 2
    except CalcError as exc:
        err.write(f"kvcalc: error: {error_message(lang, exc)}\n")
        return 2
    except RecursionError:
        err.write("kvcalc: error: input nested too deeply\n")
        return 2


def entry() -> None:
    raise SystemExit(main())
