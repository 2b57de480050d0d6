"""A task as a coder may see it, as a one-task suite of its own: the record without hints or
assertions, the video, the assets and the asset sheets; no checkpoints, no reference site. The
assets server of a sandboxed agent reads this copy, since the suite itself is not in its view."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from iwr.tasks.loader import Task


def public_record(task: Task) -> dict:
    rec = task.record.model_dump(mode="json", exclude_none=True)
    rec.pop("iwr", None)
    for a in rec.get("action_sequence", []):
        a.pop("iwr", None)
        a.pop("logical_assertion", None)
    return rec


def public_copy(task: Task, dest: Path) -> Path:
    """Write the copy under `dest` (made anew); returns the copy's suite root."""
    dest = Path(dest)
    shutil.rmtree(dest, ignore_errors=True)
    folder = dest / "data" / task.id
    folder.mkdir(parents=True)
    (dest / "data.jsonl").write_text(json.dumps(public_record(task)) + "\n")
    if task.video is not None:
        shutil.copy(task.video, folder / task.video.name)
    if task.assets_dir.is_dir():
        shutil.copytree(task.assets_dir, folder / "assets")
    sheets = task.asset_sheets()
    if sheets:
        (folder / "stitched_assets").mkdir()
        for s in sheets:
            shutil.copy(s, folder / "stitched_assets" / s.name)
    return dest
