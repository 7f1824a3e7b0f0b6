"""Byte units and vLLM's number parsing and formatting rules.

All arithmetic is on integer bytes; GiB appears only when formatting.
"""

from __future__ import annotations

import math

from .errors import CalcError
from .limits import MAX_LEN, MAX_NUMBER_CHARS, shorten

__all__ = [
    "round_up",
    "KiB",
    "MiB",
    "GiB",
    "GB",
    "cdiv",
    "format_gib",
    "format_gib_legacy",
    "gib_to_bytes",
    "parse_human_int",
    "parse_max_model_len",
    "parse_float",
    "parse_int",
    "fmt_int",
]

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30
GB = 10**9


def cdiv(a: int, b: int) -> int:
    """Ceiling division for non-negative ints (vllm.utils.math_utils.cdiv)."""
    return -(-a // b)


def round_up(value: int, multiple: int) -> int:
    """vllm/utils/math_utils.py ``round_up``: the next multiple of ``multiple``."""
    return cdiv(value, multiple) * multiple


def format_gib(num_bytes: int | float) -> str:
    """vllm/utils/mem_utils.py ``format_gib``: ``str(round(x / GiB, 2))`` -> ``4.5``, ``10.0``."""
    return str(round(num_bytes / GiB, 2))


def format_gib_legacy(num_bytes: int | float) -> str:
    """Releases before 2026-01-08 printed ``%.2f`` (``4.50``)."""
    return f"{num_bytes / GiB:.2f}"


def fmt_int(n: int) -> str:
    """Thousands separators, as vLLM's capacity log prints them (``f"{n:,}"``)."""
    return f"{n:,}"


def gib_to_bytes(gib: float) -> int:
    """A GiB figure typed by a reader (or read from a log) as whole bytes."""
    return int(round(gib * GiB))


_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_DIGITS = frozenset("0123456789")


def _not_integer(field: str, value: object) -> CalcError:
    return CalcError(
        "not_an_integer",
        f"{field}: expected an integer such as 32768, 32k or 32K, got {shorten(value)!r}",
        field=field,
        value=shorten(value),
    )


def _too_long(field: str, value: object, maximum: int | None) -> CalcError:
    return CalcError(
        "number_too_long",
        f"{field}: {shorten(value, 24)!r} is too long to be a valid number",
        field=field,
        value=shorten(value, 24),
        maximum=maximum,
    )


def _split_human(text: str) -> tuple[str, str, str] | None:
    """``"25.6k"`` → ``("25", "6", "k")``: digits, optional decimals, optional suffix; a linear
    scan, no regex."""
    suffix = ""
    if text and (text[-1] in _DECIMAL or text[-1] in _BINARY):
        text, suffix = text[:-1], text[-1]
    whole, dot, frac = text.partition(".")
    if not whole or not _DIGITS.issuperset(whole):
        return None
    if dot and (not frac or not _DIGITS.issuperset(frac)):
        return None
    return whole, frac if dot else "", suffix


def parse_human_int(value: object, *, field: str, maximum: int | None = None) -> int:
    """vLLM's ``human_readable_int``: ``25.6k`` is decimal (25,600), ``4G`` binary (4 × 2^30).

    Mirrors vllm/engine/arg_utils.py ``human_readable_int``: decimal suffixes k/m/g/t
    (× 1000) take decimals, binary suffixes K/M/G/T (× 1024) take none (vLLM refuses
    ``1.5G`` and suggests ``1.5g``); a plain number is an integer, maybe negative. The one
    size parser of the core (the log reader uses it too). Text longer than
    ``MAX_NUMBER_CHARS`` is refused before conversion, so no number can be huge.
    """
    if isinstance(value, bool):
        raise CalcError(
            "not_an_integer",
            f"{field}: expected an integer, got {value!r}",
            field=field,
            value=str(value),
        )
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise CalcError(
            "not_an_integer",
            f"{field}: expected a finite integer, got {value!r}",
            field=field,
            value=repr(value),
        )
    if not isinstance(value, str):
        raise _not_integer(field, value)
    text = value.strip().replace("_", "").replace(",", "")
    if len(text) > MAX_NUMBER_CHARS:
        raise _too_long(field, value, maximum)
    sign = -1 if text.startswith("-") else 1
    parts = _split_human(text[1:] if text[:1] in "+-" else text)
    if parts is None:
        raise _not_integer(field, value)
    whole, frac, suffix = parts
    if suffix and text[:1] in "+-":  # vLLM's suffix pattern has no sign; int("-4G") fails too
        raise _not_integer(field, value)
    if suffix in _DECIMAL:
        return sign * int(float(f"{whole}.{frac or 0}") * _DECIMAL[suffix])
    if frac and suffix:
        raise CalcError(
            "binary_suffix_decimal",
            f"{field}: decimals are not allowed with binary suffixes like {suffix}; did you mean "
            f"{whole}.{frac}{suffix.lower()}?",
            field=field,
            value=shorten(value),
        )
    if frac:
        raise _not_integer(field, value)
    return sign * int(whole) * _BINARY.get(suffix, 1)


def parse_max_model_len(value: object) -> int | None:
    """``--max-model-len``: an integer up to 2^31, ``32k``/``32K``, or ``auto``/``-1`` (returns
    -1)."""
    if isinstance(value, str) and value.strip().lower() in ("auto", "-1"):
        return -1
    n = parse_human_int(value, field="max_model_len", maximum=MAX_LEN)
    if n == -1:
        return -1
    if not 1 <= n <= MAX_LEN:
        raise CalcError(
            "out_of_range",
            f"max_model_len must be a positive integer up to {MAX_LEN} or auto, got {shorten(n)}",
            field="max_model_len",
            value=shorten(n),
            minimum=1,
            maximum=MAX_LEN,
        )
    return n


def parse_int(value: object, *, field: str, minimum: int = 1, maximum: int = 1 << 53) -> int:
    """An integer (human suffixes allowed) in ``[minimum, maximum]``; every bound is finite."""
    n = parse_human_int(value, field=field, maximum=maximum)
    if not minimum <= n <= maximum:
        raise CalcError(
            "out_of_range",
            f"{field} must be between {minimum} and {maximum}, got {shorten(n)}",
            field=field,
            value=shorten(n),
            minimum=minimum,
            maximum=maximum,
        )
    return n


def parse_float(
    value: object,
    *,
    field: str,
    minimum: float | None = None,
    maximum: float | None = None,
    exclusive_minimum: bool = False,
) -> float:
    if isinstance(value, bool):
        raise CalcError(
            "not_a_number",
            f"{field}: expected a number, got {value!r}",
            field=field,
            value=str(value),
        )
    if isinstance(value, str) and len(value.strip()) > MAX_NUMBER_CHARS:
        raise _too_long(field, value, None if maximum is None else int(maximum))
    try:
        x = float(value.strip().replace(",", ".")) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise CalcError(
            "not_a_number",
            f"{field}: expected a number, got {shorten(value)!r}",
            field=field,
            value=shorten(value),
        ) from None
    if not math.isfinite(x):
        raise CalcError(
            "not_a_number",
            f"{field}: expected a finite number, got {shorten(value)!r}",
            field=field,
            value=shorten(value),
        )
    too_low = minimum is not None and (x <= minimum if exclusive_minimum else x < minimum)
    too_high = maximum is not None and x > maximum
    if too_low or too_high:
        raise CalcError(
            "out_of_range",
            f"{field} must be between {minimum} and {maximum}, got {x:g}",
            field=field,
            value=f"{x:g}",
            minimum=minimum,
            maximum=maximum,
        )
    return x
