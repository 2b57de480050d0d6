"""SVG assets drawn by Chromium for the asset sheets (tasks/sheets.py), so a coder sees the icons it
must reproduce rather than a placeholder tile. Each picture is shown as an `<img>` fitted in the
sheet's thumbnail box on white, as a page would show it, and cut out of a screenshot."""
from __future__ import annotations

import io
import shutil
import tempfile
from pathlib import Path

from PIL import Image

from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.tasks.sheets import THUMB

PAGE = """<!doctype html><html><head><style>html,body{margin:0;background:#fff}
img{display:block;max-width:%dpx;max-height:%dpx;width:auto;height:auto}</style></head>
<body><img id="p" src="%s"></body></html>"""
# A picture with no size of its own (an SVG with a viewBox only) is drawn at the box's width.
FIT = """(img) => { if (!img.naturalWidth || !img.naturalHeight) { img.style.width = '%dpx'; } return img.complete; }"""


async def svg_thumbnails(svgs: list[Path], hub: BrowserHub | None = None) -> dict[Path, Image.Image]:
    """Each SVG's thumbnail (RGB, within THUMB x THUMB); an SVG Chromium cannot draw is left out (the
    sheet shows its placeholder)."""
    if not svgs:
        return {}
    if hub is None:
        async with BrowserHub() as own:
            return await svg_thumbnails(svgs, own)
    work = Path(tempfile.mkdtemp(prefix="iwr-svg-"))
    out: dict[Path, Image.Image] = {}
    try:
        for k, svg in enumerate(svgs):
            shutil.copy(svg, work / f"{k}.svg")
            (work / f"{k}.html").write_text(PAGE % (THUMB, THUMB, f"{k}.svg"))
            s = await hub.open(str(work / f"{k}.html"), THUMB + 40, THUMB + 40)
            try:
                img = s.page.locator("#p")
                await img.evaluate(FIT % THUMB)
                box = await img.bounding_box()
                if box and box["width"] >= 1 and box["height"] >= 1:
                    png = await img.screenshot(animations="disabled")
                    out[svg] = Image.open(io.BytesIO(png)).convert("RGB")
            finally:
                await hub.close(s.id)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out
