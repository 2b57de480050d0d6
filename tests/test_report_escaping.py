"""Report pages are jinja2 templates with autoescape: whatever a model, an agent or a page wrote (an
error, a description, an agent's output, a coder's words, a run's name) shows as text, never as markup."""
from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from iwr.evals.report import pages
from iwr.evals.report.runs import Run

HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _tags(html: str) -> list[tuple[str, dict]]:
    p = Tags()
    p.feed(html)
    return p.tags


def test_a_task_page_shows_hostile_text_as_text():
    run = Run(name=f"run{HOSTILE}", slug="r", folder=Path("/nowhere"), meta={"agent": HOSTILE, "model": HOSTILE})
    r = {"task_id": "1", "epoch": 1, "status": "model_failure", "error": HOSTILE, "profile": "offline", "final": 0.0,
         "judge": {"flags": [HOSTILE], "total_actions": 1, "successful_actions": 0}, "classification": {"domain": HOSTILE}}
    action = {"index": 1, "type": "Click", "description": HOSTILE, "status": "failed", "error": HOSTILE,
              "grounding": {"strategy": HOSTILE, "tried": [{"strategy": "text", "args": {"q": HOSTILE}, "error": HOSTILE}]},
              "assertion": {"passed": False, "reason": HOSTILE, "checks": [{"kind": "text", "ok": False, "observed": HOSTILE}]}}
    trajectory = {"turns": [{"turn": 1, "note": HOSTILE, "calls": [{"tool": HOSTILE, "args": {"x": HOSTILE}, "result": HOSTILE}],
                             "draft": None}], "stop_reason": HOSTILE, "usage": {"turns": 1}, "best_turn": 1}
    agent = {"facts": {"exit_code": 1, "seconds": 2.0, "sandbox": "bwrap", "command": HOSTILE}, "usage": {},
             "stdout": HOSTILE, "stderr": None, "trajectory": None, "trajectory_name": None}
    html = pages.task_page({"run": run, "r": r, "video": None, "frames": [], "initial": None, "actions": [action],
                            "trajectory": trajectory, "agent": agent})
    tags = _tags(html)
    assert not [t for t in tags if t[0] == "img"], "no image came from the text"
    assert [t for t in tags if t[0] == "script"] == [("script", {})], "only the report's own sorting script"
    assert html.count("&lt;script&gt;alert(2)&lt;/script&gt;") >= 10  # every place shows it, as text
    assert "alert(2)" not in html.split("<script>", 1)[1].split("</script>", 1)[0]


def test_the_index_keeps_its_own_markup_and_escapes_run_names():
    run = Run(name=HOSTILE, slug="r", folder=Path("/nowhere"), meta={"agent": "oracle"},
              results=[{"task_id": "1", "epoch": 1, "status": "scored", "final": 1.0, "ifs": 1.0, "vfs": 1.0,
                        "first_failure": None, "page": "tasks/r/1.html", "classification": {}}])
    score = {"mean": 1.0, "lo": 1.0, "hi": 1.0}
    t = {"runs": [{"run_id": HOSTILE, "agent": "oracle", "model": None, "profile": "offline", "n": 1,
                   **{m: score for m in ("final", "ifs", "vfs", "lvs", "hvs")}, "cost_usd": None,
                   "outcomes": {"scored": 1, "model_failure": 0, "infra_failure": 0, "invalid_task": 0, "skipped": 0}}],
         "paired_differences": [], "breakdowns": {k: {} for k in pages.BREAKDOWNS}, "paper_table": HOSTILE}
    svg = '<svg class="plot"><title>ours</title></svg>'
    html = pages.index_page([run], t, {"scatter": svg, "histogram": svg})
    tags = _tags(html)
    assert sum(tag == "svg" for tag, _ in tags) == 2, "our own plots stay markup"
    assert not [t for t in tags if t[0] == "img"] and html.count("&lt;script&gt;") >= 3
    assert "unknown" in html.split("<h2>Leaderboard</h2>")[1].split("</table>")[0]
