"""Judge what an outside agent left in a workspace made by `iwr prepare`.

The task comes from the register (or from the operator), never from a file in the folder, and the
judgement, its screenshots and its log are written outside the folder (see tasks/marker.py)."""
from __future__ import annotations

from pathlib import Path

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.judging.blame import judge_blaming
from iwr.evals.records.results import TaskResult
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.marker import Workspace


async def judge_folder(ws: Workspace, config: JudgeConfig | None = None) -> TaskResult:
    """Judge the `index.html` an outside agent left in `ws.folder`; the result also lands in
    `ws.judgements/judgement.json`."""
    config = config or JudgeConfig()
    ws.judgements.mkdir(parents=True, exist_ok=True)
    base = {"task_id": ws.task.id, "agent": "external", "profile": config.profile}
    with open(ws.judgements / "judge.log", "a") as errlog:
        async with Toolbox(judge_servers(ws.judgements, ws.task.suite_root, extra_roots=[ws.folder]),
                           errlog=errlog) as tools:
            result = await judge_blaming(ws.task, ws.folder / "index.html", tools, config, base)
    (ws.judgements / "judgement.json").write_text(result.stamped().model_dump_json(indent=2))
    return result


def judgement_path(ws: Workspace) -> Path:
    return ws.judgements / "judgement.json"
