"""The exploratory probe: real browser-use (in .venv-explore) on real Chromium, the fake server as its LLM."""
from __future__ import annotations

import json
import re

import pytest

from iwr.agents.models import ModelConfig
from iwr.evals.judging.explore import explore_probe, explore_python, exploration_goal
from iwr.tasks.loader import load_suite

FINDINGS = [{"feature": "Post review without filling the form", "works": True,
             "evidence": "An error asks for a title and a rating"},
            {"feature": "Rate with the 9th star", "works": False, "evidence": "not tried"}]


def agent_step(actions: list[dict], goal: str) -> str:
    """One browser-use AgentOutput (the structured answer it asks for each step)."""
    return json.dumps({"thinking": "", "evaluation_previous_goal": "", "memory": "", "next_goal": goal,
                       "action": actions})


def click_post_review(request: dict) -> str:
    """Click the 'Post review' button by the index browser-use gave it in this step's page state."""
    state = json.dumps(request["messages"])
    index = int(re.search(r"\[(\d+)\]<button id=submit", state).group(1))
    return agent_step([{"click": {"index": index}}], "post the empty form")


@pytest.fixture
def explore_venv():
    """browser-use's own venv; `make test` creates it, so its absence is a failure, not a skip."""
    if not explore_python().is_file():
        pytest.fail(f"no {explore_python()}: run scripts/setup_explore.sh (make test does)")


@pytest.fixture
def task_one(suite_dir):
    task = next(t for t in load_suite(suite_dir).tasks if t.id == "1")
    return task, task.reference_site() / task.record.iwr.reference.page


@pytest.mark.slow
async def test_the_agent_explores_the_reference_page_and_reports_its_findings(fake_openai, task_one, explore_venv):
    task, entry = task_one
    done = {"done": {"text": "```json\n" + json.dumps(FINDINGS) + "\n```", "success": True, "files_to_display": []}}
    fake_openai.replies = [click_post_review, agent_step([done], "report")]
    model = ModelConfig(model="openai/explorer", api_base=fake_openai.base_url)
    record = task.record.model_dump(mode="json", exclude_none=True)

    report = await explore_probe(record, entry, model, task.size, max_steps=4, timeout_s=120)

    assert report["status"] == "ok", report
    assert report["steps"] >= 2 and "click" in report["actions"]
    assert report["findings"] == FINDINGS
    assert "Click the 'Post review' button" in report["goal"]
    assert len(fake_openai.requests) == 2 and fake_openai.requests[0]["model"] == "explorer"
    # The click happened in the real page: the next request shows the page's validation error.
    assert "Please add a title and a rating." in json.dumps(fake_openai.requests[1]["messages"])


@pytest.mark.slow
async def test_an_exploration_past_its_time_limit_is_an_error(fake_openai, task_one, explore_venv):
    task, entry = task_one
    fake_openai.replies = [{"sleep": 30}]  # the model never answers in time
    model = ModelConfig(model="openai/explorer", api_base=fake_openai.base_url)
    record = task.record.model_dump(mode="json", exclude_none=True)
    report = await explore_probe(record, entry, model, task.size, max_steps=4, timeout_s=8)
    assert report["status"] == "error" and "timed out after 8" in report["errors"][0]
    assert report["seconds"] < 20


async def test_a_missing_explore_venv_is_reported_unavailable(monkeypatch, tmp_path, task_one):
    task, entry = task_one
    monkeypatch.setenv("IWR_EXPLORE_PYTHON", str(tmp_path / "no-venv" / "bin" / "python"))
    report = await explore_probe({}, entry, ModelConfig(model="openai/explorer", api_base="http://127.0.0.1:9/v1"))
    assert report == {"status": "unavailable", "reason": "run scripts/setup_explore.sh"}


async def test_a_worker_that_dies_without_a_report_is_an_error(monkeypatch, task_one):
    task, entry = task_one
    monkeypatch.setenv("IWR_EXPLORE_PYTHON", "/bin/false")
    record = task.record.model_dump(mode="json", exclude_none=True)
    report = await explore_probe(record, entry, ModelConfig(model="openai/explorer", api_base="http://127.0.0.1:9/v1"))
    assert report["status"] == "error" and "no report" in report["reason"]


def test_the_goal_lists_every_action_with_its_assertion(task_one):
    task, _ = task_one
    record = task.record.model_dump(mode="json", exclude_none=True)
    goal = exploration_goal(record)
    assert "film reviews" in goal and '"works"' in goal
    for n, action in enumerate(record["action_sequence"], 1):
        assert f"{n}. {action['parameters']['description']}" in goal
    assert f"(expected: {record['action_sequence'][0]['logical_assertion']})" in goal
