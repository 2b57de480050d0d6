"""A folder the coder may change, and nothing outside it: every path is resolved and checked."""
from __future__ import annotations

import os
from pathlib import Path

MAX_WRITE_BYTES = 5_000_000
MAX_FILES = 500


class WorkspaceError(ValueError):
    """A caller mistake: a path that escapes, a missing file, an oversized write, an edit that does not apply."""


class Workspace:
    """File operations confined to `root`."""

    def __init__(self, root: Path, max_write_bytes: int = MAX_WRITE_BYTES):
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self.max_write_bytes = max_write_bytes

    def resolve(self, rel: str, must_exist: bool = False) -> Path:
        """The absolute path of `rel`, refusing absolute paths, '..' and symbolic links that leave root."""
        if not rel or rel.startswith(("/", "\\", "~")) or (len(rel) > 1 and rel[1] == ":"):
            raise WorkspaceError(f"{rel!r}: give a path relative to the workspace")
        parts = Path(rel).parts
        if ".." in parts:
            raise WorkspaceError(f"{rel!r}: '..' is not allowed")
        p = (self.root / rel).resolve()
        if p != self.root and self.root not in p.parents:
            raise WorkspaceError(f"{rel!r} leads outside the workspace")
        if must_exist and not p.is_file():
            raise WorkspaceError(f"{rel!r} does not exist")
        return p

    def write(self, rel: str, content: str) -> dict:
        data = content.encode("utf-8")
        if len(data) > self.max_write_bytes:
            raise WorkspaceError(f"{rel!r}: {len(data)} bytes is over the {self.max_write_bytes}-byte limit")
        p = self.resolve(rel)
        if not p.exists() and len(self.list()) >= MAX_FILES:
            raise WorkspaceError(f"the workspace already holds {MAX_FILES} files")
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(p.name + ".iwr-tmp")
        tmp.write_bytes(data)
        os.replace(tmp, p)  # atomic: a reader never sees half a file
        return {"path": rel, "bytes": len(data)}

    def read(self, rel: str, start: int = 0, max_chars: int = 20_000) -> dict:
        text = self.resolve(rel, must_exist=True).read_text(encoding="utf-8", errors="replace")
        chunk = text[start:start + max_chars]
        more = start + len(chunk) < len(text)
        return {"path": rel, "text": chunk, "total_chars": len(text),
                "next_start": start + len(chunk) if more else None,
                "hint": f"call again with start={start + len(chunk)} for more" if more else ""}

    def list(self) -> list[dict]:
        out = []
        for p in sorted(self.root.rglob("*")):
            if p.is_file() and not p.is_symlink() and not p.name.endswith(".iwr-tmp"):
                out.append({"path": str(p.relative_to(self.root)), "bytes": p.stat().st_size})
        return out

    def edit(self, rel: str, old: str, new: str) -> dict:
        """Replace the one occurrence of `old` with `new`; refuses when `old` is absent or ambiguous."""
        p = self.resolve(rel, must_exist=True)
        text = p.read_text(encoding="utf-8")
        n = text.count(old) if old else 0
        if n != 1:
            raise WorkspaceError(f"{rel!r}: the text to replace occurs {n} times; it must occur exactly once")
        return self.write(rel, text.replace(old, new, 1))

    def delete(self, rel: str) -> dict:
        p = self.resolve(rel, must_exist=True)
        p.unlink()
        return {"deleted": rel}
