"""Which checkpoint file a judged screenshot is compared with.

The judge scores the first page (step 0) and the page after every action with a visual flag
(step k, k counting actions from 1). Task data names the files in one of two ways:

- by position, as the reference code pairs them: `step_j.png` is the j-th judged screenshot
  (j = 0 for the first page, then 1, 2, ... for the flagged actions in order). The official data.
- by action number, as our recorder once wrote them: `step_k.png` is the page after action k.

A task uses whichever its files fit, position first (the two agree when the first n actions are
the flagged ones). Files that fit neither are the task's problem, never the page's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Convention = Literal["position", "action"]
CONVENTIONS: tuple[Convention, ...] = ("position", "action")
STEP_FILE = re.compile(r"step_([0-9]+)\.png")  # ASCII digits only: "step_².png" is no step file


class InvalidTask(ValueError):
    """The task's own data is wrong (e.g. a checkpoint missing or unreadable): no page can be scored on it."""


def judged_steps(actions: list[dict]) -> list[int]:
    """The steps the judge scores: 0 (the first page) and each action with a visual flag (1-based)."""
    return [0] + [k for k, a in enumerate(actions, 1) if a.get("visual_evaluation_flag")]


def file_names(convention: Convention, steps: list[int]) -> dict[int, str]:
    """Step -> the checkpoint file name it is paired with under `convention`."""
    if convention == "position":
        return {s: f"step_{j}.png" for j, s in enumerate(steps)}
    return {s: f"step_{s}.png" for s in steps}


@dataclass(frozen=True)
class CheckpointPlan:
    """How one task's checkpoint files pair with its judged steps."""

    convention: Convention  # the one the files fit, or the nearest when they fit none
    files: dict[int, Path]  # step -> checkpoint file
    missing: list[int] = field(default_factory=list)  # steps whose file is absent
    strays: list[str] = field(default_factory=list)  # step files that pair with no judged step

    @property
    def complete(self) -> bool:
        return not self.missing


def checkpoint_plan(steps: list[int], folder: Path) -> CheckpointPlan:
    """The pairing of a task's judged steps (see `judged_steps`) with the files in its folder."""
    cp = Path(folder) / "checkpoints"
    present = {p.name for p in cp.glob("step_*.png") if STEP_FILE.fullmatch(p.name)} if cp.is_dir() else set()
    plans = []
    for convention in CONVENTIONS:
        names = file_names(convention, steps)
        missing = [s for s, n in names.items() if n not in present]
        strays = sorted(present - set(names.values()), key=lambda n: int(STEP_FILE.fullmatch(n).group(1)))
        plans.append(CheckpointPlan(convention, {s: cp / n for s, n in names.items()}, missing, strays))
    fitting = [p for p in plans if p.complete]
    return fitting[0] if fitting else min(plans, key=lambda p: (len(p.missing), len(p.strays)))


def unreadable(plan: CheckpointPlan) -> list[str]:
    """Names of the plan's files that exist but do not open as images."""
    from PIL import Image

    bad = []
    for s, p in plan.files.items():
        if s in plan.missing:
            continue
        try:
            with Image.open(p) as im:
                im.verify()
        except Exception:  # noqa: BLE001 - a damaged file makes PIL raise nearly anything
            bad.append(p.name)
    return bad


def check_usable(plan: CheckpointPlan, task_id: str) -> None:
    """Raise InvalidTask when a checkpoint of the plan is missing or does not open as an image."""
    if plan.missing:
        names = ", ".join(plan.files[s].name for s in plan.missing)
        raise InvalidTask(f"task {task_id}: checkpoint file(s) missing: {names} (the files fit neither the position "
                          f"nor the action-number convention; nearest: {plan.convention})")
    if bad := unreadable(plan):
        raise InvalidTask(f"task {task_id}: checkpoint file(s) unreadable: {', '.join(bad)}")
