"""tasks/real's apps come from their public repositories at the pinned commits: a shallow fetch of that
one commit into the user's cache. A loopback `git daemon` stands in for the forge."""
from __future__ import annotations

import json
import socket
import subprocess
import time
from pathlib import Path

import pytest

from iwr.evals.quality.forge import ForgeError, fetch_commit
from iwr.evals.quality.real_corpus import CorpusError, materialise, real_tasks


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def forge(tmp_path: Path):
    """A forge serving someone/app.git (two commits: the pinned one and a later one) over git://."""
    work = tmp_path / "work"
    work.mkdir()
    _git("init", "-q", cwd=work)
    _git("config", "user.email", "t@t", cwd=work)
    _git("config", "user.name", "t", cwd=work)
    (work / "index.html").write_text("<p>pinned</p>")
    (work / "LICENSE").write_text("MIT, someone")
    _git("add", ".", cwd=work)
    _git("commit", "-qm", "pinned", cwd=work)
    pinned = _git("rev-parse", "HEAD", cwd=work)
    (work / "index.html").write_text("<p>later</p>")
    _git("commit", "-qam", "later", cwd=work)
    served = tmp_path / "served" / "someone"
    served.mkdir(parents=True)
    _git("clone", "-q", "--bare", str(work), str(served / "app.git"), cwd=tmp_path)
    _git("config", "uploadpack.allowAnySHA1InWant", "true", cwd=served / "app.git")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    daemon = subprocess.Popen(["git", "daemon", "--export-all", "--reuseaddr", "--listen=127.0.0.1", f"--port={port}",
                               f"--base-path={tmp_path / 'served'}", str(tmp_path / "served")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):  # until it listens
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"git://127.0.0.1:{port}", pinned
    daemon.terminate()
    daemon.wait(timeout=10)


def test_the_pinned_commit_is_fetched_once_into_the_mirror(forge, tmp_path):
    url, pinned = forge
    git = fetch_commit("someone/app", pinned, tmp_path / "mirror" / "someone+app" / "repo.git", url)
    shown = subprocess.run(["git", "--git-dir", str(git), "show", f"{pinned}:index.html"], capture_output=True, text=True)
    assert shown.stdout == "<p>pinned</p>"
    shallow = subprocess.run(["git", "--git-dir", str(git), "rev-list", "--all", "--count"], capture_output=True, text=True)
    assert shallow.stdout.strip() == "1"  # that commit only, not the history after it
    assert fetch_commit("someone/app", pinned, git, "git://127.0.0.1:9") == git  # there already: nothing fetched
    with pytest.raises(ForgeError, match=r"cannot fetch 000000000000 of git://127\.0\.0\.1:\d+/someone/app\.git"):
        fetch_commit("someone/app", "0" * 40, tmp_path / "other.git", url)


def test_materialise_brings_an_app_from_its_forge(forge, tmp_path):
    url, pinned = forge
    root = tmp_path / "real"
    app = root / "apps" / "demo"
    app.mkdir(parents=True)
    (app / "source.json").write_text(json.dumps({"repo": "someone/app", "commit": pinned, "licence": "MIT",
                                                 "licence_file": "LICENSE", "files": ["index.html"]}))
    (app / "variants.json").write_text(json.dumps({"x": {"note": "n", "inject_body": "1"}}))
    (root / "originals.json").write_text(json.dumps([{"task": 1, "app": "demo", "page": "index.html", "broken": ["x"]}]))
    mirror = tmp_path / "cache" / "mirror"  # not there yet: made on the way
    with pytest.raises(CorpusError, match="no fetch mirror"):
        materialise(root, mirror, forge=None)
    lines = materialise(root, mirror, url)
    assert lines[0].startswith(f"demo: site/ (1 file) and LICENSE from someone/app@{pinned[:12]}")
    assert (app / "site" / "index.html").read_text() == "<p>pinned</p>" and (app / "LICENSE").read_text() == "MIT, someone"
    assert real_tasks(root)[0].site == app / "site"
    assert materialise(root, mirror, "git://127.0.0.1:9")[0].endswith("already up to date")  # offline now: the cache holds it
