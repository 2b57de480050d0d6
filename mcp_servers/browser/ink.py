"""Visible means it changes pixels: a text counts as shown only if taking its ink away changes what
the viewport shows where it is.

Whatever a page does to hide words (a transparent fill, `filter: opacity(0)`, a clip path, a mask,
a cover, a colour matching the picture behind, a box scaled to nothing), the words leave the pixels
as they are when we take their ink away; and a glyph that overflows a box of no height still changes
them. So no list of CSS tricks decides, the pixels do: capture the texts' region, lay a style sheet
over the page that makes just those texts' ink transparent (ink only: their boxes, backgrounds and
borders stay), capture again, lift it. A text is seen when enough of its pixels changed by enough
(imaging.LEVEL). Where something that moves by itself lies in the region (a ticking clock, a video),
a third capture tells its motion apart, and a text whose region moved is undecided (None): the
caller falls back on the page's styles there. Fields' values are tested the same way.
"""
from __future__ import annotations

import numpy as np

from iwr.mcp_servers.browser import world
from iwr.mcp_servers.browser.settle import ACTIVITY
from iwr.mcp_servers.browser.veil import with_and_without
from iwr.mcp_servers.imaging import changed

# What takes a text's ink away and nothing else; a background clipped to the text is ink too, and
# unclipped (only where it was clipped: a field's own background clip is no ink) it stops being the words.
NO_INK = ("color: transparent !important; -webkit-text-fill-color: transparent !important; "
          "text-shadow: none !important; -webkit-text-stroke-color: transparent !important; "
          "text-decoration-color: transparent !important;")
UNCLIP = "-webkit-background-clip: border-box !important; background-clip: border-box !important;"
MIN_PIXELS = 3
MIN_SHARE = 0.005  # of the text's boxes: a sliver left by a clip path is not the words

# In-page helpers (joined to the observation scripts): a selector that names one element by its
# place in the tree (no attribute is written, so nothing in the page changes), and the boxes of an
# element's own words, each at least the font's height about its middle, when all of them lie
# inside the viewport (none otherwise: the styles decide there).
INK_FNS = """
  const pathOf = (el) => {
    const parts = [];
    for (let e = el; e !== document.documentElement; e = e.parentElement) {
      if (!e || e.getRootNode() !== document) return null;
      let i = 1; for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
      parts.unshift(':nth-child(' + i + ')');
    }
    return ':root > ' + parts.join(' > ');
  };
  const inkRects = (el) => {
    const fs = parseFloat(getComputedStyle(el).fontSize) || 16, out = [];
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange(); range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        // Words the viewport's edge cuts are judged as those below the fold are (no capture shows them whole).
        if (r.width && (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth)) return [];
        const h = Math.max(r.height, fs * 1.3), cy = r.top + r.height / 2;
        const x0 = Math.max(0, r.left - 1), x1 = Math.min(innerWidth, r.right + 1);
        const y0 = Math.max(0, cy - h / 2), y1 = Math.min(innerHeight, cy + h / 2);
        if (x1 - x0 >= 1 && y1 - y0 >= 1) out.push([x0, y0, x1 - x0, y1 - y0]);
      }
      if (out.length > 16) break;
    }
    return out;
  };
  // What may change its pixels with no change to the DOM: the third capture looks there.
  const liveBoxes = () => Array.from(document.querySelectorAll('canvas,video,iframe,object,embed,img')).map((e) => {
    const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }).filter((b) => b[2] > 0 && b[3] > 0).slice(0, 200);
  // The page's activity as the settle probes count it (settle.py), when they have run in this world:
  // verdicts made since on the same activity still hold.
  const activityNow = () => globalThis.__activity ? globalThis.__activity.activity() : null;
  const inView = (r) => r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  // A pixel candidate: the element's place and its words' boxes; `css`, what its styles say (painted, uncovered).
  const inkOf = (el) => { const p = pathOf(el), ink = p && shownUp(el) ? inkRects(el) : [];
    if (!p || !ink.length) return null;
    const cs = getComputedStyle(el), clip = cs.webkitBackgroundClip === 'text' || cs.backgroundClip === 'text';
    return {p, ink, css: painted(el) && uncovered(el), clip}; };
"""


def _union(items: list[dict]) -> tuple[int, int, int, int]:
    boxes = [r for it in items for r in it["ink"]]
    x0, y0 = int(min(b[0] for b in boxes)), int(min(b[1] for b in boxes))
    x1, y1 = int(np.ceil(max(b[0] + b[2] for b in boxes))), int(np.ceil(max(b[1] + b[3] for b in boxes)))
    return x0, y0, max(1, x1 - x0), max(1, y1 - y0)


def _verdict(diff: np.ndarray, rects: list, box: tuple, k: float) -> bool:
    """Whether enough of the pixels inside `rects` (viewport boxes; `box` the capture's) changed."""
    cut = [(int((y - box[1]) * k), int(np.ceil((y + h - box[1]) * k)), int((x - box[0]) * k),
            int(np.ceil((x + w - box[0]) * k))) for x, y, w, h in rects]
    y0, x0 = max(0, min(c[0] for c in cut)), max(0, min(c[2] for c in cut))
    mask = np.zeros((max(c[1] for c in cut) - y0, max(c[3] for c in cut) - x0), dtype=bool)  # the rects' bounds only
    for top, bottom, left, right in cut:
        mask[max(0, top) - y0:bottom - y0, max(0, left) - x0:right - x0] = True
    part = diff[y0:y0 + mask.shape[0], x0:x0 + mask.shape[1]]
    mask = mask[:part.shape[0], :part.shape[1]]
    area = int(mask.sum())
    return area > 0 and int((part & mask).sum()) >= max(MIN_PIXELS, MIN_SHARE * area)


def _overlaps(box: tuple, boxes: list) -> bool:
    x, y, w, h = box
    return any(bx < x + w and x < bx + bw and by < y + h and y < by + bh for bx, by, bw, bh in boxes)


def _stacked(a: dict, b: dict) -> bool:
    """Whether two texts' boxes lie over each other (more than a quarter of the smaller one), as the
    panels of tabs do: taking both inks away at once would credit the one below with the one on top."""
    for ax, ay, aw, ah in a["ink"]:
        for bx, by, bw, bh in b["ink"]:
            w, h = min(ax + aw, bx + bw) - max(ax, bx), min(ay + ah, by + bh) - max(ay, by)
            if w > 0 and h > 0 and w * h > 0.25 * min(aw * ah, bw * bh):
                return True
    return False


def _layers(items: list[dict]) -> list[list[int]]:
    """The candidates in groups of which no two lie over each other: one capture takes a group's ink away."""
    groups: list[list[int]] = []
    for i, it in enumerate(items):
        home = next((g for g in groups if not any(_stacked(it, items[j]) for j in g)), None)
        if home is None:
            groups.append(home := [])
        home.append(i)
    return groups


def _sheet(items: list[dict]) -> str:
    clipped = [it["p"] for it in items if it.get("clip")]
    return ",\n".join(it["p"] for it in items) + " { " + NO_INK + " }" + \
        (",\n".join(clipped) + " { " + UNCLIP + " }" if clipped else "")


def veils(items: list[dict]) -> tuple[tuple[int, int, int, int], list[list[int]], list[str]]:
    """What taking the candidates' ink away takes: the viewport box their words lie in, the groups of
    them that lose their ink in one capture, and each group's style sheet."""
    groups = _layers(items)
    return _union(items), groups, [_sheet([items[i] for i in g]) for g in groups]


async def seen(session, items: list[dict], scroll: tuple[float, float], live: list, activity=None,
               held: bool = False) -> list[bool | None] | None:
    """For each candidate {"p": selector, "ink": [[x, y, w, h], ...]}: True when taking its ink away
    changes the pixels there, False when nothing changes, None when the region moved by itself.

    Texts that lie over each other lose their ink in separate captures. `live` are the boxes of what
    may move without a DOM change (canvases, videos, frames, images): only where one lies in the
    region, or the DOM changed meanwhile, is a third capture needed to tell the page's own motion from
    the ink. The verdicts of an unchanged page are remembered; `activity`, the page's activity when the
    candidates were listed (activityNow), spares asking for it again. `held`: the caller holds the page
    at `activity` as its screenshot showed it (capture.settled_shot); None when that is not enough (a
    region where something may move needs the page released for a third capture)."""
    if not items:
        return []
    box, groups, sheets = veils(items)
    key = (box, scroll, tuple((it["p"], tuple(map(tuple, it["ink"]))) for it in items))
    still, memo = not _overlaps(box, live), session.ink_memo
    if held and not still:
        return None
    # A picture a style rule names changes pixels when it arrives, with no change to the DOM: verdicts
    # hold only while no request started or ended since, and none made with one open is kept.
    traffic, requests = session.inflight, session.inflight.events
    if still and memo is not None and memo[0][0] == (key, requests) and \
            memo[0][1] == (activity if activity is not None else await world.call(session, ACTIVITY)):
        return memo[1]
    first, bare, again, before = await with_and_without(session, sheets, box, scroll, again=not still,
                                                        held=activity if held else None)
    k = first.shape[1] / box[2]  # device pixels per CSS pixel
    moved = changed(first, again) if again is not None else None
    out: list[bool | None] = [None] * len(items)
    for g, veiled in zip(groups, bare):
        gone = changed(first, veiled)
        for i in g:
            ink = items[i]["ink"]
            out[i] = None if moved is not None and _verdict(moved, ink, box, k) else _verdict(gone, ink, box, k)
    session.ink_memo = None if traffic or traffic.events != requests else (((key, requests), before), out)
    return out


async def keep_seen(session, view: dict, scroll: tuple[float, float], live: list, activity=None) -> dict:
    """The view as a person sees it: the texts in the viewport whose ink changes pixels (styles decide
    where the region moved by itself) and those outside it that the styles show; a field's value only
    where it shows; a selected element or a dialog holding words only where one of them shows (one
    without words, where its styles show it). Pixel fields dropped."""
    tested = [t for t in view["texts"] + view["fields"] if t.get("ink")]
    verdicts = dict(zip(map(id, tested), await seen(session, tested, scroll, live, activity)))
    shows = lambda t: t.get("css", True) if verdicts.get(id(t)) is None else verdicts[id(t)]  # noqa: E731
    bare = lambda t: {k: v for k, v in t.items() if k not in ("ink", "p", "css", "clip")}  # noqa: E731
    texts = view["texts"]
    held = lambda box: not box["words"] or any(shows(texts[i]) for i in box["i"])  # noqa: E731
    return {**view, "texts": [bare(t) for t in texts if shows(t)],
            "fields": [bare(f) if shows(f) else {**bare(f), "value": "", "ph": ""} for f in view["fields"]],
            "states": [s["t"] for s in view["states"] if held(s)],
            "dialogs": list(dict.fromkeys(d["t"] for d in view["dialogs"] if held(d)))}
