"""Where the recording's pointer pressed: what a person watching the video sees, for an action whose
words find nothing on the page ("the round arrow button", "the red square at its right end").

Recordings made by `iwr record` draw a red ring where the pointer presses (tasks/video.draw_pointer).
A ring that appears between two frames is a press, a key badge that appears is a key; the presses and
keys, in order, are paired with the actions that press (Click, Type) and the keys (Press) as two
sequences (graphs/press_alignment.py), and an action whose place is uncertain has none. The frame
just before a press shows the original page under the pointer: a patch of it around the press point,
with the pointer itself masked out, is looked for on the candidate's screenshot (through the metrics
server), and where it matches well the action presses at the same spot of the match. A recording without
rings (a real cursor, as in the official videos) gives no presses, and the words alone decide.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import av
import cv2
import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage

from iwr.graphs.press_alignment import SHOWS, align
from iwr.tasks.loader import video_in
from iwr.tasks.video import POINTER

PRESSING = tuple(kind for kind, shown in SHOWS.items() if shown == "press")
RING = (11.5, 16.5)  # the drawn ring (radius 16, 4 wide, drawn inwards), a little blurred by the encoding
RING_MIN = 0.4  # share of the ring that turned red (the pointer, drawn over it, hides a quarter)
AROUND_MAX = 0.15  # share of the disc inside it, or of the band around it, that turned red (a ring, not a red area)
NEW_RED_MIN = 60  # red pixels a frame must gain before a ring is looked for
ONE_ACTION_S = 0.75  # rings closer in time belong to one action (a list's option after the list; red shown after it)
PATCH = (120, 48)  # width, height of the patch looked for, centred on the press point
MIN_MATCH = 0.8  # the masked correlation a match needs


@dataclass(frozen=True)
class Press:
    """A press the recording shows: when, where (in the video's pixels), and the patch of the frame
    before it (RGBA: the pointer and the ring transparent)."""

    time: float
    x: int
    y: int
    patch: Image.Image
    offset: tuple[int, int]  # the press point within the patch
    frame: tuple[int, int]  # the video's width and height


def _red(a: np.ndarray) -> np.ndarray:
    """Pixels of about the ring's colour (230, 40, 40) as the encoding leaves it (blurred towards what
    is around it); a ring on a red or pink area is not seen."""
    r, g, b = (a[..., k].astype(np.int16) for k in range(3))
    return (r - (g + b) // 2 > 70) & (r > 140)


def _kernel(inner: float, outer: float) -> np.ndarray:
    yy, xx = np.mgrid[-24:25, -24:25]
    k = ((np.hypot(yy, xx) >= inner) & (np.hypot(yy, xx) <= outer)).astype(float)
    return k / k.sum()


ANNULUS, DISC, BAND = _kernel(*RING), _kernel(0, RING[0] - 3), _kernel(RING[1] + 3, RING[1] + 7)


def _spread(r: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """The share of `kernel`'s pixels set around each pixel (zero beyond the edges)."""
    return cv2.filter2D(r, -1, kernel, borderType=cv2.BORDER_CONSTANT)


def ring_centres(red: np.ndarray, before: np.ndarray) -> list[tuple[int, int]]:
    """Centres of hollow red rings that are new in a frame (red pixels it has and `before` had not)."""
    turned = red & ~before
    if turned.sum() < NEW_RED_MIN:  # most frames: nothing new, and nothing more to compute
        return []
    ys, xs = np.nonzero(turned)  # only around what turned red: the rest of the frame cannot hold a new ring
    y0, x0 = max(0, ys.min() - 26), max(0, xs.min() - 26)
    y1, x1 = ys.max() + 27, xs.max() + 27
    # red that only moved a pixel or two (the encoding's blur) is not new
    new = red[y0:y1, x0:x1] & ~ndimage.binary_dilation(before[y0:y1, x0:x1], iterations=2)
    if new.sum() < NEW_RED_MIN:
        return []
    r = new.astype(float)
    ring = _spread(r, ANNULUS)
    around = np.maximum(_spread(r, DISC), _spread(r, BAND))
    score = np.where((ring >= RING_MIN) & (around <= AROUND_MAX), ring - around, 0)
    peaks = (score > 0) & (score == ndimage.maximum_filter(score, size=15))
    found: list[tuple[int, int]] = []
    for y, x in zip(*np.nonzero(peaks)):  # a plateau gives neighbouring peaks of one ring
        if all(abs(x + x0 - fx) + abs(y + y0 - fy) > 8 for fx, fy in found):
            found.append((int(x + x0), int(y + y0)))
    return found


def _patch(before: np.ndarray, ringed: np.ndarray, x: int, y: int) -> tuple[Image.Image, tuple[int, int]]:
    """The page around (x, y) as the frame before the press shows it; transparent where the pointer is
    drawn (where it lands, and wherever the two frames differ: the ring, the pointer gliding in)."""
    h, w = before.shape[:2]
    x0, y0 = max(0, x - PATCH[0] // 2), max(0, y - PATCH[1] // 2)
    x1, y1 = min(w, x0 + PATCH[0]), min(h, y0 + PATCH[1])
    a, b = before[y0:y1, x0:x1], ringed[y0:y1, x0:x1]
    moved = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) > 40
    arrow = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(arrow).polygon([(x - x0 + px * 1.2, y - y0 + py * 1.2) for px, py in POINTER], fill=255)
    hidden = ndimage.binary_dilation(moved | (np.asarray(arrow) > 0), iterations=3)
    alpha = np.where(hidden, 0, 255).astype(np.uint8)
    rgba = np.dstack([a, alpha])
    return Image.fromarray(rgba, "RGBA"), (x - x0, y - y0)


def key_badge(a: np.ndarray) -> bool:
    """Whether the frame shows the recorder's key badge (tasks/video.draw_key): its dark fill above and
    left of the key's name, in the bottom-left corner."""
    h = a.shape[0]
    top, left = a[h - 54:h - 50, 26:66], a[h - 46:h - 26, 18:24]
    return bool(top.size and left.size and all(np.abs(p.astype(np.int16) - 30).max() <= 25 for p in (top, left)))


@functools.lru_cache(maxsize=8)
def _events(video: str, stamp: tuple[int, int]) -> tuple[tuple[Press, ...], tuple[float, ...]]:
    found: list[Press] = []
    keys: list[float] = []
    prev, prev_red, prev_key = None, None, False
    with av.open(video) as c:
        for frame in c.decode(video=0):
            a, t = frame.to_ndarray(format="rgb24"), float(frame.time or 0)
            red, key = _red(a), key_badge(a)
            if prev is not None:
                found += [Press(t, x, y, *_patch(prev, a, x, y), (a.shape[1], a.shape[0]))
                          for x, y in ring_centres(red, prev_red)]
                keys += [t] if key and not prev_key else []
            prev, prev_red, prev_key = a, red, key
    return tuple(one_per_action(found)), tuple(keys)


def one_per_action(found: list[Press]) -> list[Press]:
    """The presses, each with those that follow it within ONE_ACTION_S left out."""
    kept: list[Press] = []
    for p in found:
        if not kept or p.time - kept[-1].time >= ONE_ACTION_S:
            kept.append(p)
    return kept


def events(video: Path) -> tuple[tuple[Press, ...], tuple[float, ...]]:
    """The presses and the times of the keys a recording shows, in order (read once per file and kept
    while it is unchanged)."""
    st = Path(video).stat()
    return _events(str(video), (st.st_size, st.st_mtime_ns))


def press_of(task: dict, folder: str | Path, index: int) -> tuple[Press | None, str]:
    """The press of action `index` (0-based) of the task, and why there is none when there is none."""
    actions = task.get("action_sequence") or []
    if not 0 <= index < len(actions) or actions[index].get("type") not in PRESSING:
        return None, "the action does not press"
    video = video_in(Path(folder))
    if video is None:
        return None, "the task has no recording"
    try:
        found, keys = events(video)
    except (OSError, av.error.FFmpegError, ValueError) as e:
        return None, f"the recording cannot be read: {e}"
    if not found:
        return None, "the recording shows no press (no click ring)"
    timeline = sorted([(p.time, "press", p) for p in found] + [(t, "key", None) for t in keys], key=lambda e: e[0])
    placed = align([a.get("type") for a in actions], [(kind, t) for t, kind, _ in timeline])
    if index not in placed:
        return None, (f"the recording's {len(found)} presses and {len(keys)} keys leave this action's place uncertain "
                      f"among its {len(actions)} actions")
    if placed[index] is None:
        return None, "the recording shows no press where this action happened (a ring not seen)"
    return timeline[placed[index]][2], ""


def patch_file(press: Press, folder: Path, name: str, page: tuple[int, int]) -> tuple[Path, tuple[float, float]]:
    """The press's patch as a PNG in `folder`, scaled from the video's pixels to the page's (`page` is
    the page's width and height), and the press point within it."""
    sx, sy = page[0] / press.frame[0], page[1] / press.frame[1]
    img = press.patch
    if (sx, sy) != (1.0, 1.0):
        img = img.resize((max(1, round(img.width * sx)), max(1, round(img.height * sy))))
    path = Path(folder) / f"{name}.png"
    img.save(path)
    return path, (press.offset[0] * sx, press.offset[1] * sy)
