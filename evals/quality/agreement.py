"""`iwr calibrate --agreement`: judge every labelled page of the agreement corpus (tasks/agreement)
and set the judge's verdicts beside the graders' (agreement_figures.py), per corpus and per kind of page."""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.evals.judging.cache import with_cache
from iwr.evals.quality.agreement_corpus import AGREEMENT, CORPORA, CorpusError, lay_out, load_labels, load_pages
from iwr.evals.quality.agreement_figures import by_kind, disagreements, figures
from iwr.evals.quality.progress import Silent, Steps
from iwr.evals.quality.real_corpus import materialise, real_tasks
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite


def _row(page, labels, task, result) -> dict:
    n = len(task.record.action_sequence)
    acts = {a["index"]: a for a in result.judge.get("actions", [])}
    statuses = [acts.get(i, {}).get("status", "not_reached") for i in range(1, n + 1)]
    marks = {lab.index: lab for lab in labels.labels}
    return {"page": page.id, "task": page.task, "corpus": page.corpus, "mode": page.mode, "final": result.final,
            "status": result.status, "statuses": statuses,
            "labels": [marks[i].label if i in marks else "unsure" for i in range(1, n + 1)],
            "errors": {i: a.get("error") for i, a in acts.items() if a.get("status") == "failed"},
            "reasons": {i: m.reason for i, m in marks.items()}}


def _materialised(corpus: Path) -> None:
    """A corpus of public apps has its apps' files and its tasks' assets (made from the fetch mirror once)."""
    if not (corpus / "originals.json").is_file():
        return
    try:
        real_tasks(corpus)
    except CorpusError:
        materialise(corpus)
        real_tasks(corpus)


async def judge_agreement(root: Path = AGREEMENT, work: Path | None = None, hints: tuple[bool, ...] = (True, False),
                          cache_dir: Path | None = None, concurrency: int = 2, progress: Steps | None = None,
                          only: tuple[str, ...] = ()) -> dict:
    """Judge each labelled page with each hints setting; the figures overall, per corpus and per mode,
    and every disagreement. `only` keeps the pages whose corpus, task id or page id it names. A corpus
    that is not here says so under `agreement_unavailable`."""
    steps = progress or Silent()
    try:
        pages, labels = load_pages(root), load_labels(root)
    except CorpusError as e:
        return {"agreement_unavailable": str(e)}
    pages = [p for p in pages if p.id in labels and (not only or {p.corpus, p.task, p.id} & set(only))]
    if not pages:
        return {"agreement_unavailable": f"no labelled page in {root}" + (f" among {', '.join(only)}" if only else "")}
    work = Path(work or tempfile.mkdtemp(prefix="iwr-agreement-"))
    work.mkdir(parents=True, exist_ok=True)
    used = sorted({p.corpus for p in pages})
    try:
        for name in used:
            _materialised(CORPORA[name])
    except CorpusError as e:
        return {"agreement_unavailable": str(e)}
    suites = {name: load_suite(CORPORA[name]) for name in used}
    gate = asyncio.Semaphore(max(1, concurrency))
    out: dict = {"corpus": str(root), "pages": len(pages)}
    with open(work / "servers.log", "a") as errlog:
        roots = [work, *(s.root for s in suites.values())]
        async with Toolbox(judge_servers(work, roots[1], extra_roots=roots), errlog=errlog) as raw:
            tools = with_cache(raw, cache_dir)
            for on in hints:
                config = JudgeConfig(probes=False, hints=on)

                async def one(page):
                    task = suites[page.corpus].get(page.task)
                    steps.expect(1)
                    async with gate:
                        try:
                            entry, top = lay_out(page, work / ("on" if on else "off"), root)
                        except CorpusError as e:
                            raise CorpusError(f"page {page.id}: {e}") from None
                        result = await judge_artifact(task, entry, tools, config,
                                                      {"task_id": task.id, "agent": f"agreement:{page.id}", "profile": config.profile},
                                                      root=top)
                    steps.step(f"page {page.id} (hints {'on' if on else 'off'})")
                    return _row(page, labels[page.id], task, result)

                rows = await asyncio.gather(*(one(p) for p in pages))
                out["hints_on" if on else "hints_off"] = {**figures(rows), "by_corpus": by_kind(rows, "corpus"),
                                                          "by_mode": by_kind(rows, "mode"),
                                                          "disagreements": disagreements(rows), "rows": rows}
    return out
