"""The judge as a LangGraph state machine: open -> act* -> score.

How each action is grounded and checked, and which metrics score the checkpoints, is the judge
profile's (graphs/profiles.py: offline, paper, hybrid, and any registered later). It reaches the
browser and the metrics only through MCP (the `Toolbox` in the runtime context). State is JSON
data; the browser appears in it as a session id.
"""
from __future__ import annotations

import asyncio
import functools
import operator
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from iwr.agents.toolbox import Toolbox, ToolCallError
from iwr.graphs.act_offline import attempt, scroll
from iwr.graphs.judge_config import JudgeConfig
from iwr.graphs.hinted import candidate_checks, judged_form
from iwr.graphs.look_again import looked_again
from iwr.graphs.judge_llm import JudgeModelError, LlmJudge
from iwr.graphs.pictures import DRAWN_SHARE, PICTURE_SHARE, Likeness, asset_digests, asset_paths, bare_sheet, \
    recorded_boxes, share, sort_rasters
from iwr.graphs.profiles import LLM_METRIC
from iwr.graphs.recorded_effects import effects_made, recorded_readings
from iwr.graphs.replay_memory import ReplayMemory
from iwr.graphs.sentence_names import task_names
from iwr.graphs.shot_after import shooting_after
from iwr.graphs.visible_change import unverifiable
from iwr.mcp_servers.browser.canvas_feeds import DIGEST
from iwr.tasks import defaults
from iwr.tasks.checkpoints import check_usable, checkpoint_plan, judged_steps
from iwr.tasks.frames import sample_frames
from iwr.tasks.loader import video_in
from iwr.tasks.schema import size_of


@dataclass
class JudgeContext:
    """Run-scoped handles: never part of the state."""

    tools: Toolbox
    config: JudgeConfig
    llm: LlmJudge | None = None
    task_folder: str = ""
    artifact: str = ""  # the judged page (or its folder)
    # Called with the session once the page is open, before the first action; a task it returns
    # replaces the one replayed (a probe that sets its checks by what the page showed at first).
    on_open: Callable[[str], Awaitable[dict | None]] | None = None
    session: str | None = None
    reuse: str | None = None  # a session showing this page, loaded again instead of a new one (see open_page)
    keep: bool = False  # the page stays open after scoring, for the caller to reuse
    # Checkpoint scoring started while the replay goes on (step -> running compare call).
    pending: dict = field(default_factory=dict)

    refs: dict = field(default_factory=dict)  # step -> the checkpoint it is compared with
    hidden: dict = field(default_factory=dict)  # the current action's hints held back (hints off): selector, checks
    before_view: dict | None = None  # what the page showed before the current action (for its assertion)
    before_image: str | None = None  # and how it looked without its pictures, where the sentence decides nothing
    checked: tuple = ()  # (checks, results): the current action's checks, decided with its screenshot
    memory: ReplayMemory = field(default_factory=ReplayMemory)  # what the replay has seen and done (replay_memory.py)
    assets: set | None = None  # content hashes of the task's assets (pictures.py)
    served_assets: list | None = None  # where the page's server serves files that are assets
    pictures: dict = field(default_factory=dict)  # step -> the share of its checkpoint that is pictures (pictures.py)
    scored: dict = field(default_factory=dict)  # step -> its bare capture, where pictures were taken away
    likeness: Likeness | None = None  # the recording's frames and the checkpoints, once per task
    step: int = 0  # the 1-based index of the action being judged
    scrolled: bool = False  # the action being judged moved the page under the viewport (what is seen moved)
    recorded: dict = field(default_factory=dict)  # step -> what the recording shows changing (recorded_change.py)
    names: tuple = ()  # what the task types and quotes: its sentences may name these unquoted (sentence_names.py)

    def artifact_root(self) -> Path:
        """The folder the judged page is served from."""
        a = Path(self.artifact)
        return (a if a.is_dir() else a.parent).resolve()

    def asset_set(self) -> set[str]:
        """Content hashes of the task's assets, read once."""
        if self.assets is None:
            self.assets = asset_digests(self.task_folder)
        return self.assets

    def served(self) -> list[str]:
        """The task's assets as the page scripts know them, found once: where the page's server serves
        them (/assets/1.png) and their digests (sha256:<hex>, for those shown from memory)."""
        if self.served_assets is None:
            paths = asset_paths(self.artifact_root(), self.asset_set()) if self.artifact else []
            self.served_assets = paths + sorted(DIGEST + d for d in self.asset_set())
        return self.served_assets

    def listing(self, checkpoint: bool) -> dict:
        """What a screenshot asks for besides the picture: for a checkpoint scored without its pictures,
        the page's raster sources as the shot shows them (read while the capture waits for its frame)."""
        return {"rasters": self.served()} if checkpoint and self.config.visual and not self.config.paper_compat else {}

    async def bare_of(self, sid: str, step: int, shot: dict) -> str:
        """The capture a checkpoint is scored on: the screenshot (the screenshot tool's answer) with the
        pictures of the page taken away (pictures.py), or the screenshot itself when it shows none; its
        picture share is kept per step."""
        if not self.config.visual or self.config.paper_compat:
            return shot["path"]
        path, self.pictures[step] = await self.without_pictures(sid, shot["path"], f"{Path(shot['path']).stem}_bare",
                                                                shot.get("rasters"))
        if path != shot["path"]:
            self.scored[step] = path
        return path

    async def without_pictures(self, sid: str, shot: str, name: str, seen: dict | None = None) -> tuple[str, float]:
        """What the page shows now without its pictures, saved as `name`, and the share they took; `shot`
        (a screenshot of the page as it is) and 0 when it shows none. `seen`: its raster listing, if known."""
        sheet = await self.picture_sheet(sid, shot, seen)
        if not sheet:
            return shot, 0.0
        got = await self.tools.call("browser", "bare", session=sid, css=sheet, name=name)
        return got["path"], got["share"]

    async def picture_sheet(self, sid: str, shot: str | None, seen: dict | None = None) -> str:
        """The style sheet that takes the page's pictures away now (empty when it shows none); `seen`, the
        page's raster listing when the screenshot brought it."""
        seen = seen or await self.tools.call("browser", "rasters", session=sid, assets=self.served())
        sorted_ = sort_rasters(seen, self.artifact_root(), self.asset_set())
        recorded = []
        if shot and share(sorted_["drawn"], sorted_["viewport"]) >= DRAWN_SHARE:
            if self.likeness is None:
                folder = Path(self.task_folder)
                video = video_in(folder)
                frames = [im for _, im in sample_frames(video)] if video else []
                self.likeness = Likeness(frames, sorted((folder / "checkpoints").glob("*.png")))
            recorded = recorded_boxes(shot, sorted_["drawn"], sorted_["viewport"], self.likeness)
        return bare_sheet(sorted_, recorded)

    def reference_for(self, task_folder: str, step: int) -> str | None:
        """The checkpoint a screenshot is compared with: the task's pairing (tasks/checkpoints.py), or
        (paper-compat) the file at the same position in the folder's name-sorted list, as the reference code has it."""
        if step in self.refs or not self.config.paper_compat:
            return self.refs.get(step)
        files = sorted(p.name for p in (Path(task_folder) / "checkpoints").glob("step_*.png"))
        position = len(self.refs)
        self.refs[step] = f"{task_folder}/checkpoints/{files[position]}" if position < len(files) else None
        return self.refs[step]

    def start_scoring(self, step: int, task_folder: str, candidate: str) -> None:
        """Score a checkpoint in the background: the metrics server works while the browser replays."""
        cfg = self.config
        reference = self.reference_for(task_folder, step)
        if not cfg.visual or reference is None:
            return
        metrics = sorted((set(cfg.lvs_metrics) | {cfg.hvs_metric}) - {LLM_METRIC})
        self.pending[step] = asyncio.ensure_future(self.tools.call(
            "metrics", "compare", reference=reference, candidate=candidate, metrics=metrics,
            floor=bool(cfg.chance_corrected), ocr_engine=cfg.ocr_engine))


class JudgeState(TypedDict, total=False):
    task: dict  # the TaskRecord as JSON
    task_folder: str
    artifact: str  # index.html or its folder
    root: str | None  # the site's top folder, served as such, when the artifact's page sits below it
    session: str
    step: int  # 0-based index of the next action
    stopped: bool
    shots: dict  # "0".."N" -> screenshot path
    actions: Annotated[list, operator.add]
    checkpoints: list
    backends: dict
    flags: list
    browser: str  # the browser's name and version, as the browser server reports it


async def open_page(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict:
    tools, cfg = runtime.context.tools, runtime.context.config
    width, height = size_of(state["task"])
    ext = state["task"].get("iwr") or {}
    opened = await _reopened(tools, runtime.context.reuse) or await tools.call(
        "browser", "open", target=state["artifact"], width=width, height=height,
        seed=ext.get("seed", defaults.SEED), clock=ext.get("clock", defaults.CLOCK), root=state.get("root"))
    sid = runtime.context.session = opened["session"]
    update = {"session": sid, "step": 0, "stopped": False, "shots": {}, "browser": opened.get("browser") or ""}
    if runtime.context.on_open is not None:
        replaced = await runtime.context.on_open(sid)
        if replaced is not None:
            update["task"] = replaced
    if cfg.screenshots:
        shot = await tools.call("browser", "screenshot", session=sid, name="step_0", wait_ms=cfg.default_wait_ms,
                                **runtime.context.listing(True))
        update["shots"] = {"0": shot["path"]}
        scored = await runtime.context.bare_of(sid, 0, shot)
        runtime.context.start_scoring(0, state["task_folder"], scored)
    else:
        await tools.call("browser", "settle", session=sid, wait_ms=cfg.default_wait_ms)
    # A page with no text and nothing to interact with is a picture of a page, not a page.
    page = await tools.call("browser", "state", session=sid, max_text=200)
    bare = len(page["text"].strip()) < 10 and not await tools.call("browser", "elements", session=sid, limit=5)
    flags = ["image_only"] if bare else []
    return {**update, "flags": flags}


async def _reopened(tools: Toolbox, sid: str | None) -> dict | None:
    """A page already open for this artifact and task, loaded again as a new session finds it (a new
    session's context and renderer cost several times more of the machine); None when there is none or
    it does not answer (then it is closed, and a new one opened)."""
    if sid is None:
        return None
    try:
        return await tools.call("browser", "reopen", session=sid)
    except ToolCallError:
        await asyncio.gather(tools.call("browser", "close", session=sid), return_exceptions=True)
        return None


async def act(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict:
    ctx = runtime.context
    tools, cfg = ctx.tools, ctx.config
    i, sid = state["step"], state["session"]
    ctx.step = i + 1
    action, ctx.hidden = judged_form(state["task"]["action_sequence"][i], cfg.hints)
    ext = action.get("iwr") or {}
    started = time.monotonic()
    trace: dict[str, Any] = {"index": i + 1, "type": action["type"], "description": action["parameters"]["description"]}
    before, shots = state["shots"].get(str(i)), dict(state["shots"])
    try:
        ctx.before_view, ctx.before_image, ctx.checked = None, None, ()
        # the original's checks that apply to this page (graphs/hinted.py); with hints off, the original's
        # checks are measured apart (calibrate's assertion agreement)
        applied = candidate_checks(ext.get("checks")) if cfg.judging.observes else []
        # what the recording shows this action changing beside a word, said or not (recorded_effects.py)
        readings = await recorded_readings(ctx, i + 1) if cfg.judging.observes and cfg.screenshots else []
        asserted = action.get("logical_assertion") and cfg.judging.observes and not applied
        if asserted or readings:
            ctx.before_view = await tools.call("browser", "observe", session=sid, assets=ctx.served())
        if asserted and before and unverifiable(action, ctx.names) and not cfg.paper_compat:  # pictures away, for 'something changed'
            ctx.before_image = (await ctx.without_pictures(sid, before, f"step_{i}_before"))[0]
        wait_ms, after = ext.get("wait_ms", cfg.default_wait_ms), None
        checks = (applied or ctx.hidden.get("checks") or None) if cfg.judging.observes else None
        request = {"name": f"step_{i + 1}", "wait_ms": wait_ms, "checks": checks,
                   **ctx.listing(bool(action.get("visual_evaluation_flag")))}
        with shooting_after(ctx, action["type"], request if cfg.screenshots else None) as acting:
            ok, detail = await do_action(ctx, sid, action, state, trace)
        ctx.scrolled = action["type"] == "Scroll" and ok
        if ok:
            if ext.get("checks"):  # the assertion is decided on the checks that apply to this page
                action = {**action, "iwr": {**ext, "checks": applied}}
            if cfg.screenshots:
                shot = acting.taken() or await tools.call("browser", "screenshot", session=sid, **request)
                after = shots[str(i + 1)] = trace["screenshot"] = shot["path"]
                ctx.checked = (checks, shot["checks"]) if shot.get("checks") is not None else ()
                if action.get("visual_evaluation_flag"):
                    scored = await ctx.bare_of(sid, i + 1, shot)
                    ctx.start_scoring(i + 1, state["task_folder"], scored)
            else:
                await tools.call("browser", "settle", session=sid, wait_ms=wait_ms)
            verdict = await cfg.judging.assertion(ctx, sid, action, before, after)  # None: no assertion
            if verdict is not None and not verdict["passed"] and not applied and not cfg.paper_compat:
                verdict = await looked_again(ctx, sid, action, before, verdict, i + 1, shots, trace)
            if verdict is not None:
                trace["assertion"], ok = verdict, verdict["passed"]
                detail = detail if ok else "assertion failed: " + verdict["reason"]
            if ok and readings:
                ok, detail = await effects_made(ctx, sid, readings, trace)
    except ToolCallError as e:  # the page stopped answering (a hung script): this action fails, the replay ends
        ok, detail = False, f"the page stopped responding: {e}"
    trace.update(status="passed" if ok else "failed", error=None if ok else detail,
                 seconds=round(time.monotonic() - started, 3))
    return {"step": i + 1, "stopped": not ok, "shots": shots, "actions": [trace]}


async def do_action(ctx: JudgeContext, sid: str, action: dict, state: JudgeState, trace: dict) -> tuple[bool, str]:
    """Ground and perform one action as the profile says; (success, reason)."""
    tools, cfg, kind, params = ctx.tools, ctx.config, action["type"], action["parameters"]
    if kind == "Scroll":
        return await scroll(tools, sid, params, size_of(state["task"])[1], cfg.scroll_min_px, cfg.paper_compat, trace)
    if kind == "Press":
        key, how = await cfg.judging.press_key(ctx, params)
        trace["grounding"] = {"strategy": how, "target": key}
        if not key:
            return False, "no key named in the action"
        return await attempt(tools.call("browser", "press", session=sid, key=key))
    return await cfg.judging.ground_and_do(ctx, sid, action, state, trace)


def route_after_act(state: JudgeState) -> Literal["act", "score"]:
    done = state["stopped"] or state["step"] >= len(state["task"]["action_sequence"])
    return "score" if done else "act"


async def score(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict:
    ctx = runtime.context
    folder = state["task_folder"]
    actions = state["task"]["action_sequence"]
    steps = [0] + [i for i in range(1, state["step"] + 1)
                   if actions[i - 1].get("visual_evaluation_flag") and str(i) in state["shots"]]
    out, backends = [], {}
    for k in steps if ctx.config.visual else []:
        candidate = state["shots"][str(k)]
        if k not in ctx.pending:
            ctx.start_scoring(k, folder, candidate)
        ref = ctx.reference_for(folder, k)
        if ref is None:  # paper-compat pairing ran out of checkpoint files: the reference drops it too
            continue
        values = await ctx.pending.pop(k)
        backends.update({m: f"{v['backend']} {v['version']}".strip() for m, v in values.items()})
        entry = {"step": k, "reference": ref, "candidate": candidate, "metrics": {m: v["value"] for m, v in values.items()}}
        scored = ctx.scored.get(k, candidate)
        if scored != candidate:  # the metrics saw the checkpoint with its pictures taken away
            entry["scored"] = scored
        if k in ctx.pictures:
            entry["picture_share"] = ctx.pictures[k]
            if ctx.pictures[k] >= PICTURE_SHARE:  # a picture of the page, not a page (pictures.py)
                entry["metrics"] = {m: 0.0 for m in entry["metrics"]}
        if ctx.config.chance_corrected:
            entry["raw"] = {m: v["detail"]["raw"] for m, v in values.items() if "raw" in v.get("detail", {})}
        if ctx.config.hvs_metric == LLM_METRIC:
            rated = await ctx.llm.rubric(ref, scored)
            if rated is None:
                raise JudgeModelError(f"the judge model gave no usable rubric scores for step {k}, twice")
            entry["metrics"][LLM_METRIC] = rated["value"]
            entry["rubric"] = rated["parts"]
            backends[LLM_METRIC] = f"{ctx.config.model.model} rubric-100"
        out.append(entry)
    if not ctx.keep:
        await ctx.tools.call("browser", "close", session=state["session"])
    pictured = ["pictures_of_page"] if any(c.get("picture_share", 0.0) >= PICTURE_SHARE for c in out) else []
    return {"checkpoints": out, "backends": backends, "flags": state.get("flags", []) + pictured}


@functools.cache
def build_judge_graph():
    """Compile the judge graph: open -> act (repeat until done or failed) -> score. Compiled once per
    process (compiling inspects every node's code: about 20 ms, a fifth of a judged action's time); a
    compiled graph keeps no state of its own between invocations, each brings its state and context."""
    g = StateGraph(JudgeState, context_schema=JudgeContext)
    g.add_node("open", open_page)
    g.add_node("act", act)
    g.add_node("score", score)
    g.add_edge(START, "open")
    g.add_conditional_edges("open", lambda s: "act" if s["task"]["action_sequence"] else "score")
    g.add_conditional_edges("act", route_after_act)
    g.add_edge("score", END)
    return g.compile()


async def judge(tools: Toolbox, task: dict, task_folder: str, artifact: str, config: JudgeConfig | None = None,
                on_open: Callable[[str], Awaitable[dict | None]] | None = None, reuse: str | None = None,
                keep: dict | None = None, root: str | None = None) -> dict:
    """Replay a task on an artifact and return the raw judgement (actions, checkpoints, backends);
    `on_open` (see JudgeContext) may replace the task once the page is open. `reuse` is a session that
    shows this artifact, loaded again for this replay (it is closed with it); with `keep`, the page is
    left open after a replay that ended (its session in `keep["session"]`, the caller's to close); `root`: the site's top."""
    config = config or JudgeConfig()
    graph = build_judge_graph()
    llm = LlmJudge(config.model) if config.model is not None and config.judging.needs_model else None
    ctx = JudgeContext(tools=tools, config=config, llm=llm, on_open=on_open, task_folder=task_folder, artifact=artifact,
                       names=task_names(task["action_sequence"]), reuse=reuse, keep=keep is not None)
    plan = checkpoint_plan(judged_steps(task["action_sequence"]), Path(task_folder))
    if not config.paper_compat:
        if config.visual:  # the task's own problem, before anything of the page is judged
            check_usable(plan, str(task.get("id")))
        ctx.refs = {step: str(path) for step, path in plan.files.items()}
    try:
        state = await graph.ainvoke({"task": task, "task_folder": task_folder, "artifact": artifact, "root": root,
                                     "actions": []},
                                    context=ctx, config={"recursion_limit": 10 + 2 * len(task["action_sequence"])})
    except BaseException:
        if ctx.session:  # a replay that died (e.g. the judge model is down) leaves no page open behind it
            await asyncio.gather(tools.call("browser", "close", session=ctx.session), return_exceptions=True)
        raise
    finally:
        for fut in ctx.pending.values():  # nor any scoring running
            fut.cancel()
        await asyncio.gather(*ctx.pending.values(), return_exceptions=True)
    if keep is not None:
        keep["session"] = state["session"]
    n = len(task["action_sequence"])
    done = [a for a in state["actions"] if a["status"] == "passed"]
    reached = {a["index"] for a in state["actions"]}
    skipped = [{"index": i, "type": a["type"], "description": a["parameters"]["description"], "status": "not_reached"}
               for i, a in enumerate(task["action_sequence"], 1) if i not in reached]
    return {"profile": config.profile, "total_actions": n, "successful_actions": len(done),
            "actions": state["actions"] + skipped, "checkpoints": state["checkpoints"],
            "backends": state["backends"], "browser": state.get("browser", ""), "lvs_metrics": config.lvs_metrics, "hvs_metric": config.hvs_metric,
            "flags": state.get("flags", []), "paper_compat": config.paper_compat,
            "chance_corrected": config.chance_corrected, "hints": config.hints,
            "unverifiable_assertions": sum(1 for a in state["actions"]
                                           if (a.get("assertion") or {}).get("method") == "unverifiable"),
            "decided_by": dict(Counter(a["assertion"].get("decided_by", "model") for a in state["actions"] if a.get("assertion"))),
            "checkpoints_by": "name-sorted list (paper-compat)" if config.paper_compat else plan.convention,
            "judge_model": config.model.model if llm else None, "llm_usage": llm.usage if llm else None}
