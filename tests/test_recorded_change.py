"""The recording decides what the words leave open (graphs/recorded_change.py): the words a checkpoint
pair shows appearing must appear on the page, and without such a pair the action is undecided."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_artifact, judge_servers
from iwr.graphs.judge import JudgeConfig
from iwr.graphs.recorded_change import by_words, near, regions
from iwr.tasks.loader import load_suite
from tests.conftest import one_task_suite

SAVE = "The changes are saved and the bar goes away"  # nothing in it the words alone decide


def view(*texts: str) -> dict:
    return {"texts": [{"t": t, "v": True} for t in texts], "fields": []}


def test_words_that_appear_in_the_recording_must_appear_on_the_page():
    rec = {"appeared": ["all", "changes", "saved"], "vanished": ["discard", "unsaved"]}
    before = view("Unsaved changes", "Discard", "Save changes")
    assert by_words(rec, before, view("All changes saved."))[0]
    assert not by_words(rec, before, before)[0]  # nothing happened
    # OCR slips: 'Savcd' for 'saved' counts where the page did not show the word before
    assert by_words({**rec, "appeared": ["all", "savcd"]}, before, view("All changes saved."))[0]
    # a misreading of a word the page shows unchanged is no word that appeared: the words cannot decide
    dimmed = {"appeared": ["lighter"], "vanished": []}
    assert by_words(dimmed, view("Lighten", "A moth"), view("Lighten", "A moth"))[0] is None


def test_where_nothing_appeared_what_vanished_decides():
    rec = {"appeared": [], "vanished": ["milk", "bread"]}
    before = view("Buy milk", "Buy bread", "Walk dog")
    assert by_words(rec, before, view("Walk dog"))[0]
    assert not by_words(rec, before, before)[0]
    counted = {"appeared": [], "vanished": ["buy"]}  # a word that shows twice, once less afterwards
    assert by_words(counted, before, view("Buy bread", "Walk dog"))[0]


def test_changed_cells_group_by_line_and_a_change_counts_near_them():
    grid = np.zeros((10, 20), dtype=bool)
    grid[2, 3:6] = True  # one line of words
    grid[2, 7] = True  # a word one cell further on: the same line
    grid[8, 15] = True  # elsewhere
    boxes = regions(grid, (320, 160))
    assert boxes == [[16, 16, 144, 48], [208, 112, 80, 48]]  # the joined cells and one more about them
    page = np.zeros((10, 20), dtype=bool)
    page[4, 6] = True
    assert near(grid, page) and not near(grid, np.zeros_like(page))
    far = np.zeros((10, 20), dtype=bool)
    far[9, 0] = True
    assert not near(grid, far)


def test_a_piece_of_a_word_the_page_shows_as_before_is_no_word_that_appeared():
    rec = {"appeared": ["alue", "5"], "vanished": []}  # OCR read 'Set value to 5' anew as '...alue...'
    before = view("Set value to 5", "1")
    assert by_words(rec, before, view("Set value to 5", "5"))[0]
    assert not by_words(rec, before, view("Set value to 5", "1"))[0]


def _settings_task(root: Path, keep_before: bool = True) -> Path:
    """Task 120 cut to its first two actions, the second worded with nothing to decide; without the
    checkpoint before the save when `keep_before` is false."""
    suite = one_task_suite(root, "120")
    line = json.loads((suite / "data.jsonl").read_text())
    line["action_sequence"] = line["action_sequence"][:2]
    line["action_sequence"][1]["logical_assertion"] = SAVE
    if not keep_before:  # the first action not flagged: no checkpoint shows the page before the save
        line["action_sequence"][0]["visual_evaluation_flag"] = False
        (suite / "data" / "120" / "checkpoints" / "step_1.png").unlink()
    (suite / "data.jsonl").write_text(json.dumps(line) + "\n")
    return suite


def _broken(site: Path, out: Path) -> Path:
    shutil.copytree(site, out)
    html = (out / "index.html").read_text()
    handler = 'if (b.id === "save") { saved = snapshot(); update(); flash("All changes saved."); }'
    assert handler in html
    # it still changes what a person sees (the old 'something changed' rule passed it), but not as recorded
    (out / "index.html").write_text(html.replace(handler, 'if (b.id === "save") { flash("Could not save."); }'))
    return out / "index.html"


async def _judged(suite_dir: Path, page: Path, work: Path):
    suite = load_suite(suite_dir)
    task = suite.get("120")
    async with Toolbox(judge_servers(work, suite.root, [page.parent])) as tools:
        r = await judge_artifact(task, page, tools, JudgeConfig(hints=False, probes=False),
                                 {"task_id": "120", "agent": "t", "profile": "offline"})
    assert r.status == "scored", r.error
    return r.judge["actions"][1]


async def test_the_recording_passes_the_app_and_fails_a_copy_whose_save_does_nothing(tmp_path):
    suite = _settings_task(tmp_path / "s")
    site = load_suite(suite).get("120").reference_site()
    good = await _judged(suite, site / "index.html", tmp_path / "w1")
    assert good["status"] == "passed" and good["assertion"]["decided_by"] == "recording", good
    bad = await _judged(suite, _broken(site, tmp_path / "broken"), tmp_path / "w2")
    assert bad["status"] == "failed" and bad["assertion"]["decided_by"] == "recording", bad
    assert "'saved'" in bad["assertion"]["reason"], bad["assertion"]


async def test_without_the_state_before_the_action_it_is_undecided(tmp_path):
    suite = _settings_task(tmp_path / "s", keep_before=False)
    site = load_suite(suite).get("120").reference_site()
    got = await _judged(suite, site / "index.html", tmp_path / "w")
    assert got["assertion"]["decided_by"] == "undecided" and got["assertion"]["method"] == "unverifiable"
