"""Scoring measured on candidates that are not the reference: what `iwr bench` reports for the metrics.

Candidates per bench task: the reference site (the oracle), some calibrate mutants and the restyled
equivalent, each replayed by the judge with hints off, scoring off. Their checkpoint pairs are then
scored three ways on the same screenshots:
- full_ocr: today's Tesseract on both images, the program on each whole frame, nothing remembered;
- scoring: every judge metric on the fast path, with the references' results already in the store
  (kept with the task from an earlier run), a fresh memo, one pair after another;
- drift: each candidate's LVS and HVS on the fast path against the path as first written.
"""
from __future__ import annotations

import time
from pathlib import Path

from iwr.evals.judging import scoring
from iwr.evals.quality import bench_parts as parts
from iwr.evals.quality.equivalents import make_equivalent
from iwr.evals.quality.mutants import make_mutants
from iwr.mcp_servers.metrics.compare import MetricModels, compare
from iwr.mcp_servers.metrics.ocr import ocr_text
from iwr.tasks.loader import Task

MUTANT_KINDS = ("state_broken", "styles_dropped", "layout_shifted")


def candidates(task: Task, work: Path) -> list[tuple[str, Path]]:
    """(kind, entry page) for the oracle, some mutants and the equivalent of a task."""
    out = [("oracle", parts.entry_of(task))]
    out += [("mutant", m.folder / m.page) for m in make_mutants(task, work / "mutants" / task.id, MUTANT_KINDS)]
    eq = make_equivalent(task.reference_site(), work / "equivalent" / task.id, task.record.iwr.reference.page)
    return out + [("equivalent", eq.folder / eq.page)]


def warm_store(refs, metrics: list[str], store: Path, feature=None) -> float:
    """Put the reference side of each image in `refs` in `store` (what a task's first judging does); seconds taken."""
    t0, models = time.monotonic(), MetricModels(feature=feature, store=store)
    for ref in dict.fromkeys(refs):
        compare(ref, ref, metrics, models, floor=True)
    return time.monotonic() - t0


def _lvs_hvs(values: list[dict], lvs: list[str], hvs: str) -> tuple[float, float]:
    checkpoints = [{"metrics": {m: v.value for m, v in each.items()}} for each in values]
    return scoring.lvs(checkpoints, lvs), scoring.hvs(checkpoints, hvs)


def measure(replayed: list[tuple[str, list[tuple[str, str]]]], lvs: list[str], hvs: str, store: Path,
            feature=None) -> dict:
    """Full-frame OCR, fast scoring and drift over the replayed candidates' (reference, candidate) pairs."""
    metrics = sorted(set(lvs) | {hvs})
    warm_store([ref for _, pairs in replayed for ref, _ in pairs], metrics, store, feature)  # not counted
    by_kind: dict[str, dict] = {}
    drift = 0.0
    for kind, pairs in replayed:
        if not pairs:
            continue
        row = by_kind.setdefault(kind, {"pairs": 0, "full_ocr_s": 0.0, "scoring_s": 0.0})
        t0 = time.monotonic()
        for ref, cand in pairs:
            ocr_text(ref), ocr_text(cand)
        row["full_ocr_s"] += time.monotonic() - t0
        fast = MetricModels(feature=feature, store=store)
        t0 = time.monotonic()
        got = [compare(ref, cand, metrics, fast, floor=True) for ref, cand in pairs]
        row["scoring_s"] += time.monotonic() - t0
        slow = MetricModels(feature=feature, fast=False, memo_size=0)
        want = [compare(ref, cand, metrics, slow, floor=True) for ref, cand in pairs]
        (gl, gh), (wl, wh) = _lvs_hvs(got, lvs, hvs), _lvs_hvs(want, lvs, hvs)
        drift = max(drift, abs(gl - wl), abs(gh - wh))
        row["pairs"] += len(pairs)
    others = [r for k, r in by_kind.items() if k != "oracle"]
    ratio = lambda rows: round(sum(r["scoring_s"] for r in rows) / max(1e-9, sum(r["full_ocr_s"] for r in rows)), 4)
    return {"scoring_vs_full_ocr": ratio(others), "max_metric_drift": round(drift, 6),
            "scoring_vs_full_ocr_by_kind": {k: ratio([r]) for k, r in by_kind.items()},
            "scoring_pairs": {k: r["pairs"] for k, r in by_kind.items()}, "drift_candidates": len(replayed)}
