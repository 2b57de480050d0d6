"""The suite as an inspect_ai Task: one sample per task, a default agent whose tools are the iwr MCP
servers of the sample's workspace, and the iwr judge as the scorer (value = Final; IFS, VFS and each
action's verdict in the score's metadata).

    inspect eval evals/workspace/inspect_task.py@iwr --model openai/<name> -T task_ids=1,105
    inspect eval evals/workspace/inspect_task.py@iwr --model openai/qwen --model-base-url http://127.0.0.1:8000/v1
    inspect view                     # the logs of those runs

It drives iwr through its command line (`iwr prepare`, `iwr mcp`, `iwr judge`), so it imports nothing of
the project and runs from any venv that has inspect_ai (`make test` uses .venv-inspect; `$IWR_BIN`
names the `iwr` to use, by default this checkout's .venv/bin/iwr). Each sample (and epoch) gets a
fresh workspace in the setup step, which stays when `--solver` replaces the agent. The workspace's
servers are confined as `iwr prepare` writes them (see README, "What a coder can see"), and the
agent has no other tool. A judging that the harness failed (infra_failure, invalid_task) makes the
sample an error, never a silent 0.
"""
from __future__ import annotations

import json
import os
import tempfile
import uuid
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.agent import AgentPrompt, AgentSubmit, as_solver, react
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import Metric, SampleScore, Score, Target, mean, metric, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import mcp_server_stdio, mcp_tools
from inspect_ai.util import concurrency, materialize_media, subprocess

ROOT = Path(__file__).resolve().parents[2]
IWR = os.environ.get("IWR_BIN", str(ROOT / ".venv" / "bin" / "iwr"))
SUITE = str(ROOT / "tasks" / "suite")
SERVERS = ("workspace", "browser", "assets", "metrics")
# inspect starts stdio servers with a minimal environment; these settings must reach iwr's servers
PASSED_ENV = ("IWR_", "OPENBLAS_", "OMP_", "TESSDATA", "LANG", "LC_", "TMPDIR", "LITELLM_")
INSTRUCTIONS = """You rebuild a web page from a screen recording. Your tools come from MCP servers bound
to your workspace: write and render files (workspace), open your page and act on it (browser), look at
frames and assets (assets), compare a screenshot with a frame (metrics). Write index.html, check it
against the recording, fix what differs, and call submit() when the page is finished."""


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k.startswith(PASSED_ENV)}


def iwr_dataset(suite: str = SUITE, task_ids: list[str] | None = None) -> MemoryDataset:
    """A sample per task of data.jsonl (nothing is written until a sample runs)."""
    data = Path(suite) / "data.jsonl" if Path(suite).is_dir() else Path(suite)
    samples = []
    for line in data.read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        tid = str(rec["id"])
        if task_ids and tid not in task_ids:
            continue
        samples.append(Sample(id=tid, input=f"iwr task {tid}: rebuild the recorded web page as index.html.",
                              metadata={"task_id": tid, "suite": str(data.parent),
                                        "resolution": (rec.get("recording_details") or {}).get("resolution"),
                                        "classification": rec.get("classification"),
                                        "actions": len(rec.get("action_sequence") or [])}))
    return MemoryDataset(samples, name="iwr", location=str(data))


@solver
def prepare_workspace(root: str | None = None, images: bool = True) -> Solver:
    """`iwr prepare` into a fresh folder; the user message becomes INSTRUCTIONS.md, actions.json and the
    asset sheets and frames as images."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        tid = state.metadata["task_id"]
        base = Path(root or Path(tempfile.gettempdir()) / "iwr-inspect")
        base.mkdir(parents=True, exist_ok=True)
        ws = base / f"task{tid}-epoch{state.epoch}-{uuid.uuid4().hex[:8]}"
        res = await subprocess([IWR, "prepare", tid, "--out", str(ws), "--tasks", state.metadata["suite"]],
                               timeout=600)
        if not res.success:
            raise RuntimeError(f"iwr prepare {tid} failed ({res.returncode}): {res.stderr[-2000:]}")
        state.metadata["workspace"] = str(ws)
        text = ((ws / "INSTRUCTIONS.md").read_text() + "\n\nYour file tools' paths are relative to the workspace. "
                "actions.json:\n```json\n" + (ws / "actions.json").read_text() + "\n```\n")
        content: list[Any] = [ContentText(text=text)]
        if images:
            for label, folder, pattern in (("Asset sheets:", "sheets", "*"), ("Frames, in order:", "frames", "*.jpg")):
                files = sorted((ws / folder).glob(pattern)) if (ws / folder).is_dir() else []
                if files:  # a solver's images must be data URIs, hence materialize_media
                    content += [ContentText(text=label), *[ContentImage(image=await materialize_media(str(f)))
                                                           for f in files]]
        state.messages = [ChatMessageUser(content=content)]
        return state

    return solve


def workspace_servers(ws: Path, names: list[str]) -> list:
    """The workspace's servers exactly as its .mcp.json starts them (so with its confinement flags)."""
    out = []
    for key, spec in json.loads((ws / ".mcp.json").read_text())["mcpServers"].items():
        if key.removeprefix("iwr-") in names:
            out.append(mcp_server_stdio(name=key, command=spec["command"], args=list(spec["args"]), cwd=str(ws),
                                        env=_env()))
    return out


@solver
def iwr_agent(servers: str = ",".join(SERVERS), instructions: str = INSTRUCTIONS) -> Solver:
    """The default agent: inspect's react() over the sample's own MCP servers (started for the sample,
    stopped when the agent returns)."""
    names = [s.strip() for s in str(servers).split(",") if s.strip()]

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        tools = [mcp_tools(s) for s in workspace_servers(Path(state.metadata["workspace"]), names)]
        agent = react(prompt=AgentPrompt(instructions=instructions), tools=tools,
                      submit=AgentSubmit(description="Call when index.html is finished; it is then judged."))
        return await as_solver(agent)(state, generate)

    return solve


def _field(name: str) -> Metric:
    def value(scores: list[SampleScore]) -> float:
        v = [float((s.score.metadata or {}).get(name) or 0.0) for s in scores]
        return sum(v) / len(v) if v else 0.0
    return value


@metric
def ifs() -> Metric:
    return _field("ifs")


@metric
def vfs() -> Metric:
    return _field("vfs")


@scorer(metrics=[mean(), stderr(), ifs(), vfs()])
def iwr_judge(timeout: int = 1800, judges_at_once: int = 1):
    """`iwr judge WORKSPACE --json` (the judge is CPU-heavy: `judges_at_once` at a time)."""

    async def score(state: TaskState, target: Target) -> Score:
        ws = Path(state.metadata["workspace"])
        async with concurrency("iwr-judge", judges_at_once):
            res = await subprocess([IWR, "judge", str(ws), "--json"], timeout=timeout)
        try:  # it prints its JSON before exiting 1 on infra_failure or invalid_task
            j = json.loads(res.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise RuntimeError(f"iwr judge gave no judgement (exit {res.returncode}): {res.stderr[-2000:]}")
        if j.get("status") in ("infra_failure", "invalid_task"):
            raise RuntimeError(f"iwr judge: {j.get('status')}: {j.get('error')}")
        failed = [a for a in j.get("actions") or [] if a.get("status") != "passed"]
        return Score(value=float(j.get("final") or 0.0), answer="index.html",
                     explanation=f"{j.get('status')}: IFS {j.get('ifs')}, VFS {j.get('vfs')}, Final {j.get('final')}"
                                 + (f"; first failure: action {failed[0]['index']}" if failed else ""),
                     metadata={**{k: j.get(k) for k in ("status", "ifs", "vfs", "lvs", "hvs", "final", "error",
                                                        "actions", "flags", "judgement")}, "workspace": str(ws)})

    return score


@task
def iwr(suite: str = SUITE, task_ids: str | None = None, servers: str = ",".join(SERVERS), images: bool = True,
        workspaces: str | None = None, message_limit: int = 60) -> Task:
    """The iwr suite (-T values arrive parsed as YAML, so ids are turned back into strings)."""
    ids = [t.strip() for t in str(task_ids).split(",") if t.strip()] if task_ids is not None else None
    return Task(dataset=iwr_dataset(suite, ids), setup=prepare_workspace(workspaces, images),
                solver=iwr_agent(servers), scorer=iwr_judge(), message_limit=message_limit, version=1)
