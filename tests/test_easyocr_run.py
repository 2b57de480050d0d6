"""EasyOCR as the paper profile's OCR where it is installed, run in .venv-ocr (scripts/setup_ocr.sh; EasyOCR
needs torchvision, which does not import beside .venv's CPU torch). EasyOCR's two model files, random
weights built from its own classes, come by Hub id from a loopback Hub like DINOv2; a paper run through
the command line reads every checkpoint with EasyOCR and says so, and without the files it stops before
the coder. Marked `easyocr` (deselected by default; `make test-easyocr` runs it): the side venv is ~6 GB."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from iwr.tasks.defaults import PROJECT_ROOT
from tests.conftest import one_task_suite
from tests.fake_hub import FakeHub
from tests.test_paper_run_cli import judge_model

pytestmark = [pytest.mark.easyocr, pytest.mark.slow]
REPO = "mirror/easyocr-english"


@pytest.fixture(scope="module")
def ocr_python() -> Path:
    """.venv-ocr's Python, set up first (fast when it is there already)."""
    subprocess.run(["bash", "scripts/setup_ocr.sh"], cwd=PROJECT_ROOT, check=True, timeout=1800)
    return PROJECT_ROOT / ".venv-ocr" / "bin" / "python"


@pytest.fixture(scope="module")
def easyocr_files(ocr_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("easyocr-files")
    subprocess.run([str(ocr_python), "-m", "tests.easyocr_weights", str(folder)], cwd=PROJECT_ROOT, check=True,
                   timeout=300)
    return folder


def _paper_run(python: Path, tmp_path: Path, env: dict, fake_openai) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-m", "iwr.evals.cli", "run", "--agent", "oracle",
                           "--tasks", str(one_task_suite(tmp_path / "suite")), "--task", "1",
                           "--judge-profile", "paper", "--judge-model", "openai/judge",
                           "--judge-api-base", fake_openai.base_url, "--runs-dir", str(tmp_path / "runs"),
                           "--run-id", "p"], capture_output=True, text=True, timeout=900, cwd=tmp_path, env=env)


def _env(tmp_path: Path, hub: FakeHub, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("IWR_DINOV2_PATH", "IWR_EASYOCR_PATH", "IWR_EASYOCR_ID")}
    env.update(HF_ENDPOINT=hub.url, HF_HUB_CACHE=str(tmp_path / "hub-cache"), OPENAI_API_KEY="test-key",
               EASYOCR_MODULE_PATH=str(tmp_path / "easyocr-home"), **extra)
    return env


def test_a_paper_run_reads_with_easyocr_fetched_by_hub_id(ocr_python, easyocr_files, tiny_dino, tmp_path, fake_openai):
    hub = FakeHub()
    hub.add_folder("models", "facebook/dinov2-base", tiny_dino)
    hub.add_folder("models", REPO, easyocr_files)
    fake_openai.default = judge_model
    try:
        p = _paper_run(ocr_python, tmp_path, _env(tmp_path, hub, IWR_EASYOCR_ID=REPO), fake_openai)
    finally:
        hub.close()
    assert p.returncode == 0, p.stderr[-3000:]
    result = json.loads((tmp_path / "runs" / "p" / "1" / "result.json").read_text())
    assert result["status"] == "scored" and result["ifs"] == 1.0, result.get("error")
    # the result names the engine, and that these are not EasyOCR's published weights
    assert result["backends"]["ocr"].startswith("easyocr") and "+weights-" in result["backends"]["ocr"]
    checkpoints = result["judge"]["checkpoints"]
    assert len(checkpoints) == 6 and all(0.0 <= c["metrics"]["ocr"] <= 1.0 for c in checkpoints)
    assert (tmp_path / "hub-cache" / "models--mirror--easyocr-english").is_dir()  # fetched by id into the cache
    assert result["final"] == pytest.approx(0.7 * result["ifs"] + 0.3 * result["vfs"], abs=1e-3)


def test_a_paper_run_without_easyocrs_files_stops_before_the_coder(ocr_python, tiny_dino, tmp_path, fake_openai):
    hub = FakeHub()
    hub.add_folder("models", "facebook/dinov2-base", tiny_dino)
    try:
        p = _paper_run(ocr_python, tmp_path, _env(tmp_path, hub), fake_openai)
    finally:
        hub.close()
    assert p.returncode == 2, p.stderr[-2000:]
    (message,) = [line for line in p.stderr.splitlines() if line.startswith("error:")]
    assert "the judge cannot score this run" in message and "metric 'ocr'" in message
    assert "craft_mlt_25k.pth and english_g2.pth are not in" in message and "IWR_EASYOCR_ID" in message
    assert "DINOv2" not in message  # that one was there
    assert not (tmp_path / "runs" / "p" / "1").exists()


def test_the_offline_profile_keeps_tesseract_where_easyocr_is_installed(ocr_python, easyocr_files, tmp_path):
    env = {**os.environ, "IWR_EASYOCR_PATH": str(easyocr_files)}
    code = ("from iwr.graphs.judge import JudgeConfig; from iwr.mcp_servers.metrics.ocr import resolve_engine;"
            "import json; print(json.dumps([JudgeConfig().ocr_engine, resolve_engine('auto')]))")
    p = subprocess.run([str(ocr_python), "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    assert json.loads(p.stdout) == ["tesseract", "easyocr"]
    doctor = subprocess.run([str(ocr_python), "-m", "iwr.evals.cli", "doctor", "--no-launch", "--json"],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    (check,) = [c for c in json.loads(doctor.stdout) if c["part"].startswith("EasyOCR")]
    assert check["ok"] and str(easyocr_files) in check["detail"]
