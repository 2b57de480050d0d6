"""A colour a sentence names is decided by what paints the pixels: "the switch turns purple", "the email
box turns green"; and so is a named thing said to be chosen ("the row is highlighted"). A page may paint a control in a pseudo-element, a sibling drawn over it, a border, an
SVG or a canvas, none of which its styles list tells; the screenshots before and after the action tell
them all. The claim holds where enough pixels that changed are now that colour (near the named words
when the sentence names something).
"""
from __future__ import annotations

import numpy as np

from iwr.graphs.element_match import hls_fits
from iwr.graphs.page_view import flat, pattern
from iwr.mcp_servers.imaging import changed, rgb

MIN_PIXELS = 40  # a 7-pixel square: a switch's knob track or a field's border repainted, not anti-aliasing
ROW_ABOVE, ROW_BELOW = 24, 64  # how far a named thing's row reaches (a switch beside its label, a box under it)


def _hls(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hue (degrees), lightness and saturation of RGB pixels (an n x 3 array of 0-255)."""
    x = pixels.astype(float) / 255
    r, g, b = x[:, 0], x[:, 1], x[:, 2]
    hi, lo = x.max(1), x.min(1)
    light, span = (hi + lo) / 2, hi - lo
    sat = np.where(span == 0, 0.0, span / np.maximum(1e-9, 1 - np.abs(2 * light - 1)))
    safe = np.where(span == 0, 1.0, span)
    hue = np.where(hi == r, ((g - b) / safe) % 6, np.where(hi == g, (b - r) / safe + 2, (r - g) / safe + 4)) * 60
    return np.where(span == 0, 0.0, hue), light, sat


def rows_of(view: dict, names: tuple[str, ...], below: int = ROW_BELOW) -> list[tuple[int, int]]:
    """The bands of the screen (top, bottom) about the texts that show the names."""
    bands = []
    for q in names:
        p = pattern(q)
        bands += [(t["y"] - ROW_ABOVE, t["y"] + below) for t in view.get("texts", [])
                  if "y" in t and t.get("v", True) and p.search(flat(t["t"]))]
    return bands


def painted(colour: str, before: str, after: str, bands: list[tuple[int, int]] | None = None,
            fresh: bool = True) -> tuple[bool | None, str]:
    """Whether the pixels that changed between two screenshots are, enough of them, `colour` now (within
    `bands` when given; with `fresh` False, the pixels there whether they changed or not: "X is red");
    None when the screenshots cannot be compared."""
    a, b = rgb(before), rgb(after)
    if a.shape != b.shape:
        return None, "the screenshots differ in size"
    diff = changed(a, b) if fresh else np.ones(b.shape[:2], dtype=bool)
    if bands is not None:
        keep = np.zeros(diff.shape[0], dtype=bool)
        for top, bottom in bands:
            keep[max(0, top):max(0, bottom)] = True
        diff &= keep[:, None]
    hue, light, sat = _hls(b[diff])
    n = int(np.count_nonzero(hls_fits(colour, hue, light, sat)))
    return n >= MIN_PIXELS, f"{n} {'changed ' if fresh else ''}pixel(s) now {colour}{' near the named words' if bands is not None else ''}"


def highlighted(before: str, after: str, bands: list[tuple[int, int]]) -> tuple[bool | None, str]:
    """Whether the rows of the named words were repainted (a highlight a person sees, whatever draws it):
    enough pixels changed there."""
    a, b = rgb(before), rgb(after)
    if a.shape != b.shape or not bands:
        return None, "no named row to look at"
    diff = changed(a, b)
    n = sum(int(np.count_nonzero(diff[max(0, top):max(0, bottom)])) for top, bottom in bands)
    return n >= MIN_HIGHLIGHT, f"{n} pixel(s) repainted about the named words"


MIN_HIGHLIGHT = 400  # a row's background, not a caret or a focus ring's corner


def _recheckable(c: dict) -> bool:
    """A failed claim the pixels may decide: a colour, or a named thing said to be chosen (a highlight)."""
    if c["kind"] == "styled":
        return bool(c.get("colour"))
    return c["kind"] == "selected" and bool(c["texts"]) and not c.get("negated")


async def by_pixels(ctx, sid: str, verdict: dict, before: str | None, after: str | None) -> dict:
    """A sentence's verdict that failed only on colours or highlights, decided again on the screenshots' pixels."""
    failed = [c for c in verdict.get("claims", []) if not c["ok"]]
    if verdict["passed"] or not before or not after or not failed or not all(_recheckable(c) for c in failed):
        return verdict
    view = await ctx.tools.call("browser", "observe", session=sid, assets=ctx.served()) if any(c["texts"] for c in failed) else {}
    said = []
    for c in failed:
        if c["kind"] == "selected":
            ok, why = highlighted(before, after, rows_of(view, tuple(c["texts"]), below=ROW_ABOVE))
        else:
            # "the password box is red", naming nothing the page writes: what the action repainted is red
            ok, why = painted(c["colour"], before, after, rows_of(view, tuple(c["texts"])) if c["texts"] else None,
                              c.get("fresh", True) or not c["texts"])
        if not ok:
            return verdict
        c.update(ok=True, observed=f"{c['observed']}; by the pixels: {why}")
        said.append(why)
    return {**verdict, "passed": True, "reason": "; ".join(said), "decided_by": "pixels"}
