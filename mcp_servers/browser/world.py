"""The judge's own JavaScript world in a page: every listing, check, probe and settle script runs here.

An isolated world shares the page's DOM but not its JavaScript: a page that overrides
`Array.prototype.map` or `document.elementFromPoint` changes nothing we run, and nothing we keep
here (element refs, the activity counter) is visible to it. The world is made through CDP
(`Page.createIsolatedWorld`) on the page's main frame, again after every navigation.
"""
from __future__ import annotations

import itertools
import json

from playwright.async_api import Error as PlaywrightError

NAME = "iwr"  # a CDP-side name; the page cannot read it
_names = itertools.count()

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


def _expression(session, ctx: int, fn: str, arg) -> tuple[str, str | None]:
    """The expression that runs `fn(arg)`: by the name the world keeps it under once it was sent (our
    scripts run hundreds of times a replay; compiling kilobytes each time is most of a call's cost),
    else the function itself, kept under a new name as it runs. Returns (expression, the new name)."""
    if session.world_fns[0] != ctx:
        session.world_fns = (ctx, {})
    kept = session.world_fns[1]
    if fn in kept:
        return f"{kept[fn]}({json.dumps(arg)})", None
    name = f"globalThis.__iwr{next(_names)}"  # unique even for calls in flight together
    return f"({name} = ({fn}))({json.dumps(arg)})", name


async def call(session, fn: str, arg=None):
    """`fn(arg)` in the judge's world of the main frame, its JSON value returned; made anew when the
    page navigated (or reattached its CDP session) since the last call."""
    for attempt in range(3):
        try:
            ctx = await _context_id(session)
            expression, name = _expression(session, ctx, fn, arg)
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
            if "__iwr" in text and attempt < 2:  # a kept function went missing: send them all again
                session.world_fns = (None, {})
                continue
            raise WorldError(text.splitlines()[0][:300])
        if name is not None:
            session.world_fns[1][fn] = name
        return out["result"].get("value")
    raise AssertionError("unreachable")
