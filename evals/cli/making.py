"""`iwr record` and `iwr prepare`: new tasks from sites, and workspaces for outside agents."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Optional

import typer

from evals.cli.tasks import task_or_exit
from evals.run import logs
from tasks.defaults import BUNDLED_SUITE


def record(
    sites: list[str] = typer.Argument(..., help="site folders (served on loopback) or one loopback URL"),
    script: Optional[Path] = typer.Option(None, help="action script (YAML); default: every SITE/tasks/*.yaml"),
    out_dir: Path = typer.Option(..., "--out", help="suite folder to write the tasks into (never a default: "
                                 "re-recording the bundled suite must be asked for)"),
):
    """Record tasks from sites and action scripts: video, assets, sheets, checkpoints, hints.

    Examples:
      iwr record tasks/sites/reviews --script tasks/sites/reviews/tasks/review.yaml --out tasks/suite
      iwr record tasks/sites/* --out tasks/suite
      iwr record http://127.0.0.1:8000/ --script my_task.yaml --out my_suite
    """
    from evals.recording.recorder import RecordError, record_task

    logs.configure()
    jobs = [(site, script) for site in sites] if script else [
        (site, s) for site in sites for s in sorted((Path(site) / "tasks").glob("*.yaml"))]
    if not jobs:
        typer.echo("error: no scripts found (give --script or put them in SITE/tasks/*.yaml)", err=True)
        raise typer.Exit(2)
    failed = 0
    for site, s in jobs:
        try:
            tid = asyncio.run(record_task(s, out_dir, site))
            typer.echo(f"recorded task {tid} from {s}")
        except RecordError as e:
            failed += 1
            typer.echo(f"error: {s}: {e}", err=True)
    if failed:
        raise typer.Exit(1)


def prepare(
    task_id: str = typer.Argument(..., help="task id"),
    out_dir: Path = typer.Option(..., "--out", help="workspace folder to create"),
    tasks: Path = typer.Option(BUNDLED_SUITE, help="a data.jsonl or the folder holding it"),
):
    """Make a workspace for an outside agent: instruction, frames, sheets, assets, .mcp.json.

    Example:
      iwr prepare 1 --out /tmp/ws && cd /tmp/ws && claude   # then: iwr judge /tmp/ws
    """
    from evals.workspace.prepare import prepare as prepare_ws

    task = task_or_exit(tasks, task_id)
    info = prepare_ws(task, out_dir)
    typer.echo(f"prepared task {task_id} in {info['folder']}: {info['frames']} frames, {info['sheets']} sheet(s), "
               f"{info['actions']} actions; MCP config in .mcp.json, .cursor/mcp.json, .vscode/mcp.json")
