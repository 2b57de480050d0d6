"""The agreement corpus and its figures (evals/quality/agreement*.py): the judge set beside people's labels."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from iwr.evals.quality.agreement import judge_agreement
from iwr.evals.quality.agreement_corpus import AGREEMENT, CORPORA, CorpusError, load_labels, load_pages
from iwr.evals.quality.agreement_figures import figures, grader_score, kendall_tau_b
from iwr.tasks.loader import load_suite


def row(statuses: str, labels: str, final: float = 0.5, page: str = "p") -> dict:
    """statuses: P passed, F failed, - not reached; labels: p pass, f fail, u unsure."""
    st = {"P": "passed", "F": "failed", "-": "not_reached"}
    lb = {"p": "pass", "f": "fail", "u": "unsure"}
    return {"page": page, "statuses": [st[c] for c in statuses], "labels": [lb[c] for c in labels], "final": final}


def test_actions_are_compared_where_both_reached_and_the_grader_was_sure():
    rows = [row("PPF--", "ppppf"),  # the judge fails action 3, which the grader passed: a false fail
            row("PPPPP", "ppfpp"),  # the judge passes action 3, which the grader failed: a false pass
            row("PF---", "pfppp"),  # both fail action 2
            row("PPPP", "upup")]    # unsure actions are left out
    f = figures(rows)
    # compared: 3 (rows 1) + 3 (row 2, up to the grader's failure) + 2 + 2 = 10; agreeing 8
    assert f["actions_compared"] == 10 and f["per_action_agreement"] == 0.8
    assert (f["false_fails"], f["grader_passes"]) == (1, 8) and f["false_fail_rate"] == 0.125
    assert (f["false_passes"], f["grader_fails"]) == (1, 2) and f["false_pass_rate"] == 0.5
    # first failures: 3 vs 5, none vs 3, 2 vs 2; the fourth page's has an unsure action before it (none): left out
    assert f["first_failure_pages"] == 3 and f["first_failure_exact"] == round(1 / 3, 4)


def test_kendall_tau_b_with_ties():
    assert kendall_tau_b([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    # pairs: (1,2) concordant, (1,3) concordant, (2,3) tied in y: tau-b = 2 / sqrt(3 * 2)
    assert kendall_tau_b([1, 2, 3], [1, 2, 2]) == round(2 / 6 ** 0.5, 4)
    assert kendall_tau_b([1, 1], [1, 2]) is None and kendall_tau_b([1], [1]) is None
    assert grader_score(["pass", "fail", "pass", "pass"]) == 0.25 and grader_score(["pass", "unsure"]) == 1.0


def test_a_malformed_corpus_is_named(tmp_path: Path):
    (tmp_path / "pages.json").write_text(json.dumps([{"id": "a", "task": "1", "corpus": "suite", "mode": "single",
                                                      "maker": "x", "made": "2026-12-06", "colour": "red"}]))
    with pytest.raises(CorpusError, match=r"pages.json: entry 0.*colour"):
        load_pages(tmp_path)
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.json").write_text(json.dumps({"page": "b", "grader": "g", "graded": "2026-12-06",
                                                            "labels": [{"index": 1, "label": "pass", "reason": "ok"}]}))
    with pytest.raises(CorpusError, match="labels page 'b' in a file named a.json"):
        load_labels(tmp_path)


def test_the_stored_corpus_is_whole():
    """Every page has its files and a task; every labelled page has a label for each of its task's actions."""
    pages, labels = load_pages(AGREEMENT), load_labels(AGREEMENT)
    suites = {name: load_suite(path) for name, path in CORPORA.items() if (path / "data.jsonl").is_file()}
    assert len(pages) >= 120 and set(labels) <= {p.id for p in pages}
    for p in pages:
        task = suites[p.corpus].get(p.task)
        if p.mode in ("single", "iter", "flawed"):
            assert (AGREEMENT / "pages" / p.id / "index.html").is_file(), p.id
        assert (p.flaw is not None) == (p.mode == "flawed"), p.id
        if p.id in labels:
            assert [lab.index for lab in labels[p.id].labels] == list(range(1, len(task.record.action_sequence) + 1)), p.id


STOPPED = "<script>document.addEventListener('click', e => { if (e.target.closest('#submit')) " \
          "e.stopImmediatePropagation(); }, true);</script>"


@pytest.mark.slow
async def test_the_judge_is_set_beside_the_labels(tmp_path: Path):
    """Two pages of task 1 (the reference, and one whose 'Post review' does nothing), labelled as a
    person would: the judge's verdicts agree, action by action and at the first failure."""
    root = tmp_path / "corpus"
    site = CORPORA["suite"].parent / "sites" / "reviews"
    for pid in ("good", "dead"):
        shutil.copytree(site, root / "pages" / pid, ignore=shutil.ignore_patterns("tasks"))
    dead = root / "pages" / "dead" / "index.html"
    dead.write_text(dead.read_text().replace("</body>", STOPPED + "</body>"))
    entry = {"task": "1", "corpus": "suite", "mode": "single", "maker": "test", "made": "2026-12-06"}
    (root / "pages.json").write_text(json.dumps([{"id": "good", **entry}, {"id": "dead", **entry}]))
    (root / "labels").mkdir()
    for pid, first in (("good", "pass"), ("dead", "fail")):
        marks = [{"index": 1, "label": first, "reason": "the error shows" if first == "pass" else "nothing happens"}] + \
                [{"index": i, "label": "pass", "reason": "works"} for i in range(2, 8)]
        (root / "labels" / f"{pid}.json").write_text(json.dumps({"page": pid, "grader": "g", "graded": "2026-12-06",
                                                                 "labels": marks}))
    res = await judge_agreement(root, tmp_path / "work", hints=(False,))
    f = res["hints_off"]
    assert f["pages"] == 2 and "hints_on" not in res
    rows = {r["page"]: r for r in f["rows"]}
    assert rows["good"]["statuses"] == ["passed"] * 7 and rows["dead"]["statuses"][0] == "failed"
    assert f["per_action_agreement"] == 1.0 and f["false_fail_rate"] == 0.0 and f["false_pass_rate"] == 0.0
    assert f["first_failure_exact"] == 1.0 and f["kendall_tau"] == 1.0 and f["disagreements"] == []
    one = await judge_agreement(root, tmp_path / "work", hints=(False,), only=("dead",))
    assert [r["page"] for r in one["hints_off"]["rows"]] == ["dead"]
    assert "among blind9" in (await judge_agreement(root, tmp_path / "work", only=("blind9",)))["agreement_unavailable"]
