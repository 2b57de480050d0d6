"""The `iwr` command line: every command and sub-command, gathered from the modules beside this one."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

import typer

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before anything imports litellm

from iwr.evals.cli import doctor, judging, making, running  # noqa: E402
from iwr.evals.cli.mcp_commands import mcp_app  # noqa: E402
from iwr.evals.cli.runs import runs_app  # noqa: E402
from iwr.evals.cli.selftest import selftest_app  # noqa: E402
from iwr.evals.cli.tasks import tasks_app  # noqa: E402
from iwr.tasks.defaults import RUNS_DIR  # noqa: E402

app = typer.Typer(help="iwr: reconstruct interactive web pages from interaction videos, and judge them.",
                  no_args_is_help=True, add_completion=False)


@app.callback()
def main(plugin: Optional[list[str]] = typer.Option(None, "--plugin", help="import this module first: it may add "
                                                    "coders, metrics or judge profiles (repeatable; also $IWR_PLUGINS)")):
    """iwr: reconstruct interactive web pages from interaction videos, and judge them."""
    from iwr.tasks.plugins import PluginError, add_plugins, load_plugins

    add_plugins(plugin or [])
    try:
        load_plugins()
    except PluginError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)


app.add_typer(tasks_app, name="tasks")
app.add_typer(runs_app, name="runs")
app.add_typer(selftest_app, name="selftest")
app.add_typer(mcp_app, name="mcp")
app.command()(running.run)
app.command()(making.record)
app.command()(making.prepare)
app.command()(judging.judge)
app.command()(judging.calibrate)
app.command()(judging.bench)
app.command()(doctor.doctor)


@app.command()
def report(
    runs: list[str] = typer.Argument(..., help="run ids (under --runs-dir) or run folders: the first, then those "
                                     "put beside it"),
    compare: Optional[list[str]] = typer.Option(None, help="more runs to put beside it (repeatable; `--compare B C` "
                                                "takes both)"),
    out_dir: Optional[Path] = typer.Option(None, "--out", help="report folder (default: runs/<first run>/report)"),
    runs_dir: Path = typer.Option(RUNS_DIR, help="where runs are stored"),
):
    """Write a static HTML report (leaderboard, plots, a page per task) that opens from disk.

    Examples:
      iwr report oracle-bundled --compare blank-bundled
      iwr report single-shot-run iterative-run claude-code-run     # a leaderboard of three runs
      iwr report runs/my-run --out /tmp/report
    """
    from iwr.evals.report.build import build_report

    folders = []
    for r in dict.fromkeys([runs[0], *(compare or []), *runs[1:]]):  # `--compare B C`: C arrives as a run
        f = Path(r) if Path(r).is_dir() else runs_dir / r
        if not (f / "summary.json").is_file():
            typer.echo(f"error: {f} is not a finished run (no summary.json)", err=True)
            raise typer.Exit(2)
        folders.append(f)
    index = build_report(folders, out_dir or folders[0] / "report")
    typer.echo(str(index))


if __name__ == "__main__":
    app()
