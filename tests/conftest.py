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
