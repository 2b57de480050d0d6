"""`iwr run --max-dollars`: the iterative coder stops at the limit and the result says why."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.fake_openai import FakeOpenAI
from tests.iterative_script import script


def test_max_dollars_stops_the_loop_and_is_recorded(tmp_path):
    server = FakeOpenAI()
    server.replies = script()
    server.start()
    try:
        p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "iterative", "--task", "1",
                            "--model", "openai/gpt-4o-mini", "--api-base", server.base_url, "--max-dollars", "0.00001",
                            "--runs-dir", str(tmp_path), "--run-id", "cap", "--no-cache", "--json"],
                           capture_output=True, text=True, timeout=600, cwd=tmp_path)
    finally:
        server.stop()
    assert p.returncode == 0, p.stderr[-2000:]
    (t,) = json.loads(p.stdout)["tasks"]
    traj = json.loads((tmp_path / "cap" / "1" / "trajectory.json").read_text())
    # one priced call (about $0.00005 at gpt-4o-mini's list price) is past the limit: no second turn
    assert traj["stop_reason"] == "budget: dollars" and traj["usage"]["turns"] == 1, traj["stop_reason"]
    assert traj["usage"]["cost_usd"] >= 0.00001 and t["status"] == "scored"
    assert len(server.requests) == 1
