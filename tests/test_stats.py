"""evals.records.stats: bootstrap intervals, breakdowns, paired differences and the paper table on known inputs."""
import numpy as np
import pytest

from iwr.evals.records.results import TaskResult
from iwr.evals.records.stats import bootstrap_ci, breakdown, paired_difference, paper_table, summarise


def res(task_id: str, status: str = "scored", final: float = 0.0, **kw) -> dict:
    return {"task_id": task_id, "status": status, "final": final, **kw}


def test_bootstrap_of_a_constant_list_is_a_point():
    for c in (0.3, 1.0, 0.0, 0.123456):
        mean, lo, hi = bootstrap_ci([c] * 7)
        assert mean == lo == hi == pytest.approx(c)
        assert lo == mean == hi


def test_bootstrap_is_deterministic_for_a_seed_and_brackets_the_mean():
    values = [0.0, 0.1, 0.5, 0.9, 1.0, 0.4]
    assert bootstrap_ci(values, seed=3) == bootstrap_ci(values, seed=3)
    assert bootstrap_ci(values, seed=3) != bootstrap_ci(values, seed=4)
    mean, lo, hi = bootstrap_ci(values)
    assert mean == pytest.approx(np.mean(values)) and lo < mean < hi
    assert 0.0 <= lo and hi <= 1.0
    narrow = bootstrap_ci(values, alpha=0.5)
    assert lo <= narrow[1] <= narrow[2] <= hi


def test_bootstrap_intervals_are_bias_corrected_and_always_finite():
    # right-skewed scores: BCa moves the interval toward the long tail, where the percentile one does not
    skewed = [0.0] * 12 + [0.05, 0.1, 0.2, 1.0, 1.0]
    mean, lo, hi = bootstrap_ci(skewed)
    samples = np.asarray(skewed)[np.random.default_rng(0).integers(0, len(skewed), (2000, len(skewed)))].mean(axis=1)
    p_lo, p_hi = np.quantile(samples, [0.025, 0.975])
    assert hi > p_hi and lo < mean < hi
    # pass/fail outcomes of a few tasks (an IFS column): never NaN, within the values' range
    for k in range(2, 9):
        m, lo, hi = bootstrap_ci([1.0] + [0.0] * (k - 1))
        assert 0.0 <= lo <= m <= hi <= 1.0


def test_bootstrap_takes_any_statistic_and_refuses_no_values():
    med, lo, hi = bootstrap_ci([1, 2, 3, 100], stat=np.median, n=500)
    assert med == 2.5 and lo >= 1 and hi <= 100
    with pytest.raises(ValueError):
        bootstrap_ci([])


def test_infra_failures_are_excluded_and_model_failures_count_as_zero():
    results = [res("1", final=1.0, ifs=1.0), res("2", "model_failure", final=0.9), res("3", "infra_failure", final=0.5),
               res("4", "skipped"), res("5", "invalid_task", final=0.7)]
    s = summarise(results)
    assert s["n"] == 2 and s["listed"] == 5
    assert s["final"]["mean"] == pytest.approx(0.5)
    assert s["ifs"]["mean"] == pytest.approx(0.5)
    assert s["outcomes"] == {"scored": 1, "model_failure": 1, "infra_failure": 1, "invalid_task": 1, "skipped": 1}
    only_infra = summarise([res("3", "infra_failure", final=0.5)])
    assert only_infra["n"] == 0 and only_infra["final"] == {"mean": None, "lo": None, "hi": None}


def test_epochs_of_a_task_count_once():
    s = summarise([res("1", final=1.0), res("1", final=0.0), res("2", final=1.0)])
    assert s["n"] == 2 and s["final"]["mean"] == pytest.approx(0.75)


def test_breakdown_groups_by_the_task_classification():
    cls = {"L1": {"interaction_complexity": "L1", "visual_complexity": "V2", "domain": "travel"},
           "L3": {"interaction_complexity": "L3", "visual_complexity": "V2", "domain": "game"}}
    results = [res("1", final=1.0, ifs=1.0, vfs=1.0, classification=cls["L1"]),
               res("2", final=0.5, ifs=0.5, vfs=0.5, classification=cls["L1"]),
               res("3", "infra_failure", final=0.9, classification=cls["L3"]),
               res("4", "model_failure", classification=cls["L3"])]
    by_level = breakdown(results, "interaction")
    assert set(by_level) == {"L1", "L3"}
    assert by_level["L1"]["n"] == 2 and by_level["L1"]["final"] == pytest.approx(0.75)
    assert by_level["L1"]["final_lo"] <= 0.75 <= by_level["L1"]["final_hi"]
    assert by_level["L3"]["n"] == 1 and by_level["L3"]["final"] == 0.0 and by_level["L3"]["listed"] == 2
    assert breakdown(results, "visual")["V2"]["n"] == 3
    assert set(breakdown(results, "domain")) == {"travel", "game"}
    assert set(breakdown([res("9", final=1.0)], "domain")) == {"unknown"}


def test_paired_difference_sign_and_n():
    a = [res("1", final=1.0), res("2", final=0.8), res("3", "infra_failure", final=1.0), res("5", final=0.9)]
    b = [res("1", final=0.2), res("2", final=0.4), res("3", final=0.0), res("4", final=0.0)]
    d = paired_difference(a, b)
    assert d["n"] == 2  # task 3 is not counted in A, task 4 and 5 are in one run only
    assert d["diff"] == pytest.approx(0.6) and 0 < d["lo"] <= d["diff"] <= d["hi"]
    r = paired_difference(b, a)
    assert r["n"] == 2 and r["diff"] == pytest.approx(-0.6) and r["hi"] < 0
    assert paired_difference(a, [])["n"] == 0 and paired_difference(a, [])["diff"] is None


def test_task_results_are_accepted_as_well_as_mappings():
    rs = [TaskResult(task_id="1", status="scored", agent="x", final=0.25),
          TaskResult(task_id="2", status="infra_failure", agent="x", final=1.0)]
    assert summarise(rs)["final"]["mean"] == pytest.approx(0.25)


def test_paper_table_layout():
    rows = [{"model": "gpt-x", "lvs": 0.12345, "hvs": 0.5, "ifs": 1.0, "vfs": {"mean": 0.311725}, "final": 0.7935175},
            {"model": "a|b", "lvs": None, "hvs": 0, "ifs": 0, "vfs": 0, "final": 0}]
    assert paper_table(rows) == (
        "| Model | LVS | HVS | IFS | VFS | Final |\n"
        "|---|---:|---:|---:|---:|---:|\n"
        "| gpt-x | 12.35 | 50.00 | 100.00 | 31.17 | 79.35 |\n"
        "| a\\|b | – | 0.00 | 0.00 | 0.00 | 0.00 |\n")
