"""How far the judge agrees with a person: figures over judged pages and the graders' labels (pure).

Per action, on the actions both reached (the judge stops at its first failure; a person's replay
counts, as IFS does, up to the first action the grader failed), leaving out actions the grader was
unsure of:
- agreement: the judge's pass or fail is the grader's;
- false-fail rate: of the actions the grader passed, the share the judge failed;
- false-pass rate: of the actions the grader failed, the share the judge passed.
Per page: whether the first failing action is the same (none counts as a place: both pass all);
pages whose first failure follows an action the grader was unsure of are left out of that figure.
Across pages: Kendall's tau-b between the judge's Final and the grader's page score (the share of
actions before the grader's first failure, unsure counted as pass).
"""
from __future__ import annotations

from collections import defaultdict
from itertools import combinations


def grader_first_failure(labels: list[str]) -> int | None:
    """1-based index of the first action the grader failed; None when none failed."""
    return next((i for i, lab in enumerate(labels, 1) if lab == "fail"), None)


def judge_first_failure(statuses: list[str]) -> int | None:
    """1-based index of the judge's failed action; None when it replayed every action."""
    return next((i for i, s in enumerate(statuses, 1) if s == "failed"), None)


def grader_score(labels: list[str]) -> float:
    """The share of actions before the grader's first failure (an IFS from the labels)."""
    first = grader_first_failure(labels)
    return 1.0 if first is None else (first - 1) / len(labels)


def kendall_tau_b(xs: list[float], ys: list[float]) -> float | None:
    """Kendall's tau-b (ties in either list allowed); None with fewer than two pairs or no spread."""
    concordant = discordant = ties_x = ties_y = 0
    for (x1, y1), (x2, y2) in combinations(zip(xs, ys), 2):
        dx, dy = x1 - x2, y1 - y2
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            ties_x += 1
        elif dy == 0:
            ties_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    n0 = concordant + discordant
    denominator = ((n0 + ties_x) * (n0 + ties_y)) ** 0.5
    return round((concordant - discordant) / denominator, 4) if denominator else None


def _share(hits: int, of: int) -> float | None:
    return round(hits / of, 4) if of else None


def page_pairs(statuses: list[str], labels: list[str]) -> list[tuple[int, bool, bool]]:
    """(index, judge passed, grader passed) for the actions both reached and the grader was sure of."""
    judge_reached = {i for i, s in enumerate(statuses, 1) if s in ("passed", "failed")}
    last = grader_first_failure(labels) or len(labels)
    return [(i, statuses[i - 1] == "passed", labels[i - 1] == "pass") for i in range(1, last + 1)
            if i in judge_reached and labels[i - 1] != "unsure"]


def figures(rows: list[dict]) -> dict:
    """The figures over rows of {page, statuses, labels, final} (see the module's docstring)."""
    pairs = [p for r in rows for p in page_pairs(r["statuses"], r["labels"])]
    agree = sum(j == g for _, j, g in pairs)
    passed_by_grader = [j for _, j, g in pairs if g]
    failed_by_grader = [j for _, j, g in pairs if not g]
    exact, decided = 0, 0
    for r in rows:
        first = grader_first_failure(r["labels"])
        if "unsure" in r["labels"][:(first or len(r["labels"])) - (1 if first else 0)]:
            continue  # a person could not say whether an earlier action worked: the page's first failure is open
        decided += 1
        exact += judge_first_failure(r["statuses"]) == first
    tau = kendall_tau_b([r["final"] for r in rows], [grader_score(r["labels"]) for r in rows])
    return {"pages": len(rows), "actions_compared": len(pairs), "per_action_agreement": _share(agree, len(pairs)),
            "false_fail_rate": _share(passed_by_grader.count(False), len(passed_by_grader)),
            "false_fails": passed_by_grader.count(False), "grader_passes": len(passed_by_grader),
            "false_pass_rate": _share(failed_by_grader.count(True), len(failed_by_grader)),
            "false_passes": failed_by_grader.count(True), "grader_fails": len(failed_by_grader),
            "first_failure_exact": _share(exact, decided), "first_failure_pages": decided, "kendall_tau": tau}


def by_kind(rows: list[dict], key: str) -> dict:
    """The figures for each value of row[key] (a page's corpus or mode)."""
    groups: dict = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r)
    return {k: figures(v) for k, v in sorted(groups.items())}


def disagreements(rows: list[dict]) -> list[dict]:
    """Every action where the judge and the grader differ, with both reasons."""
    out = []
    for r in rows:
        for i, j, g in page_pairs(r["statuses"], r["labels"]):
            if j != g:
                out.append({"page": r["page"], "task": r.get("task"), "index": i,
                            "judge": "passed" if j else "failed", "grader": "pass" if g else "fail",
                            "judge_reason": (r.get("errors") or {}).get(i), "grader_reason": (r.get("reasons") or {}).get(i)})
    return out
