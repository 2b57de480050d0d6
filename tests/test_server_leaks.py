"""Nothing leaks: after a server exits normally or is killed, its Chromium and temp folders are gone."""
import asyncio
import os
import signal
import sys
import tempfile
import time
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from iwr.mcp_servers.browser.procs import descendants

pytestmark = pytest.mark.slow


def alive(pids: set[int]) -> set[int]:
    return {p for p in pids if Path(f"/proc/{p}").exists() and "(Z)" not in _state(p)}


def _state(pid: int) -> str:
    try:
        return "(Z)" if (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z") else ""
    except OSError:
        return ""


def server_pid() -> int:
    me = os.getpid()
    for pid in descendants(me):
        try:
            if b"mcp_servers" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            pass
    raise AssertionError("server process not found")


def wait_gone(pids: set[int], seconds: float = 10) -> set[int]:
    end = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < end:
        time.sleep(0.1)
    return alive(pids)


@pytest.mark.parametrize("how", ["normal", "sigkill"])
async def test_browser_server_leaves_no_chromium_and_no_temp(suite_dir, how):
    site = suite_dir.parent / "sites" / "reviews"
    before_tmp = set(Path(tempfile.gettempdir()).glob("iwr-shots-*"))
    params = StdioServerParameters(command=sys.executable, args=["-m", "iwr.mcp_servers", "browser"])
    procs: set[int] = set()
    try:
        async with Client(params) as c:
            await c.call_tool("open", {"target": str(site)})
            await c.call_tool("screenshot", {"session": "s1"})
            pid = server_pid()
            procs = descendants(pid) | {pid}
            assert any(b"chrom" in Path(f"/proc/{p}/cmdline").read_bytes() for p in alive(procs))
            if how == "sigkill":
                os.kill(pid, signal.SIGKILL)
                await asyncio.sleep(0.3)
    except BaseException:  # the client sees its server die; that is the point of the test
        if how == "normal":
            raise
    assert wait_gone(procs) == set(), "processes left behind"
    if how == "sigkill":  # a killed server cannot clean up; the next one sweeps its folder
        from iwr.mcp_servers.browser.hub import BrowserHub

        async with BrowserHub():
            pass
    assert set(Path(tempfile.gettempdir()).glob("iwr-shots-*")) <= before_tmp
