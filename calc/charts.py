"""Inline SVG charts, drawn by the core so the page's JavaScript does no arithmetic.

Every text node is escaped; the SVG carries no script and no external reference.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

__all__ = ["Segment", "budget_bar_svg", "Point", "concurrency_svg"]

_COLORS = {"weights": "#5c6bc0", "activation": "#ffa726", "non_torch": "#8d6e63", "cudagraph": "#ab47bc",
           "kv": "#26a69a", "headroom": "#bdbdbd", "deficit": "#e53935"}


@dataclass(frozen=True, kw_only=True)
class Segment:
    key: str
    label: str
    value_bytes: int
    value_text: str


@dataclass(frozen=True, kw_only=True)
class Point:
    x: int
    y: float


def budget_bar_svg(title: str, segments: list[Segment], total_bytes: int) -> str:
    """One horizontal stacked bar of the per-GPU budget, with a legend."""
    width, bar_h, pad = 480, 32, 8
    legend_h = 22 * len(segments)
    height = 30 + bar_h + pad * 2 + legend_h
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" font-size="13" class="kvcalc-svg kvcalc-svg-budget">',
             f'<title>{escape(title)}</title>',
             f'<text x="0" y="18" class="kvcalc-chart-title">{escape(title)}</text>']
    x = 0.0
    scale = (width - 2) / max(total_bytes, 1)
    for seg in segments:
        w = max(seg.value_bytes, 0) * scale
        if w > 0:
            parts.append(f'<rect x="{x:.1f}" y="30" width="{w:.1f}" height="{bar_h}" fill="{_COLORS.get(seg.key, "#90a4ae")}">'
                         f'<title>{escape(seg.label)}: {escape(seg.value_text)}</title></rect>')
            x += w
    y = 30 + bar_h + pad * 2
    for seg in segments:
        parts.append(f'<rect x="0" y="{y - 11}" width="12" height="12" fill="{_COLORS.get(seg.key, "#90a4ae")}"/>'
                     f'<text x="18" y="{y}">{escape(seg.label)}: {escape(seg.value_text)}</text>')
        y += 22
    parts.append("</svg>")
    return "".join(parts)


def concurrency_svg(title: str, x_label: str, y_label: str, points: list[Point], marker: Point | None,
                    marker_label: str) -> str:
    """Maximum concurrency against max_model_len (log2 x axis), the reader's point marked."""
    import math
    width, height, left, bottom, top, right = 480, 260, 48, 40, 28, 12
    pw, ph = width - left - right, height - top - bottom
    xs = [p.x for p in points] + ([marker.x] if marker else [])
    if not xs:
        return ""
    x0, x1 = math.log2(min(xs)), math.log2(max(xs))
    y1 = max([p.y for p in points] + ([marker.y] if marker else []) + [1.0])
    def sx(v: int) -> float:
        return left + (math.log2(v) - x0) / max(x1 - x0, 1e-9) * pw
    def sy(v: float) -> float:
        return top + ph - v / y1 * ph
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" font-size="12" class="kvcalc-svg kvcalc-svg-concurrency">',
             f'<title>{escape(title)}</title>',
             f'<text x="0" y="16" class="kvcalc-chart-title">{escape(title)}</text>',
             f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="currentColor"/>',
             f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="currentColor"/>']
    for frac in (0.0, 0.5, 1.0):
        v = y1 * frac
        parts.append(f'<text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{v:.1f}</text>')
    for p in points:
        if p.x & (p.x - 1) == 0 or p is points[0] or p is points[-1]:
            parts.append(f'<text x="{sx(p.x):.1f}" y="{top + ph + 16}" text-anchor="middle">{_short(p.x)}</text>')
    path = " ".join(f"{'M' if i == 0 else 'L'}{sx(p.x):.1f},{sy(p.y):.1f}" for i, p in enumerate(points))
    parts.append(f'<path d="{path}" fill="none" stroke="{_COLORS["kv"]}" stroke-width="2"/>')
    parts.append(f'<text x="{left + pw / 2:.1f}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>')
    parts.append(f'<text x="12" y="{top + ph / 2:.1f}" text-anchor="middle" transform="rotate(-90 12 {top + ph / 2:.1f})">{escape(y_label)}</text>')
    if marker:
        parts.append(f'<circle cx="{sx(marker.x):.1f}" cy="{sy(marker.y):.1f}" r="5" fill="{_COLORS["deficit"]}">'
                     f'<title>{escape(marker_label)}</title></circle>'
                     f'<text x="{sx(marker.x) + 8:.1f}" y="{sy(marker.y) - 8:.1f}">{escape(marker_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _short(n: int) -> str:
    return f"{n // 1024}K" if n % 1024 == 0 and n >= 1024 else str(n)
