"""Each broken variant listed in tasks/real/originals.json is caught by its task's checks (real Chromium),
first at the action originals.json names (`fails_at`, which calibration's `real_variants_at_right_action` uses).

Marked `real_apps`: the app files are materialised from the fetch mirror first (the `real_corpus` fixture);
the tests run by default where the mirror (or the materialised files) is, and `-m real_apps` selects them.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from iwr.evals.quality.real_corpus import real_tasks, variant_site
from iwr.evals.recording.recorder import verify_script

pytestmark = [pytest.mark.slow, pytest.mark.real_apps]

REAL = Path(__file__).resolve().parent.parent / "tasks" / "real"
ORIGINALS = json.loads((REAL / "originals.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("entry", ORIGINALS, ids=lambda o: str(o["task"]))
async def test_the_original_passes_and_every_listed_variant_fails(entry, real_corpus, tmp_path):
    task = next(t for t in real_tasks(real_corpus) if t.task_id == str(entry["task"]))
    script = task.app / "scripts" / f"{task.task_id}.yaml"
    assert await verify_script(script, task.site) == []
    assert set(task.fails_at) == set(task.broken), "originals.json names where each listed variant breaks"
    for variant in task.broken:
        failures = await verify_script(script, variant_site(task, variant, tmp_path))
        assert failures, variant
        first = re.match(r"action (\d+)", failures[0])  # numbered from 1; fails_at from 0
        assert first and int(first.group(1)) - 1 == task.fails_at[variant], (variant, failures[0])
