"""Which code and which tools made a record: the iwr version and git revision, Python, and the
Chromium and metric backends that judged it. Stamped on every result.json and summary.json."""
from __future__ import annotations

import platform
import subprocess
from functools import lru_cache
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=1)
def code_identity() -> dict:
    """The package version, and the git revision of the checkout it runs from (None outside one)."""
    try:
        version = metadata.version("iwr")
    except metadata.PackageNotFoundError:
        version = None
    revision, dirty = None, None
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        if head.returncode == 0:
            revision = head.stdout.strip()
            changed = subprocess.run(["git", "-C", str(ROOT), "diff-index", "--quiet", "HEAD", "--"],
                                     capture_output=True, timeout=10)
            dirty = changed.returncode != 0
    except (OSError, subprocess.TimeoutExpired):
        pass
    return {"iwr": version, "revision": revision, "dirty": dirty, "python": platform.python_version()}


def producer(browser: str | None = None, metrics: dict | None = None) -> dict:
    """The code's identity with the browser and metric backends of one judgement."""
    return {**code_identity(), "browser": browser or None, "metrics": dict(metrics or {})}
