"""The process tree from Linux /proc: who started whom, for finding and killing what we launched."""
from __future__ import annotations

from pathlib import Path


def parents() -> dict[int, int]:
    """pid -> parent pid of every process readable now."""
    out = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                out[int(d.name)] = int((d / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):  # gone meanwhile
                pass
    return out


def descendants(*roots: int, parent_of: dict[int, int] | None = None) -> set[int]:
    """Every process below `roots` (the roots themselves not included)."""
    parent_of = parents() if parent_of is None else parent_of
    found, frontier = set(), set(roots)
    while frontier:
        frontier = {p for p, pp in parent_of.items() if pp in frontier} - found
        found |= frontier
    return found
