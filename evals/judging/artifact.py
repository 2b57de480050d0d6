"""Judge one artifact for one task: the judge's own copy of it (judged_copy.py), the judge graph on
that copy within a time limit, through the judgement cache, then the probes, then the scores; every
fault becomes a recorded outcome, never an exception."""
from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path

from iwr.agents.toolbox import InfrastructureError, Toolbox, ToolCallError, stdio_server
from iwr.evals.judging.cache import cache_of, cached_judgement, judgement_key
from iwr.evals.judging.explore import explore_probe
from iwr.evals.judging.judged_copy import RefusedArtifact, judged_copy
from iwr.evals.judging.scoring import score_judgement
from iwr.evals.judging.typed_text import typed_text_probe
from iwr.evals.records.results import TaskResult
from iwr.graphs.judge import JudgeConfig, judge
from iwr.tasks.checkpoints import InvalidTask
from iwr.tasks.defaults import JUDGE_TIMEOUT_S
from iwr.tasks.loader import Task


def judge_servers(run_dir: Path, suite_root: Path, extra_roots: list[Path] = ()) -> dict:
    """Stdio parameters of the browser and metrics servers the judge uses for a run."""
    # The run folder holds artifacts, drafts and screenshots; the suite holds the checkpoints.
    allow = [a for r in [run_dir, suite_root, *extra_roots] for a in ("--allow", str(Path(r).resolve()))]
    return {"browser": stdio_server("browser", "--shots", str(run_dir / "shots")),
            "metrics": stdio_server("metrics", *allow, "--keep-references")}


async def judge_artifact(task: Task, entry: Path, tools: Toolbox, config: JudgeConfig, base: dict,
                         timeout_s: float = JUDGE_TIMEOUT_S, root: Path | None = None) -> TaskResult:
    """Judge one page file for one task and score it, on a copy of its folder (of `root`, a folder above
    the page, when given: an app whose page sits in a subfolder) that the judge owns; a refused artifact,
    an infrastructure fault or a judge that runs past `timeout_s` is recorded, not raised."""
    t0, entry = time.monotonic(), Path(entry)
    if not entry.is_symlink() and not entry.is_file():  # a link is no missing page: it is refused below
        if config.paper_compat:  # the reference code drops such a task from the average
            return TaskResult(**base, status="skipped", error=f"no page at {entry.name} (dropped: paper-compat)")
        return TaskResult(**base, status="model_failure", error=f"no page at {entry.name}")
    # Everything from here on (the replay, the probes, the cache key) sees the copy only: every byte served
    # was copied, and nothing a link or a later change in the folder points to reaches the judge.
    folder = Path(tempfile.mkdtemp(prefix="iwr-judged-"))
    try:
        try:
            page = judged_copy(entry, folder, task.folder, root)
        except RefusedArtifact as e:
            return TaskResult(**base, status="model_failure", error=f"the judge refused the artifact: {e.reason}")
        except OSError as e:
            return TaskResult(**base, status="infra_failure", error=f"the judge could not copy the artifact: {e}")
        return await _judge_copy(task, page, tools, config, base, timeout_s, t0, folder if root is not None else None)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _judge_copy(task: Task, entry: Path, tools: Toolbox, config: JudgeConfig, base: dict, timeout_s: float,
                      t0: float, root: Path | None = None) -> TaskResult:
    record, cache = task.record.model_dump(mode="json", exclude_none=True), cache_of(tools)
    key = judgement_key(record, task.folder, entry, config, root) if cache else None
    kept: dict = {}  # the judged page, left open for the typed-text probe to load again (graphs/judge.py)
    try:
        try:
            j = await asyncio.wait_for(cached_judgement(cache, key, lambda: judge(
                tools, record, str(task.folder), str(entry.resolve()), config, keep=kept if config.probes else None,
                root=str(root.resolve()) if root is not None else None)),
                timeout_s)
        except InvalidTask as e:  # the task's data, not the page: reported, never a 0 for the page
            return TaskResult(**base, status="invalid_task", error=str(e))
        except InfrastructureError as e:
            return TaskResult(**base, status="infra_failure", error=str(e))
        except asyncio.TimeoutError:
            return TaskResult(**base, status="infra_failure", error=f"judge timed out after {timeout_s:g} s")
        except ToolCallError as e:
            if not str(e).startswith("browser."):  # a metric that failed is the harness's, never the page's 0
                return TaskResult(**base, status="infra_failure", error=str(e))
            # the page hung before its first screenshot: nothing of it can be scored
            return TaskResult(**base, status="scored", error=f"the page stopped responding at load: {e}",
                              seconds={"judge": round(time.monotonic() - t0, 3)})
        if config.probes:
            # An exploration that failed (no venv yet, a timeout) must not be served from the cache later.
            pkey = key + ":probes" if key and config.explore_model is None else None
            j["probes"] = await cached_judgement(cache, pkey, lambda: run_probes(
                tools, task, entry, j, config, reuse=kept.get("session")), kind="probes")
    finally:  # closed whether the probe took it over (and closed it: a second close does nothing) or not
        if "session" in kept:
            await asyncio.gather(tools.call("browser", "close", session=kept["session"]), return_exceptions=True)
    s = score_judgement(j)
    return TaskResult(**base, status="scored", **s.as_dict(), backends=j["backends"], judge=j,
                      seconds={"judge": round(time.monotonic() - t0, 3)})


async def score_drafts(task: Task, tdir: Path, drafts: list, tools: Toolbox, config: JudgeConfig, base: dict) -> list:
    """Judge every intermediate page of an iterative run: the score-against-turn curve."""
    out = []
    for d in drafts:
        folder = tdir / "drafts-judged" / f"turn_{d['turn']:02d}"
        folder.mkdir(parents=True, exist_ok=True)
        # Links stay links, so that the judge refuses them here as it does in the artifact.
        shutil.copy(d["path"], folder / "index.html", follow_symlinks=False)
        if (tdir / "artifact" / "assets").is_dir():
            shutil.copytree(tdir / "artifact" / "assets", folder / "assets", symlinks=True, dirs_exist_ok=True)
        r = await judge_artifact(task, folder / "index.html", tools, config.model_copy(update={"probes": False}), base)
        (folder / "judgement.json").write_text(r.stamped().model_dump_json(indent=2))
        first = next(iter(r.judge.get("checkpoints") or []), {})  # the draft as the judge first saw it
        out.append({"turn": d["turn"], "status": r.status, "ifs": r.ifs, "vfs": r.vfs, "final": r.final,
                    "tokens": d.get("tokens"), "cost_usd": d.get("cost_usd"), "shot": first.get("candidate")})
    return out


async def run_probes(tools: Toolbox, task: Task, entry: Path, judgement: dict, config: JudgeConfig | None = None,
                     reuse: str | None = None) -> dict:
    """The probes beyond the trajectory; a probe that breaks is reported, never a score change. `reuse`,
    the judged replay's session, is the typed-text probe's to load again and close."""
    record = task.record.model_dump(mode="json", exclude_none=True)
    try:
        typed = await asyncio.wait_for(typed_text_probe(tools, record, str(task.folder), str(entry.resolve()),
                                                        judgement["successful_actions"], reuse), JUDGE_TIMEOUT_S)
    except (ToolCallError, InfrastructureError, asyncio.TimeoutError) as e:  # e.g. the page navigated away
        typed = {"status": "error", "reason": str(e)[:300] or "timed out"}
    probes = {"typed_text": typed}
    if config is not None and config.explore_model is not None:
        probes["explore"] = await explore_probe(record, entry.resolve(), config.explore_model, task.size)
    return probes
