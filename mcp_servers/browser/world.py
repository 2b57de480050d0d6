"""The judge's own JavaScript world in a page: every listing, check, probe and settle script runs here.

An isolated world shares the page's DOM but not its JavaScript: a page that overrides
`Array.prototype.map` or `document.elementFromPoint` changes nothing we run, and nothing we keep
here (element refs, the activity counter) is visible to it. The world is made through CDP
(`Page.createIsolatedWorld`) on the page's main frame, again after every navigation.
"""
from __future__ import annotations

import json

from playwright.async_api import Error as PlaywrightError

NAME = "iwr"  # a CDP-side name; the page cannot read it

STALE = ("Cannot find context", "Execution context was destroyed", "Inspected target navigated",
         "No frame", "Target closed", "Session closed", "detached")


class WorldError(RuntimeError):
    """The script threw in the judge's world (a bug in our script, or a page we cannot read)."""


async def cdp_of(session):
    """The session's CDP session, attached anew when a reload left it detached."""
    if session.cdp is None:
        session.cdp = await session.context.new_cdp_session(session.page)
    return session.cdp


async def _context_id(session) -> int:
    if session.world is None:
        cdp = await cdp_of(session)
        tree = await cdp.send("Page.getFrameTree")
        made = await cdp.send("Page.createIsolatedWorld", {"frameId": tree["frameTree"]["frame"]["id"],
                                                          "worldName": NAME})
        session.world = made["executionContextId"]
    return session.world


async def call(session, fn: str, arg=None):
    """`fn(arg)` in the judge's world of the main frame, its JSON value returned; made anew when the
    page navigated (or reattached its CDP session) since the last call."""
    expression = f"({fn})({json.dumps(arg)})"
    for attempt in range(3):
        try:
            ctx = await _context_id(session)
            out = await session.cdp.send("Runtime.evaluate", {"expression": expression, "contextId": ctx,
                                                              "returnByValue": True, "awaitPromise": True})
        except PlaywrightError as e:
            if attempt == 2 or not any(m in str(e) for m in STALE):
                raise
            session.world = None
            if any(m in str(e) for m in ("Target closed", "Session closed", "detached")):
                session.cdp = None
            continue
        if "exceptionDetails" in out:
            d = out["exceptionDetails"]
            text = (d.get("exception") or {}).get("description") or d.get("text") or "exception"
            if "Cannot find context" in text and attempt < 2:
                session.world = None
                continue
            raise WorldError(text.splitlines()[0][:300])
        return out["result"].get("value")
    raise AssertionError("unreachable")
