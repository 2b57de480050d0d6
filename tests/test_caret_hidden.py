"""Screenshots and the ink test never show the text caret of a focused field (the capture hides it
only where something focused takes typing, which the page's activity probe tells)."""
from __future__ import annotations

import asyncio
import io

import numpy as np
from PIL import Image

from iwr.mcp_servers.browser import actions, world
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.mcp_servers.browser.settle import ACTIVITY, caret_may_show

FIELD = '<input id="f" autofocus value="abc" style="font-size:40px;width:300px">'


def _pixels(path_or_png) -> np.ndarray:
    src = io.BytesIO(path_or_png) if isinstance(path_or_png, bytes) else path_or_png
    return np.asarray(Image.open(src).convert("RGB"))


async def test_the_caret_never_shows_in_a_capture(tmp_path):
    (tmp_path / "focused.html").write_text(f"<!doctype html><body>{FIELD}</body>")
    (tmp_path / "no-caret.html").write_text(f"<!doctype html><style>input{{caret-color:transparent}}</style><body>{FIELD}</body>")
    (tmp_path / "plain.html").write_text("<!doctype html><body><p>words</p><button>go</button></body>")
    async with BrowserHub() as hub:
        want = await hub.open(str(tmp_path / "no-caret.html"), 400, 120)
        await want.page.focus("#f")
        expected = _pixels(await actions.screenshot(want, "expected"))
        s = await hub.open(str(tmp_path / "focused.html"), 400, 120)
        await s.page.focus("#f")
        assert caret_may_show(await world.call(s, ACTIVITY))
        # unhidden, the blinking caret shows in some capture within a blink period or two
        raw = []
        for _ in range(8):
            raw.append(_pixels(await s.page.screenshot(caret="initial")))
            await asyncio.sleep(0.15)
        assert any(not np.array_equal(r, expected) for r in raw), "no capture showed a caret: the test sees nothing"
        for k in range(4):
            assert np.array_equal(_pixels(await actions.screenshot(s, f"shot{k}")), expected)
            await asyncio.sleep(0.2)
        # the ink test's captures hide it too: the field's words are seen, nothing else changed
        view = await actions.observe(s)
        assert view["fields"][0]["value"] == "abc"
        plain = await hub.open(str(tmp_path / "plain.html"), 400, 120)
        assert not caret_may_show(await world.call(plain, ACTIVITY))
