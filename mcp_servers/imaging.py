"""Small image helpers shared by the servers."""
from __future__ import annotations

import io
from pathlib import Path

from PIL import Image


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
