"""The recording decides what the words leave open.

A sentence with nothing decidable ("The history is emptied") still describes what the video shows
happening. Where the task holds the recording's states on both sides of the action (the checkpoint
before it and the one after it), the judge reads both with the same OCR as VFS and asks the page for
the same change: words that appeared in the recording must show on the page afterwards, words that
vanished from it (and that the page showed) must be gone; where no word changed but the recording's
pixels did, the page must change visibly, outside pictures, near where the recording changed. Where
the recording has no such pair, or shows no change, the action is `undecided`: counted apart, on the
old rule of a visible change (see visible_change.py).
"""
from __future__ import annotations

import difflib
import re
from collections import Counter

import numpy as np

from iwr.mcp_servers.imaging import CELL, cells, changed, image_size, rgb

WORD = re.compile(r"[a-z]{3,}|\d[\d.,:/%]*\d|\d")
FUZZY_MIN = 5  # letters a word needs before a near spelling (an OCR slip) counts as the word
FUZZY_CUTOFF = 0.8
NEAR_CELLS = 4  # how far (in 16-pixel cells) the page's change may lie from the recording's


def words(text: str) -> Counter:
    """The words OCR or a page gives, lower-cased (letters, three or more, and numbers), counted."""
    return Counter(WORD.findall((text or "").lower()))


def page_words(view: dict) -> Counter:
    """The words a page shows in its viewport (what a checkpoint shows): visible texts and field values;
    struck-through text not (OCR reads no word through a line, as in the recording)."""
    return words(" ".join([t["t"] for t in view.get("texts", []) if t.get("v", True) and not t.get("strike")] +
                          [f.get("value") or "" for f in view.get("fields", [])]))


def _near_spelling(word: str, pool) -> bool:
    """Whether a word of `pool` is `word` with a letter or so misread (same length: 'savcd' is 'saved',
    'save' is another word)."""
    same = [w for w in pool if len(w) == len(word)]
    return word.isalpha() and len(word) >= FUZZY_MIN and bool(difflib.get_close_matches(word, same, n=1, cutoff=FUZZY_CUTOFF))


def change_between(before: str, after: str) -> np.ndarray | None:
    """The cells that differ between two images of one size (None when their sizes differ)."""
    a, b = rgb(before), rgb(after)
    return cells(changed(a, b)) if a.shape == b.shape else None


def regions(grid: np.ndarray, size: tuple[int, int], most: int = 12) -> list[list[int]]:
    """The boxes [x, y, w, h] (pixels, one cell of margin) about the groups of changed cells, cells one
    apart on a line joined (the words of one message); the `most` largest."""
    h, w = grid.shape
    grown = grid.copy()  # joined along the line only: a taller box makes OCR read the lines around anew
    grown[:, 1:] |= grid[:, :-1]
    grown[:, :-1] |= grid[:, 1:]
    seen, boxes = np.zeros_like(grown), []
    for y, x in zip(*np.nonzero(grown)):
        if seen[y, x]:
            continue
        seen[y, x], todo, ys, xs = True, [(y, x)], [], []
        while todo:
            cy, cx = todo.pop()
            ys.append(cy)
            xs.append(cx)
            for ny, nx in ((cy - 1, cx), (cy + 1, cx), (cy, cx - 1), (cy, cx + 1)):
                if 0 <= ny < h and 0 <= nx < w and grown[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    todo.append((ny, nx))
        x0, y0 = max(0, (min(xs) - 1) * CELL), max(0, (min(ys) - 1) * CELL)
        x1, y1 = min(size[0], (max(xs) + 2) * CELL), min(size[1], (max(ys) + 2) * CELL)
        boxes.append([int(x0), int(y0), int(x1 - x0), int(y1 - y0)])
    return sorted(boxes, key=lambda b: -b[2] * b[3])[:most]


async def recorded(ctx, step: int) -> dict | None:
    """What the recording shows changing across action `step` (1-based): the words whose count rose and
    fell between the checkpoints before and after it, read where their pixels differ (OCR of a whole page
    shifts with any change; of the changed parts, it reads what changed), and the cells that changed;
    None when the task has no checkpoint on one side. Read once per task and step."""
    before, after = ctx.refs.get(step - 1), ctx.refs.get(step)
    if ctx.config.paper_compat or not (before and after):  # paper-compat pairs checkpoints by position only
        return None
    if step not in ctx.recorded:
        grid = change_between(before, after)
        boxes = regions(grid, image_size(after)) if grid is not None else [None]
        wb, wa = Counter(), Counter()
        for box in boxes:
            for path, into in ((before, wb), (after, wa)):
                into.update(words((await ctx.tools.call("metrics", "ocr", image=path, max_chars=50_000, box=box))["text"]))
        ctx.recorded[step] = {"appeared": sorted(wa - wb), "vanished": sorted(wb - wa), "cells": grid}
    return ctx.recorded[step]


def by_words(rec: dict, before_view: dict, after_view: dict) -> tuple[bool | None, str]:
    """Whether the page made the recording's change of words: most of the words whose count rose in the
    recording rose on the page (or one spelled nearly alike rose: an OCR slip); where none rose, most of
    those whose count fell (among the ones the page showed) fell on it. None when neither kind is on
    the page: the words cannot decide."""
    now, then = page_words(after_view), page_words(before_view)
    appeared = rec["appeared"]
    # a word the page shows as often before as after says nothing (OCR read it, or a near spelling of
    # it, anew: 'Lighten' read as 'lighter' once the picture behind it changed; or it shows twice)
    steady = [w for w in now if now[w] and now[w] == then[w]]
    appeared = [w for w in appeared if not (then[w] and now[w] == then[w]) and not _near_spelling(w, steady)
                and not any(len(w) >= 3 and len(s) == len(w) + 1 and (s.endswith(w) or s.startswith(w)) for s in steady)]
    # ('alue': 'value' with a letter clipped at the edge of what OCR read anew)
    new_words = [w for w in now if now[w] > then[w]]
    missing = [w for w in appeared if not (now[w] > then[w] or (not then[w] and _near_spelling(w, new_words)))]
    leaving = [w for w in rec["vanished"] if then[w]]
    stayed = [w for w in leaving if now[w] >= then[w]]
    # What appeared decides where something did: what an overlay dims or a panel replaces vanishes from
    # OCR by the dozen while a person still reads it. Where nothing appeared, what vanished decides.
    if not appeared and not leaving:  # OCR read the change as words the page never shows (struck text, say)
        return None, "the words the recording shows changing are not on the page before or after"
    ok = len(missing) * 2 < len(appeared) if appeared else len(stayed) * 2 < len(leaving)
    said = []
    if appeared:
        said.append(f"{len(appeared) - len(missing)} of {len(appeared)} words the recording shows appearing appeared"
                    + (f" (not {missing[:6]})" if missing else ""))
    if leaving:
        said.append(f"{len(leaving) - len(stayed)} of {len(leaving)} words it shows vanishing went"
                    + (f" (not {stayed[:6]})" if stayed else ""))
    return ok, "; ".join(said)


def near(recorded_cells: np.ndarray, page_cells: np.ndarray | None) -> bool:
    """Whether the page changed near a cell where the recording changed (the grids scaled to each other)."""
    if page_cells is None or not page_cells.any():
        return False
    if recorded_cells.shape != page_cells.shape:
        ys, xs = np.nonzero(page_cells)
        sy, sx = recorded_cells.shape[0] / page_cells.shape[0], recorded_cells.shape[1] / page_cells.shape[1]
        scaled = np.zeros(recorded_cells.shape, dtype=bool)
        scaled[np.minimum((ys * sy).astype(int), scaled.shape[0] - 1), np.minimum((xs * sx).astype(int), scaled.shape[1] - 1)] = True
        page_cells = scaled
    grown = recorded_cells
    for axis in (0, 1):  # a square of NEAR_CELLS about each changed cell
        padded = np.pad(grown, [(NEAR_CELLS, NEAR_CELLS) if a == axis else (0, 0) for a in (0, 1)])
        grown = np.logical_or.reduce([np.take(padded, range(k, k + grown.shape[axis]), axis=axis)
                                      for k in range(2 * NEAR_CELLS + 1)])
    return bool((grown & page_cells).any())
