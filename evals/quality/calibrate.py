"""`iwr calibrate`: judge each reference and its injected defects; report what the judge caught."""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import structlog

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.cache import with_cache
from iwr.evals.quality.calibrate_more import agreement, judge_equivalents, judge_real
from iwr.evals.quality.progress import Silent, Steps
from iwr.evals.quality.metric_drift import metric_drift
from iwr.evals.quality.mutants import FUNCTIONAL, KINDS, VISUAL, make_mutants
from iwr.evals.records.results import TaskResult
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import Suite

log = structlog.get_logger()
MARGIN = 0.005  # a drop smaller than this is noise, not a detection


def detected(kind: str, ref: TaskResult, m: TaskResult) -> bool:
    """Whether the right sub-score fell for this kind of defect."""
    if m.status != "scored":
        return False
    if kind in FUNCTIONAL:
        return m.ifs < ref.ifs - 1e-9
    if kind == "element_renamed":
        return m.final < ref.final - MARGIN
    if kind in VISUAL:
        return m.vfs < ref.vfs - MARGIN
    if kind == "blank":
        return m.ifs == 0 and m.final < ref.final - MARGIN
    if kind == "checkpoint_picture":
        return m.ifs <= 0.2 and "image_only" in m.judge.get("flags", [])
    raise ValueError(kind)


async def calibrate(suite: Suite, work: Path | None = None, max_tasks: int | None = None,
                    kinds: tuple[str, ...] = KINDS, concurrency: int = 2, cache_dir: Path | None = None,
                    hints: bool = True, real: Path | None = None, equivalents: bool = False,
                    drift: bool = False, progress: Steps | None = None) -> dict:
    """Judge references and mutants of up to `max_tasks` tasks with a reference site (with the judge
    cache in `cache_dir` when given: a mutant's screenshots that match the reference's are scored once).

    With `hints` off the judge reads only the words, and the hints it holds back measure it: how often
    its element is the hinted one, and its sentence verdict the structured one. `equivalents` also
    judges a rebuilt, restyled copy of each reference site (false negatives); `real` also judges the
    corpus of public apps there, originals and broken variants. `drift` rescored every judged page
    with the metrics as first written and reports the largest LVS/HVS difference (metric_drift.py).
    `progress` hears of each judgement as it is queued and as it ends."""
    steps = progress or Silent()
    work = Path(work or tempfile.mkdtemp(prefix="iwr-calibrate-"))
    work.mkdir(parents=True, exist_ok=True)
    tasks = [t for t in suite.tasks if t.reference_site() is not None][:max_tasks]
    config = JudgeConfig(probes=False, hints=hints)  # calibration measures the judge itself
    rows, per_task, judgements = [], [], []
    gate = asyncio.Semaphore(max(1, concurrency))

    async def judged(t, entry: Path, agent: str, root: Path | None = None) -> TaskResult:
        steps.expect(1)
        async with gate:
            base = {"task_id": t.id, "agent": agent, "profile": config.profile}
            result = await judge_artifact(t, entry, tools, config, base, root=root)
        judgements.append((agent, result))
        steps.step(f"task {t.id}: {agent}")
        return result

    async def one_task(t) -> None:
        mutants = make_mutants(t, work / t.id, kinds)
        ref, *outs = await asyncio.gather(
            judged(t, t.reference_site() / t.record.iwr.reference.page, "reference"),
            *(judged(t, m.folder / m.page, m.kind) for m in mutants))
        results = {m.kind: r for m, r in zip(mutants, outs)}
        for m, r in zip(mutants, outs):
            rows.append({"task_id": t.id, "kind": m.kind, "note": m.note, "ifs": r.ifs, "vfs": r.vfs,
                         "final": r.final, "status": r.status, "detected": detected(m.kind, ref, r)})
        blank = results.get("blank")
        per_task.append({"task_id": t.id, "reference_final": ref.final, "reference_ifs": ref.ifs,
                         "ranking_ok": all(blank is None or blank.final <= r.final + 1e-9 <= ref.final + 1e-9
                                           for r in results.values())})
        log.info("calibrate.task", task=t.id, reference=round(ref.final, 4),
                 detected=sum(r["detected"] for r in rows if r["task_id"] == t.id), mutants=len(mutants))

    extra: dict = {}
    with open(work / "servers.log", "a") as errlog:
        roots = [work] + ([real] if real else [])
        async with Toolbox(judge_servers(work, suite.root, extra_roots=roots), errlog=errlog) as raw_tools:
            tools = with_cache(raw_tools, cache_dir)
            await asyncio.gather(*(one_task(t) for t in tasks))
            if equivalents:
                extra.update(await judge_equivalents(tasks, work / "equivalents", judged))
            if real:
                extra.update(await judge_real(real, work / "real", judged))
    if drift:
        extra.update(await asyncio.to_thread(metric_drift, judgements))
    order = {t.id: i for i, t in enumerate(tasks)}
    rows.sort(key=lambda r: (order[r["task_id"]], KINDS.index(r["kind"])))
    per_task.sort(key=lambda p: order[p["task_id"]])
    by_kind = {}
    for k in kinds:
        ks = [r for r in rows if r["kind"] == k]
        by_kind[k] = {"mutants": len(ks), "detected": sum(r["detected"] for r in ks)}
    n = len(rows)
    found = sum(r["detected"] for r in rows)
    refs = [p["reference_ifs"] for p in per_task]
    return {"hints": hints, "oracle_final_min": min((p["reference_final"] for p in per_task), default=0.0),
            "oracle_ifs_mean": round(sum(refs) / len(refs), 4) if refs else 0.0, "oracle_ifs_min": min(refs, default=0.0),
            **agreement(judgements), **extra,
            "mutants": n, "detected": found, "detection_rate": round(found / n, 4) if n else 0.0,
            "by_kind": by_kind, "ranking_ok": sum(p["ranking_ok"] for p in per_task),
            "blank_vfs_max": max((r["vfs"] for r in rows if r["kind"] == "blank"), default=None), "tasks": per_task,
            "rows": rows, "work": str(work)}
