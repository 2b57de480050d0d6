"""`iwr run` end to end on the bundled suite: oracle is the ceiling, blank the floor, and a
single-shot coder goes through real litellm to a local fake OpenAI-compatible server."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.agents.models import ModelConfig
from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.tasks.loader import load_suite

pytestmark = pytest.mark.slow
IWR = [sys.executable, "-m", "iwr.evals.cli"]
GOOD_PAGE = (Path(__file__).resolve().parent.parent / "tasks" / "sites" / "reviews" / "index.html").read_text()


def iwr_json(*args: str, cwd: Path) -> dict:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = subprocess.run([*IWR, *args, "--json"], cwd=cwd, capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout)


# Three tasks of different sites and widgets by default (a form, typing into a list, keys on a board); the
# whole suite, which is what `make run` does, with `pytest -m whole_suite` (about four minutes).
SOME = ["1", "105", "107"]


@pytest.mark.parametrize("task_ids", [pytest.param(SOME, id="three"),
                                      pytest.param([], id="whole", marks=pytest.mark.whole_suite)])
def test_oracle_scores_one_and_blank_scores_zero(tmp_path, task_ids):
    only = [a for t in task_ids for a in ("--task", t)]
    oracle = iwr_json("run", "--agent", "oracle", "--run-id", "o", "--runs-dir", str(tmp_path), *only, cwd=tmp_path)
    assert set(oracle) >= {"run_id", "tasks", "mean"} and oracle["run_id"] == "o"
    assert len(oracle["tasks"]) == (len(task_ids) or 21)
    assert all(t["status"] == "scored" for t in oracle["tasks"])
    assert oracle["mean"]["ifs"] == 1.0 and oracle["mean"]["final"] >= 0.98
    probes = [t["probes"]["typed_text"] for t in oracle["tasks"]]
    # no honest reference looks pre-baked, and most type something the probe can change
    assert "failed" not in probes and probes.count("passed") >= len(probes) // 3
    blank = iwr_json("run", "--agent", "blank", "--run-id", "b", "--runs-dir", str(tmp_path), *only, cwd=tmp_path)
    assert blank["mean"]["ifs"] == 0.0
    assert blank["mean"]["final"] < oracle["mean"]["final"] - 0.5
    for tid in (t["task_id"] for t in oracle["tasks"]):
        result = json.loads((tmp_path / "o" / tid / "result.json").read_text())
        assert result["status"] == "scored" and result["profile"] == "offline"
        assert {"ocr", "feature", "structural"} <= set(result["backends"])
        assert all(a["status"] == "passed" for a in result["judge"]["actions"])
        first = json.loads((tmp_path / "b" / tid / "result.json").read_text())["judge"]["actions"]
        assert first[0]["status"] == "failed" and all(a["status"] == "not_reached" for a in first[1:])


async def test_single_shot_through_litellm_to_a_fake_server_then_judged(fake_openai, tmp_path, suite_dir):
    fake_openai.replies = ["Here is the page:\n```html\n" + GOOD_PAGE.replace("assets/poster.png",
                           "__PLACEHOLDER_ASSETS_BASE_DIR__/1.png") + "\n```"]
    cfg = RunConfig(run_id="ss", agent="single-shot", suite=load_suite(suite_dir), runs_dir=tmp_path, task_ids=["1"],
                    model=ModelConfig(model="openai/fake-vl", api_base=fake_openai.base_url, retries=0))
    results = await run(cfg)
    r = results[0]
    assert r.status == "scored", r.error
    req = fake_openai.requests[0]
    content = req["messages"][0]["content"]
    assert content[0]["type"] == "text" and "__PLACEHOLDER_ASSETS_BASE_DIR__" in content[0]["text"]
    images = [c for c in content if c["type"] == "image_url"]
    assert len(images) >= 5 and images[0]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    html = (tmp_path / "ss" / r.task_id / "artifact" / "index.html").read_text()
    assert 'src="assets/1.png"' in html and "__PLACEHOLDER" not in html
    assert r.ifs == 1.0 and r.final > 0.9  # the answer reproduced the page, so the real judge passes it
    assert r.coder["usage"]["prompt_tokens"] == 120


async def test_model_answer_without_html_is_a_model_failure(fake_openai, tmp_path, suite_dir):
    fake_openai.replies = ["I cannot help with that."]
    cfg = RunConfig(run_id="nohtml", agent="single-shot", suite=load_suite(suite_dir), runs_dir=tmp_path, task_ids=["1"],
                    model=ModelConfig(model="openai/fake", api_base=fake_openai.base_url, retries=0))
    r = (await run(cfg))[0]
    assert r.status == "model_failure" and r.final == 0.0 and "no HTML" in r.error


async def test_server_errors_are_retried_then_an_infrastructure_failure(fake_openai, tmp_path, suite_dir):
    fake_openai.replies = [{"status": 500}, {"status": 500}]
    cfg = RunConfig(run_id="down", agent="single-shot", suite=load_suite(suite_dir), runs_dir=tmp_path, task_ids=["1"],
                    model=ModelConfig(model="openai/fake", api_base=fake_openai.base_url, retries=1))
    r = (await run(cfg))[0]
    assert r.status == "infra_failure" and len(fake_openai.requests) >= 2
    summary = json.loads((tmp_path / "down" / "summary.json").read_text())
    assert summary["mean"]["counted"] == 0 and summary["mean"]["by_status"]["infra_failure"] == 1


def test_floor_and_ceiling_agents_compare_in_one_command(tmp_path):
    res = iwr_json("run", "--agent", "oracle,static,blank", "--task", "1", "--run-id", "fc",
                   "--runs-dir", str(tmp_path), cwd=tmp_path)
    means = {r["agent"]: r["mean"] for r in res["runs"]}
    assert [r["run_id"] for r in res["runs"]] == ["fc-oracle", "fc-static", "fc-blank"]
    assert means["static"]["ifs"] == 0.0  # no script: nothing works
    assert means["oracle"]["final"] > means["static"]["final"] > means["blank"]["final"]
    html = (tmp_path / "fc-static" / "1" / "artifact" / "index.html").read_text()
    assert "<script" not in html and "assets/1.png" in html
