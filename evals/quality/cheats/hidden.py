"""What the harness knows and a coder must never learn, to decide whether a cheat's read got hidden content.

Hidden is: the suite's data.jsonl (its `iwr` hints, checks and assertion sentences), every task's
checkpoints and target crops, the reference sites, and everything of the other tasks. A read counts
as a leak when its answer holds one of those files' SHA-256 (the bytes themselves, or a digest the
page computed of what it fetched) or a text only those files hold. Texts the workspace already
shows (actions.json, INSTRUCTIONS.md) never count, so a canary never fires on public words.
"""
from __future__ import annotations

import base64
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from iwr.tasks.loader import Suite, Task

MIN_TEXT = 8  # shorter check texts match too much by chance
MIN_SELECTOR = 5  # '#title' is distinctive; 'Save' is not
MIN_SITE_LINE = 30
TEXT_SUFFIXES = {".html", ".htm", ".js", ".css", ".json", ".jsonl", ".txt", ".md", ".py", ".svg"}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _strings(payload: Any, out: list[str], depth: int = 0) -> None:
    """Every string in a tool's answer; a string that is itself JSON (an evaluate value) is opened too."""
    if depth > 6:
        return
    if isinstance(payload, str):
        out.append(payload)
        if payload[:1] in "[{\"":
            try:
                _strings(json.loads(payload), out, depth + 1)
            except ValueError:
                pass
    elif isinstance(payload, dict):
        for k, v in payload.items():
            out.append(str(k))
            _strings(v, out, depth + 1)
    elif isinstance(payload, (list, tuple)):
        for v in payload:
            _strings(v, out, depth + 1)
    elif payload is not None and not isinstance(payload, (bytes, bytearray)):
        data = getattr(payload, "data", None)  # MCP image or blob content: base64 bytes
        if isinstance(data, str):
            try:
                out.append("sha256:" + sha256(base64.b64decode(data)))
            except ValueError:
                pass
        text = getattr(payload, "text", None)
        if isinstance(text, str):
            _strings(text, out, depth + 1)


@dataclass
class Hidden:
    """The digests and texts of hidden material, each with what it is."""

    digests: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)

    def seen(self, payload: Any) -> list[str]:
        """What hidden material `payload` (text, bytes, a tool's answer) carries; empty when none."""
        if isinstance(payload, (bytes, bytearray)):
            what = self.digests.get(sha256(bytes(payload)))
            return [what] if what else []
        parts: list[str] = []
        _strings(payload, parts)
        blob = _squash("\n".join(parts))
        found = [what for d, what in self.digests.items() if d in blob]
        found += [f"{what}: {text[:60]!r}" for text, what in self.texts.items() if text in blob]
        return sorted(set(found))


def _files(folder: Path | None) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file())


def _site_lines(path: Path) -> list[str]:
    if path.suffix.lower() not in TEXT_SUFFIXES:
        return []
    try:
        lines = [_squash(line) for line in path.read_text(encoding="utf-8").splitlines()]
    except (OSError, UnicodeDecodeError):
        return []
    return [line for line in lines if len(line) >= MIN_SITE_LINE]


def _record_texts(task: Task, own: bool) -> dict[str, str]:
    """The hidden texts of one task's record: assertion sentences, check texts and selectors, target
    hints, and (for another task) its descriptions too."""
    who = f"task {task.id}" if own else f"other task {task.id}"
    out: dict[str, str] = {}
    for i, a in enumerate(task.record.action_sequence, 1):
        if a.logical_assertion:
            out.setdefault(_squash(a.logical_assertion), f"{who} action {i}'s assertion sentence")
        if not own:
            out.setdefault(_squash(a.parameters.description), f"{who} action {i}'s description")
        ext = a.iwr.model_dump(mode="json", exclude_none=True) if a.iwr else {}
        for check in ext.get("checks", []):
            for key in ("text", "selector", "equals"):
                if isinstance(check.get(key), str):
                    out.setdefault(_squash(check[key]), f"{who} action {i}'s hidden check {key}")
        target = ext.get("target") or {}
        if isinstance(target.get("selector"), str):
            out.setdefault(_squash(target["selector"]), f"{who} action {i}'s target selector hint")
    return out


def hidden_of(suite: Suite, task: Task, workspace: Path) -> Hidden:
    """Everything of `suite` a coder of `task` must not read, minus what its prepared `workspace` shows."""
    public_files = {sha256(p.read_bytes()) for p in _files(workspace) if not p.is_symlink()}
    public_text = _squash(" ".join(p.read_text(errors="replace") for p in _files(workspace)
                                   if p.suffix in (".json", ".md") and not p.is_symlink()))
    hidden = Hidden()
    data = suite.root / "data.jsonl"
    hidden.digests[sha256(data.read_bytes())] = "the suite's data.jsonl"
    hidden.texts['"logical_assertion":'] = "data.jsonl's raw records"
    hidden.texts['"iwr": {"checks"'] = "data.jsonl's raw records"
    sites: dict[Path, str] = {}
    for t in sorted(suite.tasks, key=lambda t: t.id != task.id):  # the task's own material named first
        own = t.id == task.id
        who = f"task {t.id}" if own else f"other task {t.id}"
        folders = [t.folder / "checkpoints", t.folder / "iwr"] if own else [t.folder]
        for p in (f for d in folders for f in _files(d)):
            hidden.digests.setdefault(sha256(p.read_bytes()), f"{who}'s {p.relative_to(t.folder)}")
        for text, what in _record_texts(t, own).items():
            if len(text) >= (MIN_SELECTOR if text[:1] in "#.[" else MIN_TEXT) and text not in public_text:
                hidden.texts.setdefault(text, what)
        if t.reference_site() is not None:
            sites.setdefault(t.reference_site(), f"the reference site {t.reference_site().name}")
    site_files = [(site, what, p) for site, what in sites.items() for p in _files(site)]
    # Boilerplate shared by several sites (a viewport meta tag, a click handler's first line) could be
    # in any page; only a line one file alone holds is evidence of having read that file.
    shared = Counter(line for _, _, p in site_files for line in set(_site_lines(p)))
    for site, what, p in site_files:
        hidden.digests.setdefault(sha256(p.read_bytes()), f"{what}: {p.relative_to(site)}")
        for line in _site_lines(p):
            if shared[line] == 1 and line not in public_text:
                hidden.texts.setdefault(line, f"{what}: {p.relative_to(site)}")
    for d in public_files:
        hidden.digests.pop(d, None)
    return hidden
