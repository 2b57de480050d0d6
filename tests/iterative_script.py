"""The scripted iterative run shared by tests: the agent writes a page with a broken handler,
renders and replays it, fixes the handler, compares with a frame, replays again and finishes."""
from __future__ import annotations

from pathlib import Path

from iwr.agents.models import ModelConfig
from iwr.evals.records.results import TaskResult
from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.agents.coder import Budget
from iwr.tasks.loader import load_suite

SITE = Path(__file__).resolve().parent.parent / "tasks" / "sites" / "reviews"
GOOD = (SITE / "index.html").read_text().replace("assets/poster.png", "assets/1.png")
HANDLER = "document.getElementById('submit').onclick = () => {"
BROKEN = GOOD.replace(HANDLER, "document.getElementById('submit').onclick_disabled = () => {")
RUN_ID = "it"


def call(name, said=None, **arguments):
    return {"content": said, "tool_calls": [{"name": name, "arguments": arguments}]}


def script() -> list[dict]:
    """The fake model's replies, in order (the model's words hold markup, as untrusted text would)."""
    return [
        call("write_file", "First draft <b>from the video</b>.", path="index.html", content=BROKEN),
        call("render"),
        call("replay"),
        call("edit_file", "The submit handler is not attached; fixing it.", path="index.html",
             old="onclick_disabled = () => {", new="onclick = () => {"),
        call("compare_with_frame", index=0),
        call("replay"),
        call("finish"),
    ]


async def run_scripted(base_url: str, runs_dir: Path, suite_dir: Path) -> TaskResult:
    """Run the iterative agent on task 1 against the fake server at `base_url`; results under runs_dir/it.

    The model name is in litellm's local cost map, so the run has a (tiny) dollar cost."""
    cfg = RunConfig(run_id=RUN_ID, agent="iterative", suite=load_suite(suite_dir), runs_dir=runs_dir, task_ids=["1"],
                    model=ModelConfig(model="openai/gpt-4o-mini", api_base=base_url, retries=0),
                    budget=Budget(turns=10))
    return (await run(cfg))[0]
