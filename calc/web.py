"""The browser's one entry point: JSON in, JSON out, never an exception.

The calculator's Web Worker calls ``compute`` in Pyodide; the build-time macro
calls it in CPython for the preset shown before Pyodide is ready.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .analysis import analyze
from .errors import CalcError
from .inputs import canonical_query, scenario_from_inputs
from .limits import MAX_LOG_BYTES, MAX_REQUEST_CHARS, check_json_depth, strict_json
from .report import build_log_report, build_report, error_message, result_dict, with_capacity_fit_notes
from .strings import lang_or_default, t

if TYPE_CHECKING:  # the log reader's regexes compile only when a log is pasted
    from .logparse import LogReading

__all__ = ["compute", "compute_dict", "localized_error", "tail_of_log"]


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
    return (tail[cut + 1:] if 0 <= cut < 4096 else tail), True


def _plan(lang: str, inputs: Mapping[str, object]) -> dict[str, object]:
    a = analyze(scenario_from_inputs(inputs))
    return {"ok": True, "result": result_dict(a), "report": build_report(lang, a), "query": canonical_query(inputs)}


def _log(lang: str, text: str, form: Mapping[str, object]) -> dict[str, object]:
    """A pasted log laid over the form: the log overrides only what it states (``inputs`` is the merge)."""
    from .diagnose import diagnose  # the log reader's regexes compile only when a log is pasted

    if not text.strip():
        raise CalcError("log_empty", "the log is empty", field="log")
    text, truncated = tail_of_log(text)
    d = diagnose(text, form)
    reading = {"diagnosis": d.reading.diagnosis, "title": t(lang, d.title_key),
               "facts": dict(d.reading.facts), "evidence": [list(e) for e in d.reading.evidence]}
    out: dict[str, object] = {"ok": True, "reading": reading, "inputs": d.inputs, "query": canonical_query(d.inputs),
                              "result": None, "report": None}
    if truncated:
        out["notices"] = [{"code": "log_truncated", "message": t(lang, "note.log_truncated")}]
    if d.analysis is not None:
        out["result"] = result_dict(d.analysis)
        report = with_capacity_fit_notes(build_report(lang, d.analysis), lang, d)
        verdict = _log_verdict(lang, d.reading, startup=d.title_key.endswith("_startup"))
        if verdict is not None:
            report["verdict"] = verdict
        out["report"] = report
        return out
    out["report"] = build_log_report(lang, d)
    if d.replan_error is not None:
        out["replan_error"] = localized_error(lang, d.replan_error)
    return out


def _log_verdict(lang: str, reading: LogReading, *, startup: bool = False) -> dict[str, str] | None:
    """A failure the plan cannot see (another process on the GPU, a run-time OOM) leads the report."""
    kind = reading.diagnosis
    if kind == "free_memory_below_utilization":
        f = reading.facts
        free, requested = f.get("free_memory_gib"), f.get("requested_memory_gib")
        return {"kind": kind, "title": t(lang, f"verdict.{kind}.title"),
                "summary": t(lang, f"verdict.{kind}.summary", free=f"{free} GiB" if free is not None else "?",
                             requested=f"{requested} GiB" if requested is not None else "?")}
    if kind == "cuda_out_of_memory":
        key = f"verdict.{kind}_startup" if startup else f"verdict.{kind}"  # before start-up finished, or after
        return {"kind": kind, "title": t(lang, f"{key}.title"), "summary": t(lang, f"{key}.summary")}
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
            return _log(lang, log, form)
        raise CalcError("bad_request", "unknown action", field=None)
    except CalcError as err:
        return _error(lang, err)
    except RecursionError:
        return _error(lang, CalcError("bad_request", "input nested too deeply", field="config"))


def _strict(response: dict[str, object], lang: str) -> str:
    """Strict JSON (no NaN/Infinity, valid UTF-8). A non-finite number cannot pass the input
    limits; should one appear anyway, the answer is an error, never text JSON.parse rejects."""
    try:
        return strict_json(response)
    except ValueError:
        return strict_json(_error(lang, CalcError("unrepresentable", "the result holds a non-finite number", field=None)))


def compute(request_json: object) -> str:
    """``compute('{"action": "plan", "lang": "es", "inputs": {...}}')`` → strict JSON text.

    Never raises, never answers ``NaN``/``Infinity``: the request is measured (size, nesting)
    before ``json.loads`` (deep nesting kills Pyodide's stack), every number in it passes
    the input limits (``kvcalc.limits``), and the answer is written with ``allow_nan=False``.
    """
    if not isinstance(request_json, str):
        return _strict(_error("en", CalcError("bad_request", "request is not JSON text", field=None)), "en")
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
        response = {"ok": False, "errors": [{"code": "internal", "field": None,
                                             "message": t(lang, "err.internal") + f" ({type(exc).__name__})"}]}
    return _strict(response, lang)
