"""Shared fixtures: the bundled suite, a scratch copy of it, and a local fake OpenAI-compatible server."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tasks" / "suite"


@pytest.fixture(scope="session")
def suite_dir() -> Path:
    return SUITE


def one_task_suite(root: Path, task_id: str = "1") -> Path:
    """A writable suite under `root` holding one bundled task and its reference site."""
    import json

    dst = root / "tasks" / "suite"
    dst.mkdir(parents=True)
    line = next(x for x in (SUITE / "data.jsonl").read_text().splitlines() if json.loads(x)["id"] == int(task_id))
    (dst / "data.jsonl").write_text(line + "\n")
    shutil.copytree(SUITE / "data" / task_id, dst / "data" / task_id)
    site = json.loads(line)["iwr"]["reference"]["site"]
    shutil.copytree((SUITE / site).resolve(), (dst / site).resolve())
    return dst


@pytest.fixture
def suite_copy(tmp_path: Path) -> Path:
    """A writable one-task copy of the bundled suite (task 1 and its site, same relative layout)."""
    return one_task_suite(tmp_path)


@pytest.fixture
def fake_openai():
    """Start the local fake OpenAI-compatible server; yields it (set `.replies` to script answers)."""
    from tests.fake_openai import FakeOpenAI

    server = FakeOpenAI()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def scripted_iterative(tmp_path_factory):
    """The scripted iterative run (tests/iterative_script.py), run once per session:
    yields (runs_dir, result, the requests the fake model received)."""
    import asyncio

    from tests.fake_openai import FakeOpenAI
    from tests.iterative_script import run_scripted, script

    server = FakeOpenAI()
    server.replies = script()
    server.start()
    try:
        runs = tmp_path_factory.mktemp("iterative-runs")
        result = asyncio.run(run_scripted(server.base_url, runs, SUITE))
        yield runs, result, server.requests
    finally:
        server.stop()


@pytest.fixture(scope="session")
def tiny_dino(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised, very small DINOv2 saved as a local model folder (no download)."""
    import transformers  # a project dependency: missing, the test fails rather than skips
    cfg = transformers.Dinov2Config(
        hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64, image_size=56, patch_size=14
    )
    folder = tmp_path_factory.mktemp("tiny-dinov2")
    transformers.Dinov2Model(cfg).save_pretrained(folder)
    transformers.BitImageProcessor(
        size={"shortest_edge": 64}, crop_size={"height": 56, "width": 56},
        image_mean=[0.485, 0.456, 0.406], image_std=[0.229, 0.224, 0.225],
    ).save_pretrained(folder)
    return folder
