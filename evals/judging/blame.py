"""Whose fault a judging that broke down is: the page's or the harness's.

A crash, hang or memory exhaustion of the browser while a page is judged gets one retry, which tells
a harness that failed once from a page that breaks it. If the page breaks it again, the same harness
then judges a control page; when that works, the page was at fault: `model_failure`, Final 0, counted
in the mean like any other failure (a page cannot leave the mean by crashing at the action it would
fail). Only when the control page fails too is it the harness's fault: `infra_failure`, never averaged.
"""
from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

from iwr.agents.toolbox import InfrastructureError, Toolbox, ToolCallError
from iwr.evals.judging.artifact import judge_artifact
from iwr.evals.records.results import TaskResult
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import Task

CONTROL_PAGE = "<!doctype html><meta charset='utf-8'><title>control</title><p>A control page.</p><button>OK</button>"
CONTROL_TIMEOUT_S = 30.0


def broke_down(r: TaskResult) -> bool:
    """The page's renderer crashed or the judging ran out of time: the page or the harness may be to
    blame. A browser that closed under us (killed, or its own crash) is the harness's, as before: a page
    cannot take down more than its renderer."""
    error = r.error or ""
    renderer = error.startswith("browser.") and "crash" in error.lower() and "been closed" not in error
    return r.status == "infra_failure" and (renderer or "timed out" in error)


async def control_page_works(tools: Toolbox) -> bool:
    """Whether the harness still opens, clicks and shoots a plain page."""
    folder = Path(tempfile.mkdtemp(prefix="iwr-control-"))
    try:
        (folder / "index.html").write_text(CONTROL_PAGE)

        async def go() -> None:
            opened = await tools.call("browser", "open", target=str(folder / "index.html"), width=800, height=600)
            try:
                await tools.call("browser", "click", session=opened["session"], text="OK")
                await tools.call("browser", "screenshot", session=opened["session"])
            finally:
                await tools.call("browser", "close", session=opened["session"])

        await asyncio.wait_for(go(), CONTROL_TIMEOUT_S)
        return True
    except (InfrastructureError, ToolCallError, asyncio.TimeoutError):
        return False
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def judge_blaming(task: Task, entry: Path, tools: Toolbox, config: JudgeConfig, base: dict) -> TaskResult:
    """`judge_artifact`, with the one retry and the control page deciding who broke a broken judging."""
    r = await judge_artifact(task, entry, tools, config, base)
    if not broke_down(r):
        return r
    first = r.error
    r = await judge_artifact(task, entry, tools, config, base)
    if not broke_down(r):
        return r
    if await control_page_works(tools):
        return TaskResult(**base, status="model_failure",
                          error=f"the page broke the judging twice ({first}; then {r.error}); a control page was "
                                "judged fine right after, so the page is at fault")
    r.error = f"{r.error} (retried once after: {first}; a control page failed too: the harness is at fault)"
    return r
