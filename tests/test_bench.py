"""`iwr bench --json` on one task: every figure is there and is a positive finite number.
(The targets are for the full bench on an otherwise idle machine, not for a test.)"""
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
RATIOS = ("replay_vs_floor", "replay_vs_pixel_floor", "pixel_floor_vs_floor", "replay_vs_playwright", "replay_vs_floor_hints_off", "scoring_vs_full_ocr",
          "suite_vs_floor", "replay_vs_fixed_sleeps", "task_vs_max_parts", "mcp_vs_direct", "cached_vs_first",
          "rss_mb_per_context")


def test_bench_reports_every_figure(tmp_path):
    iwr = str(Path(sys.executable).parent / "iwr")
    out = subprocess.run([iwr, "bench", "--max-tasks", "1", "--rounds", "2", "--repeats", "1", "--suite-tasks", "1",
                          "--candidate-tasks", "1", "--checkpoints", "2",
                          "--json", "--work", str(tmp_path)],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    good = lambda v: isinstance(v, (int, float)) and math.isfinite(v) and v > 0  # noqa: E731
    for key in RATIOS:
        assert good(figures[key]), (key, figures[key])
    assert set(figures["speedup_by_concurrency"]) == {"1", "2", "4"}
    assert all(good(v) for v in figures["speedup_by_concurrency"].values())
    assert set(figures["metric_ms"]) == {"ocr", "feature", "structural"}
    assert all(good(v) for v in figures["metric_ms"].values())
    assert figures["actions"]["passed"] == figures["actions"]["total"] > 0  # the reference replays fully
    # the floor captures once per action and once on opening each page; the pixel floor also once more after
    # each action whose checks name texts in view (the bench's first task has some)
    assert figures["captures"]["floor"] == figures["actions"]["total"] + len(figures["tasks"])
    assert figures["captures"]["pixel_floor"] > figures["captures"]["floor"]
    assert 0 <= figures["max_metric_drift"] <= 0.02
    pairs = figures["scoring_pairs"]  # --checkpoints 2: two per candidate page (three mutants)
    assert set(pairs) == {"oracle", "mutant", "equivalent"} and pairs["oracle"] == pairs["equivalent"] == 2
    assert 1 <= pairs["mutant"] <= 6
    assert figures["seconds"]["suite_tasks"] == 1
    shares = figures["grounding_shares"]
    assert shares and abs(sum(v["share"] for v in shares.values()) - 1) < 0.01
