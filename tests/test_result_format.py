"""The versioned result format: every result.json and summary.json names its schema version, the code
(version and git revision) and the browser and metric backends that made it; the shipped JSON Schemas
match the models; `iwr runs export` gives the same numbers as JSON lines and CSV."""
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.evals.records.results import SCHEMA_VERSION, TaskResult
from iwr.evals.records.schemas import MODELS, problems, schema_of, shipped

ROOT = Path(__file__).resolve().parent.parent
IWR = [sys.executable, "-m", "iwr.evals.cli"]


def iwr(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*IWR, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_the_shipped_schemas_are_the_models():
    """A change to the records without `write_schemas()` (and a thought about SCHEMA_VERSION) fails here."""
    for kind in MODELS:
        assert shipped(kind) == schema_of(kind), f"evals/records/schemas/{kind}.schema.json is stale"
        assert shipped(kind)["$id"].endswith(f".v{SCHEMA_VERSION}.schema.json")


def test_the_schema_rejects_what_a_reader_could_not_trust():
    good = json.loads(TaskResult(task_id="1", status="scored", agent="x").stamped().model_dump_json())
    assert problems("result", good) == []
    assert problems("result", {**good, "status": "great"})
    assert problems("result", {**good, "final": "0.9"})
    assert problems("result", {k: v for k, v in good.items() if k != "task_id"})
    assert problems("result", {**good, "surprise": 1})


@pytest.mark.slow
def test_a_run_stamps_its_records_and_exports_them(tmp_path):
    p = iwr("run", "--agent", "oracle", "--task", "1", "--task", "105", "--run-id", "o", "--runs-dir", str(tmp_path),
            "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert summary["schema_version"] == SCHEMA_VERSION and problems("summary", summary) == []
    for tid in ("1", "105"):
        r = json.loads((tmp_path / "o" / tid / "result.json").read_text())
        assert r["schema_version"] == SCHEMA_VERSION and problems("result", r) == []
        prod = r["producer"]
        assert prod["revision"] == head and prod["iwr"] and prod["browser"].startswith("Chromium ")
        assert {"ocr", "feature", "structural"} <= set(prod["metrics"])
    assert summary["producer"]["revision"] == head and summary["producer"]["browser"].startswith("Chromium ")

    lines = iwr("runs", "export", "o", "--format", "jsonl", "--runs-dir", str(tmp_path), cwd=tmp_path)
    assert lines.returncode == 0, lines.stderr
    records = [json.loads(x) for x in lines.stdout.splitlines()]
    assert [(x["run_id"], x["task_id"], x["epoch"]) for x in records] == [("o", "1", 1), ("o", "105", 1)]
    out = tmp_path / "o.csv"
    table = iwr("runs", "export", str(tmp_path / "o"), "--format", "csv", "--out", str(out), cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    by_task = {t["task_id"]: t for t in summary["tasks"]}
    for row in rows:
        assert float(row["final"]) == pytest.approx(by_task[row["task_id"]]["final"])
        assert row["actions_passed"] == row["actions_total"] != "0" and row["revision"] == head
    bad = iwr("runs", "export", "o", "--format", "xml", "--runs-dir", str(tmp_path), cwd=tmp_path)
    assert bad.returncode == 2 and "jsonl, csv" in bad.stderr
    none = iwr("runs", "export", "nothing-here", "--runs-dir", str(tmp_path), cwd=tmp_path)
    assert none.returncode == 2 and "no result.json" in none.stderr
