"""`iwr runs ...`: list and show runs from the run database."""
from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from iwr.tasks.defaults import RUNS_DIR

runs_app = typer.Typer(help="List and inspect stored runs.", no_args_is_help=True)


def _store(runs_dir: Path):
    from iwr.evals.records.store import Store

    db = runs_dir / "iwr.db"
    if not db.is_file():
        typer.echo(f"error: no run database at {db}; run `iwr run` first", err=True)
        raise typer.Exit(2)
    return Store(db)


@runs_app.command("list")
def list_(runs_dir: Path = typer.Option(RUNS_DIR, help="where runs are stored"),
          as_json: bool = typer.Option(False, "--json", help="print JSON")):
    """Every run: agent, model, profile, tasks, mean Final.

    Example:
      iwr runs list
    """
    store = _store(runs_dir)
    rows = store.runs()
    store.close()
    if as_json:
        typer.echo(json.dumps(rows))
        return
    t = Table(title=str(runs_dir / "iwr.db"))
    for c in ("run", "agent", "model", "profile", "when", "results", "counted", "Final", "infra"):
        t.add_column(c)
    for r in rows:
        final = "" if r["mean_final"] is None else f"{r['mean_final'] * 100:.1f}"
        t.add_row(r["run_id"], r["agent"], r["model"] or "", r["profile"], time.strftime("%Y-%m-%d %H:%M", time.localtime(r["created"])),
                  str(r["results"]), str(r["counted"] or 0), final, str(r["infra_failures"] or 0))
    Console().print(t)


@runs_app.command()
def show(run_id: str = typer.Argument(..., help="run id"),
         runs_dir: Path = typer.Option(RUNS_DIR, help="where runs are stored"),
         as_json: bool = typer.Option(False, "--json", help="print JSON")):
    """Every task result of one run.

    Example:
      iwr runs show oracle-bundled
    """
    store = _store(runs_dir)
    rows = store.results(run_id)
    store.close()
    if not rows:
        typer.echo(f"error: no results for run {run_id!r}", err=True)
        raise typer.Exit(2)
    if as_json:
        typer.echo(json.dumps(rows))
        return
    t = Table(title=f"run {run_id}")
    for c in ("task", "epoch", "status", "IFS", "VFS", "Final", "seconds", "error"):
        t.add_column(c)
    for r in rows:
        t.add_row(r["task_id"], str(r["epoch"]), r["status"], f"{r['ifs'] * 100:.1f}", f"{r['vfs'] * 100:.1f}",
                  f"{r['final'] * 100:.1f}", f"{r['seconds'] or 0:.1f}", (r["error"] or "")[:60])
    Console().print(t)


@runs_app.command()
def export(run_id: str = typer.Argument(..., help="run id (a folder under --runs-dir) or a run folder's path"),
           fmt: str = typer.Option("jsonl", "--format", help="jsonl (each result.json whole) or csv (a row each)"),
           out: Path = typer.Option(None, "--out", help="write here instead of standard output"),
           runs_dir: Path = typer.Option(RUNS_DIR, help="where runs are stored")):
    """A run's results for analysis: JSON lines or CSV, one per task and epoch.

    Examples:
      iwr runs export oracle-bundled --format csv --out oracle.csv
      iwr runs export runs/oracle-bundled --format jsonl | jq .final
    """
    from iwr.evals.records.export import export as export_run

    folder = Path(run_id) if Path(run_id).is_dir() else runs_dir / run_id
    try:
        text = export_run(folder, fmt)
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(2)
    if out is None:
        typer.echo(text, nl=False)
    else:
        out.write_text(text)
        typer.echo(f"wrote {out}", err=True)
