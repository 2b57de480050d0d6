"""The functions under the servers, tested without MCP: browser actions and asset reading."""
import pytest

from mcp_servers.assets import core
from mcp_servers.browser import actions
from mcp_servers.browser.hub import BrowserHub, SessionError
from tasks.loader import load_suite

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
