"""Coders without a model: the oracle (the reference site, the ceiling), blank (the floor) and
static (the first frame's text and the assets, with no script: the floor a model must beat)."""
from __future__ import annotations

import html
import shutil
from pathlib import Path

from iwr.agents.coder import CoderJob, CoderOutput, NoReference
from iwr.tasks.frames import frame_at
from iwr.tasks.loader import Task


class Oracle:
    """Copies the task's reference site into the artifact folder."""

    name, needs_model, iterates = "oracle", False, False

    async def make(self, job: CoderJob) -> CoderOutput:
        site, out = job.task.reference_site(), job.out
        if site is None or not site.is_dir():
            raise NoReference("task has no reference site (iwr.reference) on disk")
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(site, out, ignore=shutil.ignore_patterns("tasks", "*.yaml", "__pycache__"))
        return CoderOutput(entry=job.task.record.iwr.reference.page)


class Blank:
    """An empty page."""

    name, needs_model, iterates = "blank", False, False

    async def make(self, job: CoderJob) -> CoderOutput:
        job.out.mkdir(parents=True, exist_ok=True)
        (job.out / "index.html").write_text(
            "<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>\n", encoding="utf-8")
        return CoderOutput()


class Static:
    """The first frame's text (OCR through the run's metrics server) and every asset, with no script."""

    name, needs_model, iterates = "static", False, False

    async def make(self, job: CoderJob) -> CoderOutput:
        task, out = job.task, job.out
        copy_assets(task, out)
        text = ""
        if task.video is not None:
            first = out.parent / "first_frame.png"
            frame_at(task.video, 0.0).save(first)
            text = (await job.tools.call("metrics", "ocr", image=str(first.resolve())))["text"]
        assets = sorted(p.name for p in (out / "assets").iterdir()) if (out / "assets").is_dir() else []
        (out / "index.html").write_text(static_page(text, assets, task.size), encoding="utf-8")
        return CoderOutput(ocr_chars=len(text))


def copy_assets(task: Task, out: Path) -> None:
    """Put the task's assets beside the page (`out/assets/`), as the paper's protocol serves them."""
    out.mkdir(parents=True, exist_ok=True)
    if task.assets_dir.is_dir():
        shutil.copytree(task.assets_dir, out / "assets", dirs_exist_ok=True)


def static_page(text: str, assets: list[str], size: tuple[int, int]) -> str:
    """A page with no script: the text as lines, and every asset as an image.

    It can look right to OCR, but nothing on it works."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    body = "\n".join(f"<p>{html.escape(ln)}</p>" for ln in lines[:200])
    imgs = "\n".join(f'<img src="assets/{html.escape(a)}" width="160" height="120" alt="">' for a in assets[:40])
    w, _ = size
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>body{{margin:16px;width:{w - 32}px;"
            f"font-family:'Liberation Sans','DejaVu Sans',Arial,sans-serif}}p{{margin:4px 0}}img{{margin:4px;object-fit:cover}}"
            f"</style></head><body>\n{body}\n<div>{imgs}</div>\n</body></html>\n")
