"""The marker file that ties a workspace to its task (`iwr-task.json`), and the register the judge trusts.

The marker holds only the task id and a random key. What the key stands for (the suite, the task and
the folder it was made for) is written in a register under the state folder, outside every workspace,
so a marker names no path a coder could use, and a marker a coder rewrote can point the judge at no
task but the one the folder was prepared for. Judgements go beside the register, never into the folder.
"""
from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from iwr.settings import env_name, settings
from iwr.tasks.loader import Task, TaskFileError, load_suite

MARKER = "iwr-task.json"
STATE_ENV = env_name("state_dir")
KEY = re.compile(r"^[0-9a-f]{32}$")


def state_dir() -> Path:
    """Where registers and judgements of outside workspaces live: $IWR_STATE_DIR or ~/.local/state/iwr."""
    return settings().state_dir.expanduser().resolve()


@dataclass
class Workspace:
    """A prepared folder as the register knows it: its task, and where its judgements go."""

    task: Task
    folder: Path
    judgements: Path


def _entry(key: str) -> Path:
    return state_dir() / "workspaces" / f"{key}.json"


def _marker_of(folder: Path) -> dict | None:
    try:
        data = json.loads((folder / MARKER).read_text())
        return data if isinstance(data, dict) else None
    except (OSError, ValueError):
        return None


def write_marker(folder: Path, task: Task) -> Path:
    """Register `folder` as a workspace of `task` (keeping its key when it already was) and mark it."""
    folder = Path(folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    old = _marker_of(folder) or {}
    key = str(old.get("key", ""))
    entry = {"task_id": task.id, "suite": str(task.suite_root), "folder": str(folder)}
    if not (KEY.match(key) and _entry(key).is_file() and json.loads(_entry(key).read_text()) == entry):
        key = secrets.token_hex(16)
    _entry(key).parent.mkdir(parents=True, exist_ok=True)
    _entry(key).write_text(json.dumps(entry, indent=2))
    p = folder / MARKER
    p.write_text(json.dumps({"task_id": task.id, "key": key}, indent=2))
    return p


def read_marker(folder: Path) -> Workspace:
    """The registered task of a workspace; ValueError with a clear message when the marker is missing,
    unknown on this machine, or was made for another folder or task."""
    folder = Path(folder).resolve()
    if not (folder / MARKER).is_file():
        raise ValueError(f"{folder} has no {MARKER}: make it with `iwr prepare TASK_ID --out {folder}`, "
                         "or name the task with --task")
    data = _marker_of(folder)
    key = str((data or {}).get("key", ""))
    if not KEY.match(key):
        raise ValueError(f"{folder / MARKER}: not a marker written by `iwr prepare` (no valid key)")
    if not _entry(key).is_file():
        raise ValueError(f"{folder / MARKER}: its key is not registered on this machine ({state_dir()}); "
                         "name the task with --task (and --tasks)")
    entry = json.loads(_entry(key).read_text())
    if entry.get("folder") != str(folder) or str(data.get("task_id")) != entry.get("task_id"):
        raise ValueError(f"{folder / MARKER}: the marker was made for another folder or task; "
                         "the judge only trusts its register")
    try:
        task = load_suite(entry["suite"]).get(entry["task_id"])
    except (TaskFileError, KeyError) as e:
        raise ValueError(f"the suite registered for {folder} cannot be loaded:\n{e}") from e
    return Workspace(task, folder, state_dir() / "judgements" / key)


def named_workspace(folder: Path, task: Task) -> Workspace:
    """A folder judged for a task named by the operator: the marker, if any, is not read at all."""
    folder = Path(folder).resolve()
    tag = re.sub(r"[^A-Za-z0-9_-]", "_", f"{task.id}-{folder}")[-120:]
    return Workspace(task, folder, state_dir() / "judgements" / tag)
