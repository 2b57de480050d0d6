"""The functions under the servers, tested without MCP: browser actions and asset reading."""
import pytest

from iwr.mcp_servers.assets import core
from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.hub import BrowserHub, SessionError
from iwr.tasks.loader import load_suite

pytestmark = pytest.mark.slow


async def test_actions_on_the_bundled_page(suite_dir, tmp_path):
    site = suite_dir.parent / "sites" / "reviews"
    async with BrowserHub(shots_root=tmp_path) as hub:
        s = await hub.open(str(site), 1000, 700)
        els = await actions.list_elements(s)
        star9 = next(e["ref"] for e in els if e["name"] == "9 stars")
        await actions.click(s, ref=star9)
        assert (await actions.run_checks(s, [{"kind": "text_visible", "text": "9/10"}]))[0]["ok"]
        await actions.type_text(s, "typed", selector="#body")
        assert (await actions.run_checks(s, [{"kind": "value", "selector": "#body", "equals": "typed"}]))[0]["ok"]
        moved = await actions.scroll(s, "down", 200)
        assert moved["scroll_y_after"] - moved["scroll_y_before"] == 200
        with pytest.raises(actions.ActionFailed):
            await actions.click(s, selector="#nope")
        with pytest.raises(SessionError):
            await actions.click(s)
        shot = await actions.screenshot(s, "x")
        assert shot.parent == tmp_path / s.id
        with pytest.raises(SessionError):
            await actions.screenshot(s, "../escape")
        await hub.close(s.id)
        with pytest.raises(SessionError):
            hub.get(s.id)


CLICK_PAGE = """<!doctype html><body style="margin:0">
<button id="free" onclick="this.textContent='free clicked'">free</button>
<button id="off" disabled onclick="this.textContent='off clicked'">off</button>
<div style="position:relative"><button id="under" onclick="this.textContent='under clicked'">under</button>
  <div id="veil" style="position:absolute;inset:0;background:#eee8"></div></div>
<button id="hidden" style="visibility:hidden">hidden</button>
<div style="height:3000px"></div>
<button id="far" onclick="this.textContent='far clicked'">far</button>
<div id="host"></div>
<script>
  const root = document.getElementById('host').attachShadow({mode: 'open'});
  root.innerHTML = '<button id="inner">inner</button>';
  root.getElementById('inner').onclick = (e) => { e.target.textContent = 'inner clicked'; };
</script></body>"""


async def test_click_lands_only_where_a_user_could_click(tmp_path):
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text(CLICK_PAGE)
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        s = await hub.open(str(tmp_path / "site"), 800, 600)
        await actions.click(s, selector="#free")
        assert await s.page.text_content("#free") == "free clicked"
        for selector, why in [("#off", "disabled"), ("#under", "covered by div#veil"), ("#hidden", "no visible element")]:
            with pytest.raises(actions.ActionFailed, match=why):
                await actions.click(s, selector=selector, timeout_s=5)
        assert await s.page.text_content("#under") == "under"  # the overlay took nothing through
        done = await actions.click(s, selector="#far")  # below the fold: scrolled into view, then clicked
        assert await s.page.text_content("#far") == "far clicked"
        assert done["bbox"][1] >= 0 and done["bbox"][1] + done["bbox"][3] <= 600
        assert await s.page.evaluate("scrollY") > 2000
        await actions.click(s, selector="#host >> #inner")  # inside a shadow root
        assert await s.page.evaluate("document.getElementById('host').shadowRoot.getElementById('inner').textContent") \
            == "inner clicked"
        await actions.type_text(s, "x", selector="#far")  # focusing by a click obeys the same rules
        with pytest.raises(actions.ActionFailed, match="disabled"):
            await actions.type_text(s, "x", selector="#off")


def test_asset_core_functions(suite_dir):
    task = load_suite(suite_dir).get("1")
    assets = core.list_assets(task)
    assert assets[0]["name"] == "1.png" and assets[0]["width"] == 240
    assert core.safe_child(task.assets_dir, "1.png").is_file()
    for bad in ("../video.mp4", "", "/etc/passwd", "missing.png"):
        with pytest.raises(core.AssetError):
            core.safe_child(task.assets_dir, bad)
    t, im = core.frame(task, index=2)
    assert t == 2.0 and im.size == task.size
    with pytest.raises(core.AssetError):
        core.frame(task, index=1, time=1.0)
    assert len(core.scene_changes(task, limit=3)) <= 3
    acts = core.actions(task, judge_mode=False)
    assert acts[0]["index"] == 1 and "iwr" not in acts[0]
    assert "iwr" in core.actions(task, judge_mode=True)[0]


# Scrolls itself a little after each wheel event, as smooth-scrolling libraries do.
LATE_SCROLL = """<!doctype html><body style="height: 5000px; margin: 0"><p>Top</p>
<script>addEventListener('wheel', (e) => { e.preventDefault(); const dy = e.deltaY;
  setTimeout(() => scrollBy(0, dy), 150); }, {passive: false});</script></body>"""


async def test_a_scroll_that_lands_late_is_waited_for(tmp_path):
    (tmp_path / "index.html").write_text(LATE_SCROLL)
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        s = await hub.open(str(tmp_path / "index.html"), 800, 600)
        moved = await actions.scroll(s, "down", 300)
        assert moved["scroll_y_after"] - moved["scroll_y_before"] == 300
        bottom = await s.page.evaluate("scrollTo(0, 1e6), scrollY")  # a wheel that cannot move ends all the same
        stuck = await actions.scroll(s, "down", 300)
        assert bottom > 4000 and stuck["scroll_y_after"] == stuck["scroll_y_before"] == bottom
