"""The Python API: what `iwr run`, `iwr judge` and `iwr calibrate` do, as functions with typed
arguments and results, exported as `from iwr import run, judge, load_tasks, calibrate` (`iwr.evals.run`
is the package that runs tasks, so the functions live here and `iwr/__init__.py` hands them out).

Each function has an `a`-prefixed coroutine twin (`arun`, `ajudge`, `acalibrate`) for callers that
already run an event loop; the plain ones start their own.
"""
from __future__ import annotations

import asyncio
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from iwr.agents.coder import Budget, Coder
from iwr.agents.models import ModelConfig
from iwr.evals.records.results import RunSummary, TaskResult
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.defaults import BUNDLED_SUITE, RUNS_DIR, judge_cache
from iwr.tasks.loader import Suite, Task, load_suite
from iwr.tasks.plugins import load_plugins

__all__ = ["RunOutcome", "acalibrate", "ajudge", "arun", "calibrate", "judge", "load_tasks", "register_coder",
           "register_metric", "register_profile", "run"]


def load_tasks(path: str | Path = BUNDLED_SUITE) -> Suite:
    """A suite: a data.jsonl (the official layout or ours) or the folder holding it; TaskFileError
    naming the file, line and field when it is malformed."""
    load_plugins()
    return load_suite(path)


def _suite(tasks: Suite | str | Path) -> Suite:
    return tasks if isinstance(tasks, Suite) else load_tasks(tasks)


@dataclass
class RunOutcome:
    """A finished run: where it is, its summary (as in summary.json) and every task's result."""

    run_dir: Path
    summary: RunSummary
    results: list[TaskResult]


async def arun(agent: "str | Coder", tasks: Suite | str | Path = BUNDLED_SUITE, *, task_ids: list[str] | None = None,
               model: str | ModelConfig | None = None, api_base: str | None = None, run_id: str | None = None,
               runs_dir: str | Path = RUNS_DIR, judge: JudgeConfig | None = None, concurrency: int = 2,
               epochs: int = 1, budget: Budget | None = None, feedback: str = "scores", cache: bool = True,
               retry_failed: bool = False, sandbox: str = "bwrap", expose: list[str | Path] = (),
               executor: str = "local", address: str | None = None) -> RunOutcome:
    """Run a coder on the tasks and judge each page, as `iwr run` does; a run id that exists is resumed
    (finished tasks are not redone).

    agent: a coder's name (oracle, static, blank, single-shot, iterative, a preset such as claude-code,
        or cmd:<template>), or a coder object (`name`, `needs_model`, `async make(job)`), registered
        under its name.
    tasks: a Suite, a data.jsonl or its folder. task_ids: only these.
    model: a litellm model name (with `api_base`) or a ModelConfig, for coders that need one.
    judge: the judge's configuration (profile, hints, metrics); the offline judge by default.
    budget: turns, tokens, seconds and dollars per task (agents.coder.Budget); feedback: what an
        iterative coder's replay tells it (none | scores | actions).
    epochs: runs per task; cache: reuse identical model answers and judgements; retry_failed: redo
        tasks that ended in an infrastructure failure.
    sandbox, expose: where an outside agent runs (bwrap | none) and the folders it may also read.
    executor, address: local, or ray (joining the cluster at `address`, else a local instance)."""
    from iwr.evals.run.coders import register_coder
    from iwr.evals.run.config import RunConfig, default_run_id
    from iwr.evals.run.runner import EXECUTORS
    from iwr.evals.run.runner import run as run_tasks

    load_plugins()
    if not isinstance(agent, str):
        agent = register_coder(agent).name
    if executor not in EXECUTORS:
        raise ValueError(f"executor must be one of {', '.join(EXECUTORS)}, not {executor!r}")
    if isinstance(model, str):
        model = ModelConfig(model=model, api_base=api_base or os.environ.get("OPENAI_API_BASE"))
    runs_dir = Path(runs_dir)
    cfg = RunConfig(run_id=run_id or default_run_id(agent.split(":")[0]), agent=agent, suite=_suite(tasks),
                    runs_dir=runs_dir, model=model, task_ids=task_ids, judge=judge or JudgeConfig(),
                    concurrency=concurrency, epochs=epochs, budget=budget or Budget(), feedback=feedback,
                    cache_dir=judge_cache(runs_dir) if cache else None, retry_failed=retry_failed,
                    sandbox=sandbox, expose=[Path(e) for e in expose], executor=executor, address=address)
    results = await run_tasks(cfg)
    summary = RunSummary.model_validate_json((cfg.run_dir / "summary.json").read_text())
    return RunOutcome(run_dir=cfg.run_dir, summary=summary, results=results)


def run(agent: "str | Coder", tasks: Suite | str | Path = BUNDLED_SUITE, *, task_ids: list[str] | None = None,
        model: str | ModelConfig | None = None, api_base: str | None = None, run_id: str | None = None,
        runs_dir: str | Path = RUNS_DIR, judge: JudgeConfig | None = None, concurrency: int = 2, epochs: int = 1,
        budget: Budget | None = None, feedback: str = "scores", cache: bool = True, retry_failed: bool = False,
        sandbox: str = "bwrap", expose: list[str | Path] = (), executor: str = "local",
        address: str | None = None) -> RunOutcome:
    """`arun` (the same arguments) in an event loop of its own."""
    return asyncio.run(arun(agent, tasks, task_ids=task_ids, model=model, api_base=api_base, run_id=run_id,
                            runs_dir=runs_dir, judge=judge, concurrency=concurrency, epochs=epochs, budget=budget,
                            feedback=feedback, cache=cache, retry_failed=retry_failed, sandbox=sandbox,
                            expose=expose, executor=executor, address=address))


async def ajudge(page: str | Path, task: Task | str, *, tasks: Suite | str | Path = BUNDLED_SUITE,
                 config: JudgeConfig | None = None, work: str | Path | None = None) -> TaskResult:
    """Judge one page (an index.html or the folder holding it) for one task (a Task, or its id in
    `tasks`); the screenshots go to `work` (a new temporary folder by default)."""
    from iwr.agents.toolbox import Toolbox
    from iwr.evals.judging.artifact import judge_servers
    from iwr.evals.judging.blame import judge_blaming

    load_plugins()
    task = task if isinstance(task, Task) else _suite(tasks).get(str(task))
    page = Path(page)
    entry = page / "index.html" if page.is_dir() else page
    work = Path(work or tempfile.mkdtemp(prefix="iwr-judge-"))
    work.mkdir(parents=True, exist_ok=True)
    config = config or JudgeConfig()
    base = {"task_id": task.id, "agent": "api", "profile": config.profile}
    with open(work / "servers.log", "a") as errlog:
        async with Toolbox(judge_servers(work, task.suite_root, extra_roots=[entry.parent]), errlog=errlog) as tools:
            result = await judge_blaming(task, entry, tools, config, base)
    return result.stamped()


def judge(page: str | Path, task: Task | str, *, tasks: Suite | str | Path = BUNDLED_SUITE,
          config: JudgeConfig | None = None, work: str | Path | None = None) -> TaskResult:
    """`ajudge` (the same arguments) in an event loop of its own."""
    return asyncio.run(ajudge(page, task, tasks=tasks, config=config, work=work))


async def acalibrate(tasks: Suite | str | Path = BUNDLED_SUITE, *, hints: bool = True, max_tasks: int | None = None,
                     work: str | Path | None = None, equivalents: bool = False, real: str | Path | None = None,
                     cache: bool = True) -> dict:
    """The judge against the suite's references and their mutants (and, optionally, equivalent pages
    and the real corpus): the figures `iwr calibrate --json` prints, with every row."""
    from iwr.evals.quality.calibrate import calibrate as run_calibration

    load_plugins()
    return await run_calibration(_suite(tasks), Path(work) if work else None, max_tasks,
                                 cache_dir=judge_cache() if cache else None, hints=hints,
                                 real=Path(real) if real else None, equivalents=equivalents)


def calibrate(tasks: Suite | str | Path = BUNDLED_SUITE, *, hints: bool = True, max_tasks: int | None = None,
              work: str | Path | None = None, equivalents: bool = False, real: str | Path | None = None,
              cache: bool = True) -> dict:
    """`acalibrate` (the same arguments) in an event loop of its own."""
    return asyncio.run(acalibrate(tasks, hints=hints, max_tasks=max_tasks, work=work, equivalents=equivalents,
                                  real=real, cache=cache))


def register_coder(coder):
    """Add a coder to the table `run` looks agents up in (anything with name, needs_model, iterates and
    `async make(job)`); see tests/plugins/example_plugin.py."""
    from iwr.evals.run.coders import register_coder as add

    return add(coder)


def register_metric(name: str, compute, **options):
    """Add a metric (a function of a reference/candidate Pair returning a MetricValue). The metrics
    server is another process: name the module as a plug-in (`--plugin`, $IWR_PLUGINS or an entry
    point) so that it registers there too."""
    from iwr.mcp_servers.metrics.compare import register_metric as add

    return add(name, compute, **options)


def register_profile(profile):
    """Add a judge profile (graphs.profiles.Profile)."""
    from iwr.graphs.profiles import register_profile as add

    return add(profile)
