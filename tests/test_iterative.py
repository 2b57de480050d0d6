"""The iterative coder end to end: real litellm to a local fake server scripting tool calls, real
MCP servers, real Chromium; the agent breaks, replays, fixes, and the real judge sees the gain."""
import json
from pathlib import Path

import pytest

from agents.models import ModelConfig
from evals.runner import RunConfig, run
from graphs.iterative import Budget, best_draft, budget_left
from tasks.loader import load_suite

pytestmark = pytest.mark.slow
SITE = Path(__file__).resolve().parent.parent / "tasks" / "sites" / "reviews"
GOOD = (SITE / "index.html").read_text().replace("assets/poster.png", "assets/1.png")
HANDLER = "document.getElementById('submit').onclick = () => {"
BROKEN = GOOD.replace(HANDLER, "document.getElementById('submit').onclick_disabled = () => {")


def call(name, **arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


async def test_agent_fixes_a_broken_handler_and_the_judge_sees_it(fake_openai, tmp_path, suite_dir):
    assert BROKEN != GOOD
    fake_openai.replies = [
        call("write_file", path="index.html", content=BROKEN),
        call("render"),
        call("replay"),
        call("edit_file", path="index.html", old="onclick_disabled = () => {", new="onclick = () => {"),
        call("compare_with_frame", index=0),
        call("replay"),
        call("finish"),
    ]
    cfg = RunConfig(run_id="it", agent="iterative", suite=load_suite(suite_dir), runs_dir=tmp_path, task_ids=["1"],
                    model=ModelConfig(model="openai/fake-agent", api_base=fake_openai.base_url, retries=0),
                    budget=Budget(turns=10))
    r = (await run(cfg))[0]
    assert r.status == "scored", r.error
    traj = json.loads((tmp_path / "it" / "1" / "trajectory.json").read_text())
    tools = [x["tool"] for x in traj["log"]]
    assert tools == ["write_file", "render", "replay", "edit_file", "compare_with_frame", "replay", "finish"]
    first_replay, second_replay = [x["result"] for x in traj["log"] if x["tool"] == "replay"]
    assert first_replay.startswith("0 of 7") and "failed" in first_replay
    assert second_replay.startswith("7 of 7")
    assert traj["stop_reason"] == "finished"
    turns = r.coder["turn_scores"]
    assert [t["turn"] for t in turns] == [1, 4] and turns[0]["ifs"] == 0.0 and turns[1]["ifs"] == 1.0
    assert turns[1]["final"] > turns[0]["final"]
    assert r.ifs == 1.0 and r.coder["best_turn"] == 4
    # the model saw its screenshot as an image, and never the judge's checkpoints
    sent = json.dumps(fake_openai.requests)
    assert "data:image/jpeg;base64," in sent and "checkpoints" not in sent
    assert "#submit" not in fake_openai.requests[0]["messages"][0]["content"]  # no reference selectors


def test_budget_and_best_draft_rules():
    b = Budget(turns=3, tokens=100, seconds=1e9, dollars=1.0)
    assert budget_left({"turn": 3}, b) == "turns"
    assert budget_left({"turn": 1, "tokens": 150}, b) == "tokens"
    assert budget_left({"turn": 1, "cost": 2.0}, b) == "dollars"
    assert budget_left({"turn": 1, "tokens": 10, "cost": 0.1}, b) is None
    drafts = [{"turn": 0, "passed": 2}, {"turn": 1, "passed": 5}, {"turn": 2, "passed": 5}, {"turn": 3, "passed": None}]
    assert best_draft(drafts)["turn"] == 2
    assert best_draft([{"turn": 0, "passed": None}, {"turn": 1, "passed": None}])["turn"] == 1
    assert best_draft([]) is None
