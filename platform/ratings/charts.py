"""A rating-history chart as inline SVG (no external service, no JavaScript)."""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 480, 160, 24


def rating_chart_svg(points: list[float], chart_id: str, title: str) -> str:
    """A polyline of ratings after each game, with the first and last values labelled; ``chart_id`` makes the
    element ids unique on the page, ``title`` is its accessible name."""
    if len(points) < 2:
        return ""
    low, high = min(points), max(points)
    span = max(high - low, 1.0)
    step = (WIDTH - 2 * PAD) / (len(points) - 1)
    coordinates = [
        (PAD + index * step, HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD))
        for index, value in enumerate(points)
    ]
    polyline = " ".join(f"{x:.1f},{y:.1f}" for x, y in coordinates)
    description = _(
        "Rating from %(first)s to %(last)s over %(count)s games, between %(low)s and %(high)s."
    ) % {
        "first": round(points[0]),
        "last": round(points[-1]),
        "count": len(points) - 1,
        "low": round(low),
        "high": round(high),
    }
    labels = format_html_join(
        "",
        '<text x="{}" y="{}" class="chart-label">{}</text>',
        [
            (f"{coordinates[0][0]:.0f}", f"{coordinates[0][1] - 6:.0f}", round(points[0])),
            (f"{coordinates[-1][0] - 20:.0f}", f"{coordinates[-1][1] - 6:.0f}", round(points[-1])),
        ],
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" aria-labelledby="{}-t {}-d">'
        '<title id="{}-t">{}</title><desc id="{}-d">{}</desc>'
        '<polyline points="{}" fill="none" stroke="currentColor" stroke-width="2"/>{}</svg>',
        WIDTH,
        HEIGHT,
        chart_id,
        chart_id,
        chart_id,
        title,
        chart_id,
        description,
        polyline,
        labels,
    )
