"""The browser's one entry point: JSON in, JSON out, never an exception.

The calculator's Web Worker calls ``compute`` in Pyodide; the build-time macro
calls it in CPython for the preset shown before Pyodide is ready.
"""
from __future__ import annotations

import json
from collections.abc import Mapping

from .analysis import analyze
from .errors import CalcError
from .inputs import canonical_query, scenario_from_inputs
from .logparse import LogReading
from .report import build_log_report, build_report, error_message, result_dict
from .strings import lang_or_default, t

__all__ = ["compute", "compute_dict"]

_MAX_LOG_CHARS = 5_000_000


def _error(lang: str, err: CalcError) -> dict[str, object]:
    return {"ok": False, "errors": [{"code": err.code, "field": err.field, "message": error_message(lang, err)}]}


def _plan(lang: str, inputs: Mapping[str, object]) -> dict[str, object]:
    a = analyze(scenario_from_inputs(inputs))
    return {"ok": True, "result": result_dict(a), "report": build_report(lang, a), "query": canonical_query(inputs)}


def _log(lang: str, text: str, form: Mapping[str, object]) -> dict[str, object]:
    """A pasted log laid over the form: the log overrides only what it states (``inputs`` is the merge)."""
    from .diagnose import diagnose  # the log reader's regexes compile only when a log is pasted

    d = diagnose(text[-_MAX_LOG_CHARS:], form)
    reading = {"diagnosis": d.reading.diagnosis, "title": t(lang, f"diag.{d.reading.diagnosis}"),
               "facts": dict(d.reading.facts), "evidence": [list(e) for e in d.reading.evidence]}
    out: dict[str, object] = {"ok": True, "reading": reading, "inputs": d.inputs, "query": canonical_query(d.inputs),
                              "result": None, "report": None}
    if d.analysis is not None:
        out["result"] = result_dict(d.analysis)
        report = build_report(lang, d.analysis)
        verdict = _log_verdict(lang, d.reading)
        if verdict is not None:
            report["verdict"] = verdict
        out["report"] = report
        return out
    out["report"] = build_log_report(lang, d)
    if d.replan_error is not None:
        out["replan_error"] = {"code": d.replan_error.code, "field": d.replan_error.field,
                               "message": error_message(lang, d.replan_error)}
    return out


def _log_verdict(lang: str, reading: LogReading) -> dict[str, str] | None:
    """A failure the plan cannot see (another process on the GPU, a run-time OOM) leads the report."""
    kind = reading.diagnosis
    if kind == "free_memory_below_utilization":
        f = reading.facts
        free, requested = f.get("free_memory_gib"), f.get("requested_memory_gib")
        return {"kind": kind, "title": t(lang, f"verdict.{kind}.title"),
                "summary": t(lang, f"verdict.{kind}.summary", free=f"{free} GiB" if free is not None else "?",
                             requested=f"{requested} GiB" if requested is not None else "?")}
    if kind == "cuda_out_of_memory":
        return {"kind": kind, "title": t(lang, f"verdict.{kind}.title"), "summary": t(lang, f"verdict.{kind}.summary")}
    return None


def compute_dict(request: Mapping[str, object]) -> dict[str, object]:
    lang = lang_or_default(request.get("lang"))
    try:
        action = request.get("action") or "plan"
        if action == "plan":
            inputs = request.get("inputs") or {}
            if not isinstance(inputs, Mapping):
                raise CalcError("bad_request", "inputs must be an object", field=None)
            return _plan(lang, inputs)
        if action == "log":
            form = request.get("inputs") or {}
            if not isinstance(form, Mapping):
                raise CalcError("bad_request", "inputs must be an object", field=None)
            return _log(lang, str(request.get("log") or ""), form)
        raise CalcError("bad_request", f"unknown action {action!r}", field=None)
    except CalcError as err:
        return _error(lang, err)
    except RecursionError:
        return _error(lang, CalcError("bad_request", "input nested too deeply", field="config"))


def compute(request_json: str) -> str:
    """``compute('{"action": "plan", "lang": "es", "inputs": {...}}')`` → JSON text."""
    try:
        request = json.loads(request_json)
    except (json.JSONDecodeError, TypeError, RecursionError):
        return json.dumps(_error("en", CalcError("bad_request", "request is not JSON", field=None)), ensure_ascii=False)
    if not isinstance(request, dict):
        return json.dumps(_error("en", CalcError("bad_request", "request must be an object", field=None)), ensure_ascii=False)
    try:
        response = compute_dict(request)
    except Exception as exc:  # the page must always get an answer; report, never crash the worker
        lang = lang_or_default(request.get("lang"))
        response = {"ok": False, "errors": [{"code": "internal", "field": None,
                                             "message": t(lang, "err.internal") + f" ({type(exc).__name__})"}]}
    return json.dumps(response, ensure_ascii=False)
