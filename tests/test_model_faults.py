"""Model faults through real litellm to the local fake server, for the single-shot and the iterative
coder: transport faults are retried with backoff and end as infra_failure (never a score); unusable
answers are model_failure; a bad tool call goes back to the agent as a tool error and the loop goes on."""
import json
from pathlib import Path

import pytest

from iwr.agents.models import ModelConfig
from iwr.agents.toolbox import Toolbox
from iwr.graphs.iterative_coder import iterative
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.run.attempt import run_task
from iwr.evals.run.config import RunConfig
from iwr.agents.coder import Budget
from iwr.graphs.single_shot import single_shot
from iwr.tasks.loader import load_suite

pytestmark = pytest.mark.slow
RETRIES = 2
BACKOFF = 0.05
GOOD_PAGE = (Path(__file__).resolve().parent.parent / "tasks" / "sites" / "reviews" / "index.html").read_text()
TRANSIENT = {
    "429": {"status": 429},
    "500": {"status": 500},
    "timeout": {"sleep": 3},  # timeout_s is 1
    "connection reset": {"reset": True},
    "invalid JSON body": {"body": '{"id": "x", "choices": [{"mess'},
}


def model(fake) -> ModelConfig:
    return ModelConfig(model="openai/fake", api_base=fake.base_url, retries=RETRIES, backoff_s=BACKOFF, timeout_s=1.0)


def config(fake, tmp_path: Path, suite: Path, agent: str) -> RunConfig:
    return RunConfig(run_id="faults", agent=agent, suite=load_suite(suite), runs_dir=tmp_path, model=model(fake),
                     budget=Budget(turns=4), score_turns=False)


async def outcome(cfg: RunConfig, tools: dict | None = None):
    """run_task on the suite's one task; the judge's servers only where a page is expected to be judged."""
    async with Toolbox(tools or {}) as box:
        return await run_task(cfg, cfg.suite.tasks[0], box)


def assert_backoff(fake) -> None:
    gaps = [b - a for a, b in zip(fake.times, fake.times[1:])]
    assert all(g >= BACKOFF * 2 ** k * 0.9 for k, g in enumerate(gaps)), gaps


# --- transport faults: retried, then infra_failure ---------------------------------------------------

@pytest.mark.parametrize("agent", ["single-shot", "iterative"])
@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_transport_faults_are_retried_then_an_infra_failure(fake_openai, tmp_path, suite_copy, agent, fault):
    fake_openai.replies = [TRANSIENT[fault]] * (RETRIES + 1)
    r = await outcome(config(fake_openai, tmp_path, suite_copy, agent))
    assert r.status == "infra_failure", (r.status, r.error)
    assert f"after {RETRIES + 1} attempts" in r.error
    assert len(fake_openai.requests) == RETRIES + 1
    assert_backoff(fake_openai)


@pytest.mark.parametrize("fault", list(TRANSIENT))
async def test_a_transport_fault_then_an_answer_recovers(fake_openai, tmp_path, suite_copy, fault):
    fake_openai.replies = [TRANSIENT[fault], TRANSIENT[fault], "```html\n<main><h1>ok</h1></main>\n```"]
    task = load_suite(suite_copy).tasks[0]
    rec = await single_shot(task.video, task.asset_sheets(), task.size, tmp_path / "out", model(fake_openai))
    assert rec["status"] == "ok" and len(fake_openai.requests) == 3
    assert "<h1>ok</h1>" in (tmp_path / "out" / "index.html").read_text()


async def test_a_fault_in_the_middle_of_the_loop_is_an_infra_failure(fake_openai, tmp_path, suite_copy):
    fake_openai.replies = [{"tool_calls": [{"name": "write_file", "arguments": {"path": "index.html", "content": "<p>x</p>"}}]},
                           *[{"status": 500}] * (RETRIES + 1)]
    r = await outcome(config(fake_openai, tmp_path, suite_copy, "iterative"))
    assert r.status == "infra_failure" and len(fake_openai.requests) == 1 + RETRIES + 1


# --- unusable answers of the single-shot coder: model_failure scoring 0 ------------------------------

UNUSABLE = {
    "no HTML block": ("Here is how I would build the page: a header, a form and a list of reviews.", "no HTML"),
    "empty reply": ("", "empty"),
    "refusal": ("I'm sorry, but I can't help with that.", "no HTML"),
    "refusal field": ({"content": None, "refusal": "I can't help with that."}, "empty"),
    "truncated prose": ({"content": "Sure! First I will lay out the", "finish_reason": "length"}, "no HTML"),
    "gigantic prose": ("lorem ipsum " * 200_000, "no HTML"),
}


@pytest.mark.parametrize("case", list(UNUSABLE))
async def test_unusable_single_shot_answers_are_model_failures(fake_openai, tmp_path, suite_copy, case):
    reply, reason = UNUSABLE[case]
    fake_openai.replies = [reply]
    r = await outcome(config(fake_openai, tmp_path, suite_copy, "single-shot"))
    assert r.status == "model_failure" and r.final == 0.0 and reason in r.error, (r.status, r.error)
    assert len(fake_openai.requests) == 1  # an answer is never retried


JUDGED = {
    "truncated page": ({"content": "```html\n" + GOOD_PAGE[: len(GOOD_PAGE) // 2], "finish_reason": "length"}, "length"),
    "gigantic page": ("```html\n" + GOOD_PAGE.replace("</body>", "<!--" + "x" * 3_000_000 + "--></body>") + "\n```", "stop"),
}


@pytest.mark.parametrize("case", list(JUDGED))
async def test_truncated_or_gigantic_pages_are_judged_as_rendered(fake_openai, tmp_path, suite_copy, case):
    reply, finish = JUDGED[case]
    fake_openai.replies = [reply]
    cfg = config(fake_openai, tmp_path, suite_copy, "single-shot")
    r = await outcome(cfg, judge_servers(cfg.run_dir, cfg.suite.root))
    assert r.status == "scored" and 0.0 <= r.final <= 1.0, (r.status, r.error)
    assert r.coder["usage"]["finish_reason"] == finish and len(fake_openai.requests) == 1


# --- the iterative coder: bad tool calls are tool errors, the loop goes on ---------------------------

def call(name, **arguments):
    return {"tool_calls": [{"name": name, "arguments": arguments}]}


WRITE = call("write_file", path="index.html", content="<main><h1>ok</h1></main>")
BAD_CALLS = {
    "arguments not JSON": ({"tool_calls": [{"name": "write_file", "raw_arguments": '{"path": "index.html", "cont'}]}, "JSON"),
    "unknown tool": (call("delete_everything", path="/"), "unknown tool"),
    "index of the wrong type": (call("view_frame", index="the first one"), "error"),
    "content of the wrong type": (call("write_file", path="index.html", content={"html": 1}), "error"),
    "missing argument": (call("read_file"), "error"),
}


async def run_iterative(fake, tmp_path: Path, suite: Path) -> tuple[dict, dict]:
    task = load_suite(suite).tasks[0]
    rec = await iterative(task, tmp_path / "t" / "artifact", model(fake), Budget(turns=4), "faults/t",
                          tmp_path / "checkpoints.db")
    return rec, json.loads((tmp_path / "t" / "trajectory.json").read_text())


@pytest.mark.parametrize("case", list(BAD_CALLS))
async def test_a_bad_tool_call_is_a_tool_error_and_the_loop_goes_on(fake_openai, tmp_path, suite_copy, case):
    bad, said = BAD_CALLS[case]
    fake_openai.replies = [bad, WRITE, call("finish")]
    rec, traj = await run_iterative(fake_openai, tmp_path, suite_copy)
    assert rec["status"] == "ok" and traj["stop_reason"] == "finished", rec
    first = traj["log"][0]["result"]
    assert first.startswith("error") and said in first, first
    tool_reply = [m for m in fake_openai.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_reply and tool_reply[0]["content"].startswith("error")  # the model was told
    assert len(fake_openai.requests) == 3
    assert "<h1>ok</h1>" in (tmp_path / "t" / "artifact" / "index.html").read_text()


NEVER_WRITES = {
    "answers in prose at once": (["I think the page is fine as it is."], 1),
    "finishes without writing": ([call("render"), call("finish")], 2),
    "only bad calls until the budget ends": ([call("delete_everything")] * 4, 4),
}


@pytest.mark.parametrize("case", list(NEVER_WRITES))
async def test_an_agent_that_never_writes_the_page_is_a_model_failure(fake_openai, tmp_path, suite_copy, case):
    replies, requests = NEVER_WRITES[case]
    fake_openai.replies = list(replies)
    r = await outcome(config(fake_openai, tmp_path, suite_copy, "iterative"))
    assert r.status == "model_failure" and r.final == 0.0 and "never wrote" in r.error, (r.status, r.error)
    assert len(fake_openai.requests) == requests
