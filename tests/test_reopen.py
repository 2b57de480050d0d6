"""A session's page loaded again in its tab (mcp_servers/browser/reopen.py) finds what a new session's
page finds: nothing the page kept from its first life, the same history; a hung page is not reopened."""
from __future__ import annotations

import asyncio
import json

import pytest

from iwr.mcp_servers.browser.hub import BrowserHub, SessionError
from iwr.mcp_servers.browser.reopen import LEAVE_S, reopen
from tests.hung_page import hung_session

pytestmark = pytest.mark.slow

# What a page can carry from one load to the next in the same tab, shown as it loads; a click keeps
# something in each, and the page keeps more on its way out.
REMEMBERS = """<!doctype html><meta charset="utf-8"><button id="go">Go</button><pre id="out"></pre>
<script>
indexedDB.databases().then(dbs => { document.getElementById('out').textContent = JSON.stringify({
  history: history.length, name: window.name, session: sessionStorage.getItem('k'), local: localStorage.getItem('k'),
  cookie: document.cookie, databases: dbs.length, navigation: performance.getEntriesByType('navigation')[0].type,
  random: Math.random()}); });
document.getElementById('go').onclick = () => {
  sessionStorage.setItem('k', 'clicked'); localStorage.setItem('k', 'clicked'); document.cookie = 'k=clicked';
  window.name = 'clicked'; indexedDB.open('kept');
  addEventListener('pagehide', () => { window.name = 'left'; localStorage.setItem('k', 'left'); sessionStorage.setItem('k', 'left'); });
};
</script>"""


async def _shown(s) -> dict:
    await s.page.wait_for_function("document.getElementById('out').textContent.length > 0")
    return json.loads(await s.page.inner_text("#out"))


@pytest.mark.parametrize("moved", [False, True], ids=["same-url", "url-changed"])
async def test_a_reopened_page_finds_what_a_new_one_finds(tmp_path, moved):
    (tmp_path / "index.html").write_text(REMEMBERS)
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        fresh = await hub.open(str(tmp_path / "index.html"), 800, 600)
        new = await _shown(fresh)
        await fresh.page.click("#go")
        if moved:  # the replay left the page at another address of its own (a route of a one-page app)
            await fresh.page.evaluate("history.pushState({}, '', '#review')")
        await fresh.page.reload()
        kept = await _shown(fresh)
        assert kept["local"] and kept["session"] and kept["name"] and kept["cookie"] and kept["databases"] == 1, kept
        await fresh.page.click("#go")  # and what it keeps on its way out
        await fresh.page.evaluate("console.log('first life')")
        assert await reopen(fresh) is fresh and await _shown(fresh) == new
        assert fresh.page.url == fresh.url and fresh.console == [] and fresh.requested == [fresh.url], fresh.requested


# What a page can measure of its tab's past without keeping anything: the time it loads at (its clock
# and its server's), and how full the renderer's heap is after the page's own work.
MEASURES = """<!doctype html><meta charset="utf-8"><pre id="out"></pre>
<script>
const loaded = Date.now(), junk = [];
for (let i = 0; i < 40000; i++) junk.push({i, s: 'x' + i});
fetch(location.href).then(r => { document.getElementById('out').textContent = JSON.stringify({
  loaded, served: Date.parse(r.headers.get('date')), heap: performance.memory.usedJSHeapSize}); });
</script>"""
START = "2026-01-15T10:00:00Z"


async def test_a_reopened_page_cannot_tell_its_tab_held_it_before(tmp_path):
    (tmp_path / "index.html").write_text(MEASURES)
    start_ms = 1768471200000  # START
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        s = await hub.open(str(tmp_path / "index.html"), 800, 600, clock=START)
        new = await _shown(s)
        await asyncio.sleep(2.5)  # the judged replay's time, which a page loaded again must not find
        await reopen(s)
        again = await _shown(s)
    for seen in (new, again):  # Date headers have whole seconds
        assert 0 <= seen["loaded"] - start_ms < 1500 and -1000 <= seen["served"] - start_ms < 2000, (new, again)
    # uncollected, the heap held about 2.4 times a new tab's; collected, 1.03 to 1.2 times here
    assert again["heap"] < 1.5 * new["heap"], (new, again)


async def test_a_hung_page_is_not_reopened_and_says_so_in_time(tmp_path):
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        s = await hung_session(hub, tmp_path)
        with pytest.raises(SessionError, match="cannot be reopened"):
            await asyncio.wait_for(reopen(s), LEAVE_S + 5)
