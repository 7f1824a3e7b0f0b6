"""The output boundary: everything the core writes is inert text of bounded size.

A pasted log, a config's ``_name_or_path`` or an argv value can hold terminal
control sequences: ESC (OSC 52 writes the reader's clipboard, OSC 8 plants a
hyperlink, CSI moves the cursor), BEL, CR (overwrites a line with a fake
"vLLM starts"), NUL, the C1 controls (``\\x9b`` is a one-byte CSI), and the
Unicode bidi overrides and isolates (they reorder what a reader sees). Every
text the faces write (the CLI's text and error lines, every string of a JSON
answer, the page's report) passes through :func:`inert` once, at the face:
each such character becomes its escape written out in ASCII (``\\x1b``,
``\\x9b``, ``\\u202e``), so it is seen, never obeyed. Newline and tab stay.

Quoted input (a value in an error, a log line shown as evidence) is cut to
:data:`MAX_QUOTE_CHARS` by :func:`quote`, which says how long it was; a JSON
answer of ``kvcalc.web.compute`` is at most :data:`MAX_ANSWER_CHARS`
characters (checked by the face, which then answers a structured error).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from .limits import clean_text, strict_json
from .strings import t

__all__ = [
    "MAX_QUOTE_CHARS",
    "MAX_ANSWER_CHARS",
    "inert",
    "inert_tree",
    "inert_json",
    "quote",
    "has_invisible_or_control",
    "reveal",
]

MAX_QUOTE_CHARS = 512
"""A quoted value or log line: at most this many characters, then ``… (N characters)``."""
MAX_ANSWER_CHARS = 1_000_000
"""One JSON answer of ``kvcalc.web.compute`` (and of ``kvcalc log --json``), in characters."""

# C0 controls but newline and tab, DEL, C1 controls, the bidi embeddings/overrides/isolates and the
# line/paragraph separators (some terminals and JavaScript read them as line breaks).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# What an id may not hold: every control (tab and newline too), soft hyphen, the Arabic letter
# mark, Mongolian and Hangul fillers and selectors, zero-width and directional marks, bidi controls,
# word joiners and invisible operators, variation selectors, the BOM, interlinear annotations and
# tags.
_INVISIBLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f"
    "\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb"
    "\U000e0000-\U000e0fff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def inert(text: str) -> str:
    """``text`` with every control but newline and tab written as its escape (``ESC`` → ``\\x1b``);
    lone surrogates → U+FFFD. Idempotent on its own output."""
    text = clean_text(text)
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


def inert_tree(obj: object) -> object:
    """A JSON-able value with :func:`inert` applied to every string in it, keys included."""
    if isinstance(obj, str):
        return inert(obj)
    if isinstance(obj, Mapping):
        return {inert(str(k)) if isinstance(k, str) else k: inert_tree(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [inert_tree(v) for v in obj]
    return obj


# In JSON text (``ensure_ascii=False``) a character :func:`inert` would rewrite shows either raw
# (DEL, C1, bidi, U+2028/U+2029, a lone surrogate) or as an escape json writes for C0 (``\u00XX``,
# ``\r``, ``\b``, ``\f``). The pattern also fires on an escaped backslash before such a letter: it
# only sends the answer the long way.
_MAYBE_UNSAFE_JSON = re.compile(
    "[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
    r"|\\(?:u00|[rbf])"
)


def inert_json(obj: object) -> str:
    """Strict JSON whose every string is inert (ValueError on a non-finite number, as
    ``strict_json``).

    An answer holding no character :func:`inert` rewrites (almost every answer) is written as it is;
    only one that may hold one is walked string by string: the same text, without a walk of every
    answer."""
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except TypeError:  # a mapping json cannot write (inert_tree makes it a dict)
        text = None
    if text is not None and not _MAYBE_UNSAFE_JSON.search(text):
        return text
    return strict_json(inert_tree(obj))


def quote(text: str, limit: int = MAX_QUOTE_CHARS, lang: str = "en") -> str:
    """``text`` cut to ``limit`` characters, saying how long it was (``… (N characters)``);
    inert."""
    if len(text) <= limit:
        return inert(text)
    return inert(text[:limit]) + t(lang, "quote.cut", n=f"{len(text):,}")


def has_invisible_or_control(text: str) -> bool:
    """Does ``text`` hold a control, a bidi override or a zero-width or other invisible character?

    No catalog id holds one; an id that does would print as something it is not.
    """
    return _INVISIBLE.search(text) is not None


def reveal(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` with every invisible or control character written as its escape
    (``Qwen\u200b3``): how an id refused by :func:`has_invisible_or_control` is quoted."""
    return _INVISIBLE.sub(_escape, clean_text(text[:limit]))
