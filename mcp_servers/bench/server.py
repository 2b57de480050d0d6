"""The bench MCP server: take a task, submit a page, have it judged; never shows the checkpoints.

Judging runs `iwr judge` in a subprocess, so this server stays free of graphs and models.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import anyio
from mcp.server.mcpserver import Image, MCPServer

from iwr.mcp_servers.assets import core
from iwr.mcp_servers.common import ACTS, READ_ONLY, mapped_errors
from iwr.mcp_servers.workspace.core import Workspace, WorkspaceError
from iwr.tasks.defaults import JUDGE_PROCESS_TIMEOUT_S
from iwr.tasks.frames import sample_frames
from iwr.tasks.instruction import PLACEHOLDER, instruction
from iwr.tasks.loader import TaskFileError, load_suite
from iwr.tasks.marker import write_marker

errors = mapped_errors((core.AssetError, WorkspaceError, TaskFileError), (OSError, RuntimeError))


def feedback_of(res: dict, level: str) -> dict:
    """What a client learns from a judgement: the scores, and with `actions` each action's verdict in
    its own words; never an error text, expected text, selector or checkpoint (`none`: that it was judged)."""
    if level == "none":
        return {"task_id": res.get("task_id"), "judged": True}
    out = {k: res.get(k) for k in ("task_id", "status", "ifs", "vfs", "final")}
    if level == "actions":
        out["actions"] = [{k: a.get(k) for k in ("index", "type", "description", "status")}
                          for a in res.get("actions", [])]
    return out


def build_server(tasks: Path, root: Path, feedback: str = "scores") -> MCPServer:
    """A bench over the suite at `tasks`; submissions are kept under `root/<task_id>/`; `evaluate`
    reports at the `feedback` level (none | scores | actions)."""
    suite = load_suite(tasks)
    root = Path(root).resolve()
    mcp = MCPServer("iwr-bench", instructions="Take an IWR task, submit index.html, get it judged.")

    def folder(task_id: str) -> Path:
        return root / core.task_of(suite, task_id).id

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def list_tasks() -> list[dict]:
        """Every task: id, classification, resolution, number of actions."""
        return [{"id": t.id, "classification": t.record.classification.model_dump(),
                 "resolution": t.record.recording_details.resolution, "actions": len(t.record.action_sequence)}
                for t in suite.tasks]

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def get_task(task_id: str, start_frame: int = 0, max_frames: int = 12) -> list:
        """The instruction, the asset sheets and video frames (from start_frame, at most max_frames per call)."""
        task = core.task_of(suite, task_id)
        w, h = task.size
        sheets = task.asset_sheets()
        frames = await anyio.to_thread.run_sync(lambda: sample_frames(task.video, len(sheets)) if task.video else [])
        chunk = frames[start_frame:start_frame + max(1, min(max_frames, 24))]
        more = start_frame + len(chunk) < len(frames)
        text = instruction(w, h) + (
            f"\n\n[{len(sheets)} asset sheet(s) and frames {start_frame}..{start_frame + len(chunk) - 1} of "
            f"{len(frames)} follow" + (f"; call again with start_frame={start_frame + len(chunk)} for more]" if more else "]"))
        out: list = [text]
        if start_frame == 0:
            out.extend(Image(data=core.jpeg(s), format="jpeg") for s in sheets)
        out.extend(Image(data=core.jpeg(im), format="jpeg") for _, im in chunk)
        return out

    @mcp.tool(annotations=ACTS)
    @errors
    async def submit(task_id: str, html: str) -> dict:
        """Store index.html for a task (replacing an earlier submission); the task's assets come with it."""
        task, d = core.task_of(suite, task_id), folder(task_id)
        result = Workspace(d).write("index.html", html.replace(PLACEHOLDER, "assets"))
        if task.assets_dir.is_dir():
            shutil.copytree(task.assets_dir, d / "assets", dirs_exist_ok=True)
        write_marker(d, task)
        return {"task_id": task.id, "stored": str(d / "index.html"), "bytes": result["bytes"]}

    @mcp.tool(annotations=ACTS)
    @errors
    async def evaluate(task_id: str) -> dict:
        """Judge the submitted page (offline profile) and return what this bench reveals: IFS, VFS and Final
        (and each action's pass or fail when it was started with --feedback actions)."""
        d = folder(task_id)
        if not (d / "index.html").is_file():
            raise WorkspaceError(f"nothing submitted for task {task_id} yet; call submit first")
        with anyio.fail_after(JUDGE_PROCESS_TIMEOUT_S):
            proc = await anyio.run_process([sys.executable, "-m", "iwr.evals.cli", "judge", str(d), "--json"], check=False)
        if proc.returncode != 0:
            raise RuntimeError(f"judge failed: {proc.stderr.decode(errors='replace')[-600:]}")
        return feedback_of(json.loads(proc.stdout), feedback)

    return mcp
