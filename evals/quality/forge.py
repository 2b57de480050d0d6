"""A public repository's pinned commit, fetched as the ecosystem does: a shallow `git fetch` of that one
commit from its forge into the user's cache, where `tasks/real` reads the app files.

The forge is GitHub unless IWR_FORGE names another base URL (a mirror, or a loopback `git daemon` in
tests); the repository is `<forge>/<owner>/<name>.git`. Nothing is fetched that is already there.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from iwr.settings import settings

FORGE = settings().forge
FETCH_SECONDS = 600


class ForgeError(RuntimeError):
    """The commit could not be fetched; the message says from where and why."""


def has_commit(git: Path, commit: str) -> bool:
    return (git / "HEAD").is_file() and subprocess.run(
        ["git", "--git-dir", str(git), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True).returncode == 0


def fetch_commit(repo: str, commit: str, into: Path, forge: str = FORGE) -> Path:
    """A bare git directory at `into` holding `commit` of `repo` (owner/name), fetched when missing."""
    if has_commit(into, commit):
        return into
    url = f"{forge.rstrip('/')}/{repo}.git"
    into.mkdir(parents=True, exist_ok=True)
    if not (into / "HEAD").is_file():
        subprocess.run(["git", "init", "-q", "--bare", str(into)], check=True, capture_output=True)
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0"}  # a private or missing repository fails, never asks
    try:
        done = subprocess.run(["git", "--git-dir", str(into), "fetch", "-q", "--depth", "1", url,
                               f"{commit}:refs/pinned/{commit}"],  # a ref, so that no gc drops it
                              capture_output=True, text=True, timeout=FETCH_SECONDS, env=env)
    except subprocess.TimeoutExpired as e:
        raise ForgeError(f"fetching {commit[:12]} of {url} took over {FETCH_SECONDS} s") from e
    if done.returncode != 0 or not has_commit(into, commit):
        why = (done.stderr or "").strip().splitlines()[-1:] or ["the commit is not in what came"]
        raise ForgeError(f"cannot fetch {commit[:12]} of {url}: {why[0]} (set IWR_FORGE to a reachable mirror, "
                         f"or pass --mirror with snapshots)")
    return into
