"""Coders, metrics and judge profiles are found by name in one table each, and code outside the
package adds to them: a coder defined here runs through the real runner, a metric defined here
goes through the real metrics server, and a profile defined here changes what the real judge decides."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from mcp import Client

from iwr.agents.coder import CoderJob, CoderOutput
from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.evals.run.coders import CODERS, coder_named, register_coder
from iwr.evals.run.config import RunConfig
from iwr.evals.run.runner import run
from iwr.graphs.judge import JudgeConfig
from iwr.graphs.profiles import PROFILES, Profile, assert_offline, ground_offline, key_offline, register_profile
from iwr.mcp_servers.metrics.compare import METRICS, MetricValue, compare, register_metric
from iwr.mcp_servers.metrics.server import build_server as metrics_server
from iwr.tasks.loader import load_suite
from tests.conftest import ROOT


class Copycat:
    """Copies the reference site, and says it spent 42 tokens in 3 turns."""

    name, needs_model, iterates = "copycat-test", False, False

    async def make(self, job: CoderJob) -> CoderOutput:
        import shutil

        shutil.copytree(job.task.reference_site(), job.out)
        (job.out.parent / "steps.json").write_text(json.dumps([{"turn": 1, "did": "copied"}]))
        return CoderOutput(entry=job.task.record.iwr.reference.page, usage={"tokens": 42, "turns": 3},
                           trajectory=str(job.out.parent / "steps.json"), copied_from="reference")


class Quitter:
    """Gives up at once, as a model that answers nothing usable would."""

    name, needs_model, iterates = "quitter-test", False, False

    async def make(self, job: CoderJob) -> CoderOutput:
        return CoderOutput(status="model_failure", error="nothing to say", usage={"tokens": 7})


@pytest.fixture
def registered():
    added = [register_coder(Copycat()), register_coder(Quitter())]
    try:
        yield added
    finally:
        for c in added:
            CODERS.pop(c.name, None)


@pytest.mark.slow
async def test_a_coder_registered_here_is_run_and_judged_by_the_runner(registered, suite_copy, tmp_path):
    suite = load_suite(suite_copy)
    good = await run(RunConfig(run_id="copy", agent="copycat-test", suite=suite, runs_dir=tmp_path))
    assert [r.status for r in good] == ["scored"] and good[0].ifs == 1.0 and good[0].final > 0.95
    assert good[0].coder["usage"] == {"tokens": 42, "turns": 3} and good[0].coder["copied_from"] == "reference"
    assert good[0].coder["trajectory"].endswith("steps.json")
    stored = json.loads((tmp_path / "copy" / "1" / "result.json").read_text())
    assert stored["agent"] == "copycat-test" and stored["coder"]["usage"]["tokens"] == 42
    bad = await run(RunConfig(run_id="quit", agent="quitter-test", suite=suite, runs_dir=tmp_path))
    assert bad[0].status == "model_failure" and bad[0].error == "nothing to say" and bad[0].final == 0.0
    assert bad[0].coder["usage"] == {"tokens": 7}


async def test_an_unknown_coder_is_refused_with_the_known_names(suite_copy, tmp_path):
    with pytest.raises(ValueError, match="unknown agent 'nobody'.*oracle.*iterative"):
        coder_named("nobody")
    runs = tmp_path / "runs"
    with pytest.raises(ValueError, match="unknown agent"):
        await run(RunConfig(run_id="x", agent="nobody", suite=load_suite(suite_copy), runs_dir=runs))
    assert not runs.exists()  # refused before anything was written
    out = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "oracle,nobody", "--tasks",
                          str(suite_copy), "--runs-dir", str(runs)], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}, timeout=300)
    assert out.returncode == 2 and "unknown agent 'nobody'" in out.stderr
    assert not runs.exists()  # not even the oracle named before it ran


def _same_pixels(pair) -> MetricValue:
    return MetricValue(name="same_pixels", value=float(np.array_equal(np.asarray(pair.ref), np.asarray(pair.cand))),
                       backend="test", version="1")


async def test_a_metric_registered_here_is_listed_and_computed_by_the_metrics_server(suite_dir):
    shots = sorted((suite_dir / "data" / "1" / "checkpoints").glob("*.png"))
    register_metric("same_pixels", _same_pixels, doc="1 when every pixel is equal")
    try:
        assert compare(shots[0], shots[0], ["same_pixels"])["same_pixels"].value == 1.0
        async with Client(metrics_server(allowed_roots=[suite_dir], preload=False)) as c:
            listed = (await c.call_tool("list_metrics", {})).structured_content["result"]
            assert "same_pixels" in listed and listed[:2] == ["ocr", "ssim"]
            got = await c.call_tool("compare", {"reference": str(shots[0]), "candidate": str(shots[-1]),
                                                "metrics": ["same_pixels", "ssim"]})
            assert not got.is_error, got.content
            values = json.loads(got.content[0].text)
            assert values["same_pixels"]["value"] == 0.0 and values["same_pixels"]["backend"] == "test"
            assert 0 < values["ssim"]["value"] < 1
    finally:
        METRICS.pop("same_pixels", None)
    assert "same_pixels" not in METRICS


async def _disbelieve(ctx, sid, action, before, after):
    """A judge that believes no assertion (and checks none)."""
    if action.get("logical_assertion"):
        return {"passed": False, "method": "test", "reason": "this profile believes nothing"}
    return await assert_offline(ctx, sid, action, before, after)


@pytest.mark.slow
async def test_a_profile_registered_here_decides_what_the_judge_does(suite_dir, tmp_path):
    register_profile(Profile("doubting-test", ground_offline, key_offline, _disbelieve, lvs_metrics=("ocr",),
                             hvs_metric="ssim"))
    try:
        task = load_suite(suite_dir).get("1")
        page = task.reference_site() / task.record.iwr.reference.page
        first_assert = next(i for i, a in enumerate(task.record.action_sequence, 1) if a.logical_assertion)
        with open(tmp_path / "servers.log", "w") as errlog:
            async with Toolbox(judge_servers(tmp_path, suite_dir), errlog=errlog) as tools:
                base = {"task_id": "1", "agent": "oracle"}
                honest = await judge_artifact(task, page, tools, JudgeConfig(probes=False), base)
                doubting = await judge_artifact(task, page, tools,
                                                JudgeConfig.for_profile("doubting-test", probes=False), base)
        assert honest.ifs == 1.0
        assert doubting.judge["successful_actions"] == first_assert - 1
        assert doubting.judge["lvs_metrics"] == ["ocr"] and doubting.judge["hvs_metric"] == "ssim"
        assert set(doubting.backends) == {"ocr", "ssim"}
    finally:
        PROFILES.pop("doubting-test", None)
    with pytest.raises(ValueError, match="unknown judge profile 'doubting-test'"):
        JudgeConfig(profile="doubting-test")
