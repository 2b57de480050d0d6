"""`iwr bench`: where the judge's time goes, as ratios against what Chromium and the metrics need.

Every part runs in one invocation on the same tasks (reference sites of the bundled suite), each
phase with freshly started MCP servers so no phase inherits another's warm memo; the two sides of a
replay ratio are measured side by side (task by task, round by round), since this machine's speed
drifts between minutes by more than the differences measured:

- replay_vs_floor: the judge's replay per action (grounding, acting, settling, screenshot,
  assertion; no scoring) / the floor: the recorded selector clicked at the point the judge's one
  check gives, then one CDP capture, nothing else (bench_parts.direct_replay);
- replay_vs_pixel_floor: the same judge replay / the pixel floor: the floor plus what the pixel rule
  needs from Chromium (after an action whose checks name texts in view: their ink taken away, their
  region captured again); pixel_floor_vs_floor: that rule's own cost, the part of replay_vs_floor no
  judge that decides from pixels can save;
- replay_vs_playwright: the same judge replay / the floor through Playwright's defaults (a retried
  page.click, a PNG page.screenshot), the second reference;
- replay_vs_floor_hints_off: the judge's replay with hints off (the words alone) / the floor;
  grounding_shares: per grounding strategy, its share of that replay's action time;
- scoring_vs_full_ocr: seconds to score a checkpoint of a candidate that is not the reference
  (calibrate mutants and the restyled equivalent, replayed with hints off) on the judge's path with
  the references' results in the store / today's Tesseract program on both whole frames, same pairs
  (bench_scoring.py; by kind, the oracle's too, in scoring_vs_full_ocr_by_kind);
- max_metric_drift: the largest difference of a candidate's LVS or HVS between that path and the
  metrics as first written (the Tesseract program, skimage's SSIM), over those candidates;
- suite_vs_floor: the oracle run on the suite (`iwr run --agent oracle`, default concurrency),
  wall time per task / the floor's replay per task on the same tasks; the references' results are
  put in the judge's store first (a task's first run ever pays for them once: seconds.store_warmup);
- replay_vs_fixed_sleeps: the judge's whole replay / a replay with the reference's fixed sleeps;
- task_vs_max_parts: the judge's whole time per task / max(its replay, its scoring done alone), the
  whole judgement and its replay side by side (median of the repeats);
- mcp_vs_direct: a screenshot and a metric call through stdio MCP / the same work in process;
- cached_vs_first: judging an unchanged artifact again with the cache / the first time;
- speedup_by_concurrency: the tasks judged with 1, 2 and 4 in flight;
- metric_ms, rss_mb_per_context: time per metric per checkpoint, memory per browser context.
"""
from __future__ import annotations

import asyncio
import os
import tempfile
import time
from contextlib import asynccontextmanager
from pathlib import Path

import structlog

from iwr.agents.toolbox import Toolbox
from iwr.evals.quality import bench_parts as parts
from iwr.evals.quality import bench_scoring
from iwr.evals.quality.progress import Silent, Steps
from iwr.evals.judging.cache import with_cache
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.graphs.judge import JudgeConfig, judge
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.mcp_servers.metrics.compare import MetricModels
from iwr.mcp_servers.metrics.store import default_root
from iwr.tasks.loader import Suite, Task

log = structlog.get_logger()
LEVELS = (1, 2, 4)
PHASES = {"parts": "replays side by side", "hints_off": "candidates replayed", "direct": "memory and MCP overhead",
          "concurrency": "whole tasks by concurrency", "scoring": "the cache and scoring", "suite": "the oracle on the suite"}


def pick_tasks(suite: Suite, max_tasks: int) -> list[Task]:
    """Tasks with a reference site, spread evenly over the suite when only some are wanted."""
    tasks = [t for t in suite.tasks if t.reference_site() is not None]
    if max_tasks <= 0 or max_tasks >= len(tasks):
        return tasks
    step = len(tasks) / max_tasks
    return [tasks[int(i * step)] for i in range(max_tasks)]


def _ratio(a: float, b: float) -> float:
    return round(a / b, 4) if b > 0 else float("inf")


@asynccontextmanager
async def servers(work: Path, suite: Suite, name: str):
    """A fresh browser and metrics server pair for one phase, ready: the servers start Chromium and
    load the models in the background, which no phase's figures should count."""
    with open(work / f"servers-{name}.log", "a") as errlog:
        async with Toolbox(judge_servers(work / name, suite.root, extra_roots=[work]), errlog=errlog) as tools:
            await tools.call("metrics", "list_metrics")
            blank = await tools.call("browser", "open", target="about:blank")
            await tools.call("browser", "close", session=blank["session"])
            yield tools


async def _whole(tools, t: Task, config: JudgeConfig) -> dict:
    """A whole judgement of a task's reference (replay, pictures, scoring): its seconds."""
    t0 = time.monotonic()
    await judge(tools, parts.record_of(t), str(t.folder), str(parts.entry_of(t).resolve()), config)
    return {"seconds": time.monotonic() - t0}


async def _judge_all(tools, tasks: list[Task], config: JudgeConfig, concurrency: int) -> float:
    gate = asyncio.Semaphore(concurrency)

    async def one(t: Task) -> None:
        async with gate:
            await _whole(tools, t, config)

    t0 = time.monotonic()
    await asyncio.gather(*(one(t) for t in tasks))
    return time.monotonic() - t0


async def _side_by_side(ways: dict, tasks: list[Task], repeats: int) -> dict[str, list[dict]]:
    """Each task replayed `repeats` times each way, the ways one after another per task and round;
    per way and task, the run with the median seconds."""
    runs: dict[str, list[list[dict]]] = {w: [[] for _ in tasks] for w in ways}
    for _ in range(max(1, repeats)):
        for i, t in enumerate(tasks):
            for w, replay in ways.items():
                runs[w][i].append(await replay(t))
    return {w: [sorted(each, key=lambda r: r["seconds"])[len(each) // 2] for each in per_task]
            for w, per_task in runs.items()}


async def _suite_run(suite: Suite, work: Path, task_ids: list[str] | None) -> tuple[float, int]:
    """Wall seconds of the oracle on the suite (or on `task_ids`) at the default concurrency, and how many tasks."""
    from iwr.evals.api import arun

    t0 = time.monotonic()
    outcome = await arun("oracle", suite, task_ids=task_ids, runs_dir=work / "suite-runs", cache=False)
    bad = [r.task_id for r in outcome.results if r.status != "scored"]
    if bad:
        raise RuntimeError(f"the oracle run did not score tasks {bad}")
    return time.monotonic() - t0, len(outcome.results)


async def bench(suite: Suite, max_tasks: int = 4, work: Path | None = None, rounds: int = 6,
                levels: tuple[int, ...] = LEVELS, repeats: int = 3, suite_tasks: int = 0,
                candidate_tasks: int = 2, checkpoints: int = 0, progress: Steps | None = None) -> dict:
    """Measure every ratio on up to `max_tasks` tasks; returns the figures and the raw seconds.
    `progress` hears of each of its phases as it ends."""
    steps = progress or Silent()
    steps.expect(len(PHASES))
    work = Path(work or tempfile.mkdtemp(prefix="iwr-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    tasks = pick_tasks(suite, max_tasks)
    if not tasks:
        raise ValueError("no task with a reference site to bench on")
    config = JudgeConfig()
    metrics = parts.judge_metrics(config)
    started = time.monotonic()

    # 1. The judge's replays (hints on and off) and the floor's, side by side: each round replays every
    # task once each way, one right after the other, so a machine that slows down for a while (this
    # one's speed drifts by a fifth between minutes) slows both sides of a ratio alike. A server's first
    # task also pays for its imports and Chromium's first context, so one warm-up replay each goes
    # uncounted; per task and way, the run with the median seconds counts.
    off = config.model_copy(update={"hints": False})
    scoring, pairs, replayed = [], [], []
    async with BrowserHub(shots_root=work / "direct") as hub:
        async with servers(work, suite, "parts") as tools, servers(work, suite, "hints-off") as tools_off:
            ways = {"judge": lambda t: parts.judge_replay(tools, t, config),
                    "hintless": lambda t: parts.judge_replay(tools_off, t, off),
                    "floor": lambda t: parts.direct_replay(hub, t),
                    "pixel_floor": lambda t: parts.direct_replay(hub, t, pixels=True),
                    "playwright": lambda t: parts.direct_replay(hub, t, fastest=False)}
            for way in ways.values():
                await way(tasks[0])
            runs = await _side_by_side(ways, tasks, repeats)
            replays, hintless, floors, pixel_floors, playwright = (
                runs[k] for k in ("judge", "hintless", "floor", "pixel_floor", "playwright"))
            # The reference's fixed sleeps, once per task: its sleeps dwarf the machine's drift.
            fixed = [await parts.direct_replay(hub, t, parts.REFERENCE_SLEEPS, fastest=False) for t in tasks]
            for t, r in zip(tasks, replays):
                p = parts.checkpoint_pairs(t, r["shots"])
                scoring.append(await parts.score_pairs(tools, p, metrics))
                pairs.extend(p)
            log.info("bench.parts", seconds=round(time.monotonic() - started, 1))
            steps.step(PHASES["parts"])
            # Candidates that are not the reference, replayed as real data is (hints off).
            for t in tasks[:max(1, candidate_tasks)]:
                for kind, entry in bench_scoring.candidates(t, work / "candidates"):
                    r = await parts.judge_replay(tools_off, t, off, entry)
                    pairs_of = parts.checkpoint_pairs(t, r["shots"])
                    replayed.append((kind, pairs_of[:checkpoints] if checkpoints > 0 else pairs_of))
        log.info("bench.hints_off", seconds=round(time.monotonic() - started, 1))
        steps.step(PHASES["hints_off"])

        # 2. Memory per context.
        rss = await parts.memory_per_context(hub, tasks[:4], os.getpid())

        # 3. MCP against in process, on the same machine and pages.
        models = MetricModels()
        models.feature_model()
        async with servers(work, suite, "mcp") as tools:
            mcp = await parts.mcp_vs_direct(tools, hub, tasks[0], metrics, models, rounds)
    log.info("bench.direct", seconds=round(time.monotonic() - started, 1))
    steps.step(PHASES["direct"])

    # 4. Whole tasks at each concurrency. As for the replays above, one judgement first goes uncounted: a
    # server's first comparison and page pay once for what later ones find ready (the models' first
    # inference, the OCR engine, Chromium's fonts). The per-task overlap figure sets whole judgements
    # against their replays side by side, as in 1: measured minutes apart, the machine's drift decided it.
    totals, whole, bare_replays = {}, [], []
    for level in levels:
        async with servers(work, suite, f"c{level}") as tools:
            await _judge_all(tools, tasks[:1], config, 1)
            totals[level] = await _judge_all(tools, tasks, config, level)
            if level == 1:
                paired = await _side_by_side({"whole": lambda t: _whole(tools, t, config),
                                              "replay": lambda t: parts.judge_replay(tools, t, config)}, tasks, repeats)
                whole, bare_replays = [w["seconds"] for w in paired["whole"]], paired["replay"]
    log.info("bench.concurrency", seconds=round(time.monotonic() - started, 1))
    steps.step(PHASES["concurrency"])

    # 5. The cache: the same unchanged artifact judged twice.
    async with servers(work, suite, "cache") as raw:
        tools = with_cache(raw, work / "cache")
        t = tasks[0]
        base = {"task_id": t.id, "agent": "bench", "profile": config.profile}
        once = []
        for _ in range(2):
            t0 = time.monotonic()
            r = await judge_artifact(t, parts.entry_of(t), tools, config, base)
            once.append(time.monotonic() - t0)
        if r.status != "scored":
            raise RuntimeError(f"task {t.id} was not scored: {r.error}")

    # 6. Scoring on the candidates' screenshots.
    scoring_figures = bench_scoring.measure(replayed, list(config.lvs_metrics), config.hvs_metric,
                                            work / "store", models.feature_model())
    log.info("bench.scoring", seconds=round(time.monotonic() - started, 1))
    steps.step(PHASES["scoring"])
    # 7. The oracle on the suite, right after the floor on the same tasks (side by side, as above).
    everyone = [t for t in suite.tasks if t.reference_site() is not None]
    everyone = everyone[:suite_tasks] if suite_tasks > 0 else everyone
    async with BrowserHub(shots_root=work / "suite-floor") as hub:
        await parts.direct_replay(hub, everyone[0])
        suite_floor = [await parts.direct_replay(hub, t) for t in everyone]
    warm_s = await asyncio.to_thread(bench_scoring.warm_store, [r for t in everyone for r in t.checkpoints().files.values()],
                                     metrics, default_root(), models.feature_model())
    suite_s, suite_n = await _suite_run(suite, work, [t.id for t in everyone] if suite_tasks > 0 else None)
    log.info("bench.suite", seconds=round(time.monotonic() - started, 1))
    steps.step(PHASES["suite"])

    timing = parts.metric_ms(pairs[: max(2, rounds // 2)], metrics, models)
    per_action = lambda rs: sum(sum(r["actions"]) for r in rs) / max(1, sum(len(r["actions"]) for r in rs))  # noqa: E731
    replay_action, floor_action = per_action(replays), per_action(floors)
    floor_per_task = sum(f["seconds"] for f in suite_floor) / max(1, len(suite_floor))
    max_parts = sum(max(r["seconds"], s) for r, s in zip(bare_replays, scoring))
    first = totals[levels[0]]
    return {
        "replay_vs_floor": _ratio(replay_action, floor_action),
        "replay_vs_pixel_floor": _ratio(replay_action, per_action(pixel_floors)),
        "pixel_floor_vs_floor": _ratio(per_action(pixel_floors), floor_action),
        "replay_vs_playwright": _ratio(replay_action, per_action(playwright)),
        "replay_vs_floor_hints_off": _ratio(per_action(hintless), floor_action),
        "grounding_shares": parts.strategy_shares(hintless),
        **scoring_figures,
        "suite_vs_floor": _ratio(suite_s / max(1, suite_n), floor_per_task),
        "replay_vs_fixed_sleeps": _ratio(sum(r["seconds"] for r in replays), sum(f["seconds"] for f in fixed)),
        "task_vs_max_parts": _ratio(sum(whole), max_parts) if whole else None,
        "mcp_vs_direct": _ratio(mcp["mcp_s"], mcp["direct_s"]),
        "cached_vs_first": _ratio(once[1], once[0]),
        "speedup_by_concurrency": {str(k): _ratio(first, v) for k, v in totals.items()},
        "metric_ms": timing,
        "rss_mb_per_context": round(rss, 1),
        "tasks": [t.id for t in tasks],
        "seconds": {
            "replay_per_action": round(replay_action, 4), "floor_per_action": round(floor_action, 4),
            "pixel_floor_per_action": round(per_action(pixel_floors), 4),
            "playwright_per_action": round(per_action(playwright), 4),
            "hints_off_per_action": round(per_action(hintless), 4),
            "suite_total": round(suite_s, 3), "suite_tasks": suite_n, "store_warmup": round(warm_s, 3), "floor_per_task": round(floor_per_task, 4),
            "replay_total": round(sum(r["seconds"] for r in replays), 3),
            "fixed_sleeps_total": round(sum(f["seconds"] for f in fixed), 3),
            "scoring_total": round(sum(scoring), 3), "whole_total": round(sum(whole), 3),
            "max_parts_total": round(max_parts, 3), "mcp_round": round(mcp["mcp_s"], 4),
            "direct_round": round(mcp["direct_s"], 4), "first": round(once[0], 3), "cached": round(once[1], 4),
            "by_concurrency": {str(k): round(v, 3) for k, v in totals.items()},
            "bench": round(time.monotonic() - started, 1)},
        "captures": {"floor": sum(r["captures"] for r in floors), "pixel_floor": sum(r["captures"] for r in pixel_floors)},
        "actions": {"replayed": sum(len(r["actions"]) for r in replays),
                    "passed": sum(r["passed"] for r in replays), "total": sum(r["total"] for r in replays)},
        "checkpoints": len(pairs),
    }
