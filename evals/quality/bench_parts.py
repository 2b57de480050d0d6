"""The measurements `iwr bench` puts side by side, each a plain function over real parts.

The floor replays the recorded target selectors with the primitives the judge itself uses (one
checked click point, a CDP capture) and nothing else: no grounding, settling or assertion. The pixel
floor adds what the pixel rule (ink.py) needs from Chromium and nothing else: after an action whose
checks name texts in view, their ink taken away and their region captured again. The same replay
through Playwright's default calls (a retried `page.click`, a PNG `page.screenshot`) is the second
reference, and with the reference implementation's sleeps, the third.
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

from iwr.agents.toolbox import Toolbox
from iwr.graphs.act_offline import scroll_amount
from iwr.graphs.judge import JudgeConfig, judge
from iwr.mcp_servers.browser import actions, ink, inspector, veil, world
from iwr.mcp_servers.browser.capture import _capture as cdp_capture
from iwr.mcp_servers.browser.hub import BrowserHub
from iwr.mcp_servers.browser.page_scripts import RUN_CHECKS
from iwr.mcp_servers.browser.procs import descendants
from iwr.mcp_servers.metrics.compare import MetricModels, compare
from iwr.tasks.loader import Task
from iwr.tasks.schema import size_of

# The reference implementation's sleeps (seconds): after loading, after an action, after a scroll.
REFERENCE_SLEEPS = {"load": 1.0, "action": 0.5, "Scroll": 1.0}


def record_of(task: Task) -> dict:
    return task.record.model_dump(mode="json", exclude_none=True)


def entry_of(task: Task) -> Path:
    return task.reference_site() / task.record.iwr.reference.page


def judge_metrics(config: JudgeConfig) -> list[str]:
    return sorted(set(config.lvs_metrics) | {config.hvs_metric})


async def _direct_action(page, action: dict, height: int, session=None) -> None:
    """One recorded action with plain calls: no grounding, no settling. With `session`, a click lands
    where the judge's one check puts it; without, Playwright's `page.click` finds the point."""
    kind, params = action["type"], action["parameters"]
    selector = ((action.get("iwr") or {}).get("target") or {}).get("selector")
    if kind in ("Click", "Type"):
        if session is not None:
            at = await actions._click_point(session, {"selector": selector}, "click")
            await page.mouse.click(at["x"], at["y"])
        else:
            await page.click(selector)
        if kind == "Type" and session is not None:
            await actions.type_now(session, params.get("text") or "")
        elif kind == "Type":
            await page.keyboard.type(params.get("text") or "")
    elif kind == "Press":
        await page.keyboard.press(params["key"])
    else:
        amount = scroll_amount(params, height) * (-1 if params.get("direction") == "up" else 1)
        vp = page.viewport_size
        await page.mouse.move(vp["width"] / 2, vp["height"] / 2)
        await page.mouse.wheel(0, amount)


async def _shot_and_ink(s, checks: list[dict]) -> int:
    """A capture, and the pixel rule's own work after it: the checked texts in view listed while the
    capture runs (as the judge does), then their ink taken away, their region captured, the sheet lifted; how many captures that took."""
    listed = asyncio.ensure_future(world.call(s, RUN_CHECKS, checks))
    await cdp_capture(s)
    *results, where = await listed
    items = [c for r in results for c in (r.get("ink") or [])]
    if not items:
        return 1
    box, _, sheets = ink.veils(items)
    try:
        for sheet in sheets:
            await inspector.lay(s, sheet)
            await veil.capture(s, box, tuple(where["scroll"]))
    finally:
        await inspector.lift(s)
    return 1 + len(sheets)


async def direct_replay(hub: BrowserHub, task: Task, sleeps: dict | None = None, fastest: bool = True,
                        pixels: bool = False) -> dict:
    """Replay a task's actions directly, one screenshot after each: with the judge's primitives when
    `fastest`, else Playwright's defaults; with `sleeps`, sleeping as the reference does; with `pixels`,
    doing what the pixel rule needs too (the pixel floor). Returns the per-action seconds and the whole
    replay's seconds, and how many captures it took."""
    width, height = size_of(record_of(task))
    t0 = time.monotonic()
    s = await hub.open(str(entry_of(task)), width, height)

    async def shoot(checks: list[dict] | None = None) -> int:
        if not fastest:
            await s.page.screenshot(animations="disabled", caret="hide")
        elif pixels and any(c["kind"] in ("text_visible", "text_absent") for c in checks or []):
            return await _shot_and_ink(s, checks)
        else:
            await cdp_capture(s)
        return 1

    try:
        if sleeps:
            await asyncio.sleep(sleeps["load"])
        captures = await shoot()
        per_action = []
        for action in record_of(task)["action_sequence"]:
            a0 = time.monotonic()
            await _direct_action(s.page, action, height, s if fastest else None)
            if sleeps:
                await asyncio.sleep(sleeps.get(action["type"], sleeps["action"]))
            captures += await shoot((action.get("iwr") or {}).get("checks"))
            per_action.append(time.monotonic() - a0)
    finally:
        await hub.close(s.id)
    return {"actions": per_action, "seconds": time.monotonic() - t0, "captures": captures}


async def judge_replay(tools: Toolbox, task: Task, config: JudgeConfig, entry: Path | None = None) -> dict:
    """The judge's replay of a page (the reference by default) without scoring: per-action seconds
    (grounding, acting, settling, screenshot, assertion) and each action's grounding strategy, the
    whole replay's seconds and the screenshots per step."""
    t0 = time.monotonic()
    j = await judge(tools, record_of(task), str(task.folder), str((entry or entry_of(task)).resolve()),
                    config.model_copy(update={"visual": False}))
    seconds = time.monotonic() - t0
    done = [a for a in j["actions"] if a.get("screenshot")]
    shots = {a["index"]: a["screenshot"] for a in done}
    if done:
        shots[0] = str(Path(done[0]["screenshot"]).parent / "step_0.png")
    strategies = [((a.get("grounding") or {}).get("strategy") or a["type"].lower(), a["seconds"])
                  for a in j["actions"] if "seconds" in a]
    return {"actions": [a["seconds"] for a in j["actions"] if "seconds" in a], "seconds": seconds, "shots": shots,
            "passed": j["successful_actions"], "total": j["total_actions"], "strategies": strategies}


def strategy_shares(replays: list[dict]) -> dict:
    """Each grounding strategy's share of the replays' action time, and how many actions used it."""
    time_of: dict[str, float] = {}
    count: dict[str, int] = {}
    for r in replays:
        for how, seconds in r["strategies"]:
            time_of[how] = time_of.get(how, 0.0) + seconds
            count[how] = count.get(how, 0) + 1
    total = sum(time_of.values()) or 1.0
    return {how: {"share": round(t / total, 4), "actions": count[how]} for how, t in sorted(time_of.items())}


def checkpoint_pairs(task: Task, shots: dict) -> list[tuple[str, str]]:
    """(reference, candidate) for every checkpoint the judge scores, from a replay's screenshots."""
    return [(str(path), shots[k]) for k, path in task.checkpoints().files.items() if k in shots]


async def score_pairs(tools: Toolbox, pairs: list[tuple[str, str]], metrics: list[str]) -> float:
    """Seconds to score checkpoints one after another through the metrics server."""
    t0 = time.monotonic()
    for ref, cand in pairs:
        await tools.call("metrics", "compare", reference=ref, candidate=cand, metrics=metrics)
    return time.monotonic() - t0


def metric_ms(pairs: list[tuple[str, str]], metrics: list[str], models: MetricModels) -> dict:
    """Milliseconds per metric per checkpoint, each metric alone and with nothing remembered."""
    out = {}
    for m in metrics:
        fresh = MetricModels(feature=models.feature_model(), memo_size=0)
        t0 = time.monotonic()
        for ref, cand in pairs:
            compare(ref, cand, [m], fresh)
        out[m] = round(1000 * (time.monotonic() - t0) / max(1, len(pairs)), 1)
    return out


async def mcp_vs_direct(tools: Toolbox, hub: BrowserHub, task: Task, metrics: list[str], models: MetricModels,
                        rounds: int = 8) -> dict:
    """A screenshot plus a metric call through the MCP servers, against the same work in process."""
    width, height = size_of(record_of(task))
    ref = str(task.checkpoint(0))
    opened = await tools.call("browser", "open", target=str(entry_of(task).resolve()), width=width, height=height)
    s = await hub.open(str(entry_of(task)), width, height)
    via_mcp = direct = 0.0
    try:
        for i in range(rounds + 1):  # the first round warms both up and is not counted
            t0 = time.monotonic()
            shot = await tools.call("browser", "screenshot", session=opened["session"], name=f"bench_{i}")
            await tools.call("metrics", "compare", reference=ref, candidate=shot["path"], metrics=metrics)
            t1 = time.monotonic()
            await actions.settle(s)
            path = await actions.screenshot(s, f"bench_{i}")
            compare(ref, path, metrics, models)
            t2 = time.monotonic()
            if i:
                via_mcp, direct = via_mcp + t1 - t0, direct + t2 - t1
    finally:
        await tools.call("browser", "close", session=opened["session"])
        await hub.close(s.id)
    return {"mcp_s": via_mcp / rounds, "direct_s": direct / rounds}


def browser_mb(pid: int) -> float:
    """Proportional memory (PSS, so shared pages count once) of the Chromium processes under `pid`."""
    kb = 0
    for p in descendants(pid):
        try:
            if "chrom" not in Path(f"/proc/{p}/comm").read_text():
                continue
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    kb += int(line.split()[1])
        except OSError:
            continue
    return kb / 1024


async def _steady_mb(pid: int, tolerance_mb: float = 2.0, max_s: float = 3.0) -> float:
    """Browser memory once it stopped falling (a closed context's renderer exits a little later)."""
    last, deadline = browser_mb(pid), time.monotonic() + max_s
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        now = browser_mb(pid)
        if abs(now - last) <= tolerance_mb:
            return now
        last = now
    return last


async def memory_per_context(hub: BrowserHub, tasks: list[Task], pid: int) -> float:
    """Peak extra browser memory per open context (MB), each context replaying its task."""
    await hub.closed()  # earlier contexts' memory is not this baseline's
    base = await _steady_mb(pid)
    sessions, peak = [], base
    try:
        for t in tasks:
            width, height = size_of(record_of(t))
            sessions.append((t, await hub.open(str(entry_of(t)), width, height)))
        for t, s in sessions:
            for action in record_of(t)["action_sequence"][:4]:
                await _direct_action(s.page, action, s.page.viewport_size["height"])
                await s.page.screenshot()
                peak = max(peak, browser_mb(pid))
    finally:
        for _, s in sessions:
            await hub.close(s.id)
    return (peak - base) / max(1, len(sessions))
