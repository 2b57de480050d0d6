"""`iwr calibrate` and `iwr bench` show their progress on stderr (stdout keeps the figures): each of
calibrate's judgements is expected as it is queued and counted as it ends."""
from __future__ import annotations

import asyncio
import json

from typer.testing import CliRunner

from iwr.evals.cli.app import app
from iwr.evals.quality import calibrate as calibration
from iwr.evals.quality.bench import PHASES
from iwr.evals.records.results import TaskResult
from iwr.tasks.loader import load_suite


class Recorded:
    def __init__(self) -> None:
        self.expected, self.steps = 0, []

    def expect(self, n: int) -> None:
        self.expected += n

    def step(self, label: str) -> None:
        assert len(self.steps) < self.expected, "a step ended before it was expected"
        self.steps.append(label)


def _instant(monkeypatch) -> list[str]:
    """Judgements that return at once (the bar, not the judge, is under test): a perfect reference,
    every mutant at zero."""
    seen = []

    async def judged(task, entry, tools, config, base, root=None):
        seen.append(base["agent"])
        score = 1.0 if base["agent"] == "reference" else 0.0
        return TaskResult(task_id=task.id, status="scored", agent=base["agent"], ifs=score, final=score)

    monkeypatch.setattr(calibration, "judge_artifact", judged)
    return seen


def test_calibrate_expects_each_judgement_and_counts_it(monkeypatch, suite_dir, tmp_path):
    seen = _instant(monkeypatch)
    steps = Recorded()
    res = asyncio.run(calibration.calibrate(load_suite(suite_dir), tmp_path / "w", max_tasks=2, progress=steps))
    assert steps.expected == len(steps.steps) == len(seen) == res["mutants"] + 2
    assert sum(label.endswith(": reference") for label in steps.steps) == 2


def test_the_command_line_shows_a_bar_on_stderr_and_clean_json_on_stdout(monkeypatch, tmp_path):
    _instant(monkeypatch)
    out = CliRunner().invoke(app, ["calibrate", "--max-tasks", "1", "--no-cache", "--work", str(tmp_path / "w"), "--json"])
    assert out.exit_code == 0, out.output
    figures = json.loads(out.stdout)
    n = figures["mutants"] + 1
    assert "calibrate: judgements" in out.stderr and f"{n}/{n}" in out.stderr


def test_bench_names_each_phase_once():
    assert len(PHASES) == len(set(PHASES.values())) == 6
