"""The browser MCP server on real Chromium, through the real MCP protocol (in memory and over stdio)."""
import sys

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from iwr.mcp_servers.browser.launch import is_loopback_url
from iwr.mcp_servers.browser.server import build_server

pytestmark = pytest.mark.slow
HOSTILE = """<!doctype html><html><body><h1>Outside</h1>
<img src="https://example.com/pixel.png"><script>fetch('http://10.1.2.3/x').catch(() => {});
try { new WebSocket('ws://192.0.2.7:9000/live'); } catch (e) {}</script>
<button class="btn" id="b" onclick="this.textContent='clicked'">press me</button></body></html>"""


def test_loopback_rule():
    assert is_loopback_url("http://127.0.0.1:8000/x") and is_loopback_url("http://localhost/")
    assert is_loopback_url("http://[::1]:80/") and is_loopback_url("data:text/html,hi")
    for bad in ("https://example.com/", "http://10.0.0.1/", "file:///etc/passwd", "ws://192.168.1.1/"):
        assert not is_loopback_url(bad), bad


async def test_bundled_page_click_type_check_and_screenshot(suite_dir, tmp_path):
    site = suite_dir.parent / "sites" / "reviews"
    async with Client(build_server(shots_dir=tmp_path)) as c:
        names = {t.name for t in (await c.list_tools()).tools}
        assert {"open", "screenshot", "click", "type", "press", "scroll", "close"} <= names
        opened = (await c.call_tool("open", {"target": str(site), "width": 1280, "height": 800})).structured_content
        sid = opened["session"]
        assert opened["url"].startswith("http://127.0.0.1:")
        els = (await c.call_tool("elements", {"session": sid})).structured_content["result"]
        assert any(e["name"] == "Post review" for e in els)
        r = await c.call_tool("type", {"session": sid, "selector": "#title", "text": "Fine film"})
        assert not r.is_error
        await c.call_tool("click", {"session": sid, "selector": "#star-7"})
        await c.call_tool("click", {"session": sid, "text": "Post review"})
        checks = [{"kind": "text_visible", "text": "Reviews (3)"}, {"kind": "count", "selector": ".review", "equals": 3},
                  {"kind": "text_absent", "text": "Please add a title"}, {"kind": "value", "selector": "#title", "equals": ""}]
        res = (await c.call_tool("check", {"session": sid, "checks": checks})).structured_content["result"]
        assert [x["ok"] for x in res] == [True, True, True, True]
        shot = (await c.call_tool("screenshot", {"session": sid, "checks": checks})).structured_content
        assert shot["checks"] == res  # decided with the screenshot, on the page it shows: the same
        before = (await c.call_tool("scroll", {"session": sid, "direction": "down", "amount": 300})).structured_content
        assert before["detail"]["scroll_y_after"] - before["detail"]["scroll_y_before"] > 5
        await c.call_tool("press", {"session": sid, "key": "Home"})
        shot = (await c.call_tool("screenshot", {"session": sid, "name": "after"})).structured_content
        assert (shot["width"], shot["height"]) == (1280, 800) and shot["path"].startswith(str(tmp_path))
        missing = await c.call_tool("click", {"session": sid, "selector": "#does-not-exist"})
        assert missing.is_error and "no visible element" in missing.content[0].text
        assert not (await c.call_tool("close", {"session": sid})).is_error


async def test_an_action_brings_the_screenshot_after_it(suite_dir, tmp_path):
    """`then` on an acting tool: the screenshot (and its checks) as the screenshot tool gives it, in the
    same call; none when the action fails; a screenshot that fails leaves the action done and says why."""
    site = suite_dir.parent / "sites" / "reviews"
    async with Client(build_server(shots_dir=tmp_path)) as c:
        sid = (await c.call_tool("open", {"target": str(site)})).structured_content["session"]
        await c.call_tool("type", {"session": sid, "selector": "#title", "text": "Fine film"})
        await c.call_tool("click", {"session": sid, "selector": "#star-7"})
        checks = [{"kind": "text_visible", "text": "Reviews (3)"}, {"kind": "count", "selector": ".review", "equals": 3}]
        done = (await c.call_tool("click", {"session": sid, "text": "Post review",
                                            "then": {"name": "posted", "checks": checks}})).structured_content
        shot = done["shot"]
        assert shot["path"].endswith("posted.png") and (shot["width"], shot["height"]) == (1280, 800)
        again = (await c.call_tool("screenshot", {"session": sid, "name": "again", "checks": checks})).structured_content
        assert [x["ok"] for x in shot["checks"]] == [True, True] and shot["checks"] == again["checks"]
        assert open(shot["path"], "rb").read() == open(again["path"], "rb").read()  # the page as it is after the click

        failed = await c.call_tool("click", {"session": sid, "selector": "#does-not-exist", "then": {"name": "never"}})
        assert failed.is_error and not (tmp_path / sid / "never.png").exists()

        typed = (await c.call_tool("type", {"session": sid, "selector": "#title", "text": "x",
                                            "then": {"name": "../outside"}})).structured_content
        assert typed["shot"] is None and "must be letters" in typed["shot_error"]
        value = (await c.call_tool("check", {"session": sid, "checks": [{"kind": "value", "selector": "#title",
                                                                           "equals": "x"}]})).structured_content
        assert value["result"][0]["ok"], value  # the typing was done all the same
        pressed = (await c.call_tool("press", {"session": sid, "key": "End", "then": {}})).structured_content
        assert pressed["shot"]["path"].startswith(str(tmp_path))


async def test_outside_requests_are_blocked_and_reported(tmp_path):
    page = tmp_path / "index.html"
    page.write_text(HOSTILE)
    async with Client(build_server(shots_dir=tmp_path / "shots")) as c:
        sid = (await c.call_tool("open", {"target": str(page)})).structured_content["session"]
        await c.call_tool("click", {"session": sid, "selector": "#b"})
        seen = (await c.call_tool("console", {"session": sid})).structured_content
        blocked = " ".join(seen["blocked_requests"])
        assert "example.com" in blocked and "10.1.2.3" in blocked and "ws://192.0.2.7" in blocked
        res = (await c.call_tool("check", {"session": sid, "checks": [{"kind": "text_visible", "text": "clicked"}]}))
        assert res.structured_content["result"][0]["ok"]
        bad = await c.call_tool("open", {"target": "https://example.com/"})
        assert bad.is_error and "loopback" in bad.content[0].text


async def test_stdio_session_with_a_real_client(suite_dir):
    site = suite_dir.parent / "sites" / "reviews"
    params = StdioServerParameters(command=sys.executable, args=["-m", "iwr.mcp_servers", "browser"])
    async with Client(params) as c:
        sid = (await c.call_tool("open", {"target": str(site)})).structured_content["session"]
        r = await c.call_tool("click", {"session": sid, "selector": "#submit"})
        assert not r.is_error
        ok = (await c.call_tool("check", {"session": sid, "checks": [
            {"kind": "text_visible", "text": "Please add a title and a rating."}]})).structured_content["result"]
        assert ok[0]["ok"]


async def test_snapshot_role_click_evaluate_and_freeze(suite_dir, tmp_path):
    site = suite_dir.parent / "sites" / "reviews"
    async with Client(build_server(shots_dir=tmp_path)) as c:
        sid = (await c.call_tool("open", {"target": str(site), "width": 900, "height": 700, "scale": 2})).structured_content["session"]
        tree = (await c.call_tool("snapshot", {"session": sid})).structured_content
        assert 'button "Post review"' in tree["tree"]
        assert not (await c.call_tool("click", {"session": sid, "role": "button", "text": "Post review"})).is_error
        ev = (await c.call_tool("evaluate", {"session": sid, "expression": "document.querySelectorAll('.review').length"})).structured_content
        assert ev["value"] == "2" and ev["changed_page"] is False and ev["error"] is None
        ev = (await c.call_tool("evaluate", {"session": sid, "expression": "document.body.append('x')"})).structured_content
        assert ev["changed_page"] is True
        assert not (await c.call_tool("freeze", {"session": sid})).is_error
        a = (await c.call_tool("screenshot", {"session": sid, "name": "a"})).structured_content
        b = (await c.call_tool("screenshot", {"session": sid, "name": "b"})).structured_content
        assert (a["width"], a["height"]) == (1800, 1400)  # device scale 2
        assert open(a["path"], "rb").read() == open(b["path"], "rb").read()


async def test_type_and_hover_by_role_and_name(suite_dir, tmp_path):
    site = suite_dir.parent / "sites" / "reviews"
    async with Client(build_server(shots_dir=tmp_path)) as c:
        sid = (await c.call_tool("open", {"target": str(site)})).structured_content["session"]
        r = await c.call_tool("type", {"session": sid, "role": "textbox", "label": "Review title", "text": "By role"})
        assert not r.is_error, r.content
        assert not (await c.call_tool("hover", {"session": sid, "role": "button", "text": "9 stars"})).is_error
        res = (await c.call_tool("check", {"session": sid, "checks": [
            {"kind": "value", "selector": "#title", "equals": "By role"}]})).structured_content["result"]
        assert res[0]["ok"]


async def test_a_chromium_that_cannot_start_fails_each_open_as_an_infrastructure_fault(tmp_path, monkeypatch):
    monkeypatch.setenv("IWR_CHROMIUM", str(tmp_path / "no-chromium"))
    async with Client(build_server(tmp_path / "shots")) as c:  # the server answers while Chromium starts
        for _ in range(2):
            r = await c.call_tool("open", {"target": "about:blank"})
            text = " ".join(getattr(x, "text", "") for x in r.content)
            assert r.is_error and "infrastructure fault: cannot launch Chromium" in text, text
