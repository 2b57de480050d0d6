"""A page that breaks the browser cannot leave the mean: after the one retry and a control page that
works, the crash is the page's fault (model_failure, counted); a harness that fails is infra_failure."""

import asyncio

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.judging.blame import broke_down, control_page_works, judge_blaming
from iwr.evals.records.results import TaskResult
from iwr.graphs.judge import JudgeConfig
from iwr.mcp_servers.browser import actions, veil
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.mcp_servers.browser.inspector import LIFT_S
from iwr.tasks.loader import load_suite
from tests.hung_page import hung_session

pytestmark = pytest.mark.slow

# On the first click the page fills its renderer's memory until Chromium kills it.
EXHAUSTS = """<!doctype html><meta charset="utf-8"><button id="submit">Post review</button><h1>Reviews</h1>
<script>document.addEventListener('click', () => { const keep = [];
  for (;;) keep.push(new Array(1e6).fill(Math.random())); }, true);</script>"""


async def test_a_page_that_exhausts_memory_is_a_model_failure_counted_in_the_mean(suite_dir, tmp_path):
    task = load_suite(suite_dir).get("1")
    page = tmp_path / "page"
    page.mkdir()
    (page / "index.html").write_text(EXHAUSTS)
    base = {"task_id": task.id, "agent": "test", "profile": "offline"}
    async with Toolbox(judge_servers(tmp_path / "run", suite_dir, extra_roots=[page])) as tools:
        r = await judge_blaming(task, page / "index.html", tools, JudgeConfig(probes=False), base)
        assert await control_page_works(tools)  # the harness itself is fine after the crashes
    assert r.status == "model_failure" and r.final == 0, (r.status, r.error)
    assert "page is at fault" in r.error and "browser." in r.error


def test_only_browser_deaths_and_timeouts_are_weighed():
    base = {"task_id": "1", "agent": "a", "profile": "offline"}
    assert broke_down(TaskResult(**base, status="infra_failure", error="browser.click: Target crashed"))
    assert not broke_down(TaskResult(**base, status="infra_failure",
                                     error="browser.screenshot: Target page, context or browser has been closed"))
    assert broke_down(TaskResult(**base, status="infra_failure", error="judge timed out after 120 s"))
    assert not broke_down(TaskResult(**base, status="infra_failure", error="metrics.compare: no tesseract"))
    assert not broke_down(TaskResult(**base, status="scored", error="the page stopped responding at load"))


async def _ends_within(coro, seconds: float) -> str:
    try:
        await asyncio.wait_for(coro, seconds)
        return "returned"
    except (asyncio.TimeoutError, actions.ActionFailed):
        return "gave up"


async def test_captures_give_up_on_a_hung_renderer_within_their_own_bound(tmp_path):
    """A capture bounded by its caller takes its style sheet off on the way out; a hung renderer never
    answers that, and waiting for it held the judgement until the judge's 120 s timeout (the cheat
    corpus's memory case took four minutes a judgement). Now the way out is bounded too."""
    async with BrowserHub(shots_root=tmp_path / "shots") as hub:
        s = await hung_session(hub, tmp_path)
        shot = actions.screenshot(s, "after", timeout_s=4)  # its settle probe gives up after 2 s first
        assert await asyncio.wait_for(_ends_within(shot, 60), 4 + LIFT_S + 5) == "gave up"
        bare = veil.with_and_without(s, ["body { color: red !important }"], again=True)
        assert await asyncio.wait_for(_ends_within(bare, 2), 2 + LIFT_S + 5) == "gave up"
        checked = actions.checked_screenshot(s, "checked", timeout_s=4, checks=[{"kind": "text_visible", "text": "go"}])
        assert await asyncio.wait_for(_ends_within(checked, 60), 4 + LIFT_S + 5) == "gave up"
