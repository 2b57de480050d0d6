"""The hostile-page corpus: pages written to break the judge, each with the verdict it must get.

Small cases live in `tests/hostile/<case>/` (index.html + case.json); the big or binary ones
(a 100,000-node DOM, a 50 MB page, invalid UTF-8) are generated into the work folder instead of
being committed.
"""
from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from iwr.tasks.defaults import PROJECT_ROOT

CORPUS = PROJECT_ROOT / "tests" / "hostile"
SECRET = "IWR-SECRET: a file the judged page must never read"


@dataclass
class HostileCase:
    """One hostile page, the suite task it is judged against, and what the judge must make of it."""

    name: str
    task: str
    expect: list[str]  # acceptable statuses
    ifs_max: float  # the page must not earn more than this
    why: str
    after: str | None = None  # judged in the same browser right after this case (isolation checks)
    min_blocked: int = 0  # outside requests the browser must have blocked
    page: Path = field(default=Path())  # the index.html to judge


def _generated() -> dict[str, tuple[dict, bytes]]:
    """Cases too big or too odd for the repository: case.json fields and page bytes."""
    button = b'<button id="submit">Post review</button>'
    nodes = b"".join(b'<div class="n"><span>node %d</span></div>' % i for i in range(50_000))
    dom = b"<!doctype html><html><head><meta charset='utf-8'><title>100,000 nodes</title></head><body>" \
          + button + nodes + b"</body></html>"
    filler = b"<p>" + b"filler text that only makes the page big. " * 24 + b"</p>\n"
    big = b"<!doctype html><html><head><meta charset='utf-8'><title>50 MB</title></head><body>" + button \
          + filler * (50 * 1024 * 1024 // len(filler)) + b"</body></html>"
    junk = bytes(range(0x80, 0x100)) + b"\xc3\x28\xa0\xa1\xe2\x28\xa1\xf0\x28\x8c\xbc\xff\xfe\x00\x00"
    invalid = b"<!doctype html><html><head><meta charset='utf-8'><title>\xff\xfe bad \xc3\x28</title></head><body>" \
              + button + (b"<p>" + junk + b"</p>") * 200 + b"<script>document.title += '\xed\xa0\x80';</script></body></html>"
    return {
        "dom_100k": ({"why": "a page of 100,000 DOM nodes"}, dom),
        "html_50mb": ({"why": "an index.html of 50 MB"}, big),
        "invalid_utf8": ({"why": "bytes that are not UTF-8, in the title, the body and a script"}, invalid),
    }


def build_corpus(work: Path, only: list[str] | None = None) -> list[HostileCase]:
    """Write every case (or `only` these) under `work/<case>/page/` and return them in run order.

    Each page folder gets a SECRET.txt one level up, so a page that can read outside its folder is
    caught by its verdict. (A folder holding a symbolic link is refused before any page is opened:
    the judge judges a copy of regular files, tests/test_judged_copy.py.)
    """
    specs: dict[str, tuple[dict, Path | bytes]] = {}
    for d in sorted(p for p in CORPUS.iterdir() if (p / "case.json").is_file()):
        specs[d.name] = (json.loads((d / "case.json").read_text()), d)
    for name, (meta, data) in _generated().items():
        specs[name] = ({"task": "1", "expect": ["scored"], "ifs_max": 0, **meta}, data)
    wanted = set(only or specs)
    wanted |= {specs[n][0]["after"] for n in list(wanted) if n in specs and specs[n][0].get("after")}
    unknown = wanted - set(specs)
    if unknown:
        raise ValueError(f"no hostile case named {', '.join(sorted(unknown))}; known: {', '.join(sorted(specs))}")
    cases = []
    for name in sorted(wanted, key=lambda n: (specs[n][0].get("after") or n, bool(specs[n][0].get("after")), n)):
        meta, source = specs[name]
        page_dir = work / name / "page"
        if isinstance(source, Path):
            shutil.copytree(source, page_dir, ignore=shutil.ignore_patterns("case.json"))
        else:
            page_dir.mkdir(parents=True)
            (page_dir / "index.html").write_bytes(source)
        (work / name / "SECRET.txt").write_text(SECRET)
        cases.append(HostileCase(name=name, page=page_dir / "index.html", **meta))
    return cases
