"""A page whose renderer stops answering after a click, for tests of what gives up on a hung page."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from iwr.mcp_servers.browser import actions, world
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.mcp_servers.browser.settle import ACTIVITY

# After the click returns, the page's own task spins forever: the renderer lives but never answers.
SPINS = """<!doctype html><meta charset="utf-8"><input id="name" value="x"><button id="go">Go</button>
<script>document.getElementById('go').onclick = () => setTimeout(() => { for (;;) {} }, 0);</script>"""


async def hung_session(hub: BrowserHub, folder: Path):
    """A session whose renderer no longer answers, with a text field focused (a screenshot then hides
    the caret). The spin starts on a timer after the click, and now and then the renderer still
    answered a second later: then a fresh session tries again."""
    (folder / "index.html").write_text(SPINS)
    for _ in range(4):
        s = await hub.open(str(folder / "index.html"), 800, 600)
        await actions.click(s, selector="#name")
        await actions.click(s, selector="#go")
        try:
            await asyncio.wait_for(world.call(s, ACTIVITY), 1.5)
        except asyncio.TimeoutError:
            return s
        await hub.close(s.id)
    pytest.fail("the spinning page never hung its renderer in four sessions")
