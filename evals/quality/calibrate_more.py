"""What `iwr calibrate` measures beyond detection: agreement of the words-only judge with the held-back
hints, false negatives on equivalent pages, and the corpus of real apps."""
from __future__ import annotations

import asyncio
from pathlib import Path

from iwr.evals.quality.equivalents import make_equivalent
from iwr.evals.quality.mutants import KINDS
from iwr.evals.quality.real_corpus import CorpusError, materialise, real_tasks, variant_site
from iwr.tasks.loader import load_suite

EQUIVALENT_IFS_MIN = 0.95  # an equivalent page below this IFS is a false negative
MARGIN = 0.005  # a variant must score at least this much below its original


def _share(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def agreement(judgements: list[tuple[str, object]]) -> dict:
    """grounding_agreement: share of reference actions whose words-only element is the hinted one;
    assertion_agreement: share of asserted actions (references and mutants) whose decided sentence
    verdict equals the structured checks' verdict; unverifiable sentences (undecided by words and
    recording) are counted apart (unverifiable_share), and assertion_agreement_all counts them too, as
    the pass or fail they got; decided_by, the share of verdicts each kind of evidence gave;
    sentence_evidence, the share of the references' sentences that used each means of the words (and
    the recording)."""
    grounded, asserted, asserted_all, unverifiable, decided_by, evidence = [], [], [], [], [], []
    for agent, result in judgements:
        if agent != "reference" and agent not in KINDS:
            continue
        for a in (result.judge or {}).get("actions", []):
            g, v = a.get("grounding") or {}, a.get("assertion") or {}
            if agent == "reference" and g.get("agrees_with_hint") is not None:
                grounded.append(bool(g["agrees_with_hint"]))
            if "structured_passed" in v:
                asserted_all.append(v["passed"] == v["structured_passed"])
                if v.get("method") != "unverifiable":
                    asserted.append(v["passed"] == v["structured_passed"])
            if agent == "reference" and v.get("method") in ("sentence", "unverifiable", "recording"):
                evidence.append(_means(v))
            if v:
                unverifiable.append(v.get("method") == "unverifiable")
                decided_by.append(v.get("decided_by") or "model")
    return {"grounding_agreement": _share(grounded), "grounded_actions": len(grounded),
            "assertion_agreement": _share(asserted), "asserted_actions": len(asserted),
            "assertion_agreement_all": _share(asserted_all), "asserted_actions_all": len(asserted_all),
            "unverifiable_share": _share(unverifiable),
            "decided_by": {k: _share([d == k for d in decided_by]) for k in sorted(set(decided_by))},
            "sentence_evidence": {k: _share([e[k] for e in evidence]) for k in sorted(evidence[0])} if evidence else {},
            "sentences": len(evidence)}


def _means(verdict: dict) -> dict:
    """Which means of reading decided a sentence verdict: counts, unquoted names (found on the page or in
    the task), where things sit, states (on/off, chosen, disabled, colour, struck), the recording."""
    kinds = {c["kind"] for c in verdict.get("claims", [])}
    return {"counts": bool(kinds & {"count", "range", "numbered_alike", "none_checked"}),
            "unquoted_names": bool(verdict.get("unquoted")), "places": "order" in kinds,
            "states": bool(kinds & {"checked", "selected", "enabled", "styled", "struck", "focused"}),
            "recording": verdict.get("decided_by") == "recording"}


async def judge_equivalents(tasks: list, out: Path, judged) -> dict:
    """Judge a rebuilt, restyled copy of each task's reference site; count IFS below the mark."""
    made: dict[Path, object] = {}
    for t in tasks:
        site = t.reference_site()
        if site not in made:
            made[site] = make_equivalent(site, out / site.name, t.record.iwr.reference.page, seed=0)
    results = await asyncio.gather(*(judged(t, made[t.reference_site()].folder / made[t.reference_site()].page,
                                            "equivalent") for t in tasks))
    low = [(t.id, r.ifs) for t, r in zip(tasks, results) if r.status != "scored" or r.ifs < EQUIVALENT_IFS_MIN]
    return {"false_negative_rate": _share([r.status != "scored" or r.ifs < EQUIVALENT_IFS_MIN for r in results]),
            "equivalents": len(results), "equivalent_ifs_min": min((r.ifs for r in results), default=None),
            "false_negatives": [{"task_id": i, "ifs": round(f, 4)} for i, f in low]}


async def judge_real(root: Path, out: Path, judged) -> dict:
    """Judge each real task's original app and its broken variants."""
    try:
        entries = real_tasks(root)
    except CorpusError:  # the apps are not in the repo: made from the local fetch mirror, if it is here
        try:
            materialise(root)
            entries = real_tasks(root)
        except CorpusError as e:
            return {"real_unavailable": str(e)}
    suite = load_suite(root)
    by_id = {t.id: t for t in suite.tasks}
    rows = []

    async def one(rt) -> None:
        t = by_id[rt.task_id]
        orig, *variants = await asyncio.gather(
            judged(t, rt.site / rt.page, "real-original", rt.site),  # the app's page may sit in a subfolder
            *(judged(t, variant_site(rt, v, out) / rt.page, f"real-{v}", variant_site(rt, v, out)) for v in rt.broken))
        rows.append({"task_id": t.id, "app": rt.app.name, "original": _figures(orig),
                     "variants": {v: {**_figures(r), "below": r.final < orig.final - MARGIN,
                                      "first_failure": first_failure(r), "breaks_at": rt.fails_at.get(v)}
                                  for v, r in zip(rt.broken, variants)}})

    await asyncio.gather(*(one(rt) for rt in entries))
    rows.sort(key=lambda r: r["task_id"])
    below = [v["below"] for r in rows for v in r["variants"].values()]
    known = [v["first_failure"] == v["breaks_at"] for r in rows for v in r["variants"].values() if v["breaks_at"] is not None]
    return {"real_variants_at_right_action": _share(known), "real_variants_with_known_action": len(known),
            "real_orig_final_min": min((r["original"]["final"] for r in rows), default=None),
            "real_orig_ifs_mean": round(sum(r["original"]["ifs"] for r in rows) / len(rows), 4) if rows else None,
            "real_variants_below": f"{sum(below)}/{len(below)}", "real_variants_all_below": all(below) and bool(below),
            "real": rows}


def first_failure(r) -> int | None:
    """The 0-based index of the first action the judge failed (None when every action passed)."""
    return next((i for i, a in enumerate((r.judge or {}).get("actions", [])) if a.get("status") != "passed"), None)


def _figures(r) -> dict:
    return {"status": r.status, "ifs": round(r.ifs, 4), "vfs": round(r.vfs, 4), "final": round(r.final, 4)}
