"""The fast metric path gives today's values: libtesseract reads what the program reads, the box-filter
SSIM is skimage's, the store hands back what was computed, and a damaged store entry is recomputed."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image
from skimage.metrics import structural_similarity

from iwr.mcp_servers.metrics import tesseract_lib
from iwr.mcp_servers.metrics.compare import MetricModels, compare
from iwr.mcp_servers.metrics.ocr import normalize_text, ocr_text, tesseract_words
from iwr.mcp_servers.metrics.ssim import fast_ssim, gray_array
from iwr.mcp_servers.metrics.store import ImageStore
from iwr.tasks.defaults import BUNDLED_SUITE

CHECKPOINTS = sorted((BUNDLED_SUITE / "data").glob("*/checkpoints/step_*.png"))
METRICS = ["ocr", "feature", "structural", "ssim", "color", "layout"]


def spread(items: list, n: int) -> list:
    return items[:: max(1, len(items) // n)][:n]


@pytest.mark.parametrize("path", spread(CHECKPOINTS, 12), ids=lambda p: f"{p.parts[-3]}-{p.stem}")
def test_libtesseract_reads_what_the_program_reads(path) -> None:
    assert tesseract_lib.available(), "libtesseract should load with OpenMP held to one thread"
    img = Image.open(path).convert("RGB")
    words = tesseract_words(gray_array(img))
    assert words, "a checkpoint has text"
    assert normalize_text(" ".join(words)) == normalize_text(ocr_text(img))


def test_box_filter_ssim_is_skimages() -> None:
    rng = np.random.default_rng(3)
    a = np.asarray(Image.open(CHECKPOINTS[0]).convert("L"))
    b = a.copy()
    b[200:260, 100:700] = rng.integers(0, 255, (60, 600), dtype=np.uint8)  # a changed band
    expected = structural_similarity(a, b, data_range=255)
    assert abs(fast_ssim(a, b) - expected) < 1e-5
    assert abs(fast_ssim(a, b, np.any(a != b, axis=1)) - expected) < 1e-5  # only the band computed
    assert fast_ssim(a, a, np.zeros(a.shape[0], bool)) == 1.0


def test_fast_path_scores_as_the_full_one(tmp_path) -> None:
    slow = MetricModels(fast=False, memo_size=0)
    fast = MetricModels(feature=slow.feature_model(), store=tmp_path)
    shifted = Image.open(CHECKPOINTS[1]).convert("RGB").transform(
        Image.open(CHECKPOINTS[1]).size, Image.Transform.AFFINE, (1, 0, -12, 0, 1, -9), fillcolor="white")
    pairs = [(CHECKPOINTS[0], CHECKPOINTS[1]), (CHECKPOINTS[1], shifted), (CHECKPOINTS[2], CHECKPOINTS[2]),
             (CHECKPOINTS[3], Image.new("RGB", (300, 200), "white"))]
    for ref, cand in pairs:
        want, got = compare(ref, cand, METRICS, slow, floor=True), compare(ref, cand, METRICS, fast, floor=True)
        for m in METRICS:
            assert got[m].value == pytest.approx(want[m].value, abs=1e-5), (ref, m)
    assert any(tmp_path.rglob("*.json")), "the references' results are kept"
    again = MetricModels(feature=slow.feature_model(), store=tmp_path)  # a new process, the same store
    for ref, cand in pairs:
        assert compare(ref, cand, METRICS, again, floor=True) == compare(ref, cand, METRICS, fast, floor=True)


def test_a_damaged_store_entry_is_recomputed(tmp_path) -> None:
    store = ImageStore(tmp_path)
    store.put("floor:x", "k1", 0.25)
    store.put("blocks", "k2", np.zeros((0, 4), np.int64))
    assert store.get("floor:x", "k1") == 0.25 and store.get("blocks", "k2").shape == (0, 4)
    for f in tmp_path.rglob("*.json"):
        f.write_text("{not json")
    assert store.get("floor:x", "k1") is None
    models = MetricModels(store=tmp_path)
    ref = CHECKPOINTS[0]
    first = compare(ref, CHECKPOINTS[1], ["ocr"], models, floor=True)["ocr"].value
    for f in tmp_path.rglob("*.json"):
        f.write_text(json.dumps({"value": "garbage"}) if "floor" in str(f) else "")
    fresh = MetricModels(feature=models.feature_model(), store=tmp_path)  # a floor that is not a number: recomputed
    assert compare(ref, CHECKPOINTS[1], ["ocr"], fresh, floor=True)["ocr"].value == first


def test_metric_drift_rescored_a_judgement_with_the_metrics_as_first_written() -> None:
    from types import SimpleNamespace

    from iwr.evals.judging.scoring import hvs, lvs
    from iwr.evals.quality.metric_drift import metric_drift

    fast = MetricModels()
    names, pairs = ["feature", "ocr", "structural"], [(CHECKPOINTS[0], CHECKPOINTS[1]), (CHECKPOINTS[2], CHECKPOINTS[3])]
    checkpoints = [{"reference": str(r), "candidate": str(c),
                    "metrics": {m: v.value for m, v in compare(r, c, names, fast, floor=True).items()}} for r, c in pairs]
    checkpoints.append({"reference": str(CHECKPOINTS[4]), "candidate": str(CHECKPOINTS[4]), "picture_share": 0.9,
                        "metrics": dict.fromkeys(names, 0.0)})  # the picture rule's zero stays zero
    judgement = {"lvs_metrics": ["ocr", "feature"], "hvs_metric": "structural", "chance_corrected": True,
                 "checkpoints": checkpoints}
    honest = SimpleNamespace(task_id="t", status="scored", judge=judgement,
                             lvs=lvs(checkpoints, ["ocr", "feature"]), hvs=hvs(checkpoints, "structural"))
    assert metric_drift([("reference", honest)])["max_metric_drift"] < 1e-4
    off = SimpleNamespace(**{**vars(honest), "hvs": honest.hvs - 0.05})  # a path that moved HVS by 0.05
    report = metric_drift([("reference", honest), ("mutant", off)])
    assert abs(report["max_metric_drift"] - 0.05) < 1e-4 and report["drift_worst"]["page"] == "mutant"
    gone = {**judgement, "checkpoints": [{**checkpoints[0], "candidate": "/nonexistent.png"}]}
    assert metric_drift([("x", SimpleNamespace(**{**vars(honest), "judge": gone}))])["drift_pages_without_shots"] == 1
