"""The input boundary's limits: how big, how long and how deep anything a reader gives may be.

Every number that enters the core (CLI flags, form fields, URL state, a pasted
``config.json``, a pasted log) is checked against a limit here before any
arithmetic, so no ``OverflowError``, ``ValueError`` or endless loop can escape
later and every refusal is a :class:`CalcError` naming its field. Nested text
(a pasted config, a log's ``non-default args`` dict) is measured before it is
parsed, with a linear scan, because deep nesting exhausts the C stack of
Pyodide's interpreter (a fatal error there, not a ``RecursionError``).
Everything the core writes goes through :func:`strict_json` / :func:`clean_text`:
strict JSON (no ``NaN``/``Infinity``) and valid UTF-8 (lone surrogates replaced).

The limits are far above any real deployment and far below where Python's
floats or the interpreter would fail.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from .errors import CalcError

__all__ = [
    "MAX_LEN",
    "MAX_GIB",
    "MAX_BYTES",
    "MAX_LAYERS",
    "MAX_DIM",
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "MAX_ID_CHARS",
    "MAX_CONFIG_BYTES",
    "MAX_LOG_BYTES",
    "MAX_REQUEST_CHARS",
    "check_json_depth",
    "python_literal_ok",
    "strict_json",
    "clean_text",
    "shorten",
]

MAX_LEN = 1 << 31
"""Lengths and token counts (max_model_len, sliding windows, context sizes)."""
MAX_GIB = 1 << 20
"""Any memory figure in GiB (1 PiB)."""
MAX_BYTES = MAX_GIB << 30
"""Any memory figure in bytes (2^50)."""
MAX_LAYERS = 10_000
"""Decoder layers of a model."""
MAX_DIM = 1 << 24
"""Model widths (hidden, intermediate, vocab, head counts, head sizes, experts)."""
MAX_DEPTH = 64
"""Nesting depth of a pasted config.json, of a request, of a log's ``non-default args``."""
MAX_NUMBER_CHARS = 40
"""A typed number longer than this is refused before it is converted (no valid value needs more)."""
MAX_ID_CHARS = 200
"""A model or GPU id longer than this cannot be in the catalog (and gets no suggestions)."""
MAX_CONFIG_BYTES = 2_000_000
"""A pasted or read ``config.json``."""
MAX_LOG_BYTES = 5 << 20
"""A pasted or read log (5 MiB); a longer one keeps its last 5 MB (where the fatal lines are)."""
MAX_REQUEST_CHARS = 16_000_000
"""A whole request to ``kvcalc.web.compute`` (a log and a config with room to spare)."""

# A JSON string, unrolled so that every character is consumed once; the closing quote is
# optional, so an unterminated string ends the scan instead of being retried at each quote.
# Possessive (*+): a string of 400,000 escapes is one match of 400,000 loop turns, and sre's
# backtracking state for a plain * grew faster than the string (8x the text took 28x the time).
_JSON_STRING = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.DOTALL)
_PY_STRING = re.compile(r"'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'?|\"[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\"?")
_BRACKETS = re.compile(r"[^\[\]{}()]+")
_STEP = {"[": 1, "{": 1, "(": 1, "]": -1, "}": -1, ")": -1}
_PY_ALLOWED = re.compile(r"[\s\[\]{}(),:.+\-0-9A-Za-z_']*")  # ' : each string literal becomes ''
_PY_WORD = re.compile(r"(?<![0-9A-Za-z_.])[A-Za-z_][0-9A-Za-z_]*")
_PY_SIGNS = re.compile(r"[-+](?:\s*[-+])*")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _depth(brackets: str) -> int:
    """Deepest nesting of a string of brackets: unclosed openers count (``[[[`` is 3)."""
    if not brackets:
        return 0
    return max(accumulate(map(_STEP.__getitem__, brackets)))


def check_json_depth(text: str, *, field: str | None, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON text nested deeper than ``limit`` (``too_deep``), before ``json.loads`` sees it.

    Linear: strings are cut out with one unrolled regex, the rest reduced to its brackets.
    """
    if "[" not in text and "{" not in text:
        return
    outside = _JSON_STRING.sub("", text)
    depth = _depth(_BRACKETS.sub("", outside.replace("(", "").replace(")", "")))
    if depth > limit:
        raise CalcError(
            "too_deep",
            f"{field or 'the request'} is nested {depth} levels deep; at most {limit} are allowed",
            field=field,
            value=depth,
            limit=limit,
        )


def python_literal_ok(text: str, *, limit: int = MAX_DEPTH) -> bool:
    """Is ``text`` safe to give to ``ast.literal_eval``?

    Only plain literals (numbers, strings, True/False/None, lists, tuples, dicts) with at
    most ``limit`` levels of brackets. A chain of sign operators nests in Python's parser
    like brackets do, so at most two signs in a row (``-1``, ``1e-5``, ``-1-2j``) and at
    most ``10 × limit`` sign groups in all are allowed. Anything else (names, calls,
    f-strings, ``**``) is refused before the parser recurses into it.
    """
    outside = _PY_STRING.sub("''", text)
    if not _PY_ALLOWED.fullmatch(outside):
        return False
    if any(word not in ("True", "False", "None") for word in _PY_WORD.findall(outside)):
        return False
    signs = [len(m.group().replace(" ", "")) for m in _PY_SIGNS.finditer(outside)]
    if len(signs) > 10 * limit or max(signs, default=0) > 2:
        return False  # "1e-5" and "-1" need one sign, a complex "-1-2j" two; more is an attack
    return _depth(_BRACKETS.sub("", outside)) <= limit


def clean_text(text: str) -> str:
    """Lone surrogates (from JSON ``\\udc80`` escapes or undecodable argv) → U+FFFD: valid UTF-8
    out."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


def strict_json(obj: object) -> str:
    """Strict JSON (``allow_nan=False``), valid UTF-8; raises ValueError on a non-finite number."""
    return clean_text(json.dumps(obj, ensure_ascii=False, allow_nan=False))


def shorten(value: object, limit: int = 80) -> str:
    """A value quoted in a message: at most ``limit`` characters, the rest elided."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        text = (
            f"{'-' if value < 0 else ''}2^{value.bit_length() - 1}…"  # str() of a huge int is slow
        )
    elif isinstance(value, str):
        text = value[: limit + 1]
    else:
        text = repr(value)[: limit + 1]
    text = clean_text(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
