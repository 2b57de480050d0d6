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
# The format of result.json and summary.json (JSON Schemas in evals/records/schemas); raise it with
# any change a reader must know about.
SCHEMA_VERSION = 1


class TaskResult(BaseModel):
    """One task of a run: its outcome, its scores (0..1) and how they came about."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
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
    producer: dict = Field(default_factory=dict, description="code, browser and metric versions (provenance.py)")

    def stamped(self) -> "TaskResult":
        """This result with the producer filled in, as every result file is written."""
        from iwr.evals.records.provenance import producer

        self.producer = producer(self.judge.get("browser"), self.backends)
        return self

    def summary(self) -> dict:
        """The entry of `iwr run --json`."""
        return {"task_id": self.task_id, "status": self.status, "ifs": self.ifs, "lvs": self.lvs, "hvs": self.hvs,
                "vfs": self.vfs, "final": self.final, "error": self.error,
                "probes": {k: v.get("status") for k, v in (self.judge.get("probes") or {}).items()}}


class SummaryEntry(BaseModel):
    """One task (and epoch) of `summary.json`: `TaskResult.summary()` and its epoch."""

    model_config = ConfigDict(extra="forbid")

    task_id: str
    epoch: int = 1
    status: Status
    ifs: float
    lvs: float
    hvs: float
    vfs: float
    final: float
    error: str | None = None
    probes: dict = Field(default_factory=dict)


class MeanScores(BaseModel):
    """Unweighted means over the counted tasks (None when none counted), and the counts by status."""

    model_config = ConfigDict(extra="forbid")

    ifs: float | None
    lvs: float | None
    hvs: float | None
    vfs: float | None
    final: float | None
    counted: int
    by_status: dict[Status, int]


class RunSummary(BaseModel):
    """`runs/<run_id>/summary.json`."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = SCHEMA_VERSION
    run_id: str
    agent: str
    tasks: list[SummaryEntry]
    mean: MeanScores
    cost_usd: float | None = Field(0.0, description="the coders' model cost over the run in US dollars; null "
                                   "(unknown) when some task's model has no known price")
    cost_unknown: int = Field(0, description="results whose model cost is unknown (no price for their model)")
    producer: dict = Field(default_factory=dict, description="code, browser and metric versions (provenance.py)")


def cost_of(r: "TaskResult") -> tuple[float, bool]:
    """A result's model cost in dollars and whether it is known (a coder that called no model costs 0)."""
    usage = r.coder.get("usage") or {}
    if "cost_usd" in usage and usage["cost_usd"] is None:
        return 0.0, False
    return float(usage.get("cost_usd") or 0.0), True


def run_summary(run_id: str, agent: str, keyed: list[tuple[int, TaskResult]]) -> RunSummary:
    """The summary of (epoch, result) pairs in order, stamped with the code and the judges' tools."""
    from iwr.evals.records.provenance import producer

    results = [r for _, r in keyed]
    browser = next((r.judge.get("browser") for r in results if r.judge.get("browser")), None)
    metrics = {k: v for r in results for k, v in r.backends.items()}
    costs = [cost_of(r) for r in results]
    unknown = sum(1 for _, known in costs if not known)
    return RunSummary(run_id=run_id, agent=agent, tasks=[{**r.summary(), "epoch": e} for e, r in keyed],
                      mean=mean_scores(results), cost_usd=None if unknown else round(sum(c for c, _ in costs), 6),
                      cost_unknown=unknown, producer=producer(browser, metrics))


def mean_scores(results: list[TaskResult]) -> dict:
    """Unweighted means over the counted tasks (scored and model failures), plus the counts."""
    counted = [r for r in results if r.status in COUNTED]
    out = {k: round(fmean(getattr(r, k) for r in counted), 6) if counted else None
           for k in ("ifs", "lvs", "hvs", "vfs", "final")}
    out["counted"] = len(counted)
    out["by_status"] = {s: sum(1 for r in results if r.status == s) for s in STATUSES}
    return out
