"""The coder's trajectory on a task page: each turn's words, tool calls and judged draft.

Everything shown here was written by a model or read from a page, so all of it is escaped.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from iwr.evals.records.stats import dollars, pct


def _short(v: Any, n: int) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= n else text[: n - 1] + "…"


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


def _call_row(c: dict) -> str:
    result = str(c.get("result") or "")
    failed = result.startswith("error")
    secs = c.get("seconds")
    return (f'<tr class="{"t-err" if failed else ""}"><td><code>{escape(str(c.get("tool") or "?"))}</code></td>'
            f'<td class="mono">{escape(_short(c.get("args") or {}, 220))}</td>'
            f'<td class="mono">{"<b>error</b> " if failed else ""}{escape(_short(result, 300))}</td>'
            f'<td class="n">{f"{secs:.2f} s" if isinstance(secs, (int, float)) else "–"}</td></tr>')


def _draft(d: dict, best: bool) -> str:
    scores = f'IFS {pct(d.get("ifs"))} · VFS {pct(d.get("vfs"))} · Final <b>{pct(d.get("final"))}</b>'
    usage = f' · {d["tokens"]} tokens' if isinstance(d.get("tokens"), int) else ""
    usage += f' · {dollars(d["cost_usd"])}' if "cost_usd" in d else ""
    img = (f'<figure class="shot" style="margin:8px 0 0"><img src="../../{escape(d["img"])}" alt="draft of turn '
           f'{escape(str(d.get("turn")))} as the judge opened it"><figcaption>As the judge opened it</figcaption></figure>'
           if d.get("img") else "")
    kept = ' <span class="badge s-ok">kept</span>' if best else ""
    return f'<p class="draft">Draft judged: {scores}<span class="note">{escape(usage)}</span>{kept}</p>{img}'


def trajectory_html(ctx: dict | None) -> str:
    """The trajectory section of a task page ("" when the coder saved none)."""
    if not ctx:
        return ""
    u = ctx["usage"]
    head = [f'{escape(str(u.get("turns", "?")))} turn(s)', f'{escape(str(u.get("tokens", "?")))} tokens']
    if "cost_usd" in u:
        head.append(f'cost {dollars(u["cost_usd"])}')
    if ctx["stop_reason"]:
        head.append(f'stopped: {escape(str(ctx["stop_reason"]))}')
    out = ['<h2 id="trajectory">Coder trajectory</h2>', f'<p class="sub">{" · ".join(head)}</p>']
    for t in ctx["turns"]:
        rows = "".join(_call_row(c) for c in t["calls"])
        table = (f'<div class="scroll"><table class="mini traj"><thead><tr><th>Tool</th><th>Arguments</th><th>Result</th>'
                 f'<th class="n">Time</th></tr></thead><tbody>{rows}</tbody></table></div>' if rows else "")
        note = f'<p class="said">{escape(t["note"])}</p>' if t["note"] else ""
        draft = _draft(t["draft"], t["turn"] == ctx["best_turn"]) if t["draft"] else ""
        out.append(f'<article class="card turn"><div class="ahead"><span class="idx">Turn {escape(str(t["turn"]))}</span>'
                   f'</div>{note}{table}{draft}</article>')
    return "".join(out)
