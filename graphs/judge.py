"""The judge as a LangGraph state machine (offline profile): replay, check, score checkpoints.

It reaches the browser and the metrics only through MCP (the `Toolbox` in the runtime context).
State is JSON data; the browser appears in it as a session id.
"""
from __future__ import annotations

import asyncio
import json
import operator
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from tasks.schema import size_of
from agents.toolbox import Toolbox, ToolCallError
from graphs.assertions import judge_assertion
from graphs.grounding import key_for, label_probe, names_agree, plans_for, target_quotes, type_text_of

NOT_FOUND = ("no visible element", "no element with ref", "named like")


class JudgeConfig(BaseModel):
    """How the judge replays and scores."""

    profile: Literal["offline"] = Field("offline", description="judging profile; offline uses no LLM")
    lvs_metrics: list[str] = Field(["ocr", "feature"], description="low-level visual metrics, averaged into LVS")
    hvs_metric: str = Field("structural", description="metric standing in for the MLLM rubric (HVS)")
    default_wait_ms: int = Field(500, description="settle time after an action when the task records none")
    action_timeout_s: float = Field(30.0, description="limit for one action, as in the reference")
    scroll_min_px: float = Field(5.0, description="a scroll succeeds when the position moved more than this")
    visual: bool = Field(True, description="score checkpoints; off for a coder replaying its own page")


@dataclass
class JudgeContext:
    """Run-scoped handles: never part of the state."""

    tools: Toolbox
    config: JudgeConfig
    # Checkpoint scoring started while the replay goes on (step -> running compare call).
    pending: dict = field(default_factory=dict)

    def start_scoring(self, step: int, reference: str, candidate: str) -> None:
        """Score a checkpoint in the background: the metrics server works while the browser replays."""
        cfg = self.config
        if not cfg.visual:
            return
        metrics = sorted(set(cfg.lvs_metrics) | {cfg.hvs_metric})
        self.pending[step] = asyncio.ensure_future(
            self.tools.call("metrics", "compare", reference=reference, candidate=candidate, metrics=metrics))


class JudgeState(TypedDict, total=False):
    task: dict  # the TaskRecord as JSON
    task_folder: str
    artifact: str  # index.html or its folder
    session: str
    step: int  # 0-based index of the next action
    stopped: bool
    shots: dict  # "0".."N" -> screenshot path
    actions: Annotated[list, operator.add]
    checkpoints: list
    backends: dict
    flags: list


async def open_page(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict:
    tools, cfg = runtime.context.tools, runtime.context.config
    width, height = size_of(state["task"])
    ext = state["task"].get("iwr") or {}
    opened = await tools.call("browser", "open", target=state["artifact"], width=width, height=height,
                              seed=ext.get("seed", 1), clock=ext.get("clock", "2026-01-15T10:00:00Z"))
    sid = opened["session"]
    shot = await tools.call("browser", "screenshot", session=sid, name="step_0", wait_ms=cfg.default_wait_ms)
    runtime.context.start_scoring(0, f"{state['task_folder']}/checkpoints/step_0.png", shot["path"])
    page = await tools.call("browser", "state", session=sid, max_text=200)
    elements = await tools.call("browser", "elements", session=sid, limit=5)
    # A page with no text and nothing to interact with is a picture of a page, not a page.
    flags = ["image_only"] if len(page["text"].strip()) < 10 and not elements else []
    return {"session": sid, "step": 0, "stopped": False, "shots": {"0": shot["path"]}, "flags": flags}


async def act(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict:
    tools, cfg = runtime.context.tools, runtime.context.config
    i, sid = state["step"], state["session"]
    action = state["task"]["action_sequence"][i]
    ext = action.get("iwr") or {}
    started = time.monotonic()
    trace: dict[str, Any] = {"index": i + 1, "type": action["type"], "description": action["parameters"]["description"]}
    before = state["shots"][str(i)]
    ok, detail = await _do(tools, cfg, sid, action, state["task"], trace)
    shots = dict(state["shots"])
    if ok:
        shot = await tools.call("browser", "screenshot", session=sid, name=f"step_{i + 1}",
                                wait_ms=ext.get("wait_ms", cfg.default_wait_ms))
        shots[str(i + 1)] = trace["screenshot"] = shot["path"]
        if action.get("visual_evaluation_flag"):
            runtime.context.start_scoring(i + 1, f"{state['task_folder']}/checkpoints/step_{i + 1}.png", shot["path"])
        if action.get("logical_assertion") or ext.get("checks"):
            verdict = await judge_assertion(tools, sid, action, before, shot["path"])
            trace["assertion"] = verdict
            ok = verdict["passed"]
            if not ok:
                detail = "assertion failed: " + verdict["reason"]
    trace.update(status="passed" if ok else "failed", error=None if ok else detail,
                 seconds=round(time.monotonic() - started, 3))
    return {"step": i + 1, "stopped": not ok, "shots": shots, "actions": [trace]}


async def _do(tools: Toolbox, cfg: JudgeConfig, sid: str, action: dict, task: dict, trace: dict) -> tuple[bool, str]:
    """Ground and perform one action; (success, reason)."""
    kind, params = action["type"], action["parameters"]
    if kind == "Press":
        key = key_for(params)
        trace["grounding"] = {"strategy": "key" if params.get("key") else "description", "target": key}
        if not key:
            return False, "no key named in the action"
        return await _attempt(tools.call("browser", "press", session=sid, key=key))
    if kind == "Scroll":
        direction = (params.get("direction") or "down").lower()
        amount = _scroll_amount(params, size_of(task)[1])
        trace["grounding"] = {"strategy": "scroll", "target": {"direction": direction, "amount": amount}}
        try:
            out = await tools.call("browser", "scroll", session=sid, direction=direction, amount=amount)
        except ToolCallError as e:
            return False, str(e)
        d = out["detail"]
        moved = abs(d["scroll_y_after"] - d["scroll_y_before"]) + abs(d["scroll_x_after"] - d["scroll_x_before"])
        trace["did"] = d
        return (moved > cfg.scroll_min_px, "" if moved > cfg.scroll_min_px else f"page did not scroll ({moved:.0f} px)")
    elements = await tools.call("browser", "elements", session=sid)
    plans = plans_for(action, elements, size_of(task), size_of(task))
    text = type_text_of(params.get("description", ""), params.get("text")) if kind == "Type" else None
    if kind == "Type" and text is None:
        return False, "no text to type in the action"
    tried = []
    quotes = target_quotes(params.get("description", ""), kind)
    for plan in plans:
        probe = label_probe(plan.args) if quotes else None
        if probe:
            label = json.loads((await tools.call("browser", "evaluate", session=sid, expression=probe))["value"])
            if label is None or not names_agree(quotes, label):
                tried.append({"strategy": plan.strategy, "args": plan.args, "ok": False,
                              "error": f"no visible element named like {quotes} there (found {str(label)[:60]!r})"})
                continue
        ok, why = await _attempt(_perform(tools, sid, kind, plan.args, text))
        tried.append({"strategy": plan.strategy, "args": plan.args, "ok": ok, "why": plan.why, "error": why or None})
        if ok or not any(m in why for m in NOT_FOUND):
            trace["grounding"] = {"strategy": plan.strategy, "target": plan.args, "why": plan.why,
                                  "alternatives": plan.alternatives, "tried": tried}
            return ok, why
    trace["grounding"] = {"strategy": "none", "tried": tried}
    return False, "element not found: " + (tried[-1]["error"] if tried else "no candidate matched the description")


async def _perform(tools: Toolbox, sid: str, kind: str, target: dict, text: str | None) -> None:
    if kind != "Type":
        await tools.call("browser", "click", session=sid, **target)
    elif "x" in target:  # a position: focus by clicking there, then type into whatever has focus
        await tools.call("browser", "click", session=sid, **target)
        await tools.call("browser", "type", session=sid, text=text)
    else:
        await tools.call("browser", "type", session=sid, text=text, **target)


async def _attempt(call) -> tuple[bool, str]:
    try:
        await call
        return True, ""
    except ToolCallError as e:
        return False, str(e)


def _scroll_amount(params: dict, height: int) -> float:
    sp = (params.get("scroll_page") or "").strip().lower()
    try:
        return float(sp) * height if sp and float(sp) < 20 else (float(sp) if sp else height / 2)
    except ValueError:
        return {"half": height / 2, "one": height, "full": height, "page": height}.get(sp, height / 2)


def route_after_act(state: JudgeState) -> Literal["act", "score"]:
    done = state["stopped"] or state["step"] >= len(state["task"]["action_sequence"])
    return "score" if done else "act"


async def score(state: JudgeState, runtime: Runtime[JudgeContext]) -> dict:
    tools = runtime.context.tools
    folder = state["task_folder"]
    actions = state["task"]["action_sequence"]
    steps = [0] + [i for i in range(1, state["step"] + 1)
                   if actions[i - 1].get("visual_evaluation_flag") and str(i) in state["shots"]]
    if not runtime.context.config.visual:
        steps = []
    out, backends = [], {}
    pending = runtime.context.pending
    for k in steps:
        ref = f"{folder}/checkpoints/step_{k}.png"
        if k not in pending:
            runtime.context.start_scoring(k, ref, state["shots"][str(k)])
        values = await pending.pop(k)
        backends.update({m: f"{v['backend']} {v['version']}".strip() for m, v in values.items()})
        out.append({"step": k, "reference": ref, "candidate": state["shots"][str(k)],
                    "metrics": {m: v["value"] for m, v in values.items()}})
    await tools.call("browser", "close", session=state["session"])
    return {"checkpoints": out, "backends": backends}


def build_judge_graph():
    """Compile the judge graph: open -> act (repeat until done or failed) -> score."""
    g = StateGraph(JudgeState, context_schema=JudgeContext)
    g.add_node("open", open_page)
    g.add_node("act", act)
    g.add_node("score", score)
    g.add_edge(START, "open")
    g.add_conditional_edges("open", lambda s: "act" if s["task"]["action_sequence"] else "score")
    g.add_conditional_edges("act", route_after_act)
    g.add_edge("score", END)
    return g.compile()


async def judge(tools: Toolbox, task: dict, task_folder: str, artifact: str, config: JudgeConfig | None = None) -> dict:
    """Replay a task on an artifact and return the raw judgement (actions, checkpoints, backends)."""
    config = config or JudgeConfig()
    graph = build_judge_graph()
    ctx = JudgeContext(tools=tools, config=config)
    try:
        state = await graph.ainvoke({"task": task, "task_folder": task_folder, "artifact": artifact, "actions": []},
                                    context=ctx, config={"recursion_limit": 10 + 2 * len(task["action_sequence"])})
    finally:
        for fut in ctx.pending.values():  # a replay that died leaves no scoring running behind it
            fut.cancel()
        await asyncio.gather(*ctx.pending.values(), return_exceptions=True)
    n = len(task["action_sequence"])
    done = [a for a in state["actions"] if a["status"] == "passed"]
    reached = {a["index"] for a in state["actions"]}
    skipped = [{"index": i, "type": a["type"], "description": a["parameters"]["description"], "status": "not_reached"}
               for i, a in enumerate(task["action_sequence"], 1) if i not in reached]
    return {"profile": config.profile, "total_actions": n, "successful_actions": len(done),
            "actions": state["actions"] + skipped, "checkpoints": state["checkpoints"],
            "backends": state["backends"], "lvs_metrics": config.lvs_metrics, "hvs_metric": config.hvs_metric,
            "flags": state.get("flags", [])}
