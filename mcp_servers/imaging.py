"""Small image helpers shared by the servers."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
from PIL import Image

CELL = 16  # pixels per side of the cells a share of the viewport is counted in
# A pixel changed when a colour channel moved more than this (of 255). Light grey numbers on a paler
# grey (#e2e2e2 on #f1f1f1, 15 levels) are read; text 4 to 6 levels off the picture behind it is not.
LEVEL = 8


def model_view(path: Path, max_side: int = 1024, quality: int = 80) -> tuple[int, int, bytes]:
    """Full-size dimensions of a PNG plus a downscaled JPEG of it for a model to look at."""
    with Image.open(path) as im:
        w, h = im.size
        view = im.convert("RGB")
        view.thumbnail((max_side, max_side))
        buf = io.BytesIO()
        view.save(buf, "JPEG", quality=quality)
    return w, h, buf.getvalue()


def image_size(path: Path) -> tuple[int, int]:
    """(width, height) of an image file without decoding its pixels."""
    with Image.open(path) as im:
        return im.size


def changed(a: np.ndarray, b: np.ndarray, level: int = LEVEL) -> np.ndarray:
    """Where two RGB captures of one box (int16 arrays) differ by more than `level` in some channel."""
    d = np.abs(a - b)
    # channel by channel: numpy's reduction over the last, 3-wide axis is twenty times slower
    return np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2]) > level


def cells(diff: np.ndarray, cell: int = CELL) -> np.ndarray:
    """The grid of `cell`-pixel squares in which some pixel changed."""
    h, w = diff.shape
    padded = np.zeros((-(-h // cell) * cell, -(-w // cell) * cell), dtype=bool)
    padded[:h, :w] = diff
    return padded.reshape(padded.shape[0] // cell, cell, -1, cell).any(axis=(1, 3))


def cell_share(diff: np.ndarray, cell: int = CELL) -> float:
    """The share of the cells (`cell` pixels square) in which some pixel changed: the area a change
    covers, blank stretches between its strokes included."""
    return round(float(cells(diff, cell).mean()), 4)


def rgb(path: str | Path) -> np.ndarray:
    """An image file's pixels as an int16 RGB array."""
    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"), dtype=np.int16)
