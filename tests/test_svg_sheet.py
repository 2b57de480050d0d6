"""The asset sheet shows an SVG asset's picture, drawn by Chromium, not a placeholder tile."""
from __future__ import annotations

import asyncio

import numpy as np
from PIL import Image

from iwr.evals.recording.svg_thumbs import svg_thumbnails
from iwr.tasks.sheets import CELL, stitch

RED_CIRCLE = '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="80"><circle cx="40" cy="40" r="36" fill="#e00000"/></svg>'
# no size of its own, only a viewBox: drawn at the thumbnail's width
BLUE_SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0000e0"/></svg>'


def _cell(sheet: Image.Image, k: int) -> np.ndarray:
    x = (k % 4) * CELL
    return np.asarray(sheet.convert("RGB"))[10:CELL - 10, x + 10:x + CELL - 10].astype(int)


def _share(cell: np.ndarray, rgb: tuple[int, int, int]) -> float:
    return float((np.abs(cell - np.array(rgb)).sum(axis=2) < 60).mean())


def test_svg_assets_are_drawn_on_the_sheet(tmp_path):
    (tmp_path / "1.svg").write_text(RED_CIRCLE)
    (tmp_path / "2.svg").write_text(BLUE_SQUARE)
    svgs = [tmp_path / "1.svg", tmp_path / "2.svg"]
    drawn = asyncio.run(svg_thumbnails(svgs))
    assert set(drawn) == set(svgs)
    (sheet_path,) = stitch(svgs, tmp_path / "sheets", drawn)
    sheet = Image.open(sheet_path)
    red, blue = _share(_cell(sheet, 0), (224, 0, 0)), _share(_cell(sheet, 1), (0, 0, 224))
    assert 0.07 < red < 0.15, red  # a circle 72 px across at its own size, in a 200 px cell: about a tenth
    assert blue > 0.8, blue  # fills the thumbnail box
    # what the sheet showed before: a grey tile saying SVG, with none of the picture's colour
    (plain,) = stitch(svgs, tmp_path / "plain")
    assert _share(_cell(Image.open(plain), 0), (224, 0, 0)) == 0.0
