"""Statistics over task results: bootstrap intervals, breakdowns by task class, paired run differences.

A result is a `TaskResult` or a mapping with `task_id`, `status` and the scores (0..1), optionally
joined with its task's `classification`. Only counted tasks (scored, model_failure as 0) enter a
mean; a task repeated over epochs counts once, with the mean of its counted epochs.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.stats

from iwr.evals.records.results import COUNTED, STATUSES

METRICS = ("final", "ifs", "vfs", "lvs", "hvs")
KEYS = {"domain": "domain", "sub_domain": "sub_domain", "interaction": "interaction_complexity",
        "interaction_complexity": "interaction_complexity", "visual": "visual_complexity",
        "visual_complexity": "visual_complexity"}
PAPER_COLUMNS = ("lvs", "hvs", "ifs", "vfs", "final")


def field(r: Any, name: str, default: Any = None) -> Any:
    """A field of a result, whether it is a mapping or an object."""
    if isinstance(r, Mapping):
        return r.get(name, default)
    return getattr(r, name, default)


def bootstrap_ci(values: Sequence[float], stat: Callable[[np.ndarray], float] = np.mean, n: int = 2000, alpha: float = 0.05,
                 seed: int = 0) -> tuple[float, float, float]:
    """Point statistic and bias-corrected, accelerated (BCa) bootstrap interval (lo, hi), scipy's,
    deterministic for a seed. Values with no spread are their own interval; where BCa is undefined
    (too few distinct values for its jackknife), the percentile interval."""
    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("bootstrap_ci needs at least one value")
    point = float(stat(x))
    if x.size == 1 or np.ptp(x) == 0:
        return point, point, point
    vectorised = stat in (np.mean, np.median)
    fn = (lambda s, axis: stat(s, axis=axis)) if vectorised else stat
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", scipy.stats.DegenerateDataWarning)
            got = scipy.stats.bootstrap((x,), fn, n_resamples=n, confidence_level=1 - alpha, method=method,
                                        vectorized=vectorised, rng=np.random.default_rng(seed))
        lo, hi = got.confidence_interval
        if np.isfinite(lo) and np.isfinite(hi):
            break
    return point, float(lo), float(hi)


def per_task(results: Sequence[Any], metric: str = "final") -> dict[str, float]:
    """Each counted task's score (model failures as 0; epochs averaged), in first-seen order."""
    acc: dict[str, list[float]] = {}
    for r in results:
        if field(r, "status") in COUNTED:
            v = 0.0 if field(r, "status") == "model_failure" else float(field(r, metric) or 0.0)
            acc.setdefault(str(field(r, "task_id")), []).append(v)
    return {k: float(np.mean(v)) for k, v in acc.items()}


def interval(values: Sequence[float], **kw: Any) -> dict[str, float | None]:
    """`{"mean", "lo", "hi"}` of a bootstrap, with None for no values."""
    if not len(values):
        return {"mean": None, "lo": None, "hi": None}
    m, lo, hi = bootstrap_ci(values, **kw)
    return {"mean": m, "lo": lo, "hi": hi}


def outcomes(results: Sequence[Any]) -> dict[str, int]:
    """How many results ended in each status."""
    return {s: sum(1 for r in results if field(r, "status") == s) for s in STATUSES}


def summarise(results: Sequence[Any], metrics: Sequence[str] = METRICS, **kw: Any) -> dict:
    """Counted tasks `n`, each metric's mean with its interval, and the outcome counts."""
    out: dict[str, Any] = {"n": len(per_task(results)), "listed": len(results), "outcomes": outcomes(results)}
    for m in metrics:
        out[m] = interval(list(per_task(results, m).values()), **kw)
    return out


def group_of(r: Any, key: str) -> str:
    """The class of a result for a breakdown key (domain, interaction, visual), or "unknown"."""
    name = KEYS.get(key, key)
    cls = field(r, "classification") or {}
    value = field(r, name) or (cls.get(name) if isinstance(cls, Mapping) else getattr(cls, name, None))
    return str(value) if value else "unknown"


def breakdown(results: Sequence[Any], key: str, **kw: Any) -> dict[str, dict]:
    """Per class of `key`: `n` counted, Final / IFS / VFS means and `<metric>_lo/_hi` intervals."""
    groups: dict[str, list[Any]] = {}
    for r in results:
        groups.setdefault(group_of(r, key), []).append(r)
    out: dict[str, dict] = {}
    for g in sorted(groups):
        s = summarise(groups[g], ("final", "ifs", "vfs"), **kw)
        row: dict[str, Any] = {"n": s["n"], "listed": s["listed"]}
        for m in ("final", "ifs", "vfs"):
            row[m], row[f"{m}_lo"], row[f"{m}_hi"] = s[m]["mean"], s[m]["lo"], s[m]["hi"]
        out[g] = row
    return out


def paired_difference(run_a: Sequence[Any], run_b: Sequence[Any], metric: str = "final", **kw: Any) -> dict:
    """Mean of A - B over tasks counted in both runs, with a paired bootstrap interval."""
    a, b = per_task(run_a, metric), per_task(run_b, metric)
    diffs = [a[t] - b[t] for t in a if t in b]
    iv = interval(diffs, **kw)
    return {"n": len(diffs), "metric": metric, "diff": iv["mean"], "lo": iv["lo"], "hi": iv["hi"]}


def run_cost(results: Sequence[Any]) -> float | None:
    """The coders' model cost of a run's results in dollars; None when some result's price is unknown."""
    total = 0.0
    for r in results:
        usage = (field(r, "coder") or {}).get("usage") or {}
        if "cost_usd" in usage and usage["cost_usd"] is None:
            return None
        total += float(usage.get("cost_usd") or 0.0)
    return round(total, 6)


def pct(v: float | None, digits: int = 2) -> str:
    """A 0..1 score as x100 with fixed decimals; an en dash for no value."""
    return "–" if v is None else f"{v * 100:.{digits}f}"


def dollars(v: float | None) -> str:
    """A dollar amount readable at both API-call and run scale; "unknown" for no known price."""
    if v is None:
        return "unknown"
    return f"${v:.4f}" if v >= 0.01 or v == 0 else f"${v:.6f}"


def paper_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The paper's Markdown table `| Model | LVS | HVS | IFS | VFS | Final |`, scores x100, 2 decimals."""
    lines = ["| Model | LVS | HVS | IFS | VFS | Final |", "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        cells = [str(r.get("model") or "?").replace("|", "\\|")]
        for m in PAPER_COLUMNS:
            v = r.get(m)
            cells.append(pct(v["mean"] if isinstance(v, Mapping) else v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def turn_curve(results: Sequence[Any]) -> list[dict]:
    """Mean scores of an iterative run after each turn (empty when it judged no drafts).

    At turn t a counted result enters with its latest draft written at or before t (0 before its first, and
    throughout for a coder that never wrote a page), and with the tokens and dollars spent when that draft
    was written: the cost of the page one would keep."""
    per = [sorted((field(r, "coder") or {}).get("turn_scores") or [], key=lambda s: s["turn"])
           for r in results if field(r, "status") in COUNTED]
    if not any(per):
        return []
    out = []
    for t in range(1, max(s["turn"] for d in per for s in d) + 1):
        now = [next((s for s in reversed(d) if s["turn"] <= t), {}) for d in per]
        row: dict[str, Any] = {"turn": t, "n": len(now)}
        for k in ("final", "ifs", "vfs", "tokens"):
            row[k] = float(np.mean([s.get(k) or 0.0 for s in now]))
        spent = [s.get("cost_usd", 0.0) for s in now]  # None: a draft whose model has no known price
        row["cost_usd"] = None if any(c is None for c in spent) else float(np.mean([c or 0.0 for c in spent]))
        out.append(row)
    return out
