"""The single-shot coder (the paper's protocol) as a LangGraph graph: prepare -> call -> write."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from iwr.agents.baselines import copy_assets
from iwr.agents.coder import CoderJob, CoderOutput
from iwr.agents.messages import user_message
from iwr.agents.models import ModelConfig, ModelFailure, complete
from iwr.agents.postprocess import extract_html, looks_like_html, resolve_assets
from iwr.tasks.frames import sample_frames
from iwr.tasks.instruction import instruction


class SingleShotLimits(BaseModel):
    """Per-model input limits (the paper used 64 frames / 70 images; some models 20 / 20)."""

    max_frames: int = Field(64, description="most video frames sent")
    max_images: int = Field(70, description="most images sent in all, asset sheets included")
    image_max_side: int = Field(1280, description="longer side of each image after downscaling, in pixels")


@dataclass
class CoderContext:
    model: ModelConfig
    limits: SingleShotLimits


class CoderState(TypedDict, total=False):
    video: str | None
    sheets: list[str]
    width: int
    height: int
    out_dir: str
    assets_href: str
    messages: list
    answer: str
    usage: dict
    status: str
    error: str


async def prepare(state: CoderState, runtime: Runtime[CoderContext]) -> dict:
    lim = runtime.context.limits
    sheets = [Path(p) for p in state["sheets"]][: lim.max_images]
    frames = []
    if state.get("video"):
        frames = [im for _, im in sample_frames(Path(state["video"]), len(sheets), max_frames=lim.max_frames,
                                                max_images=lim.max_images)]
    text = instruction(state["width"], state["height"])
    return {"messages": user_message(text, [*sheets, *frames], lim.image_max_side)}


async def call(state: CoderState, runtime: Runtime[CoderContext]) -> dict:
    reply = await complete(state["messages"], runtime.context.model)
    usage = reply.model_dump(exclude={"text"})
    return {"answer": reply.text, "usage": usage}


async def write(state: CoderState) -> dict:
    html = resolve_assets(extract_html(state["answer"]), state["assets_href"])
    out = Path(state["out_dir"])
    out.mkdir(parents=True, exist_ok=True)
    (out / "index.html").write_text(html, encoding="utf-8")
    (out / "answer.txt").write_text(state["answer"], encoding="utf-8")
    if not looks_like_html(html):
        return {"status": "model_failure", "error": "the answer holds no HTML page" if state["answer"].strip()
                else "the answer is empty"}
    return {"status": "ok"}


def build_single_shot_graph():
    g = StateGraph(CoderState, context_schema=CoderContext)
    g.add_node("prepare", prepare)
    g.add_node("call", call)
    g.add_node("write", write)
    g.add_edge(START, "prepare")
    g.add_edge("prepare", "call")
    g.add_edge("call", "write")
    g.add_edge("write", END)
    return g.compile()


async def single_shot(video: Path | None, sheets: list[Path], size: tuple[int, int], out_dir: Path,
                      model: ModelConfig, limits: SingleShotLimits | None = None, assets_href: str = "assets") -> dict:
    """Generate `out_dir/index.html` with one model call; returns status, usage and any error."""
    state = {"video": str(video) if video else None, "sheets": [str(s) for s in sheets], "width": size[0],
             "height": size[1], "out_dir": str(out_dir), "assets_href": assets_href}
    try:
        final = await build_single_shot_graph().ainvoke(
            state, context=CoderContext(model=model, limits=limits or SingleShotLimits()))
    except ModelFailure as e:
        return {"status": "model_failure", "error": str(e), "usage": {}}
    return {"status": final["status"], "error": final.get("error"), "usage": final.get("usage", {})}


class SingleShot:
    """The paper's protocol: one model call with the video's frames and the asset sheets, no tools."""

    name, needs_model, iterates = "single-shot", True, False

    async def make(self, job: CoderJob) -> CoderOutput:
        copy_assets(job.task, job.out)
        task = job.task
        return CoderOutput(**await single_shot(task.video, task.asset_sheets(), task.size, job.out, job.model))
