"""Small server-rendered SVG charts (no JavaScript, no chart library)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@dataclass
class Bar:
    low: float
    high: float
    count: int
    href: str = ""


def histogram_svg(
    bars: Sequence[Bar],
    *,
    title: str,
    css: str = "bar",
    width: int = 360,
    height: int = 132,
    peak: int = 0,
) -> SafeString:
    """Vertical bars over [0, 1]; each bar links to the list filtered to its range. `peak`: the
    count a full-height bar stands for (charts side by side share one, so one answer never
    draws as tall as sixteen); by default the tallest bar's."""
    pad_left, pad_bottom, pad_top = 8, 20, 14
    plot_w = width - 2 * pad_left
    plot_h = height - pad_bottom - pad_top
    peak = max(peak, *(b.count for b in bars), 1)
    slot = plot_w / max(len(bars), 1)
    # With links inside, the chart is a group of links (an "img" hides them from screen readers
    # while the keyboard still stops on them); the svg itself never takes focus.
    role = "group" if any(bar.href and bar.count for bar in bars) else "img"
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="{role}" focusable="false" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for i, bar in enumerate(bars):
        h = plot_h * bar.count / peak
        x = pad_left + i * slot + 1.5
        y = pad_top + plot_h - h
        label = f"{bar.low:.1f}–{bar.high:.1f}: {bar.count}"
        rect = (
            f'<rect class="{css}" x="{x:.1f}" y="{y:.1f}" width="{slot - 3:.1f}" '
            f'height="{max(h, 0.5):.1f}" rx="2"><title>{escape(label)}</title></rect>'
        )
        if bar.count:
            rect += (
                f'<text class="bar-count" x="{x + (slot - 3) / 2:.1f}" y="{y - 3:.1f}" '
                f'text-anchor="middle">{bar.count}</text>'
            )
        # An empty bar would be a tab stop leading to an empty list: only bars with answers link.
        if bar.href and bar.count:
            answers = f"{bar.count} answer{'s' if bar.count != 1 else ''}"
            name = f"{title} {bar.low:.1f} to {bar.high:.1f}: show the {answers}"
            rect = f'<a href="{escape(bar.href)}" aria-label="{escape(name)}">{rect}</a>'
        parts.append(rect)
    axis_y = pad_top + plot_h
    parts.append(
        f'<line class="axis" x1="{pad_left}" y1="{axis_y}" x2="{width - pad_left}" y2="{axis_y}"/>'
    )
    for tick in (0, 0.5, 1):
        x = pad_left + plot_w * tick
        anchor = "start" if tick == 0 else "end" if tick == 1 else "middle"
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{height - 5}" text-anchor="{anchor}">{tick:g}</text>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - numbers and escaped strings only


def calibration_svg(
    points: Sequence[tuple[float, float, int]],
    *,
    title: str = "Calibration",
    size: int = 320,
    point_title: Callable[[float, float, int], str] | None = None,
) -> SafeString:
    """Mean claim score (x) vs. share labelled supported (y); the diagonal is perfect calibration.

    `points` are (mean score, share supported, count); dot area grows with the count.
    """
    pad = 40
    plot = size - 2 * pad
    peak = max((n for _, _, n in points), default=1) or 1

    def px(value: float) -> float:
        return pad + plot * value

    def py(value: float) -> float:
        return pad + plot * (1 - value)

    parts = [
        f'<svg class="chart calibration" viewBox="0 0 {size} {size}" role="img" focusable="false" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<rect class="plot-bg" x="{pad}" y="{pad}" width="{plot}" height="{plot}"/>',
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(
            f'<line class="grid" x1="{px(tick):.1f}" y1="{pad}" x2="{px(tick):.1f}" '
            f'y2="{pad + plot}"/><line class="grid" x1="{pad}" y1="{py(tick):.1f}" '
            f'x2="{pad + plot}" y2="{py(tick):.1f}"/>'
            f'<text class="tick" x="{px(tick):.1f}" y="{pad + plot + 14}" '
            f'text-anchor="middle">{tick:g}</text>'
            f'<text class="tick" x="{pad - 5}" y="{py(tick) + 4:.1f}" '
            f'text-anchor="end">{tick:g}</text>'
        )
    parts.append(f'<line class="diagonal" x1="{px(0)}" y1="{py(0)}" x2="{px(1)}" y2="{py(1)}"/>')
    ordered = sorted(points)
    if len(ordered) > 1:
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y, _ in ordered)
        parts.append(f'<polyline class="curve" points="{path}"/>')
    for x, y, n in ordered:
        radius = 3 + 6 * (n / peak) ** 0.5
        label = (
            point_title(x, y, n)
            if point_title
            else f"mean score {x:.2f}: {y:.0%} labelled supported ({n} claims)"
        )
        parts.append(
            f'<circle class="dot" cx="{px(x):.1f}" cy="{py(y):.1f}" r="{radius:.1f}">'
            f"<title>{escape(label)}</title></circle>"
        )
    parts.append(
        f'<text class="axis-label" x="{pad + plot / 2}" y="{size - 4}" text-anchor="middle">'
        "checker claim score</text>"
        f'<text class="axis-label" transform="translate(10 {pad + plot / 2}) rotate(-90)" '
        'text-anchor="middle">share labelled supported</text>'
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 - numbers and escaped strings only
