"""What a coder is: given a task and a folder, it makes the page (the artifact) within a budget
and says what it spent. Every coder (oracle, static, blank, single-shot, iterative, outside ones)
has this one interface; the run looks coders up by name (evals/run/coders.py)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from iwr.agents.models import ModelConfig
from iwr.agents.toolbox import Toolbox
from iwr.tasks.loader import Task


class Budget(BaseModel):
    """Limits of one coder's work on a task; an iterative coder stops cleanly at the first one reached."""

    turns: int = Field(8, description="model calls")
    tokens: int = Field(400_000, description="prompt plus completion tokens")
    seconds: float = Field(1800, description="wall-clock seconds")
    dollars: float = Field(5.0, description="model cost in US dollars")


FEEDBACK = ("none", "scores", "actions")  # never expected texts, selectors or checkpoint pixels


class NoReference(RuntimeError):
    """The task names no reference site, so a coder that copies it cannot run (the task is skipped)."""


@dataclass
class CoderJob:
    """One task for a coder: where to write, with which model and budget, and the run's shared tools."""

    task: Task
    out: Path  # the artifact folder; the run judges `out / CoderOutput.entry`
    model: ModelConfig | None = None
    budget: Budget = field(default_factory=Budget)
    tools: Toolbox | None = None  # the run's own MCP servers (metrics, browser), e.g. for OCR of a frame
    thread: str = ""  # a stable id of this (run, task), for a coder that resumes a killed loop
    state_db: Path | None = None  # where a resumable coder keeps its checkpoints
    feedback: str = "scores"  # what the coder's own replay tells it: none | scores | actions (see FEEDBACK)


class CoderOutput(BaseModel):
    """What a coder reports: its outcome, the page to judge, tokens and cost, and its trajectory."""

    model_config = ConfigDict(extra="allow")  # coder-specific facts (stop reason, best turn, ...) pass through

    status: Literal["ok", "model_failure"] = "ok"
    entry: str = "index.html"  # the page to judge, relative to the artifact folder
    error: str | None = None
    usage: dict = Field(default_factory=dict)  # tokens, cost_usd, turns, as the coder counted them
    drafts: list = Field(default_factory=list)  # intermediate pages ({turn, path, tokens, cost_usd}), each judged
    trajectory: str | None = None  # a file with the coder's steps, when it keeps one


class Coder(Protocol):
    """A way to make the page for a task."""

    name: str
    needs_model: bool
    iterates: bool  # works in turns, so a run can compare turn budgets

    async def make(self, job: CoderJob) -> CoderOutput:
        """Write the artifact into `job.out`; raise ModelFailure / ModelUnavailable / InfrastructureError /
        NoReference for the outcomes they name, or return a `model_failure` output."""
        ...
