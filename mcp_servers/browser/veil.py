"""A style sheet laid over the page for one capture, and the captures compared: the one way the
judge asks the pixels what a part of the page contributes (ink.py for words, the bare capture for
pictures). The sheet is the browser's own inspector style sheet, set through DevTools and emptied at
once: no element is added, it is not among `document.styleSheets`, and no mutation observer of the page
hears of it, so a page can neither see nor rewrite it (a <style> element could be both).
"""
from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image

from mcp_servers.browser import world
from mcp_servers.browser.capture import PREPARE, RESTORE
from mcp_servers.browser.settle import ACTIVITY



async def _sheet(session) -> str:
    """The id of the inspector style sheet of the page's current document (made once per document)."""
    cdp = await world.cdp_of(session)
    frame = (await cdp.send("Page.getFrameTree"))["frameTree"]["frame"]
    held = session.veil_sheet
    if held and held[0] == frame["loaderId"] and held[1] is cdp:
        return held[2]
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    made = await cdp.send("CSS.createStyleSheet", {"frameId": frame["id"]})
    session.veil_sheet = (frame["loaderId"], cdp, made["styleSheetId"])
    return made["styleSheetId"]


async def _lay(session, css: str) -> None:
    await (await world.cdp_of(session)).send("CSS.setStyleSheetText", {"styleSheetId": await _sheet(session), "text": css})


async def capture(session, box: tuple[int, int, int, int] | None, scroll: tuple[float, float] = (0, 0)) -> np.ndarray:
    """RGB pixels of a viewport box (x, y, w, h in CSS pixels), or of the whole viewport."""
    params = {"format": "png", "optimizeForSpeed": True}
    if box is not None:
        x, y, w, h = box
        params["clip"] = {"x": x + scroll[0], "y": y + scroll[1], "width": w, "height": h, "scale": 1}
    shot = await (await world.cdp_of(session)).send("Page.captureScreenshot", params)
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB"), dtype=np.int16)


def _last_shot(session, activity, box) -> np.ndarray | None:
    """The box cut from the screenshot just taken, when the page's DOM has not changed since (no second
    capture of the same pixels); None otherwise."""
    shot = session.last_shot
    if shot is None or shot[0] != activity or session.dpr != 1:
        return None
    full = np.asarray(Image.open(io.BytesIO(shot[1])).convert("RGB"), dtype=np.int16)
    if box is None:
        return full
    x, y, w, h = box
    part = full[y:y + h, x:x + w]
    return part if part.shape[:2] == (h, w) else None


async def with_and_without(session, sheets: list[str], box=None, scroll=(0, 0), again: bool = False):
    """Captures of `box` as the page is, with each of `sheets` laid over it in turn, and (with `again`,
    or when the DOM changed meanwhile) as it is once more: (first, [veiled, ...], again or None, the
    page's activity before). Animations are held still meanwhile, as for a screenshot."""
    before = await world.call(session, PREPARE)
    try:
        first = _last_shot(session, before, box) if not again else None
        if first is None:
            first = await capture(session, box, scroll)
        veiled = []
        for css in sheets:
            await _lay(session, css)
            try:
                veiled.append(await capture(session, box, scroll))
            finally:
                await _lay(session, "")
        after = await world.call(session, ACTIVITY)
        third = await capture(session, box, scroll) if again or after != before else None
    finally:
        await world.call(session, RESTORE)
    return first, veiled, third, before
