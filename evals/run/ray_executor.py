"""The Ray executor: a run's tasks spread over a Ray cluster, with the same results as the local
executor (`evals.run.runner.run_locally`).

Each Ray worker is an actor holding one browser server (one Chromium) and one metrics server
(models loaded once), started when the actor starts and reused by every task it is given; the
driver hands out tasks as workers free up and alone writes results, the run database and progress.
Workers write artifacts, logs and screenshots under the run folder, so on a cluster that folder
must be on storage every node shares (as the suite must be).
"""
from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
import threading

import structlog

from iwr.agents.models import model_name
from iwr.agents.toolbox import Toolbox, stdio_server
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.judging.cache import with_cache
from iwr.evals.records.results import TaskResult
from iwr.evals.records.store import Store
from iwr.evals.run.attempt import attempt, record
from iwr.evals.run.config import RunConfig
from iwr.tasks.loader import Task

log = structlog.get_logger()


class JudgeWorker:
    """A Ray actor: its MCP servers start once and serve every task it runs.

    The servers' sessions must be entered and left by one asyncio task, so they live in a task of
    the actor's own event loop (on a thread); calls from Ray arrive on other threads and are
    handed to that loop."""

    def __init__(self, cfg: RunConfig):
        self.cfg = cfg
        self.tasks = {t.id: t for t in cfg.suite.tasks}
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.ready = threading.Event()
        servers = judge_servers(cfg.run_dir, cfg.suite.root)
        # Session ids restart in every browser server: each worker keeps its screenshots apart.
        shots = cfg.run_dir / f"shots-{socket.gethostname()}-{os.getpid()}"
        servers["browser"] = stdio_server("browser", "--shots", str(shots))
        self.serving = asyncio.run_coroutine_threadsafe(self._serve(servers), self.loop)
        while not self.ready.wait(0.1):
            if self.serving.done():
                self.serving.result()  # raises why the servers did not start

    async def _serve(self, servers: dict) -> None:
        self.stopping = asyncio.Event()
        with open(self.cfg.run_dir / f"servers-{os.getpid()}.log", "a") as errlog:
            async with Toolbox(servers, errlog=errlog) as tools:
                self.tools = with_cache(tools, self.cfg.cache_dir)
                self.ready.set()
                await self.stopping.wait()

    def run(self, task_id: str, epoch: int) -> str:
        """Run one task and return its TaskResult as JSON."""
        r = asyncio.run_coroutine_threadsafe(attempt(self.cfg, self.tasks[task_id], epoch, self.tools), self.loop)
        return r.result().model_dump_json()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.stopping.set)
        self.serving.result(timeout=60)


async def run_on_ray(cfg: RunConfig, todo: list[tuple[Task, int]], results: dict, store: Store) -> None:
    """Spread the pending tasks over `cfg.concurrency` Ray workers (a local instance when no address)."""
    import ray

    started_here = not ray.is_initialized()
    if started_here:
        env = {"env_vars": {"LITELLM_LOCAL_MODEL_COST_MAP": "True"}}
        if cfg.address:
            ray.init(address=cfg.address, runtime_env=env, log_to_driver=False)
        else:
            ray.init(num_cpus=max(os.cpu_count() or 1, cfg.concurrency), runtime_env=env, include_dashboard=False,
                     log_to_driver=False)
    shipped = dataclasses.replace(cfg, on_done=None)  # a progress bar stays with the driver
    remote = ray.remote(num_cpus=1, max_concurrency=2)(JudgeWorker)
    workers = [remote.remote(shipped) for _ in range(max(1, min(cfg.concurrency, len(todo))))]
    queue = list(todo)
    finished = [0]

    async def drain(worker) -> None:
        alive = True
        while queue and alive:
            t, epoch = queue.pop(0)
            log.info("task.start", task=t.id, epoch=epoch, agent=cfg.agent, executor="ray")
            try:
                r = TaskResult.model_validate_json(await worker.run.remote(t.id, epoch))
            except Exception as e:  # the worker died or never started: recorded; --retry-failed reruns it
                alive = False
                r = TaskResult(task_id=t.id, agent=cfg.agent, model=model_name(cfg.model),
                               profile=cfg.judge.profile, status="infra_failure",
                               error=f"ray worker: {type(e).__name__}: {str(e)[:500]}")
            record(cfg, t, epoch, r, results, store)
            finished[0] += 1
            log.info("task.done", task=t.id, epoch=epoch, status=r.status, final=round(r.final, 4))
            if callable(cfg.on_done):
                cfg.on_done(r, finished[0], len(todo))

    try:
        await asyncio.gather(*(drain(w) for w in workers))
    finally:
        await asyncio.gather(*(w.stop.remote() for w in workers), return_exceptions=True)
        for w in workers:
            ray.kill(w)
        if started_here:
            ray.shutdown()

