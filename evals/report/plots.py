"""Hand-written inline SVG plots for the report: IFS/VFS scatter, first-failure histogram, score per turn."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape

PALETTE = ("#2563eb", "#ea580c", "#16a34a", "#9333ea", "#dc2626", "#0891b2", "#ca8a04", "#db2777", "#4b5563")
SHAPES = ("circle", "square", "triangle", "diamond")


@dataclass
class Series:
    """One run in a plot: its label, colour and data (points for the scatter, counts for the histogram)."""

    label: str
    color: str
    points: list[tuple[float, float, str, str]] = field(default_factory=list)  # x, y (0..1), tooltip, link
    counts: list[int] = field(default_factory=list)


def color(i: int) -> str:
    """The colour of the i-th run."""
    return PALETTE[i % len(PALETTE)]


def _marker(shape: str, x: float, y: float, c: str, tip: str = "", r: float = 5.5) -> str:
    style = f'fill="{c}" fill-opacity="0.45" stroke="{c}" stroke-width="1.6"'
    inner = f"<title>{escape(tip)}</title>" if tip else ""
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {style}>{inner}</rect>'
    if shape in ("triangle", "diamond"):
        d = r + 1.5
        pts = (f"{x:.1f},{y - d:.1f} {x + d:.1f},{y + r:.1f} {x - d:.1f},{y + r:.1f}" if shape == "triangle" else
               f"{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}")
        return f'<polygon points="{pts}" {style}>{inner}</polygon>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {style}>{inner}</circle>'


def _legend(series: list[Series], x0: float, y: float, markers: bool) -> list[str]:
    out, x = [], x0
    for i, s in enumerate(series):
        sym = _marker(SHAPES[i % len(SHAPES)], x + 6, y - 4, s.color) if markers else \
            f'<rect x="{x}" y="{y - 10}" width="12" height="12" rx="2" fill="{s.color}"/>'
        out.append(f'{sym}<text x="{x + 18}" y="{y}" class="lg">{escape(s.label)}</text>')
        x += 34 + 7 * len(s.label)
    return out


def _svg(w: int, h: int, label: str, body: list[str]) -> str:
    return (f'<svg class="plot" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'aria-label="{escape(label)}"><title>{escape(label)}</title>'
            + "".join(body) + "</svg>")


def scatter_svg(series: list[Series], w: int = 540, h: int = 400) -> str:
    """IFS (x) against VFS (y) per task, x100, one colour and marker shape per run, with a legend."""
    ml, mr, mt, mb = 52, 18, 14, 78
    pw, ph = w - ml - mr, h - mt - mb
    pad = 0.04  # keep markers at 0 and 100 inside the frame
    sx = lambda v: ml + (v + pad) / (1 + 2 * pad) * pw  # noqa: E731
    sy = lambda v: mt + (1 - (v + pad) / (1 + 2 * pad)) * ph  # noqa: E731
    body = [f'<rect x="{ml}" y="{mt}" width="{pw}" height="{ph}" class="pa"/>']
    for t in range(0, 101, 25):
        v = t / 100
        body.append(f'<line x1="{sx(v):.1f}" y1="{mt}" x2="{sx(v):.1f}" y2="{mt + ph}" class="gr"/>'
                    f'<line x1="{ml}" y1="{sy(v):.1f}" x2="{ml + pw}" y2="{sy(v):.1f}" class="gr"/>'
                    f'<text x="{sx(v):.1f}" y="{mt + ph + 16}" class="tk" text-anchor="middle">{t}</text>'
                    f'<text x="{ml - 8}" y="{sy(v) + 4:.1f}" class="tk" text-anchor="end">{t}</text>')
    body.append(f'<text x="{ml + pw / 2}" y="{mt + ph + 36}" class="ax" text-anchor="middle">IFS (interactive functionality)</text>'
                f'<text transform="translate(14 {mt + ph / 2}) rotate(-90)" class="ax" text-anchor="middle">VFS (visual fidelity)</text>')
    for i, s in enumerate(series):
        for x, y, tip, href in s.points:
            m = _marker(SHAPES[i % len(SHAPES)], sx(min(max(x, 0), 1)), sy(min(max(y, 0), 1)), s.color, tip)
            body.append(f'<a href="{escape(href)}">{m}</a>' if href else m)
    body += _legend(series, ml, h - 12, markers=True)
    return _svg(w, h, "IFS against VFS per task", body)


def histogram_svg(categories: list[str], series: list[Series], w: int = 540, h: int = 400) -> str:
    """Grouped bars: per category (action index of the first failure), one bar per run."""
    ml, mr, mt, mb = 44, 12, 14, 78
    pw, ph = w - ml - mr, h - mt - mb
    top = max([c for s in series for c in s.counts] + [1])
    step = max(1, math.ceil(top / 5))
    top = step * math.ceil(top / step)
    body = [f'<rect x="{ml}" y="{mt}" width="{pw}" height="{ph}" class="pa"/>']
    for t in range(0, top + 1, step):
        y = mt + ph - t / top * ph
        body.append(f'<line x1="{ml}" y1="{y:.1f}" x2="{ml + pw}" y2="{y:.1f}" class="gr"/>'
                    f'<text x="{ml - 6}" y="{y + 4:.1f}" class="tk" text-anchor="end">{t}</text>')
    slot = pw / max(1, len(categories))
    bw = min(22.0, slot * 0.8 / max(1, len(series)))
    for j, cat in enumerate(categories):
        cx = ml + slot * (j + 0.5)
        body.append(f'<text x="{cx:.1f}" y="{mt + ph + 16}" class="tk" text-anchor="middle">{escape(cat)}</text>')
        for i, s in enumerate(series):
            n = s.counts[j] if j < len(s.counts) else 0
            x = cx - bw * len(series) / 2 + i * bw
            bh = n / top * ph
            body.append(f'<rect x="{x:.1f}" y="{mt + ph - bh:.1f}" width="{max(bw - 2, 1):.1f}" height="{bh:.1f}" '
                        f'fill="{s.color}"><title>{escape(s.label)}: {n} task(s) at {escape(cat)}</title></rect>')
    body.append(f'<text x="{ml + pw / 2}" y="{mt + ph + 36}" class="ax" text-anchor="middle">'
                'action index of the first failed action</text>'
                f'<text transform="translate(12 {mt + ph / 2}) rotate(-90)" class="ax" text-anchor="middle">tasks</text>')
    body += _legend(series, ml, h - 12, markers=False)
    return _svg(w, h, "Where replays first failed", body)


def _x_ticks(xmax: float, integer: bool) -> tuple[float, list[float], int]:
    """Axis end, tick values and decimals: whole steps for counts (turns), else a 1-2-5 end in five steps."""
    if integer:
        step = max(1, math.ceil(xmax / 5))
        top = step * max(1, math.ceil(xmax / step))
        return top, [float(v) for v in range(0, top + 1, step)], 0
    base = 10 ** math.floor(math.log10(xmax))
    top = next(m * base for m in (1, 2, 5, 10) if m * base >= xmax * (1 - 1e-9))
    step = top / 5
    return top, [step * k for k in range(6)], max(0, -math.floor(math.log10(step)))


def line_svg(series: list[Series], xlabel: str, title: str, xprefix: str = "", integer: bool = False,
             w: int = 400, h: int = 320) -> str:
    """Mean Final (y, x100) against a cost axis (turns, tokens, dollars): one line with markers per run."""
    ml, mr, mt, mb = 46, 30, 14, 72
    pw, ph = w - ml - mr, h - mt - mb
    xmax, ticks, decimals = _x_ticks(max([x for s in series for x, *_ in s.points] + [1e-9]), integer)
    sx = lambda v: ml + v / xmax * pw  # noqa: E731
    sy = lambda v: mt + (1 - v) * ph  # noqa: E731
    body = [f'<rect x="{ml}" y="{mt}" width="{pw}" height="{ph}" class="pa"/>']
    for k in range(5):
        body.append(f'<line x1="{ml}" y1="{sy(k / 4):.1f}" x2="{ml + pw}" y2="{sy(k / 4):.1f}" class="gr"/>'
                    f'<text x="{ml - 6}" y="{sy(k / 4) + 4:.1f}" class="tk" text-anchor="end">{k * 25}</text>')
    for x in ticks:
        body.append(f'<line x1="{sx(x):.1f}" y1="{mt}" x2="{sx(x):.1f}" y2="{mt + ph}" class="gr"/>'
                    f'<text x="{sx(x):.1f}" y="{mt + ph + 16}" class="tk" text-anchor="middle">'
                    f'{escape(f"{xprefix}{x:.{decimals}f}")}</text>')
    body.append(f'<text x="{ml + pw / 2}" y="{mt + ph + 36}" class="ax" text-anchor="middle">{escape(xlabel)}</text>'
                f'<text transform="translate(12 {mt + ph / 2}) rotate(-90)" class="ax" text-anchor="middle">mean Final</text>')
    for i, s in enumerate(series):
        pts = [(sx(x), sy(min(max(y, 0), 1)), tip) for x, y, tip, _ in s.points]
        body.append(f'<polyline fill="none" stroke="{s.color}" stroke-width="2" points="'
                    + " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in pts) + '"/>')
        body += [_marker(SHAPES[i % len(SHAPES)], x, y, s.color, tip, r=4) for x, y, tip in pts]
    body += _legend(series, ml, h - 10, markers=True)
    return _svg(w, h, title, body)
