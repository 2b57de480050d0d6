"""Template matching: where a small picture (a recorded target's crop) appears on a screenshot."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image


def locate(template: Path, image: Path) -> dict:
    """Best match of `template` on `image`: {x, y, width, height, score} with score in -1..1
    (normalised cross-correlation on grey levels); score 0 when the template does not fit. A template's
    transparent pixels are left out of the correlation (what covered the page where it was cut)."""
    with Image.open(template) as t, Image.open(image) as i:
        tpl = np.asarray(t.convert("L"), dtype=np.float32)
        seen = np.asarray(t.getchannel("A")) > 0 if "A" in t.getbands() else None
        img = np.asarray(i.convert("L"), dtype=np.float32)
    th, tw = tpl.shape
    flat = float(tpl[seen].std()) < 1.0 if seen is not None and seen.any() else float(tpl.std()) < 1.0
    if th > img.shape[0] or tw > img.shape[1] or th < 4 or tw < 4 or flat:
        # A template bigger than the page, a sliver, or a flat patch matches nothing meaningfully.
        return {"x": 0.0, "y": 0.0, "width": float(tw), "height": float(th), "score": 0.0}
    if seen is None or seen.all():
        scores = cv2.matchTemplate(img, tpl, cv2.TM_CCOEFF_NORMED)
    else:  # a (nearly) flat stretch of the page under a masked template divides by (nearly) zero: no match there
        scores = cv2.matchTemplate(img, tpl, cv2.TM_CCOEFF_NORMED, mask=seen.astype(np.float32))
        scores[~np.isfinite(scores) | (np.abs(scores) > 1 + 1e-4)] = 0.0
    _, best, _, (x, y) = cv2.minMaxLoc(scores)
    return {"x": float(x), "y": float(y), "width": float(tw), "height": float(th),
            "score": round(min(1.0, float(best)), 6)}
