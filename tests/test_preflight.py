"""A run whose judge cannot score stops before any coder starts, with one message naming every gap
(DINOv2 weights, the judge model's server, a provider key); with the weights on a loopback Hub and
the model's server up, the same check passes and leaves DINOv2 in the Hub cache."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from iwr.agents.models import ModelConfig
from iwr.evals.run.preflight import judge_problems
from iwr.graphs.judge import JudgeConfig
from tests.fake_hub import FakeHub

pytestmark = pytest.mark.slow


def test_a_paper_run_without_weights_or_judge_stops_before_the_coder(tmp_path, monkeypatch):
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    runs = tmp_path / "runs"
    p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "oracle", "--task", "1",
                        "--judge-profile", "paper", "--judge-model", "openai/judge", "--judge-api-base",
                        "http://127.0.0.1:9/v1", "--runs-dir", str(runs), "--run-id", "p"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 2, p.stderr[-2000:]
    (message,) = [line for line in p.stderr.splitlines() if line.startswith("error:")]
    assert "the judge cannot score this run" in message
    assert "cannot get DINOv2 facebook/dinov2-base from the Hub at http://127.0.0.1:9" in message
    assert "the judge model's server http://127.0.0.1:9/v1 does not answer" in message
    assert not (runs / "p" / "1").exists()  # no coder ran, nothing was judged


async def test_the_check_passes_with_the_weights_on_the_hub_and_the_server_up(tiny_dino: Path, tmp_path,
                                                                             monkeypatch, fake_openai):
    hub = FakeHub()
    hub.add_folder("models", "facebook/dinov2-base", tiny_dino)
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("IWR_DINOV2_PATH", raising=False)
    model = ModelConfig(model="openai/judge", api_base=fake_openai.base_url)
    try:
        assert await judge_problems(JudgeConfig.for_profile("paper", model)) == []
    finally:
        hub.close()
    assert (tmp_path / "cache" / "models--facebook--dinov2-base").is_dir()
    assert fake_openai.requests == []  # reachability costs no completion
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    keyless = JudgeConfig.for_profile("hybrid", ModelConfig(model="openai/gpt-4o"))
    assert await judge_problems(keyless) == ["the judge model openai/gpt-4o needs OPENAI_API_KEY in the environment"]
    assert await judge_problems(JudgeConfig()) == []  # offline: nothing to fetch, no model
