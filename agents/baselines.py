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


def static_page(text: str, assets: list[str], size: tuple[int, int]) -> str:
    """A page with no script: the first frame's text as lines, and every asset as an image.

    The floor a model must beat: it can look right to OCR, but nothing on it works."""
    import html

    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    body = "\n".join(f"<p>{html.escape(ln)}</p>" for ln in lines[:200])
    imgs = "\n".join(f'<img src="assets/{html.escape(a)}" width="160" height="120" alt="">' for a in assets[:40])
    w, h = size
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>body{{margin:16px;width:{w - 32}px;"
            f"font-family:'Liberation Sans','DejaVu Sans',Arial,sans-serif}}p{{margin:4px 0}}img{{margin:4px;object-fit:cover}}"
            f"</style></head><body>\n{body}\n<div>{imgs}</div>\n</body></html>\n")
