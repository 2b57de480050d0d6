"""What the assets server reads, as plain functions over a loaded suite."""
from __future__ import annotations

import io
import mimetypes
from pathlib import Path

from PIL import Image

from iwr.tasks.frames import frame_at, frame_times, keyframes, video_duration
from iwr.tasks.loader import Suite, Task

MAX_SIDE = 1024


class AssetError(ValueError):
    """A caller mistake: unknown task, unknown or escaping file name, out-of-range frame."""


def task_of(suite: Suite, task_id: str) -> Task:
    try:
        return suite.get(str(task_id))
    except KeyError as e:
        raise AssetError(str(e).strip("'\"")) from None


def safe_child(folder: Path, name: str) -> Path:
    """`folder/name` for a plain file name; refuses separators, '..', absolute paths and links out."""
    if not name or "/" in name or "\\" in name or name in (".", "..") or name.startswith("~"):
        raise AssetError(f"{name!r} is not a plain file name")
    p = folder / name
    if not p.is_file():
        raise AssetError(f"no file {name!r} in {folder.name}/")
    if folder.resolve() not in p.resolve().parents:
        raise AssetError(f"{name!r} leaves {folder.name}/")
    return p


def list_assets(task: Task) -> list[dict]:
    """Every asset with its size in bytes, MIME type and pixel size (when an image)."""
    out = []
    d = task.assets_dir
    for p in sorted(d.iterdir() if d.is_dir() else [], key=lambda p: (len(p.stem), p.name)):
        if not p.is_file():
            continue
        info = {"name": p.name, "bytes": p.stat().st_size, "type": mimetypes.guess_type(p.name)[0] or "application/octet-stream"}
        try:
            with Image.open(p) as im:
                info["width"], info["height"] = im.size
        except Exception:  # videos, SVG: no pixel size without decoding them
            pass
        out.append(info)
    return out


def jpeg(img: Image.Image | Path, max_side: int = MAX_SIDE) -> bytes:
    """A JPEG of the image, downscaled for a model."""
    im = Image.open(img) if isinstance(img, Path) else img
    im = im.convert("RGB")
    im.thumbnail((max_side, max_side))
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=85)
    return buf.getvalue()


def video_info(task: Task) -> dict:
    if task.video is None:
        raise AssetError(f"task {task.id} has no video")
    d = video_duration(task.video)
    return {"file": task.video.name, "seconds": round(d, 3), "sampled_frames": len(frame_times(d, len(task.asset_sheets())))}


def frame(task: Task, index: int | None = None, time: float | None = None) -> tuple[float, Image.Image]:
    """A frame by its index in the paper's 1 fps sampling, or by time in seconds."""
    if task.video is None:
        raise AssetError(f"task {task.id} has no video")
    if (index is None) == (time is None):
        raise AssetError("give exactly one of index or time")
    d = video_duration(task.video)
    if index is not None:
        times = frame_times(d, len(task.asset_sheets()))
        if not 0 <= index < len(times):
            raise AssetError(f"index must be in 0..{len(times) - 1}")
        time = times[index]
    if not 0 <= time <= d + 1e-6:
        raise AssetError(f"time must be in 0..{d:.2f} s")
    return time, frame_at(task.video, time)


def scene_changes(task: Task, threshold: float = 0.02, limit: int = 16) -> list[tuple[float, Image.Image]]:
    if task.video is None:
        raise AssetError(f"task {task.id} has no video")
    return keyframes(task.video, threshold, limit)


def actions(task: Task, judge_mode: bool) -> list[dict]:
    """The action list; reference-side hints (selectors, crops, checks) and the judge's assertions only
    in judge mode."""
    out = []
    for i, a in enumerate(task.record.action_sequence, 1):
        d = a.model_dump(mode="json", exclude_none=True)
        if not judge_mode:
            d.pop("iwr", None)
            d.pop("logical_assertion", None)
        out.append({"index": i, **d})
    return out
