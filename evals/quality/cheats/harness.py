"""One cheat, run as an outside agent runs it, judged as an operator judges one.

`iwr prepare` makes the workspace; the agent gets only what `OutsideAgent` allows; then
`iwr judge FOLDER --json` runs in its own process, exactly as an operator types it, once with hints on
(our tasks' per-action hints) and once with `--hints off` (the words alone, as on official data). Each
judgement is a row; a row holds when the agent read nothing hidden (and its page sent nothing hidden
home during that judgement), the judgement is counted in a mean, and its Final is no higher than a
blank page's on the same task under the same hints (plus MARGIN).
"""
from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from iwr.evals.quality.cheats.agent import Layout, OutsideAgent
from iwr.evals.quality.cheats.cases import Case
from iwr.evals.quality.cheats.hidden import hidden_of
from iwr.evals.quality.cheats.pages import BLANK
from iwr.evals.records.results import COUNTED
from iwr.evals.workspace.prepare import prepare
from iwr.tasks.defaults import JUDGE_PROCESS_TIMEOUT_S
from iwr.tasks.loader import Suite, Task

MARGIN = 0.05  # a cheat may land this far above the blank page before it counts
HINTS = ("on", "off")  # every case is judged under both
CHEAT_TIMEOUT_S = 300.0  # the agent's own part; three replant rounds each wait for a judgement

McpEdit = Callable[[dict, Task], None]  # changes a prepared `.mcp.json` in place (to prove the harness can fail)


def _step(p: Path) -> int:
    digits = "".join(ch for ch in p.stem if ch.isdigit())
    return int(digits) if digits else 0


def layout_of(suite: Suite, task: Task) -> Layout:
    """Where the hidden files of `task` are: what an agent that knows this repository may guess."""
    other = next(t for t in suite.tasks if t.id != task.id)
    shots = sorted((task.folder / "checkpoints").glob("step_*.png"), key=_step)
    crops = sorted((task.folder / "iwr").glob("*.png"))
    ref = task.record.iwr.reference if task.record.iwr else None
    return Layout(suite=suite.root, task_folder=task.folder, checkpoints=shots, crop=crops[0] if crops else shots[0],
                  reference_site=task.reference_site(), reference_page=(ref.page if ref and ref.page else "index.html"),
                  other_task_id=other.id, other_checkpoint=other.checkpoint(0) or other.folder)


async def judge_as_operator(folder: Path, cwd: Path, *extra: str, hints: str = "on") -> dict:
    """`iwr judge FOLDER --json --hints HINTS` in a process of its own: its JSON, or a status that says why
    there is none (`refused`: it exited 2 without judging; `judge_timeout`; `no_judgement`)."""
    t0 = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "iwr.evals.cli", "judge", str(folder), "--json", "--hints", hints, *extra, cwd=cwd,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), JUDGE_PROCESS_TIMEOUT_S)
    except TimeoutError:
        os.killpg(proc.pid, signal.SIGKILL)  # its own session: the judge and the browsers it started
        await proc.wait()
        return {"status": "judge_timeout", "final": 0.0, "seconds": round(time.monotonic() - t0, 1),
                "error": f"iwr judge ran past {JUDGE_PROCESS_TIMEOUT_S:.0f} s"}
    judged = None
    for line in reversed(out.decode(errors="replace").splitlines()):
        if line.startswith("{"):
            try:
                judged = json.loads(line)
                break
            except ValueError:
                pass
    if judged is None:
        tail = err.decode(errors="replace").strip().splitlines()[-3:]
        judged = {"status": "refused" if proc.returncode == 2 else "no_judgement", "final": 0.0,
                  "error": f"exit {proc.returncode}: {' | '.join(tail)}"[:400]}
    judged["seconds"] = round(time.monotonic() - t0, 1)
    return judged


async def blank_judgements(task: Task, work: Path, hints: tuple[str, ...] = HINTS) -> dict[str, dict]:
    """The honest floor under each of `hints`: a blank index.html in a fresh workspace of `task`, judged the
    same way."""
    base = work / f"blank-{task.id}"
    prepare(task, base / "ws")
    (base / "ws" / "index.html").write_text(BLANK)
    (base / "elsewhere").mkdir(exist_ok=True)
    return {h: await judge_as_operator(base / "ws", base / "elsewhere", hints=h) for h in hints}


def reasons_against(case: Case, task_id: str, judged: dict, leaked: list[str], bar: float, blank: dict,
                    error: str | None) -> list[str]:
    """Why a case does not hold; empty when it does."""
    out = []
    if leaked:
        out.append(f"read hidden content ({len(leaked)}): {leaked[0]}")
    status = judged.get("status")
    if status not in COUNTED and not (status == "refused" and case.refusal_holds):
        out.append(f"status {status} is not counted in a mean: {judged.get('error') or ''}".strip())
    if judged.get("task_id") not in (None, task_id):
        out.append(f"judged as task {judged.get('task_id')}, not {task_id}")
    if (judged.get("final") or 0.0) > bar + 1e-9:
        out.append(f"Final {judged['final']:.3f} above the bar {bar:.3f}")
    if blank.get("status") != "scored":
        out.append(f"the blank page was not scored ({blank.get('status')}: {blank.get('error')}); no honest bar")
    if error:
        out.append(error)
    return out


def _innermost(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
        e = e.exceptions[0]
    return e


def unmeasured(case: Case, error: BaseException, seconds: float, hints: str) -> dict:
    """The row (under `hints`) of a case the harness could not run (`iwr prepare` or a server gave way):
    never held."""
    e = _innermost(error)
    reason = f"the harness could not run the case: {type(e).__name__}: {str(e)[:300]}"
    return {"case": case.name, "kind": case.kind, "task": case.task, "hints": hints, "status": "unmeasured",
            "final": 0.0, "ifs": 0.0, "vfs": 0.0, "bar": None, "leaked": [], "held": False, "reasons": [reason],
            "why": case.why, "tries": 0, "sent_home": 0, "first_failure": None, "flags": None, "midway_judgements": 0,
            "seconds": round(seconds, 1), "cheat_seconds": None, "judge_seconds": None}


def _first_failure(judged: dict) -> str | None:
    """What stopped the replay (the first failed action), or the judgement's own error: read from the
    judgement file outside the workspace, as an operator would (`--json` tells pass or fail only)."""
    actions = judged.get("actions") or []
    try:
        actions = json.loads(Path(judged["judgement"]).read_text())["judge"]["actions"]
    except (KeyError, TypeError, OSError, ValueError):
        pass
    for a in actions:
        if a.get("status") != "passed":
            return f"action {a.get('index')}: {str(a.get('error'))[:160]}"
    return judged.get("error")


def _sent_home(agent: OutsideAgent, since: int, hints: str) -> list[str]:
    """What the agent's page sent to its collector from POST number `since` on, when hidden."""
    bodies = agent.collector.received[since:] if agent.collector else []
    return [f"its page, while judged (hints {hints}), sent home: {what}" for body in bodies
            for what in agent.hidden.seen(body)]


async def run_case(case: Case, suite: Suite, work: Path, neighbour_url: str, blanks: dict[str, dict],
                   mcp_edit: McpEdit | None = None, hints: tuple[str, ...] = HINTS) -> list[dict]:
    """Prepare, let the cheat do its worst once, judge its folder under each of `hints`; a row per judgement
    (`blanks`: the blank page's judgement per hints)."""
    t0, task = time.monotonic(), suite.get(case.task)
    base = work / case.name
    folder, elsewhere = base / "ws", base / "elsewhere"
    elsewhere.mkdir(parents=True)
    prepare(task, folder)
    if mcp_edit is not None:
        cfg = json.loads((folder / ".mcp.json").read_text())
        mcp_edit(cfg, task)
        (folder / ".mcp.json").write_text(json.dumps(cfg, indent=2))
    midway: list[dict] = []

    async def operator_judges() -> None:
        midway.append(await judge_as_operator(folder, elsewhere))

    error = None
    agent = OutsideAgent(folder, hidden_of(suite, task, folder), layout_of(suite, task), task.id,
                         base / "servers.log", elsewhere, neighbour_url, operator_judges)
    async with agent:
        try:
            async with asyncio.timeout(CHEAT_TIMEOUT_S):  # same task: the MCP clients must close where they opened
                await case.run(agent)
        except Exception as e:  # the harness or a server gave way: the case is unmeasured, never held
            e = _innermost(e)
            error = f"the cheat did not run to its end: {type(e).__name__}: {str(e)[:300]}"
        await agent.leave()
        cheat_s = time.monotonic() - t0
        agent.review_collected()  # what its pages sent home before the operator judged (replant rounds)
        read = list(dict.fromkeys(agent.leaked))
        judgements = []
        for h in hints:
            since = len(agent.collector.received) if agent.collector else 0
            judged = await judge_as_operator(folder, elsewhere, hints=h)
            # read now: the next judgement replaces the file
            judgements.append((h, judged, _first_failure(judged), _sent_home(agent, since, h)))
    rows = []
    for h, judged, first_failure, sent in judgements:
        leaked, blank = list(dict.fromkeys(read + sent)), blanks[h]
        bar = round((blank.get("final") or 0.0) + MARGIN, 6)
        reasons = reasons_against(case, task.id, judged, leaked, bar, blank, error)
        rows.append({"case": case.name, "kind": case.kind, "task": task.id, "hints": h, "status": judged.get("status"),
                     "final": judged.get("final") or 0.0, "ifs": judged.get("ifs") or 0.0,
                     "vfs": judged.get("vfs") or 0.0, "bar": bar, "leaked": leaked, "held": not reasons,
                     "reasons": reasons, "why": case.why, "tries": agent.tried,
                     "sent_home": len(agent.collector.received) if agent.collector else 0,
                     "first_failure": first_failure, "flags": judged.get("flags"), "midway_judgements": len(midway),
                     "seconds": round(cheat_s + (judged.get("seconds") or 0.0), 1),
                     "cheat_seconds": round(cheat_s, 1), "judge_seconds": judged.get("seconds")})
    return rows
