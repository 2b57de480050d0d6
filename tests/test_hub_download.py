"""`iwr tasks download`: the official data set by name from a loopback server that speaks the Hub's
file API (HF_ENDPOINT), into a folder per commit or one named, at a resolved commit, whole after a cut
connection, checked like `iwr tasks validate`, then run; and a clear error where the Hub cannot be
reached or holds no such data set or revision."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from iwr.evals.cli.app import app
from iwr.tasks.hub import OFFICIAL_REPO, HubError, download
from iwr.tasks.loader import load_suite
from tests.conftest import one_task_suite
from tests.fake_hub import FakeHub
from tests.test_official_layout import official_copy

pytestmark = pytest.mark.slow


@pytest.fixture
def hub(monkeypatch, tmp_path):
    server = FakeHub()
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hf-home" / "hub"))
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    yield server
    server.close()


def test_download_by_name_resumes_and_checks_the_layout(hub, suite_dir, tmp_path):
    data = official_copy(suite_dir, tmp_path / "release", limit=2)
    first = hub.add_folder("datasets", OFFICIAL_REPO, data)
    video = next(p for p in hub.repos[("datasets", OFFICIAL_REPO)]["commits"][first] if p.endswith("video.mp4"))
    hub.cut[video] = 5000  # the connection drops after 5 kB of the first video, once
    newer = hub.add_folder("datasets", OFFICIAL_REPO, with_reference(tmp_path / "newer"))  # main moves on

    out = CliRunner().invoke(app, ["tasks", "download", "--revision", first, "--json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["commit"] == first and got["problems"] == [] and got["endpoint"] == hub.url
    assert got["folder"] == str(tmp_path / "hf-home" / "iwr" / "datasets--IWR-Bench--IWR-Bench" / first)
    assert [t.id for t in load_suite(got["folder"]).tasks] == ["1", "101"]
    gets = [r for r in hub.requests if r[0] == "GET" and r[1].endswith(video)]
    assert len(gets) == 2 and video not in hub.cut  # cut once, fetched again, whole
    assert (tmp_path / "release" / "data" / "1" / "video.mp4").read_bytes() == \
        (Path(got["folder"]) / "data" / "1" / "video.mp4").read_bytes()

    into = tmp_path / "mine"
    latest = download(out=into)  # the default revision, resolved to main's commit
    assert latest.commit == newer and latest.folder == into
    checked = CliRunner().invoke(app, ["tasks", "validate", str(into)])
    assert checked.exit_code == 0, checked.output
    ran = CliRunner().invoke(app, ["run", "--agent", "oracle", "--tasks", str(into), "--runs-dir", str(tmp_path / "runs"),
                                   "--run-id", "hub-oracle", "--json"])
    assert ran.exit_code == 0, ran.output
    (task,) = json.loads(ran.stdout.strip().splitlines()[-1])["tasks"]
    assert task["task_id"] == "1" and task["status"] == "scored" and task["final"] >= 0.99, task


def with_reference(root: Path) -> Path:
    """Task 1 in the official layout plus our optional `iwr` key, its reference site inside the data set
    (so that the oracle has something to copy)."""
    line = json.loads((one_task_suite(root / "src") / "data.jsonl").read_text())
    site = root / "src" / "tasks" / "suite" / line["iwr"]["reference"]["site"]
    line["iwr"]["reference"]["site"] = "sites/reviews"
    shutil.copytree(root / "src" / "tasks" / "suite" / "data", root / "set" / "data")
    shutil.copytree(site, root / "set" / "sites" / "reviews")
    (root / "set" / "data.jsonl").write_text(json.dumps(line) + "\n")
    return root / "set"


def test_a_broken_download_and_an_unreachable_hub_say_so(hub, tmp_path, monkeypatch):
    hub.add("datasets", OFFICIAL_REPO, {"README.md": b"# not the official layout\n"})
    out = CliRunner().invoke(app, ["tasks", "download", "--out", str(tmp_path / "x")])
    assert out.exit_code == 2 and "holds no data.jsonl" in out.output
    hub.add("datasets", OFFICIAL_REPO, {"data.jsonl": b'{"id": 1}\n'}, ref="bad")
    out = CliRunner().invoke(app, ["tasks", "download", "--revision", "bad", "--out", str(tmp_path / "y")])
    assert out.exit_code == 1 and "problem(s)" in out.output
    with pytest.raises(HubError, match="no revision 'v9'"):
        download("v9", tmp_path / "z")
    with pytest.raises(HubError, match="no data set someone/else"):
        download(repo="someone/else")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    out = CliRunner().invoke(app, ["tasks", "download"])
    assert out.exit_code == 2 and "cannot fetch IWR-Bench/IWR-Bench@main from http://127.0.0.1:9" in out.output
    assert "hf download" in out.output
