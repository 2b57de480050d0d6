"""HTML and Markdown rendering of the report: page shell, index page, task pages, Markdown tables."""
from __future__ import annotations

import json
import time
from html import escape
from typing import Any

from iwr.evals.report.plots import color
from iwr.evals.report.agent_log import agent_html
from iwr.evals.report.trajectory import trajectory_html
from iwr.evals.records.results import COUNTED
from iwr.evals.records.stats import METRICS, STATUSES, dollars, pct
from iwr.evals.report.runs import BREAKDOWNS, Run

FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#1e3a8a"/><path d="M4 11V5h2v6zm3 0 1-6h2l1 6h-1.6l-.4-3-.4 3z" fill="#fff"/></svg>')
NAMES = {"final": "Final", "ifs": "IFS", "vfs": "VFS", "lvs": "LVS", "hvs": "HVS"}
CSS = """
:root{--fg:#1f2937;--mut:#6b7280;--line:#e5e7eb;--bg:#f8fafc;--card:#fff;--acc:#1e3a8a;
--ok:#15803d;--okb:#dcfce7;--bad:#b91c1c;--badb:#fee2e2;--warn:#b45309;--warnb:#fef3c7;--inf:#6d28d9;--infb:#ede9fe;
--nr:#4b5563;--nrb:#f3f4f6}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,
"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
main{max-width:1240px;margin:0 auto;padding:28px 32px 64px}
h1{font-size:28px;margin:0 0 4px;letter-spacing:-.01em}h2{font-size:19px;margin:36px 0 12px}
h3{font-size:15px;margin:18px 0 8px}a{color:#1d4ed8;text-decoration:none}a:hover{text-decoration:underline}
.sub{color:var(--mut);margin:0 0 8px}.crumb{font-size:13px;color:var(--mut);margin-bottom:14px}
code,.mono{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:#f1f5f9;padding:1px 5px;border-radius:4px;word-break:break-word}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin:12px 0}
.card>h3:first-child{margin-top:0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:var(--card);font-size:14px}
th,td{padding:7px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.04em;color:var(--mut);font-weight:600;background:#f9fafb;
white-space:nowrap}
tbody tr:nth-child(even){background:#fbfcfe}tbody tr:hover{background:#f1f5ff}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.nw{white-space:nowrap}table.bd{table-layout:fixed}table.bd th:nth-child(-n+2){width:22%}table.bd th:nth-child(3){width:8%}
.ci{display:block;color:var(--mut);font-size:11.5px}
.sw{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:7px;vertical-align:0}
.badge{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;font-weight:600;white-space:nowrap}
.s-passed,.s-scored,.s-ok{color:var(--ok);background:var(--okb)}.s-failed,.s-model_failure,.s-bad{color:var(--bad);background:var(--badb)}
.s-infra_failure,.s-invalid_task{color:var(--inf);background:var(--infb)}.s-not_reached,.s-skipped,.s-none{color:var(--nr);background:var(--nrb)}
.s-flag{color:var(--warn);background:var(--warnb)}
.plots{display:flex;flex-wrap:wrap;gap:16px}.plots .card{margin:0;flex:1 1 520px}.plots.turns .card{flex:1 1 340px}
svg.plot{max-width:100%;height:auto;font-family:inherit}
svg .pa{fill:#fff;stroke:#d1d5db}svg .gr{stroke:#eef0f3}svg .tk{font-size:11px;fill:#6b7280}
svg .ax{font-size:12px;fill:#374151}svg .lg{font-size:12px;fill:#1f2937}
.kpis{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}
.kpi{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:10px 16px;min-width:112px}
.kpi b{display:block;font-size:22px;font-variant-numeric:tabular-nums}.kpi span{font-size:12px;color:var(--mut)}
.diff{font-size:16px;margin:4px 0}.diff b{font-size:20px}
.err{color:var(--bad);background:var(--badb);border-radius:6px;padding:6px 10px;white-space:pre-wrap;font-size:13px}
video{width:100%;max-width:820px;border-radius:8px;background:#000;display:block}
.strip{display:grid;grid-template-columns:repeat(auto-fill,minmax(138px,1fr));gap:10px;padding:12px 0 4px}
.strip figure{margin:0}.strip img{width:100%;border-radius:4px;border:1px solid var(--line);display:block}
figcaption{font-size:12px;color:var(--mut);margin-top:3px}
.action{border-left:4px solid var(--nr)}.action.a-passed{border-left-color:var(--ok)}
.action.a-failed{border-left-color:var(--bad);background:#fffafa}.action.a-not_reached{opacity:.7;padding:10px 18px}
.ahead{display:flex;align-items:baseline;gap:10px;flex-wrap:wrap}
.idx{font-weight:700;color:var(--mut);font-variant-numeric:tabular-nums}.atype{font-weight:600}
.desc{flex:1 1 300px}.secs{color:var(--mut);font-size:12px}
dl.kv{display:grid;grid-template-columns:110px 1fr;gap:6px 14px;margin:12px 0 0;font-size:14px}
dl.kv dt{color:var(--mut);font-size:12.5px;padding-top:2px}dl.kv dd{margin:0;min-width:0}
table.mini{font-size:12.5px;margin-top:6px}table.mini td,table.mini th{padding:4px 8px}table.mini code{white-space:nowrap}
.compare{display:grid;grid-template-columns:1fr 1fr;gap:14px;margin-top:14px}
.compare img,.shot img{width:100%;border:1px solid var(--line);border-radius:6px;display:block}
.shot img{max-width:420px}details summary{cursor:pointer;color:var(--mut);font-size:13px;margin-top:10px}
.chip{display:inline-block;border:1px solid var(--line);background:#fff;border-radius:6px;padding:0 7px;font-size:12.5px;
margin-right:4px}
.turn .said{margin:8px 0;white-space:pre-wrap}.turn .draft{margin:10px 0 0;font-size:14px}.turn .draft .note{margin-left:6px}
table.traj td.mono{max-width:420px;word-break:break-word;white-space:pre-wrap}tr.t-err td{background:var(--badb)}
.note{color:var(--mut);font-size:13px}th.sort{cursor:pointer}th.sort:after{content:" \\2195";opacity:.4}
"""
# Click-to-sort for tables marked `sortable`; cells sort by data-v when present.
JS = """
document.querySelectorAll("table.sortable th.sort").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], i = th.cellIndex;
    var dir = th.dataset.dir === "asc" ? -1 : 1; th.dataset.dir = dir === 1 ? "asc" : "desc";
    var key = function (tr) { var c = tr.cells[i], v = c.dataset.v !== undefined ? c.dataset.v : c.textContent;
      var n = parseFloat(v); return isNaN(n) ? v.trim().toLowerCase() : n; };
    Array.from(body.rows).sort(function (a, b) { var x = key(a), y = key(b);
      return (x > y ? 1 : x < y ? -1 : 0) * dir; }).forEach(function (tr) { body.appendChild(tr); });
  });
});
"""


def shell(title: str, body: str, root: str = "") -> str:
    """A complete page: inline CSS and JS, system fonts, nothing fetched from outside the report."""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
            f'content="width=device-width,initial-scale=1"><title>{escape(title)}</title>'
            f'<link rel="icon" href="{root}favicon.svg"><style>{CSS}</style></head><body><main>{body}</main>'
            f'<script>{JS}</script></body></html>')


def shown(r: dict, metric: str) -> float | None:
    """A result's score, or None where it is not a score (infrastructure failures, skipped tasks)."""
    return r.get(metric) if r.get("status") in COUNTED else None


def badge(status: str | None, text: str | None = None) -> str:
    """A colour-coded status pill."""
    s = status or "none"
    return f'<span class="badge s-{escape(s)}">{escape(text or s.replace("_", " "))}</span>'


def score_cell(v: dict | None) -> str:
    """A x100 score with its interval under it."""
    if not v or v.get("mean") is None:
        return '<td class="n" data-v="-1">–</td>'
    return (f'<td class="n" data-v="{v["mean"]:.6f}">{pct(v["mean"])}'
            f'<span class="ci">{pct(v["lo"])} – {pct(v["hi"])}</span></td>')


def table(head: list[str], rows: list[str], cls: str = "", numeric: set[int] = frozenset()) -> str:
    """A table from header labels and pre-rendered `<tr>` rows."""
    th = "".join(f'<th class="{"n " if i in numeric else ""}{"sort" if "sortable" in cls else ""}">{escape(h)}</th>'
                 for i, h in enumerate(head))
    return f'<div class="scroll"><table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'


def _leaderboard(t: dict) -> str:
    rows = []
    for i, b in enumerate(t["runs"]):
        out = " ".join(badge(s, f"{b['outcomes'][s]} {s.replace('_', ' ')}") for s in STATUSES if b["outcomes"][s])
        rows.append(f'<tr><td class="nw"><span class="sw" style="background:{color(i)}"></span><b>{escape(b["run_id"])}</b></td>'
                    f'<td class="nw">{escape(b["agent"])}</td><td class="nw">{escape(b["model"] or "–")}</td>'
                    f'<td class="nw">{escape(b["profile"])}</td>'
                    f'<td class="n">{b["n"]}</td>{"".join(score_cell(b[m]) for m in METRICS)}'
                    f'<td class="n nw">{escape(dollars(b.get("cost_usd", 0.0)))}</td><td>{out or "–"}</td></tr>')
    return table(["Run", "Agent", "Model", "Judge", "n", "Final", "IFS", "VFS", "LVS", "HVS", "Cost", "Outcomes"], rows,
                 "leaderboard", numeric={4, 5, 6, 7, 8, 9, 10})


def _paired(t: dict) -> str:
    out = []
    for p in t["paired_differences"]:
        if p["diff"] is None:
            out.append(f'<p class="diff">No task is counted in both {escape(p["a"])} and {escape(p["b"])}.</p>')
            continue
        out.append(f'<p class="diff">Final({escape(p["a"])}) − Final({escape(p["b"])}) = <b>{p["diff"] * 100:+.2f}</b> '
                   f'<span class="note">95 % paired BCa bootstrap interval [{p["lo"] * 100:+.2f}, {p["hi"] * 100:+.2f}] '
                   f'over {p["n"]} task(s) counted in both</span></p>')
    return f'<div class="card">{"".join(out)}</div>' if out else ""


def _breakdown(t: dict, key: str, title: str) -> str:
    rows = []
    groups = sorted({g for per in t["breakdowns"][key].values() for g in per})
    for g in groups:
        present = [(i, run, per[g]) for i, (run, per) in enumerate(t["breakdowns"][key].items()) if g in per]
        for j, (i, run, v) in enumerate(present):
            cells = "".join(score_cell({"mean": v[m], "lo": v[f"{m}_lo"], "hi": v[f"{m}_hi"]}) for m in ("final", "ifs", "vfs"))
            first = f'<td rowspan="{len(present)}"><b>{escape(g)}</b></td>' if j == 0 else ""
            rows.append(f'<tr>{first}<td><span class="sw" style="background:{color(i)}"></span>{escape(run)}</td>'
                        f'<td class="n">{v["n"]}</td>{cells}</tr>')
    return f"<h3>{escape(title)}</h3>" + table([title, "Run", "n", "Final", "IFS", "VFS"], rows, "bd", numeric={2, 3, 4, 5})


def _tasks(runs: list[Run]) -> str:
    keys: list[tuple[str, int]] = []
    for run in runs:
        keys += [k for k in ((str(r["task_id"]), r["epoch"]) for r in run.results) if k not in keys]
    by = [{(str(r["task_id"]), r["epoch"]): r for r in run.results} for run in runs]
    rows = []
    for tid, ep in keys:
        cls = next((b[(tid, ep)]["classification"] for b in by if (tid, ep) in b), {})
        cells = ""
        for b in by:
            r = b.get((tid, ep))
            if r is None:
                cells += '<td class="n" data-v="-2">–</td>'
                continue
            ff = f' · first fail #{r["first_failure"]}' if r["first_failure"] else ""
            cells += (f'<td class="n" data-v="{shown(r, "final") or -1:.6f}"><a href="{escape(r["page"])}">{pct(shown(r, "final"))}</a> '
                      f'<span class="ci">IFS {pct(shown(r, "ifs"))} · VFS {pct(shown(r, "vfs"))}{ff}</span>'
                      f'{badge(r.get("status")) if r.get("status") != "scored" else ""}</td>')
        name = tid if ep == 1 else f"{tid} (epoch {ep})"
        rows.append(f'<tr><td data-v="{escape(tid.zfill(8))}{ep:03d}"><b>{escape(name)}</b></td>'
                    f'<td>{escape(cls.get("domain", "–"))}<span class="ci">{escape(cls.get("sub_domain", ""))}</span></td>'
                    f'<td>{escape(cls.get("interaction_complexity", "–"))}</td><td>{escape(cls.get("visual_complexity", "–"))}</td>{cells}</tr>')
    head = ["Task", "Domain", "Interaction", "Visual", *[f"{r.run_id} Final" for r in runs]]
    return table(head, rows, "sortable tasks", numeric=set(range(4, 4 + len(runs))))


def _turn_plots(svgs: dict[str, str]) -> str:
    if "by_turn" not in svgs:
        return ""
    cards = "".join(f'<div class="card"><h3>Mean Final against {k}</h3>{svgs[f"by_{k}"]}</div>' if f"by_{k}" in svgs
                    else f'<div class="card"><h3>Mean Final against {k}</h3><p class="note">unknown: no price is known '
                         'for the model (set --price-in and --price-out)</p></div>' for k in ("turn", "tokens", "dollars"))
    return ('<h2>Score per turn</h2><p class="note">Iterative runs: every draft is judged; at each turn a task counts '
            'with its latest draft (0 before its first) and the tokens and dollars spent when that draft was written.</p>'
            f'<div class="plots turns">{cards}</div>')


def index_page(runs: list[Run], t: dict, svgs: dict[str, str]) -> str:
    """The report's front page: leaderboard, paired difference, plots, breakdowns and the task list."""
    body = [f'<h1>IWR report</h1><p class="sub">{len(runs)} run(s) · generated {time.strftime("%Y-%m-%d %H:%M")} · '
            'scores x100 with 95 % BCa bootstrap intervals (2000 resamples over tasks)</p>',
            "<h2>Leaderboard</h2>", _leaderboard(t),
            '<p class="note">n counts scored tasks and model failures (as 0); infrastructure failures, invalid tasks '
            "and skipped tasks are listed but never averaged. Final = 0.7 IFS + 0.3 VFS; VFS = (LVS + HVS) / 2.</p>", _paired(t),
            '<h2>Plots</h2><div class="plots"><div class="card"><h3>IFS against VFS, per scored task</h3>'
            f'{svgs["scatter"]}</div><div class="card"><h3>Where replays first failed</h3>{svgs["histogram"]}'
            '<p class="note">“none”: every reached action passed.</p></div></div>', _turn_plots(svgs), "<h2>Breakdowns</h2>",
            *(_breakdown(t, k, title) for k, title in BREAKDOWNS.items()),
            "<h2>Tasks</h2>", _tasks(runs),
            '<h2>Exports</h2><p><a href="tables.json">tables.json</a> · <a href="tables.md">tables.md</a> '
            "(the Markdown includes the paper-layout table)</p>",
            f'<pre class="card mono">{escape(t["paper_table"])}</pre>']
    return shell("IWR report", "".join(body))


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _kv(label: str, value: str) -> str:
    return f"<dt>{escape(label)}</dt><dd>{value}</dd>" if value else ""


def _compact(v: Any) -> str:
    return escape(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v)


def _grounding(g: dict) -> str:
    if not g:
        return ""
    head = f'<code>{escape(g.get("strategy") or "?")}</code>' + (f' — {escape(g["why"])}' if g.get("why") else "")
    if g.get("target"):
        head += f' · target <code>{_compact(g["target"])}</code>'
    tried = [f'<tr><td><code>{escape(x.get("strategy") or "")}</code></td><td><code>{_compact(x.get("args") or {})}</code></td>'
             f'<td>{badge("ok" if x.get("ok") else "bad", "ok" if x.get("ok") else "no")}</td><td>{escape(x.get("why") or "")}</td>'
             f'<td>{escape(x.get("error") or "")}</td></tr>' for x in g.get("tried") or []]
    if tried:
        head += table(["Strategy", "Arguments", "Found", "Why", "Error"], tried, "mini")
    return head


def _assertion(a: dict) -> str:
    if not a:
        return ""
    ok = a.get("passed")
    by = f' decided by <b>{escape(a["decided_by"])}</b>' if a.get("decided_by") else ""
    out = f'{badge("passed" if ok else "failed", "holds" if ok else "fails")} <code>{escape(a.get("method") or "")}</code>{by} {escape(a.get("reason") or "")}'
    checks = [f'<tr><td>{badge("ok" if c.get("ok") else "bad", "ok" if c.get("ok") else "no")}</td><td><code>{escape(c.get("kind") or "")}</code></td>'
              f'<td>{_compact({k: v for k, v in c.items() if k not in ("kind", "ok", "observed")})}</td>'
              f'<td class="mono">{escape(_clip(str(c.get("observed") or ""), 160))}</td></tr>' for c in a.get("checks") or []]
    return out + (table(["", "Check", "Expects", "Observed"], checks, "mini") if checks else "")


def _compare(cp: dict, backends: dict, roles: dict) -> str:
    fig = lambda src, cap: (f'<figure style="margin:0"><img src="../../{escape(src)}" alt="{cap}"><figcaption>{cap}</figcaption></figure>'  # noqa: E731
                            if src else f'<div class="note">{cap}: image missing</div>')
    rows = [f'<tr><td><code>{escape(m)}</code></td><td>{escape(roles.get(m, ""))}</td><td class="n">{"no say" if v is None else f"{v:.4f}"}</td>'
            f'<td class="mono">{escape(backends.get(m, "?"))}</td></tr>' for m, v in sorted((cp.get("metrics") or {}).items())]
    step = cp.get("step")
    return (f'<div class="compare">{fig(cp.get("ref"), f"Reference, step {step}")}'
            f'{fig(cp.get("cand"), "Candidate screenshot")}</div>'
            + table(["Metric", "Part of", "Value", "Backend"], rows, "mini", numeric={2}))


def task_page(ctx: dict) -> str:
    """One task of one run: video, frames, and every replayed action with its evidence."""
    run, r = ctx["run"], ctx["r"]
    j = r.get("judge") or {}
    roles = {m: "LVS" for m in j.get("lvs_metrics") or []} | ({j["hvs_metric"]: "HVS"} if j.get("hvs_metric") else {})
    backends = r.get("backends") or j.get("backends") or {}
    cls = r.get("classification") or {}
    chips = "".join(f'<span class="chip">{escape(str(v))}</span>' for v in (cls.get("domain"), cls.get("sub_domain"),
                    cls.get("interaction_complexity"), cls.get("visual_complexity")) if v)
    ep = f" (epoch {r['epoch']})" if r["epoch"] != 1 else ""
    kpis = "".join(f'<div class="kpi"><b>{pct(shown(r, m))}</b><span>{NAMES[m]}</span></div>' for m in METRICS)
    if j.get("total_actions") is not None:
        kpis += f'<div class="kpi"><b>{j.get("successful_actions", 0)}/{j["total_actions"]}</b><span>actions passed</span></div>'
    secs = sum(v for v in (r.get("seconds") or {}).values() if isinstance(v, (int, float)))
    kpis += f'<div class="kpi"><b>{secs:.1f} s</b><span>coder + judge</span></div>'
    if ctx.get("trajectory"):
        turns = escape(str(ctx["trajectory"]["usage"].get("turns", "?")))
        kpis += f'<div class="kpi"><b><a href="#trajectory">{turns}</a></b><span>coder turns</span></div>'
    body = [f'<div class="crumb"><a href="../../index.html">IWR report</a> / {escape(run.run_id)} / task {escape(str(r.get("task_id")))}</div>',
            f'<h1>Task {escape(str(r.get("task_id")))}{escape(ep)} {badge(r.get("status"))}</h1>',
            f'<p class="sub">{chips} run <b>{escape(run.run_id)}</b> · agent {escape(run.meta.get("agent") or "?")} · '
            f'model {escape(run.model or "–")} · judge {escape(r.get("profile") or run.profile)}</p>',
            f'<div class="kpis">{kpis}</div>']
    if r.get("error"):
        body.append(f'<div class="err">{escape(r["error"])}</div>')
    if j.get("flags"):
        body.append("<p>Flags: " + " ".join(badge("flag", f) for f in j["flags"]) + "</p>")
    body.append("<h2>Interaction video</h2>")
    body.append(f'<video controls preload="metadata" src="../../{escape(ctx["video"])}"></video>' if ctx["video"]
                else '<p class="note">No video for this task.</p>')
    body.append('<div class="strip">' + "".join(f'<figure><img src="../../{escape(p)}" alt="frame at {t:.1f} s">'
                                                 f"<figcaption>{t:.1f} s</figcaption></figure>" for t, p in ctx["frames"]) + "</div>")
    if ctx["initial"]:
        body += ['<h2>Initial page</h2><div class="card">', _compare(ctx["initial"], backends, roles), "</div>"]
    body.append('<h2>Actions</h2>' if ctx["actions"] else '<h2>Actions</h2><p class="note">The page was never replayed.</p>')
    for a in ctx["actions"]:
        st = a.get("status") or "none"
        dl = (_kv("Expected", escape(a.get("expected") or "")) + _kv("Found by", _grounding(a.get("grounding") or {}))
              + _kv("Assertion", _assertion(a.get("assertion") or {}))
              + _kv("Error", f'<div class="err">{escape(a["error"])}</div>' if a.get("error") else ""))
        extra = _compare(a["checkpoint"], backends, roles) if a.get("checkpoint") else (
            f'<details class="shot"><summary>Screenshot after the action</summary><img src="../../{escape(a["shot"])}" '
            'alt="screenshot after the action"></details>' if a.get("shot") else "")
        secs = f'<span class="secs">{a["seconds"]:.2f} s</span>' if isinstance(a.get("seconds"), (int, float)) else ""
        body.append(f'<article class="card action a-{escape(st)}"><div class="ahead"><span class="idx">#{a.get("index")}</span>'
                    f'<span class="atype">{escape(a.get("type") or "")}</span><span class="desc">{escape(a.get("description") or "")}</span>'
                    f'{secs}{badge(st)}</div>{f"<dl class=kv>{dl}</dl>" if dl else ""}{extra}</article>')
    body.append(trajectory_html(ctx.get("trajectory")))
    body.append(agent_html(ctx.get("agent")))
    return shell(f"Task {r.get('task_id')} · {run.run_id}", "".join(body), root="../../")


def md_table(head: list[str], rows: list[list[Any]]) -> list[str]:
    """Markdown table lines."""
    cell = lambda v: str(v).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]


def _signed(v: float | None) -> str:
    return "–" if v is None else f"{v * 100:+.2f}"


def _ci(v: dict) -> str:
    return "–" if v["mean"] is None else f"{pct(v['mean'])} [{pct(v['lo'])}, {pct(v['hi'])}]"


def markdown(t: dict, breakdowns: dict[str, str]) -> str:
    """The tables as Markdown, the paper-layout table included."""
    md = ["# IWR report", "", "## Leaderboard (x100, 95 % BCa bootstrap intervals)", ""]
    md += md_table(["Run", "Agent", "Model", "Profile", "n", "Final", "IFS", "VFS", "LVS", "HVS", "Cost", *STATUSES],
                   [[b["run_id"], b["agent"], b["model"] or "–", b["profile"], b["n"], *(_ci(b[m]) for m in METRICS),
                     dollars(b.get("cost_usd", 0.0)), *(b["outcomes"][s] for s in STATUSES)] for b in t["runs"]])
    md += ["", "## Paper layout", "", t["paper_table"]]
    if t["paired_differences"]:
        md += ["## Paired difference of Final (x100)", ""]
        md += md_table(["A", "B", "n", "A - B", "95 % interval"],
                       [[p["a"], p["b"], p["n"], _signed(p["diff"]), f"[{_signed(p['lo'])}, {_signed(p['hi'])}]"]
                        for p in t["paired_differences"]]) + [""]
    for k, title in breakdowns.items():
        rows = [[g, run, v["n"], *(_ci({"mean": v[m], "lo": v[f"{m}_lo"], "hi": v[f"{m}_hi"]}) for m in ("final", "ifs", "vfs"))]
                for run, groups in t["breakdowns"][k].items() for g, v in groups.items()]
        md += [f"## {title}", ""] + md_table([title, "Run", "n", "Final", "IFS", "VFS"], sorted(rows, key=lambda r: r[0])) + [""]
    if t.get("turn_curves"):
        md += ["## Score per turn (x100; tokens and dollars spent on the page kept)", ""]
        md += md_table(["Run", "Turn", "n", "Final", "IFS", "VFS", "Tokens", "Dollars"],
                       [[run, p["turn"], p["n"], pct(p["final"]), pct(p["ifs"]), pct(p["vfs"]), f'{p["tokens"]:.0f}',
                         dollars(p["cost_usd"])] for run, curve in t["turn_curves"].items() for p in curve]) + [""]
    md += ["## First failed action", ""]
    md += md_table(["Run", "Action index", "Tasks"], [[run, c, n] for run, h in t["first_failure"].items() for c, n in h.items()])
    md += ["", "## Tasks", ""]
    md += md_table(["Run", "Task", "Epoch", "Status", "Final", "IFS", "VFS", "LVS", "HVS", "First failure", "Error"],
                   [[x["run_id"], x["task_id"], x["epoch"], x["status"], *(pct(shown(x, m)) for m in METRICS),
                     x["first_failure"] or "–", (x["error"] or "")[:120]] for x in t["tasks"]])
    return "\n".join(md) + "\n"
