"""Numbers as a reader of each language writes them.

Spanish (RAE/FundéuRAE) uses a decimal comma and groups thousands with a
narrow no-break space ("147 456", "4,5 GiB"); Chinese and English use
"147,456" and "4.5 GiB". vLLM's own lines and ``vllm serve`` values are never
localized: they keep vLLM's syntax.
"""

from __future__ import annotations

__all__ = ["THOUSANDS_SPACE", "fmt_int", "fmt_fixed", "fmt_printed", "gib_text", "gib_gb_text"]

THOUSANDS_SPACE = "\u202f"
"""Narrow no-break space: Spanish thousands separator (it never breaks a number across lines)."""

_GIB = 1 << 30
_GB = 10**9


def _localize(text: str, lang: str) -> str:
    """``1,234.5`` (Python's grouping) → the language's grouping and decimal mark."""
    if lang != "es":
        return text
    return text.replace(",", THOUSANDS_SPACE).replace(".", ",")


def fmt_int(n: int, lang: str) -> str:
    """``147,456`` / ``147 456``. Spanish does not group four-digit numbers (``4096``)."""
    if lang == "es" and -10_000 < n < 10_000:
        return str(n)
    return _localize(f"{n:,}", lang)


def fmt_fixed(x: float, digits: int, lang: str) -> str:
    """``13.33`` / ``13,33``, with thousands grouped as ``fmt_int`` does."""
    if lang == "es" and -10_000 < x < 10_000:
        return f"{x:.{digits}f}".replace(".", ",")
    return _localize(f"{x:,.{digits}f}", lang)


def fmt_printed(x: float, lang: str) -> str:
    """A number read off a log, with the decimals it was printed with (``58.11`` → ``58,11``,
    ``4.0`` → ``4,0``): no precision is added or dropped. A float too large for plain digits falls
    back to two decimals."""
    text = repr(float(x))
    if "e" in text or "n" in text:  # 1e+16, inf, nan: not how vLLM prints a figure
        return fmt_fixed(x, 2, lang)
    return fmt_fixed(x, len(text.partition(".")[2]), lang)


def gib_text(num_bytes: int, lang: str) -> str:
    """``4.50 GiB``."""
    return f"{fmt_fixed(num_bytes / _GIB, 2, lang)} GiB"


def gib_gb_text(num_bytes: int, lang: str) -> str:
    """``4.50 GiB (4.83 GB)``: both units, since readers confuse them."""
    return f"{gib_text(num_bytes, lang)} ({fmt_fixed(num_bytes / _GB, 2, lang)} GB)"
