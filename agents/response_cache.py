"""A response cache for model calls: one SQLite file keyed by the request, so a rerun costs nothing.

Only successful replies are stored. The key covers everything that shapes the answer (model,
server, messages, tools, temperature, length limit); the API key and timeouts do not.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from pathlib import Path

from iwr.settings import env_name, settings

ENV = env_name("response_cache")  # a path, or "off" to disable
OFF = ("", "0", "off", "false", "no", "none")
SCHEMA = "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, reply TEXT, created REAL)"


def request_key(model: str, api_base: str | None, messages: list, tools: list | None, temperature: float,
                max_tokens: int) -> str:
    """sha256 of the canonical JSON of everything that shapes the answer."""
    request = {"model": model, "api_base": api_base, "messages": messages, "tools": tools or None,
               "temperature": temperature, "max_tokens": max_tokens}
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def cache_path(configured: str | None) -> Path | None:
    """The cache file: the configured one, else the environment variable's; None (or "off") is no cache."""
    value = configured if configured is not None else settings().response_cache
    if value is None or value.strip().lower() in OFF:
        return None
    return Path(value)


_open: dict[Path, "ResponseCache"] = {}


def response_cache(configured: str | None) -> "ResponseCache | None":
    """The cache for a configured path (one instance per file per process), or None when off."""
    path = cache_path(configured)
    if path is None:
        return None
    path = path.resolve()
    if path not in _open:
        _open[path] = ResponseCache(path)
    return _open[path]


class ResponseCache:
    """Replies by request key; a short connection per call, so concurrent tasks and processes share it."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")  # readers never block the writer of another task
            db.execute(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def get(self, key: str) -> dict | None:
        """The stored reply (a Reply as a dict), or None."""
        db = self._connect()
        try:
            row = db.execute("SELECT reply FROM responses WHERE key=?", (key,)).fetchone()
        finally:
            db.close()
        return json.loads(row[0]) if row else None

    def put(self, key: str, model: str, reply: dict) -> None:
        db = self._connect()
        try:
            with db:
                db.execute("INSERT OR REPLACE INTO responses VALUES (?,?,?,?)",
                           (key, model, json.dumps(reply), time.time()))
        finally:
            db.close()

    def count(self) -> int:
        """How many replies are stored."""
        db = self._connect()
        try:
            return db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        finally:
            db.close()
