"""Defect injection for calibrating the judge: broken copies of a task's reference site.

Each mutant is the reference with one realistic bug. Functional kinds must lower IFS, visual kinds
must lower VFS; `blank` and `checkpoint_picture` are the floors. Bugs are injected as a script or a
style appended to the entry page (or by deleting files), so the reference's own code stays intact.
"""
from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from iwr.tasks.loader import Task

FUNCTIONAL = ("handler_removed", "state_broken", "wrong_value", "element_removed")
VISUAL = ("styles_dropped", "layout_shifted", "assets_missing", "element_renamed")
FLOORS = ("blank", "checkpoint_picture")
KINDS = FUNCTIONAL + VISUAL + FLOORS


@dataclass
class Mutant:
    """A broken copy of a site: its kind, folder, entry page and what it targets."""

    kind: str
    folder: Path
    page: str
    note: str


def _asserted(task: Task) -> list[tuple[int, dict]]:
    """(1-based index, action JSON) of actions with structured checks and a selector hint."""
    out = []
    for i, a in enumerate(task.record.action_sequence, 1):
        ext = a.iwr
        if ext and ext.checks and a.type in ("Click", "Press", "Type"):
            out.append((i, a.model_dump(mode="json")))
    return out


def _inject(page: Path, snippet: str) -> None:
    html = page.read_text(encoding="utf-8")
    m = re.search(r"</body\s*>", html, re.I)
    page.write_text(html[:m.start()] + snippet + html[m.start():] if m else html + snippet, encoding="utf-8")


def _blocker(selector: str | None, keys: bool) -> str:
    """A capture-phase listener that swallows the events an action needs, before the page sees them."""
    sel = json.dumps(selector) if selector else "null"
    events = ["click", "mousedown", "mouseup", "pointerdown", "pointerup"] + (["keydown", "keyup", "keypress"] if keys else [])
    return ("<script>(() => { const sel = %s; const stop = (e) => { if (!sel || (e.target.closest && "
            "e.target.closest(sel))) { e.stopImmediatePropagation(); e.preventDefault(); } };"
            " for (const t of %s) document.addEventListener(t, stop, true); })();</script>" % (sel, json.dumps(events)))


WRONG_VALUE = """<script>(() => {
  // Every number the page writes after loading comes out one off in its last digit.
  const bump = (s) => s.replace(/\\d(?=\\D*$)/, (d) => String((+d + 1) % 10));
  const seen = new WeakSet();
  new MutationObserver((records) => {
    for (const r of records) {
      const nodes = r.type === 'characterData' ? [r.target] : Array.from(r.addedNodes);
      for (const n of nodes) {
        const texts = n.nodeType === 3 ? [n] : []; if (n.nodeType === 1) { const w = document.createTreeWalker(n, 4); while (w.nextNode()) texts.push(w.currentNode); }
        for (const t of texts) { if (!seen.has(t) && /\\d/.test(t.data)) { seen.add(t); t.data = bump(t.data); } }
      }
    }
  }).observe(document.documentElement, {subtree: true, childList: true, characterData: true});
})();</script>"""


def make_mutants(task: Task, work: Path, kinds: tuple[str, ...] = KINDS) -> list[Mutant]:
    """Every applicable mutant of the task's reference site, each in its own folder under `work`."""
    site = task.reference_site()
    if site is None:
        return []
    page = task.record.iwr.reference.page
    asserted = _asserted(task)
    out: list[Mutant] = []

    def copy(kind: str) -> Path:
        d = work / kind
        if d.exists():
            shutil.rmtree(d)
        shutil.copytree(site, d, ignore=shutil.ignore_patterns("tasks", "*.yaml"))
        return d

    def sel_of(action: dict) -> str | None:
        return ((action.get("iwr") or {}).get("target") or {}).get("selector")

    for kind in kinds:
        if kind == "handler_removed" and asserted:
            i, a = asserted[0]
            d = copy(kind)
            _inject(d / page, _blocker(sel_of(a), keys=a["type"] == "Press"))
            out.append(Mutant(kind, d, page, f"events of action {i} swallowed"))
        elif kind == "state_broken" and len(asserted) >= 2:
            i, a = asserted[-1]
            d = copy(kind)
            _inject(d / page, _blocker(sel_of(a), keys=a["type"] == "Press"))
            out.append(Mutant(kind, d, page, f"the last checked update (action {i}) never happens"))
        elif kind == "wrong_value" and any(re.search(r"\d", str(c.get("text") or c.get("equals") or ""))
                                           for _, a in asserted for c in a["iwr"]["checks"]):
            d = copy(kind)
            _inject(d / page, WRONG_VALUE)
            out.append(Mutant(kind, d, page, "numbers written after load are off by one"))
        elif kind == "element_removed":
            target = next(((i, sel_of(a)) for i, a in asserted if a["type"] in ("Click", "Type") and sel_of(a)), None)
            if target:
                d = copy(kind)
                # Its labels go too: a person would otherwise click the label ("Under $50") and the page still works.
                sel = target[1]
                _inject(d / page, "<style>%s, label:has(%s) { display: none !important; }</style><script>(() => { "
                                  "const e = document.querySelector(%s); if (e && e.labels) for (const l of e.labels) "
                                  "l.style.setProperty('display', 'none', 'important'); })();</script>"
                        % (sel, sel, json.dumps(sel)))
                out.append(Mutant(kind, d, page, f"target of action {target[0]} removed"))
        elif kind == "element_renamed":
            target = next(((i, sel_of(a)) for i, a in asserted if a["type"] == "Click" and sel_of(a)), None)
            if target:
                d = copy(kind)
                _inject(d / page, "<script>(() => { const e = document.querySelector(%s); if (e) { "
                                  "for (const l of e.labels || []) l.textContent = 'Item'; e.textContent = 'Item'; "
                                  "e.setAttribute('aria-label', 'Item'); e.id = 'renamed-target'; } })();</script>"
                        % json.dumps(target[1]))
                out.append(Mutant(kind, d, page, f"target of action {target[0]} relabelled and re-id'd"))
        elif kind == "styles_dropped":
            d = copy(kind)
            for f in [d / page, *d.glob("*.css")]:
                text = f.read_text(encoding="utf-8")
                text = re.sub(r"<style\b.*?</style\s*>", "", text, flags=re.S | re.I) if f.suffix != ".css" else ""
                f.write_text(re.sub(r"<link\b[^>]*stylesheet[^>]*>", "", text, flags=re.I), encoding="utf-8")
            out.append(Mutant(kind, d, page, "all CSS removed"))
        elif kind == "layout_shifted":
            d = copy(kind)
            _inject(d / page, "<style>body { transform: translate(90px, 60px) !important; }</style>")
            out.append(Mutant(kind, d, page, "whole page shifted 90x60 px"))
        elif kind == "assets_missing":
            d = copy(kind)
            media = [p for p in d.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")]
            if media:
                for p in media:
                    p.unlink()
                out.append(Mutant(kind, d, page, f"{len(media)} image files deleted"))
            else:
                shutil.rmtree(d)
        elif kind == "blank":
            d = work / kind
            d.mkdir(parents=True, exist_ok=True)
            (d / "index.html").write_text("<!doctype html><html><body></body></html>")
            out.append(Mutant(kind, d, "index.html", "empty page"))
        elif kind == "checkpoint_picture":
            d = work / kind
            d.mkdir(parents=True, exist_ok=True)
            shutil.copy(task.checkpoint(0), d / "step_0.png")
            w, h = task.size
            (d / "index.html").write_text(
                f"<!doctype html><html><body style=\"margin:0;width:{w}px;height:{h}px;"
                f"background:url(step_0.png) no-repeat\"></body></html>")
            out.append(Mutant(kind, d, "index.html", "only the first checkpoint, as a background image"))
    return out
