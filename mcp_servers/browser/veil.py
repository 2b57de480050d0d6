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
from playwright.async_api import Error as PlaywrightError

from mcp_servers.browser import world
from mcp_servers.browser.capture import PREPARE, RESTORE



async def _sheet(session, cdp) -> str:
    """A new inspector style sheet in the page's current document."""
    frame = (await cdp.send("Page.getFrameTree"))["frameTree"]["frame"]
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    made = await cdp.send("CSS.createStyleSheet", {"frameId": frame["id"]})
    session.veil_sheet = (cdp, made["styleSheetId"])
    return made["styleSheetId"]


async def _lay(session, css: str) -> None:
    """Set the veil's text. The sheet is made once per document: a document that replaced it (a
    navigation, a reload) takes its id along, and setting it fails, so a new one is made."""
    cdp, held = await world.cdp_of(session), session.veil_sheet
    if held and held[0] is cdp:
        try:
            await cdp.send("CSS.setStyleSheetText", {"styleSheetId": held[1], "text": css})
            return
        except PlaywrightError:
            pass
    await cdp.send("CSS.setStyleSheetText", {"styleSheetId": await _sheet(session, cdp), "text": css})


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
    image = Image.open(io.BytesIO(shot[1]))
    if box is not None:  # cut before converting: the whole viewport's pixels are not needed
        x, y, w, h = box
        if x + w > image.width or y + h > image.height:
            return None
        image = image.crop((x, y, x + w, y + h))
    return np.asarray(image.convert("RGB"), dtype=np.int16)


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
    finally:
        after = await world.call(session, RESTORE)
    third = None
    if again or after != before:  # held still once more, for the capture that tells motion apart
        await world.call(session, PREPARE)
        try:
            third = await capture(session, box, scroll)
        finally:
            await world.call(session, RESTORE)
    return first, veiled, third, before
