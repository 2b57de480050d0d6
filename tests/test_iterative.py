"""The iterative coder end to end: real litellm to a local fake server scripting tool calls, real
MCP servers, real Chromium; the agent breaks, replays, fixes, and the real judge sees the gain."""
import json

import pytest

from iwr.agents.coder import Budget
from iwr.graphs.iterative import best_draft, budget_left
from tests.iterative_script import BROKEN, GOOD, RUN_ID

pytestmark = pytest.mark.slow


def test_agent_fixes_a_broken_handler_and_the_judge_sees_it(scripted_iterative):
    runs, r, requests = scripted_iterative
    assert BROKEN != GOOD
    assert r.status == "scored", r.error
    traj = json.loads((runs / RUN_ID / "1" / "trajectory.json").read_text())
    tools = [x["tool"] for x in traj["log"]]
    assert tools == ["write_file", "render", "replay", "edit_file", "compare_with_frame", "replay", "finish"]
    first_replay, second_replay = [x["result"] for x in traj["log"] if x["tool"] == "replay"]
    assert first_replay == "0 of 7 actions replayed successfully."  # scores only: no error, no expected text
    assert second_replay.startswith("7 of 7")
    assert traj["stop_reason"] == "finished"
    assert [n["turn"] for n in traj["notes"]] == [1, 4] and traj["usage"]["turns"] == 7
    turns = r.coder["turn_scores"]
    assert [t["turn"] for t in turns] == [1, 4] and turns[0]["ifs"] == 0.0 and turns[1]["ifs"] == 1.0
    assert turns[1]["final"] > turns[0]["final"]
    # usage so far at each draft: what the score-against-tokens and -dollars plots use
    assert turns[0]["tokens"] == 160 and turns[1]["tokens"] == 4 * 160
    assert 0 < turns[0]["cost_usd"] < turns[1]["cost_usd"]
    assert all(t["shot"] and (runs / RUN_ID / "1" / "drafts-judged" / f"turn_{t['turn']:02d}" / "judgement.json").is_file()
               for t in turns)
    assert r.ifs == 1.0 and r.coder["best_turn"] == 4
    # the model saw its screenshot as an image, and never the judge's checkpoints
    sent = json.dumps(requests)
    assert "data:image/jpeg;base64," in sent and "checkpoints" not in sent
    assert "#submit" not in requests[0]["messages"][0]["content"]  # no reference selectors


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


def test_replay_feedback_levels_name_actions_in_their_own_words_only():
    from iwr.graphs.iterative import replay_feedback

    j = {"successful_actions": 1, "total_actions": 2, "actions": [
        {"index": 1, "type": "Click", "description": "Click 'Add'", "status": "passed", "error": None},
        {"index": 2, "type": "Type", "description": "Type 'milk'", "status": "failed",
         "error": "assertion failed: 'Total: $42' shown in 0 place(s)", "grounding": {"target": {"selector": "#add"}}}]}
    assert replay_feedback(j, "scores") == "1 of 2 actions replayed successfully."
    acts = replay_feedback(j, "actions")
    assert "2. Type: Type 'milk' -> failed" in acts and "1. Click: Click 'Add' -> passed" in acts
    assert "$42" not in acts and "#add" not in acts and "assertion" not in acts
