"""A rich progress bar on stderr for `iwr calibrate` and `iwr bench` (stdout keeps the figures, so
`--json` output stays clean); log lines written meanwhile print above the bar."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn


class _Bar:
    def __init__(self, progress: Progress, title: str):
        self._progress = progress
        self._task = progress.add_task(title, total=0, last="")

    def expect(self, n: int) -> None:
        total = self._progress.tasks[0].total or 0
        self._progress.update(self._task, total=total + n)

    def step(self, label: str) -> None:
        self._progress.update(self._task, advance=1, last=label)


@contextmanager
def progress_bar(title: str) -> Iterator[_Bar]:
    """Steps shown as `title [bar] done/expected elapsed  last step`."""
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("{task.fields[last]}", style="dim"))
    with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
        yield _Bar(progress, title)
