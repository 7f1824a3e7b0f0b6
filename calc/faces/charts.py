"""Inline SVG charts, drawn by the core so the page's JavaScript does no arithmetic.

Every text node is escaped; the SVG carries no script and no external reference.
The viewBox is 360 units wide with 13-unit text, so text stays at 12 px or more
on a phone (the chart is about 340 px wide there); the page caps the chart's
width so that it does not grow past readable on a desktop. The chart's title is
the figure caption of the page (the SVG keeps it only as its accessible name).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

__all__ = [
    "Segment",
    "Marker",
    "budget_bar_svg",
    "Point",
    "concurrency_svg",
    "nice_ticks",
    "short_tokens",
]

_COLORS = {
    "weights": "#5c6bc0",
    "activation": "#ffa726",
    "non_torch": "#8d6e63",
    "cudagraph": "#ab47bc",
    "kv": "#26a69a",
    "headroom": "#bdbdbd",
    "deficit": "#e53935",
    "needed": "#e53935",
    "band": "#00695c",
}
_WIDTH = 360
_FONT = 13


@dataclass(frozen=True, kw_only=True)
class Segment:
    key: str
    """Stable id of the term (``weights``, ``kv``, ``headroom``, …), the same in every language."""
    label: str
    """The term's name in the reader's language."""
    value_bytes: int
    """The term's size, which sets the segment's width."""
    value_text: str
    """The size as the result prints it (``4.5 GiB``)."""


@dataclass(frozen=True, kw_only=True)
class Point:
    x: int
    """Context length, tokens (the horizontal axis)."""
    y: float
    """Maximum concurrency at that length (the vertical axis)."""


@dataclass(frozen=True, kw_only=True)
class Marker:
    """A labelled position on the budget bar (bytes from the bar's start)."""

    at_bytes: int
    """Where the mark sits, in bytes from the bar's start."""
    label: str
    """The text beside the mark, in the reader's language."""


def _open(kind: str, height: float, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_WIDTH} {height:.0f}" role="img" '
        f'font-size="{_FONT}" class="kvcalc-svg kvcalc-svg-{kind}">',
        f"<title>{escape(title)}</title>",
    ]


def budget_bar_svg(
    title: str,
    segments: list[Segment],
    total_bytes: int,
    *,
    needed: Marker | None = None,
    band: tuple[int, int] | None = None,
) -> str:
    """One horizontal stacked bar of the per-GPU budget, with a legend.

    ``needed`` marks what one request needs, measured from the start of the KV segment, so the
    reader sees it against the available KV memory; ``band`` (bytes from the bar's start) shades
    the range the available memory is likely to fall in when it is estimated.
    """
    bar_y, bar_h = 6, 30
    legend_y = bar_y + bar_h + (40 if needed else 22)
    height = legend_y + 20 * len(segments)
    parts = _open("budget", height, title)
    scale = (_WIDTH - 2) / max(total_bytes, 1)
    x = 0.0
    kv_start = 0.0
    for seg in segments:
        w = max(seg.value_bytes, 0) * scale
        if seg.key == "kv":
            kv_start = x
        if w > 0:
            parts.append(
                f'<rect x="{x:.1f}" y="{bar_y}" width="{w:.1f}" height="{bar_h}" '
                f'fill="{_COLORS.get(seg.key, "#90a4ae")}">'
                f"<title>{escape(seg.label)}: {escape(seg.value_text)}</title></rect>"
            )
            x += w
    if band is not None:
        lo, hi = (min(max(b * scale, 0.0), _WIDTH - 1.0) for b in band)
        parts.append(
            f'<rect x="{lo:.1f}" y="{bar_y + bar_h - 6}" width="{max(hi - lo, 1.0):.1f}" '
            f'height="6" fill="{_COLORS["band"]}" class="kvcalc-band"/>'
        )
    if needed is not None:
        nx = min(kv_start + needed.at_bytes * scale, _WIDTH - 1.0)
        anchor = "end" if nx > _WIDTH * 0.6 else "start"
        parts.append(
            f'<line x1="{nx:.1f}" y1="{bar_y - 4}" x2="{nx:.1f}" y2="{bar_y + bar_h + 6}" '
            f'stroke="{_COLORS["needed"]}" stroke-width="2" stroke-dasharray="4 2"/>'
            f'<text x="{nx + (-4 if anchor == "end" else 4):.1f}" y="{bar_y + bar_h + 22}" '
            f'text-anchor="{anchor}">{escape(needed.label)}</text>'
        )
    y = legend_y
    for seg in segments:
        parts.append(
            f'<rect x="0" y="{y - 11}" width="12" height="12" '
            f'fill="{_COLORS.get(seg.key, "#90a4ae")}"/><text x="18" y="{y}">{escape(seg.label)}: '
            f"{escape(seg.value_text)}</text>"
        )
        y += 20
    parts.append("</svg>")
    return "".join(parts)


def nice_ticks(top: float, count: int = 4) -> list[float]:
    """Ticks from 0 in steps of 1, 2 or 5 × 10^k, the last one at or above ``top``."""
    top = max(top, 1e-9)
    raw = top / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    n = math.ceil(top / step - 1e-9)
    return [round(i * step, 10) for i in range(n + 1)]


def _tick_text(v: float) -> str:
    return f"{v:g}" if v >= 1 or v == 0 else f"{v:.2g}"


def short_tokens(n: int) -> str:
    """Token counts as the guide writes them: ``4K`` = 4,096, ``1M`` = 1,048,576."""
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1024 and n % 1024 == 0:
        return f"{n // 1024}K"
    return f"{n:,}"


def concurrency_svg(
    title: str,
    x_label: str,
    y_label: str,
    points: list[Point],
    marker: Point | None,
    marker_label: str,
    *,
    reader_x: int | None = None,
) -> str:
    """Maximum concurrency against max_model_len (log2 x axis) with a 1× line and the reader's
    length.

    ``marker`` is the reader's point when it fits; ``reader_x`` is the reader's length, always on
    the axis (a dashed line when it does not fit), so the chart shows how far it is from starting.
    """
    height, left, bottom, top, right = 240, 56, 42, 10, 14
    pw, ph = _WIDTH - left - right, height - top - bottom
    xs = [p.x for p in points] + ([marker.x] if marker else []) + ([reader_x] if reader_x else [])
    if not xs:
        return ""
    x0, x1 = math.log2(min(xs)), math.log2(max(xs))
    ticks = nice_ticks(max([p.y for p in points] + ([marker.y] if marker else []) + [1.0]))
    y_top = ticks[-1]

    def sx(v: int) -> float:
        return left + (math.log2(v) - x0) / max(x1 - x0, 1e-9) * pw

    def sy(v: float) -> float:
        return top + ph - v / y_top * ph

    parts = _open("concurrency", height, title)
    parts.append(
        f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" '
        f'stroke="currentColor"/><line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" '
        f'stroke="currentColor"/>'
    )
    for v in ticks:
        parts.append(
            f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{_tick_text(v)}</text>'
        )
    lengths = sorted({1 << k for k in range(math.ceil(x0 - 1e-9), math.floor(x1 + 1e-9) + 1)})
    stride = max(1, math.ceil(len(lengths) / 6))
    for n in lengths[::stride]:
        parts.append(
            f'<text x="{sx(n):.1f}" y="{top + ph + 17}" '
            f'text-anchor="middle">{short_tokens(n)}</text>'
        )
    parts.append(
        f'<line x1="{left}" y1="{sy(1.0):.1f}" x2="{left + pw}" y2="{sy(1.0):.1f}" '
        f'stroke="currentColor" stroke-dasharray="3 3" opacity="0.6"/><text x="{left + pw - 2}" '
        f'y="{sy(1.0) - 4:.1f}" text-anchor="end">1×</text>'
    )
    if points:
        path = " ".join(
            f"{'M' if i == 0 else 'L'}{sx(p.x):.1f},{sy(p.y):.1f}" for i, p in enumerate(points)
        )
        parts.append(f'<path d="{path}" fill="none" stroke="{_COLORS["kv"]}" stroke-width="2"/>')
    parts.append(
        f'<text x="{left + pw / 2:.1f}" y="{height - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    parts.append(
        f'<text x="14" y="{top + ph / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 14 {top + ph / 2:.1f})">{escape(y_label)}</text>'
    )
    parts.extend(_reader_mark(sx, sy, marker, marker_label, reader_x, top, ph))
    parts.append("</svg>")
    return "".join(parts)


def _reader_mark(
    sx: Callable[[int], float],
    sy: Callable[[float], float],
    marker: Point | None,
    label: str,
    reader_x: int | None,
    top: float,
    ph: float,
) -> list[str]:
    """The reader's point (or, when it does not start, a dashed line at its length), labelled inside
    the plot."""
    out = []
    if marker is not None:
        mx, my = sx(marker.x), sy(marker.y)
        out.append(
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="5" '
            f'fill="{_COLORS["deficit"]}"><title>{escape(label)}</title></circle>'
        )
    elif reader_x is not None:
        mx, my = sx(reader_x), top + ph / 2
        out.append(
            f'<line x1="{mx:.1f}" y1="{top}" x2="{mx:.1f}" y2="{top + ph}" '
            f'stroke="{_COLORS["deficit"]}" stroke-width="2" stroke-dasharray="4 3"/>'
        )
    else:
        return out
    right_half = mx > _WIDTH * 0.6
    out.append(
        f'<text x="{mx + (-8 if right_half else 8):.1f}" y="{max(my - 8, top + 12):.1f}" '
        f'text-anchor="{"end" if right_half else "start"}">{escape(label)}</text>'
    )
    return out
