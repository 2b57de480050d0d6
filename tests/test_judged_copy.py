"""The judge judges its own copy of an artifact: regular files only. A link (to a file or a folder), a
hard link, a fifo or too many bytes of the page's own is refused, through `iwr judge` and `iwr run
--agent cmd:...` alike, and the cache key covers every byte the copy serves."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from iwr.evals.judging import judged_copy as jc
from iwr.evals.judging.cache import judgement_key, tree_digest
from iwr.evals.judging.judged_copy import RefusedArtifact, judged_copy
from iwr.evals.workspace.prepare import prepare
from iwr.graphs.judge import JudgeConfig
from iwr.tasks.loader import load_suite
from iwr.tasks.marker import MARKER

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "tasks" / "suite"


def site(root: Path) -> Path:
    """An honest artifact: a page, a stylesheet in a subfolder, an asset, and a workspace's tool state."""
    (root / "assets").mkdir(parents=True)
    (root / "css").mkdir()
    (root / "index.html").write_text("<link rel=stylesheet href=css/a.css><img src=assets/1.png><p>page</p>")
    (root / "css" / "a.css").write_text("p{color:red}")
    (root / "assets" / "1.png").write_bytes(b"\x89PNG" + bytes(range(256)) * 4)
    (root / MARKER).write_text('{"task_id": "1", "key": "0"}')
    (root / ".shots").mkdir()
    (root / ".shots" / "s.png").write_bytes(b"shot")
    (root / ".mcp.json").write_text("{}")
    return root / "index.html"


def task_with_asset(root: Path, data: bytes) -> Path:
    (root / "assets").mkdir(parents=True)
    (root / "assets" / "big.bin").write_bytes(data)
    return root


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def refusal(entry: Path, dest: Path, task_folder: Path | None = None) -> str:
    with pytest.raises(RefusedArtifact) as e:
        judged_copy(entry, dest, task_folder)
    return e.value.reason


def test_an_honest_folder_is_copied_byte_for_byte_without_the_tool_state(tmp_path):
    page = site(tmp_path / "a")
    got = judged_copy(page, tmp_path / "copy")
    assert got == tmp_path / "copy" / "index.html"
    want = {k: v for k, v in files_of(tmp_path / "a").items() if not k.startswith(".") and k != MARKER}
    assert files_of(tmp_path / "copy") == want and set(want) == {"index.html", "css/a.css", "assets/1.png"}
    assert not [p for p in (tmp_path / "copy").rglob("*") if p.is_symlink()]
    assert all(p.stat().st_nlink == 1 for p in (tmp_path / "copy").rglob("*") if p.is_file())
    assert judged_copy(tmp_path / "a", tmp_path / "copy2") == tmp_path / "copy2" / "index.html"  # a folder names its index.html


def test_a_page_that_is_a_link_to_a_file_outside_is_refused(tmp_path):
    outside = tmp_path / "reference.html"
    outside.write_text("<p>the reference</p>")
    page = site(tmp_path / "a")
    page.unlink()
    page.symlink_to(outside)
    reason = refusal(page, tmp_path / "copy")
    assert "index.html is a symbolic link" in reason and str(outside) in reason
    (tmp_path / "a" / "other.html").write_text("<p>mine</p>")  # another page of the folder: the link still counts
    assert "index.html is a symbolic link" in refusal(tmp_path / "a" / "other.html", tmp_path / "copy3")
    page.unlink()
    page.symlink_to(tmp_path / "nowhere.html")  # dangling: a link all the same, not a missing page
    assert "symbolic link" in refusal(page, tmp_path / "copy2")


def test_links_to_folders_hard_links_and_fifos_are_refused(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(b"secret")
    page = site(tmp_path / "a")
    (tmp_path / "a" / "css" / "ref").symlink_to(outside)
    assert "css/ref is a symbolic link" in refusal(page, tmp_path / "c1")
    (tmp_path / "a" / "css" / "ref").unlink()

    os.link(outside / "secret.png", tmp_path / "a" / "assets" / "2.png")
    reason = refusal(page, tmp_path / "c2")
    assert "assets/2.png has 2 hard links" in reason and "outside" in reason
    (tmp_path / "a" / "assets" / "2.png").unlink()

    os.mkfifo(tmp_path / "a" / "pipe")
    assert "pipe is a fifo" in refusal(page, tmp_path / "c3")  # and the copy did not hang on opening it
    (tmp_path / "a" / "pipe").unlink()

    (tmp_path / "a" / "assets").rename(tmp_path / "real-assets")
    (tmp_path / "a" / "assets").symlink_to(tmp_path / "real-assets")
    assert "assets is a symbolic link" in refusal(page, tmp_path / "c4")
    (tmp_path / "a" / "assets").unlink()
    (tmp_path / "real-assets").rename(tmp_path / "a" / "assets")

    (tmp_path / "b").symlink_to(tmp_path / "a", target_is_directory=True)  # the artifact folder itself
    assert "the artifact folder" in refusal(tmp_path / "b" / "index.html", tmp_path / "c5")
    assert judged_copy(page, tmp_path / "c6").is_file()  # everything undone: copied again


def test_a_missing_page_and_too_deep_or_too_many_entries_are_refused(tmp_path, monkeypatch):
    site(tmp_path / "a")
    assert refusal(tmp_path / "a" / "none.html", tmp_path / "c1") == "no page at none.html"
    monkeypatch.setattr(jc, "MAX_ARTIFACT_DEPTH", 2)
    (tmp_path / "a" / "x" / "y" / "z").mkdir(parents=True)
    assert "x/y/z lies more than 2 folders deep" in refusal(tmp_path / "a" / "index.html", tmp_path / "c2")
    monkeypatch.setattr(jc, "MAX_ARTIFACT_FILES", 4)
    assert "more than 4 files and folders" in refusal(tmp_path / "a" / "index.html", tmp_path / "c3")


def test_the_byte_cap_counts_the_page_s_own_bytes_not_the_task_s_assets(tmp_path, monkeypatch):
    monkeypatch.setattr(jc, "MAX_ARTIFACT_BYTES", 10_000)
    big = os.urandom(40_000)
    task = task_with_asset(tmp_path / "task", big)
    page = site(tmp_path / "a")
    (tmp_path / "a" / "assets" / "big.bin").write_bytes(big)
    (tmp_path / "a" / "img").mkdir()
    (tmp_path / "a" / "img" / "again.bin").write_bytes(big)  # a second copy under another name: still an asset
    copied = judged_copy(page, tmp_path / "c1", task)
    assert (copied.parent / "img" / "again.bin").read_bytes() == big
    reason = refusal(page, tmp_path / "c2")  # without the task, those bytes are the page's own
    assert "that are not the task's assets (reached at assets/big.bin)" in reason
    (tmp_path / "a" / "img" / "again.bin").write_bytes(big[:-1] + b"\0")  # same size, other bytes
    assert "reached at img/again.bin" in refusal(page, tmp_path / "c3", task)
    (tmp_path / "a" / "img" / "again.bin").unlink()
    for n in range(5):  # more copies of the assets than a page needs
        (tmp_path / "a" / "img" / f"{n}.bin").write_bytes(big)
    assert "copies of the task's assets" in refusal(page, tmp_path / "c4", task)


def test_the_cache_key_covers_every_served_byte_and_refuses_links(tmp_path):
    page = site(tmp_path / "a")
    copy = judged_copy(page, tmp_path / "c1")
    task = {"id": 1, "action_sequence": []}
    key = judgement_key(task, tmp_path / "task", copy, JudgeConfig())
    assert key and key == judgement_key(task, tmp_path / "task", judged_copy(page, tmp_path / "c2"), JudgeConfig())
    (tmp_path / "a" / "css" / "a.css").write_text("p{color:blue}")  # one byte deep in a subfolder
    assert judgement_key(task, tmp_path / "task", judged_copy(page, tmp_path / "c3"), JudgeConfig()) != key
    (tmp_path / "c3" / "css" / "b.css").symlink_to(tmp_path / "a" / "css" / "a.css")
    assert tree_digest(tmp_path / "c3") is None
    assert judgement_key(task, tmp_path / "task", tmp_path / "c3" / "index.html", JudgeConfig()) is None
    (tmp_path / "c3" / "css" / "b.css").unlink()
    os.mkfifo(tmp_path / "c3" / "pipe")
    assert judgement_key(task, tmp_path / "task", tmp_path / "c3" / "index.html", JudgeConfig()) is None


def reference_page() -> Path:
    task = load_suite(SUITE).get("1")
    return task.reference_site() / task.record.iwr.reference.page


@pytest.mark.slow
def test_iwr_judge_refuses_a_workspace_whose_page_links_to_the_reference(tmp_path):
    ws, elsewhere = tmp_path / "ws", tmp_path / "elsewhere"
    elsewhere.mkdir()
    prepare(load_suite(SUITE).get("1"), ws)
    (ws / "index.html").symlink_to(reference_page())
    p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "judge", str(ws), "--json"], cwd=elsewhere,
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-2000:]
    got = json.loads(p.stdout.strip().splitlines()[-1])
    assert got["status"] == "model_failure" and got["final"] == 0.0, got
    assert "index.html is a symbolic link" in got["error"] and str(reference_page()) in got["error"]


@pytest.mark.slow
def test_iwr_run_refuses_what_a_sandboxed_agent_linked_outside(tmp_path):
    runs = tmp_path / "runs"
    command = f"cmd:ln -s {reference_page()} index.html"
    p = subprocess.run([sys.executable, "-m", "iwr.evals.cli", "run", "--agent", command, "--task", "1",
                        "--seconds", "60", "--runs-dir", str(runs), "--run-id", "x", "--no-cache", "--json"],
                       capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-3000:]
    r = json.loads((runs / "x" / "1" / "result.json").read_text())
    assert (runs / "x" / "1" / "artifact" / "index.html").is_symlink()  # the agent did make the link
    assert r["status"] == "model_failure" and r["final"] == 0.0, r
    assert "index.html is a symbolic link" in r["error"]
