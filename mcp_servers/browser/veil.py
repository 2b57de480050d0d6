"""A style sheet laid over the page for one capture, and the captures compared: the one way the
judge asks the pixels what a part of the page contributes (ink.py for words, the bare capture for
pictures). The sheet is the browser's inspector style sheet (inspector.py), out of the page's reach,
emptied at once.
"""
from __future__ import annotations

import asyncio
import base64
import io

import numpy as np
from PIL import Image

from iwr.mcp_servers.browser import world
from iwr.mcp_servers.browser.inspector import CARET, LIFT_S, lay, lift
from iwr.mcp_servers.browser.capture import PREPARE, RESTORE
from iwr.mcp_servers.browser.settle import caret_may_show, probe



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


async def with_and_without(session, sheets: list[str], box=None, scroll=(0, 0), again: bool = False, held=None):
    """Captures of `box` as the page is, with each of `sheets` (at least one) laid over it in turn, and
    (with `again`, or when the DOM changed meanwhile) as it is once more: (first, [veiled, ...], again
    or None, the page's activity before). Animations are held still meanwhile, as for a screenshot.

    The page as it is usually is the screenshot just taken (_last_shot), so the first sheet goes out
    together with the call that holds the animations, and the sheet is lifted together with the one
    that lets them go: two round trips to the page fewer per capture. Each sheet hides the caret too
    (laying it restyles the page anyway). `held`, the page's activity when the caller holds it already
    (capture.settled_shot, which releases it and lifts the sheet): no hold, release or third capture here."""
    if held is not None:
        await lay(session, CARET + sheets[0])
        return (*await _veiled(session, sheets, box, scroll, held, again), None, held)
    try:
        before, _ = await asyncio.gather(world.call(session, PREPARE), lay(session, CARET + sheets[0]))
        first, veiled = await _veiled(session, sheets, box, scroll, before, again)
    finally:  # bounded: a hung page must not hold the caller past its own bound (inspector.LIFT_S)
        _, after = await asyncio.gather(lift(session), probe(session, RESTORE, LIFT_S))
    third = None
    if again or after != before:  # held still once more, for the capture that tells motion apart
        hide = CARET if caret_may_show(await world.call(session, PREPARE)) else ""
        try:
            if hide:
                await lay(session, hide)
            third = await capture(session, box, scroll)
        finally:
            if hide:
                await lift(session)
            await probe(session, RESTORE, LIFT_S)
    return first, veiled, third, before


async def _veiled(session, sheets: list[str], box, scroll, before, again: bool):
    """With the first sheet laid on a held page: the capture without it (the last screenshot's when the
    page is as it was shot) and one with each sheet (the sheet laid last stays: the caller lifts it)."""
    # Decoding the screenshot (the whole viewport's PNG) takes as long as a fifth of a capture: it runs
    # beside the capture with the sheet, which mostly waits for the browser's frame.
    cut = None if again else asyncio.ensure_future(asyncio.to_thread(_last_shot, session, before, box))
    veiled = [await capture(session, box, scroll)]
    first = await cut if cut is not None else None
    if first is None:  # no screenshot of the page as it is now: take one without the sheet
        await lay(session, CARET)
        first = await capture(session, box, scroll)
    for css in sheets[1:]:
        await lay(session, CARET + css)
        veiled.append(await capture(session, box, scroll))
    return first, veiled
