"""`iwr record` and `iwr prepare`: new tasks from sites, and workspaces for outside agents."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Optional

import typer

from iwr.evals.cli.tasks import task_or_exit
from iwr.evals.run import logs
from iwr.tasks.defaults import BUNDLED_SUITE


def record(
    sites: list[str] = typer.Argument(..., help="site folders (served on loopback) or one loopback URL"),
    script: Optional[Path] = typer.Option(None, help="action script (YAML); default: every SITE/tasks/*.yaml"),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="suite folder to write the tasks into (never a "
                                           "default: re-recording the bundled suite must be asked for)"),
    official: bool = typer.Option(False, "--official", help="write the official layout only: no `iwr` keys, no "
                                  "iwr/ folder; assertions may come without checks (given checks are still verified)"),
    dry_run: bool = typer.Option(False, "--dry-run", help="replay and check only, write nothing; list every check "
                                 "that does not hold and exit 1 if any"),
    overlay: Optional[Path] = typer.Option(None, help="with --dry-run: a folder of files replacing the site's files "
                                           "of the same relative path (a broken variant)"),
):
    """Record tasks from sites and action scripts: video, assets, sheets, checkpoints, hints.

    Examples:
      iwr record tasks/sites/reviews --script tasks/sites/reviews/tasks/review.yaml --out tasks/suite
      iwr record tasks/sites/* --out tasks/suite
      iwr record http://127.0.0.1:8000/ --script my_task.yaml --out my_suite
      iwr record tasks/real/apps/2048/site --script tasks/real/apps/2048/scripts/201.yaml --out tasks/real --official
      iwr record tasks/real/apps/2048/site --script tasks/real/apps/2048/scripts/201.yaml --dry-run
      iwr tasks materialise-real --variants /tmp/real-variants   (then, a broken variant:)
      iwr record /tmp/real-variants/2048-merge-score-half --script tasks/real/apps/2048/scripts/201.yaml --dry-run
    """
    from iwr.evals.recording.recorder import RecordError, record_task, verify_script

    logs.configure()
    if overlay is not None and not dry_run:
        typer.echo("error: --overlay is for --dry-run only (a broken variant is checked, never recorded)", err=True)
        raise typer.Exit(2)
    if out_dir is None and not dry_run:
        typer.echo("error: give --out (the suite folder to write into) or --dry-run", err=True)
        raise typer.Exit(2)
    jobs = [(site, script) for site in sites] if script else [
        (site, s) for site in sites for s in sorted((Path(site) / "tasks").glob("*.yaml"))]
    if not jobs:
        typer.echo("error: no scripts found (give --script or put them in SITE/tasks/*.yaml)", err=True)
        raise typer.Exit(2)
    failed = 0
    for site, s in jobs:
        try:
            if dry_run:
                failures = asyncio.run(verify_script(s, site, overlay))
                for f in failures:
                    typer.echo(f"{s}: {f}")
                failed += bool(failures)
                typer.echo(f"{s}: {'every check holds' if not failures else f'{len(failures)} failure(s)'}")
                continue
            tid = asyncio.run(record_task(s, out_dir, site, official=official))
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
    from iwr.evals.workspace.prepare import prepare as prepare_ws

    task = task_or_exit(tasks, task_id)
    info = prepare_ws(task, out_dir)
    typer.echo(f"prepared task {task_id} in {info['folder']}: {info['frames']} frames, {info['sheets']} sheet(s), "
               f"{info['actions']} actions; MCP config in .mcp.json, .cursor/mcp.json, .vscode/mcp.json")
