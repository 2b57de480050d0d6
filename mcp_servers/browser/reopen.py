"""A session's page loaded again in its own tab, as a new session would find it.

A new session costs a browser context and a renderer process: about 0.6 s of Chromium's CPU per
page here, against under 0.1 s for loading a page again in a tab that is already there. A probe
that replays a page the judge has just replayed (the typed-text probe) takes that tab over instead.
The old page is left first (so nothing it does on its way out outlives the clearing), then what it
could carry to the next load is cleared: its origin's storage and cookies, the tab's session storage,
window name and history (a blank page and the load, as in a new tab).

A probe replays a page that must not tell it from the judged replay, so what a page can read of its
tab's past is set back too: the clock starts again where the session's did, with a new init script
(disguise.py) and the page's server dated by it, and the renderer's heap is collected, since a page
that measures its heap (performance.memory) found it twice as full in a tab that had held it before
(collected, 1.03 to 1.2 times a new tab's here). What stays is the speed of a warm renderer, within
a new tab's spread on a busy machine; a probe the page tells apart changes no score anyway (the
probes are reported apart), and the typed-text probe shows itself by what it types.
"""
from __future__ import annotations

import asyncio
import secrets

from playwright.async_api import Error as PlaywrightError

from iwr.mcp_servers.browser import world
from iwr.mcp_servers.browser.disguise import clock_offset_ms, disguise_script
from iwr.mcp_servers.browser.hub import Session, SessionError

LEAVE_S = 3.0


async def reopen(s: Session, timeout_s: float = 30.0) -> Session:
    """Load the session's page afresh (see above); SessionError when its page cannot be left or cleared
    (hung, crashed, gone): a new session is the way then."""
    try:
        await asyncio.wait_for(_leave_and_forget(s), LEAVE_S)
    except (asyncio.TimeoutError, PlaywrightError, world.WorldError) as e:
        why = str(e).splitlines()[0][:200] if str(e) else type(e).__name__
        raise SessionError(f"session {s.id} cannot be reopened: its page does not answer ({why})") from None
    _start_over(s)
    try:
        await s.page.goto(s.url, wait_until="load", timeout=timeout_s * 1000)
    except PlaywrightError as e:
        s.page_errors.append(f"load: {e}".splitlines()[0])
    return s


async def _leave_and_forget(s: Session) -> None:
    await s.page.goto("about:blank")
    cdp = await world.cdp_of(s)
    # all of its origin's data: storage, cookies (of its host), and the tab's session storage too
    await cdp.send("Storage.clearDataForOrigin", {"origin": s.origin, "storageTypes": "all"})
    await cdp.send("Page.resetNavigationHistory")
    s.world = None  # the blank page's world, made for this one call
    await world.call(s, "() => { window.name = ''; }")
    await cdp.send("HeapProfiler.collectGarbage")
    await _clock_from_the_start(s)


async def _clock_from_the_start(s: Session) -> None:
    offset_ms = clock_offset_ms(s.clock)
    await s.init_script.close()
    s.token = secrets.token_hex(8)
    s.init_script = await s.context.add_init_script(disguise_script(s.seed, offset_ms, s.token))
    if s.site is not None:
        s.site.redate(offset_ms)


def _start_over(s: Session) -> None:
    """What the session recorded of the page before, gone: the reloaded page's records start empty."""
    for kept in (s.blocked, s.requested, s.console, s.page_errors, s.dialogs):
        kept.clear()
    s.inflight.open.clear()  # the old document's requests ended with it
    s.left, s.elements, s.last_shot, s.ink_memo, s.veil_sheet = None, None, None, None, None
    s.world, s.world_fns = None, (None, {})
