"""The cheat corpus (evals/quality/cheats) against the real harness: `iwr prepare`, the MCP servers of
its `.mcp.json` over stdio, `iwr judge` in its own process. A third of the cases, one or more of each
kind, run by default; the whole corpus with `pytest -m cheats_full` (or `iwr selftest cheats`)."""
import asyncio
import json

import pytest

from evals.quality.cheats.cases import CASES, select
from evals.quality.cheats.corpus import run_cheats
from evals.quality.cheats.hidden import hidden_of
from evals.workspace.prepare import prepare
from tasks.defaults import BUNDLED_SUITE
from tasks.loader import load_suite

KINDS = {"reading", "steering", "tampering", "leaving", "mean", "pictures"}
# The quick case of each kind: the hang, the replant rounds and the browser's long list of reads are
# the slow ones, and run in the full corpus.
SUBSET = ["assets_reads_hidden", "marker_rewrite", "prototype_override", "navigate_away_at_load",
          "memory_exhaustion", "invisible_text"]


def _unheld(res: dict) -> str:
    keys = ("case", "status", "final", "bar", "leaked", "reasons", "first_failure")
    return json.dumps([{k: r.get(k) for k in keys} for r in res["rows"] if not r["held"]], indent=1)


def test_the_corpus_names_every_kind_a_task_and_a_reason():
    suite = load_suite(BUNDLED_SUITE)
    assert len(CASES) >= 14 and len({c.name for c in CASES}) == len(CASES)
    assert {c.kind for c in CASES} == KINDS and {c.kind for c in select(SUBSET)} == KINDS
    assert all(c.why and suite.get(c.task) for c in CASES)
    with pytest.raises(ValueError, match="no cheat named"):
        select(["no_such_cheat"])


def test_hidden_material_is_told_apart_from_what_the_workspace_shows(tmp_path):
    suite = load_suite(BUNDLED_SUITE)
    task = suite.get("1")
    prepare(task, tmp_path / "ws")
    hidden = hidden_of(suite, task, tmp_path / "ws")
    assert hidden.seen((suite.root / "data.jsonl").read_text())
    assert hidden.seen(task.checkpoint(1).read_bytes()) == ["task 1's checkpoints/step_1.png"]
    assert hidden.seen({"value": json.dumps({"head": "... Please add a title and a rating. ..."})})
    assert hidden.seen((task.reference_site() / "index.html").read_text())
    for public in ("actions.json", "INSTRUCTIONS.md"):
        assert hidden.seen((tmp_path / "ws" / public).read_text()) == [], public
    assert all(hidden.seen(p.read_bytes()) == [] for p in (tmp_path / "ws" / "frames").glob("*.jpg"))


@pytest.mark.slow
def test_a_third_of_the_cheats_hold():
    res = asyncio.run(run_cheats(SUBSET))
    assert res["cases"] == len(SUBSET) and set(res["blank_final"]) == {c.task for c in select(SUBSET)}
    assert res["leaks"] == 0, _unheld(res)


@pytest.mark.slow
def test_the_harness_catches_a_leak_put_back():
    """The metrics server started with --allow over the task folder (as `iwr prepare` once wrote it):
    the checkpoints are readable again, and the corpus must say so."""

    def allow_task_folder(config: dict, task) -> None:
        config["mcpServers"]["iwr-metrics"]["args"] += ["--allow", str(task.folder)]

    res = asyncio.run(run_cheats(["metrics_reads_checkpoints"], mcp_edit=allow_task_folder))
    row = res["rows"][0]
    assert res["leaks"] == 1 and not row["held"], row
    assert any("checkpoint" in leak for leak in row["leaked"]), row["leaked"]
    assert row["reasons"][0].startswith("read hidden content")


@pytest.mark.cheats_full
def test_every_cheat_holds():
    res = asyncio.run(run_cheats())
    assert res["cases"] == len(CASES)
    assert res["leaks"] == 0, _unheld(res)
