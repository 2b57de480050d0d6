"""Pictures are not pages: a page painted with a screenshot of the page gets no visual score, while
the task's own assets, under any name, count as the page's material."""
import base64
import hashlib
import shutil

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.graphs.judge import JudgeConfig, judge
from iwr.graphs.pictures import PICTURE_SHARE, asset_digests, share, sort_rasters
from iwr.mcp_servers.browser import actions
from iwr.mcp_servers.browser.canvas_feeds import DIGEST, blob_event
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.tasks.frames import sample_frames
from iwr.tasks.loader import load_suite


def picture_share(seen, root, assets) -> float:
    """Copied and drawn rasters together: what the share is before drawn ones are compared with the frames."""
    s = sort_rasters(seen, root, assets)
    return share(s["copied"] + s["drawn"], s["viewport"])


def test_only_foreign_rasters_count_toward_the_share(tmp_path):
    (tmp_path / "task" / "assets").mkdir(parents=True)
    (tmp_path / "task" / "assets" / "1.png").write_bytes(b"the task's own picture")
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "hero.png").write_bytes(b"the task's own picture")
    (tmp_path / "page" / "frame.jpg").write_bytes(b"a frame of the video")
    assets = asset_digests(tmp_path / "task")
    half = {"viewport": [800, 600], "rasters": [
        {"kind": "img", "src": "http://127.0.0.1:5/hero.png", "box": [0, 0, 800, 600]}]}
    assert picture_share(half, tmp_path / "page", assets) == 0.0
    framed = {"viewport": [800, 600], "rasters": [
        {"kind": "img", "src": "http://127.0.0.1:5/frame.jpg", "box": [0, 0, 800, 300]},
        {"kind": "canvas", "src": "", "fed": True, "box": [0, 300, 400, 300]},
        {"kind": "canvas", "src": "", "box": [400, 300, 400, 300]}]}  # fed nothing: the page's own drawing
    assert 0.74 <= picture_share(framed, tmp_path / "page", assets) <= 0.77
    outside = {"viewport": [800, 600], "rasters": [
        {"kind": "img", "src": "http://127.0.0.1:5/../task/assets/1.png", "box": [0, 0, 800, 600]}]}
    assert picture_share(outside, tmp_path / "page", assets) > 0.99  # not served from the page's folder


def test_an_inlined_asset_is_the_page_s_material_and_drawn_content_is_told_apart(tmp_path):
    (tmp_path / "task" / "assets").mkdir(parents=True)
    (tmp_path / "task" / "assets" / "1.png").write_bytes(b"the task's own picture")
    assets = asset_digests(tmp_path / "task")
    inline = "data:image/png;base64," + base64.b64encode(b"the task's own picture").decode()
    other = "data:image/png;base64," + base64.b64encode(b"a frame of the video").decode()
    seen = {"viewport": [800, 600], "rasters": [
        {"kind": "img", "src": inline, "box": [0, 0, 800, 600]},
        {"kind": "background", "src": other, "box": [0, 0, 400, 600]},
        {"kind": "background", "src": "data:image/svg+xml,%3Csvg%3E%3C/svg%3E", "box": [400, 0, 400, 100]},
        {"kind": "canvas", "src": "", "box": [400, 100, 400, 500]},
        {"kind": "iframe", "src": "http://127.0.0.1:5/other.html", "box": [0, 0, 10, 10]},
        {"kind": "img", "src": "data:image/png;sha256," + hashlib.sha256(b"the task's own picture").hexdigest(),
         "box": [0, 0, 800, 600]}]}  # as the browser's listing sends a data: URL
    sorted_ = sort_rasters(seen, tmp_path, assets)
    assert sorted_["copied"] == [[0, 0, 400, 600]]
    assert sorted_["drawn"] == [[400, 0, 400, 100], [0, 0, 10, 10]]  # the canvas was fed nothing


@pytest.mark.slow
async def test_a_screenshot_of_the_page_scores_nothing_visually(suite_dir, tmp_path):
    task = load_suite(suite_dir).get("1")
    page = tmp_path / "page"
    page.mkdir()
    shutil.copy(task.folder / "checkpoints" / "step_0.png", page / "look.png")
    (page / "index.html").write_text('<!doctype html><body style="margin:0"><img src="look.png" '
                                     'style="position:fixed;inset:0;width:100%;height:100%"></body>')
    record = task.record.model_dump(mode="json", exclude_none=True)
    async with Toolbox(judge_servers(tmp_path / "run", suite_dir, extra_roots=[page])) as tools:
        j = await judge(tools, record, str(task.folder), str(page / "index.html"), JudgeConfig(probes=False))
    assert "pictures_of_page" in j["flags"]
    first = j["checkpoints"][0]
    assert first["picture_share"] >= PICTURE_SHARE and set(first["metrics"].values()) == {0.0}


def _canvas_page(page, draw: str) -> str:
    (page / "index.html").write_text(
        '<!doctype html><body style="margin:0"><canvas id="c" style="position:fixed;inset:0"></canvas><script>'
        'const c = document.getElementById("c"); c.width = innerWidth; c.height = innerHeight;'
        f'const g = c.getContext("2d"); {draw}</script></body>')
    return str(page / "index.html")


async def _judge_page(suite_dir, tmp_path, page):
    task = load_suite(suite_dir).get("1")
    record = task.record.model_dump(mode="json", exclude_none=True)
    async with Toolbox(judge_servers(tmp_path / "run", suite_dir, extra_roots=[page])) as tools:
        return await judge(tools, record, str(task.folder), str(page / "index.html"), JudgeConfig(probes=False))


@pytest.mark.slow
async def test_a_page_drawn_on_a_canvas_is_a_page_and_a_frame_drawn_on_it_is_not(suite_dir, tmp_path):
    """A full-viewport canvas painted by the page's own code keeps its visual score; the same canvas
    showing a frame of the recording (as a coder has it in frames/) scores 0 and is flagged."""
    task = load_suite(suite_dir).get("1")
    drawn = tmp_path / "drawn"
    drawn.mkdir()
    _canvas_page(drawn, 'g.fillStyle = "#fff"; g.fillRect(0, 0, c.width, c.height); g.fillStyle = "#223";'
                        'g.font = "28px sans-serif"; g.fillText("Movie reviews", 40, 60);'
                        'g.fillRect(40, 100, c.width - 80, 2);')
    honest = await _judge_page(suite_dir, tmp_path / "a", drawn)
    assert "pictures_of_page" not in honest["flags"]
    assert all(c["picture_share"] == 0.0 and "scored" not in c for c in honest["checkpoints"])
    assert max(honest["checkpoints"][0]["metrics"].values()) > 0.0

    inlined = tmp_path / "inlined"  # the task's asset, inlined whole as base64, over the whole viewport
    inlined.mkdir()
    b64 = base64.b64encode((task.assets_dir / "1.png").read_bytes()).decode()
    (inlined / "index.html").write_text(f'<!doctype html><body style="margin:0"><img src="data:image/png;base64,{b64}" '
                                        'style="position:fixed;inset:0;width:100%;height:100%"></body>')
    material = await _judge_page(suite_dir, tmp_path / "c", inlined)
    assert all(c["picture_share"] == 0.0 for c in material["checkpoints"]), "an inlined asset is the page's material"

    fetched = tmp_path / "fetched"  # the asset fetched and shown from memory (a blob: URL), as a shop's cards are
    fetched.mkdir()
    shutil.copy(task.assets_dir / "1.png", fetched / "can.png")
    (fetched / "index.html").write_text(
        '<!doctype html><body style="margin:0"><img id=i style="position:fixed;inset:0;width:100%;height:100%">'
        '<script>fetch("can.png").then((r) => r.blob()).then((b) => { i.src = URL.createObjectURL(b); });</script></body>')
    memory = await _judge_page(suite_dir, tmp_path / "d", fetched)
    assert all(c["picture_share"] == 0.0 for c in memory["checkpoints"]), "an asset behind a blob: URL is still the asset"

    framed = tmp_path / "framed"
    framed.mkdir()
    sample_frames(task.video)[0][1].convert("RGB").save(framed / "frame.jpg", quality=88)
    _canvas_page(framed, 'const im = new Image(); im.onload = () => g.drawImage(im, 0, 0, c.width, c.height);'
                         'im.src = "frame.jpg";')
    cheat = await _judge_page(suite_dir, tmp_path / "b", framed)
    assert "pictures_of_page" in cheat["flags"]
    first = cheat["checkpoints"][0]
    assert first["picture_share"] >= PICTURE_SHARE and set(first["metrics"].values()) == {0.0}


async def test_an_asset_shown_from_memory_is_known_while_its_bytes_are_still_being_hashed(suite_dir, tmp_path):
    """A blob: URL's bytes are hashed a few tasks after the page makes it; a listing taken meanwhile
    (the checkpoint's, read while its capture waits for the frame) waits for the digest instead of
    calling the task's asset a picture. A big file keeps the digest pending long enough to be seen."""
    task = load_suite(suite_dir).get("1")
    big = (task.assets_dir / "1.png").read_bytes() + bytes(24 << 20)  # what follows IEND is not drawn
    (tmp_path / "big.png").write_bytes(big)
    (tmp_path / "index.html").write_text('<!doctype html><body><img id=i style="width:200px;height:200px"></body>')
    asset = DIGEST + hashlib.sha256(big).hexdigest()
    async with BrowserHub() as hub:
        s = await hub.open(str(tmp_path / "index.html"), width=800, height=600)
        await actions.settle(s)
        pending = await s.page.evaluate("""async (question) => {
            const b = await (await fetch('big.png')).blob(), url = URL.createObjectURL(b);
            document.getElementById('i').src = url;
            return !dispatchEvent(new CustomEvent(question, {detail: JSON.stringify([url, [], 'pending']), cancelable: true}));
        }""", blob_event(s.token))
        listed = await actions.rasters(s, [asset])
        again = await actions.rasters(s, [])
    assert pending, "the digest was already taken: the case this test is about did not happen"
    (img,) = [r for r in listed["rasters"] if r["src"].startswith("blob:")]
    assert img.get("asset") is True
    assert not [r for r in again["rasters"] if r.get("asset")], "a digest that is no asset's is no asset"
