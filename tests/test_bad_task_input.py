"""A task that fails in an unexpected way while its page is made is one recorded failure; the run goes on."""
from __future__ import annotations

import json
import shutil

from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.tasks.loader import load_suite
from tests.conftest import SUITE, one_task_suite


async def test_unreadable_video_is_an_infra_failure_and_other_tasks_are_scored(tmp_path):
    root = one_task_suite(tmp_path / "s")
    line = next(x for x in (SUITE / "data.jsonl").read_text().splitlines() if json.loads(x)["id"] == 101)
    with open(root / "data.jsonl", "a") as f:
        f.write(line + "\n")
    shutil.copytree(SUITE / "data" / "101", root / "data" / "101")
    site = json.loads(line)["iwr"]["reference"]["site"]
    shutil.copytree((SUITE / site).resolve(), (root / site).resolve())
    (root / "data" / "1" / "video.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42" + b"garbage" * 100)
    # The static coder reads the first frame's text: the broken video breaks it, but only for task 1.
    cfg = RunConfig(run_id="bad", agent="static", suite=load_suite(root, strict=False), runs_dir=tmp_path / "runs")
    results = {r.task_id: r for r in await run(cfg)}
    assert results["1"].status == "infra_failure" and "internal error while making the page" in results["1"].error
    assert results["101"].status == "scored"
    saved = json.loads((tmp_path / "runs" / "bad" / "1" / "result.json").read_text())
    assert saved["status"] == "infra_failure"


def test_a_missing_checkpoint_is_an_invalid_task_and_the_command_says_so(tmp_path):
    import os
    import subprocess
    import sys

    root = one_task_suite(tmp_path / "s")
    (root / "data" / "1" / "checkpoints" / "step_0.png").unlink()
    out = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "oracle", "--tasks", str(root),
                          "--runs-dir", str(tmp_path / "runs"), "--run-id", "r", "--json"], capture_output=True,
                         text=True, env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}, timeout=300)
    assert out.returncode == 1, out.stderr[-1500:]
    summary = json.loads(out.stdout)
    task = summary["tasks"][0]
    assert task["status"] == "invalid_task" and "step_0.png" in task["error"] and "missing" in task["error"]
    assert summary["mean"]["counted"] == 0 and summary["mean"]["final"] is None  # not the page's 0
