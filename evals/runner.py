"""Run agents on tasks: produce each artifact, judge it, store `result.json`; resume by skipping done tasks."""
from __future__ import annotations

import asyncio
import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import structlog

from agents.baselines import NoReference, blank, oracle, static_page
from agents.models import ModelConfig, ModelFailure, ModelUnavailable
from agents.toolbox import InfrastructureError, Toolbox, ToolCallError, stdio_server
from evals.cache import cache_of, cached_judgement, judgement_key, with_cache
from evals.executors import attempt, record
from evals.explore import explore_probe
from evals.probes import typed_text_probe
from evals.results import TaskResult, mean_scores
from evals.scoring import score_judgement
from evals.store import Store
from graphs.iterative import Budget
from graphs.judge import JudgeConfig, judge
from graphs.single_shot import single_shot
from tasks.loader import Suite, Task

AGENTS = ("oracle", "static", "blank", "single-shot", "iterative")
JUDGE_TIMEOUT_S = 120.0  # a whole task's replay; a page that hangs every action must not hang the run
log = structlog.get_logger()


@dataclass
class RunConfig:
    """What to run: which agent on which tasks, stored where."""

    run_id: str
    agent: str
    suite: Suite
    runs_dir: Path = Path("runs")
    model: ModelConfig | None = None
    judge: JudgeConfig = field(default_factory=JudgeConfig)
    task_ids: list[str] | None = None
    concurrency: int = 2
    epochs: int = 1
    retry_failed: bool = False
    budget: Budget = field(default_factory=Budget)
    score_turns: bool = True
    on_done: object = None  # called with (TaskResult, done, total) after each task, e.g. a progress bar
    cache_dir: Path | None = None  # content-addressed cache of judgements and metric values (evals/cache.py)
    executor: str = "local"  # local | ray (evals/executors.py)
    address: str | None = None  # the Ray cluster to join; None starts a local instance

    @property
    def run_dir(self) -> Path:
        return self.runs_dir / self.run_id


def judge_servers(run_dir: Path, suite_root: Path, extra_roots: list[Path] = ()) -> dict:
    # The run folder holds artifacts, drafts and screenshots; the suite holds the checkpoints.
    """Stdio parameters of the browser and metrics servers the judge uses for a run."""
    allow = [a for r in [run_dir, suite_root, *extra_roots] for a in ("--allow", str(Path(r).resolve()))]
    return {"browser": stdio_server("browser", "--shots", str(run_dir / "shots")),
            "metrics": stdio_server("metrics", *allow)}


async def make_artifact(cfg: RunConfig, task: Task, out: Path, tools: Toolbox) -> tuple[dict, str]:
    """Run the coder; returns (coder record, entry page name)."""
    if cfg.agent == "oracle":
        rec = oracle(task.reference_site(), out)
        return rec, task.record.iwr.reference.page
    if cfg.agent == "blank":
        return blank(out), "index.html"
    if cfg.agent == "static":
        return await _static(task, out, tools), "index.html"
    if cfg.agent == "single-shot":
        if cfg.model is None:
            raise ValueError("single-shot needs --model")
        if task.assets_dir.is_dir():
            shutil.copytree(task.assets_dir, out / "assets", dirs_exist_ok=True)
        rec = await single_shot(task.video, task.asset_sheets(), task.size, out, cfg.model)
        return rec, "index.html"
    if cfg.agent == "iterative":
        if cfg.model is None:
            raise ValueError("iterative needs --model")
        from evals.iterative_run import iterative

        thread = f"{cfg.run_id}/{out.parent.name}"
        rec = await iterative(task, out, cfg.model, cfg.budget, thread, cfg.run_dir / "coder-checkpoints.db")
        return rec, "index.html"
    raise ValueError(f"unknown agent {cfg.agent!r}; choose one of {', '.join(AGENTS)}")


async def _static(task: Task, out: Path, tools: Toolbox) -> dict:
    """The no-model floor: the first frame's text (OCR through the metrics server) and the assets."""
    from tasks.frames import frame_at

    out.mkdir(parents=True, exist_ok=True)
    if task.assets_dir.is_dir():
        shutil.copytree(task.assets_dir, out / "assets", dirs_exist_ok=True)
    text = ""
    if task.video is not None:
        first = out.parent / "first_frame.png"
        frame_at(task.video, 0.0).save(first)
        text = (await tools.call("metrics", "ocr", image=str(first.resolve())))["text"]
    assets = sorted(p.name for p in (out / "assets").iterdir()) if (out / "assets").is_dir() else []
    (out / "index.html").write_text(static_page(text, assets, task.size), encoding="utf-8")
    return {"status": "ok", "usage": {}, "ocr_chars": len(text)}


async def run_task(cfg: RunConfig, task: Task, tools: Toolbox, tdir: Path | None = None) -> TaskResult:
    """Produce and judge one task; every failure becomes a recorded outcome, never an exception."""
    tdir = tdir or cfg.run_dir / task.id
    tdir.mkdir(parents=True, exist_ok=True)
    base = {"task_id": task.id, "agent": cfg.agent, "model": cfg.model.model if cfg.model else None,
            "profile": cfg.judge.profile}
    t0 = time.monotonic()
    try:
        coder, page = await make_artifact(cfg, task, tdir / "artifact", tools)
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
    t1 = time.monotonic()
    if coder["status"] == "model_failure":
        return TaskResult(**base, status="model_failure", error=coder.get("error"), coder=coder,
                          seconds={"coder": round(t1 - t0, 3)})
    if cfg.score_turns and coder.get("drafts"):
        coder["turn_scores"] = await score_drafts(task, tdir, coder["drafts"], tools, cfg.judge, base)
    r = await judge_artifact(task, tdir / "artifact" / page, tools, cfg.judge, base)
    r.coder = coder
    r.seconds["coder"] = round(t1 - t0, 3)
    return r


async def score_drafts(task: Task, tdir: Path, drafts: list, tools: Toolbox, config: JudgeConfig, base: dict) -> list:
    """Judge every intermediate page of an iterative run: the score-against-turn curve."""
    out = []
    for d in drafts:
        folder = tdir / "drafts-judged" / f"turn_{d['turn']:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(d["path"], folder / "index.html")
        if (tdir / "artifact" / "assets").is_dir():
            shutil.copytree(tdir / "artifact" / "assets", folder / "assets", dirs_exist_ok=True)
        r = await judge_artifact(task, folder / "index.html", tools, config.model_copy(update={"probes": False}), base)
        (folder / "judgement.json").write_text(r.model_dump_json(indent=2))
        first = next(iter(r.judge.get("checkpoints") or []), {})  # the draft as the judge first saw it
        out.append({"turn": d["turn"], "status": r.status, "ifs": r.ifs, "vfs": r.vfs, "final": r.final,
                    "tokens": d.get("tokens"), "cost_usd": d.get("cost_usd"), "shot": first.get("candidate")})
    return out


async def judge_artifact(task: Task, entry: Path, tools: Toolbox, config: JudgeConfig, base: dict,
                         timeout_s: float = JUDGE_TIMEOUT_S) -> TaskResult:
    """Judge one page file for one task and score it; an infrastructure fault or a judge that runs
    past `timeout_s` is recorded, not raised."""
    t0 = time.monotonic()
    if not entry.is_file():
        if config.paper_compat:  # the reference code drops such a task from the average
            return TaskResult(**base, status="skipped", error=f"no page at {entry.name} (dropped: paper-compat)")
        return TaskResult(**base, status="model_failure", error=f"no page at {entry.name}")
    record, cache = task.record.model_dump(mode="json", exclude_none=True), cache_of(tools)
    key = judgement_key(record, task.folder, entry, config) if cache else None
    try:
        j = await asyncio.wait_for(cached_judgement(cache, key, lambda: judge(
            tools, record, str(task.folder), str(entry.resolve()), config)), timeout_s)
    except InfrastructureError as e:
        return TaskResult(**base, status="infra_failure", error=str(e))
    except asyncio.TimeoutError:
        return TaskResult(**base, status="infra_failure", error=f"judge timed out after {timeout_s:g} s")
    except ToolCallError as e:  # the page hung before its first screenshot: nothing of it can be scored
        return TaskResult(**base, status="scored", error=f"the page stopped responding at load: {e}",
                          seconds={"judge": round(time.monotonic() - t0, 3)})
    if config.probes:
        # An exploration that failed (no venv yet, a timeout) must not be served from the cache later.
        pkey = key + ":probes" if key and config.explore_model is None else None
        j["probes"] = await cached_judgement(cache, pkey, lambda: run_probes(tools, task, entry, j, config), kind="probes")
    s = score_judgement(j)
    return TaskResult(**base, status="scored", **s.as_dict(), backends=j["backends"], judge=j,
                      seconds={"judge": round(time.monotonic() - t0, 3)})


async def run_probes(tools: Toolbox, task: Task, entry: Path, judgement: dict, config: JudgeConfig | None = None) -> dict:
    """The probes beyond the trajectory; a probe that breaks is reported, never a score change."""
    record = task.record.model_dump(mode="json", exclude_none=True)
    try:
        typed = await asyncio.wait_for(typed_text_probe(tools, record, str(task.folder), str(entry.resolve()),
                                                        judgement["successful_actions"]), JUDGE_TIMEOUT_S)
    except (ToolCallError, InfrastructureError, asyncio.TimeoutError) as e:  # e.g. the page navigated away
        typed = {"status": "error", "reason": str(e)[:300] or "timed out"}
    probes = {"typed_text": typed}
    if config is not None and config.explore_model is not None:
        probes["explore"] = await explore_probe(record, entry.resolve(), config.explore_model, task.size)
    return probes


def task_dir(cfg: RunConfig, task: Task, epoch: int) -> Path:
    """`runs/<run>/<task>/` for the first epoch, `runs/<run>/<task>.e<N>/` for later ones."""
    return cfg.run_dir / (task.id if epoch == 1 else f"{task.id}.e{epoch}")


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
    cfg.run_dir.mkdir(parents=True, exist_ok=True)
    run_json = {"run_id": cfg.run_id, "agent": cfg.agent, "suite": str(cfg.suite.root),
                "model": cfg.model.model_dump() if cfg.model else None, "judge": cfg.judge.model_dump(),
                "epochs": cfg.epochs, "concurrency": cfg.concurrency}
    (cfg.run_dir / "run.json").write_text(json.dumps(run_json, indent=2))
    store = Store(cfg.runs_dir / "iwr.db")
    store.add_run(cfg.run_id, cfg.agent, cfg.model.model if cfg.model else None, cfg.judge.profile,
                  str(cfg.suite.root), run_json)
    tasks = [t for t in cfg.suite.tasks if cfg.task_ids is None or t.id in cfg.task_ids]
    todo, results = _todo(cfg, tasks)
    for (_, epoch), r in results.items():  # a kill between result.json and its row would lose the row otherwise
        store.add_result(cfg.run_id, r, epoch)
    try:
        if todo and cfg.executor == "ray":
            from evals.executors import run_on_ray

            await run_on_ray(cfg, todo, results, store)
        elif todo:
            await _run_pending(cfg, todo, results, store)
    finally:
        store.close()
    order = {t.id: i for i, t in enumerate(tasks)}
    ordered = [results[k] for k in sorted(results, key=lambda k: (order.get(k[0], 0), k[1]))]
    entries = [{**r.summary(), "epoch": e} for (tid, e), r in sorted(results.items(), key=lambda kv: (order.get(kv[0][0], 0), kv[0][1]))]
    summary = {"run_id": cfg.run_id, "agent": cfg.agent, "tasks": entries, "mean": mean_scores(ordered)}
    (cfg.run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return ordered


async def _run_pending(cfg: RunConfig, todo: list[tuple[Task, int]], results: dict, store: Store) -> None:
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


def default_run_id(agent: str) -> str:
    return f"{agent}-{time.strftime('%Y%m%d-%H%M%S')}"



async def judge_folder(folder: Path, config: JudgeConfig | None = None) -> TaskResult:
    """Judge the `index.html` an outside agent left in a workspace made by `iwr prepare`."""
    from tasks.marker import read_marker

    task = read_marker(folder)
    config = config or JudgeConfig()
    shots = folder / ".iwr-judge"
    base = {"task_id": task.id, "agent": "external", "profile": config.profile}
    with open(folder / ".iwr-judge.log", "a") as errlog:
        async with Toolbox(judge_servers(shots, task.suite_root, extra_roots=[folder]), errlog=errlog) as tools:
            result = await judge_artifact(task, folder / "index.html", tools, config, base)
    (folder / "judgement.json").write_text(result.model_dump_json(indent=2))
    return result
