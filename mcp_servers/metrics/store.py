"""Per-image results that outlive a process: a reference checkpoint is read once, not once per run.

Entries are keyed by the image's pixels and the code that computed them, so a store can be shared
by tasks, runs and processes. Values are JSON: numbers, texts, arrays (no pickles: a store is
data, never code).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from iwr.settings import env_name, settings


STORE_ENV = env_name("metric_store")
# Part of every kind's name: raise it when the code computing a kept value changes what it returns.
FORMAT = 1


def default_root() -> Path:
    """$IWR_METRIC_STORE, else the user's cache folder."""
    kept = settings().metric_store
    if kept:
        return kept
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "iwr" / "metrics"


class ImageStore:
    """OCR texts, embeddings, blocks and floors by (kind, key) under one folder; a damaged entry reads as absent."""

    def __init__(self, root: str | Path):
        self.root = Path(root)

    def _path(self, kind: str, key: str, suffix: str = ".json") -> Path:
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in kind)
        name = "".join(c if c.isalnum() else "_" for c in key)
        return self.root / safe / name[:2] / f"{name}{suffix}"

    def get(self, kind: str, key: str) -> object | None:
        try:
            raw = json.loads(self._path(kind, key).read_text())
            if "array" in raw:
                return np.asarray(raw["array"], dtype=raw["dtype"]).reshape(raw["shape"])
            return raw["value"]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, kind: str, key: str, value: object) -> None:
        if isinstance(value, np.ndarray):  # floats written in full, so they read back bit for bit
            doc = {"array": value.tolist(), "dtype": str(value.dtype), "shape": list(value.shape)}
        else:
            doc = {"value": value}
        path = self._path(kind, key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "w") as f:
                    json.dump(doc, f)
                os.replace(tmp, path)  # readers see the whole entry or none
            finally:
                Path(tmp).unlink(missing_ok=True)
        except OSError:
            pass  # a read-only or full disk costs time, never a result
