"""Image loading and size normalisation for the metrics."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, UnidentifiedImageError

ImageLike = Image.Image | str | Path | bytes


def _flatten(img: Image.Image) -> Image.Image:
    """Convert to RGB, compositing any transparency onto white."""
    if img.mode == "RGB":
        return img
    # Screenshots with alpha are meant to be seen on a (white) page, not on black.
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        canvas = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(canvas, rgba).convert("RGB")
    return img.convert("RGB")


def load_rgb(src: ImageLike) -> Image.Image:
    """Load a path, encoded image bytes or a PIL image as an RGB image."""
    if isinstance(src, Image.Image):
        return _flatten(src)
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = bytes(src)
        label = f"{len(data)} bytes of image data (starting {data[:12]!r})"
        try:
            img = Image.open(io.BytesIO(data))
            img.load()
        except (UnidentifiedImageError, OSError, ValueError) as exc:
            raise ValueError(f"cannot decode image from {label}: {exc}") from exc
        return _flatten(img)
    if isinstance(src, (str, Path)):
        path = Path(src)
        if not path.is_file():
            raise ValueError(f"image file not found: {path}")
        try:
            with Image.open(path) as img:
                img.load()
                return _flatten(img)
        except (UnidentifiedImageError, OSError, ValueError) as exc:
            raise ValueError(f"cannot read image file {path}: {exc}") from exc
    raise TypeError(f"expected a path, bytes or PIL image, got {type(src).__name__}")


def to_common_size(a: Image.Image, b: Image.Image) -> tuple[Image.Image, Image.Image]:
    """Return (a, b) as RGB with b resized to a's size; a is the reference."""
    a, b = _flatten(a), _flatten(b)
    if b.size != a.size:
        b = b.resize(a.size, Image.Resampling.BICUBIC)
    return a, b
