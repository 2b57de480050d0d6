"""Run folders as the report reads them: run.json and every result, joined with their tasks."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from iwr.evals.records.export import result_files
from iwr.tasks.loader import Suite, Task, load_suite

BREAKDOWNS = {"interaction": "Interaction level", "visual": "Visual level", "domain": "Domain"}


@dataclass
class Run:
    """A run folder as the report sees it: its run.json, its results (joined with their tasks) and its suite."""

    name: str  # run.json's run_id, suffixed when two folders share one
    slug: str
    folder: Path
    meta: dict
    results: list[dict] = field(default_factory=list)
    suite: Suite | None = None

    @property
    def run_id(self) -> str:
        return self.name

    @property
    def model(self) -> str | None:
        m = self.meta.get("model")
        return m.get("model") if isinstance(m, dict) else m

    @property
    def profile(self) -> str:
        j = self.meta.get("judge")
        return (j.get("profile") if isinstance(j, dict) else None) or next(
            (r.get("profile") for r in self.results if r.get("profile")), "?")

    def task(self, task_id: str) -> Task | None:
        return next((t for t in self.suite.tasks if t.id == task_id), None) if self.suite else None


def slug(text: str) -> str:
    """A file-name-safe form of an id."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("._") or "_"


def first_failure(result: dict) -> int | None:
    """Index of the first failed action of a replay (None if nothing failed or nothing was replayed)."""
    return next((a.get("index") for a in sorted((result.get("judge") or {}).get("actions") or [],
                                                 key=lambda a: a.get("index", 0)) if a.get("status") == "failed"), None)


def _load_suite(path: str | None) -> Suite | None:
    try:
        return load_suite(path, strict=False) if path else None
    except (OSError, ValueError):
        return None


def load_run(folder: Path, taken: set[str] | None = None) -> Run:
    """Read a run folder: run.json and every `<task>[.e<N>]/result.json`, in suite order."""
    folder = Path(folder)
    meta_file = folder / "run.json"
    meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {"run_id": folder.name}
    rid = str(meta.get("run_id") or folder.name)
    name, key, k = rid, slug(rid), 2
    while taken is not None and key in taken:
        name, key, k = f"{rid}-{k}", f"{slug(rid)}-{k}", k + 1
    if taken is not None:
        taken.add(key)
    run = Run(name=name, slug=key, folder=folder, meta=meta, suite=_load_suite(meta.get("suite")))
    order = {t.id: i for i, t in enumerate(run.suite.tasks)} if run.suite else {}
    found = result_files(folder)  # in natural order; the suite's order first (a stable sort keeps the rest)
    for _, epoch, f in sorted(found, key=lambda x: order.get(x[0], len(order))):
        r = json.loads(f.read_text())
        task = run.task(str(r.get("task_id")))
        r.update(epoch=epoch, dir=str(f.parent), first_failure=first_failure(r),
                 classification=task.record.classification.model_dump() if task else {},
                 page=f"tasks/{run.slug}/{slug(f.parent.name)}.html")
        run.results.append(r)
    return run


