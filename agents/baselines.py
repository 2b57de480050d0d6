"""Coders without a model: the oracle (the reference site, the upper bound) and blank (the floor)."""
from __future__ import annotations

import shutil
from pathlib import Path


class NoReference(RuntimeError):
    """The task names no reference site, so the oracle cannot run (the task is skipped)."""


def oracle(reference_site: Path | None, out_dir: Path) -> dict:
    """Copy the reference site into the artifact folder."""
    if reference_site is None or not reference_site.is_dir():
        raise NoReference("task has no reference site (iwr.reference) on disk")
    if out_dir.exists():
        shutil.rmtree(out_dir)
    shutil.copytree(reference_site, out_dir, ignore=shutil.ignore_patterns("tasks", "*.yaml", "__pycache__"))
    return {"status": "ok", "usage": {}}


def blank(out_dir: Path) -> dict:
    """An empty page."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "index.html").write_text("<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>\n",
                                        encoding="utf-8")
    return {"status": "ok", "usage": {}}
