"""Template matching: where a small picture (a recorded target's crop) appears on a screenshot."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image


def locate(template: Path, image: Path) -> dict:
    """Best match of `template` on `image`: {x, y, width, height, score} with score in -1..1
    (normalised cross-correlation on grey levels); score 0 when the template does not fit."""
    with Image.open(template) as t, Image.open(image) as i:
        tpl = np.asarray(t.convert("L"), dtype=np.float32)
        img = np.asarray(i.convert("L"), dtype=np.float32)
    th, tw = tpl.shape
    if th > img.shape[0] or tw > img.shape[1] or th < 4 or tw < 4 or float(tpl.std()) < 1.0:
        # A template bigger than the page, a sliver, or a flat patch matches nothing meaningfully.
        return {"x": 0.0, "y": 0.0, "width": float(tw), "height": float(th), "score": 0.0}
    scores = cv2.matchTemplate(img, tpl, cv2.TM_CCOEFF_NORMED)
    _, best, _, (x, y) = cv2.minMaxLoc(scores)
    return {"x": float(x), "y": float(y), "width": float(tw), "height": float(th), "score": round(float(best), 6)}
