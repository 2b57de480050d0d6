"""Grayscale SSIM between a reference and a candidate image."""

from __future__ import annotations

import numpy as np
import skimage
from skimage.metrics import structural_similarity

from .images import ImageLike, load_rgb, to_common_size
from .values import MetricValue


def gray_array(img: ImageLike) -> np.ndarray:
    """8-bit grayscale pixels of an image."""
    return np.asarray(load_rgb(img).convert("L"), dtype=np.uint8)


def ssim_arrays(a: np.ndarray, b: np.ndarray) -> float:
    """SSIM of two equally sized uint8 grayscale arrays, clipped to [0, 1]."""
    if min(a.shape) < 7:  # skimage's default 7x7 window needs at least 7 px per side
        return 1.0 if np.array_equal(a, b) else 0.0
    return float(np.clip(structural_similarity(a, b, data_range=255), 0.0, 1.0))


def ssim_value(value: float, size: tuple[int, int]) -> MetricValue:
    """Wrap an SSIM score computed at the given (width, height) as a MetricValue."""
    return MetricValue(
        name="ssim", value=value, backend="skimage.ssim", version=skimage.__version__, detail={"size": list(size)}
    )


def ssim_score(ref: ImageLike, cand: ImageLike) -> MetricValue:
    """SSIM on grayscale after resizing the candidate to the reference size."""
    ref, cand = to_common_size(load_rgb(ref), load_rgb(cand))
    return ssim_value(ssim_arrays(gray_array(ref), gray_array(cand)), ref.size)
