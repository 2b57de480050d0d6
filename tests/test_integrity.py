"""What a coder's servers refuse, and what a page under judgement cannot do to the judge: leave its
origin, answer the judge's scripts with its own, or pass text nobody can see off as shown."""
import json
import os
from pathlib import Path

import pytest
from mcp import Client

from iwr.mcp_servers.browser import actions, page_reads
from iwr.mcp_servers.browser.hub import BrowserHub, SessionError
from iwr.mcp_servers.browser.server import build_server as browser_server
from iwr.mcp_servers.browser.static_site import StaticSite
from iwr.tasks.loader import load_suite
from iwr.tasks.marker import MARKER, read_marker, write_marker

pytestmark = pytest.mark.slow

# Overrides everything a judge written in the page's own JavaScript would lean on.
TAMPERED = """<!doctype html><meta charset="utf-8"><h1>Shop</h1><button id="b">Buy</button>
<p style="opacity:0.02">Order placed</p><p style="position:absolute;left:-5000px">Thank you</p>
<p style="color:rgba(0,0,0,0.03)">Total: $42</p><p style="color:#fff;background:#fff">Receipt 7</p>
<div style="position:relative"><p>Covered text</p><div style="position:absolute;inset:0;background:#fff"></div></div>
<script>
Array.prototype.some = function () { return true; }; Array.prototype.map = function () { return []; };
String.prototype.includes = function () { return true; }; Array.prototype.filter = function () { return this; };
document.elementFromPoint = function () { return document.body; };
window.getComputedStyle = function () { return {display: 'block', visibility: 'visible', opacity: '1',
  fontSize: '16px', color: 'rgb(0, 0, 0)', backgroundColor: 'rgba(0, 0, 0, 0)', backgroundImage: 'none'}; };
</script>"""


async def test_the_page_cannot_answer_for_the_judge_and_unseen_text_is_not_shown(tmp_path):
    (tmp_path / "index.html").write_text(TAMPERED)
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"))
        texts = ["Order placed", "Thank you", "Total: $42", "Receipt 7", "Covered text", "Shop"]
        seen = await actions.run_checks(s, [{"kind": "text_visible", "text": t} for t in texts])
        assert [c["ok"] for c in seen] == [False, False, False, False, False, True]
        shown = [t["t"] for t in (await actions.observe(s))["texts"]]
        assert "Shop" in shown and not set(texts[:5]) & set(shown)
        assert [e["name"] for e in await actions.list_elements(s)] == ["Buy"]
        # nothing of ours is in the page's world
        found = await s.page.evaluate("(() => { const out = []; for (const k of Object.getOwnPropertyNames(window)) "
                                      "if (/iwr|__refs|activity|playwright/i.test(k)) out.push(k); return out; })()")
        assert found == []
        tells = await s.page.evaluate("[navigator.webdriver, navigator.userAgent]")
        assert tells[0] is False and "Headless" not in tells[1]


LEAVES = """<!doctype html><meta charset="utf-8"><button id="go" onclick="location.href='%s'">Go</button>
<button id="win" onclick="window.open('%s')">Window</button>"""


@pytest.mark.parametrize("how", ["navigate", "window"])
async def test_a_page_that_leaves_its_origin_fails_the_action_and_the_next(tmp_path, how):
    other = tmp_path / "other"
    other.mkdir()
    (other / "index.html").write_text("<h1>The reference</h1>")
    page = tmp_path / "page"
    page.mkdir()
    elsewhere = StaticSite(other)
    try:
        (page / "index.html").write_text(LEAVES % (elsewhere.url, elsewhere.url))
        async with Client(browser_server()) as c:
            sid = (await c.call_tool("open", {"target": str(page / "index.html")})).structured_content["session"]
            clicked = await c.call_tool("click", {"session": sid, "selector": "#go" if how == "navigate" else "#win"})
            if not clicked.is_error:  # the window or navigation may land a moment after the click returns
                clicked = await c.call_tool("press", {"session": sid, "key": "Tab"})
            assert clicked.is_error and "tried to leave" in clicked.content[0].text
            state = (await c.call_tool("state", {"session": sid})).structured_content
            assert "The reference" not in state["text"]
    finally:
        elsewhere.close()


async def test_a_coders_browser_opens_only_its_workspace(tmp_path):
    ws, secret = tmp_path / "ws", tmp_path / "secret"
    ws.mkdir()
    secret.mkdir()
    (secret / "data.jsonl").write_text('{"answer": 42}')
    (ws / "index.html").write_text("<p>mine</p>")
    os.symlink(secret, ws / "leak")
    async with BrowserHub(serve_only=ws) as hub:
        for target in (str(secret / "data.jsonl"), "file:///etc/passwd", "http://127.0.0.1:9/", str(ws / "leak")):
            with pytest.raises(SessionError):
                await hub.open(target)
        s = await hub.open("index.html")
        assert "mine" in (await actions.page_state(s))["text"]
        other = StaticSite(secret)
        try:
            probe = ("Promise.all(['/leak/data.jsonl', '/../secret/data.jsonl', '%sdata.jsonl'].map((u) => "
                     "fetch(u).then((r) => r.text()).catch((e) => 'refused')))" % other.url)
            got = json.loads((await page_reads.evaluate(s, probe))["value"])
        finally:
            other.close()
        assert not any("42" in g for g in got), got


def test_a_rewritten_marker_points_the_judge_nowhere(tmp_path, suite_copy):
    task = load_suite(suite_copy).get("1")
    ws = tmp_path / "ws"
    write_marker(ws, task)
    marker = json.loads((ws / MARKER).read_text())
    assert set(marker) == {"task_id", "key"} and str(suite_copy) not in (ws / MARKER).read_text()
    assert read_marker(ws).task.id == "1"
    other = tmp_path / "other"
    write_marker(other, task)
    (ws / MARKER).write_text((other / MARKER).read_text())  # another workspace's key
    with pytest.raises(ValueError, match="another folder"):
        read_marker(ws)
    (ws / MARKER).write_text(json.dumps({"task_id": "1", "suite": str(tmp_path / "mine")}))
    with pytest.raises(ValueError, match="no valid key"):
        read_marker(ws)
    assert Path(os.environ["IWR_STATE_DIR"]) in read_marker(other).judgements.parents
