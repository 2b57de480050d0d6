"""Checkpoints numbered by position (the official data) or by action number (our older recordings):
each task is read the way its files fit, and a missing or unreadable checkpoint is the task's
problem (`invalid_task`, never averaged), not a 0 for the page."""
import json
import shutil

import pytest
from PIL import Image

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.evals.records.results import mean_scores
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.checkpoints import checkpoint_plan, judged_steps
from iwr.tasks.loader import load_suite
from iwr.tasks.validate import validate_suite


def folder_with(tmp_path, steps: list[int]):
    cp = tmp_path / "checkpoints"
    cp.mkdir(parents=True)
    for s in steps:
        Image.new("RGB", (8, 8), (s, s, s)).save(cp / f"step_{s}.png")
    return tmp_path


def steps(flags: list[bool]) -> list[int]:
    return judged_steps([{"visual_evaluation_flag": f} for f in flags])


def test_each_convention_is_recognised_from_the_files(tmp_path):
    flags = [True, False, True, True]  # judged steps 0, 1, 3, 4
    by_position = checkpoint_plan(steps(flags), folder_with(tmp_path / "p", [0, 1, 2, 3]))
    assert by_position.convention == "position" and by_position.complete
    assert {s: p.name for s, p in by_position.files.items()} == {0: "step_0.png", 1: "step_1.png", 3: "step_2.png",
                                                                  4: "step_3.png"}
    by_action = checkpoint_plan(steps(flags), folder_with(tmp_path / "a", [0, 1, 3, 4]))
    assert by_action.convention == "action" and by_action.complete and by_action.files[3].name == "step_3.png"
    both = checkpoint_plan(steps([True, True, False]), folder_with(tmp_path / "b", [0, 1, 2]))
    assert both.convention == "position" and both.complete  # the two agree: position is the default


def test_missing_and_stray_files_are_named_against_the_nearest_convention(tmp_path):
    flags = [True, False, True, True, False, True]  # judged 0, 1, 3, 4, 6
    plan = checkpoint_plan(steps(flags), folder_with(tmp_path / "m", [0, 1, 3, 6, 9]))
    assert plan.convention == "action" and plan.missing == [4] and plan.strays == ["step_9.png"]
    nothing = checkpoint_plan(steps(flags), tmp_path / "none")
    assert nothing.missing == [0, 1, 3, 4, 6] and not nothing.complete


def renumbered_by_position(task_dir):
    """Rename a recorded task's checkpoints from action numbers to positions, as the official data has them."""
    cp = task_dir / "checkpoints"
    rec = None
    for line in (task_dir.parent.parent / "data.jsonl").read_text().splitlines():
        if json.loads(line)["id"] == int(task_dir.name):
            rec = json.loads(line)
    steps = [0] + [k for k, a in enumerate(rec["action_sequence"], 1) if a["visual_evaluation_flag"]]
    moved = {s: cp / f"tmp_{s}.png" for s in steps}
    for s, tmp in moved.items():
        (cp / f"step_{s}.png").rename(tmp)
    for j, s in enumerate(steps):
        moved[s].rename(cp / f"step_{j}.png")
    return steps


@pytest.mark.slow
async def test_both_conventions_judge_alike_and_a_broken_checkpoint_is_the_tasks_problem(suite_copy, tmp_path):
    def copy(name):  # the suite with its reference site beside it, as the bundled layout has them
        shutil.copytree(suite_copy.parent, tmp_path / name / "tasks")
        return tmp_path / name / "tasks" / "suite"

    official = copy("official")
    steps = renumbered_by_position(official / "data" / "1")
    assert steps != list(range(len(steps)))  # task 1's flagged actions are not simply the first ones
    assert validate_suite(official) == []
    missing = copy("missing")
    (missing / "data" / "1" / "checkpoints" / f"step_{steps[2]}.png").unlink()
    assert any("missing" in p.reason for p in validate_suite(missing))
    broken = copy("broken")
    (broken / "data" / "1" / "checkpoints" / "step_0.png").write_bytes(b"\x89PNG not really")

    results = {}
    with open(tmp_path / "servers.log", "w") as errlog:
        async with Toolbox(judge_servers(tmp_path, tmp_path), errlog=errlog) as tools:
            for name, root in (("action", suite_copy), ("position", official), ("missing", missing), ("broken", broken)):
                task = load_suite(root).get("1")
                page = task.reference_site() / task.record.iwr.reference.page
                results[name] = await judge_artifact(task, page, tools, JudgeConfig(probes=False),
                                                     {"task_id": "1", "agent": "oracle"})
    a, p = results["action"], results["position"]
    assert a.status == p.status == "scored" and a.ifs == p.ifs == 1.0
    assert a.judge["checkpoints_by"] == "action" and p.judge["checkpoints_by"] == "position"
    assert p.vfs == pytest.approx(a.vfs, abs=1e-6) and p.vfs > 0.98  # the same pairs, however the files are named
    assert results["missing"].status == "invalid_task" and f"step_{steps[2]}.png" in results["missing"].error
    assert results["broken"].status == "invalid_task" and "step_0.png" in results["broken"].error
    mean = mean_scores(list(results.values()))
    assert mean["counted"] == 2 and mean["by_status"]["invalid_task"] == 2  # reported, never averaged
