"""Pictures are not pages: a page painted with a screenshot of the page gets no visual score, while
the task's own assets, under any name, count as the page's material."""
import shutil

import pytest

from agents.toolbox import Toolbox
from evals.judging.artifact import judge_servers
from graphs.judge import JudgeConfig, judge
from graphs.pictures import asset_digests, picture_share
from tasks.loader import load_suite


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
        {"kind": "canvas", "src": "", "box": [0, 300, 400, 300]}]}
    assert 0.74 <= picture_share(framed, tmp_path / "page", assets) <= 0.77
    outside = {"viewport": [800, 600], "rasters": [
        {"kind": "img", "src": "http://127.0.0.1:5/../task/assets/1.png", "box": [0, 0, 800, 600]}]}
    assert picture_share(outside, tmp_path / "page", assets) > 0.99  # not served from the page's folder


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
    assert first["picture_share"] > 0.95 and set(first["metrics"].values()) == {0.0}
