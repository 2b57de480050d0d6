"""A page that breaks the browser cannot leave the mean: after the one retry and a control page that
works, the crash is the page's fault (model_failure, counted); a harness that fails is infra_failure."""

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.judging.blame import broke_down, control_page_works, judge_blaming
from iwr.evals.records.results import TaskResult
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite

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
