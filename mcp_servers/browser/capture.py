"""Settled viewport screenshots through CDP with speed-optimised PNG encoding.

Chromium's default PNG compression is most of a screenshot's cost (about 3x the capture itself);
`optimizeForSpeed` keeps the same pixels in a somewhat larger file. The page is prepared as
Playwright's `animations="disabled"`, `caret="hide"` do, so pixels match its screenshots (the caret
hidden by the inspector style sheet, which the page cannot see, not by a <style> element); the
caret only where something focused takes typing; the
activity probes of settling ride on that preparation: a shot taken between two equal probes, with
no request open, shows a settled page, so the common case costs two evaluations and the capture.
What else must look at the page as the shot shows it (an action's checks) runs inside that hold.
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


async def settled_shot(session, wait_ms: int = 0, max_s: float = MAX_S, held=None) -> tuple[bytes, object]:
    """PNG bytes of the viewport once the page has settled (or as it is after `max_s`), and what
    `held(activity, shot)` gave on the settled page. It runs as the page is shot, while the page is held
    as it was shot (animations still, the caret's sheet laid): it may read the page while the capture
    waits for its frame, and awaits `shot` (the capture) before it lays any sheet of its own, which is
    lifted with the caret's. So what it looks at is what the shot shows, at no hold and release of its
    own (two round trips to the page). None in its place when the page never settled, or it declined
    or failed (the caller then asks the page afresh)."""
    if wait_ms:
        await asyncio.sleep(wait_ms / 1000)
    page, deadline = session.page, time.monotonic() + max_s
    while True:
        # A scaled device comes back in CSS pixels without a clip, which Playwright computes: its shot.
        before = await probe(session, PREPARE, deadline - time.monotonic()) if session.dpr == 1 else False
        if before is False:  # settle, then shoot as Playwright does
            await settle_page(session, 0, max(0.0, deadline - time.monotonic()))
            return await page.screenshot(animations="disabled", caret="hide"), None
        hide = caret_may_show(before)  # no caret to hide, no style sheet to lay and lift (two restyles)
        seen, requests = None, session.inflight.events
        try:
            if hide:
                await _caret(session, CARET)
            if held is None:
                png = await _capture(session)
            else:
                png, seen = await _shot_and(session, held, before)
        finally:
            if hide or held is not None:
                _, after = await asyncio.gather(lift(session), probe(session, RESTORE, deadline - time.monotonic()))
            else:
                after = await probe(session, RESTORE, deadline - time.monotonic())
        if quiet(before, after, session.inflight) and session.inflight.events == requests:
            session.last_shot = (after, png)  # the page as it is until its DOM changes (veil.py reuses it)
            return png, seen
        # neither this shot nor verdicts `held` made on it hold for a page that was still changing
        session.last_shot, session.ink_memo = None, None
        if time.monotonic() >= deadline:
            return png, None
        await asyncio.sleep(QUIET_S)


async def _shot_and(session, held, before) -> tuple[bytes, object]:
    """The capture, and `held` beside it (see settled_shot); a failure of `held` is a decline."""
    async def shot() -> bytes:
        png = await _capture(session)
        session.last_shot = (before, png)
        return png

    taken = asyncio.ensure_future(shot())
    try:
        seen = await held(before, taken)
    except asyncio.CancelledError:
        taken.cancel()
        raise
    except Exception:  # noqa: BLE001 - the caller asks the page afresh, and hears of it then
        seen = None
    return await taken, seen
