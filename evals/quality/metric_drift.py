"""How far the judge's metric path moves a judgement's LVS and HVS from the metrics as first written.

Each scored judgement's checkpoints are scored again, from the same screenshot files, with
`MetricModels(fast=False)` (the Tesseract program on whole frames, skimage's SSIM, the offset
always searched); a checkpoint the picture rule zeroed stays zero. `iwr calibrate --metric-drift`
reports the largest difference over every judged page (references, mutants, equivalents, real apps).
"""
from __future__ import annotations

from pathlib import Path

from iwr.evals.judging.scoring import hvs, lvs
from iwr.evals.records.results import TaskResult
from iwr.graphs.pictures import PICTURE_SHARE
from iwr.mcp_servers.metrics.compare import MetricModels, compare


def rescored(judgement: dict, models: MetricModels) -> tuple[float, float] | None:
    """LVS and HVS of a judgement with its checkpoints scored on `models`; None when a screenshot is gone."""
    names = sorted(set(judgement["lvs_metrics"]) | {judgement["hvs_metric"]})
    again = []
    for c in judgement["checkpoints"]:
        scored = c.get("scored") or c["candidate"]
        if not (Path(c["reference"]).is_file() and Path(scored).is_file()):
            return None
        if c.get("picture_share", 0.0) >= PICTURE_SHARE:
            again.append({"metrics": dict.fromkeys(names, 0.0)})
            continue
        values = compare(c["reference"], scored, names, models, floor=judgement.get("chance_corrected", False))
        again.append({"metrics": {m: v.value for m, v in values.items()}})
    return lvs(again, judgement["lvs_metrics"]), hvs(again, judgement["hvs_metric"])


def metric_drift(results: list[tuple[str, TaskResult]]) -> dict:
    """The largest |LVS - LVS as first written| or |HVS - ...| over the scored results, and where."""
    models = MetricModels(fast=False)
    worst, where, checked, missing = 0.0, None, 0, 0
    for agent, r in results:
        if r.status != "scored" or not r.judge.get("checkpoints"):
            continue
        pair = rescored(r.judge, models)
        if pair is None:
            missing += 1
            continue
        checked += 1
        diff = max(abs(pair[0] - r.lvs), abs(pair[1] - r.hvs))
        if diff > worst:
            worst, where = diff, {"task_id": r.task_id, "page": agent, "lvs": round(r.lvs, 6), "hvs": round(r.hvs, 6),
                                  "lvs_first_written": round(pair[0], 6), "hvs_first_written": round(pair[1], 6)}
    return {"max_metric_drift": round(worst, 6), "drift_pages": checked, "drift_pages_without_shots": missing,
            "drift_worst": where}
