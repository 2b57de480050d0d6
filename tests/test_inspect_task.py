"""The suite as an inspect_ai Task (evals/workspace/inspect_task.py), in .venv-inspect: inspect's mock
model, scripted through the iwr MCP servers, builds task 1's page; the iwr judge scores it (value =
Final, the actions' verdicts in the metadata); the log reads back. `inspect eval` on the command line
runs the same task with plain mockllm (no page: Final 0). Everything runs in a loopback-only network
namespace."""
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.iterative_script import GOOD

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv-inspect" / "bin"
TASK = ROOT / "evals" / "workspace" / "inspect_task.py"


def offline(*cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    assert (VENV / "inspect").exists(), "run scripts/setup_inspect.sh (make test does)"
    # Plain mockllm counts tokens with tiktoken, which would download its encoding: litellm ships it.
    tokenizers = next((ROOT / ".venv" / "lib").glob("python3*/site-packages/litellm/litellm_core_utils/tokenizers"))
    env = {**os.environ, "INSPECT_DISPLAY": "none", "TIKTOKEN_CACHE_DIR": str(tokenizers)}
    return subprocess.run(["unshare", "-n", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *cmd],
                          capture_output=True, text=True, timeout=600, cwd=cwd, env=env)


def test_the_mock_model_builds_a_page_and_the_judge_scores_it(tmp_path):
    (tmp_path / "page.html").write_text(GOOD)
    p = offline(str(VENV / "python"), str(ROOT / "tests" / "inspect_run.py"), str(tmp_path / "logs"),
                str(tmp_path / "page.html"), cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    assert out["status"] == "success" and out["location"].endswith(".eval")
    assert {"list_assets", "write_file", "render"} <= set(out["tools_called"])  # react() drops its submit call
    meta = out["metadata"]
    assert meta["status"] == "scored" and out["value"] == meta["final"] > 0.8 and meta["ifs"] == 1.0
    assert [a["status"] for a in meta["actions"]] == ["passed"] * len(meta["actions"]) and len(meta["actions"]) == 7
    assert out["metrics"]["ifs"] == 1.0 and out["metrics"]["mean"] == out["value"]
    judged = json.loads(Path(meta["judgement"]).read_text())  # the judgement file, outside the workspace
    assert judged["final"] == meta["final"] and not str(meta["judgement"]).startswith(meta["workspace"])


def test_inspect_eval_on_the_command_line_runs_the_task(tmp_path):
    p = offline(str(VENV / "inspect"), "eval", f"{TASK}@iwr", "--model", "mockllm/model", "-T", "task_ids=1",
                "-T", "message_limit=4", "-T", "images=false", "--log-dir", str(tmp_path / "logs"), cwd=tmp_path)
    assert p.returncode == 0, (p.stdout[-2000:], p.stderr[-2000:])
    dump = subprocess.run([str(VENV / "inspect"), "log", "dump", str(next((tmp_path / "logs").glob("*.eval")))],
                          capture_output=True, text=True, timeout=120)
    log = json.loads(dump.stdout)
    (sample,) = log["samples"]
    score = sample["scores"]["iwr_judge"]
    assert score["value"] == 0.0 and score["metadata"]["status"] == "model_failure"  # the mock wrote no page
    assert "no page" in score["metadata"]["error"]
