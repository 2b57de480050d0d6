"""The iterative coder for one task: its workspace, its MCP servers, its checkpointed loop."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from iwr.agents.baselines import copy_assets
from iwr.agents.coder import Budget, CoderJob, CoderOutput
from iwr.agents.models import ModelConfig
from iwr.agents.toolbox import Toolbox, stdio_server
from iwr.graphs.iterative import IterContext, best_draft, build_iterative_graph, first_messages
from iwr.tasks.frames import sample_frames
from iwr.tasks.loader import Task


def coder_view(task: Task, assertions: bool = False) -> dict:
    """The task as a coder may see it: actions in words, no reference-side hints, checks or assertions.
    With `assertions`, what the coder's own replay judges (kept from the coder all the same)."""
    rec = task.record.model_dump(mode="json", exclude_none=True)
    rec.pop("iwr", None)
    for a in rec["action_sequence"]:
        a.pop("iwr", None)
        if not assertions:
            a.pop("logical_assertion", None)
    return rec


def model_notes(messages: list) -> list[dict]:
    """What the model said beside its tool calls, per turn (the k-th assistant message is turn k)."""
    said = [m.get("content") for m in messages if m.get("role") == "assistant"]
    return [{"turn": k, "text": t[:2000]} for k, t in enumerate(said, 1) if isinstance(t, str) and t.strip()]


def coder_servers(workspace: Path, shots: Path, task: Task) -> dict:
    """The coder's servers, each confined to what a coder may see (as `iwr prepare` configures them)."""
    return {"workspace": stdio_server("workspace", "--root", str(workspace)),
            "browser": stdio_server("browser", "--shots", str(shots), "--serve-only", str(workspace)),
            "assets": stdio_server("assets", "--tasks", str(task.suite_root), "--task", task.id),
            "metrics": stdio_server("metrics", "--allow", str(workspace), "--allow", str(shots))}


async def iterative(task: Task, out_dir: Path, model: ModelConfig, budget: Budget, thread: str,
                    checkpoints_db: Path, feedback: str = "scores") -> dict:
    """Let the agent build `out_dir/index.html`; keeps the best draft; resumes a killed loop by `thread`."""
    copy_assets(task, out_dir)
    frames_dir = out_dir / "frames"
    frames_dir.mkdir(exist_ok=True)
    frames = []
    for n, (_, im) in enumerate(sample_frames(task.video, len(task.asset_sheets())) if task.video else []):
        p = frames_dir / f"frame_{n:02d}.jpg"
        if not p.exists():
            im.convert("RGB").save(p, quality=88)
        frames.append(str(p))
    view = coder_view(task)
    assets = sorted(p.name for p in (out_dir / "assets").glob("*")) if (out_dir / "assets").is_dir() else []
    shots = out_dir.parent / "coder-shots"
    config = {"configurable": {"thread_id": thread}, "recursion_limit": 4 * budget.turns + 10}
    errlog = open(out_dir.parent / "coder-servers.log", "a")
    try:
        async with AsyncSqliteSaver.from_conn_string(str(checkpoints_db)) as saver, \
                Toolbox(coder_servers(out_dir, shots, task), errlog=errlog) as tools:
            graph = build_iterative_graph(saver)
            ctx = IterContext(tools=tools, model=model, budget=budget, task=view, task_id=task.id,
                              workspace=out_dir, frames=frames, replayed=coder_view(task, assertions=True), feedback=feedback)
            prior = await graph.aget_state(config)
            if prior.values and not prior.values.get("done"):
                state = await graph.ainvoke(None, config=config, context=ctx)  # resume where it stopped
            elif prior.values:
                state = prior.values
            else:
                import time

                state = await graph.ainvoke({"messages": first_messages(view, assets), "turn": 0, "tokens": 0,
                                             "cost": 0.0, "started": time.time(), "drafts": [], "log": []},
                                            config=config, context=ctx)
    finally:
        errlog.close()
    best = best_draft(state.get("drafts", []))
    if best is not None:
        shutil.copy(best["path"], out_dir / "index.html")
    usage = {"turns": state.get("turn", 0), "tokens": state.get("tokens", 0), "cost_usd": state.get("cost", 0.0)}
    (out_dir.parent / "trajectory.json").write_text(json.dumps(
        {"log": state.get("log", []), "drafts": state.get("drafts", []), "notes": model_notes(state.get("messages", [])),
         "stop_reason": state.get("stop_reason"), "usage": usage}, indent=2))
    if best is None:
        return {"status": "model_failure", "error": "the agent never wrote index.html", "usage": usage,
                "stop_reason": state.get("stop_reason")}
    return {"status": "ok", "usage": usage, "stop_reason": state.get("stop_reason"), "best_turn": best["turn"],
            "drafts": state.get("drafts", [])}


class Iterative:
    """A LangGraph tool loop over the MCP servers: write, render, compare with frames, replay, fix."""

    name, needs_model, iterates = "iterative", True, True

    async def make(self, job: CoderJob) -> CoderOutput:
        rec = await iterative(job.task, job.out, job.model, job.budget, job.thread, job.state_db, job.feedback)
        return CoderOutput(**rec, trajectory=str(job.out.parent / "trajectory.json"))
