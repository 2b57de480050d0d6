"""The Python API (evals/api.py) and plug-ins: a coder and a metric from a module outside the package,
run through `iwr.run` and through `iwr --plugin`; the metric reaches the metrics server, which
is another process."""
import json
import os
import subprocess
import sys

import pytest

from iwr import judge, load_tasks, run
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import TaskFileError
from iwr.tasks.plugins import ENV, PluginError, load_plugins

PLUGIN = "tests.plugins.example_plugin"


def test_load_tasks_reads_the_suite_and_names_a_broken_file(tmp_path, suite_dir):
    suite = load_tasks(suite_dir)
    assert suite.get("1").id == "1" and len(suite.tasks) >= 20
    (tmp_path / "data.jsonl").write_text('{"id": 1, "oops": true}\n')
    with pytest.raises(TaskFileError, match="data.jsonl"):
        load_tasks(tmp_path)


def test_a_plug_in_that_does_not_import_is_named(monkeypatch):
    monkeypatch.setenv(ENV, "tests.plugins.no_such_module")
    with pytest.raises(PluginError, match="no_such_module"):
        load_plugins()
    env = {k: v for k, v in os.environ.items() if k != ENV}
    bad = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "--plugin", "no_such_module_either", "runs", "list"],
                         capture_output=True, text=True, timeout=120, env=env)
    assert bad.returncode == 2 and "no_such_module_either" in bad.stderr


@pytest.mark.slow
def test_a_plug_in_coder_and_metric_through_the_api(tmp_path, monkeypatch, suite_dir):
    monkeypatch.setenv(ENV, PLUGIN)  # the metrics server the run starts imports it too
    cfg = JudgeConfig(lvs_metrics=["grey_mean", "structural"])
    out = run("title-only", suite_dir, task_ids=["1"], run_id="plug", runs_dir=tmp_path, judge=cfg, cache=False)
    (r,) = out.results
    assert out.run_dir == tmp_path / "plug" and out.summary.tasks[0].task_id == "1"
    assert r.status == "scored" and r.ifs == 0.0
    assert r.backends["grey_mean"] == "example-plugin 1"
    first = r.judge["checkpoints"][0]["metrics"]
    assert 0.0 <= first["grey_mean"] <= 1.0 and out.summary.mean.final == pytest.approx(r.final)

    reference = load_tasks(suite_dir).get("1").reference_site()
    judged = judge(reference, "1", tasks=suite_dir, work=tmp_path / "j", config=JudgeConfig(probes=False))
    assert judged.status == "scored" and judged.ifs == 1.0 and judged.producer["browser"].startswith("Chromium")


@pytest.mark.slow
def test_the_command_line_takes_the_plug_in(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != ENV}
    p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "--plugin", PLUGIN, "run", "--agent", "title-only",
                        "--task", "1", "--run-id", "cli", "--runs-dir", str(tmp_path), "--no-cache", "--json"],
                       capture_output=True, text=True, timeout=600, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    out = json.loads(p.stdout)
    assert out["agent"] == "title-only" and out["tasks"][0]["status"] == "scored"
    unknown = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "title-only", "--task", "1",
                              "--runs-dir", str(tmp_path)], capture_output=True, text=True, timeout=300, env=env)
    assert unknown.returncode == 2 and "unknown agent 'title-only'" in unknown.stderr


def test_run_and_arun_name_the_same_options_as_the_command_line():
    import inspect

    from iwr import arun

    sync, coro = inspect.signature(run).parameters, inspect.signature(arun).parameters
    assert list(sync) == list(coro)
    assert {"sandbox", "expose", "executor", "address", "budget", "epochs", "retry_failed", "feedback"} <= set(sync)
    assert all(p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) for p in sync.values())  # no **options
    with pytest.raises(ValueError, match="executor"):
        run("oracle", task_ids=["1"], executor="threads")


@pytest.mark.slow
def test_a_coder_object_runs_without_registering_it_first(tmp_path, suite_dir):
    import shutil

    from iwr.agents.coder import CoderJob, CoderOutput

    class CopiesTheReference:
        name, needs_model, iterates = "copies-the-reference", False, False

        async def make(self, job: CoderJob) -> CoderOutput:
            shutil.copytree(job.task.reference_site(), job.out, dirs_exist_ok=True)
            return CoderOutput()

    out = run(CopiesTheReference(), suite_dir, task_ids=["1"], runs_dir=tmp_path, run_id="obj", cache=False)
    (r,) = out.results
    assert r.agent == "copies-the-reference" and r.status == "scored" and r.ifs == 1.0
