"""`--executor ray`: tasks spread over two Ray workers give the results the local executor gives."""
import asyncio
import json
import os

import pytest
import ray

from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.tasks.loader import load_suite

pytestmark = pytest.mark.slow
TASKS = ["1", "109", "117"]


@pytest.fixture(scope="module")
def local_ray():
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # the workers inherit it
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def decided(results) -> dict:
    """Per task: what the judge decided (statuses, scores, every action and metric), no timings or paths."""
    out = {}
    for r in results:
        j = r.judge
        out[r.task_id] = {"status": r.status, "scores": [r.ifs, r.lvs, r.hvs, r.vfs, r.final],
                          "actions": [(a["index"], a["status"], a.get("error")) for a in j["actions"]],
                          "checkpoints": [(c["step"], c["metrics"]) for c in j["checkpoints"]],
                          "backends": j["backends"]}
    return out


def test_ray_workers_give_the_local_results(local_ray, suite_dir, tmp_path):
    suite = load_suite(suite_dir)
    common = dict(agent="oracle", suite=suite, runs_dir=tmp_path, task_ids=TASKS, concurrency=2)
    local = asyncio.run(run(RunConfig(run_id="local", **common)))
    spread = asyncio.run(run(RunConfig(run_id="ray", executor="ray", **common)))
    assert [r.task_id for r in spread] == TASKS
    assert decided(spread) == decided(local)
    assert all(r.status == "scored" and r.final == 1.0 for r in spread)
    # Two workers shared the tasks, each starting its servers once.
    pids = {json.loads(line)["pid"] for t in TASKS for line in (tmp_path / "ray" / t / "attempts.jsonl").open()}
    assert len(pids) == 2 and os.getpid() not in pids
    assert json.loads((tmp_path / "ray" / "summary.json").read_text())["mean"]["final"] == 1.0
