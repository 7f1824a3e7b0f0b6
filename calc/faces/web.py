"""The browser's one entry point: JSON in, JSON out, never an exception.

The calculator's Web Worker calls ``compute`` in Pyodide; the build-time macro
calls it in CPython for the preset shown before Pyodide is ready.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ..analysis import analyze
from ..errors import CalcError
from ..inert_text import MAX_ANSWER_CHARS, inert_json, quote
from ..inputs import canonical_query, scenario_from_inputs
from ..limits import MAX_LOG_BYTES, MAX_REQUEST_CHARS, check_json_depth
from ..strings import lang_or_default, t
from .report import (
    build_log_report,
    build_report,
    error_message,
    result_dict,
    with_capacity_fit_notes,
)

if TYPE_CHECKING:  # the log reader's regexes compile only when a log is pasted
    from ..logs.diagnose import Diagnosis
    from ..logs.logparse import LogReading

__all__ = ["compute", "compute_dict", "localized_error", "tail_of_log", "quoted_facts"]


def localized_error(lang: str, err: CalcError) -> dict[str, object]:
    """One error for the page: code, field, message in ``lang`` and, for an unknown or ambiguous
    catalog id, ``suggestions`` (the "did you mean" list or the candidates)."""
    message = error_message(lang, err)
    suggestions = err.params.get("suggestions")
    out: dict[str, object] = {"code": err.code, "field": err.field, "message": message}
    if isinstance(suggestions, list):
        names = [str(x) for x in suggestions]
        out["suggestions"] = names
        if names and err.code.startswith("unknown_"):
            out["message"] = f"{message} {t(lang, 'err.did_you_mean', choices=', '.join(names))}"
    return out


def _error(lang: str, err: CalcError) -> dict[str, object]:
    return {"ok": False, "errors": [localized_error(lang, err)]}


def tail_of_log(text: str, limit: int = MAX_LOG_BYTES) -> tuple[str, bool]:
    """A log longer than ``limit`` characters keeps its end (where vLLM's fatal lines are),
    from the first line start inside the kept part; ``(text, truncated)``."""
    if len(text) <= limit:
        return text, False
    tail = text[-limit:]
    cut = tail.find("\n")
    return (tail[cut + 1 :] if 0 <= cut < 4096 else tail), True


#: Inputs whose value, left empty, vLLM resolves for the release, GPU and model in force; the plan's
#: result holds it under the same name (vllm/engine/arg_utils.py, vllm/config/model.py).
_RESOLVED = (
    "max_model_len",
    "max_num_seqs",
    "max_num_batched_tokens",
    "gpu_memory_utilization",
    "block_size",
    "tensor_parallel_size",
    "pipeline_parallel_size",
)


def _defaults(inputs: Mapping[str, object], result: Mapping[str, object]) -> dict[str, str]:
    """What vLLM takes for each of ``_RESOLVED`` the inputs leave empty, as the plan resolved it
    (the page shows it in the empty field)."""
    out = {}
    for name in _RESOLVED:
        given = inputs.get(name)
        value = result.get(name)
        if (
            (given is None or (isinstance(given, str) and not given.strip()))
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
        ):
            out[name] = f"{value:g}" if isinstance(value, float) else str(value)
    return out


def _plan(lang: str, inputs: Mapping[str, object]) -> dict[str, object]:
    a = analyze(scenario_from_inputs(inputs))
    result = result_dict(a)
    return {
        "ok": True,
        "result": result,
        "report": build_report(lang, a),
        "query": canonical_query(inputs),
        "defaults": _defaults(inputs, result),
    }


def _typed(request: Mapping[str, object]) -> tuple[str, ...]:
    """The request's ``typed`` names (the inputs the reader typed, which stay over a log's
    values)."""
    typed = request.get("typed") or []
    if not isinstance(typed, list) or not all(isinstance(name, str) for name in typed):
        raise CalcError("bad_request", "typed must be a list of input names", field=None)
    return tuple(typed)


def _ask(lang: str, d: Diagnosis) -> str | None:
    """The one line that asks for what the log leaves out (the model, the GPU), None when nothing is
    missing or nothing was read."""
    if not d.missing or (d.reading.diagnosis == "unknown" and not d.reading.facts):
        return None
    return t(lang, "ask." + "_".join(d.missing))


def _log(
    lang: str, text: str, form: Mapping[str, object], typed: tuple[str, ...] = ()
) -> dict[str, object]:
    """A pasted log laid over the form: the log overrides only what it states (``inputs`` is the
    merge), except the ``typed`` inputs; ``sources`` says, per input, whether its value is the log's
    or the form's."""
    from ..logs.diagnose import (
        diagnose,
    )  # the log reader's regexes compile only when a log is pasted
    from ..logs.log_mismatch import mismatch_dicts

    if not text.strip():
        raise CalcError("log_empty", "the log is empty", field="log")
    text, truncated = tail_of_log(text)
    d = diagnose(text, form, keep=typed)
    reading = {
        "diagnosis": d.reading.diagnosis,
        "title": t(lang, d.title_key),
        "facts": quoted_facts(d.reading.facts, lang),
        "evidence": [[key, quote(line, lang=lang)] for key, line in d.reading.evidence],
    }
    out: dict[str, object] = {
        "ok": True,
        "reading": reading,
        "inputs": d.inputs,
        "query": canonical_query(d.inputs),
        "sources": {k: "log" if k in d.stated else "form" for k in d.inputs},
        "log_lines": list(
            dict.fromkeys(quote(line, lang=lang) for _key, line in d.reading.evidence)
        ),
        "ask": _ask(lang, d),
        "result": None,
        "report": None,
        "mismatches": mismatch_dicts(d.mismatches),
    }
    if truncated:
        out["notices"] = [{"code": "log_truncated", "message": t(lang, "note.log_truncated")}]
    if d.analysis is not None:
        result = result_dict(d.analysis)
        out["result"] = result
        out["defaults"] = _defaults(d.inputs, result)
        report = with_capacity_fit_notes(build_report(lang, d.analysis), lang, d)
        verdict = _log_verdict(lang, d.reading, startup=d.title_key.endswith("_startup"))
        if verdict is not None:
            report["verdict"] = verdict
        out["report"] = report
        return out
    log_report = build_log_report(lang, d)
    if (
        log_report is not None
    ):  # the log's own lines are under log_lines: "what vLLM would print" is the plan's
        log_report["vllm_lines"] = []
        verdict = _log_verdict(lang, d.reading)
        if verdict is not None:
            log_report["verdict"] = verdict
    out["report"] = log_report
    if d.replan_error is not None and not (
        out["ask"] and d.replan_error.code in ("missing_model", "missing_gpu")
    ):
        out["replan_error"] = localized_error(lang, d.replan_error)
    return out


def _log_verdict(lang: str, reading: LogReading, *, startup: bool = False) -> dict[str, str] | None:
    """A failure the plan cannot see (another process on the GPU, a run-time OOM) leads the
    report."""
    kind = reading.diagnosis
    if kind == "free_memory_below_utilization":
        f = reading.facts
        free, requested = f.get("free_memory_gib"), f.get("requested_memory_gib")
        return {
            "kind": kind,
            "title": t(lang, f"verdict.{kind}.title"),
            "summary": t(
                lang,
                f"verdict.{kind}.summary",
                free=f"{free} GiB" if free is not None else "?",
                requested=f"{requested} GiB" if requested is not None else "?",
            ),
        }
    if kind == "load_out_of_memory":
        return {
            "kind": kind,
            "title": t(lang, f"verdict.{kind}.title"),
            "summary": t(lang, f"verdict.{kind}.summary"),
        }
    if kind == "cuda_out_of_memory":
        key = (
            f"verdict.{kind}_startup" if startup else f"verdict.{kind}"
        )  # before start-up finished, or after
        return {
            "kind": kind,
            "title": t(lang, f"{key}.title"),
            "summary": t(lang, f"{key}.summary"),
        }
    return None


def compute_dict(request: Mapping[str, object]) -> dict[str, object]:
    """The answer to one request as a dict; bad input of any kind is an ``ok: false`` answer."""
    lang = lang_or_default(request.get("lang"))
    try:
        action = request.get("action") or "plan"
        if action == "plan":
            inputs = request.get("inputs") or {}
            if not isinstance(inputs, Mapping):
                raise CalcError("bad_request", "inputs must be an object", field=None)
            return _plan(lang, inputs)
        if action == "log":
            log = request.get("log") or ""
            if not isinstance(log, str):
                raise CalcError("bad_request", "log must be text", field="log")
            form = request.get("inputs") or {}
            if not isinstance(form, Mapping):
                raise CalcError("bad_request", "inputs must be an object", field=None)
            return _log(lang, log, form, _typed(request))
        raise CalcError("bad_request", "unknown action", field=None)
    except CalcError as err:
        return _error(lang, err)
    except RecursionError:
        return _error(lang, CalcError("bad_request", "input nested too deeply", field="config"))


def quoted_facts(facts: Mapping[str, object], lang: str) -> dict[str, object]:
    """A log's facts with every text value cut to ``MAX_QUOTE_CHARS`` (a pasted line can be
    megabytes)."""
    return {k: quote(v, lang=lang) if isinstance(v, str) else v for k, v in facts.items()}


def _strict(response: dict[str, object], lang: str) -> str:
    """The one output boundary of the page: strict JSON (no NaN/Infinity, valid UTF-8) whose every
    string is inert (``kvcalc.inert_text``), at most ``MAX_ANSWER_CHARS`` long. A non-finite number
    cannot pass the input limits; should one appear anyway, or the answer be too long, the answer is
    a structured error, never text JSON.parse rejects nor a truncated one."""
    try:
        answer = inert_json(response)
    except ValueError:
        return inert_json(
            _error(
                lang,
                CalcError("unrepresentable", "the result holds a non-finite number", field=None),
            )
        )
    if len(answer) > MAX_ANSWER_CHARS:
        return inert_json(
            _error(
                lang,
                CalcError(
                    "answer_too_large",
                    f"the answer is longer than {MAX_ANSWER_CHARS} characters",
                    field=None,
                    limit=f"{MAX_ANSWER_CHARS:,}",
                ),
            )
        )
    return answer


def compute(request_json: object) -> str:
    """``compute('{"action": "plan", "lang": "es", "inputs": {...}}')`` → strict JSON text.

    Never raises, never answers ``NaN``/``Infinity``: the request is measured (size, nesting)
    before ``json.loads`` (deep nesting kills Pyodide's stack), every number in it passes
    the input limits (``kvcalc.limits``), and the answer is written with ``allow_nan=False``.
    """
    if not isinstance(request_json, str):
        return _strict(
            _error("en", CalcError("bad_request", "request is not JSON text", field=None)), "en"
        )
    try:
        if len(request_json) > MAX_REQUEST_CHARS:
            raise CalcError("bad_request", "request is too large", field=None)
        check_json_depth(request_json, field=None)
        try:
            request = json.loads(request_json)
        except (ValueError, RecursionError):  # not JSON, or an integer of more than 4300 digits
            raise CalcError("bad_request", "request is not JSON", field=None) from None
        if not isinstance(request, dict):
            raise CalcError("bad_request", "request must be an object", field=None)
    except CalcError as err:
        return _strict(_error("en", err), "en")
    lang = lang_or_default(request.get("lang"))
    try:
        response = compute_dict(request)
    except Exception as exc:  # the page must always get an answer; report, never crash the worker
        response = {
            "ok": False,
            "errors": [
                {
                    "code": "internal",
                    "field": None,
                    "message": t(lang, "err.internal") + f" ({type(exc).__name__})",
                }
            ],
        }
    return _strict(response, lang)
