"""Stitched asset sheets: thumbnails of every asset, each labelled with its file name."""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

CELL, LABEL, COLS, PER_SHEET = 220, 28, 4, 16
THUMB = CELL - 12  # a thumbnail's largest side


def _font() -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", 16)
    except OSError:
        return ImageFont.load_default()


def _thumb(path: Path, drawn: dict[Path, Image.Image]) -> Image.Image:
    if path in drawn:  # drawn by a browser (an SVG: evals/recording/svg_thumbs.py)
        im = drawn[path].copy()
        im.thumbnail((THUMB, THUMB))
        return im
    if path.suffix.lower() == ".svg":  # nobody drew it: a labelled placeholder tile
        im = Image.new("RGB", (CELL - 20, CELL - 20), (235, 235, 240))
        ImageDraw.Draw(im).text((10, 10), "SVG", fill=(90, 90, 90), font=_font())
        return im
    with Image.open(path) as im:
        im = im.convert("RGBA")
        bg = Image.new("RGBA", im.size, (255, 255, 255, 255))
        im = Image.alpha_composite(bg, im).convert("RGB")
        im.thumbnail((THUMB, THUMB))
        return im


def sheet_name(n: int) -> str:
    """File name of the n-th sheet (0-based), as the official data names them: `stitched_image.png`,
    then `stitched_image_1.png`, `stitched_image_2.png`, ... (readers take any `stitched_image*` file)."""
    return "stitched_image.png" if n == 0 else f"stitched_image_{n}.png"


def stitch(assets: list[Path], out_dir: Path, drawn: dict[Path, Image.Image] | None = None) -> list[Path]:
    """Write the asset sheets (see `sheet_name`) for the assets, sorted by name; returns their paths.
    `drawn` holds pictures PIL cannot read (SVG), drawn by the caller; the others get a placeholder."""
    out_dir.mkdir(parents=True, exist_ok=True)
    assets = sorted(assets, key=lambda p: (len(p.stem), p.name))
    font, paths = _font(), []
    groups = [assets[i:i + PER_SHEET] for i in range(0, len(assets), PER_SHEET)] or [[]]
    for n, group in enumerate(groups):
        rows = max(1, -(-len(group) // COLS))
        sheet = Image.new("RGB", (COLS * CELL, rows * (CELL + LABEL)), (255, 255, 255))
        d = ImageDraw.Draw(sheet)
        if not group:
            d.text((12, 12), "(this site loads no image assets)", fill=(60, 60, 60), font=font)
        for k, p in enumerate(group):
            x, y = (k % COLS) * CELL, (k // COLS) * (CELL + LABEL)
            t = _thumb(p, drawn or {})
            sheet.paste(t, (x + (CELL - t.width) // 2, y + (CELL - t.height) // 2))
            d.rectangle([x + 2, y + 2, x + CELL - 3, y + CELL - 3], outline=(200, 200, 200))
            d.text((x + 8, y + CELL + 4), p.name, fill=(0, 0, 0), font=font)
        path = out_dir / sheet_name(n)
        sheet.save(path)
        paths.append(path)
    return paths
