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


WINDOW = 7  # skimage's default window, uniform weights, sample covariance: the same formula
_C1, _C2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2


def _ssim_map(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """skimage's SSIM map (7x7 uniform window, sample covariance) in float32 through OpenCV's box
    filter: within about 1e-5 of skimage's value at a third of its time."""
    import cv2

    x, y = a.astype(np.float32), b.astype(np.float32)

    def mean(z: np.ndarray) -> np.ndarray:
        return cv2.boxFilter(z, -1, (WINDOW, WINDOW), borderType=cv2.BORDER_REFLECT)

    ux, uy = mean(x), mean(y)
    uxx, uyy, uxy = mean(cv2.multiply(x, x)), mean(cv2.multiply(y, y)), mean(cv2.multiply(x, y))
    n = np.float32(WINDOW * WINDOW / (WINDOW * WINDOW - 1))
    uxuy, ux2, uy2 = cv2.multiply(ux, uy), cv2.multiply(ux, ux), cv2.multiply(uy, uy)
    num = cv2.multiply(2 * uxuy + np.float32(_C1), 2 * n * (uxy - uxuy) + np.float32(_C2))
    den = cv2.multiply(ux2 + uy2 + np.float32(_C1), n * (uxx - ux2 + uyy - uy2) + np.float32(_C2))
    return cv2.divide(num, den)


def fast_ssim(a: np.ndarray, b: np.ndarray, changed: np.ndarray | None = None) -> float:
    """SSIM of two equal-size uint8 grey arrays, as `ssim_arrays` computes it; with `changed` (per
    row, whether the images differ there), only windows touching a changed row are computed: every
    other window compares identical pixels and is exactly 1."""
    h, w = a.shape
    pad = (WINDOW - 1) // 2
    if min(a.shape) < WINDOW:
        return ssim_arrays(a, b)
    if changed is None:
        return float(np.clip(_ssim_map(a, b)[pad:h - pad, pad:w - pad].astype(np.float64).mean(), 0.0, 1.0))
    need = np.convolve(changed.astype(np.int32), np.ones(2 * pad + 1, np.int32), mode="same") > 0
    need[:pad] = need[h - pad:] = False  # the border rows are cropped out of the mean
    edges = np.flatnonzero(np.diff(np.concatenate([[0], need.astype(np.int8), [0]])))
    total, counted = 0.0, 0
    for r0, r1 in zip(edges[::2], edges[1::2]):
        top, bottom = max(0, r0 - pad), min(h, r1 + pad)  # the window's reach, so the slab's values are the full map's
        s = _ssim_map(a[top:bottom], b[top:bottom])[r0 - top:r1 - top, pad:w - pad]
        total += float(s.astype(np.float64).sum())
        counted += s.size
    cells = (h - 2 * pad) * (w - 2 * pad)
    return float(np.clip((total + (cells - counted)) / cells, 0.0, 1.0))
