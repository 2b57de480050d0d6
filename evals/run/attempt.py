"""One task of a run, whichever executor runs it: make the artifact with the run's coder, judge it,
retry once after a browser crash, and record the result atomically."""
from __future__ import annotations

import json
import os
import time

import structlog

from iwr.agents.coder import CoderJob, NoReference
from iwr.agents.models import ModelFailure, ModelUnavailable, model_name
from iwr.agents.toolbox import InfrastructureError, Toolbox
from iwr.evals.judging.artifact import score_drafts
from iwr.evals.judging.blame import judge_blaming
from iwr.evals.records.results import TaskResult
from iwr.evals.records.store import Store
from iwr.evals.run.coders import coder_named
from iwr.evals.run.config import RunConfig, task_dir
from iwr.evals.run.logs import task_logger
from iwr.tasks.loader import Task

log = structlog.get_logger()


async def run_task(cfg: RunConfig, task: Task, tools: Toolbox, tdir=None) -> TaskResult:
    """Produce and judge one task; every failure becomes a recorded outcome, never an exception."""
    tdir = tdir or cfg.run_dir / task.id
    tdir.mkdir(parents=True, exist_ok=True)
    base = {"task_id": task.id, "agent": cfg.agent, "model": model_name(cfg.model),
            "profile": cfg.judge.profile}
    coder = coder_named(cfg.agent, cfg.sandbox, cfg.expose)  # runner.check refused unknown coders
    job = CoderJob(task=task, out=tdir / "artifact", model=cfg.model, budget=cfg.budget, tools=tools,
                   thread=f"{cfg.run_id}/{tdir.name}", state_db=cfg.run_dir / "coder-checkpoints.db",
                   feedback=cfg.feedback)
    t0 = time.monotonic()
    try:
        made = await coder.make(job)
    except NoReference as e:
        return TaskResult(**base, status="skipped", error=str(e))
    except (ModelUnavailable, InfrastructureError) as e:
        return TaskResult(**base, status="infra_failure", error=str(e))
    except ModelFailure as e:
        return TaskResult(**base, status="model_failure", error=str(e))
    except Exception as e:  # e.g. an unreadable video in an unvalidated task: this task fails, the run goes on
        log.exception("task.coder_crashed", task=task.id)
        return TaskResult(**base, status="infra_failure", error=f"internal error while making the page: "
                                                               f"{type(e).__name__}: {str(e)[:300]}")
    seconds = round(time.monotonic() - t0, 3)
    record_ = made.model_dump(exclude_none=True, exclude={"entry"})
    if made.status == "model_failure":
        return TaskResult(**base, status="model_failure", error=made.error, coder=record_, seconds={"coder": seconds})
    if cfg.score_turns and made.drafts:
        record_["turn_scores"] = await score_drafts(task, tdir, made.drafts, tools, cfg.judge, base)
    r = await judge_blaming(task, job.out / made.entry, tools, cfg.judge, base)
    r.coder = record_
    r.seconds["coder"] = seconds
    return r


async def attempt(cfg: RunConfig, t: Task, epoch: int, tools: Toolbox) -> TaskResult:
    """Run one (task, epoch) with its log files; the result is not yet recorded."""
    d = task_dir(cfg, t, epoch)
    d.mkdir(parents=True, exist_ok=True)
    with open(d / "log.jsonl", "a", buffering=1) as logfile:
        tlog = task_logger(logfile, run=cfg.run_id, task=t.id, epoch=epoch, agent=cfg.agent)
        tlog.info("task.start", model=model_name(cfg.model), pid=os.getpid())
        with open(d / "attempts.jsonl", "a") as f:  # lets anyone check nothing finished is redone
            f.write(json.dumps({"started": time.time(), "pid": os.getpid()}) + "\n")
        r = await run_task(cfg, t, tools, d)
        if browser_died(r):  # the browser server relaunches Chromium; a crash gets one more try
            tlog.warning("task.retry", error=r.error)
            with open(d / "attempts.jsonl", "a") as f:
                f.write(json.dumps({"started": time.time(), "pid": os.getpid(), "retry_after": r.error}) + "\n")
            first = r.error
            r = await run_task(cfg, t, tools, d)
            if r.status == "infra_failure":
                r.error = f"{r.error} (retried once after: {first})"
        tlog.info("task.done", status=r.status, ifs=r.ifs, vfs=r.vfs, final=r.final, error=r.error,
                  seconds=r.seconds, usage=r.coder.get("usage"))
    return r


def browser_died(r: TaskResult) -> bool:
    """An infrastructure failure that came from the browser (Chromium or its renderer crashed or was killed)."""
    return r.status == "infra_failure" and (r.error or "").startswith("browser.")


def record(cfg: RunConfig, t: Task, epoch: int, r: TaskResult, results: dict, store: Store) -> None:
    """Write `result.json` atomically and add the result to the run database."""
    d = task_dir(cfg, t, epoch)
    tmp = d / "result.json.tmp"
    tmp.write_text(r.stamped().model_dump_json(indent=2))
    os.replace(tmp, d / "result.json")  # a killed run never leaves half a result
    store.add_result(cfg.run_id, r, epoch)
    results[(t.id, epoch)] = r
