"""The assets MCP server: a task's images, asset sheets, video frames and action list.

Checkpoints and reference-side hints exist only in judge mode, so a coder can never see them.
"""
from __future__ import annotations

from pathlib import Path

import anyio
from mcp.server.mcpserver import Image, MCPServer

from iwr.mcp_servers.assets import core
from iwr.mcp_servers.common import READ_ONLY, mapped_errors
from iwr.tasks.loader import TaskFileError, load_suite

errors = mapped_errors((core.AssetError, TaskFileError), (OSError,))


def build_server(tasks: Path, judge_mode: bool = False, only: str | None = None) -> MCPServer:
    """An assets server over the suite at `tasks`; `judge_mode` adds checkpoints and hints; `only`
    (a coder's view) shows that one task and no other."""
    suite = load_suite(tasks)
    if only is not None:
        core.task_of(suite, only)  # an unknown id fails at start, not at the first call
    shown = [t for t in suite.tasks if only is None or t.id == str(only)]

    def task_of(task_id: str):
        if only is not None and str(task_id) != str(only):
            raise core.AssetError(f"this server shows only task {only}")
        return core.task_of(suite, task_id)

    mcp = MCPServer("iwr-assets", instructions="Read a task's assets, asset sheets, video frames and actions.")

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def list_tasks() -> list[dict]:
        """Task ids with their classification, resolution and number of actions."""
        return [{"id": t.id, "resolution": t.record.recording_details.resolution,
                 "classification": t.record.classification.model_dump(), "actions": len(t.record.action_sequence)}
                for t in shown]

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def list_assets(task_id: str) -> list[dict]:
        """The task's asset files (anonymised names) with byte size, type and pixel size."""
        return core.list_assets(task_of(task_id))

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def get_asset(task_id: str, name: str) -> list:
        """One asset image by file name (e.g. 3.png), downscaled to at most 1024 px."""
        p = core.safe_child(task_of(task_id).assets_dir, name)
        data = await anyio.to_thread.run_sync(core.jpeg, p)
        return [f"{name}: {p.stat().st_size} bytes", Image(data=data, format="jpeg")]

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def asset_sheets(task_id: str) -> list:
        """The stitched asset sheets: thumbnails of every asset labelled with its file name."""
        sheets = task_of(task_id).asset_sheets()
        out: list = [f"{len(sheets)} sheet(s): {', '.join(s.name for s in sheets)}"]
        for s in sheets:
            out.append(Image(data=await anyio.to_thread.run_sync(core.jpeg, s), format="jpeg"))
        return out

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def video_info(task_id: str) -> dict:
        """The video's length in seconds and how many frames the paper's 1 fps sampling takes."""
        return await anyio.to_thread.run_sync(core.video_info, task_of(task_id))

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def frame(task_id: str, index: int | None = None, time: float | None = None) -> list:
        """One video frame, by index in the 1 fps sampling or by time in seconds."""
        t, im = await anyio.to_thread.run_sync(lambda: core.frame(task_of(task_id), index, time))
        return [f"frame at {t:.2f} s", Image(data=core.jpeg(im), format="jpeg")]

    @mcp.tool(annotations=READ_ONLY, structured_output=False)
    @errors
    async def keyframes(task_id: str, threshold: float = 0.02, limit: int = 8) -> list:
        """Frames where the picture changes (scene changes), with their times; at most `limit`."""
        found = await anyio.to_thread.run_sync(
            lambda: core.scene_changes(task_of(task_id), threshold, min(max(limit, 1), 16)))
        out: list = [f"{len(found)} keyframe(s) at " + ", ".join(f"{t:.2f} s" for t, _ in found)]
        out.extend(Image(data=core.jpeg(im, 768), format="jpeg") for _, im in found)
        return out

    @mcp.tool(annotations=READ_ONLY)
    @errors
    async def actions(task_id: str) -> list[dict]:
        """The recorded actions in order: type, description, parameters, visual flag, assertion."""
        return core.actions(task_of(task_id), judge_mode)

    if judge_mode:
        @mcp.tool(annotations=READ_ONLY, structured_output=False)
        @errors
        async def checkpoint(task_id: str, step: int) -> list:
            """Judge only: the reference screenshot after action `step` (0 is the initial page)."""
            p = task_of(task_id).checkpoint(step)
            if p is None:
                raise core.AssetError(f"no checkpoint step_{step}.png")
            return [str(p), Image(data=core.jpeg(p), format="jpeg")]

    return mcp
