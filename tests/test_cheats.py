"""The cheat corpus (evals/quality/cheats) against the real harness: `iwr prepare`, the MCP servers of
its `.mcp.json` over stdio, `iwr judge` in its own process, with hints on and off. A fifth of the
cases, one of each kind, run by default; the whole corpus with `pytest -m cheats_full` (or
`iwr selftest cheats`)."""
import asyncio
import json

import pytest

from iwr.evals.quality.cheats.cases import CASES, select
from iwr.evals.quality.cheats.corpus import run_cheats
from iwr.evals.quality.cheats.hidden import hidden_of
from iwr.evals.quality.cheats.pictures_cases import target_name, targets_of
from iwr.evals.quality.cheats.pictures_pages import HIDINGS, PICTURES, Box, Recording, Text, page
from iwr.evals.workspace.prepare import prepare
from iwr.tasks.defaults import BUNDLED_SUITE
from iwr.tasks.loader import load_suite

KINDS = {"reading", "steering", "tampering", "leaving", "mean", "pictures", "hiding"}
# The quick case of each kind, all on task 1 (one blank page under each hints setting): the hang, the
# replant rounds and the browser's long list of reads are the slow ones, and run in the full corpus.
SUBSET = ["assets_reads_hidden", "marker_rewrite", "prototype_override", "navigate_away_at_load",
          "memory_exhaustion", "css_mosaic", "text_fill_transparent"]


def _unheld(res: dict) -> str:
    keys = ("case", "hints", "status", "final", "bar", "leaked", "reasons", "first_failure")
    return json.dumps([{k: r.get(k) for k in keys} for r in res["rows"] if not r["held"]], indent=1)


def test_the_corpus_names_every_kind_a_task_and_a_reason():
    suite = load_suite(BUNDLED_SUITE)
    assert len(CASES) >= 14 and len({c.name for c in CASES}) == len(CASES)
    assert {c.kind for c in CASES} == KINDS and {c.kind for c in select(SUBSET)} == KINDS
    assert 5 * len(SUBSET) >= len(CASES), "the default run is a fifth of the corpus"
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


def test_iwr_judge_takes_hints_on_or_off(tmp_path):
    from typer.testing import CliRunner

    from iwr.evals.cli.app import app
    from iwr.evals.cli.judging import judge_config

    done = CliRunner().invoke(app, ["judge", str(tmp_path), "--hints", "maybe"])
    assert done.exit_code == 2 and "--hints is on or off, not 'maybe'" in done.output
    assert judge_config(None, False, None, None, tmp_path / "r.db", hints=False).hints is False
    assert judge_config(None, False, None, None, tmp_path / "r.db").hints is True


def test_the_picture_pages_carry_every_step_s_words_and_named_targets(tmp_path):
    """Without a browser: each picture and hiding builds a page that names the frames by relative path,
    holds each step's words and an element per named target."""
    prepare(load_suite(BUNDLED_SUITE).get("105"), tmp_path / "ws")
    actions = json.loads((tmp_path / "ws" / "actions.json").read_text())
    assert [target_name(a) for a in actions[:5]] == ["What needs to be done?", "Enter",
                                                     "new-task", "Add task", "Renew passport"]
    targets = targets_of(actions, [("What needs to be done?", Box(100, 100, 300, 20))])
    assert targets[0].kind == "field" and targets[0].box.x == 94 and {t.kind for t in targets} == \
        {"field", "button", "checkbox"}
    frames = [f"frames/frame_{k:02d}.jpg" for k in range(len(actions) + 1)]
    texts = [[Text(f"words of step {k}", Box(10, 10 * k, 0, 12), 12)] for k in range(len(actions) + 1)]
    rec = Recording((1280, 800), frames, texts, [a["type"] for a in actions], targets,
                    [["rgb(1,2,3)"] * len(targets) for _ in frames])
    for picture in PICTURES:
        for hiding in HIDINGS:
            html = page(rec, picture, hiding)
            assert "data:" not in html and "frames/frame_00.jpg" in html and len(html) < 60_000
            assert all(f"words of step {k}" in html for k in range(len(frames)))
            assert "aria-label='What needs to be done?'" in html and ">Add task<" in html
    with pytest.raises(ValueError):
        page(rec, "img", "no_such_hiding")


@pytest.mark.slow
def test_a_fifth_of_the_cheats_hold():
    res = asyncio.run(run_cheats(SUBSET, lanes=2))
    assert res["cases"] == len(SUBSET) and res["judged"] == 2 * len(SUBSET)
    # two cases at a time, the rows still in the cases' order
    assert [(r["case"], r["hints"]) for r in res["rows"]] == [(c.name, h) for c in select(SUBSET) for h in ("on", "off")]
    assert {r["hints"] for r in res["rows"]} == {"on", "off"}
    assert set(res["blank_final"]) == {c.task for c in select(SUBSET)}
    assert all(set(by) == {"on", "off"} for by in res["blank_final"].values())
    assert res["leaks"] == 0, _unheld(res)


@pytest.mark.slow
def test_the_harness_catches_a_leak_put_back():
    """The metrics server started with --allow over the task folder (as `iwr prepare` once wrote it):
    the checkpoints are readable again, and the corpus must say so (one judgement is enough: the leak
    is the agent's read, whatever the hints)."""

    def allow_task_folder(config: dict, task) -> None:
        config["mcpServers"]["iwr-metrics"]["args"] += ["--allow", str(task.folder)]

    res = asyncio.run(run_cheats(["metrics_reads_checkpoints"], mcp_edit=allow_task_folder, hints=("on",)))
    row = res["rows"][0]
    assert res["leaks"] == res["judged"] == 1 and row["hints"] == "on" and not row["held"], row
    assert any("checkpoint" in leak for leak in row["leaked"]), row["leaked"]
    assert row["reasons"][0].startswith("read hidden content")


@pytest.mark.cheats_full
def test_every_cheat_holds():
    res = asyncio.run(run_cheats(lanes=2))
    assert res["cases"] == len(CASES) and res["judged"] == 2 * len(CASES)
    assert res["leaks"] == 0, _unheld(res)
