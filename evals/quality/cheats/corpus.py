"""`iwr selftest cheats`: run every cheat (or some), judge each with hints on and off, and sum up which
judgements held and which leaked.

Everything a run makes (workspaces, the judge's register and judgements) lives in one temporary
folder, removed afterwards; the judge's state folder is pointed there for the run
(IWR_STATE_DIR), so the operator's own is never touched.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from iwr.evals.quality.cheats.agent import LoopbackServer
from iwr.evals.quality.cheats.cases import select
from iwr.evals.quality.cheats.harness import HINTS, McpEdit, blank_judgements, run_case, unmeasured
from iwr.tasks.defaults import BUNDLED_SUITE
from iwr.tasks.loader import load_suite
from iwr.tasks.marker import STATE_ENV


async def run_cheats(names: list[str] | None = None, on_row: Callable[[dict], None] | None = None,
                     mcp_edit: McpEdit | None = None, hints: tuple[str, ...] = HINTS, lanes: int = 1) -> dict:
    """Run the corpus (or the `names` cases), each judged under every one of `hints`: {"cases" (distinct
    cases), "judged" (rows: a case under one hints setting), "held" and "leaks" (rows), "blank_final"
    (task -> hints -> the blank page's Final), "seconds", "rows"}, rows in the cases' order.

    `mcp_edit` changes each prepared `.mcp.json` before the agent starts its servers: a way to put
    a known hole back and see the corpus catch it. `lanes` cases run at once (each in its own
    workspace, with its own servers and judge processes; a task's blank page is judged once for all).
    ValueError for an unknown case name.
    """
    cases = select(names)
    suite = load_suite(BUNDLED_SUITE)
    work = Path(tempfile.mkdtemp(prefix="iwr-cheats-")).resolve()
    saved_state = os.environ.get(STATE_ENV)
    os.environ[STATE_ENV] = str(work / "state")
    # Someone else's loopback server on this machine (a developer's `python -m http.server` in the
    # suite): a browser that lets a page or an agent reach any loopback port reaches this too.
    neighbour = LoopbackServer(suite.root)
    blank_runs: dict[str, asyncio.Future] = {}
    gate = asyncio.Semaphore(max(1, lanes))
    start = time.monotonic()

    def blanks_of(task_id: str) -> asyncio.Future:
        if task_id not in blank_runs:
            blank_runs[task_id] = asyncio.ensure_future(blank_judgements(suite.get(task_id), work, hints))
        return blank_runs[task_id]

    async def one(case) -> list[dict]:
        async with gate:
            t0 = time.monotonic()
            try:
                got = await run_case(case, suite, work, neighbour.url, await blanks_of(case.task), mcp_edit, hints)
            except Exception as e:  # a core file changing under the run, say: reported, never a hold
                got = [unmeasured(case, e, time.monotonic() - t0, h) for h in hints]
            for row in got:
                if on_row:
                    on_row(row)
            return got

    try:
        rows = [row for got in await asyncio.gather(*(one(c) for c in cases)) for row in got]
    finally:
        neighbour.close()
        if saved_state is None:
            os.environ.pop(STATE_ENV, None)
        else:
            os.environ[STATE_ENV] = saved_state
        shutil.rmtree(work, ignore_errors=True)
    blanks = {t: f.result() for t, f in blank_runs.items() if f.done() and not f.cancelled() and not f.exception()}
    held = sum(r["held"] for r in rows)
    return {"cases": len({r["case"] for r in rows}), "judged": len(rows), "held": held, "leaks": len(rows) - held,
            "blank_final": {t: {h: j.get("final") for h, j in by.items()} for t, by in blanks.items()},
            "seconds": round(time.monotonic() - start, 1), "rows": rows}
