"""Static HTML report of one or more runs: leaderboard, breakdowns, plots, and a page per task.

The site opens from disk: no server, no network, every image and video copied under `out/`.
"""
from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from pathlib import Path

from PIL import Image

from iwr.evals.report import pages
from iwr.evals.report.plots import Series, color, histogram_svg, line_svg, scatter_svg
from iwr.evals.records.export import natural_order
from iwr.evals.report.runs import BREAKDOWNS, Run, load_run, slug
from iwr.evals.report.agent_log import agent_context
from iwr.evals.report.trajectory import trajectory_context
from iwr.evals.records.stats import (METRICS, breakdown, dollars, paired_difference, paper_table, pct, run_cost, summarise,
                                      turn_curve)

MAX_WIDTH = 640


class Media:
    """Copies images (downscaled JPEG) and videos under `out/media`, once per source file."""

    def __init__(self, out: Path):
        self.out = out
        self.done: dict[tuple[str, int], str] = {}
        self.strips: dict[str, list[tuple[float, str]]] = {}

    def _name(self, src: Path, stem: str, ext: str) -> str:
        h = hashlib.sha1(str(src.resolve()).encode()).hexdigest()[:10]
        return f"media/{slug(stem)}-{h}.{ext}"

    def image(self, src: Path | None, stem: str, width: int = MAX_WIDTH) -> str | None:
        """Relative path of a downscaled JPEG copy of `src` (None if it is missing or unreadable)."""
        if src is None or not src.is_file():
            return None
        key = (str(src.resolve()), width)
        if key not in self.done:
            rel = self._name(src, f"{stem}-{width}", "jpg")
            try:
                with Image.open(src) as im:
                    save_jpeg(im, self.out / rel, width)
            except OSError:
                return None
            self.done[key] = rel
        return self.done[key]

    def video(self, src: Path | None, stem: str) -> str | None:
        """Relative path of a byte copy of a video."""
        if src is None or not src.is_file():
            return None
        key = (str(src.resolve()), 0)
        if key not in self.done:
            rel = self._name(src, stem, src.suffix.lstrip(".") or "mp4")
            (self.out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, self.out / rel)
            self.done[key] = rel
        return self.done[key]

    def frames(self, video: Path | None, stem: str, count: int = 12) -> list[tuple[float, str]]:
        """A strip of sampled video frames as (seconds, relative JPEG path)."""
        from iwr.tasks.frames import sample_frames

        if video is None or not video.is_file():
            return []
        key = str(video.resolve())
        if key not in self.strips:
            self.strips[key] = []
            for t, im in sample_frames(video, max_frames=count):
                rel = self._name(video, f"{stem}-frame-{t:07.2f}", "jpg")
                save_jpeg(im, self.out / rel, 320)
                self.strips[key].append((t, rel))
        return self.strips[key]


def save_jpeg(im: Image.Image, dest: Path, width: int) -> None:
    """Write `im` as a JPEG at most `width` pixels wide."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    im = im.convert("RGB")
    if im.width > width:
        im = im.resize((width, max(1, round(im.height * width / im.width))), Image.LANCZOS)
    im.save(dest, "JPEG", quality=82, optimize=True)


def resolve(path: str | None, run: Run) -> Path | None:
    """Find a file a result names: absolute, relative to where the run ran, or inside the run folder."""
    if not path:
        return None
    p = Path(path)
    tries = [p] if p.is_absolute() else [run.folder.parent.parent / p, run.folder.parent / p, Path.cwd() / p]
    for name in {run.folder.name, str(run.meta.get("run_id"))} & set(p.parts):  # the run folder moved since
        tries.append(run.folder.joinpath(*p.parts[len(p.parts) - p.parts[::-1].index(name):]))
    return next((t for t in tries if t.is_file()), None)


def tables(runs: list[Run]) -> dict:
    """Every table of the report as plain data (scores 0..1)."""
    board = []
    for r in runs:
        s = summarise(r.results)
        board.append({"run_id": r.run_id, "folder": str(r.folder), "agent": r.meta.get("agent") or "?", "model": r.model,
                      "profile": r.profile, "suite": r.meta.get("suite"), "cost_usd": run_cost(r.results), **s})
    labels = [r["model"] or r["agent"] for r in board]
    paper = [{**b, "model": lab if labels.count(lab) == 1 else f"{lab} ({b['run_id']})"} for b, lab in zip(board, labels)]
    paired = [{"a": a.run_id, "b": b.run_id, **paired_difference(a.results, b.results)} for a, b in
              ((runs[0], other) for other in runs[1:])]
    hist = {r.run_id: dict(Counter(str(x["first_failure"] or "none") for x in r.results
                                   if (x.get("judge") or {}).get("actions"))) for r in runs}
    return {
        "runs": board,
        "paper_table": paper_table(paper),
        "paired_difference": paired[0] if paired else None,
        "paired_differences": paired,
        "breakdowns": {k: {r.run_id: breakdown(r.results, k) for r in runs} for k in BREAKDOWNS},
        "first_failure": hist,
        "turn_curves": {r.run_id: c for r in runs if (c := turn_curve(r.results))},
        "tasks": [{"run_id": r.run_id, "task_id": str(x.get("task_id")), "epoch": x["epoch"], "status": x.get("status"),
                   **{m: x.get(m) for m in METRICS}, "first_failure": x["first_failure"], "error": x.get("error"),
                   "classification": x["classification"], "page": x["page"]} for r in runs for x in r.results],
    }


def plots(runs: list[Run], t: dict) -> dict[str, str]:
    """The index plots as inline SVG."""
    scatter = [Series(r.run_id, color(i), points=[
        (x.get("ifs") or 0.0, x.get("vfs") or 0.0, f"{r.run_id} · task {x.get('task_id')}: IFS {pct(x.get('ifs'))}, "
         f"VFS {pct(x.get('vfs'))}", x["page"]) for x in r.results if x.get("status") == "scored"])
        for i, r in enumerate(runs)]
    cats = sorted({c for h in t["first_failure"].values() for c in h if c != "none"}, key=natural_order)
    cats = [str(c) for c in range(1, int(cats[-1]) + 1)] + ["none"] if cats else ["none"]
    hist = [Series(r.run_id, color(i), counts=[t["first_failure"][r.run_id].get(c, 0) for c in cats])
            for i, r in enumerate(runs)]
    return {"scatter": scatter_svg(scatter), "histogram": histogram_svg(cats, hist), **turn_plots(runs, t)}


def turn_plots(runs: list[Run], t: dict) -> dict[str, str]:
    """Mean Final against turn, tokens and dollars, one line per run that judged its drafts (none otherwise)."""
    axes = {"by_turn": ("turn", "turn", "Mean Final against turn", "", True),
            "by_tokens": ("tokens", "tokens spent on the page kept", "Mean Final against tokens", "", False),
            "by_dollars": ("cost_usd", "dollars spent on the page kept", "Mean Final against dollars", "$", False)}
    lines = [(i, r, t["turn_curves"][r.run_id]) for i, r in enumerate(runs) if r.run_id in t["turn_curves"]]
    if not lines:
        return {}
    plots = {}
    for name, (key, label, title, prefix, integer) in axes.items():
        # a run whose model has no known price has no place on the dollars axis
        series = [Series(r.run_id, color(i), points=[
            (p[key], p["final"], f"{r.run_id} · turn {p['turn']}: Final {pct(p['final'])}, {p['tokens']:.0f} tokens, "
             f"{dollars(p['cost_usd'])} (mean over {p['n']} task(s))", "") for p in curve])
            for i, r, curve in lines if all(p[key] is not None for p in curve)]
        if series:
            plots[name] = line_svg(series, label, title, prefix, integer)
    return plots


def task_context(run: Run, r: dict, media: Media) -> dict:
    """What a task page shows, with every file copied and referenced relative to `out/`."""
    task = run.task(str(r.get("task_id")))
    stem = f"{run.slug}-{Path(r['dir']).name}"
    video = task.video if task else None
    tid = f"task-{slug(str(r.get('task_id')))}"
    cps = {c.get("step"): {**c, "ref": media.image(resolve(c.get("reference"), run), f"{tid}-ref-{c.get('step')}"),
                           "cand": media.image(resolve(c.get("candidate"), run), f"{stem}-cand-{c.get('step')}")}
           for c in (r.get("judge") or {}).get("checkpoints") or []}
    actions = []
    for a in (r.get("judge") or {}).get("actions") or []:
        shot = None if a.get("index") in cps else media.image(resolve(a.get("screenshot"), run), f"{stem}-shot-{a.get('index')}")
        spec = task.record.action_sequence[a["index"] - 1] if task and 0 < a.get("index", 0) <= len(task.record.action_sequence) else None
        actions.append({**a, "shot": shot, "checkpoint": cps.get(a.get("index")),
                        "expected": spec.logical_assertion if spec else None})
    return {"run": run, "r": r, "task": task, "video": media.video(video, f"{tid}-video"),
            "frames": media.frames(video, tid), "initial": cps.get(0), "actions": actions,
            "trajectory": trajectory_context(r, lambda p, name: media.image(resolve(p, run), f"{stem}-{name}")),
            "agent": agent_context(r)}


def build_report(runs: list[Path], out: Path) -> Path:
    """Write the static report of `runs` to `out/` and return the path of its `index.html`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    loaded = [load_run(Path(f), taken) for f in runs]
    t = tables(loaded)
    (out / "tables.json").write_text(json.dumps(t, indent=2, default=str))
    (out / "tables.md").write_text(pages.markdown(t, BREAKDOWNS))
    (out / "favicon.svg").write_text(pages.FAVICON)
    media = Media(out)
    for run in loaded:
        for r in run.results:
            page = out / r["page"]
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(pages.task_page(task_context(run, r, media)))
    index = out / "index.html"
    index.write_text(pages.index_page(loaded, t, plots(loaded, t)))
    return index
