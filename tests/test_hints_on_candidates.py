"""Our recorder's hints never fail a page for what its coder could not see (graphs/hinted.py).

The hints name the original page's ids and classes. A page built otherwise (every id and class
renamed, the DOM rearranged: evals/quality/equivalents.py) must score with hints on as with hints off
or better: of the hints' checks only those of words a person reads apply to it.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from iwr.agents.toolbox import Toolbox
from iwr.evals.judging.artifact import judge_servers
from iwr.evals.quality.equivalents import make_equivalent
from iwr.graphs.hinted import candidate_checks
from iwr.graphs.judge import JudgeConfig, judge
from iwr.tasks.defaults import BUNDLED_SUITE
from iwr.tasks.loader import load_suite


def test_only_checks_of_words_a_person_reads_reach_a_candidate():
    checks = [{"kind": "text_visible", "text": "Reviews (3)"}, {"kind": "text_absent", "text": "Error"},
              {"kind": "count", "selector": ".review", "equals": 3}, {"kind": "url_contains", "text": "#/done"},
              {"kind": "value", "selector": "#title", "equals": "Haunting"}]
    assert candidate_checks(checks) == checks[:2]
    assert candidate_checks(None) == []


# A review form (a typed value checked by the original's id, a count of the original's class), a
# to-do list (counts and values), a memory game (values of displays nobody typed into) and a calculator.
TASKS = ["1", "105", "110", "117"]


@pytest.mark.slow
async def test_an_honest_page_built_otherwise_scores_with_hints_as_without(tmp_path: Path):
    suite = load_suite(BUNDLED_SUITE)
    cfg = dict(visual=False, probes=False)
    async with Toolbox(judge_servers(tmp_path / "run", BUNDLED_SUITE)) as tools:
        for tid in TASKS:
            t = suite.get(tid)
            eq = make_equivalent(t.reference_site(), tmp_path / tid, t.record.iwr.reference.page, seed=0)
            task = t.record.model_dump(mode="json", exclude_none=True)
            page = str(eq.folder / eq.page)
            on = await judge(tools, task, str(t.folder), page, JudgeConfig(hints=True, **cfg))
            off = await judge(tools, task, str(t.folder), page, JudgeConfig(hints=False, **cfg))
            n = len(task["action_sequence"])
            failed = [(a["index"], a.get("error")) for a in on["actions"] if a["status"] != "passed"]
            assert on["successful_actions"] == n, (tid, failed)
            assert on["successful_actions"] >= off["successful_actions"], tid
            assert on["hints"] is True and off["hints"] is False
            if tid == "1":  # the typed title ('value #title' in the hints) is decided by its sentence
                assert on["actions"][1]["assertion"]["method"] == "sentence"
