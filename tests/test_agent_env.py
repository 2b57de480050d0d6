"""What an outside agent gets from the operator: the documented variables only (its preset's model keys,
the system's, the network's, the iwr servers'), and its command's own executable without --expose."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.evals.workspace.agent_presets import PRESETS
from iwr.evals.workspace.sandbox import MODEL_KEYS, Sandbox, own_executable, passed_env
from tests.iterative_script import GOOD

HOST = {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HTTPS_PROXY": "http://proxy:3128",
        "ANTHROPIC_API_KEY": "test-anthropic", "OPENAI_API_KEY": "test-openai", "GITHUB_TOKEN": "host-secret",
        "AWS_SECRET_ACCESS_KEY": "host-secret", "IWR_PRIVATE_NOTE": "host-secret", "XDG_CONFIG_HOME": "/home/someone/.config"}


def test_each_preset_gets_its_own_keys_and_nothing_else_from_the_host():
    claude = passed_env(PRESETS["claude-code"].keys, HOST)
    assert claude == {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HTTPS_PROXY": "http://proxy:3128",
                      "ANTHROPIC_API_KEY": "test-anthropic"}
    # an agent's own family of settings reaches it, and only it
    assert passed_env(PRESETS["claude-code"].keys, {**HOST, "CLAUDE_CODE_MAX_OUTPUT_TOKENS": "9"})[
        "CLAUDE_CODE_MAX_OUTPUT_TOKENS"] == "9"
    assert "CLAUDE_CODE_MAX_OUTPUT_TOKENS" not in passed_env(PRESETS["codex"].keys, {**HOST, "CLAUDE_CODE_MAX_OUTPUT_TOKENS": "9"})
    assert passed_env(PRESETS["codex"].keys, HOST)["OPENAI_API_KEY"] == "test-openai"
    assert "ANTHROPIC_API_KEY" not in passed_env(PRESETS["codex"].keys, HOST)
    fast = passed_env(PRESETS["fast-agent"].keys, HOST)
    assert fast["OPENAI_API_KEY"] == "test-openai" and fast["ANTHROPIC_API_KEY"] == "test-anthropic"
    for name in PRESETS:
        assert not {"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "IWR_PRIVATE_NOTE"} & set(passed_env(PRESETS[name].keys, HOST))
    env = Sandbox(Path("/w"), Path("/h"), keys=MODEL_KEYS).env(HOST)
    assert env["HOME"] == "/h" and env["XDG_CONFIG_HOME"] == "/h/.config" and "GITHUB_TOKEN" not in env


def test_the_command_s_own_executable_is_found_as_the_shell_finds_it(tmp_path):
    venv = tmp_path / "tool"
    (venv / "bin").mkdir(parents=True)
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    script = venv / "bin" / "my-agent"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    link_dir = tmp_path / "links"
    link_dir.mkdir()
    (link_dir / "my-agent").symlink_to(script)
    assert own_executable("my-agent --x {prompt}", str(link_dir)) == [link_dir / "my-agent", script, venv]
    assert own_executable(f"{script} --x", "") == [script, venv]
    assert own_executable("no-such-agent-anywhere", str(link_dir)) == [] and own_executable("'", "") == []


def _fake_agent(folder: Path, name: str) -> Path:
    """An agent that leaves its environment in its workspace and writes the reference page."""
    folder.mkdir(parents=True, exist_ok=True)
    exe = folder / name  # the page inside the script: only the executable itself is shown to the sandbox
    exe.write_text(f"#!/bin/sh\nenv > seen-env.txt\ncat > index.html <<'PAGE'\n{GOOD}\nPAGE\n"
                   "echo '{\"usage\": {\"input_tokens\": 10, \"output_tokens\": 2}}'\n")
    exe.chmod(0o755)
    return exe


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_a_preset_and_a_script_in_a_temporary_folder_run_in_the_sandbox(tmp_path):
    bin_dir = tmp_path / "bin"
    _fake_agent(bin_dir, "claude")
    script = _fake_agent(tmp_path / "scripts", "agent.sh")
    env = {**os.environ, **{k: v for k, v in HOST.items() if k not in ("PATH", "XDG_CONFIG_HOME")},
           "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    for run_id, agent in (("preset", "claude-code"), ("script", f"cmd:{script} {{prompt}}")):
        p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", agent, "--task", "1",
                            "--runs-dir", str(tmp_path / "runs"), "--run-id", run_id, "--no-cache", "--json"],
                           capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env)
        (t,) = json.loads(p.stdout)["tasks"]
        assert t["status"] == "scored" and t["ifs"] == 1.0, (agent, t["error"], p.stderr[-1500:])
        seen = dict(line.split("=", 1) for line in
                    (tmp_path / "runs" / run_id / "1" / "artifact" / "seen-env.txt").read_text().splitlines() if "=" in line)
        assert seen.get("ANTHROPIC_API_KEY") == "test-anthropic"
        assert ("OPENAI_API_KEY" in seen) == (run_id == "script")  # claude-code gets Anthropic's keys only
        assert not {"GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "IWR_PRIVATE_NOTE"} & set(seen), seen
