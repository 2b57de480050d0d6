"""An outside agent on a task page: its command's outcome, tokens and the tails of its stdout, stderr
and session file, inline (the report opens from disk and copies nothing it does not show)."""
from __future__ import annotations

from pathlib import Path

TAIL = 8000  # characters of each file shown


def _tail(path: str | None) -> str | None:
    if not path:
        return None
    try:
        text = Path(path).read_text(errors="replace")
    except OSError:
        return None
    return ("…" + text[-TAIL:]) if len(text) > TAIL else text


def agent_context(r: dict) -> dict | None:
    """What the task page shows of an outside agent's run (None for our own coders)."""
    coder = r.get("coder") or {}
    facts = coder.get("agent")
    if not isinstance(facts, dict):
        return None
    trajectory = coder.get("trajectory")
    return {"facts": facts, "usage": coder.get("usage") or {}, "stdout": _tail(facts.get("stdout")),
            "stderr": _tail(facts.get("stderr")),
            "trajectory": _tail(trajectory) if trajectory and trajectory != facts.get("stdout") else None,
            "trajectory_name": Path(trajectory).name if trajectory else None}
