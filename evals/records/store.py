"""The run database: one SQLite file for many runs, mirroring each run's result.json files.

`result.json` in the run folder is the record of truth (its existence means a task is done); the
database makes runs listable and comparable across folders and is rebuilt from them when needed.
"""
from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from iwr.evals.records.results import TaskResult, cost_of

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY, agent TEXT, model TEXT, profile TEXT, suite TEXT, created REAL, config TEXT);
CREATE TABLE IF NOT EXISTS results (
  run_id TEXT, task_id TEXT, epoch INTEGER, status TEXT, ifs REAL, lvs REAL, hvs REAL, vfs REAL, final REAL,
  error TEXT, seconds REAL, cost_usd REAL, detail TEXT, PRIMARY KEY (run_id, task_id, epoch));
"""


class Store:
    """A SQLite database of runs and task results (WAL mode, safe against a killed writer)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def add_run(self, run_id: str, agent: str, model: str | None, profile: str, suite: str, config: dict) -> None:
        with self.db:
            self.db.execute("INSERT OR IGNORE INTO runs VALUES (?,?,?,?,?,?,?)",
                            (run_id, agent, model, profile, suite, time.time(), json.dumps(config)))

    def add_result(self, run_id: str, r: TaskResult, epoch: int = 1) -> None:
        spent, known = cost_of(r)
        cost = spent if known else None
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                            (run_id, r.task_id, epoch, r.status, r.ifs, r.lvs, r.hvs, r.vfs, r.final, r.error,
                             sum(r.seconds.values()), cost, r.model_dump_json()))

    def runs(self) -> list[dict]:
        """Every run with its counts and mean Final over counted tasks."""
        q = """SELECT r.run_id, r.agent, r.model, r.profile, r.created, COUNT(x.task_id),
                      SUM(x.status IN ('scored','model_failure')), AVG(CASE WHEN x.status IN ('scored','model_failure')
                      THEN x.final END), SUM(x.status = 'infra_failure')
               FROM runs r LEFT JOIN results x ON x.run_id = r.run_id GROUP BY r.run_id ORDER BY r.created"""
        keys = ("run_id", "agent", "model", "profile", "created", "results", "counted", "mean_final", "infra_failures")
        return [dict(zip(keys, row)) for row in self.db.execute(q)]

    def results(self, run_id: str) -> list[dict]:
        q = "SELECT task_id, epoch, status, ifs, lvs, hvs, vfs, final, error, seconds FROM results WHERE run_id=? ORDER BY task_id, epoch"
        keys = ("task_id", "epoch", "status", "ifs", "lvs", "hvs", "vfs", "final", "error", "seconds")
        return [dict(zip(keys, row)) for row in self.db.execute(q, (run_id,))]

    def integrity(self) -> str:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]
