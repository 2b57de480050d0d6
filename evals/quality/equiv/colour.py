"""A different palette: colour literals hue-rotated at unchanged luminance.

Keeping each colour's relative luminance keeps every text/background contrast ratio as it was, so
the page stays as readable as the reference while no chromatic colour is the same. Greys keep
their hue (they have none) and move slightly towards mid-grey.
"""
from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass

COLOUR = re.compile(r"#(?:[0-9a-fA-F]{8}|[0-9a-fA-F]{6}|[0-9a-fA-F]{3,4})\b|\b(?:rgba?|hsla?)\([^()]*\)")
SKIP = re.compile(r"url\([^)]*\)|\"[^\"]*\"|'[^']*'")


@dataclass
class Palette:
    """How colours change: hue rotation in degrees and the lightness step for greys."""

    hue: float = 40.0
    grey_step: float = 0.03

    def rgb(self, r: float, g: float, b: float) -> tuple[float, float, float]:
        """A colour (channels 0..1) in the new palette."""
        h, l, s = colorsys.rgb_to_hls(r, g, b)
        if s < 0.12 or l < 0.03 or l > 0.985:
            l2 = l - self.grey_step if l > 0.5 else l + self.grey_step
            return colorsys.hls_to_rgb(h, min(1.0, max(0.0, l2)), s)
        target = _luminance(r, g, b)
        h2 = (h + self.hue / 360.0) % 1.0
        lo, hi = 0.0, 1.0
        for _ in range(30):
            mid = (lo + hi) / 2
            if _luminance(*colorsys.hls_to_rgb(h2, mid, s)) < target:
                lo = mid
            else:
                hi = mid
        return colorsys.hls_to_rgb(h2, (lo + hi) / 2, s)

    def literal(self, text: str) -> str:
        """One CSS colour literal rewritten; unparsable ones come back unchanged."""
        parsed = parse(text)
        if parsed is None:
            return text
        (r, g, b), alpha = parsed
        r2, g2, b2 = self.rgb(r, g, b)
        ints = [max(0, min(255, round(v * 255))) for v in (r2, g2, b2)]
        if text.startswith("#"):
            out = "#" + "".join(f"{v:02x}" for v in ints)
            return out + (f"{round(alpha * 255):02x}" if alpha < 1 else "")
        if alpha < 1 or text.lower().startswith(("rgba", "hsla")):
            return f"rgba({ints[0]}, {ints[1]}, {ints[2]}, {_num(alpha)})"
        return f"rgb({ints[0]}, {ints[1]}, {ints[2]})"

    def value(self, value: str) -> str:
        """A CSS value with its colour literals rewritten (never inside url() or strings)."""
        out, last = [], 0
        for m in SKIP.finditer(value):
            out.append(COLOUR.sub(lambda c: self.literal(c.group()), value[last:m.start()]))
            out.append(m.group())
            last = m.end()
        out.append(COLOUR.sub(lambda c: self.literal(c.group()), value[last:]))
        return "".join(out)


def _num(x: float) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".") or "0"


def _lin(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _luminance(r: float, g: float, b: float) -> float:
    return 0.2126 * _lin(r) + 0.7152 * _lin(g) + 0.0722 * _lin(b)


def _channel(tok: str, scale: float) -> float:
    tok = tok.strip()
    if tok.endswith("%"):
        return float(tok[:-1]) / 100
    return float(tok) / scale


def parse(text: str) -> tuple[tuple[float, float, float], float] | None:
    """((r, g, b) in 0..1, alpha) of a hex, rgb() or hsl() literal; None if it is not one."""
    t = text.strip().lower()
    try:
        if t.startswith("#"):
            h = t[1:]
            if len(h) in (3, 4):
                h = "".join(c * 2 for c in h)
            rgb = tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
            alpha = int(h[6:8], 16) / 255 if len(h) == 8 else 1.0
            return rgb, alpha  # type: ignore[return-value]
        inner = t[t.index("(") + 1:t.rindex(")")]
        parts = [p for p in re.split(r"[\s,/]+", inner) if p]
        alpha = _channel(parts[3], 1) if len(parts) > 3 else 1.0
        if t.startswith("rgb"):
            return (_channel(parts[0], 255), _channel(parts[1], 255), _channel(parts[2], 255)), alpha
        hue = float(parts[0].replace("deg", "")) / 360
        rgb = colorsys.hls_to_rgb(hue % 1.0, _channel(parts[2], 1), _channel(parts[1], 1))
        return rgb, alpha
    except (ValueError, IndexError):
        return None
