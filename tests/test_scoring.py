"""Scoring formulas, including a recomputation of every published row of the paper's table."""
import pytest

from iwr.evals.judging.scoring import final, hvs, ifs, lvs, score_judgement, vfs

# (model, LVS, HVS, IFS, VFS, Final), x100, from the reference README of 2025-09-24.
PUBLISHED = [
    ("GPT-5", 68.29, 60.21, 24.39, 64.25, 36.35), ("Claude-Sonnet-4 (thinking)", 64.90, 55.51, 23.65, 60.20, 34.62),
    ("Claude-Opus-4 (thinking)", 63.53, 53.80, 23.61, 58.67, 34.13), ("Doubao-seed-1.6", 65.95, 55.62, 22.55, 60.79, 34.02),
    ("Claude-Sonnet-4", 65.75, 56.92, 22.29, 61.34, 34.00), ("Claude-Opus-4", 65.23, 55.13, 21.83, 60.18, 33.33),
    ("GPT-5-mini", 63.36, 50.25, 23.18, 56.81, 33.27), ("GPT-4.1", 63.07, 54.63, 20.48, 58.85, 31.99),
    ("Qwen3-VL (thinking)", 58.55, 46.13, 22.07, 52.34, 31.15), ("Gemini-2.5-Pro (thinking)", 54.52, 46.83, 21.65, 50.67, 30.36),
    ("Gemini-2.5-Pro", 57.46, 48.91, 20.51, 53.18, 30.31), ("GPT-4o (latest)", 63.39, 51.71, 17.55, 57.55, 29.55),
    ("Gemini-2.5-Flash", 47.53, 37.75, 19.88, 42.64, 26.71), ("GPT-5-nano", 53.49, 35.70, 18.17, 44.59, 26.10),
    ("Grok-4", 48.95, 30.54, 19.44, 39.74, 25.53), ("GPT-4o (0806)", 54.03, 39.83, 15.87, 46.93, 25.19),
    ("Qwen2.5-VL-72B", 47.83, 28.25, 17.42, 38.04, 23.61), ("Doubao-seed-1.6-flash", 45.49, 32.06, 16.34, 38.78, 23.07),
    ("Qwen2.5-VL-32B", 39.36, 23.30, 16.50, 31.33, 20.95), ("Keye-VL-1.5-8B", 30.81, 15.49, 16.06, 23.15, 18.18),
    ("MiniCPM-V-4.5", 31.18, 15.41, 15.58, 23.29, 17.89), ("Gemini-2.5-Flash-Lite", 28.95, 19.05, 13.29, 24.00, 16.50),
    ("Qwen2.5-VL-7B", 28.92, 12.20, 13.28, 20.56, 15.47), ("Kimi-VL (thinking)", 26.18, 12.23, 12.04, 19.20, 14.19),
    ("VideoLLaMA3-7B", 31.29, 11.86, 10.29, 21.58, 13.67), ("Mimo-VL-7B", 23.28, 4.99, 10.57, 14.14, 11.64),
    ("GLM-4.5V", 16.31, 10.52, 10.11, 13.41, 11.10), ("InternVideo-2.5-Chat-8B", 17.27, 3.33, 9.97, 10.30, 10.07),
]


def test_all_28_published_rows_recompute_within_a_hundredth():
    assert len(PUBLISHED) == 28
    for name, lv, hv, if_, vf, fin in PUBLISHED:
        got_vfs = vfs(lv / 100, hv / 100) * 100
        got_final = final(if_ / 100, vf / 100) * 100
        assert abs(got_vfs - vf) <= 0.01, (name, got_vfs, vf)
        assert abs(got_final - fin) <= 0.01, (name, got_final, fin)


def test_ifs_counts_actions_and_is_zero_without_actions():
    assert ifs(3, 4) == 0.75
    assert ifs(0, 0) == 0.0


def test_lvs_averages_each_metric_over_checkpoints_then_metrics():
    cps = [{"metrics": {"ocr": 1.0, "feature": 0.5, "structural": 0.2}},
           {"metrics": {"ocr": 0.0, "feature": 0.7, "structural": 0.4}}]
    assert lvs(cps, ["ocr", "feature"]) == pytest.approx((0.5 + 0.6) / 2)
    assert hvs(cps, "structural") == pytest.approx(0.3)
    assert lvs([], ["ocr"]) == 0.0


def test_score_judgement_combines_the_parts():
    j = {"successful_actions": 1, "total_actions": 2, "lvs_metrics": ["ocr"], "hvs_metric": "structural",
         "checkpoints": [{"metrics": {"ocr": 0.8, "structural": 0.6}}]}
    s = score_judgement(j)
    assert (s.ifs, s.lvs, s.hvs) == (0.5, 0.8, 0.6)
    assert s.vfs == pytest.approx(0.7)
    assert s.final == pytest.approx(0.7 * 0.5 + 0.3 * 0.7)
