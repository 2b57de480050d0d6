"""What a run is: which coder on which tasks, judged how, stored where."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from iwr.agents.coder import Budget
from iwr.agents.models import ModelConfig
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.defaults import RUNS_DIR
from iwr.tasks.loader import Suite, Task


@dataclass
class RunConfig:
    """What to run: which agent on which tasks, stored where."""

    run_id: str
    agent: str  # a name in evals.run.coders.CODERS
    suite: Suite
    runs_dir: Path = RUNS_DIR
    model: ModelConfig | None = None
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    task_ids: list[str] | None = None
    concurrency: int = 2
    epochs: int = 1
    retry_failed: bool = False
    budget: Budget = field(default_factory=Budget)
    score_turns: bool = True
    feedback: str = "scores"  # what an iterative coder's own replay tells it (agents.coder.FEEDBACK)
    on_done: object = None  # called with (TaskResult, done, total) after each task, e.g. a progress bar
    cache_dir: Path | None = None  # content-addressed cache of judgements and metric values (evals/judging/cache.py)
    executor: str = "local"  # local | ray (evals/run/ray_executor.py)
    address: str | None = None  # the Ray cluster to join; None starts a local instance
    sandbox: str = "bwrap"  # where an outside agent (cmd:, presets) runs: bwrap | none (evals/workspace/sandbox.py)
    expose: list[Path] = field(default_factory=list)  # more folders an outside agent may read (its own install)

    @property
    def run_dir(self) -> Path:
        return self.runs_dir / self.run_id


def task_dir(cfg: RunConfig, task: Task, epoch: int) -> Path:
    """`runs/<run>/<task>/` for the first epoch, `runs/<run>/<task>.e<N>/` for later ones."""
    return cfg.run_dir / (task.id if epoch == 1 else f"{task.id}.e{epoch}")


def default_run_id(agent: str) -> str:
    return f"{agent}-{time.strftime('%Y%m%d-%H%M%S')}"
