"""Ten SIGKILLs at random moments, each followed by a resume with the same run id: nothing is lost,
nothing is done twice, the store stays sound, no browser outlives its run, and the results equal
those of an uninterrupted run."""
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
TASKS = ["1", "116", "105"]  # the shortest bundled tasks (7 to 11 actions)
KILLS = 10


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


def marked_processes(marker: str) -> list[tuple[int, str]]:
    """Live processes (pid, command) whose environment carries `marker`: the run and all it started."""
    found = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            if marker.encode() not in (d / "environ").read_bytes():
                continue
            state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                found.append((int(d.name), (d / "cmdline").read_bytes().replace(b"\0", b" ")[:120].decode(errors="replace")))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def wait_until_gone(marker: str, seconds: float = 20.0) -> list[tuple[int, str]]:
    deadline = time.monotonic() + seconds
    while (left := marked_processes(marker)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def attempts(run: Path, task: str) -> int:
    f = run / task / "attempts.jsonl"
    return len(f.read_text().splitlines()) if f.is_file() else 0


def test_ten_kills_and_resumes_equal_an_uninterrupted_run(tmp_path):
    marker = f"IWR_KILL_TEST={uuid.uuid4().hex}"
    env = {"IWR_KILL_TEST": marker.split("=", 1)[1]}
    t0 = time.monotonic()
    full = start("full", tmp_path, TASKS, concurrency=2, env=env)
    assert full.wait(600) == 0
    uninterrupted = time.monotonic() - t0
    assert wait_until_gone(marker) == []

    rng = random.Random(8)
    run = tmp_path / "killed"
    frozen: dict[str, int] = {}  # attempts of each finished task when it was first seen finished
    kills = 0
    # Random delays adding up to 60 % of an uninterrupted run: every restart loses its start-up and
    # the tasks in flight, so ten kills land before the end, some after tasks finished, some before.
    weights = [rng.uniform(0.2, 1.0) for _ in range(KILLS)]
    delays = [0.6 * uninterrupted * w / sum(weights) for w in weights]
    while kills < KILLS:
        p = start("killed", tmp_path, TASKS, concurrency=2, env=env)
        if kills == KILLS // 2:  # one kill just after a task finished, so finished work meets a resume
            done = {t for t in TASKS if (run / t / "result.json").is_file()}
            deadline = time.monotonic() + 600
            while {t for t in TASKS if (run / t / "result.json").is_file()} == done and time.monotonic() < deadline:
                time.sleep(0.1)
        time.sleep(delays[kills])
        if p.poll() is not None:  # finished before this kill: the remaining kills have nothing to hit
            break
        os.killpg(p.pid, signal.SIGKILL)  # the whole group: runner, MCP servers, Chromium
        p.wait(30)
        kills += 1
        assert wait_until_gone(marker) == [], f"processes outlived kill {kills}"
        for t in TASKS:
            if (run / t / "result.json").is_file():
                frozen.setdefault(t, attempts(run, t))
    finished_before_last = set(frozen)

    last = start("killed", tmp_path, TASKS, concurrency=2, env=env)
    out, _ = last.communicate(timeout=600)
    assert last.returncode == 0
    assert wait_until_gone(marker) == [], "processes outlived the run"
    print(f"kills={kills} tasks={len(TASKS)} finished before the last start={sorted(finished_before_last)} "
          f"uninterrupted={uninterrupted:.1f}s total={time.monotonic() - t0:.1f}s")

    assert kills == KILLS, "the run finished before ten kills; use longer tasks or shorter delays"
    assert finished_before_last, "no kill came after a finished task"
    summary = json.loads(out)
    assert summary["mean"]["counted"] == len(TASKS)
    assert sorted(t["task_id"] for t in summary["tasks"]) == sorted(TASKS)  # one entry per task, none twice
    assert scores(tmp_path, "killed") == scores(tmp_path, "full")
    for t in TASKS:
        assert [f.name for f in (run / t).glob("result.json*")] == ["result.json"], t
        if t in frozen:  # finished work is never started again
            assert attempts(run, t) == frozen[t], t
    assert sorted(d.name for d in run.iterdir() if d.is_dir() and (d / "result.json").exists()) == sorted(TASKS)
    db = sqlite3.connect(tmp_path / "iwr.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = db.execute("SELECT task_id, COUNT(*) FROM results WHERE run_id='killed' GROUP BY task_id").fetchall()
    assert sorted(rows) == sorted((t, 1) for t in TASKS)
    stored = {r[0]: (r[1], r[2], r[3], r[4]) for r in db.execute(
        "SELECT task_id, status, ifs, vfs, final FROM results WHERE run_id='killed'")}
    assert stored == scores(tmp_path, "full")
