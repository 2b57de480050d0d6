"""The marker file that ties a workspace folder to its task: `iwr-task.json`."""
from __future__ import annotations

import json
from pathlib import Path

from tasks.loader import Task, TaskFileError, load_suite

MARKER = "iwr-task.json"


def write_marker(folder: Path, task: Task) -> Path:
    """Record which task (and which suite) a workspace belongs to."""
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / MARKER
    p.write_text(json.dumps({"task_id": task.id, "suite": str(task.suite_root)}, indent=2))
    return p


def read_marker(folder: Path) -> Task:
    """The task a workspace belongs to; ValueError with a clear message when the marker is missing or wrong."""
    p = Path(folder) / MARKER
    if not p.is_file():
        raise ValueError(f"{folder} has no {MARKER}: make it with `iwr prepare TASK_ID --out {folder}`")
    try:
        data = json.loads(p.read_text())
        return load_suite(data["suite"]).get(str(data["task_id"]))
    except (json.JSONDecodeError, KeyError, TypeError) as e:
        raise ValueError(f"{p}: not a valid marker ({e})") from e
    except TaskFileError as e:
        raise ValueError(f"{p}: its suite cannot be loaded:\n{e}") from e
