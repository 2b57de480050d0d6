"""Outside agents as coders: `iwr run --agent cmd:'...'` runs a scripted command-line agent
(tests/outside_agent.py) once per task in its prepared workspace, in the bubblewrap sandbox, within a
wall-clock budget; the outcomes of a good page, a timeout, a crash and an agent that tries to read the
suite are each recorded as they should be, and the suite stays out of the agent's reach."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from iwr.evals.workspace.agent_presets import PRESETS, codex_config, fast_agent_config, gemini_config
from iwr.evals.workspace.agent_usage import usage_from_output
from iwr.evals.workspace.command_coder import fill
from tests.iterative_script import GOOD

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tasks" / "suite"


def sleepers() -> list[str]:
    """Processes still running the timed-out agent's child."""
    out = []
    for d in Path("/proc").iterdir():
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "sleep 987654" in cmd:
            out.append(f"{d.name}: {cmd}")
    return out


@pytest.mark.slow
def test_outcomes_of_a_good_page_a_timeout_a_crash_and_a_snoop(tmp_path):
    agent_bin = tmp_path / "agent-bin"
    agent_bin.mkdir()
    shutil.copy(ROOT / "tests" / "outside_agent.py", agent_bin / "outside_agent.py")
    (agent_bin / "page.html").write_text(GOOD)
    runs, state = tmp_path / "runs", Path(os.environ["IWR_STATE_DIR"])
    secrets = [SUITE / "data.jsonl", SUITE / "data" / "1" / "checkpoints" / "step_0.png", SUITE / "data" / "105",
               ROOT / "tasks" / "sites" / "reviews" / "index.html", ROOT / "tests" / "iterative_script.py",
               ROOT / ".git" / "HEAD", runs, runs / "out", runs / "out" / "1", state, Path("/root"), Path("/work")]
    template = (f"cmd:{sys.executable} {agent_bin / 'outside_agent.py'} {{task_id}} {agent_bin / 'page.html'} "
                + " ".join(str(p) for p in secrets))
    p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", template, "--task", "1", "--task", "105",
                        "--task", "107", "--task", "101", "--seconds", "40", "--expose", str(agent_bin),
                        "--runs-dir", str(runs), "--run-id", "out", "--no-cache", "--json"],
                       capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    by_task = {t["task_id"]: t for t in json.loads(p.stdout)["tasks"]}
    assert set(by_task) == {"1", "105", "107", "101"}

    good = json.loads((runs / "out" / "1" / "result.json").read_text())
    assert good["status"] == "scored" and good["ifs"] == 1.0 and good["final"] > 0.8, good["error"]
    assert good["coder"]["usage"]["prompt_tokens"] == 1200 and good["coder"]["agent"]["exit_code"] == 0
    notes = json.loads((runs / "out" / "1" / "artifact" / "agent-notes.json").read_text())
    assert {"write_file", "open", "list_assets", "compare"} <= {t for ts in notes["tools"].values() for t in ts}
    assert (runs / "out" / "1" / "agent" / "stdout.log").read_text().strip().startswith('{"usage"')

    assert by_task["105"]["status"] == "model_failure" and "ran out of time (40 s)" in by_task["105"]["error"]
    assert sleepers() == [], "the timed-out agent's child outlived its budget"
    assert by_task["107"]["status"] == "model_failure" and "exited with code 3" in by_task["107"]["error"]
    assert "the agent fell over" in by_task["107"]["error"]

    snoop = json.loads((runs / "out" / "101" / "artifact" / "snoop.json").read_text())
    # A folder on the way to what the sandbox shows lists only that way (/work shows main, nothing else).
    shown = [runs / "out" / "101", Path(sys.prefix), Path(sys.base_prefix), agent_bin,
             *(ROOT / n for n in ("iwr", "agents", "graphs", "mcp_servers", "evals", "tasks"))]
    on_the_way = {(str(d), e) for d in map(Path, snoop) for e in (snoop[str(d)] or []) if isinstance(snoop[str(d)], list)
                  and any(t == d / e or d / e in t.parents for t in shown)}
    readable = {k: v for k, v in snoop.items()
                if v and not (isinstance(v, list) and all((k, e) in on_the_way for e in v))}
    assert readable == {}, f"the agent read what it must not: {readable}"
    assert by_task["101"]["status"] == "scored" and by_task["101"]["ifs"] == 0.0 and by_task["101"]["final"] <= 0.05

    rep = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "report", "out", "--runs-dir", str(runs)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert rep.returncode == 0, rep.stderr[-2000:]
    pages = {p.name: p.read_text() for p in Path(rep.stdout.strip()).parent.glob("tasks/*/*.html")}
    crashed = next(v for k, v in pages.items() if k.startswith("107"))
    assert "Outside agent" in crashed and "exit code 3" in crashed and "the agent fell over" in crashed
    good_page = next(v for k, v in pages.items() if k.startswith("1."))
    assert "1200 prompt + 340 completion tokens" in good_page and "&#34;usage&#34;" in good_page  # its stdout, escaped


def test_an_agent_that_is_not_installed_is_the_harness_s_fault(tmp_path):
    p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "cmd:no-such-agent-here {prompt}",
                        "--task", "1", "--runs-dir", str(tmp_path), "--run-id", "x", "--no-cache", "--json"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 1, p.stderr[-2000:]
    (t,) = json.loads(p.stdout)["tasks"]
    assert t["status"] == "infra_failure" and "could not be run (exit 127)" in t["error"]
    assert "--expose DIR" in t["error"]  # the sandbox shows little: the message says how to show more


def test_placeholders_are_quoted_and_other_braces_stay():
    cmd = fill("agent --p {prompt} --json '{\"a\": 1}' {model}", {"prompt": "it's $HOME; rm -rf /", "model": None})
    assert cmd == "agent --p 'it'\"'\"'s $HOME; rm -rf /' --json '{\"a\": 1}' ''"


def test_presets_configure_their_agents(tmp_path):
    mcp = {"mcpServers": {"iwr-workspace": {"command": "/venv/bin/python", "args": ["-m", "iwr.mcp_servers", "workspace"]}}}
    env = codex_config(tmp_path / "ws", tmp_path / "home", mcp, "http://127.0.0.1:9/v1")
    toml = (tmp_path / "home" / ".codex" / "config.toml").read_text()
    assert env == {"CODEX_HOME": str(tmp_path / "home" / ".codex")}
    assert '[mcp_servers.iwr-workspace]\ncommand = "/venv/bin/python"\nargs = ["-m", "iwr.mcp_servers", "workspace"]' in toml
    assert 'base_url = "http://127.0.0.1:9/v1"' in toml and 'wire_api = "responses"' in toml
    assert toml.index('model_provider = "iwr-local"') < toml.index("[")  # a top-level key, before any table
    env = gemini_config(tmp_path / "ws", tmp_path / "home", mcp, None)
    settings = json.loads((tmp_path / "home" / ".gemini" / "settings.json").read_text())
    assert env == {"GEMINI_CLI_HOME": str(tmp_path / "home")} and settings["mcpServers"]["iwr-workspace"]["trust"]
    fast_agent_config(tmp_path / "ws", tmp_path / "home", mcp, "http://127.0.0.1:9/v1")
    fa = yaml.safe_load((tmp_path / "home" / "fastagent.config.yaml").read_text())
    assert fa["mcp"]["servers"]["iwr-workspace"]["transport"] == "stdio" and fa["generic"]["base_url"].endswith("/v1")
    assert "{home}/fastagent.config.yaml" in PRESETS["fast-agent"].command(None)
    claude = PRESETS["claude-code"]
    assert "-p --model {model} --output-format" in claude.command("claude-sonnet")
    assert "{mcp_config}" in claude.command(None) and "--model" not in claude.command(None)
    assert claude.command(None).endswith("-- {prompt}")  # --allowedTools takes many values: the prompt is not one


def test_usage_is_read_from_each_agent_s_own_json():
    claude = json.dumps({"type": "result", "total_cost_usd": 0.25, "num_turns": 7,
                         "usage": {"input_tokens": 100, "cache_read_input_tokens": 50, "output_tokens": 20}})
    assert usage_from_output(claude) == {"prompt_tokens": 150, "completion_tokens": 20, "cost_usd": 0.25, "turns": 7,
                                         "source": "claude-code result"}
    codex = "\n".join(json.dumps(e) for e in [{"type": "thread.started"},
                                              {"type": "turn.completed", "usage": {"input_tokens": 10, "output_tokens": 2}},
                                              {"type": "turn.completed", "usage": {"input_tokens": 30, "output_tokens": 4}}])
    assert usage_from_output("noise\n" + codex) == {"prompt_tokens": 40, "completion_tokens": 6, "turns": 2,
                                                    "source": "codex turn.completed"}
    gemini = json.dumps({"response": "ok", "stats": {"models": {"g": {"tokens": {"prompt": 9, "candidates": 3}}}}})
    assert usage_from_output(gemini)["prompt_tokens"] == 9
    atif = json.dumps({"schema_version": "ATIF-v1.8", "steps": [], "final_metrics": {"total_prompt_tokens": 360,
                                                                                      "total_completion_tokens": 120}})
    assert usage_from_output(atif) == {"prompt_tokens": 360, "completion_tokens": 120,
                                       "source": "trajectory final_metrics"}
    assert usage_from_output("no json at all") == {} and usage_from_output('{"usage": "garbage"}') == {}
