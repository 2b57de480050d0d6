"""Judge what an outside agent left in a workspace made by `iwr prepare`."""
from __future__ import annotations

from pathlib import Path

from agents.toolbox import Toolbox
from evals.judging.artifact import judge_artifact, judge_servers
from evals.records.results import TaskResult
from graphs.judge import JudgeConfig
from tasks.marker import read_marker


async def judge_folder(folder: Path, config: JudgeConfig | None = None) -> TaskResult:
    """Judge the `index.html` an outside agent left in a workspace made by `iwr prepare`."""
    task = read_marker(folder)
    config = config or JudgeConfig()
    shots = folder / ".iwr-judge"
    base = {"task_id": task.id, "agent": "external", "profile": config.profile}
    with open(folder / ".iwr-judge.log", "a") as errlog:
        async with Toolbox(judge_servers(shots, task.suite_root, extra_roots=[folder]), errlog=errlog) as tools:
            result = await judge_artifact(task, folder / "index.html", tools, config, base)
    (folder / "judgement.json").write_text(result.model_dump_json(indent=2))
    return result
