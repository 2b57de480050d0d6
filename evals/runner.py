"""Run agents on tasks: produce each artifact, judge it, store `result.json`; resume by skipping done tasks."""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import structlog

from agents.baselines import NoReference, blank, oracle
from agents.models import ModelConfig, ModelUnavailable
from agents.toolbox import InfrastructureError, Toolbox, stdio_server
from evals.results import TaskResult, mean_scores
from evals.scoring import score_judgement
from graphs.judge import JudgeConfig, judge
from graphs.single_shot import single_shot
from tasks.loader import Suite, Task

AGENTS = ("oracle", "blank", "single-shot")
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

    @property
    def run_dir(self) -> Path:
        return self.runs_dir / self.run_id


def judge_servers(run_dir: Path, suite_root: Path, extra_roots: list[Path] = ()) -> dict:
    """Stdio parameters of the browser and metrics servers the judge uses for a run."""
    allow = [a for r in [run_dir, suite_root, *extra_roots] for a in ("--allow", str(Path(r).resolve()))]
    return {"browser": stdio_server("browser", "--shots", str(run_dir / "shots")),
            "metrics": stdio_server("metrics", *allow)}


async def make_artifact(cfg: RunConfig, task: Task, out: Path) -> tuple[dict, str]:
    """Run the coder; returns (coder record, entry page name)."""
    if cfg.agent == "oracle":
        rec = oracle(task.reference_site(), out)
        return rec, task.record.iwr.reference.page
    if cfg.agent == "blank":
        return blank(out), "index.html"
    if cfg.agent == "single-shot":
        if cfg.model is None:
            raise ValueError("single-shot needs --model")
        if task.assets_dir.is_dir():
            shutil.copytree(task.assets_dir, out / "assets", dirs_exist_ok=True)
        rec = await single_shot(task.video, task.asset_sheets(), task.size, out, cfg.model)
        return rec, "index.html"
    raise ValueError(f"unknown agent {cfg.agent!r}; choose one of {', '.join(AGENTS)}")


async def run_task(cfg: RunConfig, task: Task, tools: Toolbox) -> TaskResult:
    """Produce and judge one task; every failure becomes a recorded outcome, never an exception."""
    tdir = cfg.run_dir / task.id
    tdir.mkdir(parents=True, exist_ok=True)
    base = {"task_id": task.id, "agent": cfg.agent, "model": cfg.model.model if cfg.model else None,
            "profile": cfg.judge.profile}
    t0 = time.monotonic()
    try:
        coder, page = await make_artifact(cfg, task, tdir / "artifact")
    except NoReference as e:
        return TaskResult(**base, status="skipped", error=str(e))
    except ModelUnavailable as e:
        return TaskResult(**base, status="infra_failure", error=str(e))
    t1 = time.monotonic()
    if coder["status"] == "model_failure":
        return TaskResult(**base, status="model_failure", error=coder.get("error"), coder=coder,
                          seconds={"coder": round(t1 - t0, 3)})
    r = await judge_artifact(task, tdir / "artifact" / page, tools, cfg.judge, base)
    r.coder = coder
    r.seconds["coder"] = round(t1 - t0, 3)
    return r


async def judge_artifact(task: Task, entry: Path, tools: Toolbox, config: JudgeConfig, base: dict) -> TaskResult:
    """Judge one page file for one task and score it; an infrastructure fault is recorded, not raised."""
    t0 = time.monotonic()
    if not entry.is_file():
        return TaskResult(**base, status="model_failure", error=f"no page at {entry.name}")
    try:
        j = await judge(tools, task.record.model_dump(mode="json", exclude_none=True), str(task.folder),
                        str(entry.resolve()), config)
    except InfrastructureError as e:
        return TaskResult(**base, status="infra_failure", error=str(e))
    s = score_judgement(j)
    return TaskResult(**base, status="scored", **s.as_dict(), backends=j["backends"], judge=j,
                      seconds={"judge": round(time.monotonic() - t0, 3)})


async def run(cfg: RunConfig) -> list[TaskResult]:
    """Run every selected task; tasks with a result.json are read back, not redone."""
    cfg.run_dir.mkdir(parents=True, exist_ok=True)
    (cfg.run_dir / "run.json").write_text(json.dumps({
        "run_id": cfg.run_id, "agent": cfg.agent, "suite": str(cfg.suite.root),
        "model": cfg.model.model_dump() if cfg.model else None, "judge": cfg.judge.model_dump()}, indent=2))
    tasks = [t for t in cfg.suite.tasks if cfg.task_ids is None or t.id in cfg.task_ids]
    results: list[TaskResult] = []
    todo = []
    for t in tasks:
        f = cfg.run_dir / t.id / "result.json"
        if f.is_file():
            results.append(TaskResult.model_validate_json(f.read_text()))
        else:
            todo.append(t)
    if todo:
        errlog = open(cfg.run_dir / "servers.log", "a")
        try:
            async with Toolbox(judge_servers(cfg.run_dir, cfg.suite.root), errlog=errlog) as tools:
                for t in todo:
                    log.info("task.start", task=t.id, agent=cfg.agent)
                    r = await run_task(cfg, t, tools)
                    (cfg.run_dir / t.id / "result.json").write_text(r.model_dump_json(indent=2))
                    log.info("task.done", task=t.id, status=r.status, final=r.final)
                    results.append(r)
        finally:
            errlog.close()
    order = {t.id: i for i, t in enumerate(tasks)}
    results.sort(key=lambda r: order.get(r.task_id, 0))
    summary = {"run_id": cfg.run_id, "agent": cfg.agent, "tasks": [r.summary() for r in results],
               "mean": mean_scores(results)}
    (cfg.run_dir / "summary.json").write_text(json.dumps(summary, indent=2))
    return results


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
