"""Result records of a run, as written to `runs/<run_id>/<task_id>/result.json`."""
from __future__ import annotations

from statistics import fmean
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["scored", "model_failure", "infra_failure", "invalid_task", "skipped"]
STATUSES: tuple[str, ...] = Status.__args__
# Model failures count as 0. Infra failures (rerun them), invalid tasks (the task's own data is
# wrong, e.g. a checkpoint missing) and skips are reported but never averaged.
COUNTED = ("scored", "model_failure")


class TaskResult(BaseModel):
    """One task of a run: its outcome, its scores (0..1) and how they came about."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    status: Status
    agent: str
    model: str | None = None
    ifs: float = 0.0
    lvs: float = 0.0
    hvs: float = 0.0
    vfs: float = 0.0
    final: float = 0.0
    error: str | None = None
    profile: str = "offline"
    backends: dict = Field(default_factory=dict)
    coder: dict = Field(default_factory=dict)
    judge: dict = Field(default_factory=dict)
    seconds: dict = Field(default_factory=dict)

    def summary(self) -> dict:
        """The entry of `iwr run --json`."""
        return {"task_id": self.task_id, "status": self.status, "ifs": self.ifs, "lvs": self.lvs, "hvs": self.hvs,
                "vfs": self.vfs, "final": self.final, "error": self.error,
                "probes": {k: v.get("status") for k, v in (self.judge.get("probes") or {}).items()}}


def mean_scores(results: list[TaskResult]) -> dict:
    """Unweighted means over the counted tasks (scored and model failures), plus the counts."""
    counted = [r for r in results if r.status in COUNTED]
    out = {k: round(fmean(getattr(r, k) for r in counted), 6) if counted else None
           for k in ("ifs", "lvs", "hvs", "vfs", "final")}
    out["counted"] = len(counted)
    out["by_status"] = {s: sum(1 for r in results if r.status == s) for s in STATUSES}
    return out
