"""The iterative coder: a LangGraph tool loop over MCP (write, render, compare, replay, fix).

State is JSON (messages, counters, the draft log); the MCP tool box and the model settings live in
the runtime context. A SQLite checkpointer saves the state after every step so a killed run resumes.
"""
from __future__ import annotations

import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from iwr.agents.coder import Budget
from iwr.agents.coder_tools import CODER_TOOLS
from iwr.agents.messages import prompt
from iwr.agents.models import ModelConfig, complete, plus_cost
from iwr.agents.toolbox import Toolbox, ToolCallError
from iwr.graphs.judge import JudgeConfig, judge
from iwr.tasks.schema import size_of

KEEP_IMAGES = 2  # only the latest screenshots stay in the context sent to the model


@dataclass
class IterContext:
    tools: Toolbox
    model: ModelConfig
    budget: Budget
    task: dict  # the coder's view of the task: no reference-side hints
    task_id: str
    workspace: Path
    frames: list[str]
    replayed: dict | None = None  # the task its replay judges: assertions kept, hints gone (never shown)
    feedback: str = "scores"  # what the replay tells the coder (agents.coder.FEEDBACK)


class IterState(TypedDict, total=False):
    messages: list
    turn: int
    tokens: int
    cost: float | None  # None once a call's price is unknown
    started: float
    done: bool
    stop_reason: str
    drafts: list  # [{"turn", "path", "passed": int | None}]
    log: list  # one entry per tool call, for the report
    arg_errors: dict  # tool call id -> why its arguments were unusable (the history keeps valid JSON for the provider)


def first_messages(task: dict, assets: list[str]) -> list[dict]:
    w, h = size_of(task)
    acts = "\n".join(f"{i}. {a['type']}: {a['parameters']['description']}"
                     for i, a in enumerate(task["action_sequence"], 1))
    text = prompt("iterative", width=w, height=h, actions=acts, assets=", ".join(assets) or "(none)")
    return [{"role": "user", "content": text}]


def _trim_images(messages: list[dict]) -> list[dict]:
    """A copy of the messages where only the last KEEP_IMAGES image-bearing messages keep their images."""
    seen, out = 0, []
    for m in reversed(messages):
        if isinstance(m.get("content"), list) and any(p.get("type") == "image_url" for p in m["content"]):
            seen += 1
            if seen > KEEP_IMAGES:
                m = {**m, "content": [p if p.get("type") != "image_url" else {"type": "text", "text": "[older image omitted]"}
                                      for p in m["content"]]}
        out.append(m)
    return out[::-1]


def budget_left(state: IterState, b: Budget) -> str | None:
    """Why the loop must stop now, or None."""
    if state.get("turn", 0) >= b.turns:
        return "turns"
    if state.get("tokens", 0) >= b.tokens:
        return "tokens"
    if time.time() - state.get("started", time.time()) >= b.seconds:
        return "seconds"
    cost = state.get("cost", 0.0)
    if cost is not None and cost >= b.dollars:  # an unknown price (None) cannot reach a dollar limit
        return "dollars"
    return None


async def agent(state: IterState, runtime: Runtime[IterContext]) -> dict:
    ctx = runtime.context
    reason = budget_left(state, ctx.budget)
    if reason:
        return {"done": True, "stop_reason": f"budget: {reason}"}
    offered = [t for t in CODER_TOOLS if ctx.feedback != "none" or t["function"]["name"] != "replay"]
    reply = await complete(_trim_images(state["messages"]), ctx.model, tools=offered)
    msg: dict = {"role": "assistant", "content": reply.text or None}
    if reply.tool_calls:
        msg["tool_calls"] = [{"id": c.id, "type": "function",
                              "function": {"name": c.name, "arguments": json.dumps(c.arguments)}} for c in reply.tool_calls]
    update = {"messages": [*state["messages"], msg], "turn": state.get("turn", 0) + 1,
              "tokens": state.get("tokens", 0) + reply.prompt_tokens + reply.completion_tokens,
              "cost": plus_cost(state.get("cost", 0.0), reply.cost_usd),
              "arg_errors": {c.id: c.error for c in reply.tool_calls if c.error}}
    if not reply.tool_calls:
        update.update(done=True, stop_reason="answered without a tool call")
    return update


async def run_tools(state: IterState, runtime: Runtime[IterContext]) -> dict:
    ctx = runtime.context
    calls = state["messages"][-1].get("tool_calls") or []
    messages, log, drafts = list(state["messages"]), list(state.get("log", [])), list(state.get("drafts", []))
    images: list[dict] = []
    done = False
    for call in calls:
        name = call["function"]["name"]
        try:
            args = json.loads(call["function"]["arguments"] or "{}")
        except json.JSONDecodeError:
            args = None
        started = time.monotonic()
        if (bad := (state.get("arg_errors") or {}).get(call["id"])) or not isinstance(args, dict):
            text = f"error: {bad or 'arguments must be a JSON object'}; nothing was done"
        else:
            try:
                text, image, done_now = await _execute(ctx, name, args, drafts, state.get("turn", 0))
                done = done or done_now
                if image:
                    images.append(image)
            except (ToolCallError, KeyError, TypeError, ValueError) as e:
                text = f"error: {e}"
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": text[:6000]})
        log.append({"turn": state.get("turn", 0), "tool": name, "args": _short(args), "result": text[:400],
                    "seconds": round(time.monotonic() - started, 3)})
    if images:
        messages.append({"role": "user", "content": [{"type": "text", "text": "Images from your tool calls:"}, *images]})
    for d in drafts[len(state.get("drafts", [])):]:  # usage so far: the report plots score against tokens and dollars
        d.update(tokens=state.get("tokens", 0), cost_usd=state.get("cost", 0.0))
    out = {"messages": messages, "log": log, "drafts": drafts}
    if done:
        out.update(done=True, stop_reason="finished")
    return out


def _short(args) -> dict:
    if not isinstance(args, dict):
        return {}
    return {k: (v[:120] + "..." if isinstance(v, str) and len(v) > 120 else v) for k, v in args.items()}


def _image_part(content: list) -> dict | None:
    for c in content:
        if getattr(c, "type", "") == "image":
            return {"type": "image_url", "image_url": {"url": f"data:{c.mime_type};base64,{c.data}"}}
    return None


async def _execute(ctx: IterContext, name: str, args: dict, drafts: list, turn: int) -> tuple[str, dict | None, bool]:
    """Run one coder tool; returns (text for the model, optional image part, whether it finished)."""
    t, w, h = ctx.tools, *size_of(ctx.task)
    index = ctx.workspace / "index.html"
    if name in ("write_file", "edit_file"):
        res = await t.call("workspace", name, **args)
        if args.get("path") == "index.html":
            d = ctx.workspace.parent / "drafts" / f"turn_{turn:02d}.html"
            d.parent.mkdir(exist_ok=True)
            shutil.copy(index, d)
            drafts.append({"turn": turn, "path": str(d), "passed": None})
        return json.dumps(res), None, False
    if name == "read_file":
        return json.dumps(await t.call("workspace", "read_file", path=args["path"])), None, False
    if name == "render":
        content = (await t.call_raw("workspace", "render", path="index.html", width=w, height=h)).content
        return str(content[0].text if content else ""), _image_part(content), False
    if name == "view_frame":
        k = int(args["index"])
        if not 0 <= k < len(ctx.frames):
            raise ValueError(f"index must be in 0..{len(ctx.frames) - 1}")
        content = (await t.call_raw("assets", "frame", task_id=ctx.task_id, index=k)).content
        return f"frame {k} of {len(ctx.frames)}", _image_part(content), False
    if name == "compare_with_frame":
        k = int(args["index"])
        if not 0 <= k < len(ctx.frames):
            raise ValueError(f"index must be in 0..{len(ctx.frames) - 1}")
        opened = await t.call("browser", "open", target=str(index), width=w, height=h)
        try:
            shot = await t.call("browser", "screenshot", session=opened["session"])  # settles as the judge does
        finally:
            await t.call("browser", "close", session=opened["session"])
        v = await t.call("metrics", "compare", reference=ctx.frames[k], candidate=shot["path"],
                         metrics=["ocr", "feature", "structural"])
        return json.dumps({m: None if x["value"] is None else round(x["value"], 4) for m, x in v.items()}), None, False
    if name == "replay":
        return await _replay(ctx, drafts), None, False
    if name == "finish":
        return "finished", None, True
    raise ValueError(f"unknown tool {name!r}")


async def _replay(ctx: IterContext, drafts: list) -> str:
    if ctx.feedback == "none":
        raise ValueError("replay is not offered in this run")
    j = await judge(ctx.tools, ctx.replayed or ctx.task, str(ctx.workspace), str(ctx.workspace / "index.html"),
                    JudgeConfig(visual=False, hints=False))
    if drafts:
        drafts[-1]["passed"] = j["successful_actions"]
    return replay_feedback(j, ctx.feedback)


def replay_feedback(j: dict, level: str) -> str:
    """What a coder learns from a replay: how many actions replayed, and with `actions` which passed,
    in the actions' own words; never why (an error can quote the expected text)."""
    head = f"{j['successful_actions']} of {j['total_actions']} actions replayed successfully."
    if level != "actions":
        return head
    return "\n".join([head, *(f"{a['index']}. {a['type']}: {a['description']} -> {a['status']}" for a in j["actions"])])


def after_agent(state: IterState) -> Literal["tools", "__end__"]:
    return END if state.get("done") else "tools"


def after_tools(state: IterState) -> Literal["agent", "__end__"]:
    return END if state.get("done") else "agent"


def build_iterative_graph(checkpointer=None):
    g = StateGraph(IterState, context_schema=IterContext)
    g.add_node("agent", agent)
    g.add_node("tools", run_tools)
    g.add_edge(START, "agent")
    g.add_conditional_edges("agent", after_agent)
    g.add_conditional_edges("tools", after_tools)
    return g.compile(checkpointer=checkpointer)


def best_draft(drafts: list) -> dict | None:
    """The draft that replayed best (later ones win ties); the last one if none was replayed."""
    replayed = [d for d in drafts if d.get("passed") is not None]
    if not replayed:
        return drafts[-1] if drafts else None
    return max(reversed(replayed), key=lambda d: d["passed"])
