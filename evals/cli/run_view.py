"""Running one configured run from the command line: a progress bar while it runs, a table after."""
from __future__ import annotations

import asyncio
import json

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from iwr.evals.records.results import cost_of
from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run


def execute(cfg: RunConfig) -> tuple[list, dict]:
    """Run with a progress bar on stderr (tasks done, cost so far); returns results and summary."""
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("{task.fields[cost]}"), console=Console(stderr=True), transient=True)
    bar = progress.add_task(cfg.run_id, total=None, cost="")
    spent: list = [0.0]

    def on_done(r, done: int, total: int) -> None:
        cost, known = cost_of(r)
        spent[0] = spent[0] + cost if known and spent[0] is not None else None
        shown = "cost unknown" if spent[0] is None else f"${spent[0]:.3f}"
        progress.update(bar, completed=done, total=total, cost=f"{shown}  last: {r.task_id} {r.status}")

    cfg.on_done = on_done
    with progress:
        results = asyncio.run(run(cfg))
    return results, json.loads((cfg.run_dir / "summary.json").read_text())


def print_summary(out: Console, cfg: RunConfig, results: list, summary: dict) -> None:
    """The per-task table of one run, with its mean row."""
    t = Table(title=f"run {cfg.run_id} ({cfg.agent})")
    for c in ("task", "status", "IFS", "LVS", "HVS", "VFS", "Final"):
        t.add_column(c)
    for r in results:
        t.add_row(r.task_id, r.status, *(f"{getattr(r, k) * 100:.1f}" for k in ("ifs", "lvs", "hvs", "vfs", "final")))
    m = summary["mean"]
    if m["counted"]:
        t.add_row("mean", f"{m['counted']} counted", *(f"{m[k] * 100:.1f}" for k in ("ifs", "lvs", "hvs", "vfs", "final")))
    out.print(t)
    out.print(f"results: {cfg.run_dir / 'summary.json'}")
