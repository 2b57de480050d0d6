"""The judge's own copy of an artifact, made before anything of it is judged.

The judge serves, probes and caches only this copy. It holds regular files only, each read through a
descriptor opened without following links and checked after opening, so a file swapped for a link
between the look and the read cannot bring anything in. A symbolic link, a file with other hard
links, a device, fifo or socket, or more bytes than MAX_ARTIFACT_BYTES is refused outright (the
page's fault: model_failure), never skipped: any of them could hand the judge a file from outside the
folder, such as the reference itself. Hidden entries (`.mcp.json`, `.shots/`, a `.venv/`) and the
marker hold tools' state, not the page's material: they are left out of the copy, unread.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path

from iwr.graphs.pictures import digest
from iwr.tasks.defaults import MAX_ARTIFACT_BYTES, MAX_ARTIFACT_DEPTH, MAX_ARTIFACT_FILES
from iwr.tasks.marker import MARKER

CHUNK = 1 << 20
# Copies of the task's assets are free of the byte cap (a page is made of them), up to this many
# times their total: an honest page copies its images once or twice, not a thousand times.
ASSET_COPIES = 4
KINDS = {stat.S_IFIFO: "a fifo", stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a character device",
         stat.S_IFBLK: "a block device", stat.S_IFLNK: "a symbolic link"}


class RefusedArtifact(Exception):
    """An artifact the judge will not judge; `reason` says why."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def task_assets(task_folder: str | Path | None) -> dict[int, set[str]]:
    """The SHA-256 digests of the task's asset files (`assets/` of its folder), by size."""
    out: dict[int, set[str]] = {}
    folder = Path(task_folder) / "assets" if task_folder is not None else None
    for p in sorted(folder.rglob("*")) if folder is not None and folder.is_dir() else []:
        if p.is_file():
            out.setdefault(p.stat().st_size, set()).add(digest(p))
    return out


def _kind(mode: int) -> str:
    return KINDS.get(stat.S_IFMT(mode), "not a regular file or folder")


class _Copier:
    def __init__(self, assets: dict[int, set[str]]):
        self.assets = assets
        self.counted = self.free = self.entries = 0
        self.free_cap = ASSET_COPIES * sum(size * len(d) for size, d in assets.items())

    def open(self, name: str, dir_fd: int | None, shown: str, folder: bool) -> int:
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | (os.O_DIRECTORY if folder else 0)
        try:
            fd = os.open(name, flags, dir_fd=dir_fd)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise RefusedArtifact(f"{shown} is a symbolic link; the judge judges regular files only") from None
            if e.errno in (errno.EACCES, errno.EPERM):
                raise RefusedArtifact(f"{shown} cannot be read by the judge") from None
            if e.errno in (errno.ENOTDIR, errno.ENOENT, errno.ENXIO):
                raise RefusedArtifact(f"{shown} changed while the judge copied it, or is not a regular file") from None
            raise
        st = os.fstat(fd)
        if not (stat.S_ISDIR if folder else stat.S_ISREG)(st.st_mode):
            os.close(fd)
            raise RefusedArtifact(f"{shown} is {_kind(st.st_mode)}; the judge judges regular files only")
        if not folder and st.st_nlink > 1:
            os.close(fd)
            raise RefusedArtifact(f"{shown} has {st.st_nlink} hard links: it may be a file from outside the "
                                  "artifact; the judge judges files with one link only")
        return fd

    def folder(self, fd: int, dst: Path, rel: str, depth: int, page: str | None = None) -> None:
        with os.scandir(fd) as it:  # scans a duplicate of fd; links are reported, never followed
            found = sorted(it, key=lambda e: e.name)
        for e in found:
            if e.name != page and (e.name.startswith(".") or (depth == 0 and e.name == MARKER)):
                continue
            shown = rel + e.name
            self.entries += 1
            if self.entries > MAX_ARTIFACT_FILES:
                raise RefusedArtifact(f"the artifact holds more than {MAX_ARTIFACT_FILES} files and folders")
            if e.is_symlink():
                raise RefusedArtifact(f"{shown} is a symbolic link (to {os.readlink(e.name, dir_fd=fd)}); "
                                      "the judge judges regular files only")
            if e.is_dir(follow_symlinks=False):
                if depth + 1 > MAX_ARTIFACT_DEPTH:
                    raise RefusedArtifact(f"{shown} lies more than {MAX_ARTIFACT_DEPTH} folders deep")
                sub = self.open(e.name, fd, shown, folder=True)
                try:
                    (dst / e.name).mkdir()
                    self.folder(sub, dst / e.name, shown + "/", depth + 1)
                finally:
                    os.close(sub)
            elif e.is_file(follow_symlinks=False):
                self.file(fd, e.name, dst / e.name, shown)
            else:
                raise RefusedArtifact(f"{shown} is {_kind(e.stat(follow_symlinks=False).st_mode)}; "
                                      "the judge judges regular files only")

    def file(self, dir_fd: int, name: str, dst: Path, shown: str) -> None:
        fd = self.open(name, dir_fd, shown, folder=False)
        with open(fd, "rb") as src:
            size = os.fstat(fd).st_size
            maybe_asset = size in self.assets
            room = max(MAX_ARTIFACT_BYTES - self.counted, size if maybe_asset else 0)
            if size > room:  # refused before a byte of it is read
                self.over_cap(shown)
            n, sha = _copy(src, dst, room, shown)
        if maybe_asset and sha in self.assets.get(n, ()):
            self.free += n
            if self.free > self.free_cap:
                raise RefusedArtifact(f"the artifact holds more than {ASSET_COPIES} copies of the task's assets "
                                      f"(at {shown})")
        else:
            self.counted += n
            if self.counted > MAX_ARTIFACT_BYTES:
                self.over_cap(shown)

    def over_cap(self, shown: str) -> None:
        raise RefusedArtifact(f"the artifact holds more than {MAX_ARTIFACT_BYTES // 2**20} MiB of files that are "
                              f"not the task's assets (reached at {shown}); no single page needs that much")


def _copy(src, dst: Path, limit: int, shown: str) -> tuple[int, str]:
    """Copy an open file to a new `dst`, at most `limit` bytes; (bytes, SHA-256 of them)."""
    h, n = hashlib.sha256(), 0
    with open(dst, "xb") as out:
        while chunk := src.read(CHUNK):
            n += len(chunk)
            if n > limit:  # it grew while being read
                raise RefusedArtifact(f"{shown} grew past the judge's byte cap while it was copied")
            h.update(chunk)
            out.write(chunk)
    return n, h.hexdigest()


def judged_copy(entry: str | Path, dest: str | Path, task_folder: str | Path | None = None,
                root: str | Path | None = None) -> Path:
    """Copy the artifact of `entry` (a page, or a folder holding index.html) into the new folder `dest`,
    regular files only, and return the copy's page; RefusedArtifact says why it will not. With `root`, a
    folder above the page (an app whose page sits in a subfolder), the whole of `root` is the artifact."""
    entry, dest = Path(entry), Path(dest)
    is_folder = not entry.is_symlink() and entry.is_dir()
    src, page = (entry, "index.html") if is_folder else (entry.parent, entry.name)
    if root is not None:
        try:
            page = (entry / "index.html" if is_folder else entry).relative_to(root).as_posix()
        except ValueError:
            raise RefusedArtifact(f"{entry} is not inside {root}") from None
        src = Path(root)
    if not os.path.lexists(entry):
        raise RefusedArtifact(f"no page at {entry.name}")
    copier = _Copier(task_assets(task_folder))
    root = copier.open(str(src), None, f"the artifact folder {src}", folder=True)
    try:
        try:
            st = os.stat(page, dir_fd=root, follow_symlinks=False)
        except FileNotFoundError:
            raise RefusedArtifact(f"no page at {page}") from None
        if stat.S_ISLNK(st.st_mode):
            raise RefusedArtifact(f"{page} is a symbolic link (to {os.readlink(page, dir_fd=root)}); "
                                  "the judge judges regular files only")
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else _kind(st.st_mode)
            raise RefusedArtifact(f"{page} is {kind}, not a page")
        dest.mkdir(parents=True, exist_ok=True)
        if any(dest.iterdir()):
            raise ValueError(f"the judge's copy goes into a new, empty folder, not {dest}")
        copier.folder(root, dest, "", 0, page)
    finally:
        os.close(root)
    if not (dest / page).is_file():
        raise RefusedArtifact(f"no page at {page} (it went while the judge copied the folder)")
    return dest / page
