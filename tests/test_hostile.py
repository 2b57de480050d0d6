"""Hostile pages against the real judge (real Chromium, real MCP), a killed browser mid-run, and the
path confinement of the workspace and assets servers."""
import asyncio
import json
import os
import signal
import time
from pathlib import Path

import pytest
from mcp import Client

from iwr.evals.quality.hostile_corpus import CORPUS, build_corpus
from iwr.evals.quality.selftest import run_hostile
from iwr.mcp_servers.browser.procs import descendants

pytestmark = pytest.mark.slow

# Quick cases covering each kind of hostility: network, dialogs, navigation, storage isolation,
# judge injection, path traversal. The hangs and the big pages (loop_at_load, html_50mb, ...)
# take a minute each and run in `iwr selftest hostile`.
SUBSET = ["fetch_xhr_outside", "websocket_outside", "img_font_outside", "alert_flood", "navigate_file",
          "storage_read", "judge_injection", "path_traversal"]


def test_corpus_names_a_task_and_a_verdict_for_every_case(tmp_path):
    cases = build_corpus(tmp_path)
    assert len(cases) >= 22
    assert all(c.task and c.expect and c.why and c.page.is_file() for c in cases)
    assert {"html_50mb", "dom_100k", "invalid_utf8"} <= {c.name for c in cases}
    assert (tmp_path / "html_50mb" / "page" / "index.html").stat().st_size > 50_000_000
    names = [c.name for c in cases]
    assert names.index("storage_write") + 1 == names.index("storage_read")  # same browser, right after
    assert len([d for d in CORPUS.iterdir() if (d / "case.json").is_file()]) >= 20


def test_hostile_subset_is_judged_without_leaks_or_escapes():
    t0 = time.monotonic()
    res = asyncio.run(run_hostile(SUBSET, timeout_s=120))
    took = time.monotonic() - t0
    rows = {r["case"]: r for r in res["cases"]}
    assert set(rows) == set(SUBSET) | {"storage_write"}
    bad = [r for r in res["cases"] if not r["ok"]]
    assert not bad, json.dumps(bad, indent=1, default=str)
    assert all(r["leaks"] == 0 and r["escaped"] == 0 and r["seconds"] < 60 for r in rows.values())
    assert all(r["status"] == "scored" and r["ifs"] == 0 for r in rows.values())
    assert rows["fetch_xhr_outside"]["blocked"] > 0 and rows["websocket_outside"]["blocked"] > 0
    assert took < 400, took


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def chromium_of_browser_server() -> int | None:
    """The main Chromium process under this test's browser MCP server."""
    for pid in descendants(os.getpid()):
        if "mcp_servers browser" in _cmdline(pid):
            for child in descendants(pid):
                cmd = _cmdline(child)
                if "chrom" in cmd and "--type=" not in cmd and "--remote-debugging-pipe" in cmd:
                    return child
    return None


async def _kill_chromium_when(shot: Path, killed: list) -> None:
    """Kill Chromium (SIGKILL) as soon as the judge has taken `shot`: mid-task."""
    while not shot.exists():
        await asyncio.sleep(0.05)
    pid = chromium_of_browser_server()
    assert pid, "no Chromium found under the browser server"
    os.kill(pid, signal.SIGKILL)
    killed.append(pid)


@pytest.mark.parametrize("kills", [1, 2])
def test_a_killed_browser_is_retried_once_and_the_run_goes_on(tmp_path, kills):
    from iwr.evals.run.config import RunConfig
    from iwr.evals.run.runner import run
    from iwr.tasks.loader import load_suite
    from tests.conftest import SUITE

    cfg = RunConfig(run_id="crash", agent="oracle", suite=load_suite(SUITE), runs_dir=tmp_path, task_ids=["1", "105"],
                    concurrency=1, score_turns=False)
    killed: list = []
    shots = tmp_path / "crash" / "shots"

    async def main():
        # Chromium dies in the middle of task 1 (after its first action), and again in the retry (session s2).
        async def killer():
            for sid in ["s1", "s2"][:kills]:
                await _kill_chromium_when(shots / sid / "step_1.png", killed)
        k = asyncio.ensure_future(killer())
        try:
            return await run(cfg)
        finally:
            k.cancel()

    results = {r.task_id: r for r in asyncio.run(main())}
    assert len(killed) == kills
    attempts = [json.loads(x) for x in (tmp_path / "crash" / "1" / "attempts.jsonl").read_text().splitlines()]
    assert len(attempts) == 2 and attempts[1]["retry_after"].startswith("browser.")
    if kills == 1:
        assert results["1"].status == "scored" and results["1"].ifs == 1.0  # the retry had a fresh Chromium
    else:
        assert results["1"].status == "infra_failure" and "retried once" in results["1"].error
    assert results["105"].status == "scored" and results["105"].ifs == 1.0  # and the run went on


async def test_workspace_and_assets_tools_refuse_escapes(tmp_path, suite_dir):
    """What test_mcp_servers leaves out: absolute paths, symlinks and oversized writes through the MCP
    tools themselves, and an asset that is a symlink out of its folder."""
    import shutil

    from iwr.mcp_servers.assets.server import build_server as assets_server
    from iwr.mcp_servers.workspace.core import MAX_WRITE_BYTES
    from iwr.mcp_servers.workspace.server import build_server as workspace_server
    from tests.conftest import one_task_suite

    outside = tmp_path / "outside.txt"
    outside.write_text("secret")
    root = tmp_path / "ws"
    root.mkdir()
    os.symlink(outside, root / "link.txt")
    os.symlink(tmp_path, root / "up")
    async with Client(workspace_server(root)) as c:
        for tool, args in [("read_file", {"path": "/etc/passwd"}), ("write_file", {"path": "/tmp/x.html", "content": "x"}),
                           ("read_file", {"path": "../outside.txt"}), ("read_file", {"path": "link.txt"}),
                           ("write_file", {"path": "link.txt", "content": "x"}), ("read_file", {"path": "up/outside.txt"}),
                           ("write_file", {"path": "up/outside.txt", "content": "x"}),
                           ("edit_file", {"path": "link.txt", "old": "secret", "new": "x"}),
                           ("delete_file", {"path": "up/outside.txt"}),
                           ("write_file", {"path": "big.html", "content": "x" * (MAX_WRITE_BYTES + 1)})]:
            r = await c.call_tool(tool, args)
            assert r.is_error, (tool, args)
    assert outside.read_text() == "secret" and not (root / "big.html").exists()

    suite = one_task_suite(tmp_path / "s")
    assets = suite / "data" / "1" / "assets"
    os.symlink(outside, assets / "sneaky.png")
    shutil.copy(outside, tmp_path / "plain.png")
    async with Client(assets_server(suite)) as c:
        for name in ("sneaky.png", str(tmp_path / "plain.png"), "../video.mp4", "..%2fvideo.mp4"):
            r = await c.call_tool("get_asset", {"task_id": "1", "name": name})
            assert r.is_error, name
