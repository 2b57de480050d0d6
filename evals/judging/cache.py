"""A content-addressed cache of judgements (with their screenshots) and metric results.

Keys are hashes of everything the value depends on: the artifact's files, the task's actions and
checkpoints, the judge configuration and the versions of the code, Chromium and the metric
packages. A rerun of an unchanged artifact reads its judgement back; a changed artifact whose
screenshots still match earlier ones reuses their metric values. Entries are files written
atomically, so concurrent tasks, processes and Ray workers on one machine can share a folder.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any, Awaitable, Callable

import structlog

from iwr.tasks.defaults import PROJECT_ROOT
from iwr.tasks.loader import video_in

log = structlog.get_logger()
ROOT = PROJECT_ROOT
# The code a judgement depends on (reports, stats and the CLI do not): an edit here invalidates entries.
JUDGE_CODE = ("agents", "graphs", "mcp_servers", "tasks/schema.py", "tasks/loader.py", "tasks/defaults.py",
              "tasks/registry.py", "evals/judging")
PACKAGES = ("playwright", "torch", "mcp", "pytesseract", "efficientnet-lite-pytorch", "scikit-image",
            "opencv-python-headless", "easyocr")
MAX_TREE_FILES = 5000
CHUNK = 1 << 20


def ocr_reader(engine: str) -> list:
    """What reads the text of a comparison: the engine `auto` stands for here, and where EasyOCR's model
    files come from (their bytes are the Hub's or the folder owner's; naming the source is enough)."""
    from iwr.mcp_servers.metrics.ocr import resolve_engine
    from iwr.settings import settings

    engine = resolve_engine(engine)
    env = settings()
    return [engine, str(env.easyocr_path or ""), env.easyocr_id or ""] if engine == "easyocr" else [engine]


def digest(*parts: Any) -> str:
    """SHA-256 of the parts as canonical JSON."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def file_digest(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def tree_digest(folder: Path) -> str | None:
    """Hash of a folder's files (names and bytes); None when it holds a link or anything but files and
    folders (a key must cover every byte a server could reach through it), or is too large to hash."""
    files, todo = [], [Path(folder)]
    try:
        while todo:
            with os.scandir(todo.pop()) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        todo.append(Path(e.path))
                    elif e.is_file(follow_symlinks=False):
                        files.append(Path(e.path))
                    else:  # a symbolic link, a device, a fifo or a socket
                        return None
            if len(files) > MAX_TREE_FILES:
                return None
        h = hashlib.sha256()
        for p in sorted(files):
            h.update(p.relative_to(folder).as_posix().encode() + b"\0" + file_digest(p).encode())
    except OSError:
        return None
    return h.hexdigest()


@functools.cache
def versions() -> dict:
    """What a cached value also depends on: our code (by content), Chromium, Tesseract, key packages."""
    code = hashlib.sha256()
    for part in JUDGE_CODE:
        files = sorted((ROOT / part).rglob("*.py")) if (ROOT / part).is_dir() else [ROOT / part]
        for p in (f for f in files if f.is_file()):
            code.update(p.relative_to(ROOT).as_posix().encode() + file_digest(p).encode())
    out = {"code": code.hexdigest()[:16]}
    from iwr.mcp_servers.browser.launch import chromium_path

    for name, exe in (("chromium", chromium_path()), ("tesseract", shutil.which("tesseract"))):
        if exe and os.path.exists(exe):
            st = os.stat(os.path.realpath(exe))
            out[name] = f"{st.st_size}:{int(st.st_mtime)}"
    for pkg in PACKAGES:
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    return out


class Cache:
    """JSON values by (kind, key) and files by content, under one folder."""

    def __init__(self, root: str | Path):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.hits = 0
        self.misses = 0

    def _path(self, kind: str, key: str, suffix: str = ".json") -> Path:
        return self.root / kind / key[:2] / f"{key}{suffix}"

    def get(self, kind: str, key: str) -> Any | None:
        try:
            value = json.loads(self._path(kind, key).read_text())
        except (OSError, ValueError):
            self.misses += 1
            return None
        self.hits += 1
        return value

    def put(self, kind: str, key: str, value: Any) -> None:
        self._write(self._path(kind, key), json.dumps(value).encode())

    def put_file(self, path: str | Path) -> str:
        """Store a file by its content; returns the stored copy's path."""
        src = Path(path)
        dst = self._path("blobs", file_digest(src), src.suffix)
        if not dst.exists():
            self._write(dst, src.read_bytes())
        return str(dst)

    def _write(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # atomic: a reader sees the whole entry or none


def judgement_key(task: dict, task_folder: str | Path, entry: str | Path, config: Any,
                  root: str | Path | None = None) -> str | None:
    """The key of a judgement: the artifact's folder (`root` when the page sits below it), the task
    (actions, checkpoints, target crops, assets, video), the judge configuration and the versions; None when the
    artifact or the task's evidence cannot be hashed whole (a key that ignored a part would serve a
    judgement of other bytes)."""
    entry = Path(entry)
    top = Path(root) if root is not None else entry.parent
    artifact = tree_digest(top) if entry.is_file() and not entry.is_symlink() else None
    if artifact is None:
        return None
    folder = Path(task_folder)
    evidence = [tree_digest(folder / sub) if (folder / sub).is_dir() else "" for sub in ("checkpoints", "iwr", "assets")]
    video = video_in(folder)  # where the recording shows the pointer pressing grounds actions too
    evidence.append(file_digest(video) if video is not None else "")
    if None in evidence:
        return None
    config = config.model_dump(mode="json") if hasattr(config, "model_dump") else config
    return digest("judgement", task, artifact, entry.relative_to(top).as_posix() if root is not None else entry.name,
                  evidence, config, versions())


def _shot_paths(judgement: dict) -> list[tuple[dict, str]]:
    return ([(a, "screenshot") for a in judgement.get("actions", []) if a.get("screenshot")]
            + [(c, k) for c in judgement.get("checkpoints", []) for k in ("candidate", "scored") if c.get(k)])


# What an action's error says when it ran out of its time bound: on a loaded machine an honest page's
# action can, and judged again it may not, so such a judgement is not kept for every later run to replay.
OUT_OF_TIME = ("did not finish within", "timed out", "stopped responding")


def steady(judgement: dict) -> bool:
    """Whether no action of the judgement failed by running out of time (OUT_OF_TIME); an assertion's
    verdict quotes the page's words, which may say anything, and is not a time bound."""
    errors = [a.get("error") or "" for a in judgement.get("actions", [])]
    return not any(m in e for e in errors if not e.startswith("assertion failed") for m in OUT_OF_TIME)


async def cached_judgement(cache: Cache | None, key: str | None, run: Callable[[], Awaitable[dict]],
                           kind: str = "judgement") -> dict:
    """The stored judgement under `key`, or `run()`'s, stored with its screenshots (which the cached
    copy points to, so it stays complete when the run that made it is deleted) unless it is not steady."""
    if cache is None or key is None:
        return await run()
    hit = cache.get(kind, key)
    if hit is not None and all(Path(item[field]).is_file() for item, field in _shot_paths(hit)):
        log.info("cache.hit", kind=kind, key=key[:12])
        return hit
    j = await run()
    if not steady(j):
        log.info("cache.not_kept", kind=kind, key=key[:12], reason="an action ran out of time")
        return j
    stored = json.loads(json.dumps(j))
    for item, field in _shot_paths(stored):
        if Path(item[field]).is_file():
            item[field] = cache.put_file(item[field])
    cache.put(kind, key, stored)
    return j


class CachedToolbox:
    """A Toolbox whose metric comparisons are answered from the cache when both images were seen before."""

    def __init__(self, tools, cache: Cache):
        self.tools, self.cache = tools, cache

    def __getattr__(self, name: str):
        return getattr(self.tools, name)

    async def call(self, server: str, tool: str, **arguments: Any) -> Any:
        if (server, tool) != ("metrics", "compare"):
            return await self.tools.call(server, tool, **arguments)
        try:
            images = [file_digest(arguments["reference"]), file_digest(arguments["candidate"])]
        except (OSError, KeyError):
            return await self.tools.call(server, tool, **arguments)
        key = digest("compare", images, sorted(arguments.get("metrics") or []), bool(arguments.get("floor")),
                     ocr_reader(arguments.get("ocr_engine") or "tesseract"), versions())
        hit = self.cache.get("metrics", key)
        if hit is not None:
            return hit
        value = await self.tools.call(server, tool, **arguments)
        self.cache.put("metrics", key, value)
        return value


def with_cache(tools, cache_dir: str | Path | None):
    """`tools` wrapped with the cache in `cache_dir`, or unchanged when it is None."""
    return CachedToolbox(tools, Cache(cache_dir)) if cache_dir else tools


def cache_of(tools) -> Cache | None:
    return tools.cache if isinstance(tools, CachedToolbox) else None
