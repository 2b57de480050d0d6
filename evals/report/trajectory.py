"""The coder's trajectory for a task page (templates/trajectory.html): each turn's words, tool calls
and judged draft."""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def trajectory_context(r: dict, image: Callable[[str | None, str], str | None]) -> dict | None:
    """The turns of `r`'s saved trajectory.json, each draft's screenshot copied by `image(path, stem)`."""
    f = Path(r["dir"]) / "trajectory.json"
    try:
        traj = json.loads(f.read_text())
    except (OSError, ValueError):
        return None
    coder = r.get("coder") or {}
    scores = {s.get("turn"): s for s in coder.get("turn_scores") or []}
    notes = {n.get("turn"): n.get("text") for n in traj.get("notes") or []}
    calls: dict[int, list] = {}
    for c in traj.get("log") or []:
        calls.setdefault(c.get("turn"), []).append(c)
    turns = []
    for t in sorted(set(calls) | set(notes) | set(scores), key=lambda x: (x is None, x or 0)):
        draft = scores.get(t)
        if draft:
            draft = {**draft, "img": image(draft.get("shot"), f"draft-{t}")}
        turns.append({"turn": t, "note": notes.get(t), "calls": calls.get(t, []), "draft": draft})
    return {"turns": turns, "stop_reason": traj.get("stop_reason"), "usage": traj.get("usage") or coder.get("usage") or {},
            "best_turn": coder.get("best_turn")}
