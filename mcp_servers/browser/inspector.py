"""The browser's own inspector style sheet: style laid over a page through DevTools for one capture.

No element is added, it is not among `document.styleSheets`, and no mutation observer of the page
hears of it, so a page can neither see nor rewrite it (a <style> element could be both). The veil
(veil.py) takes ink or pictures away with it; every capture hides the text caret with it, as
Playwright's `caret="hide"` does with a <style> element.
"""
from __future__ import annotations

import asyncio

from playwright.async_api import Error as PlaywrightError

from iwr.mcp_servers.browser import world

CARET = "* { caret-color: transparent !important; }\n"
# How long taking the sheet off may hold a caller. It runs in `finally` blocks, also when the caller's own
# bound ran out because the renderer is hung (a page allocating until it dies, an endless loop): waiting
# there for an answer that never comes held the whole judgement until its 120 s timeout. The command
# stays queued ahead of what is sent after it on the same DevTools session (our captures and probes), so
# a slow page still has the sheet off before the next capture.
LIFT_S = 1.0


async def _sheet(session, cdp) -> str:
    """A new inspector style sheet in the page's current document."""
    frame = (await cdp.send("Page.getFrameTree"))["frameTree"]["frame"]
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    made = await cdp.send("CSS.createStyleSheet", {"frameId": frame["id"]})
    session.veil_sheet = (cdp, made["styleSheetId"])
    return made["styleSheetId"]


async def lay(session, css: str) -> None:
    """Set the sheet's text. The sheet is made once per document: a document that replaced it (a
    navigation, a reload) takes its id along, and setting it fails, so a new one is made."""
    cdp, held = await world.cdp_of(session), session.veil_sheet
    if held and held[0] is cdp:
        try:
            await cdp.send("CSS.setStyleSheetText", {"styleSheetId": held[1], "text": css})
            return
        except PlaywrightError:
            pass
    await cdp.send("CSS.setStyleSheetText", {"styleSheetId": await _sheet(session, cdp), "text": css})


async def lift(session) -> None:
    """Empty the sheet, waiting at most LIFT_S for the page to take it."""
    try:
        await asyncio.wait_for(lay(session, ""), LIFT_S)
    except (asyncio.TimeoutError, PlaywrightError):
        pass
