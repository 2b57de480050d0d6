"""Run a coder on many tasks: pick the coder by name, run each pending (task, epoch) on the chosen
executor, store `result.json` and the database row, write the summary; a rerun skips done tasks."""
from __future__ import annotations

import asyncio
import json
import shutil

import structlog

from iwr.agents.models import model_name
from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.judging.cache import with_cache
from iwr.evals.records.results import TaskResult, run_summary
from iwr.evals.records.store import Store
from iwr.evals.run.attempt import attempt, record
from iwr.evals.run.coders import coder_named
from iwr.evals.run.config import RunConfig, task_dir
from iwr.evals.run.preflight import judge_problems
from iwr.tasks.loader import Task

EXECUTORS = ("local", "ray")
log = structlog.get_logger()


def check(cfg: RunConfig) -> None:
    """Refuse a run that cannot start (unknown coder or executor, a model-driven coder without a model)."""
    coder = coder_named(cfg.agent, cfg.sandbox, cfg.expose)
    if getattr(coder, "sandbox", None) == "bwrap" and shutil.which("bwrap") is None:
        raise ValueError("an outside agent runs in bubblewrap, which is not installed (Debian: apt-get install "
                         "bubblewrap); --sandbox none runs it unconfined")
    if coder.needs_model and cfg.model is None:
        raise ValueError(f"{cfg.agent} needs --model")
    if cfg.executor not in EXECUTORS:
        raise ValueError(f"--executor must be one of {', '.join(EXECUTORS)}, not {cfg.executor!r}")


def _todo(cfg: RunConfig, tasks: list[Task]) -> tuple[list[tuple[Task, int]], dict]:
    """Which (task, epoch) pairs still need running, and the results already on disk."""
    done, todo = {}, []
    for t in tasks:
        for e in range(1, cfg.epochs + 1):
            f = task_dir(cfg, t, e) / "result.json"
            r = TaskResult.model_validate_json(f.read_text()) if f.is_file() else None
            if r is None or (cfg.retry_failed and r.status == "infra_failure"):
                todo.append((t, e))
            else:
                done[(t.id, e)] = r
    return todo, done


async def run(cfg: RunConfig) -> list[TaskResult]:
    """Run every selected task (and epoch) with bounded concurrency; finished ones are never redone."""
    check(cfg)
    problems = await judge_problems(cfg.judge)
    if problems:  # before any coder starts: a run the judge cannot score would be money spent for nothing
        raise ValueError("the judge cannot score this run: " + "; ".join(problems))
    cfg.run_dir.mkdir(parents=True, exist_ok=True)
    run_json = {"run_id": cfg.run_id, "agent": cfg.agent, "suite": str(cfg.suite.root),
                "model": cfg.model.model_dump() if cfg.model else None, "judge": cfg.judge.model_dump(),
                "epochs": cfg.epochs, "concurrency": cfg.concurrency}
    (cfg.run_dir / "run.json").write_text(json.dumps(run_json, indent=2))
    store = Store(cfg.runs_dir / "iwr.db")
    store.add_run(cfg.run_id, cfg.agent, model_name(cfg.model), cfg.judge.profile,
                  str(cfg.suite.root), run_json)
    tasks = [t for t in cfg.suite.tasks if cfg.task_ids is None or t.id in cfg.task_ids]
    todo, results = _todo(cfg, tasks)
    for (_, epoch), r in results.items():  # a kill between result.json and its row would lose the row otherwise
        store.add_result(cfg.run_id, r, epoch)
    try:
        if todo and cfg.executor == "ray":
            from iwr.evals.run.ray_executor import run_on_ray  # Ray is an optional extra

            await run_on_ray(cfg, todo, results, store)
        elif todo:
            await run_locally(cfg, todo, results, store)
    finally:
        store.close()
    order = {t.id: i for i, t in enumerate(tasks)}
    keys = sorted(results, key=lambda k: (order.get(k[0], 0), k[1]))
    summary = run_summary(cfg.run_id, cfg.agent, [(k[1], results[k]) for k in keys])
    (cfg.run_dir / "summary.json").write_text(summary.model_dump_json(indent=2))
    return [results[k] for k in keys]


async def run_locally(cfg: RunConfig, todo: list[tuple[Task, int]], results: dict, store: Store) -> None:
    """The local executor: one set of judge servers in this process, `cfg.concurrency` tasks at once."""
    gate = asyncio.Semaphore(max(1, cfg.concurrency))
    errlog = open(cfg.run_dir / "servers.log", "a")
    try:
        async with Toolbox(judge_servers(cfg.run_dir, cfg.suite.root), errlog=errlog) as raw_tools:
            tools = with_cache(raw_tools, cfg.cache_dir)
            finished = [0]

            async def one(t: Task, epoch: int) -> None:
                async with gate:
                    log.info("task.start", task=t.id, epoch=epoch, agent=cfg.agent)
                    r = await attempt(cfg, t, epoch, tools)
                    record(cfg, t, epoch, r, results, store)
                    log.info("task.done", task=t.id, epoch=epoch, status=r.status, final=round(r.final, 4))
                    finished[0] += 1
                    if callable(cfg.on_done):
                        cfg.on_done(r, finished[0], len(todo))

            await asyncio.gather(*(one(t, e) for t, e in todo))
    finally:
        errlog.close()
