"""Pictures are not pages: a checkpoint whose viewport a page fills mostly with raster content that
is not one of the task's own assets (frames of the video, screenshots of the page) is no reconstruction
of it, however alike the pixels look. Such a checkpoint scores 0 on every visual metric and the
judgement is flagged `pictures_of_page`. The task's assets, served from the page's folder under any
name, are what a page is made of and never count.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import numpy as np

PICTURE_SHARE = 0.5  # of the viewport's area
CELL = 8  # pixels per cell of the coverage grid


def digest(p: Path) -> str:
    st = p.stat()
    return _digest(str(p), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4096)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    """Read once per file version: the same images are seen at every checkpoint of a task."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def asset_digests(task_folder: str | Path) -> set[str]:
    """Content hashes of the task's assets (the files a coder is given)."""
    d = Path(task_folder) / "assets"
    return {digest(p) for p in d.rglob("*") if p.is_file()} if d.is_dir() else set()


def served_file(src: str, root: Path) -> Path | None:
    """The file under the page's folder that an http(s) source names, or None (data:, blob:, elsewhere)."""
    parts = urlsplit(src)
    if parts.scheme not in ("http", "https"):
        return None
    p = (root / unquote(parts.path).lstrip("/")).resolve()
    return p if p.is_file() and (root == p or root in p.parents) else None


def picture_share(seen: dict, root: Path, assets: set[str]) -> float:
    """The share of the viewport painted by rasters that are not the task's assets."""
    w, h = (max(1, int(v)) for v in seen.get("viewport", [1, 1]))
    grid = np.zeros((h // CELL + 1, w // CELL + 1), dtype=bool)
    for r in seen.get("rasters", []):
        if r["kind"] in ("img", "background", "image"):
            f = served_file(r["src"], root)
            if f is not None and digest(f) in assets:
                continue
        x, y, bw, bh = r["box"]
        grid[int(y) // CELL:int(y + bh) // CELL + 1, int(x) // CELL:int(x + bw) // CELL + 1] = True
    return round(float(grid.mean()), 4)
