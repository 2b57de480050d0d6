"""A run killed with SIGKILL resumes where it stopped and ends equal to an uninterrupted run."""
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def start(run_id: str, runs: Path, tasks: list[str], concurrency: int = 1, env: dict | None = None) -> subprocess.Popen:
    args = [sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "oracle", "--run-id", run_id, "--runs-dir", str(runs),
            "--concurrency", str(concurrency), "--json", *[x for t in tasks for x in ("--task", t)],
            "--no-cache"]  # the kills must land in real work, not in answers the first run cached
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", **(env or {})}
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, start_new_session=True)


def scores(runs: Path, run_id: str) -> dict:
    out = {}
    for f in sorted((runs / run_id).glob("*/result.json")):
        r = json.loads(f.read_text())
        out[r["task_id"]] = (r["status"], r["ifs"], r["vfs"], r["final"])
    return out


def test_sigkill_then_resume_equals_uninterrupted(suite_dir, tmp_path):
    ids = [json.loads(x)["id"] for x in (suite_dir / "data.jsonl").read_text().splitlines()][:3]
    tasks = [str(i) for i in ids]
    full = start("full", tmp_path, tasks)
    assert full.wait(900) == 0
    p = start("killed", tmp_path, tasks)
    first = tmp_path / "killed" / tasks[0] / "result.json"
    deadline = time.monotonic() + 600
    while not first.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert first.exists(), "the first task never finished"
    os.killpg(p.pid, signal.SIGKILL)  # the whole group: runner, servers, Chromium
    p.wait(30)
    finished_before = {t for t in tasks if (tmp_path / "killed" / t / "result.json").exists()}
    assert len(finished_before) < len(tasks), "killed too late to test anything"
    again = start("killed", tmp_path, tasks)
    out, _ = again.communicate(timeout=900)
    assert again.returncode == 0
    assert json.loads(out)["mean"]["counted"] == len(tasks)
    assert scores(tmp_path, "killed") == scores(tmp_path, "full")
    for t in finished_before:  # what had finished was not done again
        attempts = (tmp_path / "killed" / t / "attempts.jsonl").read_text().splitlines()
        assert len(attempts) == 1, t
    db = sqlite3.connect(tmp_path / "iwr.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    n = db.execute("SELECT COUNT(*) FROM results WHERE run_id='killed'").fetchone()[0]
    assert n == len(tasks)
