"""`iwr runs export`: a run's results for analysis, as JSON lines (every result.json whole, with its
run and epoch) or CSV (one flat row per task and epoch)."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

FORMATS = ("jsonl", "csv")
COLUMNS = ("run_id", "task_id", "epoch", "status", "ifs", "lvs", "hvs", "vfs", "final", "agent", "model", "profile",
           "actions_passed", "actions_total", "first_failed_action", "coder_seconds", "judge_seconds",
           "prompt_tokens", "completion_tokens", "cost_usd", "error", "schema_version", "iwr", "revision", "browser")


def natural_order(s: str) -> tuple:
    """A sort key that puts "2" before "10"."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"(\d+)", s) if p)


def result_files(run_dir: Path) -> list[tuple[str, int, Path]]:
    """(task folder's task id, epoch, path) of every `<task>[.e<N>]/result.json`, in natural task order."""
    found = []
    for f in Path(run_dir).glob("*/result.json"):
        m = re.fullmatch(r"(.+?)(?:\.e(\d+))?", f.parent.name)
        found.append((m.group(1), int(m.group(2) or 1), f))
    return sorted(found, key=lambda x: (natural_order(x[0]), x[1]))


def run_results(run_dir: Path) -> list[dict]:
    """Every result.json of a run folder, with `run_id` and `epoch`, in task order."""
    meta = Path(run_dir) / "run.json"
    run_id = json.loads(meta.read_text()).get("run_id", Path(run_dir).name) if meta.is_file() else Path(run_dir).name
    return [{"run_id": run_id, "epoch": epoch, **json.loads(f.read_text())} for _, epoch, f in result_files(run_dir)]


def flat(r: dict) -> dict:
    """The CSV row of one result."""
    acts = (r.get("judge") or {}).get("actions") or []
    failed = next((a.get("index") for a in acts if a.get("status") != "passed"), None)
    usage = (r.get("coder") or {}).get("usage") or {}
    prod = r.get("producer") or {}
    row = {k: r.get(k) for k in COLUMNS}
    row.update(actions_passed=sum(1 for a in acts if a.get("status") == "passed"), actions_total=len(acts),
               first_failed_action=failed, coder_seconds=(r.get("seconds") or {}).get("coder"),
               judge_seconds=(r.get("seconds") or {}).get("judge"), prompt_tokens=usage.get("prompt_tokens"),
               completion_tokens=usage.get("completion_tokens"),
               cost_usd="unknown" if "cost_usd" in usage and usage["cost_usd"] is None else usage.get("cost_usd"),
               iwr=prod.get("iwr"), revision=prod.get("revision"), browser=prod.get("browser"))
    return row


def export(run_dir: Path, fmt: str) -> str:
    """The run's results in `fmt` (jsonl or csv); ValueError for another format or a folder with none."""
    if fmt not in FORMATS:
        raise ValueError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    results = run_results(run_dir)
    if not results:
        raise ValueError(f"{run_dir} holds no result.json (not a run folder, or nothing finished yet)")
    if fmt == "jsonl":
        return "".join(json.dumps(r, sort_keys=True) + "\n" for r in results)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in results:
        w.writerow(flat(r))
    return buf.getvalue()
