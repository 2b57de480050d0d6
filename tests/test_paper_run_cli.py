"""`iwr run --judge-profile paper` end to end through the command line, as a user runs it: DINOv2 by
its Hub id from a loopback Hub (a tiny model the test builds), the judge model behind a loopback
OpenAI-compatible server (litellm's real calls), and the oracle's page of task 1 scored."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.agents.models import request_text
from tests.conftest import one_task_suite
from tests.fake_hub import FakeHub
from tests.test_judge_paper import BODY, RUBRIC, STAR_9, SUBMIT, TITLE

pytestmark = pytest.mark.slow


def judge_model(body: dict) -> str:
    """The judge model's answers to task 1, by what each request asks."""
    text = request_text(body["messages"])
    if "Score the generated page" in text:
        return "```json\n" + json.dumps(RUBRIC) + "\n```"
    if "first image is the page before" in text:
        return json.dumps({"answer": "Yes", "reason": "seen"})
    if "ACCESSIBILITY TREE" in text:
        action = re.search(r"description: ([^\n]*)", text).group(1)
        quoted = re.findall(r"'([^']+)'", action)
        if "star" in action:
            return json.dumps({"index": STAR_9})
        if "Review title" in action:
            return json.dumps({"index": TITLE, "text": quoted[0]})
        if "Your review" in action:
            return json.dumps({"index": BODY, "text": quoted[0]})
        return json.dumps({"index": SUBMIT})
    return "I cannot tell."


def test_a_paper_run_scores_a_bundled_task_with_dinov2_from_the_hub(tiny_dino: Path, tmp_path: Path, fake_openai):
    hub = FakeHub()
    hub.add_folder("models", "facebook/dinov2-base", tiny_dino)
    fake_openai.default = judge_model
    env = {k: v for k, v in os.environ.items() if k != "IWR_DINOV2_PATH"}
    env.update(HF_ENDPOINT=hub.url, HF_HUB_CACHE=str(tmp_path / "hub-cache"), OPENAI_API_KEY="test-key")
    runs = tmp_path / "runs"
    try:
        p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", "oracle",
                            "--tasks", str(one_task_suite(tmp_path / "suite")), "--task", "1",
                            "--judge-profile", "paper", "--judge-model", "openai/judge",
                            "--judge-api-base", fake_openai.base_url, "--runs-dir", str(runs), "--run-id", "p"],
                           capture_output=True, text=True, timeout=900, cwd=tmp_path, env=env)
    finally:
        hub.close()
    assert p.returncode == 0, p.stderr[-3000:]
    result = json.loads((runs / "p" / "1" / "result.json").read_text())
    assert result["status"] == "scored", result.get("error")
    assert result["ifs"] == 1.0 and result["profile"] == "paper"
    assert result["hvs"] == 0.92  # the model's rubric, 92 of 100
    assert set(result["backends"]) == {"dino", "ocr", "mllm"} and result["backends"]["dino"].startswith("dinov2")
    assert result["backends"]["ocr"].startswith("tesseract ")  # EasyOCR is not installed here (.venv-ocr: test_easyocr_run)
    checkpoints = result["judge"]["checkpoints"]
    assert len(checkpoints) == 6 and all(set(c["metrics"]) == {"dino", "ocr", "mllm"} for c in checkpoints)
    assert all(0.99 <= c["metrics"]["dino"] <= 1.0 for c in checkpoints)  # the oracle's page is the reference
    assert result["vfs"] == pytest.approx((result["lvs"] + result["hvs"]) / 2, abs=1e-3)
    assert result["final"] == pytest.approx(0.7 * result["ifs"] + 0.3 * result["vfs"], abs=1e-3)
    # the weights came from the Hub by id, into the cache the run was given
    assert (tmp_path / "hub-cache" / "models--facebook--dinov2-base").is_dir()
    asked = [request_text(r["messages"]) for r in fake_openai.requests]
    assert sum("ACCESSIBILITY TREE" in t for t in asked) >= 5  # the model grounded the clicks and types
    assert sum("Score the generated page" in t for t in asked) >= 1  # and rated the checkpoints
