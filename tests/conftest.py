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


@pytest.fixture
def suite_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled suite whose reference paths still point at tasks/sites."""
    dst = tmp_path / "tasks" / "suite"
    shutil.copytree(SUITE, dst)
    shutil.copytree(ROOT / "tasks" / "sites" / "reviews", tmp_path / "tasks" / "sites" / "reviews")
    return dst


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
