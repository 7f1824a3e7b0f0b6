"""``kvcalc plan``, ``kvcalc log``, ``kvcalc models``, ``kvcalc gpus``: exit 0 fits, 1 does not fit,
2 bad input.

Flag names mirror vLLM's engine arguments. The core never prints; this module
is the only place that writes to stdout/stderr.

Reads are bounded and regular: ``--config`` and the log are regular files or
standard input (``-``); a device, FIFO or folder is refused after ``os.stat``,
before it is opened (and it is opened with ``O_NONBLOCK``, so a FIFO swapped in
meanwhile cannot block); at most limit + 1 bytes are read. A log longer than
5 MB keeps its last 5 MB, and says so on stderr. Standard input is decoded with
``errors="replace"``; a closed standard input is bad input (exit 2).

Everything written passes through one boundary, :class:`_Face`: controls from a
pasted log, a config or argv are written as escapes (``kvcalc.inert_text.inert``),
every JSON string is inert and JSON output is strict (``allow_nan=False``); a
stream that cannot encode a character (``PYTHONIOENCODING=ascii``) gets its
backslash escape; a closed or full standard output ends with exit 2 and one line
on standard error; a closed standard error still exits 2.
"""

from __future__ import annotations

import argparse
import gc
import os
import stat
import sys
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, BinaryIO, NoReturn, TextIO

from ..errors import CalcError
from ..inert_text import MAX_ANSWER_CHARS, MAX_QUOTE_CHARS, inert, inert_json, quote
from ..limits import MAX_CONFIG_BYTES, MAX_LOG_BYTES, shorten
from ..strings import t

# The pipeline (analysis, advice, report, the JSON boundary) is imported by the command that runs
# it, not here: `kvcalc --help`, a usage error and `kvcalc models` start without it (CONTRIBUTING.md
# §1.1, faces).

if TYPE_CHECKING:
    from ..logs.diagnose import Diagnosis

__all__ = ["main", "entry"]

_FAILED_DIAGNOSES = {
    "kv_cache_too_small",
    "no_memory_for_cache_blocks",
    "free_memory_below_utilization",
    "cuda_out_of_memory",
    "engine_failed",
    "load_out_of_memory",
    "mamba_blocks_below_max_num_seqs",
}


class _UsageError(Exception):
    pass


class _OutputFailed(Exception):
    """Standard output is closed or cannot be written (``/dev/full``)."""


class _Face:
    """The CLI's one output boundary: every text it writes, result or error line, passes here.

    Text is made inert (``inert_text.inert``: ESC, CR, BEL, NUL, C1 and bidi controls as escapes);
    a character the stream's encoding lacks is written as its backslash escape; a result that
    cannot be written raises :class:`_OutputFailed` (a closed pipe stays ``BrokenPipeError``, which
    ``entry`` treats as ``| head``); an error line that cannot be written is dropped.
    """

    def __init__(self, out: TextIO | None, err: TextIO | None) -> None:
        self.out, self.err = out, err

    @staticmethod
    def _put(stream: TextIO, text: str) -> None:
        try:
            stream.write(text)
        except UnicodeEncodeError:
            encoding = getattr(stream, "encoding", None) or "ascii"
            stream.write(text.encode(encoding, "backslashreplace").decode(encoding, "replace"))
        stream.flush()

    def write(self, text: str) -> None:
        if self.out is None:
            raise _OutputFailed("standard output is closed")
        try:
            self._put(self.out, inert(text))
        except BrokenPipeError:
            raise
        except (OSError, ValueError) as exc:  # ENOSPC, EBADF; ValueError: a closed file object
            raise _OutputFailed(
                getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            ) from None

    def line(self, text: str) -> None:
        """One line on standard error (``kvcalc: error: …``); never raises."""
        if self.err is None:
            return
        try:
            self._put(self.err, quote(" ".join(text.split()), 4 * MAX_QUOTE_CHARS) + "\n")
        except (OSError, ValueError):
            pass


@lru_cache(maxsize=1)
def _help_width() -> int:
    """argparse's own default width, asked once: it builds a formatter per argument (to check its
    metavar), and each asks the terminal's size again (a third of building the parser)."""
    import shutil

    return shutil.get_terminal_size().columns - 2


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, *args: Any, **kwargs: Any) -> None:
        if not args[2:] and kwargs.get("width") is None:
            kwargs["width"] = _help_width()
        super().__init__(prog, *args, **kwargs)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line, no usage dump
        raise _UsageError(message)


_COMMANDS = {
    "plan": "size one deployment",
    "log": "read a pasted vLLM log",
    "models": "list the catalog's models",
    "gpus": "list the catalog's GPUs",
}


def _parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser, with the options of the command ``argv`` names only: the others' options are
    never read (the top level takes no option but ``-h``, so the first word that names a command is
    the command), and building every subparser's 70 options was half of ``kvcalc --help``'s time."""
    wanted = next((word for word in argv if word in _COMMANDS), None)
    p = _Parser(
        prog="kvcalc",
        description="vLLM's KV-cache start-up arithmetic, to the block.",
        epilog=(
            "exit status: 0 fits, 1 does not fit, 2 bad input; a borderline verdict (JSON "
            '"verdict": "borderline") exits with the answer at the central estimate. kvcalc log: '
            "1 when the log "
            "ends in a failure, else 0."
        ),
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, what in _COMMANDS.items():
        command = sub.add_parser(
            name, help=what, description=_LOG_DESCRIPTION if name == "log" else None
        )
        if name == wanted:
            _OPTIONS[name](command)
    return p


_LOG_DESCRIPTION = (
    "Read a vLLM log (or a pasted vllm serve / docker run command, a compose command: list, an "
    "LLM(...) call), diagnose it and recompute its plan. The plan flags below supply what the log "
    "does not show, and each flag given is the reader's correction: it wins over the value the "
    "log states."
)


def _plan_options(pl: argparse.ArgumentParser) -> None:
    m = pl.add_mutually_exclusive_group(required=True)
    m.add_argument("--model", help="catalog model id, e.g. Qwen/Qwen3-8B")
    m.add_argument("--config", help="a config.json file, or a directory holding one")
    _add_gpu_and_settings(pl, gpu_help="catalog GPU id, e.g. RTX-4090, H100-80GB")
    pl.add_argument("--lang", default="en", choices=("en", "es", "zh"))
    pl.add_argument("--json", action="store_true", help="print one JSON object")


def _log_options(lg: argparse.ArgumentParser) -> None:
    lg.add_argument("path", nargs="?", default="-", help="log file, or - for standard input")
    lg.add_argument("--lang", default="en", choices=("en", "es", "zh"))
    lg.add_argument("--json", action="store_true")
    lm = lg.add_mutually_exclusive_group()
    lm.add_argument("--model", help="the model the log serves (wins over the model the log names)")
    lm.add_argument("--config", help="its config.json, when the model is not in the catalog")
    _add_gpu_and_settings(lg, gpu_help="catalog GPU id, when the log does not name it")


def _catalog_options(c: argparse.ArgumentParser) -> None:
    c.add_argument("--json", action="store_true", help="print one JSON array")


_OPTIONS = {
    "plan": _plan_options,
    "log": _log_options,
    "models": _catalog_options,
    "gpus": _catalog_options,
}


def _add_gpu_and_settings(p: argparse.ArgumentParser, *, gpu_help: str) -> None:
    """The GPU and the deployment settings, the same for ``plan`` and ``log`` (for ``log``, each one
    given overrides what the log states)."""
    from ..deployment import (  # the choices: the model and deployment types, not for --help
        INTERCONNECTS,
        MODEL_DTYPES,
    )
    from ..kv.kv_spec import KV_CACHE_DTYPES, MAMBA_DTYPES, MambaCacheMode

    g = p.add_mutually_exclusive_group()
    g.add_argument("--gpu", help=gpu_help)
    g.add_argument("--gpu-memory-gib", help="total memory of one GPU as the driver reports it")
    for flag in (
        "--tensor-parallel-size",
        "--pipeline-parallel-size",
        "--decode-context-parallel-size",
        "--max-model-len",
        "--max-num-seqs",
        "--max-num-batched-tokens",
        "--gpu-memory-utilization",
        "--kv-cache-memory-bytes",
        "--block-size",
        "--num-gpu-blocks-override",
        "--vllm-version",
        "--available-kv-bytes",
        "--available-kv-gib",
        "--weights-gib",
        "--activation-gib",
        "--non-torch-gib",
        "--cudagraph-gib",
        "--cpu-offload-gb",
        "--limit-mm-per-prompt",
        "--speculative-config",
        "--max-loras",
        "--max-lora-rank",
        "--max-cpu-loras",
        "--data-parallel-size",
    ):
        p.add_argument(flag)
    p.add_argument("--dtype", choices=MODEL_DTYPES)
    p.add_argument("--kv-cache-dtype", choices=KV_CACHE_DTYPES)
    p.add_argument("--disable-hybrid-kv-cache-manager", action="store_true")
    p.add_argument("--no-async-scheduling", action="store_true")
    p.add_argument("--enforce-eager", action="store_true")
    p.add_argument("--skip-mm-profiling", action="store_true")
    p.add_argument("--calculate-kv-scales", action="store_true")
    p.add_argument("--enable-lora", action="store_true")
    p.add_argument("--enable-expert-parallel", action="store_true")
    p.add_argument(
        "--draft-config",
        help="the EAGLE-3 drafter's config.json (file, folder or -), "
        "for --speculative-config method eagle3",
    )
    p.add_argument("--enable-prefix-caching", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--mamba-cache-mode", choices=tuple(MambaCacheMode))
    p.add_argument("--mamba-ssm-cache-dtype", choices=MAMBA_DTYPES)
    p.add_argument(
        "--interconnect",
        choices=INTERCONNECTS,
        help=(
            "how the GPUs are joined (sizes non-torch memory at TP > 1); default: the catalog "
            "GPU's, or for --gpu-memory-gib nvswitch with a band covering the others"
        ),
    )


_STDIN_CAP_BYTES = 64 * MAX_LOG_BYTES  # a stream longer than this is refused, not read for ever
_CHUNK = 1 << 20


def _not_regular(path: str, field: str) -> CalcError:
    return CalcError(
        "not_a_regular_file",
        f"{shorten(path)} is not a regular file (a device, a FIFO or a folder); "
        "give a file, or - for standard input",
        field=field,
        value=shorten(path),
    )


def _open_regular(path: str, field: str) -> tuple[int, int]:
    """``(fd, size)`` of a regular file: checked with ``os.stat`` before opening (a device or
    FIFO is never opened), opened non-blocking, and checked again on the open descriptor."""
    unreadable = "config_unreadable" if field == "config" else "log_unreadable"
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(path, field)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise CalcError(
            unreadable,
            f"cannot read {shorten(path)}: {exc.strerror or exc}",
            field=field,
            value=shorten(path),
        ) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):  # swapped for something else between stat and open
        os.close(fd)
        raise _not_regular(path, field)
    return fd, st.st_size


def _read_fd(fd: int, limit: int) -> bytes:
    parts, total = [], 0
    while total < limit:
        chunk = os.read(fd, min(_CHUNK, limit - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    return b"".join(parts)


def _read_file(path: str, *, limit: int, field: str, keep_tail: bool) -> tuple[bytes, bool]:
    """At most ``limit`` bytes of a regular file, plus whether it was longer: the head plus one byte
    (to detect the excess), or, with ``keep_tail``, the last ``limit`` bytes."""
    fd, size = _open_regular(path, field)
    try:
        if keep_tail and size > limit:
            os.lseek(fd, size - limit, os.SEEK_SET)
            return _read_fd(fd, limit), True
        data = _read_fd(fd, limit + 1)
        return data[:limit], len(data) > limit
    finally:
        os.close(fd)


def _read_stdin(stdin: TextIO | None, *, limit: int, field: str) -> tuple[str, bool]:
    """Standard input: a pipe, a terminal or a redirected regular file (a redirected device is
    refused); a closed one is bad input. Keeps the last ``limit`` characters of a stream (bounded
    memory); refuses one over 320 MB."""
    unreadable = CalcError(
        "config_unreadable" if field == "config" else "log_unreadable",
        "cannot read standard input: it is closed",
        field=field,
        value="- (standard input)",
    )
    if stdin is None or getattr(
        stdin, "closed", False
    ):  # `kvcalc log - <&-`: Python gives no sys.stdin
        raise unreadable
    try:
        return _read_open_stdin(stdin, limit=limit, field=field)
    except (OSError, ValueError) as exc:  # EBADF, or a file object closed underneath
        if isinstance(exc, CalcError):
            raise
        raise unreadable from None


def _read_open_stdin(stdin: TextIO, *, limit: int, field: str) -> tuple[str, bool]:
    buffer: BinaryIO | None = getattr(stdin, "buffer", None)
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):
        fd = None
    if fd is not None:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(fd)):
            raise _not_regular("standard input", field)
    reader = buffer.read if buffer is not None else stdin.read
    kept: list[bytes | str] = []
    kept_len = total = 0
    truncated = False
    while True:
        chunk = reader(_CHUNK)
        if not chunk:
            break
        total += len(chunk)
        if total > _STDIN_CAP_BYTES:
            raise CalcError(
                "log_too_large",
                f"standard input is longer than {_STDIN_CAP_BYTES} bytes",
                field=field,
                limit=_STDIN_CAP_BYTES,
            )
        kept.append(chunk)
        kept_len += len(chunk)
        while kept_len - len(kept[0]) >= limit + 1:  # drop whole chunks that lie before the tail
            kept_len -= len(kept.pop(0))
            truncated = True
    joined = b"".join(kept) if buffer is not None else "".join(kept)  # type: ignore[arg-type]
    if len(joined) > limit:
        joined, truncated = joined[-limit:], True
    text = joined.decode("utf-8", errors="replace") if isinstance(joined, bytes) else joined
    return text, truncated


def _read_config(path: str, stdin: TextIO | None) -> str:
    if path == "-":
        text, over = _read_stdin(stdin, limit=MAX_CONFIG_BYTES, field="config")
    else:
        if os.path.isdir(path):
            path = os.path.join(path, "config.json")
        data, over = _read_file(path, limit=MAX_CONFIG_BYTES, field="config", keep_tail=False)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise CalcError(
                "config_not_json",
                f"{shorten(path)} is not UTF-8 text",
                field="config",
                line=1,
                column=1,
            ) from None
    if over:
        raise CalcError(
            "config_too_large",
            "config.json is larger than 2 MB; paste only config.json",
            field="config",
        )
    if not text.strip():
        raise CalcError(
            "config_not_json", f"{shorten(path)} is empty", field="config", line=1, column=1
        )
    return text


def _cells(text: str) -> int:
    """Terminal columns: a wide (CJK) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _table(rows: Sequence[tuple[str, ...]]) -> str:
    """Aligned columns (in terminal cells, so Chinese labels line up too); the last one may be
    empty."""
    widths = [max(_cells(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join(
        (
            "  "
            + "".join(c + " " * (w - _cells(c) + 2) for c, w in zip(r, widths, strict=False))
            + r[-1]
        ).rstrip()
        for r in rows
    )


def _text_report(report: dict[str, Any]) -> str:
    """The view model as plain text: verdict, figures, vLLM's lines, the fixes with their
    commands."""
    out = [report["verdict"]["title"], report["verdict"]["summary"], ""]
    if report["figures"]:
        out.append(_table([(f["label"], str(f["value"])) for f in report["figures"]]))
    if report["vllm_lines"]:
        out += ["", "vLLM:"] + [f"  {line}" for line in report["vllm_lines"]]
    if report["recommendations"]:
        out.append("")
        for i, r in enumerate(report["recommendations"], 1):
            out.append(f"{i}. {r['title']}")
            out.append(f"   {r['detail']}")
            for fig in r["figures"]:
                out.append(f"   {fig['value']}")
            out.append(f"   (#{r['anchor']})")
            if r["serve_command"]:
                out.append("   " + r["serve_command"].replace("\n", "\n   "))
    if report["serve_command"]:
        out += ["", report["serve_command_label"] + ":", report["serve_command"]]
    if report["notes"]:
        out += [""] + [f"* {n}" for n in report["notes"]]
    return "\n".join(out)


#: The inputs a file path names: the CLI sends the text of the file (``-``: standard input).
_FILE_KEYS = frozenset({"config", "draft_config"})
#: A tri-state flag: ``--no-enable-prefix-caching`` must survive as "false".
_TRI_STATE_KEYS = frozenset({"enable_prefix_caching"})


def _form(args: argparse.Namespace, stdin: TextIO | None) -> dict[str, object]:
    """The flags given, as the form's inputs (snake_case, as the calculator's URL names them),
    in the form's order (``inputs.INPUT_KEYS``), so the CLI and the page send the same request."""
    from ..inputs import INPUT_KEYS  # not at the top: `kvcalc --help` starts without it

    inputs: dict[str, object] = {}
    for key in INPUT_KEYS:
        value = getattr(args, key, None)
        if value is None:
            continue
        if key in _TRI_STATE_KEYS:
            inputs[key] = "true" if value else "false"
        elif key in _FILE_KEYS:
            if value:
                inputs[key] = _read_config(str(value), stdin)
        elif value is not False:  # a store_true flag left off is not sent
            inputs[key] = value
    return inputs


def _plan(args: argparse.Namespace, face: _Face, stdin: TextIO | None) -> int:
    from ..analysis import analyze
    from ..inputs import scenario_from_inputs
    from .report import build_report, result_dict

    a = analyze(scenario_from_inputs(_form(args, stdin)))
    if args.json:
        face.write(_json(result_dict(a)) + "\n")
    else:
        face.write(_text_report(build_report(args.lang, a, with_charts=False)) + "\n")
    return 0 if a.verdict.fits else 1


def _json(obj: object) -> str:
    """Strict JSON, every string inert, at most ``MAX_ANSWER_CHARS`` (the page's bound)."""
    try:
        text = inert_json(obj)
    except ValueError:
        raise CalcError(
            "unrepresentable", "the result holds a non-finite number", field=None
        ) from None
    if len(text) > MAX_ANSWER_CHARS:
        raise CalcError(
            "answer_too_large",
            f"the answer is longer than {MAX_ANSWER_CHARS} characters",
            field=None,
            limit=f"{MAX_ANSWER_CHARS:,}",
        )
    return text


def _log(args: argparse.Namespace, face: _Face, stdin: TextIO | None) -> int:
    from ..logs.diagnose import diagnose  # only `kvcalc log` needs the log reader
    from ..logs.log_mismatch import mismatch_dicts
    from .report import recommendation_dict, result_dict
    from .web import quoted_facts

    if args.path == "-":
        text, truncated = _read_stdin(stdin, limit=MAX_LOG_BYTES, field="log")
    else:
        data, truncated = _read_file(args.path, limit=MAX_LOG_BYTES, field="log", keep_tail=True)
        text = data.decode("utf-8", errors="replace")
    if truncated:
        cut = text.find("\n", 0, 4096)  # the kept part starts mid-line: from the next line on
        text = text[cut + 1 :] if cut >= 0 else text
        face.line(f"kvcalc: note: {t(args.lang, 'note.log_truncated')}")
    d = diagnose(
        text, corrections=_form(args, stdin)
    )  # every flag given is the reader's correction: it wins
    payload = {
        "diagnosis": d.reading.diagnosis,
        "facts": quoted_facts(d.reading.facts, args.lang),
        "inputs": d.inputs,
        "recommendations": [recommendation_dict(r) for r in d.recommendations],
        "plan": result_dict(d.analysis) if d.analysis is not None else None,
        "mismatches": mismatch_dicts(d.mismatches),
    }
    if args.json:
        face.write(_json(payload) + "\n")
    else:
        face.write(_log_text(args.lang, d) + "\n")
    if d.reading.diagnosis == "pre_flight":  # a command not yet run: exits as `kvcalc plan` does
        return 0 if d.analysis is None or d.analysis.verdict.fits else 1
    return 1 if d.reading.diagnosis in _FAILED_DIAGNOSES else 0


def _log_text(lang: str, d: Diagnosis) -> str:
    """``kvcalc log``: the diagnosis in words, the facts labelled with units (and the flag of each
    engine argument), then the recomputed plan or what the log alone answers."""
    from ..logs.logfacts import fact_rows  # only `kvcalc log` needs the log reader
    from .report import build_log_report, build_report, with_capacity_fit_notes
    from .web import localized_error, quoted_facts

    lines = [f"{t(lang, 'cli.log.diagnosis')}: {t(lang, d.title_key)}", ""]
    if d.reading.facts:
        rows = [
            (r.label, r.value, r.flag) for r in fact_rows(lang, quoted_facts(d.reading.facts, lang))
        ]
        lines += [t(lang, "cli.log.facts") + ":", _table(rows)]
    else:
        lines.append(t(lang, "cli.log.no_facts"))
    report = (
        with_capacity_fit_notes(build_report(lang, d.analysis, with_charts=False), lang, d)
        if d.analysis is not None
        else build_log_report(lang, d)
    )
    if report is not None:
        lines += ["", _text_report(report)]
    if (
        d.analysis is None and d.missing
    ):  # no model (or GPU) from the log or the flags: ask, never plan a default
        lines += ["", t(lang, "cli.ask." + "_".join(d.missing))]
    elif d.analysis is None and d.replan_error is not None:
        lines += [
            "",
            f"{t(lang, 'cli.log.not_recomputed')}: "
            f"{localized_error(lang, d.replan_error)['message']}",
        ]
    return "\n".join(lines)


def _catalog(args: argparse.Namespace, face: _Face) -> int:
    """``kvcalc models`` / ``kvcalc gpus``: the ids ``--model`` and ``--gpu`` accept."""
    from .. import catalog

    rows: list[dict[str, object]]
    cells: list[tuple[str, ...]]
    if args.command == "models":
        models = catalog.models()
        rows = [
            {"id": m.id, "family": m.family, "num_parameters": m.num_parameters} for m in models
        ]
        head: tuple[str, ...] = ("id", "family", "parameters")
        cells = [
            (m.id, m.family, f"{m.num_parameters / 1e9:.1f}B" if m.num_parameters else "-")
            for m in models
        ]
    else:
        gpus = catalog.gpus()
        rows = [
            {
                "id": g.id,
                "name": g.name,
                "vendor": g.vendor,
                "segment": g.segment,
                "memory_bytes": g.memory_bytes,
            }
            for g in gpus
        ]
        head = ("id", "name", "memory")
        cells = [(g.id, g.name, f"{g.memory_bytes / (1 << 30):.2f} GiB") for g in gpus]
    if args.json:
        face.write(_json(rows) + "\n")
        return 0
    widths = [max(len(str(c[i])) for c in (head, *cells)) for i in range(len(head))]
    face.write(
        "".join(
            "  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() + "\n"
            for row in (head, *cells)
        )
    )
    return 0


def main(
    argv: list[str] | None = None,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    stdin: TextIO | None = None,
) -> int:
    face = _Face(stdout or sys.stdout, stderr or sys.stderr)
    inp = stdin or sys.stdin  # None when the process was started with standard input closed
    lang = "en"
    try:
        words = sys.argv[1:] if argv is None else argv
        args = _parser(words).parse_args(words)
        lang = getattr(args, "lang", "en")
        if args.command == "plan":
            return _plan(args, face, inp)
        if args.command in ("models", "gpus"):
            return _catalog(args, face)
        return _log(args, face, inp)
    except _UsageError as exc:
        face.line(f"kvcalc: error: {exc}")
    except CalcError as exc:
        from .web import localized_error

        face.line(f"kvcalc: error: {localized_error(lang, exc)['message']}")
    except _OutputFailed as exc:
        face.line(f"kvcalc: error: {t(lang, 'err.output_failed', value=str(exc))}")
    except RecursionError:
        face.line("kvcalc: error: input nested too deeply")
    except MemoryError:
        face.line("kvcalc: error: out of memory reading the input")
    return 2


def _quiet_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so the interpreter's own flush at exit finds nothing to
    fail on."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass


def entry() -> None:
    """The console script and ``python -m kvcalc``: one run, then the process ends.

    The cyclic collector stays off for that one run. Its passes walk the objects the imports made
    (the pipeline's classes and tables, alive until exit) and free nothing a run leaves behind:
    about 10 ms of a ~90 ms ``kvcalc plan`` (bench/RESULTS.md). ``gc.freeze()`` before exit spares
    the interpreter's last pass too. Reads are bounded (``limits``), so a run's memory is too.
    """
    gc.disable()
    try:
        code = main()
    except BrokenPipeError:  # `kvcalc gpus | head -1`
        _quiet_stdout()
        code = 0
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a full device: what is still buffered goes nowhere
            if stream is sys.stdout:
                _quiet_stdout()
    gc.freeze()
    raise SystemExit(code)
