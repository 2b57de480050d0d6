"""An outside agent on a task page: its command's outcome, tokens and the tails of its stdout, stderr
and session file, inline (the report opens from disk and copies nothing it does not show)."""
from __future__ import annotations

from html import escape
from pathlib import Path

from iwr.evals.records.stats import dollars

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


def agent_html(ctx: dict | None) -> str:
    if not ctx:
        return ""
    f, u = ctx["facts"], ctx["usage"]
    head = [f"exit code {escape(str(f.get('exit_code')))}", f"{f.get('seconds', 0):.1f} s",
            f"sandbox {escape(str(f.get('sandbox')))}"]
    if u.get("prompt_tokens") is not None:
        head.append(f"{u.get('prompt_tokens', 0)} prompt + {u.get('completion_tokens', 0)} completion tokens")
    if "cost_usd" in u:
        head.append(f"{dollars(u['cost_usd'])} ({escape(str(u.get('cost_source') or 'reported by the agent'))})")
    out = ['<h2 id="agent">Outside agent</h2>', f'<p class="sub">{" · ".join(head)}</p>',
           f'<p><code>{escape(str(f.get("command", "")))}</code></p>']
    for label, key in (("Standard output", "stdout"), ("Standard error", "stderr"),
                       (f"Session file {ctx.get('trajectory_name') or ''}", "trajectory")):
        if ctx.get(key):
            out.append(f'<details class="card"><summary>{escape(label)}</summary><pre>{escape(ctx[key])}</pre></details>')
    return "".join(out)
