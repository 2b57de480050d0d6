"""Coding agents nobody on the team wrote, installed from the npm registry by the setup
(scripts/setup_agents.sh), take a bundled task end to end through `iwr run --agent codex|claude-code`:
each lists the iwr MCP servers' tools, reads the task's assets, writes and renders the page through
them, and the run judges what it left. Their model is a scripted server on loopback
(tests/agent_model_server.py); the run and the server share a network namespace of their own that
has nothing but loopback, so nothing can leave the machine whatever the agent tries."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.iterative_script import GOOD

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / ".agents"
STEPS = [{"tool": "list_assets", "args": {"task_id": "1"}},
         {"tool": "write_file", "args": {"path": "index.html", "content": GOOD}},
         {"tool": "render", "args": {"path": "index.html", "width": 1280, "height": 800}},
         {"text": "index.html is written and renders without errors."}]


def run_offline(tmp_path: Path, agent: str, model: str, api_suffix: str, env_extra: dict) -> tuple[dict, list[dict]]:
    """`iwr run --agent AGENT` on task 1 against the scripted model, both in a loopback-only namespace."""
    assert (AGENTS / "node_modules" / ".bin" / agent.replace("claude-code", "claude")).exists(), \
        "run scripts/setup_agents.sh (make test does)"
    (tmp_path / "steps.json").write_text(json.dumps(STEPS))
    url, log, pid = tmp_path / "url.txt", tmp_path / "requests.jsonl", tmp_path / "server.pid"
    server = f"{sys.executable} {ROOT / 'tests' / 'agent_model_server.py'} {tmp_path / 'steps.json'} {url} {log}"
    # The server's own output goes to a file: an inherited pipe would keep the run's output open after it ends.
    script = (f"ip link set lo up && ( {server} >{tmp_path / 'server.log'} 2>&1 </dev/null & echo $! > {pid} ) && "
              f"while [ ! -s {url} ]; do sleep 0.1; done && "
              f'exec "$@" --api-base "$(cat {url}){api_suffix}"')
    cmd = ["unshare", "-n", "sh", "-c", script, "sh", sys.executable, "-m", "iwr.evals.cli", "run", "--agent", agent,
           "--model", model, "--task", "1", "--seconds", "240", "--expose", str(AGENTS), "--runs-dir",
           str(tmp_path / "runs"), "--run-id", agent, "--no-cache", "--json"]
    env = {**os.environ, "PATH": f"{AGENTS / 'node_modules' / '.bin'}:{os.environ['PATH']}", **env_extra}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env, cwd=tmp_path)
    finally:
        if pid.is_file():
            subprocess.run(["kill", pid.read_text().strip()], capture_output=True)
    assert p.returncode == 0, p.stderr[-3000:]
    (task,) = json.loads(p.stdout)["tasks"]
    result = json.loads((tmp_path / "runs" / agent / "1" / "result.json").read_text())
    assert task["status"] == "scored", (task, (tmp_path / "runs" / agent / "1" / "agent" / "stderr.log").read_text()[-2000:])
    return result, [json.loads(x) for x in log.read_text().splitlines()]


def tool_results(requests: list[dict]) -> list[str]:
    """The text of every tool result the agent sent back to the model, in order (either wire format)."""
    last = requests[-1]["body"]
    out = []
    for it in last.get("input") or []:
        if isinstance(it, dict) and it.get("type") == "function_call_output":
            out.append(json.dumps(it.get("output")))
    for m in last.get("messages") or []:
        for c in m.get("content") if isinstance(m.get("content"), list) else []:
            if isinstance(c, dict) and c.get("type") == "tool_result":
                out.append(json.dumps(c.get("content")))
    return out


def test_codex_cli_takes_a_task_through_the_iwr_servers(tmp_path):
    result, requests = run_offline(tmp_path, "codex", "scripted", "/v1", {})
    namespaces = {t.get("name") for t in requests[0]["body"].get("tools", []) if t.get("type") == "namespace"}
    assert {"mcp__iwr_workspace", "mcp__iwr_browser", "mcp__iwr_assets", "mcp__iwr_metrics"} <= namespaces
    listed, written, rendered = tool_results(requests)
    assert "1.png" in listed and "index.html" in written and "console_errors" in rendered
    assert result["ifs"] == 1.0 and result["final"] > 0.8, result["error"]
    usage = result["coder"]["usage"]
    assert usage["source"] == "codex turn.completed" and usage["prompt_tokens"] == 120 * len(requests)
    assert result["coder"]["trajectory"].endswith(".jsonl") and "/agent/home/.codex/sessions/" in result["coder"]["trajectory"]


def test_claude_code_takes_a_task_through_the_iwr_servers(tmp_path):
    # The scripted model calls the MCP tools directly, so they must be offered up front, not behind tool search.
    result, requests = run_offline(tmp_path, "claude-code", "claude-sonnet-4-5", "",
                                   {"ANTHROPIC_API_KEY": "scripted", "ENABLE_TOOL_SEARCH": "false"})
    names = {t.get("name") for t in requests[-1]["body"].get("tools", [])}
    for server in ("workspace", "browser", "assets", "metrics"):
        assert any(n.startswith(f"mcp__iwr-{server}__") for n in names), (server, sorted(names))
    listed, written, rendered = tool_results(requests)
    assert "1.png" in listed and "index.html" in written and "console_errors" in rendered
    assert result["ifs"] == 1.0 and result["final"] > 0.8, result["error"]
    assert result["coder"]["usage"]["source"] == "claude-code result"
