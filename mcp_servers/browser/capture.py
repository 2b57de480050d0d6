"""Settled viewport screenshots through CDP with speed-optimised PNG encoding.

Chromium's default PNG compression is most of a screenshot's cost (about 3x the capture itself);
`optimizeForSpeed` keeps the same pixels in a somewhat larger file. The page is prepared as
Playwright's `animations="disabled"`, `caret="hide"` do, so pixels match its screenshots (the caret
hidden by the inspector style sheet, which the page cannot see, not by a <style> element); the
caret only where something focused takes typing; the
activity probes of settling ride on that preparation: a shot taken between two equal probes, with
no request open, shows a settled page, so the common case costs two evaluations and the capture.
"""
from __future__ import annotations

import asyncio
import base64
import time

from playwright.async_api import Error as PlaywrightError

from iwr.mcp_servers.browser.inspector import CARET, lay, lift
from iwr.mcp_servers.browser.settle import ACTIVITY_API, MAX_S, QUIET_S, caret_may_show, probe, quiet, settle_page
from iwr.mcp_servers.browser.world import cdp_of

PREPARE = f"() => {ACTIVITY_API.strip()}.prepare()"
RESTORE = f"() => {ACTIVITY_API.strip()}.restore()"


async def _capture(session) -> bytes:
    for attempt in range(2):
        try:
            shot = await (await cdp_of(session)).send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
            return base64.b64decode(shot["data"])
        except PlaywrightError:  # a page that reloaded itself can leave the session detached: attach anew,
            session.cdp, session.world = None, None  # and if that fails too, shoot as Playwright does
            if attempt:
                return await session.page.screenshot(animations="disabled", caret="hide")
    raise AssertionError("unreachable")


async def _caret(session, css: str) -> None:
    try:
        await lay(session, css)
    except PlaywrightError:  # a page gone meanwhile: its capture fails on its own
        pass


async def settled_png(session, wait_ms: int = 0, max_s: float = MAX_S) -> bytes:
    """PNG bytes of the viewport once the page has settled (or as it is after `max_s`)."""
    if wait_ms:
        await asyncio.sleep(wait_ms / 1000)
    page, deadline = session.page, time.monotonic() + max_s
    while True:
        # A scaled device comes back in CSS pixels without a clip, which Playwright computes: its shot.
        before = await probe(session, PREPARE, deadline - time.monotonic()) if session.dpr == 1 else False
        if before is False:  # settle, then shoot as Playwright does
            await settle_page(session, 0, max(0.0, deadline - time.monotonic()))
            return await page.screenshot(animations="disabled", caret="hide")
        hide = caret_may_show(before)  # no caret to hide, no style sheet to lay and lift (two restyles)
        try:
            if hide:
                await _caret(session, CARET)
            png = await _capture(session)
        finally:
            if hide:
                await lift(session)
            after = await probe(session, RESTORE, deadline - time.monotonic())
        if quiet(before, after, session.inflight):
            session.last_shot = (after, png)  # the page as it is until its DOM changes (veil.py reuses it)
            break
        if time.monotonic() >= deadline:
            break
        await asyncio.sleep(QUIET_S)
    return png
