"""The static report built from two real one-task runs (oracle and blank), opened from disk in real Chromium."""
import asyncio
import json
import re
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from iwr.evals.report.build import build_report
from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.evals.records.stats import turn_curve
from iwr.tasks.loader import load_suite
from tests.iterative_script import RUN_ID

pytestmark = pytest.mark.slow
SUITE = Path(__file__).resolve().parent.parent / "tasks" / "suite"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """Run oracle and blank on task 1, then build the report; returns its folder."""
    runs = tmp_path_factory.mktemp("runs")
    for agent in ("oracle", "blank"):
        asyncio.run(run(RunConfig(run_id=f"r-{agent}", agent=agent, suite=load_suite(SUITE), runs_dir=runs,
                                  task_ids=["1"])))
    out = runs / "rep"
    index = build_report([runs / "r-oracle", runs / "r-blank"], out)
    assert index == out / "index.html" and index.is_file()
    return out


@pytest.fixture(scope="module")
def iterative_report(report, scripted_iterative) -> Path:
    """The scripted iterative run (see conftest) compared with the blank run; returns the report folder."""
    runs, _, _ = scripted_iterative
    out = report.parent / "rep-iterative"
    build_report([runs / RUN_ID, report.parent / "r-blank"], out)
    return out


async def open_in_chromium(url: str, root: Path, check) -> None:
    """Load `url` from disk, run `check(page)`, then assert no errors and no request outside the report."""
    errors: list[str] = []
    requests: list[str] = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        try:
            page = await browser.new_page()
            page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
            page.on("request", lambda r: requests.append(r.url))
            await page.goto(url, wait_until="load")
            await check(page)
        finally:
            await browser.close()
    assert errors == []
    assert requests, "the page made no request at all"
    prefix = root.resolve().as_uri() + "/"
    assert [u for u in requests if not u.startswith(prefix)] == []


async def test_index_opens_from_disk_with_leaderboard_and_plots(report):
    async def check(page):
        assert await page.locator("table.leaderboard tbody tr").count() == 2
        assert await page.locator("main svg.plot").count() >= 2
        assert await page.locator("svg.plot circle, svg.plot rect[fill-opacity]").count() >= 2  # one point per run
        text = await page.locator("main").inner_text()
        assert "r-oracle" in text and "r-blank" in text and "Final(r-oracle) − Final(r-blank)" in text
        assert await page.locator('a[href^="tasks/r-oracle/"]').count() >= 1
        await page.locator("table.tasks th").first.click()  # the inline sorter runs without errors

    await open_in_chromium((report / "index.html").as_uri(), report, check)


async def test_task_page_shows_video_frames_and_checkpoints(report):
    page_file = report / "tasks" / "r-oracle" / "1.html"
    assert page_file.is_file()

    async def check(page):
        await page.wait_for_function("Array.from(document.images).every(i => i.complete)")
        loaded = await page.evaluate("Array.from(document.images).filter(i => i.naturalWidth > 0).length")
        total = await page.evaluate("document.images.length")
        assert loaded >= 2 and loaded == total
        assert await page.locator(".compare img").count() >= 2  # a reference beside a candidate
        assert await page.locator("video[controls]").count() == 1
        await page.wait_for_function("document.querySelector('video').readyState >= 1", timeout=15000)
        assert await page.locator("article.action").count() >= 2
        assert await page.locator(".badge.s-passed").count() >= 1
        widths = await page.evaluate("Array.from(document.images).map(i => i.naturalWidth)")
        assert max(widths) <= 640

    await open_in_chromium(page_file.as_uri(), report, check)

    blank = (report / "tasks" / "r-blank" / "1.html").read_text()
    assert "s-failed" in blank and "s-not_reached" in blank


def test_exports_and_no_external_references(report):
    tables = json.loads((report / "tables.json").read_text())
    assert [r["run_id"] for r in tables["runs"]] == ["r-oracle", "r-blank"]
    assert tables["runs"][0]["n"] == 1 and tables["runs"][0]["final"]["mean"] > tables["runs"][1]["final"]["mean"]
    assert tables["paired_difference"]["n"] == 1 and tables["paired_difference"]["diff"] > 0.5
    assert tables["first_failure"]["r-blank"] == {"1": 1}
    assert set(tables["breakdowns"]) == {"interaction", "visual", "domain"}
    md = (report / "tables.md").read_text()
    assert "| Model | LVS | HVS | IFS | VFS | Final |" in md and "| oracle | " in md and "| blank | " in md
    assert_local_references(report)


def assert_local_references(root: Path) -> None:
    """Every src and href of every page names a file inside the report (fragments aside)."""
    for html in root.rglob("*.html"):
        refs = [r for r in re.findall(r'(?:src|href)="([^"]*)"', html.read_text()) if not r.startswith("#")]
        assert refs and all("://" not in r and not r.startswith(("/", "data:")) for r in refs), html
        for r in refs:
            assert (html.parent / r).resolve().is_file(), (html, r)


async def test_iterative_report_plots_score_per_turn(iterative_report):
    curve = json.loads((iterative_report / "tables.json").read_text())["turn_curves"]
    assert list(curve) == [RUN_ID]  # the blank run judged no drafts: no line
    finals = [p["final"] for p in curve[RUN_ID]]
    assert [p["turn"] for p in curve[RUN_ID]] == [1, 2, 3, 4] and finals[0] < 0.5 < finals[-1] == 1.0
    assert curve[RUN_ID][-1]["tokens"] > curve[RUN_ID][0]["tokens"] > 0 and curve[RUN_ID][-1]["cost_usd"] > 0

    async def check(page):
        for axis in ("turn", "tokens", "dollars"):
            plot = page.locator(f'svg.plot[aria-label="Mean Final against {axis}"]')
            assert await plot.count() == 1 and await plot.locator("polyline").count() == 1
            assert await plot.locator("circle").count() >= 2 + 1  # a marker per turn (or draft), plus the legend's
        assert f"Final({RUN_ID}) − Final(r-blank)" in await page.locator("main").inner_text()

    await open_in_chromium((iterative_report / "index.html").as_uri(), iterative_report, check)
    assert "## Score per turn" in (iterative_report / "tables.md").read_text()


async def test_task_page_shows_the_coder_trajectory(iterative_report):
    async def check(page):
        traj = page.locator("article.turn")
        assert await page.locator("h2#trajectory").count() == 1 and await traj.count() == 7
        await page.wait_for_function("Array.from(document.images).every(i => i.complete)")
        shots = await page.evaluate("Array.from(document.querySelectorAll('article.turn img')).map(i => i.naturalWidth)")
        assert len(shots) == 2 and min(shots) > 0  # the two judged drafts
        text = await traj.all_inner_texts()
        assert "write_file" in text[0] and "0 of 7 actions" in text[2] and "kept" in text[3] and "finish" in text[6]
        # the model's words are shown as text, never as markup
        assert "First draft <b>from the video</b>." in text[0] and await page.locator("article.turn .said b").count() == 0

    await open_in_chromium((iterative_report / "tasks" / RUN_ID / "1.html").as_uri(), iterative_report, check)
    assert "Coder trajectory" not in (iterative_report / "tasks" / "r-blank" / "1.html").read_text()
    assert_local_references(iterative_report)


def test_turn_curve_carries_the_latest_draft_forward():
    def res(status, *drafts):
        return {"task_id": "t", "status": status, "coder": {"turn_scores": [
            {"turn": t, "final": f, "ifs": f, "vfs": f, "tokens": 100 * t, "cost_usd": t / 100} for t, f in drafts]}}

    results = [res("scored", (1, 0.3), (3, 0.9)), res("scored", (2, 0.5)), res("model_failure"),
               res("infra_failure", (1, 1.0))]
    curve = turn_curve(results)
    assert [(p["turn"], p["n"]) for p in curve] == [(1, 3), (2, 3), (3, 3)]
    assert [round(p["final"], 4) for p in curve] == [0.1, round(0.8 / 3, 4), round(1.4 / 3, 4)]
    assert [round(p["tokens"], 4) for p in curve] == [round(100 / 3, 4), 100.0, round(500 / 3, 4)]
    assert turn_curve([res("scored"), {"task_id": "u", "status": "scored"}]) == []


def test_report_command_takes_several_runs_to_compare(report, scripted_iterative, tmp_path):
    from typer.testing import CliRunner

    from iwr.evals.cli.app import app

    runs, _, _ = scripted_iterative
    out = tmp_path / "three"
    r = CliRunner().invoke(app, ["report", str(report.parent / "r-oracle"), "--compare", str(report.parent / "r-blank"),
                                 str(runs / RUN_ID), "--out", str(out)])
    assert r.exit_code == 0, r.output
    index = (out / "index.html").read_text()
    assert all(name in index for name in ("r-oracle", "r-blank", RUN_ID))
    bad = CliRunner().invoke(app, ["report", str(report.parent / "r-oracle"), str(tmp_path / "no-such-run")])
    assert bad.exit_code == 2 and "not a finished run" in bad.output
