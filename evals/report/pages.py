"""The report's pages: HTML from the templates beside this module (jinja2, autoescaped), and the Markdown tables."""
from __future__ import annotations

import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from iwr.evals.report.plots import color
from iwr.evals.records.results import COUNTED
from iwr.evals.records.stats import METRICS, STATUSES, dollars, pct
from iwr.evals.report.runs import BREAKDOWNS, Run

FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
           'fill="#1e3a8a"/><path d="M4 11V5h2v6zm3 0 1-6h2l1 6h-1.6l-.4-3-.4 3z" fill="#fff"/></svg>')
NAMES = {"final": "Final", "ifs": "IFS", "vfs": "VFS", "lvs": "LVS", "hvs": "HVS"}
TEMPLATES = Path(__file__).with_name("templates")


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _compact(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v


def _short(v: Any, n: int) -> str:
    return _clip(v if isinstance(v, str) else json.dumps(v, ensure_ascii=False), n)


@lru_cache(maxsize=1)
def _env() -> Environment:
    """The report's templates; every value put into them is escaped unless it is our own markup (the
    style sheet, the script, the plots)."""
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True, trim_blocks=True, lstrip_blocks=True,
                      undefined=StrictUndefined)
    env.filters.update(pct=pct, dollars=dollars, color=color, shown=shown, compact=_compact, clip=_clip, short=_short,
                       without=lambda d, *keys: {k: v for k, v in d.items() if k not in keys})
    return env


def _render(template: str, title: str, root: str = "", **values: Any) -> str:
    """A complete page: inline CSS and JS, system fonts, nothing fetched from outside the report."""
    own = {name: Markup((TEMPLATES / name).read_text()) for name in ("report.css", "report.js")}
    return _env().get_template(template).render(title=title, root=root, css=own["report.css"], js=own["report.js"],
                                                metrics=METRICS, names=NAMES, statuses=STATUSES, **values)


def shown(r: dict, metric: str) -> float | None:
    """A result's score, or None where it is not a score (infrastructure failures, skipped tasks)."""
    return r.get(metric) if r.get("status") in COUNTED else None


def _task_rows(runs: list[Run]) -> list[dict]:
    keys: list[tuple[str, int]] = []
    for run in runs:
        keys += [k for k in ((str(r["task_id"]), r["epoch"]) for r in run.results) if k not in keys]
    by = [{(str(r["task_id"]), r["epoch"]): r for r in run.results} for run in runs]
    return [{"name": tid if ep == 1 else f"{tid} (epoch {ep})", "sort_key": f"{tid.zfill(8)}{ep:03d}",
             "cls": next((b[(tid, ep)]["classification"] for b in by if (tid, ep) in b), {}),
             "cells": [b.get((tid, ep)) for b in by]} for tid, ep in keys]


def _breakdown_rows(t: dict) -> dict[str, list]:
    """Per breakdown, each group with the runs that have tasks in it: (run's colour index, run, figures)."""
    out = {}
    for key, per_run in t["breakdowns"].items():
        groups = sorted({g for per in per_run.values() for g in per})
        out[key] = [(g, [(i, run, per[g]) for i, (run, per) in enumerate(per_run.items()) if g in per]) for g in groups]
    return out


def index_page(runs: list[Run], t: dict, svgs: dict[str, str]) -> str:
    """The report's front page: leaderboard, paired difference, plots, breakdowns and the task list."""
    return _render("index.html", "IWR report", runs=runs, t=t, svgs={k: Markup(v) for k, v in svgs.items()},
                   generated=time.strftime("%Y-%m-%d %H:%M"), breakdowns=BREAKDOWNS, breakdown_rows=_breakdown_rows(t),
                   task_rows=_task_rows(runs), task_head=["Task", "Domain", "Interaction", "Visual",
                                                          *[f"{r.run_id} Final" for r in runs]],
                   task_numeric=tuple(range(4, 4 + len(runs))))


def task_page(ctx: dict) -> str:
    """One task of one run: video, frames, and every replayed action with its evidence."""
    run, r = ctx["run"], ctx["r"]
    j = r.get("judge") or {}
    cls = r.get("classification") or {}
    return _render(
        "task.html", f"Task {r.get('task_id')} · {run.run_id}", root="../../", run=run, r=r, j=j,
        roles={m: "LVS" for m in j.get("lvs_metrics") or []} | ({j["hvs_metric"]: "HVS"} if j.get("hvs_metric") else {}),
        backends=r.get("backends") or j.get("backends") or {},
        chips=[str(v) for v in (cls.get("domain"), cls.get("sub_domain"), cls.get("interaction_complexity"),
                                cls.get("visual_complexity")) if v],
        seconds=sum(v for v in (r.get("seconds") or {}).values() if isinstance(v, (int, float))),
        video=ctx["video"], frames=ctx["frames"], initial=ctx["initial"], actions=ctx["actions"],
        trajectory=ctx.get("trajectory"), agent=ctx.get("agent"))


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
