"""Pictures are not pages: raster pixels whose source is not one of the task's assets are pictures,
wherever a page paints them, and the visual score counts only the rest of each checkpoint.

Where the pixels come from decides, not which element shows them. The browser lists every raster
source of the page (images, videos and posters, SVG images, CSS images of elements and of their
::before/::after: backgrounds, border images, masks, `content: url()`, list markers); a source whose
bytes are not one of the task's assets (served from the page's folder under any name, or inlined as
data: URLs) is a picture. An SVG file of the page's own is drawing, unless it carries a raster inside.
So is a mosaic: hundreds of small blank boxes of solid colours, many colours among them (a frame
sampled into cells; a board or a palette has few colours or few cells).
A canvas fed image data (images that are no assets, video frames, bitmaps, pixel arrays: the
browser remembers, browser/canvas_feeds.py) shows pictures, however scaled, shifted or noised; a
canvas drawn with paths, shapes and text is the page's own. Embedded documents count where the
screenshot there is nearer to a frame of the recording than to every checkpoint (a clean render sits
closer to the checkpoints, clean renders too, than to the video's compressed frames).

The judge then captures the checkpoint once more with every picture taken away (a style sheet hides
those elements and turns those CSS images off for that one capture): the share of the viewport
(in 16-pixel cells) whose pixels differ is the checkpoint's `picture_share`, and that bare capture is
what the metrics score. A checkpoint a quarter or more pictures scores 0 and flags the judgement
`pictures_of_page`.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, unquote_to_bytes, urlsplit

import numpy as np
from PIL import Image

PICTURE_SHARE = 0.25  # of the viewport's cells changed by taking the pictures away
DRAWN_SHARE = 0.02  # drawn content below this share of the viewport is not compared with the recording
CELL = 8  # pixels per cell of the coverage grid
COPIED = ("img", "background", "image", "video")
RECORDED_RATIO = 0.5  # a drawn box is recorded when nearer to a frame than half its distance to any checkpoint
SCALE = 2  # compare at half resolution: codec noise survives it, the cost quarters
MIN_BOX_SHARE = 0.02  # smaller drawn boxes are compared together, in place


def digest(p: Path) -> str:
    st = p.stat()
    return _digest(str(p), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4096)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    """Read once per file version: the same images are seen at every checkpoint of a task."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def asset_paths(root: Path, assets: set[str], limit: int = 2000) -> list[str]:
    """The paths on the page's server (`/assets/1.png`) of the files in its folder that are task assets."""
    files = [p for p in sorted(root.rglob("*"))[:limit] if p.is_file()]
    return ["/" + p.relative_to(root).as_posix() for p in files if digest(p) in assets]


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


def data_url_digest(src: str) -> tuple[str, str] | None:
    """(media type, sha256 of the bytes) of a data: URL, as the browser's raster listing sends it
    (`data:<type>;sha256,<hex>`) or whole; None when it is none or will not decode."""
    if not src.startswith("data:") or "," not in src:
        return None
    head, body = src[5:].split(",", 1)
    kind = head.split(";")[0].strip().lower()
    if head.endswith(";sha256"):
        return kind, body.lower()
    try:
        raw = base64.b64decode(body, validate=False) if head.endswith(";base64") else unquote_to_bytes(body)
    except (binascii.Error, ValueError):
        return None
    return kind, hashlib.sha256(raw).hexdigest()


def material(src: str, root: Path) -> tuple[str | None, bool]:
    """The content hash of a raster's source (None when it cannot be read) and whether it is an SVG."""
    f = served_file(src, root)
    if f is not None:
        return digest(f), f.suffix.lower() == ".svg"
    inline = data_url_digest(src)
    return (inline[1], inline[0] == "image/svg+xml") if inline else (None, False)


# How a picture is taken away for the bare capture: an element that shows one is hidden; a CSS image
# is turned off (its box, text and borders stay); a pseudo-element that is only an image goes.
HIDDEN = "visibility: hidden !important;"
NO_CSS_IMAGES = ("background-image: none !important; border-image-source: none !important; "
                 "mask-image: none !important; -webkit-mask-image: none !important; list-style-image: none !important;")


def _rule(r: dict) -> str | None:
    p = r.get("p")
    if not p:
        return None
    if r["kind"] != "background":
        return f"{p} {{ {HIDDEN} }}"
    return f"{p} {{ {NO_CSS_IMAGES}{' content: none !important;' if r.get('prop') == 'content' else ''} }}"


def _svg_of_the_page(f: Path | None) -> bool:
    """A served SVG file with no raster inside it is the page's drawing."""
    if f is None:
        return False
    text = f.read_bytes()[:2_000_000].lower()
    return b"<image" not in text and b"data:image/" not in text.replace(b"data:image/svg", b"")


def sort_rasters(seen: dict, root: Path, assets: set[str]) -> dict:
    """The viewport, and the foreign rasters as copied (boxes and the rules that take them away) or drawn
    (boxes and rules, compared with the recording before they count); see the module's docstring."""
    copied, drawn, veil, drawn_veil = [], [], [], []
    for r in seen.get("rasters", []):
        if r["kind"] in COPIED and r["src"]:
            if r.get("asset"):  # an asset's bytes shown from memory (a blob: URL; canvas_feeds.py)
                continue
            sha, svg = material(r["src"], root)
            if sha is not None and sha in assets:
                continue
            served = served_file(r["src"], root)
            if svg and _svg_of_the_page(served):
                continue
            looked_at = svg and served is None  # an inlined SVG we cannot read: judged by how it looks
            (drawn if looked_at else copied).append(r["box"])
            (drawn_veil if looked_at else veil).append(_rule(r))
        elif r.get("fed") or r["kind"] == "mosaic":  # a canvas fed image data that is no asset, cells of a picture
            copied.append(r["box"])
            veil.append(_rule(r))
        elif r["kind"] != "canvas":  # a canvas fed nothing is the page's own drawing
            drawn.append(r["box"])
            drawn_veil.append(_rule(r))
    if seen.get("full"):  # more raster sources than the listing holds: every raster goes, assets too
        veil.append(f"img, video, image, input[type=image] {{ {HIDDEN} }} *, *::before, *::after {{ {NO_CSS_IMAGES} }}")
    w, h = (max(1, int(v)) for v in seen.get("viewport", [1, 1]))
    return {"viewport": [w, h], "copied": copied, "drawn": drawn, "veil": veil, "drawn_veil": drawn_veil}


def bare_sheet(sorted_: dict, recorded: list) -> str:
    """The style sheet of the bare capture: the copied pictures and the drawn boxes found recorded."""
    rules = sorted_["veil"] + [rule for box, rule in zip(sorted_["drawn"], sorted_["drawn_veil"]) if box in recorded]
    return "\n".join(dict.fromkeys(r for r in rules if r))


def _grid(boxes: list, viewport: list[int]) -> np.ndarray:
    w, h = viewport
    grid = np.zeros((h // CELL + 1, w // CELL + 1), dtype=bool)
    for x, y, bw, bh in boxes:
        grid[int(y) // CELL:int(y + bh) // CELL + 1, int(x) // CELL:int(x + bw) // CELL + 1] = True
    return grid


def share(boxes: list, viewport: list[int]) -> float:
    return round(float(_grid(boxes, viewport).mean()), 4)


class Likeness:
    """The recording's frames and the task's checkpoints, at comparison scale, loaded once per task."""

    def __init__(self, frames: list[Image.Image], checkpoints: list[Path]):
        self._frames, self._checkpoints = frames, checkpoints
        self._cache: dict[tuple[int, int], tuple[list, list]] = {}

    def images(self, size: tuple[int, int]) -> tuple[list[np.ndarray], list[np.ndarray]]:
        if size not in self._cache:
            small = (max(1, size[0] // SCALE), max(1, size[1] // SCALE))
            grey = lambda im: np.asarray(im.convert("L").resize(small, Image.BILINEAR), dtype=np.float32)  # noqa: E731
            self._cache[size] = ([grey(f) for f in self._frames],
                                 [grey(Image.open(p)) for p in self._checkpoints if p.is_file()])
        return self._cache[size]


def _nearest(shot: np.ndarray, others: list[np.ndarray], box: tuple[int, int, int, int], mask) -> float:
    """The smallest mean grey-level difference in `box` between the shot and another image, placed
    as the viewport is (a crop) or fitted into the box (a scaled copy)."""
    x0, y0, x1, y1 = box
    part = shot[y0:y1, x0:x1]
    m = mask[y0:y1, x0:x1] if mask is not None else None
    best = float("inf")
    for o in others:
        fitted = np.asarray(Image.fromarray(o).resize((x1 - x0, y1 - y0), Image.BILINEAR), dtype=np.float32)
        for cand in (o[y0:y1, x0:x1], fitted):
            d = np.abs(part - cand)
            best = min(best, float(d[m].mean() if m is not None else d.mean()))
    return best


def recorded_boxes(shot_path: str | Path, drawn: list, viewport: list[int], likeness: Likeness) -> list:
    """The drawn boxes whose pixels are a recording's frame rather than a rendered page."""
    if not drawn:
        return []
    frames, checkpoints = likeness.images(tuple(viewport))
    if not frames or not checkpoints:
        return []
    w, h = viewport
    shot = np.asarray(Image.open(shot_path).convert("L").resize((max(1, w // SCALE), max(1, h // SCALE)),
                                                               Image.BILINEAR), dtype=np.float32)
    sh, sw = shot.shape
    to_small = lambda b: (max(0, int(b[0]) // SCALE), max(0, int(b[1]) // SCALE),  # noqa: E731
                          min(sw, int(b[0] + b[2]) // SCALE), min(sh, int(b[1] + b[3]) // SCALE))
    big = [b for b in drawn if b[2] * b[3] >= MIN_BOX_SHARE * w * h]
    rest = [b for b in drawn if b[2] * b[3] < MIN_BOX_SHARE * w * h]
    groups: list[tuple[list, tuple, np.ndarray | None]] = [([b], to_small(b), None) for b in big]
    if rest:
        mask = np.zeros_like(shot, dtype=bool)
        for b in rest:
            x0, y0, x1, y1 = to_small(b)
            mask[y0:y1, x0:x1] = True
        groups.append((rest, (0, 0, sw, sh), mask))
    out = []
    for boxes, small, mask in groups:
        x0, y0, x1, y1 = small
        if x1 - x0 < 2 or y1 - y0 < 2 or (mask is not None and not mask.any()):
            continue
        if _nearest(shot, frames, small, mask) < RECORDED_RATIO * _nearest(shot, checkpoints, small, mask):
            out += boxes
    return out
