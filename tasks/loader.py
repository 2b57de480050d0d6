"""Load a suite in the official layout: `data.jsonl` plus `data/<id>/` task folders.

Every problem is reported with the file, the field and the reason; loading never raises a bare
traceback for bad input.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from iwr.tasks.checkpoints import CheckpointPlan, checkpoint_plan
from iwr.tasks.schema import TaskRecord

VIDEO_EXTENSIONS = ("mp4", "webm")
IMAGE_EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".svg")


@dataclass(frozen=True)
class Problem:
    """One problem in a task file: where it is and why it is wrong."""

    file: str
    field: str
    reason: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        # file names that are not UTF-8 come back as lone surrogates, which no terminal can print
        return f"{where}: {self.field}: {self.reason}".encode("utf-8", "backslashreplace").decode("utf-8")


class TaskFileError(ValueError):
    """Raised when a suite cannot be loaded; carries every problem found."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


def video_in(folder: Path) -> Path | None:
    """A task folder's video (video.mp4 or video.webm), if it has one."""
    return next((p for ext in VIDEO_EXTENSIONS if (p := Path(folder) / f"video.{ext}").is_file()), None)


@dataclass
class Task:
    """One task: its `data.jsonl` record and its folder on disk."""

    record: TaskRecord
    folder: Path
    suite_root: Path

    @property
    def id(self) -> str:
        return str(self.record.id)

    @property
    def size(self) -> tuple[int, int]:
        return self.record.recording_details.size

    @property
    def video(self) -> Path | None:
        return video_in(self.folder)

    @property
    def assets_dir(self) -> Path:
        return self.folder / "assets"

    def asset_sheets(self) -> list[Path]:
        """The stitched asset sheets, sorted by name (the order the model sees them)."""
        d = self.folder / "stitched_assets"
        if not d.is_dir():
            return []
        return sorted(p for p in d.iterdir() if p.suffix.lower() in IMAGE_EXTENSIONS)

    def checkpoints(self) -> CheckpointPlan:
        """How this task's checkpoint files pair with its judged steps (by position or by action number)."""
        return checkpoint_plan([0, *self.record.flagged], self.folder)

    def checkpoint(self, step: int) -> Path | None:
        """Reference screenshot after action `step` (1-based; 0 is the initial page), if it is judged and present."""
        p = self.checkpoints().files.get(step)
        return p if p is not None and p.is_file() else None

    def reference_site(self) -> Path | None:
        """Folder of the reference site (our extension), if the task names one."""
        ext = self.record.iwr
        if not ext or not ext.reference or not ext.reference.site:
            return None
        site = Path(ext.reference.site)
        return site if site.is_absolute() else (self.suite_root / site).resolve()


@dataclass
class Suite:
    """All tasks of a `data.jsonl`, in file order."""

    root: Path
    tasks: list[Task] = field(default_factory=list)

    def get(self, task_id: str) -> Task:
        for t in self.tasks:
            if t.id == str(task_id):
                return t
        raise KeyError(f"no task {task_id} in {self.root / 'data.jsonl'}")


def _field_path(loc: tuple) -> str:
    return ".".join(str(x) for x in loc) or "(line)"


def parse_lines(path: Path) -> tuple[list[TaskRecord], list[Problem]]:
    """Parse every line of a data.jsonl; return the good records and the problems."""
    records: list[TaskRecord] = []
    problems: list[Problem] = []
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], [Problem(str(path), "(file)", "does not exist")]
    except (UnicodeDecodeError, OSError) as e:
        return [], [Problem(str(path), "(file)", f"cannot be read as UTF-8 text: {e}")]
    seen: dict[int, int] = {}
    for n, line in enumerate(text.split("\n"), 1):  # not splitlines(): U+2028 and friends are legal inside JSON strings
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            problems.append(Problem(str(path), "(json)", f"invalid JSON: {e.msg} at column {e.colno}", n))
            continue
        if not isinstance(obj, dict):
            problems.append(Problem(str(path), "(line)", f"expected a JSON object, got {type(obj).__name__}", n))
            continue
        try:
            rec = TaskRecord.model_validate(obj)
        except ValidationError as e:
            for err in e.errors():
                problems.append(Problem(str(path), _field_path(err["loc"]), err["msg"], n))
            continue
        if rec.id in seen:
            problems.append(Problem(str(path), "id", f"duplicate id {rec.id} (first on line {seen[rec.id]})", n))
            continue
        seen[rec.id] = n
        records.append(rec)
    return records, problems


def resolve_suite_file(path: str | Path) -> Path:
    """Accept a data.jsonl or a folder holding one."""
    p = Path(path)
    return p / "data.jsonl" if p.is_dir() else p


def load_suite(path: str | Path, strict: bool = True) -> Suite:
    """Load a suite; with `strict`, any problem in data.jsonl raises TaskFileError."""
    f = resolve_suite_file(path).resolve()
    records, problems = parse_lines(f)
    if problems and strict:
        raise TaskFileError(problems)
    root = f.parent
    suite = Suite(root=root)
    for rec in records:
        suite.tasks.append(Task(record=rec, folder=root / "data" / str(rec.id), suite_root=root))
    return suite
