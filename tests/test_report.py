"""The static report built from two real one-task runs (oracle and blank), opened from disk in real Chromium."""
import asyncio
import json
import re
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from evals.report import build_report
from evals.runner import RunConfig, run
from tasks.loader import load_suite

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
    for html in report.rglob("*.html"):
        refs = re.findall(r'(?:src|href)="([^"]*)"', html.read_text())
        assert refs and all("://" not in r and not r.startswith(("/", "data:")) for r in refs), html
        for r in refs:
            assert (html.parent / r).resolve().is_file(), (html, r)
