"""`iwr prepare`: a workspace for an outside agent (instruction, frames, sheets, assets, MCP configs for
Claude Code `.mcp.json`, Cursor `.cursor/mcp.json` and VS Code `.vscode/mcp.json`)."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from iwr.agents.messages import prompt
from iwr.tasks.frames import sample_frames
from iwr.tasks.loader import Task
from iwr.tasks.marker import write_marker


def mcp_config(folder: Path, task: Task, assets_suite: Path | None = None) -> dict:
    """The `.mcp.json` servers block (Claude Code format; Cursor and Claude Desktop read the same shape);
    `assets_suite` is the suite the assets server reads (a public copy, for a sandboxed agent)."""
    py = sys.executable

    def server(*args: str) -> dict:
        return {"command": py, "args": ["-m", "iwr.mcp_servers", *args]}

    # Each server is confined to what a coder may see: the browser serves only this folder, the
    # assets server shows only this task without its hints, and metrics read only this folder.
    return {"mcpServers": {
        "iwr-workspace": server("workspace", "--root", str(folder)),
        "iwr-browser": server("browser", "--shots", str(folder / ".shots"), "--serve-only", str(folder)),
        "iwr-assets": server("assets", "--tasks", str(assets_suite or task.suite_root), "--task", task.id),
        "iwr-metrics": server("metrics", "--allow", str(folder)),
    }}


def vscode_config(cfg: dict) -> dict:
    """The same servers in VS Code's `.vscode/mcp.json` shape (`servers`, each with a `type`)."""
    return {"servers": {name: {"type": "stdio", **spec} for name, spec in cfg["mcpServers"].items()}}


def contents(frames: bool, sheets: bool, assets: bool) -> str:
    """The list of what the workspace holds, naming only the folders that were made and are not empty."""
    lines = [("- `frames/`: frames of a screen recording of a person using a website, about one per second, "
              "in order;") if frames else "",
             "- `sheets/`: asset sheets, each tiling the site's images with the file name under every thumbnail;"
             if sheets else "",
             "- `assets/`: those images, under the same names;" if assets else "",
             "- `actions.json`: what the person did, in words, in order."]
    return "\n".join(line for line in lines if line)


def prepare(task: Task, folder: Path, assets_suite: Path | None = None) -> dict:
    """Write everything an outside agent needs into `folder`; never the judge's checkpoints."""
    folder = folder.resolve()
    folder.mkdir(parents=True, exist_ok=True)
    frames_dir, sheets_dir = folder / "frames", folder / "sheets"
    for d in (frames_dir, sheets_dir):
        shutil.rmtree(d, ignore_errors=True)
    sheets = task.asset_sheets()
    for s in sheets:
        sheets_dir.mkdir(exist_ok=True)
        shutil.copy(s, sheets_dir / s.name)
    frames = sample_frames(task.video, len(sheets)) if task.video else []
    for n, (t, im) in enumerate(frames):
        frames_dir.mkdir(exist_ok=True)
        im.convert("RGB").save(frames_dir / f"frame_{n:02d}_{t:06.2f}s.jpg", quality=88)
    if task.assets_dir.is_dir():
        shutil.copytree(task.assets_dir, folder / "assets", dirs_exist_ok=True)
    acts = [{"index": i, "type": a.type, "description": a.parameters.description}
            for i, a in enumerate(task.record.action_sequence, 1)]
    (folder / "actions.json").write_text(json.dumps(acts, indent=2))
    w, h = task.size
    has_assets = (folder / "assets").is_dir() and any((folder / "assets").iterdir())
    (folder / "INSTRUCTIONS.md").write_text(prompt(
        "workspace", task_id=task.id, width=w, height=h, contents=contents(bool(frames), bool(sheets), has_assets),
        assets_note="Refer to images as `assets/<name>`. " if has_assets else ""))
    cfg = mcp_config(folder, task, assets_suite)
    (folder / ".mcp.json").write_text(json.dumps(cfg, indent=2))
    (folder / ".cursor").mkdir(exist_ok=True)
    (folder / ".cursor" / "mcp.json").write_text(json.dumps(cfg, indent=2))
    (folder / ".vscode").mkdir(exist_ok=True)
    (folder / ".vscode" / "mcp.json").write_text(json.dumps(vscode_config(cfg), indent=2))
    write_marker(folder, task)
    return {"folder": str(folder), "frames": len(frames), "sheets": len(sheets), "actions": len(acts)}
