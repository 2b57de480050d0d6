"""The README's evaluator sections ("Evaluate your agent" up to "Commands") work as written: every
shell line of their code blocks runs in one working folder, in order, and succeeds, and so does
their Python block.

What stands in for the world: the agents (`claude`, `codex`, `my-agent`) are scripts on PATH that
write a page where they are started; `openai/<name>` is a scripted model on a loopback
OpenAI-compatible server (inspect's line takes its own mock model); the Hub is a loopback server
holding the official layout of task 1; HOME is a temporary folder. Each `iwr run` is limited to
task 1 (`--task 1` added where the line names no task), so the section runs in minutes.
"""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from iwr.tasks.hub import OFFICIAL_REPO
from tests.fake_hub import FakeHub
from tests.fake_openai import FakeOpenAI
from tests.test_hub_download import with_reference
from tests.test_official_layout import official_copy

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
STAND_INS = ("claude", "codex", "gemini", "fast-agent", "my-agent")
AGENT = "#!/bin/sh\nprintf '<!doctype html><html><body><h1>Hello</h1></body></html>' > index.html\n"


def evaluator_blocks(readme: str) -> list[tuple[str, str]]:
    """(language, code) of each fenced block from "## Evaluate your agent" up to "## Commands"."""
    part = readme.split("\n## Evaluate your agent\n", 1)[1].split("\n## Commands\n", 1)[0]
    return re.findall(r"^```(bash|python)\n(.*?)^```", part, re.S | re.M)


def shell_lines(code: str) -> list[str]:
    """Each command of a bash block, without its trailing comment (two spaces and '#')."""
    out = []
    for line in code.splitlines():
        line = re.split(r"\s{2,}#", line)[0].strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def as_tested(line: str, model_url: str, commit: str) -> str:
    """The line with the stand-ins of the module docstring put in."""
    if "inspect eval" in line:
        line = line.replace("openai/<name>", "mockllm/model") + " -T message_limit=4 -T images=false"
    line = line.replace("openai/<name>", "openai/fake-model").replace("http://127.0.0.1:8000/v1", model_url)
    line = line.replace("<commit>", commit)
    words = shlex.split(line) if "$(" not in line else line.split()
    if words[:2] == ["iwr", "run"] and "--task" not in words:
        line += " --task 1"
    return line


def test_the_evaluator_sections_run_as_written(tmp_path):
    blocks = evaluator_blocks((ROOT / "README.md").read_text())
    lines = [x for lang, code in blocks if lang == "bash" for x in shell_lines(code)]
    python = [code for lang, code in blocks if lang == "python"]
    assert len(lines) >= 12 and len(python) == 1, (lines, python)
    assert any(x.startswith("iwr run --agent claude-code") for x in lines)
    assert any(x.startswith("iwr report") and "--compare" in x for x in lines)

    bin_dir, home, work = tmp_path / "bin", tmp_path / "home", tmp_path / "work"
    for d in (bin_dir, home, work):
        d.mkdir()
    for name in STAND_INS:
        (bin_dir / name).write_text(AGENT)
        (bin_dir / name).chmod(0o755)
    for name in ("scripts", "evals", "tasks", ".venv-inspect"):  # what the README's relative paths name
        (work / name).symlink_to(ROOT / name)
    tokenizers = next((ROOT / ".venv").glob("lib/python*/site-packages/litellm/litellm_core_utils/tokenizers"))

    model, hub = FakeOpenAI(), FakeHub()
    model.start()
    try:
        first = hub.add_folder("datasets", OFFICIAL_REPO, official_copy(ROOT / "tasks" / "suite", tmp_path / "release", limit=1))
        hub.add_folder("datasets", OFFICIAL_REPO, with_reference(tmp_path / "newer"))
        env = {**os.environ, "PATH": f"{bin_dir}:{Path(sys.executable).parent}:{os.environ['PATH']}", "HOME": str(home),
               "HF_ENDPOINT": hub.url, "HF_HOME": str(home / "hf"), "HF_HUB_DISABLE_XET": "1",
               "OPENAI_API_KEY": "sk-test", "ANTHROPIC_API_KEY": "sk-test", "INSPECT_DISPLAY": "none",
               "TIKTOKEN_CACHE_DIR": str(tokenizers)}
        env.pop("IWR_RESPONSE_CACHE", None)
        for line in lines:
            cmd = as_tested(line, model.base_url, first)
            t0 = time.monotonic()
            p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, capture_output=True, text=True, timeout=900)
            print(f"{time.monotonic() - t0:6.1f}s {cmd}", file=sys.stderr)
            assert p.returncode == 0, f"{cmd}\n--- stdout\n{p.stdout[-3000:]}\n--- stderr\n{p.stderr[-3000:]}"
        p = subprocess.run([sys.executable, "-c", python[0]], cwd=work, env=env, capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, f"{python[0]}\n--- stderr\n{p.stderr[-3000:]}"
    finally:
        model.stop()
        hub.close()

    # what the lines were for, there afterwards
    assert (work / "work" / "t1" / "index.html").read_text().startswith("<!doctype html>")  # the stand-in claude
    for run in ("claude", "mine", "single", "iterative", "codex"):
        summary = json.loads((work / "runs" / run / "summary.json").read_text())
        assert summary["mean"]["by_status"]["infra_failure"] == 0 and summary["mean"]["counted"] >= 1, (run, summary["mean"])
    assert (work / "board" / "index.html").is_file() and (work / "pair" / "index.html").is_file()
    rows = (work / "codex.csv").read_text().splitlines()
    assert len(rows) == 3, rows  # the header and task 1's two epochs
    assert model.requests, "the litellm lines reached the scripted model"
