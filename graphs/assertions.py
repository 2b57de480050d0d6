"""Offline logical assertions: structured checks on the DOM, quoted text, else a visible change.

The order is the strength of the evidence: our extension's structured checks; text the
natural-language assertion quotes, which must be visible; and only when neither exists, whether
the page visibly changed after the action (recorded as the weak method it is).
"""
from __future__ import annotations

from agents.toolbox import Toolbox
from graphs.grounding import quoted

UNCHANGED_SSIM = 0.9995


async def judge_assertion(tools: Toolbox, sid: str, action: dict, before: str, after: str) -> dict:
    """Verdict for the action's assertion: {passed, method, reason, checks}."""
    checks = offline_checks(action)
    method = "structured" if (action.get("iwr") or {}).get("checks") else "quoted_text"
    if checks:
        results = await tools.call("browser", "check", session=sid, checks=checks)
        failed = [(c, r) for c, r in zip(checks, results) if not r["ok"]]
        reason = "; ".join(f"{c['kind']} {c.get('text') or c.get('selector')!r} observed {r['observed'][:80]!r}"
                           for c, r in failed) or f"{len(checks)} check(s) hold"
        return {"passed": not failed, "method": method, "reason": reason,
                "checks": [{**c, **r} for c, r in zip(checks, results)]}
    values = await tools.call("metrics", "compare", reference=before, candidate=after, metrics=["ssim"])
    changed = values["ssim"]["value"] < UNCHANGED_SSIM
    return {"passed": changed, "method": "visible_change",
            "reason": f"page {'changed' if changed else 'did not change'} (ssim {values['ssim']['value']:.4f})"}


def offline_checks(action: dict) -> list[dict]:
    """The checks an assertion has without a model: our structured ones, else its quoted texts."""
    checks = (action.get("iwr") or {}).get("checks") or []
    return checks or [{"kind": "text_visible", "text": q} for q in quoted(action.get("logical_assertion") or "")]
