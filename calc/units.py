"""Byte units and vLLM's number parsing and formatting rules.

All arithmetic is on integer bytes; GiB appears only when formatting.
"""
from __future__ import annotations

import math
import re

from .errors import CalcError

__all__ = [
    "KiB", "MiB", "GiB", "GB", "cdiv", "format_gib", "format_gib_legacy",
    "gib_to_bytes", "parse_human_int", "parse_max_model_len", "parse_float", "parse_int",
    "fmt_int",
]

KiB = 1 << 10
MiB = 1 << 20
GiB = 1 << 30
GB = 10**9


def cdiv(a: int, b: int) -> int:
    """Ceiling division for non-negative ints (vllm.utils.math_utils.cdiv)."""
    return -(-a // b)


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


_HUMAN = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_human_int(value: object, *, field: str) -> int:
    """vLLM's ``human_readable_int``: ``25.6k`` is decimal (25,600), ``4G`` binary (4 × 2^30).

    Mirrors vllm/engine/arg_utils.py: binary suffixes take no decimals.
    """
    if isinstance(value, bool):
        raise CalcError("not_an_integer", f"{field}: expected an integer, got {value!r}", field=field, value=value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer():
            return int(value)
        raise CalcError("not_an_integer", f"{field}: expected an integer, got {value!r}", field=field, value=value)
    text = str(value).strip().replace("_", "").replace(",", "")
    m = _HUMAN.fullmatch(text)
    if m:
        number, suffix = m.groups()
        if suffix in _DECIMAL:
            return int(float(number) * _DECIMAL[suffix])
        if "." in number:
            raise CalcError(
                "binary_suffix_decimal",
                f"{field}: decimals are not allowed with binary suffixes like {suffix}; did you mean {number}{suffix.lower()}?",
                field=field, value=str(value),
            )
        return int(number) * _BINARY[suffix]
    try:
        return int(text)
    except ValueError:
        raise CalcError("not_an_integer", f"{field}: expected an integer such as 32768, 32k or 32K, got {str(value)!r}",
                        field=field, value=str(value)) from None


def parse_max_model_len(value: object) -> int | None:
    """``--max-model-len``: an integer, ``32k``/``32K``, or ``auto``/``-1`` (returns -1)."""
    if isinstance(value, str) and value.strip().lower() in ("auto", "-1"):
        return -1
    n = parse_human_int(value, field="max_model_len")
    if n == -1:
        return -1
    if n <= 0:
        raise CalcError("out_of_range", f"max_model_len must be a positive integer or auto, got {n}",
                        field="max_model_len", value=n)
    return n


def parse_int(value: object, *, field: str, minimum: int = 1, maximum: int | None = None) -> int:
    n = parse_human_int(value, field=field)
    if n < minimum or (maximum is not None and n > maximum):
        hi = f" and {maximum}" if maximum is not None else ""
        raise CalcError("out_of_range", f"{field} must be at least {minimum}{hi}, got {n}",
                        field=field, value=n, minimum=minimum, maximum=maximum)
    return n


def parse_float(value: object, *, field: str, minimum: float | None = None, maximum: float | None = None,
                exclusive_minimum: bool = False) -> float:
    if isinstance(value, bool):
        raise CalcError("not_a_number", f"{field}: expected a number, got {value!r}", field=field, value=value)
    try:
        x = float(str(value).strip().replace(",", ".")) if isinstance(value, str) else float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise CalcError("not_a_number", f"{field}: expected a number, got {str(value)!r}", field=field,
                        value=str(value)) from None
    if not math.isfinite(x):
        raise CalcError("not_a_number", f"{field}: expected a finite number, got {value!r}", field=field, value=str(value))
    too_low = minimum is not None and (x <= minimum if exclusive_minimum else x < minimum)
    too_high = maximum is not None and x > maximum
    if too_low or too_high:
        raise CalcError("out_of_range", f"{field} must be between {minimum} and {maximum}, got {x}",
                        field=field, value=x, minimum=minimum, maximum=maximum)
    return x
